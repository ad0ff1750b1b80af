// Seven containers put into known states through the sandbox's control API, for the tests of
// Container → Get Many's filters (test/engine/containerFilters.test.ts) and of the last free day
// digest (test/e2e/digest.test.ts): what each filter keeps is known by construction.
import { DateTime } from 'luxon';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { trackManyContainers, type SandboxHandle } from './sandbox';

/** Each box, and its line last free day in days from today at its port (null: none). */
export const BOXES = {
	readySoon: { number: withCheckDigit('MSCU610001'), days: 1 as number | null },
	heldToday: { number: withCheckDigit('MSCU610002'), days: 0 as number | null },
	readyPassed: { number: withCheckDigit('MSCU610003'), days: -2 as number | null },
	onShipLater: { number: withCheckDigit('MSCU610004'), days: 5 as number | null },
	returned: { number: withCheckDigit('MSCU610005'), days: -5 as number | null },
	pendingHold: { number: withCheckDigit('MSCU610006'), days: null as number | null },
	readyUndated: { number: withCheckDigit('MSCU610007'), days: null as number | null },
};
export type Box = keyof typeof BOXES;
export const ALL_BOXES = Object.keys(BOXES) as Box[];

export function boxOf(number: unknown): Box | undefined {
	return ALL_BOXES.find((box) => BOXES[box].number === number);
}

/**
 * Tracks the boxes and plays them into their states: ready (readySoon, readyPassed,
 * readyUndated), held by an active customs hold and not released (heldToday), still on the ship
 * (onShipLater, and pendingHold with a pending customs hold), returned empty (returned). Each
 * gets one last free day, the line's, as a date at its port; the others are cleared. Returns
 * each box's container id.
 */
export async function putBoxesInStates(handle: SandboxHandle): Promise<Record<Box, string>> {
	const containers = await trackManyContainers(
		handle,
		ALL_BOXES.map((box) => BOXES[box].number),
		'MSCU',
	);
	const ids = {} as Record<Box, string>;
	for (const container of containers) {
		const box = boxOf(container.attributes.number);
		if (box) ids[box] = container.id;
	}
	const control = async (path: string, body: Record<string, unknown>) => {
		const answer = await handle.control.post(path, body);
		if (answer.status >= 300)
			throw new Error(`${path} ${JSON.stringify(body)} answered ${answer.status}`);
	};
	const change = (box: Box, body: Record<string, unknown>) =>
		control(`/containers/${ids[box]}/changes`, body);
	const play = (box: Box, scenario: string) =>
		control(`/containers/${ids[box]}/scenarios/${scenario}`, { gap_seconds: 0 });

	for (const box of ['readySoon', 'heldToday', 'readyPassed', 'readyUndated'] as Box[])
		await play(box, 'ready_for_pickup');
	await change('heldToday', { kind: 'place_hold', name: 'customs', status: 'hold' });
	await change('heldToday', { kind: 'set_availability', available: false });
	await play('returned', 'journey');
	await change('pendingHold', { kind: 'place_hold', name: 'customs', status: 'pending' });

	for (const box of ALL_BOXES) {
		for (const source of ['terminal', 'rail', 'line'])
			await change(box, { kind: 'set_last_free_day', source, date: null });
		const days = BOXES[box].days;
		if (days === null) continue;
		const zone = String(
			handle.sandbox.world.store.get('container', ids[box])!.attributes.pod_timezone,
		);
		const date = DateTime.now().setZone(zone).startOf('day').plus({ days }).toISODate();
		await change(box, { kind: 'set_last_free_day', source: 'line', date });
	}
	return ids;
}

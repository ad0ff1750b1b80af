// Money at risk in the sandbox (issue 62): boxes picked up after their last free day, boxes whose
// empty stays out past the demo tariff's detention free days, and that tariff, served by the
// control API. The in-process world is read only to choose inputs; assertions use HTTP answers,
// and the charges are worked out by the node's own rules (logic/charges.ts) from what was served.
import { DateTime } from 'luxon';

import { containerCharges } from '../../nodes/ContainerTracking/logic/charges';
import { readTariffRows } from '../../nodes/ContainerTracking/logic/tariff';
import { startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import { findContainerNumber, getContainer } from './helpers';

describe('the sandbox: money at risk', () => {
	let handle: SandboxHandle;
	const port = (plan: { inland: unknown }) => plan.inland === null;
	const staysOutLate = findContainerNumber(
		'MSKU',
		'MAEU',
		(plan) => port(plan) && plan.outcome === 'demurrage' && plan.staysOut,
	);
	const backSoon = findContainerNumber(
		'MSKU',
		'MAEU',
		(plan) => port(plan) && plan.outcome === 'pickup' && !plan.staysOut,
	);
	const railStaysOut = findContainerNumber(
		'MSKU',
		'MAEU',
		(plan) => plan.inland !== null && plan.staysOut,
	);
	const ids: Record<string, string> = {};

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		for (const number of [staysOutLate, backSoon, railStaysOut])
			ids[number] = (await trackContainer(handle, number, 'MAEU')).containerIds[0];
		expect((await handle.control.post('/clock/advance', { days: 40 })).status).toBe(200);
	});
	afterAll(async () => handle.stop());

	const daysOut = (attributes: Record<string, string>, pickup: string) =>
		DateTime.fromISO(attributes.empty_terminated_at).diff(
			DateTime.fromISO(attributes[pickup]),
			'days',
		).days;

	it('a box that stays out keeps its empty 7 days; the others 2 or 3', async () => {
		const late = (await getContainer(handle, ids[staysOutLate])).data.attributes;
		expect(daysOut(late, 'pod_full_out_at')).toBeCloseTo(7, 5);
		const soon = (await getContainer(handle, ids[backSoon])).data.attributes;
		expect(daysOut(soon, 'pod_full_out_at')).toBeCloseTo(3, 5);
		const rail = (await getContainer(handle, ids[railStaysOut])).data.attributes;
		expect(daysOut(rail, 'final_destination_full_out_at')).toBeCloseTo(7, 5);
	});

	it('serves a demo tariff the node reads without a problem, and with it the boxes cost what their days say', async () => {
		const { status, data } = await handle.control.get('/tariff');
		expect(status).toBe(200);
		const { rows, problems } = readTariffRows(data.data);
		expect(problems).toEqual([]);
		expect(rows.length).toBe(data.data.length);

		const now = new Date(Date.parse((await handle.control.get('/clock')).data.now));
		const chargesOf = async (number: string) => {
			const document = await getContainer(handle, ids[number]);
			const attributes = document.data.attributes;
			return containerCharges(
				attributes,
				{
					shipping_line: ['MAEU'],
					terminal: [],
					size_feet: attributes.equipment_length,
					high_cube: attributes.equipment_height === 'high_cube',
					container_type: attributes.equipment_type,
				},
				rows,
				{ now, holidays: new Set() },
			);
		};
		// Picked up three days after its (extended) last free day, out 7 days, Maersk's 5 free.
		const late = await chargesOf(staysOutLate);
		expect(late).toMatchObject({
			charges_status: 'returned',
			demurrage_days: 3,
			detention_days: 3,
		});
		expect(late.charges_missing).toEqual([]);
		expect(late.detention_charges).toBe(3 * 125);
		expect(late.demurrage_charges).toBeGreaterThan(0);
		// Picked up before its last free day and back within its free days: nothing.
		const soon = await chargesOf(backSoon);
		expect(soon).toMatchObject({ demurrage_days: 0, detention_days: 0, charges_total: 0 });
	});
});

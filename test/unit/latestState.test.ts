// Output → Latest State per Container on its own
// (nodes/ContainerTracking/trigger/items/latestState.ts): an execution's items folded into one per
// container, with the newest state whatever the order the items came in, and items about no
// container passed through.
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { latestStatePerContainer } from '../../nodes/ContainerTracking/trigger/items/latestState';

function state(id: string, asOf: string, extra: IDataObject = {}): IDataObject {
	return {
		id,
		number: `NUM-${id}`,
		pickup_status: 'not_available',
		container_as_of: asOf,
		...extra,
	};
}

function change(
	index: number,
	containerId: string | null,
	notificationId: string,
	container?: IDataObject,
	extra: IDataObject = {},
): INodeExecutionData {
	return {
		json: {
			event: 'container.updated',
			notification_id: notificationId,
			container_id: containerId,
			container_number: containerId ? `NUM-${containerId}` : null,
			...(container ? { container } : {}),
			...extra,
		},
		pairedItem: { item: index },
	};
}

describe('latestStatePerContainer', () => {
	it('gives one item per container with the newest state, its changes and notifications', () => {
		const newest = state('c-1', '2026-11-26T10:05:00Z', { pickup_status: 'ready' });
		const items = [
			change(0, 'c-1', 'n-2', newest, { field: 'available_for_pickup' }),
			change(1, 'c-2', 'n-3', state('c-2', '2026-11-26T10:00:00Z'), { field: 'pickup_lfd' }),
			// An older notification about c-1 that came later: its state does not win.
			change(2, 'c-1', 'n-1', state('c-1', '2026-11-26T10:01:00Z'), { field: 'pickup_lfd' }),
			change(3, 'c-1', 'n-2', newest, { field: 'holds_at_pod_terminal' }),
		];
		const folded = latestStatePerContainer(items);
		expect(folded).toHaveLength(2);
		expect(folded[0].json).toMatchObject({
			...newest,
			container_id: 'c-1',
			container_number: 'NUM-c-1',
			notification_ids: ['n-2', 'n-1'],
			events: ['container.updated'],
		});
		expect((folded[0].json.changes as IDataObject[]).map((c) => c.field)).toEqual([
			'available_for_pickup',
			'pickup_lfd',
			'holds_at_pod_terminal',
		]);
		// A change keeps what it said, not a copy of the container.
		expect((folded[0].json.changes as IDataObject[])[0]).not.toHaveProperty('container');
		expect(folded[0].pairedItem).toEqual([{ item: 0 }, { item: 2 }, { item: 3 }]);
		expect(folded[1].json).toMatchObject({ id: 'c-2', notification_ids: ['n-3'] });
		expect(folded[1].pairedItem).toEqual([{ item: 1 }]);
	});

	it('passes items about no container through, where they stood', () => {
		const items = [
			change(0, null, 'n-1', undefined, { event: 'tracking_request.failed' }),
			change(1, 'c-1', 'n-2', state('c-1', '2026-11-26T10:00:00Z')),
			change(2, null, 'n-3', undefined, { event: 'shipment.estimated.arrival' }),
		];
		const folded = latestStatePerContainer(items);
		expect(folded.map((item) => item.json.event ?? item.json.events)).toEqual([
			'tracking_request.failed',
			['container.updated'],
			'shipment.estimated.arrival',
		]);
		expect(folded[0]).toBe(items[0]);
	});

	it('names a container it has no state of, with why, and marks caught-up changes', () => {
		const items = [
			change(0, 'c-9', 'n-1', undefined, {
				caught_up: true,
				container_lookup_error: 'The container could not be looked up: 503',
			}),
		];
		expect(latestStatePerContainer(items)[0].json).toMatchObject({
			id: 'c-9',
			number: 'NUM-c-9',
			container_id: 'c-9',
			caught_up: true,
			container_lookup_error: 'The container could not be looked up: 503',
		});
	});
});

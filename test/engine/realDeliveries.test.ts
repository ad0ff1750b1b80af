// The trigger meets deliveries as real accounts send them: the service's published examples with
// the values and shapes its own reference shows beyond the interface's tables (unknown enum
// values, null relationships, records without links, null list entries), and deliveries with
// parts it cannot read. A signed delivery that names its notification and event is never refused:
// it starts the workflow, and what could not be read is said in the items' `warnings`.
import type { INodeParameters } from 'n8n-workflow';

import {
	deliverSigned,
	fixtureNotification,
	HEADER,
	RECEIVED,
	recordOf,
	sign,
	SECRET,
	type Doc,
} from '../support/deliveries';
import { describeWithFixtures } from '../support/sharedFixtures';
import { TriggerHarness } from '../support/trigger';

/** A registered trigger; deliveries never reach the service, so any base URL does. */
function trigger(options: INodeParameters = {}) {
	return new TriggerHarness(
		{ registration: 'automatic', events: ['container.updated'], options },
		{ apiKey: 'unused', baseUrl: 'http://127.0.0.1:9/v2' },
		{ webhookId: 'w-1', webhookSecret: SECRET },
	);
}

async function itemsOf(notification: Doc, options: INodeParameters = {}) {
	const { result, sent, items } = await deliverSigned(trigger(options), notification);
	// Answered at once, and started the workflow.
	expect(sent).toEqual(RECEIVED);
	expect(result.workflowData).toBeDefined();
	return items as Doc[];
}

describeWithFixtures('Container Tracking Trigger: deliveries as real accounts send them', () => {
	it('tracking_request.tracking_stopped with line_tracking_stopped_reason "account_closed" starts the workflow', async () => {
		const notification = fixtureNotification('tracking_request.succeeded');
		notification.data.attributes.event = 'tracking_request.tracking_stopped';
		recordOf(notification, 'tracking_request').attributes.status = 'tracking_stopped';
		const shipment = recordOf(notification, 'shipment');
		Object.assign(shipment.attributes, {
			line_tracking_stopped_reason: 'account_closed',
			line_tracking_stopped_at: '2024-07-01T10:00:00Z',
		});
		const [item, ...rest] = await itemsOf(notification);
		expect(rest).toEqual([]);
		expect(item).toMatchObject({
			event: 'tracking_request.tracking_stopped',
			tracking_request: { status: 'tracking_stopped' },
			shipment: { line_tracking_stopped_reason: 'account_closed' },
			bill_of_lading_number: shipment.attributes.bill_of_lading_number,
		});
		expect(item.warnings).toBeUndefined();
	});

	it('container.updated whose container has relationships.shipment {data: null} still names the shipment', async () => {
		const notification = fixtureNotification('container.updated');
		const container = recordOf(notification, 'container');
		const shipment = recordOf(notification, 'shipment');
		container.relationships.shipment = { data: null };
		const items = await itemsOf(notification);
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) {
			expect(item).toMatchObject({
				container_number: container.attributes.number,
				shipment_id: shipment.id,
				bill_of_lading_number: shipment.attributes.bill_of_lading_number,
			});
			expect(item.warnings).toBeUndefined();
		}
	});

	it('a transport event whose shipment has ref_numbers [null], no links and no relationships', async () => {
		const notification = fixtureNotification('container.transport.vessel_discharged');
		const shipment = recordOf(notification, 'shipment');
		shipment.attributes.ref_numbers = [null];
		delete shipment.links;
		delete shipment.relationships;
		for (const record of notification.included as Doc[]) {
			if (record.type === 'terminal') record.relationships = { port: { data: null } };
		}
		const [item] = await itemsOf(notification);
		expect(item).toMatchObject({
			event: 'container.transport.vessel_discharged',
			shipment: { id: shipment.id, ref_numbers: [null] },
			bill_of_lading_number: shipment.attributes.bill_of_lading_number,
		});
		expect(item.warnings).toBeUndefined();
	});

	it('values no table lists reach the items unchanged, and the rules read them', async () => {
		const notification = fixtureNotification('container.updated');
		const container = recordOf(notification, 'container');
		const satisfied = { name: 'CTF', status: 'satisfied', description: 'Clean Truck Fee paid' };
		const storage = { type: 'storage', amount: '40.00', currency_code: 'USD' };
		Object.assign(container.attributes, {
			equipment_length: 53,
			equipment_type: 'ventilated',
			current_status: 'in_transit_inland',
			available_for_pickup: true,
			availability_known: true,
			holds_at_pod_terminal: [satisfied],
		});
		const event = recordOf(notification, 'container_updated_event');
		event.attributes.data_source = 'pierpass';
		event.attributes.changeset = {
			holds_at_pod_terminal: [[], [satisfied]],
			fees_at_pod_terminal: [[], [storage]],
			equipment_length: [40, 53],
		};
		const items = await itemsOf(notification);
		expect(items.map((item) => [item.field, item.change ?? null])).toEqual([
			['holds_at_pod_terminal', 'listed'],
			['fees_at_pod_terminal', 'added'],
			['equipment_length', null],
		]);
		expect(items[0].hold).toEqual(satisfied);
		expect(items[1]).toMatchObject({ fee: storage, new_amount: 40 });
		expect(items[2]).toMatchObject({ old_value: 40, new_value: 53 });
		// Only `hold` blocks: an unknown status is reported, not a block.
		expect(items.every((item) => item.pickup_status === 'ready')).toBe(true);
		expect(items.every((item) => item.warnings === undefined)).toBe(true);
	});

	it('a changeset value that is not an [old, new] pair is an item with the raw value and a warning', async () => {
		const notification = fixtureNotification('container.updated');
		const event = recordOf(notification, 'container_updated_event');
		event.attributes.changeset = {
			available_for_pickup: [false, true],
			pickup_lfd: '2024-07-07T04:00:00Z',
			holds_at_pod_terminal: [{ name: 'customs', status: 'hold' }],
		};
		const items = await itemsOf(notification);
		expect(items).toHaveLength(3);
		expect(items[0]).toMatchObject({ field: 'available_for_pickup', new_value: true });
		expect(items[0].warnings).toBeUndefined();
		expect(items[1]).toMatchObject({
			field: 'pickup_lfd',
			old_value: null,
			new_value: null,
			raw_value: '2024-07-07T04:00:00Z',
			warnings: [
				{
					record: `container_updated_event ${event.id}`,
					path: 'attributes.changeset.pickup_lfd',
					expected: 'an [old, new] pair',
					received: '"2024-07-07T04:00:00Z"',
				},
			],
		});
		expect(items[2]).toMatchObject({
			field: 'holds_at_pod_terminal',
			raw_value: [{ name: 'customs', status: 'hold' }],
			warnings: [expect.objectContaining({ expected: 'an [old, new] pair of lists' })],
		});
	});

	it('parts of the wrong shape become warnings on every item, naming the record and the path', async () => {
		const notification = fixtureNotification('container.updated');
		const container = recordOf(notification, 'container');
		container.attributes.holds_at_pod_terminal = 'customs hold';
		container.attributes.pickup_lfd = 'next Tuesday';
		(notification.included as Doc[]).push({ type: 'vessel', attributes: { name: 'No id' } });
		const items = await itemsOf(notification);
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) {
			expect(item.warnings).toEqual(
				expect.arrayContaining([
					{
						record: `container ${container.id}`,
						path: 'attributes.holds_at_pod_terminal',
						expected: 'a list',
						received: '"customs hold"',
					},
					{
						record: `container ${container.id}`,
						path: 'attributes.pickup_lfd',
						expected: 'an ISO 8601 date-time',
						received: '"next Tuesday"',
					},
					expect.objectContaining({
						record: expect.stringMatching(/^included record \d+$/),
						path: 'id',
					}),
				]),
			);
		}
	});

	it('a container.updated without its reference record or changeset still starts the workflow', async () => {
		const withoutChangeset = fixtureNotification('container.updated');
		delete recordOf(withoutChangeset, 'container_updated_event').attributes.changeset;
		const [item] = await itemsOf(withoutChangeset);
		expect(item).toMatchObject({
			event: 'container.updated',
			reference_type: 'container_updated_event',
			warnings: [expect.objectContaining({ path: 'attributes.changeset', expected: 'an object' })],
		});

		const withoutReference = fixtureNotification('container.updated');
		delete withoutReference.data.relationships.reference_object;
		const [bare] = await itemsOf(withoutReference);
		expect(bare).toMatchObject({
			event: 'container.updated',
			notification_id: withoutReference.data.id,
			reference_type: null,
			warnings: [expect.objectContaining({ path: 'relationships.reference_object' })],
		});
	});

	it('a body starting with a byte-order mark is read', async () => {
		const notification = fixtureNotification('container.transport.full_out');
		const raw = `\ufeff${JSON.stringify(notification)}`;
		const { result, sent, items } = await deliverSigned(trigger(), undefined, { raw });
		expect(sent).toEqual(RECEIVED);
		expect(result.workflowData).toBeDefined();
		expect(items[0]).toMatchObject({ notification_id: notification.data.id });
	});

	it.each([
		['no data.id', (body: Doc) => delete body.data.id],
		['a null data.id', (body: Doc) => (body.data.id = null)],
		['no event name', (body: Doc) => delete body.data.attributes.event],
		['an empty event name', (body: Doc) => (body.data.attributes.event = '')],
		['no data', (body: Doc) => delete body.data],
	])(
		'only a delivery that cannot be identified is refused: %s gets 400',
		async (_label, mutate) => {
			const notification = fixtureNotification('container.updated');
			mutate(notification);
			const { result, sent } = await deliverSigned(trigger(), notification);
			expect(sent).toMatchObject({ status: 400, ended: true });
			expect(result.workflowData).toBeUndefined();
		},
	);

	it('a bad signature is still 401, whatever the body', async () => {
		for (const raw of ['not json', JSON.stringify(fixtureNotification('container.updated'))]) {
			const { result, sent } = await trigger().deliver(raw, { [HEADER]: sign(raw, 'wrong') });
			expect(sent).toMatchObject({ status: 401 });
			expect(result.workflowData).toBeUndefined();
		}
	});
});

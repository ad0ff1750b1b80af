// Whose box each item is about (nodes/ContainerTracking/logic/ownership.ts): the published
// deliveries that include their shipment give its customer, reference numbers and tags, the
// container's own reference numbers and the bill of lading in every item the trigger makes, per
// change, per event and as the latest state per container, with no call to the service.
import type { INodeParameters } from 'n8n-workflow';

import {
	deliverSigned,
	fixtureNotification,
	recordOf,
	SECRET,
	type Doc,
} from '../support/deliveries';
import { describeWithFixtures, fixtureNames } from '../support/sharedFixtures';
import { TriggerHarness } from '../support/trigger';

/** A registered trigger whose calls would fail: the items must come from the delivery alone. */
function trigger(event: string, output?: string) {
	const parameters: INodeParameters = { registration: 'automatic', events: [event], options: {} };
	if (output) parameters.output = output;
	return new TriggerHarness(
		parameters,
		{ apiKey: 'unused', baseUrl: 'http://127.0.0.1:9/v2' },
		{ webhookId: 'w-1', webhookSecret: SECRET },
	);
}

const texts = (value: unknown) =>
	(Array.isArray(value) ? value : []).filter((entry) => typeof entry === 'string');

/** What the shipment and container of a delivery say, under the items' names. */
function expectedOwner(notification: Doc) {
	const shipment = recordOf(notification, 'shipment');
	const container = recordOf(notification, 'container');
	return {
		customer_name: shipment.attributes.customer_name ?? null,
		bill_of_lading_number: shipment.attributes.bill_of_lading_number,
		shipment_ref_numbers: texts(shipment.attributes.ref_numbers),
		shipment_tags: texts(shipment.attributes.tags),
		...(container ? { container_ref_numbers: texts(container.attributes.ref_numbers) } : {}),
	};
}

const withShipment = fixtureNames('notifications')
	.map((name) => name.replace(/\.json$/, ''))
	.filter((name) =>
		((fixtureNotification(name).included as Doc[] | undefined) ?? []).some(
			(record) => record.type === 'shipment',
		),
	);

describeWithFixtures('every item says whose box it is, from the delivery alone', () => {
	it('eight of the published deliveries include their shipment, each with a customer', () => {
		expect(withShipment.length).toBeGreaterThanOrEqual(8);
		for (const name of withShipment) {
			const customer = recordOf(fixtureNotification(name), 'shipment').attributes.customer_name;
			expect(typeof customer).toBe('string');
		}
	});

	it.each(withShipment)('%s: every item, and the container worked out in it', async (name) => {
		const notification = fixtureNotification(name);
		const owner = expectedOwner(notification);
		const { items } = await deliverSigned(
			trigger(notification.data.attributes.event),
			notification,
		);
		expect(items.length).toBeGreaterThan(0);
		for (const item of items as Doc[]) {
			expect(item).toMatchObject(owner);
			if (item.container) {
				expect(item.container).toMatchObject({
					...owner,
					container_ref_numbers: texts(recordOf(notification, 'container').attributes.ref_numbers),
				});
			}
		}
	});

	it('the published pickup_lfd change: the shipment’s and the container’s own references apart', async () => {
		const notification = fixtureNotification('container.pickup_lfd.changed');
		const { items } = await deliverSigned(trigger('container.pickup_lfd.changed'), notification);
		expect(items).toEqual([
			expect.objectContaining({
				customer_name: 'Muller-Hauck',
				shipment_ref_numbers: ['REF-D79122'],
				container_ref_numbers: ['REF-2E50D1'],
			}),
		]);
	});

	it('Latest State per Container: the state names whose box it is', async () => {
		const notification = fixtureNotification('container.updated');
		const owner = expectedOwner(notification);
		const { items } = await deliverSigned(
			trigger('container.updated', 'latestState'),
			notification,
		);
		expect(items).toEqual([expect.objectContaining(owner)]);
	});

	it('a shipment whose lists carry null entries and no customer: nulls dropped, the customer null', async () => {
		const notification = fixtureNotification('container.transport.full_out');
		Object.assign(recordOf(notification, 'shipment').attributes, {
			customer_name: null,
			ref_numbers: [null, 'PO 4411-B'],
			tags: [null],
		});
		const { items } = await deliverSigned(trigger('container.transport.full_out'), notification);
		expect(items).toEqual([
			expect.objectContaining({
				customer_name: null,
				shipment_ref_numbers: ['PO 4411-B'],
				shipment_tags: [],
			}),
		]);
	});

	it('a tracking request that failed, without a shipment: the references and tags it was created with', async () => {
		const notification = fixtureNotification('tracking_request.failed');
		Object.assign(recordOf(notification, 'tracking_request').attributes, {
			ref_numbers: ['PO-77'],
			shipment_tags: ['reefer'],
		});
		const { items } = await deliverSigned(trigger('tracking_request.failed'), notification);
		expect(items).toEqual([
			expect.objectContaining({
				customer_name: null,
				shipment_ref_numbers: ['PO-77'],
				shipment_tags: ['reefer'],
			}),
		]);
	});
});

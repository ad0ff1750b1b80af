// Item building on its own (nodes/ContainerTracking/trigger/items/deliveryItems.ts), on deliveries
// written here: the reference and its subjects are read once, a changeset gives one item per
// changed field (and per hold or fee), a reference-only delivery gives one item.
import { containerItem } from '../../nodes/ContainerTracking/actions/container/summary';
import { indexIncluded } from '../../nodes/ContainerTracking/records/jsonApi';
import { deliveryItems } from '../../nodes/ContainerTracking/trigger/items/deliveryItems';
import type { Delivery, JsonApiResource } from '../../nodes/ContainerTracking/schemas';

const options = { expandHoldsAndFees: true, fields: [], raw: false };

function containerUpdated(changeset: Record<string, unknown>): Delivery {
	return {
		data: {
			id: 'n-1',
			attributes: { event: 'container.updated', created_at: '2026-11-23T10:00:00Z' },
			relationships: {
				reference_object: { data: { id: 'cue-1', type: 'container_updated_event' } },
			},
		},
		included: [
			{
				id: 'cue-1',
				type: 'container_updated_event',
				attributes: {
					changeset,
					timestamp: '2026-11-23T09:59:00Z',
					timezone: 'America/Los_Angeles',
				},
				relationships: {
					container: { data: { id: 'c-1', type: 'container' } },
					terminal: { data: { id: 't-1', type: 'terminal' } },
					shipment: { data: null },
				},
			},
			{
				id: 'c-1',
				type: 'container',
				attributes: {
					number: 'MSCU1000022',
					pod_discharged_at: '2026-11-22T18:00:00Z',
					available_for_pickup: false,
					holds_at_pod_terminal: [{ name: 'customs', status: 'hold' }],
				},
			},
			{ id: 't-1', type: 'terminal', attributes: { name: 'Pier 400' } },
		],
	};
}

describe('deliveryItems', () => {
	it('gives one item per hold that changed, naming the container, terminal and time', () => {
		const items = deliveryItems(
			containerUpdated({
				holds_at_pod_terminal: [
					[{ name: 'freight', status: 'hold' }],
					[{ name: 'customs', status: 'hold' }],
				],
			}),
			options,
		);
		expect(items.map((item) => [item.change, (item.hold as { name: string }).name])).toEqual([
			// A hold that appears already active is `placed`; one that disappears is `cleared`.
			['placed', 'customs'],
			['cleared', 'freight'],
		]);
		for (const item of items)
			expect(item).toMatchObject({
				event: 'container.updated',
				event_label: 'Container Updated — holds, fees, last free day, availability',
				notification_id: 'n-1',
				container_id: 'c-1',
				container_number: 'MSCU1000022',
				terminal_id: 't-1',
				terminal_name: 'Pier 400',
				shipment_id: null,
				changed_at: '2026-11-23T09:59:00Z',
				field: 'holds_at_pod_terminal',
				pickup_status: 'on_hold',
			});
	});

	it('gives one item per changed field, and only the chosen fields when asked', () => {
		const changeset = {
			pickup_lfd: [null, '2026-11-28T08:00:00Z'],
			available_for_pickup: [false, true],
		};
		expect(deliveryItems(containerUpdated(changeset), options).map((item) => item.field)).toEqual([
			'pickup_lfd',
			'available_for_pickup',
		]);
		expect(
			deliveryItems(containerUpdated(changeset), { ...options, fields: ['pickup_lfd'] }).map(
				(item) => item.field,
			),
		).toEqual(['pickup_lfd']);
	});

	it('gives the notification as it came in raw mode, and one item for a reference-only delivery', () => {
		const raw = containerUpdated({ pickup_lfd: [null, '2026-11-28T08:00:00Z'] });
		expect(deliveryItems(raw, { ...options, raw: true })).toEqual([raw]);
		const referenceOnly: Delivery = {
			data: {
				id: 'n-2',
				attributes: { event: 'container.transport.available' },
				relationships: { reference_object: { data: { id: 'te-1', type: 'transport_event' } } },
			},
		};
		expect(deliveryItems(referenceOnly, options)).toEqual([
			expect.objectContaining({
				event: 'container.transport.available',
				event_label: 'Available for Pickup',
				notification_id: 'n-2',
				reference_type: 'transport_event',
				reference_id: 'te-1',
				container_number: null,
			}),
		]);
	});

	it('works the container out from the records Container → Get includes, not from more the delivery carried', () => {
		// A container going inland by rail without its pickup facility yet: the delivery also carries
		// the shipment's destination ramp, which Container → Get (shipment, pod_terminal,
		// pickup_facility) does not include. The item names the facility as Get does, so a view
		// written from deliveries and from Get does not change back and forth.
		const container: JsonApiResource = {
			id: 'c-1',
			type: 'container',
			attributes: {
				number: 'MSCU1000022',
				final_destination_timezone: 'America/New_York',
				import_deadlines: { pickup_lfd_rail: '2026-11-30T05:00:00Z' },
			},
			relationships: {
				shipment: { data: { id: 's-1', type: 'shipment' } },
				pickup_facility: { data: null },
			},
		};
		const shipment: JsonApiResource = {
			id: 's-1',
			type: 'shipment',
			attributes: { destination_name: 'Columbus' },
			relationships: { destination_terminal: { data: { id: 'ramp-1', type: 'terminal' } } },
		};
		const ramp: JsonApiResource = {
			id: 'ramp-1',
			type: 'terminal',
			attributes: { name: 'CSX - Columbus Intermodal Terminal' },
		};
		const delivery = containerUpdated({ pickup_lfd: [null, '2026-11-30T05:00:00Z'] });
		delivery.included = [
			...(delivery.included as JsonApiResource[]).filter((record) => record.type !== 'container'),
			container,
			shipment,
			ramp,
		];
		const now = new Date('2026-11-27T12:00:00Z');
		const [item] = deliveryItems(delivery, options, [], now);
		const asGet = containerItem(container, indexIncluded([shipment]), now);
		expect(asGet.last_free_day_facility).toBe('Columbus');
		expect(item.container).toMatchObject({
			last_free_day_facility: 'Columbus',
			shipment: asGet.shipment,
			container_state_complete: true,
		});
	});

	it('reads a container that does not name its shipment with the shipment the delivery carries: tracking stopped makes it stale', () => {
		const delivery = containerUpdated({ available_for_pickup: [true, false] });
		const shipment: JsonApiResource = {
			id: 's-1',
			type: 'shipment',
			attributes: {
				line_tracking_stopped_at: '2026-11-20T00:00:00Z',
				line_tracking_stopped_reason: 'no_updates_at_line',
			},
			relationships: { containers: { data: [{ id: 'c-1', type: 'container' }] } },
		};
		delivery.included = [
			...(delivery.included as JsonApiResource[]).map((record) =>
				record.type === 'container'
					? { ...record, relationships: { shipment: { data: null } } }
					: record,
			),
			shipment,
		];
		const [item] = deliveryItems(delivery, options, [], new Date('2026-11-27T12:00:00Z'));
		expect(item.container).toMatchObject({
			shipment_id: 's-1',
			tracking_stopped: true,
			data_fresh: false,
			data_stale_since: '2026-11-20T00:00:00Z',
			data_stale_reason: 'tracking stopped on 2026-11-20: the line stopped publishing updates',
		});
		// A shipment that lists other containers is not taken for this one's.
		shipment.relationships = { containers: { data: [{ id: 'c-2', type: 'container' }] } };
		const [other] = deliveryItems(delivery, options, [], new Date('2026-11-27T12:00:00Z'));
		expect(other.container).toMatchObject({ shipment_id: null, tracking_stopped: null });
	});
});

// Every estimated-arrival item carries the same named fields (logic/arrivalEstimate.ts, on the
// items of trigger/items/deliveryItems.ts): which arrival, the new ETA, the previous one only when
// the delivery says it, the zone to read it in, the place and the bill of lading. Read from the
// service's published examples (../shared/fixtures, skipped when absent) and from deliveries the
// sandbox makes when it moves an arrival (docs/sandbox.md, "Moving an arrival").
import {
	arrivalEstimate,
	type ArrivalEstimate,
} from '../../nodes/ContainerTracking/logic/arrivalEstimate';
import { deliveryItems } from '../../nodes/ContainerTracking/trigger/items/deliveryItems';
import type { Delivery } from '../../nodes/ContainerTracking/schemas';
import { generateShipment } from '../../sandbox/world/generator';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { describeWithFixtures, readFixture } from '../support/sharedFixtures';
import { startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { eventuallyPasses, subscribe } from '../sandbox/helpers';

const options = { expandHoldsAndFees: true, fields: [], raw: false };
type Json = ReturnType<typeof JSON.parse>;

const estimateOf = (delivery: Delivery) =>
	deliveryItems(delivery, options).map(
		(item) => item.arrival_estimate as ArrivalEstimate | undefined,
	);

describeWithFixtures('arrival estimates of the published examples', () => {
	it('shipment.estimated.arrival: the port of discharge, its zone and name, the bill of lading; no previous ETA', () => {
		const delivery = readFixture<Delivery>('notifications', 'shipment.estimated.arrival.json');
		expect(estimateOf(delivery)).toEqual([
			{
				arrival: 'port_of_discharge',
				estimated_arrival_at: '2022-11-01T14:00:00Z',
				previous_estimated_arrival_at: null,
				time_zone: 'America/Los_Angeles',
				locode: 'USLAX',
				place_name: 'Los Angeles',
				bill_of_lading_number: 'OOLU2136060630',
				arrived_at: null,
			},
		]);
	});

	it('the estimate without its own zone: read in the port’s, from the shipment or the port included', () => {
		const delivery = readFixture<Json>('notifications', 'shipment.estimated.arrival.json');
		const estimated = delivery.included.find((record: Json) => record.type === 'estimated_event');
		delete estimated.attributes.timezone;
		expect(estimateOf(delivery)[0]?.time_zone).toBe('America/Los_Angeles');
		const shipment = delivery.included.find((record: Json) => record.type === 'shipment');
		delete shipment.attributes.pod_timezone;
		// Still the port's: the port record of that code says it.
		expect(estimateOf(delivery)[0]?.time_zone).toBe('America/Los_Angeles');
		delivery.included = delivery.included.filter((record: Json) => record.type !== 'port');
		expect(estimateOf(delivery)[0]?.time_zone).toBeNull();
	});

	it('container.transport.estimated.vessel_arrived, the transport event alone: what it says, nothing invented', () => {
		const delivery = readFixture<Delivery>(
			'notifications',
			'container.transport.estimated.vessel_arrived.json',
		);
		expect(estimateOf(delivery)).toEqual([
			{
				arrival: 'port_of_discharge',
				estimated_arrival_at: '2020-05-18T14:00:00Z',
				previous_estimated_arrival_at: null,
				time_zone: 'America/Los_Angeles',
				locode: 'USLAX',
				place_name: null,
				bill_of_lading_number: null,
				arrived_at: null,
			},
		]);
	});

	it('other events and other changes carry none', () => {
		for (const name of [
			'container.updated.json',
			'container.transport.vessel_discharged.json',
			'container.pickup_lfd.changed.json',
			'tracking_request.succeeded.json',
		]) {
			const delivery = readFixture<Delivery>('notifications', name);
			for (const estimate of estimateOf(delivery)) expect(estimate).toBeUndefined();
		}
	});
});

describe('arrivalEstimate', () => {
	const shipment = {
		bill_of_lading_number: 'MEDUFR030802',
		port_of_discharge_locode: 'USLGB',
		port_of_discharge_name: 'Long Beach',
		pod_timezone: 'America/Los_Angeles',
		destination_locode: 'USCHI',
		destination_name: 'Chicago',
		destination_timezone: 'America/Chicago',
	};

	it('a change of pod_eta_at: the old value is the previous ETA; the port’s zone before the event’s', () => {
		expect(
			arrivalEstimate({
				event: 'container.updated',
				reference: { timezone: 'America/Chicago', timestamp: '2026-11-23T10:00:00Z' },
				change: {
					field: 'pod_eta_at',
					old_value: '2026-11-24T14:00:00Z',
					new_value: '2026-11-26T14:00:00Z',
				},
				shipment,
			}),
		).toEqual({
			arrival: 'port_of_discharge',
			estimated_arrival_at: '2026-11-26T14:00:00Z',
			previous_estimated_arrival_at: '2026-11-24T14:00:00Z',
			time_zone: 'America/Los_Angeles',
			locode: 'USLGB',
			place_name: 'Long Beach',
			bill_of_lading_number: 'MEDUFR030802',
			arrived_at: null,
		});
		// Once the vessel is in, the estimate says so: it moved to what happened.
		expect(
			arrivalEstimate({
				event: 'container.updated',
				change: { field: 'pod_eta_at', old_value: 'a', new_value: '2026-11-25T14:00:00Z' },
				shipment: { ...shipment, pod_ata_at: '2026-11-25T14:00:00Z' },
			})?.arrived_at,
		).toBe('2026-11-25T14:00:00Z');
	});

	it('a change of ind_eta_at while the box is at the port: read in its final destination’s zone, not the port event’s', () => {
		const estimate = arrivalEstimate({
			event: 'container.updated',
			reference: { timezone: 'America/Los_Angeles' },
			change: { field: 'ind_eta_at', old_value: null, new_value: '2026-11-30T05:00:00Z' },
			shipment: { ...shipment, destination_timezone: null },
			container: { final_destination_timezone: 'America/Denver' },
		});
		expect(estimate).toMatchObject({
			arrival: 'inland_destination',
			estimated_arrival_at: '2026-11-30T05:00:00Z',
			// A first estimate: its old value is null, as sent.
			previous_estimated_arrival_at: null,
			time_zone: 'America/Denver',
			locode: 'USCHI',
			place_name: 'Chicago',
		});
		// Without any record of the place, the event's zone is all there is.
		expect(
			arrivalEstimate({
				event: 'container.updated',
				reference: { timezone: 'America/Los_Angeles' },
				change: { field: 'destination_eta_at', old_value: 'x', new_value: '2026-11-30T05:00:00Z' },
			})?.time_zone,
		).toBe('America/Los_Angeles');
	});

	it('a value that is not text is not an ETA: null, never a guess', () => {
		expect(
			arrivalEstimate({
				event: 'container.updated',
				change: { field: 'pod_eta_at', old_value: 17, new_value: '' },
			}),
		).toMatchObject({ estimated_arrival_at: null, previous_estimated_arrival_at: null });
		expect(
			arrivalEstimate({
				event: 'container.updated',
				change: { field: 'pickup_lfd', old_value: null, new_value: '2026-11-30T05:00:00Z' },
			}),
		).toBeUndefined();
		expect(arrivalEstimate({ event: 'container.transport.vessel_arrived' })).toBeUndefined();
	});
});

describe('arrival estimates of deliveries the sandbox makes', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	const received = (event: string) =>
		receiver.deliveries
			.filter((delivery) => delivery.body?.data?.attributes?.event === event)
			.map((delivery) => delivery.body as Delivery);

	beforeAll(async () => {
		// Drift on: the shipment's pod_eta_at also comes as a container.updated change.
		handle = await startTestSandbox({ drift: true, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, [
			'shipment.estimated.arrival',
			'container.transport.estimated.vessel_arrived',
			'container.transport.estimated.arrived_at_inland_destination',
			'container.updated',
		]);
	});
	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('a vessel moved: the shipment’s estimate, each container’s vessel estimate and the drifted pod_eta_at change agree', async () => {
		const { shipmentId } = await trackContainer(handle, withCheckDigit('MSCU402611'), 'MSCU');
		const moved = await handle.control.post(`/shipments/${shipmentId}/eta`, { hours: 40 });
		expect(moved.status).toBe(200);
		const [oldEta, newEta] = moved.data.pod_eta_at as [string, string];
		const shipment = handle.sandbox.world.store.get('shipment', shipmentId)!.attributes;
		await eventuallyPasses(() => {
			expect(received('shipment.estimated.arrival')).toHaveLength(1);
			expect(received('container.transport.estimated.vessel_arrived')).toHaveLength(1);
			expect(received('container.updated')).toHaveLength(1);
		});
		const common = {
			arrived_at: null,
			arrival: 'port_of_discharge',
			estimated_arrival_at: newEta,
			time_zone: shipment.pod_timezone,
			locode: shipment.port_of_discharge_locode,
		};
		expect(estimateOf(received('shipment.estimated.arrival')[0])).toEqual([
			{
				...common,
				previous_estimated_arrival_at: null,
				place_name: shipment.port_of_discharge_name,
				bill_of_lading_number: shipment.bill_of_lading_number,
			},
		]);
		expect(estimateOf(received('container.transport.estimated.vessel_arrived')[0])).toEqual([
			{
				...common,
				previous_estimated_arrival_at: null,
				place_name: null,
				bill_of_lading_number: null,
			},
		]);
		// MSCU402611 is in drift's subset (test/sandbox/arrivals.test.ts): the change says the old ETA.
		expect(estimateOf(received('container.updated')[0])).toEqual([
			{
				...common,
				previous_estimated_arrival_at: oldEta,
				place_name: shipment.port_of_discharge_name,
				bill_of_lading_number: shipment.bill_of_lading_number,
			},
		]);
	});

	it('an inland arrival moved: the ind_eta_at change and the estimated inland arrival, in the destination’s zone', async () => {
		let number = '';
		for (let serial = 0; serial < 5000 && !number; serial++) {
			const candidate = withCheckDigit(`MSCU${String(500_000 + serial * 13)}`);
			const { plans } = generateShipment({
				number: candidate,
				scac: 'MSCU',
				requestType: 'container',
				refNumbers: [],
				tags: [],
				createdAt: 0,
			});
			if (plans[0].inland) number = candidate;
		}
		const { shipmentId, containerIds } = await trackContainer(handle, number, 'MSCU');
		handle.sandbox.world.playJourney(containerIds[0], 0, 'rail_departed');
		handle.sandbox.world.scheduler.runDue();
		const moved = await handle.control.post(`/shipments/${shipmentId}/eta`, {
			hours: -5,
			arrival: 'inland',
		});
		expect(moved.status).toBe(200);
		const [oldEta, newEta] = moved.data.containers[0].ind_eta_at as [string, string];
		const container = handle.sandbox.world.requireContainer(containerIds[0]).attributes;
		const shipment = handle.sandbox.world.store.get('shipment', shipmentId)!.attributes;
		const estimates = await eventuallyPasses(() => {
			const found = received('container.updated')
				.flatMap(estimateOf)
				.filter((estimate) => estimate?.estimated_arrival_at === newEta);
			expect(found).toHaveLength(1);
			return found;
		});
		expect(estimates[0]).toEqual({
			arrival: 'inland_destination',
			estimated_arrival_at: newEta,
			previous_estimated_arrival_at: oldEta,
			time_zone: container.final_destination_timezone,
			locode: shipment.destination_locode,
			place_name: shipment.destination_name,
			bill_of_lading_number: shipment.bill_of_lading_number,
			arrived_at: null,
		});
		// At its arrival the rail carrier's estimate moves to the actual: the item says it arrived.
		handle.sandbox.world.playJourney(containerIds[0], 0, 'arrived_at_inland_destination');
		handle.sandbox.world.scheduler.runDue();
		const arrival = await eventuallyPasses(() => {
			const found = received('container.updated')
				.flatMap(estimateOf)
				.filter((estimate) => estimate?.arrived_at);
			expect(found).toHaveLength(1);
			return found[0]!;
		});
		expect(arrival.estimated_arrival_at).toBe(arrival.arrived_at);
		const inland = await eventuallyPasses(() => {
			const found = received('container.transport.estimated.arrived_at_inland_destination')
				.flatMap(estimateOf)
				.filter((estimate) => estimate?.estimated_arrival_at === newEta);
			expect(found).toHaveLength(1);
			return found;
		});
		expect(inland[0]).toMatchObject({
			arrival: 'inland_destination',
			previous_estimated_arrival_at: null,
			time_zone: container.final_destination_timezone,
		});
	});
});

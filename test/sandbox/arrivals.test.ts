// Arrivals moved in the sandbox (docs/sandbox.md, "Moving an arrival"): the estimates a shipment
// and its containers carry move, and the service's notifications say so as the interface and the
// published examples show them (../shared/fixtures/notifications: shipment.estimated.arrival with
// no previous estimate, container.transport.estimated.vessel_arrived as the transport event
// alone). Assertions read HTTP answers and deliveries; the in-process world only picks inputs.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { inDriftSubset } from '../../sandbox/drift';
import { startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import {
	consistently,
	deliveriesFor,
	eventuallyPasses,
	expectValidDelivery,
	findBillOfLading,
	type Json,
	referenceRecord,
	subscribe,
} from './helpers';

const ARRIVAL_EVENTS = [
	'shipment.estimated.arrival',
	'container.transport.estimated.vessel_arrived',
	'container.transport.estimated.arrived_at_inland_destination',
	'container.updated',
];
const HOUR = 3_600_000;

async function shipmentOf(handle: SandboxHandle, id: string): Promise<Json> {
	const answer = await handle.api.get(`/shipments/${id}`);
	expect(answer.status).toBe(200);
	return answer.data.data;
}

describe('moving an arrival', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;

	beforeEach(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, ARRIVAL_EVENTS);
	});
	afterEach(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('a vessel two days late: the shipment’s ETA, one shipment.estimated.arrival, one estimated vessel arrival per container', async () => {
		const number = findBillOfLading((plans) => plans.length >= 2);
		const { shipmentId, containerIds } = await trackContainer(
			handle,
			number,
			'MSCU',
			'bill_of_lading',
		);
		const before = await shipmentOf(handle, shipmentId);
		const moved = await handle.control.post(`/shipments/${shipmentId}/eta`, { days: 2 });
		expect(moved.status).toBe(200);
		const newEta = new Date(Date.parse(before.attributes.pod_eta_at) + 48 * HOUR)
			.toISOString()
			.replace('.000Z', 'Z');
		expect(moved.data).toMatchObject({
			arrival: 'port',
			moved_hours: 48,
			pod_eta_at: [before.attributes.pod_eta_at, newEta],
		});
		const after = await shipmentOf(handle, shipmentId);
		expect(after.attributes.pod_eta_at).toBe(newEta);
		// The line's inland estimate moves with its vessel.
		if (before.attributes.destination_eta_at)
			expect(Date.parse(after.attributes.destination_eta_at)).toBe(
				Date.parse(before.attributes.destination_eta_at) + 48 * HOUR,
			);
		// The first ETA the line gave stays.
		expect(after.attributes.pod_original_eta_at).toBe(before.attributes.pod_original_eta_at);

		await eventuallyPasses(() => {
			expect(
				deliveriesFor(receiver, { event: 'container.transport.estimated.vessel_arrived' }),
			).toHaveLength(containerIds.length);
			expect(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })).toHaveLength(1);
		});
		const [estimate] = deliveriesFor(receiver, { event: 'shipment.estimated.arrival' });
		expectValidDelivery(estimate.body, 'shipment.estimated.arrival');
		const estimated = referenceRecord(estimate);
		expect(estimated.type).toBe('estimated_event');
		expect(estimated.attributes).toMatchObject({
			event: 'shipment.estimated.arrival',
			estimated_timestamp: newEta,
			location_locode: after.attributes.port_of_discharge_locode,
			timezone: after.attributes.pod_timezone,
			data_source: 'shipping_line',
		});
		// As the published example: the estimate alone, never the one it replaces.
		expect(Object.keys(estimated.attributes).sort()).toEqual(
			[
				'created_at',
				'data_source',
				'estimated_timestamp',
				'event',
				'location_locode',
				'timezone',
				'voyage_number',
			].sort(),
		);
		const included = estimate.body.included as Json[];
		expect(included.find((record) => record.type === 'shipment').attributes.pod_eta_at).toBe(
			newEta,
		);
		expect(included.some((record) => record.type === 'port')).toBe(true);
		for (const delivery of deliveriesFor(receiver, {
			event: 'container.transport.estimated.vessel_arrived',
		})) {
			expectValidDelivery(delivery.body, 'estimated vessel arrival');
			const event = referenceRecord(delivery);
			expect(event.attributes.timestamp).toBe(newEta);
			expect(event.attributes.timezone).toBe(after.attributes.pod_timezone);
			// The transport event alone, without its relationships, as the published example.
			expect(delivery.body.included).toHaveLength(1);
			expect(event.relationships).toBeUndefined();
		}
		// pod_eta_at is the shipment's: without drift, no container.updated carries it.
		await consistently(() => {
			expect(deliveriesFor(receiver, { event: 'container.updated' })).toHaveLength(0);
		});
	});

	it('several small moves in a row, each its own notification, each from the estimate before', async () => {
		const { shipmentId } = await trackContainer(handle, withCheckDigit('MSCU402217'), 'MSCU');
		const first = (await shipmentOf(handle, shipmentId)).attributes.pod_eta_at as string;
		const answers: Json[] = [];
		for (const hours of [6, 6, -3, 6]) {
			const moved = await handle.control.post(`/shipments/${shipmentId}/eta`, { hours });
			expect(moved.status).toBe(200);
			answers.push(moved.data);
		}
		// Each move starts from where the one before ended.
		for (let index = 1; index < answers.length; index++)
			expect(answers[index].pod_eta_at[0]).toBe(answers[index - 1].pod_eta_at[1]);
		expect(Date.parse(answers[3].pod_eta_at[1])).toBe(Date.parse(first) + 15 * HOUR);
		await eventuallyPasses(() =>
			expect(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })).toHaveLength(4),
		);
		expect(
			deliveriesFor(receiver, { event: 'shipment.estimated.arrival' }).map(
				(delivery) => referenceRecord(delivery).attributes.estimated_timestamp,
			),
		).toEqual(answers.map((answer) => answer.pod_eta_at[1]));
	});

	it('the journey follows the moved estimate: the vessel comes in when the new ETA says, not before', async () => {
		const { shipmentId, containerIds } = await trackContainer(
			handle,
			withCheckDigit('MSCU402301'),
			'MSCU',
		);
		const world = handle.sandbox.world;
		// When the vessel was due before the move.
		const remaining = world.remainingSteps(containerIds[0]);
		expect(remaining).toContain('vessel_arrived');
		const eta = Date.parse((await shipmentOf(handle, shipmentId)).attributes.pod_eta_at);
		expect((await handle.control.post(`/shipments/${shipmentId}/eta`, { days: 3 })).status).toBe(
			200,
		);
		const advance = async (until: number) => {
			const now = Date.parse((await handle.control.get('/clock')).data.now);
			if (until > now)
				expect(
					(await handle.control.post('/clock/advance', { milliseconds: until - now })).status,
				).toBe(200);
		};
		// A day after the old ETA (the line revises by hours only): not in yet.
		await advance(eta + 24 * HOUR);
		expect((await shipmentOf(handle, shipmentId)).attributes.pod_ata_at).toBeNull();
		// A day after the new one: in.
		await advance(eta + 4 * 24 * HOUR);
		await eventuallyPasses(async () =>
			expect((await shipmentOf(handle, shipmentId)).attributes.pod_ata_at).toEqual(
				expect.any(String),
			),
		);
		// Once in, its ETA no longer moves; an inland one may, when a box is on rail with one.
		const late = await handle.control.post(`/shipments/${shipmentId}/eta`, {
			hours: 5,
			arrival: 'port',
		});
		expect(late.status).toBe(409);
		expect(JSON.stringify(late.data)).toMatch(/has arrived/);
	});

	it('refuses a move to the past, a move of nothing, an unknown shipment and an unknown arrival', async () => {
		const { shipmentId } = await trackContainer(handle, withCheckDigit('MSCU402419'), 'MSCU');
		const past = await handle.control.post(`/shipments/${shipmentId}/eta`, { days: -60 });
		expect(past.status).toBe(409);
		expect(JSON.stringify(past.data)).toMatch(/would not be in the future/);
		expect((await handle.control.post(`/shipments/${shipmentId}/eta`, { hours: 0 })).status).toBe(
			422,
		);
		expect((await handle.control.post(`/shipments/${shipmentId}/eta`, {})).status).toBe(422);
		expect(
			(await handle.control.post(`/shipments/${shipmentId}/eta`, { hours: 'soon' })).status,
		).toBe(422);
		expect(
			(await handle.control.post(`/shipments/${shipmentId}/eta`, { hours: 5, arrival: 'moon' }))
				.status,
		).toBe(400);
		expect((await handle.control.post('/shipments/nope/eta', { hours: 5 })).status).toBe(404);
		// A box still at sea has no inland estimate to move.
		const inland = await handle.control.post(`/shipments/${shipmentId}/eta`, {
			hours: 5,
			arrival: 'inland',
		});
		expect(inland.status).toBe(409);
		// Nothing was sent for the refused moves.
		await consistently(() =>
			expect(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })).toHaveLength(0),
		);
	});

	it('a box on rail: ind_eta_at moves (container.updated) with its estimated inland arrival, and the line’s destination ETA', async () => {
		const number = findBillOfLading((plans) => plans.every((plan) => plan.inland !== null));
		const { shipmentId, containerIds } = await trackContainer(
			handle,
			number,
			'MSCU',
			'bill_of_lading',
		);
		const world = handle.sandbox.world;
		for (const id of containerIds) world.playJourney(id, 0, 'rail_departed');
		world.scheduler.runDue();
		const before = await shipmentOf(handle, shipmentId);
		// The journey's own estimates (the line's revision on the way) have all arrived.
		await eventuallyPasses(() =>
			expect(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })).toHaveLength(1),
		);
		const moved = await handle.control.post(`/shipments/${shipmentId}/eta`, { hours: 30 });
		expect(moved.status).toBe(200);
		expect(moved.data.arrival).toBe('inland');
		expect(moved.data.containers).toHaveLength(containerIds.length);
		for (const box of moved.data.containers as Json[]) {
			const [old, now] = box.ind_eta_at;
			expect(Date.parse(now) - Date.parse(old)).toBe(30 * HOUR);
			const container = (await handle.api.get(`/containers/${box.id}`)).data.data;
			expect(container.attributes.ind_eta_at).toBe(now);
			await eventuallyPasses(() => {
				const updates = deliveriesFor(receiver, {
					event: 'container.updated',
					containerId: box.id,
				});
				// The move's own change (the journey's earlier ones may still be arriving).
				const moves = updates
					.map((delivery) => referenceRecord(delivery).attributes.changeset)
					.filter((changeset) => changeset.ind_eta_at?.[1] === now);
				expect(moves).toEqual([{ ind_eta_at: [old, now] }]);
			});
		}
		// One estimate at rail departure and one for the move, per box.
		const moves = (moved.data.containers as Json[]).map((box) => box.ind_eta_at[1]).sort();
		await eventuallyPasses(() => {
			const inlandEstimates = deliveriesFor(receiver, {
				event: 'container.transport.estimated.arrived_at_inland_destination',
			});
			expect(inlandEstimates).toHaveLength(2 * containerIds.length);
			for (const delivery of inlandEstimates)
				expectValidDelivery(delivery.body, 'estimated inland arrival');
			expect(
				inlandEstimates
					.map((delivery) => referenceRecord(delivery).attributes.timestamp)
					.filter((timestamp: string) => moves.includes(timestamp))
					.sort(),
			).toEqual(moves);
		});
		if (before.attributes.destination_eta_at)
			expect(Date.parse((await shipmentOf(handle, shipmentId)).attributes.destination_eta_at)).toBe(
				Date.parse(before.attributes.destination_eta_at) + 30 * HOUR,
			);
		// The vessel is in: no shipment.estimated.arrival for an inland move.
		await consistently(() =>
			expect(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })).toHaveLength(1),
		);
	});

	it('the line revises a shipment’s ETA once, however many containers it has, and not after a move on demand', async () => {
		const number = findBillOfLading((plans) => plans.length >= 2);
		const { shipmentId } = await trackContainer(handle, number, 'MSCU', 'bill_of_lading');
		await handle.control.post('/clock/advance', { hours: 7 });
		await eventuallyPasses(() =>
			expect(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })).toHaveLength(1),
		);
		const revised = (await shipmentOf(handle, shipmentId)).attributes.pod_eta_at;
		expect(
			referenceRecord(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })[0]),
		).toMatchObject({ attributes: { estimated_timestamp: revised } });

		const other = await trackContainer(handle, withCheckDigit('MSCU402503'), 'MSCU');
		const moved = await handle.control.post(`/shipments/${other.shipmentId}/eta`, { hours: 20 });
		expect(moved.status).toBe(200);
		await handle.control.post('/clock/advance', { hours: 7 });
		// The move's notification only: the line's own revision does not undo it.
		expect((await shipmentOf(handle, other.shipmentId)).attributes.pod_eta_at).toBe(
			moved.data.pod_eta_at[1],
		);
	});
});

describe("the demo's arrivals", () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, ['shipment.estimated.arrival']);
	});
	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('within its first minutes, the demo moves a shipment’s ETA twice, the second time by a day or more (what examples/arrival-moved.json emails)', async () => {
		expect((await handle.control.post('/demo/start')).status).toBe(201);
		await handle.control.post('/clock/advance', { seconds: 4 });
		const ROUND_SECONDS = 20;
		let told: number | undefined;
		for (let round = 0; round < 30 && told === undefined; round++) {
			const move = await handle.control.post('/demo/next', { gap_seconds: 4 });
			expect(move.status).toBe(200);
			await handle.control.post('/clock/advance', { seconds: ROUND_SECONDS });
			// Each shipment's estimates in order: a move of a day or more after a first one.
			const byShipment = new Map<string, number[]>();
			for (const delivery of deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })) {
				const estimate = referenceRecord(delivery);
				const shipment = estimate.relationships.shipment.data.id as string;
				byShipment.set(shipment, [
					...(byShipment.get(shipment) ?? []),
					Date.parse(estimate.attributes.estimated_timestamp),
				]);
			}
			if (
				[...byShipment.values()].some((etas) =>
					etas.some((eta, index) => index > 0 && Math.abs(eta - etas[index - 1]) >= 24 * HOUR),
				)
			)
				told = round;
		}
		// 20 s a round: an email within ten minutes of the demo's start (round 10 when written).
		expect(told).toBeLessThan(30);
	});
});

describe('moving an arrival with drift on', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: true, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, ARRIVAL_EVENTS);
	});
	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('some containers also get the shipment’s new pod_eta_at as a container.updated change, as real accounts send it', async () => {
		const numbers = [402611, 402629, 402637, 402645, 402653, 402661].map((serial) =>
			withCheckDigit(`MSCU${serial}`),
		);
		const tracked = [];
		for (const number of numbers) tracked.push(await trackContainer(handle, number, 'MSCU'));
		const subset = tracked.map(({ containerIds }) =>
			inDriftSubset(
				'container.pod_eta_at_change',
				handle.sandbox.world.requireContainer(containerIds[0]),
			),
		);
		// The numbers fall on both sides of the subset.
		expect(new Set(subset)).toEqual(new Set([true, false]));
		for (const { shipmentId } of tracked) {
			const moved = await handle.control.post(`/shipments/${shipmentId}/eta`, { hours: 26 });
			expect(moved.status).toBe(200);
		}
		await eventuallyPasses(() =>
			expect(deliveriesFor(receiver, { event: 'shipment.estimated.arrival' })).toHaveLength(
				tracked.length,
			),
		);
		for (const [index, { containerIds, shipmentId }] of tracked.entries()) {
			const eta = handle.sandbox.world.store.get('shipment', shipmentId)!.attributes.pod_eta_at;
			const updates = deliveriesFor(receiver, {
				event: 'container.updated',
				containerId: containerIds[0],
			}).map((delivery) => referenceRecord(delivery).attributes.changeset);
			if (subset[index])
				await eventuallyPasses(() =>
					expect(
						deliveriesFor(receiver, {
							event: 'container.updated',
							containerId: containerIds[0],
						}).map((delivery) => referenceRecord(delivery).attributes.changeset.pod_eta_at?.[1]),
					).toEqual([eta]),
				);
			else expect(updates).toEqual([]);
		}
	});
});

// Journeys of the sandbox seen from outside: tracking requests, determinism, the natural journey
// on an advanced clock, changesets built from real values, last free day priority, scenarios.
// The in-process world is read only to choose inputs; assertions use HTTP answers and deliveries.
// Drift stays off here whatever CT_SANDBOX_DRIFT says: these suites check the interface's own
// values; drift.test.ts checks what drift serves.
import { isEqual } from 'lodash';
import { DateTime } from 'luxon';

import { EVENT_NAMES } from '../../sandbox/world/eventNames';
import {
	containerDocument,
	transportEventListDocument,
} from '../../nodes/ContainerTracking/schemas';
import { generous } from '../support/bounds';
import { startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import {
	startWebhookReceiver,
	type ReceivedDelivery,
	type WebhookReceiver,
} from '../support/webhookReceiver';
import {
	allTransportEvents,
	changesetsFor,
	consistently,
	controlChange,
	deliveriesFor,
	eventuallyPasses,
	expectChangesetsChain,
	expectSchema,
	expectValidDelivery,
	findContainerNumber,
	getContainer,
	type Json,
	referenceRecord,
	sandboxForEachTest,
	subscribe,
	type Changeset,
} from './helpers';

interface Fee {
	type: string;
	amount: number;
	currency_code?: string;
}

interface Hold {
	name: string;
	status: string;
	description: string | null;
}

/**
 * docs/service.md, "Fee totals": a `total` equals the sum of the other fees when they share one
 * currency.
 */
function expectTotalIsSum(fees: Fee[], label: string): void {
	const total = fees.find((fee) => fee.type === 'total');
	const items = fees.filter((fee) => fee.type !== 'total');
	if (!total || items.length === 0) return;
	const currencies = new Set(items.map((fee) => fee.currency_code));
	if (currencies.size !== 1 || !currencies.has(total.currency_code)) return;
	const sum = Math.round(items.reduce((acc, fee) => acc + fee.amount, 0) * 100) / 100;
	if (total.amount !== sum)
		throw new Error(
			`${label}: total ${total.amount} is not the sum ${sum} of ${JSON.stringify(items)}`,
		);
}

const shortName = (event: string) => event.replace(/^container\.transport\./, '');

describe('tracking requests at the default clock', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, ['tracking_request.succeeded', 'tracking_request.failed']);
	});

	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	const request = async (number: string) => {
		const created = await handle.api.post('/tracking_requests', {
			data: {
				type: 'tracking_request',
				attributes: { request_number: number, request_type: 'container', scac: 'TEST' },
			},
		});
		expect(created.status).toBe(201);
		expect(created.data.data.attributes.status).toBe('pending');
		return created.data.data.id as string;
	};

	const deliveryAbout = (id: string) =>
		receiver.deliveries.find(
			(delivery) => delivery.body.data.relationships.reference_object.data.id === id,
		);

	it('TEST-TR-SUCCEEDED sends tracking_request.succeeded and TEST-TR-FAILED tracking_request.failed (not_found)', async () => {
		expect(handle.sandbox.options).toMatchObject({ timeScale: 1, trackingDelaySeconds: 2 });
		const succeededId = await request('TEST-TR-SUCCEEDED');
		const failedId = await request('TEST-TR-FAILED');
		// The two seconds of tracking delay pass on the sandbox clock, not in real time.
		expect((await handle.control.post('/clock/advance', { seconds: 2 })).status).toBe(200);
		const [succeeded, failed] = await eventuallyPasses(() => {
			const found = [deliveryAbout(succeededId), deliveryAbout(failedId)];
			expect(found.every(Boolean)).toBe(true);
			return found as ReceivedDelivery[];
		});
		for (const delivery of [succeeded, failed]) {
			expect(delivery.signatureValid).toBe(true);
			expectValidDelivery(delivery.body);
		}

		expect(succeeded.body.data.attributes.event).toBe('tracking_request.succeeded');
		const trackingRequest = referenceRecord(succeeded);
		expect(trackingRequest.attributes).toMatchObject({
			status: 'created',
			request_number: 'TEST-TR-SUCCEEDED',
		});
		const shipmentId = trackingRequest.relationships.tracked_object.data.id;
		const types = (succeeded.body.included as Array<{ type: string; id: string }>).map(
			(record) => record.type,
		);
		expect(types).toEqual(expect.arrayContaining(['container', 'shipment', 'tracking_request']));
		expect(succeeded.body.included.some((record: { id: string }) => record.id === shipmentId)).toBe(
			true,
		);

		expect(failed.body.data.attributes.event).toBe('tracking_request.failed');
		expect(referenceRecord(failed).attributes).toMatchObject({
			status: 'failed',
			failed_reason: 'not_found',
		});
		expect(referenceRecord(failed).relationships.tracked_object.data).toBeNull();

		// The API agrees with the deliveries.
		expect(
			(await handle.api.get(`/tracking_requests/${succeededId}`)).data.data.attributes.status,
		).toBe('created');
		expect(
			(await handle.api.get(`/tracking_requests/${failedId}`)).data.data.attributes,
		).toMatchObject({
			status: 'failed',
			failed_reason: 'not_found',
		});
	});
});

describe('determinism', () => {
	/** What a user sees of a tracked number, read over HTTP. */
	async function observe(
		handle: SandboxHandle,
		number: string,
		scac: string,
		requestType: 'container' | 'bill_of_lading',
	) {
		const { containerIds, shipmentId } = await trackContainer(handle, number, scac, requestType);
		const shipment = (await handle.api.get(`/shipments/${shipmentId}`)).data.data;
		const containers = [];
		for (const id of containerIds) {
			const document = (
				await handle.api.get(`/containers/${id}`, { params: { include: 'pod_terminal' } })
			).data;
			expectSchema(containerDocument, document, `GET /containers/${id}`);
			const { attributes } = document.data;
			const journey = (await handle.control.get(`/containers/${id}/journey`)).data
				.remaining_steps as string[];
			containers.push({
				id,
				number: attributes.number,
				equipment: [
					attributes.equipment_type,
					attributes.equipment_length,
					attributes.equipment_height,
					attributes.weight_in_lbs,
				],
				seal: attributes.seal_number,
				terminal: document.included.map(
					(record: { attributes: { firms_code: string } }) => record.attributes.firms_code,
				),
				journey,
			});
		}
		const a = shipment.attributes;
		return {
			shipmentId,
			places: [
				a.port_of_lading_locode,
				a.port_of_discharge_locode,
				a.destination_locode,
				a.bill_of_lading_number,
			],
			vessel: [a.pod_vessel_imo, a.pod_vessel_name, a.pod_voyage_number],
			containers,
		};
	}

	it('the same number and SCAC give the same containers, ports, terminal, vessel, equipment and journey in two sandboxes', async () => {
		const first = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		const second = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		try {
			const inputs = [
				['MEDUFR030802', 'MSCU', 'bill_of_lading'],
				['MSKU4807969', 'MAEU', 'container'],
			] as const;
			const seen = [];
			for (const [number, scac, type] of inputs) {
				const a = await observe(first, number, scac, type);
				const b = await observe(second, number, scac, type);
				expect(b).toEqual(a);
				expect(a.containers.length).toBeGreaterThan(0);
				for (const container of a.containers) {
					expect(container.journey.length).toBeGreaterThan(5);
					expect(container.terminal).toHaveLength(1);
				}
				seen.push(a);
			}
			expect(seen[1].containers[0].number).toBe('MSKU4807969');
			// Different numbers are not all the same journey: determinism is per input.
			expect(seen[0]).not.toEqual(seen[1]);
		} finally {
			await first.stop();
			await second.stop();
		}
	});
});

describe('the natural journey on an advanced clock', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	const isPort = (plan: { inland: unknown }) => plan.inland === null;
	const portDemurrageVacis = findContainerNumber(
		'MSKU',
		'MAEU',
		(plan) => isPort(plan) && plan.outcome === 'demurrage' && plan.vacisExam,
	);
	const portPickup = findContainerNumber(
		'MRKU',
		'MAEU',
		(plan) => isPort(plan) && plan.outcome === 'pickup',
	);
	// A real number: its generated journey is an inland rail move with a VACIS exam.
	const rail = 'MSKU4807969';
	const ids: Record<string, string> = {};

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, EVENT_NAMES);
		for (const number of [portDemurrageVacis, portPickup, rail]) {
			ids[number] = (await trackContainer(handle, number, 'MAEU')).containerIds[0];
		}
		// The scan chose the inputs from the generator; the world agrees on what it plans.
		const planOf = (number: string) => handle.sandbox.world.journeyPlanOf(ids[number])!;
		expect(planOf(portDemurrageVacis)).toMatchObject({
			inland: null,
			outcome: 'demurrage',
			vacisExam: true,
		});
		expect(planOf(portPickup)).toMatchObject({ inland: null, outcome: 'pickup' });
		expect(planOf(rail).inland).not.toBeNull();
		expect(planOf(rail).vacisExam).toBe(true);

		const advanced = await handle.control.post('/clock/advance', { days: 40 });
		expect(advanced.status).toBe(200);
	});

	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('plays every step: nothing remains and every container ends empty_returned', async () => {
		for (const number of Object.keys(ids)) {
			const journey = await handle.control.get(`/containers/${ids[number]}/journey`);
			expect(journey.data.remaining_steps).toEqual([]);
			const document = await getContainer(handle, ids[number]);
			expectSchema(containerDocument, document, number);
			expect(document.data.attributes.current_status).toBe('empty_returned');
			expect(document.data.attributes.empty_terminated_at).not.toBeNull();
		}
	});

	it.each([
		[
			'port pickup',
			() => portPickup,
			['vessel_arrived', 'vessel_discharged', 'available', 'full_out', 'empty_in'],
		],
		[
			'port demurrage',
			() => portDemurrageVacis,
			['vessel_arrived', 'vessel_discharged', 'available', 'full_out', 'empty_in'],
		],
		[
			'inland rail',
			() => rail,
			[
				'vessel_arrived',
				'vessel_discharged',
				'rail_loaded',
				'rail_departed',
				'arrived_at_inland_destination',
				'rail_unloaded',
				'available',
				'full_out',
				'empty_in',
			],
		],
	])(
		'%s: transport events come in the expected order, each with data source, locode and timezone',
		async (_label, number, order) => {
			const containerId = ids[number()];
			const events = await allTransportEvents(handle, containerId);
			expectSchema(transportEventListDocument, { data: events }, 'transport events');
			for (const event of events) {
				expect(event.attributes.data_source).toEqual(expect.any(String));
				expect(event.attributes.location_locode).toEqual(expect.any(String));
				expect(event.attributes.timezone).toEqual(expect.any(String));
				expect(event.attributes.timestamp).toEqual(expect.any(String));
			}
			const sorted = [...events].sort(
				(a, b) => Date.parse(a.attributes.timestamp) - Date.parse(b.attributes.timestamp),
			);
			const names = sorted
				.map((event) => shortName(event.attributes.event))
				.filter((name) => order.includes(name));
			expect(names).toEqual(order);
			// Each filtered event happened strictly after the one before it.
			const times = sorted
				.filter((event) => order.includes(shortName(event.attributes.event)))
				.map((event) => Date.parse(event.attributes.timestamp));
			for (let index = 1; index < times.length; index++)
				expect(times[index]).toBeGreaterThan(times[index - 1]);

			// full_out and empty_in happen where the box is picked up: the inland ramp, or the port.
			const container = (await getContainer(handle, containerId)).data;
			const shipment = (
				await handle.api.get(`/shipments/${container.relationships.shipment.data.id}`)
			).data.data.attributes;
			const pickupPlace = shipment.destination_locode ?? shipment.port_of_discharge_locode;
			for (const name of ['full_out', 'empty_in']) {
				const event = events.find((candidate) => shortName(candidate.attributes.event) === name);
				expect(event.attributes.location_locode).toBe(pickupPlace);
			}
		},
	);

	it('sends container.updated changesets built from real before/after values, ending at the container as read', async () => {
		await eventuallyPasses(async () => {
			for (const number of Object.keys(ids)) {
				const changesets = changesetsFor(receiver, ids[number]).map((entry) => entry.changeset);
				expect(changesets.length).toBeGreaterThan(5);
				const last = expectChangesetsChain(changesets, number);
				const { attributes } = (await getContainer(handle, ids[number])).data;
				for (const [name, value] of Object.entries(last))
					expect([name, attributes[name] ?? null]).toEqual([name, value]);
			}
		});
		for (const delivery of deliveriesFor(receiver)) {
			expect(delivery.signatureValid).toBe(true);
			expectValidDelivery(delivery.body);
		}
	});

	it('includes with every container.updated the shipment, the terminal with its place, the container and the event', async () => {
		for (const number of Object.keys(ids)) {
			const updates = deliveriesFor(receiver, {
				event: 'container.updated',
				containerId: ids[number],
			});
			expect(updates.length).toBeGreaterThan(5);
			for (const delivery of updates) {
				const included = delivery.body.included as Array<{
					id: string;
					type: string;
					relationships?: Json;
				}>;
				const terminal = included.find(
					(record) => record.type === 'terminal' || record.type === 'rail_terminal',
				);
				expect(terminal).toBeDefined();
				expect(referenceRecord(delivery).relationships.terminal.data).toEqual({
					id: terminal!.id,
					type: terminal!.type,
				});
				// A port terminal sits in a port, a rail terminal in a metro area: the place is included too.
				const place =
					terminal!.type === 'terminal'
						? terminal!.relationships.port.data
						: terminal!.relationships.metro_area.data;
				const types = included.map((record) => record.type).sort();
				expect([number, types]).toEqual([
					number,
					['container', 'container_updated_event', place.type, 'shipment', terminal!.type].sort(),
				]);
				expect(
					included.some((record) => record.id === place.id && record.type === place.type),
				).toBe(true);
			}
		}
		// The inland container is updated at its rail terminal once it has arrived there.
		const railTypes = deliveriesFor(receiver, {
			event: 'container.updated',
			containerId: ids[rail],
		}).flatMap((delivery) =>
			(delivery.body.included as Array<{ type: string }>).map((record) => record.type),
		);
		expect(railTypes).toContain('rail_terminal');
	});

	it('locates the inland estimated arrival at the inland destination, in its time zone', async () => {
		const container = (await getContainer(handle, ids[rail])).data;
		const shipment = (
			await handle.api.get(`/shipments/${container.relationships.shipment.data.id}`)
		).data.data.attributes;
		const [estimate] = deliveriesFor(receiver, {
			event: 'container.transport.estimated.arrived_at_inland_destination',
		});
		expect(estimate).toBeDefined();
		const event = referenceRecord(estimate);
		expect(event.attributes.timestamp).toBe(container.attributes.ind_eta_at);
		// Null is allowed for estimated events; a place, when given, is the destination, not the port.
		if (event.attributes.location_locode !== null)
			expect(event.attributes.location_locode).toBe(shipment.destination_locode);
		if (event.attributes.timezone !== null)
			expect(event.attributes.timezone).toBe(container.attributes.final_destination_timezone);
	});

	it('records the pickup at the port for a port move, at the final destination for an inland move', async () => {
		for (const number of [portPickup, portDemurrageVacis]) {
			const { attributes } = (await getContainer(handle, ids[number])).data;
			expect([
				number,
				attributes.pod_full_out_at !== null,
				attributes.final_destination_full_out_at,
			]).toEqual([number, true, null]);
		}
		const { attributes } = (await getContainer(handle, ids[rail])).data;
		expect(attributes.pod_full_out_at).toBeNull();
		expect(attributes.final_destination_full_out_at).not.toBeNull();
		expect(attributes.pod_rail_loaded_at).not.toBeNull();
		expect(attributes.ind_ata_at).not.toBeNull();
	});

	it('keeps pickup_lfd at the first non-null of line, terminal and rail deadlines', async () => {
		for (const number of Object.keys(ids)) {
			const { attributes } = (await getContainer(handle, ids[number])).data;
			const deadlines = attributes.import_deadlines;
			const expected =
				deadlines.pickup_lfd_line ?? deadlines.pickup_lfd_terminal ?? deadlines.pickup_lfd_rail;
			expect([number, attributes.pickup_lfd]).toEqual([number, expected]);
			expect(expected).not.toBeNull();
		}
	});

	it('charges demurrage only once the last free day is over, and a pickup box leaves before it ends', async () => {
		/** End of the last free day: the local midnight that follows it. */
		const endOf = (lastFreeDay: string, zone: string) =>
			DateTime.fromISO(lastFreeDay, { zone }).plus({ days: 1 }).toMillis();
		const demurrageOf = (fees: Fee[]) => fees.find((fee) => fee.type === 'demurrage')?.amount ?? 0;
		const charged = await eventuallyPasses(() => {
			const postings = deliveriesFor(receiver, {
				event: 'container.updated',
				containerId: ids[portDemurrageVacis],
			}).filter((delivery) => {
				const fees = referenceRecord(delivery).attributes.changeset.fees_at_pod_terminal as
					| [Fee[], Fee[]]
					| undefined;
				return fees !== undefined && demurrageOf(fees[1]) > demurrageOf(fees[0]);
			});
			expect(postings.length).toBeGreaterThanOrEqual(3);
			return postings;
		});
		for (const delivery of charged) {
			// The container as it was when the fee was posted travels with the delivery.
			const container = delivery.body.included.find(
				(record: { type: string }) => record.type === 'container',
			);
			const { pickup_lfd: lastFreeDay, pod_timezone: zone } = container.attributes;
			expect(lastFreeDay).not.toBeNull();
			const postedAt = referenceRecord(delivery).attributes.timestamp;
			const over = Date.parse(postedAt) >= endOf(lastFreeDay, zone);
			expect({ postedAt, lastFreeDay, over }).toEqual({ postedAt, lastFreeDay, over: true });
		}

		for (const [number, late] of [
			[portPickup, false],
			[portDemurrageVacis, true],
		] as const) {
			const { attributes } = (await getContainer(handle, ids[number])).data;
			const fullOut = Date.parse(attributes.pod_full_out_at);
			expect([number, fullOut >= endOf(attributes.pickup_lfd, attributes.pod_timezone)]).toEqual([
				number,
				late,
			]);
		}
	});

	it('moves the customs hold pending → hold → cleared', async () => {
		await eventuallyPasses(() => {
			for (const number of Object.keys(ids)) {
				const holdStates = changesetsFor(receiver, ids[number])
					.filter((entry) => 'holds_at_pod_terminal' in entry.changeset)
					.map((entry) => {
						const holds = entry.changeset.holds_at_pod_terminal[1] as Hold[];
						return holds.find((hold) => hold.name === 'customs')?.status ?? 'cleared';
					});
				const pending = holdStates.indexOf('pending');
				const active = holdStates.indexOf('hold');
				const cleared = holdStates.indexOf('cleared', active);
				expect([number, pending >= 0, active > pending, cleared > active]).toEqual([
					number,
					true,
					true,
					true,
				]);
				expect(holdStates[holdStates.length - 1]).toBe('cleared');
			}
		});
	});

	it('posts an exam fee for a VACIS exam, grows demurrage, and keeps total equal to the sum of the fees', async () => {
		const feesOf = (number: string) =>
			changesetsFor(receiver, ids[number])
				.filter((entry) => 'fees_at_pod_terminal' in entry.changeset)
				.map((entry) => entry.changeset.fees_at_pod_terminal as [Fee[], Fee[]]);
		await eventuallyPasses(() => {
			for (const number of [portDemurrageVacis, rail]) {
				const exam = feesOf(number)
					.flatMap(([, after]) => after)
					.find((fee) => fee.type === 'exam');
				expect([number, exam?.amount]).toEqual([number, expect.any(Number)]);
				expect(exam!.amount).toBeGreaterThan(0);
			}
			const demurrage = feesOf(portDemurrageVacis)
				.map(([, after]) => after.find((fee) => fee.type === 'demurrage')?.amount)
				.filter((amount): amount is number => amount !== undefined);
			expect(demurrage.length).toBeGreaterThanOrEqual(3);
			for (let index = 1; index < demurrage.length; index++)
				expect(demurrage[index]).toBeGreaterThan(demurrage[index - 1]);
		});
		// A pickup before the last free day owes no demurrage.
		expect(
			feesOf(portPickup)
				.flatMap(([, after]) => after)
				.some((fee) => fee.type === 'demurrage'),
		).toBe(false);

		let totals = 0;
		for (const number of Object.keys(ids)) {
			for (const [before, after] of feesOf(number)) {
				expectTotalIsSum(before, `${number} before`);
				expectTotalIsSum(after, `${number} after`);
				if (after.some((fee) => fee.type === 'total')) totals++;
			}
			const { attributes } = (await getContainer(handle, ids[number])).data;
			expectTotalIsSum(attributes.fees_at_pod_terminal, `${number} as read`);
		}
		expect(totals).toBeGreaterThan(0);
	});
});

describe('changes through the control API', () => {
	const sandbox = sandboxForEachTest();

	const trackPortContainer = async () => {
		const number = findContainerNumber('MSKU', 'MAEU', (plan) => plan.inland === null);
		return (await trackContainer(sandbox.handle, number, 'MAEU')).containerIds[0];
	};

	/** Applies one change and returns its changeset once the matching container.updated has arrived. */
	const change = async (containerId: string, body: Record<string, unknown>) => {
		const before = deliveriesFor(sandbox.receiver, {
			event: 'container.updated',
			containerId,
		}).length;
		const answered = await controlChange(sandbox.handle, containerId, body);
		const delivered = await eventuallyPasses(() => {
			const updates = deliveriesFor(sandbox.receiver, { event: 'container.updated', containerId });
			expect(updates).toHaveLength(before + 1);
			return referenceRecord(updates[before]).attributes.changeset as Changeset;
		});
		expect(delivered).toEqual(answered);
		const { attributes } = (await getContainer(sandbox.handle, containerId)).data;
		for (const [name, [, value]] of Object.entries(delivered))
			expect([name, attributes[name]]).toEqual([name, value]);
		return delivered;
	};

	it('reports holds and fees as whole arrays, from the real old value to the real new one', async () => {
		const containerId = await trackPortContainer();
		const customs = (status: string) => ({
			name: 'customs',
			status,
			description: 'Documents under review',
		});

		expect(
			await change(containerId, {
				kind: 'place_hold',
				name: 'customs',
				status: 'pending',
				description: 'Documents under review',
			}),
		).toEqual({
			holds_at_pod_terminal: [[], [customs('pending')]],
		});
		expect(await change(containerId, { kind: 'activate_hold', name: 'customs' })).toEqual({
			holds_at_pod_terminal: [[customs('pending')], [customs('hold')]],
		});
		expect(await change(containerId, { kind: 'clear_hold', name: 'customs' })).toEqual({
			holds_at_pod_terminal: [[customs('hold')], []],
		});
		expect(
			await change(containerId, {
				kind: 'place_hold',
				name: 'customs',
				description: 'Documents under review',
			}),
		).toEqual({
			holds_at_pod_terminal: [[], [customs('hold')]],
		});

		const exam = { type: 'exam', amount: 350, currency_code: 'USD' };
		const demurrage = { type: 'demurrage', amount: 175, currency_code: 'USD' };
		expect(await change(containerId, { kind: 'post_fee', type: 'exam', amount: 350 })).toEqual({
			fees_at_pod_terminal: [[], [exam, { type: 'total', amount: 350, currency_code: 'USD' }]],
		});
		expect(await change(containerId, { kind: 'post_fee', type: 'demurrage', amount: 175 })).toEqual(
			{
				fees_at_pod_terminal: [
					[exam, { type: 'total', amount: 350, currency_code: 'USD' }],
					[exam, demurrage, { type: 'total', amount: 525, currency_code: 'USD' }],
				],
			},
		);
		expect(await change(containerId, { kind: 'post_fee', type: 'demurrage', amount: 350 })).toEqual(
			{
				fees_at_pod_terminal: [
					[exam, demurrage, { type: 'total', amount: 525, currency_code: 'USD' }],
					[
						exam,
						{ ...demurrage, amount: 350 },
						{ type: 'total', amount: 700, currency_code: 'USD' },
					],
				],
			},
		);
		expect(await change(containerId, { kind: 'remove_fee', type: 'exam' })).toEqual({
			fees_at_pod_terminal: [
				[exam, { ...demurrage, amount: 350 }, { type: 'total', amount: 700, currency_code: 'USD' }],
				[
					{ ...demurrage, amount: 350 },
					{ type: 'total', amount: 350, currency_code: 'USD' },
				],
			],
		});

		const all = changesetsFor(sandbox.receiver, containerId).map((entry) => entry.changeset);
		expect(all).toHaveLength(8);
		expectChangesetsChain(all, containerId);
	});

	it('keeps pickup_lfd at the first non-null of line, terminal, rail (a priority, not the earliest date)', async () => {
		const containerId = await trackPortContainer();
		const { attributes } = (await getContainer(sandbox.handle, containerId)).data;
		const today = DateTime.fromISO(String(attributes.created_at), {
			zone: String(attributes.pod_timezone),
		}).startOf('day');
		const day = (offset: number) => today.plus({ days: offset }).toISODate()!;
		const lfd = (date: string, zone: string) =>
			DateTime.fromISO(date, { zone })
				.toUTC()
				.toISO({ suppressMilliseconds: true })!
				.replace('.000', '');
		const terminal = lfd(day(5), attributes.pod_timezone);
		const line = lfd(day(8), attributes.pod_timezone);
		const railDay = lfd(day(2), attributes.final_destination_timezone);

		const count = (event: string) => deliveriesFor(sandbox.receiver, { event }).length;
		const lastOf = (event: string) => deliveriesFor(sandbox.receiver, { event }).at(-1)!;
		const pickupLfd = async () =>
			(await getContainer(sandbox.handle, containerId)).data.attributes.pickup_lfd;

		await controlChange(sandbox.handle, containerId, {
			kind: 'set_last_free_day',
			source: 'terminal',
			date: day(5),
		});
		await eventuallyPasses(() => {
			expect(count('container.pickup_lfd_terminal.changed')).toBe(1);
			expect(count('container.pickup_lfd.changed')).toBe(1);
		});
		expect(await pickupLfd()).toBe(terminal);
		const terminalChanged = referenceRecord(lastOf('container.pickup_lfd_terminal.changed'));
		expect(terminalChanged.attributes.event).toBe('container.pickup_lfd_terminal.changed');

		// The line's date is later than the terminal's, and wins anyway.
		await controlChange(sandbox.handle, containerId, {
			kind: 'set_last_free_day',
			source: 'line',
			date: day(8),
		});
		await eventuallyPasses(() => {
			expect(count('container.pickup_lfd_line.changed')).toBe(1);
			expect(count('container.pickup_lfd.changed')).toBe(2);
		});
		expect(await pickupLfd()).toBe(line);
		const lfdChanged = lastOf('container.pickup_lfd.changed').body.included.find(
			(record: { type: string }) => record.type === 'container',
		);
		expect(lfdChanged.attributes.pickup_lfd).toBe(line);

		// The rail's date is the earliest, and does not move pickup_lfd.
		await controlChange(sandbox.handle, containerId, {
			kind: 'set_last_free_day',
			source: 'rail',
			date: day(2),
		});
		await eventuallyPasses(() => expect(count('container.pickup_lfd_rail.changed')).toBe(1));
		await consistently(() => expect(count('container.pickup_lfd.changed')).toBe(2));
		const read = (await getContainer(sandbox.handle, containerId)).data.attributes;
		expect(read.import_deadlines).toEqual({
			pickup_lfd_terminal: terminal,
			pickup_lfd_line: line,
			pickup_lfd_rail: railDay,
		});
		expect(read.pickup_lfd).toBe(line);

		// Without the line, the terminal; without both, the rail.
		await controlChange(sandbox.handle, containerId, {
			kind: 'set_last_free_day',
			source: 'line',
			date: null,
		});
		expect(await pickupLfd()).toBe(terminal);
		await controlChange(sandbox.handle, containerId, {
			kind: 'set_last_free_day',
			source: 'terminal',
			date: null,
		});
		expect(await pickupLfd()).toBe(railDay);
		await eventuallyPasses(() => expect(count('container.pickup_lfd.changed')).toBe(4));

		const lfdChanges = await eventuallyPasses(() => {
			const entries = changesetsFor(sandbox.receiver, containerId).filter(
				(entry) => 'pickup_lfd' in entry.changeset,
			);
			expect(entries).toHaveLength(4);
			return entries.map((entry) => entry.changeset.pickup_lfd);
		});
		expect(lfdChanges).toEqual([
			[null, terminal],
			[terminal, line],
			[line, terminal],
			[terminal, railDay],
		]);
		for (const delivery of sandbox.receiver.deliveries) expectValidDelivery(delivery.body);
	});
});

describe('scenarios', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	let containerId: string;

	beforeEach(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, ['container.updated']);
		// A port box whose own journey has no VACIS exam (vacis_exam is refused on one that has).
		const number = findContainerNumber(
			'MSKU',
			'MAEU',
			(plan) => plan.inland === null && !plan.vacisExam,
		);
		containerId = (await trackContainer(handle, number, 'MAEU')).containerIds[0];
	});

	afterEach(async () => {
		await handle.stop();
		await receiver.close();
	});

	const play = async (name: string, gapSeconds: number) => {
		const answer = await handle.control.post(`/containers/${containerId}/scenarios/${name}`, {
			gap_seconds: gapSeconds,
		});
		expect(answer.status).toBe(202);
		expect(answer.data.gap_seconds).toBe(gapSeconds);
		return answer.data.steps as number;
	};

	const updates = () => deliveriesFor(receiver, { event: 'container.updated', containerId });

	it('customs_hold plays pending → hold → cleared as three container.updated deliveries, one gap apart', async () => {
		expect(await play('customs_hold', 3600)).toBe(3);
		await eventuallyPasses(() => expect(updates()).toHaveLength(1));
		for (const expected of [2, 3]) {
			// A quiet window: the next step is a sandbox hour away until the clock is moved on.
			await consistently(() => expect(updates()).toHaveLength(expected - 1), generous(30));
			await handle.control.post('/clock/advance', { hours: 1 });
			await eventuallyPasses(() => expect(updates()).toHaveLength(expected));
		}
		const events = updates().map((delivery) => referenceRecord(delivery).attributes);
		const statuses = events.map((event) =>
			(event.changeset.holds_at_pod_terminal[1] as Hold[]).map(
				(hold) => `${hold.name}:${hold.status}`,
			),
		);
		expect(statuses).toEqual([['customs:pending'], ['customs:hold'], []]);
		const times = events.map((event) => Date.parse(event.timestamp));
		expect(times[1] - times[0]).toBe(3600_000);
		expect(times[2] - times[1]).toBe(3600_000);
		expectChangesetsChain(
			events.map((event) => event.changeset),
			'customs_hold',
		);
	});

	/**
	 * Makes the box ready for pickup (the journey up to the terminal's availability), then plays
	 * `name` a minute later; returns the container.updated deliveries of that play only.
	 */
	const playOnReadyBox = async (name: string, steps: number) => {
		await play('ready_for_pickup', 0);
		await handle.control.post('/clock/advance', { minutes: 1 });
		const since = Date.parse((await handle.control.get('/clock')).data.now);
		expect(await play(name, 0)).toBe(steps);
		const played = () =>
			updates().filter(
				(delivery) => Date.parse(referenceRecord(delivery).attributes.timestamp) >= since,
			);
		await eventuallyPasses(() => expect(played()).toHaveLength(steps));
		return played().map((delivery) => referenceRecord(delivery).attributes.changeset as Changeset);
	};

	it('vacis_exam places a VACIS hold, posts an exam fee and clears the hold', async () => {
		const changesets = await playOnReadyBox('vacis_exam', 3);
		const fees = changesets.find((changeset) => 'fees_at_pod_terminal' in changeset)!
			.fees_at_pod_terminal[1] as Fee[];
		// The exam fee varies by box (250 to 450 USD), and the total follows it.
		const exam = fees.find((fee) => fee.type === 'exam')!.amount;
		expect(exam).toBeGreaterThanOrEqual(250);
		expect(exam).toBeLessThanOrEqual(450);
		expect(fees).toEqual([
			{ type: 'exam', amount: exam, currency_code: 'USD' },
			{ type: 'total', amount: exam, currency_code: 'USD' },
		]);
		expect(
			changesets.some((changeset) =>
				isEqual(
					(changeset.holds_at_pod_terminal?.[1] as Hold[] | undefined)?.map((hold) => hold.name),
					['VACIS'],
				),
			),
		).toBe(true);
		const { attributes } = (await getContainer(handle, containerId)).data;
		expect(attributes.holds_at_pod_terminal).toEqual([]);
		expect(attributes.fees_at_pod_terminal).toEqual(fees);
	});

	it('hold_on_available_box puts two holds, one `other` with its description, on an available box', async () => {
		// Only an available box: refused at sea, played once the box is ready for pickup.
		const atSea = await handle.control.post(
			`/containers/${containerId}/scenarios/hold_on_available_box`,
			{ gap_seconds: 0 },
		);
		expect(atSea.status).toBe(409);
		expect(atSea.data.errors[0].detail).toMatch(/cannot happen on container .*: it is on ship/);
		const changesets = await playOnReadyBox('hold_on_available_box', 4);
		// The first hold makes the box not available; clearing the last makes it available again.
		expect(changesets.map((changeset) => changeset.available_for_pickup ?? null)).toEqual([
			[true, false],
			null,
			null,
			[false, true],
		]);
		const holdStates = changesets
			.filter((changeset) => 'holds_at_pod_terminal' in changeset)
			.map((changeset) => changeset.holds_at_pod_terminal[1] as Hold[]);
		expect(holdStates).toContainEqual([
			{ name: 'USDA', status: 'hold', description: 'Agricultural inspection' },
			{ name: 'other', status: 'hold', description: expect.any(String) },
		]);
		const { attributes } = (await getContainer(handle, containerId)).data;
		// Ready for pickup again (docs/service.md, "Ready for pickup"): available, and no hold left.
		expect(attributes.available_for_pickup).toBe(true);
		expect(attributes.holds_at_pod_terminal).toEqual([]);
	});
});

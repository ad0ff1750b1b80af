// Webhook deliveries of the sandbox, observed as a receiver sees them: signatures (checked with
// the receiver's own HMAC code), envelope and included records, subscriptions, retries,
// duplicates, the delivery log, and the envelope's keys against the service's published example.
// Drift stays off here whatever CT_SANDBOX_DRIFT says: these suites check the interface's own
// values; drift.test.ts checks what drift serves.
import { EVENT_NAMES } from '../../sandbox/world/eventNames';
import { byClock, generous } from '../support/bounds';
import { startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import { describeWithFixtures, fixtureNames, readFixture } from '../support/sharedFixtures';
import {
	startWebhookReceiver,
	verifySignature,
	type ReceivedDelivery,
	type WebhookReceiver,
} from '../support/webhookReceiver';
import {
	consistently,
	controlChange,
	deliveriesFor,
	eventOf,
	eventuallyPasses,
	expectValidDelivery,
	findContainerNumber,
	type Json,
	notificationIdOf,
	referenceRecord,
	subscribe,
	webhookOf,
} from './helpers';

import type { DeliveryAttempt } from '../../sandbox/webhooks/delivery';

const DEFAULT_HEADER = 'x-svc-webhook-signature';

// The control API answers with the sandbox's own log entries.
type LogEntry = DeliveryAttempt;

async function deliveryLog(handle: SandboxHandle, event?: string): Promise<LogEntry[]> {
	const answer = await handle.control.get('/deliveries', { params: event ? { event } : {} });
	expect(answer.status).toBe(200);
	return answer.data.deliveries as LogEntry[];
}

function typesOf(delivery: ReceivedDelivery): string[] {
	return ((delivery.body.included ?? []) as Array<{ type: string }>)
		.map((record) => record.type)
		.sort();
}

/** Every relationship of the reference record that names a record must find it in `included`. */
function expectRelationshipsIncluded(delivery: ReceivedDelivery): void {
	const reference = referenceRecord(delivery);
	expect(reference).toBeDefined();
	const included = delivery.body.included as Array<{ id: string; type: string }>;
	for (const [name, relationship] of Object.entries(reference.relationships ?? {})) {
		const data = (relationship as { data: { id: string; type: string } | null }).data;
		if (!data || Array.isArray(data)) continue;
		const found = included.some((record) => record.id === data.id && record.type === data.type);
		if (!found)
			throw new Error(
				`${eventOf(delivery)}: relationship ${name} (${data.type} ${data.id}) is not in included`,
			);
	}
}

function expectSignedAndValid(deliveries: ReceivedDelivery[], header = DEFAULT_HEADER): void {
	expect(deliveries.length).toBeGreaterThan(0);
	for (const delivery of deliveries) {
		expect(typeof delivery.headers[header]).toBe('string');
		expect(delivery.signatureValid).toBe(true);
		expectValidDelivery(delivery.body, `${eventOf(delivery)} delivery`);
		// data.id is the idempotency key; the attributes repeat it.
		expect(delivery.body.data.attributes.id).toBe(delivery.body.data.id);
	}
}

const isPortPickup = (plan: { inland: unknown; outcome: string }) =>
	plan.inland === null && plan.outcome === 'pickup';

describe('signed deliveries with their related records', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	let containerId: string;
	let sandboxUpdated: ReceivedDelivery;

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, EVENT_NAMES);
		const number = findContainerNumber('MSKU', 'MAEU', isPortPickup);
		({
			containerIds: [containerId],
		} = await trackContainer(handle, number, 'MAEU'));
		const advanced = await handle.control.post('/clock/advance', { days: 40 });
		expect(advanced.status).toBe(200);
		await eventuallyPasses(() => {
			for (const event of [
				'container.updated',
				'container.transport.vessel_discharged',
				'container.transport.full_out',
				'container.transport.empty_in',
				'container.transport.available',
			]) {
				expect(deliveriesFor(receiver, { event }).length).toBeGreaterThan(0);
			}
		});
		sandboxUpdated = deliveriesFor(receiver, { event: 'container.updated', containerId })[0];
	});

	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('signs every delivery in X-SVC-Webhook-Signature and every body passes the envelope schema', async () => {
		expectSignedAndValid(receiver.deliveries);
		// The signature is the bare lowercase hex HMAC-SHA256 of the raw body.
		for (const delivery of receiver.deliveries)
			expect(delivery.headers[DEFAULT_HEADER]).toMatch(/^[0-9a-f]{64}$/);
		// A different secret must not verify: the check is not vacuous.
		const first = receiver.deliveries[0];
		expect(
			verifySignature(first.rawBody, 'not-the-secret', first.headers[DEFAULT_HEADER] as string),
		).toBe(false);
	});

	it('uses data.id as the idempotency key, the notification id of the delivery log', async () => {
		const ids = receiver.deliveries.map(notificationIdOf);
		expect(new Set(ids).size).toBe(ids.length);
		const log = await deliveryLog(handle);
		for (const id of ids)
			expect(log.some((entry) => entry.notification_id === id && entry.status === 200)).toBe(true);
	});

	it('includes shipment, port, terminal, container and the container_updated_event with container.updated', () => {
		const updates = deliveriesFor(receiver, { event: 'container.updated', containerId });
		expect(updates.length).toBeGreaterThan(2);
		for (const delivery of updates) {
			expect(typesOf(delivery)).toEqual([
				'container',
				'container_updated_event',
				'port',
				'shipment',
				'terminal',
			]);
			expect(delivery.body.data.relationships.reference_object.data.type).toBe(
				'container_updated_event',
			);
			expectRelationshipsIncluded(delivery);
			const container = delivery.body.included.find(
				(record: { type: string }) => record.type === 'container',
			);
			expect(container.id).toBe(containerId);
		}
	});

	it('includes shipment, container, location, terminal, the vessel when relevant, and the transport_event', () => {
		const discharged = deliveriesFor(receiver, {
			event: 'container.transport.vessel_discharged',
			containerId,
		});
		expect(discharged).toHaveLength(1);
		expect(typesOf(discharged[0])).toEqual([
			'container',
			'port',
			'shipment',
			'terminal',
			'transport_event',
			'vessel',
		]);
		expectRelationshipsIncluded(discharged[0]);
		expect(referenceRecord(discharged[0]).attributes.event).toBe(
			'container.transport.vessel_discharged',
		);

		for (const event of ['container.transport.full_out', 'container.transport.empty_in']) {
			const [delivery] = deliveriesFor(receiver, { event, containerId });
			expect(delivery).toBeDefined();
			expect(typesOf(delivery)).toEqual([
				'container',
				'port',
				'shipment',
				'terminal',
				'transport_event',
			]);
			expect(referenceRecord(delivery).relationships.vessel.data).toBeNull();
			expectRelationshipsIncluded(delivery);
		}
	});

	it('sends container.transport.available as a reference-only delivery, without the container', () => {
		const available = deliveriesFor(receiver, { event: 'container.transport.available' });
		expect(available).toHaveLength(1);
		const types = typesOf(available[0]);
		expect(types).not.toContain('container');
		expect(available[0].body.data.relationships.reference_object.data.type).toBe('transport_event');
	});

	describeWithFixtures('against the published examples', () => {
		it.each(fixtureNames('notifications'))('%s passes the same delivery schema', (name) => {
			expectValidDelivery(readFixture('notifications', name), name);
		});

		it('a sandbox container.updated has every key the service sends', () => {
			const fixture = readFixture<Json>('notifications', 'container.updated.json');
			const sandbox = sandboxUpdated.body;
			const missing = (service: object, ours: object, where: string) =>
				Object.keys(service)
					.filter((key) => !(key in ours))
					.map((key) => `${where}.${key}`);
			const fixtureReference = fixture.included.find(
				(record: { type: string }) => record.type === 'container_updated_event',
			);
			const sandboxReference = referenceRecord(sandboxUpdated);
			const fixtureContainer = fixture.included.find(
				(record: { type: string }) => record.type === 'container',
			);
			const sandboxContainer = sandbox.included.find(
				(record: { type: string }) => record.type === 'container',
			);
			expect([
				...missing(fixture, sandbox, '(top)'),
				...missing(fixture.data, sandbox.data, 'data'),
				...missing(fixture.data.attributes, sandbox.data.attributes, 'data.attributes'),
				...missing(fixture.data.relationships, sandbox.data.relationships, 'data.relationships'),
				...missing(fixtureReference, sandboxReference, 'container_updated_event'),
				...missing(
					fixtureReference.attributes,
					sandboxReference.attributes,
					'container_updated_event.attributes',
				),
				...missing(
					fixtureReference.relationships,
					sandboxReference.relationships,
					'container_updated_event.relationships',
				),
				...missing(
					fixtureContainer.attributes,
					sandboxContainer.attributes,
					'container.attributes',
				),
				...missing(
					fixtureContainer.relationships,
					sandboxContainer.relationships,
					'container.relationships',
				),
			]).toEqual([]);
			expect(typesOf(sandboxUpdated)).toEqual(
				(fixture.included as Array<{ type: string }>).map((record) => record.type).sort(),
			);
		});
	});
});

describe('a custom signature header', () => {
	it('signs in the header named by the signatureHeader option, and not in the default one', async () => {
		const handle = await startTestSandbox({
			drift: false,
			trackingDelaySeconds: 0,
			signatureHeader: 'X-Acme-Signature',
		});
		const receiver = await startWebhookReceiver('X-Acme-Signature');
		try {
			await subscribe(handle, receiver, ['tracking_request.succeeded', 'container.created']);
			await trackContainer(handle, 'TEST-TR-SUCCEEDED', 'TEST');
			await eventuallyPasses(() => expect(receiver.deliveries).toHaveLength(2));
			expectSignedAndValid(receiver.deliveries, 'x-acme-signature');
			for (const delivery of receiver.deliveries)
				expect(delivery.headers[DEFAULT_HEADER]).toBeUndefined();
		} finally {
			await handle.stop();
			await receiver.close();
		}
	});
});

describe('subscriptions', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;

	beforeEach(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
	});

	afterEach(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('delivers only subscribed events, nothing to an inactive webhook, and each webhook its own signed copy', async () => {
		const updatesOnly = await subscribe(handle, receiver, ['container.updated']);
		const second = await subscribe(handle, receiver, ['container.updated']);
		const inactive = await subscribe(handle, receiver, EVENT_NAMES);
		const patched = await handle.api.patch(`/webhooks/${inactive.id}`, {
			data: { type: 'webhook', attributes: { active: false } },
		});
		expect(patched.status).toBe(200);
		expect((await handle.api.get(`/webhooks/${inactive.id}`)).data.data.attributes.active).toBe(
			false,
		);
		expect(updatesOnly.secret).not.toBe(second.secret);

		const number = findContainerNumber('MSKU', 'MAEU', isPortPickup);
		const { containerIds } = await trackContainer(handle, number, 'MAEU');
		await controlChange(handle, containerIds[0], {
			kind: 'place_hold',
			name: 'customs',
			status: 'hold',
			description: 'Exam',
		});
		await controlChange(handle, containerIds[0], { kind: 'post_fee', type: 'exam', amount: 100 });
		// Transport events, deadline events and more container.updated happen along the journey.
		await handle.control.post('/clock/advance', { days: 40 });

		const log = await eventuallyPasses(async () => {
			const entries = await deliveryLog(handle);
			const updates = entries.filter((entry) => entry.event === 'container.updated');
			expect(updates.length).toBeGreaterThan(4);
			// Both subscribed webhooks got every container.updated.
			expect(receiver.deliveries).toHaveLength(updates.length);
			return entries;
		});
		expect(new Set(receiver.deliveries.map(eventOf))).toEqual(new Set(['container.updated']));
		expect(log.every((entry) => entry.event === 'container.updated')).toBe(true);

		await consistently(() => {
			expect(deliveriesFor(receiver, { webhookId: inactive.id })).toHaveLength(0);
		});

		// Each webhook gets its own copy of each notification (same reference object), signed with
		// its own secret only, under an id of its own: data.id is unique per notification and
		// webhook, so the two logs of the same change never share an idempotency key.
		const referenceOf = (delivery: ReceivedDelivery) =>
			delivery.body.data.relationships.reference_object.data.id as string;
		const [mine, theirs] = await eventuallyPasses(() => {
			const copies = [
				deliveriesFor(receiver, { webhookId: updatesOnly.id }),
				deliveriesFor(receiver, { webhookId: second.id }),
			];
			expect(copies[0].map(referenceOf).sort()).toEqual(copies[1].map(referenceOf).sort());
			return copies;
		});
		const ids = [...mine, ...theirs].map(notificationIdOf);
		expect(new Set(ids).size).toBe(ids.length);
		expect(mine.length).toBeGreaterThan(2);
		for (const delivery of mine) {
			expect(delivery.signatureValid).toBe(true);
			const signature = delivery.headers[DEFAULT_HEADER] as string;
			expect(verifySignature(delivery.rawBody, updatesOnly.secret, signature)).toBe(true);
			expect(verifySignature(delivery.rawBody, second.secret, signature)).toBe(false);
		}
		for (const delivery of theirs) {
			expect(delivery.signatureValid).toBe(true);
			expect(
				verifySignature(
					delivery.rawBody,
					updatesOnly.secret,
					delivery.headers[DEFAULT_HEADER] as string,
				),
			).toBe(false);
		}
	});
});

describe('retries', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;

	// 10 000 sandbox seconds a second: 12 retries from a 1-second base (doubling) take 0.41 s.
	const TIME_SCALE = 10_000;
	/** The real wait before retry `n` (1 to 12): the base doubled n − 1 times, on the clock. */
	const retryWaitMs = (n: number) => byClock((1_000 * 2 ** (n - 1)) / TIME_SCALE);
	/**
	 * A quiet window after the last attempt expected: as long as a retry after it would wait, and
	 * then what a delivery takes to reach the local receiver (well under 100 ms quietly).
	 */
	const noMoreAfter = (attempts: number) => retryWaitMs(attempts) + generous(100);
	beforeEach(async () => {
		handle = await startTestSandbox({
			drift: false,
			trackingDelaySeconds: 0,
			timeScale: TIME_SCALE,
			retryBaseSeconds: 1,
		});
		receiver = await startWebhookReceiver();
	});

	afterEach(async () => {
		await handle.stop();
		await receiver.close();
	});

	const trackTestNumber = async () => {
		const created = await handle.api.post('/tracking_requests', {
			data: {
				type: 'tracking_request',
				attributes: {
					request_number: 'TEST-TR-SUCCEEDED',
					request_type: 'container',
					scac: 'TEST',
				},
			},
		});
		expect(created.status).toBe(201);
	};

	it('retries a failing receiver with the same notification, 13 attempts at most, and logs each', async () => {
		receiver.answer = 500;
		const webhook = await subscribe(handle, receiver, ['tracking_request.succeeded']);
		await trackTestNumber();
		await eventuallyPasses(() => expect(receiver.deliveries).toHaveLength(13));
		await consistently(() => expect(receiver.deliveries).toHaveLength(13), noMoreAfter(13));

		const [first] = receiver.deliveries;
		for (const delivery of receiver.deliveries) {
			expect(notificationIdOf(delivery)).toBe(notificationIdOf(first));
			expect(delivery.rawBody.equals(first.rawBody)).toBe(true);
			expect(delivery.signatureValid).toBe(true);
		}
		const log = await eventuallyPasses(async () => {
			const entries = await deliveryLog(handle, 'tracking_request.succeeded');
			expect(entries).toHaveLength(13);
			return entries;
		});
		expect(log.map((entry) => entry.attempt)).toEqual(
			Array.from({ length: 13 }, (_, index) => index + 1),
		);
		for (const entry of log) {
			expect(entry).toMatchObject({
				url: receiver.url,
				webhook_id: webhook.id,
				event: 'tracking_request.succeeded',
				notification_id: notificationIdOf(first),
				status: 500,
			});
		}
	});

	it('stops retrying after the first success', async () => {
		receiver.answer = (_delivery, index) => (index < 2 ? 500 : 204);
		await subscribe(handle, receiver, ['tracking_request.succeeded']);
		await trackTestNumber();
		await eventuallyPasses(() => expect(receiver.deliveries).toHaveLength(3));
		await consistently(() => expect(receiver.deliveries).toHaveLength(3), noMoreAfter(3));
		expect(receiver.deliveries.map((delivery) => delivery.answeredWith)).toEqual([500, 500, 204]);
		expect(new Set(receiver.deliveries.map(notificationIdOf)).size).toBe(1);
		const log = await eventuallyPasses(async () => {
			const entries = await deliveryLog(handle);
			expect(entries).toHaveLength(3);
			return entries;
		});
		expect(log.map((entry) => entry.status)).toEqual([500, 500, 204]);
	});

	it('counts 200, 201, 202 and 204 as success, and retries 301, 400 and 404', async () => {
		const statuses = [200, 201, 202, 204, 301, 400, 404];
		const statusOf = new Map<string, number>();
		for (const status of statuses)
			statusOf.set((await subscribe(handle, receiver, ['tracking_request.succeeded'])).id, status);
		receiver.answer = (delivery) =>
			statusOf.get(delivery.body.data.relationships.webhook.data.id) ?? 599;
		await trackTestNumber();

		const countFor = (status: number) =>
			receiver.deliveries.filter((delivery) => statusOf.get(webhookOf(delivery)) === status).length;
		await eventuallyPasses(() => {
			for (const status of [301, 400, 404]) expect(countFor(status)).toBe(13);
		});
		await consistently(() => {
			for (const status of [200, 201, 202, 204]) expect(countFor(status)).toBe(1);
			for (const status of [301, 400, 404]) expect(countFor(status)).toBe(13);
		}, noMoreAfter(13));
	});

	it('logs a receiver that is down with status null and an error', async () => {
		const down = await startWebhookReceiver();
		await down.close();
		const webhook = await subscribe(handle, down, ['tracking_request.succeeded']);
		await trackTestNumber();
		const log = await eventuallyPasses(async () => {
			const entries = (await deliveryLog(handle)).filter(
				(entry) => entry.webhook_id === webhook.id,
			);
			expect(entries).toHaveLength(13);
			return entries;
		});
		for (const entry of log) {
			expect(entry.url).toBe(down.url);
			expect(entry.status).toBeNull();
			expect(typeof entry.error).toBe('string');
			expect(entry.error!.length).toBeGreaterThan(0);
		}
		expect(new Set(log.map((entry) => entry.notification_id)).size).toBe(1);
	});
});

describe('duplicates', () => {
	const run = async (duplicateRate: number) => {
		const handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0, duplicateRate });
		const receiver = await startWebhookReceiver();
		try {
			await subscribe(handle, receiver, [
				'tracking_request.succeeded',
				'container.created',
				'container.updated',
			]);
			const { containerIds } = await trackContainer(handle, 'TEST-TR-SUCCEEDED', 'TEST');
			await controlChange(handle, containerIds[0], {
				kind: 'place_hold',
				name: 'TMF',
				status: 'hold',
				description: null,
			});
			await controlChange(handle, containerIds[0], { kind: 'clear_hold', name: 'TMF' });
			// Four notifications: succeeded, created, two updates.
			const copies = duplicateRate === 1 ? 2 : 1;
			await eventuallyPasses(() => expect(receiver.deliveries).toHaveLength(4 * copies));
			await consistently(() => expect(receiver.deliveries).toHaveLength(4 * copies));
			return { deliveries: receiver.deliveries, log: await deliveryLog(handle) };
		} finally {
			await handle.stop();
			await receiver.close();
		}
	};

	it('with duplicateRate 1 delivers every notification twice, same id, valid signature', async () => {
		const { deliveries, log } = await run(1);
		const byId = new Map<string, ReceivedDelivery[]>();
		for (const delivery of deliveries)
			byId.set(notificationIdOf(delivery), [
				...(byId.get(notificationIdOf(delivery)) ?? []),
				delivery,
			]);
		expect(byId.size).toBe(4);
		for (const copies of byId.values()) {
			expect(copies).toHaveLength(2);
			expect(copies[0].rawBody.equals(copies[1].rawBody)).toBe(true);
			for (const copy of copies) expect(copy.signatureValid).toBe(true);
		}
		expect(log.filter((entry) => entry.duplicate)).toHaveLength(4);
	});

	it('with duplicateRate 0 never does', async () => {
		const { deliveries, log } = await run(0);
		expect(new Set(deliveries.map(notificationIdOf)).size).toBe(4);
		expect(log.filter((entry) => entry.duplicate)).toHaveLength(0);
	});
});

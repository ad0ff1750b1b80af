/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The notification log over real HTTP, as a client reconciling after an outage sees it:
// GET /webhook_notifications (pages, meta.total, include of webhook and reference_object) and
// GET /webhook_notifications/{id} (the envelope the delivery carried), delivery_status from
// pending to succeeded or failed, webhooks deactivated after failures in a row, logging while
// inactive, and the control API that compresses retries (PATCH /_sandbox/webhook_settings).
// Drift stays off here whatever CT_SANDBOX_DRIFT says: these suites check the interface's own
// values; drift.test.ts checks what drift serves.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { AxiosResponse } from 'axios';
import { z } from 'zod';

import {
	includedResources,
	listDocument,
	notificationSchemasByType,
	webhookDocument,
	webhookNotificationResource,
} from '../../nodes/ContainerTracking/schemas';
import { byClock, generous } from '../support/bounds';
import { startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import {
	startWebhookReceiver,
	type ReceivedDelivery,
	type WebhookReceiver,
} from '../support/webhookReceiver';
import { expectApiError, expectOk } from './expectations';
import {
	consistently,
	controlChange,
	deliveriesFor,
	eventuallyPasses,
	expectValidDelivery,
	type Json,
	notificationIdOf,
	subscribe,
	type Subscription,
} from './helpers';

const NOT_FOUND_BODY = { errors: [{ status: '404', title: 'Not Found' }] };
const notificationListDocument = listDocument(
	webhookNotificationResource,
	includedResources(notificationSchemasByType),
);
/** What the control API answers for the webhook settings (sandbox-only: no schema in the package). */
const settingsBody = z
	.object({
		retry_base_seconds: z.number(),
		timeout_ms: z.number(),
		deactivate_after_failures: z.number().int().nullable(),
		log_while_inactive: z.boolean(),
		log_order: z.enum(['newest_first', 'oldest_first']),
	})
	.strict();
type Settings = z.infer<typeof settingsBody>;

/** 12 retries doubling from 0.1 ms take about 0.4 s: a whole retry window in a test. */
const COMPRESSED = { retry_base_seconds: 0.0001 };
/** How long those 12 retries wait in all, on the sandbox clock: 0.1 ms × (2^12 − 1). */
const COMPRESSED_RETRIES_MS = byClock(0.1 * (2 ** 12 - 1));
/**
 * A first retry that waits longer than a test's steps before it (well under a second quietly):
 * the sandbox's own default, 5 s.
 */
const RETRY_LATER = { retry_base_seconds: generous(1_000) / 1000 };
/** 13 attempts: the first and 12 retries. */
const ATTEMPTS = 13;

async function settings(handle: SandboxHandle, body: Partial<Settings>): Promise<Settings> {
	const answer = await handle.control.patch('/webhook_settings', body);
	if (answer.status !== 200)
		throw new Error(
			`PATCH /webhook_settings answered ${answer.status}: ${JSON.stringify(answer.data)}`,
		);
	return settingsBody.parse(answer.data);
}

/** Every page of GET /webhook_notifications, followed through links.next. */
async function walkLog(
	handle: SandboxHandle,
	params: Record<string, string> = {},
): Promise<AxiosResponse[]> {
	const pages: AxiosResponse[] = [];
	let answer = await handle.api.get('/webhook_notifications', { params });
	for (;;) {
		expectOk(answer, 200, notificationListDocument);
		pages.push(answer);
		const next = answer.data.links?.next as string | undefined;
		if (!next) return pages;
		if (pages.length > 100) throw new Error('links.next never ends');
		answer = await handle.api.get(next);
	}
}

async function logRecords(handle: SandboxHandle): Promise<Json[]> {
	return (await walkLog(handle, { 'page[size]': '100' })).flatMap((page) => page.data.data);
}

async function logOf(handle: SandboxHandle, webhookId: string): Promise<Json[]> {
	return (await logRecords(handle)).filter(
		(record) => record.relationships.webhook.data.id === webhookId,
	);
}

async function notification(handle: SandboxHandle, id: string, include?: string): Promise<Json> {
	const answer = await handle.api.get(`/webhook_notifications/${id}`, {
		params: include ? { include } : {},
	});
	if (answer.status !== 200)
		throw new Error(`GET /webhook_notifications/${id} answered ${answer.status}`);
	expectValidDelivery(answer.data, `GET /webhook_notifications/${id}`);
	return answer.data;
}

async function webhookActive(handle: SandboxHandle, id: string): Promise<boolean> {
	const answer = expectOk(await handle.api.get(`/webhooks/${id}`), 200, webhookDocument);
	return answer.data.attributes.active as boolean;
}

async function setActive(handle: SandboxHandle, id: string, active: boolean): Promise<void> {
	const answer = await handle.api.patch(`/webhooks/${id}`, {
		data: { type: 'webhook', attributes: { active } },
	});
	expect(answer.status).toBe(200);
}

/** One `container.updated`: an exam fee of a new amount. */
let amount = 0;
async function change(handle: SandboxHandle, containerId: string): Promise<void> {
	amount += 10;
	await controlChange(handle, containerId, { kind: 'post_fee', type: 'exam', amount });
}

async function trackTestContainer(handle: SandboxHandle): Promise<string> {
	const { containerIds } = await trackContainer(handle, 'TEST-TR-SUCCEEDED', 'TEST');
	return containerIds[0];
}

describe('the notification log of delivered notifications', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	let webhook: Subscription;
	let other: Subscription;
	let containerId: string;

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		webhook = await subscribe(handle, receiver, [
			'tracking_request.succeeded',
			'container.created',
			'container.updated',
		]);
		// A second webhook for the holds only: some notifications go to both.
		other = await subscribe(handle, receiver, ['container.updated']);
		containerId = await trackTestContainer(handle);
		for (let index = 0; index < 4; index++) await change(handle, containerId);
		// 2 + 4 to the first webhook, 4 to the second.
		await eventuallyPasses(async () => {
			expect(receiver.deliveries).toHaveLength(10);
			const records = await logRecords(handle);
			expect(records.map((record) => record.attributes.delivery_status)).toEqual(
				Array(10).fill('succeeded'),
			);
		});
	});

	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('logs each notification once per webhook, under the data.id its delivery carried, succeeded after a 2xx', async () => {
		const records = await logRecords(handle);
		expect(records.map((record) => record.id).sort()).toEqual(
			receiver.deliveries.map(notificationIdOf).sort(),
		);
		for (const record of records) {
			expect(record.type).toBe('webhook_notification');
			expect(Object.keys(record.attributes).sort()).toEqual(
				['created_at', 'delivery_status', 'event', 'id'].sort(),
			);
			expect(record.attributes.id).toBe(record.id);
			expect(record.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
			expect(record.relationships.webhook_notification_logs).toEqual({ data: [] });
		}
		// The delivery itself still says pending, as the service's deliveries do.
		for (const delivery of receiver.deliveries)
			expect(delivery.body.data.attributes.delivery_status).toBe('pending');
	});

	it('gives two webhooks of the same notification two ids of their own', () => {
		const byReference = new Map<string, ReceivedDelivery[]>();
		for (const delivery of deliveriesFor(receiver, { event: 'container.updated' })) {
			const reference = delivery.body.data.relationships.reference_object.data.id as string;
			byReference.set(reference, [...(byReference.get(reference) ?? []), delivery]);
		}
		expect(byReference.size).toBe(4);
		for (const deliveries of byReference.values()) {
			expect(
				deliveries.map((delivery) => delivery.body.data.relationships.webhook.data.id).sort(),
			).toEqual([webhook.id, other.id].sort());
			expect(notificationIdOf(deliveries[0])).not.toBe(notificationIdOf(deliveries[1]));
		}
	});

	it('answers GET /webhook_notifications/{id} with the envelope the delivery carried', async () => {
		for (const delivery of receiver.deliveries) {
			const id = notificationIdOf(delivery);
			const answer = await notification(handle, id, 'reference_object');
			expect(answer.data.id).toBe(id);
			expect(answer.links).toEqual(delivery.body.links);
			expect(answer.data.relationships).toEqual(delivery.body.data.relationships);
			expect(answer.data.attributes).toEqual({
				...delivery.body.data.attributes,
				delivery_status: 'succeeded',
			});
			// Exactly the records the delivery carried: a client rebuilds the delivery's items from it.
			expect(answer.included).toEqual(delivery.body.included);
			// Without include, no included records.
			expect((await notification(handle, id)).included).toBeUndefined();
		}
	});

	it('keeps what an old notification carried when its container changes later', async () => {
		const [first] = deliveriesFor(receiver, { event: 'container.updated', webhookId: webhook.id });
		const carriedContainer = (first.body.included as Json[]).find(
			(record) => record.type === 'container',
		);
		await change(handle, containerId);
		const now = (await handle.api.get(`/containers/${containerId}`)).data.data;
		expect(now.attributes.fees_at_pod_terminal).not.toEqual(
			carriedContainer.attributes.fees_at_pod_terminal,
		);
		const answer = await notification(handle, notificationIdOf(first), 'reference_object');
		expect(answer.included).toEqual(first.body.included);
		await eventuallyPasses(() => expect(receiver.deliveries).toHaveLength(12));
	});

	it('pages newest first, with meta.total and first, prev, next and last links as every list', async () => {
		const all = await logRecords(handle);
		const total = all.length;
		expect(total).toBeGreaterThanOrEqual(10);
		const pages = await walkLog(handle, { 'page[size]': '3' });
		expect(pages).toHaveLength(Math.ceil(total / 3));
		const ids = pages.flatMap((page) => page.data.data.map((record: Json) => record.id));
		expect(ids).toEqual(all.map((record) => record.id));
		expect(new Set(ids).size).toBe(total);
		// Newest first: created_at, then id, both descending.
		const keys = all.map((record) => `${record.attributes.created_at} ${record.id}`);
		expect(keys).toEqual([...keys].sort().reverse());
		// Or oldest first, when the control API says so: the service documents no order.
		await settings(handle, { log_order: 'oldest_first' });
		const oldest = await walkLog(handle, { 'page[size]': '3' });
		expect(oldest.flatMap((page) => page.data.data.map((record: Json) => record.id))).toEqual(
			[...ids].reverse(),
		);
		await settings(handle, { log_order: 'newest_first' });

		const base = `${handle.sandbox.url}/webhook_notifications?`;
		const second = pages[1].data;
		expect(second.meta).toEqual({ size: 3, total });
		expect(second.links).toMatchObject({
			first: `${base}page[number]=1&page[size]=3`,
			prev: `${base}page[number]=1&page[size]=3`,
			next: `${base}page[number]=3&page[size]=3`,
			last: `${base}page[number]=${pages.length}&page[size]=3`,
		});
		expect(pages[0].data.links.prev).toBeUndefined();
		expect(pages[pages.length - 1].data.links.next).toBeUndefined();

		const cut = await handle.api.get('/webhook_notifications', { params: { 'page[size]': '500' } });
		expect(cut.data.links.first).toContain('page[size]=100');
		expectApiError(
			await handle.api.get('/webhook_notifications', { params: { 'page[size]': '0' } }),
			400,
		);
	});

	it('includes each webhook once as GET /webhooks/{id} shows it, and what the deliveries carried', async () => {
		const withWebhooks = (
			await handle.api.get('/webhook_notifications', {
				params: { include: 'webhook', 'page[size]': '100' },
			})
		).data;
		const shown = await Promise.all(
			[webhook.id, other.id].map(async (id) => (await handle.api.get(`/webhooks/${id}`)).data.data),
		);
		expect([...withWebhooks.included].sort((a: Json, b: Json) => a.id.localeCompare(b.id))).toEqual(
			shown.sort((a, b) => a.id.localeCompare(b.id)),
		);

		const withBoth = (
			await walkLog(handle, { include: 'webhook, reference_object', 'page[size]': '4' })
		).map((page) => page.data);
		for (const page of withBoth) {
			const keys = (page.included as Json[]).map((record) => `${record.type}:${record.id}`);
			expect(new Set(keys).size).toBe(keys.length);
			for (const record of page.data as Json[]) {
				const delivery = receiver.deliveries.find((one) => notificationIdOf(one) === record.id)!;
				const carried = delivery.body.included as Json[];
				// Every record the delivery carried, the reference object among them, and the webhook.
				expect(
					carried.some((one) => one.id === record.relationships.reference_object.data.id),
				).toBe(true);
				for (const one of carried) expect(keys).toContain(`${one.type}:${one.id}`);
				expect(keys).toContain(`webhook:${record.relationships.webhook.data.id}`);
			}
		}
	});

	it('refuses an include it does not know with 400, as the other lists do, and answers 404 for an unknown id', async () => {
		expectApiError(
			await handle.api.get('/webhook_notifications', { params: { include: 'container' } }),
			400,
		);
		expectApiError(
			await handle.api.get(`/webhook_notifications/${notificationIdOf(receiver.deliveries[0])}`, {
				params: { include: 'reference_object,shipment' },
			}),
			400,
		);
		const unknown = await handle.api.get(
			'/webhook_notifications/00000000-0000-4000-8000-000000000000',
		);
		expectApiError(unknown, 404);
		expect(unknown.data).toEqual(NOT_FOUND_BODY);
		const anonymous = await handle.api.get('/webhook_notifications', {
			headers: { Authorization: '' },
		});
		expectApiError(anonymous, 401);
	});
});

describe('failed deliveries and deactivated webhooks', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	let containerId: string;

	beforeEach(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		containerId = await trackTestContainer(handle);
	});

	afterEach(async () => {
		await handle.stop();
		await receiver.close();
	});

	it('answers the settings, changes any subset of them and refuses wrong values as a whole', async () => {
		expect(settingsBody.parse((await handle.control.get('/webhook_settings')).data)).toEqual({
			retry_base_seconds: 5,
			timeout_ms: 10_000,
			deactivate_after_failures: null,
			log_while_inactive: false,
			log_order: 'newest_first',
		});
		expect(await settings(handle, { deactivate_after_failures: 3 })).toEqual({
			retry_base_seconds: 5,
			timeout_ms: 10_000,
			deactivate_after_failures: 3,
			log_while_inactive: false,
			log_order: 'newest_first',
		});
		for (const [body, pointer] of [
			[{ retry_base_seconds: -1 }, '/retry_base_seconds'],
			[{ timeout_ms: 0 }, '/timeout_ms'],
			[{ deactivate_after_failures: 1.5 }, '/deactivate_after_failures'],
			[{ deactivate_after_failures: 0 }, '/deactivate_after_failures'],
			[{ log_while_inactive: 'yes' }, '/log_while_inactive'],
			[{ log_order: 'by_id' }, '/log_order'],
			[{ log_while_inactive: true, retries: 3 }, '/retries'],
		] as const) {
			const errors = expectApiError(await handle.control.patch('/webhook_settings', body), 422);
			expect(errors[0].source?.pointer).toBe(pointer);
		}
		// Nothing of a refused body was applied.
		expect((await handle.control.get('/webhook_settings')).data).toEqual({
			retry_base_seconds: 5,
			timeout_ms: 10_000,
			deactivate_after_failures: 3,
			log_while_inactive: false,
			log_order: 'newest_first',
		});
		expect(
			(await settings(handle, { deactivate_after_failures: null })).deactivate_after_failures,
		).toBeNull();
	});

	it('keeps a notification pending while retries remain', async () => {
		// The default base: the first retry waits 5 s, longer than this test looks.
		receiver.answer = 500;
		const webhook = await subscribe(handle, receiver, ['container.updated']);
		await change(handle, containerId);
		await eventuallyPasses(() => expect(receiver.deliveries).toHaveLength(1));
		const [record] = await logOf(handle, webhook.id);
		expect(record.attributes.delivery_status).toBe('pending');
		expect(record.id).toBe(notificationIdOf(receiver.deliveries[0]));
	});

	it('with compressed retries, marks each notification failed after the 12th retry; after the threshold the webhook is inactive and gets nothing', async () => {
		receiver.answer = 500;
		await settings(handle, { ...COMPRESSED, deactivate_after_failures: 2 });
		const webhook = await subscribe(handle, receiver, ['container.updated']);
		await change(handle, containerId);
		await eventuallyPasses(async () => {
			expect(receiver.deliveries).toHaveLength(ATTEMPTS);
			const [record] = await logOf(handle, webhook.id);
			expect(record.attributes.delivery_status).toBe('failed');
		});
		// One failure is not enough.
		expect(await webhookActive(handle, webhook.id)).toBe(true);
		await change(handle, containerId);
		await eventuallyPasses(async () => expect(await webhookActive(handle, webhook.id)).toBe(false));
		const log = await logOf(handle, webhook.id);
		expect(log.map((record) => record.attributes.delivery_status)).toEqual(['failed', 'failed']);
		expect(receiver.deliveries).toHaveLength(2 * ATTEMPTS);

		// Inactive: no delivery, and (log_while_inactive false) nothing logged.
		await change(handle, containerId);
		await consistently(async () => {
			expect(receiver.deliveries).toHaveLength(2 * ATTEMPTS);
			expect(await logOf(handle, webhook.id)).toHaveLength(2);
		});
	});

	it('counts failures in a row only: a success resets the count', async () => {
		await settings(handle, { ...COMPRESSED, deactivate_after_failures: 2 });
		const webhook = await subscribe(handle, receiver, ['container.updated']);
		const failing = new Set<number>([1, 3]);
		let notifications = 0;
		const seen = new Map<string, number>();
		receiver.answer = (delivery) => {
			const id = delivery.body.data.id as string;
			if (!seen.has(id)) seen.set(id, ++notifications);
			return failing.has(seen.get(id)!) ? 500 : 200;
		};
		const settled = async (count: number) =>
			await eventuallyPasses(async () => {
				const log = await logOf(handle, webhook.id);
				expect(log).toHaveLength(count);
				expect(log.every((record) => record.attributes.delivery_status !== 'pending')).toBe(true);
				return log;
			});
		for (let count = 1; count <= 3; count++) {
			await change(handle, containerId);
			await settled(count);
		}
		// In the order they were sent (created_at has whole seconds: the log's order may tie).
		const log = await logOf(handle, webhook.id);
		const statuses = [...seen.keys()].map(
			(id) => log.find((record) => record.id === id)?.attributes.delivery_status,
		);
		expect(statuses).toEqual(['failed', 'succeeded', 'failed']);
		expect(await webhookActive(handle, webhook.id)).toBe(true);
	});

	it('logs notifications of an inactive webhook as failed, never sent, only with log_while_inactive', async () => {
		const webhook = await subscribe(handle, receiver, ['container.updated']);
		await setActive(handle, webhook.id, false);

		await settings(handle, { log_while_inactive: true });
		await change(handle, containerId);
		const [logged] = await logOf(handle, webhook.id);
		expect(logged.attributes).toMatchObject({
			event: 'container.updated',
			delivery_status: 'failed',
		});
		// Its envelope is served like any other, with what a delivery would have carried.
		const answer = await notification(handle, logged.id, 'reference_object');
		expect((answer.included as Json[]).map((record) => record.type)).toContain('container');

		await settings(handle, { log_while_inactive: false });
		await change(handle, containerId);
		await consistently(async () => {
			expect(await logOf(handle, webhook.id)).toHaveLength(1);
			expect(receiver.deliveries).toHaveLength(0);
		});
	});

	it('resumes deliveries once the webhook is set active again', async () => {
		receiver.answer = 500;
		await settings(handle, { ...COMPRESSED, deactivate_after_failures: 1 });
		const webhook = await subscribe(handle, receiver, ['container.updated']);
		await change(handle, containerId);
		await eventuallyPasses(async () => expect(await webhookActive(handle, webhook.id)).toBe(false));

		receiver.answer = 200;
		await setActive(handle, webhook.id, true);
		await change(handle, containerId);
		await eventuallyPasses(async () => {
			expect(receiver.deliveries).toHaveLength(ATTEMPTS + 1);
			const resumed = (await logOf(handle, webhook.id)).find(
				(record) => record.id === notificationIdOf(receiver.deliveries[ATTEMPTS]),
			);
			expect(resumed?.attributes.delivery_status).toBe('succeeded');
		});
		expect(await webhookActive(handle, webhook.id)).toBe(true);
	});

	it('marks a notification failed when its webhook is deactivated or deleted while a retry waits', async () => {
		await settings(handle, RETRY_LATER);
		receiver.answer = 500;
		const deactivated = await subscribe(handle, receiver, ['container.updated']);
		const deleted = await subscribe(handle, receiver, ['container.updated']);
		await change(handle, containerId);
		await eventuallyPasses(async () => {
			expect(receiver.deliveries).toHaveLength(2);
			for (const id of [deactivated.id, deleted.id])
				expect((await logOf(handle, id))[0].attributes.delivery_status).toBe('pending');
		});
		await setActive(handle, deactivated.id, false);
		expect((await handle.api.delete(`/webhooks/${deleted.id}`)).status).toBe(204);
		for (const id of [deactivated.id, deleted.id])
			expect((await logOf(handle, id))[0].attributes.delivery_status).toBe('failed');
		// Set active again, it does not get the dropped retry.
		await setActive(handle, deactivated.id, true);
		await settings(handle, COMPRESSED);
		await consistently(() => expect(receiver.deliveries).toHaveLength(2));
	});

	it('gives up on a receiver that does not answer within timeout_ms', async () => {
		// The receiver never answers: each attempt ends at this timeout, whatever the machine.
		const SILENT_TIMEOUT_MS = 50;
		const silent = http.createServer(() => undefined);
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`;
			await settings(handle, { ...COMPRESSED, timeout_ms: SILENT_TIMEOUT_MS });
			const webhook = await subscribe(handle, receiver, ['container.updated'], url);
			await change(handle, containerId);
			await eventuallyPasses(
				async () => {
					const [record] = await logOf(handle, webhook.id);
					expect(record.attributes.delivery_status).toBe('failed');
				},
				// 13 attempts that each wait out the timeout, the retries' waits, then the log's answer.
				{
					timeoutMs:
						byClock(ATTEMPTS * SILENT_TIMEOUT_MS + COMPRESSED_RETRIES_MS) + generous(1_000),
				},
			);
			const attempts = (await handle.control.get('/deliveries')).data.deliveries as Json[];
			expect(attempts).toHaveLength(ATTEMPTS);
			for (const attempt of attempts)
				expect(attempt).toMatchObject({ status: null, error: 'timeout' });
		} finally {
			silent.closeAllConnections();
			await new Promise<void>((resolve) => silent.close(() => resolve()));
		}
	});
});

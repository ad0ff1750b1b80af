/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * Webhook deliveries as the service makes them (docs/service.md, "Deliveries"): a POST of the
 * notification envelope, signed with the lowercase hex HMAC-SHA256 of the raw body keyed with
 * the webhook's secret, retried up to 12 times with backoff until the receiver answers 200, 201,
 * 202 or 204. Every attempt is logged for the control API, and every notification for the
 * service's own log (notificationLog.ts). With drift on, the envelope is drifted
 * (sandbox/drift.ts) before it is serialized, so the signature covers the drifted bytes, and
 * every retry and duplicate sends those same bytes.
 *
 * Like the service, the sandbox can deactivate a webhook after repeated failures
 * (`deactivateAfterFailures` consecutive notifications ending `failed`; any success resets the
 * count, and so does the deactivation). An inactive webhook gets no deliveries, and a retry that
 * was waiting for it is dropped and its notification marked `failed`.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

import type { SandboxClock } from '../clock';
import { driftNotification, type DriftSwitch } from '../drift';
import type { Notification } from '../world/world';
import type { Resource, Store } from '../world/store';
import { isoTimestamp } from '../world/time';
import { NotificationLog } from './notificationLog';

export const MAX_RETRIES = 12;
const SUCCESS_STATUSES = new Set([200, 201, 202, 204]);

export interface DeliveryOptions {
	signatureHeader: string;
	/** Share of notifications (0 to 1) delivered a second time, as a retrying service would. */
	duplicateRate: number;
	/** Sandbox milliseconds before the first retry; each retry doubles it… */
	retryBaseMs: number;
	/** …up to this many (an hour, as the service's schedule ends). */
	retryCapMs: number;
	/** Real milliseconds a receiver has to answer. */
	timeoutMs: number;
	/**
	 * Consecutive notifications of a webhook ending `failed` after which the sandbox sets its
	 * `active` to false; null never does.
	 */
	deactivateAfterFailures: number | null;
	/**
	 * Whether a notification for an inactive webhook is still logged (as `failed`, never sent);
	 * when false nothing is logged for it.
	 */
	logWhileInactive: boolean;
	/**
	 * Serve `GET /webhook_notifications` oldest first instead of newest first: the service
	 * documents no order, and a client must find what it needs in either.
	 */
	logOldestFirst: boolean;
}

/** One notification on its way to one webhook. */
interface Delivery {
	/** The notification's id in the log, `data.id` of the body. */
	id: string;
	event: string;
	/** The signed bytes every attempt sends. */
	body: string;
}

export interface DeliveryAttempt {
	attempt: number;
	url: string;
	webhook_id: string;
	event: string;
	/** `data.id` of the body: the notification's id in the log, one per notification and webhook. */
	notification_id: string;
	/** HTTP status of the answer, or null when there was none. */
	status: number | null;
	error: string | null;
	duplicate: boolean;
	delivered_at: string;
	duration_ms: number;
	/**
	 * The first 300 characters of the receiver's answer, null when it sent none: which of a
	 * receiver's 503s was which (a workflow's "send it again" or n8n's "Database is not ready!").
	 */
	answer: string | null;
}

/** How much of a receiver's answer the log keeps. */
const ANSWER_LOGGED = 300;

/** Sandbox milliseconds before retry `attempt` (1 for the first retry). */
export function retryBackoffMs(attempt: number, baseMs: number, capMs: number): number {
	return Math.min(baseMs * 2 ** (attempt - 1), capMs);
}

/**
 * Sandbox milliseconds from a notification's first attempt to its last retry, when every attempt
 * fails at once: how long the service may still send it (without the attempts' own durations).
 */
export function retryScheduleMs(baseMs: number, capMs: number, retries = MAX_RETRIES): number {
	let total = 0;
	for (let attempt = 1; attempt <= retries; attempt++)
		total += retryBackoffMs(attempt, baseMs, capMs);
	return total;
}

export function signBody(body: string | Buffer, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/** Deterministic share: the delivery's `data.id` decides whether it is sent twice. */
function isDuplicated(notificationId: string, rate: number): boolean {
	if (rate <= 0) return false;
	// An id starting ffffffff gives a bucket of exactly 1, which `< rate` would miss at rate 1.
	if (rate >= 1) return true;
	const bucket = parseInt(notificationId.replace(/-/g, '').slice(0, 8), 16) / 0xffffffff;
	return bucket < rate;
}

export class WebhookDispatcher {
	readonly log: DeliveryAttempt[] = [];
	/** The service's notification log (`GET /webhook_notifications`), kept in the store. */
	readonly notifications: NotificationLog;
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<Promise<void>>();
	/** Retries waiting for their time, by notification id, with the webhook they go to. */
	private readonly waiting = new Map<string, { webhookId: string; timer: NodeJS.Timeout }>();
	/** Notifications in a row that ended `failed`, by webhook id. */
	private readonly failures = new Map<string, number>();
	private stopped = false;

	constructor(
		private readonly store: Store,
		private readonly clock: SandboxClock,
		/** Read when they are needed: the control API changes them at run time. */
		readonly options: DeliveryOptions,
		private readonly baseUrl: () => string,
		private readonly drift: DriftSwitch = { enabled: false },
	) {
		this.notifications = new NotificationLog(store);
	}

	/**
	 * Logs the notification for every webhook subscribed to its event and sends it to the active
	 * ones; an inactive one gets a `failed` record when `logWhileInactive` is on, else nothing.
	 */
	dispatch(notification: Notification): void {
		if (notification.onlyWithDrift && !this.drift.enabled) return;
		for (const webhook of this.store.list('webhook')) {
			const attributes = webhook.attributes as { active: boolean; events: string[]; url: string };
			if (!attributes.events.includes(notification.event)) continue;
			if (!attributes.active) {
				if (this.options.logWhileInactive)
					this.notifications.record(notification, webhook, 'failed');
				continue;
			}
			const record = this.notifications.record(notification, webhook, 'pending');
			const envelope = this.notifications.envelope(
				record,
				this.baseUrl(),
				this.notifications.carriedBy(record.id),
			);
			const body = JSON.stringify(
				this.drift.enabled ? driftNotification(envelope, { webhookUrl: attributes.url }) : envelope,
			);
			const sendTwice = isDuplicated(record.id, this.options.duplicateRate);
			this.attempt(
				webhook,
				{ id: record.id, event: notification.event, body },
				1,
				sendTwice ? 'send_copy' : 'once',
			);
		}
	}

	/**
	 * To be called once a webhook was changed or deleted: the retries waiting for it, when it is
	 * gone or inactive now, are dropped and their notifications marked `failed` (never sent).
	 */
	webhookChanged(webhookId: string): void {
		if (this.receiving(webhookId)) return;
		for (const [id, waiting] of this.waiting) {
			if (waiting.webhookId !== webhookId) continue;
			clearTimeout(waiting.timer);
			this.timers.delete(waiting.timer);
			this.waiting.delete(id);
			this.notifications.setStatus(id, 'failed');
		}
	}

	/** The webhook, when it still exists and is active: only then does it get attempts. */
	private receiving(webhookId: string): Resource | undefined {
		const webhook = this.store.get('webhook', webhookId);
		return webhook && webhook.attributes.active !== false ? webhook : undefined;
	}

	/**
	 * A notification's outcome: its status, and its webhook's count of failures in a row, which
	 * deactivates the webhook when it reaches `deactivateAfterFailures`.
	 */
	private settle(webhookId: string, notificationId: string, status: 'succeeded' | 'failed'): void {
		this.notifications.setStatus(notificationId, status);
		if (status === 'succeeded') {
			this.failures.delete(webhookId);
			return;
		}
		const failures = (this.failures.get(webhookId) ?? 0) + 1;
		const threshold = this.options.deactivateAfterFailures;
		if (threshold === null || failures < threshold) {
			this.failures.set(webhookId, failures);
			return;
		}
		// Counting starts again once someone sets the webhook active again.
		this.failures.delete(webhookId);
		const webhook = this.store.get('webhook', webhookId);
		if (webhook) webhook.attributes = { ...webhook.attributes, active: false };
		this.webhookChanged(webhookId);
	}

	private attempt(
		webhook: Resource,
		delivery: Delivery,
		attempt: number,
		copies: 'once' | 'send_copy' | 'is_copy',
	): void {
		if (this.stopped) return;
		const attributes = webhook.attributes as {
			url: string;
			secret: string;
			headers: Array<{ name: string; value: string }> | null;
		};
		const started = Date.now();
		const sending = this.post(attributes.url, delivery.body, {
			'Content-Type': 'application/json',
			'User-Agent': 'container-tracking-sandbox/1.0',
			...Object.fromEntries(
				(attributes.headers ?? []).map((header) => [header.name, header.value]),
			),
			// Last, so that a custom header of the same name can never replace the signature.
			[this.options.signatureHeader]: signBody(delivery.body, attributes.secret),
		}).then((result) => {
			this.inFlight.delete(sending);
			if (this.stopped) return;
			this.log.push({
				attempt,
				url: attributes.url,
				webhook_id: webhook.id,
				event: delivery.event,
				notification_id: delivery.id,
				status: result.status,
				error: result.error,
				duplicate: copies === 'is_copy',
				delivered_at: isoTimestamp(this.clock.now()),
				duration_ms: Date.now() - started,
				answer: result.answer,
			});
			// A copy changes nothing: its original decided the notification's status.
			if (copies === 'is_copy') return;
			const succeeded = result.status !== null && SUCCESS_STATUSES.has(result.status);
			if (succeeded) {
				this.settle(webhook.id, delivery.id, 'succeeded');
				// The copy goes out once the original got through, as a retrying service would send it.
				if (copies === 'send_copy')
					this.later(0, () => {
						const current = this.receiving(webhook.id);
						if (current) this.attempt(current, delivery, 1, 'is_copy');
					});
				return;
			}
			if (attempt > MAX_RETRIES) {
				this.settle(webhook.id, delivery.id, 'failed');
				return;
			}
			// A webhook deleted or deactivated meanwhile gets no more attempts.
			if (!this.receiving(webhook.id)) {
				this.notifications.setStatus(delivery.id, 'failed');
				return;
			}
			const backoff = retryBackoffMs(attempt, this.options.retryBaseMs, this.options.retryCapMs);
			const timer = this.later(this.clock.toReal(backoff), () => {
				this.waiting.delete(delivery.id);
				const current = this.receiving(webhook.id);
				if (current) this.attempt(current, delivery, attempt + 1, copies);
				else this.notifications.setStatus(delivery.id, 'failed');
			});
			this.waiting.set(delivery.id, { webhookId: webhook.id, timer });
		});
		this.inFlight.add(sending);
	}

	private later(delayMs: number, run: () => void): NodeJS.Timeout {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			run();
		}, delayMs);
		timer.unref();
		this.timers.add(timer);
		return timer;
	}

	private post(
		url: string,
		body: string,
		headers: Record<string, string>,
	): Promise<{
		status: number | null;
		error: string | null;
		answer: string | null;
		headers?: http.IncomingHttpHeaders;
	}> {
		return new Promise((resolve) => {
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				resolve({ status: null, error: 'invalid url', answer: null });
				return;
			}
			const client = target.protocol === 'https:' ? https : http;
			const request = client.request(
				target,
				{
					method: 'POST',
					headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
					timeout: this.options.timeoutMs,
				},
				(response) => {
					let answer = '';
					response.setEncoding('utf8');
					response.on('data', (chunk: string) => {
						if (answer.length < ANSWER_LOGGED) answer += chunk;
					});
					const logged = () => (answer === '' ? null : answer.slice(0, ANSWER_LOGGED));
					response.on('end', () =>
						resolve({
							status: response.statusCode ?? null,
							error: null,
							answer: logged(),
							headers: response.headers,
						}),
					);
					response.on('error', (error) =>
						resolve({
							status: response.statusCode ?? null,
							error: error.message,
							answer: logged(),
						}),
					);
				},
			);
			request.on('timeout', () => request.destroy(new Error('timeout')));
			request.on('error', (error: NodeJS.ErrnoException) =>
				resolve({ status: null, error: error.code ?? error.message, answer: null }),
			);
			request.end(body);
		});
	}

	/**
	 * `POST /webhooks/trigger`: one sample delivery of `event` to `url`, now, signed with `secret`
	 * when one is given, and what happened. It is no notification: nothing is logged or retried.
	 */
	async sendTest(url: string, event: string, secret: string | undefined) {
		const id = randomUUID();
		const body = JSON.stringify({
			data: {
				id,
				type: 'webhook_notification',
				attributes: {
					id,
					event,
					delivery_status: 'pending',
					created_at: isoTimestamp(this.clock.now()),
				},
				relationships: { reference_object: { data: null }, webhook: { data: null } },
			},
			included: [],
		});
		const headers: Record<string, string> = { 'Content-Type': 'application/json' };
		if (secret) headers[this.options.signatureHeader] = signBody(body, secret);
		const sent = await this.post(url, body, headers);
		return {
			url,
			succeeded: sent.status !== null && sent.status >= 200 && sent.status < 300,
			error: sent.error,
			status_code: sent.status,
			request_headers: headers,
			request_body: body,
			response_headers: sent.headers ?? null,
			response_body: sent.answer,
		};
	}

	async stop(): Promise<void> {
		this.stopped = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.waiting.clear();
		await Promise.allSettled([...this.inFlight]);
	}
}

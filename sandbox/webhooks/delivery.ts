/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * Webhook deliveries as the service makes them (docs/service.md, "Deliveries"): a POST of the
 * notification envelope, signed with the lowercase hex HMAC-SHA256 of the raw body keyed with
 * the webhook's secret, retried up to 12 times with backoff until the receiver answers 200, 201,
 * 202 or 204. Every attempt is logged for the control API. With drift on, the envelope is drifted
 * (sandbox/drift.ts) before it is serialized, so the signature covers the drifted bytes, and
 * every retry and duplicate sends those same bytes.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

import type { SandboxClock } from '../clock';
import { driftNotification, type DriftSwitch } from '../drift';
import { deterministicUuid } from '../world/random';
import type { Notification } from '../world/world';
import type { Resource, Store } from '../world/store';
import { isoTimestamp } from '../world/time';

export const MAX_RETRIES = 12;
const SUCCESS_STATUSES = new Set([200, 201, 202, 204]);

export interface DeliveryOptions {
	signatureHeader: string;
	/** Share of notifications (0 to 1) delivered a second time, as a retrying service would. */
	duplicateRate: number;
	/** Sandbox milliseconds before the first retry; each retry doubles it (capped at one hour). */
	retryBaseMs: number;
	/** Real milliseconds a receiver has to answer. */
	timeoutMs: number;
}

export interface DeliveryAttempt {
	attempt: number;
	url: string;
	webhook_id: string;
	event: string;
	/** `data.id` of the body: one per notification and webhook. */
	notification_id: string;
	/** HTTP status of the answer, or null when there was none. */
	status: number | null;
	error: string | null;
	duplicate: boolean;
	delivered_at: string;
	duration_ms: number;
}

export function signBody(body: string | Buffer, secret: string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The id of one notification's deliveries to one webhook: `data.id`, the idempotency key the
 * receiver dedupes on (docs/service.md, "Retries and repeats"). Two webhooks subscribed to the
 * same event get ids of their own; every retry or copy to one webhook carries the same id.
 */
function deliveryId(notification: Notification, webhook: Resource): string {
	return deterministicUuid('webhook_notification', notification.id, webhook.id);
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
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly inFlight = new Set<Promise<void>>();
	private stopped = false;

	constructor(
		private readonly store: Store,
		private readonly clock: SandboxClock,
		private readonly options: DeliveryOptions,
		private readonly baseUrl: () => string,
		private readonly drift: DriftSwitch = { enabled: false },
	) {}

	/** Sends the notification to every active webhook subscribed to its event. */
	dispatch(notification: Notification): void {
		for (const webhook of this.store.list('webhook')) {
			const attributes = webhook.attributes as { active: boolean; events: string[]; url: string };
			if (!attributes.active || !attributes.events.includes(notification.event)) continue;
			const envelope = this.envelope(notification, webhook);
			const body = JSON.stringify(
				this.drift.enabled ? driftNotification(envelope, { webhookUrl: attributes.url }) : envelope,
			);
			const sendTwice = isDuplicated(deliveryId(notification, webhook), this.options.duplicateRate);
			this.attempt(webhook, notification, body, 1, sendTwice ? 'send_copy' : 'once');
		}
	}

	envelope(notification: Notification, webhook: Resource): Record<string, unknown> {
		const id = deliveryId(notification, webhook);
		const envelope: Record<string, unknown> = {
			data: {
				id,
				type: 'webhook_notification',
				attributes: {
					id,
					event: notification.event,
					delivery_status: 'pending',
					created_at: notification.createdAt,
				},
				relationships: {
					reference_object: {
						data: { id: notification.reference.id, type: notification.reference.type },
					},
					webhook: { data: { id: webhook.id, type: 'webhook' } },
					webhook_notification_logs: { data: [] },
				},
			},
			links: { self: `${this.baseUrl()}/webhook_notifications/${id}` },
		};
		if (notification.included !== undefined) envelope.included = notification.included;
		return envelope;
	}

	private attempt(
		webhook: Resource,
		notification: Notification,
		body: string,
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
		const sending = this.post(attributes.url, body, {
			'Content-Type': 'application/json',
			'User-Agent': 'container-tracking-sandbox/1.0',
			...Object.fromEntries(
				(attributes.headers ?? []).map((header) => [header.name, header.value]),
			),
			// Last, so that a custom header of the same name can never replace the signature.
			[this.options.signatureHeader]: signBody(body, attributes.secret),
		}).then((result) => {
			this.inFlight.delete(sending);
			if (this.stopped) return;
			this.log.push({
				attempt,
				url: attributes.url,
				webhook_id: webhook.id,
				event: notification.event,
				notification_id: deliveryId(notification, webhook),
				status: result.status,
				error: result.error,
				duplicate: copies === 'is_copy',
				delivered_at: isoTimestamp(this.clock.now()),
				duration_ms: Date.now() - started,
			});
			const succeeded = result.status !== null && SUCCESS_STATUSES.has(result.status);
			if (succeeded) {
				// The copy goes out once the original got through, as a retrying service would send it.
				if (copies === 'send_copy')
					this.later(0, () => this.attempt(webhook, notification, body, 1, 'is_copy'));
				return;
			}
			if (copies === 'is_copy' || attempt > MAX_RETRIES) return;
			const backoff = Math.min(this.options.retryBaseMs * 2 ** (attempt - 1), 3_600_000);
			this.later(this.clock.toReal(backoff), () => {
				// A webhook deleted or deactivated meanwhile gets no more attempts.
				const current = this.store.get('webhook', webhook.id);
				if (current && current.attributes.active !== false)
					this.attempt(current, notification, body, attempt + 1, copies);
			});
		});
		this.inFlight.add(sending);
	}

	private later(delayMs: number, run: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			run();
		}, delayMs);
		timer.unref();
		this.timers.add(timer);
	}

	private post(
		url: string,
		body: string,
		headers: Record<string, string>,
	): Promise<{ status: number | null; error: string | null }> {
		return new Promise((resolve) => {
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				resolve({ status: null, error: 'invalid url' });
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
					response.resume();
					response.on('end', () => resolve({ status: response.statusCode ?? null, error: null }));
					response.on('error', (error) =>
						resolve({ status: response.statusCode ?? null, error: error.message }),
					);
				},
			);
			request.on('timeout', () => request.destroy(new Error('timeout')));
			request.on('error', (error: NodeJS.ErrnoException) =>
				resolve({ status: null, error: error.code ?? error.message }),
			);
			request.end(body);
		});
	}

	async stop(): Promise<void> {
		this.stopped = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		await Promise.allSettled([...this.inFlight]);
	}
}

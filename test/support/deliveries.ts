// Deliveries as the service sends them, for tests of the trigger: signed bodies, the published
// examples with fresh ids, and a reference-only notification built here.
import { createHmac, randomUUID } from 'node:crypto';

import { readFixture } from './sharedFixtures';
import type { TriggerHarness } from './trigger';

export const SECRET = 'c0ffee'.repeat(10) + 'f00d';
export const HEADER = 'X-SVC-Webhook-Signature';

/** What the trigger answers a delivery it takes in, before n8n creates the execution. */
export const RECEIVED = { status: 200, body: { message: 'Received' }, ended: true };

// Notifications are plain JSON documents; tests reach into them field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = any;

export function sign(raw: string | Buffer, secret: string): string {
	return createHmac('sha256', secret).update(raw).digest('hex');
}

/**
 * A reference-only delivery (docs/service.md, "Reference objects"): valid envelope, nothing in
 * `included`.
 */
export function referenceOnly(event = 'container.transport.available'): Doc {
	const id = randomUUID();
	return {
		data: {
			id,
			type: 'webhook_notification',
			attributes: { id, event, delivery_status: 'pending', created_at: '2025-02-26T12:51:52Z' },
			relationships: {
				reference_object: { data: { id: randomUUID(), type: 'transport_event' } },
				webhook: { data: { id: randomUUID(), type: 'webhook' } },
				webhook_notification_logs: { data: [] },
			},
		},
	};
}

/**
 * A published example with a fresh `data.id`: the trigger remembers ids across harnesses of this
 * file (it keeps recent ids in memory too), so each test delivers notifications of its own.
 */
export function fixtureNotification(name: string): Doc {
	const notification = readFixture<Doc>('notifications', `${name}.json`);
	const id = randomUUID();
	notification.data.id = id;
	notification.data.attributes.id = id;
	return notification;
}

export const recordOf = (notification: Doc, type: string): Doc =>
	(notification.included as Doc[]).find((record) => record.type === type);

/** Signs and delivers; `raw` lets a test send bytes other than the JSON of `body`. */
export async function deliverSigned(
	harness: TriggerHarness,
	body: Doc,
	{
		secret = SECRET,
		header = HEADER,
		raw,
	}: { secret?: string; header?: string; raw?: string | Buffer } = {},
) {
	const bytes = raw ?? JSON.stringify(body);
	return harness.deliver(bytes, {
		[header]: sign(bytes, secret),
		'Content-Type': 'application/json',
	});
}

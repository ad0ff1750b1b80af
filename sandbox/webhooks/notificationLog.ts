/**
 * The service's notification log (`GET /webhook_notifications`): one `webhook_notification` per
 * notification and webhook subscribed to its event, kept in the store in the shape a delivery's
 * `data` has, with the `included` its delivery carried snapshotted when it was created (a later
 * change of the container leaves an old notification as it was delivered).
 *
 * `delivery_status` is `pending` while attempts remain, `succeeded` on the first 2xx answer and
 * `failed` once the last retry failed, or when its webhook was deactivated or deleted while a
 * retry was waiting, or when it was logged for an inactive webhook (never sent). The delivery's
 * own envelope always says `pending`, as the service's deliveries do.
 */
import { copy } from '../http/documents';
import { deterministicUuid } from '../world/random';
import { ref, relationshipTo, type Resource, type Store } from '../world/store';
import type { Notification } from '../world/world';

export const NOTIFICATION_TYPE = 'webhook_notification';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/**
 * The id of one notification's deliveries to one webhook: `data.id`, the idempotency key the
 * receiver dedupes on (docs/service.md, "Retries and repeats"). Derived from the world's
 * notification id and the webhook id, so that two webhooks subscribed to the same event get two
 * log records with ids of their own, and every retry or copy to one webhook carries the same id.
 */
export function notificationIdFor(
	notification: Pick<Notification, 'id'>,
	webhookId: string,
): string {
	return deterministicUuid(NOTIFICATION_TYPE, notification.id, webhookId);
}

/** Newest first: `created_at` descending, then `id` descending (fixed, so pages are stable). */
function newestFirst(a: Resource, b: Resource): number {
	const byTime = String(b.attributes.created_at).localeCompare(String(a.attributes.created_at));
	return byTime !== 0 ? byTime : b.id.localeCompare(a.id);
}

export class NotificationLog {
	/** What each notification's delivery carried in `included`; undefined when it carried none. */
	private readonly carried = new Map<string, Resource[] | undefined>();

	constructor(private readonly store: Store) {}

	/** Logs `notification` for `webhook` with `status`; returns the stored record. */
	record(notification: Notification, webhook: Resource, status: DeliveryStatus): Resource {
		const id = notificationIdFor(notification, webhook.id);
		this.carried.set(
			id,
			notification.included?.map((record) => copy(record)),
		);
		return this.store.put({
			id,
			type: NOTIFICATION_TYPE,
			attributes: {
				id,
				event: notification.event,
				delivery_status: status,
				created_at: notification.createdAt,
			},
			relationships: {
				reference_object: { data: ref(notification.reference) },
				webhook: relationshipTo(webhook),
				webhook_notification_logs: { data: [] },
			},
		});
	}

	get(id: string): Resource | undefined {
		return this.store.get(NOTIFICATION_TYPE, id);
	}

	statusOf(id: string): DeliveryStatus | undefined {
		return this.get(id)?.attributes.delivery_status as DeliveryStatus | undefined;
	}

	setStatus(id: string, status: DeliveryStatus): void {
		const record = this.get(id);
		if (record) record.attributes = { ...record.attributes, delivery_status: status };
	}

	/** Every logged notification, newest first or oldest first (the service documents no order). */
	list(oldestFirst = false): Resource[] {
		const newest = this.store.list(NOTIFICATION_TYPE).sort(newestFirst);
		return oldestFirst ? newest.reverse() : newest;
	}

	/** How many notifications of each webhook are pending, succeeded and failed, by webhook id. */
	statusesByWebhook(): Record<string, Record<DeliveryStatus, number>> {
		const counts: Record<string, Record<DeliveryStatus, number>> = {};
		for (const record of this.store.list(NOTIFICATION_TYPE)) {
			const webhookId = (record.relationships?.webhook?.data as { id: string } | null)?.id;
			if (!webhookId) continue;
			counts[webhookId] ??= { pending: 0, succeeded: 0, failed: 0 };
			counts[webhookId][record.attributes.delivery_status as DeliveryStatus] += 1;
		}
		return counts;
	}

	/** The records the delivery of notification `id` carried in `included`, as it carried them. */
	carriedBy(id: string): Resource[] | undefined {
		return this.carried.get(id)?.map((record) => copy(record));
	}

	/**
	 * The document a delivery of `record` carries, which `GET /webhook_notifications/{id}` also
	 * answers: `data`, `links.self`, and `included` when given.
	 */
	envelope(record: Resource, baseUrl: string, included?: Resource[]): Record<string, unknown> {
		const envelope: Record<string, unknown> = {
			data: copy(record),
			links: { self: `${baseUrl}/${NOTIFICATION_TYPE}s/${record.id}` },
		};
		if (included !== undefined) envelope.included = included;
		return envelope;
	}
}

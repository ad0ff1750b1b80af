import type { IDataObject } from 'n8n-workflow';

/** How many notification ids a trigger remembers to recognise a retried delivery. */
export const REMEMBERED_DELIVERIES = 1000;

/**
 * The service retries deliveries, so one notification can arrive several times; its `data.id`
 * is the idempotency key. Ids are kept in the node's static data (which n8n saves with the
 * workflow) and, for deliveries arriving back to back, in memory.
 */
const recentInMemory = new Map<string, string[]>();

export function wasSeen(staticData: IDataObject, scope: string, notificationId: string): boolean {
	const stored = Array.isArray(staticData.recentNotificationIds)
		? (staticData.recentNotificationIds as string[])
		: [];
	return (
		stored.includes(notificationId) || (recentInMemory.get(scope) ?? []).includes(notificationId)
	);
}

export function remember(staticData: IDataObject, scope: string, notificationId: string): void {
	const stored = Array.isArray(staticData.recentNotificationIds)
		? (staticData.recentNotificationIds as string[])
		: [];
	staticData.recentNotificationIds = [...stored, notificationId].slice(-REMEMBERED_DELIVERIES);
	const inMemory = [...(recentInMemory.get(scope) ?? []), notificationId].slice(
		-REMEMBERED_DELIVERIES,
	);
	recentInMemory.set(scope, inMemory);
}

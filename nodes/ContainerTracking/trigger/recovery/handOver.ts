import { createHash } from 'crypto';
import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import { emitOnce } from '../../n8nInternals';
import { deliveryCore } from '../../schemas';
import { MAX_BATCH_DELIVERIES, MAX_BATCH_ITEMS } from '../batching/deliveryBatches';
import { deliveryContainerId, reportsAnything } from '../items/deliveryItems';
import { carrierItem, type DeliveryMark, type ItemOptions } from '../items/notificationItems';

/**
 * Handing notifications read from the service's log to executions: the catch-up's missed ones
 * (trigger/recovery/catchUp.ts), the restart check's (trigger/recovery/restartCheck.ts) and the
 * cut check's (trigger/recovery/cutCheck.ts), started from the watch as a live delivery would have
 * been, each container's notifications in one execution.
 */

/**
 * What a live delivery of `body` would have handed the execution, marked caught up, and the
 * container it is about; no item when it gives none (Only These Fields), undefined when it is not
 * a notification.
 */
export function caughtUpItems(
	body: unknown,
	options: ItemOptions,
	mark: DeliveryMark = 'caught_up',
): { items: IDataObject[]; containerId?: string } | undefined {
	const delivery = deliveryCore.safeParse(body);
	if (!delivery.success) return undefined;
	if (!reportsAnything(delivery.data, options)) return { items: [] };
	return { items: [carrierItem(body, mark)], containerId: deliveryContainerId(delivery.data) };
}

/** A notification due to start the workflow, with the items it starts it with. */
export interface DueNotification {
	id: string;
	items: IDataObject[];
}

/**
 * Starts the workflow with `groups` of notifications (each a container's, oldest first), in
 * executions of up to MAX_BATCH_DELIVERIES notifications and MAX_BATCH_ITEMS items, each with an
 * execution deduplication key made of `keyPrefix` and its notifications. The executions of one call
 * run at once, so a container's notifications go into one of them, where its newest state is told
 * apart (trigger/items/latestState.ts, trigger/memory/givenStates.ts), not into two that could
 * write their states in either order: a group starts an execution of its own rather than be split.
 */
export function startExecutions(
	context: ITriggerFunctions,
	groups: Iterable<DueNotification[]>,
	keyPrefix: string,
): { notifications: number; executions: number } {
	let notifications = 0;
	let executions = 0;
	let batch: DueNotification[] = [];
	let batchItems = 0;
	const emitBatch = () => {
		if (batch.length === 0) return;
		const ids = batch.map((entry) => entry.id);
		emitOnce(
			context,
			[context.helpers.returnJsonArray(batch.flatMap((entry) => entry.items))],
			`${keyPrefix}:${context.getWorkflow().id ?? ''}:${context.getNode().id}:${createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 32)}`,
		);
		notifications += batch.length;
		executions += 1;
		batch = [];
		batchItems = 0;
	};
	const full = (count: number, items: number) =>
		batch.length + count > MAX_BATCH_DELIVERIES || batchItems + items > MAX_BATCH_ITEMS;
	for (const entries of groups) {
		const items = entries.reduce((sum, entry) => sum + entry.items.length, 0);
		if (full(entries.length, items)) emitBatch();
		for (const entry of entries) {
			if (full(1, entry.items.length)) emitBatch();
			batch.push(entry);
			batchItems += entry.items.length;
		}
	}
	emitBatch();
	return { notifications, executions };
}

/** Adds a due notification to its container's group (see `startExecutions`). */
export function addToGroup(
	groups: Map<string, DueNotification[]>,
	due: DueNotification,
	containerId: string | undefined,
): void {
	const key = containerId ? `container:${containerId}` : `notification:${due.id}`;
	const group = groups.get(key);
	if (group) group.push(due);
	else groups.set(key, [due]);
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { triggerScope } from './repeats';

/**
 * The durable half of repeat detection, run inside the execution a delivery started. A trigger's
 * webhook code cannot reach n8n's database, and n8n does not save a trigger's static data for a
 * delivery that starts a workflow; but the execution can: n8n runs the trigger node's `execute`
 * with the items `webhook` returned, and its deduplication store (`checkProcessedAndRecord`,
 * the one behind the Remove Duplicates node) lives in n8n's database, shared by every process and
 * kept across restarts. A notification recorded there by an earlier execution makes this one
 * stop at the trigger, with no items: nothing after it runs.
 *
 * n8n's store reads and rewrites one list per node, so two executions recording at once would
 * lose one id: in one process records are made one after the other here (`queues`); across
 * processes (workers in queue mode) a new id is checked once more after it was recorded, and
 * recorded again when another process's write had dropped it.
 */

/** Notification ids kept in n8n's database per trigger (each delivery rewrites the list). */
export const DURABLE_KEYS = 5_000;

/** How many times a new id is checked after it was recorded (each check re-records a lost one). */
const RECORD_CHECKS = 3;

const queues = new Map<string, Promise<unknown>>();

/** The notification an item came from: `notification_id`, or the raw notification's `data.id`. */
export function notificationIdOf(item: IDataObject | undefined): string | undefined {
	if (!item) return undefined;
	if (typeof item.notification_id === 'string' && item.notification_id) return item.notification_id;
	const data = item.data as IDataObject | undefined;
	return typeof data?.id === 'string' && data.id ? data.id : undefined;
}

async function recordedBefore(context: IExecuteFunctions, key: string): Promise<boolean> {
	const scope = triggerScope(context);
	const previous = queues.get(scope) ?? Promise.resolve();
	const check = previous.then(async () => {
		const record = async () =>
			(
				await context.helpers.checkProcessedAndRecord([key], 'node', {
					mode: 'entries',
					maxEntries: DURABLE_KEYS,
				})
			).new.length === 0;
		if (await record()) return true;
		// New here. Written over by another process meanwhile? Then this records it again.
		for (let check = 0; check < RECORD_CHECKS && !(await record()); check++);
		return false;
	});
	queues.set(
		scope,
		check.catch(() => undefined),
	);
	return await check;
}

/** The items to pass on: all of them for a new notification, none for one recorded before. */
export async function passNewNotification(
	context: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const key = notificationIdOf(items[0]?.json);
	// A test event (the editor's "Listen for Test Event") may be sent again on purpose, and an
	// unsaved workflow has no id to record under.
	if (options.deduplicate === false || key === undefined) return [items];
	if (context.getMode() === 'manual' || !context.getWorkflow().id) return [items];
	try {
		return (await recordedBefore(context, key)) ? [[]] : [items];
	} catch (error) {
		// A lost notification is worse than one reported twice: when n8n's store fails, go on.
		context.logger.warn('Container tracking: could not record the notification id', {
			notificationId: key,
			error: (error as Error).message,
		});
		return [items];
	}
}

import { type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import {
	afterEarlierWrites,
	isRunKey,
	noteRecorded,
	notificationOfRun,
	recentIds,
	recordInStore,
	runKey,
} from './durableStore';
import { checkedOf, deliveryOf } from '../items/notificationItems';
import { noteRanHere, noteTaken } from './notificationLedger';
import { openingLeasesOf, openRuns, settleOpened } from './runJournal';
import { triggerSlot } from '../triggerState';

/**
 * Which notifications ran: the durable half of repeat detection, made inside the execution a
 * delivery started. A trigger's webhook code cannot reach n8n's database, and n8n does not save a
 * trigger's static data for a delivery that starts a workflow; but the execution can: n8n runs the
 * trigger node's `execute` with the items `webhook` returned, and its deduplication store
 * (trigger/memory/durableStore.ts) lives in n8n's database, shared by every process and kept across
 * restarts. A notification recorded there by an earlier execution makes this one stop at the
 * trigger, with no items: nothing after it runs. The run of each notification passed on is opened
 * in the run journal (trigger/memory/runJournal.ts) in the same record.
 *
 * In one process the ids that arrive while a record is under way are recorded together by the
 * next (`PendingRecord`): one read and one write of the list however many executions wait.
 */

/**
 * The notification an item came from: `notification_id`, or the `data.id` of the notification it
 * carries (trigger/execution.ts) or is (raw output).
 */
export function notificationIdOf(item: IDataObject | undefined): string | undefined {
	if (!item) return undefined;
	if (typeof item.notification_id === 'string' && item.notification_id) return item.notification_id;
	const checked = checkedOf(item);
	if (checked) return checked.id;
	const carried = deliveryOf(item) ?? item;
	const data = carried.data as IDataObject | undefined;
	return typeof data?.id === 'string' && data.id ? data.id : undefined;
}

export const idsOf = (items: INodeExecutionData[]): string[] =>
	items.map((item) => notificationIdOf(item.json)).filter((key): key is string => !!key);

/** Ids waiting for the next record of their trigger, all written with one call. */
interface PendingRecord {
	ids: Set<string>;
	/** The ids of the record that were new. */
	done: Promise<Set<string>>;
}

/** The record waiting for the write under way, per trigger. */
const pendingRecords = triggerSlot<{ pending?: PendingRecord }>('pending record', () => ({}), {
	forgetWhen: (slot) => slot.pending === undefined,
});

/**
 * Records the pending record's ids, with the recent ones, in one call of n8n's store: a delivery's
 * record waits for the record before it, not for every record before it.
 */
async function writePendingRecord(
	context: IExecuteFunctions,
	scope: string,
	batch: PendingRecord,
): Promise<Set<string>> {
	const slot = pendingRecords.of(scope);
	if (slot.pending === batch) slot.pending = undefined;
	const ids = [...batch.ids];
	const others = recentIds(scope).filter((id) => !batch.ids.has(id));
	// Each run opened holds a lease from the start (trigger/memory/runJournal.ts).
	const runs = ids.filter(isRunKey);
	const result = await recordInStore(context, [...ids, ...others, ...openingLeasesOf(scope, runs)]);
	const added = new Set(result.new.map(String));
	// A repeat (its notification recorded before) runs nothing: the run key it added goes at once,
	// with its mark and lease, so that no check elsewhere takes it for a run cut.
	const repeats = runs.filter((run) => added.has(run) && !added.has(notificationOfRun(run)));
	const fresh = new Set(ids.filter((id) => added.has(id) && !repeats.includes(id)));
	// A journal key is removed when its run ends: putting it back would reopen the run.
	const notifications = [...fresh].filter((id) => !isRunKey(id));
	noteRecorded(scope, notifications);
	noteRanHere(scope, notifications);
	await settleOpened(context, scope, runs, added, (run) => !repeats.includes(run));
	return fresh;
}

/**
 * Of these keys (notification ids, and the run keys to open with them), those no execution of this
 * trigger recorded before: recorded now.
 */
export async function recordedNow(
	context: IExecuteFunctions,
	scope: string,
	keys: string[],
): Promise<Set<string>> {
	const slot = pendingRecords.of(scope);
	// A copy of a notification that already waits for the same record is a repeat.
	const mine = [...new Set(keys)].filter((key) => !slot.pending?.ids.has(key));
	if (mine.length === 0) return new Set();
	let batch = slot.pending;
	if (!batch) {
		const opened: PendingRecord = { ids: new Set(), done: Promise.resolve(new Set()) };
		opened.done = afterEarlierWrites(
			scope,
			async () => await writePendingRecord(context, scope, opened),
			context,
		);
		slot.pending = batch = opened;
	}
	for (const key of mine) batch.ids.add(key);
	const fresh = await batch.done;
	return new Set(mine.filter((key) => fresh.has(key)));
}

export interface SelectedItems {
	items: INodeExecutionData[];
	/**
	 * The journal keys this execution opened (trigger/memory/runJournal.ts): to be closed when it
	 * ends. Empty when `journal` was off.
	 */
	opened: string[];
}

/** The items marked as a run again of notifications that ran before (`rerun: true`). */
export const markedRerun = (items: INodeExecutionData[]): INodeExecutionData[] =>
	items.map((item) =>
		notificationIdOf(item.json) ? { ...item, json: { ...item.json, rerun: true } } : item,
	);

/**
 * Of the notifications delivered (live, or caught up from the service's log), the items to pass on:
 * those of notifications no execution recorded before (an execution may hold the items of several
 * notifications: trigger/batching/deliveryBatches.ts), and items that name no notification. With
 * `journal`, the run of each notification passed on is opened in the same record. An execution
 * retried by hand in n8n (a person's choice, not a repeat) passes every item on, marked `rerun:
 * true`. Every notification the store now holds is noted taken in this process
 * (trigger/memory/notificationLedger.ts): a copy the service sends of one is answered at once.
 */
export async function deliveredItems(
	context: IExecuteFunctions,
	scope: string,
	delivered: INodeExecutionData[],
	journal: boolean,
): Promise<SelectedItems> {
	const keys = idsOf(delivered);
	if (keys.length === 0) return { items: delivered, opened: [] };
	try {
		if (context.getMode() === 'retry') {
			const opened = journal ? await openRuns(context, scope, keys) : [];
			return { items: markedRerun(delivered), opened };
		}
		const fresh = await recordedNow(
			context,
			scope,
			journal ? [...keys, ...keys.map(runKey)] : keys,
		);
		noteTaken(scope, keys);
		return {
			items: delivered.filter((item) => {
				const key = notificationIdOf(item.json);
				return key === undefined || fresh.has(key);
			}),
			opened: [...fresh].filter(isRunKey),
		};
	} catch (error) {
		// A lost notification is worse than one reported twice: when n8n's store fails, go on.
		context.logger.warn('Container tracking: could not record the notification ids', {
			notificationIds: [...new Set(keys)].slice(0, 20),
			error: (error as Error).message,
		});
		return { items: delivered, opened: [] };
	}
}

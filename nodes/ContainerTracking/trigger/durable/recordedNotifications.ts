import { type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import {
	afterEarlierWrites,
	isRunKey,
	notificationOfRun,
	recordInStore,
	recordsOf,
	runKey,
	scheduleCheck,
	VERIFY_AFTER_MS,
	recentIds,
	type PendingRecord,
	type TriggerRecords,
} from './deduplicationStore';
import { checkedOf, deliveryOf, isRecovering } from '../items/notificationItems';
import { noteRanHere } from '../admission/ranHere';
import { repeatStoreFor } from '../admission/repeats';
import { cutAmong, openingLeasesOf, openRuns, settleOpened } from './runJournal';
import { triggerScope } from '../triggerState';

/**
 * The durable half of repeat detection, run inside the execution a delivery started. A trigger's
 * webhook code cannot reach n8n's database, and n8n does not save a trigger's static data for a
 * delivery that starts a workflow; but the execution can: n8n runs the trigger node's `execute`
 * with the items `webhook` returned, and its deduplication store (`checkProcessedAndRecord`,
 * the one behind the Remove Duplicates node) lives in n8n's database, shared by every process and
 * kept across restarts. A notification recorded there by an earlier execution makes this one
 * stop at the trigger, with no items: nothing after it runs.
 *
 * The store and its keys: trigger/durable/deduplicationStore.ts. In one process the ids that arrive
 * while a record is under way are recorded together by the next (`PendingRecord`).
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

/**
 * Records the pending record's ids, with the recent ones, in one call of n8n's store (one read and one
 * write of the list however many executions wait): a delivery's record waits for the record
 * before it, not for every record before it.
 */
async function writePendingRecord(
	records: TriggerRecords,
	batch: PendingRecord,
): Promise<Set<string>> {
	if (records.pendingRecord === batch) records.pendingRecord = undefined;
	const context = records.context!;
	const now = Date.now();
	const ids = [...batch.ids];
	const others = recentIds(records, now).filter((id) => !batch.ids.has(id));
	// Each run opened holds a lease from the start (trigger/durable/runJournal.ts).
	const runs = ids.filter(isRunKey);
	const result = await recordInStore(context, [
		...ids,
		...others,
		...openingLeasesOf(records, runs),
	]);
	const added = new Set(result.new.map(String));
	// A repeat (its notification recorded before) runs nothing: the run key it added goes at once,
	// with its mark and lease, so that no check elsewhere takes it for a run cut.
	const repeats = runs.filter((run) => added.has(run) && !added.has(notificationOfRun(run)));
	const fresh = new Set(ids.filter((id) => added.has(id) && !repeats.includes(id)));
	// A journal key is removed when its run ends: putting it back would reopen the run.
	const notifications = [...fresh].filter((id) => !isRunKey(id));
	for (const id of notifications) records.recent.set(id, now);
	noteRanHere(records.scope, notifications);
	await settleOpened(context, records, runs, added, (run) => !repeats.includes(run));
	scheduleCheck(records, VERIFY_AFTER_MS);
	return fresh;
}

/** Of these notification ids, those no execution of this trigger recorded before. */
async function newAmong(context: IExecuteFunctions, keys: string[]): Promise<Set<string>> {
	const records = recordsOf(triggerScope(context));
	records.context = context;
	// A copy of a notification that already waits for the same record is a repeat.
	const mine = [...new Set(keys)].filter((key) => !records.pendingRecord?.ids.has(key));
	if (mine.length === 0) return new Set();
	let batch = records.pendingRecord;
	if (!batch) {
		const opened: PendingRecord = { ids: new Set(), done: Promise.resolve(new Set()) };
		opened.done = afterEarlierWrites(
			records,
			async () => await writePendingRecord(records, opened),
		);
		records.pendingRecord = batch = opened;
	}
	for (const key of mine) batch.ids.add(key);
	const fresh = await batch.done;
	return new Set(mine.filter((key) => fresh.has(key)));
}

/**
 * Notes in this process's repeat store (trigger/admission/repeats.ts) notifications the store now
 * holds: each ran, or runs in this execution. After a restart that store is empty, and the
 * restart check and the catch-up find notifications that ran before it: a copy the service sends
 * of one is then answered at once, without an execution that would stop empty.
 */
function knownFromTheStore(context: IExecuteFunctions, notificationIds: string[]): void {
	const repeats = repeatStoreFor(triggerScope(context));
	for (const id of notificationIds) repeats.claim(id);
}

/**
 * Of the restart check's notifications whose run is not open, those no execution ever recorded:
 * never run, since n8n died between creating their execution and running the trigger in it, or
 * before it answered them. Recorded now, they run as a first run; their runs are opened only
 * after, so that looking at one that ran opens nothing.
 */
async function neverRecorded(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (items.length === 0) return [];
	const fresh = await newAmong(context, ids(items));
	return items.filter((item) => fresh.has(notificationIdOf(item.json) ?? ''));
}

export interface SelectedItems {
	items: INodeExecutionData[];
	/**
	 * The journal keys this execution opened (trigger/durable/runJournal.ts): to be closed when it
	 * ends. Empty when `journal` was off.
	 */
	opened: string[];
}

const ids = (items: INodeExecutionData[]) =>
	items.map((item) => notificationIdOf(item.json)).filter((key): key is string => !!key);

/** The items marked as a run again of notifications that ran before (`rerun: true`). */
const markedRerun = (items: INodeExecutionData[]) =>
	items.map((item) =>
		notificationIdOf(item.json) ? { ...item, json: { ...item.json, rerun: true } } : item,
	);

/**
 * The items to pass on: those of notifications no execution recorded before (an execution may hold
 * the items of several notifications: trigger/batching/deliveryBatches.ts), and items that name no
 * notification. With `journal`, the run of each notification passed on is opened in the journal
 * (trigger/durable/runJournal.ts) in the same record. Marked `rerun: true` and passed on whole: an
 * execution retried by hand in n8n (a person's choice, not a repeat), and of the notifications the
 * restart check hands over (`recovering` items), those whose run was cut; of the others, those
 * never recorded pass as first runs.
 */
export async function newNotificationItems(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	deduplicate: boolean,
	journal: boolean,
): Promise<SelectedItems> {
	const mode = context.getMode();
	// A test event (the editor's "Listen for Test Event") may be sent again on purpose, and an
	// unsaved workflow has no id to record under.
	if (!deduplicate || mode === 'manual' || !context.getWorkflow().id) return { items, opened: [] };
	// Handed over by the restart check, whose process died (leases ignored), or by the cut check
	// (trigger/recovery/cutCheck.ts), whose runs may be under way in another process (leases looked
	// at).
	const recovering = items.filter((item) => isRecovering(item.json));
	const checked = items.filter((item) => checkedOf(item.json) !== undefined);
	const delivered = items.filter(
		(item) => !isRecovering(item.json) && checkedOf(item.json) === undefined,
	);
	const keys = ids(delivered);
	try {
		// These notifications run again only where their run is open (and, checked, not renewed),
		// retried or not.
		const cut = new Set([
			...(recovering.length > 0 ? await cutAmong(context, ids(recovering)) : []),
			...(checked.length > 0 ? await cutAmong(context, ids(checked), { leased: true }) : []),
		]);
		const isCut = (item: INodeExecutionData) => cut.has(notificationIdOf(item.json) ?? '');
		const rerun = [...recovering, ...checked].filter(isCut);
		if (checked.some(isCut))
			context.logger.warn(
				'Container tracking: notifications whose run was cut (the n8n process running it stopped) run again',
				{ notificationIds: checked.filter(isCut).map((item) => notificationIdOf(item.json)) },
			);
		if (mode === 'retry') {
			const opened = journal ? await openRuns(context, keys) : [];
			return {
				items: markedRerun([...rerun, ...delivered]),
				opened: [...(journal ? [...cut].map(runKey) : []), ...opened],
			};
		}
		const fresh =
			keys.length === 0
				? new Set<string>()
				: await newAmong(context, journal ? [...keys, ...keys.map(runKey)] : keys);
		const passed = delivered.filter((item) => {
			const key = notificationIdOf(item.json);
			return key === undefined || fresh.has(key);
		});
		// After a restart every notification no execution recorded runs now, answered or not: the
		// service's next attempt at one it still retries may be minutes away, and is a repeat. The
		// cut check's process did not restart: one not answered is on its way, or the catch-up's.
		const unrun = await neverRecorded(context, [
			...recovering.filter((item) => !isCut(item)),
			...checked.filter((item) => checkedOf(item.json)?.answered === true && !isCut(item)),
		]);
		const opened = [
			...(journal ? [...cut].map(runKey) : []),
			...[...fresh].filter(isRunKey),
			...(journal ? await openRuns(context, ids(unrun)) : []),
		];
		knownFromTheStore(context, [...keys, ...ids(recovering)]);
		return { items: [...markedRerun(rerun), ...unrun, ...passed], opened };
	} catch (error) {
		// A lost notification is worse than one reported twice: when n8n's store fails, go on with
		// the deliveries. The restart check's notifications mostly ran already: they wait for the
		// next restart rather than all run again.
		context.logger.warn('Container tracking: could not record the notification ids', {
			notificationIds: [...new Set(keys)].slice(0, 20),
			error: (error as Error).message,
		});
		return { items: delivered, opened: [] };
	}
}

import { chunk } from 'lodash';
import {
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { checkedOf, deliveryOf, isRecovering } from './notificationItems';
import { triggerScope } from './repeats';
import {
	cutAmong,
	isRunKey,
	notificationOfRun,
	openingLeasesOf,
	openRuns,
	runKey,
	settleOpened,
} from './runJournal';

/**
 * The durable half of repeat detection, run inside the execution a delivery started. A trigger's
 * webhook code cannot reach n8n's database, and n8n does not save a trigger's static data for a
 * delivery that starts a workflow; but the execution can: n8n runs the trigger node's `execute`
 * with the items `webhook` returned, and its deduplication store (`checkProcessedAndRecord`,
 * the one behind the Remove Duplicates node) lives in n8n's database, shared by every process and
 * kept across restarts. A notification recorded there by an earlier execution makes this one
 * stop at the trigger, with no items: nothing after it runs.
 *
 * n8n's store reads a node's list of ids and writes it back whole, with no lock. In one process
 * records are made one after the other here (`queue`); the ids that arrive while one is under
 * way are recorded together by the next (`Batch`). Across processes (workers in queue mode)
 * a write based on a list read before ours lands after ours and drops our id; so every record
 * also re-sends the ids this process recorded in the last minute, and a check a little later
 * (`VERIFY_AFTER_MS`, then `FINAL_VERIFY_AFTER_MS`) puts back any that another write dropped
 * since. An id survives unless another process takes longer than that between its read and its
 * write. The same list holds the run journal's keys (trigger/runJournal.ts); such a write can put
 * back a key this process removed, so the same checks remove those again.
 */

/** Notification ids kept in n8n's database per trigger (each delivery rewrites the list). */
export const DURABLE_KEYS = 5_000;
/**
 * Room in the same list for the run journal's keys (trigger/runJournal.ts: about four for each run
 * under way, up to `LOOKUP_MAX` more while a check looks), beyond the ids: n8n drops a list's
 * oldest entries beyond its size, and a burst's runs under way must not push out the ids of the
 * notifications before them (a repeat of one would run again, unmarked). Room for 4,500 runs under
 * way at once per trigger; a full list costs n8n about 12 ms a record instead of 3 (a 2-CPU
 * machine).
 */
const JOURNAL_ROOM = 20_000;
/** The list's size in n8n's store. */
const STORE_ENTRIES = DURABLE_KEYS + JOURNAL_ROOM;
/** Keys a check adds to the list at once to see whether it holds them (removed right after). */
const LOOKUP_MAX = 2_000;

/** Ids this process recorded within this long are re-sent with each record. */
const RECENT_MS = 60_000;
/** At most this many of them (n8n hashes each one on every record). */
const RECENT_MAX = 200;
/**
 * At most this many closed journal keys are checked (only by the checks, not by every record):
 * a burst closes hundreds of runs a minute, and one put back and never removed again is a run
 * taken for cut (trigger/runJournal.ts).
 */
const CLOSED_MAX = 2_000;
/** After the last record, the recent ids are checked (and put back when dropped) this much later… */
const VERIFY_AFTER_MS = 2_000;
/** …and once more this much after a check that found nothing missing. */
const FINAL_VERIFY_AFTER_MS = 30_000;

export interface TriggerRecords {
	/** Records of this trigger in this process, one after the other. */
	queue: Promise<unknown>;
	/** Ids this process recorded, with when; oldest first. */
	recent: Map<string, number>;
	/**
	 * Journal keys this process removed, with when (trigger/runJournal.ts): another process's
	 * write of a list read before the removal puts them back, so the checks remove them again.
	 */
	closed: Map<string, number>;
	/**
	 * Journal keys executions of this process opened and that have not ended: runs under way
	 * here, never cut (trigger/runJournal.ts `cutAmong`).
	 */
	openHere: Set<string>;
	/** The lease periods this process wrote for each journal key (trigger/runJournal.ts). */
	leases: Map<string, Set<number>>;
	/** Whether a loop renewing the leases of `openHere` is running. */
	renewing: boolean;
	/**
	 * Notifications whose execution ran in this process, with when: the cut check
	 * (trigger/cutCheck.ts) looks only for those that ran elsewhere.
	 */
	ranHere: Map<string, number>;
	/** The latest execution's functions: the later checks run through them. */
	context?: IExecuteFunctions;
	/** When the next check is due, and how long after the previous event it was set. */
	check?: { at: number; delayMs: number };
	/** Whether a loop waiting for `check` is running. */
	waiting: boolean;
	/** The ids waiting for the next record, while one is under way. */
	open?: Batch;
}

const triggers = new Map<string, TriggerRecords>();

export function recordsOf(scope: string): TriggerRecords {
	let records = triggers.get(scope);
	if (!records) {
		records = {
			queue: Promise.resolve(),
			recent: new Map(),
			closed: new Map(),
			openHere: new Set(),
			leases: new Map(),
			renewing: false,
			ranHere: new Map(),
			waiting: false,
		};
		triggers.set(scope, records);
	}
	return records;
}

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

/** The keys of `kept` this process touched within RECENT_MS (at most `max`), oldest first. */
function recentOf(kept: Map<string, number>, now: number, max: number): string[] {
	for (const [id, at] of kept) {
		if (at > now - RECENT_MS && kept.size <= max) break;
		kept.delete(id);
	}
	return [...kept.keys()];
}

const recentIds = (records: TriggerRecords, now: number) =>
	recentOf(records.recent, now, RECENT_MAX);

/** How long this process remembers which notifications ran in it (trigger/cutCheck.ts). */
const RAN_HERE_MS = 30 * 60_000;

/** Notes that the execution of each of `ids` runs in this process. */
export function noteRanHere(records: TriggerRecords, ids: string[]): void {
	const now = Date.now();
	for (const id of ids) {
		records.ranHere.delete(id);
		records.ranHere.set(id, now);
	}
	for (const [id, at] of records.ranHere) {
		if (at > now - RAN_HERE_MS) break;
		records.ranHere.delete(id);
	}
}

/** Whether the execution of notification `id` ran in this process lately. */
export const ranHere = (scope: string, id: string): boolean => recordsOf(scope).ranHere.has(id);

/** Remembers journal keys this process removed, and checks soon that they stay removed. */
export function rememberClosed(records: TriggerRecords, keys: string[]): void {
	const now = Date.now();
	for (const key of keys) records.closed.set(key, now);
	scheduleCheck(records, VERIFY_AFTER_MS);
}

/**
 * n8n's store makes a trigger's list on its first record with an insert, after reading that there
 * was none: two processes (workers in queue mode) making it at once, one insert fails on the
 * list's unique key (Postgres, SQLite, MySQL wording), having written nothing, and the same
 * record made again finds the list and adds to it. Any other failure may have written: it is not
 * repeated here (an id written and then read back would count as recorded by another execution).
 */
const LIST_MADE_MEANWHILE =
	/duplicate key value violates unique constraint|UNIQUE constraint failed|Duplicate entry/i;
/** A record that met a list made meanwhile is made again at most this many times in all. */
const RECORD_ATTEMPTS = 3;

/** Records `ids` in n8n's store for this trigger node; `new` lists those it did not hold. */
export async function recordInStore(
	context: IExecuteFunctions,
	ids: string[],
	attempt = 1,
): Promise<{ new: unknown[]; processed: unknown[] }> {
	return await context.helpers
		.checkProcessedAndRecord(ids, 'node', { mode: 'entries', maxEntries: STORE_ENTRIES })
		.catch(async (error: unknown) => {
			const message = error instanceof Error ? error.message : String(error);
			if (attempt >= RECORD_ATTEMPTS || !LIST_MADE_MEANWHILE.test(message)) throw error;
			return await recordInStore(context, ids, attempt + 1);
		});
}

/** Removes `keys` from n8n's store for this trigger node (the same list `recordInStore` keeps). */
export async function removeFromStore(context: IExecuteFunctions, keys: string[]): Promise<void> {
	await context.helpers.removeProcessed(keys, 'node', {
		mode: 'entries',
		maxEntries: STORE_ENTRIES,
	});
}

/**
 * Records `keys` in n8n's store LOOKUP_MAX at a time, so that keys added only to look never push
 * out a notification's id, and after each part removes the keys `removed` names of it. Returns
 * which keys the store held before (`processed`) and which it added (`new`).
 */
export async function lookInStore(
	context: IExecuteFunctions,
	keys: string[],
	removed: (part: { new: string[]; processed: string[] }) => string[],
): Promise<{ new: string[]; processed: string[] }> {
	const found = { new: [] as string[], processed: [] as string[] };
	for (const keysOfPart of chunk(keys, LOOKUP_MAX)) {
		const result = await recordInStore(context, keysOfPart);
		const part = { new: result.new.map(String), processed: result.processed.map(String) };
		const gone = removed(part);
		if (gone.length > 0) await removeFromStore(context, gone);
		found.new.push(...part.new);
		found.processed.push(...part.processed);
	}
	return found;
}

/** Runs `work` after the records of this trigger in this process that came before it. */
export function inTurn<T>(records: TriggerRecords, work: () => Promise<T>): Promise<T> {
	const turn = records.queue.then(work);
	records.queue = turn.catch(() => undefined);
	return turn;
}

/**
 * Checks that the recent ids are still in n8n's store and the recently closed journal keys are
 * not; puts back any id another write dropped and removes any key another write put back.
 */
async function checkRecent(records: TriggerRecords, delayMs: number): Promise<void> {
	const context = records.context;
	const now = Date.now();
	const ids = recentIds(records, now);
	// A key closed here and opened again here since (a cut run taken over) is under way: kept.
	const closed = recentOf(records.closed, now, CLOSED_MAX).filter(
		(key) => !records.openHere.has(key),
	);
	if (!context || ids.length + closed.length === 0) return;
	try {
		const closedSet = new Set(closed);
		// The store checks only by recording: the closed keys go again, whether back or just added.
		const result = await lookInStore(context, [...ids, ...closed], (part) =>
			[...part.new, ...part.processed].filter((key) => closedSet.has(key)),
		);
		const dropped = result.new.filter((id) => !closedSet.has(id));
		const putBack = result.processed.filter((id) => closedSet.has(id));
		// Something was dropped or put back, and is set right: check again soon. Otherwise once
		// more, later.
		if (dropped.length + putBack.length > 0) scheduleCheck(records, VERIFY_AFTER_MS);
		else if (delayMs === VERIFY_AFTER_MS) scheduleCheck(records, FINAL_VERIFY_AFTER_MS);
	} catch (error) {
		context.logger.warn('Container tracking: could not check the recorded notification ids', {
			error: (error as Error).message,
		});
	}
}

/**
 * Sets the next check `delayMs` from now, unless one is due sooner: records that never pause (a
 * burst) do not put it off, since a key put back meanwhile would stay. One loop per trigger waits.
 */
function scheduleCheck(records: TriggerRecords, delayMs: number): void {
	const at = Date.now() + delayMs;
	if (records.check && records.check.at <= at) return;
	records.check = { at, delayMs };
	if (records.waiting) return;
	records.waiting = true;
	void (async () => {
		try {
			while (records.check) {
				const due = records.check;
				const wait = due.at - Date.now();
				if (wait > 0) {
					await sleep(wait);
					continue;
				}
				records.check = undefined;
				await inTurn(records, async () => await checkRecent(records, due.delayMs));
			}
		} finally {
			records.waiting = false;
		}
	})();
}

/** Ids waiting for the next record of their trigger, all written with one call. */
interface Batch {
	ids: Set<string>;
	/** The ids of the batch that were new. */
	done: Promise<Set<string>>;
}

/**
 * Records the batch's ids, with the recent ones, in one call of n8n's store (one read and one
 * write of the list however many executions wait): a delivery's record waits for the record
 * before it, not for every record before it.
 */
async function recordBatch(records: TriggerRecords, batch: Batch): Promise<Set<string>> {
	if (records.open === batch) records.open = undefined;
	const context = records.context!;
	const now = Date.now();
	const ids = [...batch.ids];
	const others = recentIds(records, now).filter((id) => !batch.ids.has(id));
	// Each run opened holds a lease from the start (trigger/runJournal.ts).
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
	noteRanHere(records, notifications);
	await settleOpened(context, records, runs, added, (run) => !repeats.includes(run));
	scheduleCheck(records, VERIFY_AFTER_MS);
	return fresh;
}

/** Of these notification ids, those no execution of this trigger recorded before. */
async function newAmong(context: IExecuteFunctions, keys: string[]): Promise<Set<string>> {
	const records = recordsOf(triggerScope(context));
	records.context = context;
	// A copy of a notification that already waits for the same record is a repeat.
	const mine = [...new Set(keys)].filter((key) => !records.open?.ids.has(key));
	if (mine.length === 0) return new Set();
	let batch = records.open;
	if (!batch) {
		const opened: Batch = { ids: new Set(), done: Promise.resolve(new Set()) };
		opened.done = inTurn(records, async () => await recordBatch(records, opened));
		records.open = batch = opened;
	}
	for (const key of mine) batch.ids.add(key);
	const fresh = await batch.done;
	return new Set(mine.filter((key) => fresh.has(key)));
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
	 * The journal keys this execution opened (trigger/runJournal.ts): to be closed when it ends.
	 * Empty when `journal` was off.
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
 * The items to pass on: those of notifications no execution recorded before (an execution may
 * hold the items of several notifications: trigger/deliveryBatches.ts), and items that name no
 * notification. With `journal`, the run of each notification passed on is opened in the journal
 * (trigger/runJournal.ts) in the same record. Marked `rerun: true` and passed on whole: an
 * execution retried by hand in n8n (a person's choice, not a repeat), and of the notifications
 * the restart check hands over (`recovering` items), those whose run was cut; of the others,
 * those never recorded pass as first runs.
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
	// (trigger/cutCheck.ts), whose runs may be under way in another process (leases looked at).
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

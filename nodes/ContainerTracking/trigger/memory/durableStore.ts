import { chunk } from 'lodash';
import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import { isListMadeMeanwhile } from '../../n8nInternals';
import { runsUnderWay } from './notificationLedger';
import { inTurn, triggerSlot, type WorkInTurn } from '../triggerState';

/**
 * The one module that speaks to n8n's deduplication store (`checkProcessedAndRecord`, the store
 * behind the Remove Duplicates node), and owns the keys written there. It lives in n8n's database,
 * shared by every process and kept across restarts; an execution can reach it, a trigger's
 * webhook code cannot. A trigger keeps one list there, holding:
 * - notification ids: an execution recorded it (trigger/memory/recordedNotifications.ts);
 * - `run:<id>`, `lease:<id>:held`, `lease:<id>:<period>`: the run journal
 *   (trigger/memory/runJournal.ts).
 *
 * n8n's store reads a node's list and writes it back whole, with no lock. In one process writes
 * are made one after the other here (`afterEarlierWrites`), through one record per trigger that
 * is kept while any of its work is under way, also across a deactivation (a second record would
 * write the same list at the same time). Across processes (workers in queue mode) a write based
 * on a list read before ours lands after ours and drops our id; so every record also re-sends the
 * ids this process recorded in the last minute, and a check a little later (`VERIFY_AFTER_MS`, then
 * `FINAL_VERIFY_AFTER_MS`) puts back any that another write dropped since. An id survives unless
 * another process takes longer than that between its read and its write. Such a write can also put
 * back a journal key this process removed, so the same checks remove those again.
 */

/** Notification ids kept in n8n's database per trigger (each delivery rewrites the list). */
export const DURABLE_KEYS = 5_000;
/**
 * Room in the same list for the run journal's keys (about four for each run under way, up to
 * `LOOKUP_MAX` more while a check looks), beyond the ids: n8n drops a list's oldest entries beyond
 * its size, and a burst's runs under way must not push out the ids of the notifications before
 * them (a repeat of one would run again, unmarked). Room for 4,500 runs under way at once per
 * trigger; a full list costs n8n about 12 ms a record instead of 3 (a 2-CPU machine).
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
 * taken for cut (trigger/memory/runJournal.ts).
 */
const CLOSED_MAX = 2_000;
/** After the last record, the recent ids are checked (and put back when dropped) this much later… */
export const VERIFY_AFTER_MS = 2_000;
/** …and once more this much after a check that found nothing missing. */
const FINAL_VERIFY_AFTER_MS = 30_000;

/** One trigger's writes of its list in this process, and what the checks look at. */
interface StoreRecords {
	/** The trigger these records are of (trigger/triggerState.ts). */
	scope: string;
	/** Records of this trigger in this process, one after the other. */
	writes: WorkInTurn;
	/** Work of this trigger's list queued or under way, and looks between two writes. */
	busy: number;
	/** Ids this process recorded, with when; oldest first. */
	recent: Map<string, number>;
	/**
	 * Journal keys this process removed, with when: another process's write of a list read before
	 * the removal puts them back, so the checks remove them again.
	 */
	closed: Map<string, number>;
	/** The latest execution's functions: the later checks run through them. */
	context?: IExecuteFunctions;
	/** When the next check is due, and how long after the previous event it was set. */
	check?: { at: number; delayMs: number };
	/** Whether a loop waiting for `check` is running. */
	waiting: boolean;
}

const storeRecords = triggerSlot<StoreRecords>(
	'durable store records',
	() => ({
		scope: '',
		writes: { last: Promise.resolve() },
		busy: 0,
		recent: new Map(),
		closed: new Map(),
		waiting: false,
	}),
	{
		// Writes, looks and checks under way, and runs under way, keep theirs until they end.
		forgetWhen: (records) =>
			records.busy === 0 && !records.waiting && runsUnderWay(records.scope).length === 0,
	},
);

/** The store of the trigger `scope` as `context`, an execution of it, reaches it. */
function recordsOf(scope: string, context?: IExecuteFunctions): StoreRecords {
	const records = storeRecords.of(scope);
	records.scope = scope;
	if (context) records.context = context;
	return records;
}

/** An execution's functions, when none ran a check's work yet (a check runs through them). */
export function useContext(scope: string, context: IExecuteFunctions): void {
	recordsOf(scope).context ??= context;
}

/** The latest execution's functions of the trigger `scope`, for work after it ended. */
export const contextOf = (scope: string): IExecuteFunctions | undefined =>
	storeRecords.peek(scope)?.context;

const RUN_PREFIX = 'run:';

export const runKey = (notificationId: string): string => `${RUN_PREFIX}${notificationId}`;

export const isRunKey = (key: string): boolean => key.startsWith(RUN_PREFIX);

/** The notification a run key is of. */
export const notificationOfRun = (run: string): string => run.slice(RUN_PREFIX.length);

/** A run's lease lasts from the start of the period it was written in to the end of the next. */
export const LEASE_MS = 30_000;

const LEASE_PREFIX = 'lease:';

export const periodAt = (at: number): number => Math.floor(at / LEASE_MS);

export const leaseKey = (run: string, period: number): string =>
	`${LEASE_PREFIX}${notificationOfRun(run)}:${period}`;

/**
 * A run's mark that an execution opened it, `lease:<id>:held`: written with the run's key and its
 * first lease in one write, removed when it closes. n8n's store checks a key only by recording it
 * (`lookInStore` adds what it looks at and removes it again), and another process's write of the
 * list it read in between puts such a key back: a run key with no mark is that, never a run.
 */
export const heldKey = (run: string): string => `${LEASE_PREFIX}${notificationOfRun(run)}:held`;

/** The keys of `kept` this process touched within RECENT_MS (at most `max`), oldest first. */
function recentOf(kept: Map<string, number>, now: number, max: number): string[] {
	for (const [id, at] of kept) {
		if (at > now - RECENT_MS && kept.size <= max) break;
		kept.delete(id);
	}
	return [...kept.keys()];
}

/** The ids this process recorded lately: each record sends them again (above). */
export const recentIds = (scope: string): string[] =>
	recentOf(recordsOf(scope).recent, Date.now(), RECENT_MAX);

/** Notes ids this process recorded now, to be sent again and checked (above). */
export function noteRecorded(scope: string, ids: Iterable<string>): void {
	const { recent } = recordsOf(scope);
	const now = Date.now();
	for (const id of ids) {
		recent.delete(id);
		recent.set(id, now);
	}
	scheduleCheck(recordsOf(scope), VERIFY_AFTER_MS);
}

/** Remembers journal keys this process removed, and checks soon that they stay removed. */
export function noteClosed(scope: string, keys: string[]): void {
	const records = recordsOf(scope);
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
			if (attempt >= RECORD_ATTEMPTS || !isListMadeMeanwhile(error)) throw error;
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

/**
 * Runs `work` on the trigger's list after the writes of this process that came before it; an
 * execution passes its functions, which the later checks then use.
 */
export async function afterEarlierWrites<T>(
	scope: string,
	work: () => Promise<T>,
	context?: IExecuteFunctions,
): Promise<T> {
	const records = recordsOf(scope, context);
	records.busy += 1;
	try {
		return await inTurn(records.writes, work);
	} finally {
		records.busy -= 1;
	}
}

/**
 * Keeps the trigger's records while `work` runs, writes or not (a look at the list in two writes
 * some seconds apart): another record of the same list would not wait for its writes.
 */
export async function whileBusy<T>(scope: string, work: () => Promise<T>): Promise<T> {
	const records = recordsOf(scope);
	records.busy += 1;
	try {
		return await work();
	} finally {
		records.busy -= 1;
	}
}

/**
 * Checks that the recent ids are still in n8n's store and the recently closed journal keys are
 * not; puts back any id another write dropped and removes any key another write put back.
 */
async function checkRecent(records: StoreRecords, delayMs: number): Promise<void> {
	const context = records.context;
	const now = Date.now();
	const ids = recentOf(records.recent, now, RECENT_MAX);
	// A key closed here and opened again here since (a cut run taken over) is under way: kept.
	const underWay = new Set(runsUnderWay(records.scope));
	const closed = recentOf(records.closed, now, CLOSED_MAX).filter((key) => !underWay.has(key));
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
function scheduleCheck(records: StoreRecords, delayMs: number): void {
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
				await afterEarlierWrites(
					records.scope,
					async () => await checkRecent(records, due.delayMs),
				);
			}
		} finally {
			records.waiting = false;
		}
	})();
}

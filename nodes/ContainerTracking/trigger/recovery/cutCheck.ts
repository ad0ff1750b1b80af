import type { ITriggerFunctions } from 'n8n-workflow';

import { reportsAnything } from '../items/deliveryItems';
import { deliveryCore } from '../../schemas';
import { checkItem, type ItemOptions } from '../items/notificationItems';
import { ranHere } from '../memory/notificationLedger';
import { startExecutions } from './handOver';
import { includedFor, readLog, type LoggedNotification } from './notificationLog';
import { RECOVERY_WINDOW_MS } from './restartCheck';
import { triggerScope, triggerSlot } from '../triggerState';

/**
 * The cut check: notifications this package answered whose execution never ran, or was cut in
 * another n8n process, found while this one goes on. Every delivery is answered before n8n creates
 * its execution (ContainerTrackingTrigger.node.ts), and n8n may then fail to create it; in queue
 * mode a worker (or the webhook process) can die while the main, which runs the watch, does not: no
 * restart check comes (trigger/recovery/restartCheck.ts). So the watch keeps, per trigger, the
 * notifications of its webhook that the service logged since this process's first read and whose
 * execution did not run in this process, and hands each to an execution HAND_OVER_AFTER_MS after
 * the service logged it, a few times: that execution runs again those whose run is open with its
 * lease not renewed (trigger/memory/runJournal.ts), and, of those the service had answered, those
 * no execution ever recorded (never created, or taken by a worker that died before the trigger
 * ran); it drops the rest (trigger/recovery/handedOver.ts).
 *
 * Its items name the notifications only (`checkItem`): most turn out to have run, and an
 * execution keeps its items. The few that run again read their bodies from the log, a page at a
 * time.
 */

/** A notification is handed over this long after the service logged it, and then again. */
export const HAND_OVER_AFTER_MS = [90_000, 4 * 60_000, 10 * 60_000];
/**
 * While notifications wait to be handed over, or came lately, the log is read this often, and
 * when a hand-over is due sooner, then (not sooner than HAND_OVER_WAKE_MS from now).
 */
export const CUT_CHECK_EVERY_MS = 60_000;
const HAND_OVER_WAKE_MS = 5_000;
/** After the last new notification, the log is read that often for this long… */
const ACTIVE_FOR_MS = 30 * 60_000;
/**
 * …and for this long after the process's first cut check, to learn whether executions run in
 * another process (queue mode); once the log showed one, for as long as the workflow is active.
 * The main of queue mode sees no delivery (the webhook process and the workers do), so activity
 * alone would wake its cut check only at the watch's interval, minutes after a worker died.
 */
export const LEARN_FOR_MS = 30 * 60_000;
/**
 * A read goes back this much before the newest notification the one before it saw, or to a page
 * it read all of before, whichever comes first: a burst of a minute is not read again each time.
 */
const OVERLAP_MS = 60_000;

interface Candidate {
	createdAt: number;
	/** When this process first saw it in the log. */
	firstSeenAt: number;
	/** How many times it was handed over. */
	handed: number;
	/** Whether the service had it answered when last seen. */
	answered: boolean;
}

interface CutCheckMemory {
	candidates: Map<string, Candidate>;
	/** The newest notification a read saw. */
	newest?: number;
	/** The notifications reads saw within OVERLAP_MS of the newest, and when each was created. */
	read: Map<string, number>;
	/** Until when the log is read every CUT_CHECK_EVERY_MS. */
	activeUntil: number;
	/**
	 * Whether a notification was answered and, when due to be handed over, had not run here: its
	 * execution ran in another process. Then the log is read every CUT_CHECK_EVERY_MS while the
	 * workflow is active.
	 */
	ranElsewhere: boolean;
}

const cutCheckMemory = triggerSlot<CutCheckMemory>('cut check memory', () => ({
	candidates: new Map(),
	read: new Map(),
	activeUntil: Date.now() + LEARN_FOR_MS,
	ranElsewhere: false,
}));

/**
 * When a notification is next handed over: HAND_OVER_AFTER_MS from when the service logged it (or
 * this process first saw it, on a clock behind the service's: the leases decide what runs again,
 * so a clock ahead only hands it over before it can be cut); never after the last.
 */
function handOverDueAt(candidate: Candidate): number {
	const after = HAND_OVER_AFTER_MS[candidate.handed];
	if (after === undefined) return Number.POSITIVE_INFINITY;
	return Math.min(candidate.firstSeenAt, candidate.createdAt) + after;
}

/**
 * How long until the cut check should read the log again: CUT_CHECK_EVERY_MS while notifications
 * wait to be handed over or came lately, or sooner when a hand-over is due sooner; else never
 * (the watch's own interval reads it).
 */
export function cutCheckDueIn(scope: string): number {
	const memory = cutCheckMemory.peek(scope);
	if (!memory) return Number.POSITIVE_INFINITY;
	const nextHandOver = Math.min(...[...memory.candidates.values()].map(handOverDueAt));
	if (Number.isFinite(nextHandOver))
		return Math.max(HAND_OVER_WAKE_MS, Math.min(CUT_CHECK_EVERY_MS, nextHandOver - Date.now()));
	return memory.ranElsewhere || Date.now() < memory.activeUntil
		? CUT_CHECK_EVERY_MS
		: Number.POSITIVE_INFINITY;
}

/**
 * Whether a logged notification starts the workflow: one that reports nothing to this trigger
 * (its events, Only These Fields) was answered without an execution. Told from what its page
 * included; one whose records it did not include is taken as starting it.
 */
function startsAnything(entry: LoggedNotification, options: ItemOptions): boolean {
	const included = includedFor(entry);
	if (!included) return true;
	const delivery = deliveryCore.safeParse({ data: entry.record, included });
	return !delivery.success || reportsAnything(delivery.data, options);
}

/**
 * One cut check of the webhook(s) `webhookIds`, from `floor` (the newest notification the
 * process's first read saw: the restart check covers those before). `read`: the log as the
 * catch-up of the same round read it (further back than this check reads), else read here.
 * Returns how many notifications it handed over.
 */
export async function checkCutRuns(
	context: ITriggerFunctions,
	webhookIds: string[],
	floor: number,
	options: ItemOptions,
	read?: LoggedNotification[],
): Promise<number> {
	const scope = triggerScope(context);
	const memory = cutCheckMemory.of(scope);
	const now = Date.now();
	// From a little before the last read's newest, and back to any not seen answered yet that is
	// due now: its status may have changed since, and is read when it is handed over, not at every
	// check (a notification the service still retries would make each read go back to it).
	const overlap = (memory.newest ?? floor) - OVERLAP_MS;
	let from = overlap;
	for (const candidate of memory.candidates.values())
		if (!candidate.answered && handOverDueAt(candidate) <= now)
			from = Math.min(from, candidate.createdAt);
	const entries =
		read ??
		(await readLog(context, (newest) => Math.max(from, floor, newest - RECOVERY_WINDOW_MS), {
			// Going further back, for the status of those due, reads on past what it read before.
			readBefore:
				from < overlap || memory.newest === undefined
					? undefined
					: { has: (id) => memory.read.has(id), newest: memory.newest },
		}));
	for (const entry of entries) {
		memory.newest = Math.max(memory.newest ?? floor, entry.createdAt);
		memory.read.set(entry.id, entry.createdAt);
		if (!entry.webhookId || !webhookIds.includes(entry.webhookId)) continue;
		if (entry.createdAt < floor || ranHere(scope, entry.id)) continue;
		if (!memory.candidates.has(entry.id) && !startsAnything(entry, options)) continue;
		const known = memory.candidates.get(entry.id);
		if (known) known.answered = entry.status === 'succeeded';
		else {
			memory.candidates.set(entry.id, {
				createdAt: entry.createdAt,
				firstSeenAt: now,
				handed: 0,
				answered: entry.status === 'succeeded',
			});
			memory.activeUntil = now + ACTIVE_FOR_MS;
		}
	}
	for (const [id, createdAt] of memory.read)
		if (createdAt < (memory.newest ?? floor) - OVERLAP_MS) memory.read.delete(id);
	const due: Array<{ id: string; candidate: Candidate }> = [];
	for (const [id, candidate] of memory.candidates) {
		// Out of the restart check's window too: an execution running this long is not looked for.
		if (candidate.createdAt < (memory.newest ?? floor) - RECOVERY_WINDOW_MS || ranHere(scope, id)) {
			memory.candidates.delete(id);
			continue;
		}
		if (handOverDueAt(candidate) <= now) due.push({ id, candidate });
	}
	due.sort((a, b) => a.candidate.createdAt - b.candidate.createdAt || a.id.localeCompare(b.id));
	// Answered and still not run here when due: its execution ran in another process, or never
	// ran (in one n8n, it runs here within seconds of its answer).
	if (due.some(({ candidate }) => candidate.answered)) memory.ranElsewhere = true;
	startExecutions(
		context,
		due.map(({ id, candidate }) => [
			{
				id,
				items: [checkItem({ id, createdAt: candidate.createdAt, answered: candidate.answered })],
			},
		]),
		`container-tracking-check-${now}`,
	);
	for (const { candidate } of due) candidate.handed += 1;
	return due.length;
}

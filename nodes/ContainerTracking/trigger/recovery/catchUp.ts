import type { ITriggerFunctions } from 'n8n-workflow';

import type { ItemOptions } from '../items/notificationItems';
import { noteTaken, wasTaken } from '../memory/notificationLedger';
import { addToGroup, caughtUpItems, startExecutions, type DueNotification } from './handOver';
import { bodyFromLog, readLog, type LoggedNotification } from './notificationLog';
import { RECOVERY_WINDOW_MS, restartCheck, restartCheckOwed } from './restartCheck';
import { triggerScope, triggerSlot } from '../triggerState';

/**
 * Catch-up: the notifications of this trigger's webhook that the service gave up on (`failed`
 * after its last retry, or logged while the webhook was inactive) start the workflow as a live
 * delivery would have, oldest first, once each (docs/service.md, "Notification log").
 *
 * The log has no filter and no documented order, so it is read page by page and filtered here,
 * from its newest end back to where the last read left off: a log served newest first is read
 * forward, one served oldest first backward from its last page (`links.last`, `links.prev`), so
 * a read costs the pages written since, whatever the log's length. The pages are read with
 * `include=reference_object`: a notification whose records a page includes needs no call of its
 * own. Everything missed then starts the workflow at once, in executions of up to
 * MAX_BATCH_DELIVERIES notifications (as live deliveries that arrive together do,
 * trigger/batching/deliveryBatches.ts), not a few per watch interval. A missed notification stays
 * due until it has run: those not run yet are kept in memory, and the point a read must start from
 * (`catchUpFrom`, in the node's static data) never passes one of them, so a restart reads them
 * again.
 *
 * A notification still `pending` once it has been seen pending for `settleMs` is caught up as
 * well: the service is retrying it, and a retry that arrives after the catch-up is a repeat the
 * live path answers without running.
 *
 * Each notification runs at most once, by four guards from the cheapest: ids kept in the node's
 * static data (n8n saves it with each emit), the notifications this process took
 * (trigger/memory/notificationLedger.ts), the execution deduplication key n8n keeps in its database
 * (n8n 2.20 and later; older ones ignore it), and the durable record every execution of the
 * trigger checks (trigger/memory/recordedNotifications.ts), which live deliveries share.
 *
 * The same read serves the restart check when it is owed (trigger/recovery/restartCheck.ts), and
 * the cut check of the same round (trigger/recovery/cutCheck.ts).
 */

export interface CatchUpSettings {
	/** How far back the first catch-up of a process reads the log, at most. */
	lookBackMs: number;
	/** How long a notification is seen `pending` before it is caught up. */
	settleMs: number;
	/**
	 * How far back a read starts before the newest notification it saw: a notification seen
	 * pending must still be in the read that catches it up.
	 */
	windowMs: number;
	items: ItemOptions;
	/**
	 * Whether notifications the service failed to deliver are caught up (the node's option). Off,
	 * the log is read only for the restart check, and for the cut check
	 * (trigger/recovery/cutCheck.ts).
	 */
	missed?: boolean;
	/** Whether live deliveries are checked for repeats (the node's option). */
	deduplicate: boolean;
	/**
	 * Whether the first read of each trigger in this process (the restart check, made once per
	 * process) also hands the notifications logged within RECOVERY_WINDOW_MS to an execution that
	 * runs again those whose run was cut (trigger/memory/runJournal.ts).
	 */
	recoverCutRuns?: boolean;
}

/** Ids kept in static data, at most: those newer than where the next read starts. */
const CAUGHT_UP_KEPT = 20_000;

/** What one trigger remembers in this process between catch-ups. */
interface CatchUpMemory {
	/** Notifications seen `pending`: when first, by this process's clock, and when created. */
	pending: Map<string, { seenAt: number; createdAt: number }>;
	/** Missed notifications not run yet (a catch-up stopped, or failed, before them). */
	backlog: Map<string, LoggedNotification>;
	/** Whether a read of this process went back as far as the look-back allows. */
	lookedBack: boolean;
	/**
	 * The newest notification the first read of this process saw (0: none): the restart check
	 * covers those before it, the cut check (trigger/recovery/cutCheck.ts) those from it on.
	 */
	firstNewest?: number;
}

const catchUpMemory = triggerSlot<CatchUpMemory>('catch-up memory', () => ({
	pending: new Map(),
	backlog: new Map(),
	lookedBack: false,
}));

/** The newest notification the first read of this process saw; undefined before that read. */
export const firstReadNewest = (scope: string): number | undefined =>
	catchUpMemory.peek(scope)?.firstNewest;

type CaughtUpIds = Record<string, number>;

/** Keeps the ids a later read can still meet: the newest, created since `oldest`. */
function pruned(ids: CaughtUpIds, oldest: number): CaughtUpIds {
	const kept = Object.entries(ids)
		.filter(([, createdAt]) => createdAt >= oldest)
		.sort(([, a], [, b]) => b - a)
		.slice(0, CAUGHT_UP_KEPT);
	return Object.fromEntries(kept);
}

interface CatchUpReport {
	/** Notifications of the webhook in the log that were not delivered. */
	undelivered: number;
	/** Notifications that started the workflow now. */
	started: number;
	/** Executions they started in. */
	executions: number;
	/** What the read of the log returned: the cut check of the same round reads no more. */
	read?: LoggedNotification[];
}

/** Where the next read starts: before every notification that may still be due. */
function readStart(memory: CatchUpMemory, newest: number, settings: CatchUpSettings): number {
	let start = newest - settings.windowMs;
	for (const entry of memory.backlog.values()) start = Math.min(start, entry.createdAt);
	for (const { createdAt } of memory.pending.values()) start = Math.min(start, createdAt);
	return start;
}

const ofWebhooks = (entries: LoggedNotification[], webhookIds: string[]) =>
	entries.filter((entry) => entry.webhookId !== undefined && webhookIds.includes(entry.webhookId));

/**
 * Notes the missed notifications among `entries` in the backlog: those the service did not deliver
 * and no catch-up started before (`known`); one still `pending` only once it has been seen so for
 * `settleMs`.
 */
function noteMissed(
	memory: CatchUpMemory,
	entries: LoggedNotification[],
	known: CaughtUpIds,
	settings: CatchUpSettings,
	now: number,
): void {
	const stillPending = new Set<string>();
	for (const entry of entries) {
		if (entry.status === 'succeeded' || known[entry.id] !== undefined) continue;
		// A value no table lists is taken as not delivered: a notification is never dropped for it.
		if (entry.status === 'pending') {
			stillPending.add(entry.id);
			const seenAt = memory.pending.get(entry.id)?.seenAt ?? now;
			memory.pending.set(entry.id, { seenAt, createdAt: entry.createdAt });
			if (now - seenAt < settings.settleMs) continue;
		}
		memory.backlog.set(entry.id, entry);
	}
	for (const id of memory.pending.keys()) if (!stillPending.has(id)) memory.pending.delete(id);
}

/**
 * Starts the workflow with the backlog, oldest first, and moves where the next read starts
 * (static data, saved by n8n with each emit). Returns how many were due, and started.
 */
async function startBacklog(
	context: ITriggerFunctions,
	memory: CatchUpMemory,
	settings: CatchUpSettings,
	newest: number,
	stopped: () => boolean,
): Promise<{ due: number; started: number; executions: number }> {
	const staticData = context.getWorkflowStaticData('node');
	const due = [...memory.backlog.values()].sort(
		(a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
	);
	const scope = triggerScope(context);
	const groups = new Map<string, DueNotification[]>();
	const caughtUp = (staticData.caughtUp ?? {}) as CaughtUpIds;
	let started = { notifications: 0, executions: 0 };
	try {
		for (const entry of due) {
			// The workflow was deactivated meanwhile: what is left waits for its next activation.
			if (stopped()) break;
			const body = await bodyFromLog(context, entry);
			const caught = body === undefined ? { items: [] } : caughtUpItems(body, settings.items);
			memory.backlog.delete(entry.id);
			memory.pending.delete(entry.id);
			caughtUp[entry.id] = entry.createdAt;
			if (!caught) {
				context.logger.warn('Container tracking: a logged notification is not a delivery', {
					notificationId: entry.id,
				});
				continue;
			}
			// A live copy that reached this process first already ran; one that comes later is a repeat.
			if (caught.items.length === 0 || (settings.deduplicate && wasTaken(scope, entry.id)))
				continue;
			if (settings.deduplicate) noteTaken(scope, [entry.id]);
			addToGroup(groups, { id: entry.id, items: caught.items }, caught.containerId);
		}
	} finally {
		// The log's clock, not this process's: the service stamps created_at. Set before the
		// emit: n8n saves a trigger's static data with each emit.
		const readFrom = readStart(memory, newest || Date.now(), settings);
		staticData.catchUpFrom = readFrom;
		staticData.caughtUp = pruned(caughtUp, readFrom);
		// Also when a read failed midway: those taken off the backlog start now.
		started = startExecutions(context, groups.values(), 'container-tracking');
	}
	return { due: due.length, started: started.notifications, executions: started.executions };
}

/**
 * Where a read of the log starts, given the newest notification it holds. The first read of a
 * process starts where the last one before it (maybe in another process, before a restart) left
 * off, looking back no further than the option says; later ones before anything still due. Not
 * catching up, only the restart check's window. The restart check reads its whole window,
 * wherever an earlier read of this process stopped.
 */
function readFrom(
	memory: CatchUpMemory,
	settings: CatchUpSettings,
	savedFrom: number,
	{ missed, recovering }: { missed: boolean; recovering: boolean },
): (newest: number) => number {
	const recoveryStart = (newest: number) => newest - RECOVERY_WINDOW_MS;
	const startOf = !missed
		? recoveryStart
		: memory.lookedBack
			? (newest: number) => readStart(memory, newest, settings)
			: (newest: number) =>
					Math.max(
						newest - settings.lookBackMs,
						Number.isFinite(savedFrom) ? savedFrom : -Infinity,
					);
	return recovering
		? (newest: number) => Math.min(startOf(newest), recoveryStart(newest))
		: startOf;
}

/**
 * One round of the watch's log reading for the webhook(s) `webhookIds`: the missed
 * notifications caught up (`settings.missed`), and the restart check when it is owed.
 */
export async function catchUp(
	context: ITriggerFunctions,
	webhookIds: string[],
	settings: CatchUpSettings,
	stopped: () => boolean = () => false,
): Promise<CatchUpReport> {
	const scope = triggerScope(context);
	const memory = catchUpMemory.of(scope);
	const staticData = context.getWorkflowStaticData('node');
	const recovering = settings.recoverCutRuns === true && restartCheckOwed(scope);
	const missed = settings.missed !== false;
	// Nothing to catch up and no restart check owed: the cut check reads the log itself.
	if (!missed && !recovering && memory.lookedBack)
		return { undelivered: 0, started: 0, executions: 0, read: undefined };
	const read = await readLog(
		context,
		readFrom(memory, settings, Number(staticData.catchUpFrom), { missed, recovering }),
	);
	memory.lookedBack = true;
	const newest = read.reduce((latest, entry) => Math.max(latest, entry.createdAt), 0);
	memory.firstNewest ??= newest;
	const entries = ofWebhooks(read, webhookIds);

	let report = { due: 0, started: 0, executions: 0 };
	if (missed) {
		noteMissed(memory, entries, (staticData.caughtUp ?? {}) as CaughtUpIds, settings, Date.now());
		report = await startBacklog(context, memory, settings, newest, stopped);
	}
	if (recovering && !stopped()) await restartCheck(context, entries, newest, settings.items);
	if (memory.backlog.size > 0)
		context.logger.info(
			`Container tracking: ${memory.backlog.size} more missed notifications wait for the next catch-up`,
		);
	return {
		undelivered: report.due,
		started: report.started,
		executions: report.executions,
		read,
	};
}

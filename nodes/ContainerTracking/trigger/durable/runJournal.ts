import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import {
	afterEarlierWrites,
	heldKey,
	LEASE_MS,
	leaseKey,
	lookInStore,
	periodAt,
	recordInStore,
	recordsOf,
	rememberClosed,
	removeFromStore,
	runKey,
	type TriggerRecords,
} from './deduplicationStore';
import { endedForWantOfARunner, executionEndHooks } from '../../n8nInternals';
import { noteRanHere } from '../admission/ranHere';
import { triggerScope } from '../triggerState';

/**
 * The run journal: which notifications' executions are under way, kept where n8n keeps the
 * trigger's durable records (trigger/durable/deduplicationStore.ts), so that it outlives the
 * process.
 *
 * A notification is answered 2xx once its execution exists (trigger/batching/deliveryBatches.ts); the
 * service then never sends it again. When n8n dies before that execution ends (an out-of-memory
 * kill, a restart, a deploy that stops n8n past its graceful-shutdown timeout), n8n marks the
 * execution crashed and runs it no more. So each execution opens a `run:<id>` key per
 * notification it runs, in the same record that checks the notification for repeats, and closes
 * it when the execution has ended, whether it succeeded or failed (unless it failed because
 * n8n could not run it: stopping, its task runner gone): n8n's own end-of-execution hook calls
 * back, in the process that ran it. A key still open when n8n starts again marks a
 * run that was cut; the restart check (trigger/recovery/catchUp.ts) hands the notifications the service
 * logged lately to an execution, which runs again those whose key is open (and not under way in
 * this process), runs those the service had answered that no execution ever recorded (killed
 * before the trigger ran in their execution), and drops the rest.
 *
 * Where n8n offers no such hook, nothing is opened: a run that cannot be closed would be run
 * again at every restart.
 *
 * In queue mode a worker can die while the main goes on: no restart comes. So a run also holds a
 * lease, `lease:<id>:<n>` for each LEASE_MS period `n` it is under way in, written when it opens
 * and renewed by its process at each period's start (`renewLeases`). A run open whose lease is
 * neither this period's nor the last one's was cut: its process stopped (killed, or stopped past
 * its graceful-shutdown timeout), or its execution ended for want of a runner. The main's cut check
 * (trigger/recovery/cutCheck.ts) hands such notifications to an execution, which runs them again.
 */

/**
 * The lease keys of `runs` for `period`, remembered as written by this process (whether or not
 * the write succeeds: a key removed that was never written costs nothing).
 */
export function leasesOf(records: TriggerRecords, runs: string[], period: number): string[] {
	for (const run of runs) {
		const periods = records.leases.get(run) ?? new Set<number>();
		periods.add(period);
		records.leases.set(run, periods);
	}
	return runs.map((run) => leaseKey(run, period));
}

/** What an execution writes with the keys of the runs it opens: their marks and leases. */
export const openingLeasesOf = (records: TriggerRecords, runs: string[]): string[] => [
	...runs.map(heldKey),
	...leasesOf(records, runs, periodAt(Date.now())),
];

/** Forgets the leases of `runs` and returns their keys and marks, to be removed from the store. */
export function leasesToRemove(records: TriggerRecords, runs: string[]): string[] {
	const keys: string[] = [];
	for (const run of runs) {
		keys.push(heldKey(run));
		for (const period of records.leases.get(run) ?? []) keys.push(leaseKey(run, period));
		records.leases.delete(run);
	}
	return keys;
}

/**
 * After a record that opened runs with their leases (`added`: the keys it added): marks the runs it
 * opened and keeps (`kept`) as under way here, and renews their leases while they are. Removes
 * again, in one write, the runs it added and does not keep (a repeat's: it runs nothing), and the
 * marks and leases it wrote for every run it does not hold (another execution may hold them), so
 * that none of them keeps a cut run alive or is taken for one. The runs removed are checked as
 * closed ones are (trigger/durable/recordedNotifications.ts): another process's write may put one
 * back, with its mark, and its lease would then lapse as a cut run's does.
 */
export async function settleOpened(
	context: IExecuteFunctions,
	records: TriggerRecords,
	runs: string[],
	added: Set<string>,
	kept: (run: string) => boolean = () => true,
): Promise<string[]> {
	const opened = runs.filter((key) => added.has(key) && kept(key));
	for (const key of opened) records.openHere.add(key);
	const notHeld = runs.filter((key) => !opened.includes(key));
	const droppedRuns = notHeld.filter((key) => added.has(key));
	const dropped = [
		...droppedRuns,
		...leasesToRemove(records, notHeld).filter((key) => added.has(key)),
	];
	if (dropped.length > 0) {
		await removeFromStore(context, dropped);
		rememberClosed(records, droppedRuns);
	}
	renewLeases(records);
	return opened;
}

/**
 * While runs of this trigger are under way in this process, writes their lease for each new
 * period as it starts, and removes those of periods before the last.
 */
export function renewLeases(records: TriggerRecords): void {
	if (records.renewing || records.openHere.size === 0) return;
	records.renewing = true;
	void (async () => {
		try {
			while (records.openHere.size > 0) {
				const next = (periodAt(Date.now()) + 1) * LEASE_MS;
				await sleep(next - Date.now() + 10);
				const context = records.context;
				if (!context || records.openHere.size === 0) break;
				await afterEarlierWrites(records, async () => {
					const period = periodAt(Date.now());
					const runs = [...records.openHere];
					const stale: string[] = [];
					for (const run of runs)
						for (const old of records.leases.get(run) ?? [])
							if (old < period - 1) {
								stale.push(leaseKey(run, old));
								records.leases.get(run)?.delete(old);
							}
					await recordInStore(context, leasesOf(records, runs, period));
					if (stale.length > 0) await removeFromStore(context, stale);
				}).catch((error: Error) => {
					context.logger.warn('Container tracking: could not renew the leases of runs under way', {
						count: records.openHere.size,
						error: error.message,
					});
				});
			}
		} finally {
			records.renewing = false;
		}
	})();
}

/** Removes `keys` from the trigger's records, after the records before it in this process. */
async function removeKeys(context: IExecuteFunctions, keys: string[]): Promise<void> {
	if (keys.length === 0) return;
	const records = recordsOf(triggerScope(context));
	records.context ??= context;
	await afterEarlierWrites(records, async () => {
		await removeFromStore(context, [...keys, ...leasesToRemove(records, keys)]);
	});
	rememberClosed(records, keys);
}

/** Opens the runs of `ids`; returns the keys this call opened (others were open already). */
export async function openRuns(context: IExecuteFunctions, ids: string[]): Promise<string[]> {
	if (ids.length === 0) return [];
	const records = recordsOf(triggerScope(context));
	records.context ??= context;
	return await afterEarlierWrites(records, async () => {
		const runs = ids.map(runKey);
		const result = await recordInStore(context, [...runs, ...openingLeasesOf(records, runs)]);
		noteRanHere(records.scope, ids);
		return await settleOpened(context, records, runs, new Set(result.new.map(String)));
	});
}

/**
 * The restart check looks at the runs it found open a second time this much later: a run another
 * process opened for a repeat is removed within one write (or, put back by a third process's write,
 * by that process's check two seconds later: trigger/durable/recordedNotifications.ts); a cut run
 * stays.
 */
export const LOOK_AGAIN_AFTER_MS = 5_000;

/**
 * Records `keys` to see which n8n's store holds, and removes again those it added; returns those
 * it held.
 */
async function held(context: IExecuteFunctions, keys: string[]): Promise<Set<string>> {
	return new Set((await lookInStore(context, keys, (part) => part.new)).processed);
}

/**
 * Of these run keys, those open in n8n's store with their mark (a run key without one is a key
 * another look put there, removed now), and not opened by an execution of this process that is
 * still under way (after a restart, a retried delivery's live execution may open a run before the
 * restart check looks at it). The key and the mark are looked at one after the other, the mark
 * only where the key was there: a look's key put back by another process's write (above) makes one
 * piece of evidence, never both.
 */
async function markedOpen(
	context: IExecuteFunctions,
	records: TriggerRecords,
	runs: string[],
): Promise<string[]> {
	const keys = runs.filter((key) => !records.openHere.has(key));
	if (keys.length === 0) return [];
	const present = [...(await held(context, keys))];
	const marked = await held(context, present.map(heldKey));
	const strays = present.filter((key) => !marked.has(heldKey(key)));
	if (strays.length > 0) await removeFromStore(context, strays);
	return present.filter((key) => marked.has(heldKey(key)));
}

/**
 * Of these notifications, those whose run was cut: open and marked (`markedOpen`) and, when
 * `leased` (the cut check of a process that did not restart), with no lease of this period or the
 * last: an open run whose process still renews it is under way elsewhere. The restart check
 * ignores leases, since the process that wrote them may have died a moment ago; it looks twice,
 * LOOK_AGAIN_AFTER_MS apart, instead, so that a repeat's run under way on another worker for one
 * write is not taken for a cut one. Reads are made in turn: a live execution's record before this
 * one has marked its runs.
 */
export async function cutAmong(
	context: IExecuteFunctions,
	ids: string[],
	{ leased = false }: { leased?: boolean } = {},
): Promise<Set<string>> {
	const records = recordsOf(triggerScope(context));
	records.context ??= context;
	let runs = ids.map(runKey);
	if (!leased) {
		runs = await afterEarlierWrites(records, async () => await markedOpen(context, records, runs));
		if (runs.length === 0) return new Set<string>();
		await sleep(LOOK_AGAIN_AFTER_MS);
	}
	return await afterEarlierWrites(records, async () => {
		let open = await markedOpen(context, records, runs);
		const period = periodAt(Date.now());
		if (leased && open.length > 0) {
			const leases = await held(
				context,
				open.flatMap((key) => [leaseKey(key, period), leaseKey(key, period - 1)]),
			);
			open = open.filter(
				(key) => !leases.has(leaseKey(key, period)) && !leases.has(leaseKey(key, period - 1)),
			);
		}
		// The runs taken over: this execution runs them now, under its own lease.
		if (open.length > 0) await recordInStore(context, leasesOf(records, open, period));
		for (const key of open) records.openHere.add(key);
		renewLeases(records);
		const cut = new Set(open);
		const taken = ids.filter((id) => cut.has(runKey(id)));
		noteRanHere(records.scope, taken);
		return new Set(taken);
	});
}

/**
 * Leaves `opened` open without this process renewing their leases: the execution cannot run
 * them (it failed before they started), so the next cut check runs them again.
 */
export function leaveRunsOpen(context: IExecuteFunctions, opened: string[]): void {
	const { openHere } = recordsOf(triggerScope(context));
	for (const key of opened) openHere.delete(key);
}

/**
 * Closes `opened` when the execution ends, succeeded or failed, unless it failed because n8n
 * could not run it (`endedForWantOfARunner`): its runs stay open, so that the restart check runs
 * them when n8n serves again, as it does for an execution cut by a kill. A close that fails leaves
 * the runs open: the next restart runs them again (a repeat, never a loss).
 */
export function closeRunsAtEnd(context: IExecuteFunctions, opened: string[]): void {
	if (opened.length === 0) return;
	const hooks = executionEndHooks(context);
	if (!hooks) return;
	// Marked under way where they were opened (`openRuns`, `cutAmong`, the record of new ids).
	const { openHere } = recordsOf(triggerScope(context));
	hooks.addHandler('workflowExecuteAfter', async (run) => {
		for (const key of opened) openHere.delete(key);
		if (endedForWantOfARunner(run)) {
			context.logger.info(
				'Container tracking: the execution failed because n8n could not run it (stopping, or its task runner gone); its notifications run again when n8n starts',
				{ count: opened.length },
			);
			return;
		}
		try {
			await removeKeys(context, opened);
		} catch (error) {
			context.logger.warn('Container tracking: could not close the runs of notifications', {
				count: opened.length,
				error: (error as Error).message,
			});
		}
	});
}

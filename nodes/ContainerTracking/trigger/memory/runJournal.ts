import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import {
	afterEarlierWrites,
	contextOf,
	heldKey,
	LEASE_MS,
	leaseKey,
	lookInStore,
	noteClosed,
	periodAt,
	recordInStore,
	removeFromStore,
	runKey,
	useContext,
	whileBusy,
} from './durableStore';
import { endedForWantOfARunner, executionEndHooks } from '../../n8nInternals';
import {
	forgetLeases,
	isUnderWay,
	noteLeases,
	noteNotUnderWay,
	noteRanHere,
	noteUnderWay,
	runsUnderWay,
} from './notificationLedger';
import { triggerSlot } from '../triggerState';

/**
 * The run journal: which notifications' executions are under way, kept where n8n keeps the
 * trigger's durable records (trigger/memory/durableStore.ts), so that it outlives the process.
 *
 * A notification is answered 2xx before its execution exists (trigger/batching/deliveryBatches.ts);
 * the service then never sends it again. When n8n dies before that execution ends (an
 * out-of-memory kill, a restart, a deploy that stops n8n past its graceful-shutdown timeout), n8n
 * marks the execution crashed and runs it no more. So each execution opens a `run:<id>` key per
 * notification it runs, in the same record that checks the notification for repeats, and closes
 * it when the execution has ended, whether it succeeded or failed (unless it failed because n8n
 * could not run it: stopping, its task runner gone): n8n's own end-of-execution hook calls back,
 * in the process that ran it. A key still open when n8n starts again marks a run that was cut; the
 * restart check (trigger/recovery/restartCheck.ts) hands the notifications the service logged
 * lately to an execution, which runs again those whose key is open (and not under way in this
 * process), runs those the service had answered that no execution ever recorded, and drops the
 * rest (trigger/recovery/handedOver.ts).
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
 *
 * Which runs are under way in this process, and which leases it wrote, are the notification
 * ledger's records (trigger/memory/notificationLedger.ts): a run taken over here is taken once.
 */

/** Whether a loop renewing the leases of the runs under way is running, per trigger. */
const renewals = triggerSlot<{ renewing: boolean }>('lease renewal', () => ({ renewing: false }), {
	forgetWhen: (renewal) => !renewal.renewing,
});

/** The lease keys of `runs` for `period`, noted as written by this process. */
export function leasesOf(scope: string, runs: string[], period: number): string[] {
	noteLeases(scope, runs, period);
	return runs.map((run) => leaseKey(run, period));
}

/** What an execution writes with the keys of the runs it opens: their marks and leases. */
export const openingLeasesOf = (scope: string, runs: string[]): string[] => [
	...runs.map(heldKey),
	...leasesOf(scope, runs, periodAt(Date.now())),
];

/** Forgets the leases of `runs` and returns their keys and marks, to be removed from the store. */
function leasesToRemove(scope: string, runs: string[]): string[] {
	return [
		...runs.map(heldKey),
		...forgetLeases(scope, runs).map(([run, period]) => leaseKey(run, period)),
	];
}

/**
 * After a record that opened runs with their leases (`added`: the keys it added): notes the runs it
 * opened and keeps (`kept`) as under way here, and renews their leases while they are. Removes
 * again, in one write, the runs it added and does not keep (a repeat's: it runs nothing), and the
 * marks and leases it wrote for every run it does not hold (another execution may hold them), so
 * that none of them keeps a cut run alive or is taken for one. The runs removed are checked as
 * closed ones are (trigger/memory/durableStore.ts): another process's write may put one back,
 * with its mark, and its lease would then lapse as a cut run's does.
 */
export async function settleOpened(
	context: IExecuteFunctions,
	scope: string,
	runs: string[],
	added: Set<string>,
	kept: (run: string) => boolean = () => true,
): Promise<string[]> {
	const opened = runs.filter((key) => added.has(key) && kept(key));
	noteUnderWay(scope, opened);
	const notHeld = runs.filter((key) => !opened.includes(key));
	const droppedRuns = notHeld.filter((key) => added.has(key));
	const dropped = [
		...droppedRuns,
		...leasesToRemove(scope, notHeld).filter((key) => added.has(key)),
	];
	if (dropped.length > 0) {
		await removeFromStore(context, dropped);
		noteClosed(scope, droppedRuns);
	}
	renewLeases(scope);
	return opened;
}

/**
 * While runs of this trigger are under way in this process, writes their lease for each new
 * period as it starts, and removes those of periods before the last.
 */
function renewLeases(scope: string): void {
	const renewal = renewals.of(scope);
	if (renewal.renewing || runsUnderWay(scope).length === 0) return;
	renewal.renewing = true;
	void (async () => {
		try {
			while (runsUnderWay(scope).length > 0) {
				const next = (periodAt(Date.now()) + 1) * LEASE_MS;
				await sleep(next - Date.now() + 10);
				const context = contextOf(scope);
				if (!context || runsUnderWay(scope).length === 0) break;
				await afterEarlierWrites(scope, async () => {
					const period = periodAt(Date.now());
					const runs = runsUnderWay(scope);
					const stale = forgetLeases(scope, runs, period - 1).map(([run, old]) =>
						leaseKey(run, old),
					);
					await recordInStore(context, leasesOf(scope, runs, period));
					if (stale.length > 0) await removeFromStore(context, stale);
				}).catch((error: Error) => {
					context.logger.warn('Container tracking: could not renew the leases of runs under way', {
						count: runsUnderWay(scope).length,
						error: error.message,
					});
				});
			}
		} finally {
			renewal.renewing = false;
		}
	})();
}

/** Removes `keys` from the trigger's records, after the records before it in this process. */
async function removeKeys(
	context: IExecuteFunctions,
	scope: string,
	keys: string[],
): Promise<void> {
	if (keys.length === 0) return;
	await afterEarlierWrites(
		scope,
		async () => {
			await removeFromStore(context, [...keys, ...leasesToRemove(scope, keys)]);
			// Gone from the store: no later turn renews their leases or finds them under way here.
			noteNotUnderWay(scope, keys);
		},
		context,
	);
	noteClosed(scope, keys);
}

/** Opens the runs of `ids`; returns the keys this call opened (others were open already). */
export async function openRuns(
	context: IExecuteFunctions,
	scope: string,
	ids: string[],
): Promise<string[]> {
	if (ids.length === 0) return [];
	return await afterEarlierWrites(
		scope,
		async () => {
			const runs = ids.map(runKey);
			const result = await recordInStore(context, [...runs, ...openingLeasesOf(scope, runs)]);
			noteRanHere(scope, ids);
			return await settleOpened(context, scope, runs, new Set(result.new.map(String)));
		},
		context,
	);
}

/**
 * The restart check looks at the runs it found open a second time this much later: a run another
 * process opened for a repeat is removed within one write (or, put back by a third process's write,
 * by that process's check two seconds later: trigger/memory/durableStore.ts); a cut run stays.
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
 * another look put there, removed now), and not under way in this process (after a restart, a
 * retried delivery's live execution may open a run before the restart check looks at it). The key
 * and the mark are looked at one after the other, the mark only where the key was there: a look's
 * key put back by another process's write (above) makes one piece of evidence, never both.
 */
async function markedOpen(
	context: IExecuteFunctions,
	scope: string,
	runs: string[],
): Promise<string[]> {
	const keys = runs.filter((key) => !isUnderWay(scope, key));
	if (keys.length === 0) return [];
	const present = [...(await held(context, keys))];
	const marked = await held(context, present.map(heldKey));
	const strays = present.filter((key) => !marked.has(heldKey(key)));
	if (strays.length > 0) await removeFromStore(context, strays);
	return present.filter((key) => marked.has(heldKey(key)));
}

/**
 * Of these notifications, those whose run was cut, taken over by this execution: open and marked
 * (`markedOpen`) and, when `leased` (the cut check of a process that did not restart), with no
 * lease of this period or the last: an open run whose process still renews it is under way
 * elsewhere. The restart check ignores leases, since the process that wrote them may have died a
 * moment ago; it looks twice, LOOK_AGAIN_AFTER_MS apart, instead, so that a repeat's run under way
 * on another worker for one write is not taken for a cut one. Reads are made in turn, and a run is
 * taken over in the same turn as its last look: of two executions of this process that look at
 * one cut run, one takes it (the ledger notes it under way here), the other finds it so.
 */
export async function cutAmong(
	context: IExecuteFunctions,
	scope: string,
	ids: string[],
	{ leased = false }: { leased?: boolean } = {},
): Promise<Set<string>> {
	useContext(scope, context);
	return await whileBusy(scope, async () => {
		let runs = ids.map(runKey);
		if (!leased) {
			runs = await afterEarlierWrites(scope, async () => await markedOpen(context, scope, runs));
			if (runs.length === 0) return new Set<string>();
			await sleep(LOOK_AGAIN_AFTER_MS);
		}
		return await afterEarlierWrites(scope, async () => {
			let open = await markedOpen(context, scope, runs);
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
			// Taken over now, before anything else is awaited: this execution runs them again, under
			// its own lease.
			noteUnderWay(scope, open);
			if (open.length > 0) await recordInStore(context, leasesOf(scope, open, period));
			renewLeases(scope);
			const cut = new Set(open);
			const taken = ids.filter((id) => cut.has(runKey(id)));
			noteRanHere(scope, taken);
			return new Set(taken);
		});
	});
}

/**
 * Leaves `opened` open without this process renewing their leases: the execution cannot run
 * them (it failed before they started), so the next cut check runs them again.
 */
export function leaveRunsOpen(scope: string, opened: string[]): void {
	noteNotUnderWay(scope, opened);
}

/**
 * Closes `opened` when the execution ends, succeeded or failed, unless it failed because n8n
 * could not run it (`endedForWantOfARunner`): its runs stay open, so that the restart check runs
 * them when n8n serves again, as it does for an execution cut by a kill. A close that fails leaves
 * the runs open: the next restart runs them again (a repeat, never a loss).
 */
export function closeRunsAtEnd(context: IExecuteFunctions, scope: string, opened: string[]): void {
	if (opened.length === 0) return;
	const hooks = executionEndHooks(context);
	if (!hooks) return;
	hooks.addHandler('workflowExecuteAfter', async (run) => {
		if (endedForWantOfARunner(run)) {
			noteNotUnderWay(scope, opened);
			context.logger.info(
				'Container tracking: the execution failed because n8n could not run it (stopping, or its task runner gone); its notifications run again when n8n starts',
				{ count: opened.length },
			);
			return;
		}
		try {
			await removeKeys(context, scope, opened);
		} catch (error) {
			context.logger.warn('Container tracking: could not close the runs of notifications', {
				count: opened.length,
				error: (error as Error).message,
			});
		} finally {
			// Under way here until their keys are gone: a look meanwhile must not take them over.
			noteNotUnderWay(scope, opened);
		}
	});
}

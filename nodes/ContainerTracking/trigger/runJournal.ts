import type { IExecuteFunctions } from 'n8n-workflow';

import {
	inTurn,
	recordInStore,
	recordsOf,
	rememberClosed,
	removeFromStore,
} from './durableRepeats';
import { triggerScope } from './repeats';

/**
 * The run journal: which notifications' executions are under way, kept where n8n keeps the
 * trigger's durable records (trigger/durableRepeats.ts), so that it outlives the process.
 *
 * A notification is answered 2xx once its execution exists (trigger/deliveryBatches.ts); the
 * service then never sends it again. When n8n dies before that execution ends (an out-of-memory
 * kill, a restart, a deploy that stops n8n past its graceful-shutdown timeout), n8n marks the
 * execution crashed and runs it no more. So each execution opens a `run:<id>` key per
 * notification it runs, in the same record that checks the notification for repeats, and closes
 * it when the execution has ended, whether it succeeded or failed (unless it failed because
 * n8n could not run it: stopping, its task runner gone): n8n's own end-of-execution hook calls
 * back, in the process that ran it. A key still open when n8n starts again marks a
 * run that was cut; the restart check (trigger/catchUp.ts) hands the notifications the service
 * logged lately to an execution, which runs again those whose key is open (and not under way in
 * this process), runs those the service had answered that no execution ever recorded (killed
 * before the trigger ran in their execution), and drops the rest.
 *
 * Where n8n offers no such hook, nothing is opened: a run that cannot be closed would be run
 * again at every restart.
 */

const RUN_PREFIX = 'run:';

export const runKey = (notificationId: string): string => `${RUN_PREFIX}${notificationId}`;

export const isRunKey = (key: string): boolean => key.startsWith(RUN_PREFIX);

/** An error as n8n keeps it in an ended execution's data: the thrown error's fields, spread. */
interface KeptError {
	message?: unknown;
	description?: unknown;
	reason?: unknown;
	runnerId?: unknown;
}

/** What n8n's end-of-execution hook is given (n8n-workflow's IRun), as far as it is read here. */
export interface EndedRun {
	status?: string;
	data?: {
		resultData?: {
			error?: KeptError;
			runData?: Record<string, Array<{ error?: KeptError } | null> | undefined>;
		};
	};
}

/** n8n's lifecycle hooks of the execution `context` runs in, as far as they are used here. */
interface EndHooks {
	addHandler(name: 'workflowExecuteAfter', handler: (run?: EndedRun) => Promise<void>): void;
}

/**
 * The errors n8n fails a node with when what runs it is gone, not because of the workflow: a
 * Code node's task finding no task runner (n8n's graceful shutdown stops its runners before it
 * waits for its executions, so every Code node still to run in those seconds fails so), a runner
 * that disconnected or stopped answering mid-task, a runner restarting in a loop, and an
 * execution n8n cancelled because it was shutting down. Matched on what n8n keeps of them (the
 * message, and the fields only these errors carry), in every n8n that has task runners.
 */
function isRunnerOrShutdownFailure(error: KeptError | undefined): boolean {
	if (!error) return false;
	const message = typeof error.message === 'string' ? error.message : '';
	return (
		error.reason === 'shutdown' ||
		/^Task request timed out/.test(message) ||
		/^Task execution aborted because runner became unresponsive/.test(message) ||
		/^Task runner has restarted \d+ times/.test(message) ||
		(message === 'Node execution failed' && error.runnerId !== undefined)
	);
}

/**
 * The execution ended without doing its work because n8n could not run it (above): its
 * notifications' runs stay open, so that the restart check runs them when n8n serves again, as
 * it does for an execution cut by a kill. A workflow's own failure ends its runs.
 */
export function endedForWantOfARunner(run: EndedRun | undefined): boolean {
	const result = run?.data?.resultData;
	if (!result || run?.status === 'success') return false;
	if (isRunnerOrShutdownFailure(result.error)) return true;
	return Object.values(result.runData ?? {}).some((tasks) =>
		(tasks ?? []).some((task) => isRunnerOrShutdownFailure(task?.error ?? undefined)),
	);
}

/**
 * The hooks n8n calls when the execution ends (n8n-core's ExecutionLifecycleHooks, on the
 * context's `additionalData`, as every n8n from 1.80 builds it); undefined elsewhere.
 */
export function executionEndHooks(context: IExecuteFunctions): EndHooks | undefined {
	const hooks = (context as unknown as { additionalData?: { hooks?: Partial<EndHooks> } })
		.additionalData?.hooks;
	return typeof hooks?.addHandler === 'function' ? (hooks as EndHooks) : undefined;
}

/** Removes `keys` from the trigger's records, after the records before it in this process. */
async function removeKeys(context: IExecuteFunctions, keys: string[]): Promise<void> {
	if (keys.length === 0) return;
	const records = recordsOf(triggerScope(context));
	records.context ??= context;
	await inTurn(records, async () => {
		await removeFromStore(context, keys);
	});
	rememberClosed(records, keys);
}

/** Opens the runs of `ids`; returns the keys this call opened (others were open already). */
export async function openRuns(context: IExecuteFunctions, ids: string[]): Promise<string[]> {
	if (ids.length === 0) return [];
	const records = recordsOf(triggerScope(context));
	return await inTurn(records, async () => {
		const opened = (await recordInStore(context, ids.map(runKey))).new.map(String);
		for (const key of opened) records.openHere.add(key);
		return opened;
	});
}

/**
 * Of these notifications, those whose run was cut: open in n8n's store, and not opened by an
 * execution of this process that is still under way (after a restart, a retried delivery's live
 * execution may open a run before the restart check looks at it). (n8n's store only checks by
 * recording: the keys this check added are removed at once.)
 */
export async function cutAmong(context: IExecuteFunctions, ids: string[]): Promise<Set<string>> {
	const records = recordsOf(triggerScope(context));
	return await inTurn(records, async () => {
		// Read in turn: a live execution's record before this one has marked its runs.
		const keys = ids.map(runKey).filter((key) => !records.openHere.has(key));
		if (keys.length === 0) return new Set<string>();
		const checked = await recordInStore(context, keys);
		const added = checked.new.map(String);
		if (added.length > 0) await removeFromStore(context, added);
		const open = new Set(checked.processed.map(String));
		// This execution runs them now.
		for (const key of open) records.openHere.add(key);
		return new Set(ids.filter((id) => open.has(runKey(id))));
	});
}

/**
 * Closes `opened` when the execution ends, succeeded or failed, unless it failed because n8n
 * could not run it (`endedForWantOfARunner`). A close that fails leaves the runs open: the next
 * restart runs them again (a repeat, never a loss).
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

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
 * it when the execution has ended, whether it succeeded or failed: n8n's own end-of-execution
 * hook calls back, in the process that ran it. A key still open when n8n starts again marks a
 * run that was cut; the restart check (trigger/catchUp.ts) hands the notifications the service
 * answered lately to an execution, which runs again those whose key is open, runs those no
 * execution ever recorded (killed before the trigger ran in their execution), and drops the rest.
 *
 * Where n8n offers no such hook, nothing is opened: a run that cannot be closed would be run
 * again at every restart.
 */

const RUN_PREFIX = 'run:';

export const runKey = (notificationId: string): string => `${RUN_PREFIX}${notificationId}`;

export const isRunKey = (key: string): boolean => key.startsWith(RUN_PREFIX);

/** n8n's lifecycle hooks of the execution `context` runs in, as far as they are used here. */
interface EndHooks {
	addHandler(name: 'workflowExecuteAfter', handler: () => Promise<void>): void;
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
	const result = await inTurn(records, async () => await recordInStore(context, ids.map(runKey)));
	return result.new.map(String);
}

/**
 * Of these notifications, those whose run is open: cut, when no execution runs them any more.
 * (n8n's store only checks by recording: the keys this check added are removed at once.)
 */
export async function cutAmong(context: IExecuteFunctions, ids: string[]): Promise<Set<string>> {
	const records = recordsOf(triggerScope(context));
	const result = await inTurn(records, async () => {
		const checked = await recordInStore(context, ids.map(runKey));
		const added = checked.new.map(String);
		if (added.length > 0) await removeFromStore(context, added);
		return checked;
	});
	const open = new Set(result.processed.map(String));
	return new Set(ids.filter((id) => open.has(runKey(id))));
}

/**
 * Closes `opened` when the execution ends, however it ends. A close that fails leaves the runs
 * open: the next restart runs them again (a repeat, never a loss).
 */
export function closeRunsAtEnd(context: IExecuteFunctions, opened: string[]): void {
	if (opened.length === 0) return;
	executionEndHooks(context)?.addHandler('workflowExecuteAfter', async () => {
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

import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import type { ItemOptions } from '../items/notificationItems';
import { expectKnowledge, knowledgeCame } from '../memory/notificationLedger';
import { addToGroup, caughtUpItems, startExecutions, type DueNotification } from './handOver';
import { bodyFromLog, type LoggedNotification } from './notificationLog';
import { triggerScope, triggerSlot } from '../triggerState';

/**
 * The check after a restart: once per trigger per process that n8n activated itself, the watch's
 * first read of the service's log (trigger/recovery/catchUp.ts) hands the notifications logged
 * within RECOVERY_WINDOW_MS, delivered or not, to one execution, which runs again those whose run
 * was cut (the run journal, trigger/memory/runJournal.ts), runs those the service had answered
 * that no execution ever recorded (killed before the trigger ran in their execution, or before n8n
 * answered them), and drops the rest (trigger/recovery/handedOver.ts). That execution also tells
 * this process which of them n8n's store holds (trigger/memory/notificationLedger.ts): until it
 * has, a delivery this process cannot tell from a copy waits for it.
 */

/**
 * How far back, before the newest notification, a restart looks for runs that were cut: an
 * execution still running this long after its notification was answered is not looked for.
 */
export const RECOVERY_WINDOW_MS = 15 * 60_000;

/**
 * Whether each trigger's restart check is still owed in this process, or was made (or is not
 * needed). It is owed once per trigger per process when n8n activated the workflow itself (at
 * its start, a leadership change, or n8n 2.x publishing it again right after its start, mode
 * `update`, which can close the watch before its first check), until the check completes; not
 * when a person turned the workflow on (mode `activate`): it was off, so no run of it was cut.
 * Kept across deactivation: a workflow turned off and on again in a process that did not die has
 * no cut runs.
 */
const restartChecks = triggerSlot<{ check?: 'owed' | 'made' }>('restart check', () => ({}), {
	keptAcrossActivations: true,
});

/** Notes how n8n activated a trigger's watch: the first activation in a process decides. */
export function noteActivation(scope: string, mode: string): void {
	const restart = restartChecks.of(scope);
	restart.check ??= mode === 'activate' ? 'made' : 'owed';
	if (restart.check === 'owed') expectKnowledge(scope);
}

/** Whether the restart check of the trigger `scope` is still owed in this process. */
export const restartCheckOwed = (scope: string): boolean =>
	restartChecks.peek(scope)?.check === 'owed';

/**
 * The notifications logged within RECOVERY_WINDOW_MS, delivered or not, each as a `recovering`
 * item, oldest first. One not yet answered whose run was cut had its answer lost (sent too late,
 * or cut): its next attempt would be taken for a repeat. Their bodies come with the log's pages.
 */
async function handOverLogged(
	context: ITriggerFunctions,
	recent: LoggedNotification[],
	options: ItemOptions,
	add: (id: string, containerId: string | undefined, items: IDataObject[]) => void,
): Promise<void> {
	const oldestFirst = [...recent].sort(
		(a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
	);
	for (const entry of oldestFirst) {
		const body = await bodyFromLog(context, entry);
		const handed = body === undefined ? undefined : caughtUpItems(body, options, 'recovering');
		if (handed && handed.items.length > 0) add(entry.id, handed.containerId, handed.items);
	}
}

/**
 * The restart check of the trigger's webhook(s), given their notifications the first read of the
 * log found (`entries`) and the newest notification the log holds. Whatever the service says of a
 * delivery: one whose answer n8n sent too late (or not at all) after an execution recorded it is
 * still pending or failed there, and its next attempt would be taken for a repeat of a run that
 * was cut.
 */
export async function restartCheck(
	context: ITriggerFunctions,
	entries: LoggedNotification[],
	newest: number,
	options: ItemOptions,
): Promise<void> {
	const scope = triggerScope(context);
	const recent = entries.filter((entry) => entry.createdAt >= newest - RECOVERY_WINDOW_MS);
	const groups = new Map<string, DueNotification[]>();
	let handed = 0;
	try {
		await handOverLogged(context, recent, options, (id, containerId, items) =>
			addToGroup(groups, { id, items }, containerId),
		);
		// A restart check's executions get keys of their own: another restart must run them again.
		handed = startExecutions(
			context,
			groups.values(),
			`container-tracking-restart-${Date.now()}`,
		).notifications;
		restartChecks.of(scope).check = 'made';
	} finally {
		// Nothing handed over, or the read failed (the next round tries again): copies need not
		// wait. Otherwise the execution tells (trigger/recovery/handedOver.ts).
		if (handed === 0) knowledgeCame(scope);
	}
	if (handed > 0)
		context.logger.info(
			`Container tracking: restart check: ${handed} notifications logged in the last ${RECOVERY_WINDOW_MS / 60_000} minutes handed to an execution, which runs again those whose run was cut`,
			{ workflowId: context.getWorkflow().id, node: context.getNode().name },
		);
}

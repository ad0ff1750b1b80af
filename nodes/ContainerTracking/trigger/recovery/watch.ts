import {
	sleep,
	type ICredentialDataDecryptedObject,
	type ITriggerFunctions,
	type ITriggerResponse,
} from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../../transport/request';
import { catchUp, firstReadNewest, type CatchUpSettings } from './catchUp';
import type { LoggedNotification } from './notificationLog';
import { checkCutRuns, cutCheckDueIn } from './cutCheck';
import { repairWebhook, type WebhookState } from '../registration/registration';
import { forgetTrigger, triggerScope } from '../triggerState';

/**
 * The watch: while the workflow is active, n8n runs the trigger's `trigger()` once, on the main
 * process that runs triggers (the leader in queue mode); it checks the webhook now and every
 * `intervalMs` (trigger/registration/registration.ts, `repairWebhook`), then catches up on what the
 * service gave up delivering (trigger/recovery/catchUp.ts). n8n's own activation checks the webhook
 * only when a workflow is published or n8n starts; the service may turn a webhook off at any time
 * after failed deliveries, and a webhook off sends nothing, so no delivery would ever say so.
 */

export interface WatchSettings {
	/** The node's Webhook Registration is "Use a Webhook Created Elsewhere". */
	existing: boolean;
	events: string[];
	intervalMs: number;
	/**
	 * Off: nothing the service failed to deliver is caught up. The webhook is still watched, and
	 * what this package answered is still looked after (the restart check and the cut check):
	 * every delivery is answered before n8n creates its execution.
	 */
	catchUp: boolean;
	catchUpSettings: CatchUpSettings;
}

/**
 * The first check waits this long: n8n registers the webhook (checkExists, create) at the same
 * time as it starts the watch, and a first check without a registration has nothing to watch.
 */
const FIRST_CHECK_AFTER_MS = 2_000;
/** Before n8n's activation stored the webhook's URL, look again this often… */
const REGISTRATION_POLL_MS = 1_000;
/** …for at most this long; then the regular interval. */
const REGISTRATION_WAIT_MS = 60_000;

/**
 * One check and catch-up: what the log says. Returns the webhooks it watched, for the cut checks
 * until the next one.
 */
async function watchOnce(
	context: ITriggerFunctions,
	settings: WatchSettings,
	stopped: () => boolean = () => false,
): Promise<string[]> {
	const state = context.getWorkflowStaticData('node') as WebhookState;
	const repair = await repairWebhook(context, state, settings.existing, settings.events);
	if (repair.problems.length > 0)
		context.logger.warn(
			`Container tracking: the trigger's webhook was repaired: ${repair.problems.join('; ')}`,
			{ workflowId: context.getWorkflow().id, node: context.getNode().name, url: state.webhookUrl },
		);
	if (repair.webhookIds.length === 0 || stopped()) return [];
	const report = await catchUp(
		context,
		repair.webhookIds,
		{ ...settings.catchUpSettings, missed: settings.catchUp },
		stopped,
	);
	if (report.started > 0)
		context.logger.warn(
			`Container tracking: caught up on ${report.started} notifications the service had not delivered`,
			{ workflowId: context.getWorkflow().id, node: context.getNode().name },
		);
	if (!stopped()) await cutCheckOnce(context, settings, repair.webhookIds, report.read);
	return repair.webhookIds;
}

/** The cut check (trigger/recovery/cutCheck.ts), once the process's first read of the log was made. */
async function cutCheckOnce(
	context: ITriggerFunctions,
	settings: WatchSettings,
	webhookIds: string[],
	read?: LoggedNotification[],
): Promise<void> {
	const floor = firstReadNewest(triggerScope(context));
	if (floor === undefined || webhookIds.length === 0) return;
	await checkCutRuns(context, webhookIds, floor, settings.catchUpSettings.items, read);
}

/**
 * The trigger's functions as the watch uses them after activation. n8n 2.x evaluates expressions
 * in an isolate it lends a trigger only while activating it; a check minutes later has none.
 * Its requests then send the credential's header themselves (transport/request.ts,
 * `authenticatedRequest`); reading the credential may need an isolate too, so the one read at
 * activation stands in when it fails. Everything else is the trigger's own, bound to it.
 */
function withoutIsolate(
	context: ITriggerFunctions,
	activationCredentials: ICredentialDataDecryptedObject,
): ITriggerFunctions {
	const credentials = async () => {
		try {
			return await context.getCredentials(CREDENTIAL_NAME);
		} catch {
			return activationCredentials;
		}
	};
	return new Proxy(context, {
		get(target, property) {
			if (property === 'getCredentials') return credentials;
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
		},
	});
}

/**
 * Starts the watch; n8n calls the close function when the workflow is deactivated. Call it
 * during activation: the credential is read then, while n8n lends an isolate.
 */
export async function startWatch(
	trigger: ITriggerFunctions,
	settings: WatchSettings,
): Promise<ITriggerResponse> {
	const context = withoutIsolate(trigger, await trigger.getCredentials(CREDENTIAL_NAME));
	let stopped = false;
	let stop: () => void = () => undefined;
	const stopping = new Promise<void>((resolve) => (stop = resolve));
	const pause = async (ms: number) => await Promise.race([sleep(ms), stopping]);

	const run = async () => {
		await pause(FIRST_CHECK_AFTER_MS);
		const state = context.getWorkflowStaticData('node') as WebhookState;
		for (let waited = 0; !stopped && !state.webhookUrl && waited < REGISTRATION_WAIT_MS; ) {
			await pause(REGISTRATION_POLL_MS);
			waited += REGISTRATION_POLL_MS;
		}
		const scope = triggerScope(context);
		let nextWatch = 0;
		let webhookIds: string[] = [];
		// What the last pause waited for. Decided before the pause, not by the clock after it: a
		// timer may fire a millisecond before Date.now() reaches its end, and a watch check taken
		// for a cut check would read the log twice where once serves.
		let wokeForCutCheck = false;
		while (!stopped) {
			try {
				// Between the watch's checks, the cut check reads the log alone when it is due.
				if (wokeForCutCheck) await cutCheckOnce(context, settings, webhookIds);
				else {
					nextWatch = Date.now() + settings.intervalMs;
					webhookIds = await watchOnce(context, settings, () => stopped);
				}
			} catch (error) {
				// The service may be down: the next check tries again; the workflow stays active.
				const { message, description } = error as { message: string; description?: string };
				context.logger.warn(
					`Container tracking: could not check the webhook or catch up: ${message}${description ? ` (${description})` : ''}`,
					{ workflowId: context.getWorkflow().id, node: context.getNode().name },
				);
			}
			const untilWatch = Math.max(0, nextWatch - Date.now());
			const untilCutCheck = cutCheckDueIn(scope);
			wokeForCutCheck = untilCutCheck < untilWatch;
			await pause(Math.min(untilWatch, untilCutCheck));
		}
	};
	void run();

	return {
		closeFunction: async () => {
			stopped = true;
			stop();
			// Deactivated: what the trigger kept in this process goes (trigger/triggerState.ts).
			forgetTrigger(triggerScope(context));
		},
	};
}

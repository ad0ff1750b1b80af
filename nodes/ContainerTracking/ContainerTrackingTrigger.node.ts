import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type IHookFunctions,
	type ILoadOptionsFunctions,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type ITriggerFunctions,
	type ITriggerResponse,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { alreadyAnswered } from './n8nInternals';
import { subscribableEventOptions } from './transport/webhookEvents';
import { admitDelivery } from './trigger/admission/admission';
import { noteActivation } from './trigger/recovery/restartCheck';
import { joinBatch } from './trigger/batching/deliveryBatches';
import { reportsAnything } from './trigger/items/deliveryItems';
import { OUTPUT_CHANGES, OUTPUT_LATEST_STATE, triggerExecution } from './trigger/execution';
import { carrierItem, type ItemOptions } from './trigger/items/notificationItems';
import {
	awaitKnowledge,
	noteRanHere,
	takeDelivery,
} from './trigger/memory/notificationLedger';
import {
	AUTOMATIC,
	EXISTING,
	createTriggerWebhook,
	deleteTriggerWebhook,
	webhookExists,
} from './trigger/registration/registration';
import { forgetTrigger, triggerScope } from './trigger/triggerState';
import { startWatch } from './trigger/recovery/watch';

interface TriggerOptions {
	batchWindowSeconds?: number;
	expandHoldsAndFees?: boolean;
	fetchContainer?: boolean;
	fields?: string[];
	deduplicate?: boolean;
	raw?: boolean;
	catchUp?: boolean;
	lookBackDays?: number;
	watchMinutes?: number;
}

const MINUTE_MS = 60_000;
/** A notification seen `pending` this long is caught up (the service is retrying it). */
const SETTLE_MS = 2 * MINUTE_MS;

function itemOptions(options: TriggerOptions): ItemOptions {
	return {
		expandHoldsAndFees: options.expandHoldsAndFees !== false,
		fields: options.fields ?? [],
		raw: options.raw === true,
		fetchContainer: options.fetchContainer === true,
	};
}

/**
 * Seconds within which deliveries start one execution together
 * (trigger/batching/deliveryBatches.ts): by default 1 from node version 1.2; 0 (one execution per
 * delivery) in the versions before it.
 */
function batchWindowMs(context: IWebhookFunctions, options: TriggerOptions): number {
	const fallback = context.getNode().typeVersion >= 1.2 ? 1 : 0;
	const seconds = Number(options.batchWindowSeconds ?? fallback);
	return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 5) * 1000 : 0;
}

function answer(context: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	context.getResponseObject().status(status).json({ message }).end();
	return alreadyAnswered();
}

export class ContainerTrackingTrigger implements INodeType {
	methods = {
		loadOptions: {
			async getSubscribableEvents(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				return await subscribableEventOptions(this);
			},
		},
	};

	description: INodeTypeDescription = {
		displayName: 'Container Tracking Trigger',
		name: 'containerTrackingTrigger',
		icon: {
			light: 'file:../../icons/containerTracking.svg',
			dark: 'file:../../icons/containerTracking.dark.svg',
		},
		group: ['trigger'],
		// The editor's Docs link opens this as it is; the codex link (ContainerTracking*.node.json)
		// gets n8n's query appended, which after a #fragment would keep the anchor from landing.
		documentationUrl:
			'https://github.com/n8n-nodes-container-tracking/n8n-nodes-container-tracking#container-tracking-trigger',
		// 1.1 behaves as 1 does. n8n 2.40.7 evaluates an expression for every request to a webhook
		// node of version 1 exactly (it looks for a binary-data option), which was the largest
		// part of a delivery's time in bench/storm.ts; for 1.1 it does not. 1.2 batches deliveries
		// that arrive together into one execution by default (Batch Window), as the versions before
		// it do only when asked.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle:
			'={{$parameter["registration"] === "existing" ? "existing webhook" : $parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when the container tracking service sends a notification: holds, fees, last free days, vessel and rail events',
		defaults: { name: 'Container Tracking Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'containerTrackingApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					"The service sends its notifications to this workflow's Production URL, so n8n must run at a public address the service can reach, set in n8n's N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x). Activating the workflow (Publish, in n8n 2) fails while that URL is on localhost or a private network and the credential's Base URL is public. The local sandbox, on this machine, reaches n8n on localhost.",
				name: 'reachabilityNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Webhook Registration',
				name: 'registration',
				type: 'options',
				options: [
					{
						name: 'Register Automatically',
						value: AUTOMATIC,
						description:
							'The node creates its webhook with the service when the workflow is activated (published, in n8n 2), and deletes it when deactivated',
					},
					{
						name: 'Use a Webhook Created Elsewhere',
						value: EXISTING,
						description:
							"Paste the secret of a webhook you created yourself with this node's URL; nothing is registered",
					},
				],
				default: AUTOMATIC,
			},
			{
				displayName: 'Event Names or IDs',
				name: 'events',
				type: 'multiOptions',
				// The events this account may subscribe to (GET /webhooks/events), else all.
				typeOptions: { loadOptionsMethod: 'getSubscribableEvents' },
				default: ['container.updated'],
				required: true,
				description:
					'The notifications to subscribe to: those the account may subscribe to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: { show: { registration: [AUTOMATIC] } },
			},
			{
				displayName: 'Webhook Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				required: true,
				description:
					'The secret the service returned when the webhook was created; every delivery is checked against it',
				displayOptions: { show: { registration: [EXISTING] } },
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'One Item per Change',
						value: OUTPUT_CHANGES,
						description:
							'Each change of a container.updated (and each hold or fee that changed) is an item, and every other notification one item; each item carries the container as the delivery says it is',
					},
					{
						name: 'Latest State per Container',
						value: OUTPUT_LATEST_STATE,
						description:
							'One item per container of the execution, shaped as Container → Get gives it (readiness, last free day, holds, fees), with the changes and notification IDs beside it: for a board, a sheet or a database row, which then takes one write per container, not one per change',
					},
				],
				default: OUTPUT_CHANGES,
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description:
					"Whether to give each container's main fields, as Container → Get with Simplify on, instead of the whole container, as Get with Simplify off (what Get Charges takes as its input item without a call of its own)",
				displayOptions: { show: { output: [OUTPUT_LATEST_STATE] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Batch Window (Seconds)',
						name: 'batchWindowSeconds',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 5, numberPrecision: 2 },
						default: 1,
						description:
							"Deliveries that arrive within this many seconds of the workflow's previous start start it once, together (each item still names its notification); the first after a quiet spell starts it at once. A busy account's bursts then cost a few executions, not hundreds. 0 starts the workflow once per delivery (the default before node version 1.2).",
					},
					{
						displayName: 'Catch Up Missed Notifications',
						name: 'catchUp',
						type: 'boolean',
						default: true,
						description:
							"Whether to start the workflow for notifications the service could not deliver (n8n was down or unreachable longer than the service retries), read from the service's notification log; their items carry caught_up: true",
					},
					{
						displayName: 'Catch-Up Look-Back (Days)',
						name: 'lookBackDays',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 2 },
						default: 7,
						description:
							'How far back the first catch-up after n8n starts reads the notification log',
					},
					{
						displayName: 'Check Webhook Every (Minutes)',
						name: 'watchMinutes',
						type: 'number',
						typeOptions: { minValue: 0.05, numberPrecision: 2 },
						default: 5,
						description:
							'How often the node checks, while the workflow is active, that its webhook still exists and is on (the service turns a webhook off after repeated failed deliveries), and catches up. In queue mode it also looks, every minute while deliveries come, for runs cut on a worker that died.',
					},
					{
						displayName: 'Expand Holds and Fees',
						name: 'expandHoldsAndFees',
						type: 'boolean',
						default: true,
						description:
							'Whether to output one item per hold or fee that changed (placed, pending, activated, cleared; added, removed, amount changed; a hold with what it means and who clears it) instead of one item holding both whole arrays',
					},
					{
						displayName: 'Fetch Container When Missing',
						name: 'fetchContainer',
						type: 'boolean',
						default: false,
						description:
							'Whether to look the container up in the service when a delivery carries only its reference object (e.g. container.transport.available), so that the item still names the container and carries its state. Done in the execution, one scan of the containers for all deliveries that arrive together. With Output Latest State per Container, every container is read as it is after its notifications came, so that a view written from the items ends on the newest state whatever order they come in.',
					},
					{
						displayName: 'Ignore Repeated Deliveries',
						name: 'deduplicate',
						type: 'boolean',
						default: true,
						description:
							'Whether to answer a notification that was already received (the service retries) without starting the workflow again',
					},
					{
						displayName: 'Only These Fields',
						name: 'fields',
						type: 'multiOptions',
						options: [
							{ name: 'Available for Pickup', value: 'available_for_pickup' },
							{ name: 'Estimated Arrival at Port', value: 'pod_eta_at' },
							{ name: 'Estimated Inland Arrival', value: 'ind_eta_at' },
							{ name: 'Fees', value: 'fees_at_pod_terminal' },
							{ name: 'Holds', value: 'holds_at_pod_terminal' },
							{ name: 'Last Free Day', value: 'pickup_lfd' },
							{ name: 'Location at Terminal', value: 'location_at_pod_terminal' },
							{ name: 'Pickup Appointment', value: 'pickup_appointment_at' },
							{ name: 'Port Terminal', value: 'pod_terminal' },
						],
						default: [],
						description:
							'For container.updated: only changes of these attributes start the workflow (all when empty); a delivery with none of them starts nothing',
					},
					{
						displayName: 'Output Raw Notification',
						name: 'raw',
						type: 'boolean',
						default: false,
						description:
							'Whether to output the notification exactly as the service sent it, one item per delivery',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await webhookExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createTriggerWebhook.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				try {
					return await deleteTriggerWebhook.call(this);
				} finally {
					// Deactivated: what the trigger kept in this process goes, secrets included.
					forgetTrigger(triggerScope(this));
				}
			},
		},
	};

	/**
	 * The watch (trigger/recovery/watch.ts): checks and repairs the webhook while the workflow is
	 * active and catches up on notifications the service gave up delivering. A delivery never comes
	 * here: an execution runs `execute`, which n8n prefers to `trigger`, so a manual test listens
	 * for a delivery as before.
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		if (this.getMode() === 'manual') return {};
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const intervalMs = Math.max(0.05, Number(options.watchMinutes ?? 5)) * MINUTE_MS;
		noteActivation(triggerScope(this), this.getActivationMode());
		return await startWatch(this, {
			existing: this.getNodeParameter('registration', AUTOMATIC) === EXISTING,
			events: this.getNodeParameter('events', []) as string[],
			intervalMs,
			catchUp: options.catchUp !== false,
			catchUpSettings: {
				lookBackMs: Math.max(0, Number(options.lookBackDays ?? 7)) * 24 * 60 * MINUTE_MS,
				settleMs: SETTLE_MS,
				// A pending notification is seen on one check, and caught up on the first check at
				// least SETTLE_MS later: it must still be in the log read then.
				windowMs: SETTLE_MS + 2 * intervalMs + 5 * MINUTE_MS,
				items: itemOptions(options),
				deduplicate: options.deduplicate !== false,
				// Runs a kill or a stop cut are looked for once per process, unless a person turned
				// the workflow on (trigger/recovery/restartCheck.ts `noteActivation`,
				// trigger/memory/runJournal.ts).
				recoverCutRuns: true,
			},
		});
	}

	/**
	 * Runs in the execution a delivery (or a batch, or the catch-up) started, with the items
	 * `webhook` returned: trigger/execution.ts.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const options = this.getNodeParameter('options', 0, {}) as TriggerOptions;
		return await triggerExecution(this, {
			...itemOptions(options),
			deduplicate: options.deduplicate !== false,
		});
	}

	/**
	 * One delivery: verified and identified (trigger/admission/admission.ts), answered at once,
	 * then handed to n8n with the deliveries that arrive with it
	 * (trigger/batching/deliveryBatches.ts). The answer never waits for n8n to create or run an
	 * execution: a notification answered whose execution n8n then never ran (it died, or could not
	 * create it) is found in the service's log and run by the watch (trigger/recovery/cutCheck.ts,
	 * and at a restart trigger/recovery/restartCheck.ts).
	 */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const scope = triggerScope(this);
		const existing = this.getNodeParameter('registration', AUTOMATIC) === EXISTING;
		const admission = await admitDelivery(this, scope, existing);
		if (!admission.admitted) return answer(this, admission.status, admission.message);
		const { notificationId, notification, body } = admission;

		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const manual = this.getMode() === 'manual';
		const deduplicate = options.deduplicate !== false;
		const taking = deduplicate ? takeDelivery(scope, notificationId, manual) : 'new';
		if (taking === 'repeat') return { webhookResponse: { message: 'Already received' } };
		if (!reportsAnything(notification, itemOptions(options))) {
			// Nothing to run: the cut check (trigger/recovery/cutCheck.ts) need not look for its
			// run.
			noteRanHere(scope, [notificationId]);
			return { webhookResponse: { message: 'Nothing to report' } };
		}
		const items = [carrierItem(body)];
		// A test event runs at once, and n8n answers it once the editor's execution exists.
		if (manual) return { workflowData: [this.helpers.returnJsonArray(items)] };

		answer(this, 200, 'Received');
		// n8n started lately and the restart check has not yet told which notifications ran: a copy
		// of one would start an execution that stops empty. It waits for that (answered already:
		// one n8n dies meanwhile is found in the log, trigger/recovery/restartCheck.ts).
		if (taking === 'unknown yet') {
			await awaitKnowledge(scope);
			if (takeDelivery(scope, notificationId) === 'repeat') return alreadyAnswered();
		}
		const part = await joinBatch(scope, { notificationId, items }, batchWindowMs(this, options));
		if (part.role === 'follower') return alreadyAnswered();
		const batched = part.deliveries.flatMap((delivery) => delivery.items);
		return alreadyAnswered([this.helpers.returnJsonArray(batched)]);
	}
}

import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { EVENT_NAMES } from './logic/eventNames';
import {
	deliveryCore,
	documentWarnings,
	membersOf,
	singleDocumentCore,
	webhookDocument,
	webhookNotificationEnvelope,
	type DocumentWarnings,
} from './schemas';
import { CREDENTIAL_NAME, containerTrackingRequest, readAnswer } from './transport/request';
import { relatedIdentifiers } from './transport/jsonApi';
import { fetchAllPages } from './transport/pagination';
import {
	createWebhook,
	listWebhooks,
	webhookAttributes,
	webhookBody,
	type WebhookRecord,
} from './transport/webhooks';
import { deliveryItems, type Notification } from './trigger/deliveryItems';
import { remember, wasSeen } from './trigger/recentDeliveries';
import { isValidSignature } from './trigger/signature';

const AUTOMATIC = 'automatic';
const EXISTING = 'existing';

interface TriggerOptions {
	expandHoldsAndFees?: boolean;
	fetchContainer?: boolean;
	fields?: string[];
	deduplicate?: boolean;
	raw?: boolean;
}

function sameEvents(a: unknown, b: string[]): boolean {
	return Array.isArray(a) && a.length === b.length && b.every((event) => a.includes(event));
}

/** The service's answers during registration may differ from the interface: say so in the log. */
function logWarnings(context: IHookFunctions, what: string, warnings: DocumentWarnings): void {
	if (warnings.all.length > 0)
		context.logger.warn(`Container tracking: unexpected parts in the answer to ${what}`, {
			warnings: warnings.all,
		});
}

/** Subscribes an adopted or stored webhook to exactly the node's events, and turns it on. */
async function syncEvents(
	context: IHookFunctions,
	webhook: WebhookRecord,
	events: string[],
): Promise<void> {
	const attributes = webhookAttributes(webhook);
	if (sameEvents(attributes.events, events) && attributes.active !== false) return;
	await containerTrackingRequest.call(
		context,
		'PATCH',
		`/webhooks/${encodeURIComponent(webhook.id)}`,
		{ body: webhookBody({ events, active: true }) },
	);
}

/** A BOM before the JSON is not part of it: n8n's Webhook node reads such bodies too. */
function parseJsonBody(rawBody: Buffer): unknown {
	const text = rawBody.toString('utf8');
	return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/**
 * Deliveries of some events carry only their reference object (service notes): the container
 * is found by the transport event it lists, so that the item can still name it.
 */
async function addMissingContainers(this: IWebhookFunctions, items: IDataObject[]): Promise<void> {
	const missing = items.filter(
		(item) => !item.container_number && item.reference_type === 'transport_event',
	);
	if (missing.length === 0) return;
	const referenceId = String(missing[0].reference_id);
	const pages = await fetchAllPages.call(this, '/containers', {});
	const container = pages.records.find((record) =>
		relatedIdentifiers(record, 'transport_events').some((event) => event.id === referenceId),
	);
	for (const item of missing) {
		const attributes = membersOf(container?.attributes);
		item.container_id = container?.id ?? null;
		item.container_number = typeof attributes.number === 'string' ? attributes.number : null;
		// The record's own id first, and never hidden by an attribute called `id`.
		if (container)
			item.container = Object.assign({ id: container.id }, attributes, { id: container.id });
	}
}

function answer(context: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	context.getResponseObject().status(status).json({ message }).end();
	return { noWebhookResponse: true };
}

export class ContainerTrackingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Container Tracking Trigger',
		name: 'containerTrackingTrigger',
		icon: {
			light: 'file:../../icons/containerTracking.svg',
			dark: 'file:../../icons/containerTracking.dark.svg',
		},
		group: ['trigger'],
		version: 1,
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
				displayName: 'Webhook Registration',
				name: 'registration',
				type: 'options',
				options: [
					{
						name: 'Register Automatically',
						value: AUTOMATIC,
						description:
							'The node creates its webhook with the service when the workflow is published, and deletes it when unpublished',
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
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: EVENT_NAMES.map((name) => ({ name, value: name })),
				default: ['container.updated'],
				required: true,
				description: 'The notifications to subscribe to',
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
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Expand Holds and Fees',
						name: 'expandHoldsAndFees',
						type: 'boolean',
						default: true,
						description:
							'Whether to output one item per hold or fee that changed (placed, pending, activated, cleared; added, removed, amount changed) instead of one item holding both whole arrays',
					},
					{
						displayName: 'Fetch Container When Missing',
						name: 'fetchContainer',
						type: 'boolean',
						default: false,
						description:
							'Whether to look the container up in the service when a delivery carries only its reference object (e.g. container.transport.available), so that the item still names the container',
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
			/**
			 * True when this node's webhook is registered with the service. A webhook found by its
			 * URL (static data lost, or the workflow published again) is adopted, not duplicated.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (this.getNodeParameter('registration', AUTOMATIC) === EXISTING) return true;
				const staticData = this.getWorkflowStaticData('node');
				const url = this.getNodeWebhookUrl('default') as string;
				const events = this.getNodeParameter('events', []) as string[];
				if (staticData.webhookId && staticData.webhookSecret) {
					const response = await containerTrackingRequest.call(
						this,
						'GET',
						`/webhooks/${encodeURIComponent(String(staticData.webhookId))}`,
						{ acceptStatuses: [404] },
					);
					if (response.status !== 404) {
						const { document, warnings } = readAnswer(
							this,
							singleDocumentCore,
							webhookDocument,
							response.body,
							'reading the webhook',
						);
						logWarnings(this, 'reading the webhook', warnings);
						const webhook = document.data as WebhookRecord;
						if (webhookAttributes(webhook).url === url) {
							await syncEvents(this, webhook, events);
							return true;
						}
					}
					delete staticData.webhookId;
					delete staticData.webhookSecret;
				}
				const { records, warnings } = await listWebhooks.call(this);
				logWarnings(this, 'listing webhooks', warnings);
				const mine = records.find((webhook) => webhookAttributes(webhook).url === url);
				const secret = webhookAttributes(mine).secret;
				if (!mine || typeof secret !== 'string' || secret === '') return false;
				staticData.webhookId = mine.id;
				staticData.webhookSecret = secret;
				await syncEvents(this, mine, events);
				return true;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				if (this.getNodeParameter('registration', AUTOMATIC) === EXISTING) return true;
				const url = this.getNodeWebhookUrl('default') as string;
				const events = this.getNodeParameter('events', []) as string[];
				if (events.length === 0) {
					throw new NodeOperationError(this.getNode(), 'Choose at least one event to subscribe to');
				}
				const { response, adopted } = await createWebhook.call(this, { url, events, active: true });
				const { document, warnings } = readAnswer(
					this,
					singleDocumentCore,
					webhookDocument,
					response.body,
					'creating the webhook',
				);
				logWarnings(this, 'creating the webhook', warnings);
				const webhook = document.data as WebhookRecord;
				const secret = webhookAttributes(webhook).secret;
				if (typeof secret !== 'string' || secret === '') {
					throw new NodeOperationError(
						this.getNode(),
						'The service created the webhook without a secret',
						{
							description: 'Deliveries could not be verified; the webhook was not used.',
						},
					);
				}
				// A webhook the lost first attempt created is taken as it is: bring its events in line.
				if (adopted) await syncEvents(this, webhook, events);
				const staticData = this.getWorkflowStaticData('node');
				staticData.webhookId = webhook.id;
				staticData.webhookSecret = secret;
				return true;
			},

			/** Removes the webhook; one already gone is not an error. */
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				if (this.getNodeParameter('registration', AUTOMATIC) === EXISTING || !staticData.webhookId)
					return true;
				const response = await containerTrackingRequest.call(
					this,
					'DELETE',
					`/webhooks/${encodeURIComponent(String(staticData.webhookId))}`,
					{ acceptStatuses: [404] },
				);
				this.logger.debug('Container tracking webhook removed', {
					webhookId: staticData.webhookId,
					status: response.status,
				});
				delete staticData.webhookId;
				delete staticData.webhookSecret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const credentials = await this.getCredentials(CREDENTIAL_NAME);
		const headerName = String(
			credentials.signatureHeader || 'X-SVC-Webhook-Signature',
		).toLowerCase();
		const staticData = this.getWorkflowStaticData('node');
		const secret =
			this.getNodeParameter('registration', AUTOMATIC) === EXISTING
				? String(this.getNodeParameter('secret', '') ?? '')
				: (staticData.webhookSecret as string | undefined);
		const rawBody = request.rawBody as Buffer | undefined;

		if (!isValidSignature(rawBody, secret || undefined, request.headers[headerName])) {
			return answer(this, 401, 'Invalid or missing signature');
		}

		// Refused only what cannot be identified: not JSON, or no notification id or event name.
		// Everything else starts the workflow; what does not match the interface is a warning.
		let body: unknown;
		try {
			body = parseJsonBody(rawBody!);
		} catch {
			return answer(this, 400, 'The body is not JSON');
		}
		if (!deliveryCore.safeParse(body).success) {
			return answer(this, 400, 'The body is not a notification: it has no data.id or no event');
		}
		const notification = body as Notification;
		const notificationId = String(notification.data.id);

		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const scope = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		const deduplicate = options.deduplicate !== false;
		if (deduplicate && wasSeen(staticData, scope, notificationId)) {
			return { webhookResponse: { message: 'Already received' } };
		}

		const items = deliveryItems(
			notification,
			{
				expandHoldsAndFees: options.expandHoldsAndFees !== false,
				fields: options.fields ?? [],
				raw: options.raw === true,
			},
			options.raw ? [] : documentWarnings(webhookNotificationEnvelope, body).all,
		);
		if (items.length > 0 && options.fetchContainer && !options.raw)
			await addMissingContainers.call(this, items);
		// Remembered only once the items are ready: when the container lookup fails, n8n answers 500
		// and the service retries, and that retry must still start the workflow.
		if (deduplicate) remember(staticData, scope, notificationId);
		if (items.length === 0) return { webhookResponse: { message: 'Nothing to report' } };
		return { workflowData: [this.helpers.returnJsonArray(items as IDataObject[])] };
	}
}

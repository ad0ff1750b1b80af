import { NodeOperationError, type IHookFunctions } from 'n8n-workflow';

import { singleDocumentCore, webhookDocument, type DocumentWarnings } from '../schemas';
import { containerTrackingRequest, readAnswer } from '../transport/request';
import {
	createWebhook,
	listWebhooks,
	webhookAttributes,
	webhookBody,
	type WebhookRecord,
} from '../transport/webhooks';

/**
 * The trigger's webhook with the service, as n8n (de)activates a workflow: `checkExists`, then
 * `create` when it answered false; `delete` on deactivation. The webhook's id and secret live in
 * the node's static data (saved with the workflow on activation).
 */

export const AUTOMATIC = 'automatic';
export const EXISTING = 'existing';

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
async function syncWebhook(
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

/** A webhook from an answer; what differs from the interface is logged, not refused. */
function webhookFrom(context: IHookFunctions, body: unknown, what: string): WebhookRecord {
	const { document, warnings } = readAnswer(
		context,
		singleDocumentCore,
		webhookDocument,
		body,
		what,
	);
	logWarnings(context, what, warnings);
	return document.data as WebhookRecord;
}

/**
 * True when this node's webhook is registered with the service. A webhook found by its
 * URL (static data lost, or the workflow published again) is adopted, not duplicated.
 */
export async function webhookExists(this: IHookFunctions): Promise<boolean> {
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
			const webhook = webhookFrom(this, response.body, 'reading the webhook');
			if (webhookAttributes(webhook).url === url) {
				await syncWebhook(this, webhook, events);
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
	await syncWebhook(this, mine, events);
	return true;
}

/** Registers the webhook; a webhook the lost first attempt created is adopted. */
export async function createTriggerWebhook(this: IHookFunctions): Promise<boolean> {
	if (this.getNodeParameter('registration', AUTOMATIC) === EXISTING) return true;
	const url = this.getNodeWebhookUrl('default') as string;
	const events = this.getNodeParameter('events', []) as string[];
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one event to subscribe to');
	}
	const { response, adopted } = await createWebhook.call(this, { url, events, active: true });
	const webhook = webhookFrom(this, response.body, 'creating the webhook');
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
	if (adopted) await syncWebhook(this, webhook, events);
	const staticData = this.getWorkflowStaticData('node');
	staticData.webhookId = webhook.id;
	staticData.webhookSecret = secret;
	return true;
}

/** Removes the webhook; one already gone is not an error. */
export async function deleteTriggerWebhook(this: IHookFunctions): Promise<boolean> {
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
}

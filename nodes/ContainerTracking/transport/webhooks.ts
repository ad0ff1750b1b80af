import type { IDataObject } from 'n8n-workflow';

import {
	membersOf,
	webhookListDocument,
	type JsonApiResource,
	type WebhookAttributes,
} from '../schemas';
import type { DocumentWarnings } from '../schemas/warnings';
import { fetchList } from './pagination';
import {
	containerTrackingRequest,
	type ContainerTrackingContext,
	type ServiceResponse,
} from './request';

/*
 * Webhook calls the node's Webhook operations and the trigger's registration share.
 */

/**
 * What a webhook is asked to be: any subset of its attributes (PATCH takes a subset), the event
 * names as a plain list.
 */
export type WebhookSettings = Partial<Pick<WebhookAttributes, 'url' | 'active'>> & {
	events?: string[];
	/** Sent with every delivery; null clears them. */
	headers?: Array<{ name: string; value: string }> | null;
};

/** A webhook record as read from the service. */
export type WebhookRecord = JsonApiResource;

/** The body of `POST /webhooks` and `PATCH /webhooks/{id}`: the service wraps writes in `data`. */
export function webhookBody(settings: WebhookSettings): IDataObject {
	return { data: { type: 'webhook', attributes: { ...settings } } };
}

/** A webhook's attributes, or none when the record carries none. */
export function webhookAttributes(webhook: WebhookRecord | undefined): IDataObject {
	return membersOf(webhook?.attributes) as IDataObject;
}

/** Every webhook of the account: all pages, since an account may have more than one page holds. */
export async function listWebhooks(
	this: ContainerTrackingContext,
	itemIndex?: number,
): Promise<{ records: WebhookRecord[]; warnings: DocumentWarnings }> {
	const { records, warnings } = await fetchList.call(
		this,
		'/webhooks',
		webhookListDocument,
		'listing webhooks',
		{ itemIndex },
	);
	return { records: records as WebhookRecord[], warnings };
}

async function webhooksFor(
	context: ContainerTrackingContext,
	url: string,
	itemIndex?: number,
): Promise<WebhookRecord[]> {
	const { records } = await listWebhooks.call(context, itemIndex);
	return records.filter((webhook) => webhookAttributes(webhook).url === url);
}

/**
 * Creates a webhook. Its answer can be lost (a 5xx or a dropped connection after the service
 * created it), and a blind repeat would create a second webhook with a second secret. So the
 * account's webhooks for this URL are read first; before any repeat they are read again, and one
 * that was not there before is the one the lost attempt created: it is returned (`adopted`)
 * instead of creating another.
 */
export async function createWebhook(
	this: ContainerTrackingContext,
	settings: WebhookSettings & { url: string },
	itemIndex?: number,
): Promise<{ response: ServiceResponse; adopted: boolean }> {
	const existing = new Set(
		(await webhooksFor(this, settings.url, itemIndex)).map((webhook) => webhook.id),
	);
	let adopted = false;
	const response = await containerTrackingRequest.call(this, 'POST', '/webhooks', {
		body: webhookBody(settings),
		itemIndex,
		repeat: async () => {
			const created = (await webhooksFor(this, settings.url, itemIndex)).find(
				(webhook) => !existing.has(webhook.id),
			);
			if (!created) return undefined;
			adopted = true;
			return { status: 200, body: { data: created as unknown as IDataObject }, repeatedAfter: [] };
		},
	});
	return { response, adopted };
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { webhookDocument } from '../../schemas';
import { requestRecord } from '../../transport/record';
import { optionsCollection, withWarnings } from '../common';
import { locatedId, webhookLocator } from '../locators';
import { includeSecretOption, webhookItem } from './item';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a webhook',
	description: 'Read a webhook: its URL, events and whether it is active',
};

export const toolDescription =
	'Use this when someone asks about one webhook of the account: its URL, events and whether it is active. Returns the webhook.';

export const description: INodeProperties[] = [
	webhookLocator('get'),
	optionsCollection('webhook', 'get', [includeSecretOption]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = locatedId(this, 'webhookId', 'Webhook', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as { includeSecret?: boolean };
	const { record, included, warnings } = await requestRecord.call(
		this,
		'GET',
		`/webhooks/${encodeURIComponent(id)}`,
		webhookDocument,
		'getting a webhook',
		{ itemIndex },
	);
	const webhook = webhookItem(record, included, options.includeSecret === true);
	return [{ json: withWarnings(webhook, warnings), pairedItem: { item: itemIndex } }];
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { webhookListDocument } from '../../schemas';
import { fetchList } from '../../transport/pagination';
import { itemsFrom, limitOf, optionsCollection, returnAllAndLimit } from '../common';
import { includeSecretOption, webhookItem } from './item';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many webhooks',
	description: 'List the webhooks of the account',
};

export const toolDescription =
	'Use this when someone asks which webhooks the account has. Returns the webhooks with their URLs, events and whether each is active.';

export const description: INodeProperties[] = [
	...returnAllAndLimit('webhook', 'getMany'),
	optionsCollection('webhook', 'getMany', [includeSecretOption]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as { includeSecret?: boolean };
	const { records, included, warnings } = await fetchList.call(
		this,
		'/webhooks',
		webhookListDocument,
		'listing webhooks',
		{
			limit: limitOf(this, itemIndex),
			itemIndex,
		},
	);
	return itemsFrom(
		records.map((webhook) => webhookItem(webhook, included, options.includeSecret === true)),
		itemIndex,
		warnings,
	);
}

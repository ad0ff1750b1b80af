import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { webhookListDocument } from '../../schemas';
import { flattenResource, type ResourceLike } from '../../transport/jsonApi';
import { fetchList } from '../../transport/pagination';
import { itemsFrom, limitOf, returnAllAndLimit } from '../common';

export const description: INodeProperties[] = [...returnAllAndLimit('webhook', 'getMany')];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
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
		records.map((webhook) => flattenResource(webhook as ResourceLike, included)),
		itemIndex,
		warnings,
	);
}

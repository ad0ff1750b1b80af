import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { webhookListDocument } from '../../schemas';
import { flattenResource, indexIncluded, type ResourceLike } from '../../transport/jsonApi';
import { fetchAllPages } from '../../transport/pagination';
import { parseAnswer } from '../../transport/request';
import { itemsFrom, limitOf, returnAllAndLimit } from '../common';

export const description: INodeProperties[] = [...returnAllAndLimit('webhook', 'getMany')];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const pages = await fetchAllPages.call(this, '/webhooks', { limit: limitOf(this, itemIndex), itemIndex });
	const document = parseAnswer(this, webhookListDocument, { data: pages.records }, 'listing webhooks', itemIndex);
	const included = indexIncluded(undefined);
	return itemsFrom(
		document.data.map((webhook) => flattenResource(webhook as ResourceLike, included)),
		itemIndex,
	);
}

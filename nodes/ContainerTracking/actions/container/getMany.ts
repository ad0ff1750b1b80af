import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { containerListDocument } from '../../schemas';
import { indexIncluded, type ResourceLike } from '../../transport/jsonApi';
import { fetchAllPages } from '../../transport/pagination';
import { parseAnswer } from '../../transport/request';
import { itemsFrom, limitOf, returnAllAndLimit, showFor } from '../common';
import { CONTAINER_INCLUDES } from './get';
import { containerItem } from './summary';

export const description: INodeProperties[] = [
	...returnAllAndLimit('container', 'getMany'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor('container', 'getMany'),
		options: [
			{
				displayName: 'Include Related Records',
				name: 'include',
				type: 'multiOptions',
				options: CONTAINER_INCLUDES.filter((include) => include.value !== 'transport_events'),
				default: [],
				description: 'Related records to fetch with the containers and put on each item',
			},
		],
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as { include?: string[] };
	const include = options.include ?? [];
	const pages = await fetchAllPages.call(this, '/containers', {
		qs: include.length > 0 ? { include: include.join(',') } : {},
		limit: limitOf(this, itemIndex),
		itemIndex,
	});
	const document = parseAnswer(
		this,
		containerListDocument,
		{ data: pages.records, included: pages.included },
		'listing containers',
		itemIndex,
	);
	const included = indexIncluded(document.included);
	const now = new Date();
	return itemsFrom(
		document.data.map((container) => containerItem(container as ResourceLike, included, now)),
		itemIndex,
	);
}

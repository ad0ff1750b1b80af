import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { containerListDocument } from '../../schemas';
import { fetchList } from '../../transport/pagination';
import { itemsFrom, limitOf, optionsCollection, returnAllAndLimit } from '../common';
import { simplifyContainer, simplifyField, wantsSimplified } from '../simplify';
import { CONTAINER_INCLUDES } from './get';
import { containerItem } from './summary';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many containers',
	description:
		'List the containers the account tracks, with pickup readiness, fees and last free day',
};

export const description: INodeProperties[] = [
	...returnAllAndLimit('container', 'getMany'),
	simplifyField('container', ['getMany']),
	optionsCollection('container', 'getMany', [
		{
			displayName: 'Include Related Records',
			name: 'include',
			type: 'multiOptions',
			options: CONTAINER_INCLUDES.filter((include) => include.value !== 'transport_events'),
			default: [],
			description: 'Related records to fetch with the containers and put on each item',
		},
	]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as { include?: string[] };
	const include = options.include ?? [];
	const { records, included, warnings } = await fetchList.call(
		this,
		'/containers',
		containerListDocument,
		'listing containers',
		{
			qs: include.length > 0 ? { include: include.join(',') } : {},
			limit: limitOf(this, itemIndex),
			itemIndex,
		},
	);
	const now = new Date();
	const shape = wantsSimplified(this, itemIndex) ? simplifyContainer : (item: IDataObject) => item;
	return itemsFrom(
		records.map((container) => shape(containerItem(container, included, now))),
		itemIndex,
		warnings,
	);
}

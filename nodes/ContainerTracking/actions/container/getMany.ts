import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { containerListDocument, type JsonApiResource } from '../../schemas';
import { fetchList } from '../../transport/pagination';
import { commaList, itemsFrom, limitOf, optionsCollection, returnAllAndLimit } from '../common';
import { simplifyContainer, simplifyField, wantsSimplified } from '../simplify';
import {
	byLastFreeDay,
	containerFilter,
	filtersField,
	LAST_FREE_DAY_WINDOWS,
	sortOption,
	TERMINAL_INCLUDES,
	type ContainerFilters,
	type SortOrder,
} from './filters';
import { CONTAINER_INCLUDES } from './get';
import { containerItem, readContainerItem } from './summary';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many containers',
	description:
		'List the containers the account tracks, with pickup readiness, fees and last free day, filtered by them',
};

export const toolDescription =
	'Use this when someone asks which containers need attention, such as those on hold, ready for pickup or near their last free day, optionally for one customer by name. Returns one short answer per matching container, earliest last free day first when sorted so.';

export const description: INodeProperties[] = [
	...returnAllAndLimit('container', 'getMany'),
	filtersField(),
	simplifyField('container', ['getMany']),
	optionsCollection('container', 'getMany', [
		{
			displayName: 'Include Related Records',
			name: 'include',
			type: 'multiOptions',
			options: CONTAINER_INCLUDES.filter((include) => include.value !== 'transport_events'),
			default: [],
			description:
				'Related records to fetch with the containers and put on each item. The shipment is always included: it names the customer, references and tags.',
		},
		sortOption,
	]),
];

/** The filters as set, checked: a value that cannot work is an error naming the item and field. */
function filtersOf(context: IExecuteFunctions, itemIndex: number): ContainerFilters {
	const filters = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const fail = (field: string, problem: string) =>
		new NodeOperationError(context.getNode(), `The filter "${field}" ${problem}`, {
			itemIndex,
			description: `Check the filter "${field}" of item ${itemIndex}, or remove it.`,
		});
	const checked = { ...filters } as ContainerFilters & IDataObject;
	if (filters.lastFreeDayDays !== undefined) {
		const days = Number(filters.lastFreeDayDays);
		if (filters.lastFreeDayDays === '' || !Number.isInteger(days) || days < 0)
			throw fail(
				'Last Free Day Within (Days)',
				`is "${String(filters.lastFreeDayDays)}": it takes a whole number of days, 0 or more`,
			);
		checked.lastFreeDayDays = days;
	}
	if (
		filters.lastFreeDay !== undefined &&
		!(LAST_FREE_DAY_WINDOWS as readonly unknown[]).includes(filters.lastFreeDay)
	)
		throw fail(
			'Last Free Day',
			`is "${String(filters.lastFreeDay)}": it takes one of ${LAST_FREE_DAY_WINDOWS.join(', ')}`,
		);
	for (const [name, field] of [
		['pickupStatuses', 'Pickup Status'],
		['currentStatuses', 'Current Status Is'],
		['excludedCurrentStatuses', 'Current Status Is Not'],
		['tags', 'Tags'],
	] as const) {
		const value = filters[name];
		// An expression may give one value or a comma-separated list rather than a list.
		if (typeof value === 'string') checked[name] = commaList(value);
		else if (value !== undefined && !Array.isArray(value))
			throw fail(field, `is ${JSON.stringify(value)}: it takes a list of values`);
	}
	return checked;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		include?: string[];
		sort?: SortOrder;
	};
	const filters = filtersOf(this, itemIndex);
	const include = [
		...new Set([
			// The shipment says whose box it is (customer, references, tags): one include per page.
			'shipment',
			...(options.include ?? []),
			...(filters.terminal?.trim() ? TERMINAL_INCLUDES : []),
		]),
	];
	const limit = limitOf(this, itemIndex);
	const sorted = options.sort === 'lastFreeDay';
	// Every page is asked at this moment or later: the items' `container_as_of`.
	const askedAt = new Date();
	const keeps = containerFilter(filters);
	const { records, included, warnings } = await fetchList.call(
		this,
		'/containers',
		containerListDocument,
		'listing containers',
		{
			qs: include.length > 0 ? { include: include.join(',') } : {},
			// Sorted, the first `limit` are known only once every page is read.
			limit: sorted ? undefined : limit,
			itemIndex,
			// The records are not read against the schema yet: containerItem reads any shape.
			keep: (record, pageIncluded) =>
				keeps(containerItem(record as JsonApiResource, pageIncluded, askedAt)),
		},
	);
	const shape = wantsSimplified(this, itemIndex) ? simplifyContainer : (item: IDataObject) => item;
	const answeredAt = new Date();
	const items = itemsFrom(
		records.map((container) =>
			shape(readContainerItem(container, included, { askedAt, answeredAt })),
		),
		itemIndex,
		warnings,
	);
	return sorted ? byLastFreeDay(items).slice(0, limit) : items;
}

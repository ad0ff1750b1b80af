import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { EVENT_OPTIONS, withEventLabel } from '../../logic/eventNames';
import { transportEventListDocument } from '../../schemas';
import { flattenResource, type ResourceLike } from '../../transport/jsonApi';
import { fetchList } from '../../transport/pagination';
import {
	itemsFrom,
	limitOf,
	optionsCollection,
	requiredText,
	returnAllAndLimit,
	withWarnings,
} from '../common';
import { containerIdField } from './get';

/** The past events the service lists for a container: estimates come from Get Raw Events. */
const TRANSPORT_EVENT_OPTIONS = EVENT_OPTIONS.filter(
	({ value }) =>
		(String(value).startsWith('container.transport.') ||
			String(value).startsWith('container.pickup')) &&
		!String(value).includes('.estimated.'),
);

export const description: INodeProperties[] = [
	containerIdField('getTransportEvents'),
	...returnAllAndLimit('container', 'getTransportEvents'),
	optionsCollection('container', 'getTransportEvents', [
		{
			displayName: 'Data Sources',
			name: 'dataSources',
			type: 'multiOptions',
			options: [
				{ name: 'AIS (Vessel Positions)', value: 'ais' },
				{ name: 'Shipping Line', value: 'shipping_line' },
				{ name: 'Terminal', value: 'terminal' },
			],
			default: [],
			description: 'Only events from these sources (all when empty)',
		},
		{
			displayName: 'Event Names',
			name: 'eventNames',
			type: 'multiOptions',
			options: TRANSPORT_EVENT_OPTIONS,
			default: [],
			description: 'Only events with these names (all when empty)',
		},
		{
			displayName: 'Include Related Records',
			name: 'include',
			type: 'multiOptions',
			options: [
				{ name: 'Container', value: 'container' },
				{ name: 'Location', value: 'location' },
				{ name: 'Shipment', value: 'shipment' },
				{ name: 'Terminal', value: 'terminal' },
				{ name: 'Vessel', value: 'vessel' },
			],
			default: ['location', 'terminal', 'vessel'],
			description: 'Related records to fetch with the events and put on each item',
		},
		{
			displayName: 'Sort by Timestamp',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'As the Service Returns Them', value: 'none' },
				{ name: 'Oldest First', value: 'asc' },
				{ name: 'Newest First', value: 'desc' },
			],
			default: 'asc',
			description:
				'The service returns events in no particular order; events without a timestamp come last',
		},
	]),
];

/** Ascending or descending by `timestamp`; null timestamps always last, ties by `created_at`. */
export function sortByTimestamp(events: IDataObject[], direction: 'asc' | 'desc'): IDataObject[] {
	const sign = direction === 'asc' ? 1 : -1;
	const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : NaN);
	return [...events].sort((a, b) => {
		const left = time(a.timestamp);
		const right = time(b.timestamp);
		if (Number.isNaN(left) !== Number.isNaN(right)) return Number.isNaN(left) ? 1 : -1;
		if (!Number.isNaN(left) && left !== right) return sign * (left - right);
		return sign * ((time(a.created_at) || 0) - (time(b.created_at) || 0));
	});
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const containerId = requiredText(this, 'containerId', 'Container ID', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		dataSources?: string[];
		eventNames?: string[];
		include?: string[];
		sort?: 'none' | 'asc' | 'desc';
	};
	const include = options.include ?? ['location', 'terminal', 'vessel'];
	const eventNames = new Set(options.eventNames ?? []);
	const dataSources = new Set(options.dataSources ?? []);
	const sort = options.sort ?? 'asc';
	const limit = limitOf(this, itemIndex);
	// The service cannot filter or sort (interface 4.1): with either, every page is needed.
	const needsAll = eventNames.size > 0 || dataSources.size > 0 || sort !== 'none';
	const { records, included, warnings } = await fetchList.call(
		this,
		`/containers/${encodeURIComponent(containerId)}/transport_events`,
		transportEventListDocument,
		'listing transport events',
		{
			qs: include.length > 0 ? { include: include.join(',') } : {},
			limit: needsAll ? undefined : limit,
			itemIndex,
		},
	);
	let events = records
		.map((event, index) =>
			withWarnings(
				withEventLabel(flattenResource(event as ResourceLike, included)),
				warnings.forRecord(index),
			),
		)
		.filter((event) => eventNames.size === 0 || eventNames.has(String(event.event)))
		.filter((event) => dataSources.size === 0 || dataSources.has(String(event.data_source)));
	if (sort !== 'none') events = sortByTimestamp(events, sort);
	return itemsFrom(limit === undefined ? events : events.slice(0, limit), itemIndex);
}

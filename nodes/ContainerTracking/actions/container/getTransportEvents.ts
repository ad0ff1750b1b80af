import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { EVENT_OPTIONS, withEventLabel } from '../../logic/eventNames';
import {
	containerDocument,
	DATA_SOURCES,
	membersOf,
	transportEventListDocument,
} from '../../schemas';
import { flattenResource, type IncludedIndex } from '../../records/jsonApi';
import type { JsonApiResource } from '../../schemas';
import { fetchList } from '../../transport/pagination';
import { requestRecord } from '../../transport/record';
import {
	itemsFrom,
	limitOf,
	optionsCollection,
	returnAllAndLimit,
	valueOptions,
	withWarnings,
} from '../common';
import { containerLocator, locatedContainer } from '../locators';
import type { OperationOption } from '../operation';

/**
 * The past events the service lists for a container, document events included (docs/service.md,
 * "Transport events"): estimates come from Get Raw Events.
 */
const TRANSPORT_EVENT_OPTIONS = EVENT_OPTIONS.filter(
	({ value }) =>
		['container.transport.', 'container.pickup', 'document.'].some((prefix) =>
			String(value).startsWith(prefix),
		) && !String(value).includes('.estimated.'),
);

export const option: OperationOption = {
	name: 'Get Transport Events',
	action: 'Get transport events of a container',
	description:
		'Past transport events of a container (vessel, rail, terminal), filtered and sorted as you choose',
};

export const toolDescription =
	'Use this when someone asks what happened to a container and when: discharged, loaded on rail, picked up, returned empty, or why it is late. Returns its past transport events (vessel, rail, terminal), oldest first.';

export const description: INodeProperties[] = [
	containerLocator('getTransportEvents'),
	...returnAllAndLimit('container', 'getTransportEvents'),
	optionsCollection('container', 'getTransportEvents', [
		{
			displayName: 'Data Sources',
			name: 'dataSources',
			type: 'multiOptions',
			options: valueOptions(DATA_SOURCES, {
				shipping_line: 'Shipping Line',
				terminal: 'Terminal',
				ais: 'AIS (Vessel Positions)',
			}),
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

function numberIn(record: JsonApiResource | undefined): string | null {
	const number = membersOf(record?.attributes).number;
	return typeof number === 'string' && number !== '' ? number : null;
}

/** The container's number, read with one GET of the container (no related records). */
async function fetchContainerNumber(
	context: IExecuteFunctions,
	containerId: string,
	itemIndex: number,
): Promise<string | null> {
	const { record } = await requestRecord.call(
		context,
		'GET',
		`/containers/${encodeURIComponent(containerId)}`,
		containerDocument,
		'getting the container of the events',
		{ itemIndex },
	);
	return numberIn(record);
}

/** `container_number` right after `container_id` (or last, when there is none). */
function withContainerNumber(event: IDataObject, number: string | null): IDataObject {
	if (!('container_id' in event)) return { ...event, container_number: number };
	const item: IDataObject = {};
	for (const [name, value] of Object.entries(event)) {
		if (name === 'container_number') continue;
		item[name] = value;
		if (name === 'container_id') item.container_number = number;
	}
	return item;
}

/**
 * The number of the container the events belong to, for each item: from the container record
 * when the answer included it, else the number the container was located by, else one GET of
 * the container per call of the operation (never one per event). No call when no event is left.
 */
async function containerNumbers(
	context: IExecuteFunctions,
	events: IDataObject[],
	included: IncludedIndex,
	located: { id: string; number?: string },
	itemIndex: number,
): Promise<IDataObject[]> {
	let own = numberIn(included.get(`container:${located.id}`)) ?? located.number ?? null;
	let fetched = own !== null;
	const numbered: IDataObject[] = [];
	for (const event of events) {
		const relatedId = typeof event.container_id === 'string' ? event.container_id : located.id;
		let number = numberIn(included.get(`container:${relatedId}`));
		if (number === null && relatedId === located.id) {
			if (!fetched) own = await fetchContainerNumber(context, located.id, itemIndex);
			fetched = true;
			number = own;
		}
		numbered.push(withContainerNumber(event, number));
	}
	return numbered;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const located = await locatedContainer(this, itemIndex);
	const containerId = located.id;
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
	// The service cannot filter or sort (docs/service.md, "Transport events"): with either, every
	// page is needed.
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
			withWarnings(withEventLabel(flattenResource(event, included)), warnings.forRecord(index)),
		)
		.filter((event) => eventNames.size === 0 || eventNames.has(String(event.event)))
		.filter((event) => dataSources.size === 0 || dataSources.has(String(event.data_source)));
	if (sort !== 'none') events = sortByTimestamp(events, sort);
	const returned = limit === undefined ? events : events.slice(0, limit);
	return itemsFrom(await containerNumbers(this, returned, included, located, itemIndex), itemIndex);
}

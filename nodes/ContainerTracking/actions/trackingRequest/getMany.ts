import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	membersOf,
	REQUEST_TYPES,
	TRACKING_REQUEST_STATUSES,
	trackingRequestListDocument,
} from '../../schemas';
import { fetchList } from '../../transport/pagination';
import { compactNumber } from '../../logic/iso6346';
import {
	itemsFrom,
	limitOf,
	REQUEST_TYPE_NAMES,
	returnAllAndLimit,
	showFor,
	valueOptions,
} from '../common';
import { simplifyField, wantsSimplified } from '../simplify';
import { simplifyTrackingRequest, trackingRequestItem } from './item';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many tracking requests',
	description:
		'List tracking requests, newest first, filtered by status, carrier, number, kind of number or when they were created or updated',
};

export const toolDescription =
	'Use this when someone asks which numbers were submitted for tracking recently, or which tracking requests failed. Returns tracking requests, newest first.';

export const description: INodeProperties[] = [
	...returnAllAndLimit('trackingRequest', 'getMany'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor('trackingRequest', 'getMany'),
		options: [
			{
				displayName: 'Carrier (SCAC)',
				name: 'scac',
				type: 'string',
				default: '',
				placeholder: 'MAEU',
				description: 'Only requests for this shipping line',
			},
			{
				displayName: 'Created After',
				name: 'createdAfter',
				type: 'dateTime',
				default: '',
				description: 'Only requests created at or after this time',
			},
			{
				displayName: 'Created Before',
				name: 'createdBefore',
				type: 'dateTime',
				default: '',
				description: 'Only requests created at or before this time',
			},
			{
				displayName: 'Request Number Contains',
				name: 'requestNumber',
				type: 'string',
				default: '',
				placeholder: 'e.g. MSKU48',
				description:
					'Only requests whose number contains this text (case, spaces, dots, dashes and slashes ignored)',
			},
			{
				displayName: 'Request Type',
				name: 'requestTypes',
				type: 'multiOptions',
				options: valueOptions(REQUEST_TYPES, REQUEST_TYPE_NAMES),
				default: [],
				description: 'Only requests for these kinds of number',
			},
			{
				displayName: 'Status',
				name: 'statuses',
				type: 'multiOptions',
				options: valueOptions(TRACKING_REQUEST_STATUSES, {
					pending: 'Pending',
					awaiting_manifest: 'Awaiting Manifest',
					created: 'Created',
					failed: 'Failed',
					tracking_stopped: 'Tracking Stopped',
				}),
				default: [],
				description:
					'Only requests in these states, e.g. Failed to find the numbers to correct, or Pending',
			},
			{
				displayName: 'Updated After',
				name: 'updatedAfter',
				type: 'dateTime',
				default: '',
				description: 'Only requests updated at or after this time, e.g. the last run of a schedule',
			},
		],
	},
	simplifyField('trackingRequest', ['getMany']),
];

interface Filters {
	scac?: string;
	createdAfter?: string;
	createdBefore?: string;
	updatedAfter?: string;
	requestNumber?: string;
	requestTypes?: string[];
	statuses?: string[];
}

const time = (value: unknown) => (value ? Date.parse(String(value)) : NaN);

/**
 * What the service filters (`filter[scac]`, `filter[status]` when one status is asked for,
 * `filter[created_at]`, `filter[updated_at]`), so that fewer pages come.
 */
export function trackingRequestQuery(filters: Filters): IDataObject {
	const qs: IDataObject = {};
	const scac = filters.scac?.trim();
	if (scac) qs['filter[scac]'] = scac.toUpperCase();
	if (filters.statuses?.length === 1) qs['filter[status]'] = filters.statuses[0];
	const iso = (value: string | undefined) =>
		Number.isNaN(time(value)) ? undefined : new Date(time(value)).toISOString();
	const bounds: Array<[string, string | undefined]> = [
		['filter[created_at][start]', iso(filters.createdAfter)],
		['filter[created_at][end]', iso(filters.createdBefore)],
		['filter[updated_at][start]', iso(filters.updatedAfter)],
	];
	for (const [name, value] of bounds) if (value) qs[name] = value;
	return qs;
}

/**
 * Every filter, checked here too: the service filters some (trackingRequestQuery), the rest
 * (part of a number, kinds of number, several statuses) only the node can, and a filter an
 * account's service ignores still holds. An empty filter keeps every request.
 */
export function trackingRequestFilter(filters: Filters): (record: IDataObject) => boolean {
	const number = compactNumber(filters.requestNumber ?? '');
	const statuses = new Set(filters.statuses ?? []);
	const types = new Set(filters.requestTypes ?? []);
	const scac = filters.scac?.trim().toUpperCase();
	const [createdAfter, createdBefore, updatedAfter] = [
		time(filters.createdAfter),
		time(filters.createdBefore),
		time(filters.updatedAfter),
	];
	return (record) => {
		const attributes = membersOf(record.attributes);
		if (number && !compactNumber(String(attributes.request_number ?? '')).includes(number))
			return false;
		if (statuses.size > 0 && !statuses.has(String(attributes.status))) return false;
		if (types.size > 0 && !types.has(String(attributes.request_type))) return false;
		if (scac && String(attributes.scac ?? '').toUpperCase() !== scac) return false;
		const created = time(attributes.created_at);
		const updated = time(attributes.updated_at);
		if (!Number.isNaN(createdAfter) && !(created >= createdAfter)) return false;
		if (!Number.isNaN(createdBefore) && !(created <= createdBefore)) return false;
		if (!Number.isNaN(updatedAfter) && !(updated >= updatedAfter)) return false;
		return true;
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as Filters;
	const { records, included, warnings } = await fetchList.call(
		this,
		'/tracking_requests',
		trackingRequestListDocument,
		'listing tracking requests',
		{
			qs: trackingRequestQuery(filters),
			limit: limitOf(this, itemIndex),
			itemIndex,
			keep: trackingRequestFilter(filters),
		},
	);
	const simplified = wantsSimplified(this, itemIndex);
	const items = itemsFrom(
		records.map((record) => trackingRequestItem(record, included)),
		itemIndex,
		warnings,
	);
	if (simplified) for (const item of items) item.json = simplifyTrackingRequest(item.json);
	return items;
}

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
	description: 'List tracking requests, filtered by status, kind of number or number',
};

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
		],
	},
	simplifyField('trackingRequest', ['getMany']),
];

interface Filters {
	requestNumber?: string;
	requestTypes?: string[];
	statuses?: string[];
}

/** The service filters nothing, so the node does: an empty filter keeps every request. */
export function trackingRequestFilter(filters: Filters): (record: IDataObject) => boolean {
	const number = compactNumber(filters.requestNumber ?? '');
	const statuses = new Set(filters.statuses ?? []);
	const types = new Set(filters.requestTypes ?? []);
	return (record) => {
		const attributes = membersOf(record.attributes);
		if (number && !compactNumber(String(attributes.request_number ?? '')).includes(number))
			return false;
		if (statuses.size > 0 && !statuses.has(String(attributes.status))) return false;
		if (types.size > 0 && !types.has(String(attributes.request_type))) return false;
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
		{ limit: limitOf(this, itemIndex), itemIndex, keep: trackingRequestFilter(filters) },
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

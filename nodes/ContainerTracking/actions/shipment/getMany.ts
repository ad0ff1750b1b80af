import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { shipmentListDocument } from '../../schemas';
import type { JsonApiResource } from '../../schemas';
import type { IncludedIndex } from '../../records/jsonApi';
import { fetchList } from '../../transport/pagination';
import { commaList, itemsFrom, limitOf, returnAllAndLimit, showFor } from '../common';
import type { OperationOption } from '../operation';
import { simplifyField, wantsSimplified } from '../simplify';
import { SHIPMENT_INCLUDES, shipmentItem, simplifyShipment } from './get';
import { ownershipFilterFields } from '../container/filters';
import { ownershipFilter } from '../../logic/ownership';

export const option: OperationOption = {
	name: 'Get Many',
	action: 'Get many shipments',
	description:
		'List the shipments of the account, newest first, by tracked number or whether tracking stopped',
};

export const toolDescription =
	'Use this when someone asks which shipments the account tracks, or looks for a shipment by bill of lading or booking number. Returns the shipments, newest first.';

const owner = ownershipFilterFields('shipments');

export const description: INodeProperties[] = [
	...returnAllAndLimit('shipment', 'getMany'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor('shipment', 'getMany'),
		options: [
			owner.customer,
			owner.reference,
			owner.tags,
			{
				displayName: 'Tracked Number',
				name: 'number',
				type: 'string',
				default: '',
				placeholder: 'MEDUFR030802',
				description:
					'The number that was tracked: a bill of lading, booking or container number, whole. To find the shipment of any container number, use Search → Find by Number.',
			},
			{
				displayName: 'Tracking',
				name: 'trackingStopped',
				type: 'options',
				default: 'false',
				options: [
					{ name: 'Not Stopped', value: 'false' },
					{ name: 'Stopped', value: 'true' },
				],
				description: 'Only shipments whose tracking stopped, or only those still tracked',
			},
		],
	},
	simplifyField('shipment', ['getMany']),
];

/**
 * The service filters shipments by tracked number and tracking itself: those go out as its query
 * parameters. Customer, reference and tags it does not: the node keeps the matches (`keep`).
 */
function filterQuery(filters: { number?: string; trackingStopped?: string }): IDataObject {
	const qs: IDataObject = { include: SHIPMENT_INCLUDES.join(',') };
	const number = filters.number?.trim();
	if (number) qs.number = number;
	if (filters.trackingStopped !== undefined)
		qs['filter[tracking_stopped]'] = filters.trackingStopped;
	return qs;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as {
		number?: string;
		trackingStopped?: string;
		customer?: string;
		reference?: string;
		tags?: string;
	};
	const owned = ownershipFilter({
		customer: filters.customer,
		reference: filters.reference,
		tags: commaList(filters.tags),
	});
	const filtered = Boolean(filters.customer?.trim() || filters.reference?.trim() || filters.tags);
	const { records, included, warnings } = await fetchList.call(
		this,
		'/shipments',
		shipmentListDocument,
		'listing shipments',
		{
			qs: filterQuery(filters),
			limit: limitOf(this, itemIndex),
			itemIndex,
			...(filtered
				? {
						keep: (record: IDataObject, pageIncluded: IncludedIndex) =>
							owned(shipmentItem(record as JsonApiResource, pageIncluded)),
					}
				: {}),
		},
	);
	const simplify = wantsSimplified(this, itemIndex);
	return itemsFrom(
		records.map((record) => {
			const item = shipmentItem(record as JsonApiResource, included);
			return simplify ? simplifyShipment(item) : item;
		}),
		itemIndex,
		warnings,
	);
}

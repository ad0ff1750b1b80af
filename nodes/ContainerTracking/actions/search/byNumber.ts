import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { itemsFrom, requiredText, showFor } from '../common';
import type { OperationOption } from '../operation';
import { SEARCH_LIMIT, searchItems, searchRecords } from './find';

export const option: OperationOption = {
	name: 'Find by Number',
	action: 'Find shipments, containers and tracking requests by number',
	description:
		'The shipments, containers and tracking requests whose bill of lading, container, request or reference number contains the text',
};

export const toolDescription =
	'Use this when someone gives a bill of lading, booking, container or reference number (or part of one) and you do not know what kind of number it is. Returns the shipments, containers and tracking requests whose numbers contain it.';

export const description: INodeProperties[] = [
	{
		displayName: 'Number',
		name: 'query',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'MSKU4807969',
		description: `A bill of lading, container, tracking request or reference number, or part of one. The service answers at most ${SEARCH_LIMIT} results: shipments first, then containers, then tracking requests, newest first.`,
		displayOptions: showFor('search', 'byNumber'),
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const query = requiredText(this, 'query', 'Number', itemIndex);
	const { records, warnings } = await searchRecords(this, query, itemIndex);
	return itemsFrom(searchItems(records), itemIndex, warnings);
}

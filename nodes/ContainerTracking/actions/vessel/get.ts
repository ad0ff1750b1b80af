import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { flattenResource } from '../../records/jsonApi';
import { vesselDocument } from '../../schemas';
import { requestRecord } from '../../transport/record';
import { requiredText, showFor, withWarnings } from '../common';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a vessel',
	description:
		'A vessel by its ID or IMO number: name, IMO, MMSI, where it is, optionally where it was',
};

export const toolDescription =
	"Use this when someone asks where a vessel is now or was recently, by its IMO number. Returns the vessel's name, IMO, MMSI and position.";

export const description: INodeProperties[] = [
	{
		displayName: 'Vessel ID or IMO',
		name: 'vessel',
		type: 'string',
		required: true,
		default: '',
		placeholder: '9811000',
		description:
			'The vessel’s ID in the service (`vessel_id` of a transport event or raw event) or its seven-digit IMO number',
		displayOptions: showFor('vessel', 'get'),
	},
	{
		displayName: 'Include Positions',
		name: 'showPositions',
		type: 'boolean',
		default: false,
		description: 'Whether to add the vessel’s recent positions (`positions`, oldest first)',
		displayOptions: showFor('vessel', 'get'),
	},
];

/** `GET /vessels/{id}` or `/vessels/{imo}`, with `show_positions=true` when asked. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const vessel = requiredText(this, 'vessel', 'Vessel ID or IMO', itemIndex);
	const showPositions = this.getNodeParameter('showPositions', itemIndex, false) as boolean;
	const { record, included, warnings } = await requestRecord.call(
		this,
		'GET',
		`/vessels/${encodeURIComponent(vessel)}`,
		vesselDocument,
		'getting a vessel',
		{ itemIndex, qs: showPositions ? { show_positions: 'true' } : undefined },
	);
	return [
		{
			json: withWarnings(flattenResource(record, included), warnings),
			pairedItem: { item: itemIndex },
		},
	];
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { containerTrackingRequest, serviceError } from '../../transport/request';
import { repeatFields, requiredText, showFor } from '../common';

export const description: INodeProperties[] = [
	{
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'string',
		required: true,
		default: '',
		description: 'The ID of the webhook to delete',
		displayOptions: showFor('webhook', 'delete'),
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const webhookId = requiredText(this, 'webhookId', 'Webhook ID', itemIndex);
	const path = `/webhooks/${encodeURIComponent(webhookId)}`;
	const response = await containerTrackingRequest.call(this, 'DELETE', path, {
		itemIndex,
		acceptStatuses: [404],
	});
	// A 404 after a lost answer means the lost attempt deleted it; on a first attempt, the id is wrong.
	if (response.status === 404 && response.repeatedAfter.length === 0)
		throw serviceError(this, response, 'DELETE', path, itemIndex);
	return [
		{
			json: { id: webhookId, deleted: true, ...repeatFields(response) },
			pairedItem: { item: itemIndex },
		},
	];
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { containerTrackingRequest } from '../../transport/request';
import { requiredText, showFor } from '../common';

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
	await containerTrackingRequest.call(
		this,
		'DELETE',
		`/webhooks/${encodeURIComponent(webhookId)}`,
		{ itemIndex },
	);
	return [{ json: { id: webhookId, deleted: true }, pairedItem: { item: itemIndex } }];
}

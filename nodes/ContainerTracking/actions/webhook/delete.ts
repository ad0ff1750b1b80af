import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { containerTrackingRequest, serviceError } from '../../transport/request';
import { repeatFields } from '../common';
import { locatedId, webhookLocator } from '../locators';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Delete',
	action: 'Delete a webhook',
	description: 'Stop notifications to a webhook',
};

export const toolDescription =
	'Use this only when the person who runs this n8n asks to delete a webhook. Returns whether it was deleted.';

export const description: INodeProperties[] = [webhookLocator('delete')];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const webhookId = locatedId(this, 'webhookId', 'Webhook', itemIndex);
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

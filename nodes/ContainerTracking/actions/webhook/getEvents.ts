import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readSubscribableEvents } from '../../transport/webhookEvents';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Events',
	action: 'Get the events the account may subscribe to',
	description:
		'The notification events this account may subscribe to, by category (the Rail Plan’s only with it)',
};

export const toolDescription =
	'Use this when someone asks which notification events the account can subscribe to. Returns the events by category.';

export const description: INodeProperties[] = [];

/**
 * `GET /webhooks/events` (transport/webhookEvents.ts): one item per event, with its category and
 * the node's label beside the service's description.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const events = await readSubscribableEvents(this, { itemIndex });
	return events.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

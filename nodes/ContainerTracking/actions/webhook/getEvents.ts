import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { eventLabel } from '../../logic/eventNames';
import { isRecord, membersOf } from '../../schemas';
import { containerTrackingRequest } from '../../transport/request';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Events',
	action: 'Get the events the account may subscribe to',
	description:
		'The notification events this account may subscribe to, by category (the Rail Plan’s only with it)',
};

export const description: INodeProperties[] = [];

/**
 * `GET /webhooks/events`: categories, each with its events (`name`, `description`). One item per
 * event, with its category and the node's label beside the service's description; an event no
 * list of the node holds passes through with its own name.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await containerTrackingRequest.call(this, 'GET', '/webhooks/events', {
		itemIndex,
	});
	const categories = Array.isArray(response.body?.data) ? response.body.data : [];
	const items: IDataObject[] = [];
	for (const category of categories.filter(isRecord)) {
		const attributes = membersOf(category.attributes);
		const events = Array.isArray(attributes.events) ? attributes.events.filter(isRecord) : [];
		for (const event of events) {
			const name = typeof event.name === 'string' ? event.name : null;
			items.push({
				...event,
				event: name,
				event_label: name ? eventLabel(name) : null,
				category_id: category.id ?? null,
				category_name: attributes.name ?? null,
			});
		}
	}
	return items.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

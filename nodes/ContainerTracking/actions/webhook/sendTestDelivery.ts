import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { EVENT_OPTIONS } from '../../logic/eventNames';
import { containerTrackingRequest } from '../../transport/request';
import { requiredText, showFor } from '../common';
import type { OperationOption } from '../operation';
import { urlField } from './create';

const show = showFor('webhook', 'sendTestDelivery');

export const option: OperationOption = {
	name: 'Send Test Delivery',
	action: 'Send a test delivery to a URL',
	description:
		'Have the service send one sample notification to a URL now, and say what that URL answered',
};

export const toolDescription =
	"Use this only when the person who runs this n8n asks to test that a URL receives the service's notifications. Returns what that URL answered.";

export const description: INodeProperties[] = [
	urlField(
		'sendTestDelivery',
		'Where the service sends the sample: e.g. a Container Tracking Trigger’s Production URL',
	),
	{
		displayName: 'Event Name or ID',
		name: 'event',
		type: 'options',
		required: true,
		options: EVENT_OPTIONS,
		default: 'container.updated',
		description:
			'The event of the sample. Choose from the list, or specify an event name using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: show,
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			'Signs the sample as a webhook with this secret would be signed; empty sends it unsigned',
		displayOptions: show,
	},
];

/**
 * `POST /webhooks/trigger` with a flat body `{url, event, secret?}`: the service sends the sample
 * at once and answers what happened (`succeeded`, `status_code`, `error`, what was sent and what
 * came back). A URL that refused the sample is an answer, not an error: `succeeded` says so.
 * Not repeated on a lost answer: the URL would get the sample twice.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const url = requiredText(this, 'url', 'URL', itemIndex);
	const event = requiredText(this, 'event', 'Event', itemIndex);
	const secret = String(this.getNodeParameter('secret', itemIndex, '') ?? '');
	const response = await containerTrackingRequest.call(this, 'POST', '/webhooks/trigger', {
		body: { url, event, ...(secret ? { secret } : {}) },
		itemIndex,
	});
	return [{ json: { ...(response.body ?? {}), event }, pairedItem: { item: itemIndex } }];
}

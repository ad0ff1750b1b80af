import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { EVENT_OPTIONS } from '../../logic/eventNames';
import { webhookDocument } from '../../schemas';
import { requestRecord } from '../../transport/record';
import { webhookBody, type WebhookSettings } from '../../transport/webhooks';
import { optionsCollection, repeatFields, showFor, withWarnings } from '../common';
import { locatedId, webhookLocator } from '../locators';
import { includeSecretOption, webhookItem } from './item';
import type { OperationOption } from '../operation';
import { customHeaders, customHeadersField } from './create';

export const option: OperationOption = {
	name: 'Update',
	action: 'Update a webhook',
	description: 'Change the URL, events, active flag or custom headers of a webhook',
};

export const toolDescription =
	"Use this only when the person who runs this n8n asks to change a webhook's URL, events or active flag. Returns the webhook as changed.";

export const description: INodeProperties[] = [
	webhookLocator('update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor('webhook', 'update'),
		options: [
			{
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description: 'Whether the service delivers notifications to this webhook',
			},
			{
				...customHeadersField,
				description:
					'Headers sent with every delivery, in place of the current ones; none clears them',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: EVENT_OPTIONS,
				default: ['container.updated'],
				description: 'The notifications to receive, in place of the current ones',
			},
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/webhooks/containers',
				description: 'Where the service will POST notifications from now on',
			},
		],
	},
	optionsCollection('webhook', 'update', [includeSecretOption]),
];

/** Changes a webhook's URL, events, active flag or headers (a PATCH of only what was given). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = locatedId(this, 'webhookId', 'Webhook', itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as WebhookSettings & {
		customHeaders?: unknown;
	};
	const options = this.getNodeParameter('options', itemIndex, {}) as { includeSecret?: boolean };
	const settings: WebhookSettings = {};
	if (fields.url !== undefined) settings.url = String(fields.url).trim();
	if (fields.events !== undefined) settings.events = fields.events;
	if (fields.active !== undefined) settings.active = fields.active;
	if (fields.customHeaders !== undefined) {
		const headers = customHeaders(fields.customHeaders);
		settings.headers = headers.length > 0 ? headers : null;
	}
	if (Object.keys(settings).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', {
			itemIndex,
			description: 'Add URL, Events, Active or Custom Headers under "Update Fields".',
		});
	}
	if (settings.url === '' || (settings.events !== undefined && settings.events.length === 0)) {
		throw new NodeOperationError(
			this.getNode(),
			settings.url === '' ? 'The field "URL" is empty' : 'The field "Events" has no event selected',
			{ itemIndex, description: 'Give a value, or remove the field from "Update Fields".' },
		);
	}
	const { record, included, warnings, response } = await requestRecord.call(
		this,
		'PATCH',
		`/webhooks/${encodeURIComponent(id)}`,
		webhookDocument,
		'updating a webhook',
		{ body: webhookBody(settings), itemIndex },
	);
	const webhook = webhookItem(record, included, options.includeSecret === true);
	return [
		{
			json: withWarnings({ ...webhook, ...repeatFields(response) }, warnings),
			pairedItem: { item: itemIndex },
		},
	];
}

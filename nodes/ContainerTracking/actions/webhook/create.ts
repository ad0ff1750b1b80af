import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { EVENT_OPTIONS } from '../../logic/eventNames';
import { singleDocumentCore, webhookDocument } from '../../schemas';
import { flattenResource, indexIncluded } from '../../records/jsonApi';
import { readAnswer } from '../../transport/request';
import { createWebhook } from '../../transport/webhooks';
import { optionsCollection, repeatFields, requiredText, showFor, withWarnings } from '../common';
import type { OperationOption } from '../operation';

const show = showFor('webhook', 'create');

export const SECRET_NOTICE =
	'Store this secret now: it is the only way to verify that deliveries come from the service (HMAC-SHA256 of the raw body).';

export const option: OperationOption = {
	name: 'Create',
	action: 'Create a webhook',
	description: 'Subscribe a URL to notifications; the answer carries the signing secret',
};

export const toolDescription =
	"Use this only when the person who runs this n8n asks to subscribe a URL to the service's notifications. Returns the new webhook with its signing secret.";

/** The URL a webhook (or a test delivery) goes to. */
export function urlField(operation: string, description: string): INodeProperties {
	return {
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://example.com/webhooks/containers',
		description,
		displayOptions: showFor('webhook', operation),
	};
}

/** Custom Headers: name and value pairs the service sends with every delivery. */
export const customHeadersField: INodeProperties = {
	displayName: 'Custom Headers',
	name: 'customHeaders',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Header',
	default: {},
	description: 'Headers the service sends with every delivery, e.g. a token your receiver checks',
	options: [
		{
			displayName: 'Header',
			name: 'header',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

/** The headers of a Custom Headers value; those without a name are left out. */
export function customHeaders(value: unknown): Array<{ name: string; value: string }> {
	const entries = (value as { header?: Array<{ name?: unknown; value?: unknown }> } | undefined)
		?.header;
	return (entries ?? [])
		.map((entry) => ({ name: String(entry.name ?? '').trim(), value: String(entry.value ?? '') }))
		.filter((entry) => entry.name !== '');
}

export const description: INodeProperties[] = [
	urlField('create', 'Where the service will POST notifications'),
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: EVENT_OPTIONS,
		default: ['container.updated'],
		description: 'The notifications to receive',
		displayOptions: show,
	},
	{
		displayName: 'Active',
		name: 'active',
		type: 'boolean',
		default: true,
		description: 'Whether the service should deliver notifications right away',
		displayOptions: show,
	},
	optionsCollection('webhook', 'create', [customHeadersField]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const url = requiredText(this, 'url', 'URL', itemIndex);
	const events = this.getNodeParameter('events', itemIndex, []) as string[];
	const active = this.getNodeParameter('active', itemIndex, true) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const headers = customHeaders(options.customHeaders);
	const { response, adopted } = await createWebhook.call(
		this,
		{ url, events, active, ...(headers.length > 0 ? { headers } : {}) },
		itemIndex,
	);
	const { document, warnings } = readAnswer(
		this,
		singleDocumentCore,
		webhookDocument,
		response.body,
		'creating a webhook',
		itemIndex,
	);
	const webhook = flattenResource(document.data, indexIncluded(undefined));
	const json = {
		...webhook,
		secret_notice: SECRET_NOTICE,
		...repeatFields(response),
		...(adopted
			? {
					message:
						'The answer to the first attempt was lost, but it had created this webhook: it is returned instead of a second one.',
				}
			: {}),
	};
	return [{ json: withWarnings(json, warnings.forRecord()), pairedItem: { item: itemIndex } }];
}

import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as deleteWebhook from './delete';
import * as get from './get';
import * as getMany from './getMany';
import * as update from './update';

export { create, deleteWebhook, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a webhook',
				description: 'Subscribe a URL to notifications; the answer carries the signing secret',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a webhook',
				description: 'Stop notifications to a webhook',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a webhook',
				description: 'Read a webhook: its URL, events and whether it is active',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many webhooks',
				description: 'List the webhooks of the account',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a webhook',
				description: 'Change the URL, events or active flag of a webhook',
			},
		],
		default: 'create',
	},
	...create.description,
	...deleteWebhook.description,
	...get.description,
	...getMany.description,
	...update.description,
];

import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as deleteWebhook from './delete';
import * as getMany from './getMany';

export { create, deleteWebhook, getMany };

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
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many webhooks',
				description: 'List the webhooks of the account, with their secrets',
			},
		],
		default: 'create',
	},
	...create.description,
	...deleteWebhook.description,
	...getMany.description,
];

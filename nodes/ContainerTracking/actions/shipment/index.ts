import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['shipment'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a shipment',
				description:
					'Get a shipment: bill of lading, shipping line, its containers, ports, vessel and arrival times',
			},
		],
		default: 'get',
	},
	...get.description,
];

import type { INodeProperties } from 'n8n-workflow';

import * as inferNumber from './inferNumber';

export { inferNumber };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['trackingRequest'] } },
		options: [
			{
				name: 'Infer Carrier and Number Type',
				value: 'inferNumber',
				action: 'Infer carrier and number type',
				description:
					'Predict the shipping line (SCAC) and whether a number is a container, bill of lading or booking number',
			},
		],
		default: 'inferNumber',
	},
	...inferNumber.description,
];

import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as get from './get';
import * as getMany from './getMany';
import * as inferNumber from './inferNumber';

export { create, get, getMany, inferNumber };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['trackingRequest'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a tracking request',
				description:
					'Start tracking a container, bill of lading or booking number with a shipping line (or let the carrier be inferred)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a tracking request',
				description:
					'Where a tracking request stands: pending, created (with its shipment) or failed and why',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many tracking requests',
				description: 'List tracking requests, filtered by status, kind of number or number',
			},
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
	...create.description,
	...get.description,
	...getMany.description,
	...inferNumber.description,
];

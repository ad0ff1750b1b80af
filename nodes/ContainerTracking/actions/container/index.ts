import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';
import * as getMany from './getMany';
import * as getRawEvents from './getRawEvents';
import * as getTransportEvents from './getTransportEvents';

export { get, getMany, getRawEvents, getTransportEvents };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['container'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a container',
				description:
					'Get a container with its pickup readiness, holds, fees and last free day worked out',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many containers',
				description:
					'List the containers the account tracks, with pickup readiness, fees and last free day',
			},
			{
				name: 'Get Raw Events',
				value: 'getRawEvents',
				action: 'Get raw events of a container',
				description: "The carriers' and terminals' own events, including estimated future ones",
			},
			{
				name: 'Get Transport Events',
				value: 'getTransportEvents',
				action: 'Get transport events of a container',
				description:
					'Past transport events of a container (vessel, rail, terminal), filtered and sorted as you choose',
			},
		],
		default: 'get',
	},
	...get.description,
	...getMany.description,
	...getRawEvents.description,
	...getTransportEvents.description,
];

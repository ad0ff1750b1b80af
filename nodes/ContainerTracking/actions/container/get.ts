import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { containerDocument, singleDocumentCore } from '../../schemas';
import { indexIncluded, type ResourceLike } from '../../transport/jsonApi';
import { containerTrackingRequest, readAnswer } from '../../transport/request';
import { optionsCollection, requiredText, showFor, withWarnings } from '../common';
import { containerItem } from './summary';

export const CONTAINER_INCLUDES = [
	{ name: 'Shipment', value: 'shipment' },
	{ name: 'Port Terminal', value: 'pod_terminal' },
	{ name: 'Pickup Facility', value: 'pickup_facility' },
	{ name: 'Transport Events', value: 'transport_events' },
];

export const containerIdField = (operation: string): INodeProperties => ({
	displayName: 'Container ID',
	name: 'containerId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '55a700e4-7005-45a9-92fd-1ff38641dbd9',
	description:
		"The container's ID in the service (a UUID), e.g. from a tracking request or a trigger item",
	displayOptions: showFor('container', operation),
});

export const description: INodeProperties[] = [
	containerIdField('get'),
	optionsCollection('container', 'get', [
		{
			displayName: 'Include Related Records',
			name: 'include',
			type: 'multiOptions',
			options: CONTAINER_INCLUDES,
			default: ['shipment', 'pod_terminal'],
			description: 'Related records to fetch with the container and put on the item',
		},
		{
			displayName: 'Return Raw Document',
			name: 'raw',
			type: 'boolean',
			default: false,
			description:
				'Whether to return the service’s JSON:API document as it is, without the worked-out pickup, fee and last free day fields',
		},
	]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const containerId = requiredText(this, 'containerId', 'Container ID', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		include?: string[];
		raw?: boolean;
	};
	const include = options.include ?? ['shipment', 'pod_terminal'];
	const response = await containerTrackingRequest.call(
		this,
		'GET',
		`/containers/${encodeURIComponent(containerId)}`,
		{
			qs: include.length > 0 ? { include: include.join(',') } : undefined,
			itemIndex,
		},
	);
	if (options.raw) return [{ json: response.body, pairedItem: { item: itemIndex } }];
	const { document, warnings } = readAnswer(
		this,
		singleDocumentCore,
		containerDocument,
		response.body,
		'getting a container',
		itemIndex,
	);
	const container = containerItem(
		document.data as ResourceLike,
		indexIncluded(document.included),
		new Date(),
	);
	return [{ json: withWarnings(container, warnings.forRecord()), pairedItem: { item: itemIndex } }];
}

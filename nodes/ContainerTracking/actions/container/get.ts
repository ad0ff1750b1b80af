import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { containerDocument, singleDocumentCore } from '../../schemas';
import { indexIncluded } from '../../records/jsonApi';
import { containerTrackingRequest, readAnswer } from '../../transport/request';
import { optionsCollection, withWarnings } from '../common';
import { containerLocator, locatedContainer } from '../locators';
import { simplifyContainer, simplifyField, wantsSimplified } from '../simplify';
import { readContainerItem } from './summary';
import type { OperationOption } from '../operation';

export const CONTAINER_INCLUDES = [
	{ name: 'Shipment', value: 'shipment' },
	{ name: 'Port Terminal', value: 'pod_terminal' },
	{ name: 'Pickup Facility', value: 'pickup_facility' },
	{ name: 'Transport Events', value: 'transport_events' },
];

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a container',
	description:
		'Get a container with its pickup readiness, holds, fees and last free day worked out',
};

export const toolDescription =
	'Use this when someone asks about one container by its number (e.g. MSKU7654328): where it is, its ETA, holds and customs, whether it is ready for pickup, its last free day and days left, whether it was picked up, goes on by rail or came back empty, and its fees. Returns one answer for the container; call it once per number.';

/** The records that name the last free day's facility (actions/container/summary.ts). */
export const DEFAULT_INCLUDES = ['shipment', 'pod_terminal', 'pickup_facility'];

export const description: INodeProperties[] = [
	containerLocator('get'),
	{
		...simplifyField('container', ['get']),
		description:
			'Whether to return a simplified version of the response instead of the raw data. The option Return Raw Document, when on, wins.',
	},
	optionsCollection('container', 'get', [
		{
			displayName: 'Include Related Records',
			name: 'include',
			type: 'multiOptions',
			options: CONTAINER_INCLUDES,
			default: [...DEFAULT_INCLUDES],
			description:
				'Related records to fetch with the container and put on the item. The shipment, port terminal and pickup facility name the place of the last free day (<code>last_free_day_facility</code>).',
		},
		{
			displayName: 'Return Raw Document',
			name: 'raw',
			type: 'boolean',
			default: false,
			description:
				'Whether to return the service’s JSON:API document as it is, without the worked-out pickup, fee and last free day fields. Wins over Simplify.',
		},
	]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id: containerId } = await locatedContainer(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		include?: string[];
		raw?: boolean;
	};
	const include = options.include ?? DEFAULT_INCLUDES;
	const read = await readContainer(this, containerId, include, itemIndex, { raw: options.raw });
	if (read.raw) return [{ json: read.raw, pairedItem: { item: itemIndex } }];
	const { document, warnings, askedAt } = read;
	const container = readContainerItem(document.data, indexIncluded(document.included), {
		askedAt,
		answeredAt: new Date(),
	});
	const shaped = wantsSimplified(this, itemIndex) ? simplifyContainer(container) : container;
	return [{ json: withWarnings(shaped, warnings.forRecord()), pairedItem: { item: itemIndex } }];
}

type ContainerRead =
	| { raw: IDataObject }
	| (ReturnType<typeof readAnswer<typeof containerDocument>> & { raw?: undefined; askedAt: Date });

/**
 * One container read with its related records `include`, as the service's document checked
 * against the schema (or, with `raw`, the answer as it came), and the moment it was asked.
 */
export async function readContainer(
	context: IExecuteFunctions,
	containerId: string,
	include: string[],
	itemIndex: number,
	{ raw = false }: { raw?: boolean } = {},
): Promise<ContainerRead> {
	const askedAt = new Date();
	const response = await containerTrackingRequest.call(
		context,
		'GET',
		`/containers/${encodeURIComponent(containerId)}`,
		{
			qs: include.length > 0 ? { include: include.join(',') } : undefined,
			itemIndex,
		},
	);
	if (raw) return { raw: response.body as IDataObject };
	return {
		...readAnswer(
			context,
			singleDocumentCore,
			containerDocument,
			response.body,
			'getting a container',
			itemIndex,
		),
		askedAt,
	};
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listDocumentCore, rawEventListDocument } from '../../schemas';
import { flattenResource, indexIncluded } from '../../records/jsonApi';
import { containerTrackingRequest, readAnswer } from '../../transport/request';
import { itemsFrom } from '../common';
import { containerLocator, locatedContainer } from '../locators';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Raw Events',
	action: 'Get raw events of a container',
	description: "The carriers' and terminals' own events, including estimated future ones",
};

export const toolDescription =
	"Use this when someone asks what the shipping line or terminal itself reported about a container, including estimated future events, in their own words. Returns the carriers' and terminals' raw events of the container, oldest first.";

export const description: INodeProperties[] = [containerLocator('getRawEvents')];

/** The carriers' and terminals' own events, estimated future ones included; one item each. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id: containerId } = await locatedContainer(this, itemIndex);
	const response = await containerTrackingRequest.call(
		this,
		'GET',
		`/containers/${encodeURIComponent(containerId)}/raw_events`,
		{ itemIndex },
	);
	const { document, warnings } = readAnswer(
		this,
		listDocumentCore,
		rawEventListDocument,
		response.body,
		'listing raw events',
		itemIndex,
	);
	const included = indexIncluded(document.included);
	return itemsFrom(
		document.data.map((event) => flattenResource(event, included)),
		itemIndex,
		warnings,
	);
}

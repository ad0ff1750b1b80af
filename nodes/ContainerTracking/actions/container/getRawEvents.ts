import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { listDocumentCore, rawEventListDocument } from '../../schemas';
import { flattenResource, indexIncluded, type ResourceLike } from '../../transport/jsonApi';
import { containerTrackingRequest, readAnswer } from '../../transport/request';
import { itemsFrom, requiredText } from '../common';
import { containerIdField } from './get';

export const description: INodeProperties[] = [containerIdField('getRawEvents')];

/** The carriers' and terminals' own events, estimated future ones included; one item each. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const containerId = requiredText(this, 'containerId', 'Container ID', itemIndex);
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
		document.data.map((event) => flattenResource(event as ResourceLike, included)),
		itemIndex,
		warnings,
	);
}

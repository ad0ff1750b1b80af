import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { trackingRequestDocument } from '../../schemas';
import { requestRecord } from '../../transport/record';
import { withWarnings } from '../common';
import { locatedId, trackingRequestLocator } from '../locators';
import { simplifyField, wantsSimplified } from '../simplify';
import { simplifyTrackingRequest, trackingRequestItem } from './item';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get',
	action: 'Get a tracking request',
	description:
		'Where a tracking request stands: pending, created (with its shipment) or failed and why',
};

export const toolDescription =
	'Use this when someone asks whether a tracking request they made has gone through. Returns where it stands: pending, created with its shipment, or failed and why.';

export const description: INodeProperties[] = [
	trackingRequestLocator('get'),
	simplifyField('trackingRequest', ['get']),
];

/** One tracking request: pending, created (with its shipment) or failed and why. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = locatedId(this, 'trackingRequestId', 'Tracking Request', itemIndex);
	const { record, included, warnings } = await requestRecord.call(
		this,
		'GET',
		`/tracking_requests/${encodeURIComponent(id)}`,
		trackingRequestDocument,
		'getting a tracking request',
		{ itemIndex },
	);
	const item = withWarnings(trackingRequestItem(record, included), warnings);
	return [
		{
			json: wantsSimplified(this, itemIndex) ? simplifyTrackingRequest(item) : item,
			pairedItem: { item: itemIndex },
		},
	];
}

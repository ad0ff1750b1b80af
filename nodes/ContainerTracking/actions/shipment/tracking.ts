import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { shipmentDocument } from '../../schemas';
import { requestRecord } from '../../transport/record';
import { withWarnings } from '../common';
import { locatedId } from '../locators';
import { shipmentItem } from './get';

/**
 * `PATCH /shipments/{id}/stop_tracking` or `resume_tracking` (no body); the shipment as it is
 * then. Safe to repeat: a shipment stopped twice is stopped once, so a lost answer is asked again.
 */
export async function setTracking(
	context: IExecuteFunctions,
	itemIndex: number,
	action: 'stop' | 'resume',
): Promise<INodeExecutionData[]> {
	const shipmentId = locatedId(context, 'shipmentId', 'Shipment', itemIndex);
	const { record, included, warnings } = await requestRecord.call(
		context,
		'PATCH',
		`/shipments/${encodeURIComponent(shipmentId)}/${action}_tracking`,
		shipmentDocument,
		`${action === 'stop' ? 'stopping' : 'resuming'} tracking a shipment`,
		{ itemIndex },
	);
	return [
		{
			json: withWarnings(shipmentItem(record, included), warnings),
			pairedItem: { item: itemIndex },
		},
	];
}

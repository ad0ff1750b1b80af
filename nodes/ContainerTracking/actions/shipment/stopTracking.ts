import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { shipmentLocator } from '../locators';
import type { OperationOption } from '../operation';
import { setTracking } from './tracking';

export const option: OperationOption = {
	name: 'Stop Tracking',
	action: 'Stop tracking a shipment',
	description:
		'No more updates for the shipment and its containers, and no more notifications about them',
};

export const toolDescription =
	'Use this only when someone explicitly asks to stop tracking a shipment; it ends updates and alerts for all its containers. Returns the shipment as stopped.';

export const description: INodeProperties[] = [shipmentLocator('stopTracking')];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await setTracking(this, itemIndex, 'stop');
}

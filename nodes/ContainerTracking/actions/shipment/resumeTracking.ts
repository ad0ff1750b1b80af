import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { shipmentLocator } from '../locators';
import type { OperationOption } from '../operation';
import { setTracking } from './tracking';

export const option: OperationOption = {
	name: 'Resume Tracking',
	action: 'Resume tracking a shipment',
	description:
		'Updates again for a shipment whose tracking was stopped; what its sources published meanwhile may be missing',
};

export const toolDescription =
	'Use this only when someone explicitly asks to resume tracking a shipment whose tracking was stopped. Returns the shipment as it is now tracked again.';

export const description: INodeProperties[] = [shipmentLocator('resumeTracking')];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await setTracking(this, itemIndex, 'resume');
}

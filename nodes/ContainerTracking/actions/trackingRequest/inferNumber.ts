import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { inferNumberDocument } from '../../schemas';
import { containerTrackingRequest, parseAnswer } from '../../transport/request';

export const description: INodeProperties[] = [
	{
		displayName: 'Number',
		name: 'number',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'MSCU1234565',
		description:
			'Container number, bill of lading number or booking number whose carrier and number type to predict',
		displayOptions: { show: { resource: ['trackingRequest'], operation: ['inferNumber'] } },
	},
];

/** Keeps the service's fields and adds a flat summary for the next nodes in the workflow. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const number = String(this.getNodeParameter('number', itemIndex, '')).trim();
	if (!number) {
		throw new NodeOperationError(this.getNode(), 'The field "Number" is empty', {
			itemIndex,
			description: 'Enter a container, bill of lading or booking number, or map one from the input.',
		});
	}
	const response = await containerTrackingRequest.call(this, 'POST', '/tracking_requests/infer_number', {
		body: { number },
		itemIndex,
	});
	const document = parseAnswer(this, inferNumberDocument, response.body, 'infer_number', itemIndex);
	const attributes = document.data.attributes;
	const selected = attributes.shipping_line.selected;
	const summary: IDataObject = {
		number_type: attributes.number_type,
		is_valid: attributes.validation.is_valid,
		scac: selected?.scac ?? null,
		carrier_name: selected?.name ?? null,
		confidence: selected?.confidence ?? null,
		decision: attributes.shipping_line.decision,
	};
	return [
		{
			json: { number, ...summary, ...(attributes as IDataObject) },
			pairedItem: { item: itemIndex },
		},
	];
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { inferNumberDocument, type InferNumberAttributes } from '../../schemas';
import { containerTrackingRequest, parseAnswer } from '../../transport/request';
import { requiredText, showFor } from '../common';

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
		displayOptions: showFor('trackingRequest', 'inferNumber'),
	},
];

/** Asks the service which carrier and number type a tracking number most likely has. */
export async function requestInference(
	context: IExecuteFunctions,
	number: string,
	itemIndex: number,
): Promise<InferNumberAttributes> {
	const response = await containerTrackingRequest.call(
		context,
		'POST',
		'/tracking_requests/infer_number',
		{
			body: { number },
			itemIndex,
		},
	);
	return parseAnswer(context, inferNumberDocument, response.body, 'infer_number', itemIndex).data
		.attributes;
}

/** The flat summary users branch on, next to the service's own fields. */
export function inferenceSummary(attributes: InferNumberAttributes): IDataObject {
	const selected = attributes.shipping_line.selected;
	return {
		number_type: attributes.number_type,
		is_valid: attributes.validation.is_valid,
		scac: selected?.scac ?? null,
		carrier_name: selected?.name ?? null,
		confidence: selected?.confidence ?? null,
		decision: attributes.shipping_line.decision,
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const number = requiredText(this, 'number', 'Number', itemIndex);
	const attributes = await requestInference(this, number, itemIndex);
	return [
		{
			json: { number, ...inferenceSummary(attributes), ...(attributes as IDataObject) },
			pairedItem: { item: itemIndex },
		},
	];
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	inferNumberDocument,
	membersOf,
	singleDocumentCore,
	toNumber,
	type DataWarning,
	type InferNumberAttributes,
} from '../../schemas';
import { containerTrackingRequest, readAnswer } from '../../transport/request';
import { requiredText, showFor, withWarnings } from '../common';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Infer Carrier and Number Type',
	action: 'Infer carrier and number type',
	description:
		'Predict the shipping line (SCAC) and whether a number is a container, bill of lading or booking number',
};

export const toolDescription =
	'Use this when someone asks which shipping line a number belongs to, or whether it is a container, bill of lading or booking number. Returns the likely carrier (SCAC) and kind of number, with how sure the service is.';

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

/** The inference as the service sent it: any part may be missing, values pass unchanged. */
export interface Inference {
	attributes: Partial<InferNumberAttributes>;
	warnings: DataWarning[];
}

/** Asks the service which carrier and number type a tracking number most likely has. */
export async function requestInference(
	context: IExecuteFunctions,
	number: string,
	itemIndex: number,
): Promise<Inference> {
	const response = await containerTrackingRequest.call(
		context,
		'POST',
		'/tracking_requests/infer_number',
		{
			body: { number },
			itemIndex,
		},
	);
	const { document, warnings } = readAnswer(
		context,
		singleDocumentCore,
		inferNumberDocument,
		response.body,
		'infer_number',
		itemIndex,
	);
	return {
		attributes: membersOf(document.data.attributes) as Partial<InferNumberAttributes>,
		warnings: warnings.forRecord(),
	};
}

/** The carrier the service selected, when it selected one. */
export function selectedCarrier(
	attributes: Partial<InferNumberAttributes>,
): { scac: string; name: string | null; confidence: number | null } | null {
	const selected = membersOf(membersOf(attributes.shipping_line).selected);
	if (typeof selected.scac !== 'string' || selected.scac === '') return null;
	return {
		scac: selected.scac,
		name: typeof selected.name === 'string' ? selected.name : null,
		confidence: toNumber(selected.confidence),
	};
}

/** The service's decision about the carrier (`auto_select`…), or null when it sent none. */
export function decisionOf(attributes: Partial<InferNumberAttributes>): string | null {
	const decision = membersOf(attributes.shipping_line).decision;
	return typeof decision === 'string' ? decision : null;
}

/**
 * The flat summary users branch on, next to the service's own fields. `reason` says why a number
 * is invalid (the service's `validation.reason`), null when it gives none.
 */
export function inferenceSummary(attributes: Partial<InferNumberAttributes>): IDataObject {
	const selected = selectedCarrier(attributes);
	const validation = membersOf(attributes.validation);
	return {
		number_type: attributes.number_type ?? null,
		is_valid: validation.is_valid ?? null,
		reason: validation.reason ?? null,
		scac: selected?.scac ?? null,
		carrier_name: selected?.name ?? null,
		confidence: selected?.confidence ?? null,
		decision: decisionOf(attributes),
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const number = requiredText(this, 'number', 'Number', itemIndex);
	const { attributes, warnings } = await requestInference(this, number, itemIndex);
	return [
		{
			json: withWarnings(
				{ number, ...inferenceSummary(attributes), ...(attributes as IDataObject) },
				warnings,
			),
			pairedItem: { item: itemIndex },
		},
	];
}

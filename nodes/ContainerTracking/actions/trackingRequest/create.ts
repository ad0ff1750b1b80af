import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { SHIPPING_LINES } from '../../logic/shippingLines';
import { trackingRequestDocument, type InferNumberAttributes } from '../../schemas';
import { flattenResource, indexIncluded, type ResourceLike } from '../../transport/jsonApi';
import { containerTrackingRequest, parseAnswer, serviceError } from '../../transport/request';
import { optionsCollection, requiredText, showFor } from '../common';
import { inferenceSummary, requestInference } from './inferNumber';

const show = showFor('trackingRequest', 'create');

export const INFER = 'infer';

export const description: INodeProperties[] = [
	{
		displayName: 'Request Number',
		name: 'requestNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'MEDUFR030802',
		description: 'The container, bill of lading or booking number to track',
		displayOptions: show,
	},
	{
		displayName: 'Request Type',
		name: 'requestType',
		type: 'options',
		options: [
			{
				name: 'Infer From Number',
				value: INFER,
				description: 'Ask the service what kind of number it is first',
			},
			{ name: 'Container', value: 'container' },
			{ name: 'Bill of Lading', value: 'bill_of_lading' },
			{ name: 'Booking', value: 'booking' },
		],
		default: INFER,
		description: 'What kind of number the request number is',
		displayOptions: show,
	},
	{
		displayName: 'Shipping Line (SCAC)',
		name: 'scac',
		type: 'options',
		options: [
			{
				name: 'Infer From Number',
				value: INFER,
				description:
					'Predict the carrier from the number; only a confident (95 %+) prediction is used',
			},
			...SHIPPING_LINES.map((line) => ({ name: `${line.name} (${line.scac})`, value: line.scac })),
		],
		default: INFER,
		description:
			'The carrier operating the move: pick one, infer it from the number, or set a SCAC with an expression',
		displayOptions: show,
	},
	optionsCollection('trackingRequest', 'create', [
		{
			displayName: 'Accept Carrier Needing Confirmation',
			name: 'acceptNeedsConfirmation',
			type: 'boolean',
			default: false,
			description:
				'Whether to also use an inferred carrier the service is only 70–95 % sure of (decision "needs_confirmation")',
		},
		{
			displayName: 'Reference Numbers',
			name: 'refNumbers',
			type: 'string',
			default: '',
			placeholder: 'PO-1234, ORDER-77',
			description: 'Your own reference numbers for the shipment, separated by commas',
		},
		{
			displayName: 'Shipment Tags',
			name: 'shipmentTags',
			type: 'string',
			default: '',
			placeholder: 'customer-a, priority',
			description: 'Tags to put on the shipment, separated by commas',
		},
	]),
];

function commaList(value: unknown): string[] {
	if (Array.isArray(value))
		return value
			.map(String)
			.map((entry) => entry.trim())
			.filter(Boolean);
	return String(value ?? '')
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}

function candidatesText(inference: InferNumberAttributes): string {
	const candidates = inference.shipping_line.candidates ?? [];
	if (candidates.length === 0) return 'no candidates';
	return candidates
		.map(
			(candidate) =>
				`${candidate.name} (${candidate.scac}, ${Math.round(candidate.confidence * 100)} %)`,
		)
		.join(', ');
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const requestNumber = requiredText(this, 'requestNumber', 'Request Number', itemIndex);
	let requestType = this.getNodeParameter('requestType', itemIndex, INFER) as string;
	let scac = String(this.getNodeParameter('scac', itemIndex, INFER) ?? '')
		.trim()
		.toUpperCase();
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	let inference: InferNumberAttributes | undefined;
	if (requestType === INFER || scac === INFER.toUpperCase() || scac === '') {
		inference = await requestInference(this, requestNumber, itemIndex);
	}
	if (inference && requestType === INFER) requestType = inference.number_type;
	if (inference && (scac === INFER.toUpperCase() || scac === '')) {
		const { decision, selected } = inference.shipping_line;
		const accepted =
			decision === 'auto_select' ||
			(decision === 'needs_confirmation' && options.acceptNeedsConfirmation === true);
		if (!accepted || !selected) {
			throw new NodeOperationError(
				this.getNode(),
				// Candidates go in the message too: with Continue On Fail it is all the error item keeps.
				`The carrier of "${requestNumber}" could not be inferred with confidence (decision: ${decision}; candidates: ${candidatesText(inference)})`,
				{
					itemIndex,
					description: `Candidates: ${candidatesText(inference)}. Choose the shipping line in "Shipping Line (SCAC)"${
						decision === 'needs_confirmation'
							? ', or turn on "Accept Carrier Needing Confirmation"'
							: ''
					}.`,
				},
			);
		}
		scac = selected.scac;
	}

	const body = {
		data: {
			type: 'tracking_request',
			attributes: {
				request_number: requestNumber,
				request_type: requestType,
				scac,
				ref_numbers: commaList(options.refNumbers),
				shipment_tags: commaList(options.shipmentTags),
			},
		},
	};
	const inferred = inference ? { inferred: inferenceSummary(inference) } : {};
	const response = await containerTrackingRequest.call(this, 'POST', '/tracking_requests', {
		body,
		itemIndex,
		acceptStatuses: [422],
	});
	if (response.status === 422) {
		const errors = Array.isArray(response.body.errors)
			? (response.body.errors as IDataObject[])
			: [];
		const duplicate = errors.find((error) => error.code === 'duplicate');
		// Tracking the same number and SCAC twice means "already tracked", not a broken request.
		if (!duplicate) throw serviceError(this, response, 'POST', '/tracking_requests', itemIndex);
		return [
			{
				json: {
					request_number: requestNumber,
					request_type: requestType,
					scac,
					already_tracked: true,
					message: String(duplicate.detail ?? duplicate.title ?? 'Already tracked'),
					...inferred,
				},
				pairedItem: { item: itemIndex },
			},
		];
	}
	const document = parseAnswer(
		this,
		trackingRequestDocument,
		response.body,
		'creating a tracking request',
		itemIndex,
	);
	const record = flattenResource(document.data as ResourceLike, indexIncluded(document.included));
	return [
		{ json: { ...record, already_tracked: false, ...inferred }, pairedItem: { item: itemIndex } },
	];
}

import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import {
	REQUEST_TYPES,
	singleDocumentCore,
	toNumber,
	trackingRequestDocument,
	type InferNumberAttributes,
} from '../../schemas';
import { flattenResource, indexIncluded } from '../../records/jsonApi';
import { checkLineTracks, shippingLineOptions } from './shippingLines';
import { containerTrackingRequest, readAnswer, serviceError } from '../../transport/request';
import {
	commaList,
	optionsCollection,
	REQUEST_TYPE_NAMES,
	repeatFields,
	requiredText,
	showFor,
	valueOptions,
	withWarnings,
} from '../common';
import {
	decisionOf,
	inferenceSummary,
	requestInference,
	selectedCarrier,
	type Inference,
} from './inferNumber';
import type { OperationOption } from '../operation';

const show = showFor('trackingRequest', 'create');

export const INFER = 'infer';
/** The service works the carrier out itself (`auto_detect_vocc_scac`). */
export const AUTO_DETECT = 'auto_detect';

export const option: OperationOption = {
	name: 'Create',
	action: 'Create a tracking request',
	description:
		'Start tracking a container, bill of lading or booking number with a shipping line (or let the carrier be inferred)',
};

export const toolDescription =
	'Use this when someone asks to track, follow or watch a container, bill of lading or booking number that is not tracked yet. Returns the tracking request: pending, created (then the container can be asked about) or failed and why.';

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
			...valueOptions(REQUEST_TYPES, REQUEST_TYPE_NAMES),
		],
		default: INFER,
		description: 'What kind of number the request number is',
		displayOptions: show,
	},
	{
		displayName: 'Shipping Line Name or ID',
		name: 'scac',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getShippingLines' },
		default: INFER,
		description:
			'The carrier operating the move: one of the account\'s shipping lines, inferred from the number, or detected by the service. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
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
			displayName: 'Custom Fields',
			name: 'customFields',
			type: 'json',
			default: '',
			placeholder: '{"shipment": [{"api_slug": "po", "value": "PO-1"}]}',
			description:
				'The account\'s custom fields to set when the shipment is created: {"shipment": [{"api_slug", "value"}], "containers": [{"api_slug", "value", "number"}]}',
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

/**
 * The Shipping Line field's choices: infer, let the service detect, then the account's lines
 * (trackingRequest/shippingLines.ts).
 */
export async function getShippingLines(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return [
		{
			name: 'Infer From Number',
			value: INFER,
			description:
				'Predict the carrier from the number; only a confident (95 %+) prediction is used',
		},
		{
			name: 'Detected by the Service',
			value: AUTO_DETECT,
			description:
				'Send the number without a carrier: the service works it out; the request stays pending until it has, and fails with "scac_auto_detect_failed" when it cannot',
		},
		...(await shippingLineOptions(this)),
	];
}

function candidatesText(inference: Partial<InferNumberAttributes>): string {
	const candidates = inference.shipping_line?.candidates;
	if (!Array.isArray(candidates) || candidates.length === 0) return 'no candidates';
	return candidates
		.map((candidate) => {
			const confidence = toNumber(candidate?.confidence);
			const share =
				confidence === null ? 'confidence unknown' : `${Math.round(confidence * 100)} %`;
			return `${candidate?.name ?? candidate?.scac} (${candidate?.scac}, ${share})`;
		})
		.join(', ');
}

/** The Custom Fields option: a JSON object, as text or as an object; empty sends none. */
function customFieldsOf(
	context: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
): IDataObject | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			parsed = undefined;
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new NodeOperationError(
			context.getNode(),
			'The option "Custom Fields" is not a JSON object',
			{
				itemIndex,
				description:
					'Write it as {"shipment": [{"api_slug": "po", "value": "PO-1"}], "containers": [{"api_slug": "seal", "value": "S1", "number": "MSKU4807969"}]}.',
			},
		);
	}
	return parsed as IDataObject;
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

	const autoDetect = scac === AUTO_DETECT.toUpperCase();
	const customFields = customFieldsOf(this, options.customFields, itemIndex);
	let inference: Inference | undefined;
	if (requestType === INFER || (!autoDetect && (scac === INFER.toUpperCase() || scac === ''))) {
		inference = await requestInference(this, requestNumber, itemIndex);
	}
	if (inference && requestType === INFER) {
		const numberType = inference.attributes.number_type;
		if (typeof numberType !== 'string' || numberType === '') {
			throw new NodeOperationError(
				this.getNode(),
				`The service did not say what kind of number "${requestNumber}" is`,
				{
					itemIndex,
					description: 'Choose the kind of number in "Request Type".',
				},
			);
		}
		// A number type no table lists is passed on as it came: the service named it.
		requestType = numberType;
	}
	if (inference && !autoDetect && (scac === INFER.toUpperCase() || scac === '')) {
		const decision = decisionOf(inference.attributes);
		const selected = selectedCarrier(inference.attributes);
		// Only the decisions the interface defines as confident are acted on; any other one,
		// known or not, leaves the choice to a person.
		const accepted =
			decision === 'auto_select' ||
			(decision === 'needs_confirmation' && options.acceptNeedsConfirmation === true);
		if (!accepted || !selected) {
			const candidates = candidatesText(inference.attributes);
			throw new NodeOperationError(
				this.getNode(),
				// Candidates go in the message too: with Continue On Fail it is all the error item keeps.
				`The carrier of "${requestNumber}" could not be inferred with confidence (decision: ${decision ?? 'none'}; candidates: ${candidates})`,
				{
					itemIndex,
					description: `Candidates: ${candidates}. Choose the shipping line in "Shipping Line"${
						decision === 'needs_confirmation'
							? ', or turn on "Accept Carrier Needing Confirmation"'
							: ''
					}.`,
				},
			);
		}
		scac = selected.scac;
	}

	if (!autoDetect) await checkLineTracks(this, scac, requestType, itemIndex);
	const body = {
		data: {
			type: 'tracking_request',
			attributes: {
				request_number: requestNumber,
				request_type: requestType,
				...(autoDetect ? { auto_detect_vocc_scac: true } : { scac }),
				ref_numbers: commaList(options.refNumbers),
				shipment_tags: commaList(options.shipmentTags),
				...(customFields ? { initial_custom_fields: customFields } : {}),
			},
		},
	};
	const inferred = inference ? { inferred: inferenceSummary(inference.attributes) } : {};
	const inferenceWarnings = inference?.warnings ?? [];
	// Safe to send again when an answer is lost: if the lost attempt created the request, the
	// repeat is answered `duplicate`, which is reported below as already tracked.
	const response = await containerTrackingRequest.call(this, 'POST', '/tracking_requests', {
		body,
		itemIndex,
		acceptStatuses: [422],
		repeat: 'yes',
	});
	const repeated = repeatFields(response);
	if (response.status === 422) {
		const errors = Array.isArray(response.body.errors)
			? (response.body.errors as IDataObject[])
			: [];
		const duplicate = errors.find((error) => error?.code === 'duplicate');
		// Tracking the same number and SCAC twice means "already tracked", not a broken request.
		if (!duplicate) throw serviceError(this, response, 'POST', '/tracking_requests', itemIndex);
		const serviceMessage = String(duplicate.detail ?? duplicate.title ?? 'Already tracked');
		return [
			{
				json: withWarnings(
					{
						request_number: requestNumber,
						request_type: requestType,
						scac,
						already_tracked: true,
						message:
							repeated.retried_after !== undefined
								? `${serviceMessage.replace(/\.$/, '')}. The request was sent again after ${String(repeated.retried_after)}: the earlier attempt most likely created it.`
								: serviceMessage,
						...repeated,
						...inferred,
					},
					inferenceWarnings,
				),
				pairedItem: { item: itemIndex },
			},
		];
	}
	const { document, warnings } = readAnswer(
		this,
		singleDocumentCore,
		trackingRequestDocument,
		response.body,
		'creating a tracking request',
		itemIndex,
	);
	const record = flattenResource(document.data, indexIncluded(document.included));
	return [
		{
			json: withWarnings({ ...record, already_tracked: false, ...repeated, ...inferred }, [
				...inferenceWarnings,
				...warnings.forRecord(),
			]),
			pairedItem: { item: itemIndex },
		},
	];
}

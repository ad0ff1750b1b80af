import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { findNumbers, textProblem, type FoundNumber } from '../../logic/numberFinder';
import { asNodeError } from '../../transport/errors';
import { askedOncePerRun, optionsCollection, showFor, withWarnings } from '../common';
import type { OperationOption } from '../operation';
import { inferenceSummary, requestInference, type Inference } from './inferNumber';

const show = showFor('trackingRequest', 'findNumbers');

export const DEFAULT_MAX_NUMBERS = 50;

export const option: OperationOption = {
	name: 'Find Numbers in Text',
	action: 'Find container, bill of lading and booking numbers in text',
	description:
		"Find the container, bill of lading and booking numbers in an email, a PDF's text or a message, check each container number's check digit and infer each number's carrier",
};

export const toolDescription =
	"Use this when someone pastes an email, a PDF's text or a message and asks which containers or bills of lading it mentions. Returns each container, bill of lading and booking number found, whether its check digit holds, and its likely shipping line.";

export const description: INodeProperties[] = [
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 6 },
		required: true,
		default: '',
		placeholder: 'Please find attached the arrival notice for B/L MEDUFR030802, containers …',
		description:
			"The text to search: an email body, the text n8n's Extract from File took from a PDF, a chat message",
		displayOptions: show,
	},
	{
		displayName: 'Infer Carrier',
		name: 'inferCarrier',
		type: 'boolean',
		default: true,
		description:
			"Whether to ask the service for each distinct number's shipping line and number type (one call per number, paced to its rate limit)",
		displayOptions: show,
	},
	optionsCollection('trackingRequest', 'findNumbers', [
		{
			displayName: 'Max Numbers to Infer',
			name: 'maxNumbers',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MAX_NUMBERS,
			description:
				'At most this many numbers of one text are sent to the service for inference; the others are still listed, with "inferred" false',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'One Item per Number',
					value: 'eachNumber',
					description: 'No item when the text holds none',
				},
				{
					name: 'One Item per Text',
					value: 'oneItem',
					description: 'The numbers in a list, with counts; also when the text holds none',
				},
			],
			default: 'eachNumber',
			description: 'How the numbers found are output',
		},
	]),
];

/** A run's inferences by number: a number in several items (a body and its PDF) is asked once. */
const inferencesOfRun = new WeakMap<IExecuteFunctions, Map<string, Promise<Inference>>>();

/** The text to search, or an error naming the item and the field and saying what to do. */
function textToSearch(context: IExecuteFunctions, itemIndex: number): string {
	const value: unknown = context.getNodeParameter('text', itemIndex, '');
	const error = (message: string, description: string) =>
		new NodeOperationError(context.getNode(), message, { itemIndex, description });
	if (typeof value !== 'string') {
		const kind = Array.isArray(value)
			? 'a list'
			: typeof value === 'object'
				? 'an object'
				: `a ${typeof value}`;
		throw error(
			`The field "Text" holds ${kind}, not text`,
			'Map the text itself, e.g. {{ $json.text }} or {{ $json.textPlain }}.',
		);
	}
	if (value.trim() === '') {
		throw error(
			'The field "Text" is empty',
			"Map the text to search, e.g. an email's {{ $json.textPlain }} or Extract from File's {{ $json.text }}.",
		);
	}
	const problem = textProblem(value);
	if (problem) {
		throw error(
			problem,
			"Extract its text first, e.g. with n8n's Extract from File (Extract From PDF), and map that text.",
		);
	}
	return value;
}

/** Why a number is not sent for inference, or null when it is. */
function notInferredBecause(
	found: FoundNumber,
	position: number,
	maxNumbers: number,
): string | null {
	if (found.containerCheck && !found.containerCheck.isValid)
		return 'Not a valid container number: the service would be asked to track a typo';
	if (position >= maxNumbers)
		return `Beyond the first ${maxNumbers} numbers (Max Numbers to Infer)`;
	return null;
}

function numberItem(
	found: FoundNumber,
	inference: Inference | undefined,
	notInferredReason: string | null,
): IDataObject {
	const check = found.containerCheck;
	const summary = inference ? inferenceSummary(inference.attributes) : undefined;
	// A container number's verdict is ISO 6346's; the others' the service's, when it was asked.
	const numberType = check ? 'container' : ((summary?.number_type as string | null) ?? found.kind);
	const json: IDataObject = {
		number: found.number,
		number_type: numberType,
		is_valid: check ? check.isValid : (summary?.is_valid ?? null),
		reason: check ? check.reason : (summary?.reason ?? null),
		check_digit_passed: check ? check.checkDigitPassed : null,
		expected_check_digit: check ? check.expectedCheckDigit : null,
		scac: summary?.scac ?? null,
		carrier_name: summary?.carrier_name ?? null,
		confidence: summary?.confidence ?? null,
		decision: summary?.decision ?? null,
		inferred: inference !== undefined,
		not_inferred_reason: notInferredReason,
		label: found.label,
		found_as: found.foundAs,
		occurrences: found.occurrences as unknown as IDataObject[],
		occurrence_count: found.occurrenceCount,
	};
	return withWarnings(json, inference?.warnings ?? []);
}

/** Each number's item, inferring the distinct numbers in turn (the transport paces them). */
async function numberItems(
	context: IExecuteFunctions,
	found: FoundNumber[],
	itemIndex: number,
): Promise<IDataObject[]> {
	const inferCarrier = context.getNodeParameter('inferCarrier', itemIndex, true) as boolean;
	const maxNumbers = context.getNodeParameter(
		'options.maxNumbers',
		itemIndex,
		DEFAULT_MAX_NUMBERS,
	) as number;
	const items: IDataObject[] = [];
	let asked = 0;
	for (const number of found) {
		const reason = inferCarrier
			? notInferredBecause(number, asked, maxNumbers)
			: 'Infer Carrier is off';
		if (reason !== null) {
			items.push(numberItem(number, undefined, reason));
			continue;
		}
		asked++;
		try {
			const inference = await askedOncePerRun(inferencesOfRun, context, number.number, () =>
				requestInference(context, number.number, itemIndex),
			);
			items.push(numberItem(number, inference, null));
		} catch (error) {
			// A refused key fails the item; one number the service could not answer for does not
			// lose the others.
			if (error instanceof NodeApiError && ['401', '403'].includes(String(error.httpCode)))
				throw asNodeError(context.getNode(), error, itemIndex);
			const message = (error as Error).message;
			items.push(numberItem(number, undefined, `The service could not infer it: ${message}`));
		}
	}
	return items;
}

function countOf(items: IDataObject[], numberType: string): number {
	return items.filter((item) => item.number_type === numberType).length;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const text = textToSearch(this, itemIndex);
	const items = await numberItems(this, findNumbers(text), itemIndex);
	const output = this.getNodeParameter('options.output', itemIndex, 'eachNumber') as string;
	if (output === 'oneItem') {
		return [
			{
				json: {
					numbers_found: items.length,
					containers: countOf(items, 'container'),
					bills_of_lading: countOf(items, 'bill_of_lading'),
					bookings: countOf(items, 'booking'),
					invalid: items.filter((item) => item.is_valid === false).length,
					text_length: text.length,
					numbers: items,
				},
				pairedItem: { item: itemIndex },
			},
		];
	}
	return items.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

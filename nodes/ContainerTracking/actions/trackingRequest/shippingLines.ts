import {
	NodeOperationError,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { SHIPPING_LINES } from '../../logic/shippingLines';
import { listDocumentCore, membersOf, shippingLineListDocument } from '../../schemas';
import { containerTrackingRequest, readAnswer } from '../../transport/request';
import { askedOnce } from '../common';

/** A line the account can track, and whether it tracks each kind of number (undefined: not said). */
export interface AccountShippingLine {
	scac: string;
	name: string;
	scacs: string[];
	tracks: Record<string, boolean | undefined>;
}

const KIND_FLAGS: Record<string, string> = {
	container: 'container_number_tracking_support',
	bill_of_lading: 'bill_of_lading_tracking_support',
	booking: 'booking_number_tracking_support',
};

const KIND_WORDS: Record<string, string> = {
	container: 'container numbers',
	bill_of_lading: 'bills of lading',
	booking: 'booking numbers',
};

/** `GET /shipping_lines` (no pagination): the lines of this account. */
export async function readShippingLines(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	{ itemIndex, toleranceSeconds }: { itemIndex?: number; toleranceSeconds?: number } = {},
): Promise<AccountShippingLine[]> {
	const response = await containerTrackingRequest.call(context, 'GET', '/shipping_lines', {
		itemIndex,
		toleranceSeconds,
	});
	const { document } = readAnswer(
		context,
		listDocumentCore,
		shippingLineListDocument,
		response.body,
		'listing shipping lines',
		itemIndex,
	);
	return (document.data as Array<{ attributes?: unknown }>).flatMap((record) => {
		const attributes = membersOf(record.attributes);
		if (typeof attributes.scac !== 'string') return [];
		const alternatives = Array.isArray(attributes.alternative_scacs)
			? attributes.alternative_scacs.filter((scac): scac is string => typeof scac === 'string')
			: [];
		return [
			{
				scac: attributes.scac,
				name: typeof attributes.name === 'string' ? attributes.name : attributes.scac,
				scacs: [attributes.scac, ...alternatives].map((scac) => scac.toUpperCase()),
				tracks: Object.fromEntries(
					Object.entries(KIND_FLAGS).map(([kind, flag]) => [
						kind,
						typeof attributes[flag] === 'boolean' ? (attributes[flag] as boolean) : undefined,
					]),
				),
			},
		];
	});
}

const kindsTracked = (line: AccountShippingLine) =>
	Object.keys(KIND_WORDS)
		.filter((kind) => line.tracks[kind] !== false)
		.map((kind) => KIND_WORDS[kind]);

/**
 * The Shipping Line choices: the account's lines, by name and SCAC, saying which kinds of number
 * each tracks; the fixed table when the list cannot be read (an older account, the service
 * down), so that the field always offers something.
 */
export async function shippingLineOptions(
	context: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	try {
		const lines = await readShippingLines(context, { toleranceSeconds: 0 });
		if (lines.length > 0)
			return lines
				.map((line) => ({
					name: `${line.name} (${line.scac})`,
					value: line.scac,
					description: `Tracks ${kindsTracked(line).join(', ')}`,
				}))
				.sort((a, b) => a.name.localeCompare(b.name));
	} catch {
		// The fixed table below.
	}
	return SHIPPING_LINES.map((line) => ({ name: `${line.name} (${line.scac})`, value: line.scac }));
}

// The account's lines, read once per run of the node.
const linesOfRun = new WeakMap<IExecuteFunctions, Promise<AccountShippingLine[] | undefined>>();

/**
 * Before a request goes out: a line the account's list says does not track this kind of number
 * fails the item, saying so. A line the list does not hold, a flag it does not give, or a list
 * that cannot be read sends the request as it is: the service decides.
 */
export async function checkLineTracks(
	context: IExecuteFunctions,
	scac: string,
	requestType: string,
	itemIndex: number,
): Promise<void> {
	if (!(requestType in KIND_WORDS)) return;
	// Not worth waiting an outage out for: the request itself will, and the service decides.
	const lines = await askedOnce(linesOfRun, context, () =>
		readShippingLines(context, { itemIndex, toleranceSeconds: 0 }).catch(() => undefined),
	);
	const line = lines?.find((candidate) => candidate.scacs.includes(scac.toUpperCase()));
	if (!line || line.tracks[requestType] !== false) return;
	throw new NodeOperationError(
		context.getNode(),
		`${line.name} (${line.scac}) does not track ${KIND_WORDS[requestType]} for this account`,
		{
			itemIndex,
			description: `The account's shipping lines say ${line.name} tracks ${kindsTracked(line).join(', ') || 'nothing'}. Track the number as another kind (field "Request Type"), or choose another shipping line. Nothing was sent.`,
		},
	);
}

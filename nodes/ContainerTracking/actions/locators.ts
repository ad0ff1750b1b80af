import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeParameterResourceLocator,
	type INodeProperties,
} from 'n8n-workflow';

import { checkContainerNumber, looksLikeContainerNumber } from '../logic/iso6346';
import { membersOf } from '../schemas';
import { asNodeError } from '../transport/errors';
import { fetchAllPages } from '../transport/pagination';
import { askedOnce, askedOncePerRun } from './common';
import { SEARCH_LIMIT, searchRecords } from './search/find';

/*
 * Resource locators: a record is picked from a searchable list, given by the key people know
 * (a container number), or given by its id in the service. The list searches live in
 * methods/listSearch.ts; this file holds the fields and turns what was chosen into an id.
 */

const UUID_PLACEHOLDER = 'e.g. 55a700e4-7005-45a9-92fd-1ff38641dbd9';

/** The service's ids are UUIDs: as a pattern for the editor's check, and as a RegExp. */
const UUID_PATTERN = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
const UUID = new RegExp(`^${UUID_PATTERN}$`);

/** Whether a value is one of the service's ids (a UUID), which means nothing to a person. */
export const isServiceId = (value: unknown): boolean =>
	typeof value === 'string' && UUID.test(value);

function locator(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'displayOptions'>,
	listMethod: string,
	listPlaceholder: string,
): INodeProperties {
	return {
		...field,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: listPlaceholder,
				typeOptions: { searchListMethod: listMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder: UUID_PLACEHOLDER },
		],
	};
}

export function containerLocator(operation: string): INodeProperties {
	const field = locator(
		{
			displayName: 'Container',
			name: 'containerId',
			description:
				'The container: pick it from the list (type part of its number), give its number, or its ID in the service',
			displayOptions: { show: { resource: ['container'], operation: [operation] } },
		},
		'searchContainers',
		'Select a container…',
	);
	const [fromList, byId] = field.modes!;
	// Modes are written where n8n's linters look for them: in a `modes` list. "Number", not
	// "By Number": the editor's mode menu cut that to "By Numl". Switching from the list, n8n
	// 2.40 carries the picked container's id into the new mode, so this mode accepts an id too
	// (as By ID accepts a number) instead of flagging it red.
	return {
		...field,
		modes: [
			fromList,
			{
				displayName: 'Number',
				name: 'number',
				type: 'string',
				placeholder: 'e.g. MSKU4807969',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: `^\\s*([A-Za-z]{4}[\\s.\\-/]*\\d{6}[\\s.\\-/]*\\d|${UUID_PATTERN})\\s*$`,
							errorMessage: 'A container number is four letters and seven digits, e.g. MSKU4807969',
						},
					},
				],
			},
			byId,
		],
	};
}

export function trackingRequestLocator(operation: string): INodeProperties {
	return locator(
		{
			displayName: 'Tracking Request',
			name: 'trackingRequestId',
			description:
				'The tracking request: pick it from the list (type part of its number), or give its ID',
			displayOptions: { show: { resource: ['trackingRequest'], operation: [operation] } },
		},
		'searchTrackingRequests',
		'Select a tracking request…',
	);
}

export function shipmentLocator(operation: string): INodeProperties {
	return locator(
		{
			displayName: 'Shipment',
			name: 'shipmentId',
			description:
				'The shipment: pick it from the list (type part of its bill of lading number), or give its ID (`shipment_id` of a tracking request, container or trigger item)',
			displayOptions: { show: { resource: ['shipment'], operation: [operation] } },
		},
		'searchShipments',
		'Select a shipment…',
	);
}

export function webhookLocator(operation: string): INodeProperties {
	return locator(
		{
			displayName: 'Webhook',
			name: 'webhookId',
			description: 'The webhook: pick it from the list (type part of its URL), or give its ID',
			displayOptions: { show: { resource: ['webhook'], operation: [operation] } },
		},
		'searchWebhooks',
		'Select a webhook…',
	);
}

/** What a locator holds: its mode and its value, also when a workflow saved a plain string. */
function chosen(
	context: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): { mode: string; value: string } {
	const raw = context.getNodeParameter(name, itemIndex, '') as
		| INodeParameterResourceLocator
		| string
		| undefined;
	const located = typeof raw === 'object' && raw !== null ? raw : { mode: 'id', value: raw };
	const value = String(located.value ?? '').trim();
	if (!value) {
		throw new NodeOperationError(context.getNode(), `The field "${label}" is empty`, {
			itemIndex,
			description: `Pick a ${label.toLowerCase()} from the list, or map one from the input with an expression.`,
		});
	}
	return { mode: String(located.mode ?? 'id'), value };
}

/** The id of the tracking request, shipment or webhook a locator names. */
export function locatedId(
	context: IExecuteFunctions,
	name: 'trackingRequestId' | 'webhookId' | 'shipmentId',
	label: string,
	itemIndex: number,
): string {
	return chosen(context, name, label, itemIndex).value;
}

export interface LocatedContainer {
	id: string;
	/** The number it was found by, when it was given by number. */
	number?: string;
}

/**
 * Containers of the account by number, two ways, so that the calls grow with the work:
 * - a run of up to SEARCH_UP_TO_ITEMS items searches each number (`GET /search`, one call
 *   however many containers the account tracks);
 * - a longer run reads the account's container list once, 100 per page, and answers every item
 *   from it (on an account with 1,000 containers, 10 calls for a whole column of numbers); so
 *   does a search the service refuses (404) or whose 25 results may have cut the container off.
 * The same number can belong to several containers (one per journey of the box); the newest
 * journey is chosen.
 */
const SEARCH_UP_TO_ITEMS = 20;

interface ContainerDirectory {
	byNumber: Map<string, IDataObject[]>;
	scanned: number;
}

// One directory, and one search per number, per run of the node: keyed by the context n8n gives
// all items of that run.
const directories = new WeakMap<IExecuteFunctions, Promise<ContainerDirectory>>();
const searches = new WeakMap<IExecuteFunctions, Map<string, Promise<IDataObject[] | undefined>>>();

/** The containers a search finds under exactly this number; undefined when it cannot tell. */
async function searchedContainers(
	context: IExecuteFunctions,
	number: string,
	itemIndex: number,
): Promise<IDataObject[] | undefined> {
	let found;
	try {
		found = (await searchRecords(context, number, itemIndex)).records;
	} catch (error) {
		if ((error as { httpCode?: unknown }).httpCode === '404') return undefined;
		throw asNodeError(context.getNode(), error, itemIndex);
	}
	const matches = found.filter(
		(record) =>
			record.type === 'cargo' &&
			checkContainerNumber(String(membersOf(record.attributes).number ?? '')).normalized === number,
	);
	return matches.length === 0 && found.length >= SEARCH_LIMIT
		? undefined
		: (matches as IDataObject[]);
}

function searchOnce(
	context: IExecuteFunctions,
	number: string,
	itemIndex: number,
): Promise<IDataObject[] | undefined> {
	return askedOncePerRun(searches, context, number, () =>
		searchedContainers(context, number, itemIndex),
	);
}

function directoryOnce(context: IExecuteFunctions, itemIndex: number): Promise<ContainerDirectory> {
	return askedOnce(directories, context, () => readDirectory(context, itemIndex));
}

async function readDirectory(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<ContainerDirectory> {
	const { records } = await fetchAllPages.call(context, '/containers', {
		itemIndex,
		what: 'looking containers up by number',
	});
	const byNumber: ContainerDirectory['byNumber'] = new Map();
	for (const record of records) {
		const number = membersOf(record.attributes).number;
		if (typeof number !== 'string') continue;
		const key = checkContainerNumber(number).normalized;
		byNumber.set(key, [...(byNumber.get(key) ?? []), record]);
	}
	return { byNumber, scanned: records.length };
}

function createdAt(record: IDataObject): number {
	const created = Date.parse(String(membersOf(record.attributes).created_at ?? ''));
	return Number.isNaN(created) ? -Infinity : created;
}

/**
 * Why a number whose check digit fails was not found, and the number it most likely is: the same
 * with the check digit ISO 6346 expects, named as tracked when this account tracks it (one more
 * search, made only on this failure).
 */
async function checkDigitHint(
	context: IExecuteFunctions,
	number: string,
	expectedCheckDigit: number | null,
	directory: ContainerDirectory | undefined,
	itemIndex: number,
): Promise<string> {
	if (expectedCheckDigit === null) return ' Its check digit does not match: is there a typo?';
	const corrected = `${number.slice(0, -1)}${expectedCheckDigit}`;
	const tracked =
		(directory
			? directory.byNumber.get(corrected)
			: await searchOnce(context, corrected, itemIndex).catch(() => undefined)) ?? [];
	return ` ${number} fails its check digit (ISO 6346 expects ${expectedCheckDigit} at the end): did you mean ${corrected}?${tracked.length > 0 ? ` This account tracks ${corrected}.` : ''}`;
}

async function containerByNumber(
	context: IExecuteFunctions,
	input: string,
	itemIndex: number,
): Promise<LocatedContainer> {
	const check = checkContainerNumber(input);
	if (!looksLikeContainerNumber(input)) {
		throw new NodeOperationError(context.getNode(), `"${input}" is not a container number`, {
			itemIndex,
			description:
				'The field "Container" (Number) takes four letters and seven digits, e.g. MSKU4807969.',
		});
	}
	const searched =
		context.getInputData().length <= SEARCH_UP_TO_ITEMS
			? await searchOnce(context, check.normalized, itemIndex)
			: undefined;
	const directory = searched ? undefined : await directoryOnce(context, itemIndex);
	const matches = searched ?? directory?.byNumber.get(check.normalized) ?? [];
	if (matches.length === 0) {
		const typo =
			check.checkDigitPassed === false
				? await checkDigitHint(context, check.normalized, check.expectedCheckDigit, directory, itemIndex)
				: '';
		throw new NodeOperationError(
			context.getNode(),
			`No container numbered ${check.normalized} is tracked by this account`,
			{
				itemIndex,
				description: `${directory ? `Searched ${directory.scanned} containers.` : "The service's search by number found none."}${typo} Create a tracking request for it first, or check the number in the field "Container".`,
			},
		);
	}
	const newest = matches.reduce((best, record) =>
		createdAt(record) > createdAt(best) ? record : best,
	);
	return { id: String(newest.id), number: check.normalized };
}

/**
 * The container a locator names. A container number is looked up by number in any mode, so that
 * `MSKU4807969` typed or mapped into "By ID" finds the container instead of a 404; an id is read
 * as an id in any mode, as the editor carries it into "Number" from the list.
 */
export async function locatedContainer(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<LocatedContainer> {
	const { mode, value } = chosen(context, 'containerId', 'Container', itemIndex);
	if (isServiceId(value)) return { id: value };
	if (mode === 'number' || looksLikeContainerNumber(value))
		return await containerByNumber(context, value, itemIndex);
	return { id: value };
}

import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
	type JsonObject,
} from 'n8n-workflow';

import type { DataWarning, DocumentWarnings } from '../schemas/warnings';
import { asNodeError } from '../transport/errors';
import { DEFAULT_OUTAGE_TOLERANCE_SECONDS, type ServiceResponse } from '../transport/request';

/**
 * The error of a request to a paid feature: a 403 says in words that the account lacks
 * `feature` and what to do instead; anything else is the usual error.
 */
export function paidFeatureError(
	context: Pick<IExecuteFunctions, 'getNode'>,
	error: unknown,
	itemIndex: number,
	{ refusal, instead }: { refusal: string; instead: string },
): Error {
	if (error instanceof NodeApiError && error.httpCode === '403')
		return new NodeApiError(context.getNode(), error.errorResponse as JsonObject, {
			itemIndex,
			httpCode: '403',
			message: refusal,
			description: `The service answered 403: ${error.message}. Ask the service to enable it for the account, or ${instead}.`,
		});
	return asNodeError(context.getNode(), error, itemIndex);
}

/** `displayOptions` for the fields of one operation. */
export function showFor(resource: string, operation: string): INodeProperties['displayOptions'] {
	return { show: { resource: [resource], operation: [operation] } };
}

/** The get-many convention of n8n nodes: Return All, or a Limit shown only when it is off. */
export function returnAllAndLimit(resource: string, operation: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: showFor(resource, operation),
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: {
				show: { resource: [resource], operation: [operation], returnAll: [false] },
			},
		},
	];
}

/** Every operation's option: how long an item rides out a service outage (transport/request.ts). */
const OUTAGE_TOLERANCE: INodeProperties = {
	displayName: 'Outage Tolerance (Seconds)',
	name: 'outageTolerance',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_OUTAGE_TOLERANCE_SECONDS,
	description:
		'How long an item keeps trying while the service fails (5xx answers, dropped connections, timeouts) or asks it to wait (429, Retry-After) before it fails; 0 fails on the first fault or 429. Pacing to the rate limits before a call is sent does not count.',
};

/**
 * An operation's fields with Outage Tolerance among its Options: added to its Options
 * collection (in alphabetical order, as n8n lists options), or in an Options collection of its
 * own when it has none.
 */
export function withOutageTolerance(
	resource: string,
	operation: string,
	fields: INodeProperties[],
): INodeProperties[] {
	const index = fields.findIndex(
		(field) => field.name === 'options' && field.type === 'collection',
	);
	if (index === -1) return [...fields, optionsCollection(resource, operation, [OUTAGE_TOLERANCE])];
	return fields.map((field, position) =>
		position === index
			? {
					...field,
					options: [...((field.options ?? []) as INodeProperties[]), OUTAGE_TOLERANCE].sort(
						(a, b) => a.displayName.localeCompare(b.displayName),
					),
				}
			: field,
	);
}

/** The "Options" collection of an operation: optional settings, shown as "Add Option". */
export function optionsCollection(
	resource: string,
	operation: string,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: showFor(resource, operation),
		options,
	};
}

/** Undefined when Return All is on. */
export function limitOf(context: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	return returnAll ? undefined : (context.getNodeParameter('limit', itemIndex, 50) as number);
}

/**
 * What the node could not read as the interface promises goes on the item as `warnings`, only
 * when there is some, so that items of answers that match the interface stay as they were.
 */
export function withWarnings(json: IDataObject, warnings: DataWarning[]): IDataObject {
	return warnings.length > 0 ? { ...json, warnings: warnings as unknown as IDataObject[] } : json;
}

/**
 * A write that was sent again after an attempt whose outcome was unknown says so on its item:
 * `retried: true` and what the earlier attempts met (`retried_after: "HTTP 502"`).
 */
export function repeatFields(response: ServiceResponse): IDataObject {
	return response.repeatedAfter.length > 0
		? { retried: true, retried_after: response.repeatedAfter.join(', ') }
		: {};
}

/**
 * One output item per record of a list answer, each paired with the input item it came from and
 * carrying the warnings of its record (`warnings.forRecord(index)`).
 */
export function itemsFrom(
	records: IDataObject[],
	itemIndex: number,
	warnings?: DocumentWarnings,
): INodeExecutionData[] {
	return records.map((json, index) => ({
		json: warnings ? withWarnings(json, warnings.forRecord(index)) : json,
		pairedItem: { item: itemIndex },
	}));
}

/** A required text field, trimmed; an empty value is a clear error naming the field. */
export function requiredText(
	context: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = String(context.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!value) {
		throw new NodeOperationError(context.getNode(), `The field "${label}" is empty`, {
			itemIndex,
			description: `Enter a value for "${label}", or map one from the input with an expression.`,
		});
	}
	return value;
}

/**
 * Options for a value set the schemas hold (schemas/values.ts), named in `names`: a value added
 * to the set fails the type check until it has a name here. Listed in the set's order.
 */
export function valueOptions<const Values extends readonly string[]>(
	values: Values,
	names: Record<Values[number], string>,
): INodePropertyOptions[] {
	return values.map((value: Values[number]) => ({ name: names[value], value }));
}

/** Names of the kinds of number a tracking request can be for. */
export const REQUEST_TYPE_NAMES = {
	container: 'Container',
	bill_of_lading: 'Bill of Lading',
	booking: 'Booking',
} as const;

/** A cache of pending answers: a Map, or a WeakMap keyed by the run's context. */
interface PendingCache<Key, Value> {
	get(key: Key): Promise<Value> | undefined;
	set(key: Key, value: Promise<Value>): unknown;
	delete(key: Key): unknown;
}

/**
 * The answer for `key`, asked for once (a run's items share it); a failed one is forgotten, so
 * that the next item asks again.
 */
export function askedOnce<Key, Value>(
	cache: PendingCache<Key, Value>,
	key: Key,
	ask: () => Promise<Value>,
): Promise<Value> {
	let pending = cache.get(key);
	if (!pending) {
		pending = ask();
		cache.set(key, pending);
		pending.catch(() => cache.delete(key));
	}
	return pending;
}

/**
 * The answer for `key` within one run of the node (`context`, which n8n gives all items of the
 * run), asked for once: askedOnce with a cache per run, dropped with the run.
 */
export function askedOncePerRun<Value>(
	runs: WeakMap<IExecuteFunctions, Map<string, Promise<Value>>>,
	context: IExecuteFunctions,
	key: string,
	ask: () => Promise<Value>,
): Promise<Value> {
	let cache = runs.get(context);
	if (!cache) {
		cache = new Map();
		runs.set(context, cache);
	}
	return askedOnce(cache, key, ask);
}

/** A list given as a list, or as comma-separated text (how an expression or a typed field gives it). */
export function commaList(value: unknown): string[] {
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

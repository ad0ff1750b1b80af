import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { compactNumber, normalizeContainerNumber } from '../logic/iso6346';
import { membersOf } from '../schemas';
import { indexIncluded, relatedRecord } from '../records/jsonApi';
import type { JsonApiResource } from '../schemas';
import { SEARCH_LIMIT, searchRecords } from '../actions/search/find';
import { fetchPage } from '../transport/pagination';

/*
 * The "From list" mode of the resource locators (actions/locators.ts). A number typed into the
 * container, shipment or tracking request list is looked up with the service's search first (one
 * call: `searchByNumber`); otherwise, and where the search cannot answer for certain, the list is
 * read 100 records a page, keeping what matches; the link to the next page is the pagination
 * token, so n8n asks for more only when the list is scrolled.
 */

/** A search that is typed reads pages until it has this many matches (or the list ends). */
export const SEARCH_MATCHES_PER_CALL = 20;

type Entry = { record: IDataObject; included: Map<string, JsonApiResource> };

async function searchList(
	context: ILoadOptionsFunctions,
	path: string,
	{
		filter,
		paginationToken,
		qs,
		matches,
		toResult,
	}: {
		filter?: string;
		paginationToken?: string;
		qs?: IDataObject;
		matches: (entry: Entry) => boolean;
		toResult: (entry: Entry) => INodeListSearchItems;
	},
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	const searching = Boolean(filter?.trim());
	let pageUrl = paginationToken || undefined;
	do {
		const page = await fetchPage.call(context, path, {
			qs,
			pageUrl,
			what: `searching ${path.slice(1).replace(/_/g, ' ')}`,
		});
		const included = indexIncluded(page.included);
		for (const record of page.records) {
			const entry = { record, included };
			if (!searching || matches(entry)) results.push(toResult(entry));
		}
		pageUrl = page.records.length > 0 ? page.next : undefined;
	} while (searching && pageUrl && results.length < SEARCH_MATCHES_PER_CALL);
	return { results, paginationToken: pageUrl };
}

/**
 * A typed number through `GET /search` (actions/search/find.ts): the results of `type` whose
 * number `holds` it. Undefined (read the list instead) when nothing was typed, when the answer
 * was cut at the service's 25 results and so may lack some, when it found none (the service
 * may read "tr fail" otherwise than the list's match, which ignores spaces and dashes), or when
 * the search failed: the account or service may not have it, and the list read says what is
 * wrong, if anything is.
 */
async function searchedFirst(
	context: ILoadOptionsFunctions,
	filter: string | undefined,
	paginationToken: string | undefined,
	type: string,
	holds: (number: unknown) => boolean,
	toResult: (attributes: IDataObject, id: string) => INodeListSearchItems,
): Promise<INodeListSearchResult | undefined> {
	if (!filter?.trim() || paginationToken) return undefined;
	let records: JsonApiResource[];
	try {
		records = (await searchRecords(context, filter.trim())).records;
	} catch {
		return undefined;
	}
	if (records.length >= SEARCH_LIMIT) return undefined;
	const results = records
		.filter((record) => record.type === type && holds(membersOf(record.attributes).number))
		.map((record) => toResult(membersOf(record.attributes) as IDataObject, String(record.id)));
	return results.length > 0 ? { results } : undefined;
}

/**
 * A list searched by a number: the service's search first (`searchedFirst`, whose results are
 * named by `searchedName`), else the list, whose records hold the number in `numberField` and
 * are named by `toResult`. Both keep a record whose number, read with `normalize`, contains
 * what was typed read the same way.
 */
async function searchByNumber(
	context: ILoadOptionsFunctions,
	path: string,
	{
		filter,
		paginationToken,
		qs,
		type,
		numberField,
		normalize,
		searchedName,
		toResult,
	}: {
		filter?: string;
		paginationToken?: string;
		qs?: IDataObject;
		type: string;
		numberField: string;
		normalize: (text: string) => string;
		searchedName: (attributes: IDataObject, id: string) => string;
		toResult: (entry: Entry) => INodeListSearchItems;
	},
): Promise<INodeListSearchResult> {
	const wanted = normalize(filter ?? '');
	const holds = (number: unknown) => normalize(text(number) ?? '').includes(wanted);
	const searched = await searchedFirst(
		context,
		filter,
		paginationToken,
		type,
		holds,
		(attributes, id) => ({
			name: searchedName(attributes, id),
			value: id,
		}),
	);
	return (
		searched ??
		(await searchList(context, path, {
			filter,
			paginationToken,
			qs,
			matches: ({ record }) => holds(membersOf(record.attributes)[numberField]),
			toResult,
		}))
	);
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() ? value.trim() : undefined;

const readable = (value: unknown): string | undefined => text(value)?.replace(/_/g, ' ');

/** Name parts joined by " · ", missing ones left out. */
const joined = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' · ');

export async function searchContainers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchByNumber(this, '/containers', {
		filter,
		paginationToken,
		qs: { include: 'pod_terminal' },
		type: 'cargo',
		numberField: 'number',
		normalize: normalizeContainerNumber,
		searchedName: (attributes, id) =>
			joined(
				text(attributes.number) ?? id,
				text(attributes.scac),
				text(attributes.port_of_discharge_name),
			),
		toResult: ({ record, included }) => {
			const attributes = membersOf(record.attributes);
			const terminal = relatedRecord(
				record as unknown as JsonApiResource,
				'pod_terminal',
				included,
			);
			return {
				name: joined(
					text(attributes.number) ?? String(record.id),
					readable(attributes.current_status),
					text(membersOf(terminal?.attributes).name),
				),
				value: String(record.id),
			};
		},
	});
}

export async function searchTrackingRequests(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchByNumber(this, '/tracking_requests', {
		filter,
		paginationToken,
		type: 'tracking_request',
		numberField: 'request_number',
		normalize: compactNumber,
		searchedName: (attributes, id) =>
			joined(
				text(attributes.number) ?? id,
				text(attributes.scac),
				readable(attributes.status),
				readable(attributes.failed_reason),
			),
		toResult: ({ record }) => {
			const attributes = membersOf(record.attributes);
			return {
				name: joined(
					text(attributes.request_number) ?? String(record.id),
					text(attributes.scac),
					readable(attributes.status),
					readable(attributes.failed_reason),
				),
				value: String(record.id),
			};
		},
	});
}

export async function searchShipments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchByNumber(this, '/shipments', {
		filter,
		paginationToken,
		type: 'shipment',
		numberField: 'bill_of_lading_number',
		normalize: compactNumber,
		searchedName: (attributes, id) =>
			joined(
				text(attributes.number) ?? id,
				text(attributes.scac),
				text(attributes.port_of_discharge_name),
				attributes.tracking_stopped === true ? 'tracking stopped' : undefined,
			),
		toResult: ({ record }) => {
			const attributes = membersOf(record.attributes);
			return {
				name: joined(
					text(attributes.bill_of_lading_number) ?? String(record.id),
					text(attributes.shipping_line_scac),
					text(attributes.port_of_discharge_name),
					attributes.line_tracking_stopped_at ? 'tracking stopped' : undefined,
				),
				value: String(record.id),
			};
		},
	});
}

/** At most this many event names in a webhook's name; the rest are counted. */
const EVENTS_SHOWN = 3;

export async function searchWebhooks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const wanted = (filter ?? '').trim().toLowerCase();
	return await searchList(this, '/webhooks', {
		filter,
		paginationToken,
		matches: ({ record }) =>
			(text(membersOf(record.attributes).url) ?? '').toLowerCase().includes(wanted),
		toResult: ({ record }) => {
			const attributes = membersOf(record.attributes);
			const events = Array.isArray(attributes.events) ? attributes.events.map(String) : [];
			const shown = events.slice(0, EVENTS_SHOWN).join(', ');
			const more = events.length > EVENTS_SHOWN ? ` +${events.length - EVENTS_SHOWN} more` : '';
			return {
				name: joined(
					text(attributes.url) ?? String(record.id),
					events.length > 0 ? shown + more : undefined,
					attributes.active === false ? 'inactive' : undefined,
				),
				value: String(record.id),
			};
		},
	});
}

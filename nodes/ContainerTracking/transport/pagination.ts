import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import { listDocumentCore, type links } from '../schemas/jsonApi';
import type { DocumentWarnings } from '../schemas/warnings';
import { indexIncluded, type IncludedIndex } from '../records/jsonApi';
import {
	absoluteLink,
	containerTrackingRequest,
	readAnswer,
	requireCore,
	type ContainerTrackingContext,
} from './request';

export const MAX_PAGE_SIZE = 100;

export interface PageWalk {
	records: IDataObject[];
	included: IDataObject[];
}

/**
 * A page with the service's links to the next page (absent on the last), the previous and the
 * last, where it gives them, made absolute.
 */
export type ListPage = PageWalk & {
	[name in 'next' | 'prev' | 'last']?: NonNullable<z.infer<typeof links>[name]>;
};

/**
 * One page of a list: the first (with `qs` and `pageSize`), or the one a `links.next` of an
 * earlier page names. A page without a list of records is an error, not an empty list.
 */
export async function fetchPage(
	this: ContainerTrackingContext,
	path: string,
	{
		qs = {},
		pageSize = MAX_PAGE_SIZE,
		pageUrl,
		itemIndex,
		what = `listing ${path}`,
	}: {
		qs?: IDataObject;
		pageSize?: number;
		pageUrl?: string;
		itemIndex?: number;
		what?: string;
	},
): Promise<ListPage> {
	const response = pageUrl
		? await containerTrackingRequest.call(this, 'GET', path, { url: pageUrl, itemIndex })
		: await containerTrackingRequest.call(this, 'GET', path, {
				qs: { ...qs, 'page[size]': pageSize, 'page[number]': 1 },
				itemIndex,
			});
	requireCore(this, listDocumentCore, response.body, what, itemIndex);
	const links = (response.body.links ?? {}) as IDataObject;
	const link = (name: string) =>
		typeof links[name] === 'string' && links[name]
			? absoluteLink(links[name] as string, response.url ?? pageUrl ?? '')
			: undefined;
	return {
		records: response.body.data as IDataObject[],
		included: Array.isArray(response.body.included)
			? (response.body.included as IDataObject[])
			: [],
		next: link('next'),
		prev: link('prev'),
		last: link('last'),
	};
}

/**
 * Follows `links.next` until the last page, until `limit` records are collected, or until
 * `until` says a page held what was sought (never trusting `meta.total`, which may be missing or
 * wrong). Each page is asked for as large as the service allows.
 */
export async function fetchAllPages(
	this: ContainerTrackingContext,
	path: string,
	{
		qs = {},
		limit,
		itemIndex,
		what = `listing ${path}`,
		until,
	}: {
		qs?: IDataObject;
		limit?: number;
		itemIndex?: number;
		what?: string;
		until?: (page: PageWalk) => boolean;
	} = {},
): Promise<PageWalk> {
	const records: IDataObject[] = [];
	const included: IDataObject[] = [];
	const pageSize =
		limit === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, Math.max(1, limit));
	let next: string | undefined;
	const seen = new Set<string>();
	for (;;) {
		const page = await fetchPage.call(this, path, { qs, pageSize, pageUrl: next, itemIndex, what });
		records.push(...page.records);
		included.push(...page.included);
		next = page.next;
		// A page that repeats, or an empty one, ends the walk: never loop forever on a bad link.
		if (!next || seen.has(next) || page.records.length === 0) break;
		seen.add(next);
		if (limit !== undefined && records.length >= limit) break;
		if (until?.(page)) break;
	}
	return { records: limit === undefined ? records : records.slice(0, limit), included };
}

/** A list read as one document: its records, what they included, and what was odd in each. */
export interface ListAnswer<Schema extends z.ZodTypeAny> {
	records: Array<z.infer<Schema>['data'][number]>;
	included: IncludedIndex;
	warnings: DocumentWarnings;
}

/**
 * Every page of a list (or up to `limit` records), read as one document: each record needs an
 * id and a type, every other difference from `schema` is a warning for that record's item.
 * With `keep`, only the records it keeps count and are returned: the service filters none of its
 * lists, so a filter is applied here, and pages are read until `limit` records are kept. `keep`
 * sees each record once, with the records its page included (a page includes what its own
 * records relate to).
 */
export async function fetchList<Schema extends z.ZodTypeAny>(
	this: ContainerTrackingContext,
	path: string,
	schema: Schema,
	what: string,
	options: {
		qs?: IDataObject;
		limit?: number;
		itemIndex?: number;
		keep?: (record: IDataObject, included: IncludedIndex) => boolean;
	} = {},
): Promise<ListAnswer<Schema>> {
	const { keep, limit, ...walk } = options;
	if (!keep) {
		const pages = await fetchAllPages.call(this, path, { ...walk, limit, what });
		return readList(this, schema, pages, what, options.itemIndex);
	}
	const judged = new Map<IDataObject, boolean>();
	let kept = 0;
	const judge = (records: IDataObject[], included: IncludedIndex) => {
		for (const record of records) {
			if (judged.has(record)) continue;
			const keeps = keep(record, included);
			judged.set(record, keeps);
			if (keeps) kept += 1;
		}
	};
	const pages = await fetchAllPages.call(this, path, {
		...walk,
		what,
		until: (page) => {
			judge(page.records, indexIncluded(page.included));
			return limit !== undefined && kept >= limit;
		},
	});
	// The walk hands `until` every page but the one it stopped on.
	judge(pages.records, indexIncluded(pages.included));
	const records = pages.records.filter((record) => judged.get(record)).slice(0, limit);
	return readList(this, schema, { records, included: pages.included }, what, options.itemIndex);
}

/** A walked list read as one document against `schema`. */
function readList<Schema extends z.ZodTypeAny>(
	context: ContainerTrackingContext,
	schema: Schema,
	{ records, included }: PageWalk,
	what: string,
	itemIndex: number | undefined,
): ListAnswer<Schema> {
	const { document, warnings } = readAnswer(
		context,
		listDocumentCore,
		schema,
		{ data: records, included },
		what,
		itemIndex,
	);
	return {
		records: document.data as Array<z.infer<Schema>['data'][number]>,
		included: indexIncluded(document.included),
		warnings,
	};
}

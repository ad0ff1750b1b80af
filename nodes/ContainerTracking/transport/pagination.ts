import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import { listDocumentCore } from '../schemas/jsonApi';
import type { DocumentWarnings } from '../schemas/warnings';
import { indexIncluded, type IncludedIndex } from './jsonApi';
import {
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
 * Follows `links.next` until the last page, until `limit` records are collected, or until
 * `until` says a page held what was sought (service notes: never trust `meta.total`). Each page
 * is asked for as large as the service allows.
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
		until?: (page: IDataObject[]) => boolean;
	} = {},
): Promise<PageWalk> {
	const records: IDataObject[] = [];
	const included: IDataObject[] = [];
	const pageSize =
		limit === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, Math.max(1, limit));
	let next: string | undefined;
	const seen = new Set<string>();
	for (;;) {
		const response = next
			? await containerTrackingRequest.call(this, 'GET', path, { url: next, itemIndex })
			: await containerTrackingRequest.call(this, 'GET', path, {
					qs: { ...qs, 'page[size]': pageSize, 'page[number]': 1 },
					itemIndex,
				});
		// Each page must be a list of records; a page without one is an error, not an empty list.
		requireCore(this, listDocumentCore, response.body, what, itemIndex);
		const data = response.body.data as IDataObject[];
		records.push(...data);
		if (Array.isArray(response.body.included))
			included.push(...(response.body.included as IDataObject[]));
		const links = (response.body.links ?? {}) as IDataObject;
		next = typeof links.next === 'string' && links.next ? links.next : undefined;
		// A page that repeats, or an empty one, ends the walk: never loop forever on a bad link.
		if (!next || seen.has(next) || data.length === 0) break;
		seen.add(next);
		if (limit !== undefined && records.length >= limit) break;
		if (until?.(data)) break;
	}
	return { records: limit === undefined ? records : records.slice(0, limit), included };
}

/**
 * Every page of a list (or up to `limit` records), read as one document: each record needs an
 * id and a type, every other difference from `schema` is a warning for that record's item.
 */
export async function fetchList<Schema extends z.ZodTypeAny>(
	this: ContainerTrackingContext,
	path: string,
	schema: Schema,
	what: string,
	options: { qs?: IDataObject; limit?: number; itemIndex?: number } = {},
): Promise<{
	records: Array<z.infer<Schema>['data'][number]>;
	included: IncludedIndex;
	warnings: DocumentWarnings;
}> {
	const pages = await fetchAllPages.call(this, path, { ...options, what });
	const { document, warnings } = readAnswer(
		this,
		listDocumentCore,
		schema,
		{ data: pages.records, included: pages.included },
		what,
		options.itemIndex,
	);
	return {
		records: document.data as Array<z.infer<Schema>['data'][number]>,
		included: indexIncluded(document.included),
		warnings,
	};
}

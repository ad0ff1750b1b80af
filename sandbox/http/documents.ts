import { badRequest } from './jsonApi';
import type { Resource, Store } from '../world/store';

export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 100;

export interface RequestUrl {
	/** e.g. http://127.0.0.1:4010/v2 */
	baseUrl: string;
	/** Path under /v2, e.g. /containers */
	path: string;
	query: URLSearchParams;
}

/** Records are copied out so that no caller can change the store by accident. */
export function copy<T>(value: T): T {
	return structuredClone(value);
}

function positiveInteger(query: URLSearchParams, name: string): number | undefined {
	const raw = query.get(name);
	if (raw === null) return undefined;
	if (!/^\d+$/.test(raw) || Number(raw) < 1) {
		throw badRequest(
			`${name} must be a positive integer`,
			{ parameter: name },
			'invalid_parameter',
		);
	}
	return Number(raw);
}

/** Builds a link with unencoded brackets, as the service writes them. */
function pageLink(url: RequestUrl, pageNumber: number, pageSize: number): string {
	const params: string[] = [];
	for (const [name, value] of url.query) {
		if (name === 'page[number]' || name === 'page[size]') continue;
		params.push(`${name}=${encodeURIComponent(value)}`);
	}
	params.push(`page[number]=${pageNumber}`, `page[size]=${pageSize}`);
	return `${url.baseUrl}${url.path}?${params.join('&')}`;
}

export interface Page<T> {
	items: T[];
	links: Record<string, string>;
	meta: { size: number; total: number };
}

/** `page[number]` from 1, `page[size]` default 30, at most 100 (larger values are cut). */
export function paginate<T>(all: T[], url: RequestUrl): Page<T> {
	const pageSize = Math.min(
		positiveInteger(url.query, 'page[size]') ?? DEFAULT_PAGE_SIZE,
		MAX_PAGE_SIZE,
	);
	const pageNumber = positiveInteger(url.query, 'page[number]') ?? 1;
	const lastPage = Math.max(1, Math.ceil(all.length / pageSize));
	const items = all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
	const links: Record<string, string> = {
		self: pageLink(url, pageNumber, pageSize),
		current: pageLink(url, pageNumber, pageSize),
		first: pageLink(url, 1, pageSize),
		last: pageLink(url, lastPage, pageSize),
	};
	if (pageNumber > 1) links.prev = pageLink(url, Math.min(pageNumber - 1, lastPage), pageSize);
	if (pageNumber < lastPage) links.next = pageLink(url, pageNumber + 1, pageSize);
	return { items, links, meta: { size: items.length, total: all.length } };
}

/**
 * Reads `include` and checks it against the relationships the endpoint accepts
 * (docs/service.md, "Endpoints"); an unsupported name is a 400 as JSON:API prescribes.
 */
export function parseInclude(query: URLSearchParams, accepted: readonly string[]): string[] {
	const raw = query.get('include');
	if (raw === null || raw.trim() === '') return [];
	const names = raw
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	const unsupported = names.filter((name) => !accepted.includes(name));
	if (unsupported.length > 0) {
		throw badRequest(
			`include ${unsupported.join(', ')} is not supported here; use ${accepted.join(', ')}`,
			{ parameter: 'include' },
			'invalid_include',
		);
	}
	return [...new Set(names)];
}

/** The records named by `relationships` of every primary record, once each, in first-seen order. */
export function resolveIncluded(
	store: Store,
	primary: Resource[],
	relationships: string[],
): Resource[] {
	const seen = new Set(primary.map((resource) => `${resource.type}:${resource.id}`));
	const included: Resource[] = [];
	for (const resource of primary) {
		for (const relationship of relationships) {
			for (const related of store.related(resource, relationship)) {
				const key = `${related.type}:${related.id}`;
				if (seen.has(key)) continue;
				seen.add(key);
				included.push(copy(related));
			}
		}
	}
	return included;
}

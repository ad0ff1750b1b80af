import type { IDataObject } from 'n8n-workflow';

import {
	includedKey,
	indexIncluded,
	relatedIdentifier,
	type IncludedIndex,
} from '../../records/jsonApi';
import { membersOf, type JsonApiResource } from '../../schemas';
import { fetchPage, MAX_PAGE_SIZE, type ListPage } from '../../transport/pagination';
import { containerTrackingRequest, type ContainerTrackingContext } from '../../transport/request';

/**
 * Reading the service's notification log (docs/service.md, "Notification log"), for the catch-up
 * (trigger/recovery/catchUp.ts), the restart check (trigger/recovery/restartCheck.ts) and the cut
 * check (trigger/recovery/cutCheck.ts). The log has no filter and no documented order, so it is
 * read page by page and filtered by the reader, from its newest end back to where the last read
 * left off: a log served newest first is read forward, one served oldest first backward from its
 * last page (`links.last`, `links.prev`), so a read costs the pages written since, whatever the
 * log's length. The pages are read with `include=reference_object`: a notification whose records a
 * page includes needs no call of its own.
 */

/** Pages of the log one read goes through at most (10,000 notifications). */
const MAX_LOG_PAGES = 100;

export interface LoggedNotification {
	id: string;
	webhookId?: string;
	status: string;
	createdAt: number;
	/** What its page included: the records its items are built from, when they are there. */
	included: IncludedIndex;
	record: IDataObject;
}

function logged(record: IDataObject, included: IncludedIndex): LoggedNotification | undefined {
	const attributes = membersOf(record.attributes);
	const createdAt = Date.parse(String(attributes.created_at ?? ''));
	if (typeof record.id !== 'string' || !record.id || !Number.isFinite(createdAt)) return undefined;
	return {
		id: record.id,
		webhookId: relatedIdentifier(record, 'webhook')?.id,
		status: String(attributes.delivery_status ?? ''),
		createdAt,
		included,
		record,
	};
}

type Order = 'newest first' | 'oldest first' | 'unknown';

function orderOf(entries: LoggedNotification[]): Order {
	if (entries.length < 2) return 'unknown';
	const first = entries[0].createdAt;
	const last = entries[entries.length - 1].createdAt;
	if (first > last) return 'newest first';
	return first < last ? 'oldest first' : 'unknown';
}

const entriesOf = (page: ListPage) => {
	const included = indexIncluded(page.included);
	return page.records
		.map((record) => logged(record, included))
		.filter((entry): entry is LoggedNotification => entry !== undefined);
};

/** A page of the notification log with the records each notification refers to: the first, or one a link names. */
async function readLogPage(context: ContainerTrackingContext, pageUrl?: string): Promise<ListPage> {
	return await fetchPage.call(context, '/webhook_notifications', {
		qs: { include: 'reference_object' },
		pageSize: MAX_PAGE_SIZE,
		pageUrl,
		what: 'reading the notification log',
	});
}

/**
 * The notifications created since `since(newest)` (`newest`: the newest the log holds), from
 * the log's newest end back; at most MAX_LOG_PAGES pages. With `readBefore` (what an earlier
 * walk read, and the newest it saw), a page that holds nothing new ends the walk too: each of its
 * notifications read then or older than the bound, its oldest older than that walk's newest.
 * Beyond it, everything was logged before that walk (the service stamps whole seconds: one logged
 * since may share the second of that walk's newest, and sit a page further).
 */
export async function readLog(
	context: ContainerTrackingContext,
	since: (newest: number) => number,
	{ readBefore }: { readBefore?: { has: (id: string) => boolean; newest: number } } = {},
): Promise<LoggedNotification[]> {
	const read = async (pageUrl?: string) => await readLogPage(context, pageUrl);
	const first = await read();
	const walked = new Map<string, LoggedNotification>();
	let newest = Number.NEGATIVE_INFINITY;
	const take = (entries: LoggedNotification[]) => {
		for (const entry of entries) {
			walked.set(entry.id, entry);
			newest = Math.max(newest, entry.createdAt);
		}
	};
	const bound = () => since(Number.isFinite(newest) ? newest : Date.now());
	const firstEntries = entriesOf(first);
	// Oldest first: the newest are on the last page, and the walk goes back from there.
	const backward = orderOf(firstEntries) === 'oldest first' && Boolean(first.next && first.last);
	/** A page in the walk's order holding only notifications older than the bound ends it. */
	const endsWalk = (entries: LoggedNotification[]) =>
		entries.length > 0 &&
		((readBefore !== undefined &&
			entries.every((entry) => readBefore.has(entry.id) || entry.createdAt < bound()) &&
			Math.min(...entries.map((entry) => entry.createdAt)) < readBefore.newest) ||
			(entries.every((entry) => entry.createdAt < bound()) &&
				orderOf(entries) !== (backward ? 'newest first' : 'oldest first')));
	take(firstEntries);
	let next = backward ? first.last : endsWalk(firstEntries) ? undefined : first.next;
	const seen = new Set<string>();
	for (let pages = 1; next && !seen.has(next); pages++) {
		if (pages >= MAX_LOG_PAGES) {
			context.logger.warn(
				`Container tracking: read ${MAX_LOG_PAGES} pages of the notification log; older ones wait for the next read`,
			);
			break;
		}
		seen.add(next);
		const page = await read(next);
		const entries = entriesOf(page);
		// Going backward, the walk is over when it comes back to what the first page held.
		const known = entries.length > 0 && entries.every((entry) => walked.has(entry.id));
		take(entries);
		if (entries.length === 0 || known || endsWalk(entries)) break;
		next = backward ? page.prev : page.next;
	}
	const from = bound();
	return [...walked.values()].filter((entry) => entry.createdAt >= from);
}

/** The page number a link of the log addresses; undefined when it addresses none. */
function pageNumberOf(link: string): number | undefined {
	try {
		const number = Number(new URL(link).searchParams.get('page[number]') ?? Number.NaN);
		return Number.isInteger(number) ? number : undefined;
	} catch {
		return undefined;
	}
}

/** Page `number` of the log, as the log's own link to its last page addresses pages. */
function pageLink(last: string, number: number): string | undefined {
	try {
		const url = new URL(last);
		if (!url.searchParams.has('page[number]')) return undefined;
		url.searchParams.set('page[number]', String(number));
		return url.toString();
	} catch {
		return undefined;
	}
}

/**
 * The log's entries of the notifications `wanted`, found by halving: the log is ordered by when
 * each was created, so the page that holds a given second is found in a few reads, and the
 * notifications of one cut execution, delivered together, share a page or two. Each page read
 * gives every wanted notification it holds. At most `maxReads` pages; those not found (the log
 * shifted under the search, an order it does not show, a log without page links) are left to
 * the caller.
 */
export async function findInLog(
	context: ContainerTrackingContext,
	wanted: Array<{ id: string; createdAt: number }>,
	maxReads: number,
): Promise<Map<string, LoggedNotification>> {
	const found = new Map<string, LoggedNotification>();
	const ids = new Set(wanted.map(({ id }) => id));
	const pages = new Map<number, LoggedNotification[]>();
	const take = (number: number, entries: LoggedNotification[]) => {
		pages.set(number, entries);
		for (const entry of entries) if (ids.has(entry.id)) found.set(entry.id, entry);
	};
	const first = await readLogPage(context);
	take(1, entriesOf(first));
	const order = orderOf(pages.get(1)!);
	const lastNumber = first.last === undefined ? undefined : pageNumberOf(first.last);
	if (order === 'unknown' || !first.last || lastNumber === undefined || lastNumber < 2)
		return found;
	const read = async (number: number): Promise<LoggedNotification[] | undefined> => {
		if (pages.has(number)) return pages.get(number);
		if (number < 1 || number > lastNumber) return undefined;
		const url = pageLink(first.last!, number);
		if (!url || pages.size >= maxReads) return undefined;
		const page = await readLogPage(context, url);
		take(number, entriesOf(page));
		return pages.get(number);
	};
	// Newest first, later pages hold older notifications; oldest first, newer ones.
	const laterIsOlder = order === 'newest first';
	for (const { id, createdAt } of [...wanted].sort((a, b) => b.createdAt - a.createdAt)) {
		let [low, high] = [1, lastNumber];
		while (!found.has(id) && low <= high) {
			const middle = Math.floor((low + high) / 2);
			const entries = await read(middle);
			if (!entries || entries.length === 0) break;
			const times = entries.map((entry) => entry.createdAt);
			const [oldest, newest] = [Math.min(...times), Math.max(...times)];
			if (createdAt > newest) [low, high] = laterIsOlder ? [low, middle - 1] : [middle + 1, high];
			else if (createdAt < oldest)
				[low, high] = laterIsOlder ? [middle + 1, high] : [low, middle - 1];
			else {
				// Its second is on this page but it is not: the next page over, either side, holds
				// the rest of that second.
				await read(middle - 1);
				await read(middle + 1);
				break;
			}
		}
	}
	return found;
}

/**
 * The records a notification's delivery would include: its reference object and what that
 * relates to, two steps on (container → shipment, terminal), from what its page included.
 */
export function includedFor(entry: LoggedNotification): JsonApiResource[] | undefined {
	const reference = relatedIdentifier(entry.record, 'reference_object');
	const start = reference ? entry.included.get(includedKey(reference)) : undefined;
	if (!start) return undefined;
	const found = new Map<string, JsonApiResource>([[includedKey(start), start]]);
	let frontier = [start];
	for (let depth = 0; depth < 2; depth++) {
		const next: JsonApiResource[] = [];
		for (const record of frontier) {
			const relationships = membersOf(record.relationships);
			for (const relationship of Object.values(relationships)) {
				const data = membersOf(relationship).data;
				for (const ref of Array.isArray(data) ? data : [data]) {
					const { id, type } = membersOf(ref);
					const key = `${String(type)}:${String(id)}`;
					const related = entry.included.get(key);
					if (!related || found.has(key)) continue;
					found.set(key, related);
					next.push(related);
				}
			}
		}
		frontier = next;
	}
	return [...found.values()];
}

/**
 * The notification as a delivery carries it: from its page when the page included its reference
 * object or carried records of others only, else read on its own (one call).
 */
export async function bodyFromLog(
	context: ContainerTrackingContext,
	entry: LoggedNotification,
): Promise<unknown> {
	const included = includedFor(entry);
	if (included) return { data: entry.record, included };
	// Its page included records, none of this one's: its delivery carried none (the service sends
	// some events by reference only, as `container.transport.available`), and a read of it on its
	// own would carry none either.
	if (entry.included.size > 0) return { data: entry.record };
	return await readLoggedBody(context, entry.id);
}

/** A notification of the log as a delivery carries it, read on its own (one call). */
export async function readLoggedBody(
	context: ContainerTrackingContext,
	id: string,
): Promise<unknown> {
	const response = await containerTrackingRequest.call(
		context,
		'GET',
		`/webhook_notifications/${encodeURIComponent(id)}`,
		{ qs: { include: 'reference_object' }, acceptStatuses: [404] },
	);
	return response.status === 404 ? undefined : response.body;
}

import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { indexIncluded, relatedIdentifiers } from '../../records/jsonApi';
import type { JsonApiResource } from '../../schemas';
import { fetchPage } from '../../transport/pagination';
import {
	containerTrackingRequest,
	CREDENTIAL_NAME,
	type ContainerTrackingContext,
} from '../../transport/request';
import {
	lackingContainers,
	putLookupFailure,
	putReads,
	soughtKey,
	type ContainerRead,
	type Sought,
} from './containerReads';

/**
 * Fetch Container When Missing, in the execution. Two kinds of delivery lack what an item
 * should say of its container:
 * - some carry only their reference object (a transport event id, e.g.
 *   `container.transport.available`): the container is the one whose relationships list that
 *   event, and the service cannot look a container up by event;
 * - some include the container but not a record its last free day or terminal is named from
 *   (trigger/items/deliveryItems.ts, `container_state_complete`): the container is read again.
 *
 * Both are served by reading the account's containers page by page (with what names the last
 * free day's facility), stopping at the page that holds every container sought; a few containers
 * known by id are read one by one instead, when that costs fewer calls. Such deliveries come in
 * bursts (a terminal's availability run), so one scan serves every execution of this process that
 * waits for one, not one scan each: a scan starts for all that wait; those that ask while it runs
 * are served by the pages it reads after they asked (a page read earlier may predate their
 * notification), and the rest by the next scan, which starts as soon as this one ends. A burst
 * costs a few scans of the account, whatever its size in events.
 */

/** The records a page includes, so that the container is worked out as Container → Get gives it. */
const INCLUDE = 'shipment,pod_terminal,pickup_facility';

interface Waiter {
	key: string;
	/** When it asked: only a page requested later can serve it. */
	since: number;
	settle(found: ContainerRead | undefined): void;
	fail(error: unknown): void;
}

interface Scanner {
	/** Waiters the next scan is for. */
	queued: Waiter[];
	running: boolean;
	/** Pages the last whole scan read: what a scan costs, against reading containers one by one. */
	pages?: number;
}

/**
 * Per account, not per trigger (trigger/triggerState.ts): the hold alerts' and the board's
 * triggers seek the same containers in a burst, and one scan serves both. An entry is a queue that
 * empties and a page count, one per account in use.
 */
const scanners = new Map<string, Scanner>();

function scannerFor(key: string): Scanner {
	let scanner = scanners.get(key);
	if (!scanner) {
		scanner = { queued: [], running: false };
		scanners.set(key, scanner);
	}
	return scanner;
}

/** One account on one service: scans are shared by the executions that use the same key. */
async function accountKey(context: ContainerTrackingContext): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const key = createHash('sha256')
		.update(String(credentials.apiKey ?? ''))
		.digest('hex')
		.slice(0, 16);
	return `${String(credentials.baseUrl ?? '')}|${key}`;
}

/** Scans until no waiter is queued; each scan serves the waiters queued when it started. */
async function scan(context: ContainerTrackingContext, scanner: Scanner): Promise<void> {
	scanner.running = true;
	try {
		while (scanner.queued.length > 0) {
			const mine = new Map<string, Waiter[]>();
			for (const waiter of scanner.queued.splice(0))
				mine.set(waiter.key, [...(mine.get(waiter.key) ?? []), waiter]);
			try {
				await scanOnce(context, scanner, mine);
			} catch (error) {
				for (const waiters of mine.values()) for (const waiter of waiters) waiter.fail(error);
			}
		}
	} finally {
		scanner.running = false;
	}
}

async function scanOnce(
	context: ContainerTrackingContext,
	scanner: Scanner,
	sought: Map<string, Waiter[]>,
): Promise<void> {
	const seen = new Set<string>();
	let pageUrl: string | undefined;
	for (let pages = 1; ; pages++) {
		const requestedAt = new Date();
		const page = await fetchPage.call(context, '/containers', {
			qs: { include: INCLUDE },
			pageUrl,
			what: 'looking up containers',
		});
		const included = indexIncluded(page.included);
		const answeredAt = new Date();
		for (const record of page.records as unknown as JsonApiResource[]) {
			const keys = [
				`container:${record.id}`,
				...relatedIdentifiers(record, 'transport_events').map((event) => `event:${event.id}`),
			];
			for (const key of keys) {
				const waiters = sought.get(key) ?? [];
				sought.delete(key);
				// Those queued for the next scan whose page this is: served now.
				const early = scanner.queued.filter(
					(waiter) => waiter.key === key && waiter.since <= requestedAt.getTime(),
				);
				if (waiters.length === 0 && early.length === 0) continue;
				scanner.queued = scanner.queued.filter((waiter) => !early.includes(waiter));
				const found = { record, included, requestedAt, answeredAt };
				for (const waiter of [...waiters, ...early]) waiter.settle(found);
			}
		}
		pageUrl = page.next;
		// A page seen before, or an empty one, ends the walk: never loop on a bad link.
		const ended = !pageUrl || seen.has(pageUrl) || page.records.length === 0;
		if (ended) scanner.pages = pages;
		if (sought.size === 0 || ended) break;
		seen.add(pageUrl!);
	}
	for (const waiters of sought.values()) for (const waiter of waiters) waiter.settle(undefined);
}

/** One container read on its own, as Container → Get reads it; undefined when it is gone. */
async function readContainer(
	context: ContainerTrackingContext,
	id: string,
): Promise<ContainerRead | undefined> {
	const requestedAt = new Date();
	const response = await containerTrackingRequest.call(
		context,
		'GET',
		`/containers/${encodeURIComponent(id)}`,
		{ qs: { include: INCLUDE }, acceptStatuses: [404] },
	);
	const data = response.body.data as JsonApiResource | undefined;
	if (response.status === 404 || !data) return undefined;
	return {
		record: data,
		included: indexIncluded(response.body.included),
		requestedAt,
		answeredAt: new Date(),
	};
}

/**
 * The containers sought, as Container → Get gives them, by what they were sought by; one no
 * container answers to is absent from the answer.
 */
async function findContainers(
	context: ContainerTrackingContext,
	sought: Sought[],
): Promise<Map<string, ContainerRead>> {
	const scanner = scannerFor(await accountKey(context));
	const wanted = [...new Map(sought.map((entry) => [soughtKey(entry), entry])).values()];
	const found = new Map<string, ContainerRead>();
	// A few known by id cost fewer calls one by one than a scan of the account.
	const byId = wanted.filter((entry) => 'containerId' in entry);
	const alone =
		byId.length === wanted.length && byId.length < Math.max(2, scanner.pages ?? 2)
			? (byId as Array<{ containerId: string }>)
			: [];
	for (const { containerId } of alone) {
		const container = await readContainer(context, containerId);
		if (container) found.set(soughtKey({ containerId }), container);
	}
	if (alone.length > 0) return found;

	const since = Date.now();
	const answers = wanted.map(
		(entry) =>
			new Promise<[string, ContainerRead | undefined]>((resolve, reject) =>
				scanner.queued.push({
					key: soughtKey(entry),
					since,
					settle: (container) => resolve([soughtKey(entry), container]),
					fail: reject,
				}),
			),
	);
	if (!scanner.running) void scan(context, scanner);
	for (const [key, container] of await Promise.all(answers))
		if (container) found.set(key, container);
	return found;
}

export interface LookupOptions {
	/**
	 * Read every container the items name, not only what they lack: their state is then the
	 * service's as read after their notifications came, timed as `requested` (above).
	 */
	every: boolean;
}

/**
 * Looks up what the items lack of their containers (above) and puts it on them. A lookup that
 * fails does not hold the notifications back: their items go on as the delivery made them, with
 * `container_lookup_error` saying why.
 */
export async function addMissingContainers(
	context: ContainerTrackingContext,
	items: IDataObject[],
	{ every }: LookupOptions = { every: false },
): Promise<void> {
	const lacking = lackingContainers(items, every);
	if (lacking.length === 0) return;
	let found: Map<string, ContainerRead>;
	try {
		found = await findContainers(
			context,
			lacking.map((entry) => entry.sought),
		);
	} catch (error) {
		putLookupFailure(lacking, error, every);
		return;
	}
	putReads(lacking, found, every);
}

import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { containerItem } from '../actions/container/summary';
import { indexIncluded, relatedIdentifiers } from '../records/jsonApi';
import type { JsonApiResource } from '../schemas';
import { fetchPage } from '../transport/pagination';
import { CREDENTIAL_NAME, type ContainerTrackingContext } from '../transport/request';

/**
 * Fetch Container When Missing. Deliveries of some events carry only their reference object (a
 * transport event id, e.g. `container.transport.available`): the container is the one whose
 * relationships list that event. The service cannot look a container up by event, so its
 * containers are read page by page (with what names the last free day's facility), stopping at
 * the page that holds every container sought.
 *
 * Such deliveries come in bursts (a terminal's availability run), so one scan serves every
 * execution of this process that waits for one, not one scan each: a scan starts for all that
 * wait; those that ask while it runs are served by the pages it reads after they asked (a page
 * read earlier may predate their notification), and the rest by the next scan, which starts as
 * soon as this one ends. A burst costs a few scans of the account, whatever its size in events.
 */

/** The records a page includes, so that the container is worked out as Container → Get gives it. */
const INCLUDE = 'shipment,pod_terminal,pickup_facility';

interface Waiter {
	eventId: string;
	/** When it asked: only a page requested later can serve it. */
	since: number;
	settle(found: IDataObject | undefined): void;
	fail(error: unknown): void;
}

interface Scanner {
	/** Waiters the next scan is for. */
	queued: Waiter[];
	running: boolean;
}

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

/** The container as Container → Get gives it, with when it was read. */
function foundContainer(
	record: JsonApiResource,
	included: ReturnType<typeof indexIncluded>,
	readAt: Date,
): IDataObject {
	return { ...containerItem(record, included, readAt), container_as_of: readAt.toISOString() };
}

/** Scans until no waiter is queued; each scan serves the waiters queued when it started. */
async function scan(context: ContainerTrackingContext, scanner: Scanner): Promise<void> {
	scanner.running = true;
	try {
		while (scanner.queued.length > 0) {
			const mine = new Map<string, Waiter[]>();
			for (const waiter of scanner.queued.splice(0))
				mine.set(waiter.eventId, [...(mine.get(waiter.eventId) ?? []), waiter]);
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
	for (;;) {
		const requestedAt = Date.now();
		const page = await fetchPage.call(context, '/containers', {
			qs: { include: INCLUDE },
			pageUrl,
			what: 'looking up the container of a transport event',
		});
		const included = indexIncluded(page.included);
		const readAt = new Date();
		for (const record of page.records as unknown as JsonApiResource[]) {
			for (const event of relatedIdentifiers(record, 'transport_events')) {
				const waiters = sought.get(event.id) ?? [];
				sought.delete(event.id);
				// Those queued for the next scan whose page this is: served now.
				const early = scanner.queued.filter(
					(waiter) => waiter.eventId === event.id && waiter.since <= requestedAt,
				);
				if (waiters.length === 0 && early.length === 0) continue;
				scanner.queued = scanner.queued.filter((waiter) => !early.includes(waiter));
				const found = foundContainer(record, included, readAt);
				for (const waiter of [...waiters, ...early]) waiter.settle(found);
			}
		}
		pageUrl = page.next;
		// A page seen before, or an empty one, ends the walk: never loop on a bad link.
		if (sought.size === 0 || !pageUrl || seen.has(pageUrl) || page.records.length === 0) break;
		seen.add(pageUrl);
	}
	for (const waiters of sought.values()) for (const waiter of waiters) waiter.settle(undefined);
}

/**
 * The containers whose relationships list these transport events, as Container → Get gives
 * them; an event no container lists is absent from the answer.
 */
export async function containersOfEvents(
	context: ContainerTrackingContext,
	eventIds: string[],
): Promise<Map<string, IDataObject>> {
	const scanner = scannerFor(await accountKey(context));
	const since = Date.now();
	const answers = [...new Set(eventIds)].map(
		(eventId) =>
			new Promise<[string, IDataObject | undefined]>((resolve, reject) =>
				scanner.queued.push({
					eventId,
					since,
					settle: (found) => resolve([eventId, found]),
					fail: reject,
				}),
			),
	);
	if (!scanner.running) void scan(context, scanner);
	const found = new Map<string, IDataObject>();
	for (const [eventId, container] of await Promise.all(answers))
		if (container) found.set(eventId, container);
	return found;
}

/** The item names the container it is about, as a delivery that included it would. */
function nameContainer(item: IDataObject, container: IDataObject): void {
	const shipment = container.shipment as IDataObject | undefined;
	item.container_id = (container.id as string | undefined) ?? null;
	item.container_number = typeof container.number === 'string' ? container.number : null;
	if (!item.shipment_id) item.shipment_id = (container.shipment_id as string | undefined) ?? null;
	if (!item.bill_of_lading_number && typeof shipment?.bill_of_lading_number === 'string')
		item.bill_of_lading_number = shipment.bill_of_lading_number;
	item.container = container;
}

/** Items about a transport event whose delivery did not include the container. */
export function itemsMissingContainer(items: IDataObject[]): IDataObject[] {
	return items.filter(
		(item) =>
			!item.container_number &&
			item.reference_type === 'transport_event' &&
			typeof item.reference_id === 'string',
	);
}

/**
 * Looks up the containers the items lack (one shared scan, above) and names them on the items.
 * A lookup that fails does not hold the notifications back: their items go on without the
 * container, with `container_lookup_error` saying why.
 */
export async function addMissingContainers(
	context: ContainerTrackingContext,
	items: IDataObject[],
): Promise<void> {
	const missing = itemsMissingContainer(items);
	if (missing.length === 0) return;
	let found: Map<string, IDataObject>;
	try {
		found = await containersOfEvents(
			context,
			missing.map((item) => String(item.reference_id)),
		);
	} catch (error) {
		const { message, description } = error as { message: string; description?: string };
		for (const item of missing)
			warn(item, `The container could not be looked up: ${message}`, description);
		return;
	}
	for (const item of missing) {
		const container = found.get(String(item.reference_id));
		if (container) nameContainer(item, container);
		else
			warn(
				item,
				`No container of the account lists transport event ${String(item.reference_id)}`,
				'The container may have been deleted, or the service lists its events elsewhere.',
			);
	}
}

/** Said on the item, so that a workflow can tell "no container" from "not looked up". */
function warn(item: IDataObject, message: string, description?: string): void {
	item.container_lookup_error = description ? `${message} (${description})` : message;
}

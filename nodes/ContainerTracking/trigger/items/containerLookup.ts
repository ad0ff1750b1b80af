import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { containerItem } from '../../actions/container/summary';
import { indexIncluded, relatedIdentifiers, type IncludedIndex } from '../../records/jsonApi';
import type { JsonApiResource } from '../../schemas';
import { fetchPage } from '../../transport/pagination';
import {
	containerTrackingRequest,
	CREDENTIAL_NAME,
	type ContainerTrackingContext,
} from '../../transport/request';

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

/** A container sought: by a transport event it lists, or by its own id. */
type Sought = { eventId: string } | { containerId: string };

const keyOf = (sought: Sought) =>
	'eventId' in sought ? `event:${sought.eventId}` : `container:${sought.containerId}`;

interface Waiter {
	key: string;
	/** When it asked: only a page requested later can serve it. */
	since: number;
	settle(found: Read | undefined): void;
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

/** A container as the service answered it: its record, and when it was asked and answered. */
interface Read {
	record: JsonApiResource;
	included: IncludedIndex;
	requestedAt: Date;
	answeredAt: Date;
}

/**
 * How a read says when its state was the service's (`container_as_of`):
 * - `second`: the second it was answered in, as the service times a notification: a read and a
 *   notification of the same second count as equally new, so a view that keeps the later of
 *   equals (the Pickup board does) does not keep a read made a moment before a change over the
 *   change's notification;
 * - `requested`: the moment it was asked, to the millisecond. Every state is then a read: a read
 *   asked after the last change of a container says so by a later time than any read that could
 *   predate the change, whichever is written last (trigger/execution.ts, Latest State).
 */
type ReadTime = 'second' | 'requested';

/** The container as Container → Get gives it, with when it was the service's (above). */
function foundContainer(read: Read, time: ReadTime): IDataObject {
	const asOf =
		time === 'requested'
			? read.requestedAt.toISOString()
			: new Date(Math.floor(read.answeredAt.getTime() / 1000) * 1000)
					.toISOString()
					.replace('.000Z', 'Z');
	return {
		...containerItem(read.record, read.included, read.answeredAt),
		container_as_of: asOf,
	};
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
): Promise<Read | undefined> {
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
): Promise<Map<string, Read>> {
	const scanner = scannerFor(await accountKey(context));
	const wanted = [...new Map(sought.map((entry) => [keyOf(entry), entry])).values()];
	const found = new Map<string, Read>();
	// A few known by id cost fewer calls one by one than a scan of the account.
	const byId = wanted.filter((entry) => 'containerId' in entry);
	const alone =
		byId.length === wanted.length && byId.length < Math.max(2, scanner.pages ?? 2)
			? (byId as Array<{ containerId: string }>)
			: [];
	for (const { containerId } of alone) {
		const container = await readContainer(context, containerId);
		if (container) found.set(keyOf({ containerId }), container);
	}
	if (alone.length > 0) return found;

	const since = Date.now();
	const answers = wanted.map(
		(entry) =>
			new Promise<[string, Read | undefined]>((resolve, reject) =>
				scanner.queued.push({
					key: keyOf(entry),
					since,
					settle: (container) => resolve([keyOf(entry), container]),
					fail: reject,
				}),
			),
	);
	if (!scanner.running) void scan(context, scanner);
	for (const [key, container] of await Promise.all(answers))
		if (container) found.set(key, container);
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
	// An estimated arrival whose delivery did not name its shipment: now it does.
	const estimate = item.arrival_estimate as IDataObject | undefined;
	if (estimate && !estimate.bill_of_lading_number && item.bill_of_lading_number)
		estimate.bill_of_lading_number = item.bill_of_lading_number;
	item.container = container;
}

/**
 * What an item lacks of its container, if anything: the container, or records of its state;
 * with `every`, any container it names, to be read as it is now.
 */
function soughtFor(item: IDataObject, every: boolean): Sought | undefined {
	const container = item.container as IDataObject | undefined;
	if (
		container &&
		typeof container.id === 'string' &&
		(every || container.container_state_complete === false)
	)
		return { containerId: container.id };
	if (every && typeof item.container_id === 'string' && item.container_id !== '')
		return { containerId: item.container_id };
	if (!item.container_number && item.reference_type === 'transport_event')
		return typeof item.reference_id === 'string' ? { eventId: item.reference_id } : undefined;
	return undefined;
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
	const lacking = items
		.map((item) => ({ item, sought: soughtFor(item, every) }))
		.filter((entry): entry is { item: IDataObject; sought: Sought } => entry.sought !== undefined);
	if (lacking.length === 0) return;
	let found: Map<string, Read>;
	try {
		found = await findContainers(
			context,
			lacking.map((entry) => entry.sought),
		);
	} catch (error) {
		const { message, description } = error as { message: string; description?: string };
		for (const { item } of lacking)
			warn(item, `The container could not be looked up: ${message}`, description);
		return;
	}
	for (const { item, sought } of lacking) {
		const read = found.get(keyOf(sought));
		if (read) nameContainer(item, foundContainer(read, every ? 'requested' : 'second'));
		else if ('eventId' in sought)
			warn(
				item,
				`No container of the account lists transport event ${sought.eventId}`,
				'The container may have been deleted, or the service lists its events elsewhere.',
			);
		else
			warn(
				item,
				`Container ${sought.containerId} could not be read again`,
				'It may have been deleted.',
			);
	}
}

/** Said on the item, so that a workflow can tell "no container" from "not looked up". */
function warn(item: IDataObject, message: string, description?: string): void {
	item.container_lookup_error = description ? `${message} (${description})` : message;
}

import { createHash } from 'crypto';
import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import {
	includedKey,
	indexIncluded,
	relatedIdentifier,
	type IncludedIndex,
} from '../../records/jsonApi';
import { emitOnce } from '../../n8nInternals';
import { deliveryCore, membersOf, type JsonApiResource } from '../../schemas';
import { fetchPage, MAX_PAGE_SIZE, type ListPage } from '../../transport/pagination';
import { containerTrackingRequest, type ContainerTrackingContext } from '../../transport/request';
import { MAX_BATCH_DELIVERIES, MAX_BATCH_ITEMS } from '../batching/deliveryBatches';
import { deliveryContainerId, reportsAnything } from '../items/deliveryItems';
import { carrierItem, type DeliveryMark, type ItemOptions } from '../items/notificationItems';
import { repeatStoreFor } from '../admission/repeats';
import { triggerScope, triggerSlot } from '../triggerState';

/**
 * Catch-up: the notifications of this trigger's webhook that the service gave up on (`failed`
 * after its last retry, or logged while the webhook was inactive) start the workflow as a live
 * delivery would have, oldest first, once each (docs/service.md, "Notification log").
 *
 * The log has no filter and no documented order, so it is read page by page and filtered here,
 * from its newest end back to where the last read left off: a log served newest first is read
 * forward, one served oldest first backward from its last page (`links.last`, `links.prev`), so
 * a read costs the pages written since, whatever the log's length. The pages are read with
 * `include=reference_object`: a notification whose records a page includes needs no call of its
 * own. Everything missed then starts the workflow at once, in executions of up to
 * MAX_BATCH_DELIVERIES notifications (as live deliveries that arrive together do,
 * trigger/batching/deliveryBatches.ts), not a few per watch interval. A missed notification stays
 * due until it has run: those not run yet are kept in memory, and the point a read must start from
 * (`catchUpFrom`, in the node's static data) never passes one of them, so a restart reads them
 * again.
 *
 * A notification still `pending` once it has been seen pending for `settleMs` is caught up as
 * well: the service is retrying it, and a retry that arrives after the catch-up is a repeat the
 * live path answers without running.
 *
 * Each notification runs at most once, by four guards from the cheapest: ids kept in the node's
 * static data (n8n saves it with each emit), the live deliveries this process received
 * (trigger/admission/repeats.ts), the execution deduplication key n8n keeps in its database (n8n
 * 2.20 and later; older ones ignore it), and the durable record every execution of the trigger
 * checks (trigger/durable/recordedNotifications.ts), which live deliveries share.
 */

export interface CatchUpSettings {
	/** How far back the first catch-up of a process reads the log, at most. */
	lookBackMs: number;
	/** How long a notification is seen `pending` before it is caught up. */
	settleMs: number;
	/**
	 * How far back a read starts before the newest notification it saw: a notification seen
	 * pending must still be in the read that catches it up.
	 */
	windowMs: number;
	items: ItemOptions;
	/**
	 * Whether notifications the service failed to deliver are caught up (the node's option). Off,
	 * the log is read only for the restart check, and for the cut check
	 * (trigger/recovery/cutCheck.ts).
	 */
	missed?: boolean;
	/** Whether live deliveries are checked for repeats (the node's option). */
	deduplicate: boolean;
	/**
	 * Whether the first read of each trigger in this process (the restart check, made once per
	 * process) also hands the notifications logged within RECOVERY_WINDOW_MS to an execution that
	 * runs again those whose run was cut (trigger/durable/runJournal.ts).
	 */
	recoverCutRuns?: boolean;
}

/**
 * How far back, before the newest notification, a restart looks for runs that were cut: an
 * execution still running this long after its notification was answered is not looked for.
 */
export const RECOVERY_WINDOW_MS = 15 * 60_000;

/** Ids kept in static data, at most: those newer than where the next read starts. */
const CAUGHT_UP_KEPT = 20_000;
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

/** What one trigger remembers in this process between catch-ups. */
interface CatchUpMemory {
	/** Notifications seen `pending`: when first, by this process's clock, and when created. */
	pending: Map<string, { seenAt: number; createdAt: number }>;
	/** Missed notifications not run yet (a catch-up stopped, or failed, before them). */
	backlog: Map<string, LoggedNotification>;
	/** Whether a read of this process went back as far as the look-back allows. */
	lookedBack: boolean;
	/**
	 * The newest notification the first read of this process saw (0: none): the restart check
	 * covers those before it, the cut check (trigger/recovery/cutCheck.ts) those from it on.
	 */
	firstNewest?: number;
}

const catchUpMemory = triggerSlot<CatchUpMemory>('catch-up memory', () => ({
	pending: new Map(),
	backlog: new Map(),
	lookedBack: false,
}));

/** The newest notification the first read of this process saw; undefined before that read. */
export const firstReadNewest = (scope: string): number | undefined =>
	catchUpMemory.peek(scope)?.firstNewest;

/**
 * Whether each trigger's restart check is still owed in this process, or was made (or is not
 * needed). It is owed once per trigger per process when n8n activated the workflow itself (at
 * its start, a leadership change, or n8n 2.x publishing it again right after its start, mode
 * `update`, which can close the watch before its first check), until the check completes; not
 * when a person turned the workflow on (mode `activate`): it was off, so no run of it was cut.
 * Kept across deactivation: a workflow turned off and on again in a process that did not die has
 * no cut runs.
 */
const restartChecks = triggerSlot<{ check?: 'owed' | 'made' }>('restart check', () => ({}), {
	keptAcrossActivations: true,
});

/** Notes how n8n activated a trigger's watch: the first activation in a process decides. */
export function noteActivation(scope: string, mode: string): void {
	const restart = restartChecks.of(scope);
	restart.check ??= mode === 'activate' ? 'made' : 'owed';
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

/**
 * What a live delivery of `body` would have handed the execution, marked caught up, and the
 * container it is about; no item when it gives none (Only These Fields), undefined when it is not
 * a notification.
 */
function caughtUpItems(
	body: unknown,
	settings: CatchUpSettings,
	mark: DeliveryMark = 'caught_up',
): { items: IDataObject[]; containerId?: string } | undefined {
	const delivery = deliveryCore.safeParse(body);
	if (!delivery.success) return undefined;
	if (!reportsAnything(delivery.data, settings.items)) return { items: [] };
	return { items: [carrierItem(body, mark)], containerId: deliveryContainerId(delivery.data) };
}

/**
 * The restart check: the notifications the service logged within RECOVERY_WINDOW_MS, delivered or
 * not, each as a `recovering` item, oldest first; the execution keeps those whose run was cut, and
 * those no execution recorded (trigger/durable/recordedNotifications.ts, `newNotificationItems`).
 * One not yet answered whose run was cut had its answer lost (sent too late, or cut): its next
 * attempt would be taken for a repeat. Their bodies come with the log's pages.
 */
async function handOverLogged(
	context: ITriggerFunctions,
	recent: LoggedNotification[],
	settings: CatchUpSettings,
	add: (id: string, containerId: string | undefined, items: IDataObject[]) => void,
): Promise<void> {
	const oldestFirst = [...recent].sort(
		(a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
	);
	for (const entry of oldestFirst) {
		const body = await bodyFromLog(context, entry);
		const handed = body === undefined ? undefined : caughtUpItems(body, settings, 'recovering');
		if (handed && handed.items.length > 0) add(entry.id, handed.containerId, handed.items);
	}
}

type CaughtUpIds = Record<string, number>;

/** Keeps the ids a later read can still meet: the newest, created since `oldest`. */
function pruned(ids: CaughtUpIds, oldest: number): CaughtUpIds {
	const kept = Object.entries(ids)
		.filter(([, createdAt]) => createdAt >= oldest)
		.sort(([, a], [, b]) => b - a)
		.slice(0, CAUGHT_UP_KEPT);
	return Object.fromEntries(kept);
}

interface CatchUpReport {
	/** Notifications of the webhook in the log that were not delivered. */
	undelivered: number;
	/** Notifications that started the workflow now. */
	started: number;
	/** Executions they started in. */
	executions: number;
	/** What the read of the log returned: the cut check of the same round reads no more. */
	read?: LoggedNotification[];
}

/** A notification due to start the workflow, with the items it starts it with. */
export interface DueNotification {
	id: string;
	items: IDataObject[];
}

/**
 * Starts the workflow with `groups` of notifications (each a container's, oldest first), in
 * executions of up to MAX_BATCH_DELIVERIES notifications and MAX_BATCH_ITEMS items, each with an
 * execution deduplication key made of `keyPrefix` and its notifications. The executions of one call
 * run at once, so a container's notifications go into one of them, where its newest state is told
 * apart (trigger/items/latestState.ts, trigger/items/outdatedStates.ts), not into two that could
 * write their states in either order: a group starts an execution of its own rather than be split.
 */
export function startExecutions(
	context: ITriggerFunctions,
	groups: Iterable<DueNotification[]>,
	keyPrefix: string,
): { notifications: number; executions: number } {
	let notifications = 0;
	let executions = 0;
	let batch: DueNotification[] = [];
	let batchItems = 0;
	const emitBatch = () => {
		if (batch.length === 0) return;
		const ids = batch.map((entry) => entry.id);
		emitOnce(
			context,
			[context.helpers.returnJsonArray(batch.flatMap((entry) => entry.items))],
			`${keyPrefix}:${context.getWorkflow().id ?? ''}:${context.getNode().id}:${createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 32)}`,
		);
		notifications += batch.length;
		executions += 1;
		batch = [];
		batchItems = 0;
	};
	const full = (count: number, items: number) =>
		batch.length + count > MAX_BATCH_DELIVERIES || batchItems + items > MAX_BATCH_ITEMS;
	for (const entries of groups) {
		const items = entries.reduce((sum, entry) => sum + entry.items.length, 0);
		if (full(entries.length, items)) emitBatch();
		for (const entry of entries) {
			if (full(1, entry.items.length)) emitBatch();
			batch.push(entry);
			batchItems += entry.items.length;
		}
	}
	emitBatch();
	return { notifications, executions };
}

/** Where the next read starts: before every notification that may still be due. */
function readStart(memory: CatchUpMemory, newest: number, settings: CatchUpSettings): number {
	let start = newest - settings.windowMs;
	for (const entry of memory.backlog.values()) start = Math.min(start, entry.createdAt);
	for (const { createdAt } of memory.pending.values()) start = Math.min(start, createdAt);
	return start;
}

/** Adds a due notification to its container's group (see `startExecutions`). */
function addToGroup(
	groups: Map<string, DueNotification[]>,
	due: DueNotification,
	containerId: string | undefined,
): void {
	const key = containerId ? `container:${containerId}` : `notification:${due.id}`;
	const group = groups.get(key);
	if (group) group.push(due);
	else groups.set(key, [due]);
}

const ofWebhooks = (entries: LoggedNotification[], webhookIds: string[]) =>
	entries.filter((entry) => entry.webhookId !== undefined && webhookIds.includes(entry.webhookId));

/**
 * Notes the missed notifications among `entries` in the backlog: those the service did not deliver
 * and no catch-up started before (`known`); one still `pending` only once it has been seen so for
 * `settleMs`.
 */
function noteMissed(
	memory: CatchUpMemory,
	entries: LoggedNotification[],
	known: CaughtUpIds,
	settings: CatchUpSettings,
	now: number,
): void {
	const stillPending = new Set<string>();
	for (const entry of entries) {
		if (entry.status === 'succeeded' || known[entry.id] !== undefined) continue;
		// A value no table lists is taken as not delivered: a notification is never dropped for it.
		if (entry.status === 'pending') {
			stillPending.add(entry.id);
			const seenAt = memory.pending.get(entry.id)?.seenAt ?? now;
			memory.pending.set(entry.id, { seenAt, createdAt: entry.createdAt });
			if (now - seenAt < settings.settleMs) continue;
		}
		memory.backlog.set(entry.id, entry);
	}
	for (const id of memory.pending.keys()) if (!stillPending.has(id)) memory.pending.delete(id);
}

/**
 * Starts the workflow with the backlog, oldest first, and moves where the next read starts
 * (static data, saved by n8n with each emit). Returns how many were due, and started.
 */
async function startBacklog(
	context: ITriggerFunctions,
	memory: CatchUpMemory,
	settings: CatchUpSettings,
	newest: number,
	stopped: () => boolean,
): Promise<{ due: number; started: number; executions: number }> {
	const staticData = context.getWorkflowStaticData('node');
	const due = [...memory.backlog.values()].sort(
		(a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
	);
	const repeats = settings.deduplicate ? repeatStoreFor(triggerScope(context)) : undefined;
	const groups = new Map<string, DueNotification[]>();
	const caughtUp = (staticData.caughtUp ?? {}) as CaughtUpIds;
	let started = { notifications: 0, executions: 0 };
	try {
		for (const entry of due) {
			// The workflow was deactivated meanwhile: what is left waits for its next activation.
			if (stopped()) break;
			const body = await bodyFromLog(context, entry);
			const caught = body === undefined ? { items: [] } : caughtUpItems(body, settings);
			memory.backlog.delete(entry.id);
			memory.pending.delete(entry.id);
			caughtUp[entry.id] = entry.createdAt;
			if (!caught) {
				context.logger.warn('Container tracking: a logged notification is not a delivery', {
					notificationId: entry.id,
				});
				continue;
			}
			// A live copy that reached this process first already ran; one that comes later is a repeat.
			if (caught.items.length === 0 || (repeats && !repeats.claim(entry.id))) continue;
			addToGroup(groups, { id: entry.id, items: caught.items }, caught.containerId);
		}
	} finally {
		// The log's clock, not this process's: the service stamps created_at. Set before the
		// emit: n8n saves a trigger's static data with each emit.
		const readFrom = readStart(memory, newest || Date.now(), settings);
		staticData.catchUpFrom = readFrom;
		staticData.caughtUp = pruned(caughtUp, readFrom);
		// Also when a read failed midway: those taken off the backlog start now.
		started = startExecutions(context, groups.values(), 'container-tracking');
	}
	return { due: due.length, started: started.notifications, executions: started.executions };
}

/**
 * The restart check, once per process (`noteActivation`): the notifications logged within
 * RECOVERY_WINDOW_MS of the newest, delivered or not, handed to an execution (`handOverLogged`).
 * Whatever the service says of a delivery: one whose answer n8n sent too late (or not at all)
 * after an execution recorded it is still pending or failed there, and its next attempt would be
 * taken for a repeat of a run that was cut.
 */
async function restartCheck(
	context: ITriggerFunctions,
	entries: LoggedNotification[],
	newest: number,
	settings: CatchUpSettings,
): Promise<void> {
	const recent = entries.filter((entry) => entry.createdAt >= newest - RECOVERY_WINDOW_MS);
	const groups = new Map<string, DueNotification[]>();
	await handOverLogged(context, recent, settings, (id, containerId, items) =>
		addToGroup(groups, { id, items }, containerId),
	);
	// A restart check's executions get keys of their own: another restart must run them again.
	const handed = startExecutions(
		context,
		groups.values(),
		`container-tracking-restart-${Date.now()}`,
	).notifications;
	restartChecks.of(triggerScope(context)).check = 'made';
	if (handed > 0)
		context.logger.info(
			`Container tracking: restart check: ${handed} notifications logged in the last ${RECOVERY_WINDOW_MS / 60_000} minutes handed to an execution, which runs again those whose run was cut`,
			{ workflowId: context.getWorkflow().id, node: context.getNode().name },
		);
}

/**
 * Where a read of the log starts, given the newest notification it holds. The first read of a
 * process starts where the last one before it (maybe in another process, before a restart) left
 * off, looking back no further than the option says; later ones before anything still due. Not
 * catching up, only the restart check's window. The restart check reads its whole window,
 * wherever an earlier read of this process stopped.
 */
function readFrom(
	memory: CatchUpMemory,
	settings: CatchUpSettings,
	savedFrom: number,
	{ missed, recovering }: { missed: boolean; recovering: boolean },
): (newest: number) => number {
	const recoveryStart = (newest: number) => newest - RECOVERY_WINDOW_MS;
	const startOf = !missed
		? recoveryStart
		: memory.lookedBack
			? (newest: number) => readStart(memory, newest, settings)
			: (newest: number) =>
					Math.max(
						newest - settings.lookBackMs,
						Number.isFinite(savedFrom) ? savedFrom : -Infinity,
					);
	return recovering
		? (newest: number) => Math.min(startOf(newest), recoveryStart(newest))
		: startOf;
}

/**
 * One round of the watch's log reading for the webhook(s) `webhookIds`: the missed
 * notifications caught up (`settings.missed`), and the restart check when it is owed.
 */
export async function catchUp(
	context: ITriggerFunctions,
	webhookIds: string[],
	settings: CatchUpSettings,
	stopped: () => boolean = () => false,
): Promise<CatchUpReport> {
	const scope = triggerScope(context);
	const memory = catchUpMemory.of(scope);
	const staticData = context.getWorkflowStaticData('node');
	const recovering = settings.recoverCutRuns === true && restartChecks.of(scope).check === 'owed';
	const missed = settings.missed !== false;
	// Nothing to catch up and no restart check owed: the cut check reads the log itself.
	if (!missed && !recovering && memory.lookedBack)
		return { undelivered: 0, started: 0, executions: 0, read: undefined };
	const read = await readLog(
		context,
		readFrom(memory, settings, Number(staticData.catchUpFrom), { missed, recovering }),
	);
	memory.lookedBack = true;
	const newest = read.reduce((latest, entry) => Math.max(latest, entry.createdAt), 0);
	memory.firstNewest ??= newest;
	const entries = ofWebhooks(read, webhookIds);

	let report = { due: 0, started: 0, executions: 0 };
	if (missed) {
		noteMissed(memory, entries, (staticData.caughtUp ?? {}) as CaughtUpIds, settings, Date.now());
		report = await startBacklog(context, memory, settings, newest, stopped);
	}
	if (recovering && !stopped()) await restartCheck(context, entries, newest, settings);
	if (memory.backlog.size > 0)
		context.logger.info(
			`Container tracking: ${memory.backlog.size} more missed notifications wait for the next catch-up`,
		);
	return {
		undelivered: report.due,
		started: report.started,
		executions: report.executions,
		read,
	};
}

import type { IDataObject, INodeExecutionData, ITriggerFunctions } from 'n8n-workflow';

import { relatedIdentifier } from '../records/jsonApi';
import { deliveryCore, membersOf } from '../schemas';
import { fetchAllPages } from '../transport/pagination';
import { containerTrackingRequest } from '../transport/request';
import { notificationItems, type ItemOptions } from './notificationItems';
import { repeatStoreFor, triggerScope } from './repeats';

/**
 * Catch-up: the notifications of this trigger's webhook that the service gave up on (`failed`
 * after its last retry, or logged while the webhook was inactive) start the workflow as a live
 * delivery would have, oldest first, once each (docs/service.md, "Notification log").
 *
 * The log has no filter and no documented order, so it is read page by page and filtered here;
 * a walk stops early only on pages that are newest first. A notification still `pending` once
 * it has been seen pending for `settleMs` is caught up as well: the service is retrying it, and
 * a retry that arrives after the catch-up is a repeat the live path answers without running.
 *
 * Each notification runs at most once, by four guards from the cheapest: ids kept in the node's
 * static data (n8n saves it with each emit), the live deliveries this process received
 * (trigger/repeats.ts), the execution deduplication key n8n keeps in its database (n8n 2.20 and
 * later; older ones ignore it), and the durable record every execution of the trigger checks
 * (trigger/durableRepeats.ts), which live deliveries share.
 */

export interface CatchUpSettings {
	/** How far back the first catch-up of a process reads the log. */
	lookBackMs: number;
	/** How long a notification is seen `pending` before it is caught up. */
	settleMs: number;
	/** How far back later catch-ups read: the longest a notification can wait to be caught up. */
	windowMs: number;
	items: ItemOptions;
	/** Whether live deliveries are checked for repeats (the node's option). */
	deduplicate: boolean;
}

/** At most this many notifications are fetched and started per catch-up; the rest wait. */
const MAX_CAUGHT_UP_PER_RUN = 200;
/** Ids kept in static data: more than a week of a busy trigger's failures. */
const CAUGHT_UP_KEPT = 5_000;
/** At most this many pages of the log are read per catch-up (10,000 notifications). */
const MAX_LOG_PAGES = 100;

interface LoggedNotification {
	id: string;
	webhookId?: string;
	status: string;
	createdAt: number;
}

/** What one trigger remembers in this process between catch-ups. */
interface CatchUpMemory {
	/** When each notification was first seen `pending`, by this process's clock. */
	pendingSince: Map<string, number>;
	/** Whether a catch-up read back the whole look-back already. */
	lookedBack: boolean;
}

const memories = new Map<string, CatchUpMemory>();

function memoryOf(scope: string): CatchUpMemory {
	let memory = memories.get(scope);
	if (!memory) {
		memory = { pendingSince: new Map(), lookedBack: false };
		memories.set(scope, memory);
	}
	return memory;
}

/** Forgets what a trigger remembered (its workflow was deactivated). */
export function forgetCatchUp(scope: string): void {
	memories.delete(scope);
}

function logged(record: IDataObject): LoggedNotification | undefined {
	const attributes = membersOf(record.attributes);
	const createdAt = Date.parse(String(attributes.created_at ?? ''));
	if (typeof record.id !== 'string' || !record.id || !Number.isFinite(createdAt)) return undefined;
	return {
		id: record.id,
		webhookId: relatedIdentifier(record, 'webhook')?.id,
		status: String(attributes.delivery_status ?? ''),
		createdAt,
	};
}

/** True when a page is newest first and all of it is older than `since`. */
function olderPageOfNewestFirst(
	page: Array<LoggedNotification | undefined>,
	since: number,
): boolean {
	const times = page.map((entry) => entry?.createdAt ?? Number.NaN);
	if (times.some((time) => !Number.isFinite(time))) return false;
	const newestFirst = times.every((time, index) => index === 0 || time <= times[index - 1]);
	return newestFirst && times.every((time) => time < since);
}

const newestOf = (entries: Array<LoggedNotification | undefined>, newest: number) =>
	entries.reduce((latest, entry) => Math.max(latest, entry?.createdAt ?? 0), newest);

/** The webhook's notifications created since `since`, read from the log. */
async function readLog(
	context: ITriggerFunctions,
	webhookIds: string[],
	since: (newest: number) => number,
): Promise<LoggedNotification[]> {
	let newest = Date.now();
	let pages = 0;
	const walk = await fetchAllPages.call(context, '/webhook_notifications', {
		what: 'reading the notification log',
		until: (page) => {
			const entries = page.records.map(logged);
			newest = newestOf(entries, newest);
			pages += 1;
			return pages >= MAX_LOG_PAGES || olderPageOfNewestFirst(entries, since(newest));
		},
	});
	if (pages >= MAX_LOG_PAGES)
		context.logger.warn(
			`Container tracking: read the first ${MAX_LOG_PAGES} pages of the notification log only`,
		);
	const entries = walk.records.map(logged);
	// The last page is not handed to `until`: an oldest-first log has its newest there.
	const from = since(newestOf(entries, newest));
	return entries.filter(
		(entry): entry is LoggedNotification =>
			entry !== undefined &&
			entry.createdAt >= from &&
			entry.webhookId !== undefined &&
			webhookIds.includes(entry.webhookId),
	);
}

/** The notification as a delivery carries it, with the records its items are built from. */
async function fetchNotification(context: ITriggerFunctions, id: string): Promise<unknown> {
	const response = await containerTrackingRequest.call(
		context,
		'GET',
		`/webhook_notifications/${encodeURIComponent(id)}`,
		{ qs: { include: 'reference_object' }, acceptStatuses: [404] },
	);
	return response.status === 404 ? undefined : response.body;
}

/** The items a live delivery of `body` would have started the workflow with, marked caught up. */
async function caughtUpItems(
	context: ITriggerFunctions,
	body: unknown,
	settings: CatchUpSettings,
): Promise<IDataObject[] | undefined> {
	const delivery = deliveryCore.safeParse(body);
	if (!delivery.success) return undefined;
	const items = await notificationItems(context, delivery.data, body, settings.items);
	return items.map((item) => ({ ...item, caught_up: true }));
}

type CaughtUpIds = Record<string, number>;

/** Keeps the newest ids within the look-back. */
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
}

/**
 * `emit` with the execution deduplication key of n8n 2.20 and later. n8n-workflow before it types
 * three parameters (the oldest supported, 1.92.0, does), and n8n before it ignores the fourth
 * argument; every trigger context is one of these.
 */
interface DeduplicatingEmitter {
	emit(
		data: INodeExecutionData[][],
		responsePromise: undefined,
		donePromise: undefined,
		deduplicationKey: string,
	): void;
}

/** One catch-up of the webhook(s) `webhookIds`. */
export async function catchUp(
	context: ITriggerFunctions,
	webhookIds: string[],
	settings: CatchUpSettings,
	stopped: () => boolean = () => false,
): Promise<CatchUpReport> {
	const scope = triggerScope(context);
	const memory = memoryOf(scope);
	const staticData = context.getWorkflowStaticData('node');
	const reach = memory.lookedBack ? settings.windowMs : settings.lookBackMs;
	const entries = await readLog(context, webhookIds, (newest) => newest - reach);
	memory.lookedBack = true;

	const now = Date.now();
	const known = (staticData.caughtUp ?? {}) as CaughtUpIds;
	const due: LoggedNotification[] = [];
	const stillPending = new Set<string>();
	for (const entry of entries) {
		if (entry.status === 'succeeded') continue;
		if (known[entry.id] !== undefined) continue;
		// A value no table lists is taken as not delivered: a notification is never dropped for it.
		if (entry.status === 'pending') {
			stillPending.add(entry.id);
			const since = memory.pendingSince.get(entry.id) ?? now;
			memory.pendingSince.set(entry.id, since);
			if (now - since < settings.settleMs) continue;
		}
		due.push(entry);
	}
	for (const id of memory.pendingSince.keys())
		if (!stillPending.has(id)) memory.pendingSince.delete(id);

	due.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
	const batch = due.slice(0, MAX_CAUGHT_UP_PER_RUN);
	const repeats = settings.deduplicate ? repeatStoreFor(scope) : undefined;
	const workflowId = context.getWorkflow().id ?? '';
	const emitter: DeduplicatingEmitter = context;
	let started = 0;
	for (const entry of batch) {
		// The workflow was deactivated meanwhile: what is left waits for its next activation.
		if (stopped()) break;
		const body = await fetchNotification(context, entry.id);
		const items = body === undefined ? [] : await caughtUpItems(context, body, settings);
		memory.pendingSince.delete(entry.id);
		staticData.caughtUp = pruned(
			{ ...(staticData.caughtUp as CaughtUpIds), [entry.id]: entry.createdAt },
			now - settings.lookBackMs,
		);
		if (!items || items.length === 0) {
			if (!items)
				context.logger.warn('Container tracking: a logged notification is not a delivery', {
					notificationId: entry.id,
				});
			continue;
		}
		// A live copy that reached this process first already ran; one that comes later is a repeat.
		if (repeats && !repeats.claim(entry.id)) continue;
		emitter.emit(
			[context.helpers.returnJsonArray(items)],
			undefined,
			undefined,
			`container-tracking:${workflowId}:${context.getNode().id}:${entry.id}`,
		);
		started += 1;
	}
	if (due.length > batch.length)
		context.logger.info(
			`Container tracking: ${due.length - batch.length} more missed notifications wait for the next catch-up`,
		);
	return { undelivered: due.length, started };
}

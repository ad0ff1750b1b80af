import { sleep, type IDataObject } from 'n8n-workflow';

/**
 * Deliveries that arrive together start one execution. The service sends a notification per
 * change, and a busy account's changes come in bursts (a terminal's availability run, a
 * discharge): one execution per delivery costs n8n more than the burst's deliveries arrive at,
 * its answers fall behind, the service's deliveries time out and are sent again.
 *
 * The first delivery of a batch (its leader) waits until `windowMs` after the previous batch of
 * this trigger closed — not at all after a quiet spell, and no longer than IDLE_MS after the last
 * delivery joined, so that a sender that waits for each answer is not held — and until that
 * batch's execution was created (at most PREVIOUS_WAIT_MS); the deliveries arriving meanwhile
 * join its batch (a batch is
 * full at MAX_BATCH_DELIVERIES or MAX_BATCH_ITEMS). Under a burst a trigger thus starts one
 * execution a window; a trickle starts one per delivery, as before. The leader's `webhook()` then returns every item of
 * the batch: n8n creates one execution for them and answers the leader. The others are answered
 * only then, when the leader's answer went out 2xx: n8n 2.x answers a delivery that starts an
 * execution after the execution exists (in the database; in queue mode, queued too). A batch
 * whose execution was not created (the leader's answer was an error or was cut off) is answered
 * 503 everywhere, so that the service sends it again; so is a delivery that waited longer than
 * FOLLOWER_WAIT_MS, whose copies are then answered as its batch turns out (a busy n8n that takes
 * that long to create an execution is not given a second one for the same notification). A notification is thus answered 2xx only once it is safely recorded, and a
 * copy that runs twice because of that is stopped inside the execution (trigger/durableRepeats.ts);
 * a copy of one an execution in this process recorded is answered 2xx before it joins a batch.
 */

/** Deliveries in one execution at most… */
export const MAX_BATCH_DELIVERIES = 200;
/** …and items (a changeset gives one per change). */
export const MAX_BATCH_ITEMS = 2_000;
/**
 * Longest a delivery waits for its batch's execution before it is answered 503 (the service
 * documents no delivery timeout; ours is under the sandbox's 10 s, docs/service.md).
 */
export const FOLLOWER_WAIT_MS = 8_000;
/** Longest a leader waits for the previous batch's execution to be created. */
const PREVIOUS_WAIT_MS = 5_000;
/** A batch no delivery joined for this long closes before its window ends. */
export const IDLE_MS = 100;

export interface BatchedDelivery {
	notificationId: string;
	items: IDataObject[];
	/** Called when the batch's execution was not created: the service's next copy must run. */
	release(): void;
}

/** The leader's HTTP answer, as n8n writes it (an Express response). */
export interface LeaderAnswer {
	statusCode: number;
	/** Node's own: the connection closed (a late listener hears no `close` of it). */
	destroyed?: boolean;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

interface Batch {
	deliveries: BatchedDelivery[];
	items: number;
	/** When the last delivery joined. */
	joinedAt: number;
	/** Wakes the leader early: the batch is full. */
	wake(): void;
	woken: Promise<void>;
	/** Whether the batch's execution was created. */
	created: Promise<boolean>;
	settle(created: boolean): void;
}

/** One trigger's batches in this process. */
interface Lane {
	open?: Batch;
	lastClosedAt: number;
	previous: Promise<boolean>;
	/** The batch each notification waits in, until its execution was created or not. */
	waiting: Map<string, Batch>;
}

const lanes = new Map<string, Lane>();

function laneOf(scope: string): Lane {
	let lane = lanes.get(scope);
	if (!lane) {
		lane = { lastClosedAt: 0, previous: Promise.resolve(true), waiting: new Map() };
		lanes.set(scope, lane);
	}
	return lane;
}

function newBatch(): Batch {
	let wake: () => void = () => undefined;
	let settle: (created: boolean) => void = () => undefined;
	const woken = new Promise<void>((resolve) => (wake = resolve));
	const created = new Promise<boolean>((resolve) => (settle = resolve));
	return { deliveries: [], items: 0, joinedAt: Date.now(), wake, woken, created, settle };
}

function isFull(batch: Batch): boolean {
	return batch.deliveries.length >= MAX_BATCH_DELIVERIES || batch.items >= MAX_BATCH_ITEMS;
}

/** Settles `batch` with whether the leader's answer went out 2xx. */
function watchAnswer(answer: LeaderAnswer, batch: Batch): void {
	let settled = false;
	const settle = (created: boolean) => {
		if (settled) return;
		settled = true;
		batch.settle(created);
		if (!created) for (const delivery of batch.deliveries) delivery.release();
	};
	answer.once('finish', () => settle(answer.statusCode >= 200 && answer.statusCode < 300));
	// Cut off before it was written: whether the execution exists is not known.
	answer.once('close', () => settle(false));
	// Cut off already, while the batch gathered (the service's timeout): its `close` went by
	// unheard, and neither event comes again. Unsettled, its notifications would stay claimed and
	// every copy the service sends be answered 503 for as long as this process runs.
	if (answer.destroyed) settle(false);
}

const within = async <T>(promise: Promise<T>, ms: number, otherwise: T): Promise<T> =>
	await Promise.race([promise, sleep(ms).then(() => otherwise)]);

export type BatchPart =
	/** Return every item of these deliveries as the execution's data. */
	| { role: 'leader'; deliveries: BatchedDelivery[] }
	/**
	 * Answer 2xx when `created`, else 503. Undefined: not known within FOLLOWER_WAIT_MS; the
	 * notification stays claimed while its batch may still be created (its outcome releases it
	 * when not), so that the service's next copy is answered as the batch is, rather than start
	 * a second execution of it.
	 */
	| { role: 'follower'; created: boolean | undefined };

/**
 * Puts a delivery into its trigger's batch (`scope`: trigger/repeats.ts, `triggerScope`). With
 * `windowMs` 0 every delivery is a batch of its own, as before batches existed; its answer is
 * still watched, so that a notification whose execution was not created runs when sent again.
 */
export async function joinBatch(
	scope: string,
	delivery: BatchedDelivery,
	windowMs: number,
	answer: LeaderAnswer,
): Promise<BatchPart> {
	const lane = laneOf(scope);
	const open = windowMs > 0 ? lane.open : undefined;
	const batch = open ?? newBatch();
	lane.waiting.set(delivery.notificationId, batch);
	void batch.created.then(() => {
		if (lane.waiting.get(delivery.notificationId) === batch)
			lane.waiting.delete(delivery.notificationId);
	});
	if (open) {
		open.deliveries.push(delivery);
		open.items += delivery.items.length;
		open.joinedAt = Date.now();
		if (isFull(open)) {
			close(lane, open);
			open.wake();
		}
		return {
			role: 'follower',
			created: await within<boolean | undefined>(open.created, FOLLOWER_WAIT_MS, undefined),
		};
	}

	batch.deliveries.push(delivery);
	batch.items = delivery.items.length;
	if (windowMs > 0) {
		// One execution is created at a time: the next batch gathers meanwhile. It stays open until
		// the previous one's execution exists, so that the deliveries arriving then join it rather
		// than queue behind it in batches of their own, each waiting for the one before.
		const previous = lane.previous;
		lane.previous = batch.created;
		lane.open = batch;
		for (;;) {
			const due = Math.min(lane.lastClosedAt + windowMs, batch.joinedAt + IDLE_MS) - Date.now();
			if (due <= 0 || isFull(batch)) break;
			await Promise.race([sleep(due), batch.woken]);
		}
		await Promise.race([within(previous, PREVIOUS_WAIT_MS, false), batch.woken]);
		close(lane, batch);
	}
	watchAnswer(answer, batch);
	return { role: 'leader', deliveries: batch.deliveries };
}

/** No delivery joins `batch` any more; the next batch counts its window from now. */
function close(lane: Lane, batch: Batch): void {
	if (lane.open !== batch) return;
	lane.open = undefined;
	lane.lastClosedAt = Date.now();
}

/**
 * For a copy of a notification that waits in a batch: whether that batch's execution was
 * created (a copy is answered as its original is); undefined when none waits.
 */
export async function outcomeOfWaiting(
	scope: string,
	notificationId: string,
): Promise<boolean | undefined> {
	const batch = lanes.get(scope)?.waiting.get(notificationId);
	return batch ? await within(batch.created, FOLLOWER_WAIT_MS, false) : undefined;
}

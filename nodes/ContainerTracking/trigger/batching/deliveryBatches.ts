import { sleep, type IDataObject } from 'n8n-workflow';

import { triggerSlot } from '../triggerState';

/**
 * Deliveries that arrive together start one execution. The service sends a notification per
 * change, and a busy account's changes come in bursts (a terminal's availability run, a
 * discharge): one execution per delivery costs n8n more than the burst's deliveries arrive at.
 *
 * Every delivery is answered before it joins a batch (ContainerTrackingTrigger.node.ts), so a
 * batch decides only how many executions a burst costs, never how long the service waits. The
 * first delivery of a batch (its leader) waits until `windowMs` after the previous batch of this
 * trigger closed — not at all after a quiet spell, and no longer than IDLE_MS after the last
 * delivery joined — and until the previous batch's execution started (at most PREVIOUS_WAIT_MS):
 * while n8n is slow to start executions, the deliveries meanwhile gather in one batch rather than
 * queue up in one per window. The leader's `webhook()` then hands n8n every item of the batch.
 */

/** Deliveries in one execution at most… */
export const MAX_BATCH_DELIVERIES = 200;
/** …and items (a changeset gives one per change). */
export const MAX_BATCH_ITEMS = 2_000;
/** Longest a leader waits for the previous batch's execution to start. */
const PREVIOUS_WAIT_MS = 5_000;
/** A batch no delivery joined for this long closes before its window ends. */
export const IDLE_MS = 100;

export interface BatchedDelivery {
	notificationId: string;
	items: IDataObject[];
}

interface Batch {
	deliveries: BatchedDelivery[];
	items: number;
	/** When the last delivery joined. */
	joinedAt: number;
	/** Wakes the leader early: the batch is full. */
	wake(): void;
	woken: Promise<void>;
	/** Settles when the batch's execution started (`batchStarted`). */
	started: Promise<void>;
	markStarted(): void;
}

/** One trigger's batches in this process. */
interface Lane {
	open?: Batch;
	lastClosedAt: number;
	previous: Promise<void>;
	/** The batch handed to n8n last, and its leader's notification, until its execution starts. */
	handedOver?: { leader: string; batch: Batch };
}

const lanes = triggerSlot<Lane>('delivery batches', () => ({
	lastClosedAt: 0,
	previous: Promise.resolve(),
}));

function newBatch(): Batch {
	let wake: () => void = () => undefined;
	let markStarted: () => void = () => undefined;
	const woken = new Promise<void>((resolve) => (wake = resolve));
	const started = new Promise<void>((resolve) => (markStarted = resolve));
	return { deliveries: [], items: 0, joinedAt: Date.now(), wake, woken, started, markStarted };
}

function isFull(batch: Batch): boolean {
	return batch.deliveries.length >= MAX_BATCH_DELIVERIES || batch.items >= MAX_BATCH_ITEMS;
}

export type BatchPart =
	/** Hand n8n every item of these deliveries, as one execution's data. */
	| { role: 'leader'; deliveries: BatchedDelivery[] }
	/** Another delivery leads the batch this one joined. */
	| { role: 'follower' };

/**
 * Puts a delivery into its trigger's batch (`scope`: trigger/triggerState.ts). With `windowMs` 0
 * every delivery is a batch of its own, as before batches existed.
 */
export async function joinBatch(
	scope: string,
	delivery: BatchedDelivery,
	windowMs: number,
): Promise<BatchPart> {
	const lane = lanes.of(scope);
	const open = windowMs > 0 ? lane.open : undefined;
	if (open) {
		open.deliveries.push(delivery);
		open.items += delivery.items.length;
		open.joinedAt = Date.now();
		if (isFull(open)) {
			close(lane, open);
			open.wake();
		}
		return { role: 'follower' };
	}
	const batch = newBatch();
	batch.deliveries.push(delivery);
	batch.items = delivery.items.length;
	if (windowMs > 0) {
		const previous = lane.previous;
		lane.previous = batch.started;
		lane.open = batch;
		for (;;) {
			const due = Math.min(lane.lastClosedAt + windowMs, batch.joinedAt + IDLE_MS) - Date.now();
			if (due <= 0 || isFull(batch)) break;
			await Promise.race([sleep(due), batch.woken]);
		}
		await Promise.race([previous, sleep(PREVIOUS_WAIT_MS), batch.woken]);
		close(lane, batch);
		// Its execution says when it started; one that never starts here (a worker runs it, or n8n
		// could not create it) lets the next batch go after PREVIOUS_WAIT_MS.
		lane.handedOver = { leader: delivery.notificationId, batch };
	}
	return { role: 'leader', deliveries: batch.deliveries };
}

/** No delivery joins `batch` any more; the next batch counts its window from now. */
function close(lane: Lane, batch: Batch): void {
	if (lane.open !== batch) return;
	lane.open = undefined;
	lane.lastClosedAt = Date.now();
}

/**
 * Called by an execution of the trigger with the notifications it was handed: the batch they came
 * in has started, and the next one need not wait for it.
 */
export function batchStarted(scope: string, notificationIds: Iterable<string>): void {
	const lane = lanes.peek(scope);
	const handedOver = lane?.handedOver;
	if (!lane || !handedOver) return;
	for (const id of notificationIds) {
		if (id !== handedOver.leader) continue;
		handedOver.batch.markStarted();
		lane.handedOver = undefined;
		return;
	}
}

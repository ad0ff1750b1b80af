/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Deliveries that arrive together start one execution (nodes/ContainerTracking/trigger/
// deliveryBatches.ts), run through n8n-core's WebhookContext as n8n hands deliveries to the node:
// who leads a batch, and that every delivery is answered at once, whatever n8n then takes to
// create the batch's execution, or fails to. (In a real n8n: test/e2e/burst.test.ts.) Where when they arrive
// decides which batch a delivery joins, the clock is stopped (jest's fake timers) and moved on by
// the test: the batches then follow from the moments the test sends at, on any machine.
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { IDLE_MS, MAX_BATCH_DELIVERIES } from '../../nodes/ContainerTracking/trigger/batching/deliveryBatches';
import { notificationIdOf } from '../../nodes/ContainerTracking/trigger/memory/recordedNotifications';
import { generous } from '../support/bounds';
import { useDeduplicationInMemory } from '../support/deduplication';
import { deliverSigned, RECEIVED, referenceOnly, SECRET } from '../support/deliveries';
import { TriggerHarness } from '../support/trigger';

const credentials = { apiKey: 'unused', baseUrl: 'http://127.0.0.1:9/v2' };

/** The Batch Window's default: 1 s. */
const WINDOW_MS = 1_000;

/** A trigger of a workflow of its own: its batches are not those of another test's. */
function harnessOf(options: INodeParameters = {}, typeVersion = 1.2): TriggerHarness {
	return new TriggerHarness(
		{ registration: 'automatic', events: ['container.transport.available'], options },
		credentials,
		{ webhookId: randomUUID(), webhookSecret: SECRET },
		{ workflowId: randomUUID() },
		typeVersion,
	);
}

/**
 * Runs `work` with the clock stopped: Date and timers are jest's fakes, and move only as the test
 * moves them; real work (the executions' runs, n8n's answers) goes on meanwhile.
 */
async function withStoppedClock<T>(work: () => Promise<T>): Promise<T> {
	jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'performance'] });
	try {
		return await work();
	} finally {
		jest.useRealTimers();
	}
}

/** One turn of the event loop for real work, the stopped clock standing still. */
const realTurn = async () => await new Promise<void>((resolve) => setImmediate(resolve));

/** Moves the stopped clock on by `ms`, letting real work go on before and after. */
async function advance(ms: number): Promise<void> {
	await realTurn();
	await jest.advanceTimersByTimeAsync(ms);
	await realTurn();
}

/**
 * Moves the stopped clock on, 5 ms at a time, until `promise` settles. A sanity bound on the real
 * time this takes stops a test that hangs: quietly, the runs of a test's executions take well
 * under 2 s.
 */
async function until<T>(promise: Promise<T>, what: string): Promise<T> {
	let settled = false;
	void promise.then(
		() => (settled = true),
		() => (settled = true),
	);
	const timeoutMs = generous(2_000);
	const started = performance.now();
	while (!settled) {
		if (performance.now() - started > timeoutMs)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await advance(5);
	}
	return await promise;
}

/**
 * When each execution of `harness` started, by the stopped clock: when its leader's webhook()
 * handed n8n the batch.
 */
function executionStarts(harness: TriggerHarness): number[] {
	const starts: number[] = [];
	const run = harness.run.bind(harness);
	jest.spyOn(harness, 'run').mockImplementation(async (items) => {
		starts.push(Date.now());
		return await run(items);
	});
	return starts;
}

type Delivered = Awaited<ReturnType<typeof deliverSigned>>;

const started = (results: Delivered[]) => results.filter((r) => r.result.workflowData);
const idsOf = (items: IDataObject[]) => items.map((item) => String(item.notification_id));

/** Sends every body at once, as the service sends a burst. */
async function burst(harness: TriggerHarness, bodies: IDataObject[]): Promise<Delivered[]> {
	return await Promise.all(bodies.map(async (body) => await deliverSigned(harness, body)));
}

describe('deliveries that arrive together', () => {
	// As in a real n8n, executions record their notifications
	// (trigger/memory/recordedNotifications.ts).
	beforeAll(useDeduplicationInMemory);

	it('start one execution after the first, holding every notification once; the others are answered 2xx', async () => {
		const harness = harnessOf();
		const bodies = Array.from({ length: 60 }, () => referenceOnly());
		const results = await burst(harness, bodies);
		const leaders = started(results);
		// The first after a quiet spell goes at once; the rest gather for the next.
		expect(leaders.length).toBeGreaterThanOrEqual(1);
		expect(leaders.length).toBeLessThanOrEqual(3);
		const carried = leaders.flatMap((leader) => idsOf(leader.items));
		expect([...carried].sort()).toEqual(bodies.map((body) => String(body.data.id)).sort());
		// Every one answered by the node itself, at once; n8n answers none of them.
		expect(results.map((r) => r.sent)).toEqual(results.map(() => RECEIVED));
		expect(results.every((r) => r.result.noWebhookResponse === true)).toBe(true);
	});

	it('the first delivery after a quiet spell starts the workflow at once, alone', async () => {
		const harness = harnessOf();
		const starts = executionStarts(harness);
		await withStoppedClock(async () => {
			await until(deliverSigned(harness, referenceOnly()), 'a first batch');
			// Quiet: a window passes with no delivery.
			await advance(WINDOW_MS);
			const sentAt = Date.now();
			const { result, items } = await until(
				deliverSigned(harness, referenceOnly()),
				'the delivery after the quiet spell',
			);
			expect(result.workflowData).toBeDefined();
			expect(items).toHaveLength(1);
			// At once: its execution started before the clock moved on at all.
			expect(starts).toHaveLength(2);
			expect(starts[1]).toBe(sentAt);
		});
	});

	it('a batch whose execution n8n could not create was answered 2xx everywhere, before n8n tried: a copy the service sends anyway starts nothing', async () => {
		const harness = harnessOf();
		// One delivery leads; the next ones gather behind it.
		await deliverSigned(harness, referenceOnly());
		harness.creationAnswer = 503;
		const bodies = Array.from({ length: 10 }, () => referenceOnly());
		const results = await burst(harness, bodies);
		const leaders = started(results);
		expect(leaders).toHaveLength(1);
		expect(leaders[0].carried).toHaveLength(10);
		expect(results.map((r) => r.sent)).toEqual(results.map(() => RECEIVED));
		// What runs them is the watch's cut check (trigger/recovery/cutCheck.ts), not a copy.
		harness.creationAnswer = 200;
		const again = await burst(harness, bodies);
		expect(started(again)).toEqual([]);
		expect(again.map((r) => r.result.webhookResponse)).toEqual(
			again.map(() => ({ message: 'Already received' })),
		);
	});

	it('a copy of a notification waiting in a batch is answered at once as a repeat', async () => {
		const harness = harnessOf();
		await deliverSigned(harness, referenceOnly());
		const body = referenceOnly();
		const [original, copy] = await burst(harness, [body, body]);
		expect(original.result.workflowData).toBeDefined();
		expect(original.sent).toEqual(RECEIVED);
		expect(copy.result.webhookResponse).toEqual({ message: 'Already received' });
	});

	it('a copy of a notification whose execution ran here is answered at once, though the answer to its first delivery was cut off: no second execution', async () => {
		const harness = harnessOf();
		const starts = executionStarts(harness);
		const body = referenceOnly();
		// n8n created and ran the execution; the service's timeout had closed the connection.
		harness.creationAnswer = 'cut';
		const first = await deliverSigned(harness, body);
		expect(idsOf(first.items)).toEqual([String(body.data.id)]);
		harness.creationAnswer = 200;
		const copy = await deliverSigned(harness, body);
		expect(copy.result.webhookResponse).toEqual({ message: 'Already received' });
		expect(copy.result.workflowData).toBeUndefined();
		expect(starts).toHaveLength(1);
	});

	it('while n8n takes 6 s to create each execution, every delivery is answered before the clock moves, and a copy sent then starts nothing more', async () => {
		const harness = harnessOf();
		harness.creationMs = 6_000;
		const starts = executionStarts(harness);
		const body = referenceOnly();
		const { answeredAt, sentAt, copy, all } = await withStoppedClock(async () => {
			const first = deliverSigned(harness, referenceOnly());
			await advance(1);
			const sentAt = Date.now();
			const answeredAt: number[] = [];
			const next = [referenceOnly(), body].map((sent) => deliverSigned(harness, sent));
			// The node writes its answer before it joins a batch: by now, with the clock stopped.
			await realTurn();
			answeredAt.push(Date.now());
			const copy = await until(deliverSigned(harness, body), 'the copy answered');
			const all = await until(Promise.all([first, ...next]), 'both batches run');
			return { answeredAt, sentAt, copy, all };
		});
		expect(all.map((r) => r.sent)).toEqual(all.map(() => RECEIVED));
		expect(answeredAt).toEqual([sentAt]);
		expect(copy.result.webhookResponse).toEqual({ message: 'Already received' });
		expect(starts).toHaveLength(2);
		expect(idsOf(started(all).flatMap((r) => r.items))).toContain(String(body.data.id));
	});

	it('a batch whose connection the service closed before the node answered (its timeout) is still handed to n8n; the copy the service then sends starts nothing here', async () => {
		const harness = harnessOf();
		const body = referenceOnly();
		const id = String(body.data.id);
		const { copy, follower, leader } = await withStoppedClock(async () => {
			const first = deliverSigned(harness, referenceOnly());
			await advance(1);
			harness.creationAnswer = 'gone';
			const leader = deliverSigned(harness, referenceOnly());
			const follower = deliverSigned(harness, body);
			const [, led, followed] = await until(
				Promise.all([first, leader, follower]),
				'both batches handed to n8n',
			);
			harness.creationAnswer = 200;
			return {
				leader: led,
				follower: followed,
				copy: await until(deliverSigned(harness, body), 'the copy answered'),
			};
		});
		// n8n got the batch (a worker runs it); should it never run, the cut check runs it.
		expect(leader.carried.map((item) => notificationIdOf(item))).toContain(id);
		expect(follower.result.workflowData).toBeUndefined();
		expect(copy.result.workflowData).toBeUndefined();
		expect(copy.result.webhookResponse).toEqual({ message: 'Already received' });
	});

	it('deliveries arriving every 20 ms for half a second gather in one batch after the first', async () => {
		const harness = harnessOf();
		const sizes = await withStoppedClock(async () => {
			const sent: Array<Promise<Delivered>> = [];
			for (let index = 0; index < 25; index++) {
				sent.push(deliverSigned(harness, referenceOnly()));
				await advance(20);
			}
			const results = await until(Promise.all(sent), '25 deliveries answered');
			return started(results).map((leader) => leader.items.length);
		});
		// The first at once, alone (a quiet spell before it); the other 24, each within IDLE_MS of
		// the one before and all within the window, together.
		expect(sizes).toEqual([1, 24]);
	});

	it('while n8n takes longer than the window to create an execution, the deliveries meanwhile gather in one batch, not one per window', async () => {
		const harness = harnessOf();
		const creationMs = 1_500;
		harness.creationMs = creationMs;
		const starts = executionStarts(harness);
		// 120 deliveries, one every 25 ms for 3 s; how long (by the clock) each waited for its answer.
		const results = await withStoppedClock(async () => {
			const sent: Array<Promise<{ delivered: Delivered; waitedMs: number }>> = [];
			for (let index = 0; index < 120; index++) {
				const sentAt = Date.now();
				sent.push(
					deliverSigned(harness, referenceOnly()).then((delivered) => ({
						delivered,
						waitedMs: Date.now() - sentAt,
					})),
				);
				await advance(25);
			}
			return await until(Promise.all(sent), '120 deliveries answered');
		});
		const leaders = started(results.map(({ delivered }) => delivered));
		// The first goes at once; the next gathers until its execution started (1.5 s), and the one
		// after until that one's. One batch per 1 s window, each waiting for the one before, would
		// be four.
		expect(leaders).toHaveLength(3);
		expect(leaders.flatMap((leader) => idsOf(leader.items))).toHaveLength(120);
		expect(starts).toEqual([0, creationMs, 2 * creationMs].map((at) => starts[0] + at));
		const followers = results.filter(({ delivered }) => !delivered.result.workflowData);
		expect(results.map(({ delivered }) => delivered.sent)).toEqual(results.map(() => RECEIVED));
		// A delivery that joins a batch is done with at once: it waits for no execution.
		expect(followers.map(({ waitedMs }) => waitedMs)).toEqual(followers.map(() => 0));
	});

	it('a sender that waits for each answer is not held for the window: a quiet batch closes after IDLE_MS', async () => {
		const harness = harnessOf();
		const starts = executionStarts(harness);
		const held = await withStoppedClock(async () => {
			const held: number[] = [];
			for (let index = 0; index < 10; index++) {
				const sentAt = Date.now();
				const { result } = await until(
					deliverSigned(harness, referenceOnly()),
					`delivery ${index + 1} of 10`,
				);
				expect(result.workflowData).toBeDefined();
				held.push(starts[index] - sentAt);
			}
			return held;
		});
		// The first at once; each of the others as long as no other joins it, not the window:
		// ten windows would be ten seconds.
		expect(held[0]).toBe(0);
		expect(held.filter((ms) => ms > IDLE_MS)).toEqual([]);
	});

	it('a batch holds at most MAX_BATCH_DELIVERIES deliveries', async () => {
		const harness = harnessOf();
		const bodies = Array.from({ length: 2 * MAX_BATCH_DELIVERIES + 50 }, () => referenceOnly());
		const results = await burst(harness, bodies);
		const sizes = started(results).map((leader) => leader.items.length);
		expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_BATCH_DELIVERIES);
		expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(bodies.length);
		expect(sizes.length).toBeLessThanOrEqual(5);
	});

	it.each([
		['Batch Window 0', { batchWindowSeconds: 0 }, 1.2],
		['node version 1.1 (before batches)', {}, 1.1],
	])('with %s, every delivery starts its own execution', async (_label, options, version) => {
		const harness = harnessOf(options, version);
		const results = await burst(
			harness,
			Array.from({ length: 10 }, () => referenceOnly()),
		);
		expect(started(results).map((r) => r.items.length)).toEqual(results.map(() => 1));
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Deliveries that arrive together start one execution (nodes/ContainerTracking/trigger/
// deliveryBatches.ts), run through n8n-core's WebhookContext as n8n hands deliveries to the node:
// who leads a batch, what the others are answered and when, and what happens when n8n could not
// create the batch's execution. (In a real n8n: test/e2e/burst.test.ts.) Where when they arrive
// decides which batch a delivery joins, the clock is stopped (jest's fake timers) and moved on by
// the test: the batches then follow from the moments the test sends at, on any machine.
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	FOLLOWER_WAIT_MS,
	IDLE_MS,
	MAX_BATCH_DELIVERIES,
} from '../../nodes/ContainerTracking/trigger/deliveryBatches';
import { byClock, generous } from '../support/bounds';
import { useDeduplicationInMemory } from '../support/deduplication';
import { deliverSigned, referenceOnly, SECRET } from '../support/deliveries';
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
	// As in a real n8n, executions record their notifications (trigger/durableRepeats.ts).
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
		const followers = results.filter((r) => !r.result.workflowData);
		expect(followers.map((r) => r.result.webhookResponse)).toEqual(
			followers.map(() => ({ message: 'Received' })),
		);
		expect(results.every((r) => r.sent === undefined)).toBe(true);
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

	it('a batch whose execution n8n could not create is answered 503 everywhere, and runs when sent again', async () => {
		const harness = harnessOf();
		// One delivery leads; the next ones gather behind it.
		await deliverSigned(harness, referenceOnly());
		harness.creationAnswer = 503;
		const bodies = Array.from({ length: 10 }, () => referenceOnly());
		const results = await burst(harness, bodies);
		const leaders = started(results);
		expect(leaders).toHaveLength(1);
		expect(leaders[0].carried).toHaveLength(10);
		const followers = results.filter((r) => !r.result.workflowData);
		expect(followers.map((r) => r.sent?.status)).toEqual(followers.map(() => 503));

		// The service sends them again: now they run, once each.
		harness.creationAnswer = 200;
		const again = await burst(harness, bodies);
		expect(idsOf(started(again).flatMap((r) => r.items)).sort()).toEqual(
			bodies.map((body) => String(body.data.id)).sort(),
		);
	});

	it('a copy of a notification waiting in a batch is answered as its batch is', async () => {
		const harness = harnessOf();
		await deliverSigned(harness, referenceOnly());
		const body = referenceOnly();
		const [original, copy] = await burst(harness, [body, body]);
		expect(original.result.workflowData).toBeDefined();
		expect(copy.result.webhookResponse).toEqual({ message: 'Already received' });

		harness.creationAnswer = 500;
		const failing = referenceOnly();
		const [failed, failedCopy] = await burst(harness, [failing, failing]);
		expect(failed.result.workflowData).toBeDefined();
		expect(failedCopy.sent?.status).toBe(503);
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

	it('a delivery answered 503 after waiting FOLLOWER_WAIT_MS for a slow n8n: its copy is answered as its batch turns out, not run a second time', async () => {
		const harness = harnessOf();
		// n8n takes 6 s to create an execution: the second batch closes when the first exists
		// (6 s) and is created at 12 s, after its follower waited FOLLOWER_WAIT_MS (8 s from 1 s),
		// before a copy sent then has waited as long.
		harness.creationMs = (FOLLOWER_WAIT_MS * 3) / 4;
		const starts = executionStarts(harness);
		const body = referenceOnly();
		const id = String(body.data.id);
		const { first, original, copy, leader } = await withStoppedClock(async () => {
			const first = deliverSigned(harness, referenceOnly());
			await advance(1);
			// The next batch: a leader, and the delivery under test following it.
			const leader = deliverSigned(harness, referenceOnly());
			const original = deliverSigned(harness, body);
			const answered = await until(original, 'the follower answered');
			// The service sends it again, while its batch's execution is still being created.
			const copy = deliverSigned(harness, body);
			return {
				first: await until(first, 'the first batch'),
				leader: await until(leader, 'the second batch'),
				original: answered,
				copy: await until(copy, 'the copy answered'),
			};
		});
		expect(first.result.workflowData).toBeDefined();
		expect(original.sent?.status).toBe(503);
		// Its batch was created after all: it ran there, and the copy is told so.
		expect(idsOf(leader.items)).toContain(id);
		expect(copy.result.webhookResponse).toEqual({ message: 'Already received' });
		expect(copy.result.workflowData).toBeUndefined();
		expect(starts).toHaveLength(2);
	});

	it('a delivery answered 503 after waiting FOLLOWER_WAIT_MS, whose batch n8n then could not create, runs when the service sends it again', async () => {
		const harness = harnessOf();
		harness.creationMs = (FOLLOWER_WAIT_MS * 3) / 4;
		const body = referenceOnly();
		const id = String(body.data.id);
		const again = await withStoppedClock(async () => {
			const first = deliverSigned(harness, referenceOnly());
			await advance(1);
			harness.creationAnswer = 503;
			const leader = deliverSigned(harness, referenceOnly());
			const original = await until(deliverSigned(harness, body), 'the follower answered');
			expect(original.sent?.status).toBe(503);
			await until(Promise.all([first, leader]), 'both batches handed to n8n');
			// A copy while n8n is still creating the batch is answered as the batch turns out: 503.
			const early = await until(deliverSigned(harness, body), 'the first copy answered');
			expect(early.sent?.status).toBe(503);
			expect(early.result.workflowData).toBeUndefined();
			harness.creationAnswer = 200;
			harness.creationMs = 0;
			return await until(deliverSigned(harness, body), 'the next copy answered');
		});
		expect(again.result.workflowData).toBeDefined();
		expect(idsOf(again.items)).toEqual([id]);
	});

	it('a batch whose leader the service gave up on while it gathered (its timeout) does not hold its notifications: the copies the service sends are run, not answered 503', async () => {
		const harness = harnessOf();
		const body = referenceOnly();
		const id = String(body.data.id);
		const copy = await withStoppedClock(async () => {
			const first = deliverSigned(harness, referenceOnly());
			await advance(1);
			// The next batch gathers behind the first; the service gives up on its deliveries meanwhile.
			harness.creationAnswer = 'gone';
			const leader = deliverSigned(harness, referenceOnly());
			const follower = deliverSigned(harness, body);
			await until(Promise.all([first, leader, follower]), 'both batches handed to n8n');
			harness.creationAnswer = 200;
			return await until(deliverSigned(harness, body), 'the copy answered');
		});
		// Whether the abandoned batch's execution exists is not known here: the copy runs (an
		// execution that ran it before stops it as a repeat, trigger/durableRepeats.ts).
		expect(copy.sent?.status).toBeUndefined();
		expect(copy.result.workflowData).toBeDefined();
		expect(idsOf(copy.items)).toEqual([id]);
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
		// The first goes at once; the next gathers until its execution exists (1.5 s), and the one
		// after until that one's. One batch per 1 s window, each waiting for the one before, would
		// be four, and their deliveries would wait ever longer.
		expect(leaders).toHaveLength(3);
		expect(leaders.flatMap((leader) => idsOf(leader.items))).toHaveLength(120);
		expect(starts).toEqual([0, creationMs, 2 * creationMs].map((at) => starts[0] + at));
		const followers = results.filter(({ delivered }) => !delivered.result.workflowData);
		expect(followers.every(({ delivered }) => delivered.result.webhookResponse !== undefined)).toBe(
			true,
		);
		expect(
			followers
				.map(({ delivered }) => delivered.result.webhookResponse)
				.filter((answer) => (answer as IDataObject).message !== 'Received'),
		).toEqual([]);
		// A delivery waits for its batch to gather (until the execution before exists) and for its
		// own execution to be created: two creations at most, never a queue of them.
		expect(Math.max(...followers.map(({ waitedMs }) => waitedMs))).toBeLessThanOrEqual(
			byClock(2 * creationMs),
		);
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

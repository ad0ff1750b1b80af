// Deliveries that arrive together start one execution (nodes/ContainerTracking/trigger/
// deliveryBatches.ts), run through n8n-core's WebhookContext as n8n hands deliveries to the node:
// who leads a batch, what the others are answered and when, and what happens when n8n could not
// create the batch's execution. (In a real n8n: test/e2e/burst.test.ts.)
import { randomUUID } from 'node:crypto';

import { sleep, type IDataObject, type INodeParameters } from 'n8n-workflow';

import {
	IDLE_MS,
	MAX_BATCH_DELIVERIES,
} from '../../nodes/ContainerTracking/trigger/deliveryBatches';
import { deliverSigned, referenceOnly, SECRET } from '../support/deliveries';
import { TriggerHarness } from '../support/trigger';

const credentials = { apiKey: 'unused', baseUrl: 'http://127.0.0.1:9/v2' };

function harnessOf(options: INodeParameters = {}, typeVersion = 1.2): TriggerHarness {
	return new TriggerHarness(
		{ registration: 'automatic', events: ['container.transport.available'], options },
		credentials,
		{ webhookId: randomUUID(), webhookSecret: SECRET },
		{},
		typeVersion,
	);
}

type Delivered = Awaited<ReturnType<typeof deliverSigned>>;

const started = (results: Delivered[]) => results.filter((r) => r.result.workflowData);
const idsOf = (items: IDataObject[]) => items.map((item) => String(item.notification_id));

/** Sends every body at once, as the service sends a burst. */
async function burst(harness: TriggerHarness, bodies: IDataObject[]): Promise<Delivered[]> {
	return await Promise.all(bodies.map(async (body) => await deliverSigned(harness, body)));
}

describe('deliveries that arrive together', () => {
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
		// Quiet: longer than the window since this trigger's last batch.
		await sleep(1_100);
		const before = performance.now();
		const { result, items } = await deliverSigned(harness, referenceOnly());
		expect(performance.now() - before).toBeLessThan(500);
		expect(result.workflowData).toBeDefined();
		expect(items).toHaveLength(1);
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

	it('deliveries arriving every 20 ms for half a second gather in one batch after the first', async () => {
		const harness = harnessOf();
		await sleep(1_100);
		const sent: Array<Promise<Delivered>> = [];
		for (let index = 0; index < 25; index++) {
			sent.push(deliverSigned(harness, referenceOnly()));
			await sleep(20);
		}
		const sizes = started(await Promise.all(sent)).map((leader) => leader.items.length);
		expect(sizes[0]).toBe(1);
		expect(sizes.slice(1).reduce((sum, size) => sum + size, 0)).toBe(24);
		expect(sizes.length).toBeLessThanOrEqual(3);
	});

	it('while n8n takes longer than the window to create an execution, the deliveries meanwhile gather in one batch, not one per window', async () => {
		const harness = harnessOf();
		harness.creationMs = 1_500;
		await sleep(1_100);
		// 120 deliveries, one every 25 ms for 3 s.
		const results = await Promise.all(
			Array.from({ length: 120 }, async (_, index) => {
				await sleep(index * 25);
				const startedAt = performance.now();
				const delivered = await deliverSigned(harness, referenceOnly());
				return { delivered, waitedMs: performance.now() - startedAt };
			}),
		);
		const leaders = started(results.map(({ delivered }) => delivered));
		// The first goes at once; the next gathers until its execution exists (1.5 s), and the one
		// after until that one's. One batch per 1 s window, each waiting for the one before, would
		// be four, and their deliveries would wait ever longer.
		expect(leaders.length).toBeLessThanOrEqual(3);
		expect(leaders.flatMap((leader) => idsOf(leader.items))).toHaveLength(120);
		const followers = results.filter(({ delivered }) => !delivered.result.workflowData);
		expect(followers.every(({ delivered }) => delivered.result.webhookResponse !== undefined)).toBe(
			true,
		);
		expect(
			followers
				.map(({ delivered }) => delivered.result.webhookResponse)
				.filter((answer) => (answer as IDataObject).message !== 'Received'),
		).toEqual([]);
		expect(Math.max(...results.map(({ waitedMs }) => waitedMs))).toBeLessThan(4_000);
	});

	it('a sender that waits for each answer is not held for the window: a quiet batch closes after IDLE_MS', async () => {
		const harness = harnessOf();
		const before = performance.now();
		for (let index = 0; index < 10; index++) {
			const { result } = await deliverSigned(harness, referenceOnly());
			expect(result.workflowData).toBeDefined();
		}
		// Ten windows would be ten seconds.
		expect(performance.now() - before).toBeLessThan(10 * (IDLE_MS + 150));
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

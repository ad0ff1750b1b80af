// What the cut check (nodes/ContainerTracking/trigger/recovery/cutCheck.ts) reads of the service's
// log, in n8n-core's TriggerContext against a started sandbox. A queue-mode main reads the log
// every minute; after a burst, a read that went back through the whole burst each minute spent the
// API key's rate limit, which the executions' own calls share, and cut runs came back minutes late.
import type { IDataObject } from 'n8n-workflow';

import { findInLog } from '../../nodes/ContainerTracking/trigger/recovery/notificationLog';
import { checkCutRuns } from '../../nodes/ContainerTracking/trigger/recovery/cutCheck';
import { forgetTrigger, triggerScope } from '../../nodes/ContainerTracking/trigger/triggerState';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { startBridge, type Bridge } from '../support/bridge';
import {
	API_KEY,
	countRequests,
	startTestSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';
import { TriggerHarness } from '../support/trigger';

const OPTIONS = { expandHoldsAndFees: true, fields: [], raw: false, fetchContainer: false };
/**
 * Sandbox seconds pass 20 times as fast: a burst's notifications spread over many of the log's
 * whole-second stamps, as a real burst's do over its minute.
 */
const TIME_SCALE = 20;
/** Quietly, tracking 50 boxes and 500 changes take about 3 s. */
const READS_TEST = generous(8_000);
/** Quietly, 100 boxes and 1,000 changes, twice, take about 8 s. */
const FIND_TEST = generous(16_000);

describe('the cut check reads the log', () => {
	let handle: SandboxHandle;
	let bridge: Bridge;

	beforeEach(async () => {
		handle = await startTestSandbox({ timeScale: TIME_SCALE, trackingDelaySeconds: 0 });
		bridge = await startBridge();
	});
	afterEach(async () => {
		await bridge.close();
		await handle.stop();
	});

	/** `rounds` changes of each container, logged and not delivered (the webhook is off). */
	async function change(containers: Array<{ id: string }>, rounds: number, day: number) {
		for (let round = 0; round < rounds; round++) {
			const changed = await Promise.all(
				containers.map(
					async (container) =>
						await handle.control.post(`/containers/${container.id}/changes`, {
							kind: 'set_pickup_appointment',
							at: new Date(Date.UTC(2026, 11, day + round, 8)).toISOString(),
						}),
				),
			);
			expect(changed.map((answer) => answer.status)).toEqual(containers.map(() => 200));
		}
	}

	/** `count` Maersk boxes tracked, numbered from `first` in steps of 3. */
	async function trackBoxes(count: number, first: number) {
		return await trackManyContainers(
			handle,
			Array.from({ length: count }, (_, index) =>
				withCheckDigit(`MSKU${String(first + index * 3)}`),
			),
			'MAEU',
		);
	}

	/** Every notification the service logged: its id and when it was created. */
	function loggedNotifications() {
		return (
			handle.sandbox.world.store.list('webhook_notification') as unknown as Array<{
				id: string;
				attributes: { created_at: string };
			}>
		).map(({ id, attributes }) => ({ id, createdAt: Date.parse(attributes.created_at) }));
	}

	/** A trigger's webhook, turned off at the service: what changes is logged, not delivered. */
	async function loggingWebhook() {
		const harness = new TriggerHarness(
			{ registration: 'automatic', events: ['container.updated'] },
			{ apiKey: API_KEY, baseUrl: handle.sandbox.url },
			{},
			{ webhookBaseUrl: bridge.webhookBaseUrl },
		);
		await harness.activate();
		const webhookId = String(harness.staticData.webhookId);
		expect(
			(await handle.control.patch('/webhook_settings', { log_while_inactive: true })).status,
		).toBe(200);
		await handle.api.patch(`/webhooks/${webhookId}`, {
			data: { type: 'webhook', attributes: { active: false } },
		});
		return { harness, webhookId };
	}

	it(
		"a cut execution's notifications, delivered together, are found in a few pages, not by a walk through the log",
		async () => {
			for (const order of ['newest_first', 'oldest_first']) {
				await handle.stop();
				handle = await startTestSandbox({ timeScale: TIME_SCALE, trackingDelaySeconds: 0 });
				const { harness } = await loggingWebhook();
				expect((await handle.control.patch('/webhook_settings', { log_order: order })).status).toBe(
					200,
				);
				const boxes = await trackBoxes(100, 740_000);
				await change(boxes, 10, 1);
				// Thirty delivered together, among the oldest: ten pages back in a log of 1,000.
				const log = loggedNotifications().sort((a, b) => b.createdAt - a.createdAt);
				expect(log.length).toBeGreaterThanOrEqual(1_000);
				const wanted = log.slice(log.length - 60, log.length - 30);
				const { context } = harness.triggerContext();
				const reads = await countRequests(handle, 'GET', '/webhook_notifications');
				const found = await findInLog(context, wanted, wanted.length);
				expect([...found.keys()].sort()).toEqual(wanted.map(({ id }) => id).sort());
				// The first page, four halvings of ten pages, the pages either side.
				expect(await reads()).toBeLessThanOrEqual(7);
			}
		},
		FIND_TEST,
	);

	it(
		'links written as paths, as a proxy in front of the service may write them, are followed as well',
		async () => {
			await handle.stop();
			handle = await startTestSandbox({
				timeScale: TIME_SCALE,
				trackingDelaySeconds: 0,
				relativeLinks: true,
			});
			const { harness, webhookId } = await loggingWebhook();
			const boxes = await trackBoxes(30, 750_000);
			await change(boxes, 10, 1);
			const answer = await handle.api.get('/webhook_notifications?page[size]=100');
			expect(String(answer.data.links.last)).toMatch(/^\/v2\/webhook_notifications\?/);
			const log = loggedNotifications();
			expect(log.length).toBeGreaterThanOrEqual(300);
			const { context } = harness.triggerContext();
			// Among the oldest: pages away from the first.
			const wanted = [...log].sort((a, b) => a.createdAt - b.createdAt).slice(0, 10);
			const found = await findInLog(context, wanted, wanted.length);
			expect([...found.keys()].sort()).toEqual(wanted.map(({ id }) => id).sort());
			// The minute read walks every page of the burst through the links.
			const reads = await countRequests(handle, 'GET', '/webhook_notifications');
			await checkCutRuns(context, [webhookId], 0, OPTIONS);
			expect(await reads()).toBe(Math.ceil(log.length / 100));
			forgetTrigger(triggerScope(context));
		},
		READS_TEST,
	);

	it(
		'after a burst, back to the last page it read before, not through the burst again',
		async () => {
			const { harness, webhookId } = await loggingWebhook();
			const boxes = await trackBoxes(50, 730_000);
			// A burst of 350 notifications within seconds: four pages of the log.
			await change(boxes.slice(0, 35), 10, 1);
			const { context, emitted } = harness.triggerContext();
			const reads = await countRequests(handle, 'GET', '/webhook_notifications');
			const pagesOf = async (check: () => Promise<unknown>) => {
				const before = await reads();
				await check();
				return (await reads()) - before;
			};
			const check = async () => await checkCutRuns(context, [webhookId], 0, OPTIONS);

			expect(await pagesOf(check)).toBe(4);
			// Nothing new: the first page holds only notifications read before.
			expect(await pagesOf(check)).toBe(1);
			// 150 more: the two pages that hold them, and the one after, read before (one more when
			// the page's end falls within a second the last read saw the end of).
			await change(boxes.slice(35), 10, 20);
			expect(await pagesOf(check)).toBeLessThanOrEqual(4);
			expect(await pagesOf(check)).toBe(1);
			// None is due to be handed over yet (90 s after the service logged it).
			expect(emitted as IDataObject[][]).toEqual([]);
			forgetTrigger(triggerScope(context));
		},
		READS_TEST,
	);
});

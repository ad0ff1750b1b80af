/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// A burst in a real n8n: 60 containers become ready for pickup at once (the sandbox's
// ready_for_pickup, every step at the same moment), and the trigger (node version 1.2: deliveries
// that arrive together start one execution, trigger/deliveryBatches.ts) must answer every delivery
// at its first attempt, start far fewer executions than notifications, run every notification
// once, and give each container's latest state as the service holds it. (Larger bursts, memory
// and the examples: bench/burst.ts.)
import { createRequire } from 'node:module';
import path from 'node:path';

import type { DeliveryAttempt } from '../../sandbox/webhooks/delivery';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { eventually, trackManyContainers } from '../support/sandbox';
import {
	CREDENTIAL,
	postToCollector,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	startCollector,
	startE2e,
	TRIGGER_TYPE,
	webhookRegistered,
	workflow,
	type Collector,
	type E2eContext,
} from './helpers';

const WORKFLOW_ID = 'e2eBurst';
const WEBHOOK_ID = '7a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d';
const CONTAINERS = 60;
const EVENTS = [
	'container.updated',
	'container.pickup_lfd.changed',
	'container.transport.available',
];

describe('e2e: a burst of deliveries in a real n8n', () => {
	let ctx: E2eContext;
	let collector: Collector;
	let n8n: { url: string; cookie: string; log(): string };
	let containerIds: string[];

	beforeAll(async () => {
		collector = await startCollector();
		ctx = await startE2e({
			sandbox: { trackingDelaySeconds: 0 },
			extra: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
			// Its own n8n: two bursts in one (this file runs in both projects), beside the files
			// that share it, kept its publications and executions waiting past the deadlines here.
			ownN8n: true,
		});
		const containers = await trackManyContainers(
			ctx.handle,
			Array.from({ length: CONTAINERS }, (_, index) =>
				withCheckDigit(`MSCU${String(730_000 + index * 7)}`),
			),
			'MSCU',
		);
		containerIds = containers.map((container) => container.id);
		await ctx.importCredentials([sandboxCredential()]);
		await ctx.importWorkflow(
			workflow(WORKFLOW_ID, 'E2E burst to collector', [
				{
					name: 'Pickup readiness changed',
					type: TRIGGER_TYPE,
					typeVersion: 1.2,
					webhookId: WEBHOOK_ID,
					credentials: { containerTrackingApi: CREDENTIAL },
					parameters: {
						registration: 'automatic',
						events: EVENTS,
						output: 'latestState',
						options: { fetchContainer: true },
					},
				},
				postToCollector('Send to collector', collector, ['Pickup readiness changed']),
			]),
		);
		await ctx.activate(WORKFLOW_ID);
		n8n = await ctx.start();
		await webhookRegistered(ctx.handle);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await collector?.close();
	}, 60_000);

	it('answers every delivery at its first attempt, in far fewer executions, each notification once, ending at the service’s state', async () => {
		await ctx.handle.control.delete('/deliveries');
		for (const id of containerIds) {
			const played = await ctx.handle.control.post(`/containers/${id}/scenarios/ready_for_pickup`, {
				gap_seconds: 0,
			});
			expect(played.status).toBe(202);
		}
		// Every step played at once: the service made every notification already.
		const notificationIds = ctx.handle.sandbox.world.store
			.list('webhook_notification')
			.map((notification) => notification.id);
		const log = async () =>
			(await ctx.handle.control.get('/deliveries')).data.deliveries as DeliveryAttempt[];
		// Every notification answered, and its execution run (its id reached the collector).
		await eventually(
			() => {
				const ran = new Set(
					collector.items.flatMap((item) => (item.notification_ids as string[]) ?? []),
				);
				return notificationIds.every((id) => ran.has(id)) ? true : undefined;
			},
			{ timeoutMs: 120_000, intervalMs: 500, what: 'every notification run' },
		);
		const attempts = await log();
		const notifications = new Set(attempts.map((entry) => entry.notification_id));
		expect([...notifications].sort()).toEqual([...notificationIds].sort());
		expect(notifications.size).toBeGreaterThanOrEqual(CONTAINERS * 3);
		expect(attempts.filter((entry) => entry.status !== 200)).toEqual([]);
		expect(attempts).toHaveLength(notifications.size);

		// Each notification ran once: in one item of one execution.
		const ranIds = collector.items.flatMap((item) => item.notification_ids as string[]);
		expect(ranIds).toHaveLength(notifications.size);
		expect(new Set(ranIds).size).toBe(notifications.size);

		const filter = encodeURIComponent(JSON.stringify({ workflowId: ctx.workflowId(WORKFLOW_ID) }));
		// The last run posts to the collector a moment before n8n records its end.
		const executions = await eventually(
			async () => {
				const listed = (await rest(n8n.url, n8n.cookie, 'GET', `/executions?filter=${filter}`)).body
					.data.results as Array<{ id: string; status: string }>;
				return listed.some((entry) => ['new', 'running'].includes(entry.status))
					? undefined
					: listed;
			},
			{ timeoutMs: 30_000, intervalMs: 250, what: 'every run of the burst to end' },
		);
		// Every run succeeded; a failed one is named with the node it stopped at and its error.
		const failures = [];
		for (const execution of executions.filter((entry) => entry.status !== 'success')) {
			const stored = (await rest(n8n.url, n8n.cookie, 'GET', `/executions/${execution.id}`)).body
				.data as { data: string };
			// n8n keeps run data as `flatted` text; read with n8n's own copy.
			const flatted = createRequire(path.join(ctx.n8nDir, 'node_modules', 'n8n', 'package.json'))(
				'flatted',
			);
			const { resultData } = flatted.parse(stored.data) as {
				resultData: { error?: { message?: string }; lastNodeExecuted?: string };
			};
			failures.push(
				`${execution.id} ${execution.status} in ${resultData.lastNodeExecuted}: ${resultData.error?.message}`,
			);
		}
		expect(failures).toEqual([]);
		expect(executions.length).toBeLessThan(notifications.size / 5);

		// The last item of each container says what the service says now: ready for pickup.
		for (const id of containerIds) {
			const last = collector.items.filter((item) => item.id === id).at(-1);
			const served = ctx.handle.served('container', id).attributes;
			expect(last).toMatchObject({
				number: served.number,
				ready_for_pickup: served.available_for_pickup,
				pickup_status: 'ready',
				last_free_day: served.pickup_lfd,
			});
		}
		// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals
		process.stdout.write(
			`burst e2e: ${notifications.size} notifications, ${attempts.length} attempts, ${executions.length} executions\n`,
		);
	}, 180_000);
});

// The restart check (nodes/ContainerTracking/trigger/recovery/restartCheck.ts,
// trigger/memory/recordedNotifications.ts) as n8n runs it when it starts: the watch's first check,
// through n8n-core's TriggerContext, against a started sandbox, with n8n's deduplication store in
// memory. Notifications n8n never answered before it died run at once, not when the service's
// backed-off retries come; those the service delivers by reference only are not read one by one.
import { setRateWindow } from '../../nodes/ContainerTracking/transport/rateLimit';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { startBridge, type Bridge } from '../support/bridge';
import { useDeduplicationInMemory } from '../support/deduplication';
import {
	API_KEY,
	countRequests,
	eventually,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';
import { TriggerHarness, type Watch } from '../support/trigger';

// Scenario steps one sandbox second apart take 50 ms.
const TIME_SCALE = 20;
/** The service's first retry an hour (sandbox time) after a failed attempt: none comes here. */
const RETRY_BASE_SECONDS = 3_600;
/** The watch's first check comes this long after it starts (trigger/recovery/watch.ts). */
const FIRST_CHECK_MS = 2_000;
/** The restart check's executions have run, on a quiet machine, this long after it. */
const RUN_QUIET_MS = 1_000;
const TEST_TIMEOUT = generous(8_000);

interface LoggedNotification {
	id: string;
	attributes: { event: string; delivery_status: string };
	relationships: { webhook: { data: { id: string } } };
}

describe('Container Tracking Trigger restart check', () => {
	let handle: SandboxHandle;
	let bridge: Bridge;
	let watch: Watch | undefined;

	beforeAll(useDeduplicationInMemory);
	beforeEach(async () => {
		handle = await startTestSandbox({ timeScale: TIME_SCALE, trackingDelaySeconds: 0 });
		bridge = await startBridge();
		setRateWindow(60_000 / TIME_SCALE);
	});
	afterEach(async () => {
		setRateWindow(60_000);
		await watch?.close();
		watch = undefined;
		await bridge.close();
		await handle.stop();
	});

	it(
		'after n8n died before answering them, notifications the service still retries run at the restart check, once each, as first runs; those it delivers by reference only are not read one by one',
		async () => {
			const harness = new TriggerHarness(
				{
					registration: 'automatic',
					events: ['container.updated', 'container.transport.available'],
				},
				{ apiKey: API_KEY, baseUrl: handle.sandbox.url },
				{},
				{ webhookBaseUrl: bridge.webhookBaseUrl, workflowId: 'restart-check-unanswered' },
			);
			bridge.harness = harness;
			await harness.activate();
			const webhookId = String(harness.staticData.webhookId);
			expect(
				(
					await handle.control.patch('/webhook_settings', {
						retry_base_seconds: RETRY_BASE_SECONDS,
					})
				).status,
			).toBe(200);
			// n8n is down: every attempt fails, and the service waits long before the next.
			bridge.down = true;
			for (const number of [withCheckDigit('MSKU314159'), withCheckDigit('MSKU271828')]) {
				const { containerIds } = await trackContainer(handle, number, 'MAEU');
				const played = await handle.control.post(
					`/containers/${containerIds[0]}/scenarios/ready_for_pickup`,
					{ gap_seconds: 1 },
				);
				expect(played.status).toBe(202);
			}
			const logged = () =>
				(
					handle.sandbox.world.store.list('webhook_notification') as unknown as LoggedNotification[]
				).filter((entry) => entry.relationships.webhook.data.id === webhookId);
			const pending = await eventually(
				() => {
					const entries = logged();
					return entries.some(
						(entry) => entry.attributes.event === 'container.transport.available',
					) &&
						entries.some((entry) => entry.attributes.event === 'container.updated') &&
						entries.every((entry) => entry.attributes.delivery_status === 'pending') &&
						handle.sandbox.dispatcher.log.filter((attempt) => attempt.webhook_id === webhookId)
							.length >= entries.length
						? entries
						: undefined;
				},
				{ timeoutMs: generous(2_000), what: 'the notifications logged, each attempted once' },
			);

			// n8n starts again: the watch's first check hands the log's notifications over.
			bridge.down = false;
			const oneByOne = await countRequests(handle, 'GET', '/webhook_notifications/*');
			watch = await harness.watch('init');
			const restartRuns = () =>
				watch!.emitted
					.filter((emit) => String(emit.deduplicationKey).startsWith('container-tracking-restart-'))
					.flatMap((emit) => emit.items);
			const ran = await eventually(
				() => {
					const ids = new Set(restartRuns().map((item) => String(item.notification_id)));
					return pending.every((entry) => ids.has(entry.id)) ? restartRuns() : undefined;
				},
				{
					timeoutMs: byClock(FIRST_CHECK_MS) + generous(RUN_QUIET_MS),
					what: 'every notification run by the restart check',
				},
			);
			expect(ran.some((item) => item.rerun === true)).toBe(false);
			// Each once: the catch-up of those still pending later finds them recorded.
			const runs = new Map<string, number>();
			for (const emit of watch.emitted) {
				for (const id of new Set(emit.items.map((item) => String(item.notification_id))))
					runs.set(id, (runs.get(id) ?? 0) + 1);
			}
			expect([...runs.values()].every((count) => count === 1)).toBe(true);
			// container.transport.available carries no records, in its delivery as in the log's page.
			expect(await oneByOne()).toBe(0);
		},
		TEST_TIMEOUT,
	);
});

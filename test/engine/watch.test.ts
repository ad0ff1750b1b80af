/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// The trigger's watch (trigger()), run as n8n runs it (n8n-core's TriggerContext) against a
// started sandbox that delivers to an HTTP bridge standing in for n8n: n8n down longer than the
// service retries (each notification `failed`, the webhook turned off), then up again; a webhook
// deleted or turned off at the service while the workflow is active.
import type { IDataObject } from 'n8n-workflow';

import { MAX_RETRIES } from '../../sandbox/webhooks/delivery';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { setRateWindow } from '../../nodes/ContainerTracking/transport/rateLimit';
import { byClock, generous } from '../support/bounds';
import { startBridge, type Bridge } from '../support/bridge';
import { HEADER, sign } from '../support/deliveries';
import {
	API_KEY,
	countRequests,
	eventually,
	trackManyContainers,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';
import { TriggerHarness, type Watch } from '../support/trigger';

// Scenario steps one sandbox second apart take 50 ms.
const TIME_SCALE = 20;
/** A scenario's three steps, one sandbox second apart: real ms from the first to the last. */
const SCENARIO_MS = (2 * 1_000) / TIME_SCALE;
/**
 * Sandbox seconds before the service's first retry of a delivery n8n did not take; each retry
 * waits twice as long as the one before (sandbox/webhooks/delivery.ts).
 */
const RETRY_BASE_SECONDS = 0.002;
/** Real ms from a notification until the service gives it up: its MAX_RETRIES retries, at 20×. */
const GIVE_UP_MS = (RETRY_BASE_SECONDS * 1_000 * (2 ** MAX_RETRIES - 1)) / TIME_SCALE; // 410 ms
// The node's floor (3 s): the watch's checks are this far apart.
const WATCH_MINUTES = 0.05;
const WATCH_MS = WATCH_MINUTES * 60_000;
/** The watch's first check comes this long after it starts (trigger/recovery/watch.ts). */
const FIRST_CHECK_MS = 2_000;
/**
 * A check with little to do (read the webhook, set it right, read a page of the log, start what
 * it missed) takes under this on a quiet machine.
 */
const CHECK_QUIET_MS = 500;
/** By then the next check has ended: it is due within the interval. */
const NEXT_CHECK = byClock(WATCH_MS) + generous(CHECK_QUIET_MS);
/** By then a webhook changed at the service is set right: the next check does. */
const REPAIRED = byClock(WATCH_MS) + generous(CHECK_QUIET_MS);
/** By then the service has given up a scenario's notifications while n8n is down. */
const ALL_FAILED = byClock(SCENARIO_MS + GIVE_UP_MS) + generous(1_000);
/**
 * Each test's jest timeout: GENEROUS times what it takes on a quiet machine (jest prints it), more
 * than the bounds of its waits add up to.
 */
const DOWN_LONGER_TEST = generous(9_000);
const NOT_LOGGED_TEST = generous(6_000);
const DOWN_SHORTER_TEST = generous(6_000);
const FAILED_READ_TEST = generous(10_000);
const TWO_PAGES_TEST = generous(12_000);
const THOUSAND_TEST = generous(22_000);
const REPAIR_TEST = generous(6_000);

interface LoggedNotification {
	id: string;
	attributes: { event: string; delivery_status: string; created_at: string };
	relationships: { webhook: { data: { id: string } } };
}

// Read in the sandbox's own store: polling over HTTP would spend the API key's rate limit, which
// the watch shares.
function notificationLog(handle: SandboxHandle): LoggedNotification[] {
	return handle.sandbox.world.store.list('webhook_notification') as unknown as LoggedNotification[];
}

function webhookOf(handle: SandboxHandle, id: string): IDataObject | undefined {
	return handle.sandbox.world.store.get('webhook', id)?.attributes as IDataObject | undefined;
}

/**
 * What tells that a check of the watch ended: every check's catch-up writes `caughtUp` anew in the
 * node's static data (trigger/recovery/catchUp.ts), whether it found anything or not, and starts
 * what it found right after. Checks run one after the other, WATCH_MS apart.
 */
const checkMark = (harness: TriggerHarness): unknown => harness.staticData.caughtUp;

/**
 * Waits until a check ends after `mark` was taken. Taken after a catch-up, the check that ends
 * next started after it: what it reads and starts is what later checks do.
 */
async function checkEnded(
	harness: TriggerHarness,
	mark: unknown,
	{ timeoutMs = NEXT_CHECK, what = 'the next check of the watch' } = {},
): Promise<void> {
	await eventually(() => (checkMark(harness) !== mark ? true : undefined), { timeoutMs, what });
}

/** The notifications the watch started the workflow with, in order, each as often as it did. */
const emittedIds = (watch: Watch) =>
	watch.emitted.flatMap((emit) => [
		...new Set(emit.items.map((item) => String(item.notification_id))),
	]);

describe('Container Tracking Trigger watch', () => {
	let handle: SandboxHandle;
	let bridge: Bridge;
	let open: Watch[] = [];

	const harnessFor = (
		options: IDataObject = {},
		staticData: IDataObject = {},
		workflowId?: string,
	) =>
		new TriggerHarness(
			{
				registration: 'automatic',
				events: ['container.updated'],
				options: { watchMinutes: WATCH_MINUTES, ...options },
			},
			{ apiKey: API_KEY, baseUrl: handle.sandbox.url },
			staticData,
			{ webhookBaseUrl: bridge.webhookBaseUrl, ...(workflowId ? { workflowId } : {}) },
		);
	const watching = async (
		harness: TriggerHarness,
		activationMode?: Parameters<TriggerHarness['watch']>[0],
	) => {
		const watch = await harness.watch(activationMode);
		open.push(watch);
		return watch;
	};

	beforeEach(async () => {
		handle = await startTestSandbox({ timeScale: TIME_SCALE, trackingDelaySeconds: 0 });
		bridge = await startBridge();
		// The node's rate window compressed as the sandbox's minute is: the watch's calls of one
		// test do not wait for the minute the calls of the tests before it filled.
		setRateWindow(60_000 / TIME_SCALE);
	});
	afterEach(async () => {
		setRateWindow(60_000);
		await Promise.all(open.map(async (watch) => await watch.close()));
		open = [];
		await bridge.close();
		await handle.stop();
	});

	/** n8n goes down; a customs hold is played; every delivery fails until the service gives up. */
	async function missWhileDown(
		harness: TriggerHarness,
		number: string,
		settings: { deactivate_after_failures: number; log_while_inactive: boolean },
	) {
		bridge.harness = harness;
		await harness.activate();
		const webhookId = String(harness.staticData.webhookId);
		const set = await handle.control.patch('/webhook_settings', {
			retry_base_seconds: RETRY_BASE_SECONDS,
			...settings,
		});
		expect(set.status).toBe(200);
		const { containerIds } = await trackContainer(handle, number, 'MAEU');
		bridge.down = true;
		const played = await handle.control.post(
			`/containers/${containerIds[0]}/scenarios/customs_hold`,
			{ gap_seconds: 1 },
		);
		expect(played.status).toBe(202);
		return { webhookId, containerId: containerIds[0] };
	}

	it(
		"the restart check is made once per trigger in a process that activated it, also when n8n closes the watch before its first check (n8n 2.x publishing a workflow again after its start, mode 'update'); none where a person turned it on",
		async () => {
			const harness = harnessFor({}, {}, 'restart-check-once');
			bridge.harness = harness;
			await harness.activate();
			const webhookId = String(harness.staticData.webhookId);
			const { containerIds } = await trackContainer(handle, withCheckDigit('MSKU271828'), 'MAEU');
			const played = await handle.control.post(
				`/containers/${containerIds[0]}/scenarios/customs_hold`,
				{ gap_seconds: 1 },
			);
			expect(played.status).toBe(202);
			// Delivered live: three notifications the service logged, answered.
			await eventually(
				() => {
					const log = notificationLog(handle).filter(
						(entry) => entry.relationships.webhook.data.id === webhookId,
					);
					return log.length >= 3 &&
						log.every((entry) => entry.attributes.delivery_status === 'succeeded')
						? true
						: undefined;
				},
				{ timeoutMs: byClock(SCENARIO_MS) + generous(1_000), what: 'three notifications answered' },
			);
			const restartChecks = (watch: Watch) =>
				watch.emitted.filter((emit) =>
					String(emit.deduplicationKey).startsWith('container-tracking-restart-'),
				);
			/** A watch started as n8n activated it, once its first check has ended. */
			const throughFirstCheck = async (
				of: TriggerHarness,
				activationMode: Parameters<TriggerHarness['watch']>[0],
				what: string,
			) => {
				const mark = checkMark(of);
				const watch = await watching(of, activationMode);
				await checkEnded(of, mark, {
					timeoutMs: byClock(FIRST_CHECK_MS) + generous(CHECK_QUIET_MS),
					what,
				});
				return watch;
			};

			// Closed before its first check: n8n activated the workflow at its start and re-published it.
			const first = await harness.watch('init');
			await first.close();
			const second = await throughFirstCheck(harness, 'update', "the second watch's first check");
			expect(first.emitted).toEqual([]);
			expect(restartChecks(second)).toHaveLength(1);
			// Turned off and on again in the same process: no run was cut, no second check.
			await second.close();
			const third = await throughFirstCheck(harness, 'update', "the third watch's first check");
			expect(third.emitted).toEqual([]);
			await third.close();

			// The same webhook's trigger in another workflow, turned on by a person: it was off, so
			// nothing of it was cut, and no check is made.
			const turnedOn = harnessFor(
				{},
				JSON.parse(JSON.stringify(harness.staticData)) as IDataObject,
				'restart-check-turned-on',
			);
			const fourth = await throughFirstCheck(
				turnedOn,
				'activate',
				'the first check of a workflow a person turned on',
			);
			expect(restartChecks(fourth)).toEqual([]);
		},
		DOWN_LONGER_TEST,
	);

	it(
		'n8n down longer than the retries: the webhook is turned on again and each failed notification starts the workflow once, oldest first, with caught_up items',
		async () => {
			const harness = harnessFor();
			const { webhookId, containerId } = await missWhileDown(
				harness,
				withCheckDigit('MSKU161803'),
				{
					deactivate_after_failures: 2,
					log_while_inactive: true,
				},
			);
			// The service gave up: three customs notifications failed and the webhook is off.
			const failed = await eventually(
				async () => {
					const log = notificationLog(handle).filter(
						(entry) => entry.relationships.webhook.data.id === webhookId,
					);
					const webhook = webhookOf(handle, webhookId);
					return log.length >= 3 &&
						log.every((entry) => entry.attributes.delivery_status === 'failed') &&
						webhook?.active === false
						? log
						: undefined;
				},
				{ timeoutMs: ALL_FAILED, what: 'three failed notifications and the webhook turned off' },
			);
			expect(bridge.calls.filter((call) => call.started)).toEqual([]);

			bridge.down = false;
			const watch = await watching(harness);
			// The first check catches up; its executions run (quietly well under a second).
			await eventually(() => (emittedIds(watch).length >= failed.length ? true : undefined), {
				timeoutMs: byClock(FIRST_CHECK_MS) + generous(1_000),
				what: 'the missed notifications caught up',
			});
			expect(webhookOf(handle, webhookId)?.active).toBe(true);

			const oldestFirst = [...failed]
				.sort(
					(a, b) =>
						a.attributes.created_at.localeCompare(b.attributes.created_at) ||
						a.id.localeCompare(b.id),
				)
				.map((entry) => entry.id);
			expect(emittedIds(watch)).toEqual(oldestFirst);
			// Missed notifications start the workflow together, as live ones that arrive together do.
			expect(watch.emitted).toHaveLength(1);
			const keys = watch.emitted.map((emit) => emit.deduplicationKey);
			expect(new Set(keys).size).toBe(watch.emitted.length);
			const items = watch.emitted.flatMap((emit) => emit.items);
			expect(items.every((item) => item.caught_up === true)).toBe(true);
			const customs = items.filter(
				(item) =>
					item.container_id === containerId &&
					(item.hold as IDataObject | undefined)?.name === 'customs',
			);
			expect(customs.map((item) => item.change).sort()).toEqual([
				'activated',
				'cleared',
				'pending',
			]);
			expect(customs.every((item) => typeof item.container_number === 'string')).toBe(true);

			// A caught-up notification that then arrives live (a late retry) is a repeat: it starts nothing.
			const late = await handle.api.get(`/webhook_notifications/${oldestFirst[0]}`, {
				params: { include: 'reference_object' },
			});
			expect(late.status).toBe(200);
			const lateBody = JSON.stringify(late.data);
			const lateDelivery = await harness.deliver(lateBody, {
				[HEADER]: sign(lateBody, String(harness.staticData.webhookSecret)),
			});
			expect(lateDelivery.result.workflowData).toBeUndefined();
			expect(lateDelivery.result.webhookResponse).toEqual({ message: 'Already received' });

			// Later checks find nothing more to do; the next live delivery starts the workflow once.
			await checkEnded(harness, checkMark(harness));
			expect(watch.emitted).toHaveLength(1);
			expect(emittedIds(watch)).toHaveLength(failed.length);
			const before = bridge.calls.length;
			const played = await handle.control.post(
				`/containers/${containerId}/scenarios/customs_hold`,
				{
					gap_seconds: 1,
				},
			);
			expect(played.status).toBe(202);
			const live = await eventually(
				() => {
					const calls = bridge.calls.slice(before).filter((call) => call.started);
					return calls.length >= 3 ? calls : undefined;
				},
				// The scenario's steps, each delivered at once and run (quietly well under a second).
				{ timeoutMs: byClock(SCENARIO_MS) + generous(1_000), what: 'three live deliveries' },
			);
			expect(new Set(live.map((call) => call.notificationId)).size).toBe(live.length);
			expect(live.flatMap((call) => call.items).some((item) => 'caught_up' in item)).toBe(false);

			// n8n restarts with the static data it saved: nothing is caught up a second time.
			await watch.close();
			const restarted = harnessFor(
				{},
				JSON.parse(JSON.stringify(harness.staticData)) as IDataObject,
			);
			const mark = checkMark(restarted);
			const again = await watching(restarted);
			await checkEnded(restarted, mark, {
				timeoutMs: byClock(FIRST_CHECK_MS) + generous(CHECK_QUIET_MS),
				what: "the restarted watch's first check",
			});
			expect(again.emitted).toEqual([]);
		},
		DOWN_LONGER_TEST,
	);

	it(
		'notifications not logged while the webhook was off: the ones that failed before it went off are caught up, once each',
		async () => {
			const harness = harnessFor();
			const { webhookId, containerId } = await missWhileDown(
				harness,
				withCheckDigit('MSKU141421'),
				{
					deactivate_after_failures: 1,
					log_while_inactive: false,
				},
			);
			// Settled: a delivery still in flight when the webhook went off is marked failed when its
			// answer comes (later on a loaded machine), and is caught up like the first.
			const failed = await eventually(
				async () => {
					const webhook = webhookOf(handle, webhookId);
					const log = notificationLog(handle).filter(
						(entry) => entry.relationships.webhook.data.id === webhookId,
					);
					return webhook?.active === false &&
						log.length >= 1 &&
						log.every((entry) => entry.attributes.delivery_status === 'failed')
						? log
						: undefined;
				},
				{ timeoutMs: ALL_FAILED, what: 'failed notifications and the webhook turned off' },
			);
			// A change while the webhook is off is not logged: the service will never tell of it. (Its
			// steps all due at once, the sandbox plays them before it answers.)
			const logged = notificationLog(handle).length;
			const replayed = await handle.control.post(
				`/containers/${containerId}/scenarios/customs_hold`,
				{ gap_seconds: 0 },
			);
			expect(replayed.status).toBe(202);
			expect(replayed.data.steps).toBe(3);
			expect(notificationLog(handle)).toHaveLength(logged);

			bridge.down = false;
			const watch = await watching(harness);
			await eventually(async () => (webhookOf(handle, webhookId)?.active ? true : undefined), {
				timeoutMs: byClock(FIRST_CHECK_MS) + generous(CHECK_QUIET_MS),
				what: 'the webhook turned on again',
			});
			await eventually(() => (emittedIds(watch).length >= failed.length ? true : undefined), {
				timeoutMs: byClock(FIRST_CHECK_MS) + generous(1_000),
				what: 'the failed notification caught up',
			});
			const executions = watch.emitted.length;
			await checkEnded(harness, checkMark(harness));
			expect(watch.emitted).toHaveLength(executions);
			expect(emittedIds(watch).sort()).toEqual(failed.map((entry) => entry.id).sort());
		},
		NOT_LOGGED_TEST,
	);

	it(
		'n8n down for less than the service retries: the retries start the workflow once each, the watch starts nothing',
		async () => {
			const harness = harnessFor();
			bridge.harness = harness;
			await harness.activate();
			// Retries 0.1 s, 0.2 s, 0.4 s… apart (2 sandbox seconds, doubling, at 20×): the retry after
			// a notification waited w real ms comes by 2w + 100 ms after it, for minutes on end.
			expect(
				(await handle.control.patch('/webhook_settings', { retry_base_seconds: 2 })).status,
			).toBe(200);
			const { containerIds } = await trackContainer(handle, withCheckDigit('MSKU173205'), 'MAEU');
			bridge.down = true;
			const played = await handle.control.post(
				`/containers/${containerIds[0]}/scenarios/customs_hold`,
				{ gap_seconds: 1 },
			);
			expect(played.status).toBe(202);
			const playedAt = Date.now();
			await eventually(
				() => {
					const log = notificationLog(handle);
					return log.length >= 3 &&
						log.every((entry) => entry.attributes.delivery_status === 'pending')
						? true
						: undefined;
				},
				{ timeoutMs: byClock(SCENARIO_MS) + generous(500), what: 'three notifications pending' },
			);
			// The watch's first check finds them pending (the service retrying them): it starts nothing.
			const mark = checkMark(harness);
			const watch = await watching(harness);
			await checkEnded(harness, mark, {
				timeoutMs: byClock(FIRST_CHECK_MS) + generous(CHECK_QUIET_MS),
				what: "the watch's first check",
			});
			expect(watch.emitted).toEqual([]);

			bridge.down = false;
			const waited = Date.now() - playedAt;
			const started = await eventually(
				() => {
					const calls = bridge.calls.filter((call) => call.started);
					return calls.length >= 3 ? calls : undefined;
				},
				{
					timeoutMs: byClock(waited + 100) + generous(1_000),
					what: 'three deliveries through the retries',
				},
			);
			await checkEnded(harness, checkMark(harness));
			expect(new Set(started.map((call) => call.notificationId)).size).toBe(3);
			expect(bridge.calls.filter((call) => call.started)).toHaveLength(3);
			expect(watch.emitted).toEqual([]);
			expect(
				notificationLog(handle).every((entry) => entry.attributes.delivery_status === 'succeeded'),
			).toBe(true);
		},
		DOWN_SHORTER_TEST,
	);

	it(
		'the service failing the log while the watch reads it: the next check catches up, once',
		async () => {
			const harness = harnessFor();
			const { webhookId } = await missWhileDown(harness, withCheckDigit('MSKU223606'), {
				deactivate_after_failures: 3,
				log_while_inactive: true,
			});
			await eventually(
				() =>
					webhookOf(handle, webhookId)?.active === false &&
					notificationLog(handle).length >= 3 &&
					notificationLog(handle).every((entry) => entry.attributes.delivery_status === 'failed')
						? true
						: undefined,
				{ timeoutMs: ALL_FAILED, what: 'three failed notifications' },
			);
			bridge.down = false;
			// The first five reads of the log fail.
			const fault = await handle.control.post('/faults', {
				path: '/webhook_notifications',
				method: 'GET',
				kind: 'error_500',
				count: 5,
			});
			expect(fault.status).toBe(201);
			const watch = await watching(harness);
			// The read is tried again after each fault (transport/request.ts): after 0.5 s and 1 s at
			// most, then, the circuit open after three, one probe after 1 s and one after 2 s at most.
			await eventually(() => (emittedIds(watch).length >= 3 ? true : undefined), {
				timeoutMs: byClock(FIRST_CHECK_MS + 5_500 + WATCH_MS) + generous(1_000),
				what: 'the catch-up after the failed read',
			});
			// All five failures were served (a spent count fault is gone).
			expect((await handle.control.get('/faults')).data.faults).toEqual([]);
			const executions = watch.emitted.length;
			await checkEnded(harness, checkMark(harness));
			expect(watch.emitted).toHaveLength(executions);
			expect(new Set(emittedIds(watch)).size).toBe(3);
			expect(emittedIds(watch)).toHaveLength(3);
		},
		FAILED_READ_TEST,
	);

	it(
		'a log served oldest first over two pages: the newest page is read on every check, its failed notifications caught up once',
		async () => {
			// Real time, from three hours ago: the first page of the log is older than a later check
			// looks back, as on an account with history (a walk that took it for newest first stops there).
			// Scenario steps one second apart take a second here; the service gives a notification up
			// within half a second (12 retries from 0.1 ms, doubling).
			const scenarioMs = 2 * 1_000;
			const retryBaseSeconds = 0.0001;
			const giveUpMs = retryBaseSeconds * 1_000 * (2 ** MAX_RETRIES - 1);
			await handle.stop();
			handle = await startTestSandbox({
				trackingDelaySeconds: 0,
				clockStart: Date.now() - 3 * 60 * 60_000,
			});
			const harness = harnessFor();
			bridge.harness = harness;
			await harness.activate();
			const webhookId = String(harness.staticData.webhookId);
			expect(
				(
					await handle.control.patch('/webhook_settings', {
						log_order: 'oldest_first',
						retry_base_seconds: retryBaseSeconds,
					})
				).status,
			).toBe(200);
			const watch = await watching(harness);
			// 34 customs holds delivered: 102 notifications, more than a page of the log.
			const numbers = Array.from({ length: 35 }, (_, index) =>
				withCheckDigit(`MSKU${String(510_000 + index * 3)}`),
			);
			const containers = await trackManyContainers(handle, numbers, 'MAEU');
			for (const container of containers.slice(0, 34)) {
				const played = await handle.control.post(
					`/containers/${container.id}/scenarios/customs_hold`,
					{ gap_seconds: 1 },
				);
				expect(played.status).toBe(202);
			}
			await eventually(
				() => {
					const log = notificationLog(handle);
					return log.length >= 102 &&
						log.every((entry) => entry.attributes.delivery_status === 'succeeded')
						? true
						: undefined;
				},
				// The holds' steps, each delivered at once and run (quietly a second or two in all).
				{ timeoutMs: byClock(scenarioMs) + generous(2_000), what: '102 notifications delivered' },
			);
			// Three hours later (now), n8n is down while one more hold plays: the page with it comes
			// last, after a page that is all older than any later check looks back. What came due in
			// those hours is delivered first, while n8n is up.
			expect((await handle.control.post('/clock/advance', { hours: 3 })).status).toBe(200);
			await eventually(
				() =>
					notificationLog(handle).every((entry) => entry.attributes.delivery_status === 'succeeded')
						? true
						: undefined,
				{ timeoutMs: generous(1_000), what: 'what came due in three hours delivered' },
			);
			bridge.down = true;
			const played = await handle.control.post(
				`/containers/${containers[34].id}/scenarios/customs_hold`,
				{ gap_seconds: 1 },
			);
			expect(played.status).toBe(202);
			const failed = await eventually(
				() => {
					const log = notificationLog(handle).filter(
						(entry) => entry.relationships.webhook.data.id === webhookId,
					);
					const failures = log.filter((entry) => entry.attributes.delivery_status === 'failed');
					return failures.length >= 3 &&
						log.every((entry) => entry.attributes.delivery_status !== 'pending')
						? failures
						: undefined;
				},
				{
					timeoutMs: byClock(scenarioMs + giveUpMs) + generous(1_000),
					what: 'the last hold failed',
				},
			);
			bridge.down = false;
			// The next check catches them up; their execution runs (quietly well under a second).
			await eventually(() => (emittedIds(watch).length >= failed.length ? true : undefined), {
				timeoutMs: byClock(WATCH_MS) + generous(1_000),
				what: 'the failed notifications caught up from the last page',
			});
			const executions = watch.emitted.length;
			await checkEnded(harness, checkMark(harness));
			expect(watch.emitted).toHaveLength(executions);
			expect(emittedIds(watch).sort()).toEqual(failed.map((entry) => entry.id).sort());
		},
		TWO_PAGES_TEST,
	);

	it(
		'1,000 missed notifications, in a log served either way: each starts the workflow once, in a few executions, for about a call per 100',
		async () => {
			for (const order of ['newest_first', 'oldest_first']) {
				await handle.stop();
				handle = await startTestSandbox({ timeScale: TIME_SCALE, trackingDelaySeconds: 0 });
				const harness = harnessFor();
				bridge.harness = harness;
				await harness.activate();
				const webhookId = String(harness.staticData.webhookId);
				const containers = await trackManyContainers(
					handle,
					Array.from({ length: 100 }, (_, index) =>
						withCheckDigit(`MSKU${String(620_000 + index * 3)}`),
					),
					'MAEU',
				);
				// The webhook is off (the service turned it off) and logs what it does not send.
				expect(
					(
						await handle.control.patch('/webhook_settings', {
							log_order: order,
							log_while_inactive: true,
						})
					).status,
				).toBe(200);
				await handle.api.patch(`/webhooks/${webhookId}`, {
					data: { type: 'webhook', attributes: { active: false } },
				});
				// Ten rounds, one after the other; the hundred containers of a round change together.
				for (let round = 0; round < 10; round++) {
					const changed = await Promise.all(
						containers.map(
							async (container) =>
								await handle.control.post(`/containers/${container.id}/changes`, {
									kind: 'set_pickup_appointment',
									at: new Date(Date.UTC(2026, 11, 1 + round, 8)).toISOString(),
								}),
						),
					);
					expect(changed.map((answer) => answer.status)).toEqual(containers.map(() => 200));
				}
				const missed = notificationLog(handle).filter(
					(entry) => entry.relationships.webhook.data.id === webhookId,
				);
				expect(missed).toHaveLength(1_000);
				expect(missed.every((entry) => entry.attributes.delivery_status === 'failed')).toBe(true);

				const logReads = await countRequests(handle, 'GET', '/webhook_notifications');
				const oneByOne = await countRequests(handle, 'GET', '/webhook_notifications/*');
				const watch = await watching(harness);
				// The first check reads the log and starts every execution at its end; the next check
				// comes WATCH_MS later: what the counters say now is what the catch-up cost.
				await eventually(() => (watch.emitted.length > 0 ? true : undefined), {
					timeoutMs: byClock(FIRST_CHECK_MS) + generous(3_000),
					what: `the catch-up of 1,000 missed notifications (log ${order})`,
				});
				const catchUpLogReads = await logReads();
				const catchUpOneByOne = await oneByOne();
				const executions = watch.emitted.length;
				// Its executions run (quietly in under two seconds).
				await eventually(() => (emittedIds(watch).length >= 1_000 ? true : undefined), {
					timeoutMs: generous(2_000),
					what: `1,000 missed notifications run (log ${order})`,
				});
				expect([...emittedIds(watch)].sort()).toEqual(missed.map((entry) => entry.id).sort());
				// Executions of up to 200 notifications, not 1,000; the log read a page per 100 (and the
				// first page again, oldest first), no notification read on its own.
				expect(watch.emitted.length).toBeLessThanOrEqual(6);
				// Each container's ten in one execution: a catch-up's executions run at once, and two
				// holding one container could write its states in either order.
				const executionsOf = new Map<string, Set<number>>();
				watch.emitted.forEach(({ items }, index) => {
					for (const { container_id: id } of items) {
						if (typeof id !== 'string') continue;
						if (!executionsOf.has(id)) executionsOf.set(id, new Set());
						executionsOf.get(id)!.add(index);
					}
				});
				expect(executionsOf.size).toBe(100);
				expect([...executionsOf.values()].filter((executions) => executions.size > 1)).toEqual([]);
				expect(catchUpLogReads).toBeLessThanOrEqual(12);
				expect(catchUpOneByOne).toBe(0);
				// The next check reads again the pages this catch-up read (quietly well under 2 s).
				await checkEnded(harness, checkMark(harness), {
					timeoutMs: byClock(WATCH_MS) + generous(2_000),
					what: 'the check after the 1,000 caught up',
				});
				expect(watch.emitted).toHaveLength(executions);
				expect(emittedIds(watch)).toHaveLength(1_000);
				await watch.close();
				open = [];
			}
		},
		THOUSAND_TEST,
	);

	it(
		'a webhook turned off, or given other events, at the service is set right within the watch interval',
		async () => {
			const harness = harnessFor();
			bridge.harness = harness;
			await harness.activate();
			const webhookId = String(harness.staticData.webhookId);
			const mark = checkMark(harness);
			await watching(harness);
			const patched = await handle.api.patch(`/webhooks/${webhookId}`, {
				data: { type: 'webhook', attributes: { active: false, events: ['container.created'] } },
			});
			expect(patched.status).toBe(200);
			const started = Date.now();
			const repaired = await eventually(
				async () => {
					const webhook = webhookOf(handle, webhookId);
					return webhook?.active === true &&
						JSON.stringify(webhook.events) === '["container.updated"]'
						? webhook
						: undefined;
				},
				{ timeoutMs: REPAIRED, what: 'the webhook set right' },
			);
			expect(repaired.url).toBe(harness.webhookUrl);
			// Set right by the next check (this one the watch's first), not later.
			expect(Date.now() - started).toBeLessThan(REPAIRED);
			expect(harness.staticData.webhookId).toBe(webhookId);

			// A check with nothing to repair or catch up costs two calls: the webhook and one page of the
			// log. Counted from the end of the check that set it right to the end of the next.
			await checkEnded(harness, mark, { what: 'the check that set the webhook right' });
			const webhookReads = await countRequests(handle, 'GET', '/webhooks/*');
			const logReads = await countRequests(handle, 'GET', '/webhook_notifications');
			await checkEnded(harness, checkMark(harness), { what: 'an idle check' });
			expect(await webhookReads()).toBe(1);
			expect(await logReads()).toBe(1);
			process.stdout.write(
				`watch: an idle check, ${(await webhookReads()) + (await logReads())} calls\n`,
			);
		},
		REPAIR_TEST,
	);

	it('a webhook deleted at the service is created again; deliveries signed with its new secret pass, also where static data still holds the old one', async () => {
		const harness = harnessFor();
		bridge.harness = harness;
		await harness.activate();
		const oldId = String(harness.staticData.webhookId);
		const oldSecret = String(harness.staticData.webhookSecret);
		// A second process (n8n's webhook process) that read static data before the repair.
		const stale = harnessFor({}, { ...harness.staticData });
		await watching(harness);
		expect((await handle.api.delete(`/webhooks/${oldId}`)).status).toBeLessThan(300);

		const recreated = await eventually(
			async () => {
				const listed = await handle.api.get('/webhooks');
				const mine = (listed.data.data as Array<{ id: string; attributes: IDataObject }>).filter(
					(webhook) => webhook.attributes.url === harness.webhookUrl,
				);
				return mine.length === 1 && mine[0].id !== oldId ? mine[0] : undefined;
			},
			{ timeoutMs: REPAIRED, what: 'the webhook created again' },
		);
		expect(harness.staticData.webhookId).toBe(recreated.id);
		const newSecret = String(harness.staticData.webhookSecret);
		expect(newSecret).not.toBe(oldSecret);

		const body = JSON.stringify({
			data: {
				id: 'b0c1d2e3-0000-4000-8000-000000000001',
				type: 'webhook_notification',
				attributes: { event: 'container.updated', delivery_status: 'pending' },
				relationships: { webhook: { data: { id: recreated.id, type: 'webhook' } } },
			},
		});
		const signedNew = { [HEADER]: sign(body, newSecret) };
		expect((await stale.deliver(body, signedNew)).sent?.status).not.toBe(401);
		// A forgery still gets a 401 (and costs at most one read of the webhook per 30 s).
		const forged = body.replace('000000000001', '000000000002');
		expect((await stale.deliver(forged, { [HEADER]: sign(forged, 'forged') })).sent?.status).toBe(
			401,
		);
	});
});

// n8n dies in the middle of its executions, in a real n8n with the packed package: a workflow whose
// trigger feeds an HTTP Request to a collector that can hold its answer, so that executions wait
// there, mid-run, after the service had every notification answered 2xx. n8n is then killed
// (SIGKILL, as an out-of-memory kill does) or stopped (SIGTERM past its graceful-shutdown timeout,
// as `docker stop` and deploys do) at that chosen point, and started again. Every notification
// whose execution was cut runs again, once, its items marked `rerun: true`, soon after n8n serves
// again; one whose execution had ended runs no more; and n8n's own Retry of a crashed execution
// runs its notifications (nodes/ContainerTracking/trigger/memory/runJournal.ts). And a kill after the
// trigger answered deliveries whose executions n8n could not create yet (its database's write lock
// held): the restart check runs each once, as a first run. And
// SIGTERM within the graceful-shutdown timeout, the executions going on after n8n stopped its task
// runners: their Code node fails for want of a runner, and their notifications run again at the start.
// And n8n's answers lost on the way back (a proxy that timed out): the executions ran, the service
// still has the notifications pending and sends them again, n8n is killed: each runs again once.
// And n8n started again on its defaults, copies of notifications that ran before it arriving
// 3 s later (a service retrying what a busy n8n answered late): no execution starts for them,
// while a new notification sent with them runs once.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { sign } from '../support/deliveries';
import { eventually, trackContainer } from '../support/sandbox';
import {
	ACTIVATION_QUIET_MS,
	CREDENTIAL,
	EXECUTION_QUIET_MS,
	N8N_START_QUIET_MS,
	notificationLogOf,
	postToCollector,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	startCollector,
	startE2e,
	storedExecutions,
	storedResult,
	TEARDOWN_TIMEOUT,
	TRIGGER_TYPE,
	webhookRegistered,
	workflow,
	startAnswerDropper,
	type AnswerDropper,
	type Collector,
	type E2eContext,
} from './helpers';

const WORKFLOW_ID = 'ctKilledRuns';
const WEBHOOK_ID = '5d7c2e91-4b3a-4f6e-8c1d-9a2b3c4d5e6f';
/**
 * A second workflow, whose deliveries gather in batches (option Batch Window, at its longest): n8n
 * is killed after answering them, before it could create their executions.
 */
const BATCHING_WORKFLOW_ID = 'ctKilledBatch';
const BATCHING_WEBHOOK_ID = '8e4f1a27-6c5b-4d3e-9f2a-1b0c9d8e7f6a';
const BATCH_WINDOW_SECONDS = 5;
/** The service's first retry after a failed attempt, doubled at each retry up to the cap (sandbox seconds, at scale 1). */
const RETRY_BASE_SECONDS = 1;
/**
 * The service gives a notification up after 12 retries (sandbox/webhooks/delivery.ts), about 12
 * times this: its retries must outlast n8n started again on a busy machine, whose answers a test
 * drops meanwhile (at 4, about 45 s, a CI run timed out waiting for their answers).
 */
const RETRY_CAP_SECONDS = 8;
/** n8n's wait for its executions on SIGTERM (seconds): the collector holds them longer. */
const GRACEFUL_SHUTDOWN_SECONDS = 2;
/**
 * For the stop within the graceful-shutdown timeout: n8n waits this long for its executions, and
 * a Code node's task waits this long for a runner before it fails (n8n's default is 60 s).
 */
const LONG_GRACEFUL_SHUTDOWN_SECONDS = 60;
const TASK_REQUEST_TIMEOUT_SECONDS = 3;
/**
 * After n8n serves again: the workflow activated, the watch's first check 2 s later
 * (trigger/recovery/watch.ts FIRST_CHECK_AFTER_MS) reads the log and starts the runs again.
 */
const RERUN_MS = byClock(2_000) + generous(ACTIVATION_QUIET_MS + 2 * EXECUTION_QUIET_MS);
/** Copies of notifications that ran before a restart, sent after it (the issue's measure). */
const COPIES = 200;
/**
 * How long the restart check's first read of the log takes, on purpose: longer than the copies
 * take to arrive, within how long a copy waits for it (trigger/memory/notificationLedger.ts).
 */
const SLOW_LOG_READ_MS = byClock(10_000);
/** A batch of deliveries goes to n8n within its window (1 s) and the wait for the one before (5 s). */
const BATCH_LONGEST_WAIT_MS = byClock(6_000);
/** One case: two n8n starts, three customs holds played and collected, a minute quietly. */
const TEST_TIMEOUT =
	byClock(GRACEFUL_SHUTDOWN_SECONDS * 1000) + generous(N8N_START_QUIET_MS + 60_000);

interface CollectedItem {
	notification_id?: string;
	rerun?: boolean;
}

describe('e2e: n8n killed or stopped while its executions run', () => {
	let ctx: E2eContext;
	let collector: Collector;
	/** Where the batching workflow sends its items. */
	let batchCollector: Collector;
	/** Where the first workflow sends its items again, after its Code node. */
	let afterCode: Collector;
	let dropper: AnswerDropper;
	let n8n: { url: string; cookie: string; log(): string };
	let serial = 0;

	const executions = async () => await storedExecutions(n8n, WORKFLOW_ID);
	/** Every stored execution has ended. */
	const executionsEnded = async (what: string) => {
		let open: string[] = [];
		return await eventually(
			async () => {
				const found = await executions();
				open = found
					.filter(({ status }) => ['new', 'running'].includes(status))
					.map(({ id, mode, status }) => `${id} ${mode} ${status}`);
				return open.length === 0 ? found : undefined;
			},
			{ timeoutMs: generous(2 * EXECUTION_QUIET_MS), what },
		).catch((error: Error) => {
			// Which ones, for the one who reads a failed run.
			throw new Error(`${error.message}; not ended: ${open.join(', ')}`);
		});
	};
	const notificationsOf = (webhookId: string) => notificationLogOf(ctx.handle, webhookId);
	/** How many items the trigger gave in a stored execution. */
	const triggerItems = async (executionId: string): Promise<number> =>
		(await storedResult(n8n, ctx.n8nDir, executionId)).runData['Container updated']?.[0]?.data
			?.main?.[0]?.length ?? 0;
	const webhookId = (of = WEBHOOK_ID) =>
		ctx.handle.sandbox.world.store
			.list('webhook')
			.find((record) => String(record.attributes.url).includes(of))!.id;
	const collected = (from = 0): CollectedItem[] => collector.items.slice(from);
	const idsIn = (items: CollectedItem[]) =>
		new Set(items.map((item) => item.notification_id).filter(Boolean));
	const countsById = (items: CollectedItem[]) => {
		const counts = new Map<string, number>();
		for (const item of items)
			if (item.notification_id)
				counts.set(item.notification_id, (counts.get(item.notification_id) ?? 0) + 1);
		return counts;
	};

	/** A new box tracked, and a customs hold played on it: three notifications at once. */
	async function customsHoldOnNewBox(): Promise<void> {
		const number = withCheckDigit(`MSKU${810_000 + ++serial * 7}`);
		const { containerIds } = await trackContainer(ctx.handle, number, 'MAEU');
		const played = await ctx.handle.control.post(
			`/containers/${containerIds[0]}/scenarios/customs_hold`,
			{ gap_seconds: 0 },
		);
		expect(played.status).toBe(202);
	}

	/**
	 * Customs holds played on `boxes` new boxes, until the service had each of their notifications
	 * answered 2xx (it sends none of them again) and the collector got every one's items: with the
	 * collector holding, each execution then waits there.
	 */
	async function holdsAnsweredAndCollected(boxes: number): Promise<string[]> {
		const id = webhookId();
		const before = new Set(notificationsOf(id).map((record) => record.id));
		for (let box = 0; box < boxes; box++) await customsHoldOnNewBox();
		return await eventually(
			() => {
				const mine = notificationsOf(id).filter((record) => !before.has(record.id));
				const ids = mine.map((record) => record.id);
				const collectedIds = idsIn(collected());
				return mine.length >= 3 * boxes &&
					mine.every((record) => record.attributes.delivery_status === 'succeeded') &&
					ids.every((notification) => collectedIds.has(notification))
					? ids
					: undefined;
			},
			{
				timeoutMs: generous(ACTIVATION_QUIET_MS + 2 * EXECUTION_QUIET_MS),
				what: `the notifications of ${boxes} customs holds answered and collected`,
			},
		);
	}

	beforeAll(async () => {
		collector = await startCollector();
		batchCollector = await startCollector();
		afterCode = await startCollector();
		dropper = await startAnswerDropper();
		ctx = await startE2e({
			sandbox: {
				trackingDelaySeconds: 0,
				retryBaseSeconds: RETRY_BASE_SECONDS,
				retryCapSeconds: RETRY_CAP_SECONDS,
			},
			// As docs/guarantees.md "Settings for a busy account" advises, and as the suite's shared n8n runs.
			extra: {
				N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(GRACEFUL_SHUTDOWN_SECONDS),
				N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
				N8N_WEBHOOK_URL: `${dropper.url}/`,
			},
			ownN8n: true,
		});
		dropper.target = `http://127.0.0.1:${ctx.port}`;
		await ctx.importCredentials([sandboxCredential()]);
		await ctx.importWorkflow(
			workflow(WORKFLOW_ID, 'E2E runs cut by a kill', [
				{
					name: 'Container updated',
					type: TRIGGER_TYPE,
					typeVersion: 1.2,
					webhookId: WEBHOOK_ID,
					credentials: { containerTrackingApi: CREDENTIAL },
					parameters: { registration: 'automatic', events: ['container.updated'], options: {} },
				},
				postToCollector('Send to collector', collector, ['Container updated']),
				{
					name: 'Pass on',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: "return $('Container updated').all();" },
					after: ['Send to collector'],
				},
				postToCollector('After the Code node', afterCode, ['Pass on']),
			]),
		);
		await ctx.importWorkflow(
			workflow(BATCHING_WORKFLOW_ID, 'E2E batch waiting when killed', [
				{
					name: 'Container updated',
					type: TRIGGER_TYPE,
					typeVersion: 1.2,
					webhookId: BATCHING_WEBHOOK_ID,
					credentials: { containerTrackingApi: CREDENTIAL },
					parameters: {
						registration: 'automatic',
						events: ['container.updated'],
						options: { batchWindowSeconds: BATCH_WINDOW_SECONDS },
					},
				},
				postToCollector('Send to collector', batchCollector, ['Container updated']),
			]),
		);
		await ctx.activate(WORKFLOW_ID);
		await ctx.activate(BATCHING_WORKFLOW_ID);
		n8n = await ctx.start();
		await webhookRegistered(ctx.handle);
		await eventually(
			() =>
				[WEBHOOK_ID, BATCHING_WEBHOOK_ID].every((of) =>
					ctx.handle.sandbox.world.store
						.list('webhook')
						.some((record) => String(record.attributes.url).includes(of)),
				) || undefined,
			{ timeoutMs: generous(ACTIVATION_QUIET_MS), what: 'both webhooks registered' },
		);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		collector?.open();
		await ctx?.stop();
		await collector?.close();
		await batchCollector?.close();
		await afterCode?.close();
		await dropper?.close();
	}, TEARDOWN_TIMEOUT);

	it.each([
		['killed (SIGKILL)', 'SIGKILL' as const],
		['stopped past its graceful-shutdown timeout (SIGTERM)', 'SIGTERM' as const],
	])(
		'n8n %s: every cut run runs again once, marked rerun; a finished one never',
		async (_label, signal) => {
			const caseStart = collector.items.length;
			// A customs hold whose executions end before n8n dies.
			collector.open();
			const finished = await holdsAnsweredAndCollected(1);
			await executionsEnded('the executions of the finished hold');

			// Two customs holds whose executions wait at the collector when n8n dies.
			collector.held = true;
			const cut = await holdsAnsweredAndCollected(2);
			const firstRun = countsById(collected()).entries();
			const itemsPerNotification = new Map([...firstRun].filter(([id]) => cut.includes(id)));
			await ctx.killN8n(signal);

			const from = collector.items.length;
			collector.open();
			n8n = await ctx.start();
			await eventually(
				() => {
					const again = idsIn(collected(from));
					return cut.every((id) => again.has(id)) ? true : undefined;
				},
				{ timeoutMs: RERUN_MS, what: 'every cut notification run again' },
			);
			await executionsEnded('the runs again');

			const after = collected(from);
			// Each cut notification ran again once: its items as many as in its first run.
			const counts = countsById(after);
			for (const id of cut)
				expect([id, counts.get(id)]).toEqual([id, itemsPerNotification.get(id)]);
			// Nothing else ran: not the finished hold, and no new notification meanwhile.
			expect([...counts.keys()].sort()).toEqual([...cut].sort());
			for (const id of finished) expect(counts.has(id)).toBe(false);
			// Each item says it is a run again.
			expect(after.every((item) => item.rerun === true)).toBe(true);
			// The first runs said nothing of the kind.
			expect(
				collected(caseStart)
					.slice(0, from - caseStart)
					.some((item) => item.rerun),
			).toBe(false);
		},
		TEST_TIMEOUT,
	);

	it(
		"n8n's Retry of a crashed execution runs its notifications, marked rerun",
		async () => {
			const crashed = (await executions()).find(({ status }) => status === 'crashed');
			expect(crashed).toBeDefined();
			const from = collector.items.length;
			const retried = await rest(n8n.url, n8n.cookie, 'POST', `/executions/${crashed!.id}/retry`, {
				loadWorkflow: false,
			});
			expect(retried.status).toBe(200);
			const items = await eventually(
				() => (collected(from).length > 0 ? collected(from) : undefined),
				{ timeoutMs: generous(EXECUTION_QUIET_MS), what: 'the retried execution collected' },
			);
			expect(items.every((item) => item.notification_id && item.rerun === true)).toBe(true);
		},
		generous(2 * EXECUTION_QUIET_MS),
	);

	it(
		'n8n killed after it answered deliveries whose executions it could not create yet (its database busy): each notification runs once, at the restart, as a first run',
		async () => {
			collector.open();
			const id = webhookId(BATCHING_WEBHOOK_ID);
			const before = new Set(notificationsOf(id).map((record) => record.id));
			const mine = () => notificationsOf(id).filter((record) => !before.has(record.id));
			const from = batchCollector.items.length;
			const ran = () => idsIn(batchCollector.items.slice(from));
			// The chosen point: the trigger answers each delivery before n8n creates its execution;
			// with its database's write lock held, n8n creates none, and is killed then.
			const release = await ctx.holdDatabaseWrites();
			try {
				await customsHoldOnNewBox();
				await eventually(
					() =>
						mine().length === 3 &&
						mine().every((record) => record.attributes.delivery_status === 'succeeded')
							? true
							: undefined,
					{
						timeoutMs: generous(ACTIVATION_QUIET_MS + EXECUTION_QUIET_MS),
						what: "the hold's three notifications answered 2xx",
					},
				);
				expect(mine().filter((record) => ran().has(record.id))).toEqual([]);
				await ctx.killN8n('SIGKILL');
			} finally {
				await release();
			}

			n8n = await ctx.start();
			await eventually(
				() => (mine().every((record) => ran().has(record.id)) ? true : undefined),
				{ timeoutMs: RERUN_MS, what: 'every notification of the hold run after the restart' },
			);
			await executionsEnded('the runs after the restart');
			// Each once (a second run would give its items twice), and as a first run: it never ran.
			for (const record of mine()) {
				const items = (batchCollector.items.slice(from) as CollectedItem[]).filter(
					(item) => item.notification_id === record.id,
				);
				const distinct = new Set(items.map((item) => JSON.stringify(item))).size;
				expect({ notification: record.id, once: distinct === items.length }).toEqual({
					notification: record.id,
					once: true,
				});
				expect(items.some((item) => item.rerun)).toBe(false);
			}
		},
		TEST_TIMEOUT + byClock(60_000),
	);

	it(
		'n8n stopped (SIGTERM) within its graceful-shutdown timeout, executions going on after it stopped its task runners: their Code node fails, and their notifications run again at the start, marked rerun',
		async () => {
			// n8n waits a minute for its executions, and a Code node's task a few seconds for a runner.
			const graceful = ctx.env.N8N_GRACEFUL_SHUTDOWN_TIMEOUT;
			ctx.env.N8N_GRACEFUL_SHUTDOWN_TIMEOUT = String(LONG_GRACEFUL_SHUTDOWN_SECONDS);
			ctx.env.N8N_RUNNERS_TASK_REQUEST_TIMEOUT = String(TASK_REQUEST_TIMEOUT_SECONDS);
			await ctx.stopN8n();
			collector.open();
			n8n = await ctx.start();
			const stopping = n8n;

			collector.held = true;
			const cut = await holdsAnsweredAndCollected(1);
			const itemsPerNotification = countsById(
				collected().filter((item) => cut.includes(item.notification_id!)),
			);
			const before = afterCode.items.length;
			// The chosen point: n8n has run its shutdown handlers (its task runners stopped) and waits
			// for its executions; then they go on to their Code node.
			await ctx.killN8n('SIGTERM', async () => {
				await eventually(
					() =>
						/Waiting for \d+ active executions? to finish/.test(stopping.log()) ? true : undefined,
					{ timeoutMs: generous(30_000), what: 'n8n waiting for its executions to finish' },
				);
				collector.open();
			});
			// Their Code node failed for want of a runner; nothing got past it.
			expect(stopping.log()).toMatch(/Task request timed out/);
			expect(idsIn(afterCode.items.slice(before))).toEqual(new Set());

			// Started again as it was: the runs again take a runner as usual.
			ctx.env.N8N_GRACEFUL_SHUTDOWN_TIMEOUT = graceful;
			delete ctx.env.N8N_RUNNERS_TASK_REQUEST_TIMEOUT;
			n8n = await ctx.start();
			const failed = (await executions()).filter(({ status }) => status === 'error');
			expect(failed.length).toBeGreaterThan(0);
			await eventually(
				() => (cut.every((id) => idsIn(afterCode.items.slice(before)).has(id)) ? true : undefined),
				{ timeoutMs: RERUN_MS, what: 'every notification of the stopped executions run again' },
			);
			await executionsEnded('the runs again');
			const after = afterCode.items.slice(before) as CollectedItem[];
			const counts = countsById(after);
			for (const id of cut)
				expect([id, counts.get(id)]).toEqual([id, itemsPerNotification.get(id)]);
			expect([...counts.keys()].sort()).toEqual([...cut].sort());
			expect(after.every((item) => item.rerun === true)).toBe(true);
		},
		TEST_TIMEOUT + byClock(LONG_GRACEFUL_SHUTDOWN_SECONDS * 1000),
	);

	it(
		"n8n's answers lost on the way back, the service still sending the notifications again, n8n killed: each runs again once at the start, marked rerun",
		async () => {
			const id = webhookId();
			const before = new Set(notificationsOf(id).map((record) => record.id));
			const mine = () => notificationsOf(id).filter((record) => !before.has(record.id));
			const from = collector.items.length;
			collector.held = true;
			dropper.dropAnswers = true;
			await customsHoldOnNewBox();
			// The chosen point: every notification of the hold ran (its items wait at the collector),
			// and n8n's answers never reached the service, which has them pending.
			const recorded = await eventually(
				() => {
					const ids = mine().map((record) => record.id);
					const ran = idsIn(collected(from));
					return ids.length === 3 &&
						ids.every((notification) => ran.has(notification)) &&
						mine().every((record) => record.attributes.delivery_status !== 'succeeded')
						? ids
						: undefined;
				},
				{
					timeoutMs: generous(ACTIVATION_QUIET_MS + 2 * EXECUTION_QUIET_MS),
					what: 'the hold run, its answers lost',
				},
			);
			const firstRun = countsById(collected(from));
			await ctx.killN8n('SIGKILL');

			const again = collector.items.length;
			collector.open();
			n8n = await ctx.start();
			// n8n's answers are still lost while it starts and its restart check runs.
			await eventually(
				() =>
					recorded.every((notification) => idsIn(collected(again)).has(notification))
						? true
						: undefined,
				{ timeoutMs: RERUN_MS, what: 'every notification of the hold run again' },
			);
			dropper.dropAnswers = false;
			// The service's next attempts are answered now, as repeats.
			await eventually(
				() =>
					mine().every((record) => record.attributes.delivery_status === 'succeeded')
						? true
						: undefined,
				{
					timeoutMs: byClock(2 * RETRY_CAP_SECONDS * 1000) + generous(EXECUTION_QUIET_MS),
					what: "the service's next attempts answered",
				},
			).catch((error: Error) => {
				throw new Error(
					`${error.message}: ${mine()
						.map((record) => `${record.id} ${String(record.attributes.delivery_status)}`)
						.join(', ')}`,
				);
			});
			await executionsEnded('the runs again');
			const counts = countsById(collected(again));
			for (const notification of recorded)
				expect([notification, counts.get(notification)]).toEqual([
					notification,
					firstRun.get(notification),
				]);
			expect(
				collected(again)
					.filter((item) => recorded.includes(item.notification_id!))
					.every((item) => item.rerun === true),
			).toBe(true);
		},
		TEST_TIMEOUT,
	);
	it(
		'n8n started again: 200 copies of notifications that ran before it, sent 3 s after its start, start no execution; a new notification sent with them runs once',
		async () => {
			collector.open();
			const ran = await holdsAnsweredAndCollected(4);
			await executionsEnded('the executions of the holds');
			// Each as the service delivers it: the log answers a notification in the same envelope.
			const bodies = await Promise.all(
				ran.map(
					async (id) =>
						JSON.stringify(
							(
								await ctx.handle.api.get(`/webhook_notifications/${id}`, {
									params: { include: 'reference_object' },
								})
							).data,
						) as string,
				),
			);
			const secret = String(
				ctx.handle.sandbox.world.store.get('webhook', webhookId())!.attributes.secret,
			);
			const known = new Set((await executions()).map(({ id }) => id));

			await ctx.stopN8n();
			// The chosen point: the copies arrive before the restart check knows what ran, the first
			// read of the service's log answered slowly (each workflow's: both restart).
			await ctx.handle.control.post('/faults', {
				path: '/webhook_notifications',
				method: 'GET',
				kind: 'slow',
				count: 2,
				delay_ms: SLOW_LOG_READ_MS,
			});
			n8n = await ctx.start();
			const started = Date.now();
			await sleep(Math.max(0, started + byClock(3_000) - Date.now()));
			const url = `${n8n.url}/webhook/${ctx.webhookId(WEBHOOK_ID)}/webhook`;
			const from = collector.items.length;
			const copies = await Promise.all(
				Array.from({ length: COPIES }, async (_, index) => {
					const body = bodies[index % bodies.length];
					const answer = await fetch(url, {
						method: 'POST',
						headers: {
							'Content-Type': 'application/json',
							[ctx.handle.sandbox.options.signatureHeader]: sign(body, secret),
						},
						body,
					});
					return answer.status;
				}),
			);
			// Every copy is answered at once, as any delivery is.
			expect(copies.filter((status) => status !== 200)).toEqual([]);
			const fresh = await holdsAnsweredAndCollected(1);
			// The copies wait for the restart check's execution; once it ended, a copy it did not
			// tell apart would start an execution within a batch's longest wait
			// (trigger/batching/deliveryBatches.ts).
			await eventually(
				async () =>
					(await executions()).some(
						({ id, mode, status }) => !known.has(id) && mode === 'trigger' && status === 'success',
					) || undefined,
				{
					timeoutMs: byClock(SLOW_LOG_READ_MS) + generous(ACTIVATION_QUIET_MS + EXECUTION_QUIET_MS),
					what: "the restart check's execution ended",
				},
			);
			await sleep(byClock(BATCH_LONGEST_WAIT_MS));
			await executionsEnded('the executions after the start');

			// The new hold's notifications ran once each; nothing that ran before it ran again.
			const counts = countsById(collected(from));
			expect([...counts.keys()].sort()).toEqual([...fresh].sort());
			// No execution started for a copy: every execution of a delivery since the start gave
			// items (one that stops at the trigger with none is a copy's).
			const since = (await executions()).filter(({ id }) => !known.has(id));
			const empty = [];
			for (const { id, mode } of since.filter((execution) => execution.mode === 'webhook'))
				if ((await triggerItems(id)) === 0) empty.push(`${id} (${mode})`);
			expect(empty).toEqual([]);
		},
		TEST_TIMEOUT,
	);
});

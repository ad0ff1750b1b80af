/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The hold-alert example in n8n's queue mode, as teams run n8n when one process is not enough:
// Postgres and Redis (installed by scripts/lib/services.mjs when missing), a main that activates
// the workflow, a webhook process that receives the deliveries and two workers that run them.
// Activation registers one webhook; a customs hold's deliveries run on the workers and send two
// alert emails (activated, released) to a local mail server; after every n8n process restarts,
// the same deliveries again send nothing; the webhook process killed mid-hold loses no alert;
// unpublishing deletes the webhook.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { API_KEY, eventually, startTestSandbox, trackContainer } from '../support/sandbox';
import type { SandboxHandle } from '../support/sandbox';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import {
	ACTIVATION_QUIET_MS,
	CREDENTIAL,
	N8N_START_QUIET_MS,
	OWNER,
	n8nLib,
	prepareQueueCluster,
	readdressed,
	rest,
	sandboxWebhooks as sandboxWebhooksOf,
	SETUP_TIMEOUT,
	sleep,
	smtpCredential,
	startMailServer,
	type MailServer,
	type QueueCluster,
} from './helpers';

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const HOLD_ALERTS = { id: 'ctHoldAlerts', webhookId: '7b0e6a52-3c1d-4e8f-9a47-1d2c3b4a5e61' };
const CONTAINER_NUMBER = 'MSCU1000022';
/** Every n8n process stopped, one after the other, each SIGKILLed after 15 s (processStopper). */
const STOP_ALL_MS = byClock(4 * 15_000);
/** The processes started: the main first (it migrates the database), then the others together. */
const START_ALL_QUIET_MS = 2 * N8N_START_QUIET_MS;
/**
 * A delivery's execution queued in Redis and run on a worker, its email sent: quietly a few
 * seconds, the first on a worker whose task runner is still cold up to ten (a busy core made it
 * take over 17 s, 5x three seconds).
 */
const QUEUED_EXECUTION_QUIET_MS = 10_000;
/**
 * How much slower than quietly this run's cluster started (at least 1): the bounds on its
 * queued executions scale with it, a clock of the test's own. Four n8n processes starting beside
 * the suite's other files measure the load they will run under better than any constant.
 */
let clusterLoad = 1;
/** At most this: the tests' own timeouts allow for it, so that a named bound always fails first. */
const MAX_CLUSTER_LOAD = 3;
const queuedExecutionsMs = (quietMs: number) => generous(quietMs) * clusterLoad;
/** The longest test: every process stopped and started again, then the catch-up on a worker. */
const TEST_TIMEOUT =
	STOP_ALL_MS +
	generous(START_ALL_QUIET_MS + ACTIVATION_QUIET_MS + 2 * QUEUED_EXECUTION_QUIET_MS) *
		MAX_CLUSTER_LOAD;
/** Real seconds between a customs hold's steps (the sandbox clock runs at real speed). */
const HOLD_GAP_SECONDS = 1;
/**
 * The service's retry schedule while n8n is down: 12 retries from 0.0005 s, doubling, about 2 s
 * (sandbox/webhooks/delivery.ts MAX_RETRIES), after which it gives the notification up.
 */
const RETRY_BASE_SECONDS = 0.0005;
const RETRIES_MS = RETRY_BASE_SECONDS * 1000 * (2 ** 12 - 1);
/** A killed process is started again this long after it exited (issue 36's acceptance). */
const RESTART_AFTER_MS = 5_000;
/** The trigger's Check Webhook Every, in the workflow the tests import. */
const WATCH_MINUTES = 0.25;
/**
 * A run cut on a worker runs again once its lease lapsed (two 30 s periods unrenewed) and the
 * main's cut check, reading the log every minute, hands its notification over, at the latest
 * 90 s after the watch first saw it (trigger/recovery/cutCheck.ts, trigger/memory/runJournal.ts).
 */
const CUT_RUN_AGAIN_MS = 60_000 + 90_000 + 60_000 + WATCH_MINUTES * 60_000;
/** The service's first retry for the kill case (seconds, doubling): sooner than its default 5. */
const KILL_RETRY_BASE_SECONDS = 1;

describe('e2e: the trigger in queue mode (main, webhook process, two workers)', () => {
	let cluster: QueueCluster;
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	let mail: MailServer;
	let cookie: string;
	let webhookUrl: string;

	const sandboxWebhooks = () => sandboxWebhooksOf(handle);
	const n8nWebhooks = async () =>
		(await sandboxWebhooks()).filter((webhook) => webhook.attributes.url === webhookUrl);
	/** Subjects without whose box it is (customer, bill of lading, references). */
	const alerts = () => mail.messages.map((message) => message.subject.replace(/ \(.*\)$/, ''));
	/** A customs hold's two alerts: when it is activated and when it is released. */
	const customsHoldAlerts = (number: string) => [
		`Customs hold placed on ${number}`,
		`Customs hold released on ${number}`,
	];
	/** Executions each worker started (or finished), from its log (n8n logs a line of each per job). */
	const workerExecutions = (what: 'started' | 'finished' = 'started') =>
		cluster.names
			.filter((name) => name.startsWith('worker'))
			.map(
				(name) =>
					(cluster.log(name).match(new RegExp(`Worker ${what} execution`, 'g')) ?? []).length,
			);
	/** The service's log of the notifications for one webhook. */
	const notificationsOf = (webhookId: string) =>
		handle.sandbox.world.store
			.list('webhook_notification')
			.filter(
				(record) =>
					(record.relationships?.webhook?.data as { id: string } | undefined)?.id === webhookId,
			);
	const total = (counts: number[]) => counts.reduce((sum, count) => sum + count, 0);
	const post = (body: string, headers: Record<string, string>) =>
		fetch(webhookUrl, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...headers },
			body,
		});

	/**
	 * A failed wait, with what a CI log needs to tell a slow cluster from a lost notification:
	 * the service's attempts at n8n's URL and the end of each process's log.
	 */
	const explained = async <T>(waiting: Promise<T>): Promise<T> =>
		await waiting.catch(async (error: Error) => {
			const deliveries = (
				await handle.control.get('/deliveries', { params: { event: 'container.updated' } })
			).data.deliveries as Array<Record<string, unknown>>;
			const logs = cluster.names.map(
				(name) => `--- ${name}\n${cluster.log(name).split('\n').slice(-40).join('\n')}`,
			);
			throw new Error(
				`${error.message}\nworkers started ${workerExecutions('started')}, finished ${workerExecutions('finished')}` +
					`\ndeliveries: ${JSON.stringify(deliveries.filter((delivery) => delivery.url === webhookUrl))}` +
					`\n${logs.join('\n')}`,
			);
		});

	beforeAll(async () => {
		mail = await startMailServer({ holdable: true });
		receiver = await startWebhookReceiver();
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		cluster = await prepareQueueCluster({ owner: OWNER });
		webhookUrl = `${cluster.webhookBaseUrl}/webhook/${HOLD_ALERTS.webhookId}/webhook`;
		const fixtures = mkdtempSync(path.join(tmpdir(), 'ct-queue-fixtures-'));
		const credentials = path.join(fixtures, 'credentials.json');
		writeFileSync(
			credentials,
			JSON.stringify([
				{
					...CREDENTIAL,
					type: 'containerTrackingApi',
					data: {
						apiKey: API_KEY,
						baseUrl: handle.sandbox.url,
						signatureHeader: handle.sandbox.options.signatureHeader,
					},
				},
				await smtpCredential(mail),
			]),
		);
		const workflow = path.join(fixtures, 'hold-alerts.json');
		// As shipped, but for its watch's interval: the cut check of a worker killed reads the log
		// every minute once the watch has seen a delivery, and the first of those waits for the
		// watch (trigger/recovery/cutCheck.ts); every 15 s, the test does not wait five minutes for
		// it.
		const holdAlerts = JSON.parse(
			readFileSync(path.join(EXAMPLES, 'hold-alerts.json'), 'utf8'),
		) as {
			nodes: Array<{ type: string; parameters: { options?: Record<string, unknown> } }>;
		};
		for (const node of holdAlerts.nodes)
			if (node.type.endsWith('containerTrackingTrigger'))
				node.parameters.options = { ...node.parameters.options, watchMinutes: WATCH_MINUTES };
		writeFileSync(workflow, JSON.stringify(holdAlerts));
		for (const args of [
			['import:credentials', `--input=${credentials}`],
			['import:workflow', `--input=${workflow}`],
			(await n8nLib()).activateWorkflowArgs(HOLD_ALERTS.id),
		]) {
			const result = await cluster.cli(args);
			if (result.code !== 0)
				throw new Error(`n8n ${args[0]} failed:\n${(result.stderr + result.stdout).slice(-3000)}`);
		}
		rmSync(fixtures, { recursive: true, force: true });
		const starting = Date.now();
		await cluster.start();
		clusterLoad = Math.min(
			MAX_CLUSTER_LOAD,
			Math.max(1, (Date.now() - starting) / START_ALL_QUIET_MS),
		);
		process.stdout.write(
			`queue cluster started in ${((Date.now() - starting) / 1000).toFixed(1)} s: its executions' bounds x${clusterLoad.toFixed(2)}\n`,
		);
		cookie = await (await n8nLib()).login(cluster.mainUrl, OWNER.email, OWNER.password);
		await eventually(async () => ((await n8nWebhooks()).length > 0 ? true : undefined), {
			timeoutMs: generous(ACTIVATION_QUIET_MS),
			intervalMs: 200,
			what: 'the main to register its webhook with the sandbox',
		});
	}, SETUP_TIMEOUT);

	afterAll(
		async () => {
			await cluster?.stop();
			await handle?.stop();
			await receiver?.close();
			await mail?.stop();
			// Then Redis and Postgres, and the folders: a few seconds.
		},
		STOP_ALL_MS + generous(5_000),
	);

	it('activation by the main registers exactly one webhook, for the webhook process URL', async () => {
		// And no second one: n8n's activation would have created it right after the first.
		await sleep(generous(200));
		const webhooks = await sandboxWebhooks();
		expect(webhooks).toHaveLength(1);
		expect(webhooks[0].attributes).toMatchObject({
			url: webhookUrl,
			events: ['container.updated'],
			active: true,
		});
	});

	it(
		"a customs hold's deliveries reach the workers as items: two alerts, the activation's and the release's",
		async () => {
			const { containerIds } = await trackContainer(handle, CONTAINER_NUMBER, 'MSCU');
			// A subscription of our own captures the same notifications, to repeat them later.
			const subscribed = await handle.api.post('/webhooks', {
				data: {
					type: 'webhook',
					attributes: { url: receiver.url, events: ['container.updated'], active: true },
				},
			});
			receiver.secrets.set(subscribed.data.data.id, subscribed.data.data.attributes.secret);

			const played = await handle.control.post(
				`/containers/${containerIds[0]}/scenarios/customs_hold`,
				{ gap_seconds: HOLD_GAP_SECONDS },
			);
			expect(played.status).toBe(202);
			// Its three deliveries start up to three executions: those that reach the webhook
			// process while the one before is being created share one
			// (trigger/batching/deliveryBatches.ts), as they did in a CI run whose first delivery
			// took 2.5 s to answer.
			await explained(
				eventually(
					() =>
						alerts().length >= 2 &&
						total(workerExecutions('finished')) === total(workerExecutions('started'))
							? true
							: undefined,
					{
						// The last step plays two gaps after the first.
						timeoutMs:
							byClock(2 * HOLD_GAP_SECONDS * 1000) + queuedExecutionsMs(QUEUED_EXECUTION_QUIET_MS),
						intervalMs: 250,
						what: 'the two alert emails, sent from executions on the workers that ended',
					},
				),
			);
			// Nothing more may follow: a repeat's execution would have been queued with the others.
			await sleep(generous(400));
			expect(total(workerExecutions())).toBeGreaterThanOrEqual(1);
			expect(total(workerExecutions())).toBeLessThanOrEqual(3);
			// Each worker recorded what it ran (two making the trigger's first record at once is
			// not a failure: the one whose insert lost makes it again).
			for (const name of cluster.names)
				expect([name, cluster.log(name).includes('could not record the notification ids')]).toEqual(
					[name, false],
				);
			// Two workers run the executions side by side: the emails may arrive in either order.
			expect([...alerts()].sort()).toEqual(customsHoldAlerts(CONTAINER_NUMBER).sort());
			// The sandbox was answered 200 by the webhook process for each of the three.
			const deliveries = (
				await handle.control.get('/deliveries', { params: { event: 'container.updated' } })
			).data.deliveries as Array<{ url: string; status: number | null }>;
			expect(
				deliveries.filter((delivery) => delivery.url === webhookUrl).map((d) => d.status),
			).toEqual([200, 200, 200]);
			// Sent when n8n's were.
			await eventually(() => (receiver.deliveries.length >= 3 ? true : undefined), {
				timeoutMs: generous(1_000),
				what: 'our copies of the three notifications',
			});
		},
		TEST_TIMEOUT,
	);

	/** The three notifications as the sandbox sent them to n8n: our copies, re-addressed and signed. */
	const repeatsOfTheJourney = async () => {
		const [webhook] = await n8nWebhooks();
		return receiver.deliveries.slice(0, 3).map((copy) => readdressed(handle, copy, webhook));
	};

	it(
		'after every n8n process restarts, the same three deliveries start nothing that alerts',
		async () => {
			const repeats = await repeatsOfTheJourney();
			// Before the restart: the webhook process itself knows them.
			const early = await post(repeats[1].body, {
				'X-SVC-Webhook-Signature': repeats[1].signature,
			});
			expect(early.status).toBe(200);
			expect(await early.text()).toContain('Already received');

			const executionsBefore = total(workerExecutions());
			const alertsBefore = alerts();
			await cluster.restart();
			for (const { body, signature } of repeats) {
				const answer = await eventually(
					async () => {
						const response = await post(body, { 'X-SVC-Webhook-Signature': signature });
						// Until the webhook process has loaded the workflow again, the path answers 404.
						return response.status === 404 ? undefined : response;
					},
					{
						timeoutMs: generous(ACTIVATION_QUIET_MS),
						intervalMs: 500,
						what: 'the webhook process to listen again',
					},
				);
				expect(answer.status).toBe(200);
			}
			// The webhook process forgot them in the restart: the repeats reach the workers, whose
			// executions stop at the trigger (n8n's deduplication store, in Postgres, knows them).
			// Once those have ended, an email one of them sent would be at the mail server.
			await eventually(
				() => (total(workerExecutions('finished')) >= executionsBefore + 3 ? true : undefined),
				{
					timeoutMs: queuedExecutionsMs(QUEUED_EXECUTION_QUIET_MS),
					intervalMs: 250,
					what: 'the repeats to run on the workers',
				},
			);
			// The mail server reads a message a moment after it was sent.
			await sleep(generous(100));
			if (alerts().length !== alertsBefore.length) {
				// What a CI log needs to tell which execution sent it again, and why.
				// Each execution, and whether its stored run data carried rerun items or sent mail.
				const executions = await cluster.postgres.sql(
					`SELECT e.id, e.mode, e.status, e."startedAt", position('"rerun":true' in d.data) > 0 AS rerun, position('messageId' in d.data) > 0 AS mailed FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${HOLD_ALERTS.id}' ORDER BY e.id`,
				);
				const said = cluster.names.map(
					(name) =>
						`--- ${name}\n${cluster
							.log(name)
							.split('\n')
							.filter((line) => /Container tracking|execution/i.test(line))
							.slice(-30)
							.join('\n')}`,
				);
				process.stdout.write(
					`alerts sent again: executions (id, mode, status, started, rerun, mailed)\n${executions}\n${said.join('\n')}\n`,
				);
			}
			expect(alerts()).toEqual(alertsBefore);
			expect([...alerts()].sort()).toEqual(customsHoldAlerts(CONTAINER_NUMBER).sort());
			// Restarting registered nothing new.
			expect(await n8nWebhooks()).toHaveLength(1);
		},
		TEST_TIMEOUT,
	);

	it(
		"the webhook process killed (SIGKILL) just after a hold's first delivery was answered, started again 5 s later: each alert is emailed once",
		async () => {
			const set = await handle.control.patch('/webhook_settings', {
				retry_base_seconds: KILL_RETRY_BASE_SECONDS,
			});
			expect(set.status).toBe(200);
			const [webhook] = await n8nWebhooks();
			const notifications = () => notificationsOf(webhook.id);
			const earlier = new Set(notifications().map((record) => record.id));
			const mine = () => notifications().filter((record) => !earlier.has(record.id));
			const attemptsOf = (id: string) =>
				handle.sandbox.dispatcher.log.filter((attempt) => attempt.notification_id === id);
			const number = withCheckDigit('MSKU731003');
			const { containerIds } = await trackContainer(handle, number, 'MAEU');
			const played = await handle.control.post(
				`/containers/${containerIds[0]}/scenarios/customs_hold`,
				{ gap_seconds: HOLD_GAP_SECONDS },
			);
			expect(played.status).toBe(202);
			// The chosen point: the hold's first notification answered 200 by the webhook process
			// (its execution queued), the next one a second away.
			await eventually(
				() =>
					mine().some((record) => attemptsOf(record.id).some((attempt) => attempt.status === 200))
						? true
						: undefined,
				{
					timeoutMs: queuedExecutionsMs(QUEUED_EXECUTION_QUIET_MS),
					intervalMs: 20,
					what: "the hold's first delivery answered",
				},
			);
			await cluster.kill('webhook', 'SIGKILL');
			await sleep(RESTART_AFTER_MS);
			await cluster.start();

			const linesFor = (number: string) =>
				alerts().filter((subject) => subject.endsWith(` on ${number}`));
			await eventually(
				() =>
					linesFor(number).length >= 2 &&
					mine().length === 3 &&
					mine().every((record) => record.attributes.delivery_status === 'succeeded')
						? true
						: undefined,
				{
					// The webhook process starts and loads the workflow; the service's retries, doubling,
					// land up to as long again after it listens; then the executions on the workers.
					timeoutMs:
						byClock(RESTART_AFTER_MS) +
						2 * queuedExecutionsMs(N8N_START_QUIET_MS + ACTIVATION_QUIET_MS) +
						queuedExecutionsMs(2 * QUEUED_EXECUTION_QUIET_MS),
					intervalMs: 250,
					what: "the hold's alerts sent and its three notifications answered",
				},
			);
			// A second alert would have been queued with the first.
			await sleep(generous(1_000));
			expect(linesFor(number).sort()).toEqual(customsHoldAlerts(number).sort());
			// The deliveries the dead process could not answer failed and were sent again.
			expect(
				mine().some((record) => attemptsOf(record.id).some((attempt) => attempt.status !== 200)),
			).toBe(true);
		},
		TEST_TIMEOUT,
	);

	it(
		"a worker killed (SIGKILL) while it sends a hold's alert, started again 5 s later: each alert is emailed once, the cut one run again while the main goes on",
		async () => {
			const [webhook] = await n8nWebhooks();
			const earlier = new Set(notificationsOf(webhook.id).map((record) => record.id));
			const mine = () => notificationsOf(webhook.id).filter((record) => !earlier.has(record.id));
			const number = withCheckDigit('MSKU731005');
			const { containerIds } = await trackContainer(handle, number, 'MAEU');
			const workers = cluster.names.filter((name) => name.startsWith('worker'));
			const inFlight = (name: string) =>
				(cluster.log(name).match(/Worker started execution/g) ?? []).length -
				(cluster.log(name).match(/Worker finished execution/g) ?? []).length;
			mail.hold();
			const played = await handle.control.post(
				`/containers/${containerIds[0]}/scenarios/customs_hold`,
				{ gap_seconds: HOLD_GAP_SECONDS },
			);
			expect(played.status).toBe(202);
			// The chosen point: an execution of the hold on a worker waits for the mail server in its
			// Send Email node, its notification answered (so the service never sends it again).
			const victim = await explained(
				eventually(
					() => {
						// Only when every execution under way on a worker waits there (an execution sends
						// its emails one at a time): whichever busy worker is killed, its run is cut at that
						// point, not before its trigger recorded the notification.
						const underWay = workers.reduce((sum, name) => sum + inFlight(name), 0);
						const busy = workers.find((name) => inFlight(name) > 0);
						return mail.waiting() > 0 &&
							mail.waiting() >= underWay &&
							busy &&
							mine().some((record) => record.attributes.delivery_status === 'succeeded')
							? busy
							: undefined;
					},
					{
						timeoutMs:
							byClock(2 * HOLD_GAP_SECONDS * 1000) + queuedExecutionsMs(QUEUED_EXECUTION_QUIET_MS),
						intervalMs: 50,
						what: "an execution of the hold's alert waiting for the mail server on a worker",
					},
				),
			);
			const killedAt = Date.now();
			await cluster.kill(victim, 'SIGKILL');
			mail.release();
			await sleep(RESTART_AFTER_MS);
			await cluster.start();

			const linesFor = (number: string) =>
				alerts().filter((subject) => subject.endsWith(` on ${number}`));
			await explained(
				eventually(() => (linesFor(number).length >= 2 ? true : undefined), {
					timeoutMs: byClock(CUT_RUN_AGAIN_MS) + queuedExecutionsMs(2 * QUEUED_EXECUTION_QUIET_MS),
					intervalMs: 500,
					what: "both of the hold's alerts emailed",
				}),
			);
			process.stdout.write(
				`queue mode, worker killed: the hold's alerts sent ${Math.round((Date.now() - killedAt) / 1000)} s after the kill\n`,
			);
			// Once each: a second would come from another execution of the same check, or of the next
			// read's (a minute later), running it again. (Later hand-overs: test/unit/runJournal.test.ts.)
			await sleep(byClock(70_000));
			expect(linesFor(number).sort()).toEqual(customsHoldAlerts(number).sort());
			expect(mine()).toHaveLength(3);
			// Run again by the main's cut check, on a worker, with no other process restarted.
			expect(workers.some((name) => cluster.log(name).includes('whose run was cut'))).toBe(true);
		},
		TEST_TIMEOUT + byClock(CUT_RUN_AGAIN_MS + 70_000),
	);

	it(
		'every process down longer than the service retries: each missed alert is sent once, the webhook is on again',
		async () => {
			const [webhook] = await n8nWebhooks();
			const set = await handle.control.patch('/webhook_settings', {
				retry_base_seconds: RETRY_BASE_SECONDS,
				deactivate_after_failures: 2,
				log_while_inactive: true,
			});
			expect(set.status).toBe(200);
			await cluster.stopN8n();
			const missed = ['MSKU7310019', 'MSKU7310024'];
			for (const number of missed) {
				const { containerIds } = await trackContainer(handle, number, 'MAEU');
				const played = await handle.control.post(
					`/containers/${containerIds[0]}/scenarios/customs_hold`,
					{ gap_seconds: HOLD_GAP_SECONDS / 4 },
				);
				expect(played.status).toBe(202);
			}
			const logged = () => notificationsOf(webhook.id);
			await eventually(
				() =>
					handle.sandbox.world.store.get('webhook', webhook.id)?.attributes.active === false &&
					logged().filter((record) => record.attributes.delivery_status === 'failed').length >= 6
						? true
						: undefined,
				{
					// The holds' last steps, then the service's retries; the first two notifications
					// given up turn the webhook off, which gives up the others at once.
					timeoutMs: byClock((2 * HOLD_GAP_SECONDS * 1000) / 4 + RETRIES_MS) + generous(2_000),
					intervalMs: 200,
					what: 'six failed notifications, the webhook off',
				},
			);

			const started = Date.now();
			await cluster.start();
			const linesFor = (number: string) =>
				alerts().filter((subject) => subject.endsWith(` on ${number}`));
			await eventually(
				() => (missed.every((number) => linesFor(number).length >= 2) ? true : undefined),
				{
					// The main activates the workflow; its watch checks the webhook 2 s later
					// (trigger/recovery/watch.ts FIRST_CHECK_AFTER_MS), turns it on and catches up,
					// on the workers.
					timeoutMs:
						byClock(2_000) +
						queuedExecutionsMs(ACTIVATION_QUIET_MS + 2 * QUEUED_EXECUTION_QUIET_MS),
					intervalMs: 500,
					what: 'every missed alert sent',
				},
			);
			process.stdout.write(
				`queue mode outage: ${missed.length} missed holds alerted ${Math.round((Date.now() - started) / 1000)} s after the processes started\n`,
			);
			// Nothing is sent twice: a second alert would have been queued with the first.
			await sleep(generous(1_000));
			for (const number of missed)
				expect(linesFor(number).sort()).toEqual(customsHoldAlerts(number).sort());
			expect(handle.sandbox.world.store.get('webhook', webhook.id)?.attributes.active).toBe(true);
			expect(await n8nWebhooks()).toHaveLength(1);
		},
		TEST_TIMEOUT,
	);

	it(
		'unpublishing the workflow on the main deletes its webhook from the service',
		async () => {
			const answer = await rest(
				cluster.mainUrl,
				cookie,
				'POST',
				`/workflows/${HOLD_ALERTS.id}/deactivate`,
				{},
			);
			expect(answer.status).toBe(200);
			await eventually(async () => ((await n8nWebhooks()).length === 0 ? true : undefined), {
				timeoutMs: generous(ACTIVATION_QUIET_MS),
				what: "n8n's webhook to be deleted from the sandbox",
			});
			expect((await sandboxWebhooks()).map((webhook) => webhook.attributes.url)).toEqual([
				receiver.url,
			]);
			await eventually(async () => ((await post('{}', {})).status === 404 ? true : undefined), {
				timeoutMs: generous(ACTIVATION_QUIET_MS),
				what: 'the webhook process to stop listening',
			});
		},
		TEST_TIMEOUT,
	);
});

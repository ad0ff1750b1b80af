/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The hold-alert example in n8n's queue mode, as teams run n8n when one process is not enough:
// Postgres and Redis (installed by scripts/lib/services.mjs when missing), a main that activates
// the workflow, a webhook process that receives the deliveries and two workers that run them.
// Activation registers one webhook; a customs hold's deliveries run on the workers and send two
// alert emails (activated, released) to a local mail server; after every n8n process restarts,
// the same deliveries again send nothing; unpublishing deletes the webhook.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { API_KEY, eventually, startTestSandbox, trackContainer } from '../support/sandbox';
import type { SandboxHandle } from '../support/sandbox';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import {
	CREDENTIAL,
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
const TEST_TIMEOUT = 4 * 60_000;

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
	const alerts = () => mail.messages.map((message) => message.subject);
	/** A customs hold's two alerts: when it is activated and when it is released. */
	const customsHoldAlerts = (number: string) => [
		`Customs hold placed on ${number}`,
		`Customs hold released on ${number}`,
	];
	/** Executions each worker started, from its log (n8n logs one line per job). */
	const workerExecutions = () =>
		cluster.names
			.filter((name) => name.startsWith('worker'))
			.map((name) => (cluster.log(name).match(/Worker started execution/g) ?? []).length);
	const total = (counts: number[]) => counts.reduce((sum, count) => sum + count, 0);
	const post = (body: string, headers: Record<string, string>) =>
		fetch(webhookUrl, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...headers },
			body,
		});

	beforeAll(async () => {
		mail = await startMailServer();
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
		writeFileSync(workflow, readFileSync(path.join(EXAMPLES, 'hold-alerts.json'), 'utf8'));
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
		await cluster.start();
		cookie = await (await n8nLib()).login(cluster.mainUrl, OWNER.email, OWNER.password);
		await eventually(async () => ((await n8nWebhooks()).length > 0 ? true : undefined), {
			timeoutMs: 60_000,
			intervalMs: 200,
			what: 'the main to register its webhook with the sandbox',
		});
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await cluster?.stop();
		await handle?.stop();
		await receiver?.close();
		await mail?.stop();
	}, 120_000);

	it('activation by the main registers exactly one webhook, for the webhook process URL', async () => {
		await sleep(1000); // and no second one
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
				{ gap_seconds: 2 },
			);
			expect(played.status).toBe(202);
			await eventually(() => (total(workerExecutions()) >= 3 ? true : undefined), {
				timeoutMs: 60_000,
				intervalMs: 250,
				what: 'three executions on the workers',
			});
			await eventually(() => (alerts().length >= 2 ? true : undefined), {
				timeoutMs: 30_000,
				what: 'the two alert emails',
			});
			await sleep(2000); // nothing more may follow
			expect(total(workerExecutions())).toBe(3);
			expect(alerts()).toEqual(customsHoldAlerts(CONTAINER_NUMBER));
			// The sandbox was answered 200 by the webhook process for each of the three.
			const deliveries = (
				await handle.control.get('/deliveries', { params: { event: 'container.updated' } })
			).data.deliveries as Array<{ url: string; status: number | null }>;
			expect(
				deliveries.filter((delivery) => delivery.url === webhookUrl).map((d) => d.status),
			).toEqual([200, 200, 200]);
			await eventually(() => (receiver.deliveries.length >= 3 ? true : undefined), {
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
			await cluster.restart();
			for (const { body, signature } of repeats) {
				const answer = await eventually(
					async () => {
						const response = await post(body, { 'X-SVC-Webhook-Signature': signature });
						// Until the webhook process has loaded the workflow again, the path answers 404.
						return response.status === 404 ? undefined : response;
					},
					{ timeoutMs: 60_000, intervalMs: 500, what: 'the webhook process to listen again' },
				);
				expect(answer.status).toBe(200);
			}
			// The webhook process forgot them in the restart: the repeats reach the workers, whose
			// executions stop at the trigger (n8n's deduplication store, in Postgres, knows them).
			await eventually(
				() => (total(workerExecutions()) >= executionsBefore + 3 ? true : undefined),
				{ timeoutMs: 60_000, intervalMs: 250, what: 'the repeats to reach the workers' },
			);
			await sleep(3000);
			expect(alerts()).toEqual(customsHoldAlerts(CONTAINER_NUMBER));
			// Restarting registered nothing new.
			expect(await n8nWebhooks()).toHaveLength(1);
		},
		TEST_TIMEOUT,
	);

	it(
		'every process down longer than the service retries: each missed alert is sent once, the webhook is on again',
		async () => {
			const [webhook] = await n8nWebhooks();
			const set = await handle.control.patch('/webhook_settings', {
				retry_base_seconds: 0.002, // 12 retries in about 8 s
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
					{ gap_seconds: 1 },
				);
				expect(played.status).toBe(202);
			}
			const logged = () =>
				handle.sandbox.world.store
					.list('webhook_notification')
					.filter(
						(record) =>
							(record.relationships?.webhook?.data as { id: string } | undefined)?.id ===
							webhook.id,
					);
			await eventually(
				() =>
					handle.sandbox.world.store.get('webhook', webhook.id)?.attributes.active === false &&
					logged().filter((record) => record.attributes.delivery_status === 'failed').length >= 6
						? true
						: undefined,
				{ timeoutMs: 60_000, intervalMs: 200, what: 'six failed notifications, the webhook off' },
			);

			const started = Date.now();
			await cluster.start();
			const linesFor = (number: string) =>
				alerts().filter((subject) => subject.endsWith(` on ${number}`));
			await eventually(
				() => (missed.every((number) => linesFor(number).length >= 2) ? true : undefined),
				{ timeoutMs: 120_000, intervalMs: 500, what: 'every missed alert sent' },
			);
			process.stdout.write(
				`queue mode outage: ${missed.length} missed holds alerted ${Math.round((Date.now() - started) / 1000)} s after the processes started\n`,
			);
			await sleep(5000);
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
				timeoutMs: 15_000,
				what: "n8n's webhook to be deleted from the sandbox",
			});
			expect((await sandboxWebhooks()).map((webhook) => webhook.attributes.url)).toEqual([
				receiver.url,
			]);
			await eventually(async () => ((await post('{}', {})).status === 404 ? true : undefined), {
				timeoutMs: 15_000,
				what: 'the webhook process to stop listening',
			});
		},
		TEST_TIMEOUT,
	);
});

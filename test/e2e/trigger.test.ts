// The Container Tracking Trigger inside a real n8n (1.x and 2.x, scripts/lib/n8n.mjs): a published
// workflow registers its webhook with the sandbox when n8n starts, real signed deliveries start executions whose items
// an HTTP Request node POSTs to a collector, forged and repeated deliveries start nothing, and
// deactivating the workflow removes the webhook from the service.
import { randomUUID } from 'node:crypto';

import escapeRegExp from 'lodash/escapeRegExp';

import { signBody } from '../../sandbox/webhooks/delivery';
import { byClock, generous } from '../support/bounds';
import { API_KEY, eventually, trackContainer } from '../support/sandbox';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import {
	ACTIVATION_QUIET_MS,
	activateOverRest,
	CREDENTIAL,
	deactivateOverRest,
	EXECUTION_QUIET_MS,
	N8N_START_QUIET_MS,
	n8nLib,
	postToCollector,
	readdressed,
	sandboxWebhooks as sandboxWebhooksOf,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	startCollector,
	startE2e,
	TEARDOWN_TIMEOUT,
	TRIGGER_TYPE,
	workflow,
	webhookRegistered,
	type Collector,
	type E2eContext,
	storedExecutions,
} from './helpers';

const WORKFLOW_ID = 'e2eTrigger';
const WEBHOOK_ID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const CONTAINER_NUMBER = 'MSCU1000022';
/** Real seconds between the customs hold's three steps (the sandbox clock runs at real speed). */
const HOLD_GAP_SECONDS = 0.5;
/**
 * The longest test: n8n stopped (SIGKILL after 15 s) and started again, listening again, and one
 * execution.
 */
const TEST_TIMEOUT =
	byClock(15_000) + generous(N8N_START_QUIET_MS + ACTIVATION_QUIET_MS + EXECUTION_QUIET_MS);
/**
 * A quiet window after which an execution that should not have started would have shown: the
 * execution exists before n8n answers the delivery, and a trigger → HTTP Request run takes a few
 * hundred milliseconds.
 */
const NOTHING_MORE_MS = generous(300);

describe('e2e: Container Tracking Trigger in a real n8n', () => {
	let ctx: E2eContext;
	let collector: Collector;
	let receiver: WebhookReceiver;
	let n8n: { url: string; cookie: string; log(): string };
	let webhookUrl: string;

	const sandboxWebhooks = () => sandboxWebhooksOf(ctx.handle);
	const n8nWebhook = async () =>
		(await sandboxWebhooks()).find((webhook) => webhook.attributes.url === webhookUrl);
	/** Executions of the workflow n8n has stored, through its REST API. */
	const executions = async () => await storedExecutions(n8n, WORKFLOW_ID);
	const executionCount = async () => (await executions()).length;
	/** The stored executions once there are `count` and every one has ended. */
	const executionsEnded = async (count: number, what: string) => {
		// What was stored at the last look: on a timeout the assertion below shows it.
		let last: Array<{ status: string }> = [];
		const ended = await eventually(
			async () => {
				const found = await executions();
				last = found;
				return found.length === count &&
					found.every(({ status }) => !['new', 'running'].includes(status))
					? found
					: undefined;
			},
			{ timeoutMs: generous(EXECUTION_QUIET_MS), what },
		).catch(() => undefined);
		expect({ what, ended: ended !== undefined, stored: last.map(({ status }) => status) }).toEqual({
			what,
			ended: true,
			stored: last.map(({ status }) => status),
		});
		return ended ?? [];
	};
	const postToN8n = (body: string, headers: Record<string, string>) =>
		fetch(webhookUrl, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...headers },
			body,
		});

	beforeAll(async () => {
		collector = await startCollector();
		receiver = await startWebhookReceiver();
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 0 }, ownN8n: true });
		webhookUrl = `http://127.0.0.1:${ctx.port}/webhook/${WEBHOOK_ID}/webhook`;
		await ctx.importCredentials([sandboxCredential()]);
		await ctx.importWorkflow(
			workflow(WORKFLOW_ID, 'E2E trigger to collector', [
				{
					name: 'Container updated',
					type: TRIGGER_TYPE,
					typeVersion: 1.1,
					webhookId: WEBHOOK_ID,
					credentials: { containerTrackingApi: CREDENTIAL },
					parameters: {
						registration: 'automatic',
						events: ['container.updated'],
						options: { expandHoldsAndFees: true },
					},
				},
				postToCollector('Send to collector', collector, ['Container updated']),
			]),
		);
		await ctx.activate(WORKFLOW_ID);
		n8n = await ctx.start();
		await webhookRegistered(ctx.handle);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await collector?.close();
		await receiver?.close();
	}, TEARDOWN_TIMEOUT);

	it('registers exactly one webhook with the service, for its production URL and the chosen events', async () => {
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

	it('activates on loopback beside the sandbox on loopback with no reachability warning or error', () => {
		// The sandbox's Base URL (http://127.0.0.1:<port>/v2) and n8n's webhook URL are both on
		// loopback: the trigger's reachability check lets that through without a word.
		expect(webhookUrl.startsWith('http://127.0.0.1:')).toBe(true);
		expect(ctx.handle.sandbox.url.startsWith('http://127.0.0.1:')).toBe(true);
		expect(n8n.log()).not.toMatch(/cannot reach|N8N_WEBHOOK_URL/);
	});

	it("n8n serves the editor the trigger's notice: the service must reach the Production URL, set in N8N_WEBHOOK_URL", async () => {
		const answer = await rest(n8n.url, n8n.cookie, 'POST', '/node-types', {
			nodeInfos: [{ name: TRIGGER_TYPE, version: 1.1 }],
		});
		expect(answer.status).toBe(200);
		const properties = (answer.body.data ?? answer.body)[0].properties as Array<{
			type: string;
			displayName: string;
		}>;
		expect(properties[0].type).toBe('notice');
		expect(properties[0].displayName).toContain("this workflow's Production URL");
		expect(properties[0].displayName).toContain('N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x)');
		expect(properties[0].displayName).toContain('sandbox');
	});

	it(
		"activating (2.x: publishing) a trigger whose webhook URL is on loopback fails, before any call, when the credential's Base URL is public: the error and n8n's log name the URL and N8N_WEBHOOK_URL",
		async () => {
			// n8n listens on 127.0.0.1 (N8N_WEBHOOK_URL=http://127.0.0.1:<port>/). The Base URL is a
			// public address nothing here answers at: the refusal comes before any call, so it is
			// never reached (a call would fail with "Nothing is listening", not this).
			const publicBase = 'https://api.example.com/v2';
			const credential = await rest(n8n.url, n8n.cookie, 'POST', '/credentials', {
				name: 'Container Tracking, public Base URL',
				type: 'containerTrackingApi',
				data: {
					apiKey: API_KEY,
					baseUrl: publicBase,
					signatureHeader: 'X-SVC-Webhook-Signature',
				},
			});
			expect(credential.status).toBe(200);
			const unreachableWebhookId = randomUUID();
			const definition = workflow('e2eUnreachable', 'E2E trigger on loopback, public service', [
				{
					name: 'Container updated',
					type: TRIGGER_TYPE,
					typeVersion: 1.1,
					webhookId: unreachableWebhookId,
					credentials: {
						containerTrackingApi: { id: credential.body.data.id, name: credential.body.data.name },
					},
					parameters: { registration: 'automatic', events: ['container.updated'] },
				},
			]);
			// n8n gives the workflow its id (undefined is left out of the JSON).
			const created = await rest(n8n.url, n8n.cookie, 'POST', '/workflows', {
				...definition,
				id: undefined,
			});
			expect(created.status).toBe(200);
			const { id, versionId } = created.body.data;
			const webhooksBefore = await sandboxWebhooks();
			const logBefore = n8n.log().length;

			const activation = await activateOverRest(n8n.url, n8n.cookie, id, versionId);
			const unreachableUrl = `http://127.0.0.1:${ctx.port}/webhook/${unreachableWebhookId}/webhook`;
			expect(activation.error).toBe(
				`The service at api.example.com cannot reach this workflow's webhook URL ${unreachableUrl}: 127.0.0.1 is a loopback address (127.0.0.0/8); set n8n's N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x)`,
			);
			// n8n's log (default level shows warn): the trigger's warning, naming the URL.
			await eventually(
				() => (n8n.log().slice(logBefore).includes('cannot reach') ? true : undefined),
				// Logged when the activation failed, which has been answered.
				{ timeoutMs: generous(1_000), what: "the trigger's warning in n8n's log" },
			);
			const warning = n8n
				.log()
				.slice(logBefore)
				.split('\n')
				.find((line) => line.includes('Container tracking: The service at api.example.com'));
			expect(warning).toBeDefined();
			expect(warning).toContain(unreachableUrl);
			expect(warning).toContain('N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x)');
			// Nothing registered with the sandbox, which this n8n's other workflow still uses.
			expect(await sandboxWebhooks()).toEqual(webhooksBefore);
		},
		TEST_TIMEOUT,
	);

	let capturedIndex = 0;

	it(
		'starts one execution per delivery, one item per hold change, as the customs hold plays out',
		async () => {
			const { containerIds } = await trackContainer(ctx.handle, CONTAINER_NUMBER, 'MSCU');
			const containerId = containerIds[0];
			// A subscription of our own, to capture the same deliveries (replayed to n8n below).
			const subscribed = await ctx.handle.api.post('/webhooks', {
				data: {
					type: 'webhook',
					attributes: { url: receiver.url, events: ['container.updated'], active: true },
				},
			});
			expect(subscribed.status).toBe(201);
			receiver.secrets.set(subscribed.data.data.id, subscribed.data.data.attributes.secret);
			capturedIndex = receiver.deliveries.length;
			const before = collector.items.length;
			const executionsBefore = await executionCount();

			const played = await ctx.handle.control.post(
				`/containers/${containerId}/scenarios/customs_hold`,
				{ gap_seconds: HOLD_GAP_SECONDS },
			);
			expect(played.status).toBe(202);

			await eventually(() => (collector.items.length >= before + 3 ? true : undefined), {
				// The last step plays two gaps after the first (sandbox clock, at real speed).
				timeoutMs: byClock(2 * HOLD_GAP_SECONDS * 1000) + generous(EXECUTION_QUIET_MS),
				intervalMs: 200,
				what: 'three hold items at the collector',
			});
			await sleep(NOTHING_MORE_MS); // nothing more may follow
			const items = collector.items.slice(before);
			expect(items).toHaveLength(3);
			const container = ctx.handle.sandbox.world.store.get('container', containerId)!;
			const terminal = ctx.handle.sandbox.world.store.related(container, 'pod_terminal')[0];
			// n8n runs the three executions side by side, so the collector has their items in the
			// order they finished; the sandbox's log has the notifications in the order the hold
			// played.
			const logged = ctx.handle.sandbox.world.store
				.list('webhook_notification')
				.map((record) => record.id);
			expect(items.every((item) => logged.includes(item.notification_id))).toBe(true);
			const inPlayOrder = [...items].sort(
				(a, b) => logged.indexOf(a.notification_id) - logged.indexOf(b.notification_id),
			);
			expect(inPlayOrder.map((item) => item.change)).toEqual(['pending', 'activated', 'cleared']);
			for (const item of items) {
				expect(item).toMatchObject({
					event: 'container.updated',
					container_id: containerId,
					container_number: CONTAINER_NUMBER,
					terminal_id: terminal.id,
					terminal_name: terminal.attributes.name,
					field: 'holds_at_pod_terminal',
					hold: expect.objectContaining({ name: 'customs' }),
					notification_id: expect.any(String),
				});
			}
			// Three deliveries, three notifications, three executions.
			expect(new Set(items.map((item) => item.notification_id)).size).toBe(3);
			// Each is stored as it starts, and ended once n8n has saved its outcome too.
			const stored = await executionsEnded(executionsBefore + 3, 'three ended executions');
			expect(stored.map(({ mode, status }) => ({ mode, status }))).toEqual(
				Array(3).fill({ mode: 'webhook', status: 'success' }),
			);
			const deliveries = (
				await ctx.handle.control.get('/deliveries', { params: { event: 'container.updated' } })
			).data.deliveries as Array<{ url: string; status: number | null }>;
			const toN8n = deliveries.filter((delivery) => delivery.url === webhookUrl);
			expect(toN8n.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
			// Our own subscription saw the same three notifications, signed with its own secret.
			// Sent when n8n's were.
			await eventually(() => (receiver.deliveries.length >= capturedIndex + 3 ? true : undefined), {
				timeoutMs: generous(1_000),
				what: 'our copies',
			});
			expect(
				receiver.deliveries
					.slice(capturedIndex)
					.every((delivery) => delivery.signatureValid === true),
			).toBe(true);
		},
		TEST_TIMEOUT,
	);

	/** A delivery the sandbox made to n8n: the copy our receiver got, addressed to n8n's webhook. */
	const deliveryMadeToN8n = async () => {
		const webhook = (await n8nWebhook())!;
		const copy = receiver.deliveries[capturedIndex];
		return readdressed(ctx.handle, copy, webhook);
	};

	it(
		'answers a delivery with a wrong or missing signature with 401 and starts nothing',
		async () => {
			const { body, signature } = await deliveryMadeToN8n();
			const before = collector.items.length;
			const executionsBefore = await executionCount();

			const forged = await postToN8n(body, {
				'X-SVC-Webhook-Signature': signBody(body, 'not-the-secret'),
			});
			expect(forged.status).toBe(401);
			expect(await forged.json()).toEqual({ message: 'Invalid or missing signature' });
			const unsigned = await postToN8n(body, {});
			expect(unsigned.status).toBe(401);
			// The right signature over a different body is a wrong signature too.
			const tampered = await postToN8n(body.replace(CONTAINER_NUMBER, 'MSCU9999999'), {
				'X-SVC-Webhook-Signature': signature,
			});
			expect(tampered.status).toBe(401);

			await sleep(NOTHING_MORE_MS);
			expect(collector.items.length).toBe(before);
			expect(await executionCount()).toBe(executionsBefore);
		},
		TEST_TIMEOUT,
	);

	it(
		'answers a repeated delivery of a notification already received with 200 and starts nothing',
		async () => {
			const { body, signature, notificationId } = await deliveryMadeToN8n();
			const before = collector.items.length;
			const executionsBefore = await executionCount();
			expect(collector.items.some((item) => item.notification_id === notificationId)).toBe(true);

			const repeated = await postToN8n(body, { 'X-SVC-Webhook-Signature': signature });
			expect(repeated.status).toBe(200);
			expect(await repeated.text()).toContain('Already received');

			await sleep(NOTHING_MORE_MS);
			expect(collector.items.length).toBe(before);
			expect(await executionCount()).toBe(executionsBefore);
		},
		TEST_TIMEOUT,
	);

	it(
		'verifies and runs a signed delivery whatever Content-Type it came with, BOM included',
		async () => {
			const webhook = (await n8nWebhook())!;
			const envelope = JSON.parse(receiver.deliveries[capturedIndex].rawBody.toString('utf8'));
			envelope.data.relationships.webhook.data.id = webhook.id;
			const sent: string[] = [];
			const major = (await n8nLib()).N8N_MAJOR;
			// n8n reads the body itself only for JSON, text, form and XML content types.
			for (const contentType of ['application/octet-stream', 'application/json; charset=utf-8']) {
				envelope.data.id = randomUUID();
				const body = `\uFEFF${JSON.stringify(envelope)}`;
				const answer = await fetch(webhookUrl, {
					method: 'POST',
					headers: {
						'Content-Type': contentType,
						'X-SVC-Webhook-Signature': signBody(body, webhook.attributes.secret),
					},
					body,
				});
				// n8n 1.x parses a JSON body itself and answers 422 to one that starts with a byte
				// order mark, before any node sees it (docs/compatibility.md).
				const refusedByN8n = major < 2 && contentType.startsWith('application/json');
				const expected = refusedByN8n ? 422 : 200;
				expect({ contentType, status: answer.status }).toEqual({ contentType, status: expected });
				if (!refusedByN8n) sent.push(envelope.data.id);
			}
			for (const id of sent)
				await eventually(
					() => (collector.items.some((item) => item.notification_id === id) ? true : undefined),
					{ timeoutMs: generous(EXECUTION_QUIET_MS), what: `the item of notification ${id}` },
				);
		},
		TEST_TIMEOUT,
	);

	it(
		'after n8n restarts, a repeated delivery sends nothing on: the execution stops at the trigger',
		async () => {
			const { body, signature, notificationId } = await deliveryMadeToN8n();
			await ctx.stopN8n();
			n8n = await ctx.start();
			const before = collector.items.length;
			const executionsBefore = await executionCount();
			expect(collector.items.some((item) => item.notification_id === notificationId)).toBe(true);
			const repeated = await eventually(
				async () => {
					const answer = await postToN8n(body, { 'X-SVC-Webhook-Signature': signature });
					// Until n8n has activated the workflow again, its webhook path answers 404.
					return answer.status === 404 ? undefined : answer;
				},
				{
					timeoutMs: generous(ACTIVATION_QUIET_MS),
					intervalMs: 500,
					what: 'n8n to listen again after its restart',
				},
			);
			expect(repeated.status).toBe(200);
			// The repeat starts an execution, which stops at the trigger: once it has ended, an
			// item it sent on would be at the collector (the HTTP Request node waits for its answer).
			await executionsEnded(executionsBefore + 1, "the repeat's execution to end");
			expect(collector.items.length).toBe(before);
		},
		TEST_TIMEOUT,
	);

	it("the credential's Test button tells a refused key and a wrong path in sentences, and fails nothing listening and not a URL", async () => {
		const sandboxUrl = ctx.handle.sandbox.url;
		const rest = async (pathname: string, body: unknown) => {
			const response = await fetch(`${n8n.url}${pathname}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Cookie: n8n.cookie, 'browser-id': 'e2e' },
				body: JSON.stringify(body),
			});
			return (await response.json()) as {
				data: { id?: string; status?: string; message?: string };
			};
		};
		const testCredential = async (data: Record<string, string>) => {
			const credential = { name: `Test ${Math.random()}`, type: 'containerTrackingApi', data };
			const created = await rest('/rest/credentials', credential);
			return (
				await rest('/rest/credentials/test', {
					credentials: { id: created.data.id, ...credential },
				})
			).data;
		};
		expect(await testCredential({ apiKey: API_KEY, baseUrl: sandboxUrl })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		// The credential's declarative test (credentials/ContainerTrackingApi.credentials.ts): its
		// rules word what the service answers; a connection that fails n8n reports by its code.
		// n8n 1.123 runs the test request so that a refusal reaches its tester without the
		// response, and words the status code or connection error itself (n8n-workflow's
		// NodeApiError) instead of the credential's rules; 1.94 and 2.x use the rules
		// (docs/compatibility.md).
		const { N8N_MAJOR } = await n8nLib();
		const worded = (ours: string, n8nWords: string) =>
			N8N_MAJOR < 2
				? expect.stringMatching(`^(${escapeRegExp(ours)}|${escapeRegExp(n8nWords)})$`)
				: ours;
		expect(await testCredential({ apiKey: 'not-the-key', baseUrl: sandboxUrl })).toEqual({
			status: 'Error',
			message: worded(
				"The API key was refused (HTTP 401): check that it is complete and current, as your account's API settings show it",
				'Authorization failed - please check your credentials',
			),
		});
		const root = sandboxUrl.replace(/\/v2$/, '');
		expect(await testCredential({ apiKey: API_KEY, baseUrl: root })).toEqual({
			status: 'Error',
			message: worded(
				'Something answers at this Base URL, but not as the service (HTTP 404): the Base URL must end in /v2',
				'The resource you are requesting could not be found',
			),
		});
		expect(await testCredential({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:9/v2' })).toEqual({
			status: 'Error',
			message: worded('ECONNREFUSED', 'The service refused the connection - perhaps it is offline'),
		});
		const notAUrl = await testCredential({ apiKey: API_KEY, baseUrl: 'not a url' });
		expect(notAUrl.status).toBe('Error');
		expect(notAUrl.message).toMatch(/URL/i);
	});

	it(
		'deactivating the workflow through the REST API deletes its webhook from the service',
		async () => {
			expect(await n8nWebhook()).toBeDefined();
			expect(await deactivateOverRest(n8n.url, n8n.cookie, WORKFLOW_ID)).toBe(200);
			await eventually(async () => ((await n8nWebhook()) === undefined ? true : undefined), {
				timeoutMs: generous(ACTIVATION_QUIET_MS),
				what: "n8n's webhook to be deleted from the sandbox",
			});
			// Only our own subscription is left, and n8n no longer listens on the URL.
			expect((await sandboxWebhooks()).map((webhook) => webhook.attributes.url)).toEqual([
				receiver.url,
			]);
			expect((await postToN8n('{}', {})).status).toBe(404);
		},
		TEST_TIMEOUT,
	);
});

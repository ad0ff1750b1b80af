/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The example workflows of examples/ in a real n8n with the packed package, as
// examples/README.md tells users to run them. Bulk tracking runs with `n8n execute`; the hold
// alerts by email are published with their SMTP credential pointing at a local mail server
// (scripts/lib/mail.mjs), and a customs hold played in the sandbox must arrive there as exactly
// two emails: one when the hold is activated, one when it is released. The Slack variant is
// imported beside it and left unpublished, as `npm start` does. (The pickup board has its own
// file, test/e2e/pickupBoard.test.ts.)
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DateTime } from 'luxon';

import { byClock, generous } from '../support/bounds';
import { eventually } from '../support/sandbox';
import {
	ACTIVATION_QUIET_MS,
	CLI_QUIET_MS,
	EXECUTION_QUIET_MS,
	itemsOf,
	N8N_START_QUIET_MS,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	startE2e,
	startMailServer,
	TEARDOWN_TIMEOUT,
	type E2eContext,
	type MailServer,
	storedExecutions,
} from './helpers';

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const HOLD_ALERTS = { id: 'ctHoldAlerts', webhookId: '7b0e6a52-3c1d-4e8f-9a47-1d2c3b4a5e61' };
const HOLD_ALERTS_SLACK = { id: 'ctHoldAlertsSlack' };
/**
 * The longest test, in an n8n of its own (n8n 1.x): publishing the workflow (the CLI) and
 * starting n8n, its webhook registered. In the shared n8n every test takes seconds.
 */
const TEST_TIMEOUT = generous(CLI_QUIET_MS + N8N_START_QUIET_MS + ACTIVATION_QUIET_MS);
/** Real seconds between a customs hold's three steps (the sandbox clock runs at real speed). */
const HOLD_GAP_SECONDS = 1;

describe('e2e: the example workflows in a real n8n', () => {
	let ctx: E2eContext;
	let mail: MailServer;
	let n8n: { url: string; cookie: string; log(): string };

	const example = (file: string) => JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8'));
	const sandboxWebhooks = async () =>
		(await ctx.handle.api.get('/webhooks')).data.data as Array<{
			attributes: { url: string; events: string[] };
		}>;
	const executions = async (workflowId: string) =>
		await storedExecutions(n8n, ctx.workflowId(workflowId));

	beforeAll(async () => {
		mail = await startMailServer();
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 1 } });
		await ctx.importCredentials([sandboxCredential()], mail);
		for (const file of ['bulk-tracking.json', 'hold-alerts.json', 'hold-alerts-slack.json']) {
			await ctx.importWorkflow(example(file));
		}
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
	}, TEARDOWN_TIMEOUT);

	it(
		'bulk tracking routes each number by the inferred decision and tracks the confident ones',
		async () => {
			const result = await ctx.execute('ctBulkTracking');
			if (result.code !== 0 || !result.run)
				throw new Error(`n8n execute failed:\n${(result.stderr + result.stdout).slice(-4000)}`);
			const { run } = result;
			expect(run.data.resultData.error).toBeUndefined();

			const inferred = itemsOf(run, 'Infer carrier and number type');
			expect(inferred.map((item) => [item.number_type, item.decision])).toEqual([
				['container', 'auto_select'],
				['bill_of_lading', 'auto_select'],
				['container', 'needs_confirmation'],
				['container', 'needs_confirmation'],
				['container', 'no_prediction'],
			]);
			expect(itemsOf(run, 'Create tracking request')).toEqual([
				expect.objectContaining({
					request_number: 'MAEU6123458',
					request_type: 'container',
					scac: 'MAEU',
					status: 'pending',
					already_tracked: false,
					ref_numbers: ['PO 4411'],
				}),
				expect.objectContaining({
					request_number: 'MEDUFR030802',
					request_type: 'bill_of_lading',
					scac: 'MSCU',
					status: 'pending',
					already_tracked: false,
					ref_numbers: ['PO-4412'],
				}),
			]);
			const toConfirm = itemsOf(run, 'Needs confirmation');
			expect(toConfirm.map((item) => [item.number, item.reference])).toEqual([
				['MSKU4807969', 'PO-4413'],
				['MEDU7165290', 'PO-4414'],
			]);
			expect(String(toConfirm[0].status)).toMatch(/^needs confirmation: .*\(\w{4}, \d+ %\)/);
			expect(itemsOf(run, 'No carrier prediction')).toEqual([
				expect.objectContaining({
					number: 'CAIU7432986',
					reference: 'PO-4415',
					status: expect.stringContaining('no prediction'),
				}),
			]);
			expect(itemsOf(run, 'Create TEST tracking request')).toEqual([
				expect.objectContaining({
					request_number: 'TEST-TR-SUCCEEDED',
					scac: 'TEST',
					status: 'pending',
				}),
			]);

			const { data } = await ctx.handle.api.get('/tracking_requests');
			expect(
				(data.data as Array<{ attributes: { request_number: string } }>)
					.map((request) => request.attributes.request_number)
					.sort(),
			).toEqual(['MAEU6123458', 'MEDUFR030802', 'TEST-TR-SUCCEEDED']);
		},
		TEST_TIMEOUT,
	);

	it(
		'published, the hold-alert workflow registers its webhook for container.updated; the Slack variant stays unpublished',
		async () => {
			await ctx.activate(HOLD_ALERTS.id);
			n8n = await ctx.start();
			await eventually(async () => ((await sandboxWebhooks()).length >= 1 ? true : undefined), {
				timeoutMs: generous(ACTIVATION_QUIET_MS),
				intervalMs: 200,
				what: 'the hold-alert trigger to register its webhook',
			});
			// And no second one: n8n's activation would have created it right after the first.
			await sleep(generous(200));
			const byUrl = Object.fromEntries(
				(await sandboxWebhooks()).map((webhook) => [
					webhook.attributes.url,
					webhook.attributes.events,
				]),
			);
			expect(byUrl).toEqual({ [ctx.webhookUrl(HOLD_ALERTS.webhookId)]: ['container.updated'] });
			const workflows = await rest(n8n.url, n8n.cookie, 'GET', '/workflows');
			expect(workflows.status).toBe(200);
			const byId = Object.fromEntries(
				(workflows.body.data as Array<{ id: string; active: boolean }>).map((workflow) => [
					workflow.id,
					workflow.active,
				]),
			);
			expect(byId).toMatchObject({
				[ctx.workflowId(HOLD_ALERTS.id)]: true,
				[ctx.workflowId(HOLD_ALERTS_SLACK.id)]: false,
			});
		},
		TEST_TIMEOUT,
	);

	it(
		'a customs hold sends exactly two emails: one when it is activated, one when it is released',
		async () => {
			// The tracking requests of the bulk run succeed on the sandbox clock.
			const containers = await eventually(
				async () => {
					const { data } = await ctx.handle.api.get('/tracking_requests');
					const requests = data.data as Array<{ attributes: { status: string } }>;
					if (requests.some((request) => request.attributes.status === 'pending')) return undefined;
					return (await ctx.handle.api.get('/containers', { params: { 'page[size]': 100 } })).data
						.data as Array<{ id: string; attributes: { number: string } }>;
				},
				{
					// Tracking requests succeed after 1 s on the sandbox clock (trackingDelaySeconds).
					timeoutMs: byClock(1_000) + generous(1_000),
					what: 'the tracking requests to succeed',
				},
			);
			const box = containers.find((container) => container.attributes.number === 'MAEU6123458')!;
			expect(box).toBeDefined();
			const store = ctx.handle.sandbox.world.store;
			const terminal = String(
				store.related(store.get('container', box.id)!, 'pod_terminal')[0].attributes.name,
			);

			// A last free day three days on at the terminal: the emails name it (Container → Get).
			// Changing no hold, it starts no execution.
			const podZone = String(store.get('container', box.id)!.attributes.pod_timezone);
			const lastFreeDay = DateTime.now().setZone(podZone).startOf('day').plus({ days: 3 });
			const changed = await ctx.handle.control.post(`/containers/${box.id}/changes`, {
				kind: 'set_last_free_day',
				source: 'line',
				date: lastFreeDay.toISODate(),
			});
			expect(changed.status).toBe(200);

			const played = await ctx.handle.control.post(`/containers/${box.id}/scenarios/customs_hold`, {
				gap_seconds: HOLD_GAP_SECONDS,
			});
			expect(played.status).toBe(202);

			// Three container.updated deliveries with a hold change (pending, hold, cleared): three
			// executions; only the activation and the release send an email.
			await eventually(
				async () => {
					const runs = await executions(HOLD_ALERTS.id);
					return runs.length >= 3 && runs.every((run) => run.stoppedAt) ? runs : undefined;
				},
				{
					// The last step plays two gaps after the first; each delivery's execution reads
					// the container and sends its email.
					timeoutMs: byClock(2 * HOLD_GAP_SECONDS * 1000) + generous(2 * EXECUTION_QUIET_MS),
					intervalMs: 250,
					what: 'three finished executions of the hold alerts',
				},
			).catch((error: Error) => {
				throw new Error(`${error.message}\nn8n's log:\n${n8n.log().slice(-6000)}`);
			});
			// Nothing more may follow: a fourth execution would have started with the three.
			await sleep(generous(400));
			expect((await executions(HOLD_ALERTS.id)).map((run) => run.status)).toEqual([
				'success',
				'success',
				'success',
			]);
			// n8n runs the executions side by side: the emails may arrive in either order. Each names
			// whose box it is: the shipment's customer (the sandbox names one on most), its bill of
			// lading and the reference the bulk run gave the tracking request.
			const shipment = store.related(store.get('container', box.id)!, 'shipment')[0];
			const customer = (shipment.attributes.customer_name as string | null) ?? null;
			const whose = `${customer ?? 'no customer'} · BL ${String(shipment.attributes.bill_of_lading_number)} · ref PO 4411`;
			const placed = `Customs hold placed on MAEU6123458 (${whose})`;
			const released = `Customs hold released on MAEU6123458 (${whose})`;
			expect(mail.messages.map((message) => message.subject).sort()).toEqual([placed, released]);
			const email = (subject: string) =>
				mail.messages.find((message) => message.subject === subject)!;
			process.stdout.write(
				`hold alerts: ${mail.messages.map((message) => JSON.stringify(message.subject)).join(', ')}\n`,
			);

			const escapeHtml = (value: string) =>
				value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
			const lastFreeDayLine = `Last free day: ${lastFreeDay.toISODate()} at ${terminal} (3 days left)`;
			for (const [message, hold] of [
				[email(placed), 'customs, active (was pending): Awaiting customs release'],
				[email(released), 'customs, cleared: Awaiting customs release'],
			] as const) {
				expect(message.from.map((address) => address.address)).toEqual([
					'container-alerts@example.com',
				]);
				expect(message.to.map((address) => address.address)).toEqual(['dispatch@example.com']);
				// Both formats, saying the same.
				const lines = String(message.text).split('\n');
				expect(lines).toEqual(
					expect.arrayContaining([
						`Customer: ${customer ?? 'none named at the service'}`,
						'References: PO 4411',
						// No routing table in this n8n: Default recipients, and the alert says so.
						'Routing: No routing table yet (alert-routing-table.json makes it): sent to the default recipients',
						'Container: MAEU6123458',
						`Terminal: ${terminal}`,
						`Hold: ${hold}`,
						'Who clears it: Licensed customs broker',
						lastFreeDayLine,
					]),
				);
				const html = String(message.html);
				for (const text of [
					'MAEU6123458',
					terminal,
					hold,
					'Licensed customs broker',
					lastFreeDayLine.slice('Last free day: '.length),
				])
					expect(html).toContain(escapeHtml(text));
			}
			// The pickup status as the delivery had it, and the time in the terminal's zone.
			for (const message of mail.messages) {
				expect(message.text).toMatch(
					/^Pickup status: (ready|on_hold|not_available|out_of_sync|unknown)\b/m,
				);
				expect(message.text).toContain(`(${podZone})`);
			}

			// The Slack variant is not published: it ran nothing.
			expect(await executions(HOLD_ALERTS_SLACK.id)).toEqual([]);
		},
		TEST_TIMEOUT,
	);
});

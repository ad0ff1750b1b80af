/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// n8n down longer than the service retries, in a real n8n with the packed package: the hold-alert
// example is published; n8n stops; customs holds play while every delivery fails until each
// notification is `failed` and the service has turned the webhook off; n8n starts again. Every
// missed hold alert is then emailed once (to a local mail server), the webhook is on again, and
// the next live delivery emails once. Played twice on one n8n: with the service logging
// notifications while the webhook is off, and without. (How soon after n8n's start the catch-up
// is done, which the issue wanted within two minutes, depends on the machine: a figure this file
// prints, for bench/, not a bound.)
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { eventually, trackContainer } from '../support/sandbox';
import {
	ACTIVATION_QUIET_MS,
	EXECUTION_QUIET_MS,
	N8N_START_QUIET_MS,
	notificationLogOf,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	startE2e,
	TEARDOWN_TIMEOUT,
	startMailServer,
	type E2eContext,
	type MailServer,
} from './helpers';

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const HOLD_ALERTS = { id: 'ctHoldAlerts', webhookId: '7b0e6a52-3c1d-4e8f-9a47-1d2c3b4a5e61' };
/**
 * The service's retries and the scenario's steps run on the sandbox's clock, 20 times as fast:
 * what is measured here is n8n's catch-up, in real seconds from its start.
 */
const TIME_SCALE = 20;
/** Sandbox seconds between a customs hold's three steps. */
const HOLD_GAP_SECONDS = 1;
/** A hold played out: its last step, two gaps after the first, in real milliseconds. */
const HOLD_PLAYED_MS = byClock((2 * HOLD_GAP_SECONDS * 1000) / TIME_SCALE);
/**
 * The service's retry schedule (sandbox seconds): 12 retries from 0.002 s, doubling, about 8 s
 * (sandbox/webhooks/delivery.ts MAX_RETRIES), after which it gives a notification up.
 */
const RETRY_BASE_SECONDS = 0.002;
const RETRIES_MS = byClock((RETRY_BASE_SECONDS * 1000 * (2 ** 12 - 1)) / TIME_SCALE);
/**
 * After n8n's start: the workflow activated, its watch's first check 2 s later
 * (trigger/recovery/watch.ts FIRST_CHECK_AFTER_MS) turns the webhook on and catches up, in one
 * execution whose emails are sent.
 */
const CATCH_UP_MS = byClock(2_000) + generous(ACTIVATION_QUIET_MS + 2 * EXECUTION_QUIET_MS);
/**
 * One case: n8n stopped (SIGKILL after 15 s) and started again, four boxes tracked and held, the
 * catch-up and a live alert, about a minute quietly.
 */
const TEST_TIMEOUT = byClock(15_000) + generous(N8N_START_QUIET_MS + 40_000);

describe('e2e: n8n down longer than the service retries', () => {
	let ctx: E2eContext;
	let mail: MailServer;
	let webhookUrl: string;
	let serial = 0;

	const alertLines = (): string[] => mail.messages.map((message) => message.subject);
	/** The activation's alert; the release sends one of its own. */
	const alertsFor = (number: string) =>
		alertLines().filter((subject) => subject.startsWith(`Customs hold placed on ${number} (`));
	const webhook = () =>
		ctx.handle.sandbox.world.store
			.list('webhook')
			.find((record) => record.attributes.url === webhookUrl);
	const logOf = (webhookId: string) => notificationLogOf(ctx.handle, webhookId);

	/** A box tracked in the sandbox, with a customs hold played on it (three container.updated). */
	async function customsHold(): Promise<string> {
		const number = withCheckDigit(`MSKU${730_000 + ++serial * 7}`);
		const { containerIds } = await trackContainer(ctx.handle, number, 'MAEU');
		const played = await ctx.handle.control.post(
			`/containers/${containerIds[0]}/scenarios/customs_hold`,
			{ gap_seconds: HOLD_GAP_SECONDS },
		);
		expect(played.status).toBe(202);
		return number;
	}

	beforeAll(async () => {
		mail = await startMailServer();
		ctx = await startE2e({
			sandbox: { trackingDelaySeconds: 0, timeScale: TIME_SCALE },
			ownN8n: true,
		});
		webhookUrl = `http://127.0.0.1:${ctx.port}/webhook/${HOLD_ALERTS.webhookId}/webhook`;
		await ctx.importCredentials([sandboxCredential()], mail);
		await ctx.importWorkflow(
			JSON.parse(readFileSync(path.join(EXAMPLES, 'hold-alerts.json'), 'utf8')),
		);
		await ctx.activate(HOLD_ALERTS.id);
		await ctx.start();
		await eventually(() => (webhook()?.attributes.active ? true : undefined), {
			timeoutMs: generous(ACTIVATION_QUIET_MS),
			intervalMs: 200,
			what: 'the hold-alert workflow to register its webhook',
		});
		const set = await ctx.handle.control.patch('/webhook_settings', {
			retry_base_seconds: RETRY_BASE_SECONDS,
			deactivate_after_failures: 2,
		});
		expect(set.status).toBe(200);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
	}, TEARDOWN_TIMEOUT);

	it.each([
		['logs notifications while the webhook is off', true],
		['does not log notifications while the webhook is off', false],
	])(
		'the service %s: every alert it logged runs once after n8n starts',
		async (_label, logWhileInactive) => {
			expect(
				(
					await ctx.handle.control.patch('/webhook_settings', {
						log_while_inactive: logWhileInactive,
					})
				).status,
			).toBe(200);
			const id = webhook()!.id;
			const before = new Set(logOf(id).map((record) => record.id));
			const newLog = () => logOf(id).filter((record) => !before.has(record.id));
			await ctx.stopN8n();

			const missed = [await customsHold(), await customsHold(), await customsHold()];
			await eventually(
				() => {
					const log = newLog();
					return webhook()?.attributes.active === false &&
						log.length >= 9 &&
						log.every((record) => record.attributes.delivery_status === 'failed')
						? true
						: undefined;
				},
				{
					// The last hold played, then the service's retries; the first two notifications
					// given up turn the webhook off, which gives up the others at once.
					timeoutMs: HOLD_PLAYED_MS + RETRIES_MS + generous(2_000),
					intervalMs: 200,
					what: 'every notification failed, the webhook off',
				},
			);
			// One more while the webhook is off: logged (and caught up) only when the service logs.
			const loggedBefore = logOf(id).length;
			const whileOff = await customsHold();
			// The service logs (or not) each notification as the step that makes it plays.
			const loggedWhileOff = () => logOf(id).length - loggedBefore;
			if (logWhileInactive)
				await eventually(() => (loggedWhileOff() >= 3 ? true : undefined), {
					timeoutMs: HOLD_PLAYED_MS + generous(500),
					what: 'the three notifications logged while the webhook is off',
				});
			// The hold played out, and nothing logged.
			else await sleep(HOLD_PLAYED_MS + generous(200));
			expect(loggedWhileOff() > 0).toBe(logWhileInactive);
			expect(alertLines().some((line) => missed.some((number) => line.includes(number)))).toBe(
				false,
			);

			const started = Date.now();
			const n8n = await ctx.start();
			const expected = logWhileInactive ? [...missed, whileOff] : missed;
			await eventually(
				() => (expected.every((number) => alertsFor(number).length >= 1) ? true : undefined),
				{ timeoutMs: CATCH_UP_MS, intervalMs: 500, what: 'every missed alert sent' },
			).catch((error: Error) => {
				throw new Error(`${error.message}\nn8n's log:\n${n8n.log().slice(-6000)}`);
			});
			const caughtUpAfter = Date.now() - started;
			process.stdout.write(
				`outage (log while off: ${logWhileInactive}): ${expected.length} missed alerts sent ${Math.round(caughtUpAfter / 1000)} s after n8n started\n`,
			);
			expect(webhook()?.attributes.active).toBe(true);
			expect(webhook()?.id).toBe(id);

			// The next live delivery emails once; nothing caught up is sent a second time.
			const live = await customsHold();
			await eventually(() => (alertsFor(live).length >= 1 ? true : undefined), {
				timeoutMs: HOLD_PLAYED_MS + generous(EXECUTION_QUIET_MS),
				intervalMs: 500,
				what: 'the live alert sent',
			});
			// Nothing is sent twice: a second alert would have started with the first.
			await sleep(generous(1_000));
			for (const number of [...expected, live]) expect(alertsFor(number)).toHaveLength(1);
			if (!logWhileInactive) expect(alertsFor(whileOff)).toHaveLength(0);
		},
		TEST_TIMEOUT,
	);
});

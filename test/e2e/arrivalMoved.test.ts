// Each customer told when their arrival moves (examples/README.md, "Arrival moved"): in a real
// n8n with the packed package, examples/arrival-moved.json published, its Data Table made by
// examples/arrival-notices-table.json and the routing table by examples/alert-routing-table.json,
// the sandbox moves a vessel's ETA (POST /_sandbox/shipments/{id}/eta, docs/sandbox.md). What is
// asserted is what the customer reads in the mail inbox: one email per recipient per move that
// matters, old and new ETA in the port's time zone, the days it moved; small moves coalesced
// until they add up to the threshold, and the threshold as Settings says.
import { DateTime } from 'luxon';

import { KNOWLEDGE_WAIT_MS } from '../../nodes/ContainerTracking/trigger/memory/notificationLedger';
import { findBillOfLading } from '../sandbox/helpers';
import { byClock, generous } from '../support/bounds';
import { importNative } from '../support/importNative';
import { eventually, trackContainer } from '../support/sandbox';
import {
	activateOverRest,
	ACTIVATION_QUIET_MS,
	EXECUTION_QUIET_MS,
	N8N_START_QUIET_MS,
	notificationLogOf,
	rest,
	sandboxWebhooks,
	SETUP_TIMEOUT,
	sleep,
	startMailServer,
	startWithExamples,
	storedExecutions,
	storedResult,
	TEARDOWN_TIMEOUT,
	type E2eContext,
	type MailServer,
	type ReceivedMail,
} from './helpers';

const ARRIVAL_MOVED = { id: 'ctArrivalMoved', webhookId: '3c9e5a71-6b2d-4f08-9e14-8a7c2d5b0f63' };
const TRIGGER = 'Arrival estimate changed';
interface TablesLib {
	ALERT_ROUTING_SETUP: { id: string };
	createAlertRoutingTable(
		baseUrl: string,
		cookie: string,
		options: { workflowId?: string; rows?: Array<Record<string, string>> },
	): Promise<Array<Record<string, unknown>>>;
}
interface NoticesLib {
	ARRIVAL_NOTICES_SETUP: { id: string };
	createArrivalNoticesTable(
		baseUrl: string,
		cookie: string,
		options: { workflowId?: string },
	): Promise<string>;
	arrivalNoticeRows(
		baseUrl: string,
		cookie: string,
		tablePath: string,
	): Promise<Array<Record<string, unknown>>>;
}

const CUSTOMER = 'Acme Imports';
const RECIPIENTS = ['buyer@acme.example', 'ops@acme.example'];
/** One email a moment after n8n sent it. */
const MAIL_READ_QUIET_MS = 500;
/** Starting n8n, publishing, then a dozen moves of a few executions each. */
const TEST_TIMEOUT = generous(N8N_START_QUIET_MS + ACTIVATION_QUIET_MS + 12 * EXECUTION_QUIET_MS);
const HOUR = 3_600_000;

describe('e2e: arrival moved → one email per recipient, small moves coalesced', () => {
	let ctx: E2eContext;
	let mail: MailServer;
	let n8n: { url: string; cookie: string; log(): string };
	let noticesPath: string;
	let notices: NoticesLib;
	let shipmentId: string;
	let billOfLading: string;
	let numbers: string[];
	let zone: string;
	/** The workflow's webhook at the sandbox, whose notification log names each move's notification. */
	let sandboxWebhookId: string;
	/** The notifications each finished execution's trigger put out, read once per execution. */
	const ran = new Map<string, string[]>();

	const notes = () => mail.messages.filter((message) => /^Arrival moved /.test(message.subject));
	const addresses = (message: ReceivedMail) => message.to.map((address) => address.address);
	const when = (iso: string) =>
		`${DateTime.fromISO(iso, { zone }).setLocale('en-GB').toFormat('ccc d LLL HH:mm')} (${zone})`;
	const line = (message: ReceivedMail, label: string) =>
		String(message.text)
			.split('\n')
			.find((entry) => entry.startsWith(`${label}: `))
			?.slice(label.length + 2);
	/**
	 * The ended execution whose trigger put out `notification`, as the executions list shows it;
	 * undefined while there is none.
	 */
	async function executionThatRan(
		notification: string,
	): Promise<{ id: string; status: string } | undefined> {
		const executions = await storedExecutions(n8n, ctx.workflowId(ARRIVAL_MOVED.id));
		for (const execution of executions.filter((entry) => entry.stoppedAt)) {
			if (!ran.has(execution.id)) {
				const { runData } = await storedResult(n8n, ctx.n8nDir, execution.id);
				const triggered = runData[TRIGGER]?.[0]?.data?.main?.[0] ?? [];
				ran.set(
					execution.id,
					triggered.map(({ json }) => String(json.notification_id)),
				);
			}
			if (ran.get(execution.id)!.includes(notification)) return execution;
		}
		return undefined;
	}

	/**
	 * Moves the vessel's ETA by `hours` and waits until the execution that ran the move has ended
	 * (of a move's deliveries, shipment.estimated.arrival alone reaches the workflow), with the
	 * status `outcome`; returns the new ETA. That execution is the one whose trigger put out the
	 * move's notification, whichever started it: its delivery, or one of the trigger's checks of
	 * the service's log (docs/trigger.md, "Repeated deliveries" and "When n8n dies
	 * mid-execution"), which hand what the log holds to an execution of their own that runs those
	 * no execution recorded and stops, empty, at the trigger for the others. Any execution of the
	 * workflow that ended was taken for the move's before (issue 59): on a busy machine the first
	 * check's read of the log came after the first move, and the table was read while the
	 * execution that ran the move was still writing its rows.
	 */
	async function move(hours: number, outcome: 'success' | 'error' = 'success'): Promise<string> {
		const logged = new Set(notificationLogOf(ctx.handle, sandboxWebhookId).map(({ id }) => id));
		const moved = await ctx.handle.control.post(`/shipments/${shipmentId}/eta`, { hours });
		expect(moved.status).toBe(200);
		const made = notificationLogOf(ctx.handle, sandboxWebhookId).filter(
			(record) =>
				!logged.has(record.id) && record.attributes.event === 'shipment.estimated.arrival',
		);
		expect(made).toHaveLength(1);
		const execution = await eventually(async () => await executionThatRan(made[0].id), {
			// Right after n8n's start a delivery waits for the trigger's first check, up to
			// KNOWLEDGE_WAIT_MS (docs/trigger.md, "Repeated deliveries").
			timeoutMs: byClock(KNOWLEDGE_WAIT_MS) + generous(2 * EXECUTION_QUIET_MS),
			intervalMs: 250,
			what: `the execution of a move of ${hours} h (notification ${made[0].id})`,
		}).catch(async (error: Error) => {
			const executions = await storedExecutions(n8n, ctx.workflowId(ARRIVAL_MOVED.id));
			throw new Error(
				`${error.message}; executions: ${JSON.stringify(executions)}\nn8n's log:\n${n8n.log().slice(-4000)}`,
			);
		});
		expect(execution.status).toBe(outcome);
		return moved.data.pod_eta_at[1] as string;
	}

	/** Waits for `count` more notes than `before`, then a moment more: nothing else follows. */
	async function newNotes(before: number, count: number): Promise<ReceivedMail[]> {
		await eventually(async () => (notes().length >= before + count ? true : undefined), {
			timeoutMs: generous(2 * EXECUTION_QUIET_MS),
			intervalMs: 250,
			what: `${count} arrival emails (have ${notes().length - before})`,
		});
		await sleep(generous(MAIL_READ_QUIET_MS));
		const fresh = notes().slice(before);
		expect(fresh).toHaveLength(count);
		return fresh;
	}

	beforeAll(async () => {
		mail = await startMailServer({ holdable: true });
		({ ctx, n8n } = await startWithExamples(
			mail,
			['alert-routing-table.json', 'arrival-notices-table.json', 'arrival-moved.json'],
			ARRIVAL_MOVED,
		));
		sandboxWebhookId = (await sandboxWebhooks(ctx.handle)).find(
			(webhook) => webhook.attributes.url === ctx.webhookUrl(ARRIVAL_MOVED.webhookId),
		)!.id;
		// The tables as examples/README.md says to make them: run the setup workflows, add a row.
		const routing = await importNative<TablesLib>('scripts/lib/alertRoutingTable.mjs');
		await routing.createAlertRoutingTable(n8n.url, n8n.cookie, {
			workflowId: ctx.workflowId(routing.ALERT_ROUTING_SETUP.id),
			rows: [{ customer: CUSTOMER, tag: '', email_to: RECIPIENTS.join(', '), slack_channel: '' }],
		});
		notices = await importNative<NoticesLib>('scripts/lib/arrivalNoticesTable.mjs');
		noticesPath = await notices.createArrivalNoticesTable(n8n.url, n8n.cookie, {
			workflowId: ctx.workflowId(notices.ARRIVAL_NOTICES_SETUP.id),
		});

		billOfLading = findBillOfLading((plans) => plans.length >= 2, 'AM');
		const tracked = await trackContainer(ctx.handle, billOfLading, 'MSCU', 'bill_of_lading');
		shipmentId = tracked.shipmentId;
		const store = ctx.handle.sandbox.world.store;
		numbers = tracked.containerIds.map((id) =>
			String(store.get('container', id)!.attributes.number),
		);
		const named = await ctx.handle.control.patch(`/shipments/${shipmentId}`, {
			customer_name: CUSTOMER,
		});
		expect(named.status).toBe(200);
		zone = String(store.get('shipment', shipmentId)!.attributes.pod_timezone);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
	}, TEARDOWN_TIMEOUT);

	it(
		'the first estimate is recorded without an email; a vessel 2 days late: one email to each recipient, old and new ETA in the port’s zone',
		async () => {
			const first = await move(1);
			const rows = await notices.arrivalNoticeRows(n8n.url, n8n.cookie, noticesPath);
			expect(rows.map((row) => [row.key, row.recipient, row.last_notified_eta]).sort()).toEqual(
				RECIPIENTS.map((recipient) => [`port_of_discharge:${billOfLading}`, recipient, first]),
			);
			await sleep(generous(MAIL_READ_QUIET_MS));
			expect(notes()).toEqual([]);

			const before = notes().length;
			const late = await move(48);
			const emails = await newNotes(before, RECIPIENTS.length);
			// One email each, to that recipient alone: the move of the shipment's two boxes is one change.
			expect(emails.map(addresses).sort()).toEqual(RECIPIENTS.map((recipient) => [recipient]));
			for (const email of emails) {
				expect(email.subject).toBe(
					`Arrival moved 2 days later: BL ${billOfLading} (${CUSTOMER}) now ${when(late)} at ${line(email, 'Arrival')!.replace(/, port of discharge$/, '')}`,
				);
				expect(line(email, 'Old ETA')).toBe(when(first));
				expect(line(email, 'New ETA')).toBe(when(late));
				expect(line(email, 'Moved')).toBe('2 days later (48 hours)');
				expect(line(email, 'Bill of lading')).toBe(billOfLading);
				expect(line(email, 'Customer')).toBe(CUSTOMER);
				expect(line(email, 'Containers')!.split(', ').sort()).toEqual([...numbers].sort());
				expect(line(email, 'Arrival')).toMatch(/^.+ \([A-Z]{5}\), port of discharge$/);
				// Before the vessel is in, no terminal names a last free day, and Settings counts none.
				expect(line(email, 'Last free day')).toBe('not known yet');
				expect(line(email, 'Routing')).toBeUndefined();
				expect(String(email.html)).toContain(
					`<th align="left" valign="top">New ETA</th><td>${when(late)}</td>`,
				);
			}
		},
		TEST_TIMEOUT,
	);

	it(
		'three moves of 6 h send nothing; a fourth makes a day since the last email, and one email each says so',
		async () => {
			const told = (await notices.arrivalNoticeRows(n8n.url, n8n.cookie, noticesPath))[0]
				.last_notified_eta as string;
			const before = notes().length;
			for (let step = 0; step < 3; step++) await move(6);
			await sleep(generous(MAIL_READ_QUIET_MS));
			expect(notes().slice(before)).toEqual([]);
			// Still the ETA last told: small moves are not recorded, they add up.
			for (const row of await notices.arrivalNoticeRows(n8n.url, n8n.cookie, noticesPath))
				expect(row.last_notified_eta).toBe(told);

			const now = await move(6);
			expect(Date.parse(now) - Date.parse(told)).toBe(24 * HOUR);
			const emails = await newNotes(before, RECIPIENTS.length);
			for (const email of emails) {
				expect(line(email, 'Old ETA')).toBe(when(told));
				expect(line(email, 'New ETA')).toBe(when(now));
				expect(line(email, 'Moved')).toBe('1 day later (24 hours)');
			}
		},
		TEST_TIMEOUT,
	);

	it(
		'Settings changed (threshold 0.25 days, 4 free days) and published again: a move of 7 h earlier is told, with the last free day it implies; one of 3 h is not',
		async () => {
			const workflowId = ctx.workflowId(ARRIVAL_MOVED.id);
			const saved = await rest(n8n.url, n8n.cookie, 'GET', `/workflows/${workflowId}`);
			expect(saved.status).toBe(200);
			const workflow = saved.body.data ?? saved.body;
			const settings = workflow.nodes.find((node: { name: string }) => node.name === 'Settings');
			for (const assignment of settings.parameters.assignments.assignments) {
				if (assignment.name === 'threshold_days') assignment.value = 0.25;
				if (assignment.name === 'free_days') assignment.value = '4';
			}
			const updated = await rest(n8n.url, n8n.cookie, 'PATCH', `/workflows/${workflowId}`, {
				nodes: workflow.nodes,
				connections: workflow.connections,
				versionId: workflow.versionId,
			});
			expect(updated.status).toBe(200);
			const versionId = (updated.body.data ?? updated.body).versionId;
			expect(await activateOverRest(n8n.url, n8n.cookie, workflowId, versionId)).toEqual({
				error: null,
			});
			// The new version serves the next delivery once n8n took it up.
			await sleep(byClock(1_000) + generous(ACTIVATION_QUIET_MS / 2));

			const told = (await notices.arrivalNoticeRows(n8n.url, n8n.cookie, noticesPath))[0]
				.last_notified_eta as string;
			const before = notes().length;
			const earlier = await move(-7);
			const emails = await newNotes(before, RECIPIENTS.length);
			const lastFreeDay = DateTime.fromISO(earlier, { zone })
				.startOf('day')
				.plus({ days: 4 })
				.setLocale('en-GB')
				.toFormat('ccc d LLL');
			for (const email of emails) {
				expect(email.subject).toMatch(/^Arrival moved 0\.3 days earlier: /);
				expect(line(email, 'Old ETA')).toBe(when(told));
				expect(line(email, 'New ETA')).toBe(when(earlier));
				expect(line(email, 'Moved')).toBe('0.3 days earlier (7 hours)');
				expect(line(email, 'Last free day')).toBe(
					`${lastFreeDay} (the new ETA's date + 4 free days)`,
				);
			}
			await move(3);
			await sleep(generous(MAIL_READ_QUIET_MS));
			expect(notes()).toHaveLength(before + RECIPIENTS.length);
		},
		TEST_TIMEOUT,
	);

	it(
		'a move whose email cannot be sent is not lost: the mail server down, the run fails and records nothing; the next move tells the whole of both',
		async () => {
			const told = (await notices.arrivalNoticeRows(n8n.url, n8n.cookie, noticesPath))[0]
				.last_notified_eta as string;
			const before = notes().length;
			mail.refuse();
			try {
				// 13 h from the ETA last told, over the threshold of 0.25 days: worth an email.
				await move(10, 'error');
			} finally {
				mail.release();
			}
			expect(notes()).toHaveLength(before);
			for (const row of await notices.arrivalNoticeRows(n8n.url, n8n.cookie, noticesPath))
				expect(row.last_notified_eta).toBe(told);

			const now = await move(1);
			const emails = await newNotes(before, RECIPIENTS.length);
			const hours = Math.round((Date.parse(now) - Date.parse(told)) / HOUR);
			expect(hours).toBe(14);
			for (const email of emails) {
				expect(line(email, 'Old ETA')).toBe(when(told));
				expect(line(email, 'New ETA')).toBe(when(now));
				expect(line(email, 'Moved')).toBe('0.6 days later (14 hours)');
			}
		},
		TEST_TIMEOUT,
	);
});

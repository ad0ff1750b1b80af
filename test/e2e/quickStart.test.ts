/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The README's quick start, as a user runs it, on the n8n of this run (`npm test`: 2.41.3;
// `npm run test:compat`: each n8n the README names, 1.94.1 included). In an n8n of its own, over
// its REST API as the editor does it: the Container Tracking API credential and an SMTP credential
// created (steps 3 and 4); examples/hold-alerts.json saved as shipped, as the editor saves an
// imported file (step 5); its set-up note followed: the credentials picked on the trigger and on
// both email nodes, From Email and Default recipients' email_to set (step 6); published (1.x:
// activated) while n8n runs (step 7). Then a customs hold played in the sandbox: its two emails
// reach the address set in Default recipients, each with a Routing line saying why they went there
// (no routing table made yet or, on n8n before 1.113, no Data Tables in this n8n). Then the step
// the set-up note gives for n8n before 1.113, Routing table deactivated: the alerts still arrive
// and say so.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { eventually, trackManyContainers } from '../support/sandbox';
import {
	activateOverRest,
	ACTIVATION_QUIET_MS,
	EXECUTION_QUIET_MS,
	N8N_START_QUIET_MS,
	n8nLib,
	rest,
	sandboxCredential,
	sandboxWebhooks,
	SETUP_TIMEOUT,
	sleep,
	smtpCredential,
	startE2e,
	startMailServer,
	storedExecutions,
	TEARDOWN_TIMEOUT,
	type E2eContext,
	type MailServer,
	type ReceivedMail,
} from './helpers';

const HOLD_ALERTS = path.resolve(__dirname, '..', '..', 'examples', 'hold-alerts.json');
/** What the user types in step 6. */
const RECIPIENT = 'ops@example.com';
const FROM = 'alerts@example.com';
/** The customer of the third box, with a row of its own in the routing table. */
const CUSTOMER = 'Acme Imports';
/** The n8n release that brought Data Tables (the node n8n-nodes-base.dataTable). */
const DATA_TABLES_SINCE = [1, 113, 0];
/** Real seconds between a customs hold's three steps (the sandbox clock runs at real speed). */
const HOLD_GAP_SECONDS = 1;
/** Publishing while n8n runs, then a customs hold's three executions and their two emails. */
const TEST_TIMEOUT = generous(N8N_START_QUIET_MS + ACTIVATION_QUIET_MS + 3 * EXECUTION_QUIET_MS);
/** The mail server has a message a moment after n8n sent it. */
const MAIL_READ_QUIET_MS = 500;

interface WorkflowNode {
	name: string;
	type: string;
	disabled?: boolean;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

describe('e2e: the README quick start (hold alerts by email), as a user runs it', () => {
	let ctx: E2eContext;
	let mail: MailServer;
	let n8n: { url: string; cookie: string; log(): string };
	/** What this n8n's Data Table node can do: nothing (before 1.113), find a table by ID (1.x), by name. */
	let tables: 'none' | 'byId' | 'byName';
	let workflow: { id: string; versionId: string; nodes: WorkflowNode[]; connections: unknown };
	const boxes: Array<{ id: string; number: string }> = [];

	const call = async (method: string, pathname: string, body?: unknown) => {
		const answer = await rest(n8n.url, n8n.cookie, method, pathname, body);
		if (answer.status !== 200)
			throw new Error(
				`${method} /rest${pathname} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
			);
		return answer.body.data;
	};
	const publish = async () => {
		const { error } = await activateOverRest(n8n.url, n8n.cookie, workflow.id, workflow.versionId);
		expect(error).toBeNull();
	};
	const webhookOfWorkflow = async () =>
		await eventually(
			async () =>
				(await sandboxWebhooks(ctx.handle)).some((hook) => hook.attributes.active)
					? true
					: undefined,
			{
				timeoutMs: generous(ACTIVATION_QUIET_MS),
				intervalMs: 200,
				what: 'the hold alerts to register their webhook with the sandbox',
			},
		);
	/** Saves the workflow with `nodes`, as the editor's Save does, and publishes it again. */
	const saveAndPublish = async (nodes: WorkflowNode[]) => {
		const saved = await call('PATCH', `/workflows/${workflow.id}`, {
			nodes,
			connections: workflow.connections,
			versionId: workflow.versionId,
		});
		workflow = { ...workflow, versionId: saved.versionId, nodes: saved.nodes };
		await publish();
		await webhookOfWorkflow();
	};
	/** Plays a customs hold on `box`; the emails about it once both (placed, released) arrived. */
	const customsHold = async (box: { id: string; number: string }) => {
		const played = await ctx.handle.control.post(`/containers/${box.id}/scenarios/customs_hold`, {
			gap_seconds: HOLD_GAP_SECONDS,
		});
		expect(played.status).toBe(202);
		const about = () => mail.messages.filter((message) => message.subject.includes(box.number));
		await eventually(async () => (about().length >= 2 ? true : undefined), {
			timeoutMs: byClock(2 * HOLD_GAP_SECONDS * 1000) + generous(3 * EXECUTION_QUIET_MS),
			intervalMs: 250,
			what: `the two emails about the customs hold on ${box.number}`,
		}).catch((error: Error) => {
			throw new Error(`${error.message}\nn8n's log:\n${n8n.log().slice(-6000)}`);
		});
		// And no more: three deliveries (pending, hold, cleared), two of them an email.
		await sleep(generous(MAIL_READ_QUIET_MS));
		return about();
	};
	const routingLine = (message: ReceivedMail) =>
		String(message.text)
			.split('\n')
			.find((line) => line.startsWith('Routing: '));

	beforeAll(async () => {
		const lib = await n8nLib();
		const version = lib.N8N_VERSION.split('.').map(Number);
		const since = DATA_TABLES_SINCE.findIndex((part, index) => version[index] !== part);
		const hasDataTables = since === -1 || version[since] > DATA_TABLES_SINCE[since];
		tables = !hasDataTables ? 'none' : version[0] < 2 ? 'byId' : 'byName';
		mail = await startMailServer();
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 0 }, ownN8n: true });
		n8n = await ctx.start();

		// Three boxes the account tracks, each for one customs hold below.
		const numbers = ['MSCU650013', 'MSCU650020', 'MSCU650037'].map(withCheckDigit);
		await trackManyContainers(ctx.handle, numbers, 'MSCU');
		for (const number of numbers) {
			const found = ctx.handle.sandbox.world.store
				.list('container')
				.find((record) => record.attributes.number === number)!;
			boxes.push({ id: found.id, number });
		}

		// Steps 3 and 4: the two credentials, created as in Overview → Credentials.
		const { apiKey } = sandboxCredential();
		const tracking = await call('POST', '/credentials', {
			name: 'Container Tracking account',
			type: 'containerTrackingApi',
			data: {
				apiKey,
				baseUrl: ctx.handle.sandbox.url,
				signatureHeader: ctx.handle.sandbox.options.signatureHeader,
			},
		});
		const { type, data } = await smtpCredential(mail);
		const smtp = await call('POST', '/credentials', { name: 'Our mail server', type, data });

		// Step 5: the file as shipped, saved as the editor saves an imported workflow. Step 6: its
		// set-up note, in its order.
		const shipped = JSON.parse(readFileSync(HOLD_ALERTS, 'utf8')) as {
			name: string;
			nodes: WorkflowNode[];
			connections: unknown;
			settings: unknown;
		};
		const nodes = shipped.nodes.map((node) => {
			const set: WorkflowNode = structuredClone(node);
			if (set.credentials?.containerTrackingApi)
				set.credentials.containerTrackingApi = { id: tracking.id, name: tracking.name };
			if (set.credentials?.smtp) {
				set.credentials.smtp = { id: smtp.id, name: smtp.name };
				set.parameters.fromEmail = `Container alerts <${FROM}>`;
			}
			if (set.name === 'Default recipients') {
				const fields = (
					set.parameters.assignments as { assignments: Array<{ name: string; value: string }> }
				).assignments;
				fields.find((field) => field.name === 'email_to')!.value = RECIPIENT;
			}
			return set;
		});
		expect(nodes.filter((node) => node.credentials?.smtp)).toHaveLength(2);
		const created = await call('POST', '/workflows', {
			name: shipped.name,
			nodes,
			connections: shipped.connections,
			settings: shipped.settings,
			active: false,
		});
		workflow = {
			id: created.id,
			versionId: created.versionId,
			nodes: created.nodes,
			connections: created.connections,
		};
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
	}, TEARDOWN_TIMEOUT);

	it(
		'published, a customs hold sends its two emails to Default recipients, saying why',
		async () => {
			// Step 7: publish (1.x: activate). n8n refuses a workflow holding a node type it lacks
			// (n8n 1.94.1: "Unrecognized node type: n8n-nodes-base.dataTable"); this one has none.
			await publish();
			await webhookOfWorkflow();

			const emails = await customsHold(boxes[0]);
			expect(emails.map((message) => message.subject).sort()).toEqual([
				expect.stringMatching(new RegExp(`^Customs hold placed on ${boxes[0].number} \\(`)),
				expect.stringMatching(new RegExp(`^Customs hold released on ${boxes[0].number} \\(`)),
			]);
			const why = {
				none: 'Routing: No routing table: this n8n has no Data Tables (n8n 1.113 and later have them): sent to the default recipients',
				byId: 'Routing: No routing table: the Data Table node of n8n 1.x finds a table by its ID only, not by its name (n8n 2 does): sent to the default recipients',
				byName:
					'Routing: No routing table yet (alert-routing-table.json makes it): sent to the default recipients',
			}[tables];
			for (const message of emails) {
				expect(message.to.map((address) => address.address)).toEqual([RECIPIENT]);
				expect(message.from.map((address) => address.address)).toEqual([FROM]);
				expect(routingLine(message)).toBe(why);
			}

			// The Executions tab: three runs of the alerts, each a success. Before 1.113 each run's
			// try at the table (a run of the workflow Routing table holds, which n8n cannot build)
			// stays listed as running: the set-up note says so, and how to stop it.
			const runs = await storedExecutions(n8n, workflow.id);
			const alerts = runs.filter((run) => run.mode !== 'integrated');
			expect(alerts.map((run) => run.status)).toEqual(['success', 'success', 'success']);
			const tries = runs.filter((run) => run.mode === 'integrated');
			process.stdout.write(
				`quick start on n8n ${(await n8nLib()).N8N_VERSION}: ${JSON.stringify(emails.map((message) => message.subject))}; ${routingLine(emails[0])}; reads of the table left listed: ${JSON.stringify(tries.map((run) => run.status))}\n`,
			);
			if (tables !== 'none') expect(tries).toEqual([]);
			else expect(tries.map((run) => run.status)).toEqual(['running', 'running', 'running']);
		},
		TEST_TIMEOUT,
	);

	it(
		'with Routing table deactivated (the set-up note, before 1.113), the alerts still arrive and say so',
		async () => {
			const before = new Set((await storedExecutions(n8n, workflow.id)).map((run) => run.id));
			const nodes = workflow.nodes.map((node) =>
				node.name === 'Routing table' ? { ...node, disabled: true } : node,
			);
			await saveAndPublish(nodes);

			const emails = await customsHold(boxes[1]);
			expect(emails).toHaveLength(2);
			for (const message of emails) {
				expect(message.to.map((address) => address.address)).toEqual([RECIPIENT]);
				expect(routingLine(message)).toBe(
					'Routing: Routing table is deactivated: sent to the default recipients',
				);
			}
			// Three more runs, all a success, and no try at the table left behind.
			const runs = (await storedExecutions(n8n, workflow.id)).filter((run) => !before.has(run.id));
			expect(runs.map((run) => [run.mode, run.status])).toEqual([
				['webhook', 'success'],
				['webhook', 'success'],
				['webhook', 'success'],
			]);
		},
		TEST_TIMEOUT,
	);
	it(
		"with Data Tables, Routing table reads Alert routing (n8n 1.113 to 1.123: once its Workflow JSON names the table by ID): an alert goes to its customer's row",
		async () => {
			if (tables === 'none') {
				process.stdout.write(
					`n8n ${(await n8nLib()).N8N_VERSION} has no Data Tables: nothing to read\n`,
				);
				return;
			}
			// The table alert-routing-table.json makes (its columns and default row), and a row for
			// the box's customer, as a person adds it in the table.
			const project = await call('GET', '/projects/personal');
			const table = await call('POST', `/projects/${project.id}/data-tables`, {
				name: 'Alert routing',
				columns: ['customer', 'tag', 'email_to', 'slack_channel'].map((name) => ({
					name,
					type: 'string',
				})),
			});
			await call('POST', `/projects/${project.id}/data-tables/${table.id}/insert`, {
				data: [
					{ customer: '*', tag: '', email_to: 'dispatch@example.com', slack_channel: '' },
					{ customer: CUSTOMER, tag: '', email_to: 'buyer@acme.example', slack_channel: '' },
				],
				// n8n 1.123 asks what to answer; 2.x answers the count unasked.
				returnType: 'count',
			});
			// Routing table on again: as shipped, or on n8n 1.x with the table named by its ID in its
			// Workflow JSON (docs/compatibility.md).
			const nodes = workflow.nodes.map((node) => {
				if (node.name !== 'Routing table') return node;
				const json = String(node.parameters.workflowJson);
				const byId = json.replace(
					'"mode": "name",\n          "value": "Alert routing"',
					`"mode": "id",\n          "value": "${table.id}"`,
				);
				if (tables === 'byId') expect(byId).not.toBe(json);
				return {
					...node,
					disabled: false,
					parameters: { ...node.parameters, workflowJson: tables === 'byId' ? byId : json },
				};
			});
			await saveAndPublish(nodes);

			const box = boxes[2];
			const shipment = ctx.handle.sandbox.world.store.related(
				ctx.handle.sandbox.world.store.get('container', box.id)!,
				'shipment',
			)[0];
			expect(
				(await ctx.handle.control.patch(`/shipments/${shipment.id}`, { customer_name: CUSTOMER }))
					.status,
			).toBe(200);

			const emails = await customsHold(box);
			expect(emails).toHaveLength(2);
			for (const message of emails) {
				expect([routingLine(message), message.to.map((address) => address.address)]).toEqual([
					undefined,
					['buyer@acme.example'],
				]);
				expect(message.subject).toContain(`(${CUSTOMER} · `);
			}
		},
		TEST_TIMEOUT,
	);
});

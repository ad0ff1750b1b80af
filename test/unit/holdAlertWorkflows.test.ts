/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the example workflows from disk and runs their Code nodes; the rules are for the published nodes */
// The two hold-alert examples, examples/hold-alerts.json (email) and hold-alerts-slack.json,
// kept from drifting apart: everything up to the senders is the same in both, the senders send
// only what the shared Alert text nodes wrote, and those nodes, run here on trigger items, write
// the same lines into the plain text, the HTML and the Slack blocks, for every hold name (one no
// table lists included) and every change the dispatcher lets through.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

import { omit } from 'lodash';
import { DateTime } from 'luxon';

import { holdMeaning } from '../../nodes/ContainerTracking/logic/holdNames';

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, unknown>;
	webhookId?: string;
}
interface Workflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const load = (file: string) =>
	JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Workflow;
const email = load('hold-alerts.json');
const slack = load('hold-alerts-slack.json');

const SENDER_TYPES = { email: 'n8n-nodes-base.emailSend', slack: 'n8n-nodes-base.slack' };
/** The Slack variant sends one message per routed channel: a Split Out before each sender. */
const PER_CHANNEL = 'n8n-nodes-base.splitOut';
const STICKY = 'n8n-nodes-base.stickyNote';
const isSender = (node: WorkflowNode) =>
	[...Object.values(SENDER_TYPES), PER_CHANNEL].includes(node.type);
const shared = (workflow: Workflow) =>
	workflow.nodes
		.filter((node) => !isSender(node) && node.type !== STICKY)
		.map((node) => omit(node, 'webhookId'));
const node = (workflow: Workflow, name: string) => {
	const found = workflow.nodes.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`${workflow.id} has no node "${name}"`);
	return found;
};
/** Where each node's outputs go, with the senders named by their place, not their name. */
const wiring = (workflow: Workflow) => {
	const senders = new Set(workflow.nodes.filter(isSender).map((sender) => sender.name));
	return Object.fromEntries(
		Object.entries(workflow.connections)
			.filter(([from]) => !senders.has(from))
			.map(([from, { main }]) => [
				from,
				main.map((targets) =>
					targets.map((target) => (senders.has(target.node) ? 'sender' : target.node)),
				),
			]),
	);
};
/** The node names each sender gets its items from. */
const senderInputs = (workflow: Workflow) =>
	Object.entries(workflow.connections).flatMap(([from, { main }]) =>
		main.flat().flatMap((target) => {
			const sender = workflow.nodes.find((candidate) => candidate.name === target.node);
			return sender && isSender(sender) ? [[from, sender.type]] : [];
		}),
	);

describe('the hold-alert examples, email and Slack', () => {
	it('are two workflows with their own ids and trigger webhooks', () => {
		expect(email.id).not.toBe(slack.id);
		const webhookIds = [email, slack].map(
			(workflow) => workflow.nodes.find((candidate) => candidate.webhookId)?.webhookId,
		);
		expect(webhookIds[0]).toEqual(expect.any(String));
		expect(webhookIds[1]).toEqual(expect.any(String));
		expect(webhookIds[0]).not.toBe(webhookIds[1]);
	});

	it('share every node up to the senders, wired the same', () => {
		expect(shared(slack)).toEqual(shared(email));
		expect(wiring(slack)).toEqual(wiring(email));
		expect(senderInputs(email)).toEqual([
			['Alert text (placed)', SENDER_TYPES.email],
			['Alert text (released)', SENDER_TYPES.email],
		]);
		expect(senderInputs(slack)).toEqual([
			['Alert text (placed)', PER_CHANNEL],
			['Alert text (released)', PER_CHANNEL],
			['One message per channel (placed)', SENDER_TYPES.slack],
			['One message per channel (released)', SENDER_TYPES.slack],
		]);
	});

	it('send only what the Alert text nodes wrote', () => {
		for (const sender of email.nodes.filter(isSender))
			expect(sender.parameters).toMatchObject({
				subject: '={{ $json.subject }}',
				emailFormat: 'both',
				text: '={{ $json.text }}',
				html: '={{ $json.html }}',
			});
		for (const split of slack.nodes.filter((candidate) => candidate.type === PER_CHANNEL))
			expect(split.parameters).toMatchObject({
				fieldToSplitOut: 'slack_channels',
				include: 'allOtherFields',
			});
		for (const sender of email.nodes.filter(isSender))
			expect(sender.parameters.toEmail).toBe('={{ $json.email_to }}');
		for (const sender of slack.nodes.filter((candidate) => candidate.type === SENDER_TYPES.slack))
			expect(sender.parameters).toMatchObject({
				channelId: { value: '={{ $json.slack_channels }}' },
				messageType: 'block',
				blocksUi: '={{ JSON.stringify({ blocks: $json.blocks }) }}',
				text: '={{ $json.subject }}',
			});
	});

	it('route placed and activated holds to the first output, released ones to the second, every other change to No alert, which sends nothing', () => {
		const rules = (
			node(email, 'Placed or released?').parameters.rules as {
				values: Array<{ conditions: { conditions: Array<{ rightValue: string }> } }>;
			}
		).values.map((rule) => rule.conditions.conditions.map((condition) => condition.rightValue));
		expect(rules).toEqual([['placed', 'activated'], ['cleared']]);
		// A fallback output (docs/service.md: value lists are open), left unconnected: pending,
		// updated, listed and a change the service adds later show there in the execution.
		expect(node(email, 'Placed or released?').parameters.options).toEqual({
			fallbackOutput: 'extra',
			renameFallbackOutput: 'No alert',
		});
		expect(wiring(email)['Placed or released?']).toEqual([
			['Alert text (placed)'],
			['Alert text (released)'],
		]);
	});
});

describe('the Alert text nodes, run on trigger items', () => {
	const code = (name: string) => String(node(email, name).parameters.jsCode);

	/**
	 * The node's code as n8n's Code node runs it for one item ("Run Once for Each Item"): the
	 * trigger's item, carrying the container (`box`) as the delivery made it.
	 */
	async function run(name: string, held: Record<string, unknown>, box: Record<string, unknown>) {
		const context = vm.createContext({
			$: (nodeName: string) => {
				throw new Error(`the alert reads no other node (asked for ${nodeName})`);
			},
			$json: { ...held, container: box },
			DateTime,
		});
		const result = (await vm.runInContext(`(async () => {\n${code(name)}\n})()`, context)) as {
			json: { subject: string; text: string; html: string; blocks: unknown[] };
		};
		return result.json;
	}

	const unescape = (value: string) =>
		value
			.replace(/&lt;/g, '<')
			.replace(/&gt;/g, '>')
			.replace(/&quot;/g, '"')
			.replace(/&amp;/g, '&');
	/** The label and value of each line, as the plain text, the HTML and the blocks carry them. */
	const linesOf = {
		text: (text: string) =>
			text
				.split('\n')
				.slice(2)
				.map((line) => line.split(/: (.*)/s).slice(0, 2)),
		html: (html: string) =>
			[...html.matchAll(/<tr><th[^>]*>(.*?)<\/th><td>(.*?)<\/td><\/tr>/g)].map((match) => [
				unescape(match[1]),
				unescape(match[2]),
			]),
		blocks: (blocks: unknown[]) => {
			const section = blocks.find((block) => (block as { type: string }).type === 'section') as {
				text: { text: string };
			};
			return section.text.text
				.split('\n')
				.map((line) => /^\*(.*?):\* (.*)$/s.exec(line)!.slice(1, 3).map(unescape));
		},
	};

	const box = {
		number: 'MAEU6123458',
		last_free_day_date: '2026-11-28',
		days_until_last_free_day: 3,
		last_free_day_facility: 'Garden City <Terminal> & Co',
		pickup_status: 'on_hold',
		pickup_status_reason: 'Available, but 1 active hold (customs)',
	};
	const trigger = (name: string, change: string, description: string | null = null) => ({
		change,
		container_number: 'MAEU6123458',
		terminal_name: 'Garden City <Terminal> & Co',
		changed_at: '2026-11-25T07:59:00Z',
		timezone: 'America/New_York',
		hold: { name, status: 'hold', description },
		...holdMeaning(name),
		pickup_status: 'on_hold',
		notification_id: 'n-1',
	});

	it.each([
		[
			'Alert text (placed)',
			'placed',
			'customs',
			'Customs hold placed on MAEU6123458 (no customer)',
		],
		['Alert text (placed)', 'activated', 'USDA', 'USDA hold placed on MAEU6123458 (no customer)'],
		[
			'Alert text (released)',
			'cleared',
			'freight',
			'Freight hold released on MAEU6123458 (no customer)',
		],
		['Alert text (released)', 'cleared', 'TMF', 'TMF hold released on MAEU6123458 (no customer)'],
	])(
		'%s, change %s, hold %s: one subject, the same lines in every format',
		async (name, change, hold, subject) => {
			const alert = await run(name, trigger(hold, change, 'Awaiting <release> & more'), box);
			expect(alert.subject).toBe(subject);
			expect(alert.blocks[0]).toEqual({
				type: 'header',
				text: { type: 'plain_text', text: subject },
			});
			const lines = linesOf.text(alert.text);
			expect(alert.text.split('\n')[0]).toBe(
				`${subject.replace(' (no customer)', '')} at Garden City <Terminal> & Co, for no named customer.`,
			);
			expect(linesOf.html(alert.html)).toEqual(lines);
			expect(linesOf.blocks(alert.blocks)).toEqual(lines);
			expect(Object.fromEntries(lines)).toMatchObject({
				Customer: 'none named at the service',
				'Bill of lading': 'not known',
				References: 'none',
				Container: 'MAEU6123458',
				Terminal: 'Garden City <Terminal> & Co',
				'Who clears it': holdMeaning(hold).hold_resolved_by,
				'Last free day': '2026-11-28 at Garden City <Terminal> & Co (3 days left)',
				'Pickup status': 'on_hold (Available, but 1 active hold (customs))',
				'Changed at': '2026-11-25 02:59 -05:00 (America/New_York)',
			});
			// Markup in the service's text reaches nobody as markup.
			expect(alert.html).not.toContain('<Terminal>');
			expect(alert.html).not.toContain('<release>');
		},
	);

	it('passes a hold name no table lists on, pointing at its description', async () => {
		const alert = await run('Alert text (placed)', trigger('chassis', 'placed', 'Chassis split'), {
			...box,
			last_free_day_date: null,
			days_until_last_free_day: null,
		});
		expect(alert.subject).toBe('Chassis hold placed on MAEU6123458 (no customer)');
		expect(Object.fromEntries(linesOf.text(alert.text))).toMatchObject({
			Hold: 'chassis, active: Chassis split',
			'What it is': "not in the hold table; see the hold's description",
			'Who clears it': "not in the hold table; see the hold's description",
			'Last free day': 'not known yet',
		});
	});

	it.each(['Alert text (placed)', 'Alert text (released)'])(
		'%s: an alert run again after n8n died mid-execution says it may have come before; a first one says nothing',
		async (name) => {
			const change = name.includes('placed') ? 'placed' : 'cleared';
			const first = Object.fromEntries(
				linesOf.text((await run(name, trigger('customs', change), box)).text),
			);
			expect(first.Note).toBeUndefined();
			const again = await run(name, { ...trigger('customs', change), rerun: true }, box);
			const lines = linesOf.text(again.text);
			expect(Object.fromEntries(lines).Note).toBe(
				'n8n stopped while this alert was being sent: it may have reached you already',
			);
			expect(linesOf.blocks(again.blocks)).toEqual(lines);
		},
	);

	it('names whose box it is in the subject, the first line and the lines: customer, bill of lading, references', async () => {
		const alert = await run(
			'Alert text (placed)',
			{
				...trigger('customs', 'placed'),
				customer_name: 'Globex Retail, Inc.',
				bill_of_lading_number: 'MEDUFR030802',
				shipment_ref_numbers: ['PO 4411', 'SO-19'],
				container_ref_numbers: ['PO 4411', 'CR-7'],
				route_note: 'No routing row for customer "Globex Retail, Inc.": sent to the default row',
			},
			box,
		);
		expect(alert.subject).toBe(
			'Customs hold placed on MAEU6123458 (Globex Retail, Inc. · BL MEDUFR030802 · ref PO 4411, SO-19, CR-7)',
		);
		expect(alert.text.split('\n')[0]).toBe(
			'Customs hold placed on MAEU6123458 at Garden City <Terminal> & Co, for Globex Retail, Inc., bill of lading MEDUFR030802, references PO 4411, SO-19, CR-7.',
		);
		const lines = linesOf.text(alert.text);
		expect(lines.slice(0, 3)).toEqual([
			['Customer', 'Globex Retail, Inc.'],
			['Bill of lading', 'MEDUFR030802'],
			['References', 'PO 4411, SO-19, CR-7'],
		]);
		expect(Object.fromEntries(lines).Routing).toBe(
			'No routing row for customer "Globex Retail, Inc.": sent to the default row',
		);
		expect(linesOf.html(alert.html)).toEqual(lines);
		expect(linesOf.blocks(alert.blocks)).toEqual(lines);
	});

	it('are the same code in both branches and both examples', () => {
		for (const workflow of [email, slack])
			expect(code('Alert text (released)')).toBe(
				String(node(workflow, 'Alert text (placed)').parameters.jsCode),
			);
	});
});

describe('the Recipients node, run on trigger items and routing rows', () => {
	const code = String(node(email, 'Recipients').parameters.jsCode);

	/** The node's code as n8n runs it once for all items: what it reads from the two nodes before. */
	function route(alerts: Array<Record<string, unknown>>, rows: Array<Record<string, unknown>>) {
		const items = (list: Array<Record<string, unknown>>) => ({
			all: () => list.map((json) => ({ json })),
		});
		const context = vm.createContext({
			$: (name: string) => {
				if (name === 'Default recipients')
					return { first: () => ({ json: DEFAULT_RECIPIENTS }), ...items([DEFAULT_RECIPIENTS]) };
				if (name === 'Routing table') return items(rows);
				if (name === 'Container hold changed') return items(alerts);
				throw new Error(`Recipients reads no node "${name}"`);
			},
		});
		return (
			vm.runInContext(`(() => {\n${code}\n})()`, context) as Array<{
				json: Record<string, unknown>;
			}>
		).map((item) => item.json);
	}

	const DEFAULT_RECIPIENTS = { email_to: 'me@example.com', slack_channel: '#me' };
	const ROWS = [
		{
			customer: '*',
			tag: '',
			email_to: 'dispatch@example.com',
			slack_channel: '#container-alerts',
		},
		{
			customer: 'Acme Imports',
			tag: '',
			email_to: 'buyer@acme.example, ops@acme.example',
			slack_channel: '#acme',
		},
		{ customer: '', tag: 'Reefer', email_to: 'reefers@example.com', slack_channel: '#reefers' },
	];
	const alert = (customer: string | null, tags: string[] = []) => ({
		container_number: 'MAEU6123458',
		customer_name: customer,
		shipment_tags: tags,
	});

	it('is the same code in both examples', () => {
		expect(String(node(slack, 'Recipients').parameters.jsCode)).toBe(code);
	});

	it('sends each alert to the rows of its customer and of its tags, each recipient once', () => {
		const [acme, acmeReefer, otherReefer] = route(
			[
				alert('acme imports '),
				alert('Acme Imports', ['reefer']),
				alert('Blue Harbor Foods', ['REEFER']),
			],
			ROWS,
		);
		expect(acme).toMatchObject({
			email_to: 'buyer@acme.example, ops@acme.example',
			slack_channels: ['#acme'],
			routed_by: 'routing table',
			route_note: null,
		});
		expect(acmeReefer).toMatchObject({
			email_to: 'buyer@acme.example, ops@acme.example, reefers@example.com',
			slack_channels: ['#acme', '#reefers'],
		});
		expect(otherReefer).toMatchObject({
			email_to: 'reefers@example.com',
			slack_channels: ['#reefers'],
		});
	});

	it('sends a box of no listed customer, or of none, to the default row, and says so', () => {
		const [unlisted, none] = route([alert('Blue Harbor Foods'), alert(null)], ROWS);
		for (const routed of [unlisted, none])
			expect(routed).toMatchObject({
				email_to: 'dispatch@example.com',
				slack_channels: ['#container-alerts'],
				routed_by: 'default row',
			});
		expect(unlisted.route_note).toBe(
			'No routing row for customer "Blue Harbor Foods": sent to the default row',
		);
		expect(none.route_note).toBe(
			'No routing row for a box without a customer: sent to the default row',
		);
	});

	it('never loses an alert: an empty table, or one that could not be read, sends it to Default recipients', () => {
		const [empty] = route([alert('Acme Imports')], []);
		expect(empty).toMatchObject({
			email_to: 'me@example.com',
			slack_channels: ['#me'],
			routed_by: 'default recipients',
			route_note:
				'No routing row for customer "Acme Imports": sent to the default recipients (the table has no default row)',
		});
		// Before anyone made the table: n8n's Data table node says it is not found.
		const [missing] = route(
			[alert('Acme Imports')],
			[{ error: 'Data table with name "Alert routing" not found' }],
		);
		expect(missing).toMatchObject({
			email_to: 'me@example.com',
			routed_by: 'default recipients',
			route_note:
				'No routing table yet (alert-routing-table.json makes it): sent to the default recipients',
		});
		const [unread] = route([alert('Acme Imports')], [{ error: 'connect ECONNREFUSED' }]);
		expect(unread).toMatchObject({
			email_to: 'me@example.com',
			routed_by: 'default recipients',
			route_note:
				'The routing table could not be read (connect ECONNREFUSED): sent to the default recipients',
		});
	});

	it('keeps every field of the trigger item, the rerun mark included', () => {
		const [routed] = route(
			[{ ...alert('Acme Imports'), rerun: true, hold: { name: 'customs' } }],
			ROWS,
		);
		expect(routed).toMatchObject({
			rerun: true,
			hold: { name: 'customs' },
			container_number: 'MAEU6123458',
		});
	});
});

describe('the routing table, made in n8n or imported into Google Sheets', () => {
	const setup = load('alert-routing-table.json');
	const columns = (
		node(setup, 'Create the Alert routing table').parameters.columns as {
			column: Array<{ name: string; type: string }>;
		}
	).column;

	it('has the four text columns the Recipients and digest code read', () => {
		expect(columns).toEqual(
			['customer', 'tag', 'email_to', 'slack_channel'].map((name) => ({ name, type: 'string' })),
		);
		const digest = String(
			node(load('last-free-day-digest.json'), 'One digest per recipient').parameters.jsCode,
		);
		for (const code of [String(node(email, 'Recipients').parameters.jsCode), digest])
			for (const name of ['customer', 'tag', 'email_to']) expect(code).toContain(`row.${name}`);
	});

	it("the Google Sheets CSV (examples/alert-routing.csv) is the same columns and the setup's default row", () => {
		const [header, row, ...rest] = readFileSync(path.join(EXAMPLES, 'alert-routing.csv'), 'utf8')
			.trim()
			.split('\n');
		expect(header.split(',')).toEqual(columns.map((column) => column.name));
		const defaults = (
			node(setup, 'Default route').parameters.assignments as {
				assignments: Array<{ name: string; value: string }>;
			}
		).assignments;
		expect(row.split(',')).toEqual(
			columns.map((column) => defaults.find((entry) => entry.name === column.name)?.value ?? ''),
		);
		expect(rest).toEqual([]);
	});
});

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
const STICKY = 'n8n-nodes-base.stickyNote';
const isSender = (node: WorkflowNode) => Object.values(SENDER_TYPES).includes(node.type);
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
		Object.entries(workflow.connections).map(([from, { main }]) => [
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
			['Alert text (placed)', SENDER_TYPES.slack],
			['Alert text (released)', SENDER_TYPES.slack],
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
		for (const sender of slack.nodes.filter(isSender))
			expect(sender.parameters).toMatchObject({
				messageType: 'block',
				blocksUi: '={{ JSON.stringify({ blocks: $json.blocks }) }}',
				text: '={{ $json.subject }}',
			});
	});

	it('route placed and activated holds to the first output, released ones to the second, nothing else', () => {
		const rules = (
			node(email, 'Placed or released?').parameters.rules as {
				values: Array<{ conditions: { conditions: Array<{ rightValue: string }> } }>;
			}
		).values.map((rule) => rule.conditions.conditions.map((condition) => condition.rightValue));
		expect(rules).toEqual([['placed', 'activated'], ['cleared']]);
		expect(node(email, 'Placed or released?').parameters.options).not.toHaveProperty(
			'fallbackOutput',
		);
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
		['Alert text (placed)', 'placed', 'customs', 'Customs hold placed on MAEU6123458'],
		['Alert text (placed)', 'activated', 'USDA', 'USDA hold placed on MAEU6123458'],
		['Alert text (released)', 'cleared', 'freight', 'Freight hold released on MAEU6123458'],
		['Alert text (released)', 'cleared', 'TMF', 'TMF hold released on MAEU6123458'],
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
			expect(alert.text.split('\n')[0]).toBe(`${subject} at Garden City <Terminal> & Co.`);
			expect(linesOf.html(alert.html)).toEqual(lines);
			expect(linesOf.blocks(alert.blocks)).toEqual(lines);
			expect(Object.fromEntries(lines)).toMatchObject({
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
		expect(alert.subject).toBe('Chassis hold placed on MAEU6123458');
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

	it('are the same code in both branches and both examples', () => {
		for (const workflow of [email, slack])
			expect(code('Alert text (released)')).toBe(
				String(node(workflow, 'Alert text (placed)').parameters.jsCode),
			);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// The "Ask in chat" examples (examples/ask-in-chat.json, ask-in-chat-slack.json) in a real n8n
// with the packed package (issue 61, point 3). First what needs no model: both import, and this
// n8n knows every node type and version they hold, the Container Tracking tools included. Then,
// since no model runs here, a scripted stand-in for one (test/support/scriptedModel.ts) at the
// Base URL of an OpenAI credential: the example's own Chat Trigger, AI Agent, memory and tool
// nodes run as shipped, published, asked over the chat's production URL as a signed-in person
// asks. The stand-in calls the tools each question implies, as a model would; the test reads
// what the agent offered it (each tool, its description, the parameters `$fromAI` builds) and what
// the tools answered (the tool messages the agent sent back), and holds those answers to
// Container → Get and Get Transport Events run at the same moment. What a real model makes of
// the answers is not tested (docs/design/examples.md, "Ask in chat"). The Slack variant gets a
// signed mention; its reply to Slack is sent to a Slack that is not here, and fails.
import { createHmac, randomUUID } from 'node:crypto';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { toolAnswer } from '../../nodes/ContainerTracking/actions/tool';
import { byClock, generous } from '../support/bounds';
import { eventually } from '../support/sandbox';
import {
	containerNumbersIn,
	startScriptedModel,
	textOf,
	type CompletionRequest,
	type ScriptedModel,
	type ScriptedTurn,
} from '../support/scriptedModel';
import {
	CLI_QUIET_MS,
	EXECUTION_QUIET_MS,
	exampleWorkflow,
	itemsOf,
	n8nLib,
	NODE_TYPE,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	START,
	startE2e,
	storedExecutions,
	storedResult,
	TEARDOWN_TIMEOUT,
	workflow,
	type E2eContext,
	type RunJson,
} from './helpers';

const CHAT = { id: 'ctAskInChat', webhookId: '4c8e2f61-7a3d-4b95-8e1c-2d6f9a0b3e57' };
const SLACK = { id: 'ctAskInChatSlack', webhookId: '9d2b6e47-1f8a-4c3e-b5d0-7a4e6c2f1b83' };
const TOOL_TYPE = `${NODE_TYPE}Tool`;
/** The credentials a user picks by the set-up notes: an OpenAI one (here the stand-in's) and Slack's. */
const OPENAI = { id: 'ctTestOpenAi', name: 'OpenAI (scripted stand-in)' };
const SLACK_APP = { id: 'ctTestSlack', name: 'Slack app' };
const SLACK_SIGNING_SECRET = 'test-signing-secret';
/** A held box's customer (set on its shipment at the service). */
const CUSTOMER = 'Acme Imports';
/** One question through the agent: the model's two answers and up to six tool runs. */
const QUESTION_QUIET_MS = 3 * EXECUTION_QUIET_MS;
const TEST_TIMEOUT = generous(QUESTION_QUIET_MS * 2 + CLI_QUIET_MS);

/** A tool's name as the agent gives it to the model: the node's name, `_` for anything else. */
const toolName = (node: string) => node.replace(/[^a-zA-Z0-9_-]+/g, '_');

interface ToolAnswer {
	tool: string;
	arguments: Record<string, unknown>;
	/** The answer as the agent handed it to the model. */
	text: string;
}

/** The tool calls of one question and the answers the agent sent back, from the stand-in's log. */
function toolAnswers(requests: readonly CompletionRequest[], question: string): ToolAnswer[] {
	const last = [...requests]
		.reverse()
		.find((request) =>
			request.messages.some(
				({ role, content }) => role === 'user' && textOf(content).includes(question),
			),
		);
	if (!last) throw new Error(`the model was never asked ${JSON.stringify(question)}`);
	const lastUser = last.messages.map(({ role }) => role).lastIndexOf('user');
	const after = last.messages.slice(lastUser + 1);
	const calls = new Map(
		after.flatMap(({ tool_calls }) =>
			(tool_calls ?? []).map((call) => [call.id, call.function] as const),
		),
	);
	return after
		.filter(({ role }) => role === 'tool')
		.map(({ tool_call_id, content }) => {
			const call = calls.get(tool_call_id ?? '');
			if (!call) throw new Error(`a tool answer without its call (${tool_call_id})`);
			return {
				tool: call.name,
				arguments: JSON.parse(call.arguments) as Record<string, unknown>,
				text: textOf(content),
			};
		});
}

/** The items a tool answered with: its answer is their JSON (one item alone, or a list). */
function answerItems(answer: ToolAnswer): Array<Record<string, unknown>> {
	let parsed: unknown = undefined;
	try {
		parsed = JSON.parse(answer.text);
	} catch {
		// Reported below, with the text.
	}
	if (parsed === undefined)
		throw new Error(`${answer.tool} answered with no JSON: ${answer.text.slice(0, 500)}`);
	const items = Array.isArray(parsed) ? parsed : [parsed];
	return items.map((item) =>
		// n8n 1.x hands over each item's `json`; 2.x the items themselves.
		item && typeof item === 'object' && 'json' in item
			? ((item as { json: Record<string, unknown> }).json ?? {})
			: (item as Record<string, unknown>),
	);
}

describe('e2e: Ask in chat, an AI Agent with the Container Tracking tools', () => {
	let ctx: E2eContext;
	let model: ScriptedModel;
	let n8n: { url: string; cookie: string; log(): string };
	/** The stand-in's script, filled once the sandbox's containers are known. */
	const script: ScriptedTurn[] = [];
	const chat = exampleWorkflow('ask-in-chat.json') as {
		nodes: Array<{
			name: string;
			type: string;
			typeVersion: number;
			parameters: Record<string, unknown>;
		}>;
	};
	const slack = exampleWorkflow('ask-in-chat-slack.json') as typeof chat;
	const tools = chat.nodes.filter(({ type }) => type === TOOL_TYPE);
	const toolNode = (name: string) => tools.find((node) => node.name === name)!;
	/** The held box, a box of the same account, and one it does not track. */
	let held: { id: string; number: string; shipmentId: string };
	let other: { number: string };

	/** The examples with the credentials their set-up notes ask for picked, as a user does. */
	const picked = (example: typeof chat) => ({
		...example,
		nodes: example.nodes.map((node) => {
			if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi')
				return { ...node, credentials: { openAiApi: OPENAI } };
			if (node.type.startsWith('n8n-nodes-base.slack'))
				return { ...node, credentials: { slackApi: SLACK_APP } };
			return node;
		}),
	});

	/** Asks the chat's production URL as a person signed in to n8n does; the answer's text. */
	const ask = async (question: string, sessionId: string): Promise<string> => {
		const response = await fetch(`${n8n.url}/webhook/${ctx.webhookId(CHAT.webhookId)}/chat`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Cookie: n8n.cookie },
			body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput: question }),
		});
		const text = await response.text();
		if (response.status !== 200 || model.problems.length > 0)
			throw new Error(
				`the chat answered ${response.status}: ${text.slice(0, 1000)}\nthe stand-in: ${model.problems.join('; ')}\nn8n's log:\n${n8n.log().slice(-4000)}`,
			);
		return String((JSON.parse(text) as { output?: unknown }).output);
	};

	/** Runs one operation of the node as a workflow does, with the tool node's own parameters. */
	const runOperation = async (
		key: string,
		parameters: Record<string, unknown>,
	): Promise<Array<Record<string, unknown>>> => {
		const id = `ctAskReference${key}${Date.now()}`;
		await ctx.importWorkflow(
			workflow(id, `Reference ${key}`, [
				START,
				{
					name: 'Reference',
					type: NODE_TYPE,
					parameters,
					credentials: {
						containerTrackingApi: { id: 'ctSandboxCredential', name: 'Container Tracking sandbox' },
					},
					after: ['Start'],
				},
			]),
		);
		const lib = await n8nLib();
		// Beside the running n8n: the CLI gets a task broker port of its own.
		const result: { run: RunJson; code: number | string; stderr: string; stdout: string } =
			ctx.shared
				? await ctx.execute(id)
				: await lib.executeWorkflow(
						ctx.n8nDir,
						{ ...ctx.env, N8N_RUNNERS_BROKER_PORT: String(await lib.freePort()) },
						id,
					);
		if (result.code !== 0 || !result.run)
			throw new Error(`the reference run failed:\n${(result.stderr + result.stdout).slice(-3000)}`);
		return itemsOf(result.run, 'Reference');
	};
	/** A tool node's parameters with `$fromAI('container_number', …)` given a number. */
	const withNumber = (node: string, number: string) => {
		const parameters = structuredClone(toolNode(node).parameters);
		(parameters.containerId as { value: string }).value = number;
		return parameters;
	};

	beforeAll(async () => {
		model = await startScriptedModel(script);
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 1 } });
		await ctx.importCredentials([sandboxCredential()]);
		for (const record of [
			{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-scripted', url: model.url } },
			{
				...SLACK_APP,
				type: 'slackApi',
				data: { accessToken: 'xoxb-scripted', signatureSecret: SLACK_SIGNING_SECRET },
			},
		])
			await ctx.importCredentialRecord(record);
		await ctx.importWorkflows([picked(chat), picked(slack)]);
		await ctx.activate(CHAT.id);
		await ctx.activate(SLACK.id);
		n8n = await ctx.start();

		// The account: the demo's containers, tracked; one of them held at customs, its last free
		// day in two days, its shipment Acme Imports'.
		expect((await ctx.handle.control.post('/demo/start')).status).toBe(201);
		const containers = await eventually(
			async () => {
				const { data } = await ctx.handle.api.get('/tracking_requests');
				const requests = data.data as Array<{ attributes: { status: string } }>;
				if (requests.length === 0 || requests.some((r) => r.attributes.status === 'pending'))
					return undefined;
				const list = (await ctx.handle.api.get('/containers', { params: { 'page[size]': 100 } }))
					.data.data as Array<{
					id: string;
					attributes: { number: string; holds_at_pod_terminal: unknown[] | null };
					relationships: { shipment: { data: { id: string } } };
				}>;
				return list.length >= 2 ? list : undefined;
			},
			{
				// Tracking requests succeed after 1 s on the sandbox clock (trackingDelaySeconds).
				timeoutMs: byClock(1_000) + generous(2_000),
				what: "the demo's tracking requests to succeed",
			},
		);
		const [box, second] = containers;
		held = {
			id: box.id,
			number: box.attributes.number,
			shipmentId: box.relationships.shipment.data.id,
		};
		other = { number: second.attributes.number };
		const store = ctx.handle.sandbox.world.store;
		const podZone = String(store.get('container', box.id)!.attributes.pod_timezone);
		const inTwoDays = DateTime.now().setZone(podZone).startOf('day').plus({ days: 2 }).toISODate();
		for (const change of [
			{ kind: 'place_hold', name: 'customs', status: 'hold' },
			{ kind: 'set_last_free_day', source: 'line', date: inTwoDays },
		])
			expect((await ctx.handle.control.post(`/containers/${box.id}/changes`, change)).status).toBe(
				200,
			);
		expect(
			(await ctx.handle.control.patch(`/shipments/${held.shipmentId}`, { customer_name: CUSTOMER }))
				.status,
		).toBe(200);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await model?.stop();
	}, TEARDOWN_TIMEOUT);

	it('both examples import, and this n8n knows every node type and version they hold, the tools included', async () => {
		// What the editor reads to draw a node; a type or version missing there is an unknown node.
		const known = await fetch(`${n8n.url}/types/nodes.json`, { headers: { Cookie: n8n.cookie } });
		expect(known.status).toBe(200);
		const types = (await known.json()) as Array<{ name: string; version: number | number[] }>;
		const versions = new Map<string, Set<number>>();
		for (const { name, version } of types)
			for (const each of [version].flat())
				versions.set(name, (versions.get(name) ?? new Set()).add(each));
		for (const [file, example] of [
			['ask-in-chat.json', chat],
			['ask-in-chat-slack.json', slack],
		] as const) {
			const unknown = example.nodes
				.filter(({ type, typeVersion }) => !versions.get(type)?.has(typeVersion))
				.map(({ name, type, typeVersion }) => `${name} (${type} ${typeVersion})`);
			expect({ file, unknown }).toEqual({ file, unknown: [] });
			const stored = await rest(
				n8n.url,
				n8n.cookie,
				'GET',
				`/workflows/${ctx.workflowId(example === chat ? CHAT.id : SLACK.id)}`,
			);
			expect(stored.status).toBe(200);
			expect(
				(stored.body.data.nodes as Array<{ name: string }>).map(({ name }) => name).sort(),
			).toEqual(example.nodes.map(({ name }) => name).sort());
		}
		expect(tools.map(({ name }) => name)).toHaveLength(6);
	});

	it(
		'asked in the chat, the agent offers the model every tool, each saying when to use it and taking only what a person says; the tools answer as Container → Get does',
		async () => {
			const question = `Is ${held.number} on hold, and what is its last free day?`;
			script.push({
				question,
				calls: [
					{ tool: toolName('Container status'), arguments: { container_number: held.number } },
				],
			});
			const answer = await ask(question, randomUUID());

			// What the agent offered: the six tools, each described for a model, each taking what a
			// person says (no id); the example's system message, which asks for the numbers.
			const first = model.requests.find(({ messages }) =>
				messages.some(({ role, content }) => role === 'user' && textOf(content).includes(question)),
			)!;
			const offered = new Map((first.tools ?? []).map(({ function: tool }) => [tool.name, tool]));
			expect([...offered.keys()].sort()).toEqual(tools.map(({ name }) => toolName(name)).sort());
			for (const [name, tool] of offered) {
				expect({ name, description: tool.description }).toEqual({
					name,
					description: expect.stringMatching(/^Use this when\b/),
				});
				const properties = Object.keys(
					(tool.parameters as { properties?: Record<string, unknown> }).properties ?? {},
				);
				expect({ name, properties }).toEqual({
					name,
					properties: expect.arrayContaining([
						expect.stringMatching(/^(container_number|customer|days|text|number)$/),
					]),
				});
				expect(properties.filter((property) => /(^|_)ids?$/i.test(property))).toEqual([]);
			}
			expect(textOf(first.messages[0].content)).toContain(
				'Name every container you speak of by its number',
			);

			// What the tool answered, beside Container → Get of the same box with the tool node's
			// own parameters, at the same moment (the sandbox stands still meanwhile).
			const [status] = toolAnswers(model.requests, question);
			expect(status).toMatchObject({
				tool: toolName('Container status'),
				arguments: { container_number: held.number },
			});
			const reference = await runOperation('Get', withNumber('Container status', held.number));
			// The same item, as a model reads it: without its nulls and related records' ids. But
			// `container_as_of`, the moment each read asked the service: the tool's came first.
			const [told] = answerItems(status);
			const { container_as_of: toldAt, ...toldRest } = told;
			const { container_as_of: readAt, ...readRest } = toolAnswer(reference[0] as IDataObject);
			expect(toldRest).toEqual(readRest);
			expect(Date.parse(String(toldAt))).toBeLessThanOrEqual(Date.parse(String(readAt)));
			expect(answerItems(status)).toHaveLength(1);
			expect(reference[0]).toMatchObject({ number: held.number, active_holds: ['customs'] });
			process.stdout.write(
				`chat: Container status answered ${status.text.length} characters for ${held.number}\n`,
			);
			// The answer in the chat is the stand-in's, relaying the tool's: it names the box.
			expect(containerNumbersIn(answer)).toContain(held.number);
		},
		TEST_TIMEOUT,
	);

	it(
		'a follow-up in the same chat reaches the model with the conversation so far, and the events tool answers as Get Transport Events does',
		async () => {
			const sessionId = randomUUID();
			const opening = `What is the status of ${held.number}?`;
			const followUp = 'And how has it moved so far?';
			script.push(
				{
					question: opening,
					calls: [
						{ tool: toolName('Container status'), arguments: { container_number: held.number } },
					],
				},
				// "it" is the box of the question before: a model reads it from the memory; the
				// stand-in is told.
				{
					question: followUp,
					calls: [
						{ tool: toolName('Container events'), arguments: { container_number: held.number } },
					],
				},
			);
			await ask(opening, sessionId);
			const answer = await ask(followUp, sessionId);
			const asked = model.requests.find(({ messages }) =>
				messages.some(({ role, content }) => role === 'user' && textOf(content).includes(followUp)),
			)!;
			// Conversation memory gave the agent the first exchange.
			expect(
				asked.messages.filter(({ role }) => role === 'user').map(({ content }) => textOf(content)),
			).toEqual(expect.arrayContaining([expect.stringContaining(opening)]));
			const [events] = toolAnswers(model.requests, followUp);
			expect(events.tool).toBe(toolName('Container events'));
			const reference = await runOperation('Events', withNumber('Container events', held.number));
			expect(reference.length).toBeGreaterThan(0);
			expect(answerItems(events)).toEqual(reference.map((item) => toolAnswer(item as IDataObject)));
			expect(containerNumbersIn(answer)).toContain(held.number);
		},
		TEST_TIMEOUT,
	);

	it(
		"the customer's boxes on hold and near their last free day, numbers in a pasted text, and tracking a number: each tool answers from the account",
		async () => {
			const lists = `Which of ${CUSTOMER}' boxes are on hold or due soon?`;
			const pasted = `Arrival notice: containers ${held.number} and ${other.number} discharge Thursday. Which boxes are these?`;
			const track = 'Please track MSCU1331910 for us.';
			script.push(
				{
					question: lists,
					calls: [
						{ tool: toolName('Boxes on hold'), arguments: { customer: 'Acme' } },
						{
							tool: toolName('Boxes near last free day'),
							arguments: { customer: 'Acme', days: 3 },
						},
					],
				},
				{
					question: pasted,
					calls: [{ tool: toolName('Find numbers in text'), arguments: { text: pasted } }],
				},
				{
					question: track,
					calls: [{ tool: toolName('Track a number'), arguments: { number: 'MSCU1331910' } }],
				},
			);
			for (const question of [lists, pasted, track]) await ask(question, randomUUID());

			const [onHold, nearDay] = toolAnswers(model.requests, lists);
			expect(answerItems(onHold).map((item) => item.number)).toEqual([held.number]);
			expect(answerItems(nearDay).map((item) => item.number)).toEqual([held.number]);

			const [found] = toolAnswers(model.requests, pasted);
			expect(containerNumbersIn(found.text)).toEqual(
				expect.arrayContaining([held.number, other.number]),
			);

			const [tracked] = toolAnswers(model.requests, track);
			expect(tracked.text).toContain('MSCU1331910');
			const { data } = await ctx.handle.api.get('/tracking_requests');
			expect(
				(data.data as Array<{ attributes: { request_number: string } }>).map(
					({ attributes }) => attributes.request_number,
				),
			).toContain('MSCU1331910');
		},
		TEST_TIMEOUT,
	);

	it(
		'a mistyped number is a tool answer in words offering the valid one, and the run succeeds',
		async () => {
			const digit = Number(held.number.slice(-1));
			const mistyped = `${held.number.slice(0, -1)}${(digit + 1) % 10}`;
			const question = `Is ${mistyped} ready for pickup?`;
			script.push({
				question,
				calls: [{ tool: toolName('Container status'), arguments: { container_number: mistyped } }],
			});
			const answer = await ask(question, randomUUID());
			const [status] = toolAnswers(model.requests, question);
			expect(status.text).toContain(held.number);
			expect(status.text).toMatch(/check digit/i);
			expect(containerNumbersIn(answer)).toEqual(expect.arrayContaining([mistyped]));
			const runs = await storedExecutions(n8n, ctx.workflowId(CHAT.id));
			expect(runs.map(({ status: state }) => state)).not.toContain('error');
		},
		TEST_TIMEOUT,
	);

	it(
		'the Slack variant: a signed mention runs the same agent, and its answer goes to the reply in the thread (which fails here: no Slack)',
		async () => {
			const question = `is ${held.number} on hold?`;
			script.push({
				question,
				calls: [
					{ tool: toolName('Container status'), arguments: { container_number: held.number } },
				],
			});
			const ts = '1765112345.000100';
			const body = JSON.stringify({
				type: 'event_callback',
				event: {
					type: 'app_mention',
					user: 'U0PERSON',
					text: `<@U0DESKBOT> ${question}`,
					ts,
					channel: 'C0DESK',
					event_ts: ts,
				},
			});
			const timestamp = String(Math.floor(Date.now() / 1000));
			const signature = `v0=${createHmac('sha256', SLACK_SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
			const response = await fetch(ctx.webhookUrl(SLACK.webhookId), {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Slack-Request-Timestamp': timestamp,
					'X-Slack-Signature': signature,
				},
				body,
			});
			expect(response.status).toBe(200);
			const [run] = await eventually(
				async () => {
					const runs = await storedExecutions(n8n, ctx.workflowId(SLACK.id));
					return runs.length > 0 && runs.every((each) => each.stoppedAt) ? runs : undefined;
				},
				{ timeoutMs: generous(QUESTION_QUIET_MS), intervalMs: 250, what: 'the mention to run' },
			);
			const result = await storedResult(n8n, ctx.n8nDir, run.id);
			const agentOutput = result.runData['AI Agent']?.[0]?.data?.main?.[0]?.[0]?.json as {
				output: string;
			};
			expect(containerNumbersIn(agentOutput.output)).toContain(held.number);
			// The agent's answer reached the reply; Slack itself is not here.
			expect(result.lastNodeExecuted).toBe('Slack: reply in thread');
			expect(result.error).toBeDefined();
			const [status] = toolAnswers(model.requests, question);
			expect(answerItems(status)[0]).toMatchObject({ number: held.number });
			// The prompt is the mention's text without the app's mention.
			const asked = model.requests.find(({ messages }) =>
				messages.some(({ role, content }) => role === 'user' && textOf(content).includes(question)),
			)!;
			expect(
				asked.messages.filter(({ role }) => role === 'user').map(({ content }) => textOf(content)),
			).toEqual([question]);
			process.stdout.write(
				`slack: the reply failed as expected: ${String(result.error?.message).slice(0, 200)}\n`,
			);
		},
		TEST_TIMEOUT,
	);
});

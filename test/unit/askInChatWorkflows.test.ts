/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the example workflows from disk and evaluates their expressions; the rules are for the published nodes */
// examples/ask-in-chat.json and ask-in-chat-slack.json as files (issue 61, point 3): the same
// tools, named and set the same, as the MCP example (container-desk-mcp.json), each connected to
// the agent as a tool and taking only what a person says; the model, the memory and the agent
// wired; the system message asking for the container numbers; the Slack variant's prompt
// without the app's mention, its memory and reply per thread. End to end, in a real n8n:
// test/e2e/askInChat.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

type Json = Record<string, unknown>;
interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Json;
	credentials?: Json;
}
interface Example {
	nodes: ExampleNode[];
	connections: Record<string, Record<string, Array<Array<{ node: string; type: string }>>>>;
}

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const load = (file: string) =>
	JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Example;
const chat = load('ask-in-chat.json');
const slack = load('ask-in-chat-slack.json');
const TOOL = 'n8n-nodes-container-tracking.containerTrackingTool';
const toolsOf = (example: Example) =>
	example.nodes
		.filter(({ type }) => type === TOOL)
		.map(({ name, type, typeVersion, parameters, credentials }) => ({
			name,
			type,
			typeVersion,
			parameters,
			credentials,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
const node = (example: Example, name: string) => {
	const found = example.nodes.find((each) => each.name === name);
	if (!found) throw new Error(`no node "${name}"`);
	return found;
};
/** The nodes connected into `target` by connections of `type`. */
const into = (example: Example, target: string, type: string) =>
	Object.entries(example.connections)
		.filter(([, outputs]) => (outputs[type] ?? []).flat().some(({ node: to }) => to === target))
		.map(([from]) => from)
		.sort();
/** Every `$fromAI('key', …)` a node's parameters hold. */
const fromAiKeys = (parameters: Json) =>
	[...JSON.stringify(parameters).matchAll(/\$fromAI\(\s*'([^']+)'/g)].map(([, key]) => key);
/** An n8n expression's value for the item `json` and the items of the nodes before (`$('X')`). */
function evaluate(expression: string, json: Json, nodes: Record<string, Json> = {}): unknown {
	const body = /^=\{\{([\s\S]*)\}\}$/.exec(expression)?.[1];
	if (!body) throw new Error(`not an expression: ${expression}`);
	return vm.runInNewContext(body, {
		$json: json,
		$: (name: string) => ({ item: { json: nodes[name] } }),
	});
}

describe('the Ask in chat examples as files', () => {
	it('have the same six tools, named and set the same, and so has the MCP example when it is there', () => {
		const tools = toolsOf(chat);
		expect(tools.map(({ name }) => name)).toEqual([
			'Boxes near last free day',
			'Boxes on hold',
			'Container events',
			'Container status',
			'Find numbers in text',
			'Track a number',
		]);
		expect(toolsOf(slack)).toEqual(tools);
		const mcp = path.join(EXAMPLES, 'container-desk-mcp.json');
		if (existsSync(mcp)) expect(toolsOf(load('container-desk-mcp.json'))).toEqual(tools);
	});

	it.each([
		['ask-in-chat.json', chat],
		['ask-in-chat-slack.json', slack],
	])(
		'%s: each tool, the model and the memory are connected to the agent; tools take only what a person says',
		(_file, example) => {
			const tools = toolsOf(example).map(({ name }) => name);
			expect(into(example, 'AI Agent', 'ai_tool')).toEqual([...tools].sort());
			expect(into(example, 'AI Agent', 'ai_languageModel')).toEqual(['OpenAI Chat Model']);
			expect(into(example, 'AI Agent', 'ai_memory')).toEqual(['Conversation memory']);
			for (const name of tools) {
				const keys = fromAiKeys(node(example, name).parameters);
				expect({ name, keys }).toEqual({
					name,
					keys: expect.arrayContaining([expect.any(String)]),
				});
				expect(keys.filter((key) => /(^|_)ids?$/i.test(key))).toEqual([]);
			}
			// The user picks a model credential of their own: the file names none.
			expect(node(example, 'OpenAI Chat Model').credentials).toBeUndefined();
			const system = String(
				(node(example, 'AI Agent').parameters.options as Json | undefined)?.systemMessage,
			);
			expect(system).toContain('Name every container you speak of by its number');
		},
	);

	it('the chat: a hosted chat for people signed in to this n8n, its memory per chat session', () => {
		expect(node(chat, 'When chat message received').parameters).toMatchObject({
			public: true,
			mode: 'hostedChat',
			authentication: 'n8nUserAuth',
		});
		expect(into(chat, 'AI Agent', 'main')).toEqual(['When chat message received']);
		// The memory's default session: the Chat Trigger's sessionId.
		expect(node(chat, 'Conversation memory').parameters.sessionIdType).toBeUndefined();
	});

	it("Slack: the prompt is the mention without the app's mention; memory and reply are per thread", () => {
		const agent = node(slack, 'AI Agent').parameters;
		expect(agent.promptType).toBe('define');
		const mention = {
			type: 'app_mention',
			text: '<@U0DESKBOT> is MSKU7654328 on hold?',
			channel: 'C0DESK',
			ts: '1765112345.000100',
		};
		expect(evaluate(String(agent.text), mention)).toBe('is MSKU7654328 on hold?');
		const inThread = { ...mention, ts: '1765112399.000200', thread_ts: mention.ts };
		const memory = node(slack, 'Conversation memory').parameters;
		expect(memory.sessionIdType).toBe('customKey');
		const reply = node(slack, 'Slack: reply in thread').parameters as {
			channelId: { value: string };
			text: string;
			otherOptions: { thread_ts: { replyValues: { thread_ts: string } } };
		};
		for (const event of [mention, inThread]) {
			const before = { 'On mention': event };
			// A mention in a thread continues it; one in the channel starts a thread under it.
			expect(evaluate(String(memory.sessionKey), event, before)).toBe(mention.ts);
			expect(evaluate(reply.otherOptions.thread_ts.replyValues.thread_ts, {}, before)).toBe(
				mention.ts,
			);
			expect(evaluate(reply.channelId.value, {}, before)).toBe('C0DESK');
		}
		expect(evaluate(reply.text, { output: 'MSKU7654328: customs hold' })).toBe(
			'MSKU7654328: customs hold',
		);
		expect(into(slack, 'Slack: reply in thread', 'main')).toEqual(['AI Agent']);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The example "Container desk over MCP" (examples/container-desk-mcp.json) as a test or a bench
// runs it: under paths of its own (one n8n may serve several copies: the main and drift projects
// share one), beside a workflow that answers Container → Get, Get Many and Get Transport Events
// over a Webhook node, for comparing the tools' answers with the node's in a workflow; and a real
// MCP client (the protocol's official TypeScript SDK) that connects to it.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The SDK's subpaths are "exports" of its package, which the linter's resolver does not read
// (tsconfig.test.json maps them for the type check; jest reads them).
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const DESK_FILE = 'container-desk-mcp.json';
export const DESK_TRIGGER = 'Container desk';
export const TOOL_TYPE = 'n8n-nodes-container-tracking.containerTrackingTool';
/** The example's Bearer Auth credential, as its trigger names it. */
export const DESK_CREDENTIAL = { id: 'ctDeskBearer', name: 'Container desk token' };

type Json = Record<string, unknown>;
interface ExampleNode {
	name: string;
	type: string;
	parameters: Json;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
}

/** The example as shipped. */
export function deskExample(): Json & { nodes: ExampleNode[] } {
	return JSON.parse(
		readFileSync(path.resolve(__dirname, '..', '..', 'examples', DESK_FILE), 'utf8'),
	) as Json & { nodes: ExampleNode[] };
}

/** The example, its trigger's path made unique with `suffix`: the path it serves under. */
export function deskWorkflow(suffix: string): { workflow: Json; path: string } {
	const workflow = deskExample();
	const trigger = workflow.nodes.find((node) => node.name === DESK_TRIGGER)!;
	const deskPath = `${String(trigger.parameters.path)}-${suffix}`;
	trigger.parameters = { ...trigger.parameters, path: deskPath };
	return { workflow, path: deskPath };
}

/** The tool names n8n gives the example's tool nodes (n8n-workflow's nodeNameToToolName). */
export function deskToolNames(): string[] {
	return deskExample()
		.nodes.filter((node) => node.type === TOOL_TYPE)
		.map((node) => node.name.replace(/[^a-zA-Z0-9_-]+/g, '_'));
}

/** A Bearer Auth credential for the desk's trigger, as n8n imports it. */
export function deskCredential(token: string) {
	return { ...DESK_CREDENTIAL, type: 'httpBearerAuth', data: { token } };
}

/** A random token, as a person would make one for the credential. */
export const newToken = () => `desk-${randomUUID()}${randomUUID()}`.replace(/-/g, '');

/**
 * The same operations as the desk's tools, in a workflow: a Webhook node (GET, answering with
 * every item of its last node) in front of each, the container number, customer and days taken
 * from the query. `paths` are what to GET under n8n's `/webhook/`.
 */
export function checkWorkflow(
	suffix: string,
	credential: { id: string; name: string },
): {
	workflow: Json;
	paths: { get: string; onHold: string; nearLastFreeDay: string; events: string };
} {
	const desk = deskExample();
	const tool = (name: string) => desk.nodes.find((node) => node.name === name)!;
	const paths = {
		get: `desk-check-get-${suffix}`,
		onHold: `desk-check-on-hold-${suffix}`,
		nearLastFreeDay: `desk-check-lfd-${suffix}`,
		events: `desk-check-events-${suffix}`,
	};
	// The tool's parameters, each $fromAI() read from the query instead.
	const fromQuery = (value: unknown): unknown => {
		if (typeof value === 'string')
			return value.replace(/\$fromAI\('([\w-]+)'[^}]*\)/g, (_, key: string) =>
				key === 'days' ? `Number($json.query.${key})` : `($json.query.${key} ?? '')`,
			);
		if (Array.isArray(value)) return value.map(fromQuery);
		if (value && typeof value === 'object')
			return Object.fromEntries(
				Object.entries(value).map(([name, inner]) => [name, fromQuery(inner)]),
			);
		return value;
	};
	const pairs: Array<[string, string]> = [
		['Container status', paths.get],
		['Boxes on hold', paths.onHold],
		['Boxes near last free day', paths.nearLastFreeDay],
		['Container events', paths.events],
	];
	const nodes: Json[] = [];
	const connections: Json = {};
	pairs.forEach(([name, webhookPath], index) => {
		const webhook = `Ask ${name}`;
		const node = `Container Tracking: ${name}`;
		nodes.push(
			{
				id: randomUUID(),
				name: webhook,
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, index * 200],
				webhookId: randomUUID(),
				parameters: {
					httpMethod: 'GET',
					path: webhookPath,
					responseMode: 'lastNode',
					responseData: 'allEntries',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: node,
				type: 'n8n-nodes-container-tracking.containerTracking',
				typeVersion: 1,
				position: [240, index * 200],
				parameters: fromQuery(tool(name).parameters),
				credentials: { containerTrackingApi: credential },
			},
		);
		connections[webhook] = { main: [[{ node, type: 'main', index: 0 }]] };
	});
	return {
		workflow: {
			id: `ctDeskCheck${suffix}`,
			name: `Desk check ${suffix}`,
			nodes,
			connections,
			active: false,
			settings: { executionOrder: 'v1' },
		},
		paths,
	};
}

/** A connected MCP client of the desk at `url`, sending `token` as its bearer token (none: no header). */
export async function connectDesk(url: string, token?: string): Promise<Client> {
	const client = new Client({ name: 'container-desk-test', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
	});
	await client.connect(transport);
	return client;
}

export interface ToolAnswer {
	/** The answer's text, as the model reads it. */
	text: string;
	/** The text read as JSON, when it is. */
	json: unknown;
	/** Whether the MCP server flagged the answer as an error. */
	isError: boolean;
	/** The text's size in bytes (UTF-8). */
	bytes: number;
}

/** Calls `tool` with `args`, as a model would; the answer's text and what it holds. */
export async function callTool(
	client: Client,
	tool: string,
	args: Json,
	timeoutMs: number,
): Promise<ToolAnswer> {
	const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
		timeout: timeoutMs,
	})) as { content?: Array<{ type: string; text?: string }>; isError?: boolean };
	const text = (result.content ?? [])
		.filter((part) => part.type === 'text')
		.map((part) => part.text ?? '')
		.join('\n');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { text, json, isError: result.isError === true, bytes: Buffer.byteLength(text, 'utf8') };
}

/** The items of an answer: the tool's (a JSON list of the node's items) or a workflow's. */
export function itemsOfAnswer(json: unknown): Json[] {
	if (Array.isArray(json)) return json as Json[];
	if (json && typeof json === 'object') return [json as Json];
	return [];
}

/** The answer's item that says what went wrong in words (`{ error: "…" }`), if any. */
export function errorSentence(answer: ToolAnswer): string | undefined {
	const failed = itemsOfAnswer(answer.json).find((item) => typeof item.error === 'string');
	if (failed) return failed.error as string;
	return answer.isError ? answer.text : undefined;
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test server; the rule is for the published nodes */
// A scripted stand-in for a chat model, speaking OpenAI's chat completions API (what n8n's OpenAI
// Chat Model node calls at its credential's Base URL). It is no model: it understands nothing.
// Each turn of its script pairs a question a person would type with the tool calls that question
// implies; asked that question, it calls those tools (checking that the agent offers each), and
// once the agent sends back the tools' answers, it replies with a text that names the container
// numbers those answers name. It proves the wiring (Chat Trigger → AI Agent → model → the
// package's tools → the service → the answer in the chat) with the real agent and the real
// tools; what a real model would make of the answers is not tested here (docs/design/examples.md).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One function call the script makes: a tool as the agent names it, and its arguments. */
export interface ScriptedCall {
	tool: string;
	arguments: Record<string, unknown>;
}

export interface ScriptedTurn {
	/** The question, as the person types it: the turn whose question the user message contains. */
	question: string;
	/** The tools the question implies, called together in one answer. */
	calls: ScriptedCall[];
}

/** A chat completions request as the agent sends it (the fields read here). */
export interface CompletionRequest {
	model: string;
	stream?: boolean;
	messages: Array<{
		role: string;
		content: string | null | Array<{ type: string; text?: string }>;
		tool_call_id?: string;
		tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	}>;
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: Record<string, unknown> };
	}>;
}

export interface ScriptedModel {
	/** The Base URL for n8n's OpenAI credential, e.g. http://127.0.0.1:41234/v1 */
	url: string;
	/** Every completions request received, in order. */
	requests: CompletionRequest[];
	/** What went wrong in the script (a question it has no turn for, a tool not offered). */
	problems: string[];
	stop(): Promise<void>;
}

/** The text of a message's content, whichever of OpenAI's two shapes it has. */
export function textOf(content: CompletionRequest['messages'][number]['content']): string {
	if (typeof content === 'string') return content;
	return (content ?? []).map((part) => part.text ?? '').join('');
}

/** ISO 6346 container numbers in a text (the check digit unchecked). */
export const containerNumbersIn = (text: string): string[] => [
	...new Set(text.toUpperCase().match(/\b[A-Z]{4}\d{7}\b/g) ?? []),
];

/** The scripted reply to one request: tool calls, or the final text. */
function reply(
	script: readonly ScriptedTurn[],
	request: CompletionRequest,
	callIds: () => string,
): { toolCalls?: Array<{ id: string; name: string; arguments: string }>; text?: string } {
	const messages = request.messages ?? [];
	const lastUser = messages.map(({ role }) => role).lastIndexOf('user');
	if (lastUser < 0) throw new Error('the agent sent no user message');
	const asked = textOf(messages[lastUser].content);
	const turn = script.find(({ question }) => asked.includes(question));
	if (!turn) throw new Error(`the script has no turn for the question ${JSON.stringify(asked)}`);
	const answers = messages.slice(lastUser + 1).filter(({ role }) => role === 'tool');
	if (answers.length === 0) {
		const offered = (request.tools ?? []).map(({ function: { name } }) => name);
		const missing = turn.calls.filter(({ tool }) => !offered.includes(tool));
		if (missing.length > 0)
			throw new Error(
				`the agent offers no tool ${missing.map(({ tool }) => tool).join(', ')} (it offers ${offered.join(', ') || 'none'})`,
			);
		return {
			toolCalls: turn.calls.map((call) => ({
				id: callIds(),
				name: call.tool,
				arguments: JSON.stringify(call.arguments),
			})),
		};
	}
	// The final text names the numbers the question and the tools' answers name, as the example's
	// system message asks a model to.
	const numbers = containerNumbersIn(
		[asked, ...answers.map(({ content }) => textOf(content))].join('\n'),
	);
	return {
		text: `(scripted) ${numbers.length > 0 ? numbers.join(', ') : 'No container'}: ${answers.length} tool answer(s) read.`,
	};
}

/** Starts the scripted model on a free port of 127.0.0.1. */
export async function startScriptedModel(script: readonly ScriptedTurn[]): Promise<ScriptedModel> {
	let calls = 0;
	const callIds = () => `call_${++calls}`;
	const model: ScriptedModel = {
		url: '',
		requests: [],
		problems: [],
		stop: async () => undefined,
	};
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const send = (status: number, body: unknown) => {
				response.writeHead(status, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify(body));
			};
			const pathname = (request.url ?? '').split('?')[0];
			if (request.method === 'GET' && pathname.endsWith('/models')) {
				send(200, {
					object: 'list',
					data: [{ id: 'scripted', object: 'model', owned_by: 'test' }],
				});
				return;
			}
			if (request.method !== 'POST' || !pathname.endsWith('/chat/completions')) {
				send(404, { error: { message: `no ${request.method} ${pathname} here` } });
				return;
			}
			let body: CompletionRequest;
			let answer: ReturnType<typeof reply>;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CompletionRequest;
				model.requests.push(body);
				answer = reply(script, body, callIds);
			} catch (error) {
				const message = (error as Error).message;
				model.problems.push(message);
				send(400, { error: { message, type: 'invalid_request_error' } });
				return;
			}
			const id = `chatcmpl-${model.requests.length}`;
			const created = Math.floor(Date.now() / 1000);
			const finish = answer.toolCalls ? 'tool_calls' : 'stop';
			const toolCalls = answer.toolCalls?.map((call, index) => ({
				index,
				id: call.id,
				type: 'function',
				function: { name: call.name, arguments: call.arguments },
			}));
			const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
			if (!body.stream) {
				send(200, {
					id,
					object: 'chat.completion',
					created,
					model: body.model,
					choices: [
						{
							index: 0,
							message: { role: 'assistant', content: answer.text ?? null, tool_calls: toolCalls },
							finish_reason: finish,
						},
					],
					usage,
				});
				return;
			}
			// Streamed: the same answer in one delta, then the finish and [DONE].
			response.writeHead(200, { 'Content-Type': 'text/event-stream' });
			const chunk = (delta: unknown, finishReason: string | null) =>
				`data: ${JSON.stringify({
					id,
					object: 'chat.completion.chunk',
					created,
					model: body.model,
					choices: [{ index: 0, delta, finish_reason: finishReason }],
				})}\n\n`;
			response.write(
				chunk({ role: 'assistant', content: answer.text ?? null, tool_calls: toolCalls }, null),
			);
			response.write(chunk({}, finish));
			response.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`,
			);
			response.end('data: [DONE]\n\n');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	model.stop = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return model;
}

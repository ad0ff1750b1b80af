// The example "Container desk over MCP" (examples/container-desk-mcp.json) in a real n8n, asked
// by a real MCP client (the protocol's official TypeScript SDK) as an assistant asks it: the
// tools it lists, each called with what a person says, over a sandbox that moves between rounds.
// Every answer is held to what the same operation answers in a workflow (Container → Get, Get
// Many, Get Transport Events behind a Webhook node) for the same boxes at the same moment: a
// round whose boxes the sandbox changed while it was asked is asked again. A mistyped number, an
// unknown box, the service answering 500 or 429 for a while: each an answer in words, and the
// next call works. Without the bearer token the client is refused. It shares the run's n8n.
import { randomUUID } from 'node:crypto';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { IDataObject } from 'n8n-workflow';

import { toolAnswer } from '../../nodes/ContainerTracking/actions/tool';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import type { Resource } from '../../sandbox/world/store';
import { byClock, generous } from '../support/bounds';
import {
	callTool,
	checkWorkflow,
	connectDesk,
	deskCredential,
	deskToolNames,
	deskWorkflow,
	errorSentence,
	itemsOfAnswer,
	newToken,
	type ToolAnswer,
} from '../support/mcpDesk';
import { eventually } from '../support/sandbox';
import {
	sandboxCredential,
	SETUP_TIMEOUT,
	startE2e,
	storedExecutions,
	TEARDOWN_TIMEOUT,
	type E2eContext,
} from './helpers';

type Json = Record<string, unknown>;

/** The credential of the workflow the tools are held to: a key of its own. */
const CHECKS = { id: 'ctDeskChecks', name: 'Container Tracking desk checks' };

/** One tool call on a quiet machine: a read or two of the sandbox inside n8n, well under a second. */
const CALL_QUIET_MS = 1_000;
/**
 * The service's rate limits count calls per API key over a rolling minute; the node waits for
 * its key's window rather than be refused, so any call may wait up to a window.
 */
const RATE_WINDOW_MS = 60_000;
/** One call, a tool's or a workflow's. */
const CALL_MS = byClock(RATE_WINDOW_MS) + generous(CALL_QUIET_MS);
/** A tool rides out 10 s of faults before it answers in words (actions/tool.ts); a Retry-After of 12 s. */
const FAULTED_CALL_MS = byClock(RATE_WINDOW_MS + 10_000 + 12_000) + generous(CALL_QUIET_MS);
/** A test of a few dozen calls: the windows they may fill, and the calls themselves. */
const ROUNDS_TIMEOUT = byClock(2 * RATE_WINDOW_MS) + generous(40 * CALL_QUIET_MS);
const ROUNDS = 3;
/** The boxes asked about in each round: enough to see the sandbox move, few calls a minute. */
const BOXES_A_ROUND = 4;

/**
 * A workflow's items as the tool answers them (actions/tool.ts: no nulls, no related ids), less
 * what only the moment of the read changes: when the state was the service's.
 */
function comparable(items: Json[]): Json[] {
	return items.map((item) =>
		Object.fromEntries(
			Object.entries(toolAnswer(item as IDataObject)).filter(
				([name]) => name !== 'container_as_of',
			),
		),
	);
}

describe('e2e: Container desk over MCP (examples/container-desk-mcp.json)', () => {
	let ctx: E2eContext;
	let n8n: { url: string; cookie: string };
	let deskId: string;
	let deskUrl: string;
	let token: string;
	let client: Client;
	let checks: ReturnType<typeof checkWorkflow>['paths'];

	/** The boxes the sandbox tracks: id and number. */
	const boxes = () =>
		ctx.handle.sandbox.world.store
			.list('container')
			.map((container) => ({ id: container.id, number: String(container.attributes.number) }));

	/** What the sandbox serves for a box now (its container and shipment): a round's witness. */
	const served = (containerId: string): string => {
		const container = ctx.handle.served('container', containerId);
		const shipmentId = (container.relationships?.shipment?.data as { id: string } | undefined)?.id;
		const events = ctx.handle.sandbox.world.store
			.list('transport_event')
			.filter(
				(event) =>
					(event.relationships?.container?.data as { id: string } | undefined)?.id === containerId,
			).length;
		return JSON.stringify([
			container,
			shipmentId ? ctx.handle.served('shipment', shipmentId) : null,
			events,
		]);
	};
	const servedAll = () =>
		boxes()
			.map(({ id }) => served(id))
			.join('\n');

	const ask = (tool: string, args: Json, timeoutMs = CALL_MS) =>
		callTool(client, tool, args, timeoutMs);

	/** The same operation in a workflow: the Webhook node's answer, every item of its last node. */
	const inWorkflow = async (webhookPath: string, query: Record<string, string>) => {
		const response = await fetch(
			`${n8n.url}/webhook/${webhookPath}?${new URLSearchParams(query).toString()}`,
			{ signal: AbortSignal.timeout(CALL_MS) },
		);
		expect(response.status).toBe(200);
		return itemsOfAnswer(await response.json());
	};

	/** Asks `round` until the sandbox served the same before and after it; its result. */
	const atOneMoment = async <T>(witness: () => string, round: () => Promise<T>): Promise<T> => {
		for (let attempt = 0; attempt < 5; attempt++) {
			const before = witness();
			const result = await round();
			if (witness() === before) return result;
		}
		throw new Error('the sandbox changed during every one of 5 attempts');
	};

	/** A tool's items less when their state was the service's. */
	const strip = (items: Json[]) =>
		items.map((item) =>
			Object.fromEntries(Object.entries(item).filter(([name]) => name !== 'container_as_of')),
		);

	const worked = (answer: ToolAnswer): Json[] => {
		expect({ error: errorSentence(answer), isError: answer.isError }).toEqual({
			error: undefined,
			isError: false,
		});
		return itemsOfAnswer(answer.json);
	};

	beforeAll(async () => {
		// A key each for the tools and for the workflow they are held to, of this file only: the
		// rate limits are per key, and n8n's pacing too (the shared n8n serves other files).
		const keys = { tools: `desk-tools-${randomUUID()}`, checks: `desk-checks-${randomUUID()}` };
		ctx = await startE2e({
			sandbox: { trackingDelaySeconds: 0, extraApiKeys: [keys.tools, keys.checks] },
		});
		// The demo's boxes: two customers, a bill of lading of several containers, references, tags.
		expect((await ctx.handle.control.post('/demo/start')).status).toBe(201);
		await eventually(() => (boxes().length >= 3 ? true : undefined), {
			what: "the demo's containers",
		});
		const suffix = randomUUID().slice(0, 8);
		token = newToken();
		await ctx.importCredentials([
			sandboxCredential(keys.tools),
			{ ...CHECKS, apiKey: keys.checks },
		]);
		await ctx.importCredentialRecord(deskCredential(token));
		const desk = deskWorkflow(suffix);
		const check = checkWorkflow(suffix, CHECKS);
		await ctx.importWorkflows([desk.workflow, check.workflow]);
		await ctx.activate(String(desk.workflow.id));
		await ctx.activate(String(check.workflow.id));
		n8n = await ctx.start();
		deskId = ctx.workflowId(String(desk.workflow.id));
		checks = check.paths;
		// n8n serves the MCP Server Trigger under /mcp/ (N8N_ENDPOINT_MCP).
		deskUrl = `${n8n.url}/mcp/${desk.path}`;
		client = await connectDesk(deskUrl, token);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await client?.close();
		await ctx?.stop();
	}, TEARDOWN_TIMEOUT);

	it('lists its six tools by the names of their nodes, each saying when to use it and taking what a person says', async () => {
		const { tools } = await client.listTools();
		expect(tools.map((tool) => tool.name).sort()).toEqual(deskToolNames().sort());
		const parameters = Object.fromEntries(
			tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {}).sort()]),
		);
		expect(parameters).toEqual({
			Container_status: ['container_number'],
			Container_events: ['container_number'],
			Boxes_on_hold: ['customer'],
			Boxes_near_last_free_day: ['customer', 'days'],
			Find_numbers_in_text: ['text'],
			Track_a_number: ['number'],
		});
		for (const tool of tools) {
			// One or two sentences: when to use it, and what it answers.
			expect([tool.name, tool.description]).toEqual([
				tool.name,
				expect.stringMatching(/\bwhen\b/i),
			]);
			expect([tool.name, tool.description]).toEqual([
				tool.name,
				expect.stringMatching(/\breturns?\b/i),
			]);
			// Never an internal id: each parameter is a number, a name, a text or a count.
			for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
				expect([tool.name, name]).not.toEqual([tool.name, expect.stringMatching(/(^|_)ids?$/i)]);
				const said = String((schema as { description?: string }).description ?? '');
				expect([tool.name, name, said]).not.toEqual([
					tool.name,
					name,
					expect.stringMatching(/\bID\b|UUID/),
				]);
			}
		}
	});

	it(
		'answers the status of each box by its number as Container → Get does at the same moment, while the sandbox moves between rounds',
		async () => {
			const seen = new Map<string, Set<string>>();
			for (let round = 0; round < ROUNDS; round++) {
				if (round > 0) {
					const move = await ctx.handle.control.post('/demo/next', { gap_seconds: 0 });
					expect(move.status).toBe(200);
				}
				for (const box of boxes().slice(0, BOXES_A_ROUND)) {
					const [tool, workflow] = await atOneMoment(
						() => served(box.id),
						async () => [
							worked(await ask('Container_status', { container_number: box.number })),
							await inWorkflow(checks.get, { container_number: box.number }),
						],
					);
					expect(tool).toHaveLength(1);
					expect(tool[0].number).toBe(box.number);
					expect(strip(tool)).toEqual(comparable(workflow));
					const states = seen.get(box.number) ?? new Set();
					states.add(JSON.stringify(strip(tool)));
					seen.set(box.number, states);
				}
			}
			// The sandbox did move: some box was answered in more than one state.
			expect([...seen.values()].some((states) => states.size > 1)).toBe(true);
		},
		ROUNDS_TIMEOUT,
	);

	it(
		"answers a customer's boxes on hold and near their last free day as Container → Get Many does, and as Get of every box says",
		async () => {
			// A customs hold on a box that can have one (not gone from the terminal), so that the
			// hold list is not empty.
			const held = await eventually(
				async () => {
					for (const box of boxes()) {
						const placed = await ctx.handle.control.post(`/containers/${box.id}/changes`, {
							kind: 'place_hold',
							name: 'customs',
							status: 'hold',
							description: 'CBP documents under review',
						});
						if (placed.status === 200) return box;
					}
					return undefined;
				},
				{ what: 'a box that can be held' },
			);
			const customerOf = (box: { id: string }) => {
				const container = ctx.handle.served('container', box.id);
				const shipmentId = (container.relationships?.shipment?.data as { id: string }).id;
				const name = ctx.handle.served('shipment', shipmentId).attributes.customer_name;
				return typeof name === 'string' ? name : '';
			};
			const customers = [...new Set([customerOf(held), ...boxes().map(customerOf)])].filter(
				Boolean,
			);
			expect(customers.length).toBeGreaterThan(0);
			// As a person says it: part of the name, in their own case; and every customer.
			const asSaid = [customers[0].split(' ')[0].toLowerCase(), ...customers.slice(1), ''];
			for (const customer of asSaid) {
				const answers = await atOneMoment(servedAll, async () => ({
					onHold: worked(await ask('Boxes_on_hold', { customer })),
					near: worked(await ask('Boxes_near_last_free_day', { customer, days: 3 })),
					onHoldInWorkflow: await inWorkflow(checks.onHold, { customer }),
					nearInWorkflow: await inWorkflow(checks.nearLastFreeDay, { customer, days: '3' }),
					each: await Promise.all(
						boxes().map(async (box) => ({
							box,
							item: (await inWorkflow(checks.get, { container_number: box.number }))[0],
						})),
					),
				}));
				expect(strip(answers.onHold)).toEqual(comparable(answers.onHoldInWorkflow));
				expect(strip(answers.near)).toEqual(comparable(answers.nearInWorkflow));
				const whose = (item: Json) =>
					String(item.customer_name ?? '')
						.toLowerCase()
						.includes(customer.toLowerCase());
				const onHold = answers.each
					.filter(({ item }) => whose(item) && (item.active_holds as unknown[]).length > 0)
					.map(({ box }) => box.number)
					.sort();
				expect(answers.onHold.map((item) => item.number).sort()).toEqual(onHold);
				// Each box the tool names is as Container → Get gives it.
				for (const item of answers.onHold) {
					const got = answers.each.find(({ box }) => box.number === item.number)!.item;
					expect(strip([item])).toEqual(comparable([got]));
				}
				if (customer === '' || whose({ customer_name: customerOf(held) }))
					expect(onHold).toContain(held.number);
			}
		},
		ROUNDS_TIMEOUT,
	);

	it(
		"answers a box's transport events as Container → Get Transport Events does",
		async () => {
			for (const box of boxes().slice(0, 3)) {
				const { tool, workflow } = await atOneMoment(
					() => served(box.id),
					async () => ({
						tool: worked(await ask('Container_events', { container_number: box.number })),
						workflow: await inWorkflow(checks.events, { container_number: box.number }),
					}),
				);
				expect(tool).toEqual(workflow.map((event) => toolAnswer(event as IDataObject)));
				for (const event of tool) expect(event.container_number).toBe(box.number);
			}
		},
		ROUNDS_TIMEOUT,
	);

	it(
		'finds the numbers in a pasted text, tracks a new one, and then answers its status',
		async () => {
			const [first, second] = boxes();
			const mistyped = `${first.number.slice(0, 10)}${(Number(first.number[10]) + 1) % 10}`;
			const fresh = withCheckDigit(`MAEU${String(Date.now()).slice(-6)}`);
			const text = `Hi team, the arrival notice lists ${first.number} and ${second.number.toLowerCase()}, and ${mistyped} (typo?). Please also track ${fresh}. Thanks`;
			const [found] = worked(await ask('Find_numbers_in_text', { text }));
			const numbers = found.numbers as Json[];
			const verdict = (number: string) => numbers.find((item) => item.number === number)?.is_valid;
			expect([verdict(first.number), verdict(second.number), verdict(fresh)]).toEqual([
				true,
				true,
				true,
			]);
			expect(verdict(mistyped)).toBe(false);

			const [tracked] = worked(await ask('Track_a_number', { number: fresh }));
			expect(tracked.request_number).toBe(fresh);
			const container = await eventually(
				() =>
					ctx.handle.sandbox.world.store
						.list('container')
						.find((record: Resource) => record.attributes.number === fresh),
				{ what: `the sandbox to track ${fresh}` },
			);
			expect(container.attributes.number).toBe(fresh);
			const [status] = worked(await ask('Container_status', { container_number: fresh }));
			expect(status.number).toBe(fresh);
			// Asked again: already tracked, not an error.
			const [again] = worked(await ask('Track_a_number', { number: fresh }));
			expect(again.already_tracked).toBe(true);
		},
		ROUNDS_TIMEOUT,
	);

	it(
		'answers a mistyped number and an unknown box in words, and the next call works',
		async () => {
			const box = boxes()[0];
			const mistyped = `${box.number.slice(0, 10)}${(Number(box.number[10]) + 1) % 10}`;
			const wrong = await ask('Container_status', { container_number: mistyped });
			const said = errorSentence(wrong);
			expect(said).toEqual(expect.stringContaining(mistyped));
			expect(said).toMatch(/check digit/i);
			expect(said).toEqual(expect.stringContaining(box.number));

			const unknown = withCheckDigit('MAEU999999');
			const notTracked = errorSentence(
				await ask('Container_status', { container_number: unknown }),
			);
			expect(notTracked).toEqual(expect.stringContaining(unknown));
			expect(notTracked).toMatch(/track/i);

			const [status] = worked(await ask('Container_status', { container_number: box.number }));
			expect(status.number).toBe(box.number);

			// Each call is an execution of the desk's workflow: none of them failed.
			const executions = await eventually(
				async () => {
					const stored = await storedExecutions(n8n, deskId);
					return stored.length >= 3 && stored.every(({ stoppedAt }) => stoppedAt)
						? stored
						: undefined;
				},
				{ what: "the desk's executions" },
			);
			expect(executions.filter(({ status: ended }) => ended !== 'success')).toEqual([]);
		},
		generous(10 * CALL_QUIET_MS),
	);

	it(
		'answers in words while the service answers 500, then 429, and the next call works',
		async () => {
			const box = boxes()[0];
			ctx.handle.sandbox.outage.start({ seconds: 120, kind: '500' });
			let down: string | undefined;
			try {
				down = errorSentence(
					await ask('Container_status', { container_number: box.number }, FAULTED_CALL_MS),
				);
			} finally {
				ctx.handle.sandbox.outage.end();
			}
			expect(down).toMatch(/500|not answering|down/i);
			expect(
				worked(await ask('Container_status', { container_number: box.number }, FAULTED_CALL_MS))[0]
					.number,
			).toBe(box.number);

			const limited = await ctx.handle.control.post('/faults', {
				path: '/*',
				kind: 'rate_limited',
				retry_after: 12,
				rate: 1,
			});
			expect(limited.status).toBe(201);
			let slowDown: string | undefined;
			try {
				slowDown = errorSentence(
					await ask('Container_status', { container_number: box.number }, FAULTED_CALL_MS),
				);
			} finally {
				await ctx.handle.control.delete('/faults');
			}
			expect(slowDown).toMatch(/429|rate limit|too many/i);
			expect(
				worked(await ask('Container_status', { container_number: box.number }, FAULTED_CALL_MS))[0]
					.number,
			).toBe(box.number);
		},
		4 * FAULTED_CALL_MS,
	);

	it('refuses a client without the bearer token, or with another', async () => {
		await expect(connectDesk(deskUrl)).rejects.toThrow();
		await expect(connectDesk(deskUrl, newToken())).rejects.toThrow();
		const bare = await fetch(deskUrl, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream',
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: {
					protocolVersion: '2025-03-26',
					capabilities: {},
					clientInfo: { name: 'no-token', version: '1' },
				},
			}),
		});
		expect([401, 403]).toContain(bare.status);
		// The client with the token still works.
		expect((await client.listTools()).tools.length).toBe(6);
	});
});

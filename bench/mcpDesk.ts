/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions */
/**
 * The Container desk over MCP (examples/container-desk-mcp.json) in a real n8n with the packed
 * package (`npm run bench:mcp`), against the sandbox with the demo's containers and 20 more:
 *
 * 1. Size, per container: the answer of the tool `Container_status` as the MCP client receives it
 *    (its text, UTF-8 bytes) beside the service's raw container record, alone and as the document
 *    Container → Get reads (with its shipment, port terminal and pickup facility). Likewise the
 *    answer of `Container_events` beside the raw transport events it was made from.
 * 2. Time: a tool call through the MCP Server Trigger (the client's round trip) beside Container →
 *    Get in a workflow behind n8n's Webhook node (an HTTP round trip too), in the same n8n, the
 *    same boxes in turn, alternating, after a warm-up.
 *
 * Written to bench/results/mcpDesk.json and mcpDesk.md. MCP_BENCH_CALLS sets the calls of each
 * kind (60).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { withCheckDigit } from '../sandbox/world/containerNumbers';
import { credentialRecord, OWNER, sandboxCredential } from '../test/e2e/helpers';
import {
	callTool,
	checkWorkflow,
	connectDesk,
	deskCredential,
	deskWorkflow,
	itemsOfAnswer,
	newToken,
} from '../test/support/mcpDesk';
import { eventually, startTestSandbox, trackManyContainers } from '../test/support/sandbox';
import { checkedCli, n8nScripts, singleN8n } from './deployments';
import { median } from './timing';

const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 40);
/** The service's rate limits are per API key over a rolling minute (logic/rateLimits.ts). */
const RATE_WINDOW_MS = 60_000;
const EXTRA_BOXES = 20;
/** A tool call or a workflow run; the bench fails rather than waiting longer. */
const CALL_TIMEOUT_MS = 60_000;
/** n8n activating its published workflows after it started: seconds; the bench fails after this. */
const ACTIVATION_MS = 60_000;

/** A key each for the desk's tools and for the workflow they are timed beside. */
const KEYS = { tools: 'bench-desk-tools', checks: 'bench-desk-checks' };
const CHECKS = { id: 'ctDeskChecks', name: 'Container Tracking desk checks' };

const bytes = (value: unknown) =>
	Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
const percentile = (values: number[], share: number) =>
	[...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))];
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function main() {
	const lib = await n8nScripts();
	const handle = await startTestSandbox({
		trackingDelaySeconds: 0,
		extraApiKeys: [KEYS.tools, KEYS.checks],
	});
	const deployment = await singleN8n();
	try {
		await handle.control.post('/demo/start');
		await trackManyContainers(
			handle,
			Array.from({ length: EXTRA_BOXES }, (_, index) =>
				withCheckDigit(`MSCU${String(730000 + index).padStart(6, '0')}`),
			),
			'MSCU',
		);
		// Boxes in the states a desk asks about: the demo's on their ships, and of the others a
		// quarter each at the end of their journey (empty returned), ready at the terminal, held
		// by customs there, and owing demurrage.
		const boxes = handle.sandbox.world.store
			.list('container')
			.map((container) => ({ id: container.id, number: String(container.attributes.number) }));
		const extra = boxes.filter(({ number }) => number.startsWith('MSCU73'));
		for (const [index, box] of extra.entries()) {
			const play = (scenario: string) =>
				handle.control.post(`/containers/${box.id}/scenarios/${scenario}`, { gap_seconds: 0 });
			if (index % 4 === 0) await play('journey');
			else await play('ready_for_pickup');
			if (index % 4 === 2)
				await handle.control.post(`/containers/${box.id}/changes`, {
					kind: 'place_hold',
					name: 'customs',
					status: 'hold',
					description: 'CBP documents under review',
				});
			if (index % 4 === 3) await play('demurrage');
		}

		const token = newToken();
		const folder = mkdtempSync(path.join(os.tmpdir(), 'ct-mcp-bench-'));
		const credentialsFile = path.join(folder, 'credentials.json');
		writeFileSync(
			credentialsFile,
			JSON.stringify([
				credentialRecord(handle, sandboxCredential(KEYS.tools)),
				credentialRecord(handle, { ...CHECKS, apiKey: KEYS.checks }),
				deskCredential(token),
			]),
		);
		const desk = deskWorkflow('bench');
		const check = checkWorkflow('bench', CHECKS);
		const workflowsFile = path.join(folder, 'workflows.json');
		writeFileSync(workflowsFile, JSON.stringify([desk.workflow, check.workflow]));
		await checkedCli(deployment, ['import:credentials', `--input=${credentialsFile}`]);
		await checkedCli(deployment, ['import:workflow', `--input=${workflowsFile}`]);
		for (const workflow of [desk.workflow, check.workflow])
			await checkedCli(deployment, lib.activateWorkflowArgs(String(workflow.id)));
		await deployment.start();
		await lib.login(deployment.restBase, OWNER.email, OWNER.password);

		// n8n activates published workflows just after it serves: the desk answers once it has.
		const client = await eventually(
			() => connectDesk(`${deployment.restBase}/mcp/${desk.path}`, token).catch(() => undefined),
			{ timeoutMs: ACTIVATION_MS, intervalMs: 500, what: 'the desk to be published' },
		);
		const status = (number: string) =>
			callTool(client, 'Container_status', { container_number: number }, CALL_TIMEOUT_MS);
		const inWorkflow = async (number: string) => {
			const response = await fetch(
				`${deployment.webhookBase}/webhook/${check.paths.get}?container_number=${number}`,
				{ signal: AbortSignal.timeout(CALL_TIMEOUT_MS) },
			);
			if (response.status !== 200) throw new Error(`the workflow answered ${response.status}`);
			return await response.text();
		};

		// 1. Sizes.
		const sizes = [];
		for (const box of boxes) {
			const answer = await status(box.number);
			const items = itemsOfAnswer(answer.json);
			if (items.length !== 1 || items[0].error !== undefined)
				throw new Error(`Container_status ${box.number}: ${answer.text.slice(0, 300)}`);
			const document = (
				await handle.api.get(`/containers/${box.id}`, {
					params: { include: 'shipment,pod_terminal,pickup_facility' },
				})
			).data;
			const events = await callTool(
				client,
				'Container_events',
				{ container_number: box.number },
				CALL_TIMEOUT_MS,
			);
			if (itemsOfAnswer(events.json).some((item) => item.error !== undefined))
				throw new Error(`Container_events ${box.number}: ${events.text.slice(0, 300)}`);
			const rawEvents = (
				await handle.api.get(`/containers/${box.id}/transport_events`, {
					params: { 'page[size]': 100, include: 'location,terminal,vessel' },
				})
			).data;
			sizes.push({
				number: box.number,
				status: String(items[0].current_status),
				tool_answer_bytes: answer.bytes,
				raw_record_bytes: bytes(document.data),
				raw_document_bytes: bytes(document),
				events: itemsOfAnswer(events.json).length,
				events_answer_bytes: events.bytes,
				raw_events_bytes: bytes(rawEvents),
			});
		}

		// 2. Times, alternating, the same boxes in turn, after a warm-up of each. The sizes' calls
		// filled the tools' key's rate window (100 calls a minute): it empties first, so that no
		// call waits for it; the workflow has a key of its own, and the calls below stay under it.
		await new Promise((resolve) => setTimeout(resolve, RATE_WINDOW_MS));
		await status(boxes[0].number);
		await inWorkflow(boxes[0].number);
		const toolMs: number[] = [];
		const workflowMs: number[] = [];
		for (let index = 0; index < CALLS; index++) {
			const number = boxes[index % boxes.length].number;
			let started = performance.now();
			await status(number);
			toolMs.push(performance.now() - started);
			started = performance.now();
			await inWorkflow(number);
			workflowMs.push(performance.now() - started);
		}
		await client.close();

		const summary = (values: number[]) => ({
			median_ms: round(median(values)),
			p90_ms: round(percentile(values, 0.9)),
			max_ms: round(Math.max(...values)),
		});
		const answerBytes = sizes.map((row) => row.tool_answer_bytes);
		const result = {
			date: new Date().toISOString(),
			commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
			n8n: lib.N8N_VERSION,
			node: process.version,
			containers: sizes.length,
			calls: CALLS,
			sizes,
			size_summary: {
				tool_answer_median_bytes: median(answerBytes),
				tool_answer_max_bytes: Math.max(...answerBytes),
				raw_record_median_bytes: median(sizes.map((row) => row.raw_record_bytes)),
				raw_document_median_bytes: median(sizes.map((row) => row.raw_document_bytes)),
			},
			times: {
				tool_call_through_mcp: summary(toolMs),
				container_get_in_a_workflow: summary(workflowMs),
			},
		};
		rmSync(folder, { recursive: true, force: true });
		const directory = path.join(__dirname, 'results');
		mkdirSync(directory, { recursive: true });
		writeFileSync(path.join(directory, 'mcpDesk.json'), `${JSON.stringify(result, null, 2)}\n`);
		const lines = [
			'# Container desk over MCP: answer sizes and call times',
			'',
			`Measured ${result.date} at ${result.commit} by \`npm run bench:mcp\` (bench/mcpDesk.ts), in a real`,
			`n8n ${result.n8n} with the packed package (one n8n, SQLite), against the sandbox with the demo's`,
			`containers on their ships and ${EXTRA_BOXES} more: a quarter each empty returned, ready at the`,
			'terminal, held by customs there, and owing demurrage.',
			"Sizes are UTF-8 bytes: the tool's answer as the MCP client receives it (the text of its",
			'content), the raw record the service sends for the container (`data`), and the document',
			'Container → Get reads (the record with its shipment, port terminal and pickup facility).',
			'',
			'## Size per container',
			'',
			`Container_status: median ${result.size_summary.tool_answer_median_bytes} bytes, at most ${result.size_summary.tool_answer_max_bytes}; the raw record's median ${result.size_summary.raw_record_median_bytes}, the document's ${result.size_summary.raw_document_median_bytes}.`,
			'',
			'| Container | Status | Container_status answer | Raw record | Raw document | Events | Container_events answer | Raw events document |',
			'| --- | --- | --- | --- | --- | --- | --- | --- |',
			...sizes.map(
				(row) =>
					`| ${row.number} | ${row.status} | ${row.tool_answer_bytes} | ${row.raw_record_bytes} | ${row.raw_document_bytes} | ${row.events} | ${row.events_answer_bytes} | ${row.raw_events_bytes} |`,
			),
			'',
			'## Time per call',
			'',
			`${CALLS} calls of each, alternating, over the containers in turn, after one warm-up of each`,
			'and a minute for the rate window the sizes filled (a key each: no call waited for its window):',
			"the tool call is the MCP client's round trip (`tools/call` to `Container_status` through the",
			'MCP Server Trigger); Container → Get is a GET of a published workflow, Webhook node →',
			'Container → Get (the same parameters) answering with its item.',
			'',
			'| Call | Median (ms) | p90 (ms) | Max (ms) |',
			'| --- | --- | --- | --- |',
			`| Tool call through the MCP Server Trigger | ${result.times.tool_call_through_mcp.median_ms} | ${result.times.tool_call_through_mcp.p90_ms} | ${result.times.tool_call_through_mcp.max_ms} |`,
			`| Container → Get in a workflow (Webhook node) | ${result.times.container_get_in_a_workflow.median_ms} | ${result.times.container_get_in_a_workflow.p90_ms} | ${result.times.container_get_in_a_workflow.max_ms} |`,
			'',
		];
		writeFileSync(path.join(directory, 'mcpDesk.md'), lines.join('\n'));
		process.stdout.write(lines.join('\n'));
	} finally {
		await deployment.stop();
		await handle.stop();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
		process.exit(1);
	},
);

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions */
/**
 * A 20 s outage of the service in the middle of 1,000 inferences, in a real n8n 2.40.7 with the
 * packed package (`node --import tsx bench/outage.ts`, part of `npm run bench`). One n8n, started
 * as the e2e suites start it (test/e2e/helpers.ts: own user folder and ports, owner, stopped at
 * the end); each configuration runs against a sandbox of its own (fresh state, an empty rate
 * window), one after the other:
 *
 * - Container Tracking → Tracking Request → Infer Carrier and Number Type, Continue On Fail,
 *   default options (Outage Tolerance 120 s); the node paces itself to 200 inferences a minute.
 * - n8n's HTTP Request node POSTing the same flat body (`{"number": "…"}`, as the node sends it)
 *   to `/v2/tracking_requests/infer_number`, Batching 1 item every 300 ms (200 a minute, the
 *   rate limit), Continue On Fail, Retry On Fail with n8n's defaults (3 tries, 1,000 ms apart)
 *   and with the most the editor allows (5 tries, 5,000 ms apart); and the latter once more
 *   without Continue On Fail (n8n retries a node only when it throws).
 *
 * Each run is started through n8n's REST API as the owner (`POST /rest/workflows/:id/run`, as the
 * editor's Execute Workflow does); 120 s after, the sandbox goes down for 20 s (`mix`: 500, 503
 * and dropped connections in turn). The execution's data is read back: items out, failed items
 * (error items, and items that came out of nothing), right answers (MSCU), wall time, and the
 * calls that reached the sandbox while it was down. Written to bench/results/outage.json and
 * outage.md after each configuration. OUTAGE_CONFIGS=ct,http-defaults,… to run some.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { withCheckDigit } from '../sandbox/world/containerNumbers';
import {
	API_KEY,
	countRequests,
	startTestSandbox,
	type SandboxHandle,
} from '../test/support/sandbox';
import {
	ctNode,
	n8nLib,
	rest,
	sandboxCredential,
	sleep,
	START,
	startE2e,
	workflow,
	type WorkflowNode,
} from '../test/e2e/helpers';

const ITEMS = Number(process.env.OUTAGE_ITEMS ?? 1000);
/** The service's inference rate limit per API key (docs/service.md, "Rate limits"). */
const PER_MINUTE = 200;
const OUTAGE_SECONDS = Number(process.env.OUTAGE_SECONDS ?? 20);
const OUTAGE_AFTER_SECONDS = Number(process.env.OUTAGE_AFTER_SECONDS ?? 120);
const OUTAGE_KIND = 'mix' as const;
/** 60,000 ms / 200: one item per batch every 300 ms keeps the HTTP Request node at the limit. */
const BATCH_INTERVAL_MS = 60_000 / PER_MINUTE;
const RUN_TIMEOUT_MS = 40 * 60_000;
const IDEAL_SECONDS = (ITEMS / PER_MINUTE) * 60;
/** When the last call could go with full bursts: the window slides, 200 at once, then a minute. */
const BURST_FLOOR_SECONDS = (Math.ceil(ITEMS / PER_MINUTE) - 1) * 60;
const SCAC = 'MSCU';

/** 1,000 valid MSCU container numbers (ISO 6346 check digit), the same for every run. */
const NUMBERS = Array.from({ length: ITEMS }, (_, index) =>
	withCheckDigit(`${SCAC}${String(100_000 + index * 7).padStart(6, '0')}`),
);

interface Config {
	key: string;
	label: string;
	retry: string;
	node(handle: SandboxHandle, httpVersion: number): WorkflowNode;
}

type NodeSettings = WorkflowNode & {
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
};

function httpInfer(
	handle: SandboxHandle,
	version: number,
	settings: Partial<NodeSettings>,
): WorkflowNode {
	const node: NodeSettings = {
		name: 'Infer',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: version,
		parameters: {
			method: 'POST',
			url: `${handle.sandbox.url}/tracking_requests/infer_number`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Token ${API_KEY}` }] },
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify({ number: $json.number }) }}',
			options: {
				batching: { batch: { batchSize: 1, batchInterval: BATCH_INTERVAL_MS } },
				// The service answers application/vnd.api+json, which autodetect leaves as text.
				response: { response: { responseFormat: 'json' } },
			},
		},
		after: ['Numbers'],
		...settings,
	};
	return node;
}

const CONFIGS: Config[] = [
	{
		key: 'ct',
		label: 'Container Tracking node (defaults: Outage Tolerance 120 s)',
		retry: "the node's own (a time budget per call, a circuit per key)",
		node: () =>
			ctNode(
				'Infer',
				{
					resource: 'trackingRequest',
					operation: 'inferNumber',
					number: '={{ $json.number }}',
					options: {},
				},
				{ onError: 'continueRegularOutput', after: ['Numbers'] },
				sandboxCredential(),
			),
	},
	{
		key: 'http-defaults',
		label: 'HTTP Request + Retry On Fail, defaults (3 tries, 1,000 ms)',
		retry: 'Retry On Fail 3 × 1,000 ms, Continue On Fail',
		node: (handle, version) =>
			httpInfer(handle, version, {
				onError: 'continueRegularOutput',
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries: 1000,
			}),
	},
	{
		key: 'http-best',
		label: 'HTTP Request + Retry On Fail, best (5 tries, 5,000 ms)',
		retry: 'Retry On Fail 5 × 5,000 ms, Continue On Fail',
		node: (handle, version) =>
			httpInfer(handle, version, {
				onError: 'continueRegularOutput',
				retryOnFail: true,
				maxTries: 5,
				waitBetweenTries: 5000,
			}),
	},
	{
		key: 'http-best-stop',
		label: 'HTTP Request + Retry On Fail, best, without Continue On Fail',
		retry: 'Retry On Fail 5 × 5,000 ms, stops the workflow on error',
		node: (handle, version) =>
			httpInfer(handle, version, { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 }),
	},
];
const SELECTED = (process.env.OUTAGE_CONFIGS ?? CONFIGS.map((config) => config.key).join(','))
	.split(',')
	.map((key) => {
		const config = CONFIGS.find((candidate) => candidate.key === key.trim());
		if (!config) throw new Error(`OUTAGE_CONFIGS: no configuration "${key}"`);
		return config;
	});

/** The HTTP Request node's current version in the installed n8n (its `defaultVersion`). */
function httpRequestVersion(n8nDir: string): number {
	const file = path.join(
		n8nDir,
		'node_modules',
		'n8n-nodes-base',
		'dist',
		'nodes',
		'HttpRequest',
		'HttpRequest.node.js',
	);
	const found = /defaultVersion:\s*([\d.]+)/.exec(readFileSync(file, 'utf8'));
	if (!found) throw new Error(`no defaultVersion in ${file}`);
	return Number(found[1]);
}

// ------------------------------------------------------------------------------ one run

interface Item {
	json: Record<string, unknown>;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function errorMessage(error: unknown): string {
	if (typeof error === 'string') return error;
	const record = (error ?? {}) as { message?: unknown; description?: unknown };
	const message = typeof record.message === 'string' ? record.message : JSON.stringify(error);
	return (message ?? '').slice(0, 300);
}

/** The SCAC an answer selected: the node's flat `scac`, or the service's document. */
function scacOf(json: Record<string, unknown>): unknown {
	if ('scac' in json) return json.scac;
	const data = (typeof json.data === 'string' ? JSON.parse(json.data) : json.data) as
		| { attributes?: { shipping_line?: { selected?: { scac?: unknown } } } }
		| undefined;
	return data?.attributes?.shipping_line?.selected?.scac;
}

async function runOne(
	config: Config,
	handle: SandboxHandle,
	n8n: { url: string; cookie: string },
	workflowId: string,
	parse: (text: string) => unknown,
) {
	const status = () => handle.sandbox.outage.status();
	process.stdout.write(`outage: ${config.key}: running ${ITEMS} items\n`);
	const answered = await countRequests(handle, 'POST', '/tracking_requests/infer_number');
	const began = Date.now();
	handle.sandbox.outage.start({
		seconds: OUTAGE_SECONDS,
		kind: OUTAGE_KIND,
		afterSeconds: OUTAGE_AFTER_SECONDS,
	});
	const started = await rest(n8n.url, n8n.cookie, 'POST', `/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: START.name },
	});
	const executionId = started.body?.data?.executionId as string | undefined;
	if (started.status !== 200 || !executionId)
		throw new Error(`run ${workflowId}: ${started.status} ${JSON.stringify(started.body)}`);
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	let execution: any;
	for (;;) {
		await sleep(5000);
		const answer = await rest(n8n.url, n8n.cookie, 'GET', `/executions/${executionId}`);
		execution = answer.body?.data;
		const running = !execution || ['new', 'running', 'waiting'].includes(execution.status);
		if (!running) break;
		if (Date.now() - began > RUN_TIMEOUT_MS)
			throw new Error(`execution ${executionId} still ${execution?.status} after the timeout`);
		const elapsed = Math.round((Date.now() - began) / 1000);
		if (elapsed % 60 < 5) process.stdout.write(`outage: ${config.key}: ${elapsed} s\n`);
	}
	const outage = status();
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	const data = parse(execution.data) as any;
	const runs = (data?.resultData?.runData?.Infer ?? []) as Array<{
		executionTime?: number;
		error?: unknown;
		data?: { main?: Item[][] };
	}>;
	const last = runs[runs.length - 1];
	const items: Item[] = last?.data?.main?.[0] ?? [];
	const errors = items.filter((item) => item.json.error !== undefined);
	const messages = new Map<string, number[]>();
	items.forEach((item, index) => {
		if (item.json.error === undefined) return;
		const message = errorMessage(item.json.error);
		messages.set(message, [...(messages.get(message) ?? []), index]);
	});
	const missing = ITEMS - items.length;
	const wallSeconds =
		(new Date(execution.stoppedAt).getTime() - new Date(execution.startedAt).getTime()) / 1000;
	const idealWithOutage = IDEAL_SECONDS + OUTAGE_SECONDS;
	return {
		key: config.key,
		configuration: config.label,
		retry: config.retry,
		execution_status: execution.status as string,
		workflow_error: data?.resultData?.error ? errorMessage(data.resultData.error) : null,
		items: ITEMS,
		items_out: items.length,
		failed: errors.length + missing,
		error_items: errors.length,
		items_without_output: missing,
		right_answers: items.filter((item) => scacOf(item.json) === SCAC).length,
		wall_seconds: round(wallSeconds),
		node_seconds: round(runs.reduce((sum, run) => sum + (run.executionTime ?? 0), 0) / 1000),
		ideal_plus_outage_seconds: idealWithOutage,
		overhead_seconds: round(wallSeconds - idealWithOutage),
		calls_during_outage: outage.calls_during_outage,
		/** Inference calls that reached the sandbox: counted by a 0 ms fault, plus those while down. */
		calls_in_all: (await answered()) + outage.calls_during_outage,
		calls_during_outage_by_route: outage.calls_during_outage_by_route,
		outage_started_at: outage.started_at,
		outage_ended_at: outage.ends_at,
		execution_started_at: execution.startedAt as string,
		execution_stopped_at: execution.stoppedAt as string,
		errors: [...messages].map(([message, indexes]) => ({
			message,
			count: indexes.length,
			items: indexes.slice(0, 20),
		})),
	};
}

// ------------------------------------------------------------------------------ the report

type Row = Awaited<ReturnType<typeof runOne>>;

const minutes = (seconds: number) =>
	`${Math.floor(Math.abs(seconds) / 60)} min ${round(Math.abs(seconds) % 60)} s`;
const signed = (seconds: number) => `${seconds < 0 ? '−' : '+'}${minutes(seconds)}`;

function write(rows: Row[], meta: Record<string, unknown>, measuredAt = new Date().toISOString()) {
	const dir = path.join(__dirname, 'results');
	mkdirSync(dir, { recursive: true });
	const report = { ...meta, measured_at: measuredAt, rows };
	writeFileSync(path.join(dir, 'outage.json'), `${JSON.stringify(report, null, 2)}\n`);
	const lines = [
		`# A ${OUTAGE_SECONDS} s outage in the middle of ${ITEMS} inferences, in a real n8n ${String(meta.n8n)} (${report.measured_at}, ${String(meta.cpus)} CPUs ${String(meta.cpu_model)})`,
		'',
		`${ITEMS} valid MSCU container numbers → one node inferring carrier and number type, started from the REST API as the owner; ${OUTAGE_AFTER_SECONDS} s after the start the sandbox's API is down for ${OUTAGE_SECONDS} s (\`${OUTAGE_KIND}\`: 500, 503 and dropped connections in turn). Ideal: ${ITEMS} ÷ ${PER_MINUTE} a minute = ${minutes(IDEAL_SECONDS)}, + ${OUTAGE_SECONDS} s of outage = ${minutes(IDEAL_SECONDS + OUTAGE_SECONDS)} (the service's window slides, so ${PER_MINUTE} calls may go at once and the last of ${ITEMS} could go at ${minutes(BURST_FLOOR_SECONDS)}; the ideal here is the steady rate). The package: \`dist/\` packed at commit ${String(meta.git_head)}. Each configuration had a sandbox of its own (fresh state and rate window). The HTTP Request node (v${String(meta.http_request_version)}) sends the body the Container Tracking node sends (\`{"number": "…"}\`) with Batching 1 item every ${BATCH_INTERVAL_MS} ms (60,000 ms ÷ ${PER_MINUTE}: the rate limit, each call's own time added to the interval, so never over it). Written by \`bench/outage.ts\`.`,
		'',
		'| configuration | items | failed | right (MSCU) | wall time | ideal + outage | overhead | calls during the outage | calls in all |',
		'| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
		...rows.map(
			(row) =>
				`| ${row.configuration} | ${row.items} | ${row.failed} | ${row.right_answers} | ${minutes(row.wall_seconds)} | ${minutes(row.ideal_plus_outage_seconds)} | ${signed(row.overhead_seconds)} | ${row.calls_during_outage} | ${row.calls_in_all} |`,
		),
		'',
	];
	for (const row of rows) {
		lines.push(
			`**${row.configuration}**: execution ${row.execution_status}${row.workflow_error ? ` (${row.workflow_error})` : ''}; ${row.items_out} items out, ${row.error_items} error items, ${row.items_without_output} without output.`,
		);
		for (const error of row.errors)
			lines.push(
				`- ${error.count} × \`${error.message}\` (items ${error.items.join(', ')}${error.count > error.items.length ? ', …' : ''})`,
			);
		lines.push('');
	}
	lines.push(
		...rows.map(
			(row) =>
				`${row.configuration}: ${row.failed} of ${row.items} failed, ${row.right_answers} right; ${minutes(row.wall_seconds)}, ${signed(row.overhead_seconds)} beside the ideal plus the outage; ${row.calls_during_outage} calls reached the sandbox while it was down.`,
		),
		'',
		"How n8n's Retry On Fail works (n8n-core 2.40.7, `WorkflowExecute.runNode`'s retry loop): it runs the whole node again, all its items, when the node's run throws, at most `maxTries` times (2 to 5) with `waitBetweenTries` (0 to 5,000 ms) between. The HTTP Request node (n8n-nodes-base 2.40.7, `HttpRequestV3`) sends every item's call first (Batching spaces them) and reads the answers after the last: with Continue On Fail it turns each failed call into an error item and does not throw, so Retry On Fail has nothing to retry; without it the node throws once every call is done, and the next try sends every item again. The Container Tracking node waits out the outage item by item (the circuit holds the calls, one probe at a time) and goes on at the rate limit.",
		'',
	);
	writeFileSync(path.join(dir, 'outage.md'), `${lines.join('\n')}\n`);
	process.stdout.write(`${lines.join('\n')}\n`);
}

// ------------------------------------------------------------------------------ main

async function main() {
	// OUTAGE_REPORT_ONLY=1 writes outage.md again from outage.json, running nothing.
	if (process.env.OUTAGE_REPORT_ONLY) {
		const { rows, measured_at, ...meta } = JSON.parse(
			readFileSync(path.join(__dirname, 'results', 'outage.json'), 'utf8'),
		) as { rows: Row[]; measured_at: string } & Record<string, unknown>;
		write(rows, meta, measured_at);
		return;
	}
	const ctx = await startE2e({ sandbox: { trackingDelaySeconds: 0 } });
	const extra: SandboxHandle[] = [];
	try {
		const httpVersion = httpRequestVersion(ctx.n8nDir);
		const flatted = createRequire(path.join(ctx.n8nDir, 'package.json'))('flatted') as {
			parse(text: string): unknown;
		};
		await ctx.importCredentials([sandboxCredential()]);
		const plan: Array<{ config: Config; handle: SandboxHandle; id: string }> = [];
		for (const config of SELECTED) {
			// The credential's sandbox for the Container Tracking node, a new one for each other run.
			const handle = config.key === 'ct' ? ctx.handle : await startTestSandbox({});
			if (handle !== ctx.handle) extra.push(handle);
			const id = `ctOutage${plan.length}`;
			await ctx.importWorkflow(
				workflow(id, `Outage bench: ${config.label}`, [
					START,
					{
						name: 'Numbers',
						type: 'n8n-nodes-base.code',
						typeVersion: 2,
						parameters: {
							jsCode: `return ${JSON.stringify(NUMBERS)}.map((number) => ({ json: { number } }));`,
						},
						after: [START.name],
					},
					config.node(handle, httpVersion),
				]),
			);
			plan.push({ config, handle, id });
		}
		const n8n = await ctx.start();
		const meta: Record<string, unknown> = {
			bench_node: process.version,
			n8n: (await n8nLib()).N8N_VERSION,
			cpus: os.cpus().length,
			cpu_model: os.cpus()[0]?.model,
			http_request_version: httpVersion,
			// The packed package is dist/ as last built (`npm run build` first); HEAD when it ran.
			git_head: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: __dirname })
				.toString()
				.trim(),
			items: ITEMS,
			rate_limit_per_minute: PER_MINUTE,
			batch_interval_ms: BATCH_INTERVAL_MS,
			outage: { seconds: OUTAGE_SECONDS, kind: OUTAGE_KIND, after_seconds: OUTAGE_AFTER_SECONDS },
			ideal_seconds: IDEAL_SECONDS,
		};
		const rows: Row[] = [];
		for (const { config, handle, id } of plan) {
			rows.push(await runOne(config, handle, n8n, id, flatted.parse));
			write(rows, meta);
		}
	} finally {
		await ctx.stop();
		for (const handle of extra) await handle.stop();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});

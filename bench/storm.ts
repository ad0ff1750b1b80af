/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * A delivery storm in a real n8n (scripts/n8n-runtime.mjs) with the packed package (`npm run bench`), for one n8n
 * (SQLite) and for queue mode (Postgres, Redis, main, webhook process, two workers):
 *
 * 1. Two published workflows on the same bodies: the Container Tracking Trigger ("Use a Webhook
 *    Created Elsewhere") and n8n's Webhook node, each followed by an HTTP Request node that posts
 *    the notification id to a collector once per execution (so "ran" means the workflow went on).
 * 2. 2,000 signed `container.updated` deliveries to each, concurrency 20: 10 % repeats of earlier
 *    ones, 5 % forged (signed with another secret). deliveries/s and p50/p99 answer times.
 * 3. 500 malformed bodies to the trigger (not JSON, no data.id, no event, empty).
 * 4. A restart of every n8n process, then 200 repeats of notifications that already ran.
 *
 * Counted at the collector: forged that ran, repeats that ran, genuine lost. Written to
 * bench/results/storm.json and storm.md. STORM_DELIVERIES / STORM_MODES=single,queue to vary.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { startTestSandbox, trackContainer } from '../test/support/sandbox';
import { startWebhookReceiver } from '../test/support/webhookReceiver';
import { checkedCli, n8nScripts, queueMode, singleN8n, type Deployment } from './deployments';
import { ProcessSampler } from './processTree';

const DELIVERIES = Number(process.env.STORM_DELIVERIES ?? 2000);
const CONCURRENCY = 20;
const REPEAT_SHARE = 0.1;
const FORGED_SHARE = 0.05;
const MALFORMED = 500;
const RESTART_REPEATS = 200;
const MODES = (process.env.STORM_MODES ?? 'single,queue').split(',');
/** A folder for CPU profiles of the single n8n (`node --cpu-prof`), written when it stops. */
const PROFILE_DIR = process.env.STORM_PROFILE_DIR;
/** More settings for every n8n process, as JSON (e.g. `{"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE":"true"}`). */
const N8N_ENV = JSON.parse(process.env.STORM_N8N_ENV ?? '{}') as Record<string, string>;
/** Said after a deployment's name when N8N_ENV sets anything (its figures are kept apart). */
const ENV_LABEL = Object.entries(N8N_ENV)
	.map(([name, value]) => `, ${name}=${value}`)
	.join('');
const SECRET = 'b3nch'.repeat(12) + 'c0ffee';
const HEADER = 'X-SVC-Webhook-Signature';
const TRIGGER_WEBHOOK_ID = '5d1e9c8a-1111-4b2c-9d3e-4f5a6b7c8d91';
const WEBHOOK_PATH = 'storm-webhook-node';
const CONTROL_PATH = 'storm-webhook-node-expression';
const API_KEY = 'bench-key';

type Doc = Record<string, unknown> & { data: { id: string; attributes: { id: string } } };

// ------------------------------------------------------------------------------ the bodies

/**
 * A `container.updated` notification: the published example when ../shared is there, otherwise
 * one the sandbox sends when a customs hold is activated (same shape, as the interface describes).
 */
async function templateNotification(): Promise<{ doc: Doc; source: string }> {
	const published = path.resolve(
		__dirname,
		'..',
		'..',
		'shared',
		'fixtures',
		'notifications',
		'container.updated.json',
	);
	try {
		return { doc: JSON.parse(readFileSync(published, 'utf8')), source: 'published example' };
	} catch {
		const handle = await startTestSandbox({ trackingDelaySeconds: 0, drift: false });
		const receiver = await startWebhookReceiver();
		try {
			const { containerIds } = await trackContainer(handle, 'MSCU1000022', 'MSCU');
			await handle.api.post('/webhooks', {
				data: {
					type: 'webhook',
					attributes: { url: receiver.url, events: ['container.updated'], active: true },
				},
			});
			await handle.control.post(`/containers/${containerIds[0]}/scenarios/customs_hold`, {
				gap_seconds: 0,
			});
			for (let waited = 0; receiver.deliveries.length < 2 && waited < 20_000; waited += 100)
				await new Promise((resolve) => setTimeout(resolve, 100));
			return { doc: receiver.deliveries[1].body as Doc, source: 'sandbox customs hold' };
		} finally {
			await receiver.close();
			await handle.stop();
		}
	}
}

interface Delivery {
	kind: 'genuine' | 'repeat' | 'forged';
	id: string;
	body: string;
	signature: string;
}

const sign = (body: string, secret: string) =>
	createHmac('sha256', secret).update(body).digest('hex');

function withId(template: Doc, id: string): string {
	const doc = structuredClone(template);
	doc.data.id = id;
	doc.data.attributes.id = id;
	return JSON.stringify(doc);
}

/** 2,000 deliveries: repeats come after their original, somewhere later in the storm. */
function stormPlan(template: Doc): Delivery[] {
	const repeats = Math.round(DELIVERIES * REPEAT_SHARE);
	const forged = Math.round(DELIVERIES * FORGED_SHARE);
	const genuine = DELIVERIES - repeats - forged;
	let seed = 42;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const plan: Delivery[] = [];
	for (let index = 0; index < genuine; index++) {
		const id = randomUUID();
		const body = withId(template, id);
		plan.push({ kind: 'genuine', id, body, signature: sign(body, SECRET) });
	}
	for (let index = 0; index < forged; index++) {
		const id = randomUUID();
		const body = withId(template, id);
		const at = Math.floor(random() * plan.length);
		plan.splice(at, 0, { kind: 'forged', id, body, signature: sign(body, 'not-the-secret') });
	}
	for (let index = 0; index < repeats; index++) {
		const originals = plan.filter((delivery) => delivery.kind === 'genuine');
		const original = originals[Math.floor(random() * originals.length)];
		const from = plan.indexOf(original) + 1;
		const at = from + Math.floor(random() * (plan.length - from + 1));
		plan.splice(at, 0, { ...original, kind: 'repeat' });
	}
	return plan;
}

function malformedBodies(): Array<{ body: string; signature?: string }> {
	const shapes = [
		() => '{"data": {"id": ',
		() => 'not json at all',
		() => JSON.stringify({ data: { attributes: { event: 'container.updated' } } }),
		() => JSON.stringify({ data: { id: randomUUID(), attributes: {} } }),
		() => '',
	];
	return Array.from({ length: MALFORMED }, (_, index) => {
		const body = shapes[index % shapes.length]();
		// Half signed correctly (they must still be refused), half unsigned.
		return index % 2 === 0 ? { body, signature: sign(body, SECRET) } : { body };
	});
}

// ------------------------------------------------------------------------------ measuring

async function storm(
	url: string,
	deliveries: Array<{ body: string; signature?: string }>,
): Promise<{
	seconds: number;
	started: number;
	sentAt: number[];
	latencies: number[];
	statuses: number[];
}> {
	const latencies: number[] = new Array(deliveries.length);
	const sentAt: number[] = new Array(deliveries.length);
	const statuses: number[] = new Array(deliveries.length);
	let next = 0;
	const started = performance.now();
	const lane = async () => {
		for (let index = next++; index < deliveries.length; index = next++) {
			const { body, signature } = deliveries[index];
			const headers: Record<string, string> = { 'Content-Type': 'application/json' };
			if (signature) headers[HEADER] = signature;
			const sent = performance.now();
			sentAt[index] = sent;
			try {
				const response = await fetch(url, { method: 'POST', headers, body });
				await response.arrayBuffer();
				statuses[index] = response.status;
			} catch {
				statuses[index] = 0;
			}
			latencies[index] = performance.now() - sent;
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, lane));
	return { seconds: (performance.now() - started) / 1000, started, sentAt, latencies, statuses };
}

function percentile(values: number[], share: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

interface Collector {
	url: string;
	/** Executions that went on past the trigger, per notification id. */
	ran: Map<string, number>;
	/** When the first report of each notification id arrived (`performance.now()`). */
	firstReportAt: Map<string, number>;
	close(): Promise<void>;
}

async function startCollector(): Promise<Collector> {
	const ran = new Map<string, number>();
	const firstReportAt = new Map<string, number>();
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			try {
				const { ids } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ids: string[] };
				for (const id of new Set(ids)) {
					ran.set(id, (ran.get(id) ?? 0) + 1);
					if (!firstReportAt.has(id)) firstReportAt.set(id, performance.now());
				}
			} catch {
				ran.set('(unreadable)', (ran.get('(unreadable)') ?? 0) + 1);
			}
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end('{}');
		});
	});
	server.keepAliveTimeout = 60_000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ran`,
		ran,
		firstReportAt,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Waits until the collector has been quiet for `quietMs` (executions drained). */
async function drained(collector: Collector, quietMs = 5000, maxMs = 600_000): Promise<void> {
	const total = () => [...collector.ran.values()].reduce((sum, count) => sum + count, 0);
	const started = Date.now();
	let last = total();
	let quietSince = Date.now();
	while (Date.now() - started < maxMs) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		const now = total();
		if (now !== last) {
			last = now;
			quietSince = Date.now();
		} else if (Date.now() - quietSince >= quietMs) return;
	}
}

// ------------------------------------------------------------------------------ n8n

function workflows(collector: Collector) {
	const credential = { id: 'ctBenchCredential', name: 'Container Tracking bench' };
	// Once per execution, with the notification id of every item: an execution of the trigger
	// (node version 1.2) may hold several notifications that arrived together.
	const report = (name: string, idExpression: string) => ({
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [260, 0],
		executeOnce: true,
		parameters: {
			method: 'POST',
			url: collector.url,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ ids: $input.all().map((item) => ${idExpression}) }) }}`,
			options: {},
		},
	});
	const trigger = {
		id: 'ctStormTrigger',
		name: 'Storm: Container Tracking Trigger',
		nodes: [
			{
				id: randomUUID(),
				name: 'Container updated',
				type: 'n8n-nodes-container-tracking.containerTrackingTrigger',
				typeVersion: 1.2,
				position: [0, 0],
				webhookId: TRIGGER_WEBHOOK_ID,
				credentials: { containerTrackingApi: credential },
				parameters: { registration: 'existing', secret: SECRET, options: {} },
			},
			report('Report', 'item.json.notification_id'),
		],
		connections: {
			'Container updated': { main: [[{ node: 'Report', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
	const webhookNode = {
		id: 'ctStormWebhookNode',
		name: "Storm: n8n's Webhook node",
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					httpMethod: 'POST',
					path: WEBHOOK_PATH,
					responseMode: 'onReceived',
					options: {},
				},
			},
			report('Report', 'item.json.body.data.id'),
		],
		connections: { Webhook: { main: [[{ node: 'Report', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	const credentials = [
		{
			...credential,
			type: 'containerTrackingApi',
			// Never called: the webhook is registered elsewhere; the header name is read.
			data: { apiKey: API_KEY, baseUrl: 'http://127.0.0.1:9/v2', signatureHeader: HEADER },
		},
	];
	// The same Webhook node with one option written as an expression. n8n 2.x gives a request
	// to its own Webhook node with only fixed parameters no expression isolate; a request to any
	// other node (every community trigger) or to a Webhook node with an expression gets one.
	const control = {
		...webhookNode,
		id: 'ctStormWebhookControl',
		name: "Storm: n8n's Webhook node, one option an expression",
		nodes: [
			{
				...webhookNode.nodes[0],
				webhookId: randomUUID(),
				parameters: {
					...webhookNode.nodes[0].parameters,
					path: CONTROL_PATH,
					options: { ignoreBots: '={{ false }}' },
				},
			},
			webhookNode.nodes[1],
		],
	};
	return { trigger, webhookNode, control, credentials };
}

/**
 * n8n's memory (every n8n process and its task runners, resident) at its peak in each phase of a
 * run, sampled every second: which traffic the memory grows with (issue 50).
 */
class PhaseMemory {
	private phase = 'n8n started, warm-up';
	private readonly peaks = new Map<string, number>();
	private readonly sampler = new ProcessSampler((usage) => this.note(usage.rssBytes.n8n));

	start(): void {
		this.sampler.start();
	}

	/** From now on samples count for `phase`; the one taken now closes the phase before. */
	enter(phase: string): void {
		this.note(this.sampler.sample().rssBytes.n8n);
		this.phase = phase;
	}

	stop(): Record<string, number> {
		this.enter('end');
		this.sampler.stop();
		return Object.fromEntries(
			[...this.peaks].map(([phase, bytes]) => [phase, Math.round(bytes / 2 ** 20)]),
		);
	}

	private note(bytes: number): void {
		this.peaks.set(this.phase, Math.max(this.peaks.get(this.phase) ?? 0, bytes));
	}
}

/** The deployment `mode` names, with the settings STORM_N8N_ENV gives every n8n process. */
function deploymentFor(mode: string): Promise<Deployment> {
	const options = { env: N8N_ENV, label: ENV_LABEL };
	return mode === 'queue' ? queueMode(options) : singleN8n({ ...options, profileDir: PROFILE_DIR });
}

async function waitForWebhook(url: string): Promise<void> {
	for (let waited = 0; waited < 120_000; waited += 500) {
		const response = await fetch(url, { method: 'POST', body: '{}' }).catch(() => undefined);
		if (response && response.status !== 404) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`${url} did not start listening`);
}

// ------------------------------------------------------------------------------ one deployment

interface Row {
	deliveries_per_second: number;
	p99_ms: number;
	reported_per_second: number;
	to_report_p99_ms: number;
}

function ratios(trigger: Row, other: Row) {
	return {
		rate: round(trigger.deliveries_per_second / other.deliveries_per_second, 2),
		p99: round(trigger.p99_ms / other.p99_ms, 2),
		reported_rate: round(trigger.reported_per_second / other.reported_per_second, 2),
		to_report_p99: round(trigger.to_report_p99_ms / other.to_report_p99_ms, 2),
	};
}

async function runDeployment(mode: string, template: Doc) {
	const collector = await startCollector();
	const deployment = await deploymentFor(mode);
	const scripts = await n8nScripts();
	const fixtures = mkdtempSync(path.join(os.tmpdir(), 'ct-storm-fixtures-'));
	const memory = new PhaseMemory();
	try {
		const { trigger, webhookNode, control, credentials } = workflows(collector);
		const write = (name: string, value: unknown) => {
			const file = path.join(fixtures, name);
			writeFileSync(file, JSON.stringify(value));
			return file;
		};
		for (const args of [
			['import:credentials', `--input=${write('credentials.json', credentials)}`],
			['import:workflow', `--input=${write('trigger.json', trigger)}`],
			['import:workflow', `--input=${write('webhook.json', webhookNode)}`],
			['import:workflow', `--input=${write('control.json', control)}`],
			scripts.activateWorkflowArgs(trigger.id),
			scripts.activateWorkflowArgs(webhookNode.id),
			scripts.activateWorkflowArgs(control.id),
		])
			await checkedCli(deployment, args);
		await deployment.start();
		memory.start();
		const triggerUrl = `${deployment.webhookBase}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
		const webhookNodeUrl = `${deployment.webhookBase}/webhook/${WEBHOOK_PATH}`;
		await waitForWebhook(triggerUrl);
		await waitForWebhook(webhookNodeUrl);
		const controlUrl = `${deployment.webhookBase}/webhook/${CONTROL_PATH}`;
		await waitForWebhook(controlUrl);

		// Warm both up (JIT, connection pools) with deliveries that are not counted.
		const warmUp = Array.from({ length: 40 }, () => {
			const body = withId(template, `warm-${randomUUID()}`);
			return { body, signature: sign(body, SECRET) };
		});
		await storm(webhookNodeUrl, warmUp);
		await storm(controlUrl, warmUp);
		await storm(triggerUrl, warmUp);
		await drained(collector);

		const plan = stormPlan(template);
		const rows = [];
		// Each Webhook node gets its own ids, so that the collector's counts stay apart.
		const renamedPlan = () => {
			const renamed = new Map<string, string>();
			return plan.map((original) => {
				const delivery = { ...original };
				if (!renamed.has(delivery.id)) renamed.set(delivery.id, randomUUID());
				delivery.id = renamed.get(delivery.id)!;
				delivery.body = withId(template, delivery.id);
				delivery.signature = sign(delivery.body, delivery.kind === 'forged' ? 'x' : SECRET);
				return delivery;
			});
		};
		const webhookPlan = renamedPlan();
		const controlPlan = renamedPlan();
		memory.enter("n8n's Webhook node");
		const webhookRun = await storm(webhookNodeUrl, webhookPlan);
		await drained(collector);
		memory.enter('the control');
		const controlRun = await storm(controlUrl, controlPlan);
		await drained(collector);
		memory.enter('Container Tracking Trigger');
		const triggerRun = await storm(triggerUrl, plan);
		await drained(collector);

		memory.enter('malformed bodies');
		const malformed = await storm(triggerUrl, malformedBodies());
		const healthy = (await fetch(`${deployment.webhookBase}/healthz`)).status === 200;
		await drained(collector);

		// Restart every process, then 200 notifications that already ran, once more.
		const ranBefore = new Map(collector.ran);
		const alreadyRan = plan
			.filter((delivery) => delivery.kind === 'genuine' && (ranBefore.get(delivery.id) ?? 0) > 0)
			.slice(0, RESTART_REPEATS);
		memory.enter('restart');
		await deployment.restart();
		await waitForWebhook(triggerUrl);
		memory.enter('repeats after the restart');
		const afterRestart = await storm(triggerUrl, alreadyRan);
		await drained(collector, 8000);
		const memoryMb = memory.stop();

		const count = (id: string) => collector.ran.get(id) ?? 0;
		const summarize = (
			name: string,
			deliveries: Delivery[],
			run: Awaited<ReturnType<typeof storm>>,
		) => {
			const genuineIds = new Set(deliveries.filter((d) => d.kind === 'genuine').map((d) => d.id));
			const forgedIds = deliveries.filter((d) => d.kind === 'forged').map((d) => d.id);
			const repeats = deliveries.filter((d) => d.kind === 'repeat').length;
			const ranTimes = [...genuineIds].map((id) =>
				Math.min(count(id), ranBefore.get(id) ?? count(id)),
			);
			// From a notification's first delivery to its report: what a user waits for.
			const firstSent = new Map<string, number>();
			deliveries.forEach((delivery, index) => {
				if (delivery.kind === 'genuine') firstSent.set(delivery.id, run.sentAt[index]);
			});
			const reported = [...firstSent].filter(([id]) => collector.firstReportAt.has(id));
			const toReport = reported.map(([id, sent]) => collector.firstReportAt.get(id)! - sent);
			const lastReport = Math.max(...reported.map(([id]) => collector.firstReportAt.get(id)!));
			return {
				node: name,
				deliveries: deliveries.length,
				deliveries_per_second: round(deliveries.length / run.seconds),
				p50_ms: round(percentile(run.latencies, 0.5)),
				p99_ms: round(percentile(run.latencies, 0.99)),
				reported_per_second: round(reported.length / ((lastReport - run.started) / 1000)),
				to_report_p50_ms: round(percentile(toReport, 0.5)),
				to_report_p99_ms: round(percentile(toReport, 0.99)),
				answered_2xx: run.statuses.filter((status) => status >= 200 && status < 300).length,
				answered_401: run.statuses.filter((status) => status === 401).length,
				failed_answers: run.statuses.filter((status) => status === 0 || status >= 500).length,
				genuine: genuineIds.size,
				genuine_lost: ranTimes.filter((times) => times === 0).length,
				repeats,
				repeats_that_ran: ranTimes.reduce((sum, times) => sum + Math.max(0, times - 1), 0),
				forged: forgedIds.length,
				forged_that_ran: forgedIds.filter((id) => count(id) > 0).length,
			};
		};
		rows.push(summarize("n8n's Webhook node (checks nothing)", webhookPlan, webhookRun));
		rows.push(summarize('Container Tracking Trigger', plan, triggerRun));
		rows.push(
			summarize("n8n's Webhook node, one option an expression (control)", controlPlan, controlRun),
		);
		const [webhookRow, triggerRow, controlRow] = rows;
		return {
			deployment: deployment.name,
			measured_at: new Date().toISOString(),
			rows,
			trigger_vs_webhook_node: ratios(triggerRow, webhookRow),
			/** The same, beside the Webhook node when it pays the expression isolate too. */
			trigger_vs_control: ratios(triggerRow, controlRow),
			malformed: {
				bodies: MALFORMED,
				answered: Object.fromEntries(
					[...new Set(malformed.statuses)].map((status) => [
						status,
						malformed.statuses.filter((s) => s === status).length,
					]),
				),
				ran: collector.ran.get('(unreadable)') ?? 0,
				n8n_healthy_after: healthy,
			},
			/** n8n's resident memory at its peak in each phase, in MB (2^20 bytes). */
			memory_peak_mb: memoryMb,
			after_restart: {
				repeats: alreadyRan.length,
				answered_2xx: afterRestart.statuses.filter((s) => s >= 200 && s < 300).length,
				ran_again: alreadyRan.filter((d) => count(d.id) > (ranBefore.get(d.id) ?? 0)).length,
			},
		};
	} finally {
		memory.stop();
		await deployment.stop();
		await collector.close();
		rmSync(fixtures, { recursive: true, force: true });
	}
}

async function main() {
	const { doc: template, source } = await templateNotification();
	const n8nVersion = (await n8nScripts()).N8N_VERSION;
	const results: Array<Awaited<ReturnType<typeof runDeployment>> & { n8n?: string }> = [];
	for (const mode of MODES) {
		process.stdout.write(`storm: ${mode}\n`);
		results.push({ ...(await runDeployment(mode, template)), n8n: n8nVersion });
	}
	// A run of one mode (STORM_MODES) keeps the other mode's last figures beside it.
	const dir = path.join(__dirname, 'results');
	try {
		const previous = JSON.parse(readFileSync(path.join(dir, 'storm.json'), 'utf8')) as {
			n8n: string;
			results: typeof results;
		};
		// A kept section says which n8n it was measured on.
		for (const kept of previous.results.filter(
			(old) => !results.some((fresh) => fresh.deployment === old.deployment),
		))
			results.push({ ...kept, n8n: kept.n8n ?? previous.n8n });
	} catch {
		// No earlier figures.
	}
	const report = {
		measured_at: new Date().toISOString(),
		node: process.version,
		n8n: n8nVersion,
		cpus: os.cpus().length,
		body: { source, bytes: Buffer.byteLength(JSON.stringify(template)) },
		deliveries: DELIVERIES,
		concurrency: CONCURRENCY,
		results,
	};
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'storm.json'), `${JSON.stringify(report, null, 2)}\n`);
	const lines = [
		`# Delivery storm in a real n8n (last run ${report.measured_at}, n8n ${report.n8n}, Node ${report.node}, ${report.cpus} CPUs)`,
		'',
		`${DELIVERIES} signed \`container.updated\` deliveries per node at concurrency ${CONCURRENCY} (${REPEAT_SHARE * 100} % repeats, ${FORGED_SHARE * 100} % forged); body: ${report.body.source}, ${report.body.bytes} bytes. Written by \`bench/storm.ts\`.`,
		'',
		'`deliveries_per_second`, `p50_ms`, `p99_ms`: how fast n8n answered the deliveries. `reported_per_second`, `to_report_*`: how fast the workflows ran to their end (the report node), from the first delivery of each genuine notification to its report; n8n answers a webhook before its execution has run, so this is the figure a user waits for.',
		'',
		"The control is n8n's Webhook node with one option written as an expression. n8n 2.40.7 gives a request to its own Webhook node whose parameters are all fixed no expression isolate (`webhookPhaseNeedsIsolate` in n8n's `webhooks/live-webhooks.js`); a request to any other node, every community trigger included, or to a Webhook node with an expression gets one, created for it and disposed after.",
		'',
		'A section whose name ends in a setting ran with that setting on every n8n process (`STORM_N8N_ENV`). With `N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true`, n8n creates an isolate only when an expression is evaluated, so a request to a node with fixed parameters, the trigger included, gets none; an execution that evaluates one takes a ready isolate, or creates one synchronously on the main thread when none is ready. In one n8n that is the likely reason the Webhook node answered fewer deliveries/s with the setting than without it: the report node after it evaluates expressions in the same process. In queue mode the executions run on the workers, and the webhook process answered faster with the setting.',
	];
	for (const result of results) {
		lines.push('', `## ${result.deployment}`, '');
		if (result.measured_at)
			lines.push(`Measured ${result.measured_at} on n8n ${result.n8n ?? report.n8n}.`, '');
		const columns = Object.keys(result.rows[0]);
		lines.push(`| ${columns.join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`);
		for (const row of result.rows)
			lines.push(
				`| ${columns.map((column) => String(row[column as keyof typeof row])).join(' | ')} |`,
			);
		lines.push(
			'',
			...[
				['Webhook node', result.trigger_vs_webhook_node],
				['Webhook node with an expression option (control)', result.trigger_vs_control],
			]
				.filter(([, ratio]) => ratio)
				.map(([name, ratio]) => {
					const r = ratio as ReturnType<typeof ratios>;
					return `Trigger ÷ ${name as string}: answers ${r.rate}× the deliveries/s (${r.p99}× the p99); reports ${r.reported_rate ?? '–'}× the notifications/s (${r.to_report_p99 ?? '–'}× the p99 from delivery to report).`;
				}),
			`Malformed: ${result.malformed.bodies} bodies answered ${JSON.stringify(result.malformed.answered)}, ${result.malformed.ran} ran, n8n healthy after: ${result.malformed.n8n_healthy_after}.`,
			`After a restart of every n8n process: ${result.after_restart.repeats} repeats of notifications that had run, ${result.after_restart.answered_2xx} answered 2xx, ${result.after_restart.ran_again} ran again.`,
		);
		if (result.memory_peak_mb)
			lines.push(
				'',
				`n8n's memory at its peak (every n8n process and task runner, resident), by phase: ${Object.entries(
					result.memory_peak_mb,
				)
					.map(([phase, mb]) => `${phase} ${mb.toLocaleString('en-US')} MB`)
					.join('; ')}.`,
			);
	}
	writeFileSync(path.join(dir, 'storm.md'), `${lines.join('\n')}\n`);
	process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports */
// require(): n8n's nodes are loaded at run time from the cached n8n install.
/**
 * Speed and memory, side by side with n8n's own nodes, in one run (`npm run bench`):
 *
 * 1. 1,000 numbers through infer_number against the sandbox with its rate window compressed
 *    (one real second per service minute): our node (paced to the limits), n8n's HTTP Request
 *    node as users configure it first (no batching), and HTTP Request batched to the limit.
 * 2. Signed `container.updated` deliveries through our trigger's webhook() and through n8n's
 *    Webhook node (which checks nothing and passes the body on), per delivery.
 *
 * n8n's nodes come from the n8n install that `scripts/n8n-runtime.mjs` caches; they run on the
 * same n8n-core and n8n-workflow copies as ours. Figures go to bench/results/.
 */
import './moduleResolution';

import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { WebhookContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeType,
	type IVersionedNodeType,
} from 'n8n-workflow';

import { withCheckDigit } from '../sandbox/world/containerNumbers';
import { setRateWindow } from '../nodes/ContainerTracking/transport/rateLimit';
import { startSandbox } from '../sandbox/server';
import {
	engineAdditionalData,
	nodeTypes,
	registerNodeType,
	runContainerTrackingNode,
	runNode,
} from '../test/support/engine';
import { TriggerHarness } from '../test/support/trigger';

const API_KEY = 'bench-key';
const TIME_SCALE = 60;
const NUMBERS = 1000;
const DELIVERIES = 2000;

// -------------------------------------------------------------------------- n8n's own nodes

async function loadN8nNodes(): Promise<{
	httpRequest: IVersionedNodeType;
	webhook: IVersionedNodeType;
	version: string;
}> {
	// @ts-expect-error: an .mjs helper shared with the scripts
	const runtime = (await import('../scripts/n8n-runtime.mjs')) as { ensureN8n(): Promise<string> };
	const dir = await runtime.ensureN8n();
	const nodesBase = path.join(dir, 'node_modules', 'n8n-nodes-base');
	const load = (relative: string) =>
		require(path.join(nodesBase, 'dist', 'nodes', relative)) as Record<
			string,
			new () => IVersionedNodeType
		>;
	const httpRequest = new (load('HttpRequest/HttpRequest.node.js').HttpRequest)();
	const webhook = new (load('Webhook/Webhook.node.js').Webhook)();
	const version = (require(path.join(nodesBase, 'package.json')) as { version: string }).version;
	return { httpRequest, webhook, version };
}

// -------------------------------------------------------------------------- measuring

interface Measured<T> {
	value: T;
	seconds: number;
	peakRssMb: number;
	heapDeltaMb: number;
}

async function measure<T>(run: () => Promise<T>): Promise<Measured<T>> {
	(global as { gc?: () => void }).gc?.();
	const heapBefore = process.memoryUsage().heapUsed;
	let peakRss = process.memoryUsage().rss;
	const sampler = setInterval(() => {
		peakRss = Math.max(peakRss, process.memoryUsage().rss);
	}, 20);
	const started = process.hrtime.bigint();
	const value = await run();
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	clearInterval(sampler);
	peakRss = Math.max(peakRss, process.memoryUsage().rss);
	const heapDelta = process.memoryUsage().heapUsed - heapBefore;
	return { value, seconds, peakRssMb: peakRss / 2 ** 20, heapDeltaMb: heapDelta / 2 ** 20 };
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

// -------------------------------------------------------------------------- scenarios

/** n8n's HTTP Request node is registered under n8n-nodes-base.httpRequest before this runs. */
async function inferBatch() {
	const sandbox = await startSandbox({ port: 0, apiKey: API_KEY, timeScale: TIME_SCALE });
	setRateWindow(60_000 / TIME_SCALE);
	const numbers = Array.from({ length: NUMBERS }, (_, index) =>
		withCheckDigit(`MSCU${String(200000 + index).padStart(6, '0')}`),
	);
	const input = numbers.map((number) => ({ number }));
	const credentials = { apiKey: API_KEY, baseUrl: sandbox.url };
	// Ideal: 200 calls at once, then 200 more each compressed minute.
	const windowSeconds = 60 / TIME_SCALE;
	const idealSeconds = (Math.ceil(NUMBERS / 200) - 1) * windowSeconds;
	const rows: IDataObject[] = [];
	const waitForFreshWindow = () =>
		new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000 + 100));

	await waitForFreshWindow();
	const ours = await measure(() =>
		runContainerTrackingNode(
			{ resource: 'trackingRequest', operation: 'inferNumber', number: '={{ $json.number }}' },
			input,
			credentials,
		),
	);
	rows.push({
		node: 'Container Tracking → Infer Carrier and Number Type',
		items: ours.value.items.length,
		failed_items:
			ours.value.items.filter((item) => item.json.error !== undefined).length +
			(ours.value.error ? NUMBERS : 0),
		seconds: round(ours.seconds),
		ideal_seconds: idealSeconds,
		peak_rss_mb: round(ours.peakRssMb, 1),
		heap_delta_mb: round(ours.heapDeltaMb, 1),
	});

	const httpRequestNode = (options: INode['parameters']): INode => ({
		id: 'a3f1c2d4-0000-4000-8000-000000000001',
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		continueOnFail: true,
		parameters: {
			method: 'POST',
			url: `${sandbox.url}/tracking_requests/infer_number`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Token ${API_KEY}` }] },
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify({ number: $json.number }) }}',
			options,
		},
	});
	for (const [label, options] of [
		['HTTP Request (defaults)', {}],
		[
			'HTTP Request (batching 200 per window)',
			{ batching: { batch: { batchSize: 200, batchInterval: windowSeconds * 1000 } } },
		],
	] as const) {
		await waitForFreshWindow();
		const theirs = await measure(() =>
			runNode(httpRequestNode(options as INode['parameters']), input, credentials),
		);
		rows.push({
			node: label,
			items: theirs.value.items.length,
			failed_items: theirs.value.items.filter((item) => item.json.error !== undefined).length,
			seconds: round(theirs.seconds),
			ideal_seconds: idealSeconds,
			peak_rss_mb: round(theirs.peakRssMb, 1),
			heap_delta_mb: round(theirs.heapDeltaMb, 1),
		});
	}
	await sandbox.stop();
	setRateWindow(60_000);
	return rows;
}

function containerUpdatedDelivery(index: number): string {
	return JSON.stringify({
		data: {
			id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
			type: 'webhook_notification',
			attributes: {
				id: `n-${index}`,
				event: 'container.updated',
				delivery_status: 'pending',
				created_at: '2026-11-22T10:00:00Z',
			},
			relationships: {
				reference_object: { data: { id: 'e1', type: 'container_updated_event' } },
				webhook: { data: { id: 'w1', type: 'webhook' } },
			},
		},
		included: [
			{
				id: 'c1',
				type: 'container',
				attributes: {
					number: 'MSKU4807969',
					available_for_pickup: false,
					availability_known: true,
					pod_discharged_at: '2026-11-20T10:00:00Z',
					holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: null }],
					fees_at_pod_terminal: [],
				},
				relationships: { shipment: { data: { id: 's1', type: 'shipment' } } },
			},
			{
				id: 's1',
				type: 'shipment',
				attributes: { bill_of_lading_number: 'MAEU123456789' },
				relationships: {},
				links: { self: '/v2/shipments/s1' },
			},
			{
				id: 't1',
				type: 'terminal',
				attributes: { name: 'Port Elizabeth' },
				relationships: { port: { data: { id: 'p1', type: 'port' } } },
			},
			{
				id: 'e1',
				type: 'container_updated_event',
				attributes: {
					changeset: {
						holds_at_pod_terminal: [
							[{ name: 'customs', status: 'pending', description: null }],
							[{ name: 'customs', status: 'hold', description: null }],
						],
						available_for_pickup: [null, false],
					},
					timestamp: '2026-11-22T10:00:00Z',
					data_source: 'terminal',
					timezone: 'America/New_York',
				},
				relationships: {
					container: { data: { id: 'c1', type: 'container' } },
					terminal: { data: { id: 't1', type: 'terminal' } },
					shipment: { data: { id: 's1', type: 'shipment' } },
				},
			},
		],
	});
}

async function deliveries(n8n: { webhook: IVersionedNodeType }) {
	const secret = 'bench-secret';
	const bodies = Array.from({ length: DELIVERIES }, (_, index) => containerUpdatedDelivery(index));
	const signatures = bodies.map((body) => createHmac('sha256', secret).update(body).digest('hex'));
	const credentials = { apiKey: API_KEY, baseUrl: 'http://127.0.0.1:9/v2' };
	const rows: IDataObject[] = [];

	const trigger = new TriggerHarness({ registration: 'existing', secret }, credentials);
	let items = 0;
	const ours = await measure(async () => {
		for (let index = 0; index < DELIVERIES; index++) {
			const { items: produced } = await trigger.deliver(bodies[index], {
				'X-SVC-Webhook-Signature': signatures[index],
			});
			items += produced.length;
		}
	});
	// A delivery the trigger refused would measure the refusal, not the work.
	if (items !== DELIVERIES * 2)
		throw new Error(`the trigger produced ${items} items for ${DELIVERIES} deliveries`);
	rows.push({
		node: 'Container Tracking Trigger (verify HMAC, split changeset)',
		deliveries: DELIVERIES,
		items,
		microseconds_per_delivery: round((ours.seconds / DELIVERIES) * 1e6, 0),
		peak_rss_mb: round(ours.peakRssMb, 1),
		heap_delta_mb: round(ours.heapDeltaMb, 1),
	});

	const webhookNode: INode = {
		id: 'a3f1c2d4-0000-4000-8000-000000000002',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: [0, 0],
		webhookId: '7d0c4a55-0000-4000-8000-000000000003',
		parameters: { httpMethod: 'POST', path: 'bench', responseMode: 'onReceived', options: {} },
	};
	const workflow = new Workflow({
		id: 'bench',
		nodes: [webhookNode],
		connections: {},
		nodeTypes,
		active: true,
	});
	// The Webhook node is one class for all its versions.
	const webhookType = n8n.webhook as unknown as INodeType;
	let webhookItems = 0;
	const theirs = await measure(async () => {
		for (let index = 0; index < DELIVERIES; index++) {
			const raw = Buffer.from(bodies[index]);
			const headers = {
				'content-type': 'application/json',
				'x-svc-webhook-signature': signatures[index],
			};
			const request = {
				method: 'POST',
				ip: '127.0.0.1',
				ips: [],
				body: JSON.parse(bodies[index]),
				headers,
				query: {},
				params: {},
				rawBody: raw,
				header: (name: string) => headers[name.toLowerCase() as keyof typeof headers],
			};
			const response = {
				status: () => response,
				json: () => response,
				send: () => response,
				end: () => response,
				setHeader: () => response,
				writeHead: () => response,
			};
			const context = new WebhookContext(
				workflow,
				webhookNode,
				{
					...engineAdditionalData(undefined, credentials),
					httpRequest: request,
					httpResponse: response,
				} as never,
				'webhook',
				{
					httpMethod: 'POST',
					node: webhookNode.name,
					path: 'bench',
					webhookDescription: webhookType.description.webhooks![0],
					workflowId: 'bench',
					workflowExecuteAdditionalData: engineAdditionalData(undefined, credentials),
				},
				[],
				null,
			);
			// The Webhook node is a class whose webhook() takes the context as its argument.
			const result = await (
				webhookType.webhook as unknown as (
					this: unknown,
					context: unknown,
				) => Promise<{ workflowData?: unknown[][] }>
			).call(webhookType, context);
			webhookItems += result.workflowData?.[0]?.length ?? 0;
		}
	});
	rows.push({
		node: "n8n's Webhook node (no verification, body passed on)",
		deliveries: DELIVERIES,
		items: webhookItems,
		microseconds_per_delivery: round((theirs.seconds / DELIVERIES) * 1e6, 0),
		peak_rss_mb: round(theirs.peakRssMb, 1),
		heap_delta_mb: round(theirs.heapDeltaMb, 1),
	});
	return rows;
}

function table(rows: IDataObject[]): string {
	const columns = Object.keys(rows[0]);
	return [
		`| ${columns.join(' | ')} |`,
		`|${columns.map(() => '---').join('|')}|`,
		...rows.map((row) => `| ${columns.map((column) => String(row[column])).join(' | ')} |`),
	].join('\n');
}

async function main(): Promise<void> {
	const n8n = await loadN8nNodes();
	registerNodeType('n8n-nodes-base.httpRequest', n8n.httpRequest);
	registerNodeType('n8n-nodes-base.webhook', n8n.webhook);
	const infer = await inferBatch();
	const delivered = await deliveries(n8n);
	const results = {
		measured_at: new Date().toISOString(),
		node: process.version,
		n8n_nodes_base: n8n.version,
		sandbox_time_scale: TIME_SCALE,
		infer_batch: infer,
		deliveries: delivered,
	};
	const dir = path.join(__dirname, 'results');
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
	const markdown = [
		`# Benchmarks (${results.measured_at}, Node ${results.node}, n8n-nodes-base ${results.n8n_nodes_base})`,
		'',
		`## ${NUMBERS} numbers through infer_number (sandbox minute = ${60 / TIME_SCALE} s)`,
		'',
		table(infer),
		'',
		`## ${DELIVERIES} signed container.updated deliveries`,
		'',
		table(delivered),
		'',
	].join('\n');
	writeFileSync(path.join(dir, 'latest.md'), markdown);
	process.stdout.write(`${markdown}\n`);
}

main()
	.then(() => process.exit(0))
	.catch((error: unknown) => {
		process.stderr.write(
			`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		process.exit(1);
	});

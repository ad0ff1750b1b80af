/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports */
// require(): n8n's HTTP Request node is loaded at run time from the cached n8n install.
/**
 * How long the pickers, the search and the lists take, and what finding a container by number
 * costs, on an account of 2,000 containers (`npm run bench:lookups`): each through n8n's engine
 * against the sandbox, the median of 7 runs after one warm-up, beside n8n's HTTP Request node
 * asking the same search. The calls are counted by the sandbox. Figures go to bench/results/.
 */
import './moduleResolution';

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INode, INodeParameters, IVersionedNodeType } from 'n8n-workflow';

import { withCheckDigit } from '../sandbox/world/containerNumbers';
import {
	loadOptionsWithNode,
	registerNodeType,
	runContainerTrackingNode,
	runNode,
	searchWithNode,
	triggerLoadOptionsWithNode,
} from '../test/support/engine';
import { countRequests, startTestSandbox, trackManyContainers } from '../test/support/sandbox';
import { median, timesOf } from './timing';

const CONTAINERS = 2000;
const RUNS = 7;

async function timed(run: () => Promise<unknown>): Promise<{ ms: number; worst: number }> {
	const times = await timesOf(run, RUNS);
	return {
		ms: Math.round(median(times) * 10) / 10,
		worst: Math.round(Math.max(...times) * 10) / 10,
	};
}

function failIfError(run: { error?: unknown; items: Array<{ json: IDataObject }> }) {
	if (run.error) throw run.error as Error;
	const failed = run.items.find((item) => item.json.error !== undefined);
	if (failed) throw new Error(String(failed.json.error));
	return run;
}

async function main() {
	// @ts-expect-error: an .mjs helper shared with the scripts
	const runtime = (await import('../scripts/n8n-runtime.mjs')) as { ensureN8n(): Promise<string> };
	const nodesBase = path.join(await runtime.ensureN8n(), 'node_modules', 'n8n-nodes-base');
	const { HttpRequest } = require(
		path.join(nodesBase, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js'),
	) as { HttpRequest: new () => IVersionedNodeType };
	registerNodeType('n8n-nodes-base.httpRequest', new HttpRequest());
	const n8nVersion = (require(path.join(nodesBase, 'package.json')) as { version: string }).version;

	// A key per measurement: each has its own rate limits, so no measurement waits for another's.
	const keys = Array.from({ length: 20 }, (_, index) => `bench-key-${index}`);
	const handle = await startTestSandbox({ trackingDelaySeconds: 0, extraApiKeys: keys });
	let nextKey = 0;
	const freshKey = () => ({ apiKey: keys[nextKey++], baseUrl: handle.sandbox.url });
	const numbers = Array.from({ length: CONTAINERS }, (_, index) =>
		withCheckDigit(`MSCU${String(400000 + index).padStart(6, '0')}`),
	);
	const setupStarted = Date.now();
	await trackManyContainers(handle, numbers, 'MSCU');
	const setupSeconds = (Date.now() - setupStarted) / 1000;
	let credentials = freshKey();
	const wanted = numbers[1234];
	const node =
		(parameters: INodeParameters, input: IDataObject[] = [{}]) =>
		() =>
			runContainerTrackingNode(parameters, input, credentials).then(failIfError);

	const rows: IDataObject[] = [];
	const row = async (what: string, run: () => Promise<unknown>) => {
		credentials = freshKey();
		const { ms, worst } = await timed(run);
		rows.push({ what, median_ms: ms, worst_ms: worst, under_1_s: worst < 1000 ? 'yes' : 'no' });
	};
	await row('Shipping Line picker (Tracking Request → Create)', () =>
		loadOptionsWithNode('getShippingLines', credentials),
	);
	await row('Trigger Events picker', () =>
		triggerLoadOptionsWithNode('getSubscribableEvents', credentials),
	);
	await row(
		'Search → Find by Number (one container number)',
		node({
			resource: 'search',
			operation: 'byNumber',
			query: wanted,
		}),
	);
	await row("HTTP Request node: GET /search?query= (the same search, n8n's own node)", () =>
		runNode(
			{
				id: 'a3f1c2d4-0000-4000-8000-000000000002',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [0, 0],
				parameters: {
					url: `${handle.sandbox.url}/search`,
					sendQuery: true,
					queryParameters: { parameters: [{ name: 'query', value: wanted }] },
					sendHeaders: true,
					headerParameters: {
						parameters: [{ name: 'Authorization', value: `Token ${credentials.apiKey}` }],
					},
					options: {},
				},
			} as INode,
			[{}],
			credentials,
		),
	);
	await row('Container locator From List, a whole number typed', () =>
		searchWithNode('searchContainers', credentials, wanted),
	);
	await row('Shipment locator From List, first page', () =>
		searchWithNode('searchShipments', credentials),
	);
	await row(
		'Shipment → Get Many (limit 50)',
		node({
			resource: 'shipment',
			operation: 'getMany',
			returnAll: false,
			limit: 50,
		}),
	);
	await row(
		'Tracking Request → Get Many, filtered by the service (carrier, status; limit 50)',
		node({
			resource: 'trackingRequest',
			operation: 'getMany',
			returnAll: false,
			limit: 50,
			filters: { scac: 'MSCU', statuses: ['created'] },
		}),
	);
	await row('Webhook → Get Events', node({ resource: 'webhook', operation: 'getEvents' }));
	await row(
		'Container → Get by Number (one item)',
		node({
			resource: 'container',
			operation: 'get',
			containerId: { __rl: true, mode: 'number', value: wanted },
		}),
	);

	// What finding containers by number costs, in calls the sandbox counted.
	const calls: IDataObject[] = [];
	for (const items of [1, 20, 21, 60]) {
		credentials = freshKey();
		const searches = await countRequests(handle, 'GET', '/search');
		const lists = await countRequests(handle, 'GET', '/containers');
		const gets = await countRequests(handle, 'GET', '/containers/*');
		const started = Date.now();
		await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'get',
				containerId: { __rl: true, mode: 'number', value: '={{ $json.number }}' },
			},
			numbers.slice(0, items).map((number) => ({ number })),
			credentials,
		).then(failIfError);
		const seconds = (Date.now() - started) / 1000;
		calls.push({
			items,
			search_calls: await searches(),
			container_list_pages: await lists(),
			container_gets: await gets(),
			seconds,
		});
		await handle.control.delete('/faults');
	}
	await handle.stop();

	const table = (entries: IDataObject[]) => {
		const columns = Object.keys(entries[0]);
		return [
			`| ${columns.join(' | ')} |`,
			`| ${columns.map(() => '---').join(' | ')} |`,
			...entries.map(
				(entry) => `| ${columns.map((column) => String(entry[column])).join(' | ')} |`,
			),
		].join('\n');
	};
	const dir = path.join(__dirname, 'results');
	mkdirSync(dir, { recursive: true });
	const measuredAt = new Date().toISOString();
	writeFileSync(
		path.join(dir, 'lookups.json'),
		JSON.stringify({ measuredAt, n8nVersion, containers: CONTAINERS, rows, calls }, null, '\t') +
			'\n',
	);
	writeFileSync(
		path.join(dir, 'lookups.md'),
		[
			'# Pickers, search and lists on an account of 2,000 containers',
			'',
			`Measured ${measuredAt} by \`npm run bench:lookups\` (bench/lookups.ts), through n8n's engine against`,
			`the sandbox on this machine; n8n-nodes-base ${n8nVersion} for the HTTP Request node. Median and worst of`,
			`${RUNS} runs after one warm-up. Tracking the ${CONTAINERS} containers took ${setupSeconds} s.`,
			'',
			table(rows),
			'',
			'## Finding containers by number: calls the sandbox counted',
			'',
			'Container → Get with the locator in By Number mode, one item per number. Up to 20 items',
			'search each number (`GET /search`, one call each); more read the container list once',
			'(100 a page) and find every number in it.',
			'',
			table(calls),
			'',
		].join('\n'),
	);
	process.stdout.write(`${table(rows)}\n\n${table(calls)}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});

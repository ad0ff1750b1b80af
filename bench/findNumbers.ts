/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @typescript-eslint/no-require-imports */
// require(): n8n's Edit Fields (Set) node is loaded at run time from the cached n8n install.
/**
 * Whether Find Numbers in Text's cost grows with the text and no faster (`npm run
 * bench:find-numbers`): texts of 1 KB to 1 MB of prose with one container number every 2 KB and
 * one labelled bill of lading every 4 KB, each timed (median of 7 after a warm-up):
 *
 * - the scanner alone (nodes/ContainerTracking/logic/numberFinder.ts);
 * - the node through n8n's engine with Infer Carrier off (no call to the service);
 * - beside it, n8n's own Edit Fields (Set) node given the same text and an expression holding
 *   the regular expression a user would write for container numbers alone
 *   (`$json.text.match(/[A-Z]{4}\d{7}/g)`), which checks no check digit and finds no split
 *   number.
 *
 * Figures go to bench/results/findNumbers.md and .json.
 */
import './moduleResolution';

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { INode, IVersionedNodeType } from 'n8n-workflow';

import { computeCheckDigit } from '../nodes/ContainerTracking/logic/iso6346';
import { findNumbers } from '../nodes/ContainerTracking/logic/numberFinder';
import { registerNodeType, runContainerTrackingNode, runNode } from '../test/support/engine';
import { prose, random } from '../test/support/prose';
import { median, timesOf } from './timing';

const RUNS = 7;
const SIZES_KB = [1, 4, 16, 64, 256, 1024];

async function timed(run: () => unknown): Promise<number> {
	return Math.round(median(await timesOf(run, RUNS)) * 100) / 100;
}

/**
 * Prose of `kilobytes` KB with a split container number every 2 KB and a labelled bill of lading
 * every 4 KB; the numbers placed, by kind.
 */
function notice(kilobytes: number): { text: string; containers: number; billsOfLading: number } {
	const next = random(kilobytes);
	const size = kilobytes * 1024;
	let text = '';
	let containers = 0;
	let billsOfLading = 0;
	for (;;) {
		const serial = String(Math.floor(next() * 1e6)).padStart(6, '0');
		const container = ` MSCU ${serial} ${computeCheckDigit(`MSCU${serial}`)} `;
		const billOfLading = containers % 2 === 1 ? `\nB/L No.: MEDUFR${serial}\n` : '';
		const filler = prose(Math.min(2048, size / 2) - container.length - billOfLading.length, next);
		if (text.length + filler.length + container.length + billOfLading.length > size) break;
		text += filler + container + billOfLading;
		containers++;
		if (billOfLading) billsOfLading++;
	}
	return {
		text: text + prose(size - text.length, next).slice(0, size - text.length),
		containers,
		billsOfLading,
	};
}

async function main() {
	// @ts-expect-error: an .mjs helper shared with the scripts
	const runtime = (await import('../scripts/n8n-runtime.mjs')) as {
		ensureN8n(): Promise<string>;
		DEFAULT_N8N_VERSION: string;
	};
	const nodesBase = path.join(await runtime.ensureN8n(), 'node_modules', 'n8n-nodes-base');
	const { Set } = require(path.join(nodesBase, 'dist', 'nodes', 'Set', 'Set.node.js')) as {
		Set: new () => IVersionedNodeType;
	};
	registerNodeType('n8n-nodes-base.set', new Set());
	const setNode: INode = {
		id: 'c0ffee00-0000-4000-8000-000000000001',
		name: 'Edit Fields',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [0, 0],
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: [
					{
						id: 'numbers',
						name: 'numbers',
						type: 'array',
						value: '={{ $json.text.match(/[A-Z]{4}\\d{7}/g) ?? [] }}',
					},
				],
			},
			options: {},
		},
	};
	const credentials = { apiKey: 'unused', baseUrl: 'http://127.0.0.1:9/' };
	const rows = [];
	// The engine's first runs are slower (compiling); one run of the largest text warms it.
	await runContainerTrackingNode(
		{
			resource: 'trackingRequest',
			operation: 'findNumbers',
			text: '={{ $json.text }}',
			inferCarrier: false,
		},
		[{ text: notice(1024).text }],
		credentials,
	);
	for (const kilobytes of SIZES_KB) {
		const { text, containers, billsOfLading } = notice(kilobytes);
		const numbers = findNumbers(text);
		const kinds = (kind: string | null) => numbers.filter((number) => number.kind === kind).length;
		const scanner = await timed(() => findNumbers(text));
		let nodeItems = 0;
		const node = await timed(async () => {
			const run = await runContainerTrackingNode(
				{
					resource: 'trackingRequest',
					operation: 'findNumbers',
					text: '={{ $json.text }}',
					inferCarrier: false,
				},
				[{ text }],
				credentials,
			);
			if (run.error) throw run.error as Error;
			nodeItems = run.items.length;
		});
		let setFound = 0;
		const set = await timed(async () => {
			const run = await runNode(setNode, [{ text }], credentials);
			if (run.error) throw run.error as Error;
			setFound = (run.items[0].json.numbers as unknown[]).length;
		});
		rows.push({
			kilobytes,
			characters: text.length,
			containers_placed: containers,
			containers_found: kinds('container'),
			bills_of_lading_placed: billsOfLading,
			bills_of_lading_found: kinds('bill_of_lading'),
			// Numbers the prose itself holds after a label ("booking 4821937").
			other_found: numbers.length - kinds('container') - kinds('bill_of_lading'),
			node_items: nodeItems,
			scanner_ms: scanner,
			scanner_us_per_kb: Math.round((scanner * 1000) / kilobytes),
			node_ms: node,
			set_node_ms: set,
			set_node_found: setFound,
		});
	}
	const perKb = rows.filter((row) => row.kilobytes >= 16).map((row) => row.scanner_us_per_kb);
	const directory = path.join(__dirname, 'results');
	mkdirSync(directory, { recursive: true });
	const result = {
		date: new Date().toISOString(),
		n8n: runtime.DEFAULT_N8N_VERSION,
		runs: RUNS,
		rows,
	};
	writeFileSync(path.join(directory, 'findNumbers.json'), `${JSON.stringify(result, null, 2)}\n`);
	const lines = [
		'# Find Numbers in Text: cost against the length of the text',
		'',
		`${result.date}, n8n ${result.n8n}'s engine, Node ${process.version}, ${RUNS} runs each (median after a warm-up).`,
		'Prose with a split container number ("MSCU 123456 5") every 2 KB and a labelled bill of',
		'lading every 4 KB (bench/findNumbers.ts). Other: numbers the prose itself puts after a label',
		'("booking 4821937"). Beside it, n8n\'s Edit Fields (Set) node with the expression',
		'`$json.text.match(/[A-Z]{4}\\d{7}/g)`: it finds only unsplit container numbers and checks no',
		'check digit, so it finds none of these.',
		'',
		'| Text | Containers placed / found | B/L placed / found | Other | Scanner (ms) | Scanner (µs per KB) | Node, no inference (ms) | Edit Fields with a regex (ms), found |',
		'|---|---|---|---|---|---|---|---|',
		...rows.map(
			(row) =>
				`| ${row.kilobytes} KB | ${row.containers_placed} / ${row.containers_found} | ${row.bills_of_lading_placed} / ${row.bills_of_lading_found} | ${row.other_found} | ${row.scanner_ms} | ${row.scanner_us_per_kb} | ${row.node_ms} | ${row.set_node_ms}, ${row.set_node_found} |`,
		),
		'',
		`From 16 KB to 1 MB the scanner took ${Math.min(...perKb)}–${Math.max(...perKb)} µs per KB: its time grows with the text, not faster.`,
		'',
	];
	writeFileSync(path.join(directory, 'findNumbers.md'), lines.join('\n'));
	process.stdout.write(lines.join('\n'));
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});

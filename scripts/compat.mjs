#!/usr/bin/env node
// `npm run test:compat [version ...]`: the end-to-end smoke on each n8n
// docs/compatibility.md names (COMPAT_N8N_VERSIONS: the supported range's ends and the newest
// 1.x), each installed with the Node it runs on (scripts/n8n-runtime.mjs). The smoke is three of
// `npm test`'s end-to-end files, run against that n8n: test/e2e/operations.test.ts (the
// credential, every operation of every resource, errors), test/e2e/trigger.test.ts (the trigger
// registering its webhook, verifying signatures, splitting a changeset into items, a repeat after
// a restart ignored, the credential's Test button, deactivation) and test/e2e/quickStart.test.ts
// (the README's quick start end to end: examples/hold-alerts.json as shipped, its set-up note
// followed, published, a customs hold played, its emails read in a local inbox), and
// test/e2e/askInChat.test.ts (the Ask in chat examples: every node type and version known, the
// AI Agent calling the package's tools through a scripted stand-in for a model). Figures go to
// bench/results/compat.json and compat.md (a run of some versions keeps the others' rows); the
// exit code is non-zero when any version failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	COMPAT_N8N_VERSIONS,
	installRecord,
	runtimeDir,
	runtimeNodeBuild,
} from './n8n-runtime.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SMOKE = [
	'test/e2e/operations.test.ts',
	'test/e2e/trigger.test.ts',
	'test/e2e/quickStart.test.ts',
	'test/e2e/askInChat.test.ts',
];
const versions = process.argv.slice(2).length > 0 ? process.argv.slice(2) : COMPAT_N8N_VERSIONS;

/** Runs a command with its output passed through; its exit code, seconds taken and output (its last 2 MB). */
function run(command, args, env) {
	const started = Date.now();
	return new Promise((resolve) => {
		let output = '';
		const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
		const pass = (stream) => (chunk) => {
			output = (output + chunk.toString()).slice(-2_000_000);
			stream.write(chunk);
		};
		child.stdout.on('data', pass(process.stdout));
		child.stderr.on('data', pass(process.stderr));
		child.on('close', (code) =>
			resolve({ code, seconds: Math.round((Date.now() - started) / 1000), output }),
		);
	});
}

/**
 * Each example workflow's n8n nodes that this n8n lacks, as `type version`: n8n refuses to publish
 * a workflow holding one. Read from the installed n8n-nodes-base's and n8n's AI nodes' (the
 * Ask in chat examples' agent, model, memory and Chat Trigger) lists of their nodes, where a
 * versioned node (Switch, Google Sheets) has one entry per implementation and n8n accepts only the
 * versions they list, and a plain node has one entry and is taken whatever version a workflow
 * names (1.123's Data Table runs a node saved at 1.1). A workflow kept inside a node's parameters
 * (Routing table's Workflow JSON) is not read: it runs only when that node does.
 */
function examplesNodesMissing(version) {
	const packages = ['n8n-nodes-base', '@n8n/n8n-nodes-langchain'];
	const list = (name) =>
		path.join(runtimeDir(version), 'node_modules', name, 'dist', 'types', 'nodes.json');
	if (!existsSync(list('n8n-nodes-base'))) return null;
	const entries = new Map();
	for (const name of packages.filter((each) => existsSync(list(each))))
		for (const node of JSON.parse(readFileSync(list(name), 'utf8'))) {
			const type = `${name}.${node.name}`;
			entries.set(type, [...(entries.get(type) ?? []), [node.version].flat()]);
		}
	const has = (type, typeVersion) => {
		const found = entries.get(type);
		if (!found) return false;
		return found.length === 1 || found.some((versions) => versions.includes(typeVersion));
	};
	const examples = path.join(repoRoot, 'examples');
	const missing = {};
	for (const file of readdirSync(examples)
		.filter((name) => name.endsWith('.json'))
		.sort()) {
		const { nodes } = JSON.parse(readFileSync(path.join(examples, file), 'utf8'));
		const lacking = nodes
			.filter((node) => packages.some((name) => node.type.startsWith(`${name}.`)))
			.filter((node) => !has(node.type, node.typeVersion))
			.map((node) => `${node.type.replace(/^n8n-nodes-base\./, '')} ${node.typeVersion}`);
		missing[file] = [...new Set(lacking)];
	}
	return missing;
}

const results = [];
for (const version of versions) {
	const env = { ...process.env, CT_N8N_VERSION: version };
	process.stdout.write(`\n[compat] n8n ${version} on Node ${runtimeNodeBuild(version).version}\n`);
	const install = await run(process.execPath, ['scripts/n8n-runtime.mjs', version], env);
	// The install's own figures, also when this run found it in the cache.
	const record = installRecord(version);
	const result = {
		n8n: version,
		node: runtimeNodeBuild(version).version,
		install_seconds: record ? record.installSeconds + record.rebuildSeconds : null,
		installed_at: record?.installedAt ?? null,
		test_seconds: null,
		quick_start: null,
		passed: 0,
		failed: 0,
		ok: false,
		measured_at: new Date().toISOString(),
	};
	if (install.code === 0) {
		const jest = path.join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js');
		const tests = await run(
			process.execPath,
			[jest, '--ci', '--runTestsByPath', ...SMOKE, '--selectProjects', 'main'],
			env,
		);
		const counts = [...tests.output.matchAll(/^jest: (\d+) passed, (\d+) failed/gm)].pop();
		// What the quick start saw: the two emails' subjects, their Routing line, and the reads of
		// the routing table n8n left running (test/e2e/quickStart.test.ts prints it).
		const quickStart = /^quick start on n8n [^:]+: (.*)$/m.exec(tests.output);
		Object.assign(result, {
			examples_nodes_missing: examplesNodesMissing(version),
			quick_start: quickStart ? quickStart[1] : null,
			test_seconds: tests.seconds,
			passed: counts ? Number(counts[1]) : 0,
			failed: counts ? Number(counts[2]) : 0,
			ok: tests.code === 0 && Boolean(counts) && Number(counts[1]) > 0,
		});
	}
	results.push(result);
}

// The figures of the versions run now replace theirs in bench/results/compat.json; the other
// versions' rows stay, each with the time it was measured.
const resultsDir = path.join(repoRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = path.join(resultsDir, 'compat.json');
const earlier = existsSync(resultsFile)
	? JSON.parse(readFileSync(resultsFile, 'utf8')).results
	: [];
const rows = [...earlier.filter((row) => !versions.includes(row.n8n)), ...results].sort((a, b) =>
	a.n8n.localeCompare(b.n8n, 'en', { numeric: true }),
);
writeFileSync(resultsFile, `${JSON.stringify({ smoke: SMOKE, results: rows }, null, 2)}\n`);
const missingOf = (row) => {
	if (!row.examples_nodes_missing) return 'not read';
	const lacking = Object.entries(row.examples_nodes_missing).filter(
		([, nodes]) => nodes.length > 0,
	);
	return lacking.length === 0
		? 'none'
		: lacking.map(([file, nodes]) => `${file} (${nodes.join(', ')})`).join('; ');
};
const tableOf = (list) =>
	[
		'| n8n | Node | measured | install and rebuild (s, its first run) | smoke (s) | passed | failed | result |',
		'|---|---|---|---|---|---|---|---|',
		...list.map(
			(r) =>
				`| ${r.n8n} | ${r.node} | ${r.measured_at} | ${r.install_seconds ?? '-'} | ${r.test_seconds ?? '-'} | ${r.passed} | ${r.failed} | ${r.ok ? 'pass' : 'FAIL'} |`,
		),
	].join('\n');
writeFileSync(
	path.join(resultsDir, 'compat.md'),
	`# Compatibility smoke\n\n\`npm run test:compat\`: ${SMOKE.slice(0, -1).join(', ')} and ${SMOKE.at(-1)} on each n8n, on the Node it runs on (scripts/compat.mjs).\n\n${tableOf(rows)}\n\nWhat the quick start saw on each (test/e2e/quickStart.test.ts: the emails of a customs hold, their Routing line, the reads of the routing table n8n left running):\n\n${rows.map((r) => `- ${r.n8n}: ${r.quick_start ?? 'not run'}`).join('\n')}\n\nWhich n8n nodes each example holds that this n8n lacks (n8n refuses to publish a workflow holding one; docs/compatibility.md, "The examples on each version"):\n\n${rows.map((r) => `- ${r.n8n}: ${missingOf(r)}`).join('\n')}\n`,
);
process.stdout.write(`\n${tableOf(results)}\n`);
const passed = results.reduce((sum, r) => sum + r.passed, 0);
// A version that failed with no failing test (its install, or jest itself) counts as one failure.
const failed = results.reduce((sum, r) => sum + (r.ok ? 0 : Math.max(r.failed, 1)), 0);
process.stdout.write(`compat: ${passed} passed, ${failed} failed\n`);
process.exit(results.every((r) => r.ok) ? 0 : 1);

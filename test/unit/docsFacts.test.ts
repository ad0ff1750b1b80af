/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reading the documentation and the examples from disk; the rule is for the published nodes */
// One place for each fact, and the documentation agreeing with the code wherever it names one:
// the trigger's node version (the examples' too), the service's rate limits the transport
// enforces, the n8n versions the tests run on, and the node's operations. Every fact is read from
// the code here, never written in this file; test/support/docs.ts has the checks, and each is
// shown failing on a planted disagreement first. CHANGELOG.md is history: its figures are not
// checked (its links are, in docsLinks.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import { RATE_LIMITS } from '../../nodes/ContainerTracking/logic/rateLimits';
import {
	checkExampleNodeVersions,
	checkNodeVersions,
	checkOperations,
	checkRateLimits,
	checkTestedVersions,
	docFiles,
	newest,
	nodeFacts,
	operationsOf,
	operationsTable,
	ROOT,
	type DocFile,
	type TestedVersions,
} from '../support/docs';
import { stickyNotes, workflowOf } from '../support/docsPages';
import { importNative } from '../support/importNative';

const packageName = (
	JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string }
).name;
const action = new ContainerTracking().description;
const nodes = [nodeFacts(new ContainerTrackingTrigger().description), nodeFacts(action)];
const [trigger] = nodes;

const operations = operationsOf(action.properties);

let versions: TestedVersions;
beforeAll(async () => {
	const runtime = await importNative<{
		COMPAT_N8N_VERSIONS: string[];
		OLDEST_SUPPORTED_N8N: string;
	}>('scripts/n8n-runtime.mjs');
	versions = { tested: runtime.COMPAT_N8N_VERSIONS, oldest: runtime.OLDEST_SUPPORTED_N8N };
});

const docs = docFiles();
const examples: DocFile[] = readdirSync(path.join(ROOT, 'examples'))
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file: `examples/${file}`,
		text: readFileSync(path.join(ROOT, 'examples', file), 'utf8'),
	}));
/** The examples' sticky notes, which name versions and limits as the pages do. */
const notes = examples.flatMap((example) => stickyNotes(workflowOf(example)));
const doc = (file: string, ...lines: string[]): DocFile => ({ file, text: lines.join('\n') });

describe('the facts read from the code', () => {
	it('are there to compare with', () => {
		expect(trigger.trigger).toBe(true);
		expect(trigger.versions).toContain(trigger.current);
		expect(Object.keys(RATE_LIMITS).length).toBeGreaterThan(0);
		expect(versions.tested).toContain(versions.oldest);
		expect(operations.length).toBeGreaterThan(10);
		expect(new Set(operations.map(({ resource }) => resource)).size).toBeGreaterThan(3);
		expect(docs.map(({ file }) => file)).toContain('README.md');
	});
});

describe('each check fails on a planted disagreement', () => {
	const older = trigger.versions.find((version) => version !== trigger.current)!;

	it('a trigger node version other than the current one, or one the node lacks', () => {
		const planted = [
			doc(
				'docs/trigger.md',
				`# Trigger`,
				``,
				`The trigger's node version is ${older} because n8n evaluates an expression.`,
				`Deliveries start one execution (node version ${trigger.current}). Versions before it,`,
				`node version ${trigger.versions.filter((v) => v !== trigger.current).join(' and ')}, start one per delivery.`,
				`The Container Tracking Trigger ${trigger.current + 5} does not exist.`,
				`Import it into the trigger v${older} as it is.`,
				`It needs version ${older} of the Container Tracking Trigger node.`,
				'```json',
				`{ "typeVersion": ${older} }`,
				'```',
			),
			doc('CHANGELOG.md', `- Container Tracking Trigger is node version ${older}.`),
		];
		expect(checkNodeVersions(planted, nodes)).toEqual([
			expect.stringMatching(
				new RegExp(
					`^docs/trigger\\.md:3: names .* node version ${older}; the current one is ${trigger.current}`,
				),
			),
			expect.stringMatching(/^docs\/trigger\.md:6: names .* version \S+, which it does not have/),
			expect.stringMatching(new RegExp(`^docs/trigger\\.md:7: names .* node version ${older};`)),
			expect.stringMatching(new RegExp(`^docs/trigger\\.md:8: names .* node version ${older};`)),
		]);
	});

	it('an example whose trigger is not the current node version', () => {
		const workflow = {
			nodes: [
				{ name: 'On hold', type: `${packageName}.${trigger.name}`, typeVersion: older },
				{ name: 'Email', type: 'n8n-nodes-base.emailSend', typeVersion: 2.1 },
			],
		};
		expect(
			checkExampleNodeVersions(
				[{ file: 'examples/planted.json', text: JSON.stringify(workflow, null, '\t') }],
				nodes,
				packageName,
			),
		).toEqual([
			`examples/planted.json:4: node "On hold" is ${trigger.displayName} typeVersion ${older}; the current one is ${trigger.current}`,
		]);
	});

	it('a rate limit other than the one the transport enforces', () => {
		const [bucket, limit] = Object.entries(RATE_LIMITS).find(([name]) => name === 'refresh')!;
		const planted = [
			doc(
				'README.md',
				`The node stays inside the service's rate limits: it paces its calls per API key`,
				`(200 a minute for inference, ${limit * 10} for refreshing containers, 100 for everything else).`,
				`A check costs 24 calls an hour, out of the service's 7 a minute, through the rate gate.`,
				`Executions appear within a minute.`,
			),
			doc('CHANGELOG.md', `- The rate limit of refreshing is ${limit * 3} a minute.`),
		];
		const problems = checkRateLimits(planted, RATE_LIMITS);
		expect(problems).toEqual(
			expect.arrayContaining([
				`README.md:2: gives the ${bucket} rate limit as ${limit * 10} a minute; the code enforces ${limit}`,
				expect.stringMatching(/^README\.md:3: gives a rate limit of 7 a minute/),
			]),
		);
		expect(problems.filter((problem) => problem.startsWith('CHANGELOG'))).toEqual([]);
		// "Everything else" at the default limit, leaving out a call the code limits otherwise.
		expect(
			checkRateLimits(
				[
					doc(
						'README.md',
						`429 over the rate limits per API key: ${RATE_LIMITS.infer_number} a minute for inference,`,
						`${RATE_LIMITS.tracking_requests} for creating tracking requests, ${RATE_LIMITS.default} for everything else.`,
					),
				],
				RATE_LIMITS,
			),
		).toEqual([
			`README.md:2: gives ${RATE_LIMITS.default} a minute for everything else, but the code gives ${bucket} a limit of its own, ${limit}`,
			expect.stringMatching(/^\(docs\): no table or sentence gives the rate limit of refresh/),
		]);
		// A table of the limits with one row wrong, and one limit stated nowhere.
		const table = [
			'| Calls | Limit per minute |',
			'| --- | --- |',
			...Object.entries(RATE_LIMITS)
				.filter(([name]) => name !== 'tracking_requests')
				.map(([name, value]) => {
					const calls = (
						{ infer_number: 'Inferring a number', refresh: 'Refreshing a container' } as Record<
							string,
							string | undefined
						>
					)[name];
					return `| ${calls ?? 'Everything else'} | ${name === 'infer_number' ? value + 1 : value} |`;
				}),
		];
		expect(checkRateLimits([doc('docs/service.md', ...table)], RATE_LIMITS)).toEqual([
			expect.stringMatching(
				/^docs\/service\.md:3: gives the infer_number rate limit as \d+ a minute/,
			),
			expect.stringMatching(
				/^\(docs\): no table or sentence gives the rate limit of infer_number .*tracking_requests/,
			),
		]);
	});

	it('an n8n version called tested that the tests do not run on, and a Compatibility section without the newest', () => {
		const untested = '2.39.9';
		const planted = [
			doc(
				'README.md',
				'## Compatibility',
				'',
				`n8n ${versions.oldest} and later. Tested on:`,
				'',
				'| n8n | Node |',
				'| --- | --- |',
				`| **${untested}** | 24.21.0 |`,
				`| ${versions.oldest} | 22.23.3 |`,
				'',
				'## Capacity',
				'',
				`Measured on n8n ${untested}. Tested on n8n ${versions.oldest} and ${untested}.`,
			),
		];
		expect(checkTestedVersions(planted, versions)).toEqual([
			`README.md:7: calls n8n ${untested} tested; the tests run on ${versions.tested.join(', ')}`,
			`README.md:12: calls n8n ${untested} tested; the tests run on ${versions.tested.join(', ')}`,
			`(docs): no Compatibility section names n8n ${newest(versions.tested)}, the newest n8n the tests run on`,
		]);
	});

	it('an operation the node lacks, and one the table leaves out', () => {
		const [first, ...rest] = operations;
		const rows = [first, ...rest.slice(1)].map(
			({ resource, operation }) => `| ${resource} → ${operation} | fields |`,
		);
		const planted = doc(
			'docs/reference.md',
			'| Resource → Operation | Fields |',
			'| --- | --- |',
			...rows,
			`| ${first.resource} → Get Everything / ${first.operation} | fields |`,
		);
		expect(checkOperations([planted], operations)).toEqual([
			`docs/reference.md:${rows.length + 3}: names the operation ${first.resource} → Get Everything, which the node does not have`,
			`docs/reference.md:3: the operations table lacks ${rest[0].resource} → ${rest[0].operation}`,
		]);
		// The table the docs may paste is the one the check accepts.
		expect(checkOperations([doc('README.md', operationsTable(operations))], operations)).toEqual(
			[],
		);
	});
});

describe('the documentation agrees with the code', () => {
	it("names the trigger's current node version, an older one only as older", () => {
		expect(notes.length).toBeGreaterThan(examples.length);
		expect(checkNodeVersions([...docs, ...notes], nodes)).toEqual([]);
	});

	it("the examples' nodes are the current node versions", () => {
		expect(checkExampleNodeVersions(examples, nodes, packageName)).toEqual([]);
	});

	it('gives the rate limits the transport enforces (logic/rateLimits.ts)', () => {
		expect(checkRateLimits([...docs, ...notes], RATE_LIMITS)).toEqual([]);
	});

	it('calls tested only the n8n versions the tests run on (scripts/n8n-runtime.mjs)', () => {
		expect(checkTestedVersions(docs, versions)).toEqual([]);
	});

	it("lists every operation of the node's description and no other", () => {
		expect(checkOperations(docs, operations)).toEqual([]);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reading the documentation and the examples from disk; the rule is for the published nodes */
// One place for each fact, and the documentation agreeing with the code wherever it names one:
// the trigger's node version (the examples' too), the service's rate limits the transport
// enforces, the n8n versions the tests run on, and the node's operations; what `npm start`
// prints, the fields a page lists for an operation and the messages a page quotes (issue 60).
// Every fact is read from the code here, never written in this file; test/support/docs.ts and
// docsAgreement.ts have the checks, and each is shown failing on a planted disagreement first.
// CHANGELOG.md is history: its figures are not checked (its links are, in docsLinks.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ContainerTrackingApi } from '../../credentials/ContainerTrackingApi.credentials';
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
import {
	checkFieldTables,
	checkOperationFields,
	checkPrintout,
	checkQuotedMessages,
	codeStrings,
	operationFields,
	printedLines,
	workflowStrings,
} from '../support/docsAgreement';
import { descriptionNames, stickyNotes, workflowOf } from '../support/docsPages';
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

/** `npm start`'s summary: the lines it prints (scripts/lib/demoSummary.mjs), and where the README quotes them. */
const START = 'scripts/lib/demoSummary.mjs';
const startSource = readFileSync(path.join(ROOT, START), 'utf8');
const SUMMARY = 'Container tracking demo is running.';
const TRY_IT = 'Try it without an account';
const printed = printedLines(startSource, SUMMARY);

/** Each operation's fields, and every label of the nodes and the credential. */
const fields = operationFields(action.properties);
const credential = new ContainerTrackingApi();
const labels = descriptionNames([
	action,
	new ContainerTrackingTrigger().description,
	{ displayName: credential.displayName, properties: credential.properties },
]);

/** The strings the code and the examples' Code nodes can put in front of a user. */
function sourcesUnder(folder: string): string[] {
	return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? sourcesUnder(`${folder}/${entry.name}`)
			: /\.(?:ts|mjs)$/.test(entry.name)
				? [`${folder}/${entry.name}`]
				: [],
	);
}
const strings = [
	...['nodes', 'credentials', 'scripts', 'sandbox']
		.flatMap(sourcesUnder)
		.flatMap((file) => codeStrings(file, readFileSync(path.join(ROOT, file), 'utf8'))),
	...workflowStrings(examples.map(workflowOf)),
];
/**
 * What pages quote that n8n (its editor, its credential test on 1.123, a node that cannot load,
 * its task runner) says in its own words, not this package's code.
 */
const N8N_WORDS: ReadonlySet<string> = new Set([
	'Connection tested successfully',
	"Couldn't connect with these settings",
	'On new Container Tracking event',
	"Cannot read properties of undefined (reading 'Main')",
	'Authorization failed - please check your credentials',
	'The resource you are requesting could not be found',
	'The service refused the connection - perhaps it is offline',
	'Task request timed out',
	// The tooltip of the sparkle beside a field of a tool node (n8n-editor-ui).
	'Let the model define this parameter',
]);

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

describe('each check of what the pages quote fails on a planted mistake (issue 60)', () => {
	const source = [
		'const OWNER = { email: "demo@example.com" };',
		'process.stdout.write(`',
		'Demo is running.',
		'',
		'  n8n editor    ${n8n.url}',
		'  login         ${OWNER.email} / ${OWNER.password}',
		"  arrivals      ${imap ? `IMAP ${imap.host}:${imap.port}, ${imap.user} / ${imap.password}` : 'no IMAP server'}",
		'',
		'Press Ctrl-C to stop everything.',
		'`);',
	].join('\n');
	const lines = printedLines(source, 'Demo is running');
	const readme = (...quote: string[]) =>
		doc('README.md', '# Package', '', '## Try it', '', 'It prints:', '', '```', ...quote, '```');

	it('(a) the printout the README shows, against the lines the code prints', () => {
		expect(lines.map(({ code }) => code)).toEqual([
			'Demo is running.',
			'n8n editor ${…}',
			'login ${…} / ${…}',
			'arrivals ${…}',
			'Press Ctrl-C to stop everything.',
		]);
		const right = [
			'Demo is running.',
			'',
			'  n8n editor    http://127.0.0.1:5678',
			'  login         demo@example.com / Demo-password-1',
			'  arrivals      IMAP 127.0.0.1:40143, arrivals@example.com / …',
			'',
			'Press Ctrl-C to stop everything.',
		];
		expect(
			checkPrintout(readme(...right), 'Try it', 'Demo is running.', lines, 'start.mjs'),
		).toEqual([]);
		// A line the code does not print, a label changed, a line left out, one too many.
		expect(
			checkPrintout(
				readme(
					'Demo is running.',
					'',
					'  n8n editor    http://127.0.0.1:5678',
					'  sign in       demo@example.com / Demo-password-1',
					'  arrivals      no mail server',
				),
				'Try it',
				'Demo is running.',
				lines,
				'start.mjs',
			),
		).toEqual([
			'README.md:11: shows "sign in demo@example.com / Demo-password-1", which start.mjs does not print (next it prints "login ${…} / ${…}")',
			'README.md:12: shows "arrivals no mail server", which start.mjs does not print (next it prints "login ${…} / ${…}")',
			'README.md: the quote lacks a line start.mjs prints at its end: "login ${…} / ${…}"',
			'README.md: the quote lacks a line start.mjs prints at its end: "arrivals ${…}"',
			'README.md: the quote lacks a line start.mjs prints at its end: "Press Ctrl-C to stop everything."',
		]);
		// A line left out in the middle.
		expect(
			checkPrintout(
				readme(...right.filter((line) => !line.includes('login'))),
				'Try it',
				'Demo is running.',
				lines,
				'start.mjs',
			),
		).toEqual([
			'README.md:11: the quote lacks a line start.mjs prints before it: "login ${…} / ${…}"',
		]);
		expect(
			checkPrintout(
				readme(...right, 'Open the editor now.'),
				'Try it',
				'Demo is running.',
				lines,
				'start.mjs',
			),
		).toEqual(['README.md:15: shows "Open the editor now.", which start.mjs does not print']);
	});

	it('(d) a field an operation does not show, listed for it; a field table naming a label we lack', () => {
		const planted = [
			doc(
				'README.md',
				'In a new workflow: **Container Tracking** → **Webhook** → **Get** (**Options** →',
				'**Include Secret** on), then **Webhook** → **Send Test Delivery** (**URL** `x`,',
				'**Event** _Container Updated_, **Secret** `y`).',
				'',
				'| Field | What to enter |',
				'| --- | --- |',
				'| API Key | the key |',
				'| API Token | the token |',
				'| `number` | an item key, not a field |',
			),
			doc(
				'docs/nodes.md',
				'| Resource → Operation | Fields |',
				'| --- | --- |',
				'| Webhook → Send Test Delivery | **URL**, **Event Name or ID**, **Signature** |',
			),
		];
		expect(checkOperationFields(planted, fields)).toEqual([
			'README.md:2: names the field **Event** of Webhook → Send Test Delivery, which its form does not show',
			'docs/nodes.md:3: names the field **Signature** of Webhook → Send Test Delivery, which its form does not show',
		]);
		expect(checkFieldTables(planted, labels)).toEqual([
			'README.md:8: lists **API Token** as a field, which our nodes and credential do not have',
		]);
	});

	it('(d) a message quoted other than the code says it', () => {
		const planted = [
			doc(
				'README.md',
				'| n8n says | What is wrong |',
				'| --- | --- |',
				'| `The API key was refused (HTTP 401): check that it is complete and current, …` | wrong key |',
				'| `The API key was rejected (HTTP 401): …` | wrong key |',
				'| _Connection tested successfully_ | nothing |',
				'',
				'Deliveries answered 401 (`Invalid or missing signatures`): check the header.',
				'An item fails with _The service rate limit held … longer than its Outage Tolerance_.',
				'Publishing fails: "The service at … cannot reach this workflow\'s webhook URL …".',
				'The log says `Container tracking: The service at … cannot reach …`.',
				'A message built of values: "HMM (HDMU) does not track booking numbers for this account".',
			),
		];
		expect(checkQuotedMessages(planted, strings, N8N_WORDS)).toEqual([
			'README.md:4: quotes "The API key was rejected (HTTP 401): …", which no message of the code says',
			'README.md:7: quotes "Invalid or missing signatures", which no message of the code says',
			'README.md:8: quotes "The service rate limit held … longer than its Outage Tolerance", which no message of the code says',
		]);
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

	it('(a) the README shows what npm start prints (scripts/lib/demoSummary.mjs), every line of it', () => {
		expect(printed.length).toBeGreaterThan(5);
		const readme = docs.find(({ file }) => file === 'README.md')!;
		expect(checkPrintout(readme, TRY_IT, SUMMARY, printed, START)).toEqual([]);
	});

	it('(d) every field a page lists for an operation, or in a field table, is one our nodes show', () => {
		expect(fields.get('Webhook → Send Test Delivery')).toContain('Event Name or ID');
		expect(checkOperationFields([...docs, ...notes], fields)).toEqual([]);
		expect(checkFieldTables(docs, labels)).toEqual([]);
	});

	it("(d) every message a user page quotes is the code's, or n8n's own words", () => {
		expect(strings.length).toBeGreaterThan(1000);
		expect(checkQuotedMessages(docs, strings, new Set([...N8N_WORDS, ...labels]))).toEqual([]);
	});
});

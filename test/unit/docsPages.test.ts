/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reading the documentation and the examples from disk; the rule is for the published nodes */
// The pages as a user reads them (issue 51): every node, field and option a page or an example's
// sticky note names is one the workflow JSON or the node description has; each fact (a count, a
// version, a default) has one value wherever it is stated, the code's or the data's when there is
// one; a user page opens with who it is for and carries no commit hash and no date; and the
// README and examples/README.md stay within their lengths. And (issue 60): each example has its
// set-up note by the name the README gives it, and each section about an example says what you
// see; the n8n each example needs is its row's in docs/compatibility.md's examples' table,
// wherever a note or a page says it; every Switch of the examples has a fallback output. Each
// check is shown failing on a planted mistake first (small made-up pages), then run over the
// real pages and sticky notes. The checks are in test/support/docsPages.ts and
// docsAgreement.ts; links and anchors are docsLinks.test.ts's.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ContainerTrackingApi } from '../../credentials/ContainerTrackingApi.credentials';
import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import { EVENT_OPTIONS } from '../../nodes/ContainerTracking/logic/eventNames';
import { STALE_AFTER_DAYS } from '../../nodes/ContainerTracking/logic/freshness';
import {
	MAX_BATCH_DELIVERIES,
	MAX_BATCH_ITEMS,
} from '../../nodes/ContainerTracking/trigger/batching/deliveryBatches';
import { docFiles, operationsOf, ROOT, type DocFile } from '../support/docs';
import { checkSwitchFallbacks } from '../support/docsAgreement';
import {
	checkDefaults,
	checkDefaultValues,
	checkDesignPages,
	checkExampleVersions,
	checkOperationMentions,
	checkSetupNotes,
	checkWhatYouSee,
	exampleVersions,
	checkPageNames,
	checkStatedFacts,
	checkStickyNames,
	checkUserPages,
	checkWordCounts,
	descriptionNames,
	optionDefaults,
	stickyNotes,
	workflowOf,
	valueDefaults,
	type StatedFact,
	type Workflow,
} from '../support/docsPages';
import { importNative } from '../support/importNative';

const action = new ContainerTracking().description;
const trigger = new ContainerTrackingTrigger().description;
const credential = new ContainerTrackingApi();
/** Every label our nodes and credential show: fields, options, values, and the trigger's events. */
const ours = descriptionNames(
	[action, trigger, { displayName: credential.displayName, properties: credential.properties }],
	EVENT_OPTIONS.map(({ name }) => name),
);
const operations = operationsOf(action.properties);
const defaults = optionDefaults([action, trigger]);
const values = valueDefaults([action, trigger]);

const docs = docFiles();
const workflows: Workflow[] = readdirSync(path.join(ROOT, 'examples'))
	.filter((file) => file.endsWith('.json'))
	.map((file) =>
		workflowOf({
			file: `examples/${file}`,
			text: readFileSync(path.join(ROOT, 'examples', file), 'utf8'),
		}),
	);
const notes = workflows.flatMap(stickyNotes);
const boardColumns = readFileSync(path.join(ROOT, 'examples', 'pickup-board-header.csv'), 'utf8')
	.split('\n')[0]
	.split(',').length;
const batchWindow = (trigger.properties.find(({ name }) => name === 'options')?.options ?? []).find(
	(option) => 'name' in option && option.name === 'batchWindowSeconds',
) as { typeOptions?: { maxValue?: number } } | undefined;

/** A parameter of a node of an example, found by a path of keys. */
function parameterOf(file: string, node: string, ...keys: Array<string | number>): string {
	const found = workflows
		.find((each) => each.file === `examples/${file}`)
		?.nodes.find(({ name }) => name === node);
	let value: unknown = found?.parameters;
	for (const key of keys) value = (value as Record<string | number, unknown> | undefined)?.[key];
	return String(value);
}
const digestDays = parameterOf(
	'last-free-day-digest.json',
	'Containers needing attention',
	'filters',
	'lastFreeDayDays',
);
const digestHour = parameterOf(
	'last-free-day-digest.json',
	'Every morning at 7',
	'rule',
	'interval',
	0,
	'triggerAtHour',
);
const boardMinute = parameterOf(
	'pickup-board.json',
	'Every hour',
	'rule',
	'interval',
	0,
	'triggerAtMinute',
);

let oldestN8n: string;
beforeAll(async () => {
	oldestN8n = (await importNative<{ OLDEST_SUPPORTED_N8N: string }>('scripts/n8n-runtime.mjs'))
		.OLDEST_SUPPORTED_N8N;
});

/**
 * The facts the pages state, each with where a page states it and, when the code or the data has
 * it, its value; the others must agree wherever stated. The rate limits, the trigger's node
 * version, the tested n8n versions and the operations are docsFacts.test.ts's.
 */
function facts(): StatedFact[] {
	return [
		{
			what: "the number of the trigger's events",
			pattern: /\b(\d+)\s+(?:events|event names)\b/g,
			about: /\btrigger|\bpicker|\bsubscri|\bEvents\b/i,
			value: String(EVENT_OPTIONS.length),
			source: 'EVENT_OPTIONS (logic/eventNames.ts)',
		},
		{
			what: "the number of the Pickup board's columns",
			pattern: /\b(\d+)\s+(?:column names|columns)\b/g,
			// n8n's Table view shows 40 columns: a figure of n8n's, not of the board.
			unless: /\bTable view\b/,
			value: String(boardColumns),
			source: 'examples/pickup-board-header.csv',
		},
		{
			what: 'the oldest n8n supported',
			pattern: /\b(\d+\.\d+\.\d+)\**\s+(?:or|and)\s+(?:later|newer|above)\b/g,
			// What an example needs as shipped is the examples' table's (checkExampleVersions).
			unless: /Data Table|Pickup board|digest|hold alert|\bas shipped\b/i,
			value: oldestN8n,
			source: 'OLDEST_SUPPORTED_N8N (scripts/n8n-runtime.mjs)',
		},
		{
			what: 'the n8n version that added Data Tables',
			pattern:
				/(?:(?:new|added|since|gained|introduced|before)\s+(?:in\s+)?(?:n8n\s+)?(\d+\.\d+(?:\.\d+)?)|(?:n8n\s+)?(\d+\.\d+(?:\.\d+)?)\s+(?:or|and)\s+later)/gi,
			about: /Data Tables?\b/i,
			ignore: [oldestN8n],
		},
		{
			what: 'the most deliveries one execution holds',
			pattern: /\bat most ([\d,]+) deliveries\b/gi,
			value: String(MAX_BATCH_DELIVERIES),
			source: 'MAX_BATCH_DELIVERIES (trigger/batching/deliveryBatches.ts)',
		},
		{
			what: 'the most items one execution holds',
			pattern: /\bat most [\d,]+ deliveries or ([\d,]+) items\b/gi,
			value: String(MAX_BATCH_ITEMS),
			source: 'MAX_BATCH_ITEMS (trigger/batching/deliveryBatches.ts)',
		},
		{
			what: "the days after which a container's data is stale",
			pattern: /\bchecked (?:for )?(?:over|more than) (\d+) days\b/g,
			value: String(STALE_AFTER_DAYS),
			source: 'STALE_AFTER_DAYS (logic/freshness.ts)',
		},
		{
			what: 'how often the trigger checks its webhook by default',
			pattern: /\bcheck\w*\b[^.]*?\bevery (\d+) minutes\b/g,
			about: /\bwebhook\b|\bwatch\b/i,
			value: defaults
				.find(({ label }) => label === 'Check Webhook Every (Minutes)')
				?.defaults.values()
				.next().value,
			source: 'the Check Webhook Every option',
		},
		{
			what: "how often the demo's sandbox changes a container",
			pattern: /\bevery (\d+) seconds\b/g,
			about: /\bsandbox\b|\bdemo\b|\bcontainer changes\b|\bscenario\b/i,
		},
		{
			what: 'the days ahead the digest lists',
			pattern: /\bwithin (\d+) days\b/g,
			about: /\bdigest\b|\blast free day\b/i,
			value: digestDays,
			source: "the digest's Containers needing attention (last-free-day-digest.json)",
		},
		{
			what: 'the hour the digest goes out',
			pattern: /\b(?:morning at|at) (\d{1,2})(?::00)?\b(?![.:,]\d)/g,
			about: /\bdigest\b|\bevery morning\b/i,
			value: digestHour,
			source: "the digest's Schedule Trigger (last-free-day-digest.json)",
		},
		{
			what: "the minute of the Pickup board's hourly run",
			pattern: /\bminute (\d+)\b/g,
			about: /\bhour/i,
			value: boardMinute,
			source: "the Pickup board's Every hour (pickup-board.json)",
		},
		{
			what: 'the longest Batch Window',
			pattern: /Batch\s+Window\b[^.]*?\bat most (\d+)\b/g,
			value: String(batchWindow?.typeOptions?.maxValue),
			source: "the Batch Window option's maxValue",
		},
	];
}

const doc = (file: string, ...lines: string[]): DocFile => ({ file, text: lines.join('\n') });
/** The section of docs/compatibility.md whose table says which n8n each example needs. */
const EXAMPLES_TABLE = 'The examples on each version';
const workflow = (file: string, name: string, nodes: Workflow['nodes']): Workflow => ({
	file,
	name,
	nodes,
});
const note = (name: string, content: string) => ({
	name,
	type: 'n8n-nodes-base.stickyNote',
	parameters: { content },
});

describe('what the checks compare with', () => {
	it('is read from the code, the examples and the data', () => {
		for (const name of ['Batch Window (Seconds)', 'Batch Window', 'Outage Tolerance', 'Get Many'])
			expect(ours.has(name)).toBe(true);
		expect(defaults.find(({ label }) => label === 'Batch Window (Seconds)')?.defaults).toEqual(
			new Set(['1']),
		);
		expect(docs.map(({ file }) => file)).toEqual(
			expect.arrayContaining(['README.md', 'examples/README.md', 'docs/trigger.md']),
		);
		expect(workflows.length).toBeGreaterThan(5);
		expect(notes.length).toBeGreaterThan(workflows.length);
		expect(boardColumns).toBeGreaterThan(10);
		expect(batchWindow?.typeOptions?.maxValue).toBeGreaterThan(0);
		expect(oldestN8n).toMatch(/^\d+\.\d+\.\d+$/);
		for (const value of [digestDays, digestHour, boardMinute]) expect(value).toMatch(/^\d+$/);
	});
});

describe('each check fails on a planted mistake', () => {
	const alerts = workflow('examples/alerts.json', 'Container holds → email', [
		{
			name: 'Container hold changed',
			type: 'n8n-nodes-container-tracking.containerTrackingTrigger',
		},
		{
			name: 'Default recipients',
			type: 'n8n-nodes-base.set',
			parameters: { assignments: { assignments: [{ name: 'email_to', value: 'a@example.com' }] } },
		},
		{
			name: 'Routing table',
			type: 'n8n-nodes-base.dataTable',
			parameters: { dataTableId: { value: 'Alert routing' } },
		},
		{ name: 'Alert text (placed)', type: 'n8n-nodes-base.code' },
		{ name: 'Alert text (released)', type: 'n8n-nodes-base.code' },
		{
			name: 'Email: hold placed',
			type: 'n8n-nodes-base.emailSend',
			parameters: { fromEmail: 'x' },
		},
		note(
			'Note: set up',
			[
				'## Set up',
				'1. **Container hold changed**: pick your credential; **Expand Holds and Fees** is on.',
				'2. **Email: hold placed**: set **From Email**; **Alert text** writes the lines.',
				'3. **Default recipients**: **email_to** (the table **Alert routing**); **Fresh data?** keeps stale boxes apart.',
				'4. **Publish** the workflow; see **Why this matters.** and **Overview → Data tables**.',
				'5. **Email: hold relased** sends the rest; **emial_to** holds who.',
			].join('\n'),
		),
	]);
	const board = workflow('examples/board.json', 'Pickup board', [
		{ name: 'Get all containers', type: 'n8n-nodes-container-tracking.containerTracking' },
		{ name: 'Board columns', type: 'n8n-nodes-base.set' },
	]);

	it('1a. a sticky note naming a node or a field its workflow lacks, or a node of another example', () => {
		// Read in the table's own workflow, where Board columns (board.json's) is nowhere to be seen.
		const table = workflow('examples/board-table.json', 'Pickup board: create the table', [
			{ name: 'Create it once', type: 'n8n-nodes-base.manualTrigger' },
			note(
				'Note: set up',
				'Run once before **Pickup board** (`board.json`): a column for each field **Board columns** writes.',
			),
		]);
		expect(checkStickyNames([alerts, board, table], ours)).toEqual([
			'examples/alerts.json, note "Note: set up":4: names **Fresh data?**, which examples/alerts.json has neither as a node, nor as a field or value of its nodes',
			'examples/alerts.json, note "Note: set up":6: names **Email: hold relased**, which examples/alerts.json has neither as a node, nor as a field or value of its nodes',
			'examples/alerts.json, note "Note: set up":6: names **emial_to**, which examples/alerts.json has neither as a node, nor as a field or value of its nodes',
			'examples/board-table.json, note "Note: set up":1: names **Board columns**, which examples/board-table.json has neither as a node, nor as a field or value of its nodes (a node of examples/board.json)',
		]);
	});

	it('1b. a page naming a node the workflow it speaks of lacks, a misspelt option, an option our nodes lack', () => {
		const page = doc(
			'examples/README.md',
			'# Example workflows',
			'',
			'## 1. Container holds → email (`alerts.json`)',
			'',
			'### How it works',
			'',
			'- **Container hold changed** (Container Tracking Trigger) with **Expand Holds and Fees**.',
			'- **Board columns** (Edit Fields) turns the items into rows.',
			'- **Email: hold placd** sends the alert; **Default recipient** says who.',
			'',
			'## 2. Pickup board (`board.json`)',
			'',
			'- **Get all containers** (Container → Get Many) with **Board columns**.',
			'',
			'## Quick start',
			'',
			'Import [`alerts.json`](alerts.json), then:',
			'',
			'1. **Container hold changd**: pick your credential.',
			'2. **Default senders**: set the addresses.',
			'',
			'## Options',
			'',
			"Keep the trigger's _Batch Windw_ and raise the **Outage Tolerence**.",
			'The **Retry Forever** option of the trigger, and option _Check Webhook Every_.',
			'**Why every hour.** **Publish** it; see [`board.json`](board.json) for **Board columns**.',
		);
		expect(checkPageNames([page], [alerts, board], ours)).toEqual([
			'examples/README.md:8: names the node **Board columns**, which examples/alerts.json does not have',
			'examples/README.md:9: names **Email: hold placd**; examples/alerts.json has the node **Email: hold placed**',
			'examples/README.md:9: names **Default recipient**; examples/alerts.json has the node **Default recipients**',
			'examples/README.md:19: names the node **Container hold changd**, which examples/alerts.json does not have (it has **Container hold changed**)',
			'examples/README.md:20: names the node **Default senders**, which examples/alerts.json does not have',
			'examples/README.md:24: names Batch Windw; the name is Batch Window',
			'examples/README.md:24: names Outage Tolerence; the name is Outage Tolerance',
			'examples/README.md:25: names the option Retry Forever, which our nodes do not have',
		]);
		// A sticky note's italic names too, against its own workflow.
		const withNote = workflow('examples/alerts2.json', 'Alerts', [
			...alerts.nodes.filter(({ type }) => type !== 'n8n-nodes-base.stickyNote'),
			note('Note: how', 'With *Fetch Container When Mising* the trigger reads the box.'),
		]);
		expect(checkPageNames(stickyNotes(withNote), [withNote, board], ours)).toEqual([
			'examples/alerts2.json, note "Note: how":1: names Fetch Container When Mising; the name is Fetch Container When Missing',
		]);
	});

	it('1c. an operation named in prose that its resource lacks', () => {
		const planted = doc(
			'docs/nodes.md',
			'Container → Get Many and **Container → Refresh** work; Webhook → Create and Update too.',
			'The Container → Get All operation, and Tracking Request → Infer Number.',
			"n8n's Data table → Row → Upsert and Google Sheets → Append are not ours.",
		);
		expect(checkOperationMentions([planted], operations)).toEqual([
			expect.stringMatching(
				/^docs\/nodes\.md:2: names Container → Get All, not an operation of Container \(Get, Get Charges, Get Many/,
			),
			expect.stringMatching(
				/^docs\/nodes\.md:2: names Tracking Request → Infer Number, not an operation of Tracking Request/,
			),
		]);
	});

	it("2a. a fact stated with a value other than the code's or the data's", () => {
		const planted = [
			doc(
				'README.md',
				'# Package',
				'',
				`The trigger offers the ${EVENT_OPTIONS.length + 2} events the service sends.`,
				`The Pickup board's sheet has ${boardColumns - 2} columns. In n8n's Table view, 40 columns show.`,
				`Self-hosted n8n ${oldestN8n} or later; the Pickup board needs n8n 1.113 or later.`,
			),
			doc(
				'docs/trigger.md',
				'# Trigger',
				'',
				`Batches hold at most ${MAX_BATCH_DELIVERIES + 1} deliveries or ${MAX_BATCH_ITEMS} items (_Batch Window (Seconds)_, default 1, at most 9).`,
				'Needs n8n 1.94.0 and later. The picker lists the 43 events.',
				'The trigger checks its webhook every 15 minutes; data is stale when the terminal was not checked for over 9 days.',
				`The digest goes out every morning at 8 and lists boxes due within ${Number(digestDays) + 1} days; the board's hourly run is at minute ${boardMinute}.`,
			),
			doc('CHANGELOG.md', '- The board had 20 columns; n8n 1.2.3 or later.'),
		];
		expect(checkStatedFacts(planted, facts())).toEqual([
			`README.md:3: gives the number of the trigger's events as ${EVENT_OPTIONS.length + 2}; EVENT_OPTIONS (logic/eventNames.ts) has ${EVENT_OPTIONS.length}`,
			`README.md:4: gives the number of the Pickup board's columns as ${boardColumns - 2}; examples/pickup-board-header.csv has ${boardColumns}`,
			`docs/trigger.md:4: gives the oldest n8n supported as 1.94; OLDEST_SUPPORTED_N8N (scripts/n8n-runtime.mjs) has ${oldestN8n}`,
			`docs/trigger.md:3: gives the most deliveries one execution holds as ${MAX_BATCH_DELIVERIES + 1}; MAX_BATCH_DELIVERIES (trigger/batching/deliveryBatches.ts) has ${MAX_BATCH_DELIVERIES}`,
			`docs/trigger.md:5: gives the days after which a container's data is stale as 9; STALE_AFTER_DAYS (logic/freshness.ts) has ${STALE_AFTER_DAYS}`,
			'docs/trigger.md:5: gives how often the trigger checks its webhook by default as 15; the Check Webhook Every option has 5',
			`docs/trigger.md:6: gives the days ahead the digest lists as ${Number(digestDays) + 1}; the digest's Containers needing attention (last-free-day-digest.json) has ${digestDays}`,
			`docs/trigger.md:6: gives the hour the digest goes out as 8; the digest's Schedule Trigger (last-free-day-digest.json) has ${digestHour}`,
			`docs/trigger.md:3: gives the longest Batch Window as 9; the Batch Window option's maxValue has ${batchWindow?.typeOptions?.maxValue}`,
		]);
	});

	it('2b. a fact without a value in the code, stated twice with two values', () => {
		const planted = [
			doc('README.md', 'The Pickup board needs n8n 1.113 or later, for its Data Table.'),
			doc('examples/README.md', "It uses n8n's Data tables, new in n8n 1.113.0."),
			doc('docs/compatibility.md', 'Data Tables came with n8n 1.112 or later.'),
			doc(
				'docs/trigger.md',
				`The nodes run on n8n ${oldestN8n} and later; on n8n before 1.113 there are no Data Tables.`,
			),
			doc('README.md', 'In the demo a container changes every 20 seconds.'),
			doc('docs/sandbox.md', 'The sandbox plays a scenario every 30 seconds.'),
		];
		expect(checkStatedFacts(planted, facts())).toEqual([
			'docs/compatibility.md:1: gives the n8n version that added Data Tables as 1.112; README.md:1, examples/README.md:1, docs/trigger.md:1 give 1.113',
			"README.md:1: gives how often the demo's sandbox changes a container as 20; docs/sandbox.md:1 gives 30",
			"docs/sandbox.md:1: gives how often the demo's sandbox changes a container as 30; README.md:1 gives 20",
		]);
	});

	it("2c. an option's default other than the description's", () => {
		const planted = [
			doc(
				'README.md',
				'| Option | What it does |',
				'| --- | --- |',
				'| Batch Window (Seconds) | Deliveries within this window start one execution (default 3) |',
				'| Check Webhook Every (Minutes) | How often the trigger checks its webhook (default 5) |',
				'',
				'An outage lasts up to its **Outage Tolerance** (90 s by default, in Options).',
				'The trigger checks every 10 minutes by default, option _Check Webhook Every_.',
				'With _Catch-Up Look-Back (Days)_ (default: 7) and **Limit** (default 50).',
				'Each call waits out an outage (**Outage Tolerance**, default 3 minutes); the catch-up reads _Catch-Up Look-Back (Days)_ (14).',
				'The same with **Outage Tolerance** (default 2 minutes).',
			),
		];
		expect(checkDefaults(planted, defaults)).toEqual([
			"README.md:3: gives 3 as the default of Batch Window (Seconds); the node's default is 1",
			"README.md:6: gives 90 as the default of Outage Tolerance (Seconds); the node's default is 120",
			"README.md:7: gives 10 as the default of Check Webhook Every (Minutes); the node's default is 5",
			"README.md:9: gives 14 as the default of Catch-Up Look-Back (Days); the node's default is 7",
			"README.md:9: gives 3 as the default of Outage Tolerance (Seconds); the node's default is 120",
		]);
		const choices = doc(
			'docs/nodes.md',
			'| Output | _One Item per Change_ (default), or _Latest State per Container_ |',
			'| Webhook Registration | _Use a Webhook Created Elsewhere_ (default), or _Register Automatically_ |',
			'| **Data** | `data_fresh` is true (**Fresh**, the default) or false (**Stale**, the default) |',
		);
		expect(checkDefaultValues([choices], values)).toEqual([
			'docs/nodes.md:2: calls Use a Webhook Created Elsewhere the default; it is not the default of the fields that offer it',
			'docs/nodes.md:3: calls Stale the default; it is not the default of the fields that offer it',
		]);
	});

	it('4. a user page without its _For line, with a commit hash, a bench figure or a date; contributor pages exempt', () => {
		const planted = [
			doc(
				'docs/trigger.md',
				'# Trigger',
				'',
				'How the trigger works.',
				'Measured on 2026-12-03 at a75f692, the burst answered 100 %.',
				'A burst of N=150 boxes: p95 9.2 s, 85.4 % at the first attempt, 1.15 attempts per notification.',
				'`"pickup_lfd": "2026-12-01"` and the id `3f5a7c9e-2b46-4a64-8b1d-3f5a7c9e2b46` are data.',
			),
			doc(
				'README.md',
				'# Package',
				'',
				'_For anyone building workflows._',
				'',
				'Fixed in 938d153.',
			),
			doc('docs/design/trigger.md', '# Trigger, inside', '', 'Measured on 2026-12-03 at a75f692.'),
			doc('CONTRIBUTING.md', '# Contributing', '', 'Since 975e64c, on 2026-12-02.'),
		];
		expect(checkUserPages(planted)).toEqual([
			'docs/trigger.md:3: the line after the title is not one italic line saying who the page is for (_For …_)',
			'docs/trigger.md:4: carries what looks like a commit hash, a75f692',
			'docs/trigger.md:4: carries a bench figure ("Measured on"): link bench/results or docs/design instead',
			'docs/trigger.md:4: carries a date, 2026-12-03 (dates of runs belong in docs/design or bench/results)',
			'docs/trigger.md:5: carries a bench figure ("N=1"): link bench/results or docs/design instead',
			'docs/trigger.md:5: carries a bench figure ("p95"): link bench/results or docs/design instead',
			'docs/trigger.md:5: carries a bench figure ("4 % at the first attempt"): link bench/results or docs/design instead',
			'docs/trigger.md:5: carries a bench figure ("attempts per notification"): link bench/results or docs/design instead',
			'README.md:5: carries what looks like a commit hash, 938d153',
		]);
		const design = [
			doc('docs/design/trigger.md', '# Trigger, inside', '', '_For contributors: the mechanisms._'),
			doc(
				'docs/trigger.md',
				'# Trigger',
				'',
				'_For anyone._',
				'',
				'How it works inside: [design](design/trigger.md).',
			),
			doc('docs/design/nodes.md', '# Nodes, inside', '', 'The mechanisms.'),
			doc('docs/nodes.md', '# Nodes', '', '_For anyone._', '', 'No link to the design page.'),
			doc('docs/design/examples.md', '# Examples, inside', '', '_For contributors._'),
			doc(
				'examples/README.md',
				'# Examples',
				'',
				'[one](../docs/design/examples.md), [two](../docs/design/examples.md#x).',
			),
		];
		expect(checkDesignPages(design)).toEqual([
			'docs/design/nodes.md:3: the line after the title does not say it is for contributors (_For contributors…_)',
			'docs/nodes.md: links docs/design/nodes.md 0 times; a user page links its design page once',
			'examples/README.md: links docs/design/examples.md 2 times; a user page links its design page once',
		]);
		const long = (file: string, words: number) =>
			doc(file, '# T', '', ...Array(words).fill('word'));
		expect(
			checkWordCounts(
				[
					long('README.md', 2990),
					long('examples/README.md', 2600),
					long('docs/nodes.md', 3100),
					long('docs/design/nodes.md', 9000),
				],
				{ readme: 3000, examples: 2500 },
			),
		).toEqual([
			'examples/README.md: 2602 words, over its limit (2500)',
			"docs/nodes.md: 3102 words, over the README's length (2992)",
		]);
	});
});

describe('each check of issue 60 fails on a planted mistake', () => {
	const setUp = (heading: string, ...lines: string[]) =>
		note('Note: set up', [`## ${heading}`, ...lines].join('\n'));
	const alerts = workflow('examples/alerts.json', 'Container holds → email', [
		{
			name: 'Container hold changed',
			type: 'n8n-nodes-container-tracking.containerTrackingTrigger',
		},
		{ name: 'Email: hold placed', type: 'n8n-nodes-base.emailSend' },
		// No line from the examples' table.
		setUp('Set up before you publish', '1. **Publish** the workflow.'),
	]);
	const board = workflow('examples/board.json', 'Pickup board', [
		{ name: 'Every hour', type: 'n8n-nodes-base.scheduleTrigger' },
		{ name: 'Board columns', type: 'n8n-nodes-base.set' },
		// The version the pages once gave.
		setUp(
			'Set up before you publish',
			'1. **Publish** the workflow. It needs Data Tables: n8n 1.113 or later.',
		),
	]);
	const table = workflow('examples/board-table.json', 'Pickup board: create the table', [
		{ name: 'Create it once', type: 'n8n-nodes-base.manualTrigger' },
		setUp('Run this once, before the Pickup board', 'As shipped, it needs n8n 2.x.'),
	]);
	const bulk = workflow('examples/bulk.json', 'Bulk tracking', [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger' },
		// Published examples' name on one run by hand.
		setUp('Set up before you publish', 'As shipped, it needs n8n 1.94.1 or later.'),
	]);
	const workflows = [alerts, board, table, bulk];
	const readme = doc(
		'README.md',
		'# Package',
		'',
		'## Examples',
		'',
		'Each opens with a yellow set-up note: **Set up before you',
		'publish**, or **Set up before you run it** in those you run by hand.',
	);

	it("(c) an example without its set-up note by the README's name, a page naming a note no example has", () => {
		const pages = [
			readme,
			doc(
				'examples/README.md',
				'# Examples',
				'',
				'Follow the yellow **Setup before publishing** note.',
			),
		];
		expect(checkSetupNotes(workflows, readme, pages)).toEqual([
			'examples/board-table.json: has no set-up note; the README calls the set-up note of an example run by hand **Set up before you run it**',
			'examples/bulk.json: has **Set up before you publish**; the README calls the set-up note of an example run by hand **Set up before you run it**',
			"examples/README.md:3: names the note **Setup before publishing**, which no example has (the README's set-up notes: Set up before you publish, Set up before you run it)",
		]);
		// A README naming one note only: the examples run by hand have none that fits.
		expect(
			checkSetupNotes(
				[table],
				doc('README.md', 'Each has its own **Set up before you publish** note.'),
				[],
			),
		).toEqual([
			'examples/board-table.json: has no set-up note; the README calls the set-up note of an example run by hand (no name fits)',
		]);
	});

	it('(c) a section about an example that does not say what you see', () => {
		const page = doc(
			'examples/README.md',
			'# Examples',
			'',
			'## 1. Alerts (`alerts.json`)',
			'',
			'### Use it',
			'',
			'1. **Publish** the workflow.',
			'',
			'### What you see',
			'',
			'An email.',
			'',
			'## 2. Board (`board.json`)',
			'',
			'### Use it',
			'',
			'1. **Publish** the workflow.',
			'',
			'### The table (`board-table.json`)',
			'',
			'**What you see:** the table. **When it differs:** run it again.',
			'',
			'## Other boards',
			'',
			'Anything.',
		);
		expect(checkWhatYouSee([page], workflows)).toEqual([
			'examples/README.md:13: the section "2. Board (`board.json`)" does not say what you see',
		]);
	});

	it("(b) an example missing from the examples' table, a note or a page giving another version than its row", () => {
		const compatibility = doc(
			'docs/compatibility.md',
			'# Compatibility',
			'',
			'## The examples on each version',
			'',
			'| Example | Needs, as shipped | On an older n8n |',
			'| --- | --- | --- |',
			'| Alerts (`alerts.json`) | n8n 1.94.1 or later | routing by the table takes n8n 2.x |',
			'| Pickup board (`board.json`, `board-table.json`) | n8n 2.x | no Data Tables |',
		);
		const versions = exampleVersions(compatibility, EXAMPLES_TABLE, workflows);
		expect([...versions.needs].map(([file, { value }]) => [file, value])).toEqual([
			['examples/alerts.json', '1.94.1'],
			['examples/board.json', '2.x'],
			['examples/board-table.json', '2.x'],
		]);
		const pages = [
			compatibility,
			doc(
				'examples/README.md',
				'# Examples',
				'',
				'## 2. Pickup board (`board.json`)',
				'',
				'It needs n8n 1.113 or later, for its Data Table.',
				'',
				'## Anything',
				'',
				'The [alerts](alerts.json) need n8n 1.94.1 or later; some examples need a newer one.',
			),
		];
		expect(checkExampleVersions(compatibility, EXAMPLES_TABLE, workflows, pages)).toEqual([
			'docs/compatibility.md: the examples\' table ("The examples on each version") has no row for examples/bulk.json',
			'examples/alerts.json, note "Note: set up": does not say which n8n the example needs as shipped (the examples\' table gives n8n 1.94.1)',
			'examples/board.json, note "Note: set up":2: says examples/board.json needs n8n with Data Tables (1.113); the examples\' table (docs/compatibility.md:8) gives n8n 2.x',
			"examples/README.md:5: says examples/board.json needs n8n 1.113; the examples' table (docs/compatibility.md:8) gives n8n 2.x",
		]);
	});

	it('(f) a Switch that drops what matches none of its rules', () => {
		const rules = { values: [{ outputKey: 'placed' }, { outputKey: 'cleared' }] };
		const switching = (name: string, options: Record<string, unknown>) => ({
			name,
			type: 'n8n-nodes-base.switch',
			parameters: { mode: 'rules', rules, options },
		});
		expect(
			checkSwitchFallbacks([
				workflow('examples/alerts.json', 'Alerts', [
					switching('No fallback', {}),
					switching('Fallback none', { fallbackOutput: 'none' }),
					switching('Extra output', { fallbackOutput: 'extra', renameFallbackOutput: 'No alert' }),
					switching('To the second rule', { fallbackOutput: 1 }),
					switching('To a rule it lacks', { fallbackOutput: 2 }),
				]),
			]),
		).toEqual([
			'examples/alerts.json: the Switch "No fallback" drops what matches none of its rules: give it a fallback output (Options → Fallback Output)',
			'examples/alerts.json: the Switch "Fallback none" drops what matches none of its rules: give it a fallback output (Options → Fallback Output)',
			'examples/alerts.json: the Switch "To a rule it lacks" drops what matches none of its rules: give it a fallback output (Options → Fallback Output)',
		]);
	});
});

describe('the real pages and sticky notes', () => {
	it('1a. every sticky note names only what its workflow has', () => {
		expect(checkStickyNames(workflows, ours)).toEqual([]);
	});

	it('1b, 1c. every page (and sticky note) names only nodes, fields, options and operations the workflows and nodes have', () => {
		expect(checkPageNames([...docs, ...notes], workflows, ours)).toEqual([]);
		expect(operations.length).toBeGreaterThan(10);
		expect(checkOperationMentions([...docs, ...notes], operations)).toEqual([]);
	});

	it("2. each fact has one value wherever it is stated, and each default is the node's", () => {
		expect(checkStatedFacts([...docs, ...notes], facts())).toEqual([]);
		expect(checkDefaults([...docs, ...notes], defaults)).toEqual([]);
		expect(checkDefaultValues([...docs, ...notes], values)).toEqual([]);
	});

	it('4. every user page says who it is for, and carries no commit hash, no bench figure and no date', () => {
		expect(checkUserPages(docs)).toEqual([]);
	});

	it('4. each design page says it is for contributors, and the user page it came from links it once', () => {
		expect(checkDesignPages(docs)).toEqual([]);
	});

	it('4. the README at most 3,000 words, examples/README.md at most 2,500, no user page longer than the README', () => {
		expect(checkWordCounts(docs, { readme: 3000, examples: 2500 })).toEqual([]);
	});

	it("(c) each example has its set-up note by the README's name, and each section about an example says what you see", () => {
		const readme = docs.find(({ file }) => file === 'README.md')!;
		expect(checkSetupNotes(workflows, readme, [...docs, ...notes])).toEqual([]);
		expect(checkWhatYouSee(docs, workflows)).toEqual([]);
	});

	it("(b) the n8n each example needs is its row's in docs/compatibility.md, wherever a note or a page says it", () => {
		const compatibility = docs.find(({ file }) => file === 'docs/compatibility.md')!;
		const versions = exampleVersions(compatibility, EXAMPLES_TABLE, workflows);
		expect(versions.needs.size).toBe(workflows.length);
		expect(checkExampleVersions(compatibility, EXAMPLES_TABLE, workflows, docs)).toEqual([]);
	});

	it('(f) every Switch of the examples has a fallback output', () => {
		expect(
			workflows.some(({ nodes }) => nodes.some(({ type }) => type === 'n8n-nodes-base.switch')),
		).toBe(true);
		expect(checkSwitchFallbacks(workflows)).toEqual([]);
	});
});

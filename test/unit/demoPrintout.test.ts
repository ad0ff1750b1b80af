/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reading README.md and the examples from disk; the rule is for the published nodes */
// README "Try it without an account" quotes what `npm start` prints once the demo runs: here the
// quote is held to the text scripts/start.mjs prints (scripts/lib/demoSummary.mjs), line for line
// and ports aside, with the examples it publishes and the logins it creates. `npm run
// walkthrough` checks the same quote against a real `npm start`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { importNative, repoRoot } from '../support/importNative';

interface Workflow {
	id: string;
	name: string;
	nodes: Array<{ type: string; parameters?: Record<string, unknown> }>;
}
interface DemoSummaryLib {
	DEMO_OWNER: { email: string; password: string };
	DEMO_ARRIVALS: { user: string; password: string };
	DEMO_DESK: { token: string };
	deskUrl(n8nUrl: string, workflows: Workflow[]): string;
	publishes(workflow: Workflow, options: { mailbox: boolean }): boolean;
	demoSummary(values: {
		n8nUrl: string;
		owner: { email: string; password: string };
		published: string[];
		mail: { webUrl: string };
		imap?: { host: string; port: number; user: string; password: string };
		desk: { url: string; token: string };
	}): string;
}

const README = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** README's section `## title`, up to the next `## `. */
function section(title: string): string {
	const start = README.indexOf(`\n## ${title}\n`);
	if (start < 0) throw new Error(`README.md has no section "## ${title}"`);
	const end = README.indexOf('\n## ', start + 1);
	return README.slice(start, end < 0 ? undefined : end);
}

/** The section's code block that starts with the summary's first line. */
function quotedSummary(text: string): string[] {
	const block = [...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)]
		.map((match) => match[1])
		.find((body) => body.startsWith('Container tracking demo is running.'));
	if (!block)
		throw new Error('no quote of npm start that begins "Container tracking demo is running."');
	return lines(block);
}

/** Printed lines, ports and folded spaces aside (as scripts/walkthrough.mjs compares them). */
const lines = (text: string) =>
	text
		.split('\n')
		.map((line) => line.replace(/:\d+/g, ':PORT').replace(/\s+/g, ' ').trim())
		.filter(Boolean);

const examples: Workflow[] = readdirSync(path.join(repoRoot, 'examples'))
	.filter((name) => name.endsWith('.json'))
	.sort()
	.map(
		(name) => JSON.parse(readFileSync(path.join(repoRoot, 'examples', name), 'utf8')) as Workflow,
	);

let lib: DemoSummaryLib;
beforeAll(async () => {
	lib = await importNative<DemoSummaryLib>('scripts/lib/demoSummary.mjs');
});

/** What `npm start` prints, with any ports: the values are the code's own. */
function printed(mailbox: boolean): string {
	return lib.demoSummary({
		n8nUrl: 'http://127.0.0.1:5678',
		owner: lib.DEMO_OWNER,
		published: examples
			.filter((workflow) => lib.publishes(workflow, { mailbox }))
			.map((workflow) => workflow.name),
		mail: { webUrl: 'http://127.0.0.1:1080' },
		imap: mailbox ? { host: '127.0.0.1', port: 1143, ...lib.DEMO_ARRIVALS } : undefined,
		desk: { url: lib.deskUrl('http://127.0.0.1:5678', examples), token: lib.DEMO_DESK.token },
	});
}

/** The README's quote against what is printed: the lines that differ, by position. */
function differences(quote: string[], output: string): string[] {
	const said = lines(output);
	const found: string[] = [];
	for (let index = 0; index < Math.max(quote.length, said.length); index++)
		if (quote[index] !== said[index])
			found.push(
				`line ${index + 1}: README "${quote[index] ?? '(none)'}", npm start "${said[index] ?? '(none)'}"`,
			);
	return found;
}

describe("README's quote of what `npm start` prints", () => {
	it('is what it prints with the arrivals mailbox, line for line (ports aside)', () => {
		expect(differences(quotedSummary(section('Try it without an account')), printed(true))).toEqual(
			[],
		);
	});

	it('fails on a planted mistake: a published example left out, a password changed, a line dropped', () => {
		const quote = quotedSummary(section('Try it without an account'));
		const planted = [
			quote.map((line) => line.replace(', Track from email', '')),
			quote.map((line) => line.replace('Demo-password-1', 'Demo-password-2')),
			quote.filter((line) => !line.startsWith('arrivals')),
		];
		for (const mistake of planted) expect(differences(mistake, printed(true))).not.toEqual([]);
	});

	it('counts the published examples as the summary lists them', () => {
		const published = examples.filter((workflow) => lib.publishes(workflow, { mailbox: true }));
		const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
		expect(section('Try it without an account')).toMatch(
			new RegExp(`\\b${words[published.length]}\\s+\\*\\*published\\*\\*`),
		);
	});

	it('without a mailbox, says so on the arrivals line and leaves Track from email unpublished', () => {
		expect(printed(false)).toMatch(
			/^ {2}arrivals {6}no IMAP mailbox: Track from email is not published$/m,
		);
		expect(printed(false)).not.toMatch(/published .*Track from email/);
	});
});

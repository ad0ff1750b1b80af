/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a test reading the repository's files from disk; both rules are for the published nodes */
// Self-contained references: comments, test names and the README cite the service through
// docs/service.md, by section, as in (docs/service.md, "Holds and fees"). The documents it was
// written from live outside the repository, so a citation of their numbered sections ("interface
// 2.3", "rule 2.3.6") or of the service notes cannot be followed by a contributor who only has
// the repository; a cited section that docs/service.md does not have cannot be followed either.
// Nor can a file that a comment of the code or a page names and the repository lacks (issue 60:
// the credential's comment named a credentialTest.ts long gone).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { anchorsOf } from '../support/docs';
import { checkNamedFiles } from '../support/docsAgreement';

const ROOT = path.resolve(__dirname, '..', '..');
const DOC = 'docs/service.md';
const FOLDERS = ['nodes', 'credentials', 'sandbox', 'scripts', 'bench', 'test', 'examples', 'docs'];
/** The documentation may move between the README, docs/ and CONTRIBUTING.md: all are read. */
const TOP_FILES = ['README.md', 'CONTRIBUTING.md', 'index.js', 'gulpfile.js'];
const TEXT_FILE = /\.(ts|js|mjs|cjs|json|md)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);
/** This file: it spells out what it looks for. */
const SELF = path.relative(ROOT, __filename).split(path.sep).join('/');

/** Citations of the documents outside the repository, and what each one cites. */
const OUTSIDE_CITATIONS: ReadonlyArray<{ pattern: RegExp; what: string }> = [
	{ pattern: /\binterface\s+\d/i, what: 'a numbered part of the interface description' },
	{
		pattern: /\binterface(?:'s)?\s+(?:section|rule|table)s?\s+\d/i,
		what: 'a numbered part of the interface description',
	},
	{ pattern: /\brules?\s+\d+\.\d/i, what: 'a numbered rule of the interface description' },
	{ pattern: /\bspec(?:\/interface\b|\s+\d)/i, what: 'the interface description' },
	{ pattern: /\bservice[\s-]notes?\b/i, what: 'the service notes' },
];

/** `docs/service.md, "A section"` (optionally more: `, "B"`, `and "C"`, `from "D" to "E"`). */
const SECTION_CITATION =
	/docs\/service\.md,?\s+((?:from\s+)?"[^"]+"(?:\s*,?\s*(?:(?:and|or|to)\s+)?"[^"]+")*)/g;
/** `docs/service.md#an-anchor`. */
const ANCHOR_CITATION = /docs\/service\.md#([\w-]+)/g;

function filesUnder(folder: string): string[] {
	return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		const relative = `${folder}/${entry.name}`;
		if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : filesUnder(relative);
		return TEXT_FILE.test(entry.name) ? [relative] : [];
	});
}

function checkedFiles(): string[] {
	return [
		...FOLDERS.filter((folder) => existsSync(path.join(ROOT, folder))).flatMap(filesUnder),
		...TOP_FILES.filter((file) => existsSync(path.join(ROOT, file))),
	].filter((file) => file !== SELF);
}

function headingsOf(markdown: string): string[] {
	return markdown
		.split('\n')
		.map((line) => /^#{2,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1])
		.filter((heading): heading is string => heading !== undefined);
}

/**
 * The text with comment markers (`//`, ` * `, `/**`) taken off each line and the lines joined
 * with spaces, so that a citation wrapped over two comment lines reads as one; `lineAt` gives the
 * line of an offset in it.
 */
function joined(text: string): { text: string; lineAt: (offset: number) => number } {
	const starts: number[] = [];
	let out = '';
	for (const line of text.split('\n')) {
		starts.push(out.length);
		out += line.replace(/^\s*(?:\/\/+|\/\*+|\*+(?!\/))?\s*/, '') + ' ';
	}
	const lineAt = (offset: number) => {
		let line = 0;
		while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
		return line + 1;
	};
	return { text: out, lineAt };
}

/** Every outside citation in `text`, as "line: what (the line)". */
function outsideCitations(text: string): string[] {
	return text
		.split('\n')
		.flatMap((line, index) =>
			OUTSIDE_CITATIONS.filter(({ pattern }) => pattern.test(line)).map(
				({ what }) => `${index + 1}: ${what} (${line.trim()})`,
			),
		);
}

/**
 * Every cited docs/service.md section or anchor that `headings` lacks, as "line: citation"; the
 * anchors are GitHub's (test/support/docs.ts).
 */
function missingSections(text: string, headings: readonly string[]): string[] {
	const { text: flat, lineAt } = joined(text);
	const known = new Set(headings);
	const anchors = anchorsOf(headings.map((heading) => `## ${heading}`).join('\n'));
	const missing: string[] = [];
	for (const match of flat.matchAll(SECTION_CITATION)) {
		for (const [, section] of match[1].matchAll(/"([^"]+)"/g)) {
			if (!known.has(section)) missing.push(`${lineAt(match.index ?? 0)}: "${section}"`);
		}
	}
	for (const match of flat.matchAll(ANCHOR_CITATION)) {
		if (!anchors.has(match[1])) missing.push(`${lineAt(match.index ?? 0)}: #${match[1]}`);
	}
	return missing;
}

const headings = headingsOf(readFileSync(path.join(ROOT, DOC), 'utf8'));
const files = checkedFiles();

/** Every file and folder of the repository (what git tracks, and the rest but what is built or installed). */
function everyPath(folder = ''): string[] {
	return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
		if (['node_modules', 'dist', '.git'].includes(entry.name)) return [];
		const relative = folder ? `${folder}/${entry.name}` : entry.name;
		return entry.isDirectory() ? [relative, ...everyPath(relative)] : [relative];
	});
}
const exists = (file: string) => existsSync(path.join(ROOT, file));
/** Files named on purpose that are not the repository's, and why. */
const NAMED_ELSEWHERE: ReadonlyMap<string, string> = new Map([
	['utils/binary.js', "n8n's own (n8n-core), where the PDF extraction's helper lives"],
	['api/container.get.json', "a published example of the service's, in ../shared/fixtures"],
	[
		'nodes/ContainerTracking/actions/trackingRequest/getShipment.ts',
		'the file CONTRIBUTING.md "Adding an operation" has you write',
	],
	[
		'.cursor/mcp.json',
		"Cursor's settings of MCP servers, in the user's project or home (docs/mcp.md)",
	],
]);
/** The comments of the code and the Markdown pages (history and bench results aside). */
const named = files
	.filter((file) => /\.(?:ts|js|mjs|cjs|md)$/.test(file) && !file.startsWith('bench/results/'))
	.map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));

describe('references to the service stay inside the repository', () => {
	it('docs/service.md has sections, each heading once', () => {
		expect(headings.length).toBeGreaterThan(10);
		expect(headings.filter((heading, index) => headings.indexOf(heading) !== index)).toEqual([]);
		expect(files).toContain('nodes/ContainerTracking/logic/readiness.ts');
	});

	it('finds outside citations and missing sections', () => {
		expect(outsideCitations('// Ready (interface 2.3 rules 4 and 5).')).toHaveLength(1);
		expect(outsideCitations(' * empty means none (rule 2.3.6).')).toHaveLength(1);
		expect(outsideCitations('/** Interface section 3.4: the rail order. */')).toHaveLength(1);
		expect(outsideCitations('// as the service notes describe')).toHaveLength(1);
		expect(outsideCitations('// see ../shared/docs/service-notes.md')).toHaveLength(1);
		expect(outsideCitations('// (docs/service.md, "Holds and fees"); ../shared/fixtures')).toEqual(
			[],
		);
		const text = [
			'/**',
			' * Readiness (docs/service.md, "Ready for pickup" and',
			' * "Holds and fees"); fees (docs/service.md, "Fee rules").',
			' * See docs/service.md#holds-and-fees and docs/service.md#holds.',
			' */',
		].join('\n');
		expect(missingSections(text, ['Ready for pickup', 'Holds and fees'])).toEqual([
			'3: "Fee rules"',
			'4: #holds',
		]);
	});

	it('no file cites the interface description or the service notes', () => {
		const found = files.flatMap((file) =>
			outsideCitations(readFileSync(path.join(ROOT, file), 'utf8')).map(
				(citation) => `${file}:${citation}`,
			),
		);
		expect(found).toEqual([]);
	});

	it('every cited section of docs/service.md exists', () => {
		const found = files.flatMap((file) =>
			missingSections(readFileSync(path.join(ROOT, file), 'utf8'), headings).map(
				(citation) => `${file}:${citation}`,
			),
		);
		expect(found).toEqual([]);
	});
});

describe('files named in comments and pages exist', () => {
	const tree = [
		'credentials/Api.credentials.ts',
		'nodes/Tracking/transport/errors.ts',
		'docs/trigger.md',
	];
	const has = (file: string) =>
		tree.includes(file) || tree.some((each) => each.startsWith(`${file}/`));

	it('finds a file named that the repository lacks, in a comment or a page', () => {
		const planted = [
			{
				file: 'credentials/Api.credentials.ts',
				text: [
					"const url = 'nodes/Tracking/methods/inString.ts'; // not a comment's",
					'// The Test button runs nodes/Tracking/methods/credentialTest.ts instead.',
					'/* Messages: nodes/Tracking/transport/errors.ts and transport/errors.ts;',
					' * the shape of a page: docs/x.md; n8n: utils/binary.js. */',
				].join('\n'),
			},
			{
				file: 'docs/trigger.md',
				text: 'See `docs/triggers.md` and [the code](../nodes/Tracking/transport/errors.ts).',
			},
		];
		expect(checkNamedFiles(planted, has, tree, new Map([['utils/binary.js', "n8n's"]]))).toEqual([
			'credentials/Api.credentials.ts:2: names nodes/Tracking/methods/credentialTest.ts, which does not exist',
			'docs/trigger.md:1: names docs/triggers.md, which does not exist',
		]);
	});

	it('every file a comment of the code or a page names exists', () => {
		expect(named.length).toBeGreaterThan(100);
		expect(checkNamedFiles(named, exists, everyPath(), NAMED_ELSEWHERE)).toEqual([]);
	});
});

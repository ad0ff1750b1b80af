/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test support reading the documentation from disk, not a published node */
// The documentation's checks (test/unit/docsLinks.test.ts, test/unit/docsFacts.test.ts): which
// Markdown files are the documentation, GitHub's anchors of their headings, and one pure check per
// kind of fact. Each check takes the files' texts and the facts read from the code, and returns
// its problems as "file:line: what"; nothing here knows a version, a limit or an operation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

export const ROOT = path.resolve(__dirname, '..', '..');

/** One Markdown file: its path from the repository's root and its text. */
export interface DocFile {
	file: string;
	text: string;
}

/**
 * Files that are history (what a past version did): their links are checked, their figures are
 * not, since an old entry rightly names an old node version or limit.
 */
export const HISTORY_FILES: ReadonlySet<string> = new Set(['CHANGELOG.md']);

/** The documentation's Markdown files, wherever the text moves among them. */
export function docFiles(root = ROOT): DocFile[] {
	const under = (folder: string): string[] =>
		existsSync(path.join(root, folder))
			? readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
					const relative = `${folder}/${entry.name}`;
					if (entry.isDirectory()) return folder === 'examples' ? [] : under(relative);
					return entry.name.endsWith('.md') ? [relative] : [];
				})
			: [];
	return [
		...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((file) =>
			existsSync(path.join(root, file)),
		),
		...under('docs'),
		...under('examples'),
	].map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
}

/** Reads files of the working tree for the link check: what a path is, and a Markdown text. */
export interface Tree {
	kind(file: string): 'file' | 'dir' | undefined;
	read(file: string): string | undefined;
}

export function diskTree(root = ROOT): Tree {
	return {
		kind: (file) => {
			const full = path.join(root, file);
			if (!existsSync(full)) return undefined;
			return statSync(full).isDirectory() ? 'dir' : 'file';
		},
		read: (file) => {
			const full = path.join(root, file);
			return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : undefined;
		},
	};
}

// ---------------------------------------------------------------------------------------------
// Markdown, as far as the checks need it

/** Whether each line is inside a fenced code block (the fences included). */
function fencedLines(lines: readonly string[]): boolean[] {
	let fence: string | undefined;
	return lines.map((line) => {
		const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		if (fence === undefined) {
			if (marker) fence = marker;
			return marker !== undefined;
		}
		if (
			marker &&
			marker[0] === fence[0] &&
			marker.length >= fence.length &&
			!/\S/.test(line.slice(line.indexOf(marker) + marker.length))
		) {
			fence = undefined;
		}
		return true;
	});
}

/** The text with inline code spans blanked (same length), so that nothing inside them counts. */
export function withoutCode(text: string): string {
	return text.replace(/(`+)([\s\S]*?)\1/g, (span) => ' '.repeat(span.length));
}

/** A heading's text as GitHub renders it: links as their text, emphasis markers dropped. */
function renderedHeading(heading: string): string {
	return heading
		.split(/(`+[^`]*`+)/)
		.map((part, index) =>
			index % 2 === 1
				? part.replace(/`/g, '')
				: part
						.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
						.replace(/<[^>]+>/g, '')
						.replace(/\*+/g, '')
						.replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, '$1'),
		)
		.join('');
}

/** GitHub's anchor for a heading's text: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function slug(heading: string): string {
	return renderedHeading(heading)
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

export interface Heading {
	line: number;
	level: number;
	text: string;
	anchor: string;
}

/** The headings outside code blocks (ATX and setext), each with its anchor: a repeat gets -1, -2. */
export function headings(markdown: string): Heading[] {
	const lines = markdown.split('\n');
	const fenced = fencedLines(lines);
	const seen = new Map<string, number>();
	const found: Heading[] = [];
	lines.forEach((line, index) => {
		if (fenced[index]) return;
		let level: number | undefined;
		let text: string | undefined;
		const atx = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
		if (atx) [level, text] = [atx[1].length, atx[2]];
		const previous = lines[index - 1];
		if (
			!atx &&
			index > 0 &&
			!fenced[index - 1] &&
			/^\s{0,3}(=+|-+)\s*$/.test(line) &&
			previous.trim() !== '' &&
			!previous.includes('|') &&
			!/^\s{0,3}(#|[-*+]\s|\d+[.)]\s|>)/.test(previous)
		) {
			[level, text] = [line.trim().startsWith('=') ? 1 : 2, previous.trim()];
		}
		if (level === undefined || text === undefined) return;
		const base = slug(text);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		found.push({ line: index + 1, level, text, anchor: count === 0 ? base : `${base}-${count}` });
	});
	return found;
}

/** Every anchor a file has: its headings' and its HTML anchors (`<a name="…">`, `id="…"`). */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set(headings(markdown).map(({ anchor }) => anchor));
	for (const match of markdown.matchAll(/<a\s[^>]*\b(?:name|id)\s*=\s*"([^"]+)"/gi)) {
		anchors.add(match[1]);
	}
	return anchors;
}

/** The lines outside code blocks, as [line number, text]. */
function proseLines(markdown: string): Array<[number, string]> {
	const lines = markdown.split('\n');
	const fenced = fencedLines(lines);
	return lines.flatMap((line, index) =>
		fenced[index] ? [] : [[index + 1, line] as [number, string]],
	);
}

/** A stretch of text that reads as one: a sentence of prose, or a table row. */
export interface Passage {
	text: string;
	/** The file's line of an offset in `text`. */
	lineAt(offset: number): number;
	/** For a table row: its cells, and the table's header cells. */
	cells?: string[];
	header?: string[];
	/** For a table row: the line of prose just before the table (its caption, e.g. "Tested on:"). */
	caption?: string;
	/** The heading the passage is under. */
	section?: Heading;
}

export function cellsOf(row: string): string[] {
	return row
		.trim()
		.replace(/^\|/, '')
		.replace(/\|$/, '')
		.split(/(?<!\\)\|/)
		.map((cell) => cell.trim());
}

const isRow = (line: string) => /^\s*\|.*\|\s*$/.test(line);
const isDelimiterRow = (line: string) =>
	/^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?\s*$/.test(line);

/**
 * The file's passages: paragraphs and list items joined over their wrapped lines and cut into
 * sentences, and table rows one by one, each knowing its section.
 */
export function passages(markdown: string): Passage[] {
	const lines = proseLines(markdown);
	const allHeadings = headings(markdown);
	const sectionAt = (line: number) => [...allHeadings].reverse().find((h) => h.line <= line);
	const out: Passage[] = [];
	let block: Array<[number, string]> = [];
	const flush = () => {
		if (block.length === 0) return;
		const starts: Array<[number, number]> = [];
		let text = '';
		for (const [line, content] of block) {
			starts.push([text.length, line]);
			text += `${content.trim()} `;
		}
		const lineAt = (offset: number) => [...starts].reverse().find(([start]) => start <= offset)![1];
		const section = sectionAt(block[0][0]);
		let from = 0;
		for (const match of text.matchAll(/[.!?](?=\s+[A-Z*_`([])/g)) {
			const end = (match.index ?? 0) + 1;
			const sentenceStart = from;
			out.push({
				text: text.slice(sentenceStart, end),
				lineAt: (offset) => lineAt(sentenceStart + offset),
				section,
			});
			from = end;
		}
		const rest = from;
		out.push({ text: text.slice(rest), lineAt: (offset) => lineAt(rest + offset), section });
		block = [];
	};
	let header: string[] | undefined;
	let caption: string | undefined;
	let lastProse: string | undefined;
	lines.forEach(([line, content], index) => {
		const next = lines[index + 1]?.[1] ?? '';
		if (isRow(content)) {
			flush();
			if (isDelimiterRow(content)) return;
			if (header === undefined && isDelimiterRow(next)) {
				header = cellsOf(content);
				caption = lastProse;
				return;
			}
			out.push({
				text: content,
				lineAt: () => line,
				cells: cellsOf(content),
				header,
				caption,
				section: sectionAt(line),
			});
			return;
		}
		header = undefined;
		if (/^\s{0,3}#{1,6}\s/.test(content)) lastProse = undefined;
		if (content.trim() === '' || /^\s{0,3}#{1,6}\s/.test(content)) {
			flush();
			return;
		}
		if (/^\s*([-*+]|\d+[.)])\s/.test(content)) flush();
		block.push([line, content]);
		lastProse = content;
	});
	flush();
	return out;
}

/** The line of an offset in a text. */
function lineOf(text: string, offset: number): number {
	return text.slice(0, offset).split('\n').length;
}

// ---------------------------------------------------------------------------------------------
// Links

/** This repository's address on GitHub, from package.json's `repository`: https://github.com/o/n. */
export function repositoryAddress(repository: string | { url: string }): string {
	const url = typeof repository === 'string' ? repository : repository.url;
	return url
		.replace(/^git\+/, '')
		.replace(/\.git$/, '')
		.replace(/^git@github\.com:/, 'https://github.com/')
		.replace(/\/$/, '');
}

/**
 * Where a link points inside the repository, or undefined for a link elsewhere: a relative path,
 * or this repository's own GitHub page, file (`/blob/`, `/tree/`) or raw file.
 */
function localTarget(
	from: string,
	href: string,
	repository: string,
): { file: string; anchor?: string } | undefined {
	const [rawPath, ...hash] = href.split('#');
	const anchor = hash.length > 0 ? decodeURIComponent(hash.join('#')) : undefined;
	const ownPage = new RegExp(`^${repository.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/.*)?$`, 'i');
	const [, owner, name] = /github\.com\/([^/]+)\/([^/]+)/.exec(repository) ?? [];
	if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath)) {
		const page = ownPage.exec(rawPath.replace(/[?].*$/, ''));
		if (page) {
			const rest = (page[1] ?? '').replace(/\/$/, '');
			if (rest === '')
				return { file: 'README.md', anchor: anchor === 'readme' ? undefined : anchor };
			const file = /^\/(?:blob|tree)\/[^/]+\/(.+)$/.exec(rest)?.[1];
			return file ? { file: decodeURIComponent(file), anchor } : undefined;
		}
		const raw = new RegExp(
			`^https://raw\\.githubusercontent\\.com/${owner}/${name}/[^/]+/(.+)$`,
			'i',
		).exec(rawPath);
		return raw ? { file: decodeURIComponent(raw[1]) } : undefined;
	}
	if (rawPath === '') return { file: from, anchor };
	const base = rawPath.startsWith('/') ? '' : path.posix.dirname(from);
	const file = path.posix.normalize(
		path.posix.join(base, decodeURIComponent(rawPath.replace(/[?].*$/, ''))),
	);
	return { file: file.replace(/\/$/, '') || '.', anchor };
}

/**
 * Whether one link lands: its file exists and, for a Markdown file, so does its anchor. Returns
 * the problem, or undefined. `from` is the file the link is in.
 */
export function linkProblem(
	from: string,
	href: string,
	tree: Tree,
	repository: string,
): string | undefined {
	const target = localTarget(from, href.trim(), repository);
	if (!target) return undefined;
	if (target.file.startsWith('..')) return `${href} points outside the repository`;
	const kind = tree.kind(target.file);
	if (!kind) return `${href}: ${target.file} does not exist`;
	if (target.anchor === undefined || target.anchor === '') return undefined;
	const file = kind === 'dir' ? `${target.file}/README.md` : target.file;
	if (!file.endsWith('.md')) return undefined;
	const text = tree.read(file);
	if (text === undefined) return `${href}: ${file} does not exist`;
	if (!anchorsOf(text).has(target.anchor)) {
		return `${href}: ${file} has no heading with the anchor #${target.anchor}`;
	}
	return undefined;
}

/** Every Markdown link of every file that does not land, as "file:line: what". */
export function checkLinks(docs: readonly DocFile[], tree: Tree, repository: string): string[] {
	const own = new Map(docs.map(({ file, text }) => [file, text]));
	const withDocs: Tree = {
		kind: (file) => (own.has(file) ? 'file' : tree.kind(file)),
		read: (file) => own.get(file) ?? tree.read(file),
	};
	return docs.flatMap(({ file, text }) =>
		proseLines(text).flatMap(([line, content]) => {
			const prose = withoutCode(content);
			const hrefs = [
				...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
				...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/g)].map(
					(m) => m[1],
				),
				...[...prose.matchAll(/<(https?:\/\/[^>\s]+)>/g)].map((m) => m[1]),
				...[...prose.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]),
			];
			return hrefs.flatMap((href) => {
				const problem = linkProblem(file, href, withDocs, repository);
				return problem ? [`${file}:${line}: ${problem}`] : [];
			});
		}),
	);
}

/** A heading's words as a reference quotes them: rendered, its leading number ("5. ") dropped. */
const headingWords = (text: string) =>
	renderedHeading(text)
		.replace(/^\s*\d+[a-z]?[.)]\s+/i, '')
		.trim()
		.toLowerCase();

/** The page a reference names: "README" is the root's, "trigger.md" the one Markdown file of that name. */
function referredPage(name: string, from: string, files: readonly string[]): string | undefined {
	const wanted = name === 'README' ? 'README.md' : name;
	if (files.includes(wanted)) return wanted;
	const sameFolder = path.posix.join(path.posix.dirname(from), wanted);
	if (files.includes(sameFolder)) return sameFolder;
	const byName = files.filter((file) => file.endsWith(`/${wanted}`));
	return byName.length === 1 ? byName[0] : undefined;
}

/**
 * A reference to a section by its title lands on that section: a link written
 * `[trigger.md, "Events"](docs/trigger.md#events)` goes to a heading whose words begin with
 * "Events"; a reference in prose, `(README, "Docker")` or `README "Docker"`, names a heading the
 * page has. (docs/service.md's citations are docsReferences.test.ts's.)
 */
export function checkSectionReferences(
	docs: readonly DocFile[],
	tree: Tree,
	repository: string,
): string[] {
	const own = new Map(docs.map(({ file, text }) => [file, text]));
	const files = docs.map(({ file }) => file);
	const read = (file: string) => own.get(file) ?? tree.read(file);
	return docs.flatMap(({ file, text }) =>
		passages(text).flatMap((passage) => {
			const prose = withoutCode(passage.text);
			const problems: string[] = [];
			const linked: Array<[number, number]> = [];
			for (const match of prose.matchAll(
				/\[([^\]]*?),?\s*"([^"]+)"\s*\]\(\s*<?([^)\s>]+)>?\s*\)/g,
			)) {
				linked.push([match.index ?? 0, (match.index ?? 0) + match[0].length]);
				const target = localTarget(file, match[3], repository);
				if (!target?.anchor || !target.file.endsWith('.md')) continue;
				const page = read(target.file);
				const heading = page && headings(page).find(({ anchor }) => anchor === target.anchor);
				if (!heading) continue; // checkLinks reports it
				if (!headingWords(heading.text).startsWith(match[2].trim().toLowerCase())) {
					problems.push(
						`${file}:${passage.lineAt(match.index ?? 0)}: says "${match[2]}" but #${target.anchor} is the heading "${heading.text}"`,
					);
				}
			}
			for (const match of prose.matchAll(
				/(?<![\w/.-])(README|(?:[\w-]+\/)*[\w-]+\.md),?\s+"([^"]+)"/g,
			)) {
				const at = match.index ?? 0;
				if (linked.some(([start, end]) => at >= start && at < end)) continue;
				if (/service\.md$/.test(match[1])) continue;
				const page = referredPage(match[1], file, files);
				const pageText = page && read(page);
				if (!pageText) continue;
				const section = match[2]
					.trim()
					.toLowerCase()
					.replace(/[.,;]$/, '');
				if (!headings(pageText).some((heading) => headingWords(heading.text).startsWith(section))) {
					problems.push(
						`${file}:${passage.lineAt(at)}: refers to ${page}, "${match[2]}", a section it does not have`,
					);
				}
			}
			return problems;
		}),
	);
}

// ---------------------------------------------------------------------------------------------
// Node versions

export interface NodeFacts {
	/** The node's `name` (the type after the package's name, e.g. `containerTrackingTrigger`). */
	name: string;
	displayName: string;
	versions: number[];
	/** What a node added today gets: `defaultVersion`, else the highest version. */
	current: number;
	trigger: boolean;
}

export function nodeFacts(description: {
	name: string;
	displayName: string;
	version: number | number[];
	defaultVersion?: number;
	group: string[];
}): NodeFacts {
	const versions = [description.version].flat();
	return {
		name: description.name,
		displayName: description.displayName,
		versions,
		current: description.defaultVersion ?? Math.max(...versions),
		trigger: description.group.includes('trigger') || /trigger/i.test(description.name),
	};
}

const VERSION_NUMBER = String.raw`\d+(?:\.\d+)?(?![.\d])`;
const VERSION_LIST = `${VERSION_NUMBER}(?:(?:\\s*,\\s*|\\s+(?:and|or|to)\\s+)${VERSION_NUMBER})*`;
/** "node version 1.2", "node versions 1 and 1.1", "typeVersion 1.2", "the node is version 1.2", "Trigger 1.2". */
const NODE_VERSION_MENTIONS = [
	new RegExp(`\\b(?:node|type)[ -]?versions?[\`"]*:?\\s+(?:is\\s+|of\\s+)?(${VERSION_LIST})`, 'gi'),
	new RegExp(`\\b(?:is|at)\\s+(?:now\\s+)?version\\s+(${VERSION_LIST})`, 'gi'),
	new RegExp(`\\bTrigger\\s+v?(${VERSION_NUMBER})`, 'g'),
	// "the trigger v1.2", "node v1", "version 1.2 of the trigger"
	new RegExp(`\\b(?:trigger|node)\\s+v(${VERSION_NUMBER})`, 'gi'),
	new RegExp(
		`\\bversions?\\s+(${VERSION_LIST})\\s+of\\s+the\\s+(?:\\S+\\s+){0,3}?(?:trigger|node)\\b`,
		'gi',
	),
];
/** The words by which a sentence says that the node version it names is an older one. */
export const HISTORICAL = /\b(?:before|earlier|older|previous|prior|until)\b/i;

/**
 * Every node version named outside the history files that the node does not have, or that is
 * not its current one in a sentence that does not say it is older (see HISTORICAL).
 */
export function checkNodeVersions(docs: readonly DocFile[], nodes: readonly NodeFacts[]): string[] {
	const trigger = nodes.find((node) => node.trigger) ?? nodes[0];
	const action = nodes.find((node) => !node.trigger) ?? trigger;
	return docs
		.filter(({ file }) => !HISTORY_FILES.has(file))
		.flatMap(({ file, text }) =>
			passages(text).flatMap((passage) => {
				const sentence = passage.text;
				const found = new Map<number, string>();
				for (const pattern of NODE_VERSION_MENTIONS) {
					for (const match of sentence.matchAll(pattern)) {
						const listStart = (match.index ?? 0) + match[0].lastIndexOf(match[1]);
						for (const number of match[1].matchAll(new RegExp(VERSION_NUMBER, 'g'))) {
							found.set(listStart + (number.index ?? 0), number[0]);
						}
					}
				}
				const before = (offset: number) => sentence.slice(0, offset);
				return [...found].flatMap(([offset, written]) => {
					const about = before(offset);
					const node =
						/\btrigger\b/i.test(about) || !/Container Tracking node|action node/i.test(about)
							? trigger
							: action;
					const version = Number(written);
					const where = `${file}:${passage.lineAt(offset)}`;
					if (!node.versions.includes(version)) {
						return [
							`${where}: names ${node.displayName} node version ${written}, which it does not have (it has ${node.versions.join(', ')}; current ${node.current})`,
						];
					}
					if (version !== node.current && !HISTORICAL.test(sentence)) {
						return [
							`${where}: names ${node.displayName} node version ${written}; the current one is ${node.current} (an older one only in a sentence that says so: before, earlier, older, previous, until; or in CHANGELOG.md)`,
						];
					}
					return [];
				});
			}),
		);
}

/** Every node of this package in the example workflows whose typeVersion is not its current one. */
export function checkExampleNodeVersions(
	examples: readonly DocFile[],
	nodes: readonly NodeFacts[],
	packageName: string,
): string[] {
	return examples.flatMap(({ file, text }) => {
		const workflow = JSON.parse(text) as {
			nodes?: Array<{ name: string; type: string; typeVersion: number }>;
		};
		return (workflow.nodes ?? []).flatMap((node) => {
			const facts = nodes.find(({ name }) => node.type === `${packageName}.${name}`);
			if (!facts || node.typeVersion === facts.current) return [];
			const at = text.indexOf(`"name": ${JSON.stringify(node.name)}`);
			return [
				`${file}:${at < 0 ? 1 : lineOf(text, at)}: node "${node.name}" is ${facts.displayName} typeVersion ${node.typeVersion}; the current one is ${facts.current}`,
			];
		});
	});
}

// ---------------------------------------------------------------------------------------------
// Rate limits

/** Which limit a piece of text speaks of, by the calls it names. */
const BUCKET_WORDS: ReadonlyArray<[string, RegExp]> = [
	['infer_number', /\binfer/i],
	['refresh', /\brefresh/i],
	[
		'tracking_requests',
		/\bcreat\w*\s+(?:a\s+)?tracking requests?\b|POST \/tracking_requests\/?(?![/\w])/i,
	],
	[
		'default',
		/\b(?:everything|anything) else\b|\ball other\b|\bother calls\b|\bthe rest\b|\bshared\b/i,
	],
];
const PER_MINUTE =
	/^\s*(?:requests?\s+|calls?\s+)?(?:a|per|each|every)\s+(?:rolling\s+)?minute\b|^\s*\/\s*min\b/i;
const MINUTE = /\b(?:a|per|each|every)\s+(?:rolling\s+)?minute\b|\/\s*min\b|\bper\s+60\s+s/i;
const ABOUT_LIMITS = /\blimit|\brate\b|\b429\b/i;

function bucketOf(text: string): string | undefined {
	return BUCKET_WORDS.find(([, words]) => words.test(text))?.[0];
}

/**
 * Every figure outside the history files that gives the service's rate limit differently from the
 * code: "N a minute" in a sentence about limits (with the calls it is for, when the clause names
 * them), and the rows of a table whose header speaks of a limit; a sentence giving a figure for
 * "everything else" that leaves out a call the code limits differently (everything else would
 * then include it); and a limit of the code stated nowhere.
 */
export function checkRateLimits(
	docs: readonly DocFile[],
	limits: Readonly<Record<string, number>>,
): string[] {
	const values = new Set(Object.values(limits));
	const stated = new Set<string>();
	const problems = docs
		.filter(({ file }) => !HISTORY_FILES.has(file))
		.flatMap(({ file, text }) =>
			passages(text).flatMap((passage) => {
				const figures: Array<{ offset: number; value: number; bucket?: string }> = [];
				if (passage.cells && passage.header) {
					const header = passage.header.join(' ');
					if (!/limit/i.test(header) || !/minute|\/\s*min\b|60 ?s/i.test(header)) return [];
					const bucket = bucketOf(passage.cells[0]);
					const limitCell = passage.cells.slice(1).find((cell) => /^\**\d/.test(cell));
					if (!limitCell) return [];
					figures.push({
						offset: 0,
						value: Number(/\d[\d,]*/.exec(limitCell)![0].replace(/,/g, '')),
						bucket,
					});
				} else {
					const sentence = passage.text;
					if (!ABOUT_LIMITS.test(sentence) || !MINUTE.test(sentence)) return [];
					const prose = withoutCode(sentence);
					for (const clause of sentence.matchAll(/[^,;()—–]+/g)) {
						const clauseText = clause[0];
						const clauseProse = prose.slice(clause.index, (clause.index ?? 0) + clauseText.length);
						for (const number of clauseProse.matchAll(/(?<![\w.,])\d[\d,]*(?![\w.%]|,\d|\.\d)/g)) {
							const after = clauseProse.slice((number.index ?? 0) + number[0].length);
							const value = Number(number[0].replace(/,/g, ''));
							if (
								value === 429 ||
								/^\s*(?:s\b|ms\b|seconds?|minutes?|hours?|an hour|days?)/i.test(after)
							) {
								continue;
							}
							const bucket = bucketOf(clauseText);
							if (!PER_MINUTE.test(after) && bucket === undefined) continue;
							figures.push({ offset: (clause.index ?? 0) + (number.index ?? 0), value, bucket });
						}
					}
				}
				const named = new Set(figures.map(({ bucket }) => bucket));
				const lumped =
					!passage.cells && named.has('default')
						? Object.keys(limits).filter(
								(bucket) => !named.has(bucket) && limits[bucket] !== limits.default,
							)
						: [];
				const defaultAt = figures.find(({ bucket }) => bucket === 'default')?.offset ?? 0;
				return [
					...lumped.map(
						(bucket) =>
							`${file}:${passage.lineAt(defaultAt)}: gives ${limits.default} a minute for everything else, but the code gives ${bucket} a limit of its own, ${limits[bucket]}`,
					),
					...figures.flatMap(({ offset, value, bucket }) => {
						const where = `${file}:${passage.lineAt(offset)}`;
						if (bucket !== undefined && bucket in limits) {
							if (limits[bucket] === value) {
								stated.add(bucket);
								return [];
							}
							return [
								`${where}: gives the ${bucket} rate limit as ${value} a minute; the code enforces ${limits[bucket]}`,
							];
						}
						if (values.has(value)) return [];
						return [
							`${where}: gives a rate limit of ${value} a minute; the code enforces ${Object.entries(
								limits,
							)
								.map(([name, limit]) => `${name} ${limit}`)
								.join(', ')}`,
						];
					}),
				];
			}),
		);
	const unstated = Object.keys(limits).filter((bucket) => !stated.has(bucket));
	if (unstated.length > 0) {
		problems.push(
			`(docs): no table or sentence gives the rate limit of ${unstated.map((bucket) => `${bucket} (${limits[bucket]} a minute)`).join(', ')}`,
		);
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------
// Tested n8n versions

export interface TestedVersions {
	/** The n8n versions the project's tests run on. */
	tested: readonly string[];
	/** The oldest n8n supported. */
	oldest: string;
}

function compareVersions(a: string, b: string): number {
	const [x, y] = [a, b].map((version) => version.split('.').map(Number));
	for (let index = 0; index < Math.max(x.length, y.length); index++) {
		const difference = (x[index] ?? 0) - (y[index] ?? 0);
		if (difference !== 0) return difference;
	}
	return 0;
}

export function newest(versions: readonly string[]): string {
	return [...versions].sort(compareVersions).at(-1)!;
}

const N8N_VERSION_LIST =
	/\bn8n(?:'s)?\s+\**v?(\d+\.\d+\.\d+(?:\**(?:\s*,\s*|\s+(?:and|or)\s+)\**\d+\.\d+\.\d+)*)/gi;

/**
 * Every n8n version the documentation calls tested that the tests do not run on (a sentence
 * saying "tested" naming `n8n X.Y.Z`, the first column of a table captioned or headed "tested"),
 * and a Compatibility section that lacks the newest tested version or the oldest supported one.
 */
export function checkTestedVersions(docs: readonly DocFile[], facts: TestedVersions): string[] {
	const tested = new Set(facts.tested);
	const latest = newest(facts.tested);
	const problems: string[] = [];
	const compatibility: string[] = [];
	for (const { file, text } of docs.filter(({ file }) => !HISTORY_FILES.has(file))) {
		for (const passage of passages(text)) {
			if (passage.section && /compatib/i.test(passage.section.text))
				compatibility.push(passage.text);
			const mentions: Array<[number, string]> = [];
			if (passage.cells) {
				if (!/\btested\b/i.test(`${passage.caption ?? ''} ${(passage.header ?? []).join(' ')}`))
					continue;
				for (const version of passage.cells[0].matchAll(/\d+\.\d+\.\d+/g)) {
					mentions.push([0, version[0]]);
				}
			} else {
				if (!/(?<!un)\btested\b/i.test(passage.text)) continue;
				for (const list of passage.text.matchAll(N8N_VERSION_LIST)) {
					for (const version of list[1].matchAll(/\d+\.\d+\.\d+/g)) {
						mentions.push([
							(list.index ?? 0) + list[0].indexOf(list[1]) + (version.index ?? 0),
							version[0],
						]);
					}
				}
			}
			for (const [offset, version] of mentions) {
				if (!tested.has(version)) {
					problems.push(
						`${file}:${passage.lineAt(offset)}: calls n8n ${version} tested; the tests run on ${facts.tested.join(', ')}`,
					);
				}
			}
		}
	}
	const place = compatibility.join(' ');
	if (compatibility.length === 0) problems.push('(docs): no section is headed Compatibility');
	else {
		for (const [version, what] of [
			[latest, 'the newest n8n the tests run on'],
			[facts.oldest, 'the oldest n8n supported'],
		]) {
			if (!new RegExp(`(?<![\\d.])${version.replace(/\./g, '\\.')}(?![\\d.]*\\d)`).test(place)) {
				problems.push(`(docs): no Compatibility section names n8n ${version}, ${what}`);
			}
		}
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------
// Operations

export interface Operation {
	/** The Resource field's option name, e.g. "Tracking Request". */
	resource: string;
	/** The Operation field's option name, e.g. "Get Many". */
	operation: string;
}

const plain = (cell: string) =>
	cell
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[*`]/g, '')
		.replace(/<br\s*\/?>/gi, ', ')
		.replace(/\s+/g, ' ')
		.trim();
const key = ({ resource, operation }: Operation) => `${resource} → ${operation}`.toLowerCase();

/** Every Resource → Operation pair as the node's fields offer them. */
export function operationsOf(properties: readonly INodeProperties[]): Operation[] {
	const resources = properties.find(({ name }) => name === 'resource')?.options ?? [];
	return resources.flatMap((resource) => {
		const value = (resource as { value: string }).value;
		const field = properties.find(
			({ name, displayOptions }) =>
				name === 'operation' && displayOptions?.show?.resource?.includes(value),
		);
		return (field?.options ?? []).map((option) => ({
			resource: resource.name,
			operation: option.name,
		}));
	});
}
/** The operations table as the documentation may write it: one row per resource. */
export function operationsTable(operations: readonly Operation[]): string {
	const byResource = new Map<string, string[]>();
	for (const { resource, operation } of operations) {
		byResource.set(resource, [...(byResource.get(resource) ?? []), operation]);
	}
	return [
		'| Resource | Operations |',
		'| --- | --- |',
		...[...byResource].map(([resource, names]) => `| ${resource} | ${names.join(', ')} |`),
	].join('\n');
}

/**
 * The operations tables (a header cell "Operation(s)", or "Resource → Operation"): each must list
 * every operation of the node and no other. A row lists one resource's operations, separated by
 * `,` or `/`: "Webhook → Get / Get Many", or "| Webhook | Get, Get Many |".
 */
export function checkOperations(
	docs: readonly DocFile[],
	operations: readonly Operation[],
): string[] {
	const known = new Set(operations.map(key));
	const tables = new Map<string, { file: string; line: number; listed: Set<string> }>();
	const problems: string[] = [];
	for (const { file, text } of docs.filter(({ file }) => !HISTORY_FILES.has(file))) {
		for (const passage of passages(text)) {
			if (!passage.cells || !passage.header) continue;
			const header = passage.header.map(plain);
			const combined = header.findIndex((cell) =>
				/^resource\s*(?:→|->|\/|and)\s*operations?$/i.test(cell),
			);
			const resourceColumn = header.findIndex((cell) => /^resources?$/i.test(cell));
			const operationColumn = header.findIndex((cell) => /^operations?$/i.test(cell));
			if (combined < 0 && operationColumn < 0) continue;
			const line = passage.lineAt(0);
			const tableKey = `${file}:${header.join('|')}:${passage.section?.line ?? 0}`;
			const table = tables.get(tableKey) ?? { file, line, listed: new Set<string>() };
			tables.set(tableKey, table);
			let resource: string;
			let names: string;
			if (combined >= 0) {
				const [left, ...right] = plain(passage.cells[combined] ?? '').split(/\s*(?:→|->)\s*/);
				[resource, names] = [left, right.join(' ')];
			} else {
				resource = resourceColumn >= 0 ? plain(passage.cells[resourceColumn] ?? '') : '';
				names = plain(passage.cells[operationColumn] ?? '');
			}
			for (const operation of names.split(/\s*[,/·]\s*/).filter(Boolean)) {
				const pair = { resource, operation };
				table.listed.add(key(pair));
				if (!known.has(key(pair))) {
					problems.push(
						`${file}:${line}: names the operation ${resource} → ${operation}, which the node does not have`,
					);
				}
			}
		}
	}
	if (tables.size === 0)
		problems.push('(docs): no table lists the operations (a column headed Operation)');
	for (const { file, line, listed } of tables.values()) {
		const first = line;
		for (const operation of operations) {
			if (!listed.has(key(operation))) {
				problems.push(
					`${file}:${first}: the operations table lacks ${operation.resource} → ${operation.operation}`,
				);
			}
		}
	}
	return problems;
}

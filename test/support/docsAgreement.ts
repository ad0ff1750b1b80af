// The pages against the code they quote (issue 60), beside test/support/docs.ts and
// docsPages.ts: what `npm start` prints (scripts/start.mjs) against the README's quote; the
// fields a page lists for an operation, and the field tables, against the node's displayNames;
// the messages a page quotes against the strings of the code; every Switch of the examples with
// a fallback output; and every file a comment or a page names. Every check is pure: it takes
// texts and facts, and returns its problems as "file:line: what".
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test support, not a published node */
import path from 'node:path';

import * as ts from 'typescript';

import { HISTORY_FILES, headings, passages, withoutCode, type DocFile } from './docs';
import type { Workflow } from './docsPages';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fold = (text: string) => text.replace(/\s+/g, ' ').trim();
const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

// ---------------------------------------------------------------------------------------------
// (a) What `npm start` prints

/** A piece of a printed line: text as it is, or a value the code fills in (its choices, if any). */
type Piece = { text: string } | { choices?: Piece[][] };

/** A template literal's pieces: its text, and for each `${…}` the strings it may be. */
function templatePieces(node: ts.Expression): Piece[] {
	if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node))
		return [{ text: node.text }];
	if (ts.isTemplateExpression(node)) {
		return [
			{ text: node.head.text },
			...node.templateSpans.flatMap((span) => [
				valuePiece(span.expression),
				{ text: span.literal.text },
			]),
		];
	}
	return [valuePiece(node)];
}

function valuePiece(expression: ts.Expression): Piece {
	const inner = ts.isParenthesizedExpression(expression) ? expression.expression : expression;
	const literal = (node: ts.Expression) =>
		ts.isStringLiteral(node) ||
		ts.isNoSubstitutionTemplateLiteral(node) ||
		ts.isTemplateExpression(node);
	if (ts.isConditionalExpression(inner) && literal(inner.whenTrue) && literal(inner.whenFalse)) {
		return { choices: [templatePieces(inner.whenTrue), templatePieces(inner.whenFalse)] };
	}
	return {};
}

/** Pieces as a regular expression: text as it is (spaces folded), a value as any text. */
function patternOf(pieces: readonly Piece[]): string {
	return pieces
		.map((piece) =>
			'text' in piece
				? escape(piece.text).replace(/\s+/g, '\\s+')
				: piece.choices
					? `(?:${piece.choices.map(patternOf).join('|')})`
					: '.+?',
		)
		.join('');
}

/** Pieces as the code writes them: `${…}` for a value. */
function shownAs(pieces: readonly Piece[]): string {
	return pieces.map((piece) => ('text' in piece ? piece.text : '${…}')).join('');
}

export interface PrintedLine {
	/** The line as the code writes it, `${…}` for each value. */
	code: string;
	pattern: RegExp;
}

/**
 * The lines of the summary a script prints: the template literal handed to
 * `process.stdout.write` whose text holds `marker`, cut into lines (empty ones left out), each
 * with the pattern its printed form matches.
 */
export function printedLines(source: string, marker: string): PrintedLine[] {
	const file = ts.createSourceFile(
		'start.mjs',
		source,
		ts.ScriptTarget.Latest,
		true,
		ts.ScriptKind.JS,
	);
	let found: ts.Expression | undefined;
	const visit = (node: ts.Node) => {
		// The template that holds the marker, written or returned to be written.
		if (
			(ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
			node.getText(file).includes(marker)
		) {
			found = node;
			return;
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	if (!found) return [];
	// Cut the pieces into lines: a newline only ever stands in text pieces.
	const lines: Piece[][] = [[]];
	for (const piece of templatePieces(found)) {
		if (!('text' in piece)) {
			lines.at(-1)!.push(piece);
			continue;
		}
		piece.text.split('\n').forEach((part, index) => {
			if (index > 0) lines.push([]);
			if (part !== '') lines.at(-1)!.push({ text: part });
		});
	}
	return lines
		.filter((line) => line.some((piece) => !('text' in piece) || piece.text.trim() !== ''))
		.map((line) => ({
			code: fold(shownAs(line)),
			pattern: new RegExp(`^\\s*${patternOf(line)}\\s*$`),
		}));
}

/**
 * The README's quote of a summary (the fenced block of `section` that begins with `marker`)
 * against the lines the code prints: the same lines in the same order, each as the code would
 * print it (a value may be any text, the README's `…` included; spaces folded).
 */
export function checkPrintout(
	readme: DocFile,
	section: string,
	marker: string,
	printed: readonly PrintedLine[],
	source: string,
): string[] {
	const all = headings(readme.text);
	const start = all.find(({ text }) => text === section);
	if (!start) return [`${readme.file}: no section "${section}"`];
	const end = all.find(({ line, level }) => line > start.line && level <= start.level);
	const lines = readme.text.split('\n');
	const from = lines.slice(start.line, end ? end.line - 1 : undefined);
	const open = from.findIndex(
		(line, index) => /^```/.test(line) && from[index + 1]?.startsWith(marker),
	);
	if (open < 0) return [`${readme.file}: "${section}" quotes no block beginning "${marker}"`];
	const close = from.findIndex((line, index) => index > open && /^```/.test(line));
	const quoted = from
		.slice(open + 1, close)
		.map((text, index) => ({ text, line: start.line + open + 2 + index }))
		.filter(({ text }) => text.trim() !== '');
	if (printed.length === 0) return [`${source}: prints no summary beginning "${marker}"`];
	// In order: each quoted line is the next printed line it reads as; the printed lines it passes
	// over are missing from the quote.
	const problems: string[] = [];
	let next = 0;
	for (const shown of quoted) {
		const at = printed.findIndex((line, index) => index >= next && line.pattern.test(shown.text));
		if (at < 0) {
			problems.push(
				`${readme.file}:${shown.line}: shows "${fold(shown.text)}", which ${source} does not print${printed[next] ? ` (next it prints "${printed[next].code}")` : ''}`,
			);
			continue;
		}
		for (const skipped of printed.slice(next, at))
			problems.push(
				`${readme.file}:${shown.line}: the quote lacks a line ${source} prints before it: "${skipped.code}"`,
			);
		next = at + 1;
	}
	for (const missing of printed.slice(next))
		problems.push(
			`${readme.file}: the quote lacks a line ${source} prints at its end: "${missing.code}"`,
		);
	return problems;
}

// ---------------------------------------------------------------------------------------------
// (d) Fields and messages

interface PropertyLike {
	displayName?: string;
	name?: string;
	type?: string;
	displayOptions?: { show?: Record<string, unknown[] | undefined> };
	options?: unknown[];
	values?: unknown[];
}

/** "Resource → Operation" (the pickers' names) → the labels its fields, options and values show. */
export function operationFields(properties: readonly unknown[]): Map<string, Set<string>> {
	const props = properties as PropertyLike[];
	const resources = (props.find(({ name }) => name === 'resource')?.options ?? []) as Array<{
		name: string;
		value: string;
	}>;
	const labels = (items: readonly unknown[], into: Set<string>) => {
		for (const item of items as PropertyLike[]) {
			const label = item.displayName ?? item.name;
			if (typeof label === 'string' && item.type !== 'notice') into.add(label);
			if (item.options) labels(item.options, into);
			if (item.values) labels(item.values, into);
		}
	};
	const fields = new Map<string, Set<string>>();
	for (const resource of resources) {
		const operationField = props.find(
			({ name, displayOptions }) =>
				name === 'operation' && displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of (operationField?.options ?? []) as Array<{
			name: string;
			value: string;
		}>) {
			const shown = props.filter(({ name, displayOptions }) => {
				const show = displayOptions?.show;
				return (
					name !== 'resource' &&
					name !== 'operation' &&
					(!show?.resource || show.resource.includes(resource.value)) &&
					(!show?.operation || show.operation.includes(operation.value))
				);
			});
			const into = new Set<string>();
			labels(shown, into);
			fields.set(`${resource.name} → ${operation.name}`, into);
		}
	}
	return fields;
}

/**
 * Where a page names an operation and then lists its fields, every **bold** field is one the
 * operation's form shows: in prose, "**Webhook** → **Send Test Delivery** (**URL** …, **Event
 * Name or ID** …)", the parenthesis that follows the operation; in a table headed
 * "Resource → Operation" and "Fields", the row's Fields cell. "Options" is the collection's name.
 */
export function checkOperationFields(
	docs: readonly DocFile[],
	fields: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
	const byResource = new Map<string, string[]>();
	for (const key of fields.keys()) {
		const [resource, operation] = key.split(' → ');
		byResource.set(resource, [...(byResource.get(resource) ?? []), operation]);
	}
	const resources = [...byResource.keys()].sort((a, b) => b.length - a.length).map(escape);
	const mention = new RegExp(`(?<![\\p{L}])[*_]*(${resources.join('|')})[*_]*\\s*→\\s*[*_]*`, 'gu');
	const problems: string[] = [];
	const bold = (text: string) => [...text.matchAll(/\*\*([^*\n]+?)\*\*/g)];
	const check = (where: string, key: string, listed: string) => {
		for (const [, name] of bold(listed)) {
			const label = name.trim();
			if (label === 'Options' || fields.get(key)?.has(label)) continue;
			problems.push(
				`${where}: names the field **${label}** of ${key}, which its form does not show`,
			);
		}
	};
	for (const { file, text } of docs.filter(({ file: name }) => !HISTORY_FILES.has(name))) {
		for (const passage of passages(text)) {
			const prose = withoutCode(passage.text);
			if (passage.cells && passage.header) {
				const header = passage.header.map((cell) => cell.replace(/[*_`]/g, '').trim());
				const which = header.findIndex((cell) => /^resource\s*→\s*operation$/i.test(cell));
				const listed = header.findIndex((cell) => /^fields?$/i.test(cell));
				if (which < 0 || listed < 0) continue;
				const key = passage.cells[which].replace(/[*_`]/g, '').trim();
				if (fields.has(key)) check(`${file}:${passage.lineAt(0)}`, key, passage.cells[listed]);
				continue;
			}
			for (const match of prose.matchAll(mention)) {
				const after = prose.slice((match.index ?? 0) + match[0].length);
				const operation = byResource
					.get(match[1])!
					.filter((name) => new RegExp(`^${escape(name)}(?![\\p{L}])`, 'u').test(after))
					.sort((a, b) => b.length - a.length)[0];
				if (!operation) continue;
				// The parenthesis right after the operation's name (and its closing emphasis).
				const rest = after.slice(operation.length).replace(/^[*_]*/, '');
				const open = /^\s*\(/.exec(rest);
				if (!open) continue;
				let depth = 0;
				let end = open[0].length - 1;
				for (; end < rest.length; end++) {
					if (rest[end] === '(') depth++;
					if (rest[end] === ')' && --depth === 0) break;
				}
				// Within the parenthesis: what a nested Resource → Operation lists is its own.
				const inside = rest.slice(open[0].length, end).split(mention)[0];
				check(
					`${file}:${passage.lineAt((match.index ?? 0) + match[0].length)}`,
					`${match[1]} → ${operation}`,
					inside,
				);
			}
		}
	}
	return problems;
}

/**
 * The first column of a table headed "Field" or "Option" names labels of ours (the credential's
 * and the nodes' fields and options), where it names them as the editor shows them (a capital
 * first; not a `code` key of an item, nor a command line's `--flag`).
 */
export function checkFieldTables(docs: readonly DocFile[], labels: ReadonlySet<string>): string[] {
	return docs
		.filter(({ file }) => !HISTORY_FILES.has(file))
		.flatMap(({ file, text }) =>
			passages(text).flatMap((passage) => {
				if (!passage.cells || !passage.header) return [];
				if (!/^(?:field|option)s?$/i.test(passage.header[0].replace(/[*_`]/g, '').trim()))
					return [];
				const cell = passage.cells[0];
				const label = cell.replace(/[*_]/g, '').trim();
				if (cell.includes('`') || !/^\p{Lu}/u.test(label)) return [];
				return labels.has(label)
					? []
					: [
							`${file}:${passage.lineAt(0)}: lists **${label}** as a field, which our nodes and credential do not have`,
						];
			}),
		);
}

/** A string of the code as a pattern: its text, `\0` where a value goes. */
export type CodeString = string;

/**
 * Every string literal and template of a source, `\0` for each `${…}` whose value is not known
 * there: a `${name}` of a `const name = '…'` (or a template) of the same file is written out, so
 * that a message put together from two strings reads as one.
 */
export function codeStrings(file: string, source: string): CodeString[] {
	const kind = /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
	const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
	const constants = new Map<string, ts.Expression>();
	const collect = (node: ts.Node) => {
		if (
			ts.isVariableDeclaration(node) &&
			ts.isIdentifier(node.name) &&
			node.initializer &&
			(ts.isStringLiteral(node.initializer) ||
				ts.isNoSubstitutionTemplateLiteral(node.initializer) ||
				ts.isTemplateExpression(node.initializer)) &&
			ts.isVariableDeclarationList(node.parent) &&
			(node.parent.flags & ts.NodeFlags.Const) !== 0
		) {
			constants.set(node.name.text, node.initializer);
		}
		ts.forEachChild(node, collect);
	};
	collect(sourceFile);
	const textOf = (node: ts.Expression, depth: number): string => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
		if (ts.isTemplateExpression(node)) {
			return (
				node.head.text +
				node.templateSpans
					.map((span) => {
						const known = ts.isIdentifier(span.expression)
							? constants.get(span.expression.text)
							: undefined;
						return `${known && depth < 3 ? textOf(known, depth + 1) : '\0'}${span.literal.text}`;
					})
					.join('')
			);
		}
		return '\0';
	};
	const strings: CodeString[] = [];
	const visit = (node: ts.Node) => {
		if (
			ts.isStringLiteral(node) ||
			ts.isNoSubstitutionTemplateLiteral(node) ||
			ts.isTemplateExpression(node)
		) {
			strings.push(textOf(node, 0));
		}
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return strings;
}

/**
 * The strings of the examples' Code nodes (their `jsCode`), and of the Workflow JSON a node holds:
 * the lines the examples write (a Routing line, a subject).
 */
export function workflowStrings(workflows: readonly Workflow[]): CodeString[] {
	return workflows.flatMap(({ file, nodes }) =>
		nodes.flatMap(({ parameters }) =>
			typeof parameters?.jsCode === 'string' ? codeStrings(`${file}.js`, parameters.jsCode) : [],
		),
	);
}

/**
 * What a page quotes as a message: an inline code span, a "double-quoted" text or an _italic_
 * one, as a sentence.
 */
const QUOTE =
	/`([^`\n]+)`|(?<![\w=])"([^"\n]{8,}?)"(?![\w])|(?<![\p{L}\p{N}_*])_([^_\n]+?)_(?![\p{L}\p{N}_*])/gu;
/** A passage that speaks of a message shown to the user. */
const ABOUT_A_MESSAGE =
	/\b(?:error|errors|fails?|failed|message|says?|said|answers?|answered|refus\w*|shows?|warning|log)\b/i;
const MESSAGE_HEADER = /\bsays?\b|\bmessage\b|\berror\b/i;

/** Whether a quoted text reads as a message: words, a capital first, no code. */
export function messageLike(text: string): boolean {
	const words = text.split(/\s+/).filter((word) => /\p{L}{2}/u.test(word));
	return (
		words.length >= 3 &&
		/^["\p{Lu}]/u.test(text) &&
		!/[{}=$]|^(?:npm|node|docker|cd|curl|git|n8n|POST|GET|PATCH|DELETE|PUT)\b|^[\w.-]+:\s*\S+$/.test(
			text,
		)
	);
}

/** Text a value of the code may stand for: no three lowercase words in a row (a sentence would). */
const valueLike = (text: string) => !/\b\p{Ll}{2,}\s+\p{Ll}{2,}\s+\p{Ll}{2,}\b/u.test(text);

/**
 * How much of a quote a string of the code says in its own words: the most characters of the
 * quote that stand as they are in the string, when some text reads both as the quote and as the
 * string; -1 when none does. The quote's `…` (or `<placeholder>`) stands for any text, and so does
 * what comes before and after it (a page may quote part of a message); the string's `\0` (a
 * value) stands for what looks like a value in the quote (a number, a host, a name), not for a
 * sentence. Spaces folded.
 */
function saysOf(quote: string, string: CodeString): number {
	const ANY = '\u0001';
	const a = `${ANY}${fold(quote.replace(/`/g, '').replace(/…|\.\.\.|<[^<>]+>/g, ANY))}${ANY}`;
	const b = fold(string);
	const width = b.length + 1;
	// best[i * width + j]: the most characters matched as they are, reading a from i and b from j.
	const best = new Int32Array((a.length + 1) * width).fill(-1);
	best[a.length * width + b.length] = 0;
	for (let i = a.length; i >= 0; i--) {
		for (let j = b.length; j >= 0; j--) {
			if (i === a.length && j === b.length) continue;
			let most = -1;
			const take = (ni: number, nj: number, gain: number) => {
				const rest = best[ni * width + nj];
				if (rest >= 0 && rest + gain > most) most = rest + gain;
			};
			if (i < a.length && a[i] === ANY) {
				take(i + 1, j, 0);
				if (j < b.length) take(i, j + 1, 0);
			}
			if (j < b.length && b[j] === '\0') {
				// The value takes a[i..k), as long as that reads as a value.
				for (let k = i; k <= a.length; k++) {
					if (!valueLike(a.slice(i, k).replaceAll(ANY, ' '))) break;
					take(k, j + 1, 0);
				}
			}
			if (i < a.length && j < b.length && a[i] !== ANY && b[j] !== '\0' && a[i] === b[j]) {
				take(i + 1, j + 1, 1);
			}
			best[i * width + j] = most;
		}
	}
	return best[0];
}

/**
 * A quote against the code's strings: one reads as it and says, in its own words, at least a
 * third of the quote's text and 8 characters (the rest may be values it leaves open).
 */
export function quotedBy(quote: string, strings: readonly CodeString[]): boolean {
	const own = fold(quote.replace(/`/g, '').replace(/…|\.\.\.|<[^<>]+>/g, '')).length;
	const needed = Math.min(own, Math.max(8, Math.ceil(own / 3)));
	const words = quote.match(/\p{L}{4,}/gu) ?? [];
	return strings.some(
		(string) =>
			(words.length === 0 || words.some((word) => string.includes(word))) &&
			saysOf(quote, string) >= needed,
	);
}

/**
 * Every message a user page quotes (a code span or "double-quoted" text that reads as a message,
 * in a passage about an error, an answer or a message, or a table headed "… says"), found among
 * the code's strings or `others` (n8n's and npm's own words). Section titles quoted as such are
 * not messages.
 */
export function checkQuotedMessages(
	docs: readonly DocFile[],
	strings: readonly CodeString[],
	others: ReadonlySet<string>,
): string[] {
	const titles = new Set(
		docs.flatMap(({ text }) => headings(text).map(({ text: title }) => fold(title))),
	);
	return docs
		.filter(({ file }) => /^(?:README\.md|examples\/README\.md|docs\/[^/]+\.md)$/.test(file))
		.flatMap(({ file, text }) =>
			passages(text).flatMap((passage) => {
				// What the passage says around its quotes: a caption that is one quote says nothing.
				const around = passage.text.replace(QUOTE, ' ');
				const about = passage.cells
					? MESSAGE_HEADER.test((passage.header ?? []).join(' ')) || ABOUT_A_MESSAGE.test(around)
					: ABOUT_A_MESSAGE.test(around);
				if (!about) return [];
				return [...passage.text.matchAll(QUOTE)].flatMap((match) => {
					const quote = (match[1] ?? match[2] ?? match[3]).trim();
					if (!messageLike(quote) || titles.has(fold(quote)) || others.has(quote)) return [];
					if (quotedBy(quote, strings)) return [];
					return [
						`${file}:${passage.lineAt(match.index ?? 0)}: quotes "${quote}", which no message of the code says`,
					];
				});
			}),
		);
}

// ---------------------------------------------------------------------------------------------
// (f) Switches

/**
 * Every Switch of the examples sends what matches no rule to a fallback output (an extra one, or
 * one of its rules'): the docs tell users never to drop items of an open list of values
 * (docs/service.md, "Documents and records").
 */
export function checkSwitchFallbacks(workflows: readonly Workflow[]): string[] {
	return workflows.flatMap(({ file, nodes }) =>
		nodes
			.filter(({ type }) => type === 'n8n-nodes-base.switch')
			.flatMap(({ name, parameters }) => {
				const rules = (parameters?.rules as { values?: unknown[] } | undefined)?.values ?? [];
				const fallback = (parameters?.options as { fallbackOutput?: unknown } | undefined)
					?.fallbackOutput;
				const ok =
					parameters?.mode !== 'expression' &&
					(fallback === 'extra' ||
						(typeof fallback === 'number' && fallback >= 0 && fallback < rules.length));
				return ok
					? []
					: [
							`${file}: the Switch "${name}" drops what matches none of its rules: give it a fallback output (Options → Fallback Output)`,
						];
			}),
	);
}

// ---------------------------------------------------------------------------------------------
// (g) Files named

/** A path a text names: folders and a file with an extension we keep. */
const NAMED_PATH =
	/(?<![\w@$~/.:<*-])((?:\.{1,2}\/)?(?:[\w.-]+\/)+[\w.-]*\w\.(?:ts|js|mjs|cjs|json|md|csv|yml|yaml|png|sh))(?![\w/])/g;

/** The comments of a source (`//`, `/* … *\/`), as lines with their numbers. */
function commentLines(source: string): Array<[number, string]> {
	const lines = source.split('\n');
	const out: Array<[number, string]> = [];
	let block = false;
	lines.forEach((line, index) => {
		if (block) {
			out.push([index + 1, line]);
			if (line.includes('*/')) block = false;
			return;
		}
		const start = line.search(/\/\*|\/\/(?!\S*:\/\/)/);
		if (start < 0 || /['"`]/.test(line.slice(0, start).replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '')))
			return;
		out.push([index + 1, line.slice(start)]);
		if (line.slice(start).startsWith('/*') && !line.includes('*/', start)) block = true;
	});
	return out;
}

/**
 * Every file a comment of the code, or a page, names exists: a path with a folder, relative to
 * the repository's root, to the naming file's folder, or to a folder of the repository (a
 * comment in trigger/ names `memory/runJournal.ts`); `dist/x.js` is the source it is built from.
 * `allowed` lists the paths named that are not the repository's (n8n's files, a file the text
 * says to create), each with why.
 */
export function checkNamedFiles(
	files: readonly DocFile[],
	exists: (file: string) => boolean,
	all: readonly string[],
	allowed: ReadonlyMap<string, string>,
): string[] {
	const found = (from: string, named: string): boolean => {
		const variants = [named];
		if (/\.js$/.test(named))
			variants.push(named.replace(/\.js$/, '.ts'), named.replace(/\.js$/, '.mjs'));
		return variants.some((variant) => {
			const source = variant.replace(/^(?:\.\/)?dist\//, '');
			return (
				[variant, source, path.posix.join(path.posix.dirname(from), variant)].some((candidate) =>
					exists(path.posix.normalize(candidate)),
				) || all.some((file) => file.endsWith(`/${source.replace(/^\.\//, '')}`))
			);
		});
	};
	return files.flatMap(({ file, text }) => {
		const code = /\.(?:ts|js|mjs|cjs)$/.test(file);
		const lines: Array<[number, string]> = code
			? commentLines(text)
			: text.split('\n').map((line, index) => [index + 1, line]);
		return lines.flatMap(([line, content]) =>
			[...content.matchAll(NAMED_PATH)].flatMap(([, named]) => {
				const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), named));
				if (named.startsWith('..') && resolved.startsWith('..')) return [];
				// A placeholder: `examples/x.json`, `nodes/X/Name.node.ts`.
				if (named.split('/').some((part) => /^[xX](?:\.|$)/.test(part))) return [];
				if (allowed.has(named) || found(file, named)) return [];
				return [`${file}:${line}: names ${named}, which does not exist`];
			}),
		);
	});
}

export { lineOf };

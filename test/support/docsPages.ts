// The pages' own checks (test/unit/docsPages.test.ts), beside the facts of test/support/docs.ts:
// the names a page or an example's sticky note gives (nodes, fields, options) against the
// workflow JSON and the node descriptions; each fact stated with one value wherever it is stated;
// an option's default as the description has it; what a user page may not carry (a commit hash,
// a bench figure, a date) and must open with (one line saying who it is for); and the pages'
// lengths. Every check is pure: it takes texts and facts, and returns its problems as
// "file:line: what".
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test support, not a published node */
import path from 'node:path';

import {
	HISTORY_FILES,
	headings,
	passages,
	withoutCode,
	type DocFile,
	type Operation,
} from './docs';

// ---------------------------------------------------------------------------------------------
// The example workflows, as far as names go

export interface WorkflowNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
}

export interface Workflow {
	/** Its path, e.g. `examples/hold-alerts.json`. */
	file: string;
	/** The workflow's name, as the editor shows it. */
	name: string;
	nodes: WorkflowNode[];
}

export const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

export function workflowOf({ file, text }: DocFile): Workflow {
	const json = JSON.parse(text) as { name?: string; nodes?: WorkflowNode[] };
	return { file, name: json.name ?? '', nodes: json.nodes ?? [] };
}

/** Each sticky note of a workflow as a page of its own: `examples/x.json, note "Set up"`. */
export function stickyNotes(workflow: Workflow): DocFile[] {
	return workflow.nodes
		.filter(({ type }) => type === STICKY_NOTE)
		.map((note) => ({
			file: `${workflow.file}, note "${note.name}"`,
			text: String(note.parameters?.content ?? ''),
		}));
}

/**
 * n8n's own buttons and menu items that sticky notes and pages tell the user to click: not in any
 * workflow's JSON, so named here (a menu path with → is skipped, see nameLike).
 */
export const EDITOR_LABELS: ReadonlySet<string> = new Set([
	'Publish',
	'Active',
	'Execute workflow',
	'Insert new sheet(s)',
]);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A name without its trailing parenthetical: "Alert text (placed)" → "Alert text". */
const stem = (name: string) => name.replace(/\s*\([^()]*\)$/, '');
/** "From Email" → "fromEmail", as n8n names a field's key after its label. */
const camel = (name: string) =>
	name
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim()
		.split(' ')
		.map((word, index) =>
			index === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
		)
		.join('');
const normal = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function deepKeysAndStrings(value: unknown, keys: Set<string>, strings: Set<string>): void {
	if (typeof value === 'string') strings.add(value.trim());
	else if (Array.isArray(value)) value.forEach((item) => deepKeysAndStrings(item, keys, strings));
	else if (value && typeof value === 'object') {
		for (const [key, item] of Object.entries(value)) {
			keys.add(key);
			deepKeysAndStrings(item, keys, strings);
		}
	}
}

/** The names a sticky note or a page may give for one workflow, besides the nodes' own. */
export interface WorkflowNames {
	workflow: Workflow;
	/** Node names, and their stems ("Alert text" for "Alert text (placed)"). */
	nodes: Set<string>;
	has(name: string): boolean;
}

/**
 * What a name in bold may be for a workflow: one of its nodes (or their common stem), a sticky
 * note's title, any example's workflow name, a field or option of our nodes (`ours`), a field of
 * one of its nodes (the label whose key the node's parameters hold: "From Email" for
 * `fromEmail`, "Document" for `documentId`), a value its parameters hold as it is (a Data
 * Table's name), a column or key its nodes use (`email_to`), or a button of n8n's editor.
 */
export function workflowNames(
	workflow: Workflow,
	allWorkflows: readonly Workflow[],
	ours: ReadonlySet<string>,
): WorkflowNames {
	const working = workflow.nodes.filter(({ type }) => type !== STICKY_NOTE);
	const nodes = new Set(working.flatMap(({ name }) => [name, stem(name)]));
	const titles = new Set(
		workflow.nodes
			.filter(({ type }) => type === STICKY_NOTE)
			.map(({ name }) => normal(name.replace(/^Note:\s*/i, ''))),
	);
	const keys = new Set<string>();
	const strings = new Set<string>();
	working.forEach(({ parameters }) => deepKeysAndStrings(parameters, keys, strings));
	const json = JSON.stringify(working);
	const workflowTitles = new Set(allWorkflows.map(({ name }) => name));
	return {
		workflow,
		nodes,
		has: (name) =>
			nodes.has(name) ||
			titles.has(normal(name)) ||
			workflowTitles.has(name) ||
			ours.has(name) ||
			keys.has(camel(name)) ||
			keys.has(`${camel(name)}Id`) ||
			strings.has(name) ||
			(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(name) &&
				new RegExp(`(?<![\\w])${name}(?![\\w])`).test(json)) ||
			EDITOR_LABELS.has(name),
	};
}

// ---------------------------------------------------------------------------------------------
// Names in emphasis

export interface Emphasis {
	name: string;
	offset: number;
	bold: boolean;
}

/** The **bold** and _italic_ (or *italic*) spans of a text, outside code spans. */
export function emphasized(text: string): Emphasis[] {
	const prose = withoutCode(text);
	const found: Emphasis[] = [];
	for (const match of prose.matchAll(/\*\*([^*\n]+?)\*\*/g)) {
		found.push({ name: match[1].trim(), offset: (match.index ?? 0) + 2, bold: true });
	}
	const noBold = prose.replace(/\*\*[^*\n]+?\*\*/g, (span) => ' '.repeat(span.length));
	for (const match of noBold.matchAll(
		/(?<![\p{L}\p{N}_*])([_*])(?![\s_*])([^\n]+?)(?<![\s_*])\1(?![\p{L}\p{N}_*])/gu,
	)) {
		found.push({ name: match[2].trim(), offset: (match.index ?? 0) + 1, bold: false });
	}
	return found.sort((a, b) => a.offset - b.offset);
}

/**
 * Whether an emphasized text reads as a name (of a node, a field, an option, a column), not as a
 * stressed word or a paragraph's lead: it starts with a capital or a digit, or is a snake_case
 * key; it is not a sentence ("**What you see.**", "**Events:**"), a menu path ("Overview → Data
 * tables"), a number or a long phrase.
 */
export function nameLike(name: string): boolean {
	if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(name)) return true;
	if (!/^\p{Lu}/u.test(name)) return false;
	if (/[.:,;]$/.test(name) || /→|->|\//.test(name)) return false;
	return name.split(/\s+/).length <= 7 && name.length <= 60;
}

function levenshtein(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			current[j] = Math.min(
				previous[j] + 1,
				current[j - 1] + 1,
				previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
			);
		}
		previous = current;
	}
	return previous[b.length];
}

/**
 * The known name that `name` misspells, if any: equal but for spaces and punctuation, or (for a
 * name of 8 letters or more) a letter apart, two in a long name; never a known name itself, nor
 * one that differs only in case ("API key" in a sentence), nor a phrase that holds the name or
 * is held by it as whole words.
 */
export function misspelled(name: string, known: ReadonlySet<string>): string | undefined {
	if (known.has(name) || known.has(stem(name))) return undefined;
	const written = normal(name);
	const lower = name.toLowerCase();
	let best: [string, number] | undefined;
	for (const candidate of known) {
		const target = normal(candidate);
		const candidateLower = candidate.toLowerCase();
		if (
			candidateLower === lower ||
			// A longer phrase around the name ("On Vessel Arrived…", n8n's own trigger list).
			new RegExp(`(?:^|\\s)${escape(candidateLower)}(?:\\s|$)`).test(lower) ||
			new RegExp(`(?:^|\\s)${escape(lower)}(?:\\s|$)`).test(candidateLower) ||
			Math.abs(target.length - written.length) > 2
		) {
			continue;
		}
		const distance = levenshtein(written, target);
		const allowed = target.length < 8 ? 0 : Math.max(1, Math.floor(target.length / 12));
		if (distance <= allowed && (!best || distance < best[1])) best = [candidate, distance];
	}
	return best?.[0];
}

// ---------------------------------------------------------------------------------------------
// Check 1: names

/**
 * In each sticky note, every name-like **bold** text is something its own workflow has (see
 * workflowNames): the note is read in that workflow, where a node of another example (even one
 * the note names by its `.json`) is nowhere to be found. Other workflows are named by their names.
 */
export function checkStickyNames(
	workflows: readonly Workflow[],
	ours: ReadonlySet<string>,
): string[] {
	return workflows.flatMap((workflow) => {
		const names = workflowNames(workflow, workflows, ours);
		return stickyNotes(workflow).flatMap(({ file, text }) =>
			emphasized(text)
				.filter(({ bold, name }) => bold && nameLike(name) && !names.has(name))
				.map(({ name, offset }) => {
					const elsewhere = workflows.find(
						(other) =>
							other !== workflow &&
							other.nodes.some((node) => node.type !== STICKY_NOTE && node.name === name),
					);
					return `${file}:${text.slice(0, offset).split('\n').length}: names **${name}**, which ${workflow.file} has neither as a node, nor as a field or value of its nodes${elsewhere ? ` (a node of ${elsewhere.file})` : ''}`;
				}),
		);
	});
}

/** The workflows a text refers to: by file name (`x.json`), or by name (the longest that fit). */
function referredWorkflows(
	text: string,
	workflows: readonly Workflow[],
	by: 'files' | 'names',
): Workflow[] {
	if (by === 'files') {
		return workflows.filter(({ file }) =>
			new RegExp(`(?<![\\w-])${escape(file.split('/').pop()!)}`).test(text),
		);
	}
	const named = workflows.filter(({ name }) => text.includes(name));
	// "Pickup board (Google Sheets)" also contains "Pickup board": the longest names win.
	return named.filter(
		(workflow) => !named.some((other) => other !== workflow && other.name.includes(workflow.name)),
	);
}

/**
 * The workflows a passage's section is about: those the nearest heading that names one refers to
 * (by file or by name, walking up the levels), else those the section's own text links by file.
 */
function sectionWorkflows(
	line: number,
	lines: readonly string[],
	allHeadings: ReadonlyArray<{ line: number; level: number; text: string }>,
	workflows: readonly Workflow[],
): Workflow[] {
	let level = 7;
	for (const heading of [...allHeadings].reverse()) {
		if (heading.line > line || heading.level >= level) continue;
		level = heading.level;
		const byFile = referredWorkflows(heading.text, workflows, 'files');
		const referred =
			byFile.length > 0 ? byFile : referredWorkflows(heading.text, workflows, 'names');
		if (referred.length > 0) return referred;
	}
	const own = [...allHeadings].reverse().find((heading) => heading.line <= line);
	const next = allHeadings.find(
		(heading) => own && heading.line > own.line && heading.level <= own.level,
	);
	const body = lines.slice(own ? own.line : 0, next ? next.line - 1 : lines.length).join('\n');
	return referredWorkflows(body, workflows, 'files');
}

/**
 * Where a page says plainly that a bold text is a node: "**X** (Edit Fields, …)", giving the
 * node's type in parentheses, or a numbered set-up step that opens with it, "1. **X**: pick …",
 * "2. **X** and **Y**: …".
 */
function nodeMentions(text: string, step: boolean): Array<{ name: string; offset: number }> {
	const prose = withoutCode(text);
	const found: Array<{ name: string; offset: number }> = [];
	for (const match of prose.matchAll(/\*\*([^*\n]+?)\*\*\s+\((?!section\b)(?=\p{Lu})/gu)) {
		found.push({ name: match[1].trim(), offset: (match.index ?? 0) + 2 });
	}
	const opening = step
		? /^\s*(?:\d+[.)]\s+)?((?:\*\*[^*\n]+?\*\*(?:,\s*|\s+and\s+)?)+):/.exec(prose)
		: null;
	if (opening) {
		for (const match of opening[1].matchAll(/\*\*([^*\n]+?)\*\*/g)) {
			found.push({
				name: match[1].trim(),
				offset: opening.index + opening[0].indexOf(opening[1]) + (match.index ?? 0) + 2,
			});
		}
	}
	return found.filter(({ name }) => nameLike(name));
}

/**
 * Names in the pages (CHANGELOG.md aside). In a passage about example workflows (it links or
 * names their `.json`, or a heading above it names one by file or by name), a text the page
 * plainly calls a node (nodeMentions) is something one of them has (as in their sticky notes),
 * and no bold text misspells one of their nodes. Anywhere: no emphasized name misspells a node of
 * an example, an example's name, or a label of our nodes (`ours`); and a name said to be an
 * option ("the **X** option", "option _X_") is one of those.
 */
export function checkPageNames(
	docs: readonly DocFile[],
	workflows: readonly Workflow[],
	ours: ReadonlySet<string>,
): string[] {
	const perWorkflow = new Map(
		workflows.map((workflow) => [workflow, workflowNames(workflow, workflows, ours)]),
	);
	const everyNode = workflows.flatMap(({ nodes }) =>
		nodes.filter(({ type }) => type !== STICKY_NOTE).map(({ name }) => name),
	);
	const known = new Set([...everyNode, ...workflows.map(({ name }) => name), ...ours]);
	return docs
		.filter(({ file }) => !HISTORY_FILES.has(file))
		.flatMap(({ file, text }) => {
			const allHeadings = headings(text);
			const lines = text.split('\n');
			return passages(text).flatMap((passage) => {
				// A numbered step: the passage is the step's first sentence (the number cut off or not).
				const line = lines[passage.lineAt(0) - 1] ?? '';
				const step =
					/^\s*\d+[.)]\s+\*\*/.test(line) &&
					line.includes(
						passage.text
							.trim()
							.slice(0, 20)
							.replace(/^\d+[.)]\s*/, ''),
					);
				// A sticky note (stickyNotes) is about its own workflow; checkStickyNames checks it closely.
				const note = workflows.filter((workflow) => file.startsWith(`${workflow.file}, note `));
				const context =
					note.length > 0
						? note
						: [
								...new Set([
									...referredWorkflows(passage.text, workflows, 'files'),
									...sectionWorkflows(passage.lineAt(0), lines, allHeadings, workflows),
								]),
							];
				const names = context.map((workflow) => perWorkflow.get(workflow)!);
				const files = context.map(({ file: workflowFile }) => workflowFile).join(' or ');
				const problems: string[] = [];
				const flagged = new Set<number>();
				if (names.length > 0) {
					for (const { name, offset } of nodeMentions(passage.text, step)) {
						if (names.some((each) => each.has(name))) continue;
						flagged.add(offset);
						const near = misspelled(name, new Set(names.flatMap((each) => [...each.nodes])));
						problems.push(
							`${file}:${passage.lineAt(offset)}: names the node **${name}**, which ${files} does not have${near ? ` (it has **${near}**)` : ''}`,
						);
					}
				}
				for (const { name, offset, bold } of emphasized(passage.text)) {
					if (flagged.has(offset) || !nameLike(name)) continue;
					const where = `${file}:${passage.lineAt(offset)}`;
					const nearNode =
						bold && misspelled(name, new Set(names.flatMap((each) => [...each.nodes])));
					if (nearNode && !names.some((each) => each.has(name))) {
						problems.push(`${where}: names **${name}**; ${files} has the node **${nearNode}**`);
						continue;
					}
					// A field or value of the passage's own workflow is no misspelling of a label elsewhere
					// (arrival-moved's free_days beside Get Charges' Free Days).
					const near = names.some((each) => each.has(name)) ? undefined : misspelled(name, known);
					if (near) {
						problems.push(`${where}: names ${name}; the name is ${near}`);
						continue;
					}
					const option = new RegExp(
						`\\boption\\s+[*_]+${escape(name)}[*_]+|[*_]+${escape(name)}[*_]+\\s+option\\b`,
						'i',
					);
					if (
						option.test(passage.text) &&
						!known.has(name) &&
						!known.has(stem(name)) &&
						!names.some((each) => each.has(name))
					) {
						problems.push(`${where}: names the option ${name}, which our nodes do not have`);
					}
				}
				return problems;
			});
		});
}

/**
 * An operation named in prose as the node's picker shows it, "Container → Get Many": the words
 * after the arrow begin with one of that resource's operations, exactly ("Webhook → Create and
 * Update" names two). Tables are checkOperations's (test/support/docs.ts).
 */
export function checkOperationMentions(
	docs: readonly DocFile[],
	operations: readonly Operation[],
): string[] {
	const byResource = new Map<string, string[]>();
	for (const { resource, operation } of operations) {
		byResource.set(resource, [...(byResource.get(resource) ?? []), operation]);
	}
	const resources = [...byResource.keys()].sort((a, b) => b.length - a.length).map(escape);
	const mention = new RegExp(
		`(?<![\\p{L}])(${resources.join('|')})[*_]*\\s*→\\s*[*_]*(?=([^|\\n]*))`,
		'gu',
	);
	return docs
		.filter(({ file }) => !HISTORY_FILES.has(file))
		.flatMap(({ file, text }) =>
			passages(text).flatMap((passage) =>
				[...withoutCode(passage.text).matchAll(mention)].flatMap((match) => {
					const names = byResource.get(match[1])!;
					const after = match[2];
					// The longest operation the words begin with, not followed by another capitalized
					// word of the same name ("Get All" is not "Get").
					const longest = names
						.filter((name) => new RegExp(`^${escape(name)}(?![\\p{L}])`, 'u').test(after))
						.sort((a, b) => b.length - a.length)[0];
					if (longest && !/^[*_]*\s+\p{Lu}\p{Ll}/u.test(after.slice(longest.length))) return [];
					return [
						`${file}:${passage.lineAt(match.index ?? 0)}: names ${match[1]} → ${/^[*_]*([\p{Lu}\p{N}][\p{L}\p{N}]*(?:\s+\p{Lu}[\p{L}\p{N}]*)*)/u.exec(after)?.[1] ?? after.slice(0, 20)}, not an operation of ${match[1]} (${names.join(', ')})`,
					];
				}),
			),
		);
}

// ---------------------------------------------------------------------------------------------
// Our nodes' fields and options

interface PropertyLike {
	displayName?: string;
	name?: string;
	type?: string;
	default?: unknown;
	options?: unknown[];
	values?: unknown[];
}

export interface OptionDefault {
	/** The label as the node shows it, e.g. "Batch Window (Seconds)". */
	label: string;
	defaults: Set<string>;
}

/** Every label of our nodes' descriptions (fields, options, option values), with their stems. */
export function descriptionNames(
	descriptions: ReadonlyArray<{ displayName: string; properties: readonly unknown[] }>,
	extra: readonly string[] = [],
): Set<string> {
	const names = new Set<string>(extra.flatMap((name) => [name, stem(name)]));
	const walk = (items: readonly unknown[]) => {
		for (const item of items as PropertyLike[]) {
			const label = item.displayName ?? item.name;
			if (typeof label === 'string' && item.type !== 'notice') {
				names.add(label);
				names.add(stem(label));
			}
			if (item.options) walk(item.options);
			if (item.values) walk(item.values);
		}
	};
	for (const { displayName, properties } of descriptions) {
		names.add(displayName);
		walk(properties);
	}
	names.delete('');
	return names;
}

/** Every number or on/off field of our nodes with its defaults (one label may have several). */
export function optionDefaults(
	descriptions: ReadonlyArray<{ properties: readonly unknown[] }>,
): OptionDefault[] {
	const byLabel = new Map<string, Set<string>>();
	const walk = (items: readonly unknown[]) => {
		for (const item of items as PropertyLike[]) {
			if (
				item.displayName &&
				(item.type === 'number' || item.type === 'boolean') &&
				item.default !== undefined
			) {
				const value =
					item.type === 'boolean' ? (item.default ? 'on' : 'off') : String(item.default);
				byLabel.set(item.displayName, (byLabel.get(item.displayName) ?? new Set()).add(value));
			}
			if (item.options) walk(item.options);
			if (item.values) walk(item.values);
		}
	};
	descriptions.forEach(({ properties }) => walk(properties));
	return [...byLabel].map(([label, defaults]) => ({ label, defaults }));
}

/** For each value a field of ours offers ("Fresh", "Register Automatically"): is it a default? */
export function valueDefaults(
	descriptions: ReadonlyArray<{ properties: readonly unknown[] }>,
): Map<string, boolean> {
	const values = new Map<string, boolean>();
	const walk = (items: readonly unknown[]) => {
		for (const item of items as Array<PropertyLike & { value?: unknown }>) {
			if ((item.type === 'options' || item.type === 'multiOptions') && item.options) {
				const chosen = [item.default].flat();
				for (const option of item.options as Array<{ name?: string; value?: unknown }>) {
					if (typeof option.name !== 'string' || option.value === undefined) continue;
					values.set(
						option.name,
						(values.get(option.name) ?? false) || chosen.includes(option.value),
					);
				}
			}
			if (item.options) walk(item.options);
			if (item.values) walk(item.values);
		}
	};
	descriptions.forEach(({ properties }) => walk(properties));
	return values;
}

/**
 * A value of ours called the default ("_Register Automatically_ (default)", "(**Fresh**, the
 * default)", "_Infer From Number_ by default") must be the default of a field that offers it.
 */
export function checkDefaultValues(
	docs: readonly DocFile[],
	values: ReadonlyMap<string, boolean>,
): string[] {
	return docs
		.filter(({ file }) => !HISTORY_FILES.has(file))
		.flatMap(({ file, text }) =>
			passages(text).flatMap((passage) =>
				emphasized(passage.text).flatMap(({ name, offset }) => {
					if (values.get(name) !== false) return [];
					const after = passage.text.slice(offset + name.length).replace(/^[*_]+/, '');
					if (!/^\s*(?:\((?:the\s+)?default\)|,\s+the\s+default\b|by\s+default\b)/.test(after))
						return [];
					return [
						`${file}:${passage.lineAt(offset)}: calls ${name} the default; it is not the default of the fields that offer it`,
					];
				}),
			),
		);
}

const DEFAULT_STATED = [
	/\(default:?\s+([\d,.]+|on|off|true|false)\b/gi,
	/\bdefault(?:s\s+to|\s+is|:)\s+([\d,.]+|on|off|true|false)\b/gi,
	/\bdefault\s+([\d,.]+)(?![\d,.]*\s*%)/gi,
	/\b([\d,.]+|on|off)(?:\s*(?:s|seconds?|minutes?|days?))?\s+by\s+default\b/gi,
];

/** A figure in the label's unit: "2 minutes" of an option in seconds is 120. */
function inUnitOf(value: string, after: string, label: string): string {
	const unit = /^\s*(seconds?|s|minutes?|min)\b/i.exec(after)?.[1].toLowerCase();
	const number = Number(value);
	if (!unit || Number.isNaN(number)) return value;
	const minutes = unit.startsWith('m');
	if (minutes && /\(Seconds\)$/.test(label)) return String(number * 60);
	if (!minutes && /\(Minutes\)$/.test(label)) return String(number / 60);
	return value;
}

/**
 * An option's default as a page states it ("(default 5)", "default: 1", "defaults to 1", "120 s
 * by default", "_Catch-Up Look-Back (Days)_ (7)") must be its default in the description, in
 * the option's unit ("default 2 minutes" of an option in seconds is 120). The option is the label of ours nearest
 * the statement in its sentence or table row, as written (with or without its unit: "Batch
 * Window" for "Batch Window (Seconds)").
 */
export function checkDefaults(
	docs: readonly DocFile[],
	options: readonly OptionDefault[],
): string[] {
	const labels = options
		.flatMap((option) => [
			{ written: option.label, option },
			{ written: stem(option.label), option },
		])
		.sort((a, b) => b.written.length - a.written.length);
	return docs
		.filter(({ file }) => !HISTORY_FILES.has(file))
		.flatMap(({ file, text }) =>
			passages(text).flatMap((passage) => {
				const prose = withoutCode(passage.text);
				const mentions: Array<{ offset: number; option: OptionDefault }> = [];
				const direct: Array<{ offset: number; value: string; option?: OptionDefault }> = [];
				const taken: boolean[] = [];
				for (const { written, option } of labels) {
					for (const match of prose.matchAll(
						new RegExp(`(?<![\\p{L}])${escape(written)}(?![\\p{L}])`, 'gu'),
					)) {
						const start = match.index ?? 0;
						if (taken[start]) continue;
						for (let index = start; index < start + written.length; index++) taken[index] = true;
						mentions.push({ offset: start, option });
						// "_Catch-Up Look-Back (Days)_ (7)": the label with its default in parentheses.
						const bare = /^[*_]*\s*\((\d[\d,.]*)\)/.exec(prose.slice(start + written.length));
						if (bare) {
							const at = start + written.length + bare[0].indexOf(bare[1]);
							direct.push({ offset: at, value: bare[1], option });
						}
					}
				}
				if (mentions.length === 0) return [];
				const statements = [
					...direct,
					...DEFAULT_STATED.flatMap((pattern) =>
						[...prose.matchAll(pattern)].map((match) => ({
							offset: (match.index ?? 0) + match[0].indexOf(match[1]),
							value: match[1],
							option: undefined,
						})),
					),
				];
				const seen = new Set<number>();
				return statements.flatMap(({ offset, value: written, option }) => {
					if (seen.has(offset)) return [];
					seen.add(offset);
					const candidates = passage.cells
						? mentions.filter(({ offset: at }) => at < prose.indexOf('|', 1))
						: mentions;
					const before = candidates.filter(({ offset: at }) => at < offset);
					const nearest = option
						? { option }
						: before.length > 0
							? before.sort((a, b) => b.offset - a.offset)[0]
							: candidates.sort((a, b) => a.offset - b.offset)[0];
					if (!nearest) return [];
					const value = written.replace(/,/g, '').replace(/\.$/, '').toLowerCase();
					const stated = inUnitOf(
						value === 'true' ? 'on' : value === 'false' ? 'off' : value,
						prose.slice(offset + written.length),
						nearest.option.label,
					);
					if (nearest.option.defaults.has(stated)) return [];
					return [
						`${file}:${passage.lineAt(offset)}: gives ${value} as the default of ${nearest.option.label}; the node's default is ${[...nearest.option.defaults].join(' or ')}`,
					];
				});
			}),
		);
}

// ---------------------------------------------------------------------------------------------
// Check 2: each fact, one value

export interface StatedFact {
	/** What the fact is, for the message: "the trigger's events". */
	what: string;
	/** Where a page states it: global, the value in group 1. */
	pattern: RegExp;
	/** The passage must also say this (the fact's subject), when the pattern alone is too loose. */
	about?: RegExp;
	/** The passage must not say this. */
	unless?: RegExp;
	/** Values the pattern finds that are other facts (the oldest n8n beside the Data Tables one). */
	ignore?: readonly string[];
	/** The value from the code or the data; without one, every statement must give the same. */
	value?: string;
	/** Where the value comes from, for the message. */
	source?: string;
}

/** "2,000" as 2000, and a version's `.0` patch dropped: 1.113.0 is 1.113. */
const canonical = (value: string) => value.replace(/,/g, '').replace(/^(\d+\.\d+)\.0$/, '$1');

/**
 * Every statement of each fact (outside the history files) gives its value: the code's or the
 * data's when there is one, else the one most statements give (every other is a problem, naming
 * where the others are; on a tie every statement is).
 */
export function checkStatedFacts(docs: readonly DocFile[], facts: readonly StatedFact[]): string[] {
	return facts.flatMap((fact) => {
		const statements: Array<{ where: string; value: string }> = [];
		for (const { file, text } of docs.filter(({ file: name }) => !HISTORY_FILES.has(name))) {
			for (const passage of passages(text)) {
				const prose = withoutCode(passage.text);
				if (fact.about && !fact.about.test(prose)) continue;
				if (fact.unless?.test(prose)) continue;
				for (const match of prose.matchAll(fact.pattern)) {
					const value = match.slice(1).find((group) => group !== undefined);
					if (value === undefined || fact.ignore?.includes(value)) continue;
					const offset = (match.index ?? 0) + match[0].indexOf(value);
					statements.push({
						where: `${file}:${passage.lineAt(offset)}`,
						value: canonical(value),
					});
				}
			}
		}
		if (fact.value !== undefined) {
			const expected = canonical(fact.value);
			return statements
				.filter(({ value }) => value !== expected)
				.map(
					({ where, value }) =>
						`${where}: gives ${fact.what} as ${value}; ${fact.source ?? 'the code'} has ${expected}`,
				);
		}
		const counts = new Map<string, number>();
		statements.forEach(({ value }) => counts.set(value, (counts.get(value) ?? 0) + 1));
		if (counts.size <= 1) return [];
		const ranked = [...counts].sort((a, b) => b[1] - a[1]);
		// The value most statements give; on a tie, none: each is reported against the others.
		const most = ranked[0][1] > ranked[1][1] ? ranked[0][0] : undefined;
		return statements
			.filter(({ value }) => value !== most)
			.map(({ where, value }) => {
				const other = most ?? ranked.find(([each]) => each !== value)![0];
				const at = statements.filter((each) => each.value === other).map((each) => each.where);
				return `${where}: gives ${fact.what} as ${value}; ${at.join(', ')} give${at.length === 1 ? 's' : ''} ${other}`;
			});
	});
}

// ---------------------------------------------------------------------------------------------
// Check 4: user pages

/** The pages people building workflows read; the rest (CONTRIBUTING, CHANGELOG, docs/design/, bench/results/) are for contributors. */
export function isUserPage(file: string): boolean {
	return file === 'README.md' || file === 'examples/README.md' || /^docs\/[^/]+\.md$/.test(file);
}

/** The first non-empty line after a page's `# Title` (none without a title), and its number. */
function openingLine(lines: readonly string[]): { text: string; line: number } {
	const title = lines.findIndex((line) => /^#\s+\S/.test(line));
	const next =
		title < 0 ? -1 : lines.findIndex((line, index) => index > title && line.trim() !== '');
	return { text: next < 0 ? '' : lines[next], line: next < 0 ? Math.max(title, 0) + 1 : next + 1 };
}

/** A commit's hash, as pages write them: 7 to 40 hex digits, with a digit and a letter, alone. */
const COMMIT_HASH =
	/(?<![\p{L}\p{N}_\-#./:=])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\p{L}\p{N}_\-/])/gu;
/** A bench run's figure: a percentile, a burst's size, a rate, attempts per notification, "measured on". */
const BENCH_FIGURE =
	/\bp(?:50|90|95|99)\b|\bN\s?=\s?\d|\b(?:deliveries|notifications|executions)\/s\b|\battempts per (?:notification|delivery)\b|\bmeasured (?:on|at|with)\b|\d\s?% (?:answered )?at the first attempt/gi;
const ISO_DATE = /(?<![\w-])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\w-]*\d)/g;

/**
 * Each user page opens, after its `# Title`, with one italic line saying who it is for
 * (`_For …_`), and carries no commit hash anywhere, and outside code no bench figure and no date
 * (a date in a code span or block is example data, `"pickup_lfd": "2026-12-01"`).
 */
export function checkUserPages(docs: readonly DocFile[]): string[] {
	return docs
		.filter(({ file }) => isUserPage(file))
		.flatMap(({ file, text }) => {
			const problems: string[] = [];
			const lines = text.split('\n');
			const opening = openingLine(lines);
			if (!/^_For\s[^_]*\S_\s*$/.test(opening.text)) {
				problems.push(
					`${file}:${opening.line}: the line after the title is not one italic line saying who the page is for (_For …_)`,
				);
			}
			let fenced = false;
			lines.forEach((line, index) => {
				if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) fenced = !fenced;
				for (const match of line.matchAll(COMMIT_HASH)) {
					problems.push(`${file}:${index + 1}: carries what looks like a commit hash, ${match[0]}`);
				}
				if (fenced) return;
				for (const match of withoutCode(line).matchAll(BENCH_FIGURE)) {
					problems.push(
						`${file}:${index + 1}: carries a bench figure ("${match[0]}"): link bench/results or docs/design instead`,
					);
				}
				for (const match of withoutCode(line).matchAll(ISO_DATE)) {
					problems.push(
						`${file}:${index + 1}: carries a date, ${match[0]} (dates of runs belong in docs/design or bench/results)`,
					);
				}
			});
			return problems;
		});
}

/** The user page a design page was moved out of: docs/design/x.md from docs/x.md (examples.md from examples/README.md, readme.md from README.md). */
export function userPageOf(design: string): string {
	const name = path.posix.basename(design);
	if (name === 'examples.md') return 'examples/README.md';
	if (name.toLowerCase() === 'readme.md') return 'README.md';
	return `docs/${name}`;
}

/**
 * Each page of docs/design opens, after its title, with who it is for (`_For contributors…`), and
 * the user page it was moved out of (userPageOf) links it exactly once.
 */
export function checkDesignPages(docs: readonly DocFile[]): string[] {
	const byFile = new Map(docs.map((doc) => [doc.file, doc.text]));
	return docs
		.filter(({ file }) => /^docs\/design\/[^/]+\.md$/.test(file))
		.flatMap(({ file, text }) => {
			const problems: string[] = [];
			const opening = openingLine(text.split('\n'));
			if (!/^_For contributors\b/.test(opening.text)) {
				problems.push(
					`${file}:${opening.line}: the line after the title does not say it is for contributors (_For contributors…_)`,
				);
			}
			const user = userPageOf(file);
			const userText = byFile.get(user);
			if (userText === undefined) return problems;
			const links = [
				...withoutCode(userText).matchAll(/\]\(\s*<?([^)\s>#]+)(?:#[^)\s>]*)?>?\s*\)/g),
			]
				.map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(user), match[1])))
				.filter((target) => target === file);
			if (links.length !== 1) {
				problems.push(
					`${user}: links ${file} ${links.length} times; a user page links its design page once`,
				);
			}
			return problems;
		});
}

/** Words as `wc -w` counts them. */
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * The README at most `readme` words, examples/README.md at most `examples`, and no other user
 * page longer than the README.
 */
export function checkWordCounts(
	docs: readonly DocFile[],
	limits: { readme: number; examples: number },
): string[] {
	const readme = docs.find(({ file }) => file === 'README.md');
	const readmeWords = readme ? wordCount(readme.text) : limits.readme;
	return docs
		.filter(({ file }) => isUserPage(file))
		.flatMap(({ file, text }) => {
			const words = wordCount(text);
			const limit =
				file === 'README.md'
					? limits.readme
					: file === 'examples/README.md'
						? Math.min(limits.examples, readmeWords)
						: readmeWords;
			const whose =
				file === 'README.md' || file === 'examples/README.md' ? 'its limit' : "the README's length";
			return words > limit ? [`${file}: ${words} words, over ${whose} (${limit})`] : [];
		});
}

// ---------------------------------------------------------------------------------------------
// Check 5: the examples' set-up notes, what you see, and the n8n each needs

/** The heading of a sticky note: its first `## ` line. */
const noteHeading = (content: string) => /^\s*#{1,6}\s+(.+?)\s*$/m.exec(content)?.[1];

/** Whether a workflow starts on its own once published (a trigger other than a manual one). */
export function startsOnItsOwn(workflow: Workflow): boolean {
	return workflow.nodes.some(
		({ type }) =>
			type !== STICKY_NOTE &&
			((/Trigger$/.test(type) && !/\.manualTrigger$/.test(type)) ||
				type === 'n8n-nodes-base.emailReadImap'),
	);
}

/**
 * The names a text gives a note: a **bold** name right before "note", or right after it ("the
 * note **X**", "a set-up note: **X**", "note, **X**"), with its alternatives ("**X**, or **Y**",
 * "**X** (or **Y** …)").
 */
export function noteNames(text: string): Array<{ name: string; offset: number }> {
	const prose = withoutCode(text);
	const found: Array<{ name: string; offset: number }> = [];
	// A bold name may wrap onto the next line of its paragraph.
	const BOLD = String.raw`\*\*((?:[^*\n]|\n(?!\s*\n))+?)\*\*`;
	const take = (name: string, offset: number) => {
		found.push({ name: name.replace(/\s+/g, ' ').trim(), offset });
		const rest = prose.slice(offset + name.length + 2);
		const more = new RegExp(String.raw`^,?\s+\(?or\s+${BOLD}`).exec(rest);
		if (more) take(more[1], offset + name.length + 2 + more[0].indexOf('**') + 2);
	};
	for (const match of prose.matchAll(new RegExp(String.raw`${BOLD}\s+note\b`, 'gi'))) {
		take(match[1], (match.index ?? 0) + 2);
	}
	for (const match of prose.matchAll(new RegExp(String.raw`\bnote[,:]?\s+${BOLD}`, 'gi'))) {
		take(match[1], (match.index ?? 0) + match[0].indexOf('**') + 2);
	}
	return found;
}

/**
 * Each example has one set-up note, headed by a name the README gives it: one whose name says
 * "publish" for an example that starts on its own, one that does not for an example run by hand.
 * A page or a sticky note names only notes an example has.
 */
export function checkSetupNotes(
	workflows: readonly Workflow[],
	readme: DocFile,
	docs: readonly DocFile[],
): string[] {
	const names = [...new Set(noteNames(readme.text).map(({ name }) => name))];
	if (names.length === 0) return [`${readme.file}: names no set-up note (**…** note)`];
	const problems: string[] = [];
	for (const workflow of workflows) {
		const headings = stickyNotes(workflow).map(({ text }) => noteHeading(text));
		const setUp = headings.filter((heading) => heading !== undefined && names.includes(heading));
		const wanted = names.filter((name) => /\bpublish/i.test(name) === startsOnItsOwn(workflow));
		if (setUp.length !== 1 || !wanted.includes(setUp[0]!)) {
			problems.push(
				`${workflow.file}: ${setUp.length === 0 ? 'has no set-up note' : `has ${setUp.map((name) => `**${name}**`).join(', ')}`}; the README calls the set-up note of an example ${startsOnItsOwn(workflow) ? 'that starts on its own' : 'run by hand'} ${wanted.map((name) => `**${name}**`).join(' or ') || '(no name fits)'}`,
			);
		}
	}
	const existing = new Set(
		workflows.flatMap((workflow) =>
			workflow.nodes
				.filter(({ type }) => type === STICKY_NOTE)
				.flatMap(({ name, parameters }) => [
					name.replace(/^Note:\s*/i, ''),
					noteHeading(String(parameters?.content ?? '')) ?? '',
				]),
		),
	);
	for (const { file, text } of docs.filter(({ file: name }) => !HISTORY_FILES.has(name))) {
		for (const { name, offset } of noteNames(text)) {
			if (names.includes(name) || existing.has(name)) continue;
			problems.push(
				`${file}:${text.slice(0, offset).split('\n').length}: names the note **${name}**, which no example has (the README's set-up notes: ${names.join(', ')})`,
			);
		}
	}
	return problems;
}

/** Each section of a user page about one example (its heading names the example's file) says what you see. */
export function checkWhatYouSee(
	docs: readonly DocFile[],
	workflows: readonly Workflow[],
): string[] {
	return docs
		.filter(({ file }) => isUserPage(file))
		.flatMap(({ file, text }) => {
			const all = headings(text);
			const lines = text.split('\n');
			return all.flatMap((heading, index) => {
				if (referredWorkflows(heading.text, workflows, 'files').length === 0) return [];
				// Up to the next heading of its level, or one about another example.
				const next = all
					.slice(index + 1)
					.find(
						(other) =>
							other.level <= heading.level ||
							referredWorkflows(other.text, workflows, 'files').length > 0,
					);
				const body = lines.slice(heading.line, next ? next.line - 1 : lines.length).join('\n');
				return /\bwhat you see\b/i.test(body)
					? []
					: [`${file}:${heading.line}: the section "${heading.text}" does not say what you see`];
			});
		});
}

/** "n8n 2.x", "n8n 1.94.1": the version a statement gives, as the examples' table writes it. */
const VERSION = String.raw`(\d+\.x|\d+\.\d+(?:\.\d+)?)`;
/** "needs n8n 2.x", "needs n8n 1.94.1 or later", "need n8n with Data Tables", "needs Data Tables". */
const NEEDS_STATED = new RegExp(
	String.raw`\bneeds?\s+(?:an?\s+)?(?:n8n\s+(?:version\s+)?${VERSION}|(?:n8n\s+with\s+)?(Data\s+Tables?)\b)`,
	'gi',
);
const needsOf = (match: RegExpMatchArray) =>
	match[1] ? canonical(match[1]) : 'n8n with Data Tables (1.113)';

export interface ExampleVersions {
	/** Each example's file → the n8n it needs as shipped, and the table's line. */
	needs: Map<string, { value: string; line: number }>;
	problems: string[];
}

/**
 * The examples' table (a page's section `section`, a table with a column headed "Needs"): each
 * row names example files (`x.json`) and the n8n they need as shipped ("n8n 2.x", "n8n 1.94.1 or
 * later"). Every example has one row.
 */
export function exampleVersions(
	doc: DocFile,
	section: string,
	workflows: readonly Workflow[],
): ExampleVersions {
	const needs = new Map<string, { value: string; line: number }>();
	const problems: string[] = [];
	for (const passage of passages(doc.text)) {
		if (passage.section?.text !== section || !passage.cells || !passage.header) continue;
		const column = passage.header.findIndex((cell) => /^\**needs\b/i.test(cell));
		if (column < 0) continue;
		const line = passage.lineAt(0);
		const value = new RegExp(String.raw`\bn8n\s+${VERSION}`, 'i').exec(passage.cells[column] ?? '');
		const files = [...passage.cells[0].matchAll(/`([\w.-]+\.json)`/g)].map(
			([, name]) => `examples/${name}`,
		);
		if (!value || files.length === 0) {
			problems.push(
				`${doc.file}:${line}: a row of the examples' table without an example's file or the n8n it needs`,
			);
			continue;
		}
		for (const file of files) {
			if (!workflows.some((workflow) => workflow.file === file))
				problems.push(`${doc.file}:${line}: names ${file}, which is not an example`);
			else if (needs.has(file))
				problems.push(
					`${doc.file}:${line}: gives ${file} a second row (line ${needs.get(file)!.line})`,
				);
			else needs.set(file, { value: canonical(value[1]), line });
		}
	}
	for (const { file } of workflows) {
		if (!needs.has(file))
			problems.push(`${doc.file}: the examples' table ("${section}") has no row for ${file}`);
	}
	return { needs, problems };
}

/**
 * The n8n each example needs, as every sticky note and page says it, is its row's in the
 * examples' table: each example's set-up note says it ("As shipped, it needs n8n 2.x"), and no
 * note or page gives an example another ("needs n8n 1.113 or later", "needs Data Tables"). A
 * page's statement is about the examples its sentence or its section names.
 */
export function checkExampleVersions(
	tableDoc: DocFile,
	section: string,
	workflows: readonly Workflow[],
	docs: readonly DocFile[],
): string[] {
	const table = exampleVersions(tableDoc, section, workflows);
	const problems = [...table.problems];
	const wrong = (where: string, workflow: Workflow, stated: string) => {
		const row = table.needs.get(workflow.file);
		if (!row || row.value === stated) return;
		problems.push(
			`${where}: says ${workflow.file} needs ${/^\d/.test(stated) ? `n8n ${stated}` : stated}; the examples' table (${tableDoc.file}:${row.line}) gives n8n ${row.value}`,
		);
	};
	for (const workflow of workflows) {
		for (const note of stickyNotes(workflow)) {
			const stated = [...note.text.matchAll(NEEDS_STATED)];
			for (const match of stated)
				wrong(`${note.file}:${lineOf(note.text, match.index ?? 0)}`, workflow, needsOf(match));
			if (
				/^\s*#{1,6}\s+Set up before\b/m.test(note.text) &&
				stated.length === 0 &&
				table.needs.has(workflow.file)
			) {
				problems.push(
					`${note.file}: does not say which n8n the example needs as shipped (the examples' table gives n8n ${table.needs.get(workflow.file)!.value})`,
				);
			}
		}
	}
	for (const { file, text } of docs.filter(({ file: name }) => !HISTORY_FILES.has(name))) {
		const allHeadings = headings(text);
		const lines = text.split('\n');
		for (const passage of passages(text)) {
			if (file === tableDoc.file && passage.cells && passage.section?.text === section) continue;
			const prose = withoutCode(passage.text);
			const stated = [...prose.matchAll(NEEDS_STATED)];
			if (stated.length === 0) continue;
			const about = [
				...new Set([
					...referredWorkflows(passage.text, workflows, 'files'),
					...referredWorkflows(passage.text, workflows, 'names'),
					...sectionWorkflows(passage.lineAt(0), lines, allHeadings, workflows),
				]),
			];
			for (const match of stated)
				for (const workflow of about)
					wrong(`${file}:${passage.lineAt(match.index ?? 0)}`, workflow, needsOf(match));
		}
	}
	return problems;
}

function lineOf(text: string, offset: number): number {
	return text.slice(0, offset).split('\n').length;
}

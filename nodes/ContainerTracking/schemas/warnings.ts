import type { z } from 'zod';

import { isRecord } from './values';

/**
 * What the node could not read as the interface promises, said on the items instead of failing
 * them: which record, where in it, what was expected and what came. An answer or a delivery that
 * differs from its schema still gives every item it can (docs/nodes.md, "What the nodes accept").
 */
export interface DataWarning {
	/** The record the value belongs to: `container 5f3d…`, `included record 3`, `document`. */
	record: string;
	/** Where in that record, e.g. `attributes.fees_at_pod_terminal.0.amount` (empty: the record). */
	path: string;
	/** What the interface promises there. */
	expected: string;
	/** What came, as JSON (cut short), or `nothing`. */
	received: string;
}

export interface DocumentWarnings {
	/** Every warning of the document. */
	all: DataWarning[];
	/**
	 * The warnings that concern one item: those of the primary record at `index` of a list (or
	 * of the single primary record), of the included records it names, and of the document.
	 */
	forRecord(index?: number): DataWarning[];
}

type Json = unknown;
type Path = Array<string | number>;

const RECEIVED_LENGTH = 120;

const TYPE_WORDS: Record<string, string> = {
	string: 'text',
	number: 'a number',
	boolean: 'true or false',
	array: 'a list',
	object: 'an object',
	null: 'null',
};

function valueAt(value: Json, path: Path): Json {
	let current = value;
	for (const key of path) {
		if (Array.isArray(current) && typeof key === 'number') current = current[key];
		else if (isRecord(current)) current = current[String(key)];
		else return undefined;
	}
	return current;
}

/** JSON of a value, short enough to read in a table cell. */
export function shortJson(value: Json): string {
	if (value === undefined) return 'nothing';
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}
	return text.length > RECEIVED_LENGTH ? `${text.slice(0, RECEIVED_LENGTH - 1)}…` : text;
}

/** What a zod issue says was expected, in words: the schema's own message where it has one. */
function expectedOf(issue: z.ZodIssue): string {
	const defaultMessage = issue.message === 'Required' || issue.message.startsWith('Expected ');
	if (issue.code === 'invalid_type' && defaultMessage)
		return TYPE_WORDS[issue.expected] ?? issue.expected;
	if (issue.code === 'invalid_literal') return shortJson(issue.expected);
	return issue.message;
}

/** `container 5f3d…` for a record with a type and an id. */
export function recordLabel(record: Json, fallback: string): string {
	if (!isRecord(record)) return fallback;
	const { type, id } = record;
	const hasId = typeof id === 'string' || typeof id === 'number';
	if (typeof type === 'string' && hasId) return `${type} ${id}`;
	return fallback;
}

function identifiers(data: Json): Array<{ type: string; id: string }> {
	const entries = Array.isArray(data) ? data : [data];
	return entries
		.filter(isRecord)
		.filter((entry) => typeof entry.type === 'string' && typeof entry.id === 'string')
		.map((entry) => ({ type: entry.type as string, id: entry.id as string }));
}

/** Keys (`type:id`) of the records a record's relationships name. */
function relatedKeys(record: Json): string[] {
	if (!isRecord(record) || !isRecord(record.relationships)) return [];
	return Object.values(record.relationships).flatMap((relationship) =>
		isRecord(relationship)
			? identifiers(relationship.data).map((ref) => `${ref.type}:${ref.id}`)
			: [],
	);
}

/**
 * Checks `body` against `schema` (which must describe a JSON:API document) and turns every
 * difference into a warning on the record it belongs to. Never throws.
 */
export function documentWarnings(schema: z.ZodTypeAny, body: Json): DocumentWarnings {
	const result = schema.safeParse(body);
	const all: DataWarning[] = [];
	/** Bucket → warnings: `data`, `data:3`, `included:container:5f3d…`, `document`. */
	const buckets = new Map<string, DataWarning[]>();
	if (!result.success) {
		const document = isRecord(body) ? body : {};
		for (const issue of result.error.issues) {
			const [head, index] = issue.path;
			let owner: Json = document;
			let bucket = 'document';
			let label = 'document';
			let rest: Path = issue.path;
			if (head === 'data' && Array.isArray(document.data) && typeof index === 'number') {
				owner = document.data[index];
				bucket = `data:${index}`;
				label = recordLabel(owner, `record ${index}`);
				rest = issue.path.slice(2);
			} else if (head === 'data' && !Array.isArray(document.data)) {
				owner = document.data;
				bucket = 'data';
				label = recordLabel(owner, 'data');
				rest = issue.path.slice(1);
			} else if (
				head === 'included' &&
				typeof index === 'number' &&
				Array.isArray(document.included)
			) {
				owner = document.included[index];
				const [ref] = identifiers(owner);
				bucket = ref ? `included:${ref.type}:${ref.id}` : `included#${index}`;
				label = recordLabel(owner, `included record ${index}`);
				rest = issue.path.slice(2);
			}
			const warning: DataWarning = {
				record: label,
				path: rest.join('.'),
				expected: expectedOf(issue),
				received: shortJson(valueAt(owner, rest)),
			};
			all.push(warning);
			buckets.set(bucket, [...(buckets.get(bucket) ?? []), warning]);
		}
	}
	const data = isRecord(body) ? body.data : undefined;
	return {
		all,
		forRecord(index?: number): DataWarning[] {
			if (all.length === 0) return [];
			if (!Array.isArray(data) || index === undefined) return all;
			return [
				...(buckets.get(`data:${index}`) ?? []),
				...[...new Set(relatedKeys(data[index]))].flatMap(
					(key) => buckets.get(`included:${key}`) ?? [],
				),
				...(buckets.get('document') ?? []),
			];
		},
	};
}

// Mutations of the service's published examples, as real data differs from them: enumerated
// values no table lists, relationships set to null, optional members dropped, unknown members
// added, numbers sent as numeric strings, null entries in string lists. Property tests draw sets
// of these with fast-check and apply them to a copy of an example.
import fc from 'fast-check';

type Json = unknown;
type Path = Array<string | number>;

export type MutationKind =
	| 'unseen_value'
	| 'null_relationship'
	| 'drop_member'
	| 'add_member'
	| 'numeric_string'
	| 'null_in_list';

export interface Site {
	kind: MutationKind;
	path: Path;
}

/**
 * Mutations real answers carry and the interface allows (JSON:API) or the service's reference
 * shows: none of them may give a warning. Dropping other members may (an expected attribute).
 */
export const TOLERATED: ReadonlySet<MutationKind> = new Set([
	'unseen_value',
	'null_relationship',
	'add_member',
	'numeric_string',
	'null_in_list',
]);

/** Members that are JSON:API structure, dropping which is always valid. */
const STRUCTURAL_MEMBERS = new Set(['links', 'meta', 'relationships', 'included']);

/** Enumerated attributes (by key), and where they sit when the key is ambiguous. */
function isEnumerated(path: Path, value: Json): boolean {
	if (typeof value !== 'string' && typeof value !== 'number') return false;
	const key = path[path.length - 1];
	const inside = (name: string) => path.includes(name);
	if (typeof key !== 'string') return false;
	if (
		path.includes('changeset') &&
		!inside('holds_at_pod_terminal') &&
		!inside('fees_at_pod_terminal')
	)
		return false;
	if (key === 'equipment_length') return typeof value === 'number';
	if (typeof value !== 'string') return false;
	if (['name', 'status'].includes(key) && inside('holds_at_pod_terminal')) return true;
	if (key === 'type' && inside('fees_at_pod_terminal')) return true;
	if (key === 'status') return path[path.length - 2] === 'attributes';
	return [
		'current_status',
		'equipment_type',
		'equipment_height',
		'data_source',
		'request_type',
		'failed_reason',
		'line_tracking_stopped_reason',
		'number_type',
		'decision',
		'delivery_status',
		'event',
	].includes(key);
}

/** Numbers real answers send as strings. */
const NUMERIC_KEYS = new Set([
	'amount',
	'weight_in_lbs',
	'latitude',
	'longitude',
	'equipment_length',
	'confidence',
	'retry_count',
]);

/** Lists of strings in which real answers carry null entries. */
const STRING_LIST_KEYS = new Set(['ref_numbers', 'tags', 'shipment_tags', 'events']);

/** Members a mutation never drops: the ones the node cannot work without (and changeset entries, which are the data itself). */
function isCore(path: Path): boolean {
	const key = path[path.length - 1];
	if (path.length === 1 && key === 'data') return true;
	if (key === 'id' || key === 'type') {
		// A record's or identifier's id and type, anywhere.
		return !(path.includes('fees_at_pod_terminal') && key === 'type');
	}
	if (path.length === 2 && path[0] === 'data' && key === 'attributes') return true;
	if (path.length === 3 && path[0] === 'data' && path[1] === 'attributes' && key === 'event')
		return true;
	return path[path.length - 2] === 'changeset';
}

function isRecord(value: Json): value is Record<string, Json> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every place of `document` a mutation can apply to. */
export function mutationSites(document: Json): Site[] {
	const sites: Site[] = [];
	const walk = (value: Json, path: Path) => {
		if (Array.isArray(value)) {
			const key = path[path.length - 1];
			if (typeof key === 'string' && STRING_LIST_KEYS.has(key))
				sites.push({ kind: 'null_in_list', path });
			value.forEach((entry, index) => walk(entry, [...path, index]));
			return;
		}
		if (!isRecord(value)) {
			if (isEnumerated(path, value)) sites.push({ kind: 'unseen_value', path });
			const key = path[path.length - 1];
			if (typeof value === 'number' && typeof key === 'string' && NUMERIC_KEYS.has(key))
				sites.push({ kind: 'numeric_string', path });
			return;
		}
		sites.push({ kind: 'add_member', path });
		const parent = path[path.length - 1];
		for (const [key, member] of Object.entries(value)) {
			const at = [...path, key];
			if (parent === 'relationships' && isRecord(member) && 'data' in member)
				sites.push({ kind: 'null_relationship', path: at });
			if (!isCore(at)) sites.push({ kind: 'drop_member', path: at });
			walk(member, at);
		}
	};
	walk(document, []);
	return sites;
}

/**
 * Whether real data may carry this mutation without a warning: the TOLERATED kinds and drops of
 * JSON:API structure, except what names a delivery's cause (its `relationships` and
 * `reference_object`), which the trigger cannot read without.
 */
export function isTolerated(site: Site): boolean {
	const [head, member, name] = site.path;
	const namesTheCause =
		head === 'data' &&
		member === 'relationships' &&
		(site.path.length === 2 || (site.path.length === 3 && name === 'reference_object'));
	if (namesTheCause && (site.kind === 'drop_member' || site.kind === 'null_relationship'))
		return false;
	if (TOLERATED.has(site.kind)) return true;
	const key = site.path[site.path.length - 1];
	return site.kind === 'drop_member' && typeof key === 'string' && STRUCTURAL_MEMBERS.has(key);
}

export interface Mutation {
	site: Site;
	/** The unseen value, or the unknown member's name. */
	token: string;
}

function parentOf(document: Json, path: Path): Json {
	let current = document;
	for (const key of path.slice(0, -1)) {
		if (Array.isArray(current)) current = current[key as number];
		else if (isRecord(current)) current = current[String(key)];
		else return undefined;
	}
	return current;
}

/**
 * Applies mutations to a copy of `document`, in order; a mutation whose place an earlier one
 * removed does nothing. Returns the copy.
 */
export function applyMutations(document: Json, mutations: Mutation[]): Json {
	const copy = structuredClone(document);
	for (const { site, token } of mutations) {
		const parent = parentOf(copy, site.path) as Record<string | number, Json> | undefined;
		const key = site.path[site.path.length - 1];
		if (parent === undefined || parent === null || typeof parent !== 'object') continue;
		if (site.path.length > 0 && !(key in parent)) continue;
		switch (site.kind) {
			case 'unseen_value':
				// A number stays a number (an earlier numeric_string may have made it a string).
				parent[key] = typeof parent[key] === 'number' || key === 'equipment_length' ? 53 : token;
				break;
			case 'null_relationship':
				if (isRecord(parent[key])) (parent[key] as Record<string, Json>).data = null;
				break;
			case 'drop_member':
				delete parent[key];
				break;
			case 'add_member': {
				const target = site.path.length === 0 ? copy : parent[key];
				const value = { unseen: token, list: [1, null, 'x'] };
				// A new changeset key is a new change, written as the service writes changes.
				if (isRecord(target)) target[token] = key === 'changeset' ? [null, value] : value;
				break;
			}
			case 'numeric_string':
				if (typeof parent[key] === 'number') parent[key] = String(parent[key]);
				break;
			case 'null_in_list':
				if (Array.isArray(parent[key])) (parent[key] as Json[]).push(null);
				break;
		}
	}
	return copy;
}

/** A name no schema knows, unique enough to find again in the items. */
const unseenToken = fc.stringMatching(/^[a-z][a-z0-9_]{2,11}$/).map((text) => `unseen_${text}`);

/** One to `max` mutations drawn from `sites`. */
export function mutationsOf(sites: Site[], max = 6): fc.Arbitrary<Mutation[]> {
	return fc.array(fc.record({ site: fc.constantFrom(...sites), token: unseenToken }), {
		minLength: 1,
		maxLength: max,
	});
}

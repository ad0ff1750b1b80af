import type { IDataObject } from 'n8n-workflow';

import type { JsonApiResource } from '../schemas';
import { isRecord } from '../schemas/values';

/*
 * Turns JSON:API records into the flat items n8n users work with: attributes at the top, each
 * relationship as `<name>_id` (or `<name>_ids`), and the related record itself under `<name>`
 * when the answer included it.
 */

export type IncludedIndex = Map<string, JsonApiResource>;

/** Where a record, or a reference to one, is found in an `IncludedIndex`: its type and id. */
export function includedKey(record: { type: string; id: string }): string {
	return `${record.type}:${record.id}`;
}

export function indexIncluded(included: unknown): IncludedIndex {
	const index: IncludedIndex = new Map();
	if (!Array.isArray(included)) return index;
	for (const record of included as JsonApiResource[]) {
		if (isRecord(record) && typeof record.id === 'string' && typeof record.type === 'string')
			index.set(includedKey(record), record);
	}
	return index;
}

function identifiers(data: unknown): Array<{ id: string; type: string }> {
	if (!data) return [];
	return (Array.isArray(data) ? data : [data]).filter(
		(entry): entry is { id: string; type: string } =>
			isRecord(entry) && typeof entry.id === 'string',
	);
}

/**
 * `depth` limits how far related records are resolved in turn (a terminal's port, say), so that
 * cycles such as container → shipment → containers stay finite.
 */
export function flattenResource(
	resource: JsonApiResource,
	included: IncludedIndex,
	depth = 1,
): IDataObject {
	const flat: IDataObject = {
		id: resource.id,
		...(isRecord(resource.attributes) ? resource.attributes : {}),
	};
	// An attribute called `id` never hides the record's own id.
	flat.id = resource.id;
	const relationships = isRecord(resource.relationships) ? resource.relationships : {};
	for (const [name, relationship] of Object.entries(relationships)) {
		const data = isRecord(relationship) ? relationship.data : undefined;
		const refs = identifiers(data);
		if (Array.isArray(data)) {
			flat[`${name}_ids`] = refs.map((ref) => ref.id);
		} else {
			flat[`${name}_id`] = refs[0]?.id ?? null;
		}
		if (depth <= 0) continue;
		const related = refs
			.map((ref) => included.get(includedKey(ref)))
			.filter((record): record is JsonApiResource => record !== undefined)
			.map((record) => ({ type: record.type, ...flattenResource(record, included, depth - 1) }));
		if (related.length === 0) continue;
		flat[name] = Array.isArray(data) ? related : related[0];
	}
	return flat;
}

/** The `{id, type}`s a relationship names (null data, absent or malformed: none). */
export function relatedIdentifiers(
	resource: object,
	relationship: string,
): Array<{ id: string; type: string }> {
	const members = resource as { relationships?: unknown };
	const relationships = isRecord(members.relationships) ? members.relationships : {};
	const entry = relationships[relationship];
	return identifiers(isRecord(entry) ? entry.data : undefined);
}

/** The `{id, type}` a to-one relationship names, if any. */
export function relatedIdentifier(
	resource: object,
	relationship: string,
): { id: string; type: string } | undefined {
	return relatedIdentifiers(resource, relationship)[0];
}

/** A record's `name` attribute (terminals, ports, facilities), or null. */
export function recordName(record: JsonApiResource | undefined): string | null {
	const name = isRecord(record?.attributes) ? record.attributes.name : undefined;
	return typeof name === 'string' && name.trim() !== '' ? name : null;
}

/** The records a to-many relationship names that the answer included, in its order. */
export function relatedRecords(
	resource: JsonApiResource,
	relationship: string,
	included: IncludedIndex,
): JsonApiResource[] {
	return relatedIdentifiers(resource, relationship)
		.map((ref) => included.get(includedKey(ref)))
		.filter((record): record is JsonApiResource => record !== undefined);
}

/** The related record named by a to-one relationship, when the answer included it. */
export function relatedRecord(
	resource: JsonApiResource,
	relationship: string,
	included: IncludedIndex,
): JsonApiResource | undefined {
	const ref = relatedIdentifier(resource, relationship);
	return ref ? included.get(includedKey(ref)) : undefined;
}

/** The members of a flattened record that are ids: `id` and each relationship's `<name>_id` / `<name>_ids`. */
export function isIdentifier(name: string): boolean {
	return name === 'id' || name.endsWith('_id') || name.endsWith('_ids');
}

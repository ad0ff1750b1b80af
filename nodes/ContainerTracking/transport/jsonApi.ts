import type { IDataObject } from 'n8n-workflow';

/**
 * Turns JSON:API records into the flat items n8n users work with: attributes at the top, each
 * relationship as `<name>_id` (or `<name>_ids`), and the related record itself under `<name>`
 * when the answer included it.
 */
export interface ResourceLike {
	id: string;
	type: string;
	attributes?: IDataObject;
	relationships?: Record<string, { data?: unknown } | undefined>;
}

export type IncludedIndex = Map<string, ResourceLike>;

export function indexIncluded(included: unknown): IncludedIndex {
	const index: IncludedIndex = new Map();
	if (!Array.isArray(included)) return index;
	for (const record of included as ResourceLike[]) {
		if (record && typeof record.id === 'string') index.set(`${record.type}:${record.id}`, record);
	}
	return index;
}

function identifiers(data: unknown): Array<{ id: string; type: string }> {
	if (!data) return [];
	return (Array.isArray(data) ? data : [data]).filter(
		(entry): entry is { id: string; type: string } => typeof entry?.id === 'string',
	);
}

/**
 * `depth` limits how far related records are resolved in turn (a terminal's port, say), so that
 * cycles such as container → shipment → containers stay finite.
 */
export function flattenResource(
	resource: ResourceLike,
	included: IncludedIndex,
	depth = 1,
): IDataObject {
	const flat: IDataObject = { id: resource.id, ...(resource.attributes ?? {}) };
	for (const [name, relationship] of Object.entries(resource.relationships ?? {})) {
		const data = relationship?.data;
		const refs = identifiers(data);
		if (Array.isArray(data)) {
			flat[`${name}_ids`] = refs.map((ref) => ref.id);
		} else {
			flat[`${name}_id`] = refs[0]?.id ?? null;
		}
		if (depth <= 0) continue;
		const related = refs
			.map((ref) => included.get(`${ref.type}:${ref.id}`))
			.filter((record): record is ResourceLike => record !== undefined)
			.map((record) => ({ type: record.type, ...flattenResource(record, included, depth - 1) }));
		if (related.length === 0) continue;
		flat[name] = Array.isArray(data) ? related : related[0];
	}
	return flat;
}

/** The related record named by a to-one relationship, when the answer included it. */
export function relatedRecord(
	resource: ResourceLike,
	relationship: string,
	included: IncludedIndex,
): ResourceLike | undefined {
	const ref = identifiers(resource.relationships?.[relationship]?.data)[0];
	return ref ? included.get(`${ref.type}:${ref.id}`) : undefined;
}

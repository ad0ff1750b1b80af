/**
 * In-memory records, kept in their JSON:API shape so that serializing is copying. State lives
 * only as long as the sandbox process.
 */
import type { JsonApiResource } from '../../nodes/ContainerTracking/schemas';

/** A record's `{id, type}`, as relationships name it. */
export type ResourceRef = Pick<JsonApiResource, 'id' | 'type'>;

/** The sandbox always writes a relationship's `data`: a record, a list, or null. */
export interface Relationship {
	data: ResourceRef | ResourceRef[] | null;
}

/**
 * A record as the sandbox keeps it: the nodes' JSON:API resource type (schemas/jsonApi.ts), with
 * the members the sandbox always writes.
 */
export type Resource = ResourceRef & {
	attributes: Record<string, unknown>;
	relationships?: Record<string, Relationship>;
	links?: Record<string, string>;
};

export function ref(resource: ResourceRef): ResourceRef {
	return { id: resource.id, type: resource.type };
}

export function relationshipTo(resource: ResourceRef | null | undefined): Relationship {
	return { data: resource ? ref(resource) : null };
}

export function relationshipToMany(resources: ResourceRef[]): Relationship {
	return { data: resources.map(ref) };
}

export class Store {
	/**
	 * Records by type, then id. A Map keeps insertion order (and a record put again keeps its
	 * place), so that lists are stable across pages; a list is read without building a key per id.
	 */
	private readonly byType = new Map<string, Map<string, Resource>>();

	put<T extends Resource>(resource: T): T {
		let records = this.byType.get(resource.type);
		if (!records) {
			records = new Map();
			this.byType.set(resource.type, records);
		}
		records.set(resource.id, resource);
		return resource;
	}

	get(type: string, id: string): Resource | undefined {
		return this.byType.get(type)?.get(id);
	}

	find(reference: ResourceRef | null | undefined): Resource | undefined {
		return reference ? this.get(reference.type, reference.id) : undefined;
	}

	list(type: string): Resource[] {
		const records = this.byType.get(type);
		return records ? [...records.values()] : [];
	}

	delete(type: string, id: string): boolean {
		return this.byType.get(type)?.delete(id) ?? false;
	}

	/** The records a relationship of `resource` names, found in the store. */
	related(resource: Resource, relationship: string): Resource[] {
		const data = resource.relationships?.[relationship]?.data;
		const refs = data === null || data === undefined ? [] : Array.isArray(data) ? data : [data];
		return refs
			.map((reference) => this.find(reference))
			.filter((found): found is Resource => found !== undefined);
	}
}

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
	private readonly records = new Map<string, Resource>();
	/** Insertion order per type, so that lists are stable across pages. */
	private readonly order = new Map<string, string[]>();

	put<T extends Resource>(resource: T): T {
		const key = `${resource.type}:${resource.id}`;
		if (!this.records.has(key)) {
			const ids = this.order.get(resource.type) ?? [];
			ids.push(resource.id);
			this.order.set(resource.type, ids);
		}
		this.records.set(key, resource);
		return resource;
	}

	get(type: string, id: string): Resource | undefined {
		return this.records.get(`${type}:${id}`);
	}

	find(reference: ResourceRef | null | undefined): Resource | undefined {
		return reference ? this.get(reference.type, reference.id) : undefined;
	}

	list(type: string): Resource[] {
		return (this.order.get(type) ?? [])
			.map((id) => this.records.get(`${type}:${id}`))
			.filter((resource): resource is Resource => resource !== undefined);
	}

	delete(type: string, id: string): boolean {
		const deleted = this.records.delete(`${type}:${id}`);
		if (deleted) {
			this.order.set(
				type,
				(this.order.get(type) ?? []).filter((existing) => existing !== id),
			);
		}
		return deleted;
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

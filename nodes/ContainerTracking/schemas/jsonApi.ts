import { z } from 'zod';

/*
 * JSON:API building blocks shared by every resource of the service.
 *
 * Two levels of schema serve every answer (docs/nodes.md, "What the nodes accept"):
 * - the core schemas at the end of this file hold only what an operation cannot work without
 *   (a `data` naming its record by `id` and `type`; a delivery's id and event). An answer that
 *   fails them is an error;
 * - the resource schemas describe what the interface promises. An answer that differs from them
 *   still gives its items: each difference becomes a warning on the items (schemas/warnings.ts).
 * Objects pass unknown keys through, and absent or null relationships, `links` and `meta` are
 * valid JSON:API, so none of them is a difference.
 */

/** Ids are UUIDs in the interface, but the inference result's id is `req_<uuid>`: any text. */
export const resourceId = z.string().min(1, 'a non-empty id');

/** `{id, type}`: names one record, which may sit in the document's `included`. */
export const resourceIdentifier = z
	.object({
		id: resourceId,
		type: z.string().min(1, 'a non-empty type'),
	})
	.passthrough();

/**
 * A relationship of any type and cardinality. `data` may be null (nothing related) or absent (a
 * relationship object may carry only `links` or `meta`); extra keys are allowed. The record types
 * each relationship names are documented beside it, not enforced: a new type is not an error.
 */
export const relationship = z
	.object({
		data: z
			.union([resourceIdentifier, z.array(resourceIdentifier)], {
				errorMap: () => ({ message: 'null, an {id, type} identifier or a list of them' }),
			})
			.nullable()
			.optional(),
	})
	.passthrough();

/**
 * A `relationships` member: any names, each a relationship object. (`undefined` never comes in
 * JSON; allowing it lets every resource's named relationships, all optional, read as this.)
 */
export const relationships = z.record(z.string(), relationship.optional());

// Link values are plain strings, not `.url()`: the service writes some as paths relative to the
// host ("/v2/shipments/...", seen in every notification the service publishes).
const link = z.string().nullable().optional();

export const links = z
	.object({ first: link, prev: link, next: link, last: link, self: link, current: link })
	.passthrough();

/** Paging counts. `meta` may be missing or partial: the node never relies on it. */
export const meta = z.object({}).passthrough();

/** One JSON:API error. `title`, `detail` and `code` may each be missing or null. */
export const jsonApiError = z
	.object({
		status: z.string(),
		title: z.string().nullable().optional(),
		detail: z.string().nullable().optional(),
		code: z.string().nullable().optional(),
		source: z
			.object({
				pointer: z.string().optional(),
				parameter: z.string().optional(),
			})
			.passthrough()
			.optional(),
	})
	.passthrough();

/** Members every resource object may carry; each resource schema extends it. */
export const resourceObject = z
	.object({
		id: resourceId,
		type: z.string().min(1, 'a non-empty type'),
		attributes: z.object({}).passthrough().nullable().optional(),
		relationships: relationships.nullable().optional(),
		links: links.nullable().optional(),
		meta: meta.nullable().optional(),
	})
	.passthrough();

/** A resource object of one `type`, with its own attributes and relationships. */
export function resourceOf<
	Type extends string,
	Attributes extends z.ZodTypeAny,
	Relationships extends z.ZodTypeAny = typeof relationships,
>(type: Type, attributes: Attributes, relationshipsSchema?: Relationships) {
	return resourceObject.extend({
		type: z.literal(type),
		attributes,
		relationships: ((relationshipsSchema ?? relationships) as Relationships).nullable().optional(),
	});
}

/** A schema that checks one resource object of a given type. */
export type ResourceSchema = z.ZodTypeAny;

/**
 * An `included` array: records whose `type` has a schema in `schemasByType` must match it,
 * records of other types only need to be resource objects. Issues keep the path into the record
 * (e.g. `included.3.attributes.holds_at_pod_terminal.0.status`).
 */
export function includedResources(schemasByType: Readonly<Record<string, ResourceSchema>>) {
	const includedRecord = resourceObject.superRefine((record, ctx) => {
		const schema = Object.prototype.hasOwnProperty.call(schemasByType, record.type)
			? schemasByType[record.type]
			: undefined;
		if (!schema) return;
		const result = schema.safeParse(record);
		if (result.success) return;
		for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: issue.path });
	});
	return z.array(includedRecord).nullable();
}

const anyIncluded = z.array(resourceObject).nullable();
type AnyIncluded = typeof anyIncluded;

/**
 * Document whose `data` is one resource: `{data, included?, links?, meta?}`. `included` defaults
 * to "any resource objects"; pass `includedResources(...)` to check known types too.
 */
export function singleResourceDocument<
	Data extends z.ZodTypeAny,
	Included extends z.ZodTypeAny = AnyIncluded,
>(data: Data, included?: Included) {
	return z
		.object({
			data,
			included: ((included ?? anyIncluded) as Included).optional(),
			links: links.nullable().optional(),
			meta: meta.nullable().optional(),
		})
		.passthrough();
}

/** Document whose `data` is a list: `{data: [...], included?, links?, meta?}`. */
export function listDocument<
	Item extends z.ZodTypeAny,
	Included extends z.ZodTypeAny = AnyIncluded,
>(item: Item, included?: Included) {
	return z
		.object({
			data: z.array(item),
			included: ((included ?? anyIncluded) as Included).optional(),
			links: links.nullable().optional(),
			meta: meta.nullable().optional(),
		})
		.passthrough();
}

// ---------------------------------------------------------------------------------------------
// Core: what an operation cannot work without. Failing these is an error, nothing else is.

/** A record named well enough to be an item: an object with an `id` and a `type`. */
export const namedRecord = z
	.object({
		id: z.union([resourceId, z.number()], {
			errorMap: () => ({ message: 'an id' }),
		}),
		type: z.string().min(1, 'a type'),
	})
	.passthrough();

/** An answer about one record. */
export const singleDocumentCore = z.object({ data: namedRecord }).passthrough();

/** An answer listing records (an empty list is a valid answer). */
export const listDocumentCore = z.object({ data: z.array(namedRecord) }).passthrough();

/** A webhook delivery that can be identified: its notification id and its event name. */
export const deliveryCore = z
	.object({
		data: z
			.object({
				id: z.union([resourceId, z.number()], { errorMap: () => ({ message: 'an id' }) }),
				attributes: z.object({ event: z.string().min(1, 'an event name') }).passthrough(),
			})
			.passthrough(),
	})
	.passthrough();

import { z } from 'zod';

/*
 * JSON:API building blocks shared by every resource of the service. Objects pass unknown keys
 * through: the service adds fields over time and a new field must never break a workflow.
 */

/** A non-empty list of type names, as `z.enum` wants it. */
export type TypeNames = [string, ...string[]];

// Ids are UUIDs in the interface, but the inference result's id is `req_<uuid>`
// (fixtures/api/infer_number.container.json), so only "a non-empty string" is checked.
export const resourceId = z.string().min(1);

/** `{id, type}`: names one record, which may sit in the document's `included`. */
export const resourceIdentifier = z
	.object({
		id: resourceId,
		type: z.string().min(1),
	})
	.passthrough();

/** A relationship of any type and cardinality; extra keys such as `links` are allowed. */
export const relationship = z
	.object({
		data: z.union([resourceIdentifier, z.array(resourceIdentifier), z.null()]),
	})
	.passthrough();

/** `{id, type}` whose `type` must be one of `types`. */
export function identifierOf<Types extends TypeNames>(types: Types) {
	return z.object({ id: resourceId, type: z.enum(types) }).passthrough();
}

/** To-one relationship that always names a record. */
export function toOne<Types extends TypeNames>(types: Types) {
	return z.object({ data: identifierOf(types) }).passthrough();
}

/** To-one relationship whose `data` may be null (nothing related yet). */
export function toOneOrNull<Types extends TypeNames>(types: Types) {
	return z.object({ data: identifierOf(types).nullable() }).passthrough();
}

/** To-many relationship; an empty array means "none". */
export function toMany<Types extends TypeNames>(types: Types) {
	return z.object({ data: z.array(identifierOf(types)) }).passthrough();
}

// Link values are plain strings, not `.url()`: the service writes some as paths relative to the
// host ("/v2/shipments/...", seen in every notification fixture).
export const links = z
	.object({
		first: z.string().optional(),
		prev: z.string().optional(),
		next: z.string().optional(),
		last: z.string().optional(),
		self: z.string().optional(),
		current: z.string().optional(),
	})
	.passthrough();

/** Paging counts. The service notes say `meta` may be missing or partial: never rely on it. */
export const meta = z
	.object({
		size: z.number().int().nonnegative().optional(),
		total: z.number().int().nonnegative().optional(),
	})
	.passthrough();

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

/** Body of a non-2xx answer that is JSON at all (some are HTML pages). */
export const jsonApiErrorDocument = z
	.object({
		errors: z.array(jsonApiError),
	})
	.passthrough();

/** Any resource object: what an unknown type in `included` is checked against. */
export const jsonApiResource = z
	.object({
		id: resourceId,
		type: z.string().min(1),
		attributes: z.object({}).passthrough().optional(),
		relationships: z.record(z.string(), relationship).optional(),
		links: links.optional(),
	})
	.passthrough();

/** A schema that checks one resource object of a given type. */
export type ResourceSchema = z.ZodTypeAny;

/**
 * An `included` array: records whose `type` has a schema in `schemasByType` must match it,
 * records of other types only need to be resource objects. Issues keep the path into the record
 * (e.g. `included.3.attributes.holds_at_pod_terminal.0.status`).
 */
export function includedResources(schemasByType: Readonly<Record<string, ResourceSchema>>) {
	const includedRecord = jsonApiResource.superRefine((record, ctx) => {
		const schema = Object.prototype.hasOwnProperty.call(schemasByType, record.type)
			? schemasByType[record.type]
			: undefined;
		if (!schema) return;
		const result = schema.safeParse(record);
		if (result.success) return;
		for (const issue of result.error.issues) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: issue.path,
				message: `${record.type}: ${issue.message}`,
				params: { resourceType: record.type, issueCode: issue.code },
			});
		}
	});
	return z.array(includedRecord);
}

const anyIncluded = z.array(jsonApiResource);
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
			links: links.optional(),
			meta: meta.optional(),
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
			links: links.optional(),
			meta: meta.optional(),
		})
		.passthrough();
}

import { z } from 'zod';

import {
	includedResources,
	links,
	relationship,
	resourceId,
	resourceIdentifier,
	singleResourceDocument,
	toOne,
	toOneOrNull,
	type ResourceSchema,
} from './jsonApi';
import {
	dataSource,
	ianaTimeZone,
	isoDateTime,
	resourceSchemasByType,
	unLocode,
} from './resources';

/*
 * The body of a webhook delivery (service notes "Webhooks"): a `webhook_notification` whose
 * `reference_object` names the record that caused it, with related records in `included`.
 */

// ---------------------------------------------------------------------------------------------
// Reference objects that are not resources of the interface

/**
 * Attribute name → `[old, new]`. Keys are open-ended; hold and fee values are whole arrays.
 * Exactly two elements: anything else is not a change the receiver can read.
 */
export const changeset = z.record(z.string(), z.tuple([z.unknown(), z.unknown()]));

/** Reference object of `container.updated`. */
export const containerUpdatedEvent = z
	.object({
		id: resourceId,
		type: z.literal('container_updated_event'),
		attributes: z
			.object({
				changeset,
				// When the change was seen; order deliveries by this, not by arrival.
				timestamp: isoDateTime.optional(),
				data_source: dataSource.optional(),
				timezone: ianaTimeZone.nullable().optional(),
			})
			.passthrough(),
		relationships: z
			.object({
				container: toOne(['container']),
				// `pod_terminal` changes carry terminal ids, resolved through this record.
				terminal: toOneOrNull(['terminal', 'rail_terminal']).optional(),
				shipment: toOne(['shipment']).optional(),
			})
			.passthrough(),
		links: links.optional(),
	})
	.passthrough();

/** Reference object of `container.created`. */
export const containerCreatedEvent = z
	.object({
		id: resourceId,
		type: z.literal('container_created_event'),
		attributes: z
			.object({
				timestamp: isoDateTime.optional(),
				timezone: ianaTimeZone.nullable().optional(),
			})
			.passthrough()
			.optional(),
		relationships: z
			.object({
				container: toOne(['container']),
				shipment: toOne(['shipment']),
			})
			.partial()
			.passthrough()
			.optional(),
		links: links.optional(),
	})
	.passthrough();

/** Reference object of `shipment.estimated.arrival` (a new ETA reported by the line). */
export const estimatedEvent = z
	.object({
		id: resourceId,
		type: z.literal('estimated_event'),
		attributes: z
			.object({
				// Open set of event names.
				event: z.string(),
				estimated_timestamp: isoDateTime.nullable(),
				created_at: isoDateTime,
				voyage_number: z.string().nullable(),
				location_locode: unLocode.nullable(),
				data_source: dataSource,
				timezone: ianaTimeZone.nullable(),
			})
			.partial()
			.passthrough()
			.optional(),
		relationships: z
			.object({
				shipment: toOne(['shipment']),
				port: toOneOrNull(['port']),
				vessel: toOneOrNull(['vessel']),
			})
			.partial()
			.passthrough()
			.optional(),
		links: links.optional(),
	})
	.passthrough();

/** Reference object of `container.pod_terminal_changed`. No published example: kept loose. */
export const containerPodTerminalChangedEvent = z
	.object({
		id: resourceId,
		type: z.literal('container_pod_terminal_changed_event'),
		attributes: z
			.object({
				timestamp: isoDateTime.optional(),
				data_source: dataSource.optional(),
				timezone: ianaTimeZone.nullable().optional(),
			})
			.passthrough()
			.optional(),
		relationships: z
			.object({
				container: toOne(['container']),
				shipment: toOne(['shipment']),
				terminal: toOneOrNull(['terminal', 'rail_terminal']),
			})
			.partial()
			.passthrough()
			.optional(),
		links: links.optional(),
	})
	.passthrough();

/** Every schema a record in a delivery's `included` is checked against, by `type`. */
export const notificationSchemasByType: Readonly<Record<string, ResourceSchema>> = {
	...resourceSchemasByType,
	container_updated_event: containerUpdatedEvent,
	container_created_event: containerCreatedEvent,
	estimated_event: estimatedEvent,
	container_pod_terminal_changed_event: containerPodTerminalChangedEvent,
};

// ---------------------------------------------------------------------------------------------
// The envelope

export const webhookNotificationAttributes = z
	.object({
		// A copy of `data.id`, which is the idempotency key. The service's own payload reference
		// shows deliveries without it, so it is optional.
		id: resourceId.optional(),
		// Event names are an open set (service notes): any string passes.
		event: z.string().min(1),
		delivery_status: z.string(),
		created_at: isoDateTime,
	})
	.passthrough();

/** The `data` of a delivery. */
export const webhookNotificationResource = z
	.object({
		id: resourceId,
		type: z.literal('webhook_notification'),
		attributes: webhookNotificationAttributes,
		relationships: z
			.object({
				// The record that caused the delivery; its type depends on the event.
				reference_object: z.object({ data: resourceIdentifier }).passthrough(),
				webhook: toOne(['webhook']),
				webhook_notification_logs: relationship.optional(),
			})
			.passthrough(),
		links: links.optional(),
	})
	.passthrough();

/**
 * A whole delivery body. `included` may be empty or absent (some events carry only the reference
 * object); records of known types in it must match their schema, other types pass as generic
 * resource objects.
 */
export const webhookNotificationEnvelope = singleResourceDocument(
	webhookNotificationResource,
	includedResources(notificationSchemasByType),
);

import { z } from 'zod';

import {
	includedResources,
	relationship,
	resourceId,
	resourceIdentifier,
	resourceObject,
	resourceOf,
	singleResourceDocument,
	type ResourceSchema,
} from './jsonApi';
import { dataSource, resourceSchemasByType } from './resources';
import { ianaTimeZone, isoDateTime, unLocode } from './values';

/*
 * The body of a webhook delivery (docs/service.md, "Deliveries"): a `webhook_notification`
 * whose `reference_object` names the record that caused it, with related records in `included`.
 */

function maybe<Schema extends z.ZodTypeAny>(schema: Schema) {
	return schema.nullable().optional();
}

// ---------------------------------------------------------------------------------------------
// Reference objects that are not resources of the interface

/**
 * Attribute name → `[old, new]`. Keys are open-ended; hold and fee values are whole arrays. A
 * value that is not a pair is still a change the workflow hears of: logic/changeset.ts gives it
 * an item with the raw value and a warning, so the schema lets any value through.
 */
export const changeset = z.record(z.string(), z.unknown());

/** Reference object of `container.updated`. */
export const containerUpdatedEvent = resourceOf(
	'container_updated_event',
	z
		.object({
			changeset,
			// When the change was seen; order deliveries by this, not by arrival.
			timestamp: maybe(isoDateTime),
			data_source: maybe(dataSource),
			timezone: maybe(ianaTimeZone),
		})
		.passthrough(),
);
// Relationships: container, terminal (terminal or rail_terminal; `pod_terminal` changes carry
// terminal ids, resolved through it), shipment.

/** Reference object of `container.created`. */
export const containerCreatedEvent = resourceOf(
	'container_created_event',
	maybe(z.object({ timestamp: maybe(isoDateTime), timezone: maybe(ianaTimeZone) }).passthrough()),
);

/** Reference object of `shipment.estimated.arrival` (a new ETA reported by the line). */
export const estimatedEvent = resourceOf(
	'estimated_event',
	maybe(
		z
			.object({
				// Open set of event names.
				event: maybe(z.string()),
				estimated_timestamp: maybe(isoDateTime),
				created_at: maybe(isoDateTime),
				voyage_number: maybe(z.string()),
				location_locode: maybe(unLocode),
				data_source: maybe(dataSource),
				timezone: maybe(ianaTimeZone),
			})
			.passthrough(),
	),
);

/** Reference object of `container.pod_terminal_changed`. No published example: kept loose. */
export const containerPodTerminalChangedEvent = resourceOf(
	'container_pod_terminal_changed_event',
	maybe(
		z
			.object({
				timestamp: maybe(isoDateTime),
				data_source: maybe(dataSource),
				timezone: maybe(ianaTimeZone),
			})
			.passthrough(),
	),
);

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
		// A copy of `data.id`, which is the idempotency key; the service's own payload reference
		// shows deliveries without it.
		id: maybe(resourceId),
		// Event names are an open set (docs/service.md, "Events"): any string passes.
		event: z.string().min(1, 'an event name'),
		delivery_status: maybe(z.string()),
		created_at: maybe(isoDateTime),
	})
	.passthrough();

/** The `data` of a delivery. */
export const webhookNotificationResource = resourceObject.extend({
	type: z.literal('webhook_notification'),
	attributes: webhookNotificationAttributes,
	relationships: z
		.object({
			// The record that caused the delivery; its type depends on the event. Without it the
			// items cannot say what the notification is about: a warning.
			reference_object: z.object({ data: resourceIdentifier }).passthrough(),
			webhook: maybe(relationship),
		})
		.catchall(relationship),
});

/**
 * A whole delivery body. `included` may be empty or absent (some events carry only the reference
 * object); records of known types in it are checked against their schema, other types as generic
 * resource objects.
 */
export const webhookNotificationEnvelope = singleResourceDocument(
	webhookNotificationResource,
	includedResources(notificationSchemasByType),
);

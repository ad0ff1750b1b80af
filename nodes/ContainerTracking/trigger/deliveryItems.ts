import type { IDataObject } from 'n8n-workflow';

import { splitChangeset } from '../logic/changeset';
import { pickupReadiness } from '../logic/readiness';
import type { ContainerAttributes } from '../schemas';
import {
	flattenResource,
	indexIncluded,
	relatedRecord,
	type IncludedIndex,
	type ResourceLike,
} from '../transport/jsonApi';

export interface DeliveryOptions {
	expandHoldsAndFees: boolean;
	/** Only these `container.updated` attributes (all when empty). */
	fields: string[];
	/** Output the notification as it came, instead of items shaped for workflows. */
	raw: boolean;
}

export interface Notification {
	data: {
		id: string;
		attributes?: IDataObject;
		relationships?: Record<string, { data?: unknown }>;
	};
	included?: unknown[];
}

function referenceOf(
	notification: Notification,
	included: IncludedIndex,
): ResourceLike | undefined {
	const ref = notification.data.relationships?.reference_object?.data as
		| { id?: string; type?: string }
		| undefined;
	if (!ref?.id || !ref.type) return undefined;
	return included.get(`${ref.type}:${ref.id}`);
}

function referenceIdentifier(notification: Notification): {
	id: string | null;
	type: string | null;
} {
	const ref = notification.data.relationships?.reference_object?.data as
		| { id?: string; type?: string }
		| undefined;
	return { id: ref?.id ?? null, type: ref?.type ?? null };
}

/** The container, shipment and terminal a delivery is about, found through `included`. */
function subjects(reference: ResourceLike | undefined, included: IncludedIndex) {
	const records = [...included.values()];
	const container =
		(reference && relatedRecord(reference, 'container', included)) ??
		(reference?.type === 'container' ? reference : undefined) ??
		records.find((record) => record.type === 'container');
	const shipment =
		(reference && relatedRecord(reference, 'shipment', included)) ??
		(container && relatedRecord(container, 'shipment', included)) ??
		records.find((record) => record.type === 'shipment');
	const terminal =
		(reference && relatedRecord(reference, 'terminal', included)) ??
		(container && relatedRecord(container, 'pod_terminal', included));
	return { container, shipment, terminal };
}

function terminalName(terminal: ResourceLike | undefined): string | null {
	const name = terminal?.attributes?.name;
	return typeof name === 'string' ? name : null;
}

/** Fields every item of a delivery shares: what happened, to which container, where. */
function commonFields(notification: Notification, included: IncludedIndex): IDataObject {
	const reference = referenceOf(notification, included);
	const { container, shipment, terminal } = subjects(reference, included);
	return {
		event: notification.data.attributes?.event ?? null,
		notification_id: notification.data.id,
		container_id: container?.id ?? null,
		container_number: (container?.attributes?.number as string | undefined) ?? null,
		shipment_id: shipment?.id ?? null,
		bill_of_lading_number:
			(shipment?.attributes?.bill_of_lading_number as string | undefined) ?? null,
		terminal_id: terminal?.id ?? null,
		terminal_name: terminalName(terminal),
	};
}

/**
 * `container.updated`: one item per changed attribute (rule 6.2), or per hold or fee that
 * changed when those are expanded. `pod_terminal` values are terminal ids: their names are
 * added from `included`.
 */
function containerUpdatedItems(
	notification: Notification,
	included: IncludedIndex,
	options: DeliveryOptions,
): IDataObject[] {
	const reference = referenceOf(notification, included);
	const attributes = reference?.attributes ?? {};
	const { container } = subjects(reference, included);
	const readiness = container
		? pickupReadiness(container.attributes as ContainerAttributes)
		: undefined;
	const common = {
		...commonFields(notification, included),
		changed_at: attributes.timestamp ?? null,
		timezone: attributes.timezone ?? null,
	};
	return splitChangeset(attributes.changeset, {
		expandHoldsAndFees: options.expandHoldsAndFees,
		fields: options.fields,
	}).map((change) => {
		const item: IDataObject = { ...common, ...(change as unknown as IDataObject) };
		if (change.field === 'pod_terminal') {
			item.old_terminal_name = terminalName(included.get(`terminal:${String(change.old_value)}`));
			item.new_terminal_name = terminalName(included.get(`terminal:${String(change.new_value)}`));
		}
		if (readiness) {
			item.ready_for_pickup = readiness.ready_for_pickup;
			item.pickup_status = readiness.pickup_status;
		}
		return item;
	});
}

/** Every other event: one item with the records the delivery carries, flattened. */
function eventItem(notification: Notification, included: IncludedIndex): IDataObject {
	const reference = referenceOf(notification, included);
	const { container, shipment } = subjects(reference, included);
	const { id, type } = referenceIdentifier(notification);
	const item: IDataObject = {
		...commonFields(notification, included),
		notification_created_at: notification.data.attributes?.created_at ?? null,
		reference_type: type,
		reference_id: id,
	};
	if (reference) {
		const flat = flattenResource(reference, included, 0);
		item[type ?? 'reference'] = flat;
		if (reference.attributes?.timestamp !== undefined)
			item.event_timestamp = reference.attributes.timestamp;
		if (reference.attributes?.timezone !== undefined) item.timezone = reference.attributes.timezone;
		if (reference.attributes?.location_locode !== undefined)
			item.location_locode = reference.attributes.location_locode;
	}
	if (container && container !== reference)
		item.container = flattenResource(container, included, 0);
	if (shipment && shipment !== reference) item.shipment = flattenResource(shipment, included, 0);
	return item;
}

/** The items one delivery starts the workflow with; none when nothing is left after filtering. */
export function deliveryItems(notification: Notification, options: DeliveryOptions): IDataObject[] {
	if (options.raw) return [notification as unknown as IDataObject];
	const included = indexIncluded(notification.included);
	if (
		notification.data.attributes?.event === 'container.updated' &&
		referenceOf(notification, included)
	) {
		return containerUpdatedItems(notification, included, options);
	}
	return [eventItem(notification, included)];
}

import type { IDataObject } from 'n8n-workflow';

import { containerItem } from '../../actions/container/summary';
import { arrivalEstimate, arrivalOf, type ArrivalSources } from '../../logic/arrivalEstimate';
import { splitChangeset } from '../../logic/changeset';
import { withEventLabel } from '../../logic/eventNames';
import { holdMeaning } from '../../logic/holdNames';
import { ownership } from '../../logic/ownership';
import { pickupReadiness } from '../../logic/readiness';
import { isRecord, membersOf } from '../../schemas/values';
import { recordLabel, type DataWarning } from '../../schemas/warnings';
import {
	flattenResource,
	includedKey,
	indexIncluded,
	relatedIdentifier,
	relatedIdentifiers,
	relatedRecord,
	type IncludedIndex,
} from '../../records/jsonApi';
import type { Delivery, JsonApiResource } from '../../schemas';

export interface DeliveryOptions {
	expandHoldsAndFees: boolean;
	/** Only these `container.updated` attributes (all when empty). */
	fields: string[];
	/** Output the notification as it came, instead of items shaped for workflows. */
	raw: boolean;
}

/** The record that caused the delivery, when `included` carries it. */
function referenceOf(notification: Delivery, included: IncludedIndex): JsonApiResource | undefined {
	const ref = relatedIdentifier(notification.data, 'reference_object');
	return ref ? included.get(includedKey(ref)) : undefined;
}

/** The container, shipment and terminal a delivery is about, found through `included`. */
function subjects(reference: JsonApiResource | undefined, included: IncludedIndex) {
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

/**
 * A container that does not name its shipment (`{"data": null}`, as some deliveries send it)
 * while the delivery carries that shipment, and the shipment names the container (or no
 * containers): linked to it, so that what the shipment says (tracking stopped) is read.
 */
function withItsShipment(
	container: JsonApiResource,
	shipment: JsonApiResource | undefined,
): JsonApiResource {
	if (!shipment || relatedIdentifier(container, 'shipment')) return container;
	const listed = relatedIdentifiers(shipment, 'containers');
	if (listed.length > 0 && !listed.some((ref) => ref.id === container.id)) return container;
	const relationships = isRecord(container.relationships) ? container.relationships : {};
	return {
		...container,
		relationships: {
			...relationships,
			shipment: { data: { id: shipment.id, type: shipment.type } },
		},
	};
}

/** The records Container → Get includes, which name the last free day's facility and terminal. */
const STATE_RELATIONSHIPS = ['shipment', 'pod_terminal', 'pickup_facility'];

/**
 * The container as Container → Get gives it (readiness and why, last free day with its facility
 * and zone, holds, fees, terminal), worked out from the records the delivery includes, so that a
 * workflow needs no call to the service for what the delivery already says. `container_as_of`
 * is when this state was true: when the service made the notification (else now);
 * `container_state_complete` whether the delivery included every record Container → Get would
 * (a container on rail may come without its inland facility): Fetch Container When Missing reads
 * the others (trigger/items/containerLookup.ts).
 */
function workedOutContainer(
	notification: Delivery,
	found: JsonApiResource | undefined,
	included: IncludedIndex,
	now: Date,
	shipment?: JsonApiResource,
): IDataObject | undefined {
	if (!found) return undefined;
	const container = withItsShipment(found, shipment);
	const keys = STATE_RELATIONSHIPS.flatMap((name) =>
		relatedIdentifiers(container, name).map(includedKey),
	);
	const complete = keys.every((key) => included.has(key));
	// Only the records Container → Get would include: a delivery may carry more (the shipment's
	// destination terminal), and an item that named more than Get does would differ from it, so a
	// view written from both would change back and forth.
	const asGetIncludes: IncludedIndex = new Map();
	for (const key of keys) {
		const record = included.get(key);
		if (record) asGetIncludes.set(key, record);
	}
	return {
		...containerItem(container, asGetIncludes, now),
		container_as_of: notification.data.attributes.created_at ?? now.toISOString(),
		container_state_complete: complete,
	};
}

function attributesOf(record: JsonApiResource | undefined): IDataObject {
	return membersOf(record?.attributes) as IDataObject;
}

/** A string attribute, or null when it is missing or not text. */
function text(record: JsonApiResource | undefined, name: string): string | null {
	const value = attributesOf(record)[name];
	return typeof value === 'string' ? value : null;
}

/**
 * Whose box a delivery is about (logic/ownership.ts), from the shipment it includes; a tracking
 * request's delivery without its shipment gives the references and tags the request set for it.
 */
function ownerOf(
	reference: JsonApiResource | undefined,
	container: JsonApiResource | undefined,
	shipment: JsonApiResource | undefined,
): IDataObject {
	const owner = ownership(
		shipment ? attributesOf(shipment) : undefined,
		container ? attributesOf(container) : undefined,
	);
	if (!shipment && reference?.type === 'tracking_request') {
		const request = ownership(
			{
				ref_numbers: attributesOf(reference).ref_numbers,
				tags: attributesOf(reference).shipment_tags,
			},
			undefined,
		);
		owner.shipment_ref_numbers = request.shipment_ref_numbers;
		owner.shipment_tags = request.shipment_tags;
	}
	return { ...owner };
}

/** Fields every item of a delivery shares: what happened, to which container, whose, where. */
function commonFields(notification: Delivery, included: IncludedIndex): IDataObject {
	const reference = referenceOf(notification, included);
	const { container, shipment, terminal } = subjects(reference, included);
	return withEventLabel({
		event: notification.data.attributes.event,
		notification_id: String(notification.data.id),
		container_id: container?.id ?? null,
		container_number: text(container, 'number'),
		shipment_id: shipment?.id ?? null,
		...ownerOf(reference, container, shipment),
		terminal_id: terminal?.id ?? null,
		terminal_name: text(terminal, 'name'),
	});
}

/** The ports and metro areas a delivery includes: where an arrival's zone and name are read. */
function placesOf(included: IncludedIndex): IDataObject[] {
	return [...included.values()]
		.filter((record) => record.type === 'port' || record.type === 'metro_area')
		.map(attributesOf);
}

/**
 * `arrival_estimate` (logic/arrivalEstimate.ts) on the item of an estimated-arrival event or of a
 * change of an ETA attribute; nothing on any other item.
 */
function withArrivalEstimate(
	item: IDataObject,
	sources: Omit<ArrivalSources, 'places'>,
	included: IncludedIndex,
): IDataObject {
	// Most items are about no arrival: the included records are not searched for them.
	if (!arrivalOf(sources.event, sources.change)) return item;
	const estimate = arrivalEstimate({ ...sources, places: placesOf(included) });
	if (estimate) item.arrival_estimate = { ...estimate };
	return item;
}

/** `warnings` on an item only when there are some, so items of clean deliveries stay as they were. */
function withWarnings(item: IDataObject, warnings: DataWarning[]): IDataObject {
	return warnings.length > 0 ? { ...item, warnings: warnings as unknown as IDataObject[] } : item;
}

/**
 * `container.updated`: one item per changed attribute (docs/service.md, "Changesets"), or per
 * hold or fee that changed when those are expanded; a hold's item adds its meaning and who clears
 * it (logic/holdNames.ts). `pod_terminal` values are terminal ids: their names are added from
 * `included`.
 */
function containerUpdatedItems(
	notification: Delivery,
	reference: JsonApiResource,
	included: IncludedIndex,
	options: DeliveryOptions,
	warnings: DataWarning[],
	now: Date,
): IDataObject[] {
	const attributes = attributesOf(reference);
	const { container, shipment } = subjects(reference, included);
	const readiness = container ? pickupReadiness(attributesOf(container)) : undefined;
	const state = workedOutContainer(notification, container, included, now, shipment);
	const common = {
		...commonFields(notification, included),
		changed_at: attributes.timestamp ?? null,
		timezone: attributes.timezone ?? null,
	};
	const referenceLabel = recordLabel(reference, 'reference object');
	return splitChangeset(attributes.changeset, {
		expandHoldsAndFees: options.expandHoldsAndFees,
		fields: options.fields,
	}).map(({ warning, ...change }) => {
		const item: IDataObject = { ...common, ...(change as unknown as IDataObject) };
		// What the hold is and who clears it, so every alert can say whom to call.
		if (change.hold) Object.assign(item, holdMeaning(change.hold.name));
		if (change.field === 'pod_terminal') {
			item.old_terminal_name = text(included.get(`terminal:${String(change.old_value)}`), 'name');
			item.new_terminal_name = text(included.get(`terminal:${String(change.new_value)}`), 'name');
		}
		if (readiness) {
			item.ready_for_pickup = readiness.ready_for_pickup;
			item.pickup_status = readiness.pickup_status;
		}
		if (state) item.container = state;
		withArrivalEstimate(
			item,
			{
				event: 'container.updated',
				reference: attributes,
				change,
				shipment: attributesOf(shipment),
				container: attributesOf(container),
			},
			included,
		);
		const fieldWarnings = warning ? [{ record: referenceLabel, ...warning }] : [];
		return withWarnings(item, [...warnings, ...fieldWarnings]);
	});
}

/** Every other event: one item with the records the delivery carries, flattened. */
function eventItem(
	notification: Delivery,
	included: IncludedIndex,
	warnings: DataWarning[],
	now: Date,
): IDataObject {
	const reference = referenceOf(notification, included);
	const { container, shipment } = subjects(reference, included);
	const ref = relatedIdentifier(notification.data, 'reference_object');
	const item: IDataObject = {
		...commonFields(notification, included),
		notification_created_at: notification.data.attributes.created_at ?? null,
		reference_type: ref?.type ?? null,
		reference_id: ref?.id ?? null,
	};
	if (reference) {
		const flat = flattenResource(reference, included, 0);
		const attributes = attributesOf(reference);
		item[ref?.type ?? 'reference'] = flat;
		if (attributes.timestamp !== undefined) item.event_timestamp = attributes.timestamp;
		if (attributes.timezone !== undefined) item.timezone = attributes.timezone;
		if (attributes.location_locode !== undefined) item.location_locode = attributes.location_locode;
	}
	// Worked out even when the container is the reference itself.
	if (container)
		item.container = workedOutContainer(notification, container, included, now, shipment);
	if (shipment && shipment !== reference) item.shipment = flattenResource(shipment, included, 0);
	withArrivalEstimate(
		item,
		{
			event: String(notification.data.attributes.event),
			reference: attributesOf(reference),
			shipment: attributesOf(shipment),
			container: attributesOf(container),
		},
		included,
	);
	return withWarnings(item, warnings);
}

/** The changeset of a `container.updated` whose reference object carries a readable one. */
function changesetOf(notification: Delivery, included: IncludedIndex): unknown {
	if (notification.data.attributes.event !== 'container.updated') return undefined;
	const changeset = attributesOf(referenceOf(notification, included)).changeset;
	return isRecord(changeset) ? changeset : undefined;
}

/** The id of the container a delivery is about, as its items name it (`container_id`). */
export function deliveryContainerId(notification: Delivery): string | undefined {
	const included = indexIncluded(notification.included);
	return subjects(referenceOf(notification, included), included).container?.id;
}

/**
 * Whether a delivery gives any item, without making them: only a `container.updated` whose
 * changes Only These Fields leaves out gives none. What a delivery's answer waits for.
 */
export function reportsAnything(notification: Delivery, options: DeliveryOptions): boolean {
	if (options.raw) return true;
	const changeset = changesetOf(notification, indexIncluded(notification.included));
	if (changeset === undefined) return true;
	return (
		splitChangeset(changeset, {
			expandHoldsAndFees: options.expandHoldsAndFees,
			fields: options.fields,
		}).length > 0
	);
}

/**
 * The items one delivery starts the workflow with; none when nothing is left after filtering.
 * `warnings` (what the delivery carries that the interface does not promise) go on every item.
 */
export function deliveryItems(
	notification: Delivery,
	options: DeliveryOptions,
	warnings: DataWarning[] = [],
	now = new Date(),
): IDataObject[] {
	if (options.raw) return [notification as unknown as IDataObject];
	const included = indexIncluded(notification.included);
	const reference = referenceOf(notification, included);
	// A container.updated whose changeset cannot be read still starts the workflow: one item, with
	// the reference flattened and the warning that says what was wrong.
	if (reference && changesetOf(notification, included) !== undefined) {
		return containerUpdatedItems(notification, reference, included, options, warnings, now);
	}
	return [eventItem(notification, included, warnings, now)];
}

import { z } from 'zod';

import { relationship, resourceObject, resourceOf, type ResourceSchema } from './jsonApi';
import {
	CONTAINER_STATUSES,
	DATA_SOURCES,
	EQUIPMENT_HEIGHTS,
	EQUIPMENT_TYPES,
	FEE_TYPES,
	HOLD_NAMES,
	HOLD_STATUSES,
	LINE_TRACKING_STOPPED_REASONS,
	REQUEST_TYPES,
	SHIPPING_LINE_DECISIONS,
	TRACKING_REQUEST_FAILED_REASONS,
	TRACKING_REQUEST_STATUSES,
	coordinate,
	ianaTimeZone,
	isoDate,
	isoDateTime,
	numeric,
	openEnum,
	textList,
	unLocode,
} from './values';

/*
 * One schema per resource the service answers with (docs/service.md, from "Tracking requests"
 * to "Number inference"): what the service promises. Attributes that identify a record (a
 * container's number, a shipment's bill of lading number…) are expected; every other attribute
 * may be missing or null (not reported). Value sets are open (schemas/values.ts), numbers may
 * come as numeric strings, lists of strings may hold nulls, relationships may be null. Unknown
 * fields pass through.
 */

/** Optional, and null means "not reported". */
function maybe<Schema extends z.ZodTypeAny>(schema: Schema) {
	return schema.nullable().optional();
}

/** The `relationships` of a resource: the named ones described, any others allowed. */
function relationshipsNamed<Names extends string>(names: readonly Names[]) {
	return z
		.object(Object.fromEntries(names.map((name) => [name, relationship.optional()])))
		.catchall(relationship) as unknown as z.ZodType<
		Partial<Record<Names, z.infer<typeof relationship>>> &
			Record<string, z.infer<typeof relationship> | undefined>
	>;
}

// ---------------------------------------------------------------------------------------------
// Shared value sets

export const dataSource = openEnum(DATA_SOURCES);

// ---------------------------------------------------------------------------------------------
// transport_event (docs/service.md, "Transport events")

export const transportEventAttributes = z
	.object({
		// Event names are an open set (docs/service.md, "Events"): any string.
		event: z.string(),
		voyage_number: maybe(z.string()),
		timestamp: maybe(isoDateTime),
		timezone: maybe(ianaTimeZone),
		location_locode: maybe(unLocode),
		created_at: maybe(isoDateTime),
		data_source: maybe(dataSource),
	})
	.passthrough();

// Relationships: shipment, container, vessel, location (port or metro_area), terminal (terminal
// or rail_terminal). Deliveries of estimated events carry the event without relationships.
export const transportEvent = resourceOf('transport_event', maybe(transportEventAttributes));

// ---------------------------------------------------------------------------------------------
// shipment (docs/service.md, "Shipments")

export const lineTrackingStoppedReason = openEnum(LINE_TRACKING_STOPPED_REASONS);

export const shipmentAttributes = z
	.object({
		bill_of_lading_number: z.string(),
		normalized_number: maybe(z.string()),
		ref_numbers: maybe(textList),
		created_at: maybe(isoDateTime),
		tags: maybe(textList),
		port_of_lading_locode: maybe(unLocode),
		port_of_discharge_locode: maybe(unLocode),
		destination_locode: maybe(unLocode),
		port_of_lading_name: maybe(z.string()),
		port_of_discharge_name: maybe(z.string()),
		destination_name: maybe(z.string()),
		shipping_line_scac: maybe(z.string()),
		shipping_line_name: maybe(z.string()),
		shipping_line_short_name: maybe(z.string()),
		customer_name: maybe(z.string()),
		pod_vessel_name: maybe(z.string()),
		pod_vessel_imo: maybe(z.string()),
		pod_voyage_number: maybe(z.string()),
		pol_etd_at: maybe(isoDateTime),
		pol_atd_at: maybe(isoDateTime),
		pod_eta_at: maybe(isoDateTime),
		pod_original_eta_at: maybe(isoDateTime),
		pod_ata_at: maybe(isoDateTime),
		destination_eta_at: maybe(isoDateTime),
		destination_ata_at: maybe(isoDateTime),
		pol_timezone: maybe(ianaTimeZone),
		pod_timezone: maybe(ianaTimeZone),
		destination_timezone: maybe(ianaTimeZone),
		line_tracking_last_attempted_at: maybe(isoDateTime),
		line_tracking_last_succeeded_at: maybe(isoDateTime),
		line_tracking_stopped_at: maybe(isoDateTime),
		line_tracking_stopped_reason: maybe(lineTrackingStoppedReason),
	})
	.passthrough();

// Relationships: destination (port or metro_area), port_of_lading, port_of_discharge (port),
// containers (container list), pod_terminal (terminal), destination_terminal (terminal or
// rail_terminal), line_tracking_stopped_by_user (user). The interface requires `links` and
// `relationships`; records in `included` often come without them, which JSON:API allows.
export const shipment = resourceOf(
	'shipment',
	shipmentAttributes,
	relationshipsNamed([
		'destination',
		'port_of_lading',
		'port_of_discharge',
		'containers',
		'pod_terminal',
		'destination_terminal',
		'line_tracking_stopped_by_user',
	]),
);

// ---------------------------------------------------------------------------------------------
// terminal_hold and terminal_fee (docs/service.md, "Holds and fees")

export const terminalHoldName = openEnum(HOLD_NAMES);
export const terminalHoldStatus = openEnum(HOLD_STATUSES);

export const terminalHold = z
	.object({
		name: terminalHoldName,
		status: terminalHoldStatus,
		// Raw terminal text: show it to people, never automate on it.
		description: maybe(z.string()),
	})
	.passthrough();

export const terminalFeeType = openEnum(FEE_TYPES);

export const terminalFee = z
	.object({
		type: terminalFeeType,
		// Local currency; 0 means "reported, amount not posted yet".
		amount: numeric,
		currency_code: maybe(z.string()),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// container (docs/service.md, "Containers")

export const equipmentType = openEnum(EQUIPMENT_TYPES);
/** Feet: 10, 20, 40, 45 are listed; 53-foot boxes exist too. */
export const equipmentLength = numeric;
export const equipmentHeight = openEnum(EQUIPMENT_HEIGHTS);

/** docs/service.md, "Container statuses". */
export const containerStatus = openEnum(CONTAINER_STATUSES);

/** The three last free days that `pickup_lfd` is coalesced from (line, terminal, rail). */
export const importDeadlines = z
	.object({
		pickup_lfd_terminal: maybe(isoDateTime),
		pickup_lfd_rail: maybe(isoDateTime),
		pickup_lfd_line: maybe(isoDateTime),
	})
	.passthrough();

export const containerAttributes = z
	.object({
		number: z.string(),
		ref_numbers: maybe(textList),
		equipment_type: maybe(equipmentType),
		equipment_length: maybe(equipmentLength),
		equipment_height: maybe(equipmentHeight),
		weight_in_lbs: maybe(numeric),
		created_at: maybe(isoDateTime),
		seal_number: maybe(z.string()),
		pickup_lfd: maybe(isoDateTime),
		pickup_appointment_at: maybe(isoDateTime),
		availability_known: maybe(z.boolean()),
		available_for_pickup: maybe(z.boolean()),
		pod_arrived_at: maybe(isoDateTime),
		pod_discharged_at: maybe(isoDateTime),
		pod_full_out_at: maybe(isoDateTime),
		terminal_checked_at: maybe(isoDateTime),
		pod_full_out_chassis_number: maybe(z.string()),
		location_at_pod_terminal: maybe(z.string()),
		final_destination_full_out_at: maybe(isoDateTime),
		empty_terminated_at: maybe(isoDateTime),
		// Null is read as "not reported"; an empty list means none (docs/service.md, "Holds and fees").
		holds_at_pod_terminal: maybe(z.array(terminalHold)),
		fees_at_pod_terminal: maybe(z.array(terminalFee)),
		pod_timezone: maybe(ianaTimeZone),
		final_destination_timezone: maybe(ianaTimeZone),
		empty_terminated_timezone: maybe(ianaTimeZone),
		pod_rail_carrier_scac: maybe(z.string()),
		ind_rail_carrier_scac: maybe(z.string()),
		pod_last_tracking_request_at: maybe(isoDateTime),
		shipment_last_tracking_request_at: maybe(isoDateTime),
		pod_rail_loaded_at: maybe(isoDateTime),
		pod_rail_departed_at: maybe(isoDateTime),
		ind_eta_at: maybe(isoDateTime),
		ind_ata_at: maybe(isoDateTime),
		ind_rail_unloaded_at: maybe(isoDateTime),
		/** Deprecated: use `import_deadlines.pickup_lfd_rail`. */
		ind_facility_lfd_on: maybe(isoDateTime),
		import_deadlines: maybe(importDeadlines),
		current_status: maybe(containerStatus),
	})
	.passthrough();

// Relationships: shipment (shipment), pickup_facility and pod_terminal (terminal),
// transport_events and raw_events (lists). Any of them may be null.
export const containerRelationships = relationshipsNamed([
	'shipment',
	'pickup_facility',
	'pod_terminal',
	'transport_events',
	'raw_events',
]);

export const container = resourceOf('container', containerAttributes, containerRelationships);

// ---------------------------------------------------------------------------------------------
// port and metro_area (docs/service.md, "Terminals, ports and vessels")

export const portAttributes = z
	.object({
		name: maybe(z.string()),
		code: maybe(unLocode),
		state_abbr: maybe(z.string()),
		city: maybe(z.string()),
		country_code: maybe(z.string()),
		time_zone: maybe(ianaTimeZone),
		latitude: maybe(coordinate),
		longitude: maybe(coordinate),
	})
	.passthrough();

export const port = resourceOf('port', maybe(portAttributes));

export const metroAreaAttributes = portAttributes;

export const metroArea = resourceOf('metro_area', maybe(metroAreaAttributes));

// ---------------------------------------------------------------------------------------------
// terminal and rail_terminal (docs/service.md, "Terminals, ports and vessels")

export const terminalAttributes = z
	.object({
		name: z.string(),
		nickname: maybe(z.string()),
		firms_code: maybe(z.string()),
		smdg_code: maybe(z.string()),
		bic_facility_code: maybe(z.string()),
		street: maybe(z.string()),
		city: maybe(z.string()),
		state: maybe(z.string()),
		state_abbr: maybe(z.string()),
		zip: maybe(z.string()),
		country: maybe(z.string()),
	})
	.passthrough();

// Relationship: port (port); real answers send `port: {data: null}` too.
export const terminal = resourceOf('terminal', terminalAttributes);

export const railTerminalAttributes = z
	.object({
		name: z.string(),
		nickname: maybe(z.string()),
		firms_code: maybe(z.string()),
	})
	.passthrough();

// Relationships: port (port, nullable), metro_area (metro_area).
export const railTerminal = resourceOf('rail_terminal', railTerminalAttributes);

// ---------------------------------------------------------------------------------------------
// vessel (docs/service.md, "Terminals, ports and vessels")

/** One historical position; sent only when `show_positions` is requested. */
export const vesselPosition = z
	.object({
		latitude: maybe(coordinate),
		longitude: maybe(coordinate),
		heading: maybe(numeric),
		timestamp: maybe(isoDateTime),
		estimated: maybe(z.boolean()),
	})
	.passthrough();

export const vesselAttributes = z
	.object({
		name: maybe(z.string()),
		imo: maybe(z.string()),
		mmsi: maybe(z.string()),
		latitude: maybe(coordinate),
		longitude: maybe(coordinate),
		nautical_speed_knots: maybe(numeric),
		navigational_heading_degrees: maybe(numeric),
		position_timestamp: maybe(isoDateTime),
		positions: maybe(z.array(vesselPosition)),
	})
	.passthrough();

export const vessel = resourceOf('vessel', maybe(vesselAttributes));

// ---------------------------------------------------------------------------------------------
// route and route_location (GET /containers/{id}/route, a paid feature: docs/service.md,
// "Terminals, ports and vessels"). Relationships: route → cargo (container), route_locations;
// route_location → location (port or metro_area), facility (terminal), inbound_vessel and
// outbound_vessel (vessel).

export const routeAttributes = z
	.object({ created_at: maybe(isoDateTime), updated_at: maybe(isoDateTime) })
	.passthrough();

export const route = resourceOf('route', maybe(routeAttributes));

export const routeLocationAttributes = z
	.object({
		// Modes (`vessel`, `rail`, `truck`…) are an open set.
		inbound_mode: maybe(z.string()),
		inbound_scac: maybe(z.string()),
		inbound_voyage_number: maybe(z.string()),
		inbound_eta_at: maybe(isoDateTime),
		inbound_ata_at: maybe(isoDateTime),
		outbound_mode: maybe(z.string()),
		outbound_scac: maybe(z.string()),
		outbound_voyage_number: maybe(z.string()),
		outbound_etd_at: maybe(isoDateTime),
		outbound_atd_at: maybe(isoDateTime),
	})
	.passthrough();

export const routeLocation = resourceOf('route_location', maybe(routeLocationAttributes));

// ---------------------------------------------------------------------------------------------
// raw_event (GET /containers/{id}/raw_events; its shape is not in the interface description,
// only in the published example: docs/service.md, "Raw events")

export const rawEventAttributes = z
	.object({
		// Raw event names ("empty_out", "vessel_loaded") are an open set.
		event: maybe(z.string()),
		estimated: maybe(z.boolean()),
		index: maybe(numeric),
		created_at: maybe(isoDateTime),
		timestamp: maybe(isoDateTime),
		actual_on: maybe(isoDate),
		estimated_at: maybe(isoDateTime),
		actual_at: maybe(isoDateTime),
		original_event: maybe(z.string()),
		voyage_number: maybe(z.string()),
		location_name: maybe(z.string()),
		location_locode: maybe(unLocode),
		vessel_name: maybe(z.string()),
		vessel_imo: maybe(z.string()),
		timezone: maybe(ianaTimeZone),
	})
	.passthrough();

// Relationships: location (undocumented: any type), vessel (vessel).
export const rawEvent = resourceOf('raw_event', maybe(rawEventAttributes));

// ---------------------------------------------------------------------------------------------
// tracking_request (docs/service.md, "Tracking requests")

export const requestType = openEnum(REQUEST_TYPES);
export const trackingRequestStatus = openEnum(TRACKING_REQUEST_STATUSES);
export const trackingRequestFailedReason = openEnum(TRACKING_REQUEST_FAILED_REASONS);

export const trackingRequestAttributes = z
	.object({
		// What was asked for and where it stands: present in every answer and delivery.
		request_number: z.string(),
		request_type: maybe(requestType),
		scac: maybe(z.string()),
		status: maybe(trackingRequestStatus),
		ref_numbers: maybe(textList),
		shipment_tags: maybe(textList),
		failed_reason: maybe(trackingRequestFailedReason),
		created_at: maybe(isoDateTime),
		updated_at: maybe(isoDateTime),
		is_retrying: maybe(z.boolean()),
		retry_count: maybe(numeric),
	})
	.passthrough();

// Relationships: tracked_object (shipment; null until a shipment exists), customer, user.
export const trackingRequest = resourceOf('tracking_request', trackingRequestAttributes);

// ---------------------------------------------------------------------------------------------
// webhook (docs/service.md, "Webhooks")

export const webhookHeader = z.object({ name: z.string(), value: z.string() }).passthrough();

export const webhookAttributes = z
	.object({
		url: z.string(),
		active: maybe(z.boolean()),
		// Event names are an open set: any string.
		events: maybe(textList),
		// Returned on creation; store it to verify delivery signatures.
		secret: maybe(z.string()),
		headers: maybe(z.array(webhookHeader)),
		created_at: maybe(isoDateTime),
	})
	.passthrough();

export const webhook = resourceOf('webhook', webhookAttributes);

// ---------------------------------------------------------------------------------------------
// infer_number result (docs/service.md, "Number inference")

export const numberType = openEnum(REQUEST_TYPES);
export const shippingLineDecision = openEnum(SHIPPING_LINE_DECISIONS);

export const shippingLinePrediction = z
	.object({
		scac: z.string(),
		name: maybe(z.string()),
		// From 0 to 1.
		confidence: maybe(numeric),
	})
	.passthrough();

export const inferNumberValidation = z
	.object({
		is_valid: maybe(z.boolean()),
		type: maybe(z.string()),
		check_digit_passed: maybe(z.boolean()),
		// Present when invalid: why.
		reason: maybe(z.string()),
		parsed_number: maybe(z.string()),
	})
	.passthrough();

export const inferNumberAttributes = z
	.object({
		number_type: maybe(numberType),
		validation: maybe(inferNumberValidation),
		shipping_line: z
			.object({
				decision: shippingLineDecision,
				selected: maybe(shippingLinePrediction),
				// Ranked by confidence; may be filled even for `no_prediction`.
				candidates: maybe(z.array(shippingLinePrediction)),
			})
			.passthrough(),
	})
	.passthrough();

export const inferNumberResult = resourceOf('infer_number_results', inferNumberAttributes);

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// shipping_line (docs/service.md, "Shipping lines"): a line the account can track, and by which
// kinds of number.

export const shippingLineAttributes = z
	.object({
		scac: z.string(),
		name: maybe(z.string()),
		short_name: maybe(z.string()),
		alternative_scacs: maybe(textList),
		bill_of_lading_tracking_support: maybe(z.boolean()),
		booking_number_tracking_support: maybe(z.boolean()),
		container_number_tracking_support: maybe(z.boolean()),
	})
	.passthrough();

export const shippingLine = resourceOf('shipping_line', shippingLineAttributes);

// ---------------------------------------------------------------------------------------------
// search result (docs/service.md, "Search"): a shipment, a container (`cargo`) or a tracking
// request, with the same attributes whatever it is.

export const searchResultAttributes = z
	.object({
		entity_type: maybe(z.string()),
		number: maybe(z.string()),
		shipment_id: maybe(z.string()),
		scac: maybe(z.string()),
		port_of_lading_name: maybe(z.string()),
		port_of_discharge_name: maybe(z.string()),
		containers_count: maybe(numeric),
		tracking_stopped: maybe(z.boolean()),
		tracking_stopped_reason: maybe(openEnum(LINE_TRACKING_STOPPED_REASONS)),
		status: maybe(z.string()),
		failed_reason: maybe(z.string()),
		ref_numbers: maybe(textList),
		created_at: maybe(isoDateTime),
		updated_at: maybe(isoDateTime),
	})
	.passthrough();

/** Its type is an open set too (`shipment`, `cargo`, `tracking_request` today). */
export const searchResult = resourceObject.extend({
	type: z.string(),
	attributes: searchResultAttributes,
});

/** Schemas of the resources above by `type`, to check records found in `included`. */
export const resourceSchemasByType: Readonly<Record<string, ResourceSchema>> = {
	transport_event: transportEvent,
	shipment,
	container,
	port,
	metro_area: metroArea,
	terminal,
	rail_terminal: railTerminal,
	vessel,
	raw_event: rawEvent,
	tracking_request: trackingRequest,
	webhook,
	shipping_line: shippingLine,
	infer_number_results: inferNumberResult,
	route,
	route_location: routeLocation,
};

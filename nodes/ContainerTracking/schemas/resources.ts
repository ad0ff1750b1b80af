import { z } from 'zod';

import {
	links,
	relationship,
	resourceId,
	toMany,
	toOne,
	toOneOrNull,
	type ResourceSchema,
} from './jsonApi';

/*
 * One schema per resource of the interface (section 2) plus the resources the service notes
 * describe. Only what the interface's "Required:" lines or the service notes name is required;
 * every other attribute is optional, but must have the documented type and nullability when
 * present. Unknown fields pass through.
 */

// ---------------------------------------------------------------------------------------------
// Scalars

/** ISO 8601 date-time with `Z` or a numeric offset ("2020-04-04T16:13:35-07:00"). */
export const isoDateTime = z.string().datetime({ offset: true });

/** ISO 8601 calendar date ("2020-03-03"). */
export const isoDate = z.string().date();

/** IANA time zone name. Not checked against the zone database (it changes over time). */
export const ianaTimeZone = z.string().min(1);

/** UN/LOCODE such as `USOAK`: format not checked, carriers send odd codes. */
export const unLocode = z.string();

/** Latitude or longitude. Notifications send them as numeric strings ("40.684996498"). */
export const coordinate = z.union([
	z.number(),
	z.string().regex(/^-?\d+(\.\d+)?$/, 'Expected a number or a numeric string'),
]);

/** The original source of an event or of a change. */
export const dataSource = z.enum(['shipping_line', 'terminal', 'ais']);

// ---------------------------------------------------------------------------------------------
// transport_event (2.1)

export const transportEventAttributes = z
	.object({
		// Event names are an open set (service notes): any string.
		event: z.string(),
		voyage_number: z.string().nullable(),
		timestamp: isoDateTime.nullable(),
		timezone: ianaTimeZone.nullable(),
		location_locode: unLocode.nullable(),
		created_at: isoDateTime,
		data_source: dataSource,
	})
	.partial()
	.passthrough();

export const transportEvent = z
	.object({
		id: resourceId,
		type: z.literal('transport_event'),
		attributes: transportEventAttributes.optional(),
		// Deliveries of estimated events carry the event without relationships
		// (fixtures/notifications/container.transport.estimated.vessel_arrived.json).
		relationships: z
			.object({
				shipment: toOne(['shipment']),
				container: toOne(['container']),
				vessel: toOneOrNull(['vessel']),
				location: toOneOrNull(['port', 'metro_area']),
				terminal: toOneOrNull(['terminal', 'rail_terminal']),
			})
			.partial()
			.passthrough()
			.optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// shipment (2.2)

export const lineTrackingStoppedReason = z.enum([
	'all_containers_terminated',
	'past_arrival_window',
	'past_full_out_window',
	'no_updates_at_line',
	'cancelled_by_user',
	'booking_cancelled',
]);

export const shipmentAttributes = z
	.object({
		bill_of_lading_number: z.string(),
		normalized_number: z.string().optional(),
		ref_numbers: z.array(z.string()).nullable().optional(),
		created_at: isoDateTime.optional(),
		tags: z.array(z.string()).optional(),
		port_of_lading_locode: unLocode.nullable().optional(),
		port_of_discharge_locode: unLocode.nullable().optional(),
		destination_locode: unLocode.nullable().optional(),
		port_of_lading_name: z.string().nullable().optional(),
		port_of_discharge_name: z.string().nullable().optional(),
		destination_name: z.string().nullable().optional(),
		shipping_line_scac: z.string().optional(),
		shipping_line_name: z.string().optional(),
		shipping_line_short_name: z.string().optional(),
		customer_name: z.string().nullable().optional(),
		pod_vessel_name: z.string().nullable().optional(),
		pod_vessel_imo: z.string().nullable().optional(),
		pod_voyage_number: z.string().nullable().optional(),
		pol_etd_at: isoDateTime.nullable().optional(),
		pol_atd_at: isoDateTime.nullable().optional(),
		pod_eta_at: isoDateTime.nullable().optional(),
		pod_original_eta_at: isoDateTime.nullable().optional(),
		pod_ata_at: isoDateTime.nullable().optional(),
		destination_eta_at: isoDateTime.nullable().optional(),
		destination_ata_at: isoDateTime.nullable().optional(),
		pol_timezone: ianaTimeZone.nullable().optional(),
		pod_timezone: ianaTimeZone.nullable().optional(),
		destination_timezone: ianaTimeZone.nullable().optional(),
		line_tracking_last_attempted_at: isoDateTime.nullable().optional(),
		line_tracking_last_succeeded_at: isoDateTime.nullable().optional(),
		line_tracking_stopped_at: isoDateTime.nullable().optional(),
		line_tracking_stopped_reason: lineTrackingStoppedReason.nullable().optional(),
	})
	.passthrough();

export const shipmentRelationships = z
	.object({
		destination: toOneOrNull(['port', 'metro_area']),
		port_of_lading: toOneOrNull(['port']),
		port_of_discharge: toOneOrNull(['port']),
		containers: toMany(['container']),
		// The interface does not mark these three nullable, but every notification fixture has
		// shipments with `data: null` here (e.g. container.created.json).
		pod_terminal: toOneOrNull(['terminal']),
		destination_terminal: toOneOrNull(['terminal', 'rail_terminal']),
		line_tracking_stopped_by_user: toOneOrNull(['user']),
	})
	.partial()
	.passthrough();

export const shipment = z
	.object({
		id: resourceId,
		type: z.literal('shipment'),
		attributes: shipmentAttributes,
		relationships: shipmentRelationships,
		links: links.extend({ self: z.string().min(1) }),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// terminal_hold (2.9) and terminal_fee (2.10)

/** Case-sensitive: `USDA`, `VACIS`, `TMF` are uppercase, the rest lowercase. */
export const terminalHoldName = z.enum(['freight', 'customs', 'USDA', 'VACIS', 'TMF', 'other']);

/** `hold` is active, `pending` is expected. A cleared hold leaves the array (no `released`). */
export const terminalHoldStatus = z.enum(['hold', 'pending']);

export const terminalHold = z
	.object({
		name: terminalHoldName,
		status: terminalHoldStatus,
		// Raw terminal text: show it to people, never automate on it.
		description: z.string().nullable().optional(),
	})
	.passthrough();

export const terminalFeeType = z.enum([
	'demurrage',
	'exam',
	'extended_dwell_time',
	'other',
	'total',
]);

export const terminalFee = z
	.object({
		type: terminalFeeType,
		// Local currency; 0 means "reported, amount not posted yet".
		amount: z.number(),
		currency_code: z.string().optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// container (2.3)

export const equipmentType = z.enum(['dry', 'reefer', 'open top', 'flat rack', 'bulk', 'tank']);
export const equipmentLength = z.union([
	z.literal(10),
	z.literal(20),
	z.literal(40),
	z.literal(45),
]);
export const equipmentHeight = z.enum(['standard', 'high_cube']);

/** Section 3.1. */
export const containerStatus = z.enum([
	'new',
	'on_ship',
	'available',
	'not_available',
	'grounded',
	'on_rail',
	'picked_up',
	'off_dock',
	'delivered',
	'dropped',
	'loaded',
	'empty_returned',
	'awaiting_inland_transfer',
]);

/** The three last free days that `pickup_lfd` is coalesced from (line, terminal, rail). */
export const importDeadlines = z
	.object({
		pickup_lfd_terminal: isoDateTime.nullable().optional(),
		pickup_lfd_rail: isoDateTime.nullable().optional(),
		pickup_lfd_line: isoDateTime.nullable().optional(),
	})
	.passthrough();

export const containerAttributes = z
	.object({
		number: z.string(),
		ref_numbers: z.array(z.string()).optional(),
		equipment_type: equipmentType.nullable().optional(),
		equipment_length: equipmentLength.nullable().optional(),
		equipment_height: equipmentHeight.nullable().optional(),
		weight_in_lbs: z.number().nullable().optional(),
		created_at: isoDateTime.optional(),
		seal_number: z.string().nullable().optional(),
		pickup_lfd: isoDateTime.nullable().optional(),
		pickup_appointment_at: isoDateTime.nullable().optional(),
		availability_known: z.boolean().optional(),
		available_for_pickup: z.boolean().nullable().optional(),
		pod_arrived_at: isoDateTime.nullable().optional(),
		pod_discharged_at: isoDateTime.nullable().optional(),
		pod_full_out_at: isoDateTime.nullable().optional(),
		terminal_checked_at: isoDateTime.nullable().optional(),
		pod_full_out_chassis_number: z.string().nullable().optional(),
		location_at_pod_terminal: z.string().nullable().optional(),
		final_destination_full_out_at: isoDateTime.nullable().optional(),
		empty_terminated_at: isoDateTime.nullable().optional(),
		holds_at_pod_terminal: z.array(terminalHold).optional(),
		fees_at_pod_terminal: z.array(terminalFee).optional(),
		pod_timezone: ianaTimeZone.nullable().optional(),
		final_destination_timezone: ianaTimeZone.nullable().optional(),
		empty_terminated_timezone: ianaTimeZone.nullable().optional(),
		pod_rail_carrier_scac: z.string().nullable().optional(),
		ind_rail_carrier_scac: z.string().nullable().optional(),
		pod_last_tracking_request_at: isoDateTime.nullable().optional(),
		shipment_last_tracking_request_at: isoDateTime.nullable().optional(),
		pod_rail_loaded_at: isoDateTime.nullable().optional(),
		pod_rail_departed_at: isoDateTime.nullable().optional(),
		ind_eta_at: isoDateTime.nullable().optional(),
		ind_ata_at: isoDateTime.nullable().optional(),
		ind_rail_unloaded_at: isoDateTime.nullable().optional(),
		/** Deprecated: use `import_deadlines.pickup_lfd_rail`. */
		ind_facility_lfd_on: isoDateTime.nullable().optional(),
		import_deadlines: importDeadlines.nullable().optional(),
		current_status: containerStatus.optional(),
	})
	.passthrough();

export const containerRelationships = z
	.object({
		shipment: toOne(['shipment']),
		// Not marked nullable in the interface; fixtures send `data: null` for both
		// (api/container.get.json: pickup_facility, notifications/container.created.json:
		// pod_terminal).
		pickup_facility: toOneOrNull(['terminal']),
		pod_terminal: toOneOrNull(['terminal']),
		transport_events: toMany(['transport_event']),
		raw_events: toMany(['raw_event']),
	})
	.partial()
	.passthrough();

export const container = z
	.object({
		id: resourceId,
		type: z.literal('container'),
		attributes: containerAttributes,
		relationships: containerRelationships.optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// port (2.4) and metro_area (2.5)

export const portAttributes = z
	.object({
		name: z.string(),
		code: unLocode,
		state_abbr: z.string().nullable(),
		city: z.string().nullable(),
		country_code: z.string().length(2),
		time_zone: ianaTimeZone,
		latitude: coordinate.nullable(),
		longitude: coordinate.nullable(),
	})
	.partial()
	.passthrough();

export const port = z
	.object({
		id: resourceId,
		type: z.literal('port'),
		attributes: portAttributes.optional(),
		relationships: z.record(z.string(), relationship).optional(),
		links: links.optional(),
	})
	.passthrough();

export const metroAreaAttributes = z
	.object({
		name: z.string(),
		code: unLocode,
		state_abbr: z.string().nullable(),
		country_code: z.string(),
		time_zone: ianaTimeZone,
		latitude: coordinate.nullable(),
		longitude: coordinate.nullable(),
	})
	.partial()
	.passthrough();

export const metroArea = z
	.object({
		id: resourceId,
		type: z.literal('metro_area'),
		attributes: metroAreaAttributes.optional(),
		relationships: z.record(z.string(), relationship).optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// terminal (2.6) and rail_terminal (2.7)

// The interface types these as strings without saying "nullable"; the fixtures send null for
// `smdg_code` and `bic_facility_code` (notifications/container.updated.json), so every optional
// descriptive string of a terminal accepts null.
const optionalText = z.string().nullable().optional();

export const terminalAttributes = z
	.object({
		name: z.string(),
		nickname: optionalText,
		firms_code: optionalText,
		smdg_code: optionalText,
		bic_facility_code: optionalText,
		street: optionalText,
		city: optionalText,
		state: optionalText,
		state_abbr: optionalText,
		zip: optionalText,
		country: optionalText,
	})
	.passthrough();

export const terminal = z
	.object({
		id: resourceId,
		type: z.literal('terminal'),
		attributes: terminalAttributes,
		relationships: z.object({ port: toOne(['port']) }).passthrough(),
		links: links.optional(),
	})
	.passthrough();

export const railTerminalAttributes = z
	.object({
		name: z.string(),
		nickname: optionalText,
		firms_code: optionalText,
	})
	.passthrough();

export const railTerminal = z
	.object({
		id: resourceId,
		type: z.literal('rail_terminal'),
		attributes: railTerminalAttributes,
		relationships: z
			.object({
				port: toOneOrNull(['port']),
				metro_area: toOne(['metro_area']),
			})
			.partial()
			.passthrough()
			.optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// vessel (2.8)

/** One historical position; sent only when `show_positions` is requested. */
export const vesselPosition = z
	.object({
		latitude: z.number(),
		longitude: z.number(),
		heading: z.number().nullable(),
		timestamp: isoDateTime,
		estimated: z.boolean(),
	})
	.partial()
	.passthrough();

export const vesselAttributes = z
	.object({
		name: z.string(),
		imo: z.string().nullable(),
		mmsi: z.string().nullable(),
		latitude: z.number().nullable(),
		longitude: z.number().nullable(),
		nautical_speed_knots: z.number().nullable(),
		navigational_heading_degrees: z.number().nullable(),
		position_timestamp: isoDateTime.nullable(),
		positions: z.array(vesselPosition).nullable(),
	})
	.partial()
	.passthrough();

export const vessel = z
	.object({
		id: resourceId,
		type: z.literal('vessel'),
		attributes: vesselAttributes.optional(),
		relationships: z.record(z.string(), relationship).optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// raw_event (GET /containers/{id}/raw_events; shape from fixtures/api/container.raw_events.json)

// The interface does not show this shape. Values that depend on what the carrier reported are
// nullable; the bookkeeping fields (event, estimated, index, created_at) are not.
export const rawEventAttributes = z
	.object({
		// Raw event names ("empty_out", "vessel_loaded") are an open set.
		event: z.string(),
		estimated: z.boolean(),
		index: z.number().int(),
		created_at: isoDateTime,
		timestamp: isoDateTime.nullable(),
		actual_on: isoDate.nullable(),
		estimated_at: isoDateTime.nullable(),
		actual_at: isoDateTime.nullable(),
		original_event: z.string().nullable(),
		voyage_number: z.string().nullable(),
		location_name: z.string().nullable(),
		location_locode: unLocode.nullable(),
		vessel_name: z.string().nullable(),
		vessel_imo: z.string().nullable(),
		timezone: ianaTimeZone.nullable(),
	})
	.partial()
	.passthrough();

export const rawEvent = z
	.object({
		id: resourceId,
		type: z.literal('raw_event'),
		attributes: rawEventAttributes.optional(),
		relationships: z
			.object({
				// Undocumented: any type, any cardinality, or null.
				location: relationship,
				vessel: toOneOrNull(['vessel']),
			})
			.partial()
			.passthrough()
			.optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// tracking_request (service notes "Tracking requests")

export const requestType = z.enum(['container', 'bill_of_lading', 'booking']);

export const trackingRequestStatus = z.enum([
	'pending',
	'awaiting_manifest',
	'created',
	'failed',
	'tracking_stopped',
]);

export const trackingRequestFailedReason = z.enum([
	'not_found',
	'invalid_number',
	'duplicate',
	'booking_cancelled',
	'expired',
	'retries_exhausted',
	'shipping_line_unreachable',
	'unrecognized_response',
	'internal_processing_error',
	'data_unavailable',
]);

export const trackingRequestAttributes = z
	.object({
		// What was asked for and where it stands: present in every answer and delivery.
		request_number: z.string(),
		request_type: requestType,
		scac: z.string(),
		status: trackingRequestStatus,
		// The 201 answer (api/tracking_request.create.201.json) lacks shipment_tags, is_retrying
		// and retry_count, so everything below is optional.
		ref_numbers: z.array(z.string()).nullable().optional(),
		shipment_tags: z.array(z.string()).nullable().optional(),
		failed_reason: trackingRequestFailedReason.nullable().optional(),
		created_at: isoDateTime.optional(),
		updated_at: isoDateTime.optional(),
		is_retrying: z.boolean().optional(),
		retry_count: z.number().int().nonnegative().nullable().optional(),
	})
	.passthrough();

export const trackingRequest = z
	.object({
		id: resourceId,
		type: z.literal('tracking_request'),
		attributes: trackingRequestAttributes,
		relationships: z
			.object({
				// Null until a shipment exists.
				tracked_object: toOneOrNull(['shipment']).optional(),
				// `customer` (type `party`) and `user` appear; their shape is not documented.
				customer: relationship.optional(),
				user: relationship.optional(),
			})
			.passthrough()
			.optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// webhook (service notes "Webhooks")

export const webhookHeader = z.object({ name: z.string(), value: z.string() }).passthrough();

export const webhookAttributes = z
	.object({
		url: z.string().url(),
		active: z.boolean().optional(),
		// Event names are an open set: any string.
		events: z.array(z.string()).optional(),
		// Returned on creation; store it to verify delivery signatures.
		secret: z.string().optional(),
		headers: z.array(webhookHeader).nullable().optional(),
		created_at: isoDateTime.optional(),
	})
	.passthrough();

export const webhook = z
	.object({
		id: resourceId,
		type: z.literal('webhook'),
		attributes: webhookAttributes,
		relationships: z.record(z.string(), relationship).optional(),
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------
// infer_number result (4.2)

export const numberType = z.enum(['container', 'bill_of_lading', 'booking']);

export const shippingLineDecision = z.enum(['auto_select', 'needs_confirmation', 'no_prediction']);

export const shippingLinePrediction = z
	.object({
		scac: z.string(),
		name: z.string(),
		confidence: z.number().min(0).max(1),
	})
	.passthrough();

// Fields the table of 4.2 lists without a condition are required; those it says are "present
// when ..." or "may be absent" are optional.
export const inferNumberValidation = z
	.object({
		is_valid: z.boolean().nullable(),
		type: z.string(),
		check_digit_passed: z.boolean().optional(),
		// Documented as a string present when invalid; the fixture sends null when valid.
		reason: z.string().nullable().optional(),
		// Not in the interface; the fixture sends null.
		parsed_number: z.string().nullable().optional(),
	})
	.passthrough();

export const inferNumberAttributes = z
	.object({
		number_type: numberType,
		validation: inferNumberValidation,
		shipping_line: z
			.object({
				decision: shippingLineDecision,
				selected: shippingLinePrediction.optional(),
				// Ranked by confidence; may be filled even for `no_prediction`.
				candidates: z.array(shippingLinePrediction),
			})
			.passthrough(),
	})
	.passthrough();

export const inferNumberResult = z
	.object({
		id: resourceId,
		type: z.literal('infer_number_results'),
		attributes: inferNumberAttributes,
		links: links.optional(),
	})
	.passthrough();

// ---------------------------------------------------------------------------------------------

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
	infer_number_results: inferNumberResult,
};

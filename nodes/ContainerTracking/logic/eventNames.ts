/**
 * Every webhook event name the service documents (service notes: 43 names). The set is open:
 * new names may appear, so code that reads deliveries must pass unknown names on.
 */
export const TRACKING_REQUEST_EVENTS = [
	'tracking_request.succeeded',
	'tracking_request.failed',
	'tracking_request.awaiting_manifest',
	'tracking_request.tracking_stopped',
] as const;

export const TRANSPORT_EVENTS = [
	'container.transport.vessel_arrived',
	'container.transport.estimated.vessel_arrived',
	'container.transport.vessel_discharged',
	'container.transport.vessel_loaded',
	'container.transport.vessel_departed',
	'container.transport.estimated.vessel_departed',
	'container.transport.vessel_berthed',
	'container.transport.rail_departed',
	'container.transport.rail_arrived',
	'container.transport.rail_loaded',
	'container.transport.rail_unloaded',
	'container.transport.transshipment_arrived',
	'container.transport.transshipment_discharged',
	'container.transport.transshipment_loaded',
	'container.transport.transshipment_departed',
	'container.transport.feeder_arrived',
	'container.transport.feeder_discharged',
	'container.transport.feeder_loaded',
	'container.transport.feeder_departed',
	'container.transport.empty_out',
	'container.transport.full_in',
	'container.transport.full_out',
	'container.transport.empty_in',
	'container.transport.arrived_at_inland_destination',
	'container.transport.estimated.arrived_at_inland_destination',
	'container.transport.available',
	'container.transport.not_available',
	'container.transport.delivered',
] as const;

export const DEADLINE_EVENTS = [
	'container.pickup_lfd.changed',
	'container.pickup_lfd_line.changed',
	'container.pickup_lfd_terminal.changed',
	'container.pickup_lfd_rail.changed',
	'container.pickup_appointment.changed',
] as const;

export const OTHER_EVENTS = [
	'shipment.estimated.arrival',
	'container.created',
	'container.updated',
	'container.pod_terminal_changed',
	'document.extracted',
	'document.extraction_failed',
] as const;

export const EVENT_NAMES: readonly string[] = [
	...TRACKING_REQUEST_EVENTS,
	...TRANSPORT_EVENTS,
	...DEADLINE_EVENTS,
	...OTHER_EVENTS,
];

/** Needs the Rail Plan entitlement (interface 5.4). */
export const RAIL_PLAN_EVENTS: readonly string[] = ['container.pickup_lfd_rail.changed'];

import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * Every webhook event name the service documents (43). The set is open: new names may appear,
 * so code that reads deliveries must pass unknown names on.
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

export type KnownEventName =
	| (typeof TRACKING_REQUEST_EVENTS)[number]
	| (typeof TRANSPORT_EVENTS)[number]
	| (typeof DEADLINE_EVENTS)[number]
	| (typeof OTHER_EVENTS)[number];

/**
 * What each event is called in the node and what it means. A `Record` over every known name, so
 * a name left out or misspelt does not compile; its order is the order of the pickers: the
 * most used event first, then a container's journey from tracking to the empty return
 * (test/unit/eventNames.test.ts checks both). Estimated events come just before what they
 * estimate.
 */
const EVENT_TEXTS: Record<KnownEventName, { label: string; meaning: string }> = {
	'container.updated': {
		label: 'Container Updated — holds, fees, last free day, availability',
		meaning:
			'Something the port of discharge terminal reports about the container changed: holds, fees, last free day, availability, pickup appointment or location; one item per change',
	},
	'tracking_request.awaiting_manifest': {
		label: 'Tracking Request Awaiting Manifest',
		meaning:
			'The shipping line knows the number but has not published its manifest yet; the service keeps checking',
	},
	'tracking_request.succeeded': {
		label: 'Tracking Request Succeeded',
		meaning: 'The service found the shipment for a tracking request and now tracks its containers',
	},
	'tracking_request.failed': {
		label: 'Tracking Request Failed',
		meaning: 'The service could not track the number; the tracking request says why',
	},
	'tracking_request.tracking_stopped': {
		label: 'Tracking Stopped',
		meaning:
			'The service stopped checking the shipment with the shipping line, e.g. every container was returned or the line stopped sending updates',
	},
	'container.created': {
		label: 'Container Added to Shipment',
		meaning: 'A tracked shipment gained a container',
	},
	'container.transport.empty_out': {
		label: 'Empty Container Picked Up',
		meaning: 'The empty container left the depot to be loaded by the shipper',
	},
	'container.transport.full_in': {
		label: 'Full Container Gated In at Port of Loading',
		meaning: 'The loaded container entered the terminal at the port of loading',
	},
	'container.transport.vessel_loaded': {
		label: 'Loaded on Vessel at Port of Loading',
		meaning: 'The container was loaded on the vessel at the port of loading',
	},
	'container.transport.estimated.vessel_departed': {
		label: 'Estimated Vessel Departure Changed',
		meaning: 'When the vessel is expected to leave the port of loading changed',
	},
	'container.transport.vessel_departed': {
		label: 'Vessel Departed Port of Loading',
		meaning: 'The vessel carrying the container left the port of loading',
	},
	'container.transport.transshipment_arrived': {
		label: 'Arrived at Transshipment Port',
		meaning: 'The container arrived at a port where it changes vessels',
	},
	'container.transport.transshipment_discharged': {
		label: 'Discharged at Transshipment Port',
		meaning: 'The container was unloaded at a port where it changes vessels',
	},
	'container.transport.transshipment_loaded': {
		label: 'Loaded at Transshipment Port',
		meaning: 'The container was loaded on its next vessel at a transshipment port',
	},
	'container.transport.transshipment_departed': {
		label: 'Departed Transshipment Port',
		meaning: 'The container left a transshipment port on its next vessel',
	},
	'container.transport.feeder_arrived': {
		label: 'Feeder Vessel Arrived',
		meaning: 'The feeder vessel carrying the container (a short leg to or from a hub) arrived',
	},
	'container.transport.feeder_discharged': {
		label: 'Discharged from Feeder Vessel',
		meaning: 'The container was unloaded from a feeder vessel',
	},
	'container.transport.feeder_loaded': {
		label: 'Loaded on Feeder Vessel',
		meaning: 'The container was loaded on a feeder vessel',
	},
	'container.transport.feeder_departed': {
		label: 'Feeder Vessel Departed',
		meaning: 'The feeder vessel carrying the container left port',
	},
	'shipment.estimated.arrival': {
		label: 'Estimated Shipment Arrival Changed',
		meaning: "The shipment's expected arrival at the port of discharge changed",
	},
	'container.transport.estimated.vessel_arrived': {
		label: 'Estimated Vessel Arrival Changed',
		meaning: 'When the vessel carrying the container is expected at the port of discharge changed',
	},
	'container.transport.vessel_arrived': {
		label: 'Vessel Arrived at Port of Discharge',
		meaning: 'The vessel carrying the container arrived at the port of discharge',
	},
	'container.transport.vessel_berthed': {
		label: 'Vessel Berthed at Port of Discharge',
		meaning: 'The vessel carrying the container tied up at its berth at the port of discharge',
	},
	'container.transport.vessel_discharged': {
		label: 'Discharged at Port of Discharge',
		meaning: 'The container was unloaded from the vessel at the port of discharge',
	},
	'container.pod_terminal_changed': {
		label: 'Port of Discharge Terminal Changed',
		meaning: 'The terminal at the port of discharge that handles the container changed',
	},
	'container.transport.available': {
		label: 'Available for Pickup',
		meaning: 'The terminal reports the container available for pickup',
	},
	'container.transport.not_available': {
		label: 'Not Available for Pickup',
		meaning: 'The terminal reports the container no longer available for pickup',
	},
	'container.pickup_lfd.changed': {
		label: 'Last Free Day Changed',
		meaning:
			"The last day to pick the container up without charges changed (the line's, else the terminal's, else the rail's)",
	},
	'container.pickup_lfd_line.changed': {
		label: 'Line Last Free Day Changed',
		meaning: "The shipping line's last free day (before demurrage) changed",
	},
	'container.pickup_lfd_terminal.changed': {
		label: 'Terminal Last Free Day Changed',
		meaning: "The terminal's last free day (before storage charges) changed",
	},
	'container.pickup_lfd_rail.changed': {
		label: 'Rail Last Free Day Changed (Rail Plan)',
		meaning:
			"The rail carrier's last free day at the inland rail terminal changed; needs the Rail Plan entitlement",
	},
	'container.pickup_appointment.changed': {
		label: 'Pickup Appointment Changed',
		meaning: 'The appointment to pick the container up was made, moved or cancelled',
	},
	'container.transport.rail_loaded': {
		label: 'Loaded on Rail',
		meaning: 'The container was loaded onto a railcar',
	},
	'container.transport.rail_departed': {
		label: 'Rail Departed',
		meaning: 'The railcar carrying the container departed',
	},
	'container.transport.rail_arrived': {
		label: 'Rail Arrived',
		meaning: 'The container arrived at a rail terminal, at every stop including interchanges',
	},
	'container.transport.estimated.arrived_at_inland_destination': {
		label: 'Estimated Inland Arrival Changed',
		meaning: 'When the container is expected at its inland destination terminal changed',
	},
	'container.transport.arrived_at_inland_destination': {
		label: 'Arrived at Inland Destination',
		meaning: 'The container arrived at its inland destination terminal',
	},
	'container.transport.rail_unloaded': {
		label: 'Unloaded from Rail',
		meaning: 'The container was unloaded from a railcar',
	},
	'container.transport.full_out': {
		label: 'Full Container Picked Up',
		meaning:
			'The loaded container left the rail terminal, or the ocean terminal when no rail is involved',
	},
	'container.transport.delivered': {
		label: 'Container Delivered',
		meaning: 'The container was delivered to its final destination',
	},
	'container.transport.empty_in': {
		label: 'Empty Container Returned',
		meaning:
			'The empty container was returned to the rail terminal, or the ocean terminal when no rail is involved',
	},
	'document.extracted': {
		label: 'Document Extracted',
		meaning: 'The service read the data of a document sent to it',
	},
	'document.extraction_failed': {
		label: 'Document Extraction Failed',
		meaning: 'The service could not read the data of a document sent to it',
	},
};

/**
 * The event options of every picker: Events of the trigger, of Webhook → Create and Update, and
 * the event filter of Get Transport Events. `action` is the line n8n's nodes panel shows for the
 * trigger (it would otherwise start-case the label and drop its punctuation).
 */
export const EVENT_OPTIONS: INodePropertyOptions[] = Object.entries(EVENT_TEXTS).map(
	([name, { label, meaning }]) => ({
		name: label,
		value: name,
		description: `${meaning} (${name})`,
		action: `On ${label}`,
	}),
);

const LABELS = new Map(EVENT_OPTIONS.map((option) => [option.value, option.name]));

/** The readable label of an event name; undefined for a name the service added since. */
export function eventLabel(name: string): string | undefined {
	return LABELS.get(name);
}

/**
 * `item` with `event_label` right after its `event` when that event has a label. An unknown
 * event, or an item that already has an `event_label` of its own, is returned as it is.
 */
export function withEventLabel<T extends Record<string, unknown>>(item: T): T {
	const label = typeof item.event === 'string' ? eventLabel(item.event) : undefined;
	if (label === undefined || 'event_label' in item) return item;
	const labelled: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(item)) {
		labelled[key] = value;
		if (key === 'event') labelled.event_label = label;
	}
	return labelled as T;
}

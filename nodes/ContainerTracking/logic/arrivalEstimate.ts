/**
 * What an estimated-arrival notification tells a customer, under the same names whichever of the
 * service's ways of saying it the delivery took (docs/service.md, "Estimated arrivals"):
 *
 * | Delivery                                                       | arrival              | new ETA from                | previous ETA              |
 * |----------------------------------------------------------------|----------------------|-----------------------------|---------------------------|
 * | `shipment.estimated.arrival`                                   | `port_of_discharge`  | `estimated_timestamp`       | null (not sent)           |
 * | `container.transport.estimated.vessel_arrived`                 | `port_of_discharge`  | the event's `timestamp`     | null (not sent)           |
 * | `container.transport.estimated.arrived_at_inland_destination`  | `inland_destination` | the event's `timestamp`     | null (not sent)           |
 * | `container.updated`, change of `pod_eta_at`                    | `port_of_discharge`  | the change's new value      | the change's old value    |
 * | `container.updated`, change of `ind_eta_at` or `destination_eta_at` | `inland_destination` | the change's new value | the change's old value    |
 *
 * The time zone to read the ETA in: an estimated event's own `timezone` (it is the place's), else
 * the arrival place's zone from the records at hand (the shipment's `pod_timezone` or
 * `destination_timezone`, the container's `final_destination_timezone`, the port or metro area of
 * that code). A `container.updated` event's `timezone` is where the box is handled, not where it
 * arrives: it is the last resort there. `arrived_at` is the actual arrival when the records say
 * it happened (the shipment's `pod_ata_at`, the box's `ind_ata_at` or the shipment's
 * `destination_ata_at`): an estimate then moves to what happened, and tells no one it moved.
 * Nothing is invented: what no record says is null.
 */

type Attributes = Record<string, unknown>;

export type ArrivalKind = 'port_of_discharge' | 'inland_destination';

export interface ArrivalEstimate {
	arrival: ArrivalKind;
	/** The new estimated arrival (ISO 8601, UTC), as the service sent it. */
	estimated_arrival_at: string | null;
	/** The estimate it replaces, only when the delivery says it (a changeset's old value). */
	previous_estimated_arrival_at: string | null;
	/** IANA zone to read both in. */
	time_zone: string | null;
	/** Where: UN/LOCODE and name of the port of discharge or inland destination. */
	locode: string | null;
	place_name: string | null;
	bill_of_lading_number: string | null;
	/** When that arrival happened, if the records at hand say it did. */
	arrived_at: string | null;
}

/** Event names whose items carry an arrival estimate, and the arrival each is of. */
export const ARRIVAL_EVENTS: Readonly<Record<string, ArrivalKind>> = {
	'shipment.estimated.arrival': 'port_of_discharge',
	'container.transport.estimated.vessel_arrived': 'port_of_discharge',
	'container.transport.estimated.arrived_at_inland_destination': 'inland_destination',
};

/** `container.updated` attributes that are arrival estimates, and the arrival each is of. */
export const ARRIVAL_FIELDS: Readonly<Record<string, ArrivalKind>> = {
	pod_eta_at: 'port_of_discharge',
	ind_eta_at: 'inland_destination',
	destination_eta_at: 'inland_destination',
};

export interface ArrivalSources {
	event: string;
	/** The reference object's attributes (estimated event, transport event or container_updated_event). */
	reference?: Attributes;
	/** For `container.updated`: the change of one attribute. */
	change?: { field: string; old_value: unknown; new_value: unknown };
	shipment?: Attributes;
	container?: Attributes;
	/** Ports and metro areas the delivery includes (their attributes). */
	places?: Attributes[];
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function first(...values: unknown[]): string | null {
	for (const value of values) {
		const found = text(value);
		if (found) return found;
	}
	return null;
}

/** Which arrival an item of `event` (for `container.updated`, its `change`) is about, if any. */
export function arrivalOf(event: string, change?: { field: string }): ArrivalKind | undefined {
	const table = event === 'container.updated' ? ARRIVAL_FIELDS : ARRIVAL_EVENTS;
	const key = event === 'container.updated' ? change?.field : event;
	return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The arrival estimate an item of this delivery carries; undefined when it is about no arrival. */
export function arrivalEstimate(sources: ArrivalSources): ArrivalEstimate | undefined {
	const { event, reference = {}, change, shipment = {}, container = {}, places = [] } = sources;
	const fromChange = event === 'container.updated';
	const arrival = arrivalOf(event, change);
	if (!arrival) return undefined;
	const port = arrival === 'port_of_discharge';
	const locode = first(
		fromChange ? undefined : reference.location_locode,
		port ? shipment.port_of_discharge_locode : shipment.destination_locode,
	);
	const place = locode ? places.find((record) => text(record.code) === locode) : undefined;
	const placeZone = first(
		port ? shipment.pod_timezone : undefined,
		// The rail carrier's estimate is read in the box's final destination zone (docs/service.md,
		// "Containers"), the line's in the shipment's destination zone.
		!port && change?.field !== 'destination_eta_at'
			? container.final_destination_timezone
			: undefined,
		port ? undefined : shipment.destination_timezone,
		port ? container.pod_timezone : undefined,
		place?.time_zone,
	);
	return {
		arrival,
		estimated_arrival_at: fromChange
			? text(change!.new_value)
			: first(reference.estimated_timestamp, reference.timestamp),
		previous_estimated_arrival_at: fromChange ? text(change!.old_value) : null,
		time_zone: fromChange
			? first(placeZone, reference.timezone)
			: first(reference.timezone, placeZone),
		locode,
		place_name: first(
			port ? shipment.port_of_discharge_name : shipment.destination_name,
			place?.name,
		),
		bill_of_lading_number: text(shipment.bill_of_lading_number),
		arrived_at: port
			? first(shipment.pod_ata_at, container.pod_arrived_at)
			: first(
					change?.field === 'destination_eta_at' ? undefined : container.ind_ata_at,
					shipment.destination_ata_at,
				),
	};
}

import type { IDataObject } from 'n8n-workflow';

import { feesByType, feeTotals } from '../../logic/fees';
import { freshness, staleReadinessNote } from '../../logic/freshness';
import {
	daysUntilLastFreeDay,
	importDeadlines,
	lastFreeDay,
	lastFreeDayDate,
	type LastFreeDayPlace,
} from '../../logic/lastFreeDay';
import { journeyMilestones } from '../../logic/journey';
import { ownership } from '../../logic/ownership';
import { pickupReadiness } from '../../logic/readiness';
import { membersOf } from '../../schemas';
import {
	flattenResource,
	isIdentifier,
	recordName,
	relatedRecord,
	type IncludedIndex,
} from '../../records/jsonApi';
import type { JsonApiResource, ContainerAttributes } from '../../schemas';

/**
 * The name of the facility whose day the last free day is, from what the answer included: the
 * port terminal (else the port of discharge's name), or the inland pickup facility (else the
 * shipment's destination terminal, else its destination's name). Null when none was included.
 */
function facilityName(
	container: JsonApiResource,
	included: IncludedIndex,
	place: LastFreeDayPlace | null,
): string | null {
	const shipment = relatedRecord(container, 'shipment', included);
	const shipmentText = (name: string): string | null => {
		const value = membersOf(shipment?.attributes)[name];
		return typeof value === 'string' && value.trim() !== '' ? value : null;
	};
	if (place === 'port_terminal')
		return (
			recordName(relatedRecord(container, 'pod_terminal', included)) ??
			shipmentText('port_of_discharge_name')
		);
	if (place === 'inland_destination')
		return (
			recordName(relatedRecord(container, 'pickup_facility', included)) ??
			(shipment ? recordName(relatedRecord(shipment, 'destination_terminal', included)) : null) ??
			shipmentText('destination_name')
		);
	return null;
}

/**
 * A container as users want it, in the order people read it: its number and status, whose it is
 * (customer, bill of lading, references, tags), whether it
 * is ready for pickup and why not, whether its data is fresh (logic/freshness.ts), its last free
 * day (date, days left, whose day it is, all three deadlines and the earliest), holds, customs,
 * pickup and rail (logic/journey.ts), fees, when
 * the terminal was checked and whether tracking stopped — worked out by the interface's rules — then its attributes and related records as the
 * service sent them, and identifiers last.
 *
 * The order matters: n8n's Table view shows the first 40 columns and its JSON view reads top
 * down, and a container has some 45 attributes and relationships. Where an attribute has the
 * name of a worked-out field, the worked-out value stays.
 */
export function containerItem(
	container: JsonApiResource,
	included: IncludedIndex,
	now: Date,
): IDataObject {
	const attributes = membersOf(container.attributes) as ContainerAttributes;
	const readiness = pickupReadiness(attributes);
	const fees = feeTotals(attributes.fees_at_pod_terminal);
	const deadline = lastFreeDay(attributes);
	const shipment = relatedRecord(container, 'shipment', included);
	const fresh = freshness(attributes, shipment ? membersOf(shipment.attributes) : null, now);
	const flat = flattenResource(container, included);
	const workedOut: IDataObject = {
		// A container without its number (warned about) has no `number` member, as before.
		...('number' in flat ? { number: flat.number } : {}),
		...('current_status' in flat ? { current_status: flat.current_status } : {}),
		// Whose box it is, for routing alerts (logic/ownership.ts): null where the shipment was not included.
		...ownership(shipment ? membersOf(shipment.attributes) : undefined, attributes),
		ready_for_pickup: readiness.ready_for_pickup,
		pickup_status: readiness.pickup_status,
		// On stale data the readiness is what the terminal last said: the reason says so first.
		pickup_status_reason: staleReadinessNote(fresh) + readiness.reason,
		data_fresh: fresh.data_fresh,
		data_stale_since: fresh.data_stale_since,
		data_stale_reason: fresh.data_stale_reason,
		last_free_day_date: lastFreeDayDate(deadline.last_free_day, deadline.last_free_day_timezone),
		days_until_last_free_day: daysUntilLastFreeDay(
			deadline.last_free_day,
			deadline.last_free_day_timezone,
			now,
		),
		last_free_day_facility: facilityName(container, included, deadline.last_free_day_place),
		last_free_day_timezone: deadline.last_free_day_timezone,
		last_free_day: deadline.last_free_day,
		last_free_day_source: deadline.last_free_day_source,
		...importDeadlines(attributes),
		active_holds: readiness.active_holds,
		pending_holds: readiness.pending_holds,
		// Only when there are some: a hold whose status no table lists is named, never dropped.
		...(readiness.holds_with_unknown_status.length > 0
			? { holds_with_unknown_status: readiness.holds_with_unknown_status as IDataObject[] }
			: {}),
		// Customs, pickup and rail, as the desk asks (logic/journey.ts).
		...journeyMilestones(attributes),
		...fees,
		fees_by_type: feesByType(attributes.fees_at_pod_terminal),
		terminal_checked_at: fresh.terminal_checked_at,
		terminal_checked_days_ago: fresh.terminal_checked_days_ago,
		tracking_stopped: fresh.tracking_stopped,
		tracking_stopped_at: fresh.tracking_stopped_at,
		tracking_stopped_reason: fresh.tracking_stopped_reason,
	};
	const item: IDataObject = { ...workedOut };
	for (const [name, value] of Object.entries(flat))
		if (!(name in item) && !isIdentifier(name)) item[name] = value;
	for (const [name, value] of Object.entries(flat))
		if (!(name in item) && isIdentifier(name)) item[name] = value;
	return item;
}

/**
 * A container as Container → Get gives it, read from the service, with `container_as_of`: the
 * moment the read was asked, to the millisecond. The service served the state it gives at that
 * moment or later, so of two reads the later-asked one never holds an older state than the
 * service had when the other was asked; a view that keeps, of each box, the state with the latest
 * `container_as_of` ends on the newest (docs/design/trigger.md, "The newest state wins").
 */
export function readContainerItem(
	container: JsonApiResource,
	included: IncludedIndex,
	{ askedAt, answeredAt }: { askedAt: Date; answeredAt: Date },
): IDataObject {
	return {
		...containerItem(container, included, answeredAt),
		container_as_of: askedAt.toISOString(),
	};
}

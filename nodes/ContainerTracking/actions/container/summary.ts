import type { IDataObject } from 'n8n-workflow';

import { feeTotals } from '../../logic/fees';
import { daysUntilLastFreeDay, lastFreeDay, lastFreeDayDate } from '../../logic/lastFreeDay';
import { pickupReadiness } from '../../logic/readiness';
import { membersOf } from '../../schemas';
import { flattenResource, type IncludedIndex } from '../../records/jsonApi';
import type { JsonApiResource, ContainerAttributes } from '../../schemas';

/**
 * A container as users want it: the answers worked out by the interface's rules first — is it
 * ready for pickup, when is its last free day and how many days are left, what does it owe,
 * which holds block it — then its attributes and related records as the service sent them.
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
	const flat = flattenResource(container, included);
	const workedOut: IDataObject = {
		id: flat.id,
		// A container without its number (warned about) has no `number` member, as before.
		...('number' in flat ? { number: flat.number } : {}),
		ready_for_pickup: readiness.ready_for_pickup,
		pickup_status: readiness.pickup_status,
		pickup_status_reason: readiness.reason,
		last_free_day_date: lastFreeDayDate(deadline.last_free_day, deadline.last_free_day_timezone),
		last_free_day: deadline.last_free_day,
		days_until_last_free_day: daysUntilLastFreeDay(
			deadline.last_free_day,
			deadline.last_free_day_timezone,
			now,
		),
		last_free_day_source: deadline.last_free_day_source,
		last_free_day_timezone: deadline.last_free_day_timezone,
		...fees,
		active_holds: readiness.active_holds,
		pending_holds: readiness.pending_holds,
		// Only when there are some: a hold whose status no table lists is named, never dropped.
		...(readiness.holds_with_unknown_status.length > 0
			? { holds_with_unknown_status: readiness.holds_with_unknown_status as IDataObject[] }
			: {}),
	};
	const item: IDataObject = { ...workedOut };
	for (const [name, value] of Object.entries(flat)) if (!(name in item)) item[name] = value;
	return item;
}

import type { IDataObject } from 'n8n-workflow';

import { feeTotals } from '../../logic/fees';
import { daysUntilLastFreeDay, lastFreeDay } from '../../logic/lastFreeDay';
import { pickupReadiness } from '../../logic/readiness';
import { membersOf, type ContainerAttributes } from '../../schemas';
import { flattenResource, type IncludedIndex, type ResourceLike } from '../../transport/jsonApi';

/**
 * A container as users want it: its attributes and related records, plus the answers worked
 * out by the interface's rules — is it ready for pickup, what does it owe, when is its last
 * free day and how many days are left.
 */
export function containerItem(
	container: ResourceLike,
	included: IncludedIndex,
	now: Date,
): IDataObject {
	const attributes = membersOf(container.attributes) as ContainerAttributes;
	const readiness = pickupReadiness(attributes);
	const fees = feeTotals(attributes.fees_at_pod_terminal);
	const deadline = lastFreeDay(attributes);
	return {
		...flattenResource(container, included),
		ready_for_pickup: readiness.ready_for_pickup,
		pickup_status: readiness.pickup_status,
		pickup_status_reason: readiness.reason,
		active_holds: readiness.active_holds,
		pending_holds: readiness.pending_holds,
		// Only when there are some: a hold whose status no table lists is named, never dropped.
		...(readiness.holds_with_unknown_status.length > 0
			? { holds_with_unknown_status: readiness.holds_with_unknown_status as IDataObject[] }
			: {}),
		...fees,
		last_free_day: deadline.last_free_day,
		last_free_day_source: deadline.last_free_day_source,
		last_free_day_timezone: deadline.last_free_day_timezone,
		days_until_last_free_day: daysUntilLastFreeDay(
			deadline.last_free_day,
			deadline.last_free_day_timezone,
			now,
		),
	};
}

/**
 * The event names the sandbox sends, and accepts in a webhook's `events`: the 43 the service
 * documents (docs/service.md, "Events"), from the nodes' groups.
 */
import {
	DEADLINE_EVENTS,
	EVENT_OPTIONS,
	OTHER_EVENTS,
	TRACKING_REQUEST_EVENTS,
	TRANSPORT_EVENTS,
} from '../../nodes/ContainerTracking/logic/eventNames';

export const EVENT_NAMES: readonly string[] = [
	...TRACKING_REQUEST_EVENTS,
	...TRANSPORT_EVENTS,
	...DEADLINE_EVENTS,
	...OTHER_EVENTS,
];

/** Needs the Rail Plan entitlement: a webhook asking for it without one is refused. */
export const RAIL_PLAN_EVENTS: readonly string[] = ['container.pickup_lfd_rail.changed'];

/**
 * `GET /webhooks/events`: the events this account may subscribe to, by category, each with a
 * description; the Rail Plan's only with it.
 */
export function eventCategories(railPlan: boolean) {
	const described = new Map(
		EVENT_OPTIONS.map((option) => [
			String(option.value),
			String(option.description ?? '').replace(/ \([^()]+\)$/, ''),
		]),
	);
	const categories: Array<[string, string, readonly string[]]> = [
		['tracking-request-events', 'Tracking Request Events', TRACKING_REQUEST_EVENTS],
		['container-transport-events', 'Container Transport Events', TRANSPORT_EVENTS],
		['deadline-events', 'Last Free Day and Deadline Events', DEADLINE_EVENTS],
		['container-and-shipment-events', 'Container and Shipment Events', OTHER_EVENTS],
	];
	return categories.map(([id, name, events]) => ({
		id,
		type: 'webhook_event_category',
		attributes: {
			name,
			events: events
				.filter((event) => railPlan || !RAIL_PLAN_EVENTS.includes(event))
				.map((event) => ({ name: event, description: described.get(event) ?? null })),
		},
	}));
}

/**
 * The event names the sandbox sends, and accepts in a webhook's `events`: the 43 the service
 * documents (docs/service.md, "Events"), from the nodes' groups.
 */
import {
	DEADLINE_EVENTS,
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

/**
 * Where a container is in its journey, read from its milestones (never from `current_status`,
 * which follows them), and the demurrage it owes while it waits past its last free day. The
 * control API refuses a scenario that cannot happen in the box's phase, the world accrues
 * demurrage from here, and the invariants of test/sandbox/invariants.ts check the same rules.
 */
import { daysUntilLastFreeDay } from '../../nodes/ContainerTracking/logic/lastFreeDay';
import type { ContainerAttributes } from './containerChanges';

export type Phase =
	| 'on_ship'
	| 'at_port_terminal'
	| 'on_rail'
	| 'at_inland_facility'
	| 'picked_up'
	| 'empty_returned';

type Milestones = Partial<Record<keyof ContainerAttributes, unknown>>;

const set = (value: unknown) => value !== null && value !== undefined && value !== '';

export function containerPhase(attributes: Milestones): Phase {
	if (set(attributes.empty_terminated_at)) return 'empty_returned';
	if (set(attributes.final_destination_full_out_at) || set(attributes.pod_full_out_at))
		return 'picked_up';
	if (set(attributes.ind_rail_unloaded_at)) return 'at_inland_facility';
	if (set(attributes.pod_rail_loaded_at)) return 'on_rail';
	if (set(attributes.pod_discharged_at)) return 'at_port_terminal';
	return 'on_ship';
}

/** The phases in journey order: a box never goes back to an earlier one. */
export const PHASE_ORDER: readonly Phase[] = [
	'on_ship',
	'at_port_terminal',
	'on_rail',
	'at_inland_facility',
	'picked_up',
	'empty_returned',
];

/** Gone from every facility it could be picked up at: no hold, availability or fee can start. */
export function hasLeft(attributes: Milestones): boolean {
	const phase = containerPhase(attributes);
	return phase === 'picked_up' || phase === 'empty_returned';
}

/**
 * Waiting where it is picked up (the port terminal, or the inland facility of a rail move), so
 * that its last free day can pass. A rail box at the port waits for its train, not for pickup.
 */
export function waitsForPickup(attributes: Milestones, inland: boolean): boolean {
	const phase = containerPhase(attributes);
	return phase === 'at_inland_facility' || (phase === 'at_port_terminal' && !inland);
}

/** The zone a box's last free day is a date in: the inland facility's once it is there. */
export function lastFreeDayZone(attributes: Milestones): string {
	const inland = set(attributes.ind_rail_unloaded_at);
	return String(
		(inland ? attributes.final_destination_timezone : attributes.pod_timezone) ?? 'UTC',
	);
}

/**
 * Calendar days, where the box is, from the last free day to `at`: 0 on the last free day
 * itself and before it, 1 on the day after it (the first day of demurrage), and so on.
 */
export function daysPastLastFreeDay(lastFreeDay: unknown, at: number, zone: string): number {
	// The same calendar count the nodes give people, turned round.
	const until = daysUntilLastFreeDay(
		typeof lastFreeDay === 'string' ? lastFreeDay : null,
		zone,
		new Date(at),
	);
	return until === null ? 0 : Math.max(0, -until);
}

/** How the box's state reads in an error: `empty_returned (empty returned 2026-01-05T…)`. */
export function describePhase(attributes: Milestones): string {
	const phase = containerPhase(attributes);
	const since: Partial<Record<Phase, unknown>> = {
		empty_returned: attributes.empty_terminated_at,
		picked_up: attributes.final_destination_full_out_at ?? attributes.pod_full_out_at,
		at_inland_facility: attributes.ind_rail_unloaded_at,
		on_rail: attributes.pod_rail_loaded_at,
		at_port_terminal: attributes.pod_discharged_at,
	};
	const when = since[phase];
	return `${phase.replace(/_/g, ' ')}${set(when) ? ` since ${String(when)}` : ''}, current_status ${String(attributes.current_status)}`;
}

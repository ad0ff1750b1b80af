/**
 * Pickup readiness of an import container (docs/service.md, "Ready for pickup" and
 * "Holds and fees").
 *
 * The first row that matches decides. "Inland arrival" means `ind_ata_at` or
 * `ind_rail_unloaded_at` is set.
 *
 * | # | Condition                                                        | pickup_status | ready |
 * |---|------------------------------------------------------------------|---------------|-------|
 * | 1 | `empty_terminated_at` or `final_destination_full_out_at` set, or | not_available | false |
 * |   | `current_status` is picked_up, delivered, empty_returned,        |               |       |
 * |   | dropped, off_dock or loaded (already gone)                       |               |       |
 * | 2 | `pod_full_out_at` set and no inland arrival (left the port)      | not_available | false |
 * | 3 | on rail (`current_status` on_rail or `pod_rail_departed_at` set) | not_available | false |
 * |   | and no inland arrival                                            |               |       |
 * | 4 | `pod_discharged_at` not set and no inland arrival (still aboard) | not_available | false |
 * | 5 | `availability_known` false, or `available_for_pickup` null/absent| unknown       | null  |
 * | 6 | available, no hold with status `hold` (pending ones are warned)  | ready         | true  |
 * | 7 | not available, at least one hold with status `hold`              | on_hold       | false |
 * | 8 | available, but at least one hold with status `hold`              | out_of_sync   | false |
 * | 9 | not available, no hold with status `hold` (none, or pending only)| out_of_sync   | false |
 *
 * Why this order:
 * - Rows 1 to 4 come first because they are physical milestones, known without the terminal's
 *   availability feed, and that feed is often stale once the box has moved: a box that left, or
 *   that is still on the vessel or on a train, cannot be picked up whatever the flag says.
 * - Row 2 needs "no inland arrival": on an inland move the box leaves the port (`pod_full_out_at`
 *   may be set when it is drayed to an off-dock ramp) and is picked up at the inland destination,
 *   where the availability and holds fields then apply (docs/service.md, "Holds and fees").
 *   Only `final_destination_full_out_at` (row 1) means it has left there too.
 * - Row 5 comes after the milestones, so "not available" (certain) beats "unknown".
 * - Rows 6 to 9 are the rules of docs/service.md, "Ready for pickup". A pending hold never
 *   blocks (it is expected, not active: docs/service.md, "Holds and fees"), so "not available
 *   with only pending holds" is a disagreement (row 9), not a hold.
 *
 * Matching is exact and case-sensitive, as the interface writes the values: only `status ===
 * 'hold'` is active, only `'pending'` is pending, and a hold name such as `usda` is not `USDA`
 * (it is still reported, under its raw name). A missing or null holds array counts as empty
 * (docs/service.md, "Holds and fees": an empty array means no holds); the terminal's
 * availability flag is the primary signal and holds cross-check it.
 *
 * Values no table lists:
 * - A hold whose status is neither `hold` nor `pending` (or that has none, or is not an object;
 *   null entries are skipped) does not block pickup: only `hold` does. It is never dropped either: it is listed in
 *   `holds_with_unknown_status` and named at the end of every reason, so a person checks it.
 * - A hold name no table lists blocks like any other hold when its status is `hold`.
 * - A `current_status` no table lists is not a milestone of row 1 or 3: the physical fields and
 *   the availability and hold rows decide, as for `grounded` or `available`.
 */
import { DateTime } from 'luxon';

import type { ContainerAttributes, TerminalHold } from '../schemas';
import { isRecord } from '../schemas/values';

/** The attributes this file reads; any of them may be missing or null. */
export type ReadinessInput = {
	[Key in
		| 'availability_known'
		| 'available_for_pickup'
		| 'holds_at_pod_terminal'
		| 'pod_discharged_at'
		| 'pod_full_out_at'
		| 'final_destination_full_out_at'
		| 'empty_terminated_at'
		| 'ind_ata_at'
		| 'ind_rail_unloaded_at'
		| 'ind_eta_at'
		| 'ind_rail_carrier_scac'
		| 'pod_rail_loaded_at'
		| 'pod_rail_departed_at'
		| 'current_status'
		| 'pod_timezone'
		| 'final_destination_timezone'
		| 'empty_terminated_timezone']?: ContainerAttributes[Key] | null;
};

export type PickupStatus = 'ready' | 'on_hold' | 'not_available' | 'out_of_sync' | 'unknown';

export interface PickupReadiness {
	/** Null when the terminal's availability is unknown. */
	ready_for_pickup: boolean | null;
	pickup_status: PickupStatus;
	/** Holds with status `hold`: they block pickup. */
	active_holds: TerminalHold[];
	/** Holds with status `pending`: they do not block yet, but may become active. */
	pending_holds: TerminalHold[];
	/** Holds whose status is neither `hold` nor `pending`: they do not block, a person checks them. */
	holds_with_unknown_status: unknown[];
	/** One plain sentence for a dispatcher. */
	reason: string;
}

/**
 * Statuses (docs/service.md, "Container statuses") that mean the box has already left the
 * facility it would be picked up from.
 */
const DEPARTED_STATUS_PHRASES: Readonly<Record<string, string>> = {
	picked_up: 'was already picked up',
	delivered: 'was already delivered',
	empty_returned: 'was already returned empty',
	dropped: 'was already dropped at its delivery location',
	off_dock: 'was already moved to an off-dock facility',
	loaded: 'was already loaded onto a vessel',
};

const HOLD_LABELS: Readonly<Record<string, string>> = {
	freight: 'freight',
	customs: 'customs',
	USDA: 'USDA',
	VACIS: 'VACIS exam',
	TMF: 'TMF pier pass',
	other: 'other',
};

const RE_READ_ADVICE = 're-read the container or wait for the next container.updated notification';

function isSet(value: unknown): boolean {
	return value !== null && value !== undefined && value !== '';
}

/** The calendar date of a timestamp where it happened, or the text as sent when unreadable. */
function localDate(timestamp: unknown, zone: string | null | undefined): string {
	if (typeof timestamp !== 'string') return String(timestamp);
	const inZone = DateTime.fromISO(timestamp, { zone: zone ?? 'utc' });
	const date = inZone.isValid ? inZone : DateTime.fromISO(timestamp, { zone: 'utc' });
	return date.toISODate() ?? timestamp;
}

function holdLabel(hold: TerminalHold): string {
	const name = String(hold.name);
	const label = Object.prototype.hasOwnProperty.call(HOLD_LABELS, name)
		? HOLD_LABELS[name]
		: `unrecognized "${name}"`;
	const description = typeof hold.description === 'string' ? hold.description.trim() : '';
	// Raw terminal text, quoted so people can read it and nobody mistakes it for a hold name.
	return description ? `${label} "${description}"` : label;
}

function joinWithAnd(parts: string[]): string {
	if (parts.length <= 1) return parts.join('');
	return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** "1 active hold (customs)", "2 pending holds (USDA and other "EXAM")". */
function describeHolds(holds: TerminalHold[], kind: 'active' | 'pending'): string {
	const noun = holds.length === 1 ? 'hold' : 'holds';
	return `${holds.length} ${kind} ${noun} (${joinWithAnd(holds.map(holdLabel))})`;
}

function isHold(value: unknown): value is TerminalHold {
	return isRecord(value);
}

/** `CTF "Clean Truck Fee paid" (status "satisfied")`; raw JSON for an entry that is not a hold. */
function unknownStatusLabel(entry: unknown): string {
	if (!isHold(entry)) return JSON.stringify(entry) ?? String(entry);
	const status =
		entry.status === undefined ? 'no status' : `status ${JSON.stringify(entry.status)}`;
	return `${holdLabel(entry)} (${status})`;
}

/** The sentence that ends every reason while holds with unknown statuses are listed. */
function unknownStatusNote(holds: unknown[]): string {
	if (holds.length === 0) return '';
	const noun = holds.length === 1 ? 'hold' : 'holds';
	return (
		` The terminal also lists ${holds.length} ${noun} with a status this node does not know ` +
		`(${joinWithAnd(holds.map(unknownStatusLabel))}); check with the terminal.`
	);
}

const NOT_AVAILABLE = 'Not available: the container';

/** Why the box is not at a facility where it could be picked up, or null when it is. */
function notAtFacilityReason(attributes: ReadinessInput): string | null {
	if (isSet(attributes.empty_terminated_at)) {
		const date = localDate(attributes.empty_terminated_at, attributes.empty_terminated_timezone);
		return `Not available: the empty container was already returned on ${date}.`;
	}
	if (isSet(attributes.final_destination_full_out_at)) {
		const date = localDate(
			attributes.final_destination_full_out_at,
			attributes.final_destination_timezone,
		);
		return `${NOT_AVAILABLE} was already picked up at its final destination on ${date}.`;
	}
	const status = String(attributes.current_status ?? '');
	if (Object.prototype.hasOwnProperty.call(DEPARTED_STATUS_PHRASES, status)) {
		return `${NOT_AVAILABLE} ${DEPARTED_STATUS_PHRASES[status]} (status ${status}).`;
	}

	const arrivedInland = isSet(attributes.ind_ata_at) || isSet(attributes.ind_rail_unloaded_at);
	if (arrivedInland) return null;

	const movesInland =
		isSet(attributes.ind_rail_carrier_scac) ||
		isSet(attributes.ind_eta_at) ||
		isSet(attributes.pod_rail_loaded_at) ||
		isSet(attributes.pod_rail_departed_at);
	if (isSet(attributes.pod_full_out_at)) {
		const date = localDate(attributes.pod_full_out_at, attributes.pod_timezone);
		return movesInland
			? `${NOT_AVAILABLE} left the port terminal on ${date} for its inland destination ` +
					'and has not arrived there yet.'
			: `${NOT_AVAILABLE} was already picked up from the port terminal on ${date}.`;
	}
	if (status === 'on_rail' || isSet(attributes.pod_rail_departed_at)) {
		return `${NOT_AVAILABLE} is on rail to its inland destination and has not arrived there yet.`;
	}
	if (!isSet(attributes.pod_discharged_at)) {
		return `${NOT_AVAILABLE} has not been discharged from the vessel yet.`;
	}
	return null;
}

/**
 * Whether a container can be picked up now, and why, from its attributes as the service sends
 * them. See the precedence table at the top of this file.
 */
export function pickupReadiness(attributes: ReadinessInput | null | undefined): PickupReadiness {
	const input: ReadinessInput = attributes ?? {};
	// Null entries carry nothing and are skipped; anything else is a hold or reported as one.
	const entries: unknown[] = Array.isArray(input.holds_at_pod_terminal)
		? input.holds_at_pod_terminal.filter((entry: unknown) => entry !== null && entry !== undefined)
		: [];
	const holds = entries.filter(isHold);
	const active_holds = holds.filter((hold) => hold.status === 'hold');
	const pending_holds = holds.filter((hold) => hold.status === 'pending');
	const holds_with_unknown_status = entries.filter(
		(entry) => !isHold(entry) || (entry.status !== 'hold' && entry.status !== 'pending'),
	);
	const note = unknownStatusNote(holds_with_unknown_status);
	const result = (
		pickup_status: PickupStatus,
		ready_for_pickup: boolean | null,
		reason: string,
	): PickupReadiness => ({
		ready_for_pickup,
		pickup_status,
		active_holds,
		pending_holds,
		holds_with_unknown_status,
		reason: reason + note,
	});

	const notAtFacility = notAtFacilityReason(input);
	if (notAtFacility) return result('not_available', false, notAtFacility);

	if (input.availability_known === false) {
		return result(
			'unknown',
			null,
			'Unknown: this terminal does not report availability for the container, ' +
				'so confirm with the terminal before dispatching.',
		);
	}
	const available = input.available_for_pickup;
	if (available !== true && available !== false) {
		return result(
			'unknown',
			null,
			'Unknown: the terminal has not reported whether the container is available yet.',
		);
	}

	const active = describeHolds(active_holds, 'active');
	const pending = pending_holds.length > 0 ? describeHolds(pending_holds, 'pending') : null;
	if (available && active_holds.length === 0) {
		const reason = pending
			? `Ready for pickup, but ${pending} could become active before pickup.`
			: 'Ready for pickup: the terminal reports the container available with no holds.';
		return result('ready', true, reason);
	}
	if (!available && active_holds.length > 0) {
		const alsoPending = pending ? ` and ${pending}` : '';
		return result(
			'on_hold',
			false,
			`On hold: the terminal reports the container not available with ${active}${alsoPending}.`,
		);
	}
	const reported = available ? 'available' : 'not available';
	const listed = available ? active : pending ? `only ${pending}` : 'no active holds';
	return result(
		'out_of_sync',
		false,
		`Out of sync: the terminal reports the container ${reported} but lists ${listed}; ` +
			`${RE_READ_ADVICE} before dispatching.`,
	);
}

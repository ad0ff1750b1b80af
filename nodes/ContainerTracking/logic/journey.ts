/**
 * The milestones a desk asks about after "is it ready?": did it clear customs, was it picked up,
 * does it go on by rail after the port, did the empty come back (docs/service.md, "Container
 * statuses" and "Holds and fees").
 *
 * | Field             | Value                                                                  |
 * |-------------------|------------------------------------------------------------------------|
 * | `rail_after_port` | true when any rail leg is reported (a rail carrier, loading or         |
 * |                   | departure by rail, an inland ETA or arrival, status `on_rail`); false  |
 * |                   | when none is (yet)                                                     |
 * | `picked_up_at`    | on a rail move `final_destination_full_out_at` (leaving the port for   |
 * |                   | the ramp is no pickup); otherwise `pod_full_out_at`, else the inland   |
 * |                   | one; null before                                                       |
 * | `customs_cleared` | false while a `customs` hold is listed (status `hold` or `pending`);   |
 * |                   | true once the box was picked up or returned, or when the terminal      |
 * |                   | reports availability for a discharged box with no customs hold; null   |
 * |                   | otherwise (not known yet: still at sea, or the terminal does not say)  |
 *
 * A cleared hold is removed from the terminal's list (there is no "released" status), so
 * "cleared" is the absence of a customs hold where the terminal reports holds at all.
 */
import type { ContainerAttributes } from '../schemas';
import { isRecord } from '../schemas/values';

/** The attributes this file reads; any of them may be missing or null. */
export type JourneyInput = {
	[Key in
		| 'current_status'
		| 'availability_known'
		| 'holds_at_pod_terminal'
		| 'pod_discharged_at'
		| 'pod_full_out_at'
		| 'final_destination_full_out_at'
		| 'empty_terminated_at'
		| 'pod_rail_carrier_scac'
		| 'ind_rail_carrier_scac'
		| 'pod_rail_loaded_at'
		| 'pod_rail_departed_at'
		| 'ind_eta_at'
		| 'ind_ata_at'
		| 'ind_rail_unloaded_at']?: ContainerAttributes[Key] | null;
};

export interface JourneyMilestones {
	customs_cleared: boolean | null;
	picked_up_at: string | null;
	rail_after_port: boolean;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

const RAIL_SIGNS = [
	'pod_rail_carrier_scac',
	'ind_rail_carrier_scac',
	'pod_rail_loaded_at',
	'pod_rail_departed_at',
	'ind_eta_at',
	'ind_ata_at',
	'ind_rail_unloaded_at',
] as const;

/** Statuses that mean the box has left for the consignee or come back. */
const GONE_STATUSES = new Set(['picked_up', 'delivered', 'empty_returned', 'dropped']);

export function journeyMilestones(attributes: JourneyInput | null | undefined): JourneyMilestones {
	const input: JourneyInput = attributes ?? {};
	const rail_after_port =
		input.current_status === 'on_rail' || RAIL_SIGNS.some((name) => text(input[name]) !== null);
	const picked_up_at = rail_after_port
		? text(input.final_destination_full_out_at)
		: (text(input.pod_full_out_at) ?? text(input.final_destination_full_out_at));

	const holds = Array.isArray(input.holds_at_pod_terminal) ? input.holds_at_pod_terminal : [];
	const customsHeld = holds.some(
		(hold: unknown) =>
			isRecord(hold) &&
			hold.name === 'customs' &&
			(hold.status === 'hold' || hold.status === 'pending'),
	);
	const gone =
		picked_up_at !== null ||
		text(input.empty_terminated_at) !== null ||
		GONE_STATUSES.has(String(input.current_status ?? ''));
	const reportedHere =
		input.availability_known === true &&
		(text(input.pod_discharged_at) !== null ||
			text(input.ind_ata_at) !== null ||
			text(input.ind_rail_unloaded_at) !== null);
	const customs_cleared = customsHeld ? false : gone || reportedHere ? true : null;
	return { customs_cleared, picked_up_at, rail_after_port };
}

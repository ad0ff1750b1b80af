/**
 * The last free day (LFD) before demurrage, its source, its time zone and the place whose day it
 * is (docs/service.md, "Last free day" and "Import deadlines").
 *
 * Which LFD (first row with a value wins; a priority, not the earliest date):
 *
 * | # | Field                                   | source   | time zone, place                        |
 * |---|-----------------------------------------|----------|-----------------------------------------|
 * | 1 | `import_deadlines.pickup_lfd_line`      | line     | written in: see (*)                     |
 * | 2 | `import_deadlines.pickup_lfd_terminal`  | terminal | `pod_timezone`, port terminal           |
 * | 3 | `import_deadlines.pickup_lfd_rail`      | rail     | `final_destination_timezone`, inland    |
 * | 4 | `pickup_lfd` (coalesced, source unknown)| null     | as row 1                                |
 * | 5 | `ind_facility_lfd_on` (deprecated rail) | rail     | `final_destination_timezone`, inland    |
 *
 * - Rows 4 and 5 are read only when `import_deadlines` gives nothing (older payloads lack it).
 *   `pickup_lfd` may be any of the three, so it is read like the line's.
 * - (*) The interface gives the line's zone as "`final_destination_timezone` or `pod_timezone`,
 *   carrier dependent", and the service writes every LFD as local midnight expressed in UTC. So
 *   the value says which zone it was written in: of the two zones, the one in which it is local
 *   midnight. When it is midnight in both (same offset, or a plain date) or in neither, the rule
 *   before that: an inland move (`ind_rail_carrier_scac`, `ind_eta_at` or `ind_ata_at` set)
 *   reads it in the final destination's zone, else the port of discharge's; the other zone when
 *   the preferred one is null. Terminal and rail LFDs keep their own zone only, since another
 *   zone could name a different calendar day.
 *
 * "2024-07-07T04:00:00Z" is 7 July in New York but still 6 July in Chicago: read in the wrong
 * zone, a last free day is a day early, and demurrage a day late.
 */
import { DateTime } from 'luxon';

import type { ContainerAttributes, ImportDeadlines } from '../schemas';

/** The attributes this file reads; any of them may be missing or null. */
export type LastFreeDayInput = {
	[Key in
		| 'import_deadlines'
		| 'pickup_lfd'
		| 'ind_facility_lfd_on'
		| 'pod_timezone'
		| 'final_destination_timezone'
		| 'ind_rail_carrier_scac'
		| 'ind_eta_at'
		| 'ind_ata_at']?: ContainerAttributes[Key] | null;
};

export type LastFreeDaySource = 'line' | 'terminal' | 'rail';

/** Whose day the LFD is: the port of discharge's terminal, or the inland (rail) destination. */
export type LastFreeDayPlace = 'port_terminal' | 'inland_destination';

export interface LastFreeDay {
	/** The LFD as the service sent it (ISO 8601), or null when none is known. */
	last_free_day: string | null;
	/** Null when the LFD came from the coalesced `pickup_lfd`, or when there is none. */
	last_free_day_source: LastFreeDaySource | null;
	/** IANA zone in which the LFD's calendar date is read; null when unknown. */
	last_free_day_timezone: string | null;
	/** The place whose zone that is; null when no zone is known. */
	last_free_day_place: LastFreeDayPlace | null;
}

interface Reading {
	zone: string | null;
	place: LastFreeDayPlace | null;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function isSet(value: unknown): boolean {
	return value !== null && value !== undefined && value !== '';
}

function isLocalMidnight(iso: string, zone: string): boolean {
	const local = DateTime.fromISO(iso, { zone });
	return local.isValid && local.hour === 0 && local.minute === 0 && local.second === 0;
}

/** The port of discharge and the inland destination, each with its zone. */
function places(attributes: LastFreeDayInput): { port: Reading; inland: Reading } {
	return {
		port: { zone: text(attributes.pod_timezone), place: 'port_terminal' },
		inland: { zone: text(attributes.final_destination_timezone), place: 'inland_destination' },
	};
}

/** Where a line (or coalesced) LFD is read: (*) in the table at the top of this file. */
function lineReading(iso: string, attributes: LastFreeDayInput): Reading {
	const { port, inland } = places(attributes);
	const writtenIn = [port, inland].filter(
		(candidate) => candidate.zone !== null && isLocalMidnight(iso, candidate.zone),
	);
	if (writtenIn.length === 1) return writtenIn[0];
	const movesInland =
		isSet(attributes.ind_rail_carrier_scac) ||
		isSet(attributes.ind_eta_at) ||
		isSet(attributes.ind_ata_at);
	const [preferred, other] = movesInland ? [inland, port] : [port, inland];
	if (preferred.zone) return preferred;
	if (other.zone) return other;
	return { zone: null, place: null };
}

/** The LFD that applies, by the priority in the table at the top of this file. */
export function lastFreeDay(attributes: LastFreeDayInput | null | undefined): LastFreeDay {
	const input: LastFreeDayInput = attributes ?? {};
	const deadlines: Partial<ImportDeadlines> = input.import_deadlines ?? {};
	const found = (
		last_free_day: string,
		last_free_day_source: LastFreeDaySource | null,
		reading: Reading,
	): LastFreeDay => ({
		last_free_day,
		last_free_day_source,
		last_free_day_timezone: reading.zone,
		last_free_day_place: reading.zone === null ? null : reading.place,
	});
	const { port, inland } = places(input);

	const line = text(deadlines.pickup_lfd_line);
	if (line) return found(line, 'line', lineReading(line, input));
	const terminal = text(deadlines.pickup_lfd_terminal);
	if (terminal) return found(terminal, 'terminal', port);
	const rail = text(deadlines.pickup_lfd_rail);
	if (rail) return found(rail, 'rail', inland);

	const coalesced = text(input.pickup_lfd);
	if (coalesced) return found(coalesced, null, lineReading(coalesced, input));
	const deprecatedRail = text(input.ind_facility_lfd_on);
	if (deprecatedRail) return found(deprecatedRail, 'rail', inland);

	return {
		last_free_day: null,
		last_free_day_source: null,
		last_free_day_timezone: null,
		last_free_day_place: null,
	};
}

/**
 * Whole calendar days from `now` to the last free day, both read as dates in `timezone`: 0 when
 * today is the last free day, negative once it has passed. Dates are compared, not 24-hour
 * blocks, so DST changes do not shift the count. Null when the LFD or zone is missing or invalid.
 * An LFD without an offset ("2024-07-07") is read as a date in that zone.
 */
export function daysUntilLastFreeDay(
	lastFreeDayIso: string | null | undefined,
	timezone: string | null | undefined,
	now: Date,
): number | null {
	const lfdText = text(lastFreeDayIso);
	const zone = text(timezone);
	if (!lfdText || !zone) return null;
	if (!(now instanceof Date) || Number.isNaN(now.getTime())) return null;

	const lfd = DateTime.fromISO(lfdText, { zone });
	const today = DateTime.fromJSDate(now, { zone });
	if (!lfd.isValid || !today.isValid) return null;

	// Both dates as UTC midnights: their difference is an exact multiple of 24 hours.
	const lfdDate = Date.UTC(lfd.year, lfd.month - 1, lfd.day);
	const todayDate = Date.UTC(today.year, today.month - 1, today.day);
	return Math.round((lfdDate - todayDate) / 86_400_000);
}

/**
 * The last free day as a calendar date (`YYYY-MM-DD`) in `timezone`, the date a person at the
 * facility reads: "2024-07-07T04:00:00Z" in America/New_York is "2024-07-07". When the zone is
 * missing (`last_free_day_timezone: null`) or not one luxon knows, the date is read in UTC: the
 * facility's date in the Americas (local midnight is 00:00 to 10:00 UTC), the day before east of
 * UTC, so items keep the timestamp beside it. Null without a readable LFD.
 */
export function lastFreeDayDate(
	lastFreeDayIso: string | null | undefined,
	timezone: string | null | undefined,
): string | null {
	const lfdText = text(lastFreeDayIso);
	if (!lfdText) return null;
	const zone = text(timezone);
	const inZone = zone ? DateTime.fromISO(lfdText, { zone }) : null;
	const date = inZone?.isValid ? inZone : DateTime.fromISO(lfdText, { zone: 'utc' });
	return date.isValid ? date.toISODate() : null;
}

export interface ImportDeadlineFields {
	last_free_day_line: string | null;
	last_free_day_terminal: string | null;
	last_free_day_rail: string | null;
	/** The earliest of the three, as an instant: the deadline that runs out first. */
	earliest_last_free_day: string | null;
	earliest_last_free_day_source: LastFreeDaySource | null;
}

/**
 * All three import deadlines side by side, beside the one `lastFreeDay` picks by priority: the
 * line's may be later than the terminal's, and demurrage starts at whichever runs out first. The
 * rail deadline falls back to the deprecated `ind_facility_lfd_on` when `import_deadlines` lacks it.
 */
export function importDeadlines(
	attributes: LastFreeDayInput | null | undefined,
): ImportDeadlineFields {
	const input: LastFreeDayInput = attributes ?? {};
	const deadlines: Partial<ImportDeadlines> = input.import_deadlines ?? {};
	const bySource: Array<[LastFreeDaySource, string | null]> = [
		['line', text(deadlines.pickup_lfd_line)],
		['terminal', text(deadlines.pickup_lfd_terminal)],
		['rail', text(deadlines.pickup_lfd_rail) ?? text(input.ind_facility_lfd_on)],
	];
	let earliest: { source: LastFreeDaySource; iso: string; millis: number } | null = null;
	for (const [source, iso] of bySource) {
		const moment = iso ? DateTime.fromISO(iso, { zone: 'utc' }) : null;
		if (iso && moment?.isValid && (earliest === null || moment.toMillis() < earliest.millis))
			earliest = { source, iso, millis: moment.toMillis() };
	}
	return {
		last_free_day_line: bySource[0][1],
		last_free_day_terminal: bySource[1][1],
		last_free_day_rail: bySource[2][1],
		earliest_last_free_day: earliest?.iso ?? null,
		earliest_last_free_day_source: earliest?.source ?? null,
	};
}

import { z } from 'zod';

/*
 * Scalars and value sets. The service's value sets are open: its own reference lists values
 * beyond the interface's tables, and new ones appear over time. A value nobody listed is data,
 * not an error: it passes through to the items unchanged. The known values stay named here for
 * the rules, the option lists and the types.
 */

/** One of the known values, or any other string (editors still suggest the known ones). */
export type KnownOr<Known extends string> = Known | (string & Record<never, never>);

/** A string attribute whose known values are `known`; any other string passes too. */
export function openEnum<const Known extends readonly [string, ...string[]]>(known: Known) {
	return z.string().describe(`known values: ${known.join(', ')}`) as unknown as z.ZodType<
		KnownOr<Known[number]>
	>;
}

/** A JSON object (not null, not a list): what answers must be before their members are read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The members of a JSON object, or none when `value` is not one. */
export function membersOf(value: unknown): Record<string, unknown> {
	return isRecord(value) ? value : {};
}

/** "12", "-3.5": numbers some answers send as strings. */
export const NUMERIC_STRING = /^\s*-?\d+(\.\d+)?\s*$/;

/** A number, or a number sent as a numeric string; either passes unchanged. */
const NUMERIC = 'a number or a numeric string';
export const numeric = z.union([z.number(), z.string().regex(NUMERIC_STRING, NUMERIC)], {
	errorMap: () => ({ message: NUMERIC }),
});

/** The number a numeric attribute stands for, or null when it is not one. */
export function toNumber(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value === 'string' && NUMERIC_STRING.test(value)) return Number(value);
	return null;
}

/** A list of strings in which the service sometimes sends null entries (`ref_numbers: [null]`). */
export const textList = z.array(z.string().nullable(), {
	errorMap: (issue, context) => ({
		message: issue.code === 'invalid_type' ? 'a list of strings' : context.defaultError,
	}),
});

/**
 * ISO 8601 date-time ("2020-04-04T16:13:35-07:00", "…Z"); a local date-time or a calendar date
 * ("2024-07-07") is read too, since deadlines are days.
 */
const DATE_TIME = 'an ISO 8601 date-time';
export const isoDateTime = z.union(
	[
		z.string().datetime({ offset: true, local: true, message: DATE_TIME }),
		z.string().date(DATE_TIME),
	],
	{ errorMap: () => ({ message: DATE_TIME }) },
);

/** ISO 8601 calendar date ("2020-03-03"). */
export const isoDate = z.string().date('an ISO 8601 date');

/** IANA time zone name. Not checked against the zone database (it changes over time). */
export const ianaTimeZone = z.string();

/** UN/LOCODE such as `USOAK`: format not checked, carriers send odd codes. */
export const unLocode = z.string();

/** Latitude or longitude: notifications send them as numeric strings ("40.684996498"). */
export const coordinate = numeric;

// ---------------------------------------------------------------------------------------------
// Known values, as docs/service.md lists them. Every one of these sets is open
// (docs/service.md, "Documents and records").

/** Where an event or a change was reported from. */
export const DATA_SOURCES = ['shipping_line', 'terminal', 'ais'] as const;

/** Container `current_status`. */
export const CONTAINER_STATUSES = [
	'new',
	'on_ship',
	'available',
	'not_available',
	'grounded',
	'on_rail',
	'picked_up',
	'off_dock',
	'delivered',
	'dropped',
	'loaded',
	'empty_returned',
	'awaiting_inland_transfer',
] as const;

export const EQUIPMENT_TYPES = ['dry', 'reefer', 'open top', 'flat rack', 'bulk', 'tank'] as const;
export const EQUIPMENT_HEIGHTS = ['standard', 'high_cube'] as const;

/** Terminal hold names. Case-sensitive: `USDA`, `VACIS`, `TMF` are uppercase. */
export const HOLD_NAMES = ['freight', 'customs', 'USDA', 'VACIS', 'TMF', 'other'] as const;
/** `hold` is active (blocks pickup), `pending` is expected. A cleared hold leaves the array. */
export const HOLD_STATUSES = ['hold', 'pending'] as const;

/** Terminal fee types; `total` may overlap the others. */
export const FEE_TYPES = ['demurrage', 'exam', 'extended_dwell_time', 'other', 'total'] as const;

export const LINE_TRACKING_STOPPED_REASONS = [
	'all_containers_terminated',
	'past_arrival_window',
	'past_full_out_window',
	'no_updates_at_line',
	'cancelled_by_user',
	'booking_cancelled',
] as const;

/** Tracking request `request_type`, and the inference's `number_type`, which maps onto it. */
export const REQUEST_TYPES = ['container', 'bill_of_lading', 'booking'] as const;

export const TRACKING_REQUEST_STATUSES = [
	'pending',
	'awaiting_manifest',
	'created',
	'failed',
	'tracking_stopped',
] as const;

export const TRACKING_REQUEST_FAILED_REASONS = [
	'not_found',
	'invalid_number',
	'duplicate',
	'booking_cancelled',
	'expired',
	'retries_exhausted',
	'shipping_line_unreachable',
	'unrecognized_response',
	'internal_processing_error',
	'data_unavailable',
] as const;

/** The inference's verdict on the carrier: 95 %+, 70–95 %, below 70 % or unknown. */
export const SHIPPING_LINE_DECISIONS = [
	'auto_select',
	'needs_confirmation',
	'no_prediction',
] as const;

import { DateTime } from 'luxon';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** ISO 8601 in UTC without milliseconds, as the service writes timestamps. */
export function isoTimestamp(epochMs: number): string {
	return `${new Date(epochMs).toISOString().slice(0, 19)}Z`;
}

/**
 * A last free day: the local midnight of a calendar date in the facility's time zone, written
 * in UTC (the service's "2024-07-07T04:00:00Z" is midnight in New York during summer time).
 */
export function lastFreeDay(fromEpochMs: number, days: number, zone: string): string {
	const local = DateTime.fromMillis(fromEpochMs, { zone }).plus({ days }).startOf('day');
	return isoTimestamp(local.toMillis());
}

/** Parses `YYYY-MM-DD` (a local date in `zone`) or a full ISO timestamp into the LFD format. */
export function parseLastFreeDay(value: string, zone: string): string | null {
	const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
		? DateTime.fromISO(value, { zone })
		: DateTime.fromISO(value, { setZone: true });
	return date.isValid ? isoTimestamp(date.toMillis()) : null;
}

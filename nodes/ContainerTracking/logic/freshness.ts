/**
 * Whether a container's data can still be acted on (docs/service.md, "Freshness").
 *
 * The data is stale, and no last free day or readiness built on it is called urgent, when:
 * - the terminal was last checked (`terminal_checked_at`) more than 7 days ago: availability,
 *   holds, fees and the terminal's last free day may have changed since; or
 * - the shipment's tracking stopped (`line_tracking_stopped_at` or `_reason` set): nothing about
 *   the shipment or its containers is updated any more.
 *
 * `data_stale_since` is the earlier of the two moments; `data_stale_reason` says both in words.
 * A container whose terminal has not been checked at all (still at sea) is not stale on that
 * account: there is nothing at the terminal to go out of date. Without its shipment (not
 * included) whether tracking stopped is unknown: `tracking_stopped` is null and only the
 * terminal decides.
 *
 * A stop reason no table lists passes through in its own words.
 */
import { DateTime } from 'luxon';

/** Days after the last terminal check from which the data is stale (the service's own rule). */
export const STALE_AFTER_DAYS = 7;

const STOP_REASONS: Record<string, string> = {
	all_containers_terminated: 'every container has been returned',
	past_arrival_window: 'the shipment is past its arrival window',
	past_full_out_window: 'the shipment is past its full-out window',
	no_updates_at_line: 'the line stopped publishing updates',
	cancelled_by_user: 'a user stopped it',
	booking_cancelled: 'the booking was cancelled',
};

export interface FreshnessInput {
	terminal_checked_at?: string | null;
}

export interface ShipmentFreshnessInput {
	line_tracking_stopped_at?: string | null;
	line_tracking_stopped_reason?: string | null;
}

export interface Freshness {
	/** When the terminal was last read, as the service sent it. */
	terminal_checked_at: string | null;
	/** Whole days since then (0 within the first 24 hours); null when never checked. */
	terminal_checked_days_ago: number | null;
	/** Null when the shipment was not included, so it cannot be said. */
	tracking_stopped: boolean | null;
	tracking_stopped_at: string | null;
	tracking_stopped_reason: string | null;
	/** False when either rule at the top of this file holds. */
	data_fresh: boolean;
	data_stale_since: string | null;
	data_stale_reason: string | null;
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function instant(value: string | null): DateTime | null {
	if (!value) return null;
	const parsed = DateTime.fromISO(value, { zone: 'utc' });
	return parsed.isValid ? parsed : null;
}

function dayOf(moment: DateTime): string {
	return moment.toISODate() ?? moment.toISO() ?? '';
}

export function freshness(
	container: FreshnessInput | null | undefined,
	shipment: ShipmentFreshnessInput | null | undefined,
	now: Date,
): Freshness {
	const checkedText = text(container?.terminal_checked_at);
	const checked = instant(checkedText);
	const nowInstant = DateTime.fromJSDate(now, { zone: 'utc' });
	const ageDays = checked ? nowInstant.diff(checked, 'days').days : null;
	const daysAgo = ageDays === null ? null : Math.max(0, Math.floor(ageDays));

	const stoppedAt = text(shipment?.line_tracking_stopped_at);
	const stoppedReason = text(shipment?.line_tracking_stopped_reason);
	const stopped = shipment ? stoppedAt !== null || stoppedReason !== null : null;

	const causes: Array<{ since: DateTime | null; sinceText: string | null; words: string }> = [];
	if (checked && ageDays !== null && ageDays > STALE_AFTER_DAYS)
		causes.push({
			since: checked,
			sinceText: checkedText,
			words: `the terminal was last checked ${daysAgo} days ago`,
		});
	if (stopped) {
		const since = instant(stoppedAt);
		const why = stoppedReason ? (STOP_REASONS[stoppedReason] ?? stoppedReason) : null;
		causes.push({
			since,
			sinceText: stoppedAt,
			words: `tracking stopped${since ? ` on ${dayOf(since)}` : ''}` + (why ? `: ${why}` : ''),
		});
	}
	const dated = causes.filter((cause) => cause.since !== null);
	const earliest = dated.sort((a, b) => a.since!.toMillis() - b.since!.toMillis())[0];

	return {
		terminal_checked_at: checkedText,
		terminal_checked_days_ago: daysAgo,
		tracking_stopped: stopped,
		tracking_stopped_at: stoppedAt,
		tracking_stopped_reason: stoppedReason,
		data_fresh: causes.length === 0,
		data_stale_since: earliest?.sinceText ?? null,
		data_stale_reason: causes.length > 0 ? causes.map((cause) => cause.words).join('; ') : null,
	};
}

/**
 * What a readiness reason starts with on stale data ("Data stale since 2026-11-19: why. Last
 * known: "), so that the readiness the terminal last gave is read as such; empty when fresh.
 */
export function staleReadinessNote(fresh: Freshness): string {
	if (fresh.data_fresh) return '';
	const since = instant(fresh.data_stale_since);
	return `Data stale since ${since ? dayOf(since) : 'an unknown day'}: ${fresh.data_stale_reason}. Last known: `;
}

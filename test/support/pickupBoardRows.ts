// The Pickup board's rows (examples/pickup-board.json, examples/README.md section 2) worked out
// from a Container → Get item under examples/README.md's column rules, without the workflow's
// expressions: what test/e2e/pickupBoard.test.ts and bench/burst.ts compare the Data Table with.
import { DateTime } from 'luxon';

type Item = Record<string, unknown>;
export type BoardRow = Record<string, unknown>;

/** What the board's Get the container node asks Container → Get to include. */
export const BOARD_INCLUDES = ['shipment', 'pod_terminal', 'pickup_facility'];

const READINESS: Record<string, string> = {
	ready: 'Ready',
	on_hold: 'On hold',
	not_available: 'Not available',
	out_of_sync: 'Out of sync',
	unknown: 'Unknown',
};
const FEE_COLUMNS = ['demurrage', 'exam', 'extended_dwell_time'];

/**
 * Get Charges' item (Continue On Fail) for every box of a board whose n8n has no Data Table
 * Tariff: the board reads no rate, so the charges say so.
 */
export const NO_TARIFF_CHARGES: Item = { error: 'The tariff has no rows (field "Tariff Rows")' };

/**
 * The board's charge columns from Container → Get Charges' item for the box (docs/charges.md,
 * "The Pickup board"): its figures as they are, what is missing said in `charges_status`, and
 * no figure at all from an item that failed (Continue On Fail's `error`).
 */
export function expectedChargeColumns(charges: Item): BoardRow {
	if (typeof charges.error === 'string')
		return {
			charges_status: `Not worked out: ${charges.error}`,
			charges_so_far: null,
			charges_currency: null,
			one_more_day_costs: null,
		};
	const missing = (charges.charges_missing as string[] | undefined) ?? [];
	return {
		charges_status:
			missing.length > 0
				? `${String(charges.charges_status)}: ${missing.join('; ')}`
				: charges.charges_status,
		charges_so_far: charges.charges_total ?? null,
		charges_currency: charges.charges_currency ?? null,
		one_more_day_costs: charges.one_more_day_costs ?? null,
	};
}

/**
 * A board row as examples/README.md (section 2) describes its columns, from Container → Get's
 * item for the box and Get Charges' item for it (the charge columns).
 */
export function expectedBoardRow(item: Item, charges: Item): BoardRow {
	const byType = item.fees_by_type as Record<string, number> | null;
	const fee = (type: string) => (byType === null ? null : (byType[type] ?? 0));
	const otherFees =
		byType === null
			? null
			: Math.round(
					Object.entries(byType)
						.filter(([type]) => ![...FEE_COLUMNS, 'total'].includes(type))
						.reduce((sum, [, amount]) => sum + amount, 0) * 100,
				) / 100;
	const stale = item.data_fresh === false;
	const zone = item.last_free_day_timezone as string | null;
	const offset = zone
		? DateTime.fromISO(String(item.last_free_day), { zone }).toFormat('ZZ')
		: undefined;
	return {
		container_number: item.number,
		customer: item.customer_name,
		references: [
			...new Set([
				...((item.shipment_ref_numbers as string[] | null) ?? []),
				...((item.container_ref_numbers as string[] | null) ?? []),
			]),
		].join(', '),
		status: item.current_status,
		// On stale data the row says so instead of the readiness the terminal last gave.
		readiness: stale
			? `Stale since ${String(item.data_stale_since ?? '').slice(0, 10) || 'an unknown day'}`
			: (READINESS[String(item.pickup_status)] ?? item.pickup_status),
		ready_for_pickup: stale ? false : item.ready_for_pickup,
		why_not_ready: !stale && item.ready_for_pickup === true ? '' : item.pickup_status_reason,
		active_holds: (item.active_holds as string[]).join(', '),
		last_free_day: item.last_free_day_date,
		days_left: item.days_until_last_free_day,
		last_free_day_at: item.last_free_day_facility,
		last_free_day_time_zone: zone ? `${zone} (UTC${offset})` : null,
		last_free_day_source: item.last_free_day_source,
		fees_demurrage: fee('demurrage'),
		fees_exam: fee('exam'),
		fees_extended_dwell_time: fee('extended_dwell_time'),
		fees_other: otherFees,
		fees_total: item.fees_total,
		fees_currency: item.fees_currency,
		terminal: item.terminal,
		...expectedChargeColumns(charges),
	};
}

/**
 * A row of the Data Table as n8n's REST API gives it, split into the board's columns, what n8n
 * adds (`id`, `createdAt`, `updatedAt`), the time the workflow wrote it (`updated_at`) and the
 * time its state was the service's (`state_as_of`).
 */
export function boardRowParts(row: BoardRow): {
	columns: BoardRow;
	n8nColumns: unknown[];
	writtenAt: unknown;
	stateAsOf: unknown;
} {
	const {
		id,
		createdAt,
		updatedAt,
		updated_at: writtenAt,
		state_as_of: stateAsOf,
		...columns
	} = row;
	return { columns, n8nColumns: [id, createdAt, updatedAt], writtenAt, stateAsOf };
}

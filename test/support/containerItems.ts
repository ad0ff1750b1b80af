// The members container items start with (actions/container/summary.ts) and the members of a
// simplified container item (actions/simplify.ts), in their order: shared by the unit and engine
// tests of both.

/** Pickup readiness and the last free day: in this order in both shapes. */
const PICKUP_AND_LAST_FREE_DAY = [
	'ready_for_pickup',
	'pickup_status',
	'pickup_status_reason',
	'last_free_day_date',
	'last_free_day',
	'days_until_last_free_day',
	'last_free_day_source',
	'last_free_day_timezone',
];

/** The first members of a full container item: its identity, then the worked-out fields. */
export const WORKED_OUT_KEYS = [
	'id',
	'number',
	...PICKUP_AND_LAST_FREE_DAY,
	'fees_total',
	'fees_currency',
	'fees_by_currency',
	'active_holds',
	'pending_holds',
];

/** Every member of a simplified container item without warnings or mixed currencies. */
export const SIMPLIFIED_KEYS = [
	'id',
	'number',
	'current_status',
	...PICKUP_AND_LAST_FREE_DAY,
	'active_holds',
	'fees_total',
	'fees_currency',
	'terminal',
	'vessel',
	'pod_eta_at',
	'pod_ata_at',
	'pod_discharged_at',
	'bill_of_lading',
	'shipping_line',
	'shipping_line_scac',
	'shipment_id',
];

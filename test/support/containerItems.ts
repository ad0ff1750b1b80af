// The members container items start with (actions/container/summary.ts) and the members of a
// simplified container item (actions/simplify.ts), in their order: shared by the unit and engine
// tests of both.

/**
 * Number and status, whose box it is (customer, bill of lading, references, tags), pickup readiness and its reason, whether the data is fresh, the last free day (date, days left, whose
 * day and zone, then the timestamp as sent and its source): in this order in both shapes.
 */
const STATUS_READINESS_AND_LAST_FREE_DAY = [
	'number',
	'current_status',
	'customer_name',
	'bill_of_lading_number',
	'shipment_ref_numbers',
	'shipment_tags',
	'container_ref_numbers',
	'ready_for_pickup',
	'pickup_status',
	'pickup_status_reason',
	'data_fresh',
	'data_stale_since',
	'data_stale_reason',
	'last_free_day_date',
	'days_until_last_free_day',
	'last_free_day_facility',
	'last_free_day_timezone',
	'last_free_day',
	'last_free_day_source',
];

/** The first members of a full container item: the worked-out fields (identifiers go last). */
export const WORKED_OUT_KEYS = [
	...STATUS_READINESS_AND_LAST_FREE_DAY,
	'last_free_day_line',
	'last_free_day_terminal',
	'last_free_day_rail',
	'earliest_last_free_day',
	'earliest_last_free_day_source',
	'active_holds',
	'pending_holds',
	'customs_cleared',
	'picked_up_at',
	'rail_after_port',
	'fees_total',
	'fees_currency',
	'fees_by_currency',
	'fees_by_type',
	'terminal_checked_at',
	'terminal_checked_days_ago',
	'tracking_stopped',
	'tracking_stopped_at',
	'tracking_stopped_reason',
];

/** Every member of a simplified container item without warnings or mixed currencies. */
export const SIMPLIFIED_KEYS = [
	...STATUS_READINESS_AND_LAST_FREE_DAY,
	'earliest_last_free_day',
	'active_holds',
	'customs_cleared',
	'fees_total',
	'fees_currency',
	'fees_by_type',
	'terminal',
	'vessel',
	'pod_eta_at',
	'pod_original_eta_at',
	'pod_ata_at',
	'pod_discharged_at',
	'picked_up_at',
	'rail_after_port',
	'rail_carrier_scac',
	'inland_eta_at',
	'inland_arrived_at',
	'empty_returned_at',
	'bill_of_lading',
	'shipping_line',
	'shipping_line_scac',
	'container_as_of',
	'id',
	'shipment_id',
];

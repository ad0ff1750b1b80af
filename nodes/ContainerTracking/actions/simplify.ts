import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/*
 * "Simplify", as n8n's own nodes have it (a top-level boolean named `simplify`, on by default):
 * the item holds the fields people and AI agents use, instead of every attribute and relationship
 * the service sends. Operations add the field with `simplifyField`, read it with
 * `wantsSimplified`, and shape their items with a simplifier such as `simplifyContainer`.
 *
 * As a tool of n8n's AI Agent the node runs as the node type `<name>Tool`, which n8n builds from
 * `usableAsTool` with the same parameters and defaults, and calls the same `execute`
 * (test/engine/simplify.test.ts runs it so). A tool therefore gets the simplified items by
 * default, with nothing tool-specific here: a user who turns Simplify off in the tool's settings,
 * or leaves it to the model with `$fromAI()`, chose to let the agent see full items.
 */

/**
 * The Simplify field of `operations` of `resource`. Stable for every operation that adds it:
 * name `simplify`, type boolean, default true. Spread it and replace `description` where an
 * operation needs to say more (Container → Get says that Return Raw Document wins).
 */
export function simplifyField(resource: string, operations: string[]): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: { show: { resource: [resource], operation: operations } },
	};
}

/**
 * Whether item `itemIndex` wants the simplified shape. True unless Simplify is false. A value
 * that an expression or an AI model gives as text or a number is read as n8n reads booleans
 * ("false", "0" are false): `$fromAI('simplify')` without the boolean type hands the model's
 * answer over as text. Anything else (missing, empty, unreadable) keeps the default, so a tool
 * whose model answers vaguely still gets the short items.
 */
export function wantsSimplified(
	context: Pick<IExecuteFunctions, 'getNodeParameter'>,
	itemIndex: number,
): boolean {
	const value: unknown = context.getNodeParameter('simplify', itemIndex, true);
	if (typeof value === 'boolean') return value;
	const spelled = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (spelled === 'false' || spelled === '0' || spelled === 0) return false;
	return true;
}

function record(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

function orNull(value: unknown): IDataObject[string] {
	return value === undefined ? null : (value as IDataObject[string]);
}

/**
 * The simplified shape of a container item (actions/container/summary.ts): always the same
 * members, null when unknown, in the order people read them (identifiers last).
 *
 * | Member                                      | From                                            |
 * |---------------------------------------------|-------------------------------------------------|
 * | number, current_status                      | the container                                   |
 * | customer_name … container_ref_numbers       | whose box it is (logic/ownership.ts): null      |
 * |                                             | where the shipment was not included             |
 * | ready_for_pickup … pickup_status_reason     | worked out (logic/readiness.ts)                 |
 * | last_free_day_date … last_free_day_source   | worked out (logic/lastFreeDay.ts); the facility |
 * |                                             | from the included terminal or shipment          |
 * | active_holds                                | names of the holds that block pickup            |
 * | customs_cleared                             | worked out (logic/journey.ts)                   |
 * | fees_total, fees_currency, fees_by_type     | worked out (logic/fees.ts); `fees_by_currency`  |
 * |                                             | too when the fees are in several currencies     |
 * | terminal                                    | included pod_terminal's name, else its id       |
 * | vessel, pod_eta_at                          | included shipment's pod_vessel_name, pod_eta_at |
 * | pod_ata_at                                  | the container's pod_arrived_at, else the        |
 * |                                             | included shipment's pod_ata_at                  |
 * | pod_original_eta_at                         | included shipment's first ETA from the line     |
 * | pod_discharged_at                           | the container                                   |
 * | picked_up_at, rail_after_port               | worked out (logic/journey.ts)                   |
 * | rail_carrier_scac                           | ind_rail_carrier_scac, else pod_rail_carrier_…  |
 * | inland_eta_at, inland_arrived_at            | the container's ind_eta_at, ind_ata_at          |
 * | empty_returned_at                           | the container's empty_terminated_at             |
 * | bill_of_lading, shipping_line(_scac)        | included shipment's bill_of_lading_number (kept |
 * |                                             | for workflows that read it by that name),       |
 * |                                             | shipping_line_name (or short name), _scac       |
 * | container_as_of                             | when the state was the service's: the moment    |
 * |                                             | the read was asked (summary.ts), or the         |
 * |                                             | notification's (the trigger)                    |
 * | id, shipment_id                             | the container's id; the relationship, for       |
 * |                                             | Shipment → Get                                  |
 * | warnings                                    | only when the item has some                     |
 */
export function simplifyContainer(item: IDataObject): IDataObject {
	const shipment = record(item.shipment) ?? {};
	const terminal = record(item.pod_terminal);
	const holds = Array.isArray(item.active_holds) ? item.active_holds : [];
	const byCurrency = record(item.fees_by_currency) ?? {};
	const simplified: IDataObject = {
		number: orNull(item.number),
		current_status: orNull(item.current_status),
		customer_name: orNull(item.customer_name),
		bill_of_lading_number: orNull(item.bill_of_lading_number),
		shipment_ref_numbers: orNull(item.shipment_ref_numbers),
		shipment_tags: orNull(item.shipment_tags),
		container_ref_numbers: orNull(item.container_ref_numbers),
		ready_for_pickup: orNull(item.ready_for_pickup),
		pickup_status: orNull(item.pickup_status),
		pickup_status_reason: orNull(item.pickup_status_reason),
		data_fresh: orNull(item.data_fresh),
		data_stale_since: orNull(item.data_stale_since),
		data_stale_reason: orNull(item.data_stale_reason),
		last_free_day_date: orNull(item.last_free_day_date),
		days_until_last_free_day: orNull(item.days_until_last_free_day),
		last_free_day_facility: orNull(item.last_free_day_facility),
		last_free_day_timezone: orNull(item.last_free_day_timezone),
		last_free_day: orNull(item.last_free_day),
		last_free_day_source: orNull(item.last_free_day_source),
		earliest_last_free_day: orNull(item.earliest_last_free_day),
		active_holds: holds.map((hold) => String(record(hold)?.name ?? hold)),
		customs_cleared: orNull(item.customs_cleared),
		fees_total: orNull(item.fees_total),
		fees_currency: orNull(item.fees_currency),
		fees_by_type: orNull(item.fees_by_type),
		...(Object.keys(byCurrency).length > 1 ? { fees_by_currency: byCurrency } : {}),
		terminal: orNull(terminal?.name ?? item.pod_terminal_id),
		vessel: orNull(shipment.pod_vessel_name),
		pod_eta_at: orNull(shipment.pod_eta_at),
		pod_original_eta_at: orNull(shipment.pod_original_eta_at),
		pod_ata_at: orNull(item.pod_arrived_at ?? shipment.pod_ata_at),
		pod_discharged_at: orNull(item.pod_discharged_at),
		picked_up_at: orNull(item.picked_up_at),
		rail_after_port: orNull(item.rail_after_port),
		rail_carrier_scac: orNull(item.ind_rail_carrier_scac ?? item.pod_rail_carrier_scac),
		inland_eta_at: orNull(item.ind_eta_at),
		inland_arrived_at: orNull(item.ind_ata_at),
		empty_returned_at: orNull(item.empty_terminated_at),
		bill_of_lading: orNull(shipment.bill_of_lading_number),
		shipping_line: orNull(shipment.shipping_line_name ?? shipment.shipping_line_short_name),
		shipping_line_scac: orNull(shipment.shipping_line_scac),
		container_as_of: orNull(item.container_as_of),
		id: item.id,
		shipment_id: orNull(item.shipment_id),
	};
	if (Array.isArray(item.warnings)) simplified.warnings = item.warnings;
	return simplified;
}

/**
 * The simplified shape of a flat item that needs no working out: `fields` in this order, null
 * when unknown, and `warnings` only when the item has some.
 */
export function pickFields(item: IDataObject, fields: readonly string[]): IDataObject {
	const simplified: IDataObject = {};
	for (const field of fields) simplified[field] = orNull(item[field]);
	if (Array.isArray(item.warnings)) simplified.warnings = item.warnings;
	return simplified;
}

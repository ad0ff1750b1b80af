/**
 * Drift: what the sandbox serves when it serves data as the real service sends it, rather than
 * only the values the interface's tables list (`--drift`, `POST /_sandbox/drift`).
 *
 * Real answers and deliveries carry values outside the interface's tables, null relationships,
 * records without `links`, extra members, null entries in lists of strings and numbers sent as
 * numeric strings. These transforms add exactly that to what is SERVED: they take a copy, never
 * the stored record, so the world's state (and every changeset built from it) stays as it was.
 *
 * Determinism: a record drifts the same way on every read and in every delivery. Mutations that
 * apply to a subset of records choose it with a sha256 of a stable key of the record (never a
 * random id; see `driftKey`) salted per mutation, so each subset holds about half the records,
 * independently of the others. The salts are chosen so that the numbers the test suites use
 * fall on both sides of every subset (see `test/sandbox/drift.test.ts`).
 *
 * What drift never touches, because clients decide on it: ids, types, `event` names, container
 * `number`, `bill_of_lading_number`, `current_status`, timestamps, `available_for_pickup`,
 * `availability_known`, the holds and fees the service reported (drift only appends one hold
 * that does not block and one fee of amount 0), a changeset, the inference's `number_type`,
 * `decision` and `selected`, and every relationship a client needs to find the subject of a
 * document (a delivery's `reference_object` and `webhook`, a tracking request's
 * `tracked_object`, a transport event's `container`). Error answers are not drifted.
 */
import { createHash } from 'node:crypto';

import type { Resource } from './world/store';

/** Whether the sandbox drifts what it serves; shared by the server, deliveries and control API. */
export interface DriftSwitch {
	enabled: boolean;
}

/** `primary`: a document's `data`; `included`: a record in a document's `included`. */
export type DriftRole = 'primary' | 'included';

/**
 * The values drift serves that the interface's tables do not list (and the extra members it
 * adds), named so that tests can assert that they reach the node's items unchanged.
 */
export const DRIFT_VALUES = {
	/** transport_event `data_source` served instead of `terminal`. */
	dataSource: 'pierpass',
	/** container `equipment_length` (feet): 53-foot domestic boxes. */
	equipmentLength: 53,
	equipmentType: 'ventilated',
	equipmentHeight: 'super_high_cube',
	/** Hold appended to `holds_at_pod_terminal`: an unseen name and status, never blocking. */
	hold: { name: 'CTF', status: 'satisfied', description: 'Clean Truck Fee paid' },
	/** Type of the fee appended to `fees_at_pod_terminal`, always with amount 0. */
	feeType: 'storage',
	/** shipment `line_tracking_stopped_reason`. */
	lineTrackingStoppedReason: 'account_closed',
	/** tracking_request `status` served instead of `pending` and `awaiting_manifest`. */
	trackingRequestStatus: { pending: 'accepted', awaiting_manifest: 'hold' },
	/** tracking_request `failed_reason` served instead of `not_found`. */
	failedReason: 'scac_auto_detect_failed',
	/** tracking_request `request_type` served instead of `booking`. */
	requestType: 'booking_number',
	/** Top-level member of every drifted document and delivery. */
	jsonapi: { version: '1.0' },
	/** Resource-level `meta` of every drifted record (and of a delivery's `data`). */
	resourceMeta: { source_system: 'svc-core', schema_revision: 7 },
	/** Top-level `meta` of every drifted delivery. */
	notificationMeta: { api_version: 'v2', delivery_format: 'webhook_notification' },
	/** `attributes.custom_fields` of containers and shipments: a nested object of unknown members. */
	customFields: { po_number: null, consignee_code: 'ACME-WEST', priority: 'standard' },
	/** `attributes.provided_data` of terminals and rail terminals, as the published examples carry it. */
	providedData: {
		pickup_lfd: false,
		pickup_lfd_notes: '',
		available_for_pickup: true,
		available_for_pickup_notes: '',
		fees_at_pod_terminal: true,
		fees_at_pod_terminal_notes: '',
		holds_at_pod_terminal: true,
		holds_at_pod_terminal_notes: '',
	},
	/** `attributes.source` of tracking requests. */
	trackingRequestSource: 'api',
	/** `attributes.vessel_type` of vessels. */
	vesselType: 'Container Ship',
	/** `attributes.beta` of inference results. */
	inferenceBeta: true,
} as const;

/**
 * Extra attributes drift adds, by record type (besides `attributes.id`, a copy of the record's
 * id that every drifted record carries, as the published examples show). Values are in
 * `DRIFT_VALUES` or derived from the record itself.
 */
export const DRIFT_EXTRA_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
	container: ['last_status_refresh_at', 'custom_fields'],
	shipment: ['booking_number', 'custom_fields'],
	transport_event: ['estimated'],
	tracking_request: ['tags', 'source'],
	terminal: ['provided_data'],
	rail_terminal: ['provided_data'],
	vessel: ['vessel_type'],
	infer_number_results: ['beta'],
	webhook: ['description'],
};

/**
 * The mutations that apply to a subset of records, each with the salt of its hash. The `#n`
 * suffixes were picked so that the suites' usual numbers fall on both sides of every subset:
 * MSCU1000022 and MSKU4807969 on opposite sides of each container, shipment and tracking
 * request subset (taking turns at being the drifted one), `withCheckDigit('MSCU500001')` to
 * `…500004` on both sides; the terminal events of every discharge port and inland destination
 * on both sides of `transport_event.data_source`; the terminals of a port on both sides of
 * `terminal.port_null`; `TEST-TR-FAILED` in the `failed_reason` subset and `TEST-TR-NOT-FOUND`
 * (also `not_found` with SCAC TEST) out of it; booking numbers 254839201 and 254839203 in the
 * `request_type` subset, 254839202 and 254839204 out of it.
 */
export const DRIFT_SUBSETS = {
	/** container and shipment: `ref_numbers` gets a null entry. */
	'container.ref_numbers_null': 'container.ref_numbers_null',
	'container.weight_as_string': 'container.weight_as_string#3',
	'container.equipment_length': 'container.equipment_length',
	'container.equipment_type': 'container.equipment_type#2',
	'container.equipment_height': 'container.equipment_height',
	'container.extra_hold': 'container.extra_hold#1',
	'container.extra_fee': 'container.extra_fee',
	/**
	 * Deliveries only: a move of the vessel's ETA also comes as a `container.updated` of the
	 * container with `pod_eta_at` in its changeset, which the interface does not list
	 * (sandbox/world/world.ts, `sendEtaChangesWithDrift`).
	 */
	'container.pod_eta_at_change': 'container.pod_eta_at_change',
	/** Deliveries only: the included container's `relationships.shipment` is `{data: null}`. */
	'container.shipment_null': 'container.shipment_null#10',
	'shipment.ref_numbers_null': 'shipment.ref_numbers_null#2',
	'shipment.tags_null': 'shipment.tags_null#12',
	'shipment.stopped_reason': 'shipment.stopped_reason#2',
	/** Included shipment, port, vessel and metro_area records lose `relationships`. */
	'included.no_relationships': 'included.no_relationships#1',
	/** Included terminals get `relationships.port = {data: null}`. */
	'terminal.port_null': 'terminal.port_null#21',
	/** port and metro_area `latitude`/`longitude` as numeric strings. */
	'place.coordinates_as_strings': 'place.coordinates_as_strings#1',
	'transport_event.data_source': 'transport_event.data_source',
	'tracking_request.status': 'tracking_request.status#3',
	'tracking_request.failed_reason': 'tracking_request.failed_reason#6',
	'tracking_request.request_type': 'tracking_request.request_type',
} as const;

export type DriftSubset = keyof typeof DRIFT_SUBSETS;

// Separator that cannot appear in the keys, so that ('ab', 'c') and ('a', 'bc') differ.
const SEPARATOR = '\u001f';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
	return value === null || value === undefined ? '' : String(value);
}

/**
 * The stable key a record's subsets are chosen by: what identifies it in the real world, never
 * a random UUID (tests use fixed container numbers, ids are fresh on every run).
 */
export function driftKey(record: { type: string; id?: string; attributes?: unknown }): string {
	const attributes = isObject(record.attributes) ? record.attributes : {};
	switch (record.type) {
		case 'container':
			return text(attributes.number);
		case 'shipment':
			return text(attributes.bill_of_lading_number);
		case 'tracking_request':
			return text(attributes.request_number);
		case 'transport_event':
			// The container id is not stable across runs: the event and where it happened are.
			return [text(attributes.event), text(attributes.location_locode)].join(SEPARATOR);
		case 'terminal':
		case 'rail_terminal':
			return text(attributes.firms_code ?? attributes.name);
		case 'port':
		case 'metro_area':
			return text(attributes.code ?? attributes.name);
		case 'vessel':
			return text(attributes.imo ?? attributes.name);
		default:
			return `${record.type}${SEPARATOR}${text(record.id)}`;
	}
}

/** A number in [0, 1) fixed by the subset's salt and the key. */
function share(subset: DriftSubset, key: string): number {
	const digest = createHash('sha256').update(`${DRIFT_SUBSETS[subset]}${SEPARATOR}${key}`).digest();
	return digest.readUInt32BE(0) / 2 ** 32;
}

/** Whether `record` belongs to the subset a mutation applies to (about half the records). */
export function inDriftSubset(
	subset: DriftSubset,
	record: { type: string; id?: string; attributes?: unknown },
): boolean {
	return share(subset, driftKey(record)) < 0.5;
}

/** `list` with a null entry: appended, or `[null]` for an empty (or null) list. */
function withNullEntry(list: unknown): unknown {
	if (list === null || list === undefined) return [null];
	return Array.isArray(list) ? [...list, null] : list;
}

/** A numeric string for a number ("33.7361"); anything else as it was. */
function numericString(value: unknown): unknown {
	return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

/** Nine digits derived from `seed`: a booking number that stays the same for the same shipment. */
function derivedDigits(seed: string, count: number): string {
	const digest = createHash('sha256').update(`booking${SEPARATOR}${seed}`).digest();
	let digits = '';
	for (let index = 0; digits.length < count; index++) digits += String(digest[index] % 10);
	return digits;
}

function driftContainer(record: Resource, attributes: Json): void {
	attributes.last_status_refresh_at =
		attributes.terminal_checked_at ?? attributes.created_at ?? null;
	attributes.custom_fields = structuredClone(DRIFT_VALUES.customFields);
	if (inDriftSubset('container.ref_numbers_null', record))
		attributes.ref_numbers = withNullEntry(attributes.ref_numbers);
	if (inDriftSubset('container.weight_as_string', record))
		attributes.weight_in_lbs = numericString(attributes.weight_in_lbs);
	if (
		typeof attributes.equipment_length === 'number' &&
		inDriftSubset('container.equipment_length', record)
	)
		attributes.equipment_length = DRIFT_VALUES.equipmentLength;
	if (
		typeof attributes.equipment_type === 'string' &&
		inDriftSubset('container.equipment_type', record)
	)
		attributes.equipment_type = DRIFT_VALUES.equipmentType;
	if (
		typeof attributes.equipment_height === 'string' &&
		inDriftSubset('container.equipment_height', record)
	)
		attributes.equipment_height = DRIFT_VALUES.equipmentHeight;
	if (
		Array.isArray(attributes.holds_at_pod_terminal) &&
		inDriftSubset('container.extra_hold', record)
	)
		attributes.holds_at_pod_terminal = [
			...attributes.holds_at_pod_terminal,
			{ ...DRIFT_VALUES.hold },
		];
	if (
		Array.isArray(attributes.fees_at_pod_terminal) &&
		inDriftSubset('container.extra_fee', record)
	) {
		const fees = attributes.fees_at_pod_terminal as unknown[];
		const currencies = new Set(fees.map((fee) => (isObject(fee) ? fee.currency_code : undefined)));
		const [currency] = [...currencies];
		const fee: Json = { type: DRIFT_VALUES.feeType, amount: 0 };
		// The currency the other fees share; none when they have none or several.
		if (fees.length > 0 && currencies.size === 1 && typeof currency === 'string')
			fee.currency_code = currency;
		attributes.fees_at_pod_terminal = [...fees, fee];
	}
}

function driftShipment(record: Resource, attributes: Json): void {
	attributes.booking_number = derivedDigits(driftKey(record), 9);
	attributes.custom_fields = structuredClone(DRIFT_VALUES.customFields);
	if (inDriftSubset('shipment.ref_numbers_null', record))
		attributes.ref_numbers = withNullEntry(attributes.ref_numbers);
	if (inDriftSubset('shipment.tags_null', record)) attributes.tags = withNullEntry(attributes.tags);
	// A shipment that names no customer comes without the member, as real accounts send it.
	if (attributes.customer_name === null) delete attributes.customer_name;
	if (inDriftSubset('shipment.stopped_reason', record)) {
		attributes.line_tracking_stopped_reason = DRIFT_VALUES.lineTrackingStoppedReason;
		attributes.line_tracking_stopped_at ??=
			attributes.line_tracking_last_attempted_at ?? attributes.created_at ?? null;
	}
}

function driftTransportEvent(record: Resource, attributes: Json): void {
	attributes.estimated = text(attributes.event).includes('.estimated.');
	if (attributes.data_source === 'terminal' && inDriftSubset('transport_event.data_source', record))
		attributes.data_source = DRIFT_VALUES.dataSource;
}

function driftTrackingRequest(record: Resource, attributes: Json): void {
	attributes.tags = Array.isArray(attributes.shipment_tags) ? [...attributes.shipment_tags] : [];
	attributes.source = DRIFT_VALUES.trackingRequestSource;
	const status = attributes.status;
	if (
		(status === 'pending' || status === 'awaiting_manifest') &&
		inDriftSubset('tracking_request.status', record)
	)
		attributes.status = DRIFT_VALUES.trackingRequestStatus[status];
	if (
		attributes.failed_reason === 'not_found' &&
		inDriftSubset('tracking_request.failed_reason', record)
	)
		attributes.failed_reason = DRIFT_VALUES.failedReason;
	if (
		attributes.request_type === 'booking' &&
		inDriftSubset('tracking_request.request_type', record)
	)
		attributes.request_type = DRIFT_VALUES.requestType;
}

function driftPlace(record: Resource, attributes: Json): void {
	if (!inDriftSubset('place.coordinates_as_strings', record)) return;
	attributes.latitude = numericString(attributes.latitude);
	attributes.longitude = numericString(attributes.longitude);
}

const LOSE_RELATIONSHIPS_WHEN_INCLUDED = new Set(['shipment', 'port', 'vessel', 'metro_area']);

/** Drifts `record` in place (a copy the caller owns). */
function mutateRecord(drifted: Json, role: DriftRole): void {
	const record = drifted as unknown as Resource;
	const attributes: Json | undefined = isObject(drifted.attributes)
		? drifted.attributes
		: undefined;
	if (attributes) {
		// Seen in the published examples: the id repeated inside the attributes.
		if (typeof drifted.id === 'string' && !('id' in attributes)) attributes.id = drifted.id;
		switch (record.type) {
			case 'container':
				driftContainer(record, attributes);
				break;
			case 'shipment':
				driftShipment(record, attributes);
				break;
			case 'transport_event':
				driftTransportEvent(record, attributes);
				break;
			case 'tracking_request':
				driftTrackingRequest(record, attributes);
				break;
			case 'port':
			case 'metro_area':
				driftPlace(record, attributes);
				break;
			case 'terminal':
			case 'rail_terminal':
				attributes.provided_data = structuredClone(DRIFT_VALUES.providedData);
				break;
			case 'vessel':
				attributes.vessel_type = DRIFT_VALUES.vesselType;
				break;
			case 'infer_number_results':
				attributes.beta = DRIFT_VALUES.inferenceBeta;
				break;
			case 'webhook':
				attributes.description = null;
				break;
			default:
				break;
		}
	}
	drifted.meta = structuredClone(DRIFT_VALUES.resourceMeta);
	if (role === 'primary') return;
	delete drifted.links;
	if (
		LOSE_RELATIONSHIPS_WHEN_INCLUDED.has(record.type) &&
		inDriftSubset('included.no_relationships', record)
	)
		delete drifted.relationships;
	if (
		record.type === 'terminal' &&
		isObject(drifted.relationships) &&
		inDriftSubset('terminal.port_null', record)
	)
		drifted.relationships = { ...drifted.relationships, port: { data: null } };
}

function isRecord(value: unknown): value is Json & { type: string } {
	return isObject(value) && typeof value.type === 'string';
}

/**
 * What the sandbox serves for `record` under drift, as a document's `data` (`primary`) or in
 * its `included`: a mutated deep copy (the record itself is left as it was). The same record
 * always drifts the same way.
 */
export function driftRecord<T extends Resource>(record: T, role: DriftRole): T {
	const drifted = structuredClone(record);
	if (isRecord(drifted)) mutateRecord(drifted, role);
	return drifted;
}

/**
 * A 2xx JSON answer under /v2 as drift serves it: every record drifted (`data` as primary,
 * `included` as included), a top-level `jsonapi`, and no `meta` on list documents. Bodies that
 * are not JSON:API documents (or carry `errors`) come back unchanged.
 */
export function driftDocument<T>(body: T): T {
	if (!isObject(body) || !('data' in body) || 'errors' in body) return body;
	const drifted = structuredClone(body) as Json;
	drifted.jsonapi = structuredClone(DRIFT_VALUES.jsonapi);
	if (Array.isArray(drifted.data)) {
		for (const record of drifted.data) if (isRecord(record)) mutateRecord(record, 'primary');
		// `meta` may be missing (docs/service.md, "Pagination"): a client follows links.next,
		// never meta.total.
		delete drifted.meta;
	} else if (isRecord(drifted.data)) mutateRecord(drifted.data, 'primary');
	if (Array.isArray(drifted.included))
		for (const record of drifted.included) if (isRecord(record)) mutateRecord(record, 'included');
	return drifted as T;
}

/**
 * A webhook delivery's envelope as drift sends it (before it is serialized and signed): the
 * included records drifted, an extra member in `data.attributes` (`webhook_url`: the address
 * the delivery goes to, null when not given), `meta` on `data` and at the top, `jsonapi`, and
 * (deliveries only) the included container's `relationships.shipment` set to `{data: null}` for
 * the subset. The envelope's own relationships (`reference_object`, `webhook`) are left alone.
 */
export function driftNotification<T>(envelope: T, context: { webhookUrl?: string } = {}): T {
	if (!isObject(envelope)) return envelope;
	const drifted = structuredClone(envelope) as Json;
	drifted.jsonapi = structuredClone(DRIFT_VALUES.jsonapi);
	drifted.meta = structuredClone(DRIFT_VALUES.notificationMeta);
	if (isObject(drifted.data)) {
		if (isObject(drifted.data.attributes))
			drifted.data.attributes.webhook_url = context.webhookUrl ?? null;
		drifted.data.meta = structuredClone(DRIFT_VALUES.resourceMeta);
	}
	if (!Array.isArray(drifted.included)) return drifted as T;
	for (const record of drifted.included) {
		if (!isRecord(record)) continue;
		mutateRecord(record, 'included');
		// The delivery's reference object still names the shipment.
		if (
			record.type === 'container' &&
			isObject(record.relationships) &&
			inDriftSubset('container.shipment_null', record)
		)
			record.relationships = { ...record.relationships, shipment: { data: null } };
	}
	return drifted as T;
}

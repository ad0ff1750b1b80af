/**
 * Finding records by number, as the service does (docs/service.md, "Search" and "Endpoints"):
 * - `GET /search?query=`: the account's shipments, containers and tracking requests whose bill
 *   of lading, container, request or reference number contains the text (any case, spaces
 *   ignored): shipments first, then containers (type `cargo`), then tracking requests, each
 *   newest first, at most 25, no pagination;
 * - the filters of `GET /shipments` and `GET /tracking_requests`.
 */
import type { Resource } from './world/store';
import type { World } from './world/world';

/** The service returns no more than this, whatever matched. */
export const SEARCH_LIMIT = 25;

const normalized = (text: unknown): string =>
	typeof text === 'string' ? text.replace(/\s+/g, '').toUpperCase() : '';

const strings = (value: unknown): string[] =>
	Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];

const newestFirst = (a: Resource, b: Resource) =>
	String(b.attributes.created_at ?? '').localeCompare(String(a.attributes.created_at ?? ''));

const relatedId = (record: Resource, name: string): string | null => {
	const data = record.relationships?.[name]?.data as { id?: string } | null | undefined;
	return data?.id ?? null;
};

/** One result: what every kind carries, from its own record and its shipment's. */
function result(
	record: Resource,
	type: string,
	shipment: Resource | undefined,
	own: Record<string, unknown>,
): Record<string, unknown> {
	return {
		id: record.id,
		type,
		attributes: {
			entity_type: type,
			number: null,
			shipment_id: shipment?.id ?? null,
			scac: shipment?.attributes.shipping_line_scac ?? null,
			port_of_lading_name: shipment?.attributes.port_of_lading_name ?? null,
			port_of_discharge_name: shipment?.attributes.port_of_discharge_name ?? null,
			containers_count: null,
			tracking_stopped: Boolean(shipment?.attributes.line_tracking_stopped_at),
			tracking_stopped_reason: shipment?.attributes.line_tracking_stopped_reason ?? null,
			status: null,
			failed_reason: null,
			ref_numbers: strings(record.attributes.ref_numbers),
			created_at: record.attributes.created_at ?? null,
			updated_at: record.attributes.updated_at ?? record.attributes.created_at ?? null,
			...own,
		},
	};
}

export function searchResults(world: World, query: string): Array<Record<string, unknown>> {
	const wanted = normalized(query);
	const matches = (...texts: unknown[]) => texts.some((text) => normalized(text).includes(wanted));
	const store = world.store;
	const found = (type: string, numbers: (record: Resource) => unknown[]) =>
		store
			.list(type)
			.filter((record) => matches(...numbers(record), ...strings(record.attributes.ref_numbers)))
			.sort(newestFirst);
	const shipmentOf = (record: Resource, name: string) => {
		const id = relatedId(record, name);
		return id ? store.get('shipment', id) : undefined;
	};

	const shipments = found('shipment', (shipment) => [
		shipment.attributes.bill_of_lading_number,
		shipment.attributes.normalized_number,
	]).map((shipment) =>
		result(shipment, 'shipment', shipment, {
			number: shipment.attributes.bill_of_lading_number ?? null,
			containers_count: ((shipment.relationships?.containers?.data as unknown[] | undefined) ?? [])
				.length,
		}),
	);
	const containers = found('container', (container) => [container.attributes.number]).map(
		(container) =>
			result(container, 'cargo', shipmentOf(container, 'shipment'), {
				number: container.attributes.number ?? null,
				status: container.attributes.current_status ?? null,
			}),
	);
	const trackingRequests = found('tracking_request', (request) => [
		request.attributes.request_number,
	]).map((request) =>
		result(request, 'tracking_request', shipmentOf(request, 'tracked_object'), {
			number: request.attributes.request_number ?? null,
			scac: request.attributes.scac ?? null,
			status: request.attributes.status ?? null,
			failed_reason: request.attributes.failed_reason ?? null,
			updated_at: request.attributes.updated_at ?? null,
		}),
	);

	return [...shipments, ...containers, ...trackingRequests].slice(0, SEARCH_LIMIT);
}

/**
 * `GET /shipments`' filters: `number`, the number that was tracked (a bill of lading, booking or
 * container number, whole, any case), and `filter[tracking_stopped]` (`true` or `false`); newest
 * first.
 */
export function shipmentsMatching(world: World, query: URLSearchParams): Resource[] {
	const number = normalized(query.get('number') ?? query.get('q'));
	const stopped = query.get('filter[tracking_stopped]');
	const trackedAs = (shipment: Resource) => [
		shipment.attributes.bill_of_lading_number,
		...world.store
			.list('tracking_request')
			.filter((request) => relatedId(request, 'tracked_object') === shipment.id)
			.map((request) => request.attributes.request_number),
	];
	return world.store
		.list('shipment')
		.filter(
			(shipment) =>
				!number || trackedAs(shipment).some((tracked) => normalized(tracked) === number),
		)
		.filter(
			(shipment) =>
				stopped === null ||
				String(Boolean(shipment.attributes.line_tracking_stopped_at)) === stopped,
		)
		.sort(newestFirst);
}

/**
 * `GET /tracking_requests`' filters: `filter[request_number]` (whole, any case), `filter[scac]`,
 * `filter[status]`, `filter[created_at][start|end]` and `filter[updated_at][start|end]` (ISO
 * 8601, inclusive); newest first.
 */
export function trackingRequestsMatching(world: World, query: URLSearchParams): Resource[] {
	const number = normalized(query.get('filter[request_number]'));
	const scac = normalized(query.get('filter[scac]'));
	const status = query.get('filter[status]');
	const within = (record: Resource, name: 'created_at' | 'updated_at') => {
		const at = Date.parse(String(record.attributes[name] ?? ''));
		const start = Date.parse(query.get(`filter[${name}][start]`) ?? '');
		const end = Date.parse(query.get(`filter[${name}][end]`) ?? '');
		return (Number.isNaN(start) || at >= start) && (Number.isNaN(end) || at <= end);
	};
	return world.store
		.list('tracking_request')
		.filter(
			(request) =>
				(!number || normalized(request.attributes.request_number) === number) &&
				(!scac || normalized(request.attributes.scac) === scac) &&
				(!status || request.attributes.status === status) &&
				within(request, 'created_at') &&
				within(request, 'updated_at'),
		)
		.sort(newestFirst);
}

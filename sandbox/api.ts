/**
 * The service's endpoints under /v2 (docs/service.md, "Endpoints"), the container list, the
 * webhook endpoints and the notification log included. Bodies follow the JSON:API envelope field
 * for field.
 */
import { randomBytes } from 'node:crypto';

import { inferNumberResponseBody } from './inferNumber';
import { ApiError, badRequest, notFound, unprocessable, type ApiAnswer } from './http/jsonApi';
import { copy, paginate, parseInclude, resolveIncluded, type RequestUrl } from './http/documents';
import type { RateBucket } from './http/rateLimiter';
import type { WebhookDispatcher } from './webhooks/delivery';
import type { NotificationLog } from './webhooks/notificationLog';
import { searchResults, shipmentsMatching, trackingRequestsMatching } from './search';
import { eventCategories } from './world/eventNames';
import { shippingLineRecords } from './world/shippingLines';
import { routeAnswer } from './route';
import { vesselAnswer } from './vessels';
import { rawEventsOf } from './world/rawEvents';
import { randomUuid } from './world/random';
import type { Resource } from './world/store';
import { isoTimestamp } from './world/time';
import type { World } from './world/world';

export interface ApiRequest extends RequestUrl {
	method: string;
	params: Record<string, string>;
	body: unknown;
}

export interface Route {
	method: string;
	/** Path under /v2 with `:name` parameters. */
	pattern: string;
	bucket: RateBucket;
	handle(request: ApiRequest): ApiAnswer | Promise<ApiAnswer>;
}

const CONTAINER_INCLUDES = [
	'shipment',
	'pod_terminal',
	'pickup_facility',
	'transport_events',
] as const;
const TRANSPORT_EVENT_INCLUDES = [
	'shipment',
	'container',
	'vessel',
	'location',
	'terminal',
] as const;
// The relationships a shipment names; the node's Shipment → Get asks for them to flatten them.
const SHIPMENT_INCLUDES = [
	'containers',
	'port_of_lading',
	'port_of_discharge',
	'destination',
	'pod_terminal',
	'destination_terminal',
] as const;
// The notification log: its webhook, and what its delivery carried.
const NOTIFICATION_INCLUDES = ['webhook', 'reference_object'] as const;

/**
 * Writes are wrapped in `{data: {type, attributes}}`
 * (docs/service.md, "Base URL and authentication").
 */
function wrappedAttributes(body: unknown, type: string): Record<string, unknown> {
	const data = (body as { data?: unknown } | null)?.data as
		| { type?: unknown; attributes?: unknown }
		| undefined;
	if (!data || typeof data !== 'object') {
		throw unprocessable(
			'The body must be {"data": {"type": ..., "attributes": {...}}}',
			'/data',
			'invalid',
		);
	}
	if (data.type !== type)
		throw unprocessable(`data.type must be "${type}"`, '/data/type', 'invalid');
	if (!data.attributes || typeof data.attributes !== 'object' || Array.isArray(data.attributes)) {
		throw unprocessable('data.attributes must be an object', '/data/attributes', 'invalid');
	}
	return data.attributes as Record<string, unknown>;
}

function stringList(value: unknown, pointer: string): string[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
		throw unprocessable('must be a list of strings', pointer, 'invalid');
	}
	return value as string[];
}

function requiredString(value: unknown, pointer: string, label: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value !== 'string')
		throw unprocessable(`${label} must be a string`, pointer, 'invalid');
	return value;
}

function single(resource: Resource, request: RequestUrl, included?: Resource[]): ApiAnswer {
	const body: Record<string, unknown> = {
		data: copy(resource),
		links: { self: `${request.baseUrl}${request.path}` },
	};
	if (included) body.included = included;
	return { status: 200, body };
}

/** A list whose pages include the related records `include` asks for, among `allowed`. */
function listIncluding(
	world: World,
	all: Resource[],
	request: RequestUrl,
	allowed: readonly string[],
): ApiAnswer {
	const includes = parseInclude(request.query, allowed);
	return list(
		all,
		request,
		includes.length > 0 ? (page) => resolveIncluded(world.store, page, includes) : undefined,
	);
}

/** One page of `all`; `included` gives the page's included records, when asked for. */
function list(
	all: Resource[],
	request: RequestUrl,
	included?: (page: Resource[]) => Resource[],
): ApiAnswer {
	const page = paginate(all, request);
	const body: Record<string, unknown> = {
		data: page.items.map(copy),
		links: page.links,
		meta: page.meta,
	};
	if (included) body.included = included(page.items);
	return { status: 200, body };
}

/**
 * The `included` of the notification log, per notification: with `reference_object`, the records
 * its delivery carried, as it carried them (a reference-only delivery carried none); with
 * `webhook`, its webhook as GET /webhooks shows it (none once deleted). A record several
 * notifications of a page carried appears once, as the first of them (the newest) carried it.
 */
function notificationIncluded(
	world: World,
	log: NotificationLog,
	notifications: Resource[],
	includes: string[],
): Resource[] {
	const key = (record: Resource) => `${record.type}:${record.id}`;
	const seen = new Set(notifications.map(key));
	const included: Resource[] = [];
	for (const notification of notifications) {
		const records = [
			...(includes.includes('reference_object') ? (log.carriedBy(notification.id) ?? []) : []),
			...(includes.includes('webhook') ? world.store.related(notification, 'webhook') : []),
		];
		for (const record of records) {
			if (seen.has(key(record))) continue;
			seen.add(key(record));
			included.push(copy(record));
		}
	}
	return included;
}

function webhookResource(world: World, id: string): Resource {
	const webhook = world.store.get('webhook', id);
	if (!webhook) throw notFound();
	return webhook;
}

/** Order-free but stable: the service returns transport events in no particular order. */
function unsorted(events: Resource[]): Resource[] {
	return [...events].sort((a, b) => a.id.localeCompare(b.id));
}

export function apiRoutes(world: World, dispatcher: WebhookDispatcher): Route[] {
	const log = dispatcher.notifications;
	return [
		{
			method: 'POST',
			pattern: '/tracking_requests/infer_number',
			bucket: 'infer_number',
			handle: (request) => {
				// The one flat body of the interface: {"number": "..."}.
				const number = (request.body as { number?: unknown } | null)?.number;
				if (typeof number !== 'string' || number.trim() === '') {
					throw new ApiError(422, [
						{
							status: '422',
							title: 'Unprocessable Entity',
							detail: 'This reference number is not valid.',
							code:
								typeof number === 'string' || number === undefined || number === null
									? 'blank'
									: 'invalid',
							source: { pointer: '/number' },
						},
					]);
				}
				return { status: 200, body: inferNumberResponseBody(number) };
			},
		},
		{
			method: 'POST',
			pattern: '/tracking_requests',
			bucket: 'tracking_requests',
			handle: (request) => {
				const attributes = wrappedAttributes(request.body, 'tracking_request');
				const trackingRequest = world.createTrackingRequest({
					request_number: requiredString(
						attributes.request_number,
						'/data/attributes/request_number',
						'Request number',
					),
					request_type: requiredString(
						attributes.request_type,
						'/data/attributes/request_type',
						'Request type',
					),
					scac: requiredString(attributes.scac, '/data/attributes/scac', 'Scac'),
					auto_detect_vocc_scac: attributes.auto_detect_vocc_scac === true,
					initial_custom_fields: attributes.initial_custom_fields,
					ref_numbers: stringList(attributes.ref_numbers, '/data/attributes/ref_numbers'),
					shipment_tags: stringList(attributes.shipment_tags, '/data/attributes/shipment_tags'),
				});
				return { status: 201, body: { data: copy(trackingRequest) } };
			},
		},
		{
			method: 'GET',
			pattern: '/tracking_requests',
			bucket: 'default',
			handle: (request) => list(trackingRequestsMatching(world, request.query), request),
		},
		{
			method: 'GET',
			pattern: '/tracking_requests/:id',
			bucket: 'default',
			handle: (request) => {
				const trackingRequest = world.store.get('tracking_request', request.params.id);
				if (!trackingRequest) throw notFound();
				return single(trackingRequest, request);
			},
		},
		{
			method: 'GET',
			pattern: '/containers',
			bucket: 'default',
			handle: (request) =>
				listIncluding(world, world.store.list('container'), request, CONTAINER_INCLUDES),
		},
		{
			method: 'GET',
			pattern: '/containers/:id',
			bucket: 'default',
			handle: (request) => {
				const includes = parseInclude(request.query, CONTAINER_INCLUDES);
				const container = world.requireContainer(request.params.id);
				return single(
					container,
					request,
					includes.length > 0 ? resolveIncluded(world.store, [container], includes) : undefined,
				);
			},
		},
		{
			method: 'PATCH',
			pattern: '/containers/:id/refresh',
			bucket: 'refresh',
			// Not JSON:API: a message, as the service answers it.
			handle: (request) => ({ status: 200, body: world.refreshContainer(request.params.id) }),
		},
		{
			method: 'GET',
			pattern: '/containers/:id/route',
			bucket: 'default',
			handle: (request) => routeAnswer(world, request.params.id),
		},
		{
			method: 'GET',
			pattern: '/containers/:id/transport_events',
			bucket: 'default',
			handle: (request) => {
				const includes = parseInclude(request.query, TRANSPORT_EVENT_INCLUDES);
				const container = world.requireContainer(request.params.id);
				const events = unsorted(world.store.related(container, 'transport_events'));
				const page = paginate(events, request);
				// As the fixture shows, this endpoint answers without `meta`.
				const body: Record<string, unknown> = { data: page.items.map(copy), links: page.links };
				body.included = resolveIncluded(world.store, page.items, includes);
				return { status: 200, body };
			},
		},
		{
			method: 'GET',
			pattern: '/containers/:id/raw_events',
			bucket: 'default',
			handle: (request) => {
				const container = world.requireContainer(request.params.id);
				const { events, vessels } = rawEventsOf(world, container);
				return { status: 200, body: { data: events, included: vessels } };
			},
		},
		{
			method: 'GET',
			pattern: '/shipping_lines',
			bucket: 'default',
			handle: () => ({ status: 200, body: { data: shippingLineRecords() } }),
		},
		{
			method: 'GET',
			pattern: '/shipping_lines/:id',
			bucket: 'default',
			handle: (request) => {
				const line = shippingLineRecords().find((record) => record.id === request.params.id);
				if (!line) throw notFound();
				return { status: 200, body: { data: line } };
			},
		},
		{
			method: 'GET',
			pattern: '/vessels/:id',
			bucket: 'default',
			handle: (request) => vesselAnswer(world, request.params.id, request.query),
		},
		{
			method: 'GET',
			pattern: '/search',
			bucket: 'default',
			handle: (request) => {
				const query = request.query.get('query')?.trim();
				if (!query) throw badRequest('query is required', { parameter: 'query' }, 'missing');
				return { status: 200, body: { data: searchResults(world, query) } };
			},
		},
		{
			method: 'GET',
			pattern: '/shipments',
			bucket: 'default',
			handle: (request) =>
				listIncluding(world, shipmentsMatching(world, request.query), request, SHIPMENT_INCLUDES),
		},
		...(['stop_tracking', 'resume_tracking'] as const).map(
			(action): Route => ({
				method: 'PATCH',
				pattern: `/shipments/:id/${action}`,
				bucket: 'default',
				handle: (request) =>
					single(
						world.setShipmentTracking(request.params.id, action === 'resume_tracking'),
						request,
					),
			}),
		),
		{
			method: 'GET',
			pattern: '/shipments/:id',
			bucket: 'default',
			handle: (request) => {
				const includes = parseInclude(request.query, SHIPMENT_INCLUDES);
				const shipment = world.store.get('shipment', request.params.id);
				if (!shipment) throw notFound();
				return single(
					shipment,
					request,
					includes.length > 0 ? resolveIncluded(world.store, [shipment], includes) : undefined,
				);
			},
		},
		{
			method: 'GET',
			pattern: '/webhooks/events',
			bucket: 'default',
			handle: () => ({ status: 200, body: { data: eventCategories(world.options.railPlan) } }),
		},
		{
			method: 'POST',
			pattern: '/webhooks/trigger',
			bucket: 'default',
			handle: async (request) => {
				// A flat body, not JSON:API, as the service takes it.
				const body = (request.body ?? {}) as Record<string, unknown>;
				const text = (name: string) =>
					typeof body[name] === 'string' && (body[name] as string).trim() !== ''
						? (body[name] as string).trim()
						: undefined;
				const url = text('url');
				const event = text('event');
				if (!url) throw new ApiError(422, [{ status: '422', detail: 'url is required' }]);
				if (!event) throw new ApiError(422, [{ status: '422', detail: 'event is required' }]);
				return { status: 200, body: await dispatcher.sendTest(url, event, text('secret')) };
			},
		},
		{
			method: 'POST',
			pattern: '/webhooks',
			bucket: 'default',
			handle: (request) => {
				const attributes = world.validateWebhookAttributes(
					wrappedAttributes(request.body, 'webhook'),
					false,
				);
				const id = randomUuid();
				const webhook = world.store.put({
					id,
					type: 'webhook',
					attributes: {
						url: attributes.url,
						active: attributes.active,
						events: attributes.events,
						secret: randomBytes(32).toString('hex'),
						headers: attributes.headers ?? null,
						created_at: isoTimestamp(world.clock.now()),
					},
					links: { self: `/v2/webhooks/${id}` },
				});
				return { status: 201, body: { data: copy(webhook) } };
			},
		},
		{
			method: 'GET',
			pattern: '/webhooks',
			bucket: 'default',
			handle: (request) => list(world.store.list('webhook'), request),
		},
		{
			method: 'GET',
			pattern: '/webhooks/:id',
			bucket: 'default',
			handle: (request) => single(webhookResource(world, request.params.id), request),
		},
		{
			method: 'PATCH',
			pattern: '/webhooks/:id',
			bucket: 'default',
			handle: (request) => {
				const webhook = webhookResource(world, request.params.id);
				const attributes = world.validateWebhookAttributes(
					wrappedAttributes(request.body, 'webhook'),
					true,
				);
				webhook.attributes = { ...webhook.attributes, ...attributes };
				dispatcher.webhookChanged(webhook.id);
				return single(webhook, request);
			},
		},
		{
			method: 'DELETE',
			pattern: '/webhooks/:id',
			bucket: 'default',
			handle: (request) => {
				webhookResource(world, request.params.id);
				world.store.delete('webhook', request.params.id);
				dispatcher.webhookChanged(request.params.id);
				return { status: 204 };
			},
		},
		{
			method: 'GET',
			pattern: '/webhook_notifications',
			bucket: 'default',
			handle: (request) => {
				const includes = parseInclude(request.query, NOTIFICATION_INCLUDES);
				// Newest first (created_at, then id, both descending), or oldest first when the control
				// API says so. The service documents no order and no filter: a client reads every page
				// and filters itself.
				return list(
					log.list(dispatcher.options.logOldestFirst),
					request,
					includes.length > 0
						? (page) => notificationIncluded(world, log, page, includes)
						: undefined,
				);
			},
		},
		{
			method: 'GET',
			pattern: '/webhook_notifications/:id',
			bucket: 'default',
			handle: (request) => {
				const includes = parseInclude(request.query, NOTIFICATION_INCLUDES);
				const notification = log.get(request.params.id);
				if (!notification) throw notFound();
				// The envelope its delivery carried, with its status now; `reference_object` gives back
				// exactly the `included` the delivery carried.
				const included =
					includes.length > 0
						? notificationIncluded(world, log, [notification], includes)
						: undefined;
				return { status: 200, body: log.envelope(notification, request.baseUrl, included) };
			},
		},
	];
}

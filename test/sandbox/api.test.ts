// The sandbox over real HTTP, as a client of the service sees it: authentication, errors,
// carrier inference, tracking requests, containers, pagination, raw events, webhooks, rate
// limits, injected faults and the control API. Every answer is checked against its schema.
// Drift stays off here whatever CT_SANDBOX_DRIFT says: these suites check the interface's own
// values; drift.test.ts checks what drift serves.
import axios, { type AxiosResponse } from 'axios';
import { z } from 'zod';

import {
	containerDocument,
	containerListDocument,
	inferNumberDocument,
	listDocument,
	rawEventListDocument,
	searchResultListDocument,
	shipment,
	singleResourceDocument,
	trackingRequest,
	trackingRequestDocument,
	transportEventListDocument,
	webhookDocument,
	webhookListDocument,
} from '../../nodes/ContainerTracking/schemas';
import { RATE_LIMITS } from '../../nodes/ContainerTracking/logic/rateLimits';
import type { SandboxClock } from '../../sandbox/clock';
import { RateLimiter } from '../../sandbox/http/rateLimiter';
import { generous } from '../support/bounds';
import {
	API_KEY,
	eventually,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';
import { expectApiError, expectOk, expectSchema, pointersOf } from './expectations';

const NOT_FOUND_BODY = { errors: [{ status: '404', title: 'Not Found' }] };
const shipmentDocument = singleResourceDocument(shipment);
const trackingRequestListDocument = listDocument(trackingRequest);

/** What the control API answers for the clock (no zod schema in the package: it is sandbox-only). */
const clockBody = z.object({
	now: z.string().datetime(),
	time_scale: z.number().positive(),
	pending_steps: z.number().int(),
});
const faultBody = z.object({
	fault: z
		.object({
			id: z.number().int(),
			path: z.string(),
			kind: z.string(),
			remaining: z.number().int().nullable(),
			rate: z.number().nullable(),
			when: z.enum(['before', 'after']),
			fired: z.number().int(),
		})
		.passthrough(),
});
const faultListBody = z.object({ faults: z.array(faultBody.shape.fault) });
const changeBody = z.object({
	changeset: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
});

function trackingRequestBody(requestNumber: string, scac: string, requestType = 'container') {
	return {
		data: {
			type: 'tracking_request',
			attributes: { request_number: requestNumber, scac, request_type: requestType },
		},
	};
}

function webhookBody(attributes: Record<string, unknown>) {
	return { data: { type: 'webhook', attributes } };
}

/** A client with no Authorization header at all. */
function anonymousClient(baseURL: string) {
	return axios.create({ baseURL, validateStatus: () => true });
}

/** Follows `links.next` from `first` until it is absent; returns every page's answer. */
async function walkPages(
	handle: SandboxHandle,
	first: string,
	params: Record<string, string>,
): Promise<AxiosResponse[]> {
	const pages: AxiosResponse[] = [];
	let response = await handle.api.get(first, { params });
	for (;;) {
		pages.push(response);
		if (response.status !== 200) return pages;
		const next = response.data.links?.next as string | undefined;
		if (!next) return pages;
		if (pages.length > 200) throw new Error('links.next never ends');
		response = await handle.api.get(next);
	}
}

function idsOf(response: AxiosResponse): string[] {
	return (response.data.data as Array<{ id: string }>).map((record) => record.id);
}

async function sandboxNow(handle: SandboxHandle): Promise<number> {
	const body = expectSchema(clockBody, (await handle.control.get('/clock')).data);
	return Date.parse(body.now);
}

// ---------------------------------------------------------------------------------------------

describe('authentication', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false });
	});
	afterAll(() => handle.stop());

	const badHeaders: Array<[string, Record<string, string>]> = [
		['no Authorization header', {}],
		['a Bearer token', { Authorization: 'Bearer x' }],
		['the word Token without a key', { Authorization: 'Token' }],
		['the word Token and a space without a key', { Authorization: 'Token ' }],
		['an unknown key', { Authorization: 'Token wrong-key' }],
		['the key without the word Token', { Authorization: API_KEY }],
	];

	it.each(badHeaders)(
		'answers 401 in JSON:API to a service call with %s',
		async (_label, headers) => {
			const client = anonymousClient(handle.sandbox.url);
			const errors = expectApiError(await client.get('/containers', { headers }), 401);
			expect(errors[0].status).toBe('401');
			expectApiError(
				await client.post(
					'/tracking_requests/infer_number',
					{ number: 'CSQU3054383' },
					{ headers },
				),
				401,
			);
		},
	);

	it.each(badHeaders)(
		'answers 401 in JSON:API to a control call with %s',
		async (_label, headers) => {
			const client = anonymousClient(handle.sandbox.controlUrl);
			expectApiError(await client.get('/clock', { headers }), 401);
		},
	);

	it('accepts `Token <key>` and answers with the JSON:API content type', async () => {
		const response = await handle.api.get('/containers');
		expectOk(response, 200, containerListDocument);
		expect(response.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
		expectSchema(clockBody, (await handle.control.get('/clock')).data);
	});
});

describe('unknown routes, unknown ids and broken bodies', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false });
	});
	afterAll(() => handle.stop());

	it.each([
		['GET', '/no_such_thing'],
		['GET', '/'],
		['POST', '/containers'],
		['DELETE', '/tracking_requests'],
	])('answers an unknown route (%s %s) with an HTML 404 page, not JSON', async (method, path) => {
		const response = await handle.api.request({ method, url: path, responseType: 'text' });
		expect(response.status).toBe(404);
		expect(response.headers['content-type']).toMatch(/^text\/html/);
		expect(response.data).toMatch(/^<!DOCTYPE html>/);
		expect(() => JSON.parse(response.data as string)).toThrow();
	});

	it('answers a path outside /v2 with the HTML 404 page too', async () => {
		const response = await anonymousClient(`http://127.0.0.1:${handle.sandbox.port}`).get(
			'/v1/containers',
			{
				responseType: 'text',
			},
		);
		expect(response.status).toBe(404);
		expect(response.headers['content-type']).toMatch(/^text\/html/);
	});

	it.each([
		['GET', '/containers/00000000-0000-0000-0000-000000000000'],
		['GET', '/containers/no-such-container/transport_events'],
		['GET', '/containers/no-such-container/raw_events'],
		['GET', '/tracking_requests/no-such-request'],
		['GET', '/shipments/no-such-shipment'],
		['GET', '/webhooks/no-such-webhook'],
		['PATCH', '/webhooks/no-such-webhook'],
		['DELETE', '/webhooks/no-such-webhook'],
		['GET', '/containers/%ZZ'],
	])('answers %s %s (unknown id) with the JSON 404 body', async (method, path) => {
		const response = await handle.api.request({
			method,
			url: path,
			data: method === 'PATCH' ? webhookBody({ active: false }) : undefined,
		});
		expectApiError(response, 404);
		expect(response.data).toEqual(NOT_FOUND_BODY);
	});

	it('answers a body that is not JSON with 400', async () => {
		const response = await handle.api.post('/webhooks', '{"data": {', {
			headers: { 'Content-Type': 'application/json' },
			// Send the broken text as is (axios would otherwise re-encode it as a JSON string).
			transformRequest: [(data: unknown) => data],
		});
		const errors = expectApiError(response, 400);
		expect(errors[0].detail ?? errors[0].title).toBeTruthy();
	});
});

describe('infer_number', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false });
	});
	afterAll(() => handle.stop());

	const infer = async (body: unknown) => handle.api.post('/tracking_requests/infer_number', body);

	it('recognises a valid container number and its check digit', async () => {
		const { data } = expectOk(await infer({ number: 'CSQU3054383' }), 200, inferNumberDocument);
		expect(data.type).toBe('infer_number_results');
		expect(data.attributes.number_type).toBe('container');
		expect(data.attributes.validation).toMatchObject({
			is_valid: true,
			type: 'container',
			check_digit_passed: true,
		});
	});

	it('answers 200 for a wrong check digit, with the verdict and a reason in validation', async () => {
		const { data } = expectOk(await infer({ number: 'CSQU3054384' }), 200, inferNumberDocument);
		expect(data.attributes.number_type).toBe('container');
		expect(data.attributes.validation?.is_valid).toBe(false);
		expect(data.attributes.validation?.check_digit_passed).toBe(false);
		expect(data.attributes.validation?.reason).toEqual(expect.stringMatching(/\S/));
	});

	it('auto-selects MSC for an MSC bill of lading', async () => {
		const { data } = expectOk(await infer({ number: 'MEDUFR030802' }), 200, inferNumberDocument);
		expect(data.attributes.number_type).toBe('bill_of_lading');
		expect(data.attributes.validation?.type).toBe('shipment');
		expect(data.attributes.shipping_line.decision).toBe('auto_select');
		expect(data.attributes.shipping_line.selected).toMatchObject({ scac: 'MSCU' });
		expect(data.attributes.shipping_line.selected!.confidence).toBeGreaterThanOrEqual(0.95);
		expect(data.attributes.shipping_line.candidates?.[0].scac).toBe('MSCU');
	});

	it('makes no prediction for an unknown prefix', async () => {
		const { data } = expectOk(await infer({ number: 'XYZQ12345678' }), 200, inferNumberDocument);
		expect(data.attributes.shipping_line.decision).toBe('no_prediction');
		expect(data.attributes.shipping_line.selected).toBeUndefined();
	});

	it.each([
		['a missing number', {}],
		['an empty number', { number: '' }],
		['a blank number', { number: '   ' }],
		['a null number', { number: null }],
		['a numeric number', { number: 3054383 }],
		['a list as number', { number: ['CSQU3054383'] }],
	])('answers 422 with a code and a pointer for %s', async (_label, body) => {
		const errors = expectApiError(await infer(body), 422);
		expect(errors[0].code).toEqual(expect.stringMatching(/\S/));
		expect(errors[0].source?.pointer).toBe('/number');
	});
});

describe('tracking requests', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
	});
	afterAll(() => handle.stop());

	const create = (body: unknown) => handle.api.post('/tracking_requests', body);

	/** Polls the tracking request until its status is no longer `pending`. */
	const settled = (id: string) =>
		eventually(
			async () => {
				const { data } = expectOk(
					await handle.api.get(`/tracking_requests/${id}`),
					200,
					trackingRequestDocument,
				);
				return data.attributes.status === 'pending' ? undefined : data;
			},
			{ what: `tracking request ${id} to leave pending` },
		);

	it('answers 201 with a pending tracking request carrying every documented attribute', async () => {
		const { data } = expectOk(
			await create(trackingRequestBody('MEDUFR030802', 'MSCU', 'bill_of_lading')),
			201,
			trackingRequestDocument,
		);
		expect(data.type).toBe('tracking_request');
		expect(Object.keys(data.attributes)).toEqual(
			expect.arrayContaining([
				'request_number',
				'request_type',
				'scac',
				'ref_numbers',
				'shipment_tags',
				'status',
				'failed_reason',
				'created_at',
				'updated_at',
				'is_retrying',
				'retry_count',
			]),
		);
		expect(data.attributes).toMatchObject({
			request_number: 'MEDUFR030802',
			request_type: 'bill_of_lading',
			scac: 'MSCU',
			status: 'pending',
			failed_reason: null,
		});
		expect(data.relationships?.tracked_object?.data).toBeNull();
	});

	it('becomes created with a shipment as tracked object', async () => {
		const { data: created } = expectOk(
			await create(trackingRequestBody('CSQU3054383', 'COSU')),
			201,
			trackingRequestDocument,
		);
		const settledRequest = await settled(created.id);
		expect(settledRequest.attributes.status).toBe('created');
		const trackedObject = settledRequest.relationships?.tracked_object?.data as
			| { id: string; type: string }
			| undefined;
		expect(trackedObject).toMatchObject({ type: 'shipment' });
		const { data: trackedShipment } = expectOk(
			await handle.api.get(`/shipments/${trackedObject!.id}`),
			200,
			shipmentDocument,
		);
		expect(trackedShipment.attributes.shipping_line_scac).toBe('COSU');
	});

	it('lists tracking requests', async () => {
		const document = expectOk(
			await handle.api.get('/tracking_requests'),
			200,
			trackingRequestListDocument,
		);
		expect(document.data.length).toBeGreaterThan(0);
	});

	it('ends TEST-TR-SUCCEEDED with SCAC TEST in created', async () => {
		const { data } = expectOk(
			await create(trackingRequestBody('TEST-TR-SUCCEEDED', 'TEST')),
			201,
			trackingRequestDocument,
		);
		const settledRequest = await settled(data.id);
		expect(settledRequest.attributes.status).toBe('created');
		expect(settledRequest.attributes.failed_reason).toBeNull();
		expect(
			(settledRequest.relationships?.tracked_object?.data as { type: string } | undefined)?.type,
		).toBe('shipment');
	});

	it('ends TEST-TR-FAILED with SCAC TEST in failed, reason not_found', async () => {
		const { data } = expectOk(
			await create(trackingRequestBody('TEST-TR-FAILED', 'TEST')),
			201,
			trackingRequestDocument,
		);
		const settledRequest = await settled(data.id);
		expect(settledRequest.attributes.status).toBe('failed');
		expect(settledRequest.attributes.failed_reason).toBe('not_found');
		expect(settledRequest.relationships?.tracked_object?.data).toBeNull();
	});

	it('answers 422 duplicate when the same number and SCAC are tracked twice', async () => {
		expectOk(
			await create(trackingRequestBody('MSCU1234566', 'MSCU')),
			201,
			trackingRequestDocument,
		);
		const errors = expectApiError(await create(trackingRequestBody('MSCU1234566', 'MSCU')), 422);
		expect(errors).toHaveLength(1);
		expect(errors[0].code).toBe('duplicate');
		expect(errors[0].source?.pointer).toBe('/data/attributes/request_number');
	});

	it.each([
		['a blank scac', { scac: '' }, '/data/attributes/scac'],
		['an unknown scac', { scac: 'XXXX' }, '/data/attributes/scac'],
		['a bad request_type', { request_type: 'pallet' }, '/data/attributes/request_type'],
		['a blank request_number', { request_number: ' ' }, '/data/attributes/request_number'],
	])('answers 422 for %s, pointing at the field', async (_label, override, pointer) => {
		const attributes = {
			request_number: 'HLCU1234567',
			scac: 'HLCU',
			request_type: 'container',
			...override,
		};
		const errors = expectApiError(
			await create({ data: { type: 'tracking_request', attributes } }),
			422,
		);
		expect(pointersOf(errors)).toEqual([pointer]);
		expect(errors[0].code).toEqual(expect.stringMatching(/\S/));
	});

	it('lists every wrong field in one 422 answer', async () => {
		const errors = expectApiError(await create(trackingRequestBody('', 'XXXX', 'pallet')), 422);
		expect(new Set(pointersOf(errors))).toEqual(
			new Set([
				'/data/attributes/request_number',
				'/data/attributes/scac',
				'/data/attributes/request_type',
			]),
		);
	});

	it('answers 422 for a body not wrapped in data', async () => {
		const errors = expectApiError(
			await create({ request_number: 'HLCU1234567', scac: 'HLCU', request_type: 'container' }),
			422,
		);
		expect(errors[0].source?.pointer).toBe('/data');
	});
});

describe('containers', () => {
	let handle: SandboxHandle;
	let containerId: string;
	let allContainerIds: string[];
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		const single = await trackContainer(handle, 'CSQU3054383', 'COSU');
		const billOfLading = await trackContainer(handle, 'MEDUFR030802', 'MSCU', 'bill_of_lading');
		const another = await trackContainer(handle, 'HLXU1234565', 'HLCU');
		containerId = single.containerIds[0];
		allContainerIds = [
			...single.containerIds,
			...billOfLading.containerIds,
			...another.containerIds,
		];
	});
	afterAll(() => handle.stop());

	it('answers GET /containers/{id} with the container and no included records', async () => {
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}`),
			200,
			containerDocument,
		);
		expect(document.data.id).toBe(containerId);
		expect(document.data.attributes.number).toBe('CSQU3054383');
		expect(document.included ?? []).toEqual([]);
	});

	it('includes the shipment, the POD terminal and the transport events once each when asked', async () => {
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}`, {
				params: { include: 'shipment,pod_terminal,transport_events' },
			}),
			200,
			containerDocument,
		);
		const included = document.included ?? [];
		const keys = included.map((record) => `${record.type}:${record.id}`);
		expect(new Set(keys).size).toBe(keys.length);
		expect(keys).not.toContain(`container:${containerId}`);

		const relationships = document.data.relationships!;
		const named = [
			relationships.shipment!.data,
			relationships.pod_terminal!.data,
			...(relationships.transport_events!.data as Array<{ id: string; type: string }>),
		].filter((identifier): identifier is { id: string; type: string } => Boolean(identifier));
		expect(named.length).toBeGreaterThan(2);
		for (const identifier of named) expect(keys).toContain(`${identifier.type}:${identifier.id}`);
		expect(keys.filter((key) => key.startsWith('shipment:'))).toHaveLength(1);
	});

	it('answers 400 for an include the endpoint does not support', async () => {
		const errors = expectApiError(
			await handle.api.get(`/containers/${containerId}`, { params: { include: 'vessel' } }),
			400,
		);
		expect(errors[0].source?.parameter).toBe('include');
	});

	it('lists every container, page by page, without repeats', async () => {
		expect(allContainerIds.length).toBeGreaterThan(2);
		const pages = await walkPages(handle, '/containers', { 'page[size]': '2' });
		for (const page of pages) expectOk(page, 200, containerListDocument);
		expect(pages).toHaveLength(Math.ceil(allContainerIds.length / 2));
		const ids = pages.flatMap(idsOf);
		expect(ids).toHaveLength(allContainerIds.length);
		expect(new Set(ids)).toEqual(new Set(allContainerIds));
	});

	it('serves raw events, with estimated future events before arrival', async () => {
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}/raw_events`),
			200,
			rawEventListDocument,
		);
		const estimated = document.data.filter((event) => event.attributes?.estimated === true);
		expect(estimated.length).toBeGreaterThan(0);
		const now = await sandboxNow(handle);
		for (const event of estimated)
			expect(Date.parse(event.attributes!.timestamp!)).toBeGreaterThan(now);
		expect(document.data.some((event) => event.attributes?.estimated === false)).toBe(true);
	});

	it('stops estimating arrival in raw events once the vessel has arrived', async () => {
		expectSchema(clockBody, (await handle.control.post('/clock/advance', { days: 30 })).data);
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}/raw_events`),
			200,
			rawEventListDocument,
		);
		expect(document.data.length).toBeGreaterThan(0);
		expect(document.data.filter((event) => event.attributes?.estimated === true)).toEqual([]);
		expect(document.data.map((event) => event.attributes?.event)).toContain('vessel_arrived');
	});
});

describe('transport event pagination', () => {
	let handle: SandboxHandle;
	let containerId: string;
	/** Every event id of the container, read in one page of 100. */
	let allEventIds: string[];

	/** Adds `count` transport events: each new pickup appointment is a `pickup_appointment.changed` event. */
	async function addAppointmentChanges(id: string, count: number): Promise<void> {
		const start = await sandboxNow(handle);
		for (let index = 1; index <= count; index++) {
			const at = new Date(start + index * 3_600_000).toISOString();
			const response = await handle.control.post(`/containers/${id}/changes`, {
				kind: 'set_pickup_appointment',
				at,
			});
			expect(response.status).toBe(200);
			expectSchema(changeBody, response.data);
		}
	}

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		containerId = (await trackContainer(handle, 'CSQU3054383', 'COSU')).containerIds[0];
		const advanced = expectSchema(
			clockBody,
			(await handle.control.post('/clock/advance', { days: 30 })).data,
		);
		expect(advanced.pending_steps).toBe(0);
		await addAppointmentChanges(containerId, 20);
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}/transport_events`, {
				params: { 'page[size]': '100' },
			}),
			200,
			transportEventListDocument,
		);
		expect(document.links?.next).toBeUndefined();
		allEventIds = document.data.map((event) => event.id);
	});
	afterAll(() => handle.stop());

	it('has more events than one default page after a journey and twenty changes', () => {
		expect(allEventIds.length).toBeGreaterThan(30);
		expect(new Set(allEventIds).size).toBe(allEventIds.length);
	});

	it('serves 30 events by default, with a next link', async () => {
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}/transport_events`),
			200,
			transportEventListDocument,
		);
		expect(document.data).toHaveLength(30);
		expect(document.links?.next).toContain('page[number]=2');
		expect(document.links?.current).toContain('page[number]=1');
	});

	it('walks every page of two via links.next, and the pages together hold every event once', async () => {
		const pages = await walkPages(handle, `/containers/${containerId}/transport_events`, {
			'page[size]': '2',
		});
		const documents = pages.map((page) => expectOk(page, 200, transportEventListDocument));
		expect(documents).toHaveLength(Math.ceil(allEventIds.length / 2));
		documents.slice(0, -1).forEach((document) => expect(document.data).toHaveLength(2));
		expect(documents[documents.length - 1].links?.next).toBeUndefined();
		const ids = pages.flatMap(idsOf);
		expect(ids).toHaveLength(allEventIds.length);
		// No order is promised: compare sets, never arrays.
		expect(new Set(ids)).toEqual(new Set(allEventIds));
	});

	it('writes links as absolute URLs with unencoded brackets', async () => {
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}/transport_events`, {
				params: { 'page[size]': '5', 'page[number]': '2' },
			}),
			200,
			transportEventListDocument,
		);
		const base = `${handle.sandbox.url}/containers/${containerId}/transport_events?`;
		for (const name of ['self', 'first', 'prev', 'next', 'last'] as const) {
			const link = document.links?.[name];
			expect(link).toEqual(expect.stringContaining(base));
			expect(link).not.toMatch(/%5B|%5D/i);
			expect(link).toContain('page[size]=5');
		}
		expect(document.links?.prev).toContain('page[number]=1');
		expect(document.links?.next).toContain('page[number]=3');
	});

	it('cuts page[size]=500 to 100', async () => {
		// A second container with more than 100 events.
		const bigId = (await trackContainer(handle, 'HLXU1234565', 'HLCU')).containerIds[0];
		await addAppointmentChanges(bigId, 105);
		const document = expectOk(
			await handle.api.get(`/containers/${bigId}/transport_events`, {
				params: { 'page[size]': '500' },
			}),
			200,
			transportEventListDocument,
		);
		expect(document.data).toHaveLength(100);
		expect(document.links?.next).toContain('page[size]=100');
		const rest = expectOk(
			await handle.api.get(document.links!.next!),
			200,
			transportEventListDocument,
		);
		expect(rest.data.length).toBeGreaterThanOrEqual(5);
		expect(rest.links?.next).toBeUndefined();
	});

	it.each([
		['page[number]', '0'],
		['page[number]', 'abc'],
		['page[size]', '0'],
		['page[size]', '-3'],
	])('answers 400 for %s=%s', async (name, value) => {
		const errors = expectApiError(
			await handle.api.get(`/containers/${containerId}/transport_events`, {
				params: { [name]: value },
			}),
			400,
		);
		expect(errors[0].source?.parameter).toBe(name);
	});

	it('accepts the documented includes and rejects others', async () => {
		const document = expectOk(
			await handle.api.get(`/containers/${containerId}/transport_events`, {
				params: { include: 'shipment,container,vessel,location,terminal', 'page[size]': '100' },
			}),
			200,
			transportEventListDocument,
		);
		const types = new Set((document.included ?? []).map((record) => record.type));
		expect(types).toContain('shipment');
		expect(types).toContain('container');
		expectApiError(
			await handle.api.get(`/containers/${containerId}/transport_events`, {
				params: { include: 'pod_terminal' },
			}),
			400,
		);
	});
});

describe('webhooks', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false });
	});
	afterAll(() => handle.stop());

	const url = 'https://example.com/hooks/containers';
	const create = (attributes: Record<string, unknown>) =>
		handle.api.post('/webhooks', webhookBody(attributes));

	it('creates, reads, updates and deletes a webhook', async () => {
		const created = expectOk(
			await create({
				url,
				active: true,
				events: ['container.updated', 'tracking_request.succeeded'],
			}),
			201,
			webhookDocument,
		);
		const id = created.data.id;
		const secret = created.data.attributes.secret;
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(created.data.attributes).toMatchObject({ url, active: true, headers: null });
		expect(created.data.attributes.events).toEqual([
			'container.updated',
			'tracking_request.succeeded',
		]);

		const listed = expectOk(await handle.api.get('/webhooks'), 200, webhookListDocument);
		expect(listed.data.find((webhook) => webhook.id === id)?.attributes.secret).toBe(secret);
		const read = expectOk(await handle.api.get(`/webhooks/${id}`), 200, webhookDocument);
		expect(read.data.attributes.secret).toBe(secret);

		const patched = expectOk(
			await handle.api.patch(
				`/webhooks/${id}`,
				webhookBody({ active: false, events: ['container.transport.full_out'] }),
			),
			200,
			webhookDocument,
		);
		expect(patched.data.attributes).toMatchObject({
			url,
			active: false,
			secret,
			events: ['container.transport.full_out'],
		});
		const reread = expectOk(await handle.api.get(`/webhooks/${id}`), 200, webhookDocument);
		expect(reread.data.attributes).toMatchObject({
			active: false,
			events: ['container.transport.full_out'],
		});

		const deleted = await handle.api.delete(`/webhooks/${id}`);
		expect(deleted.status).toBe(204);
		expect(deleted.data).toBe('');
		const gone = await handle.api.get(`/webhooks/${id}`);
		expectApiError(gone, 404);
		expect(gone.data).toEqual(NOT_FOUND_BODY);
		const list = expectOk(await handle.api.get('/webhooks'), 200, webhookListDocument);
		expect(list.data.map((webhook) => webhook.id)).not.toContain(id);
	});

	it('gives each webhook its own secret', async () => {
		const first = expectOk(
			await create({ url, events: ['container.updated'] }),
			201,
			webhookDocument,
		);
		const second = expectOk(
			await create({ url, events: ['container.updated'] }),
			201,
			webhookDocument,
		);
		expect(second.data.attributes.secret).toMatch(/^[0-9a-f]{64}$/);
		expect(second.data.attributes.secret).not.toBe(first.data.attributes.secret);
		expect(second.data.id).not.toBe(first.data.id);
	});

	it('changes only the attributes a PATCH names', async () => {
		const created = expectOk(
			await create({ url, events: ['container.updated'] }),
			201,
			webhookDocument,
		);
		const patched = expectOk(
			await handle.api.patch(`/webhooks/${created.data.id}`, webhookBody({ active: false })),
			200,
			webhookDocument,
		);
		expect(patched.data.attributes).toMatchObject({
			url,
			active: false,
			events: ['container.updated'],
		});
		expect(patched.data.attributes.secret).toBe(created.data.attributes.secret);
	});

	it('accepts container.pickup_lfd_rail.changed when the account has the Rail Plan', async () => {
		expectOk(
			await create({ url, events: ['container.pickup_lfd_rail.changed'] }),
			201,
			webhookDocument,
		);
	});

	it.each([
		[
			'an invalid url',
			{ url: 'not a url', events: ['container.updated'] },
			['/data/attributes/url'],
		],
		['a missing url', { events: ['container.updated'] }, ['/data/attributes/url']],
		[
			'an unknown event name',
			{ url, events: ['container.teleported'] },
			['/data/attributes/events'],
		],
		['an empty event list', { url, events: [] }, ['/data/attributes/events']],
		[
			'a non-boolean active',
			{ url, events: ['container.updated'], active: 'yes' },
			['/data/attributes/active'],
		],
		[
			'a wrong url and no events',
			{ url: 'ftp://x', events: [] },
			['/data/attributes/url', '/data/attributes/events'],
		],
	])('answers 422 for %s, pointing at the fields', async (_label, attributes, pointers) => {
		const errors = expectApiError(await create(attributes), 422);
		expect(pointersOf(errors).sort()).toEqual([...pointers].sort());
		for (const error of errors) expect(error.code).toEqual(expect.stringMatching(/\S/));
	});

	it('answers 422 to a PATCH with an unknown event name and leaves the webhook as it was', async () => {
		const created = expectOk(
			await create({ url, events: ['container.updated'] }),
			201,
			webhookDocument,
		);
		const errors = expectApiError(
			await handle.api.patch(`/webhooks/${created.data.id}`, webhookBody({ events: ['nope'] })),
			422,
		);
		expect(pointersOf(errors)).toEqual(['/data/attributes/events']);
		const read = expectOk(
			await handle.api.get(`/webhooks/${created.data.id}`),
			200,
			webhookDocument,
		);
		expect(read.data.attributes.events).toEqual(['container.updated']);
	});
});

describe('webhooks without the Rail Plan', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, railPlan: false });
	});
	afterAll(() => handle.stop());

	it('answers 403 for container.pickup_lfd_rail.changed', async () => {
		const response = await handle.api.post(
			'/webhooks',
			webhookBody({
				url: 'https://example.com/hook',
				events: ['container.updated', 'container.pickup_lfd_rail.changed'],
			}),
		);
		const errors = expectApiError(response, 403);
		expect(errors[0].detail).toContain('container.pickup_lfd_rail.changed');
	});

	it('answers 403 when a PATCH adds container.pickup_lfd_rail.changed', async () => {
		const created = expectOk(
			await handle.api.post(
				'/webhooks',
				webhookBody({ url: 'https://example.com/hook', events: ['container.updated'] }),
			),
			201,
			webhookDocument,
		);
		expectApiError(
			await handle.api.patch(
				`/webhooks/${created.data.id}`,
				webhookBody({ events: ['container.pickup_lfd_rail.changed'] }),
			),
			403,
		);
		const read = expectOk(
			await handle.api.get(`/webhooks/${created.data.id}`),
			200,
			webhookDocument,
		);
		expect(read.data.attributes.events).toEqual(['container.updated']);
	});

	it('still accepts the other rail events', async () => {
		expectOk(
			await handle.api.post(
				'/webhooks',
				webhookBody({
					url: 'https://example.com/hook',
					events: ['container.transport.rail_loaded', 'container.transport.rail_unloaded'],
				}),
			),
			201,
			webhookDocument,
		);
	});
});

describe('rate limits (a 60 s window of sandbox time, moved on by the control API)', () => {
	// The sandbox clock runs at real speed, so a burst fits in the window on any machine (it takes
	// well under a second quietly; the window lasts a minute), and Retry-After is waited out by
	// moving the clock on, not by sleeping. That the window follows the time scale is checked on
	// the rate limiter itself, on a clock that stands still (the last test).
	let handle: SandboxHandle;
	beforeAll(async () => {
		// Tracking requests stay pending for the whole suite: no journeys to generate.
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 3600 });
	});
	afterAll(() => handle.stop());
	// Each test starts with every bucket's window empty: the calls before it are a minute old.
	beforeEach(async () => {
		expect((await handle.control.post('/clock/advance', { seconds: 60 })).status).toBe(200);
	});

	/** Retry-After as a number, after checking it is whole seconds, at least 1. */
	function retryAfterOf(response: AxiosResponse): number {
		const header = String(response.headers['retry-after']);
		expect(header).toMatch(/^\d+$/);
		const seconds = Number(header);
		expect(seconds).toBeGreaterThanOrEqual(1);
		return seconds;
	}

	/** Waits out `seconds` of Retry-After on the sandbox clock (time scale 1: real seconds). */
	const waitOut = async (seconds: number) =>
		expect((await handle.control.post('/clock/advance', { seconds })).status).toBe(200);
	let bodies = 0;
	const uniqueTracking = () =>
		trackingRequestBody(`MEDU${String(++bodies).padStart(8, '0')}`, 'MSCU', 'bill_of_lading');

	it('lets 200 infer_number calls pass and refuses the 201st with 429 and Retry-After', async () => {
		const calls = Array.from({ length: 201 }, () =>
			handle.api.post('/tracking_requests/infer_number', { number: 'CSQU3054383' }),
		);
		const started = Date.now();
		const answers = await Promise.all(calls);
		const refused = answers.filter((answer) => answer.status === 429);
		const passed = answers.filter((answer) => answer.status === 200);
		// The burst must fit in the minute's window; its duration is shown when it did not.
		expect({
			passed: passed.length,
			refused: refused.length,
			burstMs: Date.now() - started,
		}).toMatchObject({
			passed: 200,
			refused: 1,
		});
		expectOk(passed[0], 200, inferNumberDocument);
		expectApiError(refused[0], 429);
		const retryAfter = retryAfterOf(refused[0]);

		// infer_number has its own bucket: other calls still pass.
		expectOk(await handle.api.get('/containers'), 200, containerListDocument);
		// And the bucket stays closed until Retry-After has passed.
		expectApiError(
			await handle.api.post('/tracking_requests/infer_number', { number: 'CSQU3054383' }),
			429,
		);

		await waitOut(retryAfter);
		expectOk(
			await handle.api.post('/tracking_requests/infer_number', { number: 'CSQU3054383' }),
			200,
			inferNumberDocument,
		);
	});

	it('lets 100 tracking requests pass and refuses the 101st until Retry-After has passed', async () => {
		const started = Date.now();
		const answers = await Promise.all(
			Array.from({ length: 101 }, () => handle.api.post('/tracking_requests', uniqueTracking())),
		);
		const passed = answers.filter((answer) => answer.status === 201);
		const refused = answers.filter((answer) => answer.status === 429);
		expect({
			passed: passed.length,
			refused: refused.length,
			burstMs: Date.now() - started,
		}).toMatchObject({
			passed: 100,
			refused: 1,
		});
		expectOk(passed[0], 201, trackingRequestDocument);
		expectApiError(refused[0], 429);
		const retryAfter = retryAfterOf(refused[0]);

		// Creating tracking requests has its own bucket too.
		expectOk(await handle.api.get('/webhooks'), 200, webhookListDocument);
		expectApiError(await handle.api.post('/tracking_requests', uniqueTracking()), 429);

		await waitOut(retryAfter);
		expectOk(
			await handle.api.post('/tracking_requests', uniqueTracking()),
			201,
			trackingRequestDocument,
		);
	});

	it('shares one bucket of 100 between the other calls', async () => {
		const answers = await Promise.all(
			Array.from({ length: 101 }, (_, index) =>
				handle.api.get(index % 2 ? '/containers' : '/webhooks'),
			),
		);
		expect(answers.filter((answer) => answer.status === 200)).toHaveLength(100);
		const refused = answers.filter((answer) => answer.status === 429);
		expect(refused).toHaveLength(1);
		expectApiError(refused[0], 429);
		retryAfterOf(refused[0]);
	});

	it('keeps its window in sandbox time: at time scale 60 the minute lasts one real second, and Retry-After says so', () => {
		let now = Date.parse('2026-03-02T08:00:00Z');
		const scaled = (timeScale: number) =>
			new RateLimiter({
				now: () => now,
				toReal: (sandboxMs: number) => sandboxMs / timeScale,
			} as SandboxClock);
		for (const [timeScale, retryAfterSeconds] of [
			[60, 1],
			[1, 60],
		]) {
			const limiter = scaled(timeScale);
			for (let call = 0; call < RATE_LIMITS.default; call++)
				expect(limiter.take(API_KEY, 'default')).toEqual({ allowed: true });
			expect(limiter.take(API_KEY, 'default')).toEqual({ allowed: false, retryAfterSeconds });
			// Other buckets and other keys have windows of their own.
			expect(limiter.take(API_KEY, 'infer_number')).toEqual({ allowed: true });
			expect(limiter.take('another-key', 'default')).toEqual({ allowed: true });
			// A sandbox second before the window ends, still refused; at its end, room again.
			now += 59_000;
			expect(limiter.take(API_KEY, 'default').allowed).toBe(false);
			now += 1_000;
			expect(limiter.take(API_KEY, 'default')).toEqual({ allowed: true });
		}
	});
});

describe('injected faults', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false });
	});
	afterAll(() => handle.stop());
	afterEach(async () => {
		expect((await handle.control.delete('/faults')).status).toBe(204);
	});

	async function inject(fault: Record<string, unknown>): Promise<void> {
		const response = await handle.control.post('/faults', fault);
		expect(response.status).toBe(201);
		expectSchema(faultBody, response.data);
	}

	it('answers error_500 exactly `count` times, then normally', async () => {
		await inject({ path: '/containers', kind: 'error_500', count: 3 });
		for (let index = 0; index < 3; index++)
			expectApiError(await handle.api.get('/containers'), 500);
		expectOk(await handle.api.get('/containers'), 200, containerListDocument);
		expect(expectSchema(faultListBody, (await handle.control.get('/faults')).data).faults).toEqual(
			[],
		);
	});

	it('shows how many faulty answers remain', async () => {
		await inject({ path: '/webhooks', kind: 'error_500', count: 2 });
		expectApiError(await handle.api.get('/webhooks'), 500);
		const listed = expectSchema(faultListBody, (await handle.control.get('/faults')).data);
		expect(listed.faults).toEqual([
			expect.objectContaining({ path: '/webhooks', kind: 'error_500', remaining: 1 }),
		]);
	});

	it('answers rate_limited with 429 and the chosen Retry-After', async () => {
		await inject({
			path: '/tracking_requests/infer_number',
			kind: 'rate_limited',
			count: 1,
			retry_after: 7,
		});
		const refused = await handle.api.post('/tracking_requests/infer_number', {
			number: 'CSQU3054383',
		});
		expectApiError(refused, 429);
		expect(refused.headers['retry-after']).toBe('7');
		expectOk(
			await handle.api.post('/tracking_requests/infer_number', { number: 'CSQU3054383' }),
			200,
			inferNumberDocument,
		);
	});

	it('delays a slow answer by delay_ms, once', async () => {
		await inject({ path: '/webhooks', kind: 'slow', count: 1, delay_ms: 400 });
		const started = Date.now();
		expectOk(await handle.api.get('/webhooks'), 200, webhookListDocument);
		// Never sooner than the delay, however fast the machine (timers may round down by a few ms).
		expect(Date.now() - started).toBeGreaterThanOrEqual(390);
		// Once: the fault is spent, so the next answer is not delayed (how fast it then comes is the
		// machine's, not the fault's).
		expect(expectSchema(faultListBody, (await handle.control.get('/faults')).data).faults).toEqual(
			[],
		);
		expectOk(await handle.api.get('/webhooks'), 200, webhookListDocument);
	});

	it('makes a client with a shorter timeout give up on a slow answer', async () => {
		await inject({ path: '/webhooks', kind: 'slow', count: 1, delay_ms: 500 });
		await expect(handle.api.get('/webhooks', { timeout: 100 })).rejects.toMatchObject({
			code: 'ECONNABORTED',
		});
	});

	it('answers malformed with a 200 whose body does not parse', async () => {
		await inject({ path: '/containers', kind: 'malformed', count: 1 });
		const broken = await handle.api.get('/containers', { responseType: 'text' });
		expect(broken.status).toBe(200);
		expect(typeof broken.data).toBe('string');
		expect(() => JSON.parse(broken.data as string)).toThrow(SyntaxError);
		expectOk(await handle.api.get('/containers'), 200, containerListDocument);
	});

	it('refuses a tracking request with a 422 that is not a duplicate, creating nothing', async () => {
		await inject({ path: '/tracking_requests', method: 'post', kind: 'refused', count: 1 });
		const body = {
			data: {
				type: 'tracking_request',
				attributes: {
					request_number: 'MSCU1234565',
					request_type: 'container',
					scac: 'MSCU',
				},
			},
		};
		const refused = await handle.api.post('/tracking_requests', body);
		expectApiError(refused, 422);
		expect(refused.data.errors[0].code).not.toBe('duplicate');
		expect(handle.sandbox.world.store.list('tracking_request')).toEqual([]);
		expect((await handle.api.post('/tracking_requests', body)).status).toBe(201);
		// Only before: a refusal with the request created would be a duplicate.
		expect(
			(await handle.control.post('/faults', { path: '/x', kind: 'refused', when: 'after' })).status,
		).toBe(422);
	});

	it('drops the connection without an answer, then answers normally', async () => {
		await inject({ path: '/containers', kind: 'drop', count: 1 });
		const failure: unknown = await handle.api.get('/containers').then(
			(response) => response,
			(error: unknown) => error,
		);
		expect(axios.isAxiosError(failure)).toBe(true);
		expect((failure as { response?: unknown }).response).toBeUndefined();
		expectOk(await handle.api.get('/containers'), 200, containerListDocument);
	});

	it('matches paths with * and only the given method', async () => {
		await inject({ path: '/webhooks/*', kind: 'error_500', count: 5, method: 'get' });
		expectApiError(await handle.api.get('/webhooks/any-id'), 500);
		expectApiError(await handle.api.get('/webhooks/another-id'), 500);
		// Other methods and the bare collection path are not touched.
		expectApiError(await handle.api.delete('/webhooks/any-id'), 404);
		expectOk(await handle.api.get('/webhooks'), 200, webhookListDocument);
		const listed = expectSchema(faultListBody, (await handle.control.get('/faults')).data);
		expect(listed.faults[0].remaining).toBe(3);
	});

	it('fails a seeded share of requests at a rate, the same ones on every run, one fault per request', async () => {
		const outcomes = async (): Promise<string> => {
			// An unknown route answers its 404 before the rate limiter counts anything.
			await inject({ path: '/no_such_route', kind: 'error_500', rate: 0.2, seed: 'fixed' });
			await inject({ path: '/no_such_route', kind: 'rate_limited', rate: 0.1 });
			let pattern = '';
			for (let index = 0; index < 200; index++)
				pattern += String((await handle.api.get('/no_such_route')).status).slice(0, 2);
			expect((await handle.control.delete('/faults')).status).toBe(204);
			return pattern;
		};
		const first = await outcomes();
		const second = await outcomes();
		expect(second).toBe(first);
		const statuses = first.match(/../g) ?? [];
		const failed500 = statuses.filter((status) => status === '50').length;
		const limited = statuses.filter((status) => status === '42').length;
		// 20 % and 10 % of 200, within what a fair draw gives.
		expect(failed500).toBeGreaterThan(20);
		expect(failed500).toBeLessThan(60);
		expect(limited).toBeGreaterThan(6);
		expect(limited).toBeLessThan(36);
		expect(failed500 + limited + statuses.filter((status) => status === '40').length).toBe(200);
	});

	it('with when=after, does the work and then loses the answer', async () => {
		await inject({
			path: '/tracking_requests',
			method: 'post',
			kind: 'error_500',
			count: 1,
			when: 'after',
		});
		const lost = await handle.api.post(
			'/tracking_requests',
			trackingRequestBody('FAULTAFTER001', 'MAEU', 'bill_of_lading'),
		);
		expectApiError(lost, 500);
		// The request was created: asking again is the service's duplicate answer.
		const again = await handle.api.post(
			'/tracking_requests',
			trackingRequestBody('FAULTAFTER001', 'MAEU', 'bill_of_lading'),
		);
		expect(again.status).toBe(422);
		expect(JSON.stringify(again.data)).toContain('duplicate');
	});

	it('refuses a rate and a count together, a rate outside 0..1, and rate_limited after', async () => {
		for (const fault of [
			{ path: '/webhooks', kind: 'error_500', rate: 0.1, count: 2 },
			{ path: '/webhooks', kind: 'error_500', rate: 1.5 },
			{ path: '/webhooks', kind: 'rate_limited', when: 'after' },
		])
			expectApiError(await handle.control.post('/faults', fault), 422);
		expect(expectSchema(faultListBody, (await handle.control.get('/faults')).data).faults).toEqual(
			[],
		);
	});

	it('rejects an unknown fault kind with 400', async () => {
		expectApiError(
			await handle.control.post('/faults', { path: '/containers', kind: 'explode' }),
			400,
		);
	});
});

describe('control API', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false });
	});
	afterAll(() => handle.stop());

	it('tells the sandbox time and moves it forward', async () => {
		const before = expectSchema(clockBody, (await handle.control.get('/clock')).data);
		expect(before.time_scale).toBe(1);
		const advanced = await handle.control.post('/clock/advance', { days: 2, hours: 3 });
		expect(advanced.status).toBe(200);
		const after = expectSchema(clockBody, advanced.data);
		const moved = Date.parse(after.now) - Date.parse(before.now);
		const expected = (2 * 24 + 3) * 3_600_000;
		expect(moved).toBeGreaterThanOrEqual(expected);
		// Plus the real time between the two answers (time scale 1): a few ms on a quiet machine.
		expect(moved).toBeLessThan(expected + generous(1_000));
		const reread = expectSchema(clockBody, (await handle.control.get('/clock')).data);
		expect(Date.parse(reread.now)).toBeGreaterThanOrEqual(Date.parse(after.now));
	});

	it('answers 400 to an advance without a duration', async () => {
		expectApiError(await handle.control.post('/clock/advance', {}), 400);
		expectApiError(await handle.control.post('/clock/advance', { days: -1 }), 400);
	});

	it('answers an unknown control route with the JSON 404 body', async () => {
		const response = await handle.control.get('/no_such_control');
		expectApiError(response, 404);
		expect(response.data).toEqual(NOT_FOUND_BODY);
	});

	it('answers 404 for the journey of an unknown container', async () => {
		expectApiError(await handle.control.get('/containers/no-such-container/journey'), 404);
	});
});

describe('search', () => {
	let handle: SandboxHandle;
	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0, drift: false });
	});
	afterAll(() => handle.stop());

	it('answers 400 without a query, naming the parameter', async () => {
		for (const path of ['/search', '/search?query=%20']) {
			const [error] = expectApiError(await handle.api.get(path), 400);
			expect(error.source).toEqual({ parameter: 'query' });
		}
	});

	it('finds a container and its tracking request by part of the number, in any case, in its schema', async () => {
		const tracked = await trackContainer(handle, 'MSKU4807969', 'MAEU');
		const body = expectOk(
			await handle.api.get('/search', { params: { query: 'sku 48079' } }),
			200,
			searchResultListDocument,
		);
		expect(body.data.map((result) => [result.type, result.id])).toEqual([
			['cargo', tracked.containerIds[0]],
			['tracking_request', tracked.trackingRequestId],
		]);
		expect(body.data[0].attributes).toMatchObject({
			entity_type: 'cargo',
			number: 'MSKU4807969',
			shipment_id: tracked.shipmentId,
			scac: 'MAEU',
		});
		expect(body).not.toHaveProperty('links');
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The control API for a busy account (sandbox/bulk.ts, sandbox/http/requestStats.ts), over real
// HTTP: tracking hundreds of containers in one call without the rate limit, as the API would
// track them; one scenario played on many containers, their starts spread over a few seconds,
// boxes where it cannot happen skipped with the reason; the API's calls counted by key, route and
// answer; the delivery log filtered by webhook.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { checkContainerNumber } from '../../nodes/ContainerTracking/logic/iso6346';
import type { DeliveryAttempt } from '../../sandbox/webhooks/delivery';
import { byClock, generous } from '../support/bounds';
import {
	startTestSandbox,
	trackContainer,
	eventually,
	type SandboxHandle,
} from '../support/sandbox';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { deliveriesFor, eventOf, referenceRecord, subscribe } from './helpers';

const SECOND_KEY = 'second-key';

interface TrackedRequest {
	id: string;
	request_number: string;
	status: string;
	shipment_id: string | null;
	container_ids: string[];
}

describe('sandbox: the control API for many containers', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;

	beforeEach(async () => {
		handle = await startTestSandbox({
			trackingDelaySeconds: 0,
			extraApiKeys: [SECOND_KEY],
			drift: false,
		});
		receiver = await startWebhookReceiver();
	});

	afterEach(async () => {
		await receiver.close();
		await handle.stop();
	});

	const trackMany = async (body: Record<string, unknown>): Promise<TrackedRequest[]> => {
		const answer = await handle.control.post('/tracking_requests', body);
		expect(answer.status).toBe(201);
		return answer.data.tracking_requests as TrackedRequest[];
	};
	const stats = async () => {
		const answer = await handle.control.get('/stats');
		expect(answer.status).toBe(200);
		return answer.data;
	};

	it('tracks 500 containers in one call as POST /v2/tracking_requests does, without spending its rate limit', async () => {
		await subscribe(handle, receiver, ['tracking_request.succeeded', 'container.created']);
		const requests = await trackMany({ count: 500, scac: 'MSCU' });

		expect(requests).toHaveLength(500);
		const numbers = requests.map((request) => request.request_number);
		expect(new Set(numbers).size).toBe(500);
		expect(numbers.every((number) => checkContainerNumber(number).isValid)).toBe(true);
		expect(requests.every((request) => request.status === 'created')).toBe(true);
		expect(requests.every((request) => request.container_ids.length === 1)).toBe(true);
		const store = handle.sandbox.world.store;
		expect(
			store
				.list('container')
				.map((container) => container.id)
				.sort(),
		).toEqual(requests.flatMap((request) => request.container_ids).sort());

		// The same records as a request through the API: the same attributes, the same outcome.
		const viaApi = await trackContainer(handle, 'MSCU1000022', 'MSCU');
		const apiRequest = store.get('tracking_request', viaApi.trackingRequestId)!;
		const bulkRequest = store.get('tracking_request', requests[0].id)!;
		expect(Object.keys(bulkRequest.attributes).sort()).toEqual(
			Object.keys(apiRequest.attributes).sort(),
		);
		expect(bulkRequest.relationships?.tracked_object.data).toEqual({
			id: requests[0].shipment_id,
			type: 'shipment',
		});
		// The same notifications: one succeeded request and one created container per number.
		await eventually(
			() =>
				deliveriesFor(receiver, { event: 'container.created' }).length === 501 &&
				deliveriesFor(receiver, { event: 'tracking_request.succeeded' }).length === 501
					? true
					: undefined,
			// 1,002 deliveries sent at once to a local receiver.
			{ timeoutMs: generous(4_000), what: '501 tracked requests and containers notified' },
		);
		// The bulk call made no call to the API: its budget of 100 a minute is whole.
		const routes = (await stats()).by_api_key['test-key'].by_route;
		expect(Object.keys(routes).sort()).toEqual([
			'GET /tracking_requests/:id',
			'POST /tracking_requests',
			'POST /webhooks',
		]);
		expect(routes['POST /tracking_requests']).toEqual({
			calls: 1,
			rate_limited: 0,
			statuses: { 201: 1 },
		});
	});

	it('draws numbers the account does not track yet, and answers with each container', async () => {
		const first = await trackMany({ count: 3, scac: 'MAEU' });
		const second = await trackMany({ count: 3, scac: 'MAEU' });
		const numbers = [...first, ...second].map((request) => request.request_number);
		expect(new Set(numbers).size).toBe(6);
		expect(numbers.every((number) => number.startsWith('MAEU'))).toBe(true);
		const given = await trackMany({ numbers: ['msku4807969'], scac: 'maeu' });
		expect(given).toEqual([
			expect.objectContaining({ request_number: 'MSKU4807969', status: 'created' }),
		]);
		expect(handle.sandbox.world.store.get('container', given[0].container_ids[0])).toBeDefined();
	});

	it('refuses the whole call when a number is tracked already, listed twice or blank, naming each', async () => {
		await trackContainer(handle, 'MSCU1000022', 'MSCU');
		const before = handle.sandbox.world.store.list('tracking_request').length;
		const refused = await handle.control.post('/tracking_requests', {
			numbers: ['MSCU1000022', 'MEDU7165290', 'medu7165290', ' '],
			scac: 'MSCU',
		});
		expect(refused.status).toBe(422);
		expect(
			(refused.data.errors as Array<{ code: string; source: { pointer: string } }>).map((error) => [
				error.source.pointer,
				error.code,
			]),
		).toEqual([
			['/numbers/0', 'duplicate'],
			['/numbers/2', 'duplicate'],
			['/numbers/3', 'blank'],
		]);
		expect(handle.sandbox.world.store.list('tracking_request')).toHaveLength(before);

		for (const [body, pointer] of [
			[{ count: 2, scac: 'NOPE' }, '/scac'],
			[{ count: 2, numbers: ['MSCU1234565'], scac: 'MSCU' }, '/numbers'],
			[{ scac: 'MSCU' }, '/numbers'],
			[{ count: 0, scac: 'MSCU' }, '/count'],
			[{ count: 5001, scac: 'MSCU' }, '/count'],
			[{ count: 2, scac: 'TEST' }, '/scac'],
			[{ count: 2, scac: 'MSCU', number: 'x' }, '/number'],
		] as const) {
			const answer = await handle.control.post('/tracking_requests', body);
			expect([JSON.stringify(body), answer.status, answer.data.errors[0].source.pointer]).toEqual([
				JSON.stringify(body),
				422,
				pointer,
			]);
		}
		expect(handle.sandbox.world.store.list('tracking_request')).toHaveLength(before);
	});

	it('plays a scenario on every container, their starts spread evenly over spread_seconds', async () => {
		await handle.stop();
		// Ten sandbox seconds a real second: starts 5 sandbox seconds apart are told apart by the
		// changesets' timestamps (whole seconds), and the call is over in about two real seconds.
		handle = await startTestSandbox({ trackingDelaySeconds: 0, timeScale: 10, drift: false });
		const boxes = (await trackMany({ count: 5, scac: 'MSCU' })).map(
			(request) => request.container_ids[0],
		);
		await subscribe(handle, receiver, ['container.updated']);
		const asked = Date.now();
		const played = await handle.control.post('/scenarios/customs_hold', {
			all: true,
			spread_seconds: 20,
			gap_seconds: 1,
		});
		const answeredAfterMs = Date.now() - asked;
		expect(played.status).toBe(202);
		expect(played.data).toMatchObject({
			scenario: 'customs_hold',
			started: 5,
			skipped: 0,
			steps: 15,
			gap_seconds: 1,
			spread_seconds: 20,
		});
		// The last step is 20 s of spread and two gaps after the first start: 22 sandbox seconds,
		// 2.2 real ones at time scale 10, less the real time the answer took to come back.
		const firstStart = Date.parse(played.data.containers[0].starts_at);
		expect(Date.parse(played.data.ends_at) - firstStart).toBe(22_000);
		expect(played.data.ends_in_seconds).toBeLessThanOrEqual(2.2);
		expect(played.data.ends_in_seconds).toBeGreaterThanOrEqual(2.2 - answeredAfterMs / 1000);
		expect(
			(played.data.containers as Array<{ container_id: string }>).map((box) => box.container_id),
		).toEqual(boxes);

		// Each box: pending, active, cleared, one gap apart; box i starts 5 × i sandbox seconds in.
		const updates = await eventually(
			() => {
				const found = deliveriesFor(receiver, { event: 'container.updated' });
				return found.length >= 15 ? found : undefined;
			},
			// The last step 2.2 real seconds on (the sandbox clock), then its delivery.
			{ timeoutMs: byClock(2_200) + generous(1_000), what: 'three changes on each of five boxes' },
		);
		const firstChange = boxes.map((id) =>
			Math.min(
				...updates
					.filter((delivery) => referenceRecord(delivery).relationships.container.data.id === id)
					.map((delivery) => Date.parse(referenceRecord(delivery).attributes.timestamp)),
			),
		);
		const offsets = firstChange.map((at) => (at - firstChange[0]) / 1000);
		offsets.forEach((offset, index) => {
			expect(offset).toBeGreaterThanOrEqual(5 * index - 1);
			expect(offset).toBeLessThanOrEqual(5 * index + 1);
		});
		expect(updates.every((delivery) => eventOf(delivery) === 'container.updated')).toBe(true);
	});

	it('skips the boxes where the scenario cannot happen, saying why; 409 when it can happen on none', async () => {
		const [gone, ...waiting] = (await trackMany({ count: 3, scac: 'MSCU' })).map(
			(request) => request.container_ids[0],
		);
		expect(
			(await handle.control.post(`/containers/${gone}/scenarios/journey`, { gap_seconds: 0 }))
				.status,
		).toBe(202);
		const single = await handle.control.post(`/containers/${gone}/scenarios/customs_hold`, {});
		expect(single.status).toBe(409);

		const played = await handle.control.post('/scenarios/customs_hold', {
			container_ids: [gone, ...waiting],
			gap_seconds: 0,
		});
		expect(played.status).toBe(202);
		expect(played.data).toMatchObject({ started: 2, skipped: 1, steps: 6 });
		const number = handle.sandbox.world.store.get('container', gone)!.attributes.number;
		expect(played.data.skipped_containers).toEqual([
			{
				container_id: gone,
				container_number: number,
				reason: expect.stringContaining('empty returned'),
			},
		]);
		expect(single.data.errors[0].detail).toBe(
			`customs_hold cannot happen on container ${number}: ${played.data.skipped_containers[0].reason}`,
		);

		const none = await handle.control.post('/scenarios/customs_hold', { container_ids: [gone] });
		expect(none.status).toBe(409);
		expect(none.data.errors).toEqual([
			expect.objectContaining({
				status: '409',
				code: 'invalid_state',
				detail: single.data.errors[0].detail,
			}),
		]);
		expect(
			(await handle.control.post('/scenarios/customs_hold', { container_ids: ['no-such-box'] }))
				.status,
		).toBe(404);
		expect((await handle.control.post('/scenarios/no_such_scenario', { all: true })).status).toBe(
			400,
		);
		for (const body of [{}, { all: true, container_ids: [] }, { all: true, spread_seconds: -1 }])
			expect((await handle.control.post('/scenarios/customs_hold', body)).status).toBe(422);
	});

	it('counts the API calls by key, route and answer, 429s included, until a reset', async () => {
		const withKey = (key?: string) => ({
			headers: { Authorization: key === undefined ? '' : `Token ${key}` },
		});
		// 102 calls in the 60 s window (time scale 1): well under a second on a quiet machine.
		for (let call = 0; call < 102; call++) await handle.api.get('/containers');
		// Another key of the account has a budget of its own.
		for (let call = 0; call < 3; call++)
			expect((await handle.api.get('/containers', withKey(SECOND_KEY))).status).toBe(200);
		expect((await handle.api.get('/containers', withKey())).status).toBe(401);
		expect((await handle.api.get('/no/such/route')).status).toBe(404);
		// A call the service drops gets no answer: counted as none.
		// Ended right after the one call: long enough never to end by itself first.
		handle.sandbox.outage.start({ seconds: generous(1_000) / 1000, kind: 'drop' });
		await expect(handle.api.get('/containers')).rejects.toThrow();
		handle.sandbox.outage.end();

		const counted = await stats();
		expect(counted).toMatchObject({
			calls: 108,
			rate_limited: 2,
			statuses: { 200: 103, 429: 2, 401: 1, 404: 1, none: 1 },
			by_api_key: {
				'test-key': {
					calls: 104,
					rate_limited: 2,
					by_route: {
						'GET /containers': {
							calls: 103,
							rate_limited: 2,
							statuses: { 200: 100, 429: 2, none: 1 },
						},
						'GET (unknown route)': { calls: 1, rate_limited: 0, statuses: { 404: 1 } },
					},
				},
				[SECOND_KEY]: { calls: 3, rate_limited: 0, statuses: { 200: 3 } },
				'(none)': { calls: 1, statuses: { 401: 1 } },
			},
		});

		expect((await handle.control.delete('/stats')).status).toBe(204);
		const reset = await stats();
		expect(reset).toMatchObject({ calls: 0, rate_limited: 0, statuses: {}, by_api_key: {} });
		expect(Date.parse(reset.since)).toBeGreaterThanOrEqual(Date.parse(counted.since));
	});

	it("gives each webhook's notifications by status, and its delivery attempts alone", async () => {
		const [box] = (await trackMany({ count: 1, scac: 'MSCU' })).map(
			(request) => request.container_ids[0],
		);
		const answering = await subscribe(handle, receiver, ['container.updated']);
		const refused = await subscribe(handle, receiver, ['container.updated'], `${receiver.url}/x`);
		receiver.answer = (delivery) =>
			delivery.body.data.relationships.webhook.data.id === refused.id ? 503 : 200;
		await handle.control.patch('/webhook_settings', { retry_base_seconds: 60 });
		await handle.control.post(`/containers/${box}/changes`, {
			kind: 'place_hold',
			name: 'customs',
			status: 'hold',
		});
		await eventually(() => (receiver.deliveries.length >= 2 ? true : undefined), {
			what: 'both deliveries answered',
		});
		await eventually(
			async () =>
				(await handle.control.get('/deliveries')).data.deliveries.length >= 2 ? true : undefined,
			{ what: 'both attempts logged' },
		);
		const { webhooks } = await stats();
		expect(webhooks).toEqual({
			[answering.id]: {
				url: receiver.url,
				active: true,
				notifications: { pending: 0, succeeded: 1, failed: 0 },
			},
			[refused.id]: {
				url: `${receiver.url}/x`,
				active: true,
				notifications: { pending: 1, succeeded: 0, failed: 0 },
			},
		});
		const attempts = (
			await handle.control.get('/deliveries', { params: { webhook_id: refused.id } })
		).data.deliveries as DeliveryAttempt[];
		expect(attempts.map((attempt) => [attempt.webhook_id, attempt.status, attempt.answer])).toEqual(
			[[refused.id, 503, null]],
		);
	});

	it("logs the start of each receiver's answer, so that one 503 is told from another", async () => {
		const said = JSON.stringify({
			code: 503,
			message: 'Database is not ready!',
			padding: 'x'.repeat(400),
		});
		const server = http.createServer((request, response) => {
			request.resume();
			request.on('end', () => {
				response.writeHead(503, { 'Content-Type': 'application/json' });
				response.end(said);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const [box] = (await trackMany({ count: 1, scac: 'MSCU' })).map(
				(request) => request.container_ids[0],
			);
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
			const webhook = await subscribe(handle, receiver, ['container.updated'], url);
			await handle.control.patch('/webhook_settings', { retry_base_seconds: 60 });
			await handle.control.post(`/containers/${box}/changes`, {
				kind: 'set_availability',
				available: true,
			});
			const attempts = await eventually(
				async () => {
					const found = (
						await handle.control.get('/deliveries', { params: { webhook_id: webhook.id } })
					).data.deliveries as DeliveryAttempt[];
					return found.length > 0 ? found : undefined;
				},
				{ what: 'the attempt logged' },
			);
			expect(attempts.map((attempt) => [attempt.status, attempt.answer])).toEqual([
				[503, said.slice(0, 300)],
			]);
		} finally {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});

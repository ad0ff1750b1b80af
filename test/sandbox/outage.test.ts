// The service down for a while (POST /_sandbox/outage): every call to /v2 fails for that many
// real seconds, as a 500, a 503, a dropped connection or a call never answered, then the service
// recovers by itself. A failed call does nothing; the control API and deliveries keep working.
import type { AxiosResponse } from 'axios';
import axios from 'axios';
import { sleep } from 'n8n-workflow';

import { parseDuration, parseOutageSchedule } from '../../sandbox/http/outage';
import { EVENT_NAMES } from '../../sandbox/world/eventNames';
import { generous } from '../support/bounds';
import { API_KEY, startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import { startWebhookReceiver } from '../support/webhookReceiver';
import { expectApiError, pointersOf } from './expectations';
import { controlChange, deliveriesFor, eventuallyPasses, subscribe } from './helpers';

const TRACK = {
	data: {
		type: 'tracking_request',
		attributes: { request_number: 'MSCU1234566', request_type: 'container', scac: 'MSCU' },
	},
};

/** The HTTP status of the answer, or the client's error code when there was none. */
async function outcome(call: Promise<AxiosResponse>): Promise<number | string> {
	try {
		return (await call).status;
	} catch (error) {
		return (error as { code?: string }).code ?? String(error);
	}
}

/**
 * Outages last real seconds (not sandbox time). One that a test ends or replaces itself outlasts
 * the test: twice the longest bound a test here waits for (eventuallyPasses', generous(2_000));
 * quietly a test takes well under 2 s.
 */
const LONG_S = (2 * generous(2_000)) / 1000;
/**
 * One that a test waits out: the calls and reads it makes while the service is down (or before a
 * scheduled outage starts) take a few ms on a quiet machine, 200 rounded up.
 */
const SHORT_S = generous(200) / 1000;

/** Sleeps until `iso` (plus a margin) in real time. */
async function sleepUntil(iso: string, marginMs = 100): Promise<void> {
	await sleep(Math.max(0, Date.parse(iso) - Date.now()) + marginMs);
}

describe('sandbox outage', () => {
	let handle: SandboxHandle;
	beforeEach(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
	});
	afterEach(() => handle.stop());

	const status = async () => (await handle.control.get('/outage')).data;
	const trackingRequests = () => handle.sandbox.world.store.list('tracking_request');

	it('reports no outage before one is set', async () => {
		expect(await status()).toEqual({
			active: false,
			scheduled: false,
			kind: null,
			started_at: null,
			ends_at: null,
			seconds_left: 0,
			calls_during_outage: 0,
			calls_during_outage_by_route: {},
		});
	});

	it('503: every API call fails before it is handled, nothing is created, the calls are counted; DELETE ends it', async () => {
		const counted = await handle.control.post('/faults', {
			path: '/containers',
			kind: 'error_500',
			count: 1,
		});
		expect(counted.status).toBe(201);
		const set = await handle.control.post('/outage', { seconds: LONG_S, kind: 503 });
		expect(set.status).toBe(201);
		expect(set.data).toMatchObject({ active: true, scheduled: false, kind: '503' });
		expect(set.data.seconds_left).toBeGreaterThan(LONG_S - 1);

		const errors = expectApiError(await handle.api.post('/tracking_requests', TRACK), 503);
		expect(errors[0].title).toBe('Service Unavailable');
		expectApiError(await handle.api.post('/tracking_requests', TRACK), 503);
		expectApiError(await handle.api.get('/containers'), 503);
		expectApiError(await handle.api.get('/containers/nope'), 503);
		// Before the key check and the routes too: the service is not there to answer 401 or 404.
		expectApiError(await handle.api.get('/containers', { headers: { Authorization: '' } }), 503);
		expectApiError(await handle.api.get('/no_such_route'), 503);

		expect(trackingRequests()).toHaveLength(0);
		const faults = (await handle.control.get('/faults')).data.faults;
		expect(faults).toMatchObject([{ kind: 'error_500', fired: 0, remaining: 1 }]);
		expect(await status()).toMatchObject({
			active: true,
			calls_during_outage: 6,
			calls_during_outage_by_route: {
				'POST /tracking_requests': 2,
				'GET /containers': 2,
				'GET /containers/:id': 1,
				'GET /no_such_route': 1,
			},
		});

		const ended = await handle.control.delete('/outage');
		expect(ended.status).toBe(200);
		expect(ended.data).toMatchObject({ active: false, seconds_left: 0, calls_during_outage: 6 });
		expect(Date.parse(ended.data.ends_at)).toBeLessThanOrEqual(Date.now());
		expect((await handle.api.post('/tracking_requests', TRACK)).status).toBe(201);
		expect(trackingRequests()).toHaveLength(1);
		expect((await status()).calls_during_outage).toBe(6);
	});

	it('500, started from a test (sandbox.outage.start): the service recovers by itself after the seconds', async () => {
		const started = handle.sandbox.outage.start({ seconds: SHORT_S, kind: '500' });
		expect(started).toMatchObject({ active: true, kind: '500' });
		expect(await status()).toMatchObject({ active: true, kind: '500' });
		expect((await status()).seconds_left).toBeLessThanOrEqual(SHORT_S);

		const errors = expectApiError(await handle.api.get('/tracking_requests'), 500);
		expect(errors[0].title).toBe('Internal Server Error');
		await sleepUntil(started.ends_at!);

		expect((await handle.api.get('/tracking_requests')).status).toBe(200);
		expect(handle.sandbox.outage.status()).toMatchObject({
			active: false,
			seconds_left: 0,
			calls_during_outage: 1,
			calls_during_outage_by_route: { 'GET /tracking_requests': 1 },
		});
	});

	it('drop: the connection is closed without an answer', async () => {
		await handle.control.post('/outage', { seconds: LONG_S, kind: 'drop' });
		expect(await outcome(handle.api.post('/tracking_requests', TRACK))).toBe('ECONNRESET');
		expect(await outcome(handle.api.get('/containers'))).toBe('ECONNRESET');
		expect(trackingRequests()).toHaveLength(0);
		expect((await status()).calls_during_outage).toBe(2);
	});

	it('timeout: calls are never answered; a shorter client timeout fires, the socket closes when the outage ends', async () => {
		// The impatient client gives up well before the outage ends (the timeout is what is tested).
		const set = await handle.control.post('/outage', { seconds: 1.5 * SHORT_S, kind: 'timeout' });
		const impatient = outcome(handle.api.post('/tracking_requests', TRACK, { timeout: 300 }));
		const patient = outcome(handle.api.get('/containers'));
		const patientDone = patient.then(() => Date.now());

		expect(await impatient).toBe('ECONNABORTED');
		expect(await patient).toBe('ECONNRESET');
		// Held until the outage's end, not answered before it.
		expect(await patientDone).toBeGreaterThanOrEqual(Date.parse(set.data.ends_at) - 50);
		expect(trackingRequests()).toHaveLength(0);
		expect((await handle.api.get('/containers')).status).toBe(200);
		expect((await status()).calls_during_outage).toBe(2);
	});

	it('timeout: DELETE releases the calls held at once', async () => {
		const set = await handle.control.post('/outage', { seconds: LONG_S, kind: 'timeout' });
		const held = outcome(handle.api.get('/containers'));
		const releasedAt = held.then(() => Date.now());
		await eventuallyPasses(async () => expect((await status()).calls_during_outage).toBe(1));
		const ended = await handle.control.delete('/outage');
		expect(await held).toBe('ECONNRESET');
		// Released by the DELETE, not by the outage's own end.
		expect(await releasedAt).toBeLessThan(Date.parse(set.data.ends_at));
		expect(Date.parse(ended.data.ends_at)).toBeLessThan(Date.parse(set.data.ends_at));
	});

	it('mix: 500, 503 and dropped connections in turn, call by call', async () => {
		await handle.control.post('/outage', { seconds: LONG_S });
		const outcomes: Array<number | string> = [];
		for (let call = 0; call < 6; call++)
			outcomes.push(await outcome(handle.api.get('/containers')));
		expect(outcomes).toEqual([500, 503, 'ECONNRESET', 500, 503, 'ECONNRESET']);
		expect((await status()).kind).toBe('mix');
	});

	it('after_seconds: scheduled, then down, then up again', async () => {
		const set = await handle.control.post('/outage', {
			seconds: SHORT_S,
			kind: '503',
			after_seconds: SHORT_S,
		});
		expect(set.data).toMatchObject({ active: false, scheduled: true, kind: '503' });
		expect(set.data.seconds_left).toBeGreaterThan(1.5 * SHORT_S);
		expect((await handle.api.get('/containers')).status).toBe(200);

		await sleepUntil(set.data.started_at);
		expect(await status()).toMatchObject({ active: true, scheduled: false });
		expectApiError(await handle.api.get('/containers'), 503);

		await sleepUntil(set.data.ends_at);
		expect((await handle.api.get('/containers')).status).toBe(200);
		expect(await status()).toMatchObject({ active: false, calls_during_outage: 1 });
	});

	it('DELETE cancels a scheduled outage; a new outage resets the counts', async () => {
		// Cancelled before it starts: setting and cancelling take a few ms on a quiet machine.
		const set = await handle.control.post('/outage', {
			seconds: SHORT_S,
			after_seconds: generous(60) / 1000,
		});
		const cancelled = await handle.control.delete('/outage');
		expect(cancelled.data).toMatchObject({ active: false, scheduled: false, kind: null });
		// A quiet window: past the moment it would have started, the service is still up.
		await sleepUntil(set.data.started_at);
		expect((await handle.api.get('/containers')).status).toBe(200);

		await handle.control.post('/outage', { seconds: LONG_S, kind: '500' });
		await handle.api.get('/containers');
		expect((await status()).calls_during_outage).toBe(1);
		await handle.control.post('/outage', { seconds: LONG_S, kind: '503' });
		expect(await status()).toMatchObject({
			calls_during_outage: 0,
			calls_during_outage_by_route: {},
		});
		expectApiError(await handle.api.get('/containers'), 503);
	});

	it('webhook deliveries go on during the outage: only the inbound API is down', async () => {
		const receiver = await startWebhookReceiver();
		try {
			await subscribe(handle, receiver, EVENT_NAMES);
			const { containerIds } = await trackContainer(handle, 'MSCU1234566', 'MSCU');
			await handle.control.post('/outage', { seconds: LONG_S, kind: '503' });
			await controlChange(handle, containerIds[0], {
				kind: 'place_hold',
				name: 'customs',
				status: 'hold',
			});
			await eventuallyPasses(() =>
				expect(
					deliveriesFor(receiver, { event: 'container.updated', containerId: containerIds[0] }),
				).not.toHaveLength(0),
			);
			expect((await status()).active).toBe(true);
		} finally {
			await receiver.close();
		}
	});

	it('refuses invalid bodies with a 400 naming the field', async () => {
		const refused = async (body: unknown) => {
			const errors = expectApiError(await handle.control.post('/outage', body), 400);
			return pointersOf(errors);
		};
		expect(await refused({})).toEqual(['/seconds']);
		expect(await refused({ seconds: 0 })).toEqual(['/seconds']);
		expect(await refused({ seconds: '30' })).toEqual(['/seconds']);
		expect(await refused({ seconds: 30, kind: '502' })).toEqual(['/kind']);
		expect(await refused({ seconds: 30, kind: 'error_500' })).toEqual(['/kind']);
		expect(await refused({ seconds: 30, after_seconds: -1 })).toEqual(['/after_seconds']);
		expect(await refused({ seconds: 30, after: 10 })).toEqual(['/after']);
		expect(await refused([30])).toEqual(['/']);
		expect(await status()).toMatchObject({ active: false, scheduled: false, kind: null });
	});

	it('needs the API key like the rest of the control API', async () => {
		const anonymous = axios.create({
			baseURL: handle.sandbox.controlUrl,
			validateStatus: () => true,
		});
		expectApiError(await anonymous.post('/outage', { seconds: 30 }), 401);
		const wrongKey = { headers: { Authorization: `Token not-${API_KEY}` } };
		expectApiError(await handle.control.delete('/outage', wrongKey), 401);
		expect((await status()).kind).toBeNull();
	});
});

describe('--outage values', () => {
	it('reads durations as 30s, 2m, 1m30s, 1h or bare seconds', () => {
		const read = ['30s', '2m', '1m30s', '1h', '45', '1.5s'].map(parseDuration);
		expect(read).toEqual([30, 120, 90, 3600, 45, 1.5]);
		for (const wrong of ['', 's', '30x', '30s2m', '-5s', '1m 30s'])
			expect(parseDuration(wrong)).toBeUndefined();
	});

	it('reads <duration>[@<start>]', () => {
		expect(parseOutageSchedule('30s@60s')).toEqual({ seconds: 30, afterSeconds: 60 });
		expect(parseOutageSchedule('2m')).toEqual({ seconds: 120, afterSeconds: 0 });
		expect(parseOutageSchedule('1m30s@1m')).toEqual({ seconds: 90, afterSeconds: 60 });
		for (const wrong of ['0s', '30s@', '@60s', '30s@60s@1m', 'soon'])
			expect(() => parseOutageSchedule(wrong)).toThrow('--outage must be <duration>[@<start>]');
	});
});

// How every operation talks to the service (transport/): pacing to the rate limits, waiting out
// a 429's Retry-After, retrying calls that are safe to repeat, and clear errors otherwise. Runs
// through n8n's engine against a started sandbox, with faults injected by its control API.
import { byClock, generous } from '../support/bounds';
import { runContainerTrackingNode } from '../support/engine';
import { API_KEY, startPacedSandbox, type SandboxHandle } from '../support/sandbox';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';

/** The paced sandbox's rate window: a sandbox minute, one real second. */
const WINDOW_MS = 1_000;
/** What the 429s here ask to wait: Retry-After 1 (s). */
const RETRY_AFTER_MS = 1_000;

const infer = {
	resource: 'trackingRequest',
	operation: 'inferNumber',
	number: '={{ $json.number }}',
};

describe('transport: rate limits, retries and errors', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });

	beforeAll(async () => {
		// A sandbox minute lasts one real second (test/support/sandbox.ts).
		handle = await startPacedSandbox();
	});
	afterAll(() => handle.stop());
	afterEach(() => handle.control.delete('/faults'));

	it(
		'a batch of 1,000 numbers goes through infer_number with no failed item',
		async () => {
			const numbers = Array.from({ length: 1000 }, (_, index) =>
				withCheckDigit(`MSCU${String(100000 + index).padStart(6, '0')}`),
			);
			await handle.control.delete('/deliveries');
			const { items, error } = await runContainerTrackingNode(
				infer,
				numbers.map((number) => ({ number })),
				credentials(),
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1000);
			expect(items.filter((item) => item.json.error !== undefined)).toEqual([]);
			expect(items.map((item) => item.json.number)).toEqual(numbers);
			expect(items.every((item) => item.json.scac === 'MSCU' && item.json.is_valid === true)).toBe(
				true,
			);
			// infer_number allows 200 calls a window: five windows, and the calls' own work.
		},
		byClock(5 * WINDOW_MS) + generous(3_000),
	);

	it(
		'waits out a 429 for its Retry-After and then gets the answer',
		async () => {
			await handle.control.post('/faults', {
				path: '/tracking_requests/infer_number',
				kind: 'rate_limited',
				count: 2,
				retry_after: 1,
			});
			const started = Date.now();
			const { items, error } = await runContainerTrackingNode(
				infer,
				[{ number: 'MSCU6639870' }],
				credentials(),
			);
			expect(error).toBeUndefined();
			expect(items[0].json.scac).toBe('MSCU');
			expect(Date.now() - started).toBeGreaterThanOrEqual(2 * RETRY_AFTER_MS);
			const { data } = await handle.control.get('/faults');
			expect(data.faults).toEqual([]);
		},
		byClock(2 * RETRY_AFTER_MS) + generous(1_000),
	);

	it(
		'waits out six 429s in a row (what five counted waits could not), within its Outage Tolerance',
		async () => {
			await handle.control.post('/faults', {
				path: '/tracking_requests/infer_number',
				kind: 'rate_limited',
				count: 6,
				retry_after: 1,
			});
			const { items, error } = await runContainerTrackingNode(
				infer,
				[{ number: 'MSCU6639870' }],
				credentials(),
			);
			expect(error).toBeUndefined();
			expect(items[0].json.scac).toBe('MSCU');
			expect((await handle.control.get('/faults')).data.faults).toEqual([]);
		},
		byClock(6 * RETRY_AFTER_MS) + generous(1_000),
	);

	it('fails an item at once when a 429 asks for a longer wait than its Outage Tolerance leaves, saying so', async () => {
		await handle.control.post('/faults', {
			path: '/tracking_requests/infer_number',
			kind: 'rate_limited',
			count: 1,
			retry_after: 1,
		});
		const started = Date.now();
		// (A longer Retry-After would hold every later call on this key as long: the service said so.)
		const { items } = await runContainerTrackingNode(
			{ ...infer, options: { outageTolerance: 0 } },
			[{ number: 'MSCU6639870' }],
			credentials(),
			{ continueOnFail: true },
		);
		// Failed without waiting out the Retry-After: the run's own work takes well under a fifth of it.
		expect(Date.now() - started).toBeLessThan(byClock(RETRY_AFTER_MS));
		expect(items[0].json).toMatchObject({
			http_code: '429',
			error:
				"The service's rate limit held item 0 longer than its Outage Tolerance (it asked to wait 1 s more)",
		});
		expect(String(items[0].json.error_description)).toContain('Outage Tolerance is 0 s');
	});

	it.each(['error_500', 'drop', 'malformed'])(
		'retries a call that is safe to repeat after %s',
		async (kind) => {
			await handle.control.post('/faults', {
				path: '/tracking_requests/infer_number',
				kind,
				count: 2,
			});
			const { items, error } = await runContainerTrackingNode(
				infer,
				[{ number: 'MSCU6639870' }],
				credentials(),
			);
			expect(error).toBeUndefined();
			expect(items[0].json.decision).toBe('auto_select');
		},
	);

	it(
		'rides out failures in a row that five quick tries would not have: the item gets its answer',
		async () => {
			await handle.control.post('/faults', {
				path: '/tracking_requests/infer_number',
				kind: 'error_500',
				count: 6,
			});
			const { items, error } = await runContainerTrackingNode(
				infer,
				[{ number: 'MSCU6639870' }],
				credentials(),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ number: 'MSCU6639870', scac: 'MSCU' });
			// Two tries 0.5 and 1 s apart at most; then, the circuit open after three faults, probes 1,
			// 1, 2 and 4 s apart at most (transport/circuit.ts).
		},
		byClock(1_500 + 8_000) + generous(1_000),
	);

	it('with Outage Tolerance 0, fails on the first fault with the service’s own error', async () => {
		await handle.control.post('/faults', {
			path: '/tracking_requests/infer_number',
			kind: 'error_500',
			count: 1,
		});
		const { items, error } = await runContainerTrackingNode(
			{ ...infer, options: { outageTolerance: 0 } },
			[{ number: 'MSCU6639870' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({ http_code: '500' });
	});

	it('fails an item once the faults outlast its Outage Tolerance, saying for how long and what it met', async () => {
		await handle.control.post('/faults', {
			path: '/tracking_requests/infer_number',
			kind: 'error_500',
			count: 1000,
		});
		const { items, error } = await runContainerTrackingNode(
			{ ...infer, options: { outageTolerance: 3 } },
			[{ number: 'MSCU6639870' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(String(items[0].json.error)).toMatch(
			/^The service has not answered for \d+ s \(last: HTTP 500 at \d{2}:\d{2}:\d{2} UTC\); item 0 got no answer$/,
		);
		expect(String(items[0].json.error_description)).toContain('Outage Tolerance is 3 s');
	});

	it('an Outage Tolerance that is not a number fails the item naming the field', async () => {
		const { items } = await runContainerTrackingNode(
			{ ...infer, options: { outageTolerance: '={{ "soon" }}' } },
			[{ number: 'MSCU6639870' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(items[0].json.error).toBe(
			'Outage Tolerance must be a number of seconds, 0 or more (got "soon")',
		);
	});

	it('an unknown route answering an HTML page is reported, not a crash', async () => {
		const { error } = await runContainerTrackingNode(infer, [{ number: 'MSCU6639870' }], {
			apiKey: API_KEY,
			baseUrl: `${handle.sandbox.url}/nowhere`,
		});
		expect(error?.httpCode).toBe('404');
		expect(error?.message).toBe('Not found (POST /tracking_requests/infer_number)');
		expect(error?.description).toContain("The page you were looking for doesn't exist");
	});

	it(
		'an unreachable service is a clear connection error',
		async () => {
			const { error } = await runContainerTrackingNode(infer, [{ number: 'MSCU6639870' }], {
				apiKey: API_KEY,
				baseUrl: 'http://127.0.0.1:9/v2',
			});
			expect(error?.message).toMatch(/refused the connection|could not be reached/);
			// Five tries: 0.5 and 1 s apart at most, then at once, the circuit open (transport/request.ts).
		},
		byClock(1_500) + generous(1_000),
	);
});

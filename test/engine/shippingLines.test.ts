// The Shipping Line field of Tracking Request → Create through n8n's engine against a started
// sandbox: its choices are the account's lines (GET /shipping_lines) by name and SCAC, saying
// which kinds of number each tracks, with the fixed table when the list cannot be read; a request
// for a kind of number the line does not track fails before it is sent, and a line's alternative
// SCAC counts as the line.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { SHIPPING_LINES } from '../../nodes/ContainerTracking/logic/shippingLines';
import { loadOptionsWithNode, runContainerTrackingNode } from '../support/engine';
import { API_KEY, countRequests, startTestSandbox, type SandboxHandle } from '../support/sandbox';

describe('Shipping lines: the account’s, in the picker and before a request is sent', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const create = (requestNumber: string, requestType: string, scac: string) => ({
		resource: 'trackingRequest',
		operation: 'create',
		requestNumber,
		requestType,
		scac,
	});

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
	});
	afterAll(async () => handle?.stop());
	afterEach(() => handle.control.delete('/faults'));

	it('the picker offers infer, detection by the service, then the account’s lines with what each tracks', async () => {
		const options = await loadOptionsWithNode('getShippingLines', credentials());
		expect(options.slice(0, 2).map((option) => option.value)).toEqual(['infer', 'auto_detect']);
		const lines = options.slice(2);
		expect(lines.map((option) => option.value).sort()).toEqual(
			SHIPPING_LINES.map((line) => line.scac).sort(),
		);
		expect(lines.find((option) => option.value === 'HDMU')).toEqual({
			name: 'HMM (HDMU)',
			value: 'HDMU',
			description: 'Tracks container numbers, bills of lading',
		});
		expect(lines.find((option) => option.value === 'MSCU')?.description).toBe(
			'Tracks container numbers, bills of lading, booking numbers',
		);
	});

	it('when the list cannot be read, the picker falls back to the fixed table at once', async () => {
		await handle.control.post('/faults', {
			path: '/shipping_lines',
			kind: 'error_500',
			count: 100,
		});
		const options = await loadOptionsWithNode('getShippingLines', credentials());
		expect(options.slice(2).map((option) => option.value)).toEqual(
			SHIPPING_LINES.map((line) => line.scac),
		);
		// At once: one call, not repeated after a backoff (the picker tolerates no outage).
		const { data } = await handle.control.get('/faults');
		expect(data.faults).toEqual([expect.objectContaining({ path: '/shipping_lines', fired: 1 })]);
	});

	it('a booking for a line that tracks none fails before it is sent; one for MSC through its other SCAC goes', async () => {
		const creates = await countRequests(handle, 'POST', '/tracking_requests');
		const { items, error } = await runContainerTrackingNode(
			{ ...create('={{ $json.number }}', 'booking', '={{ $json.scac }}') },
			[
				{ number: 'HDMU12345678', scac: 'HDMU' },
				{ number: 'MEDU12345678', scac: 'medu' },
			],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe('HMM (HDMU) does not track booking numbers for this account');
		expect(String(items[0].json.error_description ?? items[0].json.description ?? '')).toContain(
			'Nothing was sent',
		);
		expect(items[1].json).toMatchObject({ request_number: 'MEDU12345678', scac: 'MSCU' });
		expect(items[1].json.error).toBeUndefined();
		expect(await creates()).toBe(1);
	});

	it('a container number for a line that tracks them goes through as before', async () => {
		const { items, error } = await runContainerTrackingNode(
			create(withCheckDigit('HDMU762001'), 'container', 'HDMU'),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ scac: 'HDMU', already_tracked: false });
	});
});

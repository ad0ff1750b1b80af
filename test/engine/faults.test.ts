// Writes under real faults: the sandbox fails a seeded share of the calls, some before the
// service did the work (nothing happened) and some after it (the work is done, the answer is
// lost). A write that is safe to repeat is repeated, so no item fails and nothing is made twice.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { runContainerTrackingNode } from '../support/engine';
import { API_KEY, startPacedSandbox, type SandboxHandle } from '../support/sandbox';

/**
 * The real waits the 200 creates meet: about 26 faults strike (seeded: 21 answered 500 or
 * dropped, 5 refused with Retry-After 1 s), each costing its item a wait of at most a second
 * (the transport's first backoff is at most 0.5 s, doubled if the same item is struck again; an
 * open circuit probes after 1 s), and 200 calls pass the paced one-second window of 100.
 */
const FAULT_WAITS_MS = byClock(30 * 1_000);

interface FiredFault {
	kind: string;
	when: string;
	fired: number;
}

describe('writes under injected faults', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const fired = async (): Promise<FiredFault[]> =>
		(await handle.control.get('/faults')).data.faults as FiredFault[];

	beforeAll(async () => {
		// Tracking requests stay pending (no journeys run during the test).
		handle = await startPacedSandbox({ trackingDelaySeconds: 86_400 });
	});
	afterAll(() => handle.stop());
	afterEach(() => handle.control.delete('/faults'));

	it(
		'200 Create Tracking Request items with 11 % of the calls failing: no item fails, no number is tracked twice',
		async () => {
			// 5 % answered 500, 3 % dropped, 3 % rate-limited; the 500s and drops half before the
			// service created the request and half after.
			const faults = [
				{ kind: 'error_500', when: 'before', rate: 0.025 },
				{ kind: 'error_500', when: 'after', rate: 0.025 },
				{ kind: 'drop', when: 'before', rate: 0.015 },
				{ kind: 'drop', when: 'after', rate: 0.015 },
				{ kind: 'rate_limited', when: 'before', rate: 0.03, retry_after: 1 },
			];
			for (const [index, fault] of faults.entries()) {
				const added = await handle.control.post('/faults', {
					path: '/tracking_requests',
					method: 'POST',
					...fault,
					...(index === 0 ? { seed: 'create-under-faults' } : {}),
				});
				expect(added.status).toBe(201);
			}
			const numbers = Array.from({ length: 200 }, (_, index) =>
				withCheckDigit(`MSCU${String(700000 + index).padStart(6, '0')}`),
			);
			const { items, error } = await runContainerTrackingNode(
				{
					resource: 'trackingRequest',
					operation: 'create',
					requestNumber: '={{ $json.number }}',
					requestType: 'container',
					scac: 'MSCU',
				},
				numbers.map((number) => ({ number })),
				credentials(),
				{ onError: 'continueRegularOutput' },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(200);
			expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual(
				numbers.map((_, index) => index),
			);
			expect(
				items.filter((item) => item.json.error !== undefined).map((item) => item.json),
			).toEqual([]);
			expect(items.map((item) => item.json.request_number)).toEqual(numbers);

			// Exactly one tracking request per number in the service.
			const stored = handle.sandbox.world.store
				.list('tracking_request')
				.map((request) => String(request.attributes.request_number));
			expect(stored.filter((number) => numbers.includes(number)).sort()).toEqual(
				[...numbers].sort(),
			);

			// The faults did strike, in both places, and the node said which items it sent again.
			const struck = await fired();
			const after = struck
				.filter((fault) => fault.when === 'after')
				.reduce((sum, fault) => sum + fault.fired, 0);
			const total = struck.reduce((sum, fault) => sum + fault.fired, 0);
			expect(after).toBeGreaterThan(0);
			expect(total).toBeGreaterThan(after);
			const retried = items.filter((item) => item.json.retried === true);
			expect(retried.length).toBeGreaterThan(0);
			const alreadyTracked = items.filter((item) => item.json.already_tracked === true);
			// Each one comes from an answer lost after the service created the request.
			expect(alreadyTracked.length).toBeGreaterThan(0);
			expect(alreadyTracked.length).toBeLessThanOrEqual(after);
			for (const item of alreadyTracked) {
				expect(item.json.retried).toBe(true);
				expect(String(item.json.message)).toContain('the earlier attempt most likely created it');
			}
			// Besides the waits, 200 items through n8n's engine: about 6 s on the busy machine.
		},
		FAULT_WAITS_MS + generous(6_000),
	);

	it('a webhook whose creation answer is lost is adopted, not created twice', async () => {
		const url = 'https://example.com/hooks/lost-answer';
		await handle.control.post('/faults', {
			path: '/webhooks',
			method: 'POST',
			kind: 'error_500',
			when: 'after',
			count: 1,
		});
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'create',
				url,
				events: ['container.updated'],
				// Inactive: nothing is delivered to a host this machine cannot reach.
				active: false,
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		const webhooks = handle.sandbox.world.store
			.list('webhook')
			.filter((webhook) => webhook.attributes.url === url);
		expect(webhooks).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id: webhooks[0].id, url, retried: true });
		expect(String(items[0].json.message)).toContain('it is returned instead of a second one');
	});

	it('a webhook deletion whose answer is lost is reported deleted', async () => {
		const created = await handle.api.post('/webhooks', {
			data: {
				type: 'webhook',
				attributes: { url: 'https://example.com/hooks/to-delete', events: ['container.updated'] },
			},
		});
		expect(created.status).toBe(201);
		const id = String(created.data.data.id);
		await handle.control.post('/faults', {
			path: '/webhooks/*',
			method: 'DELETE',
			kind: 'drop',
			when: 'after',
			count: 1,
		});
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'delete', webhookId: id },
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id, deleted: true, retried: true });
		expect(handle.sandbox.world.store.get('webhook', id)).toBeUndefined();
	});
});

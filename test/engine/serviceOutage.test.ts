// A service outage at the start of a bulk run (nodes/ContainerTracking/transport/circuit.ts and
// request.ts): the sandbox fails every call for 30 real seconds (500, 503 and dropped
// connections in turn, before it handles them), then recovers. Items wait at the shared circuit
// while one probe at a time finds out whether the service is back: the outage costs time, not
// items, and nothing is created twice. An Outage Tolerance shorter than the outage fails the
// items that waited longer than it, each saying so, and loses none. The trigger's activation and
// the editor's list searches ride out a short outage through the same transport.
import type { INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode, searchWithNode } from '../support/engine';
import { TriggerHarness } from '../support/trigger';
import {
	API_KEY,
	startPacedSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

const OUTAGE_SECONDS = 30;

function createParameters(options: INodeParameters = {}): INodeParameters {
	return {
		resource: 'trackingRequest',
		operation: 'create',
		requestNumber: '={{ $json.number }}',
		requestType: 'container',
		scac: 'MSCU',
		options,
	};
}

describe('a 30 s service outage at the start of 200 Create Tracking Request items', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const storedNumbers = () =>
		handle.sandbox.world.store
			.list('tracking_request')
			.map((request) => String(request.attributes.request_number));

	beforeEach(async () => {
		// Tracking requests stay pending (no journeys run during the test).
		handle = await startPacedSandbox({ trackingDelaySeconds: 86_400 });
	});
	afterEach(() => handle.stop());

	it('costs time, not items: 0 failed, 0 created twice, a probe every few seconds', async () => {
		const numbers = Array.from({ length: 200 }, (_, index) =>
			withCheckDigit(`MSCU${String(710000 + index).padStart(6, '0')}`),
		);
		handle.sandbox.outage.start({ seconds: OUTAGE_SECONDS, kind: 'mix' });
		const started = Date.now();
		const { items, error } = await runContainerTrackingNode(
			createParameters(),
			numbers.map((number) => ({ number })),
			credentials(),
			{ onError: 'continueRegularOutput' },
		);
		const seconds = (Date.now() - started) / 1000;
		expect(error).toBeUndefined();
		expect(items).toHaveLength(200);
		expect(items.filter((item) => item.json.error !== undefined).map((item) => item.json)).toEqual(
			[],
		);
		expect(items.map((item) => item.json.request_number)).toEqual(numbers);
		// Exactly one tracking request per number.
		expect(storedNumbers().sort()).toEqual([...numbers].sort());
		// The first item waited out the outage and says so; the rest went through at once.
		expect(items[0].json).toMatchObject({ retried: true });
		expect(String(items[0].json.retried_after)).toMatch(/HTTP 50[03]|ECONNRESET|socket hang up/);
		expect(seconds).toBeGreaterThanOrEqual(OUTAGE_SECONDS);
		expect(seconds).toBeLessThan(OUTAGE_SECONDS + 25);
		// What reached the service while it was down: the first item's tries until the circuit
		// opened, then one probe at a time, 1 to 10 s apart.
		const { calls_during_outage: calls } = handle.sandbox.outage.status();
		expect(calls).toBeGreaterThanOrEqual(3);
		expect(calls).toBeLessThanOrEqual(15);
	}, 120_000);

	it('with Outage Tolerance 10 s, the items that waited longer fail saying so; none is created twice or lost', async () => {
		const numbers = Array.from({ length: 200 }, (_, index) =>
			withCheckDigit(`MSCU${String(720000 + index).padStart(6, '0')}`),
		);
		handle.sandbox.outage.start({ seconds: OUTAGE_SECONDS, kind: 'mix' });
		const { items, error } = await runContainerTrackingNode(
			createParameters({ outageTolerance: 10 }),
			numbers.map((number) => ({ number })),
			credentials(),
			{ onError: 'continueRegularOutput' },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(200);
		const failed = items.filter((item) => item.json.error !== undefined);
		// Items go one after the other: each waits its own 10 s, so two or three outlast it.
		expect(failed.length).toBeGreaterThanOrEqual(2);
		expect(failed.length).toBeLessThanOrEqual(4);
		for (const item of failed) {
			const index = (item.pairedItem as { item: number }).item;
			expect(String(item.json.error)).toMatch(
				new RegExp(
					`^The service has not answered for 1\\d s \\(last: (HTTP 50[03]|a dropped connection) at \\d{2}:\\d{2}:\\d{2} UTC\\); item ${index} (was not sent|may have been created)$`,
				),
			);
			expect(String(item.json.error_description)).toContain('Outage Tolerance is 10 s');
		}
		// Every number is either tracked once or reported: none lost, none twice.
		const stored = storedNumbers();
		expect(new Set(stored).size).toBe(stored.length);
		const succeeded = items
			.filter((item) => item.json.error === undefined)
			.map((item) => String(item.json.request_number));
		expect(succeeded.every((number) => stored.includes(number))).toBe(true);
		const reported = failed.map((item) => numbers[(item.pairedItem as { item: number }).item]);
		expect([...succeeded, ...reported].sort()).toEqual([...numbers].sort());
		// A failed item that went out may have created its request; one that was not sent did not.
		for (const item of failed) {
			const number = numbers[(item.pairedItem as { item: number }).item];
			if (String(item.json.error).endsWith('was not sent')) expect(stored).not.toContain(number);
		}
	}, 120_000);

	it('the trigger’s activation rides out a 4 s outage and registers its webhook once', async () => {
		const harness = new TriggerHarness(
			{ registration: 'automatic', events: ['container.updated'], options: {} },
			credentials(),
		);
		handle.sandbox.outage.start({ seconds: 4, kind: 'mix' });
		await harness.activate();
		const webhooks = handle.sandbox.world.store.list('webhook');
		expect(webhooks).toHaveLength(1);
		expect(handle.sandbox.outage.status().calls_during_outage).toBeGreaterThan(0);
	}, 60_000);

	it('a list search in the editor waits a short outage out, and gives up on a long one in about 10 s', async () => {
		// A sandbox whose tracking requests succeed at once, so that there is a container to list.
		await handle.stop();
		handle = await startPacedSandbox({ trackingDelaySeconds: 0 });
		await trackManyContainers(handle, [withCheckDigit('MSCU730001')], 'MSCU');
		handle.sandbox.outage.start({ seconds: 3, kind: '503' });
		const found = await searchWithNode('searchContainers', credentials());
		expect(found.results.map((result) => String(result.name))).toEqual([
			expect.stringMatching(/^MSCU730001\d/),
		]);

		handle.sandbox.outage.start({ seconds: 60, kind: '503' });
		const started = Date.now();
		await expect(searchWithNode('searchContainers', credentials())).rejects.toThrow(
			/^The service has not answered for 1\d s \(last: HTTP 503 at .+\); this call got no answer$/,
		);
		expect((Date.now() - started) / 1000).toBeLessThan(20);
		handle.sandbox.outage.end();
	}, 60_000);
});

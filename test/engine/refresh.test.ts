// Container → Refresh through n8n's engine against a started sandbox: the service reads the
// container again (its terminal_checked_at moves), the node paces refreshes to their own bucket
// of 10 a minute so that a column of 12 meets no 429, and an account without the feature gets
// a sentence that says so on each item. A sandbox minute lasts one real second here.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock } from '../support/bounds';
import { runContainerTrackingNode } from '../support/engine';
import { expectEveryItemRefused } from '../support/paidFeature';
import {
	API_KEY,
	startPacedSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

const refresh = {
	resource: 'container',
	operation: 'refresh',
	containerId: { __rl: true, mode: 'number', value: '={{ $json.number }}' },
};

describe('Container → Refresh', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const numbers = Array.from({ length: 12 }, (_, index) =>
		withCheckDigit(`MSCU75${String(index).padStart(4, '0')}`),
	);

	afterEach(async () => handle?.stop());

	it('refreshes each container of a column of 12, paced to its bucket of 10 a minute: no 429, every item answered', async () => {
		handle = await startPacedSandbox({ trackingDelaySeconds: 0 });
		const containers = await trackManyContainers(handle, numbers, 'MSCU');
		const started = Date.now();
		const { items, error } = await runContainerTrackingNode(
			refresh,
			numbers.map((number) => ({ number })),
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(12);
		for (const [index, item] of items.entries()) {
			const container = containers.find((record) => record.attributes.number === numbers[index])!;
			expect(item.json).toEqual({
				container_id: container.id,
				container_number: numbers[index],
				refresh_started: true,
				message: 'Started refresh for Shipping line, Terminal, Rail',
			});
			expect(item.pairedItem).toEqual({ item: index });
			expect(
				handle.sandbox.world.store.get('container', container.id)!.attributes.terminal_checked_at,
			).toEqual(expect.any(String));
		}
		const { data: stats } = await handle.control.get('/stats');
		expect(stats.rate_limited).toBe(0);
		// The 11th waited for the first to leave the (one-second) window: on the paced clock, so
		// never sooner on any machine (less 100 ms for timers' rounding).
		expect(Date.now() - started).toBeGreaterThanOrEqual(byClock(1_000) - 100);
	});

	it('an account without the feature: each item says so in words, and Continue On Fail keeps every item', async () => {
		handle = await startPacedSandbox({ trackingDelaySeconds: 0, containerRefresh: false });
		await trackManyContainers(handle, numbers.slice(0, 2), 'MSCU');
		const run = await runContainerTrackingNode(
			refresh,
			numbers.slice(0, 2).map((number) => ({ number })),
			credentials(),
			{ continueOnFail: true },
		);
		expectEveryItemRefused(
			run,
			2,
			'This account cannot refresh containers: Container Refresh is a paid feature',
		);
	});
});

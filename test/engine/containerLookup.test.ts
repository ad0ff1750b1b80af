/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Fetch Container When Missing (nodes/ContainerTracking/trigger/items/containerLookup.ts) measured
// on an account of 2,000 containers: a reference-only container.transport.available names only a
// transport event, and the trigger reads GET /containers page by page until the page whose
// container lists that event. It must stop there: a container on page 3 costs 3 calls, not 20. And
// a burst of such deliveries, each in its own execution, shares the scans.
import { randomUUID } from 'node:crypto';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { MAX_PAGE_SIZE } from '../../nodes/ContainerTracking/transport/pagination';
import type { Resource } from '../../sandbox/world/store';
import { generous } from '../support/bounds';
import { deliverSigned, referenceOnly, SECRET } from '../support/deliveries';
import {
	API_KEY,
	countRequests,
	startTestSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';
import { TriggerHarness } from '../support/trigger';

const CONTAINERS = 2_000;

describe('Fetch Container When Missing among 2,000 containers', () => {
	let handle: SandboxHandle;
	let containers: Resource[];
	const figures: string[] = [];

	let pageCalls: () => Promise<number>;

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		containers = await trackManyContainers(
			handle,
			Array.from({ length: CONTAINERS }, (_, serial) =>
				withCheckDigit(`MSCU${String(serial).padStart(6, '0')}`),
			),
			'MSCU',
		);
		pageCalls = await countRequests(handle, 'GET', '/containers');
		// Tracking 2,000 numbers: 11 s on the busy two-core machine.
	}, generous(15_000));

	afterAll(async () => {
		await handle?.stop();
		if (figures.length > 0)
			process.stdout.write(`container lookup among ${CONTAINERS}: ${figures.join('; ')}\n`);
	});

	const harness = () =>
		new TriggerHarness(
			{
				registration: 'automatic',
				events: ['container.transport.available'],
				options: { fetchContainer: true },
			},
			{ apiKey: API_KEY, baseUrl: handle.sandbox.url },
			{ webhookId: randomUUID(), webhookSecret: SECRET },
		);

	/** A reference-only notification naming `eventId`, as the service sends it. */
	function availableFor(eventId: string) {
		const notification = referenceOnly('container.transport.available');
		notification.data.relationships.reference_object.data.id = eventId;
		return notification;
	}

	/** A real transport event of a container, as the service would reference it. */
	function lastEventOf(container: Resource): string {
		const events = container.relationships!.transport_events.data as Array<{ id: string }>;
		return events[events.length - 1].id;
	}

	/** Delivers a reference-only notification naming `eventId` and runs its execution. */
	async function lookUp(eventId: string) {
		const before = await pageCalls();
		const started = performance.now();
		const { items } = await deliverSigned(harness(), availableFor(eventId));
		const ms = performance.now() - started;
		return { items, calls: (await pageCalls()) - before, ms };
	}

	// First: it also warms the trigger up before the lookups that are timed.
	it('an event no container lists reads every page once and names no container', async () => {
		const { items, calls, ms } = await lookUp(randomUUID());
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ container_id: null, container_number: null });
		expect(calls).toBe(CONTAINERS / MAX_PAGE_SIZE);
		figures.push(`no container: ${calls} calls, ${Math.round(ms)} ms`);
	});

	it.each([
		['the first page', 0],
		['the middle page', CONTAINERS / 2],
		['the last page', CONTAINERS - 1],
	])(
		'a container on %s is named, after reading the pages up to its own and no further',
		async (where, index) => {
			const container = containers[index];
			const page = Math.floor(index / MAX_PAGE_SIZE) + 1;
			const event = handle.sandbox.world.store.get('transport_event', lastEventOf(container))!;
			expect(event.relationships!.container.data).toMatchObject({ id: container.id });

			const { items, calls, ms } = await lookUp(event.id);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				event: 'container.transport.available',
				reference_type: 'transport_event',
				reference_id: event.id,
				container_id: container.id,
				container_number: handle.served('container', container.id).attributes.number,
				container: { id: container.id },
			});
			// No page after its own (not all 20); and fewer would mean its page was never read.
			expect(calls).toBe(page);
			figures.push(
				`${where} (container ${index + 1}, page ${page}): ${calls} calls, ${Math.round(ms)} ms`,
			);
		},
	);

	it('100 such deliveries at once, each in its own execution, share the scans: at most two reads of the account, not one each', async () => {
		const picked = Array.from({ length: 100 }, (_, index) => containers[index * 20 + 7]);
		const before = await pageCalls();
		const runs = await Promise.all(
			picked.map(
				async (container) => await deliverSigned(harness(), availableFor(lastEventOf(container))),
			),
		);
		const calls = (await pageCalls()) - before;
		expect(runs.map((run) => run.items[0]?.container_id)).toEqual(picked.map((c) => c.id));
		expect(calls).toBeLessThanOrEqual((2 * CONTAINERS) / MAX_PAGE_SIZE);
		figures.push(`100 at once: ${calls} calls`);
	});
});

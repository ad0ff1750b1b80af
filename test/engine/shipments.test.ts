// Shipment → Get Many, Stop Tracking and Resume Tracking through n8n's engine against a started
// sandbox: the service filters the list (one call, by tracked number or by whether tracking
// stopped), the From List picker names shipments by bill of lading, a stopped shipment's
// containers send no more notifications until it is resumed, and a stop asked twice is one stop.
import type { INodeParameters, NodeParameterValueType } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { runContainerTrackingNode, searchWithNode } from '../support/engine';
import {
	API_KEY,
	countRequests,
	eventually,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

describe('Shipment → Get Many, Stop Tracking, Resume Tracking', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const numbers = [0, 1, 2].map((serial) => withCheckDigit(`MSKU74000${serial}`));
	let tracked: Array<Awaited<ReturnType<typeof trackContainer>>>;
	let listCalls: () => Promise<number>;
	let receiver: WebhookReceiver;

	const shipmentOp = (
		operation: string,
		shipmentId: NodeParameterValueType,
		extra = {},
	): INodeParameters => ({
		resource: 'shipment',
		operation,
		shipmentId,
		...extra,
	});
	/** The deliveries the service sent about a container. */
	const notificationsAbout = (containerId: string) =>
		receiver.deliveries.filter((delivery) =>
			delivery.rawBody.toString('utf8').includes(containerId),
		);
	const holdOn = async (containerId: string) => {
		const played = await handle.control.post(`/containers/${containerId}/scenarios/customs_hold`, {
			gap_seconds: 0,
		});
		expect(played.status).toBe(202);
	};

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		tracked = [];
		for (const number of numbers) tracked.push(await trackContainer(handle, number, 'MAEU'));
		// A webhook, so that the service sends a notification for each change.
		receiver = await startWebhookReceiver(handle.sandbox.options.signatureHeader);
		const created = await handle.api.post('/webhooks', {
			data: { type: 'webhook', attributes: { url: receiver.url, events: ['container.updated'] } },
		});
		expect(created.status).toBe(201);
		listCalls = await countRequests(handle, 'GET', '/shipments');
		// Under half a second on the busy two-core machine.
	}, generous(2_000));
	afterAll(async () => {
		await handle?.stop();
		await receiver?.close();
	});

	it('Get Many by tracked number is filtered by the service: one call, one shipment, with its containers', async () => {
		const before = await listCalls();
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'shipment',
				operation: 'getMany',
				returnAll: true,
				filters: { number: numbers[1].toLowerCase() },
				simplify: false,
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual([tracked[1].shipmentId]);
		expect(items[0].json).toMatchObject({
			container_numbers: [numbers[1]],
			container_ids: tracked[1].containerIds,
		});
		expect((await listCalls()) - before).toBe(1);
	});

	it('the From List picker names shipments by bill of lading and finds one by part of it', async () => {
		const billOfLading = String(
			handle.sandbox.world.store.get('shipment', tracked[2].shipmentId)!.attributes
				.bill_of_lading_number,
		);
		const found = await searchWithNode('searchShipments', credentials(), billOfLading.slice(3, 9));
		expect(found.results.map((result) => result.value)).toEqual([tracked[2].shipmentId]);
		expect(String(found.results[0].name)).toMatch(new RegExp(`^${billOfLading} · MAEU · `));
	});

	it('Stop Tracking (picked From List) ends its containers’ notifications; asked twice, it is one stop; Get Many lists it as stopped', async () => {
		const [stopped, other] = [tracked[0], tracked[2]];
		const stop = () =>
			runContainerTrackingNode(
				shipmentOp('stopTracking', { __rl: true, mode: 'list', value: stopped.shipmentId }),
				[{}],
				credentials(),
			);
		const first = await stop();
		expect(first.error).toBeUndefined();
		// Under drift the service may give a reason no table lists: it passes through.
		expect(first.items[0].json).toMatchObject({
			id: stopped.shipmentId,
			line_tracking_stopped_reason: expect.any(String),
		});
		expect(first.items[0].json.line_tracking_stopped_at).toEqual(expect.any(String));
		const second = await stop();
		expect(second.error).toBeUndefined();
		expect(second.items[0].json.line_tracking_stopped_at).toEqual(expect.any(String));

		const [stoppedBefore, otherBefore] = [
			notificationsAbout(stopped.containerIds[0]).length,
			notificationsAbout(other.containerIds[0]).length,
		];
		await holdOn(stopped.containerIds[0]);
		await holdOn(other.containerIds[0]);
		await eventually(
			() => (notificationsAbout(other.containerIds[0]).length > otherBefore ? true : undefined),
			{ what: 'the tracked container’s notifications' },
		);
		expect(notificationsAbout(stopped.containerIds[0])).toHaveLength(stoppedBefore);

		const listed = await runContainerTrackingNode(
			{
				resource: 'shipment',
				operation: 'getMany',
				returnAll: true,
				filters: { trackingStopped: 'true' },
			},
			[{}],
			credentials(),
		);
		expect(listed.items.map((item) => item.json.id)).toEqual([stopped.shipmentId]);
		const tracking = await runContainerTrackingNode(
			{
				resource: 'shipment',
				operation: 'getMany',
				returnAll: true,
				filters: { trackingStopped: 'false' },
			},
			[{}],
			credentials(),
		);
		expect(tracking.items.map((item) => item.json.id).sort()).toEqual(
			[tracked[1].shipmentId, tracked[2].shipmentId].sort(),
		);
	});

	it('Resume Tracking (By ID) brings the notifications back', async () => {
		const resumed = tracked[0];
		const { items, error } = await runContainerTrackingNode(
			shipmentOp('resumeTracking', { __rl: true, mode: 'id', value: resumed.shipmentId }),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(resumed.shipmentId);
		// What the service keeps (drift serves stop fields on any shipment).
		expect(
			handle.sandbox.world.store.get('shipment', resumed.shipmentId)!.attributes,
		).toMatchObject({ line_tracking_stopped_at: null, line_tracking_stopped_reason: null });
		const before = notificationsAbout(resumed.containerIds[0]).length;
		await holdOn(resumed.containerIds[0]);
		await eventually(
			() => (notificationsAbout(resumed.containerIds[0]).length > before ? true : undefined),
			{ what: 'the resumed container’s notification' },
		);
	});

	it('an unknown shipment fails its item with the service’s 404; with Continue On Fail every item yields one', async () => {
		const { items, error } = await runContainerTrackingNode(
			shipmentOp('stopTracking', '={{ $json.id }}'),
			[{ id: '00000000-0000-4000-8000-000000000000' }, { id: tracked[1].shipmentId }, { id: '' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.error).toEqual(expect.any(String));
		expect(items[1].json.id).toBe(tracked[1].shipmentId);
		expect(String(items[2].json.error)).toContain('"Shipment"');
	});
});

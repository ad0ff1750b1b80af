// Webhook → Get Events and Send Test Delivery through n8n's engine against a started sandbox:
// the events the account may subscribe to, by category (the Rail Plan's only with it), and a
// signed sample delivered to a URL, with what that URL answered; a URL that refuses the sample
// is an answer on the item, not a failed item. Custom headers set on Create go with every
// delivery, and Update without any clears them.
import { RAIL_PLAN_EVENTS } from '../../sandbox/world/eventNames';
import { EVENT_OPTIONS } from '../../nodes/ContainerTracking/logic/eventNames';
import { runContainerTrackingNode, triggerLoadOptionsWithNode } from '../support/engine';
import { TriggerHarness } from '../support/trigger';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import {
	API_KEY,
	eventually,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';
import {
	startWebhookReceiver,
	verifySignature,
	type WebhookReceiver,
} from '../support/webhookReceiver';

describe('Webhook → Get Events, Send Test Delivery', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });

	beforeEach(async () => {
		receiver = await startWebhookReceiver();
	});
	afterEach(async () => {
		await handle?.stop();
		await receiver?.close();
	});

	it('Get Events lists every event by category, with its label; without the Rail Plan its event is left out', async () => {
		handle = await startTestSandbox();
		const withPlan = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'getEvents' },
			[{}],
			credentials(),
		);
		expect(withPlan.error).toBeUndefined();
		const events = withPlan.items.map((item) => item.json);
		expect(events.length).toBeGreaterThanOrEqual(43);
		expect(events.find((event) => event.event === 'container.updated')).toMatchObject({
			name: 'container.updated',
			event_label: expect.stringContaining('Container Updated'),
			category_id: expect.any(String),
			category_name: expect.any(String),
			description: expect.any(String),
		});
		expect(events.map((event) => event.event)).toEqual(
			expect.arrayContaining([...RAIL_PLAN_EVENTS]),
		);
		await handle.stop();

		handle = await startTestSandbox({ railPlan: false });
		const withoutPlan = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'getEvents' },
			[{}],
			credentials(),
		);
		const names = withoutPlan.items.map((item) => item.json.event);
		expect(names).toHaveLength(events.length - RAIL_PLAN_EVENTS.length);
		for (const event of RAIL_PLAN_EVENTS) expect(names).not.toContain(event);
	});

	it('the trigger offers the events the account may subscribe to, and a Rail Plan event on an account without it is refused in words', async () => {
		handle = await startTestSandbox({ railPlan: false });
		const offered = await triggerLoadOptionsWithNode('getSubscribableEvents', credentials());
		const values = offered.map((option) => option.value);
		expect(values).toContain('container.updated');
		for (const event of RAIL_PLAN_EVENTS) expect(values).not.toContain(event);
		// Labelled as the node labels them.
		expect(offered.find((option) => option.value === 'container.updated')).toEqual(
			EVENT_OPTIONS.find((option) => option.value === 'container.updated'),
		);

		const [railEvent] = RAIL_PLAN_EVENTS;
		const harness = new TriggerHarness(
			{ registration: 'automatic', events: ['container.updated', railEvent], options: {} },
			credentials(),
		);
		const refusal = await harness.activate().then(
			() => undefined,
			(error: Error) => error,
		);
		expect(refusal?.message).toBe(
			`This account cannot subscribe to ${EVENT_OPTIONS.find((option) => option.value === railEvent)!.name} (${railEvent})`,
		);
		expect(String((refusal as { description?: string }).description)).toContain('Rail Plan');
		expect(handle.sandbox.world.store.list('webhook')).toHaveLength(0);
	});

	it('the trigger offers its whole list when the account’s cannot be read', async () => {
		const offered = await triggerLoadOptionsWithNode('getSubscribableEvents', {
			apiKey: API_KEY,
			baseUrl: 'http://127.0.0.1:9/v2',
		});
		expect(offered).toEqual(EVENT_OPTIONS);
	});

	it('Send Test Delivery signs the sample with the secret and says what the URL answered', async () => {
		handle = await startTestSandbox();
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'sendTestDelivery',
				url: receiver.url,
				event: 'container.transport.vessel_arrived',
				secret: 'test-secret',
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			url: receiver.url,
			event: 'container.transport.vessel_arrived',
			succeeded: true,
			status_code: 200,
			error: null,
		});
		expect(receiver.deliveries).toHaveLength(1);
		const [delivery] = receiver.deliveries;
		expect(delivery.body.data.attributes.event).toBe('container.transport.vessel_arrived');
		expect(
			verifySignature(
				delivery.rawBody,
				'test-secret',
				delivery.headers[handle.sandbox.options.signatureHeader.toLowerCase()] as string,
			),
		).toBe(true);
	});

	it('a URL that refuses the sample is an answer on the item; an empty URL fails naming the field', async () => {
		handle = await startTestSandbox();
		receiver.answer = 500;
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'sendTestDelivery',
				url: '={{ $json.url }}',
				event: 'container.updated',
			},
			[{ url: receiver.url }, { url: '' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ succeeded: false, status_code: 500 });
		expect(items[0].json.error).toBeNull();
		expect(String(items[1].json.error)).toContain('"URL"');
		// Unsigned without a secret.
		expect(
			receiver.deliveries[0].headers[handle.sandbox.options.signatureHeader.toLowerCase()],
		).toBeUndefined();
	});

	it('Create with Custom Headers: every delivery carries them; Update with none clears them', async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		const created = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'create',
				url: receiver.url,
				events: ['container.updated'],
				active: true,
				options: {
					customHeaders: {
						header: [
							{ name: 'X-Receiver-Token', value: 'token-1' },
							{ name: ' ', value: 'x' },
						],
					},
				},
			},
			[{}],
			credentials(),
		);
		expect(created.error).toBeUndefined();
		expect(created.items[0].json.headers).toEqual([{ name: 'X-Receiver-Token', value: 'token-1' }]);
		const webhookId = String(created.items[0].json.id);
		const { containerIds } = await trackContainer(handle, withCheckDigit('MSKU764001'), 'MAEU');
		/** Plays a customs hold at once; returns its number of steps, each a container.updated. */
		const hold = async (): Promise<number> => {
			const played = await handle.control.post(
				`/containers/${containerIds[0]}/scenarios/customs_hold`,
				{ gap_seconds: 0 },
			);
			expect(played.status).toBe(202);
			return played.data.steps as number;
		};
		const steps = await hold();
		// Every delivery of the first hold, not only the first to arrive: one still on its way
		// after the update below would be counted as the update's.
		await eventually(() => (receiver.deliveries.length >= steps ? true : undefined), {
			what: 'the deliveries of the first hold',
		});
		expect(
			receiver.deliveries.every((delivery) => delivery.headers['x-receiver-token'] === 'token-1'),
		).toBe(true);

		const updated = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'update',
				webhookId: { __rl: true, mode: 'id', value: webhookId },
				updateFields: { customHeaders: {} },
			},
			[{}],
			credentials(),
		);
		expect(updated.error).toBeUndefined();
		expect(updated.items[0].json.headers ?? null).toBeNull();
		const before = receiver.deliveries.length;
		await hold();
		await eventually(() => (receiver.deliveries.length > before ? true : undefined), {
			what: 'a delivery after the update',
		});
		expect(
			receiver.deliveries
				.slice(before)
				.every((delivery) => delivery.headers['x-receiver-token'] === undefined),
		).toBe(true);
	});
});

// The Container Tracking Trigger run the way n8n runs it (n8n-core HookContext for activation,
// WebhookContext for deliveries, static data kept in the Workflow): signature checks, repeated
// deliveries, the items a workflow starts with, webhook registration against a started sandbox,
// and the sandbox delivering real notifications through an HTTP bridge standing in for n8n.
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import type { Resource } from '../../sandbox/world/store';
import {
	eventually,
	startTestSandbox,
	trackContainer,
	API_KEY,
	type SandboxHandle,
} from '../support/sandbox';
import {
	deliverSigned,
	fixtureNotification,
	HEADER,
	RECEIVED,
	recordOf,
	referenceOnly,
	SECRET,
	sign,
	type Doc,
} from '../support/deliveries';
import { ranHere } from '../../nodes/ContainerTracking/trigger/memory/notificationLedger';
import { triggerScope } from '../../nodes/ContainerTracking/trigger/triggerState';
import { describeWithFixtures } from '../support/sharedFixtures';
import { startBridge, type Bridge } from '../support/bridge';
import { TRIGGER_WEBHOOK_ID, TriggerHarness } from '../support/trigger';

const baseParameters = {
	registration: 'automatic',
	events: ['container.updated', 'container.transport.available'],
	options: {},
};

// ---------------------------------------------------------------------------------------------

describe('Container Tracking Trigger', () => {
	let handle: SandboxHandle;
	const credentials = (extra: Partial<{ signatureHeader: string; apiKey: string }> = {}) => ({
		apiKey: API_KEY,
		baseUrl: handle.sandbox.url,
		...extra,
	});
	/** A harness whose node is already registered, with the secret the service gave it. */
	const activated = (
		options: INodeParameters = {},
		extra: Partial<{ signatureHeader: string; apiKey: string }> = {},
		staticData: IDataObject = { webhookId: randomUUID(), webhookSecret: SECRET },
	) => new TriggerHarness({ ...baseParameters, options }, credentials(extra), staticData);

	beforeAll(async () => {
		handle = await startTestSandbox();
	});
	afterAll(async () => handle.stop());

	describe('signatures', () => {
		it('a delivery signed with the stored secret starts the workflow', async () => {
			const body = referenceOnly();
			const { result, sent, items } = await deliverSigned(activated(), body);
			expect(sent).toEqual(RECEIVED);
			expect(result.workflowData).toBeDefined();
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				event: 'container.transport.available',
				notification_id: body.data.id,
			});
		});

		it.each([
			['signed with another secret', (raw: string) => ({ [HEADER]: sign(raw, 'another-secret') })],
			['without a signature header', () => ({})],
			['with an empty signature', () => ({ [HEADER]: '' })],
			['with a sha256= prefix', (raw: string) => ({ [HEADER]: `sha256=${sign(raw, SECRET)}` })],
			[
				'with the signature in another header',
				(raw: string) => ({ 'X-Signature': sign(raw, SECRET) }),
			],
		])('a delivery %s is answered 401 and starts nothing', async (_label, headersFor) => {
			const raw = JSON.stringify(referenceOnly());
			const { result, sent, items } = await activated().deliver(raw, headersFor(raw));
			expect(sent).toMatchObject({ status: 401, ended: true });
			expect(result.noWebhookResponse).toBe(true);
			expect(result.workflowData).toBeUndefined();
			expect(items).toEqual([]);
		});

		it('the right HMAC in uppercase hex (the service sends lowercase) is the right signature', async () => {
			const body = referenceOnly();
			const raw = JSON.stringify(body);
			const { sent, items } = await activated().deliver(raw, {
				[HEADER]: sign(raw, SECRET).toUpperCase(),
			});
			expect(sent).toEqual(RECEIVED);
			expect(items).toHaveLength(1);
		});

		it('a body changed by one byte after signing is answered 401', async () => {
			const raw = JSON.stringify(referenceOnly());
			const signature = sign(raw, SECRET);
			// The same JSON once the last byte changes (a space added before the closing brace).
			const tampered = `${raw.slice(0, -1)} }`;
			expect(JSON.parse(tampered)).toEqual(JSON.parse(raw));
			const { result, sent } = await activated().deliver(tampered, { [HEADER]: signature });
			expect(sent?.status).toBe(401);
			expect(result.workflowData).toBeUndefined();
			// The untouched bytes with the same signature pass: only the byte made the difference.
			expect(
				(await activated().deliver(raw, { [HEADER]: signature })).result.workflowData,
			).toBeDefined();
		});

		it('the raw bytes are checked, not a re-serialized body: a signed body with other spacing passes', async () => {
			const raw = JSON.stringify(referenceOnly(), null, 2);
			const { result, sent } = await deliverSigned(activated(), undefined, { raw });
			expect(sent).toEqual(RECEIVED);
			expect(result.workflowData).toBeDefined();
		});

		it('with no secret stored (never activated) every delivery is answered 401', async () => {
			const notActivated = new TriggerHarness({ ...baseParameters }, credentials(), {});
			const raw = JSON.stringify(referenceOnly());
			for (const signature of [sign(raw, ''), sign(raw, 'undefined'), sign(raw, SECRET)]) {
				const { result, sent } = await notActivated.deliver(raw, { [HEADER]: signature });
				expect(sent?.status).toBe(401);
				expect(result.workflowData).toBeUndefined();
			}
		});

		it('the header named in the credential is the one read', async () => {
			const custom = { signatureHeader: 'X-Acme-Signature' };
			const raw = JSON.stringify(referenceOnly());
			const good = await activated({}, custom).deliver(raw, {
				'x-acme-signature': sign(raw, SECRET),
			});
			expect(good.sent).toEqual(RECEIVED);
			expect(good.result.workflowData).toBeDefined();
			// The default header, correctly signed, is not looked at any more.
			const other = await activated({}, custom).deliver(JSON.stringify(referenceOnly()), {});
			expect(other.sent?.status).toBe(401);
			const defaultHeader = JSON.stringify(referenceOnly());
			const ignored = await activated({}, custom).deliver(defaultHeader, {
				[HEADER]: sign(defaultHeader, SECRET),
			});
			expect(ignored.sent?.status).toBe(401);
			expect(ignored.result.workflowData).toBeUndefined();
		});

		it.each([
			['not JSON', 'this is not json'],
			['JSON that is not a notification', JSON.stringify({ hello: 'world' })],
			[
				'a notification without data.id',
				JSON.stringify({ ...referenceOnly(), data: { ...referenceOnly().data, id: undefined } }),
			],
			['an empty body', ''],
		])(
			'a correctly signed body that is %s is answered 400 and starts nothing',
			async (_label, raw) => {
				const { result, sent, items } = await deliverSigned(activated(), undefined, { raw });
				expect(sent).toMatchObject({ status: 400, ended: true });
				expect(result.workflowData).toBeUndefined();
				expect(items).toEqual([]);
			},
		);
	});

	describe('repeated deliveries (data.id is the idempotency key)', () => {
		it('the same notification twice starts the workflow once; the repeat is answered 200', async () => {
			const harness = activated();
			const body = referenceOnly();
			const first = await deliverSigned(harness, body);
			expect(first.items).toHaveLength(1);
			const second = await deliverSigned(harness, body);
			expect(second.sent).toBeUndefined();
			expect(second.result.workflowData).toBeUndefined();
			expect(second.result.webhookResponse).toBeDefined();
			expect(second.result.noWebhookResponse).toBeUndefined();
			// Another notification is not held back by the first.
			expect((await deliverSigned(harness, referenceOnly())).items).toHaveLength(1);
		});

		it('a forged copy of a received notification does not count as received', async () => {
			const harness = activated();
			const body = referenceOnly();
			expect((await deliverSigned(harness, body, { secret: 'forged' })).sent?.status).toBe(401);
			expect((await deliverSigned(harness, body)).items).toHaveLength(1);
		});

		it('with Ignore Repeated Deliveries off, both deliveries start the workflow', async () => {
			const harness = activated({ deduplicate: false });
			const body = referenceOnly();
			expect((await deliverSigned(harness, body)).items).toHaveLength(1);
			expect((await deliverSigned(harness, body)).items).toHaveLength(1);
		});

		it('two copies arriving together start the workflow once', async () => {
			const harness = activated({ fetchContainer: true });
			const body = referenceOnly('container.transport.available');
			const copies = await Promise.all([
				deliverSigned(harness, body),
				deliverSigned(harness, body),
			]);
			expect(copies.filter((copy) => copy.result.workflowData !== undefined)).toHaveLength(1);
			expect(copies.filter((copy) => copy.result.webhookResponse !== undefined)).toHaveLength(1);
		});

		it('a delivery is answered before n8n creates its execution: one n8n could not create is not taken for run here, so the cut check runs it', async () => {
			const harness = activated();
			const body = referenceOnly();
			const id = String(body.data.id);
			// n8n's database was busy: n8n could not create the execution the delivery handed it.
			harness.creationAnswer = 500;
			const first = await deliverSigned(harness, body);
			expect(first.sent).toEqual(RECEIVED);
			expect(first.result.workflowData).toBeDefined();
			expect(first.items).toEqual([]);
			// Not run here: the cut check (test/unit/cutCheck.test.ts) hands it to an execution, which
			// runs it as one answered that no execution recorded (test/unit/runJournal.test.ts).
			const scope = triggerScope({ getWorkflow: () => harness.workflow, getNode: () => harness.node });
			expect(ranHere(scope, id)).toBe(false);
			// The service had its 2xx; a copy it sends anyway is a repeat here.
			harness.creationAnswer = 200;
			const copy = await deliverSigned(harness, body);
			expect(copy.result.workflowData).toBeUndefined();
			expect(copy.result.webhookResponse).toEqual({ message: 'Already received' });
		});
	});

	describeWithFixtures('items for container.updated', () => {
		const customsPending = {
			name: 'customs',
			status: 'pending',
			description: 'Documents under review',
		};
		const customsHold = { ...customsPending, status: 'hold' };
		const freightHold = { name: 'freight', status: 'hold', description: null };
		const demurrage = (amount: number) => ({ type: 'demurrage', amount, currency_code: 'USD' });
		const exam = { type: 'exam', amount: 350, currency_code: 'USD' };

		/** The published container.updated with another changeset (and the container as it now is). */
		function containerUpdated(changeset: Record<string, unknown>, container: Doc = {}): Doc {
			const notification = fixtureNotification('container.updated');
			recordOf(notification, 'container_updated_event').attributes.changeset = changeset;
			Object.assign(recordOf(notification, 'container').attributes, container);
			return notification;
		}

		it('every item names the notification, container, shipment, terminal and time, and the change', async () => {
			const notification = containerUpdated(
				{
					available_for_pickup: [true, false],
					holds_at_pod_terminal: [[customsPending], [customsHold, freightHold]],
					fees_at_pod_terminal: [[demurrage(175)], [demurrage(350), exam]],
					pickup_lfd: [null, '2022-10-24T04:00:00Z'],
				},
				{ available_for_pickup: false, holds_at_pod_terminal: [customsHold, freightHold] },
			);
			const { items, sent } = await deliverSigned(activated(), notification);
			expect(sent).toEqual(RECEIVED);
			const container = recordOf(notification, 'container');
			const shipment = recordOf(notification, 'shipment');
			const terminal = recordOf(notification, 'terminal');
			const event = recordOf(notification, 'container_updated_event');
			const common = {
				event: 'container.updated',
				event_label: 'Container Updated — holds, fees, last free day, availability',
				notification_id: notification.data.id,
				container_id: container.id,
				container_number: container.attributes.number,
				shipment_id: shipment.id,
				// Whose box it is, from the shipment and container the delivery includes.
				customer_name: shipment.attributes.customer_name,
				bill_of_lading_number: shipment.attributes.bill_of_lading_number,
				shipment_ref_numbers: shipment.attributes.ref_numbers,
				shipment_tags: shipment.attributes.tags,
				container_ref_numbers: container.attributes.ref_numbers,
				terminal_id: terminal.id,
				terminal_name: terminal.attributes.name,
				changed_at: event.attributes.timestamp,
				timezone: event.attributes.timezone,
				ready_for_pickup: false,
				pickup_status: 'on_hold',
				// The container as Container → Get works it out, from the records the delivery
				// includes, as of the notification: no call to the service.
				container: expect.objectContaining({
					id: container.id,
					number: 'MSKU4807969',
					ready_for_pickup: false,
					pickup_status: 'on_hold',
					pickup_status_reason: expect.stringContaining('customs'),
					active_holds: [customsHold, freightHold],
					last_free_day: '2022-10-24T04:00:00Z',
					last_free_day_date: '2022-10-24',
					last_free_day_facility: 'Port Elizabeth',
					last_free_day_timezone: 'America/New_York',
					pod_terminal: expect.objectContaining({ id: terminal.id, name: 'Port Elizabeth' }),
					shipment: expect.objectContaining({ bill_of_lading_number: 'MAEUJAK015053' }),
					container_as_of: notification.data.attributes.created_at,
				}),
			};
			expect(common).toMatchObject({
				container_number: 'MSKU4807969',
				bill_of_lading_number: 'MAEUJAK015053',
				terminal_name: 'Port Elizabeth',
				changed_at: '2022-10-21T20:19:12Z',
				timezone: 'America/New_York',
			});
			expect(items).toEqual([
				{ ...common, field: 'available_for_pickup', old_value: true, new_value: false },
				{
					...common,
					field: 'holds_at_pod_terminal',
					old_value: customsPending,
					new_value: customsHold,
					change: 'activated',
					hold: customsHold,
					// The interface's hold table, for the alert's reader (logic/holdNames.ts).
					hold_meaning: 'Customs authority hold (documents, exam, inspection)',
					hold_resolved_by: 'Licensed customs broker',
				},
				{
					...common,
					field: 'holds_at_pod_terminal',
					old_value: null,
					new_value: freightHold,
					change: 'placed',
					hold: freightHold,
					hold_meaning: 'Carrier freight charges unpaid',
					hold_resolved_by: 'Shipping line or freight forwarder',
				},
				{
					...common,
					field: 'fees_at_pod_terminal',
					old_value: demurrage(175),
					new_value: demurrage(350),
					change: 'amount_changed',
					fee: demurrage(350),
					old_amount: 175,
					new_amount: 350,
				},
				{
					...common,
					field: 'fees_at_pod_terminal',
					old_value: null,
					new_value: exam,
					change: 'added',
					fee: exam,
					old_amount: null,
					new_amount: 350,
				},
				{ ...common, field: 'pickup_lfd', old_value: null, new_value: '2022-10-24T04:00:00Z' },
			]);
		});

		it('the published example gives its availability change and its two cleared holds', async () => {
			const notification = fixtureNotification('container.updated');
			const { items } = await deliverSigned(activated(), notification);
			expect(
				items.map((item) => [
					item.field,
					item.change ?? null,
					(item.hold as IDataObject | undefined)?.description ?? null,
				]),
			).toEqual([
				['available_for_pickup', null, null],
				['holds_at_pod_terminal', 'cleared', 'DOWN - Broken Machine Over Pile'],
				['holds_at_pod_terminal', 'cleared', 'MACHINE - '],
			]);
			expect(
				items.every((item) => item.ready_for_pickup === true && item.pickup_status === 'ready'),
			).toBe(true);
		});

		it('with Expand Holds and Fees off, the hold change is one item with both whole arrays', async () => {
			const holds = [[customsPending], [customsHold, freightHold]];
			const { items } = await deliverSigned(
				activated({ expandHoldsAndFees: false }),
				containerUpdated({ holds_at_pod_terminal: holds }),
			);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				field: 'holds_at_pod_terminal',
				old_value: holds[0],
				new_value: holds[1],
			});
			expect(items[0].change).toBeUndefined();
		});

		it('a pod_terminal change names the old and new terminals from included', async () => {
			const notification = containerUpdated({});
			const terminal = recordOf(notification, 'terminal');
			const newTerminal = { ...JSON.parse(JSON.stringify(terminal)), id: randomUUID() };
			newTerminal.attributes.name = 'Maher Terminal';
			newTerminal.attributes.id = newTerminal.id;
			notification.included.push(newTerminal);
			recordOf(notification, 'container_updated_event').attributes.changeset = {
				pod_terminal: [terminal.id, newTerminal.id],
			};
			const { items } = await deliverSigned(activated(), notification);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				field: 'pod_terminal',
				old_value: terminal.id,
				new_value: newTerminal.id,
				old_terminal_name: 'Port Elizabeth',
				new_terminal_name: 'Maher Terminal',
			});
			// A terminal that is not in included has no name to give, but the change still comes out.
			const unknown = randomUUID();
			const { items: unresolved } = await deliverSigned(
				activated(),
				containerUpdated({ pod_terminal: [terminal.id, unknown] }),
			);
			expect(unresolved[0]).toMatchObject({
				new_value: unknown,
				old_terminal_name: 'Port Elizabeth',
				new_terminal_name: null,
			});
		});

		it('Only These Fields keeps the hold changes; a delivery with none of them starts nothing', async () => {
			const harness = activated({ fields: ['holds_at_pod_terminal'] });
			const { items } = await deliverSigned(
				harness,
				containerUpdated({
					available_for_pickup: [false, true],
					holds_at_pod_terminal: [[customsHold], []],
					pickup_lfd: [null, '2022-10-24T04:00:00Z'],
				}),
			);
			expect(items.map((item) => [item.field, item.change])).toEqual([
				['holds_at_pod_terminal', 'cleared'],
			]);
			const nothingLeft = await deliverSigned(
				harness,
				containerUpdated({ available_for_pickup: [false, true] }),
			);
			expect(nothingLeft.sent).toBeUndefined();
			expect(nothingLeft.result.workflowData).toBeUndefined();
			expect(nothingLeft.result.webhookResponse).toBeDefined();
		});

		it('unknown changeset keys are passed on', async () => {
			const { items } = await deliverSigned(
				activated(),
				containerUpdated({
					berth_window: ['2022-10-20', '2022-10-22'],
					holds_at_pod_terminal: [[], [customsHold]],
				}),
			);
			expect(items.map((item) => [item.field, item.old_value, item.new_value])).toEqual([
				['berth_window', '2022-10-20', '2022-10-22'],
				['holds_at_pod_terminal', null, customsHold],
			]);
		});

		it('an unknown event name passes through as one item with the records it carries', async () => {
			const notification = fixtureNotification('container.transport.full_out');
			notification.data.attributes.event = 'container.transport.drone_delivered';
			recordOf(notification, 'transport_event').attributes.event =
				'container.transport.drone_delivered';
			const { items, sent } = await deliverSigned(activated(), notification);
			expect(sent).toEqual(RECEIVED);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				event: 'container.transport.drone_delivered',
				container_number: recordOf(notification, 'container').attributes.number,
				reference_type: 'transport_event',
			});
			expect(items[0]).not.toHaveProperty('event_label');
		});

		it('Output Raw Notification gives the envelope exactly as sent, one item', async () => {
			const notification = fixtureNotification('container.updated');
			const { items } = await deliverSigned(activated({ raw: true }), notification);
			expect(items).toEqual([notification]);
		});
	});

	describeWithFixtures('items for other events', () => {
		it('a transport event gives one item with the event, container and shipment flattened', async () => {
			const notification = fixtureNotification('container.transport.full_out');
			const event = recordOf(notification, 'transport_event');
			const container = recordOf(notification, 'container');
			const shipment = recordOf(notification, 'shipment');
			const { items } = await deliverSigned(activated(), notification);
			expect(items).toHaveLength(1);
			const [item] = items as Doc[];
			expect(item).toMatchObject({
				event: 'container.transport.full_out',
				event_label: 'Full Container Picked Up',
				notification_id: notification.data.id,
				notification_created_at: notification.data.attributes.created_at,
				container_id: container.id,
				container_number: 'MSKU8532556',
				shipment_id: shipment.id,
				bill_of_lading_number: 'MAEUGAP001939',
				terminal_name: 'Garden City Terminals',
				reference_type: 'transport_event',
				reference_id: event.id,
				event_timestamp: event.attributes.timestamp,
				timezone: event.attributes.timezone,
				location_locode: 'USSAV',
			});
			expect(item.transport_event).toMatchObject({
				id: event.id,
				...event.attributes,
				container_id: container.id,
			});
			expect(item.container).toMatchObject({
				id: container.id,
				number: 'MSKU8532556',
				pod_terminal_id: item.terminal_id,
			});
			expect(item.shipment).toMatchObject({
				id: shipment.id,
				bill_of_lading_number: 'MAEUGAP001939',
			});
		});

		it('tracking_request.succeeded names the tracking request and the container it found', async () => {
			const notification = fixtureNotification('tracking_request.succeeded');
			const trackingRequest = recordOf(notification, 'tracking_request');
			const { items } = await deliverSigned(activated(), notification);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				event: 'tracking_request.succeeded',
				reference_type: 'tracking_request',
				reference_id: trackingRequest.id,
				container_number: 'MRKU3700927',
				bill_of_lading_number: 'MAEU221876618',
				tracking_request: {
					id: trackingRequest.id,
					request_number: 'MAEU221876618',
					status: 'created',
				},
			});
		});

		it('shipment.estimated.arrival gives the estimate and the shipment', async () => {
			const notification = fixtureNotification('shipment.estimated.arrival');
			const estimate = recordOf(notification, 'estimated_event');
			const { items } = await deliverSigned(activated(), notification);
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				event: 'shipment.estimated.arrival',
				reference_type: 'estimated_event',
				bill_of_lading_number: 'OOLU2136060630',
				estimated_event: {
					id: estimate.id,
					estimated_timestamp: estimate.attributes.estimated_timestamp,
				},
				shipment: { bill_of_lading_number: 'OOLU2136060630' },
			});
		});

		it('the reference-only container.transport.available gives one item naming what it can', async () => {
			const notification = fixtureNotification('container.transport.available');
			expect(notification.included).toBeUndefined();
			const { items, sent } = await deliverSigned(activated(), notification);
			expect(sent).toEqual(RECEIVED);
			expect(items).toEqual([
				{
					event: 'container.transport.available',
					event_label: 'Available for Pickup',
					notification_id: notification.data.id,
					container_id: null,
					container_number: null,
					shipment_id: null,
					// The delivery carries no shipment or container: whose box it is, not known.
					customer_name: null,
					bill_of_lading_number: null,
					shipment_ref_numbers: null,
					shipment_tags: null,
					container_ref_numbers: null,
					terminal_id: null,
					terminal_name: null,
					notification_created_at: notification.data.attributes.created_at,
					reference_type: 'transport_event',
					reference_id: notification.data.relationships.reference_object.data.id,
				},
			]);
		});

		it('a failed container lookup does not hold the notification back: its item goes on, saying why', async () => {
			// Fetch Container When Missing looks the container up in the execution; with a key the
			// service refuses, the lookup fails and the item goes on without the container.
			const notification = fixtureNotification('container.transport.available');
			const refused = activated({ fetchContainer: true }, { apiKey: 'revoked-key' });
			const { items: output } = await deliverSigned(refused, notification);
			expect(output).toHaveLength(1);
			expect(output[0]).toMatchObject({
				event: 'container.transport.available',
				notification_id: notification.data.id,
				container_number: null,
			});
			expect(String(output[0].container_lookup_error)).toMatch(
				/^The container could not be looked up: /,
			);
		});
	});

	describe('webhook registration against the sandbox', () => {
		const webhooks = () => handle.sandbox.world.store.list('webhook');
		const registered = (url: string) =>
			webhooks().filter((webhook) => webhook.attributes.url === url);
		const automatic = (events: string[], staticData: IDataObject = {}) =>
			new TriggerHarness(
				{ registration: 'automatic', events, options: {} },
				credentials(),
				staticData,
			);

		beforeEach(() => {
			for (const webhook of webhooks()) handle.sandbox.world.store.delete('webhook', webhook.id);
		});

		it('activation registers one webhook for the node URL with exactly the chosen events, and keeps its id and secret', async () => {
			const harness = automatic(['container.updated', 'container.transport.full_out']);
			expect(await harness.hook('checkExists')).toBe(false);
			expect(await harness.hook('create')).toBe(true);
			expect(webhooks()).toHaveLength(1);
			const [webhook] = webhooks();
			expect(webhook.attributes).toMatchObject({ url: harness.webhookUrl, active: true });
			expect([...(webhook.attributes.events as string[])].sort()).toEqual([
				'container.transport.full_out',
				'container.updated',
			]);
			expect(harness.webhookUrl).toBe(
				`http://127.0.0.1:5678/webhook/${TRIGGER_WEBHOOK_ID}/webhook`,
			);
			expect(harness.staticData).toMatchObject({
				webhookId: webhook.id,
				webhookSecret: webhook.attributes.secret,
			});
			// The API shows the same single webhook.
			const listed = await handle.api.get('/webhooks');
			expect(listed.data.data.map((entry: Doc) => entry.id)).toEqual([webhook.id]);
		});

		it('publishing again registers nothing new, in the same process or after a restart', async () => {
			const harness = automatic(['container.updated']);
			await harness.activate();
			const [first] = webhooks();
			expect(await harness.hook('checkExists')).toBe(true);
			await harness.activate();
			await automatic(
				['container.updated'],
				JSON.parse(JSON.stringify(harness.staticData)),
			).activate();
			expect(webhooks().map((webhook) => webhook.id)).toEqual([first.id]);
			expect(harness.staticData.webhookSecret).toBe(first.attributes.secret);
		});

		it('with static data lost, checkExists adopts the webhook registered for the URL, secret included', async () => {
			const original = automatic(['container.updated']);
			await original.activate();
			const [webhook] = webhooks();
			const amnesiac = automatic(['container.updated']);
			expect(await amnesiac.hook('checkExists')).toBe(true);
			await amnesiac.activate();
			expect(webhooks().map((entry) => entry.id)).toEqual([webhook.id]);
			expect(amnesiac.staticData).toMatchObject({
				webhookId: webhook.id,
				webhookSecret: webhook.attributes.secret,
			});
			// Deliveries signed by the service with that secret are accepted.
			const body = referenceOnly();
			expect(
				(await deliverSigned(amnesiac, body, { secret: String(webhook.attributes.secret) })).items,
			).toHaveLength(1);
		});

		it('with static data lost, the webhook is found among more than a page of webhooks', async () => {
			// 100 other webhooks first, so that this node's is on the second page of GET /webhooks.
			for (let index = 0; index < 100; index++) {
				handle.sandbox.world.store.put({
					id: randomUUID(),
					type: 'webhook',
					attributes: {
						url: `https://example.com/other/${index}`,
						active: true,
						events: ['container.updated'],
						secret: randomUUID().replace(/-/g, ''),
						headers: null,
						created_at: '2025-01-01T00:00:00Z',
					},
				} as Resource);
			}
			const original = automatic(['container.updated']);
			await original.activate();
			expect(registered(original.webhookUrl)).toHaveLength(1);
			await automatic(['container.updated']).activate();
			expect(registered(original.webhookUrl)).toHaveLength(1);
		});

		it('changed events update the registered webhook instead of adding one', async () => {
			const harness = automatic(['container.updated']);
			await harness.activate();
			const [webhook] = webhooks();
			const changed = automatic(
				['container.updated', 'container.transport.available'],
				harness.staticData,
			);
			await changed.activate();
			expect(webhooks()).toHaveLength(1);
			expect(webhooks()[0].id).toBe(webhook.id);
			expect([...(webhooks()[0].attributes.events as string[])].sort()).toEqual([
				'container.transport.available',
				'container.updated',
			]);
			// The same when static data was lost as well, and a webhook switched off is switched back on.
			handle.sandbox.world.store.get('webhook', webhook.id)!.attributes.active = false;
			await automatic(['container.transport.full_out']).activate();
			expect(webhooks()).toHaveLength(1);
			expect(webhooks()[0].attributes).toMatchObject({
				events: ['container.transport.full_out'],
				active: true,
			});
		});

		it('a webhook deleted on the service side is registered again, with its new secret', async () => {
			const harness = automatic(['container.updated']);
			await harness.activate();
			const oldId = harness.staticData.webhookId;
			expect((await handle.api.delete(`/webhooks/${String(oldId)}`)).status).toBe(204);
			expect(await harness.hook('checkExists')).toBe(false);
			await harness.hook('create');
			expect(webhooks()).toHaveLength(1);
			expect(webhooks()[0].id).not.toBe(oldId);
			expect(harness.staticData).toMatchObject({
				webhookId: webhooks()[0].id,
				webhookSecret: webhooks()[0].attributes.secret,
			});
		});

		it('deactivation deletes the webhook and forgets its id and secret', async () => {
			const harness = automatic(['container.updated']);
			await harness.activate();
			expect(webhooks()).toHaveLength(1);
			expect(await harness.hook('delete')).toBe(true);
			expect(webhooks()).toEqual([]);
			expect(harness.staticData.webhookId).toBeUndefined();
			expect(harness.staticData.webhookSecret).toBeUndefined();
		});

		it('deactivation empties what the trigger kept in memory: after it is turned on again, a copy of a notification taken before is no longer answered from memory', async () => {
			const harness = automatic(['container.updated']);
			await harness.activate();
			const body = referenceOnly();
			const secret = () => ({ secret: String(harness.staticData.webhookSecret) });
			expect((await deliverSigned(harness, body, secret())).result.workflowData).toBeDefined();
			expect((await deliverSigned(harness, body, secret())).result.webhookResponse).toEqual({
				message: 'Already received',
			});
			expect(await harness.hook('delete')).toBe(true);
			await harness.activate();
			// Handed to its execution, where n8n's store decides
			// (trigger/memory/recordedNotifications.ts).
			expect((await deliverSigned(harness, body, secret())).result.workflowData).toBeDefined();
		});

		it('deactivation when the webhook is already gone is not an error', async () => {
			const harness = automatic(['container.updated']);
			await harness.activate();
			expect(
				(await handle.api.delete(`/webhooks/${String(harness.staticData.webhookId)}`)).status,
			).toBe(204);
			await expect(harness.hook('delete')).resolves.toBe(true);
			expect(harness.staticData.webhookId).toBeUndefined();
			// Nothing stored at all: nothing to do either.
			await expect(automatic(['container.updated']).hook('delete')).resolves.toBe(true);
		});

		it('with a webhook created elsewhere, nothing is registered and deliveries are checked with the pasted secret', async () => {
			const pasted = 'pasted-secret-of-a-webhook-made-by-hand';
			const harness = new TriggerHarness(
				{ registration: 'existing', secret: pasted, options: {} },
				credentials(),
				{},
			);
			expect(await harness.hook('checkExists')).toBe(true);
			await harness.activate();
			await harness.hook('create');
			expect(webhooks()).toEqual([]);
			expect(
				(await deliverSigned(harness, referenceOnly(), { secret: pasted })).items,
			).toHaveLength(1);
			expect((await deliverSigned(harness, referenceOnly(), { secret: SECRET })).sent?.status).toBe(
				401,
			);
			await expect(harness.hook('delete')).resolves.toBe(true);
		});
	});
});

// ---------------------------------------------------------------------------------------------
// End to end: the sandbox delivers to an HTTP bridge standing in for n8n (test/support/bridge.ts).

interface LogEntry {
	url: string;
	event: string;
	notification_id: string;
	status: number | null;
	duplicate: boolean;
}

describe('Container Tracking Trigger end to end, with the sandbox delivering', () => {
	// A compressed clock: scenario steps one (sandbox) second apart take 50 ms.
	const TIME_SCALE = 20;
	const customsItems = (bridge: Bridge, containerId: string) =>
		bridge.calls
			.filter((call) => call.started)
			.flatMap((call) => call.items)
			.filter(
				(item) =>
					item.container_id === containerId &&
					item.field === 'holds_at_pod_terminal' &&
					(item.hold as IDataObject | undefined)?.name === 'customs',
			);

	async function setUp(sandboxOptions: { duplicateRate?: number }, number: string) {
		const handle = await startTestSandbox({
			timeScale: TIME_SCALE,
			trackingDelaySeconds: 0,
			...sandboxOptions,
		});
		const bridge = await startBridge();
		const harness = new TriggerHarness(
			{ registration: 'automatic', events: ['container.updated'], options: {} },
			{ apiKey: API_KEY, baseUrl: handle.sandbox.url },
			{},
			{ webhookBaseUrl: bridge.webhookBaseUrl },
		);
		bridge.harness = harness;
		await harness.activate();
		const { containerIds } = await trackContainer(handle, number, 'MAEU');
		const container = handle.sandbox.world.store.get('container', containerIds[0])!;
		const podTerminalId = (container.relationships!.pod_terminal.data as { id: string }).id;
		const terminal = handle.sandbox.world.store.get('terminal', podTerminalId)!;
		return { handle, bridge, harness, container, terminal };
	}

	async function playCustomsHold(handle: SandboxHandle, containerId: string): Promise<void> {
		const played = await handle.control.post(`/containers/${containerId}/scenarios/customs_hold`, {
			gap_seconds: 1,
		});
		expect(played.status).toBe(202);
	}

	async function deliveryLog(handle: SandboxHandle): Promise<LogEntry[]> {
		const answer = await handle.control.get('/deliveries', {
			params: { event: 'container.updated' },
		});
		expect(answer.status).toBe(200);
		return answer.data.deliveries as LogEntry[];
	}

	describe('a customs hold played by the sandbox', () => {
		let setup: Awaited<ReturnType<typeof setUp>>;

		beforeAll(async () => {
			setup = await setUp({}, withCheckDigit('MSKU271828'));
		});
		afterAll(async () => {
			await setup.bridge.close();
			await setup.handle.stop();
		});

		it('activation registered the bridge URL with the sandbox', async () => {
			const listed = await setup.handle.api.get('/webhooks');
			expect(listed.data.data).toHaveLength(1);
			expect(listed.data.data[0].attributes).toMatchObject({
				url: `${setup.bridge.webhookBaseUrl}/${TRIGGER_WEBHOOK_ID}/webhook`,
				events: ['container.updated'],
			});
		});

		it('starts the workflow with pending, activated, then cleared customs items naming the container and terminal', async () => {
			const { handle, bridge, container, terminal } = setup;
			await playCustomsHold(handle, container.id);
			const items = await eventually(
				() => {
					const found = customsItems(bridge, container.id);
					return found.length >= 3 ? found : undefined;
				},
				{ what: 'three customs hold items' },
			);
			// Delivery order is not guaranteed: the change's own timestamp orders them.
			const ordered = [...items].sort((a, b) =>
				String(a.changed_at).localeCompare(String(b.changed_at)),
			);
			expect(ordered.map((item) => item.change)).toEqual(['pending', 'activated', 'cleared']);
			expect(new Set(ordered.map((item) => item.changed_at)).size).toBe(3);
			expect(new Set(ordered.map((item) => item.notification_id)).size).toBe(3);
			for (const item of ordered) {
				expect(item).toMatchObject({
					event: 'container.updated',
					container_number: container.attributes.number,
					terminal_id: terminal.id,
					terminal_name: terminal.attributes.name,
				});
			}
			expect(ordered[0].hold).toMatchObject({ name: 'customs', status: 'pending' });
			expect(ordered[1].hold).toMatchObject({ name: 'customs', status: 'hold' });
			expect(ordered[2]).toMatchObject({
				old_value: { name: 'customs', status: 'hold' },
				new_value: null,
			});
			// Every delivery the node received was accepted (the sandbox logged 200, nothing to retry).
			// The sandbox logs an attempt once the answer reached it, which may be a moment after the
			// node handed out its items: wait for the three.
			const log = await eventually(
				async () => {
					const entries = await deliveryLog(handle);
					return entries.length >= 3 ? entries : undefined;
				},
				{ what: 'three attempts logged' },
			);
			expect(log.every((entry) => entry.status === 200)).toBe(true);
			expect(bridge.calls.every((call) => call.status === 200 && call.error === undefined)).toBe(
				true,
			);
		});

		it('a forged delivery to the webhook URL is answered 401 and starts nothing', async () => {
			const { bridge, harness } = setup;
			const body = JSON.stringify(referenceOnly('container.updated'));
			const before = bridge.calls.length;
			const answer = await fetch(harness.webhookUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', [HEADER]: sign(body, 'not-the-secret') },
				body,
			});
			expect(answer.status).toBe(401);
			const calls = bridge.calls.slice(before);
			expect(calls).toHaveLength(1);
			expect(calls[0]).toMatchObject({ status: 401, started: false, items: [] });
		});

		it('deactivation removes the webhook from the sandbox', async () => {
			const { handle, harness } = setup;
			expect(await harness.hook('delete')).toBe(true);
			const listed = await handle.api.get('/webhooks');
			expect(listed.status).toBe(200);
			expect(listed.data.data).toEqual([]);
		});
	});

	describe('a sandbox that delivers every notification twice', () => {
		let setup: Awaited<ReturnType<typeof setUp>>;

		beforeAll(async () => {
			setup = await setUp({ duplicateRate: 1 }, withCheckDigit('MSKU314159'));
		});
		afterAll(async () => {
			await setup.bridge.close();
			await setup.handle.stop();
		});

		it('each notification starts the workflow once; the copy is answered 200', async () => {
			const { handle, bridge, container } = setup;
			await playCustomsHold(handle, container.id);
			// Wait until the sandbox sent each of the three customs notifications and its copy.
			const log = await eventually(
				async () => {
					const entries = await deliveryLog(handle);
					return entries.filter((entry) => entry.duplicate).length >= 3 &&
						customsItems(bridge, container.id).length >= 3
						? entries
						: undefined;
				},
				{ what: 'three notifications and their copies' },
			);
			expect(log.every((entry) => entry.status === 200)).toBe(true);
			const ids = [...new Set(log.map((entry) => entry.notification_id))];
			for (const id of ids) {
				expect(log.filter((entry) => entry.notification_id === id)).toHaveLength(2);
				const calls = bridge.calls.filter((call) => call.notificationId === id);
				expect(calls).toHaveLength(2);
				expect(calls.filter((call) => call.started)).toHaveLength(1);
			}
			expect(
				customsItems(bridge, container.id)
					.map((item) => item.change)
					.sort(),
			).toEqual(['activated', 'cleared', 'pending']);
		});
	});
});

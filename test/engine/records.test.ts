// Tracking Request → Get and Get Many, Shipment → Get, Webhook → Get and Update, and the list
// searches of tracking requests and webhooks, run by n8n's engine against a started sandbox.
// Setup may read and write the sandbox; assertions are on node output and on the service's state.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runContainerTrackingNode, searchWithNode } from '../support/engine';
import {
	API_KEY,
	eventually,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';

/** Maersk box moving inland by rail (the sandbox derives journeys from the number). */
const INLAND_BOX = 'MSKU4807969';

describe('Container Tracking node: tracking requests, shipments and webhooks read one by one', () => {
	let handle: SandboxHandle;
	let tracked: Awaited<ReturnType<typeof trackContainer>>;
	let failedId: string;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const run = (parameters: INodeParameters, input: IDataObject[] = [{}], continueOnFail = false) =>
		runContainerTrackingNode(parameters, input, credentials(), { continueOnFail });

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		tracked = await trackContainer(handle, INLAND_BOX, 'MAEU');
		const failed = await handle.api.post('/tracking_requests', {
			data: {
				type: 'tracking_request',
				attributes: { request_number: 'TEST-TR-FAILED', request_type: 'container', scac: 'TEST' },
			},
		});
		failedId = failed.data.data.id;
		await eventually(
			async () =>
				(await handle.api.get(`/tracking_requests/${failedId}`)).data.data.attributes.status ===
				'failed'
					? true
					: undefined,
			{ what: 'TEST-TR-FAILED to fail' },
		);
	});
	afterAll(async () => handle.stop());

	describe('Tracking Request → Get', () => {
		it('a created request names its shipment; simplified, it holds only where it stands', async () => {
			const { items, error } = await run({
				resource: 'trackingRequest',
				operation: 'get',
				trackingRequestId: { __rl: true, mode: 'id', value: tracked.trackingRequestId },
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			const served = handle.served('tracking_request', tracked.trackingRequestId).attributes;
			expect(items[0].json).toEqual({
				id: tracked.trackingRequestId,
				request_number: INLAND_BOX,
				request_type: 'container',
				scac: 'MAEU',
				status: 'created',
				failed_reason: null,
				is_retrying: served.is_retrying ?? null,
				retry_count: served.retry_count ?? null,
				shipment_id: tracked.shipmentId,
				created_at: expect.any(String),
				updated_at: expect.any(String),
			});
		});

		it('a failed request says why; with Simplify off every attribute is there', async () => {
			const { items, error } = await run({
				resource: 'trackingRequest',
				operation: 'get',
				trackingRequestId: { __rl: true, mode: 'list', value: failedId },
				simplify: false,
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				id: failedId,
				request_number: 'TEST-TR-FAILED',
				status: 'failed',
				// `not_found`, or what a drifting sandbox serves instead (test/support/sandbox.ts).
				failed_reason: handle.served('tracking_request', failedId).attributes.failed_reason,
				shipment_id: null,
				tracked_object_id: null,
				ref_numbers: expect.any(Array),
			});
		});

		it('an unknown id fails with the service’s 404, and with Continue On Fail yields an item', async () => {
			const { items, error } = await run(
				{
					resource: 'trackingRequest',
					operation: 'get',
					trackingRequestId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				},
				[{ id: tracked.trackingRequestId }, { id: 'no-such-request' }],
				true,
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(items[0].json.status).toBe('created');
			expect(items[1].json).toMatchObject({ http_code: '404' });
		});
	});

	describe('Tracking Request → Get Many', () => {
		beforeAll(async () => {
			// 40 more pending requests: more than one page of 30, so that a filter has to read on.
			for (let index = 0; index < 40; index++) {
				const created = await handle.api.post('/tracking_requests', {
					data: {
						type: 'tracking_request',
						attributes: {
							request_number: `BOL${String(index).padStart(6, '0')}`,
							request_type: 'bill_of_lading',
							scac: 'MAEU',
						},
					},
				});
				expect(created.status).toBe(201);
			}
		});

		it('filters by status across pages: only the failed one, only the created one', async () => {
			const failed = await run({
				resource: 'trackingRequest',
				operation: 'getMany',
				returnAll: true,
				filters: { statuses: ['failed'] },
			});
			expect(failed.error).toBeUndefined();
			expect(failed.items.map((item) => [item.json.id, item.json.status])).toEqual([
				[failedId, 'failed'],
			]);
			const created = await run({
				resource: 'trackingRequest',
				operation: 'getMany',
				limit: 5,
				filters: { statuses: ['created'], requestTypes: ['container'] },
			});
			expect(created.items.map((item) => item.json.id)).toEqual([tracked.trackingRequestId]);
		});

		it('a Limit counts kept requests; a number filter ignores case and spaces', async () => {
			const limited = await run({
				resource: 'trackingRequest',
				operation: 'getMany',
				limit: 35,
				filters: { requestTypes: ['bill_of_lading'] },
			});
			expect(limited.items).toHaveLength(35);
			expect(limited.items.every((item) => item.json.request_type === 'bill_of_lading')).toBe(true);
			const byNumber = await run({
				resource: 'trackingRequest',
				operation: 'getMany',
				returnAll: true,
				filters: { requestNumber: 'bol 00003' },
			});
			expect(byNumber.items.map((item) => item.json.request_number).sort()).toEqual(
				Array.from({ length: 10 }, (_, index) => `BOL00003${index}`),
			);
		});
	});

	describe('Shipment → Get', () => {
		it('names its containers, terminal, vessel and arrival as flat fields', async () => {
			const { items, error } = await run({
				resource: 'shipment',
				operation: 'get',
				shipmentId: tracked.shipmentId,
			});
			expect(error).toBeUndefined();
			const stored = handle.served('shipment', tracked.shipmentId).attributes;
			const texts = (list: unknown) =>
				(Array.isArray(list) ? list : []).filter((entry) => typeof entry === 'string');
			const terminalId = handle.served('shipment', tracked.shipmentId).relationships!.pod_terminal
				.data as { id: string };
			const terminal = handle.served('terminal', terminalId.id).attributes;
			expect(items[0].json).toEqual({
				id: tracked.shipmentId,
				bill_of_lading_number: stored.bill_of_lading_number,
				customer_name: stored.customer_name ?? null,
				// Drift sends null entries in these lists: the item drops them.
				shipment_ref_numbers: texts(stored.ref_numbers),
				shipment_tags: texts(stored.tags),
				shipping_line_scac: 'MAEU',
				shipping_line_name: stored.shipping_line_name,
				container_numbers: [INLAND_BOX],
				port_of_lading_name: stored.port_of_lading_name,
				port_of_discharge_name: stored.port_of_discharge_name,
				destination_name: stored.destination_name,
				pod_terminal_name: terminal.name,
				pod_vessel_name: stored.pod_vessel_name,
				pod_voyage_number: stored.pod_voyage_number,
				pol_etd_at: stored.pol_etd_at ?? null,
				pol_atd_at: stored.pol_atd_at ?? null,
				pod_eta_at: stored.pod_eta_at ?? null,
				pod_ata_at: stored.pod_ata_at ?? null,
				destination_eta_at: stored.destination_eta_at ?? null,
				destination_ata_at: stored.destination_ata_at ?? null,
				line_tracking_stopped_reason: null,
			});
			expect(stored.pod_vessel_name).toEqual(expect.any(String));
		});

		it('with Simplify off: every attribute, and each container in brief', async () => {
			const { items } = await run(
				{
					resource: 'shipment',
					operation: 'get',
					shipmentId: '={{ $json.shipment_id }}',
					simplify: false,
				},
				[{ shipment_id: tracked.shipmentId }],
			);
			expect(items[0].json).toMatchObject({
				id: tracked.shipmentId,
				container_ids: tracked.containerIds,
				containers: [{ id: tracked.containerIds[0], number: INLAND_BOX }],
				tags: expect.any(Array),
				port_of_discharge_id: expect.any(String),
			});
		});
	});

	describe('Webhook → Get, Get Many and Update', () => {
		let webhookId: string;
		let secret: string;

		beforeAll(async () => {
			const created = await run({
				resource: 'webhook',
				operation: 'create',
				url: 'https://example.com/hooks/records',
				events: ['container.updated'],
			});
			webhookId = String(created.items[0].json.id);
			secret = String(created.items[0].json.secret);
			expect(secret).toMatch(/^[0-9a-f]{64}$/);
		});

		it('Get and Get Many leave the signing secret out unless asked for', async () => {
			const got = await run({
				resource: 'webhook',
				operation: 'get',
				webhookId: { __rl: true, mode: 'list', value: webhookId },
			});
			expect(got.error).toBeUndefined();
			expect(got.items[0].json).toMatchObject({
				id: webhookId,
				url: 'https://example.com/hooks/records',
				events: ['container.updated'],
				active: true,
			});
			expect(got.items[0].json).not.toHaveProperty('secret');
			expect(JSON.stringify(got.run.data)).not.toContain(secret);

			const listed = await run({ resource: 'webhook', operation: 'getMany', returnAll: true });
			expect(listed.items.map((item) => item.json.id)).toContain(webhookId);
			expect(JSON.stringify(listed.run.data)).not.toContain(secret);

			const asked = await run({
				resource: 'webhook',
				operation: 'get',
				webhookId: { __rl: true, mode: 'id', value: webhookId },
				options: { includeSecret: true },
			});
			expect(asked.items[0].json.secret).toBe(secret);
		});

		it('Update changes only the fields given, through PATCH', async () => {
			const { items, error } = await run({
				resource: 'webhook',
				operation: 'update',
				webhookId: { __rl: true, mode: 'id', value: webhookId },
				updateFields: {
					events: ['container.updated', 'container.transport.full_out'],
					active: false,
				},
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				id: webhookId,
				url: 'https://example.com/hooks/records',
				events: ['container.updated', 'container.transport.full_out'],
				active: false,
			});
			expect(items[0].json).not.toHaveProperty('secret');
			expect(handle.sandbox.world.store.get('webhook', webhookId)?.attributes).toMatchObject({
				url: 'https://example.com/hooks/records',
				events: ['container.updated', 'container.transport.full_out'],
				active: false,
				secret,
			});
			const moved = await run({
				resource: 'webhook',
				operation: 'update',
				webhookId: { __rl: true, mode: 'id', value: webhookId },
				updateFields: { url: 'https://example.com/hooks/moved' },
			});
			expect(moved.items[0].json).toMatchObject({
				url: 'https://example.com/hooks/moved',
				active: false,
			});
		});

		it('Update with nothing to change fails naming the fields; Continue On Fail keeps the item', async () => {
			const { items, error } = await run(
				{
					resource: 'webhook',
					operation: 'update',
					webhookId: { __rl: true, mode: 'id', value: webhookId },
					updateFields: {},
				},
				[{}],
				true,
			);
			expect(error).toBeUndefined();
			expect(items).toEqual([
				{
					json: {
						error: 'Nothing to update',
						error_description: expect.stringContaining('Update Fields'),
					},
					pairedItem: { item: 0 },
				},
			]);
		});
	});

	describe('list searches', () => {
		it('tracking requests are named by number, carrier and status, and found by part of the number, typed with or without spaces and dashes', async () => {
			const found = await searchWithNode('searchTrackingRequests', credentials(), 'tr-fail');
			const reason = String(
				handle.served('tracking_request', failedId).attributes.failed_reason,
			).replace(/_/g, ' ');
			expect(found.results).toEqual([
				{ name: `TEST-TR-FAILED · TEST · failed · ${reason}`, value: failedId },
			]);
			// Typed as people type numbers: spaces or no dash (the Get Many filter reads it the same way).
			for (const typed of ['tr fail', 'TRFAIL']) {
				const again = await searchWithNode('searchTrackingRequests', credentials(), typed);
				expect(again.results).toEqual(found.results);
			}
		});

		it('webhooks are named by URL and events, and found by part of the URL', async () => {
			const found = await searchWithNode('searchWebhooks', credentials(), 'HOOKS/MOVED');
			expect(found.results).toHaveLength(1);
			expect(found.results[0].name).toBe(
				'https://example.com/hooks/moved · container.updated, container.transport.full_out · inactive',
			);
		});
	});
});

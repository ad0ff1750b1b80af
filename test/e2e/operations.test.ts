/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// Every operation of the Container Tracking node inside a real n8n (1.x and 2.x), with the package
// installed from `npm pack` the way n8n installs community packages: the credential and
// Manual Trigger workflows are imported with n8n's CLI and run with `n8n execute` against a
// started sandbox, whose state is then checked through its own API.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { eventually, trackContainer, trackManyContainers } from '../support/sandbox';
import {
	CLI_QUIET_MS,
	CREDENTIAL,
	ctNode,
	itemsOf,
	n8nLib,
	NODE_TYPE,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	START,
	startE2e,
	TEARDOWN_TIMEOUT,
	workflow,
	type E2eContext,
	type RunJson,
} from './helpers';

const BAD_CREDENTIAL = {
	id: 'ctRefusedCredential',
	name: 'Container Tracking wrong key',
	apiKey: 'not-the-sandbox-key',
};
/**
 * A test imports its workflow and runs it: over REST in the shared n8n, a second or two; in an
 * n8n of its own (n8n 1.x), through up to three CLI commands (import:workflow, n8n execute),
 * each booting n8n.
 */
const EXECUTE_TIMEOUT = generous(3 * CLI_QUIET_MS);

/** The run JSON, or a failure that shows what n8n printed. */
function succeeded(result: {
	code: number | string;
	run: RunJson;
	stdout: string;
	stderr: string;
}): RunJson {
	if (result.code !== 0 || !result.run) {
		throw new Error(
			`n8n execute exited with ${result.code}:\n${(result.stderr + result.stdout).slice(-4000)}`,
		);
	}
	expect(result.run.data.resultData.error).toBeUndefined();
	return result.run;
}

describe('e2e: Container Tracking node in a real n8n', () => {
	let ctx: E2eContext;

	beforeAll(async () => {
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 1 } });
		await ctx.importCredentials([sandboxCredential(), BAD_CREDENTIAL]);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
	}, TEARDOWN_TIMEOUT);

	it('is installed from `npm pack` with only what package.json "files" ships', () => {
		const installed = path.join(
			ctx.userFolder,
			'.n8n',
			'nodes',
			'node_modules',
			'n8n-nodes-container-tracking',
		);
		// npm always packs README, LICENSE and the "main" file; the rest comes from "files": the
		// nodes, and the example workflows a user imports from the package's folder.
		expect(readdirSync(installed).sort()).toEqual([
			'LICENSE',
			'README.md',
			'dist',
			'examples',
			'index.js',
			'package.json',
		]);
		expect(readdirSync(path.join(installed, 'examples'))).toEqual(
			expect.arrayContaining(['README.md', 'hold-alerts.json', 'pickup-board-header.csv']),
		);
		expect(readdirSync(path.join(installed, 'dist')).sort()).toEqual(
			expect.arrayContaining(['credentials', 'nodes', 'package.json']),
		);
		expect(existsSync(path.join(installed, 'dist', 'sandbox'))).toBe(false);
		expect(existsSync(path.join(installed, 'dist', 'test'))).toBe(false);
		const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			expect(existsSync(path.join(installed, file))).toBe(true);
		}
	});

	let trackedRequestId: string;
	let inferredRequestId: string;

	it(
		'infers carriers and creates tracking requests: explicit, inferred, and a duplicate as already_tracked',
		async () => {
			const create = (requestNumber: string, requestType: string, scac: string, options = {}) => ({
				resource: 'trackingRequest',
				operation: 'create',
				requestNumber,
				requestType,
				scac,
				options,
			});
			await ctx.importWorkflow(
				workflow('e2eTracking', 'E2E tracking requests', [
					START,
					ctNode(
						'Infer Maersk box',
						{ resource: 'trackingRequest', operation: 'inferNumber', number: 'MAEU6123458' },
						{ after: ['Start'] },
					),
					ctNode(
						'Infer lessor box',
						{ resource: 'trackingRequest', operation: 'inferNumber', number: 'CAIU7432986' },
						{ after: ['Start'] },
					),
					ctNode(
						'Create explicit',
						create('MSCU1000022', 'container', 'MSCU', { refNumbers: 'PO-1, PO-2' }),
						{ after: ['Start'] },
					),
					ctNode('Create again', create('MSCU1000022', 'container', 'MSCU'), {
						after: ['Create explicit'],
					}),
					ctNode('Create inferred', create('MEDUFR030802', 'infer', 'infer'), { after: ['Start'] }),
				]),
			);
			const run = succeeded(await ctx.execute('e2eTracking'));

			const [maersk] = itemsOf(run, 'Infer Maersk box');
			expect(maersk).toMatchObject({
				number_type: 'container',
				is_valid: true,
				scac: 'MAEU',
				decision: 'auto_select',
				validation: expect.objectContaining({ is_valid: true }),
				shipping_line: expect.objectContaining({ decision: 'auto_select' }),
			});
			expect(maersk.confidence).toBeGreaterThanOrEqual(0.95);
			const [lessor] = itemsOf(run, 'Infer lessor box');
			expect(lessor).toMatchObject({ number_type: 'container', decision: 'no_prediction' });

			const explicit = itemsOf(run, 'Create explicit');
			expect(explicit).toHaveLength(1);
			expect(explicit[0]).toMatchObject({
				request_number: 'MSCU1000022',
				request_type: 'container',
				scac: 'MSCU',
				status: 'pending',
				already_tracked: false,
			});
			trackedRequestId = String(explicit[0].id);
			const again = itemsOf(run, 'Create again');
			expect(again).toHaveLength(1);
			expect(again[0]).toMatchObject({
				request_number: 'MSCU1000022',
				scac: 'MSCU',
				already_tracked: true,
			});

			const [inferred] = itemsOf(run, 'Create inferred');
			expect(inferred).toMatchObject({
				request_number: 'MEDUFR030802',
				request_type: 'bill_of_lading',
				scac: 'MSCU',
				status: 'pending',
				already_tracked: false,
				inferred: expect.objectContaining({ decision: 'auto_select', scac: 'MSCU' }),
			});
			inferredRequestId = String(inferred.id);

			// What reached the service: one request per number, the reference numbers with it.
			const { data } = await ctx.handle.api.get('/tracking_requests');
			const numbers = (data.data as Array<{ attributes: { request_number: string } }>).map(
				(request) => request.attributes.request_number,
			);
			expect(numbers.sort()).toEqual(['MEDUFR030802', 'MSCU1000022']);
			expect(
				ctx.handle.sandbox.world.store.get('tracking_request', trackedRequestId)?.attributes
					.ref_numbers,
			).toEqual(['PO-1', 'PO-2']);
		},
		EXECUTE_TIMEOUT,
	);

	it(
		'reads containers: readiness after the sandbox is driven, get many, transport events filtered and sorted, raw events',
		async () => {
			// The tracking requests made above succeed on the sandbox clock; their containers appear.
			const containersOf = async (requestId: string) => {
				const shipmentId = await eventually(
					async () => {
						const { data } = await ctx.handle.api.get(`/tracking_requests/${requestId}`);
						return (
							(data.data?.relationships?.tracked_object?.data?.id as string | undefined) ??
							undefined
						);
					},
					{
						// Tracking requests succeed after 1 s on the sandbox clock (trackingDelaySeconds).
						timeoutMs: byClock(1_000) + generous(1_000),
						what: `tracking request ${requestId} to succeed`,
					},
				);
				const shipment = ctx.handle.sandbox.world.store.get('shipment', shipmentId)!;
				return (shipment.relationships!.containers.data as Array<{ id: string }>).map(
					(container) => container.id,
				);
			};
			const [portBoxId] = await containersOf(trackedRequestId);
			// The bill of lading's two boxes share a vessel: both are discharged within hours.
			const [readyId, heldId] = await containersOf(inferredRequestId);
			expect(heldId).toBeDefined();

			const aboard = async (id: string) =>
				(
					(await ctx.handle.control.get(`/containers/${id}/journey`)).data
						.remaining_steps as string[]
				).includes('vessel_discharged');
			for (let hours = 0; (await aboard(readyId)) || (await aboard(heldId)); hours += 2) {
				if (hours > 24 * 30) throw new Error('the vessel was never discharged');
				await ctx.handle.control.post('/clock/advance', { hours: 2 });
			}
			// One box ready for pickup, the other held by customs.
			const played = await ctx.handle.control.post(
				`/containers/${readyId}/scenarios/ready_for_pickup`,
				{ gap_seconds: 0 },
			);
			expect(played.status).toBe(202);
			for (const change of [
				{ kind: 'set_availability', available: false },
				{ kind: 'place_hold', name: 'customs', status: 'hold', description: 'Customs exam' },
			]) {
				expect(
					(await ctx.handle.control.post(`/containers/${heldId}/changes`, change)).status,
				).toBe(200);
			}

			// What the service itself has, to compare the node's output with.
			const serviceEvents = (
				await ctx.handle.api.get(`/containers/${readyId}/transport_events`, {
					params: { 'page[size]': 100 },
				})
			).data.data as Array<{
				attributes: { event: string; timestamp: string | null; data_source: string };
			}>;
			expect(serviceEvents.length).toBeGreaterThan(4);
			const chosenEvent = serviceEvents[0].attributes.event;
			const rawEvents = (await ctx.handle.api.get(`/containers/${readyId}/raw_events`)).data
				.data as unknown[];
			const allNumbers = (
				(await ctx.handle.api.get('/containers', { params: { 'page[size]': 100 } })).data
					.data as Array<{
					attributes: { number: string };
				}>
			).map((container) => container.attributes.number);
			expect(allNumbers).toHaveLength(3);

			const events = (name: string, options: Record<string, unknown>) =>
				ctNode(
					name,
					{
						resource: 'container',
						operation: 'getTransportEvents',
						containerId: readyId,
						returnAll: true,
						options,
					},
					{ after: ['Start'] },
				);
			await ctx.importWorkflow(
				workflow('e2eContainers', 'E2E containers', [
					START,
					ctNode(
						'Get ready box',
						// The full items: these read related records and hold objects.
						{
							resource: 'container',
							operation: 'get',
							containerId: readyId,
							simplify: false,
							options: {},
						},
						{ after: ['Start'] },
					),
					ctNode(
						'Get held box',
						{
							resource: 'container',
							operation: 'get',
							containerId: heldId,
							simplify: false,
							options: {},
						},
						{ after: ['Start'] },
					),
					ctNode(
						'Get port box',
						{
							resource: 'container',
							operation: 'get',
							containerId: portBoxId,
							simplify: false,
							options: { include: [] },
						},
						{ after: ['Start'] },
					),
					ctNode(
						'Get many',
						{
							resource: 'container',
							operation: 'getMany',
							returnAll: true,
							simplify: false,
							options: { include: ['pod_terminal'] },
						},
						{ after: ['Start'] },
					),
					events('Events newest first', { sort: 'desc' }),
					events('Events of one name', { eventNames: [chosenEvent] }),
					events('Events from the line', { dataSources: ['shipping_line'] }),
					ctNode(
						'Raw events',
						{ resource: 'container', operation: 'getRawEvents', containerId: readyId },
						{ after: ['Start'] },
					),
				]),
			);
			const run = succeeded(await ctx.execute('e2eContainers'));

			const [ready] = itemsOf(run, 'Get ready box');
			expect(ready).toMatchObject({
				id: readyId,
				ready_for_pickup: true,
				pickup_status: 'ready',
				active_holds: [],
				shipment: expect.objectContaining({
					type: 'shipment',
					bill_of_lading_number: 'MEDUFR030802',
				}),
				pod_terminal: expect.objectContaining({ type: 'terminal', name: expect.any(String) }),
			});
			const [held] = itemsOf(run, 'Get held box');
			expect(held).toMatchObject({ id: heldId, ready_for_pickup: false, pickup_status: 'on_hold' });
			expect((held.active_holds as Array<{ name: string }>).map((hold) => hold.name)).toContain(
				'customs',
			);
			const [portBox] = itemsOf(run, 'Get port box');
			expect(portBox).toMatchObject({ id: portBoxId, number: 'MSCU1000022' });
			// Not asked for, so not resolved.
			expect(portBox.pod_terminal).toBeUndefined();

			const many = itemsOf(run, 'Get many');
			expect(many.map((container) => container.number).sort()).toEqual([...allNumbers].sort());
			expect(many.find((container) => container.id === readyId)).toMatchObject({
				pickup_status: 'ready',
			});
			expect(many.find((container) => container.id === heldId)).toMatchObject({
				pickup_status: 'on_hold',
			});
			expect(many.every((container) => typeof container.pod_terminal === 'object')).toBe(true);

			const newestFirst = itemsOf(run, 'Events newest first');
			expect(newestFirst).toHaveLength(serviceEvents.length);
			const times = newestFirst
				.map((event) => event.timestamp)
				.filter((time): time is string => typeof time === 'string')
				.map(Date.parse);
			expect(times.length).toBeGreaterThan(4);
			expect(times).toEqual([...times].sort((a, b) => b - a));
			// Location, terminal and vessel are resolved by default.
			expect(
				newestFirst.some((event) => typeof event.location === 'object' && event.location !== null),
			).toBe(true);

			const ofOneName = itemsOf(run, 'Events of one name');
			expect(ofOneName).toHaveLength(
				serviceEvents.filter((event) => event.attributes.event === chosenEvent).length,
			);
			expect(ofOneName.every((event) => event.event === chosenEvent)).toBe(true);
			const fromTheLine = itemsOf(run, 'Events from the line');
			expect(fromTheLine).toHaveLength(
				serviceEvents.filter((event) => event.attributes.data_source === 'shipping_line').length,
			);
			expect(fromTheLine.every((event) => event.data_source === 'shipping_line')).toBe(true);

			expect(itemsOf(run, 'Raw events')).toHaveLength(rawEvents.length);
		},
		EXECUTE_TIMEOUT,
	);

	it(
		'creates, lists and deletes a webhook',
		async () => {
			await ctx.importWorkflow(
				workflow('e2eWebhooks', 'E2E webhooks', [
					START,
					ctNode(
						'Create webhook',
						{
							resource: 'webhook',
							operation: 'create',
							url: 'https://example.com/ct-e2e-hook',
							events: ['container.transport.vessel_arrived'],
							active: false,
						},
						{ after: ['Start'] },
					),
					ctNode(
						'List webhooks',
						{ resource: 'webhook', operation: 'getMany', returnAll: true },
						{ after: ['Create webhook'] },
					),
					ctNode(
						'Delete webhook',
						{
							resource: 'webhook',
							operation: 'delete',
							webhookId: {
								__rl: true,
								mode: 'id',
								value: "={{ $('Create webhook').first().json.id }}",
							},
						},
						{ after: ['List webhooks'], executeOnce: true },
					),
				]),
			);
			const run = succeeded(await ctx.execute('e2eWebhooks'));

			const [created] = itemsOf(run, 'Create webhook');
			expect(created).toMatchObject({
				url: 'https://example.com/ct-e2e-hook',
				events: ['container.transport.vessel_arrived'],
				active: false,
				secret: expect.stringMatching(/\S{16,}/),
				secret_notice: expect.stringContaining('Store this secret'),
			});
			const listed = itemsOf(run, 'List webhooks');
			const listedHook = listed.find((webhook) => webhook.id === created.id);
			expect(listedHook).toMatchObject({ url: 'https://example.com/ct-e2e-hook' });
			// The secret is returned once, by Create; reads leave it out of the execution data.
			expect(listedHook).not.toHaveProperty('secret');
			expect(itemsOf(run, 'Delete webhook')).toEqual([{ id: created.id, deleted: true }]);

			const { data } = await ctx.handle.api.get('/webhooks');
			expect((data.data as Array<{ id: string }>).map((webhook) => webhook.id)).not.toContain(
				created.id,
			);
		},
		EXECUTE_TIMEOUT,
	);

	it(
		'reads tracking requests, a shipment and webhooks; updates a webhook; secrets stay out of reads',
		async () => {
			await ctx.importWorkflow(
				workflow('e2eRecords', 'E2E records', [
					START,
					ctNode(
						'Get request',
						{
							resource: 'trackingRequest',
							operation: 'get',
							trackingRequestId: { __rl: true, mode: 'id', value: trackedRequestId },
						},
						{ after: ['Start'] },
					),
					ctNode(
						'Created requests',
						{
							resource: 'trackingRequest',
							operation: 'getMany',
							returnAll: true,
							filters: { statuses: ['created'] },
						},
						{ after: ['Start'] },
					),
					ctNode(
						'Get shipment',
						{
							resource: 'shipment',
							operation: 'get',
							shipmentId: '={{ $json.shipment_id }}',
						},
						{ after: ['Get request'] },
					),
					ctNode(
						'Create hook',
						{
							resource: 'webhook',
							operation: 'create',
							url: 'https://example.com/ct-e2e-records',
							events: ['container.updated'],
						},
						{ after: ['Start'] },
					),
					ctNode(
						'Update hook',
						{
							resource: 'webhook',
							operation: 'update',
							webhookId: { __rl: true, mode: 'list', value: '={{ $json.id }}' },
							updateFields: { active: false, events: ['container.transport.full_out'] },
						},
						{ after: ['Create hook'] },
					),
					ctNode(
						'Get hook',
						{
							resource: 'webhook',
							operation: 'get',
							webhookId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						},
						{ after: ['Update hook'] },
					),
				]),
			);
			const run = succeeded(await ctx.execute('e2eRecords'));

			const stored = (type: string, id: unknown) =>
				ctx.handle.sandbox.world.store.get(type, String(id))!;
			const [request] = itemsOf(run, 'Get request');
			const storedRequest = stored('tracking_request', trackedRequestId);
			expect(request).toMatchObject({
				id: trackedRequestId,
				request_number: 'MSCU1000022',
				status: storedRequest.attributes.status,
				shipment_id: (storedRequest.relationships!.tracked_object.data as { id: string }).id,
			});
			const created = itemsOf(run, 'Created requests');
			expect(created.length).toBeGreaterThan(0);
			expect(created.every((item) => item.status === 'created')).toBe(true);
			expect(created.map((item) => item.id)).toContain(trackedRequestId);

			const [shipment] = itemsOf(run, 'Get shipment');
			expect(shipment).toMatchObject({
				id: request.shipment_id,
				container_numbers: ['MSCU1000022'],
				bill_of_lading_number: stored('shipment', request.shipment_id).attributes
					.bill_of_lading_number,
				pod_vessel_name: expect.any(String),
				pod_terminal_name: expect.any(String),
			});

			const [hook] = itemsOf(run, 'Create hook');
			expect(hook.secret).toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
			const [updated] = itemsOf(run, 'Update hook');
			expect(updated).toMatchObject({
				id: hook.id,
				active: false,
				events: ['container.transport.full_out'],
			});
			expect(itemsOf(run, 'Get hook')).toEqual([
				expect.objectContaining({ id: hook.id, url: 'https://example.com/ct-e2e-records' }),
			]);
			// Returned once, by Create; no read saves it in the execution.
			const saved = JSON.stringify(run.data.resultData.runData);
			expect(saved.split(String(hook.secret)).length - 1).toBe(1);
			expect(stored('webhook', hook.id).attributes).toMatchObject({
				active: false,
				secret: hook.secret,
			});
		},
		EXECUTE_TIMEOUT,
	);

	it(
		"containers are found by part of their number through n8n's resource-locator endpoint, across pages, and read By Number and From list",
		async () => {
			// 250 more containers: three pages of 100, the last numbers on the third.
			const numbers = Array.from({ length: 250 }, (_, serial) =>
				withCheckDigit(`TGHU${String(700_000 + serial).padStart(6, '0')}`),
			);
			const containers = await trackManyContainers(ctx.handle, numbers, 'MSCU');
			const idOf = (number: string) =>
				containers.find((container) => container.attributes.number === number)!.id;
			const wanted = numbers.filter((number) => number.startsWith('TGHU70024'));
			expect(wanted).toHaveLength(10);
			const byNumber = numbers[123];
			const fromList = wanted[3];

			await ctx.importWorkflow(
				workflow('e2eLocators', 'E2E locators', [
					START,
					...(
						[
							['get', 'By Number', { mode: 'number', value: byNumber }],
							['get', 'From list', { mode: 'list', value: idOf(fromList) }],
							['getTransportEvents', 'By Number', { mode: 'number', value: byNumber }],
							['getTransportEvents', 'From list', { mode: 'list', value: idOf(fromList) }],
							['getRawEvents', 'By Number', { mode: 'number', value: byNumber }],
							['getRawEvents', 'From list', { mode: 'list', value: idOf(fromList) }],
						] as const
					).map(([operation, mode, locator]) =>
						ctNode(
							`${operation} ${mode}`,
							{
								resource: 'container',
								operation,
								containerId: { __rl: true, ...locator },
								...(operation === 'getTransportEvents' ? { returnAll: true } : {}),
							},
							{ after: ['Start'] },
						),
					),
					ctNode(
						'Search by number',
						{ resource: 'search', operation: 'byNumber', query: byNumber.toLowerCase() },
						{ after: ['Start'] },
					),
				]),
			);
			const run = succeeded(await ctx.execute('e2eLocators'));
			expect(itemsOf(run, 'get By Number')).toEqual([
				expect.objectContaining({ id: idOf(byNumber), number: byNumber }),
			]);
			expect(itemsOf(run, 'get From list')).toEqual([
				expect.objectContaining({ id: idOf(fromList), number: fromList }),
			]);
			// Search → Find by Number: the container, then the request that tracked it.
			expect(
				itemsOf(run, 'Search by number').map((item) => [item.result_type, item.number]),
			).toEqual([
				['container', byNumber],
				['tracking_request', byNumber],
			]);
			expect(itemsOf(run, 'Search by number')[0]).toMatchObject({
				container_id: idOf(byNumber),
				on_several_shipments: false,
			});
			for (const [mode, number] of [
				['By Number', byNumber],
				['From list', fromList],
			]) {
				const events = itemsOf(run, `getTransportEvents ${mode}`);
				expect(events.length).toBeGreaterThan(0);
				expect(events.every((event) => event.container_id === idOf(number))).toBe(true);
				const served = (await ctx.handle.api.get(`/containers/${idOf(number)}/raw_events`)).data
					.data as unknown[];
				expect(itemsOf(run, `getRawEvents ${mode}`)).toHaveLength(served.length);
			}

			const { url, cookie } = await ctx.start();
			try {
				const search = async (filter?: string, paginationToken?: string) => {
					const answer = await rest(
						url,
						cookie,
						'POST',
						'/dynamic-node-parameters/resource-locator-results',
						{
							path: 'parameters.containerId',
							nodeTypeAndVersion: { name: NODE_TYPE, version: 1 },
							currentNodeParameters: {
								resource: 'container',
								operation: 'get',
								containerId: { __rl: true, mode: 'list', value: '' },
							},
							methodName: 'searchContainers',
							filter,
							paginationToken,
							credentials: {
								containerTrackingApi: {
									id: ctx.credentialId(CREDENTIAL.id),
									name: CREDENTIAL.name,
								},
							},
						},
					);
					expect(answer.status).toBe(200);
					return answer.body.data as {
						results: Array<{ name: string; value: string }>;
						paginationToken?: string;
					};
				};
				// What a person types: part of the number, in lowercase.
				const found = await search('tghu70024');
				expect(found.results.map((result) => result.value).sort()).toEqual(wanted.map(idOf).sort());
				expect(found.results.map((result) => result.name.split(' · ')[0]).sort()).toEqual(
					[...wanted].sort(),
				);
				// Scrolling the unfiltered list: 100 a page, every container once.
				const seen: string[] = [];
				let token: string | undefined;
				do {
					const page = await search(undefined, token);
					seen.push(...page.results.map((result) => result.value));
					token = page.paginationToken;
				} while (token);
				expect(seen).toHaveLength(new Set(seen).size);
				expect(seen).toEqual(expect.arrayContaining(containers.map((container) => container.id)));
			} finally {
				await ctx.stopN8n();
			}
		},
		EXECUTE_TIMEOUT,
	);

	it(
		'shipments: Get Many by tracked number, then Stop Tracking and Resume Tracking of what it found; Container → Refresh',
		async () => {
			const number = withCheckDigit('MSKU741000');
			const { shipmentId, containerIds } = await trackContainer(ctx.handle, number, 'MAEU');
			const byItsId = { __rl: true, mode: 'id', value: '={{ $json.id }}' };
			await ctx.importWorkflow(
				workflow('e2eShipments', 'E2E shipments', [
					START,
					ctNode(
						'Shipments by number',
						{
							resource: 'shipment',
							operation: 'getMany',
							returnAll: true,
							filters: { number },
						},
						{ after: ['Start'] },
					),
					ctNode(
						'Stop',
						{ resource: 'shipment', operation: 'stopTracking', shipmentId: byItsId },
						{ after: ['Shipments by number'] },
					),
					ctNode(
						'Resume',
						{ resource: 'shipment', operation: 'resumeTracking', shipmentId: byItsId },
						{ after: ['Stop'] },
					),
					ctNode(
						'Refresh',
						{
							resource: 'container',
							operation: 'refresh',
							containerId: { __rl: true, mode: 'number', value: number },
						},
						{ after: ['Start'] },
					),
				]),
			);
			const run = succeeded(await ctx.execute('e2eShipments'));
			expect(itemsOf(run, 'Shipments by number')).toEqual([
				expect.objectContaining({ id: shipmentId, container_numbers: [number] }),
			]);
			expect(itemsOf(run, 'Stop')).toEqual([
				expect.objectContaining({ id: shipmentId, line_tracking_stopped_at: expect.any(String) }),
			]);
			expect(itemsOf(run, 'Resume')).toEqual([expect.objectContaining({ id: shipmentId })]);
			expect(itemsOf(run, 'Refresh')).toEqual([
				{
					container_id: containerIds[0],
					container_number: number,
					refresh_started: true,
					message: expect.any(String),
				},
			]);
			// What the service keeps (under drift it serves stop fields on any shipment).
			expect(ctx.handle.sandbox.world.store.get('shipment', shipmentId)!.attributes).toMatchObject({
				line_tracking_stopped_at: null,
			});
		},
		EXECUTE_TIMEOUT,
	);

	it(
		'with a refused API key, the execution fails with an error that names the credential problem',
		async () => {
			await ctx.importWorkflow(
				workflow('e2eRefusedKey', 'E2E refused key', [
					START,
					ctNode(
						'Infer with wrong key',
						{ resource: 'trackingRequest', operation: 'inferNumber', number: 'MAEU6123458' },
						{ after: ['Start'] },
						BAD_CREDENTIAL,
					),
				]),
			);
			// On the CLI: what it prints is asserted too.
			const result = await ctx.executeOnCli('e2eRefusedKey');
			expect(result.code).not.toBe(0);
			expect(result.run).not.toBeNull();
			// n8n 1.x's `execute --rawOutput` prints the run before it marks it ended ("running").
			if ((await n8nLib()).N8N_MAJOR >= 2) expect(result.run.status).toBe('error');
			const { error } = result.run.data.resultData;
			// The service's own words, and what to do about them, on the failing node.
			expect(error).toMatchObject({
				name: 'NodeApiError',
				message: 'Unknown API key',
				httpCode: '401',
				node: expect.objectContaining({ name: 'Infer with wrong key' }),
			});
			expect(error.description).toContain('The API key was refused');
			expect(error.description).toContain('check the credential');
			// n8n prints it too, for whoever runs the CLI.
			expect(result.stdout).toContain('Unknown API key');
		},
		EXECUTE_TIMEOUT,
	);
});

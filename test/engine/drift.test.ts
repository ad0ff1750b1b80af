// Every operation and the trigger against a sandbox that drifts (sandbox/drift.ts): answers and
// deliveries carry values the interface's tables do not list, null relationships, records
// without links, extra members and numeric strings, as real accounts send them. Nothing may fail,
// no delivery may be refused, no item may carry warnings (all of this is what real data carries),
// and every value the sandbox served reaches the items unchanged.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { EVENT_NAMES, RAIL_PLAN_EVENTS } from '../../sandbox/world/eventNames';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { DRIFT_VALUES } from '../../sandbox/drift';
import { startBridge, type Bridge } from '../support/bridge';
import { runContainerTrackingNode, type EngineRun } from '../support/engine';
import { API_KEY, eventually, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { TriggerHarness } from '../support/trigger';

/** Numbers that fall on both sides of every drift subset (sandbox/drift.ts, DRIFT_SUBSETS). */
const REQUESTS = [
	{ number: 'MSKU4807969', type: 'container', scac: 'MAEU' },
	{ number: 'MSCU1000022', type: 'container', scac: 'MSCU' },
	...[1, 2, 3, 4].map((n) => ({
		number: withCheckDigit(`MSCU50000${n}`),
		type: 'container',
		scac: 'MSCU',
	})),
	{ number: '254839201', type: 'booking', scac: 'MAEU' },
	{ number: '254839202', type: 'booking', scac: 'MAEU' },
	{ number: 'TEST-TR-FAILED', type: 'container', scac: 'TEST' },
];

const json = (items: INodeExecutionData[]) => items.map((item) => item.json);

/** Nothing failed, every item is paired, and none carries warnings. */
function expectClean(run: EngineRun, inputCount = 1): IDataObject[] {
	expect(run.error).toBeUndefined();
	expect(run.items.length).toBeGreaterThan(0);
	const paired = new Set(run.items.map((item) => (item.pairedItem as { item: number }).item));
	expect([...paired].sort((a, b) => a - b)).toEqual([...Array(inputCount).keys()]);
	expect(
		run.items.filter((item) => item.json.warnings !== undefined).map((item) => item.json),
	).toEqual([]);
	return json(run.items);
}

describe('every operation and the trigger against a drifting sandbox', () => {
	let handle: SandboxHandle;
	let bridge: Bridge;
	let harness: TriggerHarness;
	let created: IDataObject[];
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const run = (parameters: INodeParameters, input: IDataObject[] = [{}]) =>
		runContainerTrackingNode(parameters, input, credentials());
	const containerIds = () => handle.sandbox.world.store.list('container').map((c) => c.id);
	const startedItems = () =>
		bridge.calls.filter((call) => call.started).flatMap((call) => call.items);

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: true, timeScale: 20, trackingDelaySeconds: 0 });
		bridge = await startBridge();
		harness = new TriggerHarness(
			{
				registration: 'automatic',
				events: EVENT_NAMES.filter((name) => !RAIL_PLAN_EVENTS.includes(name)),
				options: {},
			},
			credentials(),
			{},
			{ webhookBaseUrl: bridge.webhookBaseUrl },
		);
		bridge.harness = harness;
		await harness.activate();
		const creation = await run(
			{
				resource: 'trackingRequest',
				operation: 'create',
				requestNumber: '={{ $json.number }}',
				requestType: '={{ $json.type }}',
				scac: '={{ $json.scac }}',
			},
			REQUESTS,
		);
		created = expectClean(creation, REQUESTS.length);
		// Tracking requests resolve, then two weeks of journeys: holds, fees, events, deliveries.
		await eventually(() => (containerIds().length >= 6 ? true : undefined), {
			what: 'the containers of the tracked numbers',
		});
		for (let day = 0; day < 14; day++) await handle.control.post('/clock/advance', { days: 1 });
	});
	afterAll(async () => {
		await bridge.close();
		await handle.stop();
	});

	it('Create Tracking Request gives each request as served, unseen status and request type included', () => {
		expect(created).toHaveLength(REQUESTS.length);
		for (const item of created) {
			const served = handle.served('tracking_request', String(item.id)).attributes;
			expect(item.request_type).toBe(served.request_type);
			// The 201 said `pending` or its drifted twin; the request has moved on since.
			expect(['pending', DRIFT_VALUES.trackingRequestStatus.pending]).toContain(item.status);
		}
		const statuses = created.map((item) => item.status);
		expect(statuses).toContain(DRIFT_VALUES.trackingRequestStatus.pending);
		expect(statuses).toContain('pending');
		expect(created.map((item) => item.request_type)).toContain(DRIFT_VALUES.requestType);
	});

	it('Infer Carrier and Number Type reads drifted inference results', async () => {
		const inferred = expectClean(
			await run(
				{ resource: 'trackingRequest', operation: 'inferNumber', number: '={{ $json.number }}' },
				[{ number: 'MSKU4807969' }, { number: 'MEDUFR030802' }],
			),
			2,
		);
		expect(inferred).toHaveLength(2);
	});

	it('Get Many gives every container, the drifted equipment, holds, fees and numeric strings unchanged', async () => {
		const items = expectClean(
			// The full items: the drifted attributes are what this test reads.
			await run({ resource: 'container', operation: 'getMany', returnAll: true, simplify: false }),
		);
		expect(items.map((item) => item.id).sort()).toEqual(containerIds().sort());
		for (const item of items) {
			const served = handle.served('container', String(item.id)).attributes;
			for (const name of [
				'number',
				'equipment_length',
				'equipment_type',
				'equipment_height',
				'weight_in_lbs',
				'ref_numbers',
				'holds_at_pod_terminal',
				'fees_at_pod_terminal',
				'custom_fields',
				'last_status_refresh_at',
			])
				expect({ [name]: item[name] }).toEqual({ [name]: served[name] });
		}
		const column = (name: string) => items.map((item) => item[name]);
		expect(column('equipment_length')).toContain(DRIFT_VALUES.equipmentLength);
		expect(column('equipment_type')).toContain(DRIFT_VALUES.equipmentType);
		expect(column('equipment_height')).toContain(DRIFT_VALUES.equipmentHeight);
		expect(column('weight_in_lbs').some((weight) => typeof weight === 'string')).toBe(true);

		// The CTF hold has a status no table lists: reported, named, never taken for a block.
		const withCtf = items.filter((item) =>
			(item.holds_at_pod_terminal as IDataObject[] | null)?.some(
				(hold) => hold.name === DRIFT_VALUES.hold.name,
			),
		);
		expect(withCtf.length).toBeGreaterThan(0);
		for (const item of withCtf) {
			expect(item.holds_with_unknown_status).toEqual(
				expect.arrayContaining([expect.objectContaining({ name: DRIFT_VALUES.hold.name })]),
			);
			expect(item.active_holds).not.toEqual(
				expect.arrayContaining([expect.objectContaining({ name: DRIFT_VALUES.hold.name })]),
			);
			expect(String(item.pickup_status_reason)).toContain(DRIFT_VALUES.hold.name);
		}
		// The storage fee of 0 is counted, and changes no total.
		const withStorage = items.filter((item) =>
			(item.fees_at_pod_terminal as IDataObject[] | null)?.some(
				(fee) => fee.type === DRIFT_VALUES.feeType,
			),
		);
		expect(withStorage.length).toBeGreaterThan(0);
		for (const item of withStorage) {
			const others = (item.fees_at_pod_terminal as IDataObject[]).filter(
				(fee) => fee.type !== 'total',
			);
			const sum = others.reduce((total, fee) => total + Number(fee.amount), 0);
			if (item.fees_total !== null) expect(item.fees_total).toBeCloseTo(sum, 2);
		}

		// Simplified (the default), the same containers read as cleanly, with the same answers.
		const simplified = expectClean(
			await run({ resource: 'container', operation: 'getMany', returnAll: true }),
		);
		expect(simplified.map((item) => item.id).sort()).toEqual(containerIds().sort());
		for (const item of simplified) {
			const full = items.find((entry) => entry.id === item.id)!;
			expect(item).toMatchObject({
				number: full.number,
				pickup_status: full.pickup_status,
				pickup_status_reason: full.pickup_status_reason,
				fees_total: full.fees_total,
				active_holds: (full.active_holds as IDataObject[]).map((hold) => hold.name),
			});
		}
	});

	it('Get resolves shipments without relationships, terminals with a null port and account_closed', async () => {
		const items = expectClean(
			await run(
				{
					resource: 'container',
					operation: 'get',
					containerId: '={{ $json.id }}',
					simplify: false,
					options: { include: ['shipment', 'pod_terminal', 'pickup_facility', 'transport_events'] },
				},
				containerIds().map((id) => ({ id })),
			),
			containerIds().length,
		);
		expect(items).toHaveLength(containerIds().length);
		const reasons = items.map(
			(item) => (item.shipment as IDataObject | undefined)?.line_tracking_stopped_reason,
		);
		expect(reasons).toContain(DRIFT_VALUES.lineTrackingStoppedReason);
		for (const item of items) {
			const served = handle.served('container', String(item.id));
			expect(item.number).toBe(served.attributes.number);
			expect(item.shipment_id).toBe(
				(served.relationships?.shipment?.data as { id: string } | null)?.id ?? null,
			);
		}
	});

	it('Get Transport Events gives pierpass events unchanged and filters on them', async () => {
		const all: IDataObject[] = [];
		for (const id of containerIds()) {
			const items = expectClean(
				await run({
					resource: 'container',
					operation: 'getTransportEvents',
					containerId: id,
					returnAll: true,
					options: { include: ['location', 'terminal', 'vessel'] },
				}),
			);
			for (const item of items)
				expect(item.data_source).toBe(
					handle.served('transport_event', String(item.id)).attributes.data_source,
				);
			all.push(...items);
		}
		const pierpass = all.filter((item) => item.data_source === DRIFT_VALUES.dataSource);
		expect(pierpass.length).toBeGreaterThan(0);
		expect(all.some((item) => item.data_source === 'terminal')).toBe(true);
		// A value no option lists can still be filtered on with an expression.
		const container = String(pierpass[0].container_id);
		const filtered = expectClean(
			await run({
				resource: 'container',
				operation: 'getTransportEvents',
				containerId: container,
				returnAll: true,
				options: { dataSources: `={{ ["${DRIFT_VALUES.dataSource}"] }}` },
			}),
		);
		expect(filtered.map((item) => item.id).sort()).toEqual(
			pierpass
				.filter((item) => item.container_id === container)
				.map((item) => item.id)
				.sort(),
		);
	});

	it('Get Raw Events reads every container', async () => {
		for (const id of containerIds())
			expectClean(
				await run({
					resource: 'container',
					operation: 'getRawEvents',
					containerId: id,
					returnAll: true,
				}),
			);
	});

	it('webhooks: Get Many, Create and Delete read drifted webhooks', async () => {
		const listed = expectClean(
			await run({ resource: 'webhook', operation: 'getMany', returnAll: true }),
		);
		expect(listed.map((item) => item.url)).toContain(harness.webhookUrl);
		const made = expectClean(
			await run({
				resource: 'webhook',
				operation: 'create',
				url: 'https://example.com/drift-hook',
				events: ['container.updated'],
				active: false,
			}),
		);
		const deleted = expectClean(
			await run({ resource: 'webhook', operation: 'delete', webhookId: String(made[0].id) }),
		);
		expect(deleted[0]).toMatchObject({ deleted: true });
	});

	it('the trigger answered every delivery 200 and started the workflow with clean items', async () => {
		const log = await eventually(
			async () => {
				const { data } = await handle.control.get('/deliveries');
				const entries = data.deliveries as Array<{ status: number | null; event: string }>;
				return entries.length > 0 && entries.every((entry) => entry.status !== null)
					? entries
					: undefined;
			},
			{ what: 'every delivery answered' },
		);
		expect(log.filter((entry) => entry.status !== 200)).toEqual([]);
		expect(bridge.calls.filter((call) => call.status !== 200 || !call.started)).toEqual([]);
		const events = new Set(log.map((entry) => entry.event));
		for (const event of [
			'tracking_request.succeeded',
			'tracking_request.failed',
			'container.updated',
		])
			expect(events).toContain(event);
		const items = startedItems();
		expect(items.filter((item) => item.warnings !== undefined)).toEqual([]);
		const shown = JSON.stringify(items);
		for (const value of [
			DRIFT_VALUES.failedReason,
			DRIFT_VALUES.lineTrackingStoppedReason,
			DRIFT_VALUES.dataSource,
		])
			expect(shown).toContain(`"${value}"`);
	});
});

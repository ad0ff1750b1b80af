// Simplify on Container → Get and Get Many, run by n8n's engine against a started sandbox: the
// simplified shape is the default, Return Raw Document wins over it, the full items start with
// the worked-out fields, and an AI agent's tool gets the simplified shape without its empty
// members (test/support/toolRun.ts runs the node as n8n runs a tool).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import { callTool, TOOL_TYPE, toolRunTypes } from '../support/toolRun';
import { SIMPLIFIED_KEYS, WORKED_OUT_KEYS } from '../support/containerItems';
import { API_KEY, startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';

/** Non-inland MSC box with a freight hold at discharge (the sandbox derives journeys from the number). */
const PORT_PICKUP_BOX = 'MSCU1000022';

describe('Simplify: Container → Get and Get Many', () => {
	let handle: SandboxHandle;
	let containerId: string;
	let shipmentId: string;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const stored = (type: string, id: string) => handle.sandbox.world.store.get(type, id)!;
	const run = (parameters: INodeParameters) =>
		runContainerTrackingNode({ resource: 'container', ...parameters }, [{}], credentials());

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		({
			containerIds: [containerId],
			shipmentId,
		} = await trackContainer(handle, PORT_PICKUP_BOX, 'MSCU'));
		await trackContainer(handle, withCheckDigit('MSCU500011'), 'MSCU');
		// Until discharge, two hours at a time: the box has arrived and its freight hold is active.
		const remaining = async (): Promise<string[]> =>
			(await handle.control.get(`/containers/${containerId}/journey`)).data.remaining_steps;
		for (let hours = 0; (await remaining()).includes('vessel_discharged'); hours += 2) {
			if (hours > 24 * 30) throw new Error('vessel_discharged never happened');
			await handle.control.post('/clock/advance', { hours: 2 });
		}
	});
	afterAll(async () => handle.stop());

	/** The simplified item the stored container, shipment and terminal should give. */
	const expectedSimplified = (item: IDataObject) => {
		const container = stored('container', containerId);
		const shipment = stored('shipment', shipmentId).attributes;
		const terminal = handle.sandbox.world.store.related(container, 'pod_terminal')[0];
		expect(Object.keys(item)).toEqual(SIMPLIFIED_KEYS);
		expect(item).toMatchObject({
			id: containerId,
			number: PORT_PICKUP_BOX,
			current_status: container.attributes.current_status,
			terminal: terminal.attributes.name,
			vessel: shipment.pod_vessel_name,
			pod_eta_at: shipment.pod_eta_at,
			pod_ata_at: container.attributes.pod_arrived_at ?? shipment.pod_ata_at ?? null,
			pod_discharged_at: container.attributes.pod_discharged_at,
			bill_of_lading: shipment.bill_of_lading_number,
			shipping_line_scac: 'MSCU',
			shipment_id: shipmentId,
		});
		expect(item.vessel).toEqual(expect.any(String));
		expect(item.bill_of_lading).toEqual(expect.any(String));
	};

	it('Get gives the simplified item by default, shipment and terminal resolved', async () => {
		const { items, error } = await run({ operation: 'get', containerId });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expectedSimplified(items[0].json);
		// Active holds by name: the freight hold placed at discharge.
		expect(items[0].json.active_holds).toEqual(expect.arrayContaining(['freight']));
		expect(items[0].json.pickup_status).toBe('on_hold');
	});

	it('Get without related records: the terminal by id, what only the shipment knows null', async () => {
		const { items, error } = await run({ operation: 'get', containerId, options: { include: [] } });
		expect(error).toBeUndefined();
		const terminal = handle.sandbox.world.store.related(
			stored('container', containerId),
			'pod_terminal',
		)[0];
		expect(Object.keys(items[0].json)).toEqual(SIMPLIFIED_KEYS);
		expect(items[0].json).toMatchObject({
			terminal: terminal.id,
			vessel: null,
			pod_eta_at: null,
			bill_of_lading: null,
			shipping_line: null,
			shipment_id: shipmentId,
		});
	});

	it('Get with Simplify off starts with the worked-out fields, then every attribute', async () => {
		const { items, error } = await run({ operation: 'get', containerId, simplify: false });
		expect(error).toBeUndefined();
		const keys = Object.keys(items[0].json);
		expect(keys.slice(0, WORKED_OUT_KEYS.length)).toEqual(WORKED_OUT_KEYS);
		// Within the 40 columns of n8n's Table view, before the attributes and related records.
		expect(keys.indexOf('pending_holds')).toBeLessThan(40);
		for (const name of ['equipment_type', 'holds_at_pod_terminal', 'shipment', 'pod_terminal'])
			expect(keys.indexOf(name)).toBeGreaterThan(keys.indexOf('pending_holds'));
	});

	it('Return Raw Document wins over Simplify', async () => {
		const { items, error } = await run({
			operation: 'get',
			containerId,
			simplify: true,
			options: { raw: true },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ data: { id: containerId, type: 'container' } });
		expect(items[0].json).not.toHaveProperty('pickup_status');
	});

	it('Get Many gives simplified items by default, every one with the same members', async () => {
		const all = handle.sandbox.world.store.list('container').map((container) => container.id);
		const bare = await run({ operation: 'getMany', returnAll: true });
		expect(bare.error).toBeUndefined();
		expect(bare.items.map((item) => item.json.id).sort()).toEqual([...all].sort());
		for (const { json } of bare.items) expect(Object.keys(json)).toEqual(SIMPLIFIED_KEYS);

		const resolved = await run({
			operation: 'getMany',
			returnAll: true,
			options: { include: ['shipment', 'pod_terminal'] },
		});
		expect(resolved.error).toBeUndefined();
		expectedSimplified(resolved.items.find((item) => item.json.id === containerId)!.json);

		const full = await run({ operation: 'getMany', returnAll: true, simplify: false });
		expect(full.items.every((item) => 'holds_at_pod_terminal' in item.json)).toBe(true);
	});

	it('as an AI agent’s tool, Get answers the simplified item', async () => {
		toolRunTypes.length = 0;
		const { answer, error } = await callTool(
			{ resource: 'container', operation: 'get', containerId },
			{},
			credentials(),
		);
		expect(error).toBeUndefined();
		// n8n ran the node's execute as the tool variant, with the tool's type.
		expect(toolRunTypes).toEqual([TOOL_TYPE]);
		expect(answer).toHaveLength(1);
		// The simplified item without its empty members: what says something, in the same order.
		const { items } = await run({ operation: 'get', containerId });
		const said = Object.fromEntries(
			Object.entries(items[0].json).filter(
				([name, value]) => value !== null && !/_ids?$/.test(name),
			),
		);
		expect(Object.keys(answer![0])).toEqual(Object.keys(said));
		expect({ ...answer![0], container_as_of: null }).toEqual({ ...said, container_as_of: null });
		expect(Object.keys(said).length).toBeLessThan(SIMPLIFIED_KEYS.length);
	});

	it('as a tool whose Simplify is left to the model, the model may ask for the full item', async () => {
		const parameters = {
			resource: 'container',
			operation: 'get',
			containerId,
			simplify: "={{ $fromAI('simplify', 'false for every attribute', 'boolean') }}",
		};
		const full = await callTool(parameters, { simplify: false }, credentials());
		expect(full.error).toBeUndefined();
		expect(full.answer![0]).toHaveProperty('holds_at_pod_terminal');
		const simplified = await callTool(parameters, { simplify: true }, credentials());
		expect(SIMPLIFIED_KEYS).toEqual(expect.arrayContaining(Object.keys(simplified.answer![0])));
		expect(simplified.answer![0]).not.toHaveProperty('holds_at_pod_terminal');
	});
});

// Simplify on Container → Get and Get Many, run by n8n's engine against a started sandbox: the
// simplified shape is the default, Return Raw Document wins over it, the full items start with
// the worked-out fields, and an AI agent's tool gets the simplified shape. The tool is run the
// way n8n-core runs a `usableAsTool` node: a node of type `<name>Tool` connected to an agent by
// an `ai_tool` connection, invoked through the LangChain tool n8n-core builds from it.
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	NodeConnectionTypes,
	Workflow,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IRun,
} from 'n8n-workflow';

import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import {
	engineAdditionalData,
	nodeTypes,
	PACKAGE,
	registerNodeType,
	runContainerTrackingNode,
	type TestCredentials,
} from '../support/engine';
import { SIMPLIFIED_KEYS, WORKED_OUT_KEYS } from '../support/containerItems';
import { API_KEY, startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';

/** Non-inland MSC box with a freight hold at discharge (the sandbox derives journeys from the number). */
const PORT_PICKUP_BOX = 'MSCU1000022';

const TOOL_TYPE = `${PACKAGE}.containerTrackingTool`;
const AGENT_TYPE = 'test.toolCaller';

/** The node types the tool's runs saw in `this.getNode().type`. */
const toolRunTypes: string[] = [];

/**
 * The node as n8n offers it to agents: what n8n's `convertNodeToAiTool` makes of a
 * `usableAsTool` description (name + `Tool`, no inputs, an `ai_tool` output, a tool description
 * field), with the node's own `execute`.
 */
function toolVariant(node: INodeType): INodeType {
	const description = { ...node.description };
	delete description.usableAsTool;
	return {
		description: {
			...description,
			name: `${description.name}Tool`,
			displayName: `${description.displayName} Tool`,
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
			properties: [
				...description.properties,
				{
					displayName: 'Description',
					name: 'toolDescription',
					type: 'string',
					default: description.description,
				},
			],
		},
		async execute(this: IExecuteFunctions) {
			toolRunTypes.push(this.getNode().type);
			return await node.execute!.call(this);
		},
	};
}

/**
 * Stands in for n8n's AI Agent: takes the tools connected to it, calls the first with the
 * arguments a model would give, and answers what the tool answered the model (JSON text).
 */
const toolCaller: INodeType = {
	description: {
		displayName: 'Tool caller',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls its tool as an agent would',
		defaults: { name: 'Tool caller' },
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Arguments', name: 'toolArguments', type: 'json', default: '{}' }],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
			invoke(input: unknown): Promise<string>;
		}>;
		const toolArguments = JSON.parse(String(this.getNodeParameter('toolArguments', 0)));
		const answer = await tools[0].invoke(toolArguments);
		return [[{ json: { answer: JSON.parse(answer) as IDataObject[] } }]];
	},
};

registerNodeType(TOOL_TYPE, toolVariant(new ContainerTracking()));
registerNodeType(AGENT_TYPE, toolCaller);

/** Runs the tool caller with the Container Tracking tool configured with `toolParameters`. */
async function runAsTool(
	toolParameters: INodeParameters,
	toolArguments: IDataObject,
	credentials: TestCredentials,
): Promise<{ answer: IDataObject[] | undefined; error: unknown }> {
	const agent: INode = {
		id: 'c1a2b3d4-0000-4000-8000-000000000001',
		name: 'Agent',
		type: AGENT_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { toolArguments: JSON.stringify(toolArguments) },
	};
	const tool: INode = {
		id: 'c1a2b3d4-0000-4000-8000-000000000002',
		name: 'Container Tracking Tool',
		type: TOOL_TYPE,
		typeVersion: 1,
		position: [0, 200],
		parameters: toolParameters,
		credentials: { containerTrackingApi: { id: 'cred-1', name: 'Container Tracking account' } },
	};
	const connections = {
		[tool.name]: {
			[NodeConnectionTypes.AiTool]: [
				[{ node: agent.name, type: NodeConnectionTypes.AiTool, index: 0 }],
			],
		},
	};
	const workflow = new Workflow({
		id: 'engine-tool-test',
		nodes: [agent, tool],
		connections,
		nodeTypes,
		active: false,
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'engine-tool-execution', {
		id: 'engine-tool-test',
		name: 'engine tool test',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [agent, tool],
		connections,
		activeVersionId: null,
	} as never);
	const finished = new Promise<IRun>((resolve) => {
		hooks.addHandler('workflowExecuteAfter', (run) => resolve(run));
	});
	const execute = new WorkflowExecute(
		engineAdditionalData(hooks, credentials),
		'manual',
		createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: agent, data: { main: [[{ json: {}, pairedItem: { item: 0 } }]] }, source: null },
				],
			},
		}),
	);
	await execute.processRunExecutionData(workflow);
	const run = await finished;
	const agentRun = run.data.resultData.runData[agent.name]?.[0];
	return {
		answer: agentRun?.data?.main?.[0]?.[0]?.json.answer as IDataObject[] | undefined,
		error: agentRun?.error ?? run.data.resultData.error,
	};
}

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
		const { answer, error } = await runAsTool(
			{ resource: 'container', operation: 'get', containerId },
			{},
			credentials(),
		);
		expect(error).toBeUndefined();
		// n8n ran the node's execute as the tool variant, with the tool's type.
		expect(toolRunTypes).toEqual([TOOL_TYPE]);
		expect(answer).toHaveLength(1);
		expectedSimplified(answer![0]);
	});

	it('as a tool whose Simplify is left to the model, the model may ask for the full item', async () => {
		const parameters = {
			resource: 'container',
			operation: 'get',
			containerId,
			simplify: "={{ $fromAI('simplify', 'false for every attribute', 'boolean') }}",
		};
		const full = await runAsTool(parameters, { simplify: false }, credentials());
		expect(full.error).toBeUndefined();
		expect(full.answer![0]).toHaveProperty('holds_at_pod_terminal');
		const simplified = await runAsTool(parameters, { simplify: true }, credentials());
		expect(Object.keys(simplified.answer![0])).toEqual(SIMPLIFIED_KEYS);
	});
});

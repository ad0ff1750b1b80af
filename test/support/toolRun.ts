// The Container Tracking node as an AI model's tool, run by n8n's engine the way n8n runs it: a
// node of type `<name>Tool` (what n8n's convertNodeToAiTool makes of a `usableAsTool`
// description) connected by an `ai_tool` connection to a node that stands in for the AI Agent or
// the MCP Server Trigger. That node takes the LangChain tool n8n-core builds from the tool node
// (createNodeAsTool: its name, its description as NodeHelpers.getToolDescriptionForNode gives it,
// its `$fromAI` schema) and calls it with the arguments a model would give.
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
import {
	engineAdditionalData,
	nodeTypes,
	PACKAGE,
	registerNodeType,
	type TestCredentials,
} from './engine';

export const TOOL_TYPE = `${PACKAGE}.containerTrackingTool`;
const AGENT_TYPE = 'test.toolCaller';

/** The node types the tool's runs saw in `this.getNode().type`. */
export const toolRunTypes: string[] = [];

/**
 * The node as n8n offers it to models, as n8n's convertNodeToAiTool makes it: name + `Tool`, no
 * inputs, an `ai_tool` output, and n8n's own Description field only when the node has none named
 * `toolDescription`.
 */
export function toolVariant(node: INodeType): INodeType {
	const description = { ...node.description };
	delete description.usableAsTool;
	const hasOwn = description.properties.some((property) => property.name === 'toolDescription');
	return {
		description: {
			...description,
			name: `${description.name}Tool`,
			displayName: `${description.displayName} Tool`,
			inputs: [],
			outputs: [NodeConnectionTypes.AiTool],
			properties: hasOwn
				? description.properties
				: [
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

/** What the model sees of the tool and what it was answered. */
export interface ToolCall {
	name: string;
	description: string;
	/** The arguments the tool's `$fromAI` fields ask for. */
	argumentNames: string[];
	/** The answer as the model reads it (JSON text), parsed. */
	answer: IDataObject[] | undefined;
	/** An error that reached the agent instead of an answer. */
	error: unknown;
}

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
			name: string;
			description: string;
			schema: { shape?: Record<string, unknown> };
			invoke(input: unknown): Promise<string>;
		}>;
		const [tool] = tools;
		const toolArguments = JSON.parse(String(this.getNodeParameter('toolArguments', 0)));
		const answer = await tool.invoke(toolArguments);
		return [
			[
				{
					json: {
						name: tool.name,
						description: tool.description,
						argumentNames: Object.keys(tool.schema.shape ?? {}),
						answer: JSON.parse(answer) as IDataObject[],
					},
				},
			],
		];
	},
};

registerNodeType(TOOL_TYPE, toolVariant(new ContainerTracking()));
registerNodeType(AGENT_TYPE, toolCaller);

/**
 * Calls the Container Tracking tool configured with `toolParameters` (fields a model fills are
 * `$fromAI` expressions) with the `toolArguments` a model gives, as n8n's agents do.
 */
export async function callTool(
	toolParameters: INodeParameters,
	toolArguments: IDataObject,
	credentials: TestCredentials,
	{ toolName = 'Container Tracking Tool' }: { toolName?: string } = {},
): Promise<ToolCall> {
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
		name: toolName,
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
	const json = agentRun?.data?.main?.[0]?.[0]?.json ?? {};
	return {
		name: String(json.name ?? ''),
		description: String(json.description ?? ''),
		argumentNames: (json.argumentNames as string[] | undefined) ?? [],
		answer: json.answer as IDataObject[] | undefined,
		error: agentRun?.error ?? run.data.resultData.error,
	};
}

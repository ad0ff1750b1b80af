/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reading the examples from disk; the rule is for the published nodes */
// The node as an AI model sees it (actions/tool.ts): every operation's tool says when to use it
// and what it returns, in n8n's own reading of the tool's description; and no tool in the
// examples asks the model for an internal id, only for what a person says (a container number,
// a customer's name, a pasted text).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { RESOURCES } from '../../nodes/ContainerTracking/actions/router';
import { repoRoot } from '../support/importNative';
import { TOOL_TYPE, toolVariant } from '../support/toolRun';

const node = new ContainerTracking();
const tool = toolVariant(node);

/** A node of `type` with `parameters` as n8n loads it: every default filled in. */
function loaded(type: INodeType, parameters: INodeParameters): INode {
	const description = type.description as INodeTypeDescription;
	return {
		id: 'n1',
		name: 'Container Tracking',
		type: `n8n-nodes-container-tracking.${description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters:
			NodeHelpers.getNodeParameters(
				description.properties,
				parameters,
				true,
				false,
				null,
				description,
			) ?? {},
	};
}

/** What the model reads of a tool node: n8n's own choice of description. */
const toolDescriptionOf = (parameters: INodeParameters): string =>
	NodeHelpers.getToolDescriptionForNode(loaded(tool, parameters), tool);

/**
 * Why a tool description does not tell a model when to use the tool and what it gets: empty,
 * n8n's automatic "<action> in <node>", no "Use this when …", no "Returns …", or too long to
 * stay one or two sentences.
 */
function descriptionProblems(text: string): string[] {
	const problems: string[] = [];
	if (text.trim() === '') return ['it is empty'];
	if (/ in Container Tracking$/.test(text)) problems.push("it is n8n's automatic one");
	if (!/\bUse (this|it)( only)? when\b/.test(text)) problems.push('it does not say when to use it');
	if (!/\bReturns\b/.test(text)) problems.push('it does not say what it returns');
	if (text.length > 400) problems.push(`it is ${text.length} characters long`);
	return problems;
}

const operations = Object.values(RESOURCES).flatMap((resource) =>
	Object.entries(resource.operations).map(([operation, module]) => ({
		resource: resource.value,
		operation,
		toolDescription: module.toolDescription,
	})),
);

describe('each operation as a tool', () => {
	it.each(operations.map((entry) => [`${entry.resource} → ${entry.operation}`, entry] as const))(
		'%s says when to use it and what it returns, and n8n gives the model that',
		(_, { resource, operation, toolDescription }) => {
			expect(descriptionProblems(toolDescription)).toEqual([]);
			expect(toolDescriptionOf({ resource, operation })).toBe(toolDescription);
		},
	);

	it('the Description field is the tool’s alone: the node in a workflow has none', () => {
		expect(loaded(node, { resource: 'container', operation: 'get' }).parameters).not.toHaveProperty(
			'toolDescription',
		);
		expect(loaded(tool, { resource: 'container', operation: 'get' }).parameters).toHaveProperty(
			'toolDescription',
		);
	});

	it('a description the user writes wins', () => {
		const own = 'Use this when a dispatcher asks about a box. Returns it.';
		expect(
			toolDescriptionOf({ resource: 'container', operation: 'get', toolDescription: own }),
		).toBe(own);
	});

	it('fails on a planted mistake: missing, automatic, or saying nothing of when to use it', () => {
		expect(descriptionProblems('')).toEqual(['it is empty']);
		expect(descriptionProblems('Get a container in Container Tracking')).toEqual([
			"it is n8n's automatic one",
			'it does not say when to use it',
			'it does not say what it returns',
		]);
		expect(descriptionProblems('Returns a container with its holds.')).toEqual([
			'it does not say when to use it',
		]);
	});
});

// ---------------------------------------------------------------------------------------------
// The examples' tools: what the model is asked for

interface WorkflowNode {
	name: string;
	type: string;
	parameters: INodeParameters;
}

/** Each `$fromAI(...)` in a parameter value, with where it stands. */
function fromAiCalls(
	value: unknown,
	at: string[],
): Array<{ at: string[]; key: string; hint: string; inLocatorMode?: string }> {
	if (typeof value === 'string')
		return [...value.matchAll(/\$fromAI\(\s*(['"`])(.*?)\1\s*(?:,\s*(['"`])(.*?)\3)?/g)].map(
			(match) => ({ at, key: match[2], hint: match[4] ?? '' }),
		);
	if (Array.isArray(value))
		return value.flatMap((entry, index) => fromAiCalls(entry, [...at, String(index)]));
	if (typeof value === 'object' && value !== null) {
		const record = value as Record<string, unknown>;
		if (record.__rl === true)
			return fromAiCalls(record.value, [...at, 'value']).map((call) => ({
				...call,
				inLocatorMode: String(record.mode),
			}));
		return Object.entries(record).flatMap(([name, entry]) => fromAiCalls(entry, [...at, name]));
	}
	return [];
}

/** Locator modes that take what a person says; every other mode takes the service's id. */
const PERSON_MODES = new Set(['number']);

/**
 * Why a tool node of an example would ask the model for an internal id, or leave it without a
 * description that says when to use it.
 */
function toolNodeProblems(file: string, workflowNode: WorkflowNode): string[] {
	const problems = descriptionProblems(
		NodeHelpers.getToolDescriptionForNode(loaded(tool, workflowNode.parameters), tool),
	).map((problem) => `${file}: "${workflowNode.name}": its description: ${problem}`);
	for (const call of fromAiCalls(workflowNode.parameters, [])) {
		const where = `${file}: "${workflowNode.name}": $fromAI('${call.key}') in ${call.at.join('.')}`;
		if (call.inLocatorMode !== undefined && !PERSON_MODES.has(call.inLocatorMode))
			problems.push(`${where} asks for an id (locator mode "${call.inLocatorMode}")`);
		if (/(^|_|\b)(id|ids|uuid)($|_|\b)/i.test(call.key) || /\b(id|uuid)\b/i.test(call.hint))
			problems.push(`${where} asks for an id`);
	}
	return problems;
}

const examples = readdirSync(path.join(repoRoot, 'examples'))
	.filter((name) => name.endsWith('.json'))
	.map((name) => ({
		file: `examples/${name}`,
		workflow: JSON.parse(readFileSync(path.join(repoRoot, 'examples', name), 'utf8')) as {
			nodes?: WorkflowNode[];
		},
	}));

describe("the examples' tools", () => {
	it('each says when to use it and asks the model only for what a person says', () => {
		const problems = examples.flatMap(({ file, workflow }) =>
			(workflow.nodes ?? [])
				.filter((workflowNode) => workflowNode.type === TOOL_TYPE)
				.flatMap((workflowNode) => toolNodeProblems(file, workflowNode)),
		);
		expect(problems).toEqual([]);
	});

	it('fails on a planted mistake: an id asked for, by its locator mode or by its name', () => {
		const planted: WorkflowNode = {
			name: 'Box status',
			type: TOOL_TYPE,
			parameters: {
				resource: 'container',
				operation: 'get',
				containerId: {
					__rl: true,
					mode: 'id',
					value: "={{ $fromAI('container', 'The container', 'string') }}",
				},
			},
		};
		expect(toolNodeProblems('planted.json', planted)).toEqual([
			`planted.json: "Box status": $fromAI('container') in containerId.value asks for an id (locator mode "id")`,
		]);
		const byName: WorkflowNode = {
			...planted,
			parameters: {
				resource: 'shipment',
				operation: 'get',
				shipmentId: {
					__rl: true,
					mode: 'number',
					value: "={{ $fromAI('shipment_id', 'The shipment', 'string') }}",
				},
			},
		};
		expect(toolNodeProblems('planted.json', byName)).toEqual([
			`planted.json: "Box status": $fromAI('shipment_id') in shipmentId.value asks for an id`,
		]);
		const asPersonSays: WorkflowNode = {
			...planted,
			parameters: {
				...planted.parameters,
				containerId: {
					__rl: true,
					mode: 'number',
					value:
						"={{ $fromAI('container_number', 'The container number the person gave', 'string') }}",
				},
			},
		};
		expect(toolNodeProblems('planted.json', asPersonSays)).toEqual([]);
	});
});

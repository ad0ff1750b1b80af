import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { withOutageTolerance } from './common';
import { toolDescriptionField } from './tool';

/*
 * One operation is one module (actions/<resource>/<operation>.ts) exporting:
 * - `option`: how it is listed in the node's Operation field and in n8n's nodes panel;
 * - `toolDescription`: what an AI model reads of it when the node is a tool (actions/tool.ts):
 *   when to use it, then what it returns, in one or two sentences;
 * - `description`: its fields, each shown only for this resource and operation;
 * - `execute`: what it does for one input item.
 * A resource module (actions/<resource>/index.ts) registers its operations with `defineResource`:
 * the key is the operation's value, and a module missing one of the three fails the type check.
 */

export type OperationOption = Required<
	Pick<INodePropertyOptions, 'name' | 'action' | 'description'>
>;

export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

export interface OperationModule {
	option: OperationOption;
	toolDescription: string;
	description: INodeProperties[];
	execute: OperationExecute;
}

export interface Resource<
	Value extends string = string,
	Operations extends Record<string, OperationModule> = Record<string, OperationModule>,
> {
	value: Value;
	name: string;
	operations: Operations;
	/** The Operation field followed by every operation's fields. */
	description: INodeProperties[];
}

export function defineResource<
	const Value extends string,
	const Operations extends Record<string, OperationModule>,
>({
	value,
	name,
	operations,
	defaultOperation,
}: {
	value: Value;
	name: string;
	operations: Operations;
	defaultOperation: keyof Operations & string;
}): Resource<Value, Operations> {
	const options = Object.entries(operations)
		.map(([operation, module]) => ({ ...module.option, value: operation }))
		// n8n lists options alphabetically.
		.sort((a, b) => a.name.localeCompare(b.name));
	return {
		value,
		name,
		operations,
		description: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: [value] } },
				options,
				default: defaultOperation,
			},
			...Object.entries(operations).flatMap(([operation, module]) => [
				toolDescriptionField(value, operation, module.toolDescription),
				...withOutageTolerance(value, operation, module.description),
			]),
		],
	};
}

import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { asNodeError } from '../transport/errors';
import { container } from './container';
import type { OperationExecute, OperationModule, Resource } from './operation';
import { search } from './search';
import { shipment } from './shipment';
import { isToolRun } from '../n8nInternals';
import { toolAnswer, toolErrorAnswer } from './tool';
import { trackingRequest } from './trackingRequest';
import { vessel } from './vessel';
import { webhook } from './webhook';

/** Checks at compile time that each resource is registered under its own value. */
function keyedByValue<Resources extends { [Key in keyof Resources]: Resource<Key & string> }>(
	resources: Resources,
): Resources {
	return resources;
}

/** The node's resources, in the order their fields are listed. */
export const RESOURCES = keyedByValue({
	trackingRequest,
	container,
	shipment,
	search,
	vessel,
	webhook,
});

/**
 * Every resource and its operations as the type checker sees them, e.g.
 * `ContainerTrackingMap['webhook']` is `'create' | 'delete' | 'get' | 'getMany' | 'update'`:
 * taken from what each resource module registers, never written a second time.
 */
export type ContainerTrackingMap = {
	[Resource in keyof typeof RESOURCES]: keyof (typeof RESOURCES)[Resource]['operations'] & string;
};

export type ResourceName = keyof ContainerTrackingMap;

/** The Resource field, then every resource's Operation field and operation fields. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: Object.values(RESOURCES)
			.map(({ name, value }) => ({ name, value }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: 'trackingRequest',
	},
	...Object.values(RESOURCES).flatMap((resource) => resource.description),
];

function operationOf(resource: string, operation: string): OperationExecute | undefined {
	if (!Object.hasOwn(RESOURCES, resource)) return undefined;
	const operations: Record<string, OperationModule> =
		RESOURCES[resource as ResourceName].operations;
	return Object.hasOwn(operations, operation) ? operations[operation].execute : undefined;
}

/** With Continue On Fail: what failed, in the service's words, with the HTTP status. */
function errorItem(error: unknown): IDataObject {
	const json: IDataObject = { error: (error as Error).message };
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description) json.error_description = description;
	if (error instanceof NodeApiError && error.httpCode) json.http_code = error.httpCode;
	return json;
}

/**
 * Runs the chosen operation item by item: each input item gives its output items, and with
 * Continue On Fail a failed item gives an error item instead of stopping the run.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	// As a model's tool, an answer is small and a failure is an answer in words (actions/tool.ts).
	const asTool = isToolRun(this);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const execute = operationOf(resource, operation);
			if (!execute) {
				throw new NodeOperationError(
					this.getNode(),
					`The operation "${operation}" of "${resource}" is not supported`,
					{ itemIndex },
				);
			}
			const answered = await execute.call(this, itemIndex);
			output.push(
				...(asTool ? answered.map((item) => ({ ...item, json: toolAnswer(item.json) })) : answered),
			);
		} catch (error) {
			if (asTool) {
				output.push({ json: toolErrorAnswer(error), pairedItem: { item: itemIndex } });
				continue;
			}
			if (this.continueOnFail()) {
				output.push({ json: errorItem(error), pairedItem: { item: itemIndex } });
				continue;
			}
			throw asNodeError(this.getNode(), error, itemIndex);
		}
	}
	return [output];
}

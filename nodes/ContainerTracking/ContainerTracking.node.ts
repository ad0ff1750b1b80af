import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as container from './actions/container';
import * as shipment from './actions/shipment';
import * as trackingRequest from './actions/trackingRequest';
import * as webhook from './actions/webhook';
import { containerTrackingApiTest } from './methods/credentialTest';
import { searchContainers, searchTrackingRequests, searchWebhooks } from './methods/listSearch';
import { asNodeError } from './transport/errors';

type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

const OPERATIONS: Record<string, Record<string, OperationExecute>> = {
	trackingRequest: {
		create: trackingRequest.create.execute,
		get: trackingRequest.get.execute,
		getMany: trackingRequest.getMany.execute,
		inferNumber: trackingRequest.inferNumber.execute,
	},
	shipment: {
		get: shipment.get.execute,
	},
	container: {
		get: container.get.execute,
		getMany: container.getMany.execute,
		getRawEvents: container.getRawEvents.execute,
		getTransportEvents: container.getTransportEvents.execute,
	},
	webhook: {
		create: webhook.create.execute,
		delete: webhook.deleteWebhook.execute,
		get: webhook.get.execute,
		getMany: webhook.getMany.execute,
		update: webhook.update.execute,
	},
};

/** With Continue On Fail: what failed, in the service's words, with the HTTP status. */
function errorItem(error: unknown): IDataObject {
	const json: IDataObject = { error: (error as Error).message };
	const description = (error as { description?: unknown }).description;
	if (typeof description === 'string' && description) json.error_description = description;
	if (error instanceof NodeApiError && error.httpCode) json.http_code = error.httpCode;
	return json;
}

export class ContainerTracking implements INodeType {
	methods = {
		credentialTest: { containerTrackingApiTest },
		listSearch: { searchContainers, searchTrackingRequests, searchWebhooks },
	};

	description: INodeTypeDescription = {
		displayName: 'Container Tracking',
		name: 'containerTracking',
		icon: {
			light: 'file:../../icons/containerTracking.svg',
			dark: 'file:../../icons/containerTracking.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Track ocean containers: infer carriers, create tracking requests, read containers, events and webhooks',
		defaults: { name: 'Container Tracking' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'containerTrackingApi', required: true, testedBy: 'containerTrackingApiTest' },
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Container', value: 'container' },
					{ name: 'Shipment', value: 'shipment' },
					{ name: 'Tracking Request', value: 'trackingRequest' },
					{ name: 'Webhook', value: 'webhook' },
				],
				default: 'trackingRequest',
			},
			...trackingRequest.description,
			...container.description,
			...shipment.description,
			...webhook.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const resource = this.getNodeParameter('resource', itemIndex) as string;
				const operation = this.getNodeParameter('operation', itemIndex) as string;
				const run = OPERATIONS[resource]?.[operation];
				if (!run) {
					throw new NodeOperationError(
						this.getNode(),
						`The operation "${operation}" of "${resource}" is not supported`,
						{ itemIndex },
					);
				}
				output.push(...(await run.call(this, itemIndex)));
			} catch (error) {
				if (this.continueOnFail()) {
					output.push({ json: errorItem(error), pairedItem: { item: itemIndex } });
					continue;
				}
				throw asNodeError(this.getNode(), error, itemIndex);
			}
		}
		return [output];
	}
}

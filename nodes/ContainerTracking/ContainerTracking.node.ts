import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { properties, router } from './actions/router';
import { getShippingLines } from './actions/trackingRequest/create';
import {
	searchContainers,
	searchShipments,
	searchTrackingRequests,
	searchWebhooks,
} from './methods/listSearch';

export class ContainerTracking implements INodeType {
	methods = {
		listSearch: { searchContainers, searchShipments, searchTrackingRequests, searchWebhooks },
		loadOptions: { getShippingLines },
	};

	description: INodeTypeDescription = {
		displayName: 'Container Tracking',
		name: 'containerTracking',
		icon: {
			light: 'file:../../icons/containerTracking.svg',
			dark: 'file:../../icons/containerTracking.dark.svg',
		},
		group: ['transform'],
		// The editor's Docs link opens this as it is; the codex link (ContainerTracking*.node.json)
		// gets n8n's query appended, which after a #fragment would keep the anchor from landing.
		documentationUrl:
			'https://github.com/n8n-nodes-container-tracking/n8n-nodes-container-tracking#container-tracking-node',
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Track ocean containers: infer carriers, create tracking requests, read containers, events and webhooks',
		defaults: { name: 'Container Tracking' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'containerTrackingApi', required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

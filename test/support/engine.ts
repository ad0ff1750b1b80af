// Runs this package's nodes through n8n-core's real WorkflowExecute (CONTRIBUTING.md, "Suites"):
// parameters and expressions are resolved by n8n, credentials are applied by the generic
// `authenticate` block of our credential type, HTTP goes out through n8n's own request helper.
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodePropertyOptions,
	type INodeProperties,
	type INodeType,
	type IVersionedNodeType,
	type INodeTypes,
	type IRun,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { ContainerTrackingApi } from '../../credentials/ContainerTrackingApi.credentials';
import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';

export const PACKAGE = 'n8n-nodes-container-tracking';

const NODE_TYPES: Record<string, INodeType | IVersionedNodeType> = {
	[`${PACKAGE}.containerTracking`]: new ContainerTracking(),
	[`${PACKAGE}.containerTrackingTrigger`]: new ContainerTrackingTrigger(),
};

const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	containerTrackingApi: new ContainerTrackingApi(),
};

/** Makes another node type runnable by the harness (benchmarks add n8n's own nodes). */
export function registerNodeType(type: string, nodeType: INodeType | IVersionedNodeType): void {
	NODE_TYPES[type] = nodeType;
}

export const nodeTypes: INodeTypes = {
	getByName: (type) => NODE_TYPES[type],
	getByNameAndVersion: (type, version) =>
		NodeHelpers.getVersionedNodeType(NODE_TYPES[type], version),
	getKnownTypes: () => ({}),
};

/** Credentials as a user saved them; `authenticate` applies our credential type's generic block. */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = CREDENTIAL_TYPES[typeName];
		const authenticate = type?.authenticate;
		if (!authenticate || typeof authenticate === 'function' || !workflow || !node)
			return requestOptions;
		const headers: IDataObject = { ...(requestOptions.headers as IDataObject) };
		for (const [name, value] of Object.entries(authenticate.properties.headers ?? {})) {
			headers[name] = workflow.expression.getSimpleParameterValue(
				node,
				value as string,
				'internal',
				{
					$credentials: credentials,
				},
			) as string;
		}
		return { ...requestOptions, headers };
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by these tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const found = this.credentials[type];
		if (!found) throw new Error(`no test credentials of type ${type}`);
		return found;
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return CREDENTIAL_TYPES[type]?.properties ?? [];
	}
}

export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
	signatureHeader?: string;
}

export interface EngineOptions {
	/**
	 * Base of production webhook URLs (n8n's `N8N_WEBHOOK_URL` + `/webhook`), without a trailing
	 * slash. Defaults to an n8n on 127.0.0.1:5678; tests that need deliveries to reach them
	 * point it at their own HTTP bridge.
	 */
	webhookBaseUrl?: string;
	/**
	 * The workflow's id. A trigger's in-process memory (repeats, newest states) is per workflow
	 * and node, so harnesses that stand for unrelated workflows give each its own.
	 */
	workflowId?: string;
}

export const DEFAULT_WEBHOOK_BASE_URL = 'http://127.0.0.1:5678/webhook';

/** What n8n hands a node at run time, with the credentials a user saved. */
export function engineAdditionalData(
	hooks: ExecutionLifecycleHooks | undefined,
	credentials: TestCredentials,
	options: EngineOptions = {},
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper: new TestCredentialsHelper({
			containerTrackingApi: { signatureHeader: 'X-SVC-Webhook-Signature', ...credentials },
		}),
		executionId: 'engine-test-execution',
		currentNodeParameters: undefined,
		encryptedRunnerIdentity: undefined,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: options.webhookBaseUrl ?? DEFAULT_WEBHOOK_BASE_URL,
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		variables: {},
		userId: 'engine-test-user',
		setExecutionStatus: () => undefined,
		sendDataToUI: () => undefined,
		logAiEvent: () => undefined,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used here');
		},
		getRunExecutionData: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('task runners are not used here');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface EngineRun {
	/** Output items of the node under test (first output). */
	items: INodeExecutionData[];
	/** The error n8n recorded for the node, if it failed. */
	error: (Error & { description?: string; httpCode?: string; context?: IDataObject }) | undefined;
	run: IRun;
}

/**
 * Executes one Container Tracking node with `parameters` on `input` items, the way n8n runs a
 * node whose parent produced those items.
 */
export async function runContainerTrackingNode(
	parameters: INode['parameters'],
	input: IDataObject[],
	credentials: TestCredentials,
	nodeOptions: Partial<INode> = {},
): Promise<EngineRun> {
	return runNode(containerTrackingNode(parameters, nodeOptions), input, credentials);
}

/** A Container Tracking node as a saved workflow holds it, with its credential. */
function containerTrackingNode(
	parameters: INode['parameters'],
	nodeOptions: Partial<INode> = {},
): INode {
	return {
		id: 'b6f4d2c8-5c3e-4d59-9d1b-2f6f3c7a9e01',
		name: 'Container Tracking',
		type: `${PACKAGE}.containerTracking`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { containerTrackingApi: { id: 'cred-1', name: 'Container Tracking account' } },
		...nodeOptions,
	};
}

/** A workflow of one node, not published. */
function singleNodeWorkflow(node: INode, id: string): Workflow {
	return new Workflow({
		id,
		nodes: [node],
		connections: {},
		nodeTypes,
		active: false,
	});
}

/**
 * Executes any registered node on `input` items through WorkflowExecute; `mode` as n8n says it
 * ('webhook' for an execution a delivery started).
 */
export async function runNode(
	node: INode,
	input: IDataObject[],
	credentials: TestCredentials,
	mode: 'manual' | 'webhook' = 'manual',
	workflowId = 'engine-test',
): Promise<EngineRun> {
	const workflow = singleNodeWorkflow(node, workflowId);
	const hooks = new ExecutionLifecycleHooks(mode, 'engine-test-execution', {
		id: workflowId,
		name: 'engine test',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [node],
		connections: {},
		activeVersionId: null,
	} as never);
	const finished = new Promise<IRun>((resolve) => {
		hooks.addHandler('workflowExecuteAfter', (run) => resolve(run));
	});
	const additionalData = engineAdditionalData(hooks, credentials);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node,
					data: { main: [input.map((json, index) => ({ json, pairedItem: { item: index } }))] },
					source: null,
				},
			],
		},
	});
	const execute = new WorkflowExecute(additionalData, mode, runExecutionData);
	await execute.processRunExecutionData(workflow);
	const run = await finished;
	const nodeRun = run.data.resultData.runData[node.name]?.[0];
	return {
		items: nodeRun?.data?.main?.[0] ?? [],
		error: (nodeRun?.error ?? run.data.resultData.error) as EngineRun['error'],
		run,
	};
}

/** What n8n's editor hands the node's methods: a load-options context with the credential. */
function loadOptionsContext(credentials: TestCredentials): LoadOptionsContext {
	const node = containerTrackingNode({});
	return new LoadOptionsContext(
		singleNodeWorkflow(node, 'engine-test'),
		node,
		engineAdditionalData(undefined, credentials),
		'parameters',
	);
}

/** Calls one of the Container Tracking node's option lists (a dynamic Options field's choices). */
export async function loadOptionsWithNode(
	method: string,
	credentials: TestCredentials,
): Promise<INodePropertyOptions[]> {
	const load = new ContainerTracking().methods.loadOptions[
		method as keyof ContainerTracking['methods']['loadOptions']
	];
	return await load.call(loadOptionsContext(credentials));
}

/** Calls one of the trigger's option lists (its Events choices). */
export async function triggerLoadOptionsWithNode(
	method: string,
	credentials: TestCredentials,
): Promise<INodePropertyOptions[]> {
	const load = new ContainerTrackingTrigger().methods.loadOptions[
		method as keyof ContainerTrackingTrigger['methods']['loadOptions']
	];
	return await load.call(loadOptionsContext(credentials));
}

/**
 * Calls one of the Container Tracking node's list searches (the "From list" mode of a resource
 * locator) the way n8n's editor does: with the text typed and the token of the page before.
 */
export async function searchWithNode(
	method: string,
	credentials: TestCredentials,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const context = loadOptionsContext(credentials);
	const search = new ContainerTracking().methods.listSearch[
		method as keyof ContainerTracking['methods']['listSearch']
	];
	return await search.call(context, filter, paginationToken);
}

// Runs the Container Tracking Trigger the way n8n does: webhook methods through n8n-core's
// HookContext (activation), deliveries through its WebhookContext, with the node's static
// data kept in a Workflow object between calls, as n8n keeps it between deliveries; the
// execution a delivery starts through WorkflowExecute.
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
import { EventEmitter } from 'node:events';

import { HookContext, TriggerContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type IWebhookData,
	type IWebhookResponseData,
	type WorkflowActivateMode,
} from 'n8n-workflow';

import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import {
	DEFAULT_WEBHOOK_BASE_URL,
	engineAdditionalData,
	nodeTypes,
	PACKAGE,
	runNode,
	type EngineOptions,
	type EngineRun,
	type TestCredentials,
} from './engine';

export const TRIGGER_WEBHOOK_ID = '6f1c1b3e-2f0a-4c59-8a57-3f7d7a9b2c10';

export interface SentResponse {
	status: number;
	body: unknown;
	ended: boolean;
}

export interface Watch {
	/**
	 * The executions the watch started, one entry per emit, in order: what the trigger put out in
	 * each, once it ran (empty until then).
	 */
	emitted: Array<{ items: IDataObject[]; deduplicationKey?: string }>;
	close(): Promise<void>;
}

/**
 * What n8n answers a delivery that started an execution, once it created it: 200, or an error
 * when creating it failed (the database was busy, say); `cut`: it created and ran the execution,
 * but the service had closed the connection (its timeout) before the answer went out; `gone`: the
 * service had closed it already while the delivery waited for its batch, before the node handed
 * n8n the batch; n8n creates the execution and a worker runs it (queue mode), not this process.
 */
export type CreationAnswer = 200 | 500 | 503 | 'cut' | 'gone';

export class TriggerHarness {
	readonly node: INode;
	readonly workflow: Workflow;
	/** What n8n answers the next deliveries that start an execution (see CreationAnswer). */
	creationAnswer: CreationAnswer = 200;
	/** How long n8n takes to create an execution before it answers (a busy n8n takes seconds). */
	creationMs = 0;
	private readonly trigger = new ContainerTrackingTrigger();

	constructor(
		parameters: INode['parameters'],
		private readonly credentials: TestCredentials,
		staticData: IDataObject = {},
		private readonly engineOptions: EngineOptions = {},
		typeVersion = 1.1,
	) {
		this.node = {
			id: '1c7f0d52-8a2e-4b8e-9a1e-2d3c4b5a6f70',
			name: 'Container Tracking Trigger',
			type: `${PACKAGE}.containerTrackingTrigger`,
			typeVersion,
			position: [0, 0],
			webhookId: TRIGGER_WEBHOOK_ID,
			parameters,
			credentials: { containerTrackingApi: { id: 'cred-1', name: 'Container Tracking account' } },
		};
		this.workflow = new Workflow({
			id: engineOptions.workflowId ?? 'trigger-test',
			nodes: [this.node],
			connections: {},
			nodeTypes,
			active: true,
			staticData: { [`node:${this.node.name}`]: staticData },
		});
	}

	/** The URL n8n registers: `<webhook base>/<webhookId>/webhook`. */
	get webhookUrl(): string {
		return `${this.engineOptions.webhookBaseUrl ?? DEFAULT_WEBHOOK_BASE_URL}/${TRIGGER_WEBHOOK_ID}/webhook`;
	}

	get staticData(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	private webhookData(): IWebhookData {
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: `${TRIGGER_WEBHOOK_ID}/webhook`,
			webhookDescription: this.trigger.description.webhooks![0],
			workflowId: 'trigger-test',
			workflowExecuteAdditionalData: engineAdditionalData(
				undefined,
				this.credentials,
				this.engineOptions,
			),
			webhookId: TRIGGER_WEBHOOK_ID,
		};
	}

	/** Calls checkExists, create or delete as n8n does when the workflow is (de)activated. */
	async hook(method: 'checkExists' | 'create' | 'delete'): Promise<boolean> {
		const context = new HookContext(
			this.workflow,
			this.node,
			engineAdditionalData(undefined, this.credentials, this.engineOptions),
			'trigger',
			'activate',
			this.webhookData(),
		);
		return this.trigger.webhookMethods.default[method].call(context);
	}

	/** n8n's activation: checkExists, then create when it answered false. */
	async activate(): Promise<void> {
		if (!(await this.hook('checkExists'))) await this.hook('create');
	}

	/**
	 * Starts the node's watch as n8n does for an active workflow (`trigger()` through n8n-core's
	 * TriggerContext), activated as `activationMode` says (a person turning it on by default;
	 * `init` at n8n's start, `update` when it is published again); every emit starts an execution, kept with its deduplication key, until
	 * `close`.
	 */
	async watch(activationMode: WorkflowActivateMode = 'activate'): Promise<Watch> {
		const emitted: Watch['emitted'] = [];
		const context = new TriggerContext(
			this.workflow,
			this.node,
			engineAdditionalData(undefined, this.credentials, this.engineOptions),
			'trigger',
			activationMode,
			(data, _response, _done, deduplicationKey) => {
				const execution: Watch['emitted'][number] = { items: [], deduplicationKey };
				emitted.push(execution);
				void this.run((data[0] ?? []).map((item) => item.json)).then((run) => {
					execution.items = run.items.map((item) => item.json);
				});
			},
		);
		const response = await this.trigger.trigger.call(context);
		return { emitted, close: async () => await response.closeFunction?.() };
	}

	/**
	 * The trigger's functions as n8n lends them to an active workflow's `trigger()` (the watch's),
	 * with what it hands over kept in `emitted` (item JSON per execution), not run.
	 */
	triggerContext(): { context: TriggerContext; emitted: IDataObject[][] } {
		const emitted: IDataObject[][] = [];
		const context = new TriggerContext(
			this.workflow,
			this.node,
			engineAdditionalData(undefined, this.credentials, this.engineOptions),
			'trigger',
			'activate',
			(data) => emitted.push((data[0] ?? []).map((item) => item.json)),
		);
		return { context, emitted };
	}

	/**
	 * The execution a delivery started, as n8n runs it: the trigger's `execute` with the items
	 * its `webhook` returned.
	 */
	async run(items: IDataObject[]): Promise<EngineRun> {
		return await runNode(this.node, items, this.credentials, 'webhook', this.workflow.id);
	}

	/**
	 * One delivery as n8n's webhook server hands it to the node, and the execution it started:
	 * `items` are what the trigger puts out in it (none when it started none), `carried` what
	 * `webhook` handed the execution. n8n answers a delivery that starts an execution once it
	 * created it (`creationAnswer`); the answer object is an event emitter, as Express's is, so
	 * the node can tell when that happened.
	 */
	async deliver(
		rawBody: Buffer | string,
		headers: Record<string, string>,
	): Promise<{
		result: IWebhookResponseData;
		sent: SentResponse | undefined;
		items: IDataObject[];
		carried: IDataObject[];
	}> {
		const raw = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
		const lowerCased = Object.fromEntries(
			Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
		);
		let body: unknown = {};
		try {
			body = JSON.parse(raw.toString('utf8'));
		} catch {
			body = {};
		}
		let sent: SentResponse | undefined;
		const response = Object.assign(new EventEmitter(), {
			statusCode: 200,
			destroyed: false,
			status(code: number) {
				sent = { status: code, body: undefined, ended: false };
				response.statusCode = code;
				return response;
			},
			json(value: unknown) {
				sent = { ...(sent ?? { status: 200, ended: false }), body: value };
				return response;
			},
			send(value: unknown) {
				sent = { ...(sent ?? { status: 200, body: undefined, ended: false }), body: value };
				return response;
			},
			end() {
				sent = { ...(sent ?? { status: 200, body: undefined }), ended: true };
				response.emit('finish');
				return response;
			},
		});
		const request = {
			body,
			headers: lowerCased,
			query: {},
			params: {},
			rawBody: raw,
			header: (name: string) => lowerCased[name.toLowerCase()],
		};
		const context = new WebhookContext(
			this.workflow,
			this.node,
			{
				...engineAdditionalData(undefined, this.credentials, this.engineOptions),
				httpRequest: request,
				httpResponse: response,
			} as never,
			'webhook',
			this.webhookData(),
			[],
			null,
		);
		if (this.creationAnswer === 'gone') {
			// As Node does: the closed connection's answer is destroyed, and `close` was emitted once.
			response.destroyed = true;
			response.emit('close');
		}
		const result = await this.trigger.webhook.call(context);
		const carried = (result.workflowData?.[0] ?? []).map((item) => item.json);
		// n8n answers the node's own way (noWebhookResponse), or once it created the execution.
		const cut = result.workflowData !== undefined && this.creationAnswer === 'cut';
		if (this.creationAnswer === 'gone') return { result, sent, items: [], carried };
		if (!result.noWebhookResponse) {
			const status = result.workflowData && !cut ? (this.creationAnswer as number) : 200;
			response.statusCode = status;
			const answered = () => response.emit('finish');
			// Cut: the service's timeout closed the connection while n8n was creating the execution.
			if (cut) response.emit('close');
			else if (result.workflowData && this.creationMs > 0) setTimeout(answered, this.creationMs);
			else setImmediate(answered);
		}
		if (!result.workflowData || (this.creationAnswer !== 200 && !cut))
			return { result, sent, items: [], carried };
		// n8n runs an execution once it created it.
		if (!cut && this.creationMs > 0)
			await new Promise((resolve) => setTimeout(resolve, this.creationMs));
		const run = await this.run(carried);
		if (run.error) throw run.error;
		return { result, sent, items: run.items.map((item) => item.json), carried };
	}
}

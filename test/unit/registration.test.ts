// The trigger's webhook registration on its own
// (nodes/ContainerTracking/trigger/registration/registration.ts): checkExists, create and delete
// against an in-memory stand-in for the service's /webhooks, which records every call the node
// makes. No sandbox, no HTTP server: the stand-in answers the node's
// `helpers.httpRequestWithAuthentication` as the service would, and can lose an answer after doing
// the work, as a dropped connection does. (Against the sandbox: test/engine/trigger.test.ts.)
import { randomBytes } from 'node:crypto';

import type {
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeParameters,
} from 'n8n-workflow';

import {
	createTriggerWebhook,
	deleteTriggerWebhook,
	webhookExists,
} from '../../nodes/ContainerTracking/trigger/registration/registration';
import { byClock, generous } from '../support/bounds';

const BASE_URL = 'https://service.test/v2';
const NODE_URL = 'https://n8n.example.com/webhook/6f1c1b3e/webhook';
const EVENTS = ['container.updated', 'container.transport.available'];
/**
 * A call whose answer was lost is sent again after the transport's first backoff, at most 500 ms
 * (BACKOFF_FIRST_MS in transport/circuit.ts): a real wait, then the stand-in answers at once.
 */
const LOST_ANSWER_MS = byClock(500) + generous(1_000);

interface Webhook {
	id: string;
	type: 'webhook';
	attributes: IDataObject;
}

interface Call {
	method: string;
	/** The path under /v2, without the query. */
	path: string;
	/** For lists: the page asked for. */
	page?: number;
	body?: IDataObject;
}

/** What a call meets before or after the service handled it. */
type Loss = 'dropped' | 'HTTP 502';

interface Answer {
	statusCode: number;
	headers: Record<string, string>;
	body: string;
}

const json = (statusCode: number, document?: unknown): Answer => ({
	statusCode,
	headers: { 'content-type': 'application/vnd.api+json' },
	body: document === undefined ? '' : JSON.stringify(document),
});

const notFound = () =>
	json(404, { errors: [{ status: '404', title: 'Not Found', detail: 'Not found' }] });

let services = 0;

/** The service's /webhooks for one account, in memory. */
function fakeService() {
	const webhooks = new Map<string, Webhook>();
	const calls: Call[] = [];
	/** Losses for the next calls of a method: `before` the service handles it, or `after`. */
	const losses: Array<{ method: string; when: 'before' | 'after'; loss: Loss }> = [];
	let created = 0;
	const service = {
		// Each service has its own API key, so that the node's rate gates never carry over.
		apiKey: `key-${++services}`,
		calls,
		/** Creates answer without a secret from now on. */
		secretless: false,
		webhooks: () => [...webhooks.values()],
		get: (id: string) => webhooks.get(id),
		add(attributes: IDataObject, id = `wh-${++created}`): Webhook {
			const webhook: Webhook = {
				id,
				type: 'webhook',
				attributes: {
					active: true,
					secret: randomBytes(32).toString('hex'),
					headers: null,
					created_at: '2026-01-05T10:00:00Z',
					...attributes,
				},
			};
			webhooks.set(id, webhook);
			return webhook;
		},
		lose(method: string, when: 'before' | 'after', loss: Loss = 'dropped') {
			losses.push({ method, when, loss });
		},
		async answer(options: IHttpRequestOptions): Promise<Answer> {
			const method = options.method ?? 'GET';
			const url = new URL(options.url);
			const path = url.pathname.replace(/^\/v2/, '');
			const query = { ...Object.fromEntries(url.searchParams), ...(options.qs ?? {}) };
			const body =
				typeof options.body === 'string' ? (JSON.parse(options.body) as IDataObject) : undefined;
			const call: Call = { method, path };
			if (query['page[number]'] !== undefined) call.page = Number(query['page[number]']);
			if (body !== undefined) call.body = body;
			calls.push(call);
			const index = losses.findIndex((loss) => loss.method === method);
			const loss = index >= 0 ? losses.splice(index, 1)[0] : undefined;
			if (loss?.when === 'before') return lost(loss.loss);
			const answer = handle(method, path, query, body);
			return loss ? lost(loss.loss) : answer;
		},
	};

	function lost(loss: Loss): Answer {
		if (loss === 'HTTP 502') return json(502, { errors: [{ status: '502' }] });
		throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
	}

	function handle(method: string, path: string, query: IDataObject, body?: IDataObject): Answer {
		const attributes = ((body?.data as IDataObject | undefined)?.attributes ?? {}) as IDataObject;
		if (path === '/webhooks' && method === 'GET') {
			const size = Math.min(100, Number(query['page[size]'] ?? 25));
			const number = Number(query['page[number]'] ?? 1);
			const all = service.webhooks();
			const last = Math.max(1, Math.ceil(all.length / size));
			const links: IDataObject = {};
			if (number < last)
				links.next = `${BASE_URL}/webhooks?page[number]=${number + 1}&page[size]=${size}`;
			return json(200, {
				data: all.slice((number - 1) * size, number * size),
				links,
				meta: { total: all.length },
			});
		}
		if (path === '/webhooks' && method === 'POST') {
			const webhook = service.add({ active: true, ...attributes });
			if (service.secretless) delete webhook.attributes.secret;
			return json(201, { data: webhook });
		}
		const id = /^\/webhooks\/([^/]+)$/.exec(path)?.[1];
		const webhook = id === undefined ? undefined : webhooks.get(decodeURIComponent(id));
		if (!webhook) return notFound();
		if (method === 'GET') return json(200, { data: webhook });
		if (method === 'PATCH') {
			webhook.attributes = { ...webhook.attributes, ...attributes };
			return json(200, { data: webhook });
		}
		if (method === 'DELETE') {
			webhooks.delete(webhook.id);
			return json(204);
		}
		return notFound();
	}

	return service;
}

type Service = ReturnType<typeof fakeService>;

const node: INode = {
	id: '1c7f0d52-8a2e-4b8e-9a1e-2d3c4b5a6f70',
	name: 'Container Tracking Trigger',
	type: 'n8n-nodes-container-tracking.containerTrackingTrigger',
	typeVersion: 1.1,
	position: [0, 0],
	parameters: {},
};

/** The hook context n8n gives the node on (de)activation, as far as registration reads it. */
function hookContext(
	service: Service,
	{
		parameters = {},
		staticData = {},
	}: { parameters?: INodeParameters; staticData?: IDataObject } = {},
): IHookFunctions {
	const values: INodeParameters = { registration: 'automatic', events: EVENTS, ...parameters };
	return {
		getNodeParameter: (name: string, fallback?: unknown) => values[name] ?? fallback,
		getWorkflowStaticData: () => staticData,
		getNodeWebhookUrl: () => NODE_URL,
		getNode: () => node,
		getWorkflow: () => ({ id: 'registration-test' }),
		getCredentials: async () => ({ apiKey: service.apiKey, baseUrl: BASE_URL }),
		logger: { warn: () => undefined, debug: () => undefined },
		helpers: {
			httpRequestWithAuthentication: async (_credential: string, options: IHttpRequestOptions) =>
				service.answer(options),
		},
	} as unknown as IHookFunctions;
}

/** The calls in short: `GET /webhooks/wh-1`, `GET /webhooks (page 2)`, `POST /webhooks`. */
const made = (service: Service) =>
	service.calls.map(
		(call) => `${call.method} ${call.path}${call.page === undefined ? '' : ` (page ${call.page})`}`,
	);

const writeBody = (attributes: IDataObject) => ({ data: { type: 'webhook', attributes } });

const sorted = (events: unknown) => [...(events as string[])].sort();

describe('trigger webhook registration', () => {
	describe('checkExists', () => {
		it('a stored webhook with this URL and these events is there: one read, nothing changed', async () => {
			const service = fakeService();
			// The service may list the events in another order: the same subscription.
			const webhook = service.add({ url: NODE_URL, events: [...EVENTS].reverse() });
			const staticData = { webhookId: webhook.id, webhookSecret: webhook.attributes.secret };
			expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(true);
			expect(made(service)).toEqual([`GET /webhooks/${webhook.id}`]);
			expect(staticData).toEqual({
				webhookUrl: NODE_URL,
				webhookId: webhook.id,
				webhookSecret: webhook.attributes.secret,
			});
		});

		it.each([
			['other events', { events: ['container.updated', 'shipment.estimated.arrival'] }],
			['fewer events', { events: ['container.updated'] }],
			['its events but switched off', { active: false }],
		])(
			'a stored webhook with %s is brought in line by one PATCH: exactly these events, active',
			async (_case, differences) => {
				const service = fakeService();
				const webhook = service.add({ url: NODE_URL, events: EVENTS, ...differences });
				const secret = webhook.attributes.secret;
				const staticData = { webhookId: webhook.id, webhookSecret: secret };
				expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(true);
				expect(made(service)).toEqual([
					`GET /webhooks/${webhook.id}`,
					`PATCH /webhooks/${webhook.id}`,
				]);
				expect(service.calls[1].body).toEqual(writeBody({ events: EVENTS, active: true }));
				expect(service.webhooks()).toHaveLength(1);
				expect(sorted(service.get(webhook.id)!.attributes.events)).toEqual(sorted(EVENTS));
				expect(service.get(webhook.id)!.attributes.active).toBe(true);
				expect(staticData).toEqual({
					webhookId: webhook.id,
					webhookSecret: secret,
					webhookUrl: NODE_URL,
				});
			},
		);

		it('a stored webhook the service no longer has: forgotten, and nothing for the URL means false', async () => {
			const service = fakeService();
			service.add({ url: 'https://other.example.com/hook', events: EVENTS });
			const staticData: IDataObject = { webhookId: 'wh-gone', webhookSecret: 'old-secret' };
			expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(false);
			expect(made(service)).toEqual(['GET /webhooks/wh-gone', 'GET /webhooks (page 1)']);
			expect(staticData).toEqual({});
		});

		it('a stored webhook the service no longer has, but another one for this URL: that one is adopted', async () => {
			const service = fakeService();
			const webhook = service.add({ url: NODE_URL, events: EVENTS });
			const staticData: IDataObject = { webhookId: 'wh-gone', webhookSecret: 'old-secret' };
			expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(true);
			expect(made(service)).toEqual(['GET /webhooks/wh-gone', 'GET /webhooks (page 1)']);
			expect(staticData).toEqual({
				webhookUrl: NODE_URL,
				webhookId: webhook.id,
				webhookSecret: webhook.attributes.secret,
			});
		});

		it('a stored id naming a webhook for another URL (a copied workflow) is left alone', async () => {
			const service = fakeService();
			const theirs = service.add({
				url: 'https://n8n.example.com/webhook/original/webhook',
				events: ['container.updated'],
			});
			const staticData: IDataObject = {
				webhookId: theirs.id,
				webhookSecret: theirs.attributes.secret,
			};
			expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(false);
			expect(made(service)).toEqual([`GET /webhooks/${theirs.id}`, 'GET /webhooks (page 1)']);
			expect(service.get(theirs.id)!.attributes.events).toEqual(['container.updated']);
			expect(staticData).toEqual({});
		});

		it('with no static data, the webhook for this URL is adopted from the second page of the list, secret included', async () => {
			const service = fakeService();
			for (let index = 0; index < 100; index++)
				service.add({ url: `https://elsewhere.example.com/${index}`, events: EVENTS });
			const webhook = service.add({ url: NODE_URL, events: EVENTS });
			const staticData: IDataObject = {};
			expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(true);
			expect(made(service)).toEqual(['GET /webhooks (page 1)', 'GET /webhooks (page 2)']);
			expect(staticData).toEqual({
				webhookUrl: NODE_URL,
				webhookId: webhook.id,
				webhookSecret: webhook.attributes.secret,
			});
			expect(service.webhooks()).toHaveLength(101);
		});

		it('an adopted webhook with other events is brought in line by one PATCH', async () => {
			const service = fakeService();
			const webhook = service.add({ url: NODE_URL, events: ['container.updated'], active: false });
			const staticData: IDataObject = {};
			expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(true);
			expect(made(service)).toEqual(['GET /webhooks (page 1)', `PATCH /webhooks/${webhook.id}`]);
			expect(service.calls[1].body).toEqual(writeBody({ events: EVENTS, active: true }));
			expect(staticData.webhookId).toBe(webhook.id);
		});

		it('a webhook for this URL without a secret is not adopted: deliveries could not be checked', async () => {
			const service = fakeService();
			const webhook = service.add({ url: NODE_URL, events: EVENTS });
			delete webhook.attributes.secret;
			const staticData: IDataObject = {};
			expect(await webhookExists.call(hookContext(service, { staticData }))).toBe(false);
			expect(staticData).toEqual({});
		});
	});

	describe('create', () => {
		it('registers one webhook for the URL with exactly these events, and keeps its id and secret', async () => {
			const service = fakeService();
			const staticData: IDataObject = {};
			expect(await createTriggerWebhook.call(hookContext(service, { staticData }))).toBe(true);
			expect(made(service)).toEqual(['GET /webhooks (page 1)', 'POST /webhooks']);
			expect(service.calls[1].body).toEqual(
				writeBody({ url: NODE_URL, events: EVENTS, active: true }),
			);
			const [webhook] = service.webhooks();
			expect(service.webhooks()).toHaveLength(1);
			expect(staticData).toEqual({
				webhookUrl: NODE_URL,
				webhookId: webhook.id,
				webhookSecret: webhook.attributes.secret,
			});
		});

		const lookedUp = ['GET /webhooks (page 1)', 'POST /webhooks', 'GET /webhooks (page 1)'];
		it.each<['before' | 'after', Loss, string[]]>([
			// Done, answer lost: the list read before the repeat shows it, and it is adopted.
			['after', 'dropped', lookedUp],
			['after', 'HTTP 502', lookedUp],
			// Not done: the list shows nothing new, and the POST is sent again.
			['before', 'dropped', [...lookedUp, 'POST /webhooks']],
		])(
			'a POST lost %s the service handled it (%s) leaves one webhook, and its id and secret stored',
			async (when, loss, calls) => {
				const service = fakeService();
				service.lose('POST', when, loss);
				const staticData: IDataObject = {};
				expect(await createTriggerWebhook.call(hookContext(service, { staticData }))).toBe(true);
				expect(made(service)).toEqual(calls);
				expect(service.webhooks()).toHaveLength(1);
				const [webhook] = service.webhooks();
				expect(webhook.attributes).toMatchObject({ url: NODE_URL, active: true });
				expect(staticData).toEqual({
					webhookUrl: NODE_URL,
					webhookId: webhook.id,
					webhookSecret: webhook.attributes.secret,
				});
			},
			LOST_ANSWER_MS,
		);

		it(
			'a lost answer adopts the webhook it created, not one that was there for the URL before',
			async () => {
				const service = fakeService();
				const before = service.add({ url: NODE_URL, events: EVENTS });
				delete before.attributes.secret;
				service.lose('POST', 'after');
				const staticData: IDataObject = {};
				expect(await createTriggerWebhook.call(hookContext(service, { staticData }))).toBe(true);
				const created = service.webhooks().filter((webhook) => webhook.id !== before.id);
				expect(created).toHaveLength(1);
				expect(staticData).toEqual({
					webhookUrl: NODE_URL,
					webhookId: created[0].id,
					webhookSecret: created[0].attributes.secret,
				});
			},
			LOST_ANSWER_MS,
		);

		it('with no event chosen nothing is registered', async () => {
			const service = fakeService();
			await expect(
				createTriggerWebhook.call(hookContext(service, { parameters: { events: [] } })),
			).rejects.toThrow('Choose at least one event');
			expect(service.calls).toEqual([]);
		});

		it('a webhook created without a secret is an error, and nothing is stored', async () => {
			const service = fakeService();
			service.secretless = true;
			const staticData: IDataObject = {};
			await expect(createTriggerWebhook.call(hookContext(service, { staticData }))).rejects.toThrow(
				'without a secret',
			);
			expect(staticData).toEqual({});
		});
	});

	describe('delete', () => {
		it('deletes the stored webhook and forgets its id and secret', async () => {
			const service = fakeService();
			const other = service.add({ url: 'https://elsewhere.example.com/hook', events: EVENTS });
			const webhook = service.add({ url: NODE_URL, events: EVENTS });
			const staticData: IDataObject = {
				webhookId: webhook.id,
				webhookSecret: webhook.attributes.secret,
			};
			expect(await deleteTriggerWebhook.call(hookContext(service, { staticData }))).toBe(true);
			expect(made(service)).toEqual([`DELETE /webhooks/${webhook.id}`]);
			expect(service.webhooks()).toEqual([other]);
			expect(staticData).toEqual({});
		});

		it('a webhook already gone (404) is not an error, and is forgotten', async () => {
			const service = fakeService();
			const staticData: IDataObject = { webhookId: 'wh-gone', webhookSecret: 'old-secret' };
			expect(await deleteTriggerWebhook.call(hookContext(service, { staticData }))).toBe(true);
			expect(made(service)).toEqual(['DELETE /webhooks/wh-gone']);
			expect(staticData).toEqual({});
		});

		it('with nothing stored, nothing is called', async () => {
			const service = fakeService();
			service.add({ url: NODE_URL, events: EVENTS });
			expect(await deleteTriggerWebhook.call(hookContext(service))).toBe(true);
			expect(service.calls).toEqual([]);
			expect(service.webhooks()).toHaveLength(1);
		});
	});

	it('with a webhook made elsewhere (registration "existing"), the service is never called', async () => {
		const service = fakeService();
		const webhook = service.add({ url: NODE_URL, events: ['container.updated'], active: false });
		const staticData: IDataObject = { webhookId: webhook.id, webhookSecret: 'kept' };
		const context = hookContext(service, {
			parameters: { registration: 'existing', events: [] },
			staticData,
		});
		expect(await webhookExists.call(context)).toBe(true);
		expect(await createTriggerWebhook.call(context)).toBe(true);
		expect(await deleteTriggerWebhook.call(context)).toBe(true);
		expect(service.calls).toEqual([]);
		expect(service.webhooks()).toEqual([webhook]);
		expect(staticData).toEqual({
			webhookId: webhook.id,
			webhookSecret: 'kept',
			webhookUrl: NODE_URL,
		});
	});
});

// A webhook URL the service cannot reach
// (nodes/ContainerTracking/trigger/registration/registration.ts, refuseUnreachableUrl): on
// activation, a loopback, private or local webhook URL while the credential's Base URL is public
// fails checkExists and create before any call, with a warning in n8n's log naming the URL and
// N8N_WEBHOOK_URL; the sandbox (both on loopback) goes on.
import type {
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	INodeParameters,
} from 'n8n-workflow';

import {
	createTriggerWebhook,
	webhookExists,
} from '../../nodes/ContainerTracking/trigger/registration/registration';

const PUBLIC_BASE = 'https://api.example.com/v2';
const SANDBOX_BASE = 'http://127.0.0.1:4010/v2';
const PATH = '/webhook/6f1c1b3e-2f0a-4c59-8a57-3f7d7a9b2c10/webhook';

/** The node n8n names in an error: only its name and type are read. */
const node = { name: 'Container Tracking Trigger', type: 'containerTrackingTrigger' } as INode;

let keys = 0;

/** A hook context whose service has no webhooks yet and creates one on POST. */
function activation(
	webhookUrl: string,
	baseUrl: string,
	parameters: INodeParameters = {},
): {
	context: IHookFunctions;
	warnings: Array<{ message: string; meta: unknown }>;
	calls: string[];
} {
	const warnings: Array<{ message: string; meta: unknown }> = [];
	const calls: string[] = [];
	const values: INodeParameters = {
		registration: 'automatic',
		events: ['container.updated'],
		...parameters,
	};
	const staticData: IDataObject = {};
	const apiKey = `reachability-key-${++keys}`;
	const answer = (statusCode: number, document: unknown) => ({
		statusCode,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(document),
	});
	const context = {
		getNodeParameter: (name: string, fallback?: unknown) => values[name] ?? fallback,
		getWorkflowStaticData: () => staticData,
		getNodeWebhookUrl: () => webhookUrl,
		getNode: () => node,
		getWorkflow: () => ({ id: 'reachability-test' }),
		getCredentials: async () => ({ apiKey, baseUrl }),
		logger: {
			warn: (message: string, meta: unknown) => warnings.push({ message, meta }),
			debug: () => undefined,
		},
		helpers: {
			httpRequestWithAuthentication: async (_credential: string, options: IHttpRequestOptions) => {
				calls.push(`${options.method} ${new URL(options.url).pathname}`);
				if (options.method === 'POST')
					return answer(201, {
						data: {
							id: 'wh-1',
							type: 'webhook',
							attributes: { url: webhookUrl, events: values.events, active: true, secret: 's' },
						},
					});
				return answer(200, { data: [], links: {}, meta: { total: 0 } });
			},
		},
	} as unknown as IHookFunctions;
	return { context, warnings, calls };
}

describe('trigger activation: a webhook URL the service cannot reach', () => {
	it.each([
		[`http://127.0.0.1:5678${PATH}`, '127.0.0.1 is a loopback address (127.0.0.0/8)'],
		[`http://localhost:5678${PATH}`, 'localhost is a name of the machine n8n runs on'],
		[`http://[::1]:5678${PATH}`, '::1 is the loopback address'],
		[`http://192.168.1.20:5678${PATH}`, '192.168.1.20 is a private address (192.168.0.0/16)'],
		[`http://10.0.0.7${PATH}`, '10.0.0.7 is a private address (10.0.0.0/8)'],
		[`http://[fd00::7]${PATH}`, 'fd00::7 is a unique local address (fc00::/7)'],
		[`http://n8n:5678${PATH}`, 'n8n is a single-label host name'],
	])(
		'%s with a public Base URL: checkExists and create fail before any call, naming the URL and N8N_WEBHOOK_URL',
		async (webhookUrl, reason) => {
			for (const hook of [webhookExists, createTriggerWebhook]) {
				const { context, warnings, calls } = activation(webhookUrl, PUBLIC_BASE);
				const failure = hook.call(context);
				await expect(failure).rejects.toThrow(
					`The service at api.example.com cannot reach this workflow's webhook URL ${webhookUrl}: ${reason}`,
				);
				await expect(failure).rejects.toThrow("; set n8n's N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x)");
				await expect(failure).rejects.toMatchObject({
					name: 'NodeOperationError',
					description: expect.stringContaining('Run n8n at a public address'),
				});
				expect(calls).toEqual([]);
				expect(warnings).toHaveLength(1);
				expect(warnings[0].message).toContain(webhookUrl);
				expect(warnings[0].message).toContain('cannot reach');
				expect(warnings[0].message).toContain('WEBHOOK_URL');
				expect(warnings[0].meta).toEqual({ webhookUrl, baseUrl: PUBLIC_BASE });
			}
		},
	);

	it('a webhook created elsewhere is refused alike: the service still delivers to this URL', async () => {
		const { context, warnings } = activation(`http://127.0.0.1:5678${PATH}`, PUBLIC_BASE, {
			registration: 'existing',
			secret: 's',
		});
		await expect(webhookExists.call(context)).rejects.toThrow('N8N_WEBHOOK_URL');
		expect(warnings).toHaveLength(1);
	});

	it('the sandbox case, both on loopback: no warning, the webhook is looked for and created', async () => {
		const webhookUrl = `http://127.0.0.1:5678${PATH}`;
		const { context, warnings, calls } = activation(webhookUrl, SANDBOX_BASE);
		expect(await webhookExists.call(context)).toBe(false);
		expect(await createTriggerWebhook.call(context)).toBe(true);
		expect(warnings).toEqual([]);
		expect(calls[0]).toBe('GET /v2/webhooks');
		expect(calls.at(-1)).toBe('POST /v2/webhooks');
	});

	it.each([
		['a private network', 'http://10.0.0.2:4010/v2', 'http://192.168.1.3:5678'],
		['localhost', 'http://localhost:4010/v2', 'http://n8n:5678'],
		['IPv6 loopback', 'http://[::1]:4010/v2', 'http://[fd00::3]:5678'],
	])(
		'a Base URL on %s lets any private webhook URL through (how private networks connect is not known)',
		async (_case, baseUrl, n8nUrl) => {
			const { context, warnings, calls } = activation(`${n8nUrl}${PATH}`, baseUrl);
			expect(await webhookExists.call(context)).toBe(false);
			expect(warnings).toEqual([]);
			expect(calls).toEqual(['GET /v2/webhooks']);
		},
	);

	it('a public webhook URL goes on whatever the Base URL', async () => {
		const { context, warnings, calls } = activation(`https://n8n.acme.com${PATH}`, PUBLIC_BASE);
		expect(await webhookExists.call(context)).toBe(false);
		expect(warnings).toEqual([]);
		expect(calls).toEqual(['GET /v2/webhooks']);
	});

	it('a Base URL that is not a URL is left to the first call, which says so', async () => {
		const { context, warnings, calls } = activation(`http://127.0.0.1:5678${PATH}`, 'not a url');
		await expect(webhookExists.call(context)).rejects.toThrow('"not a url" is not a URL');
		expect(warnings).toEqual([]);
		expect(calls).toEqual([]);
	});
});

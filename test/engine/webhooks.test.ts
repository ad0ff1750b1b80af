// The webhook operations (create, get many, delete; get and update: test/engine/records.test.ts), run by n8n's engine against a started sandbox.
import { runContainerTrackingNode } from '../support/engine';
import { API_KEY, startTestSandbox, type SandboxHandle } from '../support/sandbox';

describe('Container Tracking node: webhooks', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const storedWebhooks = () => handle.sandbox.world.store.list('webhook');

	beforeAll(async () => {
		handle = await startTestSandbox();
	});
	afterAll(async () => handle.stop());

	it('create answers the webhook with its signing secret and a notice to store it', async () => {
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'create',
				url: 'https://example.com/hooks/containers',
				events: ['container.updated', 'container.transport.full_out'],
				active: false,
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const webhook = items[0].json;
		expect(webhook).toMatchObject({
			url: 'https://example.com/hooks/containers',
			events: ['container.updated', 'container.transport.full_out'],
			active: false,
		});
		expect(webhook.secret).toEqual(expect.stringMatching(/^[0-9a-f]{64}$/));
		expect(String(webhook.secret_notice)).toMatch(/secret/i);
		const stored = handle.sandbox.world.store.get('webhook', String(webhook.id));
		expect(stored?.attributes).toMatchObject({ secret: webhook.secret, active: false });
	});

	it('create with one webhook per input item maps the URL from each item', async () => {
		const urls = ['https://example.com/a', 'https://example.com/b'];
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'create',
				url: '={{ $json.url }}',
				events: ['container.updated'],
			},
			urls.map((url) => ({ url })),
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.url, item.json.active, item.pairedItem])).toEqual([
			[urls[0], true, { item: 0 }],
			[urls[1], true, { item: 1 }],
		]);
		expect(items[0].json.secret).not.toBe(items[1].json.secret);
	});

	it('an invalid URL fails with the service message, its pointer and HTTP code', async () => {
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'create', url: 'not a url', events: ['container.updated'] },
			[{}],
			credentials(),
		);
		expect(items).toEqual([]);
		expect(error?.httpCode).toBe('422');
		expect(error?.message).toBe('Url must be a valid http or https URL (/data/attributes/url)');
	});

	it('get many returns every webhook with Return All, and at most Limit otherwise', async () => {
		// More than the service's default page size (30): a node relying on the default would miss some.
		for (let index = storedWebhooks().length; index < 33; index++) {
			const created = await handle.api.post('/webhooks', {
				data: {
					type: 'webhook',
					attributes: { url: `https://example.com/bulk/${index}`, events: ['container.updated'] },
				},
			});
			expect(created.status).toBe(201);
		}
		const expectedIds = storedWebhooks().map((webhook) => webhook.id);
		expect(expectedIds.length).toBeGreaterThanOrEqual(33);

		const all = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'getMany', returnAll: true },
			[{}],
			credentials(),
		);
		expect(all.error).toBeUndefined();
		expect(all.items.map((item) => item.json.id).sort()).toEqual([...expectedIds].sort());
		// Secrets stay out of the execution data unless Include Secret is on.
		expect(all.items.filter((item) => 'secret' in item.json)).toEqual([]);
		expect(all.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		const withSecrets = await runContainerTrackingNode(
			{
				resource: 'webhook',
				operation: 'getMany',
				returnAll: true,
				options: { includeSecret: true },
			},
			[{}],
			credentials(),
		);
		expect(
			withSecrets.items.map((item) => [
				item.json.id,
				item.json.secret ===
					storedWebhooks().find(({ id }) => id === item.json.id)?.attributes.secret,
			]),
		).toEqual(all.items.map((item) => [item.json.id, true]));

		const limited = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'getMany', returnAll: false, limit: 4 },
			[{}],
			credentials(),
		);
		expect(limited.error).toBeUndefined();
		expect(limited.items).toHaveLength(4);
		expect(new Set(limited.items.map((item) => item.json.id)).size).toBe(4);
		expect(limited.items.every((item) => expectedIds.includes(String(item.json.id)))).toBe(true);
	});

	it('delete answers { id, deleted: true } and the webhook is gone', async () => {
		const created = await handle.api.post('/webhooks', {
			data: {
				type: 'webhook',
				attributes: { url: 'https://example.com/to-delete', events: ['container.updated'] },
			},
		});
		const id = String(created.data.data.id);
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'delete', webhookId: '={{ $json.id }}' },
			[{ id }],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: { id, deleted: true }, pairedItem: { item: 0 } }]);
		expect((await handle.api.get(`/webhooks/${id}`)).status).toBe(404);

		const listed = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'getMany', returnAll: true },
			[{}],
			credentials(),
		);
		expect(listed.items.map((item) => item.json.id)).not.toContain(id);
		expect(listed.items.length).toBe(storedWebhooks().length);
	});

	it('deleting an unknown id fails with HTTP 404, and is an error item with Continue On Fail', async () => {
		const unknownId = '00000000-0000-4000-8000-000000000000';
		const failed = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'delete', webhookId: unknownId },
			[{}],
			credentials(),
		);
		expect(failed.items).toEqual([]);
		expect(failed.error?.httpCode).toBe('404');
		expect(failed.error?.message).toBe(
			'Not Found (DELETE /webhooks/00000000-0000-4000-8000-000000000000)',
		);
		expect(failed.error?.description).toContain(`DELETE /webhooks/${unknownId}`);

		const known = await handle.api.post('/webhooks', {
			data: {
				type: 'webhook',
				attributes: { url: 'https://example.com/kept-then-deleted', events: ['container.updated'] },
			},
		});
		const knownId = String(known.data.data.id);
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'webhook', operation: 'delete', webhookId: '={{ $json.id }}' },
			[{ id: unknownId }, { id: knownId }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0]).toEqual({
			json: {
				error: 'Not Found (DELETE /webhooks/00000000-0000-4000-8000-000000000000)',
				error_description:
					'Not found (HTTP 404 for DELETE /webhooks/00000000-0000-4000-8000-000000000000).',
				http_code: '404',
			},
			pairedItem: { item: 0 },
		});
		expect(items[1]).toEqual({ json: { id: knownId, deleted: true }, pairedItem: { item: 1 } });
		expect(handle.sandbox.world.store.get('webhook', knownId)).toBeUndefined();
	});
});

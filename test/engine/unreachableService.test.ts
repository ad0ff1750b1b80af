/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// A Base URL where nothing listens, that is not a URL, or that lacks /v2: operations say so in
// a sentence naming the host and what to check (nodes/ContainerTracking/transport/errors.ts),
// run by n8n's engine. The credential's Test button is n8n's own (test/e2e/trigger.test.ts).
import { createServer } from 'node:net';

import { byClock, generous } from '../support/bounds';
import { runContainerTrackingNode } from '../support/engine';
import { API_KEY, startTestSandbox, type SandboxHandle } from '../support/sandbox';

/** A port nothing listens on: one the system just handed out and that was closed again. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

const infer = { resource: 'trackingRequest', operation: 'inferNumber', number: 'MSCU6639870' };

/**
 * A call to an address that refuses it is tried five times (transport/request.ts): 0.5 and 1 s
 * apart at most, then, the circuit open after three faults, at once; the run's own work takes
 * quietly well under a second.
 */
const REFUSED_TEST = byClock(1_500) + generous(1_000);

describe('operations when the Base URL is wrong', () => {
	let handle: SandboxHandle;
	let closedUrl: string;

	beforeAll(async () => {
		handle = await startTestSandbox();
		closedUrl = `http://127.0.0.1:${await closedPort()}/v2`;
	});
	afterAll(() => handle.stop());

	it(
		'an operation against a closed port fails with a sentence naming the host and the item',
		async () => {
			const host = new URL(closedUrl).host;
			const { error } = await runContainerTrackingNode(infer, [{}], {
				apiKey: API_KEY,
				baseUrl: closedUrl,
			});
			expect(error?.message).toBe(
				`Nothing is listening at ${host} (it refused the connection): check the Base URL in the credential; for the local sandbox, start it with npm run sandbox`,
			);
			expect(error?.description).toMatch(
				/^The service could not be reached \(POST \/tracking_requests\/infer_number\) after 5 tries: ECONNREFUSED: /,
			);
			expect(error?.context?.itemIndex).toBe(0);
		},
		REFUSED_TEST,
	);

	it(
		'with Continue On Fail, a closed port gives each item an error item',
		async () => {
			const { items, error } = await runContainerTrackingNode(
				infer,
				[{}],
				{ apiKey: API_KEY, baseUrl: closedUrl },
				{ continueOnFail: true },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(items[0].json.error).toMatch(/^Nothing is listening at 127\.0\.0\.1:\d+ /);
		},
		REFUSED_TEST,
	);

	it('an operation with a Base URL that is not a URL fails before any call, naming the item', async () => {
		const { items, error } = await runContainerTrackingNode(
			infer,
			[{}, {}],
			{ apiKey: API_KEY, baseUrl: 'not a url' },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.error, item.pairedItem])).toEqual([
			[
				'"not a url" is not a URL: it must start with https:// (http:// for the local sandbox) and end in /v2',
				{ item: 0 },
			],
			[
				'"not a url" is not a URL: it must start with https:// (http:// for the local sandbox) and end in /v2',
				{ item: 1 },
			],
		]);
		const failed = await runContainerTrackingNode(infer, [{}], {
			apiKey: API_KEY,
			baseUrl: 'not a url',
		});
		expect(failed.error?.name).toBe('NodeOperationError');
		expect(failed.error?.context?.itemIndex).toBe(0);
	});

	it('an operation at the sandbox root says the Base URL must end in /v2', async () => {
		const { error } = await runContainerTrackingNode(infer, [{}], {
			apiKey: API_KEY,
			baseUrl: handle.sandbox.url.replace(/\/v2$/, ''),
		});
		expect(error?.httpCode).toBe('404');
		expect(error?.description).toContain(
			'Something answers at the Base URL, but not as the service: it must end in /v2.',
		);
	});
});

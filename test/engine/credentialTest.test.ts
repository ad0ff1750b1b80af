/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The credential's Test button (nodes/ContainerTracking/methods/credentialTest.ts), run in
// n8n-core's own CredentialTestContext against a started sandbox, and the same sentences when
// an operation meets a Base URL where nothing listens or that is not a URL.
import { createServer } from 'node:net';

import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { ContainerTrackingApi } from '../../credentials/ContainerTrackingApi.credentials';
import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import { containerTrackingApiTest } from '../../nodes/ContainerTracking/methods/credentialTest';
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

/** What n8n's credentials tester does with a saved credential (n8n's credentials-tester.service.js). */
async function testCredential(data: ICredentialDataDecryptedObject) {
	const context = new CredentialTestContext({} as IWorkflowExecuteAdditionalData);
	return await containerTrackingApiTest.call(context, {
		id: 'cred-1',
		name: 'Container Tracking account',
		type: 'containerTrackingApi',
		data,
	});
}

const infer = { resource: 'trackingRequest', operation: 'inferNumber', number: 'MSCU6639870' };

describe('credential test', () => {
	let handle: SandboxHandle;
	let closedUrl: string;

	beforeAll(async () => {
		handle = await startTestSandbox();
		closedUrl = `http://127.0.0.1:${await closedPort()}/v2`;
	});
	afterAll(() => handle.stop());

	it('is the Test button n8n runs: both nodes name it and the credential has no declarative test', () => {
		// n8n 2.40 prefers a credential's `test` to any node's `testedBy`.
		expect((new ContainerTrackingApi() as { test?: unknown }).test).toBeUndefined();
		for (const node of [new ContainerTracking(), new ContainerTrackingTrigger()]) {
			const entry = node.description.credentials?.find(
				(credential) => credential.name === 'containerTrackingApi',
			);
			expect(entry?.testedBy).toBe('containerTrackingApiTest');
			const tests = node.methods.credentialTest as Record<string, ICredentialTestFunction>;
			expect(tests.containerTrackingApiTest).toBe(containerTrackingApiTest);
		}
	});

	it('a good key at the sandbox passes', async () => {
		expect(await testCredential({ apiKey: API_KEY, baseUrl: handle.sandbox.url })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		// A trailing slash is forgiven, as operations forgive it.
		expect(
			(await testCredential({ apiKey: API_KEY, baseUrl: `${handle.sandbox.url}/` })).status,
		).toBe('OK');
	});

	it('a wrong key is a refused key', async () => {
		expect(await testCredential({ apiKey: 'not-the-key', baseUrl: handle.sandbox.url })).toEqual({
			status: 'Error',
			message:
				"The API key was refused (HTTP 401): check that it is complete and current, as your account's API settings show it",
		});
	});

	it('a closed port is nothing listening, naming the host', async () => {
		const host = new URL(closedUrl).host;
		expect(await testCredential({ apiKey: API_KEY, baseUrl: closedUrl })).toEqual({
			status: 'Error',
			message: `Nothing is listening at ${host} (it refused the connection): check the Base URL in the credential; for the local sandbox, start it with npm run sandbox`,
		});
	});

	it('a host that does not exist is nothing listening', async () => {
		// .invalid never resolves (RFC 2606).
		const result = await testCredential({
			apiKey: API_KEY,
			baseUrl: 'https://api.container-tracking.invalid/v2',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Nothing is listening at api\.container-tracking\.invalid \((no such host|its name could not be looked up)\): check the Base URL in the credential$/,
		);
	});

	it.each(['not a url', 'api.container-tracking.example/v2', 'ftp://127.0.0.1/v2'])(
		'"%s" is not a URL',
		async (baseUrl) => {
			expect(await testCredential({ apiKey: API_KEY, baseUrl })).toEqual({
				status: 'Error',
				message: `"${baseUrl}" is not a URL: it must start with https:// (http:// for the local sandbox) and end in /v2`,
			});
		},
	);

	it('an empty Base URL says so', async () => {
		expect((await testCredential({ apiKey: API_KEY, baseUrl: '  ' })).message).toBe(
			'The credential has no Base URL: it must start with https:// (http:// for the local sandbox) and end in /v2',
		);
	});

	it('the sandbox root, without /v2, answers but not as the service', async () => {
		const root = handle.sandbox.url.replace(/\/v2$/, '');
		expect(await testCredential({ apiKey: API_KEY, baseUrl: root })).toEqual({
			status: 'Error',
			message: `${root} answers, but not as the service: the Base URL must end in /v2`,
		});
	});

	it('an operation against a closed port fails with the same sentence, naming the item', async () => {
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
	}, 30_000);

	it('with Continue On Fail, a closed port gives each item an error item', async () => {
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
	}, 30_000);

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

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
// Starts a real sandbox on a free port for a test file, and gives it an axios client that
// authenticates like a user would and never throws on an HTTP status (tests assert on them).
import http from 'node:http';

import axios, { type AxiosInstance } from 'axios';

import { setRateWindow } from '../../nodes/ContainerTracking/transport/rateLimit';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import type { Resource } from '../../sandbox/world/store';
import { generous } from './bounds';

export const API_KEY = 'test-key';

export interface SandboxHandle {
	sandbox: Sandbox;
	/** Client for /v2, with `Authorization: Token test-key`. */
	api: AxiosInstance;
	/** Client for /_sandbox, with the same key. */
	control: AxiosInstance;
	/**
	 * What the sandbox serves right now for the stored record as a document's `data` (drifted
	 * when drift is on): compare node output with this rather than with the stored state.
	 */
	served(type: string, id: string): Resource;
	stop(): Promise<void>;
}

/**
 * Drift (sandbox/drift.ts) is on when the caller asks for it, or else when the environment
 * says CT_SANDBOX_DRIFT=1, so that whole suites can run once against a drifting sandbox.
 */
export function driftRequested(options: Partial<SandboxOptions> = {}): boolean {
	return options.drift ?? process.env.CT_SANDBOX_DRIFT === '1';
}

export async function startTestSandbox(
	options: Partial<SandboxOptions> = {},
): Promise<SandboxHandle> {
	const sandbox = await startSandbox({
		port: 0,
		apiKey: API_KEY,
		...options,
		drift: driftRequested(options),
	});
	const client = (baseURL: string) =>
		axios.create({
			baseURL,
			headers: { Authorization: `Token ${API_KEY}`, Accept: 'application/json' },
			validateStatus: () => true,
			// A connection is not kept: one the sandbox closes after its idle timeout just as the
			// client reuses it would fail the test with ECONNRESET (the node itself repeats such calls).
			httpAgent: new http.Agent({ keepAlive: false }),
			// Brackets stay unencoded in page[number]/page[size], as the service writes them.
			paramsSerializer: {
				encode: (value: string) =>
					encodeURIComponent(value).replace(/%5B/g, '[').replace(/%5D/g, ']'),
			},
		});
	return {
		sandbox,
		api: client(sandbox.url),
		control: client(sandbox.controlUrl),
		served: (type, id) => {
			const record = sandbox.world.store.get(type, id);
			if (!record) throw new Error(`the sandbox has no ${type} ${id}`);
			return sandbox.served(record);
		},
		stop: () => sandbox.stop(),
	};
}

/**
 * A sandbox whose minute lasts one real second (time scale 60), with the node's rate window
 * compressed alike until the sandbox is stopped: rate limits and Retry-After in seconds, not
 * minutes.
 */
export async function startPacedSandbox(
	options: Partial<SandboxOptions> = {},
): Promise<SandboxHandle> {
	const handle = await startTestSandbox({ timeScale: 60, ...options });
	setRateWindow(1000);
	return {
		...handle,
		stop: async () => {
			setRateWindow(60_000);
			await handle.stop();
		},
	};
}

/**
 * Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`: by
 * default a generous bound on something a quiet machine sees within 2 s (test/support/bounds.ts).
 */
export async function eventually<T>(
	check: () => T | undefined | Promise<T | undefined>,
	{ timeoutMs = generous(2_000), intervalMs = 50, what = 'condition' } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/** Tracks a container number and waits until its container exists; returns the container id. */
export async function trackContainer(
	handle: SandboxHandle,
	number: string,
	scac: string,
	requestType: 'container' | 'bill_of_lading' | 'booking' = 'container',
): Promise<{ trackingRequestId: string; containerIds: string[]; shipmentId: string }> {
	const created = await handle.api.post('/tracking_requests', {
		data: {
			type: 'tracking_request',
			attributes: { request_number: number, request_type: requestType, scac },
		},
	});
	if (created.status !== 201)
		throw new Error(`tracking request answered ${created.status}: ${JSON.stringify(created.data)}`);
	const trackingRequestId = created.data.data.id as string;
	const shipmentId = await eventually(
		async () => {
			const { data } = await handle.api.get(`/tracking_requests/${trackingRequestId}`);
			return (data.data.relationships.tracked_object.data?.id as string | undefined) ?? undefined;
		},
		{ what: `tracking request ${number} to succeed` },
	);
	const shipment = handle.sandbox.world.store.get('shipment', shipmentId)!;
	const containerIds = (shipment.relationships!.containers.data as Array<{ id: string }>).map(
		(c) => c.id,
	);
	return { trackingRequestId, containerIds, shipmentId };
}

/**
 * Tracks every number as POST /tracking_requests does but without a call each against its rate
 * limit of 100 a minute (the control API's `POST /_sandbox/tracking_requests`, which answers once
 * they succeeded); returns every container the sandbox has then.
 */
export async function trackManyContainers(
	handle: SandboxHandle,
	numbers: string[],
	scac: string,
): Promise<Resource[]> {
	const tracked = await handle.control.post('/tracking_requests', { numbers, scac });
	if (tracked.status !== 201)
		throw new Error(
			`tracking ${numbers.length} numbers answered ${tracked.status}: ${JSON.stringify(tracked.data)}`,
		);
	return handle.sandbox.world.store.list('container');
}

/**
 * Counts the sandbox's answers to `method path` from now on. The sandbox keeps no request log;
 * a fault that delays every such request by 0 ms counts them in its `fired`.
 */
export async function countRequests(
	handle: SandboxHandle,
	method: string,
	path: string,
): Promise<() => Promise<number>> {
	const counter = await handle.control.post('/faults', {
		path,
		method,
		kind: 'slow',
		delay_ms: 0,
		rate: 1,
	});
	if (counter.status !== 201) throw new Error(`the request counter answered ${counter.status}`);
	return async () => {
		const { data } = await handle.control.get('/faults');
		return (data.faults as Array<{ path: string; method: string; fired: number }>).find(
			(fault) => fault.path === path && fault.method === method,
		)!.fired;
	};
}

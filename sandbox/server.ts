/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The sandbox as a real HTTP server: /v2 serves the service, /_sandbox serves the control API.
 * Order of checks for /v2, as the service applies them: an outage (sandbox/http/outage.ts: the
 * service is down, the call fails and nothing else runs), injected fault that strikes before the
 * request is processed, API key (401), route (an unknown route is an HTML 404), rate limit (429
 * with Retry-After), body, handler; then, with drift on, the 2xx answer drifted (sandbox/drift.ts);
 * last, an injected fault that strikes after the request was processed replaces the answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { apiRoutes, type Route } from './api';
import { mailRoutes } from './arrivalNotice';
import { SandboxClock } from './clock';
import { controlRoutes, type ControlRoute } from './control';
import { driftDocument, driftRecord, type DriftSwitch } from './drift';
import { copy } from './http/documents';
import { FaultInjector, type Fault } from './http/faults';
import { Outage, type OutageFailure } from './http/outage';
import {
	ApiError,
	badRequest,
	HTML_NOT_FOUND_PAGE,
	notFound,
	type ApiAnswer,
} from './http/jsonApi';
import { RateLimiter } from './http/rateLimiter';
import { presentedKey, RequestStats, tokenOf } from './http/requestStats';
import { WebhookDispatcher } from './webhooks/delivery';
import { Store, type Resource } from './world/store';
import { World } from './world/world';

export interface SandboxOptions {
	port: number;
	host: string;
	apiKey: string;
	/**
	 * More keys of the same account, each with its own rate limits (they are per key): a bench
	 * reads with one of its own without spending the budget of the client it measures.
	 */
	extraApiKeys: string[];
	signatureHeader: string;
	/** Sandbox seconds per real second: compresses rate windows, journeys and retry backoff. */
	timeScale: number;
	/**
	 * Sandbox time at start, in epoch milliseconds (default: now). A clock behind real time lets
	 * a test make records older than the client's own look-back.
	 */
	clockStart?: number;
	/** Share of notifications delivered twice (0 to 1). */
	duplicateRate: number;
	/** Whether the account has the Rail Plan entitlement. */
	railPlan: boolean;
	/** Whether the account has Container Refresh (403 on `PATCH /containers/{id}/refresh`). */
	containerRefresh: boolean;
	/** Whether the account has Routing Data (403 on `GET /containers/{id}/route`). */
	routingData: boolean;
	/** Sandbox seconds between the steps of a played scenario. */
	scenarioGapSeconds: number;
	/** Sandbox seconds before a tracking request succeeds or fails. */
	trackingDelaySeconds: number;
	/**
	 * Sandbox seconds before the first delivery retry (doubling after); also settable at run
	 * time through `PATCH /_sandbox/webhook_settings`, with the delivery timeout.
	 */
	retryBaseSeconds: number;
	/**
	 * Longest wait between two retries, in sandbox seconds (an hour, as the service's schedule
	 * ends): a test that waits for the whole schedule caps it.
	 */
	retryCapSeconds: number;
	/**
	 * Notifications in a row ending `failed` after which a webhook is set inactive, as the service
	 * may do; null never does.
	 */
	deactivateAfterFailures: number | null;
	/** Whether notifications for an inactive webhook are still logged, as `failed`. */
	logWhileInactive: boolean;
	/** Logs each request to stderr. */
	verbose: boolean;
	/**
	 * Serves answers and deliveries as the real service sends them, beyond the interface's value
	 * tables (sandbox/drift.ts); switchable at run time through `POST /_sandbox/drift`.
	 */
	drift: boolean;
	/**
	 * Writes links (`links.next`, `links.self`…) as paths without scheme and host, as a proxy in
	 * front of the service may: the interface promises absolute ones (docs/service.md).
	 */
	relativeLinks: boolean;
}

export const DEFAULT_OPTIONS: SandboxOptions = {
	port: 4010,
	host: '127.0.0.1',
	apiKey: 'sandbox-key',
	extraApiKeys: [],
	signatureHeader: 'X-SVC-Webhook-Signature',
	timeScale: 1,
	duplicateRate: 0,
	railPlan: true,
	containerRefresh: true,
	routingData: true,
	scenarioGapSeconds: 1,
	trackingDelaySeconds: 2,
	retryBaseSeconds: 5,
	retryCapSeconds: 3_600,
	deactivateAfterFailures: null,
	logWhileInactive: false,
	verbose: false,
	drift: false,
	relativeLinks: false,
};

export interface Sandbox {
	/** e.g. http://127.0.0.1:4010/v2 */
	url: string;
	/** e.g. http://127.0.0.1:4010/_sandbox */
	controlUrl: string;
	port: number;
	options: SandboxOptions;
	world: World;
	clock: SandboxClock;
	dispatcher: WebhookDispatcher;
	faults: FaultInjector;
	/**
	 * The service's outage (real seconds; `POST /_sandbox/outage` sets the same one):
	 * `outage.start({ seconds: 2, kind: '503' })`, `outage.status()`, `outage.end()`.
	 */
	outage: Outage;
	/** Calls to /v2 by API key, route and answer since the last reset (`GET /_sandbox/stats`). */
	stats: RequestStats;
	/** Whether drift is on right now (the control API switches it; so may a test). */
	drift: DriftSwitch;
	/**
	 * What the sandbox would serve right now for a stored record as a document's `data`: its
	 * drifted copy when drift is on, a plain copy otherwise. Tests compare node output with it.
	 */
	served(record: Resource): Resource;
	stop(): Promise<void>;
}

const JSON_API = 'application/vnd.api+json; charset=utf-8';
/** Real milliseconds a receiver has to answer a delivery (`PATCH /_sandbox/webhook_settings`). */
export const DELIVERY_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1_000_000;

interface CompiledRoute<T> {
	route: T;
	regex: RegExp;
	names: string[];
}

function compile<T extends { pattern: string }>(routes: T[]): Array<CompiledRoute<T>> {
	return routes.map((route) => {
		const names: string[] = [];
		const source = route.pattern.replace(/:([a-z_]+)/g, (_match, name: string) => {
			names.push(name);
			return '([^/]+)';
		});
		return { route, regex: new RegExp(`^${source}$`), names };
	});
}

function match<T extends { method: string }>(
	routes: Array<CompiledRoute<T>>,
	method: string,
	path: string,
): { route: T; params: Record<string, string> } | undefined {
	for (const { route, regex, names } of routes) {
		const found = route.method === method ? regex.exec(path) : null;
		if (!found) continue;
		// A broken escape (`%ZZ`) is kept as typed: it names no record, so the handler answers 404.
		const decode = (value: string) => {
			try {
				return decodeURIComponent(value);
			} catch {
				return value;
			}
		};
		const params = Object.fromEntries(names.map((name, index) => [name, decode(found[index + 1])]));
		return { route, params };
	}
	return undefined;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new ApiError(413, [{ status: '413', title: 'Payload Too Large' }]));
				request.destroy();
				return;
			}
			chunks.push(chunk);
		});
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

function parseJson(raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		throw badRequest('The request body is not valid JSON', { pointer: '/' }, 'malformed_json');
	}
}

function send(response: http.ServerResponse, answer: ApiAnswer): void {
	if (answer.status === 204 || answer.body === undefined) {
		response.writeHead(answer.status, answer.headers);
		response.end();
		return;
	}
	const body = JSON.stringify(answer.body);
	response.writeHead(answer.status, { 'Content-Type': JSON_API, ...answer.headers });
	response.end(body);
}

/** A truncated body: what a client gets when the answer is cut short. */
function sendTruncated(response: http.ServerResponse, answer: ApiAnswer | undefined): void {
	if (answer === undefined) {
		response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
		response.end(HTML_NOT_FOUND_PAGE.slice(0, 25));
		return;
	}
	response.writeHead(answer.status, { 'Content-Type': JSON_API });
	response.end(JSON.stringify(answer.body ?? {}).slice(0, 25));
}

/** A placeholder document, truncated by a `malformed` fault that strikes before processing. */
const PLACEHOLDER_ANSWER: ApiAnswer = {
	status: 200,
	body: { data: { id: '00000000-0000-0000-0000-000000000000', type: 'unknown' } },
};

/** What a `refused` fault answers: a 422 the client must not take for "already tracked". */
const REFUSED_ANSWER: ApiAnswer = {
	status: 422,
	body: {
		errors: [
			{
				status: '422',
				title: 'Unprocessable Entity',
				detail: 'Request number is not accepted by the shipping line',
				code: 'invalid',
				source: { pointer: '/data/attributes/request_number' },
			},
		],
	},
};

const INTERNAL_SERVER_ERROR: ApiAnswer = {
	status: 500,
	body: { errors: [{ status: '500', title: 'Internal Server Error' }] },
};

const SERVICE_UNAVAILABLE: ApiAnswer = {
	status: 503,
	body: {
		errors: [
			{
				status: '503',
				title: 'Service Unavailable',
				detail: 'The service is temporarily unavailable',
			},
		],
	},
};

function sendHtmlNotFound(response: http.ServerResponse): void {
	response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
	response.end(HTML_NOT_FOUND_PAGE);
}

function unauthorized(detail: string): ApiError {
	return new ApiError(401, [{ status: '401', title: 'Unauthorized', detail }]);
}

/** The key of `Authorization: Token <key>`, when it is one of the account's keys; else 401. */
function checkApiKey(header: string | undefined, apiKeys: string[]): string {
	if (!header)
		throw unauthorized('Missing Authorization header; send "Authorization: Token <API key>"');
	const key = tokenOf(header);
	if (key === undefined)
		throw unauthorized('Malformed Authorization header; send "Authorization: Token <API key>"');
	if (!apiKeys.includes(key)) throw unauthorized('Unknown API key');
	return key;
}

export async function startSandbox(overrides: Partial<SandboxOptions> = {}): Promise<Sandbox> {
	const options: SandboxOptions = { ...DEFAULT_OPTIONS, ...overrides };
	const clock = new SandboxClock(options.timeScale, options.clockStart ?? Date.now());
	const faults = new FaultInjector();
	const outage = new Outage();
	const drift: DriftSwitch = { enabled: options.drift };
	const limiter = new RateLimiter(clock);
	const stats = new RequestStats();
	const apiKeys = [options.apiKey, ...options.extraApiKeys];
	let baseUrl = '';
	const reportError = (error: unknown) => {
		process.stderr.write(
			`sandbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
	};
	const store = new Store();
	const dispatcher = new WebhookDispatcher(
		store,
		clock,
		{
			signatureHeader: options.signatureHeader,
			duplicateRate: options.duplicateRate,
			retryBaseMs: options.retryBaseSeconds * 1000,
			retryCapMs: options.retryCapSeconds * 1000,
			timeoutMs: DELIVERY_TIMEOUT_MS,
			deactivateAfterFailures: options.deactivateAfterFailures,
			logWhileInactive: options.logWhileInactive,
			logOldestFirst: false,
		},
		() => baseUrl,
		drift,
	);
	const world = new World(
		store,
		clock,
		(notification) => dispatcher.dispatch(notification),
		{
			trackingDelayMs: options.trackingDelaySeconds * 1000,
			railPlan: options.railPlan,
			containerRefresh: options.containerRefresh,
			routingData: options.routingData,
		},
		reportError,
	);
	const api = compile<Route>(apiRoutes(world, dispatcher));
	const control = compile<ControlRoute>([
		...controlRoutes(
			world,
			faults,
			dispatcher,
			{ scenarioGapMs: options.scenarioGapSeconds * 1000 },
			drift,
			outage,
			stats,
		),
		...mailRoutes(world),
	]);

	/** Authenticates, routes, rate-limits and runs the handler; undefined for an unknown route. */
	const processApi = async (
		request: http.IncomingMessage,
		url: URL,
		method: string,
		path: string,
	): Promise<ApiAnswer | undefined> => {
		const apiKey = checkApiKey(request.headers.authorization, apiKeys);
		const found = match(api, method, path);
		// Unknown routes get the service's HTML 404 page, not a JSON:API error.
		if (found === undefined) return undefined;
		const decision = limiter.take(apiKey, found.route.bucket);
		if (!decision.allowed) {
			throw new ApiError(429, [{ status: '429', detail: 'Rate limit exceeded' }], {
				'Retry-After': String(decision.retryAfterSeconds),
			});
		}
		const body = parseJson(await readBody(request));
		const answer = await found.route.handle({
			method,
			path,
			params: found.params,
			query: url.searchParams,
			body,
			baseUrl: options.relativeLinks ? new URL(baseUrl).pathname : baseUrl,
		});
		// Error answers are never drifted: they are thrown as ApiError and do not pass here.
		if (drift.enabled && answer.status >= 200 && answer.status < 300 && answer.body !== undefined)
			return { ...answer, body: driftDocument(answer.body) };
		return answer;
	};

	/** Answers with the fault instead; `answer` is what the service answered, for `after` faults. */
	const answerWithFault = (
		fault: Fault,
		request: http.IncomingMessage,
		response: http.ServerResponse,
		answer: ApiAnswer | undefined,
	) => {
		switch (fault.kind) {
			case 'drop':
				request.socket.destroy();
				return;
			case 'error_500':
				send(response, INTERNAL_SERVER_ERROR);
				return;
			case 'rate_limited':
				send(response, {
					status: 429,
					body: { errors: [{ status: '429', detail: 'Rate limit exceeded' }] },
					headers: { 'Retry-After': String(fault.retryAfterSeconds) },
				});
				return;
			case 'malformed':
				sendTruncated(response, fault.when === 'after' ? answer : PLACEHOLDER_ANSWER);
				return;
			case 'refused':
				send(response, REFUSED_ANSWER);
				return;
			default:
				return;
		}
	};

	/** Fails a call while the service is down; `timeout` holds it until the outage ends. */
	const answerWithOutage = (
		failure: OutageFailure,
		request: http.IncomingMessage,
		response: http.ServerResponse,
	) => {
		if (failure === '500') send(response, INTERNAL_SERVER_ERROR);
		else if (failure === '503') send(response, SERVICE_UNAVAILABLE);
		else if (failure === 'drop') request.socket.destroy();
		else outage.hold(() => request.socket.destroy());
	};

	const handleApi = async (
		request: http.IncomingMessage,
		response: http.ServerResponse,
		url: URL,
	) => {
		const path = url.pathname.slice('/v2'.length) || '/';
		const method = request.method ?? 'GET';
		const pattern = match(api, method, path)?.route.pattern;
		// Counted once the call is over, answered or not (a dropped call, an outage's timeout).
		response.once('close', () =>
			stats.record(
				presentedKey(request.headers.authorization),
				`${method} ${pattern ?? '(unknown route)'}`,
				response.writableFinished ? response.statusCode : null,
			),
		);
		const failure = outage.take(`${method} ${pattern ?? path}`);
		if (failure !== undefined) {
			answerWithOutage(failure, request, response);
			return;
		}
		const fault = faults.take(method, path);
		if (fault?.when === 'before') {
			if (fault.kind !== 'slow') {
				answerWithFault(fault, request, response, undefined);
				return;
			}
			await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
		}
		if (fault?.when !== 'after') {
			const answer = await processApi(request, url, method, path);
			if (answer === undefined) sendHtmlNotFound(response);
			else send(response, answer);
			return;
		}
		// The service does the work whatever its answer; the client only gets the fault.
		let answer: ApiAnswer | undefined;
		try {
			answer = await processApi(request, url, method, path);
		} catch (error) {
			if (!(error instanceof ApiError)) reportError(error);
			answer = error instanceof ApiError ? error.toAnswer() : INTERNAL_SERVER_ERROR;
		}
		answerWithFault(fault, request, response, answer);
	};

	const handleControl = async (
		request: http.IncomingMessage,
		response: http.ServerResponse,
		url: URL,
	) => {
		checkApiKey(request.headers.authorization, apiKeys);
		const path = url.pathname.slice('/_sandbox'.length) || '/';
		const found = match(control, request.method ?? 'GET', path);
		if (found === undefined) throw notFound();
		const body = parseJson(await readBody(request));
		send(
			response,
			await found.route.handle({
				method: request.method ?? 'GET',
				params: found.params,
				query: url.searchParams,
				body,
			}),
		);
	};

	const server = http.createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://sandbox.local');
		if (options.verbose) process.stderr.write(`${request.method} ${url.pathname}${url.search}\n`);
		const handler =
			url.pathname === '/v2' || url.pathname.startsWith('/v2/')
				? handleApi
				: url.pathname.startsWith('/_sandbox/')
					? handleControl
					: undefined;
		if (!handler) {
			sendHtmlNotFound(response);
			return;
		}
		handler(request, response, url).catch((error: unknown) => {
			if (response.headersSent || response.destroyed) return;
			if (error instanceof ApiError) {
				send(response, error.toAnswer());
				return;
			}
			reportError(error);
			send(response, INTERNAL_SERVER_ERROR);
		});
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = (server.address() as AddressInfo).port;
	baseUrl = `http://${options.host}:${port}/v2`;

	return {
		url: baseUrl,
		controlUrl: `http://${options.host}:${port}/_sandbox`,
		port,
		options,
		world,
		clock,
		dispatcher,
		faults,
		outage,
		stats,
		drift,
		served: (record) => (drift.enabled ? driftRecord(record, 'primary') : copy(record)),
		async stop() {
			world.scheduler.stop();
			outage.end();
			await dispatcher.stop();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type ITriggerFunctions,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';
import type { z } from 'zod';

import { isNoIsolateError, isToolRun } from '../n8nInternals';
import { documentWarnings, type DocumentWarnings } from '../schemas/warnings';
import {
	apiErrorMessage,
	baseUrlProblem,
	describeIssues,
	errorCode,
	unreachableMessage,
} from './errors';
import { circuitOf, jitteredBackoff, type Circuit } from './circuit';
import { bucketOf, rateGate } from './rateLimit';

export type ContainerTrackingContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

export const CREDENTIAL_NAME = 'containerTrackingApi';

/**
 * Tries for a call to an address that has never answered in this process and refuses the
 * connection or does not exist: most likely a wrong Base URL, said after a few seconds rather
 * than after the whole Outage Tolerance.
 */
const UNPROVEN_ADDRESS_TRIES = 5;
const REQUEST_TIMEOUT_MS = 60_000;
/** How long a call keeps trying through faults, unless the operation's Outage Tolerance says. */
export const DEFAULT_OUTAGE_TOLERANCE_SECONDS = 120;
/** For calls someone waits on: the editor's list searches, answers to webhook deliveries. */
const SHORT_OUTAGE_TOLERANCE_SECONDS = 10;

/**
 * Whether a call may be sent again when its outcome is unknown: a 5xx, a dropped connection or
 * an unreadable answer, after which a write may or may not have been done. (A 429 is always
 * waited out and sent again: the service did nothing.)
 * - `'yes'`: reads, DELETE and PATCH (they set, so a repeat changes nothing more), infer_number
 *   (changes nothing), and writes the service recognises when repeated (creating a tracking
 *   request twice answers `duplicate`).
 * - `'no'`: a write that a repeat could do twice.
 * - a function, asked before each repeat: an answer it returns ends the call (it found that the
 *   write was done, e.g. the webhook exists); undefined lets the repeat go.
 */
export type RepeatPolicy = 'yes' | 'no' | (() => Promise<ServiceResponse | undefined>);

export interface RequestParameters {
	body?: IDataObject;
	qs?: IDataObject;
	/** Index of the item the call is for, so that errors name it. */
	itemIndex?: number;
	/** A full URL to call instead of base URL + path (pagination links). */
	url?: string;
	/** Statuses that are answers rather than errors for this call (e.g. 404 when checking existence). */
	acceptStatuses?: number[];
	/** Defaults by method: see `defaultRepeatPolicy`. */
	repeat?: RepeatPolicy;
	/** An Outage Tolerance of its own, for a call not worth waiting for (0: the first fault ends it). */
	toleranceSeconds?: number;
}

export interface ServiceResponse {
	status: number;
	body: IDataObject;
	/**
	 * Why earlier attempts were sent again when their outcome was unknown (`HTTP 502`,
	 * `ECONNRESET`…): empty when the first answer was read. A write may have been done by one of
	 * them.
	 */
	repeatedAfter: string[];
	/** The address called, against which relative links in the answer resolve. */
	url?: string;
}

/**
 * A link as the service gives it, made absolute: the service's links are absolute, and a
 * relative one (a proxy in front of it, a service that changed) resolves against the address
 * that answered. A link that cannot be read stays as it is, for the call to report.
 */
export function absoluteLink(link: string, against: string): string {
	try {
		return new URL(link, against).toString();
	} catch {
		return link;
	}
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/** A call whose answer is read whatever its status, as text (bodies are not always JSON). */
function requestOptions(method: IHttpRequestMethods, url: string): IHttpRequestOptions {
	return {
		method,
		url,
		headers: { Accept: 'application/json' },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		encoding: 'text',
		json: false,
		timeout: REQUEST_TIMEOUT_MS,
	};
}

/** Reads, DELETE, PATCH and infer_number (a POST that changes nothing) are safe to repeat. */
export function defaultRepeatPolicy(method: IHttpRequestMethods, path: string): RepeatPolicy {
	if (['GET', 'HEAD', 'DELETE', 'PATCH', 'PUT'].includes(method)) return 'yes';
	return path.startsWith('/tracking_requests/infer_number') ? 'yes' : 'no';
}

function retryAfterSeconds(headers: FullResponse['headers']): number {
	const raw = headers['retry-after'];
	const value = Array.isArray(raw) ? raw[0] : raw;
	if (value === undefined) return 1;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds);
	const date = Date.parse(value);
	return Number.isFinite(date) ? Math.max(0, Math.ceil((date - Date.now()) / 1000)) : 1;
}

/** Bodies may come as `application/vnd.api+json` or not be JSON at all (an HTML 404 page). */
function parseBody(raw: unknown): { json: IDataObject | undefined; text: string } {
	if (raw === undefined || raw === null || raw === '') return { json: {}, text: '' };
	if (typeof raw === 'object' && !Buffer.isBuffer(raw))
		return { json: raw as IDataObject, text: '' };
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
	try {
		const parsed = JSON.parse(text) as unknown;
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
			return { json: parsed as IDataObject, text };
		return { json: undefined, text };
	} catch {
		return { json: undefined, text };
	}
}

/** Connection failures of an address rather than of a service: see UNPROVEN_ADDRESS_TRIES. */
const ADDRESS_ERROR_CODES = ['ECONNREFUSED', 'ENOTFOUND'];

/** A failed connection as the circuit records it: its code (else message), and whether the address may be wrong. */
function networkFault(error: unknown): { reason: string; address: boolean } {
	const code = errorCode(error);
	return {
		reason: code ?? (error as Error).message,
		address: code !== undefined && ADDRESS_ERROR_CODES.includes(code),
	};
}

const NETWORK_ERROR_CODES = [
	'ECONNRESET',
	'ECONNREFUSED',
	'ETIMEDOUT',
	'EPIPE',
	'ECONNABORTED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ERR_BAD_RESPONSE',
	'ESOCKETTIMEDOUT',
];

function isNetworkError(error: unknown): boolean {
	const code = errorCode(error);
	return (
		(code !== undefined && NETWORK_ERROR_CODES.includes(code)) ||
		/socket hang up|timeout|ECONNRESET/i.test((error as Error)?.message ?? '')
	);
}

/**
 * The Outage Tolerance of a call: the operation's option (Options → Outage Tolerance, seconds,
 * an expression allowed) for items of the node; a short one where someone waits for the answer
 * (the editor's list searches, a webhook delivery, a model's tool call unless its option says
 * otherwise); the default for activation and the watch.
 */
function outageToleranceOf(
	context: ContainerTrackingContext,
	itemIndex: number | undefined,
): number {
	if ('getRequestObject' in context || 'getCurrentNodeParameter' in context)
		return SHORT_OUTAGE_TOLERANCE_SECONDS;
	if (!('getInputData' in context)) return DEFAULT_OUTAGE_TOLERANCE_SECONDS;
	const value: unknown = context.getNodeParameter(
		'options.outageTolerance',
		itemIndex ?? 0,
		isToolRun(context) ? SHORT_OUTAGE_TOLERANCE_SECONDS : DEFAULT_OUTAGE_TOLERANCE_SECONDS,
	);
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Outage Tolerance must be a number of seconds, 0 or more (got ${JSON.stringify(value)})`,
			{
				itemIndex,
				description:
					'Options → Outage Tolerance: how long an item keeps trying while the service is down; 0 fails on the first fault.',
			},
		);
	}
	return seconds;
}

/** `2 min 0 s`, `45 s`. */
function spoken(milliseconds: number): string {
	const seconds = Math.max(0, Math.round(milliseconds / 1000));
	return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
}

/** Connection failures in words, for messages (see `outageError`). */
const FAULTS_IN_WORDS: Record<string, string> = {
	ECONNRESET: 'a dropped connection',
	EPIPE: 'a dropped connection',
	ECONNREFUSED: 'a refused connection',
	ETIMEDOUT: 'no answer in time',
	ESOCKETTIMEDOUT: 'no answer in time',
	ECONNABORTED: 'no answer in time',
	EAI_AGAIN: 'a failed name lookup',
	ENOTFOUND: 'an unknown host',
	ERR_BAD_RESPONSE: 'a broken answer',
};

/**
 * A fault as a message may say it: NodeApiError puts its own generic sentence in place of a
 * message naming a connection error code, so codes are said in words.
 */
function faultInWords(reason: string): string {
	if (FAULTS_IN_WORDS[reason]) return FAULTS_IN_WORDS[reason];
	if (/socket hang up|ECONNRESET/i.test(reason)) return 'a dropped connection';
	if (/timeout/i.test(reason)) return 'no answer in time';
	return /^[A-Z_]+$/.test(reason) ? 'a network error' : reason;
}

/** `14:02:11 UTC`. */
function clock(at: number): string {
	return `${new Date(at).toISOString().slice(11, 19)} UTC`;
}

/** What became of the call, for the message of one that gave up. */
function outcome(method: IHttpRequestMethods, path: string, sent: boolean, who: string): string {
	if (!sent) return `${who} was not sent`;
	if (method === 'GET' || method === 'HEAD' || path.startsWith('/tracking_requests/infer_number'))
		return `${who} got no answer`;
	const done = method === 'DELETE' ? 'deleted' : method === 'POST' ? 'created' : 'updated';
	return `${who} may have been ${done}`;
}

/**
 * The error of a call that gave up: the outage outlasted its Outage Tolerance.
 * `The service has not answered for 2 min 0 s (last: HTTP 503 at 14:02:11 UTC); item 37 was not sent`.
 */
function outageError(
	context: ContainerTrackingContext,
	circuit: Circuit,
	since: number,
	toleranceSeconds: number,
	call: { method: IHttpRequestMethods; path: string; sent: boolean; itemIndex?: number },
): NodeApiError {
	const last = circuit.lastFault;
	const who = call.itemIndex === undefined ? 'this call' : `item ${call.itemIndex}`;
	const message = `The service has not answered for ${spoken(Date.now() - since)}${
		last ? ` (last: ${faultInWords(last.reason)} at ${clock(last.at)})` : ''
	}; ${outcome(call.method, call.path, call.sent, who)}`;
	const check =
		call.sent && call.method === 'POST' && call.path === '/tracking_requests'
			? ' Running it again is safe: a request that was created is answered as already tracked.'
			: '';
	const error = new NodeApiError(context.getNode(), { message } as JsonObject, {
		itemIndex: call.itemIndex,
		message,
		description: `${call.method} ${call.path}: every try since ${clock(since)} met a fault, and Outage Tolerance is ${toleranceSeconds} s (Options). Raise it to ride out longer outages, or run the item again once the service answers.${check}`,
	});
	// For those who say it in other words (a model's tool: actions/tool.ts).
	const outage: ServiceOutage = {
		lastFault: last ? faultInWords(last.reason) : null,
		repeatIsSafe: check !== '',
	};
	error.context.serviceOutage = outage as unknown as IDataObject;
	return error;
}

/** What an error that an outage ended a call with says of it (`context.serviceOutage`). */
export interface ServiceOutage {
	/** The last fault, in words: "HTTP 503", "connection dropped". */
	lastFault: string | null;
	/** Whether asking again cannot do the work twice. */
	repeatIsSafe: boolean;
}

/** The outage an error ended a call with, when it did. */
export function serviceOutageOf(error: unknown): ServiceOutage | undefined {
	const outage = (error as { context?: { serviceOutage?: unknown } })?.context?.serviceOutage;
	return typeof outage === 'object' && outage !== null ? (outage as ServiceOutage) : undefined;
}

/**
 * One call to the service, authenticated by the credential, paced to the service's rate
 * limits, repeated after a 429 (once Retry-After has passed) and, as its repeat policy allows,
 * after 5xx answers, dropped connections and unreadable answers (with backoff). Errors become
 * NodeApiErrors carrying the service's own message.
 */
export async function containerTrackingRequest(
	this: ContainerTrackingContext,
	method: IHttpRequestMethods,
	path: string,
	{
		body,
		qs,
		itemIndex,
		url,
		acceptStatuses = [],
		repeat,
		toleranceSeconds: tolerance,
	}: RequestParameters = {},
): Promise<ServiceResponse> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const base = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	// Said before any call: the HTTP client would only report ERR_INVALID_URL.
	const problem = url === undefined ? baseUrlProblem(base) : undefined;
	if (problem) throw new NodeOperationError(this.getNode(), problem, { itemIndex });
	const gate = rateGate(String(credentials.apiKey ?? ''), bucketOf(method, path));
	const options = requestOptions(
		method,
		url === undefined ? `${base}${path}` : absoluteLink(url, `${base}${path}`),
	);
	if (body !== undefined) {
		options.body = JSON.stringify(body);
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	if (qs !== undefined) options.qs = qs;
	const policy = repeat ?? defaultRepeatPolicy(method, path);
	const toleranceSeconds = tolerance ?? outageToleranceOf(this, itemIndex);
	const circuit = circuitOf(String(credentials.apiKey ?? ''), base);
	const repeatedAfter: string[] = [];
	/**
	 * When this call met the outage or the rate limit: its first fault or 429, or the open
	 * circuit it found. Its Outage Tolerance counts from then, for both.
	 */
	let outageSince: number | undefined;
	let faults = 0;
	let sent = false;
	const deadline = () =>
		outageSince === undefined ? Number.POSITIVE_INFINITY : outageSince + toleranceSeconds * 1000;
	/** A refused connection or unknown host where nothing ever answered: a wrong Base URL. */
	const unproven = () => !circuit.everAnswered && circuit.lastFault?.address === true;
	const giveUp = () =>
		outageError(this, circuit, outageSince ?? Date.now(), toleranceSeconds, {
			method,
			path,
			sent,
			itemIndex,
		});

	/**
	 * After an attempt met a fault (`reason`): true when the call should be sent again, an answer
	 * when the policy's check found the write done, false when it may not be repeated (the caller
	 * throws its own error). Throws the outage error once the Outage Tolerance has run out.
	 */
	const mayRepeat = async (
		reason: string,
		probe: boolean,
		addressError = false,
	): Promise<boolean | ServiceResponse> => {
		const at = Date.now();
		circuit.failed({ reason, at, address: addressError }, probe);
		faults++;
		// Each call has its own Outage Tolerance, from when it met the outage: a long outage
		// costs a run time, one item per tolerance at most, not every item at once.
		outageSince ??= at;
		if (policy === 'no' || toleranceSeconds === 0) return false;
		if (unproven() && faults >= UNPROVEN_ADDRESS_TRIES) return false;
		if (Date.now() >= deadline()) throw giveUp();
		repeatedAfter.push(reason);
		// While the circuit is closed each call backs off on its own; once it is open, the call
		// waits at the circuit for the next probe instead.
		if (!circuit.isOpen)
			await sleep(Math.min(jitteredBackoff(faults - 1), deadline() - Date.now()));
		if (policy === 'yes') return true;
		const found = await policy();
		return found ? { ...found, repeatedAfter: [...repeatedAfter], url: options.url } : true;
	};

	for (let attempt = 1; ; attempt++) {
		let probe = false;
		if (circuit.isOpen && !unproven()) {
			outageSince ??= Date.now();
			const admission = await circuit.admit(deadline());
			if (admission === 'expired') throw giveUp();
			if (admission === 'probe') {
				// A call that may not be repeated never probes: a cheap read does, for it.
				if (policy === 'yes') probe = true;
				else if (!(await probeWithRead(this, circuit, base, credentials.apiKey))) continue;
			}
		}
		const answered = await gate.acquire();
		let response: FullResponse;
		try {
			sent = true;
			response = await authenticatedRequest(this, options, credentials.apiKey);
			answered();
		} catch (error) {
			answered();
			if (isNetworkError(error)) {
				const { reason, address } = networkFault(error);
				const next = await mayRepeat(reason, probe, address);
				if (next === true) continue;
				if (next !== false) return next;
			} else if (probe) circuit.probeDone();
			const unreachable = unreachableMessage(url ?? base, error);
			const failure = `The service could not be reached (${method} ${path})`;
			// n8n's helper may already have put its generic sentence in place of the code.
			const code = errorCode(error);
			const reason = (error as Error).message;
			const detail = code && !reason.includes(code) ? `${code}: ${reason}` : reason;
			// Not the error itself: NodeApiError would again put n8n's generic sentence for its
			// code in place of the message.
			throw new NodeApiError(this.getNode(), { message: reason } as JsonObject, {
				itemIndex,
				message: unreachable ?? failure,
				description: unreachable
					? `${failure} after ${attempt} ${attempt === 1 ? 'try' : 'tries'}: ${detail}`
					: detail,
			});
		}
		const status = response.statusCode;
		const { json, text } = parseBody(response.body);
		const readable = json !== undefined || status >= 300;
		if (status < 500 && readable) circuit.answered();

		if (status === 429) {
			// Waited out while the call's Outage Tolerance lasts: the service did nothing.
			const waitMs = retryAfterSeconds(response.headers) * 1000;
			outageSince ??= Date.now();
			gate.rateLimited(waitMs);
			if (Date.now() + waitMs <= deadline()) {
				await sleep(waitMs);
				continue;
			}
			throw rateLimitError(this, waitMs, toleranceSeconds, { method, path, itemIndex });
		}
		if (status >= 500) {
			const next = await mayRepeat(`HTTP ${status}`, probe);
			if (next === true) continue;
			if (next !== false) return next;
		}
		if ((status >= 200 && status < 300) || acceptStatuses.includes(status)) {
			if (json === undefined) {
				const next = await mayRepeat(`an unreadable answer (HTTP ${status})`, probe);
				if (next === true) continue;
				if (next !== false) return next;
				throw new NodeApiError(this.getNode(), { body: text.slice(0, 500) } as JsonObject, {
					itemIndex,
					httpCode: String(status),
					message: `The service answered ${method} ${path} with a body that is not JSON`,
					description: text.slice(0, 200),
				});
			}
			return { status, body: json, repeatedAfter, url: options.url };
		}
		throw serviceError(this, { status, body: json, text }, method, path, itemIndex);
	}
}

/** The error of a call whose 429 asked for a wait its Outage Tolerance cannot cover. */
function rateLimitError(
	context: ContainerTrackingContext,
	waitMs: number,
	toleranceSeconds: number,
	call: { method: IHttpRequestMethods; path: string; itemIndex?: number },
): NodeApiError {
	const who = call.itemIndex === undefined ? 'this call' : `item ${call.itemIndex}`;
	const message = `The service's rate limit held ${who} longer than its Outage Tolerance (it asked to wait ${spoken(waitMs)} more)`;
	return new NodeApiError(context.getNode(), { message } as JsonObject, {
		itemIndex: call.itemIndex,
		httpCode: '429',
		message,
		description: `${call.method} ${call.path} was not done: the service answered 429 and Outage Tolerance is ${toleranceSeconds} s (Options). Raise it to wait longer, or run the item again later; other workflows or processes using the same API key share its limit.`,
	});
}

/**
 * One request with the credential's authentication. n8n 2.x with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE (docs/guarantees.md, "Settings for a busy account")
 * evaluates the credential's header expression (`Token {{$credentials.apiKey}}`,
 * credentials/ContainerTrackingApi.credentials.ts)
 * in an isolate that an execution acquires at its first expression: the trigger's node has none
 * in an execution a delivery started, and its container reads failed there. The same header is
 * then sent here, from the credential already read.
 */
async function authenticatedRequest(
	context: ContainerTrackingContext,
	options: IHttpRequestOptions,
	apiKey: unknown,
): Promise<FullResponse> {
	// Any other failure goes to the caller as it came: it tells network faults by their codes and
	// wraps the rest in NodeApiError.
	return (await context.helpers.httpRequestWithAuthentication
		.call(context, CREDENTIAL_NAME, options)
		.catch(async (error: unknown) =>
			isNoIsolateError(error)
				? await context.helpers.httpRequest({
						...options,
						headers: { ...options.headers, Authorization: `Token ${String(apiKey ?? '')}` },
					})
				: await Promise.reject(error),
		)) as FullResponse;
}

/**
 * The probe of an open circuit for a call that may not be repeated: one cheap read (the first
 * container). True when the service answered (the circuit is closed again).
 */
async function probeWithRead(
	context: ContainerTrackingContext,
	circuit: Circuit,
	base: string,
	apiKey: unknown,
): Promise<boolean> {
	const answered = await rateGate(String(apiKey ?? ''), bucketOf('GET', '/containers')).acquire();
	try {
		const response = await authenticatedRequest(
			context,
			{ ...requestOptions('GET', `${base}/containers`), qs: { 'page[size]': 1 } },
			apiKey,
		);
		answered();
		if (response.statusCode >= 500) {
			circuit.failed(
				{ reason: `HTTP ${response.statusCode}`, at: Date.now(), address: false },
				true,
			);
			return false;
		}
		circuit.answered();
		return true;
	} catch (error) {
		answered();
		circuit.failed({ ...networkFault(error), at: Date.now() }, true);
		return false;
	}
}

/** The NodeApiError for an answer that is an error, with the service's own words. */
export function serviceError(
	context: ContainerTrackingContext,
	answer: { status: number; body: IDataObject | undefined; text?: string },
	method: string,
	path: string,
	itemIndex?: number,
): NodeApiError {
	const text = answer.text ?? '';
	const { message, description } = apiErrorMessage(answer.status, answer.body, text, method, path);
	return new NodeApiError(
		context.getNode(),
		(answer.body ?? { body: text.slice(0, 500) }) as JsonObject,
		{
			itemIndex,
			httpCode: String(answer.status),
			message,
			description,
		},
	);
}

/**
 * Reads an answer: the parts the operation cannot work without (`core`) must be there, or the
 * answer is an error; every other difference from what the interface promises (`full`) becomes
 * a warning for the items. The document comes back as the service sent it, so values no table
 * lists reach the items unchanged.
 */
export function readAnswer<Full extends z.ZodTypeAny>(
	context: ContainerTrackingContext,
	core: z.ZodTypeAny,
	full: Full,
	body: unknown,
	what: string,
	itemIndex?: number,
): { document: z.infer<Full>; warnings: DocumentWarnings } {
	requireCore(context, core, body, what, itemIndex);
	return { document: body as z.infer<Full>, warnings: documentWarnings(full, body) };
}

/** Throws a clear error when an answer lacks what the operation cannot work without. */
export function requireCore(
	context: ContainerTrackingContext,
	core: z.ZodTypeAny,
	body: unknown,
	what: string,
	itemIndex?: number,
): void {
	const parsed = core.safeParse(body);
	if (parsed.success) return;
	throw new NodeApiError(context.getNode(), { body } as unknown as JsonObject, {
		itemIndex,
		message: `The service's answer to ${what} lacks what the node needs`,
		description: describeIssues(parsed.error.issues),
	});
}

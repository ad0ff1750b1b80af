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

import { documentWarnings, type DocumentWarnings } from '../schemas/warnings';
import {
	apiErrorMessage,
	baseUrlProblem,
	describeIssues,
	errorCode,
	unreachableMessage,
} from './errors';
import { bucketOf, rateGate } from './rateLimit';

export type ContainerTrackingContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

export const CREDENTIAL_NAME = 'containerTrackingApi';

/** Longest Retry-After the node waits out on its own; longer ones fail the item with a clear message. */
export const MAX_RETRY_AFTER_SECONDS = 120;
/** Tries for one call: the first and the retries after 429, 5xx and network errors. */
export const MAX_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 500;
const REQUEST_TIMEOUT_MS = 60_000;

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
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
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
 * One call to the service, authenticated by the credential, paced to the service's rate
 * limits, repeated after a 429 (once Retry-After has passed) and, as its repeat policy allows,
 * after 5xx answers, dropped connections and unreadable answers (with backoff). Errors become
 * NodeApiErrors carrying the service's own message.
 */
export async function containerTrackingRequest(
	this: ContainerTrackingContext,
	method: IHttpRequestMethods,
	path: string,
	{ body, qs, itemIndex, url, acceptStatuses = [], repeat }: RequestParameters = {},
): Promise<ServiceResponse> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const base = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	// Said before any call: the HTTP client would only report ERR_INVALID_URL.
	const problem = url === undefined ? baseUrlProblem(base) : undefined;
	if (problem) throw new NodeOperationError(this.getNode(), problem, { itemIndex });
	const gate = rateGate(String(credentials.apiKey ?? ''), bucketOf(method, path));
	const options: IHttpRequestOptions = {
		method,
		url: url ?? `${base}${path}`,
		headers: { Accept: 'application/json' },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		encoding: 'text',
		json: false,
		timeout: REQUEST_TIMEOUT_MS,
	};
	if (body !== undefined) {
		options.body = JSON.stringify(body);
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	if (qs !== undefined) options.qs = qs;
	const policy = repeat ?? defaultRepeatPolicy(method, path);
	const repeatedAfter: string[] = [];

	/**
	 * After an attempt whose outcome is unknown: true when the call should be sent again, an
	 * answer when the policy's check found the write done, false when it may not be repeated.
	 */
	const mayRepeat = async (attempt: number, reason: string): Promise<boolean | ServiceResponse> => {
		if (policy === 'no' || attempt >= MAX_ATTEMPTS) return false;
		repeatedAfter.push(reason);
		await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1));
		if (policy === 'yes') return true;
		const found = await policy();
		return found ? { ...found, repeatedAfter: [...repeatedAfter] } : true;
	};

	for (let attempt = 1; ; attempt++) {
		const answered = await gate.acquire();
		let response: FullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				options,
			)) as FullResponse;
			answered();
		} catch (error) {
			answered();
			if (isNetworkError(error)) {
				const next = await mayRepeat(attempt, errorCode(error) ?? (error as Error).message);
				if (next === true) continue;
				if (next !== false) return next;
			}
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

		if (status === 429 && attempt < MAX_ATTEMPTS) {
			const wait = retryAfterSeconds(response.headers);
			if (wait <= MAX_RETRY_AFTER_SECONDS) {
				gate.blockFor(wait * 1000);
				await sleep(wait * 1000);
				continue;
			}
		}
		if (status >= 500) {
			const next = await mayRepeat(attempt, `HTTP ${status}`);
			if (next === true) continue;
			if (next !== false) return next;
		}
		if ((status >= 200 && status < 300) || acceptStatuses.includes(status)) {
			if (json === undefined) {
				const next = await mayRepeat(attempt, `an unreadable answer (HTTP ${status})`);
				if (next === true) continue;
				if (next !== false) return next;
				throw new NodeApiError(this.getNode(), { body: text.slice(0, 500) } as JsonObject, {
					itemIndex,
					httpCode: String(status),
					message: `The service answered ${method} ${path} with a body that is not JSON`,
					description: text.slice(0, 200),
				});
			}
			return { status, body: json, repeatedAfter };
		}
		throw serviceError(this, { status, body: json, text }, method, path, itemIndex);
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

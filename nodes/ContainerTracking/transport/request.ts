import {
	NodeApiError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';
import type { z } from 'zod';

import { apiErrorMessage, describeIssues } from './errors';
import { bucketOf, rateGate } from './rateLimit';

export type ContainerTrackingContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export const CREDENTIAL_NAME = 'containerTrackingApi';

/** Longest Retry-After the node waits out on its own; longer ones fail the item with a clear message. */
export const MAX_RETRY_AFTER_SECONDS = 120;
/** Tries for one call: the first and the retries after 429, 5xx and network errors. */
export const MAX_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 500;
const REQUEST_TIMEOUT_MS = 60_000;

export interface RequestParameters {
	body?: IDataObject;
	qs?: IDataObject;
	/** Index of the item the call is for, so that errors name it. */
	itemIndex?: number;
	/** A full URL to call instead of base URL + path (pagination links). */
	url?: string;
	/** Statuses that are answers rather than errors for this call (e.g. 404 when checking existence). */
	acceptStatuses?: number[];
}

export interface ServiceResponse {
	status: number;
	body: IDataObject;
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/** Reads are safe to repeat; so is infer_number (a POST that changes nothing) and DELETE. */
function isRetryable(method: IHttpRequestMethods, path: string): boolean {
	return (
		method === 'GET' || method === 'DELETE' || path.startsWith('/tracking_requests/infer_number')
	);
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

function isNetworkError(error: unknown): boolean {
	const code =
		(error as { code?: string; cause?: { code?: string } })?.code ??
		(error as { cause?: { code?: string } })?.cause?.code;
	return (
		(typeof code === 'string' &&
			[
				'ECONNRESET',
				'ECONNREFUSED',
				'ETIMEDOUT',
				'EPIPE',
				'ECONNABORTED',
				'ENOTFOUND',
				'EAI_AGAIN',
				'ERR_BAD_RESPONSE',
				'ESOCKETTIMEDOUT',
			].includes(code)) ||
		/socket hang up|timeout|ECONNRESET/i.test((error as Error)?.message ?? '')
	);
}

/**
 * One call to the service, authenticated by the credential, paced to the service's rate
 * limits, retried on 429 (after Retry-After), and for calls safe to repeat on 5xx and network
 * errors (with backoff). Errors become NodeApiErrors carrying the service's own message.
 */
export async function containerTrackingRequest(
	this: ContainerTrackingContext,
	method: IHttpRequestMethods,
	path: string,
	{ body, qs, itemIndex, url, acceptStatuses = [] }: RequestParameters = {},
): Promise<ServiceResponse> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const base = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
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
	const retryable = isRetryable(method, path);

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
			if (retryable && attempt < MAX_ATTEMPTS && isNetworkError(error)) {
				await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1));
				continue;
			}
			throw new NodeApiError(this.getNode(), error as JsonObject, {
				itemIndex,
				message: `The service could not be reached (${method} ${path})`,
				description: (error as Error).message,
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
		if (status >= 500 && retryable && attempt < MAX_ATTEMPTS) {
			await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1));
			continue;
		}
		if ((status >= 200 && status < 300) || acceptStatuses.includes(status)) {
			if (json === undefined) {
				if (retryable && attempt < MAX_ATTEMPTS) {
					await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1));
					continue;
				}
				throw new NodeApiError(this.getNode(), { body: text.slice(0, 500) } as JsonObject, {
					itemIndex,
					httpCode: String(status),
					message: `The service answered ${method} ${path} with a body that is not JSON`,
					description: text.slice(0, 200),
				});
			}
			return { status, body: json };
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

/** Checks an answer against its schema at the boundary: a malformed answer is a clear error here. */
export function parseAnswer<Schema extends z.ZodTypeAny>(
	context: ContainerTrackingContext,
	schema: Schema,
	body: unknown,
	what: string,
	itemIndex?: number,
): z.infer<Schema> {
	const parsed = schema.safeParse(body);
	if (parsed.success) return parsed.data;
	throw new NodeApiError(context.getNode(), { body } as unknown as JsonObject, {
		itemIndex,
		message: `The service's answer to ${what} does not have the expected shape`,
		description: describeIssues(parsed.error.issues),
	});
}

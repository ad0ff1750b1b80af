import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

import type { JsonApiError } from '../schemas';
import { isRecord } from '../schemas/values';

/**
 * The error to throw for an item: errors the node already raised keep their HTTP details and
 * gain the item index; anything else becomes a NodeOperationError naming the item.
 */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** The code of a failed connection, on the error or on its cause (axios, undici). */
export function errorCode(error: unknown): string | undefined {
	const code =
		(error as { code?: string; cause?: { code?: string } })?.code ??
		(error as { cause?: { code?: string } })?.cause?.code;
	return typeof code === 'string' ? code : undefined;
}

/** The host a base URL names, for messages; the text itself when it names none. */
export function hostOf(baseUrl: string): string {
	try {
		return new URL(baseUrl).host || baseUrl;
	} catch {
		return baseUrl;
	}
}

/**
 * Why a base URL cannot be called at all, in a sentence, or undefined when it can. Said before
 * any call, so that a typo is not reported as the bare `ERR_INVALID_URL` of the HTTP client.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	const shape = 'it must start with https:// (http:// for the local sandbox) and end in /v2';
	if (!baseUrl) return `The credential has no Base URL: ${shape}`;
	try {
		if (['http:', 'https:'].includes(new URL(baseUrl).protocol)) return undefined;
	} catch {
		// Not parsable: said below, as for another scheme.
	}
	return `"${baseUrl}" is not a URL: ${shape}`;
}

/** Connection failures that mean no service answers at the host, and how each is put. */
const UNREACHABLE: Record<string, string> = {
	ECONNREFUSED: 'it refused the connection',
	ENOTFOUND: 'no such host',
	EAI_AGAIN: 'its name could not be looked up',
	ETIMEDOUT: 'no answer in time',
	ESOCKETTIMEDOUT: 'no answer in time',
	ECONNABORTED: 'no answer in time',
	UND_ERR_CONNECT_TIMEOUT: 'no answer in time',
	EHOSTUNREACH: 'the host cannot be reached',
	ENETUNREACH: 'the host cannot be reached',
};

/**
 * The sentence for a call that found nothing listening at the base URL's host, or undefined
 * for other failures. It must not contain the code itself: NodeApiError would replace a
 * message naming ECONNREFUSED and the like with n8n's generic one.
 */
export function unreachableMessage(baseUrl: string, error: unknown): string | undefined {
	const code = errorCode(error);
	const why = code === undefined ? undefined : UNREACHABLE[code];
	if (!why) return undefined;
	const host = hostOf(baseUrl);
	const local = /^(127\.0\.0\.1|localhost|\[::1\])(:|$)/.test(host)
		? '; for the local sandbox, start it with npm run sandbox'
		: '';
	return `Nothing is listening at ${host} (${why}): check the Base URL in the credential${local}`;
}

const STATUS_MEANINGS: Record<number, string> = {
	400: 'The service rejected the request',
	401: 'The API key was refused (missing, malformed or unknown): check the credential',
	403: 'The account is not entitled to this feature',
	404: 'Not found',
	422: 'The service could not accept the request',
	429: 'The service rate limit was reached',
};

/**
 * The message users read: each error's `detail`, else `title`, else `code`, with the field it
 * points at (docs/service.md, "Errors"); a body that is not JSON still gives a sensible message.
 */
export function apiErrorMessage(
	status: number,
	body: { errors?: unknown } | undefined,
	text: string,
	method: string,
	path: string,
): { message: string; description: string } {
	// Any member may be missing, and an answer may not follow JSON:API at all.
	const errors: Array<Partial<JsonApiError>> = Array.isArray(body?.errors)
		? body.errors.filter(isRecord)
		: [];
	const parts = errors
		.map((error) => {
			const what = error.detail ?? error.title ?? error.code ?? null;
			const where = error.source?.pointer ?? error.source?.parameter;
			if (!what) return null;
			return where ? `${what} (${where})` : what;
		})
		.filter((part): part is string => Boolean(part));
	const meaning =
		STATUS_MEANINGS[status] ??
		(status >= 500 ? 'The service failed' : 'The service refused the request');
	let message = parts.length > 0 ? parts.join('; ') : meaning;
	// "Not Found" alone does not say what was looked for.
	if (status === 404) message = `${message} (${method} ${path})`;
	const codes = errors.map((error) => error.code).filter(Boolean);
	const description = [
		`${meaning} (HTTP ${status} for ${method} ${path}).`,
		codes.length > 0 ? `Code: ${codes.join(', ')}.` : '',
		// A page that is not JSON:API at all: the base URL leads somewhere else than the API.
		status === 404 && body === undefined
			? 'Something answers at the Base URL, but not as the service: it must end in /v2.'
			: '',
		errors.length === 0 && text ? `Answer: ${text.replace(/\s+/g, ' ').slice(0, 200)}` : '',
	]
		.filter(Boolean)
		.join(' ');
	return { message, description };
}

/** A short, readable list of zod issues: where, and what was wrong. */
export function describeIssues(
	issues: Array<{ path: Array<string | number>; message: string }>,
): string {
	const shown = issues
		.slice(0, 5)
		.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
	if (issues.length > 5) shown.push(`and ${issues.length - 5} more`);
	return shown.join('; ');
}

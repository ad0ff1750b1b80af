import { NodeApiError, NodeOperationError, type INode } from 'n8n-workflow';

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

interface ServiceErrorObject {
	status?: string;
	title?: string | null;
	detail?: string | null;
	code?: string | null;
	source?: { pointer?: string; parameter?: string } | null;
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
 * points at (service notes, "Errors"); a body that is not JSON still gives a sensible message.
 */
export function apiErrorMessage(
	status: number,
	body: { errors?: unknown } | undefined,
	text: string,
	method: string,
	path: string,
): { message: string; description: string } {
	const errors = Array.isArray(body?.errors) ? (body.errors as ServiceErrorObject[]) : [];
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

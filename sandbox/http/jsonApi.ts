/**
 * JSON:API answers and errors as the service sends them (docs/service.md, "Errors"): `status` is
 * a string, `title`/`detail` may be missing, 422s carry `code` and `source.pointer`.
 */
export type { JsonApiError as ErrorObject } from '../../nodes/ContainerTracking/schemas';
import type { JsonApiError as ErrorObject } from '../../nodes/ContainerTracking/schemas';

export interface ApiAnswer {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly errors: ErrorObject[],
		readonly headers: Record<string, string> = {},
	) {
		super(errors.map((error) => error.detail ?? error.title ?? error.code).join('; '));
	}

	toAnswer(): ApiAnswer {
		return { status: this.status, body: { errors: this.errors }, headers: this.headers };
	}
}

export function notFound(): ApiError {
	return new ApiError(404, [{ status: '404', title: 'Not Found' }]);
}

export function unprocessable(detail: string, pointer: string, code: string): ApiError {
	return new ApiError(422, [
		{ status: '422', title: 'Unprocessable Entity', detail, code, source: { pointer } },
	]);
}

/** 409: what was asked cannot happen in the record's current state (the detail names it). */
export function conflict(detail: string, source: ErrorObject['source']): ApiError {
	return new ApiError(409, [
		{ status: '409', title: 'Conflict', detail, code: 'invalid_state', source },
	]);
}

export function badRequest(detail: string, source: ErrorObject['source'], code: string): ApiError {
	return new ApiError(400, [{ status: '400', title: 'Bad Request', detail, code, source }]);
}

/** Collects 422 errors so that one answer lists every invalid field, as the service does. */
export class ValidationErrors {
	private readonly errors: ErrorObject[] = [];

	add(detail: string, pointer: string, code: string): void {
		this.errors.push({
			status: '422',
			title: 'Unprocessable Entity',
			detail,
			code,
			source: { pointer },
		});
	}

	throwIfAny(): void {
		if (this.errors.length > 0) throw new ApiError(422, this.errors);
	}
}

export const HTML_NOT_FOUND_PAGE = `<!DOCTYPE html>
<html>
<head><title>The page you were looking for doesn't exist (404)</title></head>
<body><h1>The page you were looking for doesn't exist.</h1>
<p>You may have mistyped the address or the page may have moved.</p></body>
</html>
`;

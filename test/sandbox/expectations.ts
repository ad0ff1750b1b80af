// Assertions shared by the sandbox tests: every answer is checked against the zod schema of what
// the service sends, and failures list the zod issues with their paths.
import type { AxiosResponse } from 'axios';
import type { z } from 'zod';

import type { JsonApiError } from '../../nodes/ContainerTracking/schemas';
import { jsonApiErrorDocument } from '../support/errorDocument';
import { expectSchema } from '../support/schemaAssertions';

export const JSON_API_CONTENT_TYPE = 'application/vnd.api+json';

export { expectSchema };

function describeResponse(response: AxiosResponse): string {
	const body = typeof response.data === 'string' ? response.data : JSON.stringify(response.data);
	return `${response.config.method?.toUpperCase()} ${response.config.url} answered ${response.status}: ${String(body).slice(0, 600)}`;
}

/** The answer has `status`, a JSON:API content type and a body that passes `schema`. */
export function expectOk<Schema extends z.ZodTypeAny>(
	response: AxiosResponse,
	status: number,
	schema: Schema,
): z.infer<Schema> {
	if (response.status !== status)
		throw new Error(`expected ${status}; ${describeResponse(response)}`);
	expect(String(response.headers['content-type'])).toContain(JSON_API_CONTENT_TYPE);
	return expectSchema(
		schema,
		response.data,
		`${response.config.method?.toUpperCase()} ${response.config.url}`,
	);
}

/** The answer is a JSON:API error document with `status`; returns its errors. */
export function expectApiError(response: AxiosResponse, status: number): JsonApiError[] {
	if (response.status !== status)
		throw new Error(`expected ${status}; ${describeResponse(response)}`);
	expect(String(response.headers['content-type'])).toContain(JSON_API_CONTENT_TYPE);
	const document = expectSchema(jsonApiErrorDocument, response.data, `${status} error body`);
	expect(document.errors.length).toBeGreaterThan(0);
	for (const error of document.errors) expect(error.status).toBe(String(status));
	return document.errors;
}

/** The `source.pointer` of every error, in order. */
export function pointersOf(errors: JsonApiError[]): Array<string | undefined> {
	return errors.map((error) => error.source?.pointer);
}

// Schema assertions shared by every suite: a value is parsed with the zod schema of what the
// service sends, and a failure lists every zod issue with its path (and the start of the value).
import type { z } from 'zod';

export function formatIssues(error: z.ZodError): string {
	return error.issues
		.map((issue) => `  at ${issue.path.join('.') || '(root)'}: ${issue.message} [${issue.code}]`)
		.join('\n');
}

/** Parses `value` with `schema`; on failure throws with every zod issue and the value itself. */
export function expectSchema<Schema extends z.ZodTypeAny>(
	schema: Schema,
	value: unknown,
	label = 'value',
): z.infer<Schema> {
	const result = schema.safeParse(value);
	if (!result.success) {
		const shown = JSON.stringify(value)?.slice(0, 600);
		throw new Error(
			`${label} does not match its schema:\n${formatIssues(result.error)}\nvalue: ${shown}`,
		);
	}
	return result.data;
}

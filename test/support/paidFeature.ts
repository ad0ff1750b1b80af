import type { INodeExecutionData } from 'n8n-workflow';

/**
 * Each item of a run with Continue On Fail, on an account without a paid feature: the node's
 * sentence `refusal`, and the service's own reason in the description.
 */
export function expectEveryItemRefused(
	run: { items: INodeExecutionData[]; error?: unknown },
	count: number,
	refusal: string,
): void {
	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(count);
	for (const item of run.items) {
		expect(item.json.error).toBe(refusal);
		expect(String(item.json.error_description ?? item.json.description ?? '')).toContain(
			'not enabled for this account',
		);
	}
}

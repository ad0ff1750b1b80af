/**
 * The service's limits per API key over a rolling minute (docs/service.md, "Rate limits"):
 * `infer_number` has its own bucket of 200, creating tracking requests 100, refreshing a
 * container 10, everything else 100. The node paces itself to them; the sandbox enforces them.
 */
export const RATE_LIMITS = {
	infer_number: 200,
	tracking_requests: 100,
	refresh: 10,
	default: 100,
} as const;

export type RateBucket = keyof typeof RATE_LIMITS;

/** The bucket a call counts against. */
export function bucketOf(method: string, path: string): RateBucket {
	if (path.startsWith('/tracking_requests/infer_number')) return 'infer_number';
	if (method === 'POST' && /^\/tracking_requests\/?$/.test(path)) return 'tracking_requests';
	if (method === 'PATCH' && /^\/containers\/[^/]+\/refresh\/?$/.test(path)) return 'refresh';
	return 'default';
}

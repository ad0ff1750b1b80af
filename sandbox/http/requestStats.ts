/**
 * What the service's API (/v2) was asked since the last reset (`GET /_sandbox/stats`, `DELETE`
 * resets): calls by API key, then by route (`GET /containers/:id`, the pattern the call matched,
 * or `GET (unknown route)`), each by the status it was answered with (`none` when the connection
 * closed without an answer: a dropped call, an outage's `timeout`). A bench or test reads how
 * many calls a client made and how many met the rate limit (429), key by key, without injecting
 * anything into the traffic.
 */

/** A call that got no answer: the connection was closed first. */
export const NO_ANSWER = 'none';

export interface RouteCounts {
	calls: number;
	/** Calls answered 429. */
	rate_limited: number;
	/** Calls by the status they were answered with, `none` for no answer. */
	statuses: Record<string, number>;
}

export interface KeyCounts extends RouteCounts {
	by_route: Record<string, RouteCounts>;
}

export interface RequestStatsBody extends RouteCounts {
	/** When counting started: the sandbox's start or the last reset (real time). */
	since: string;
	/** By the API key the call presented (`(none)` without one, the key as sent otherwise). */
	by_api_key: Record<string, KeyCounts>;
}

function emptyCounts(): RouteCounts {
	return { calls: 0, rate_limited: 0, statuses: {} };
}

function count(counts: RouteCounts, status: string): void {
	counts.calls += 1;
	if (status === '429') counts.rate_limited += 1;
	counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
}

export class RequestStats {
	private since = new Date();
	private total = emptyCounts();
	private byKey = new Map<string, KeyCounts>();

	/** One call to /v2, once it was answered (`status`) or closed without an answer (null). */
	record(apiKey: string, route: string, status: number | null): void {
		const answered = status === null ? NO_ANSWER : String(status);
		let key = this.byKey.get(apiKey);
		if (!key) {
			key = { ...emptyCounts(), by_route: {} };
			this.byKey.set(apiKey, key);
		}
		key.by_route[route] ??= emptyCounts();
		for (const counts of [this.total, key, key.by_route[route]]) count(counts, answered);
	}

	reset(): void {
		this.since = new Date();
		this.total = emptyCounts();
		this.byKey = new Map();
	}

	body(): RequestStatsBody {
		return {
			since: this.since.toISOString(),
			...structuredClone(this.total),
			by_api_key: structuredClone(Object.fromEntries(this.byKey)),
		};
	}
}

/**
 * The key of an `Authorization: Token <key>` header: the word Token, one space, the key
 * (docs/service.md, "Base URL and authentication"); undefined when the header has another shape.
 */
export function tokenOf(header: string): string | undefined {
	return /^Token ([^\s]+)$/.exec(header)?.[1];
}

/** The key a call presented, as the stats name it. */
export function presentedKey(header: string | undefined): string {
	if (!header) return '(none)';
	return tokenOf(header) ?? '(malformed)';
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Sandbox code, not node code: the timer ends an outage's held calls.
/**
 * A time-based outage of the service, set through the control API (`POST /_sandbox/outage`),
 * the CLI (`--outage 30s@60s`) or a test (`sandbox.outage.start`): for `seconds` of REAL time
 * (not sandbox clock time), from `afterSeconds` after it is set, every call to the service API
 * fails before the service handles it (nothing is created or changed); then the service
 * recovers by itself. The control API and webhook deliveries keep working.
 *
 * How a call fails: `500` and `503` answer a JSON:API error, `drop` destroys the socket without
 * an answer, `timeout` holds the call unanswered until the outage ends and then destroys its
 * socket, `mix` takes 500, 503 and drop in turn, call by call.
 *
 * The calls that arrive while the service is down are counted (in all, and by method and route)
 * for the current or last outage; setting a new outage resets the counts.
 */

export const OUTAGE_KINDS = ['500', '503', 'drop', 'timeout', 'mix'] as const;
export type OutageKind = (typeof OUTAGE_KINDS)[number];

/** How one call fails: `mix` picks one of the first three in turn. */
export type OutageFailure = Exclude<OutageKind, 'mix'>;

const MIX: readonly OutageFailure[] = ['500', '503', 'drop'];

export const DEFAULT_OUTAGE_KIND: OutageKind = 'mix';

export interface OutageSpec {
	/** Real seconds the service stays down (more than 0). */
	seconds: number;
	kind?: OutageKind;
	/** Real seconds from now before it goes down (default 0: at once). */
	afterSeconds?: number;
}

/** What `GET /_sandbox/outage` answers, named as the control API names it. */
export interface OutageStatus {
	/** Whether the service is down right now. */
	active: boolean;
	/** Whether an outage is set to start later. */
	scheduled: boolean;
	kind: OutageKind | null;
	/** When the service went (or, while scheduled, will go) down; ISO 8601. */
	started_at: string | null;
	/** When it recovers (or recovered; the moment of a `DELETE` when ended early). */
	ends_at: string | null;
	/** Real seconds until it recovers (counting the wait while scheduled); 0 when it is up. */
	seconds_left: number;
	/** Calls to the service API that arrived while it was down, in this outage or the last. */
	calls_during_outage: number;
	/** The same, by `METHOD /route` (the route's pattern, e.g. `GET /containers/:id`). */
	calls_during_outage_by_route: Record<string, number>;
}

interface Window {
	kind: OutageKind;
	startsAt: number;
	endsAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class Outage {
	private window: Window | undefined;
	private calls = 0;
	private byRoute: Record<string, number> = {};
	/** Sockets held by `timeout` calls, destroyed when the outage ends. */
	private held = new Set<() => void>();
	private releaseTimer: NodeJS.Timeout | undefined;

	constructor(private readonly now: () => number = Date.now) {}

	/** Sets an outage, replacing any other (ended at once) and resetting the counts. */
	start(spec: OutageSpec): OutageStatus {
		this.releaseHeld();
		const startsAt = this.now() + (spec.afterSeconds ?? 0) * 1000;
		this.window = {
			kind: spec.kind ?? DEFAULT_OUTAGE_KIND,
			startsAt,
			endsAt: startsAt + spec.seconds * 1000,
		};
		this.calls = 0;
		this.byRoute = {};
		return this.status();
	}

	/**
	 * Ends the outage under way at once (its counts stay readable), or cancels one not started
	 * yet; nothing when the service is up.
	 */
	end(): OutageStatus {
		const now = this.now();
		if (this.window && now < this.window.startsAt) this.window = undefined;
		else if (this.window && now < this.window.endsAt) this.window.endsAt = now;
		this.releaseHeld();
		return this.status();
	}

	status(): OutageStatus {
		const now = this.now();
		const window = this.window;
		return {
			active: this.isDown(now),
			scheduled: window !== undefined && now < window.startsAt,
			kind: window?.kind ?? null,
			started_at: window ? iso(window.startsAt) : null,
			ends_at: window ? iso(window.endsAt) : null,
			seconds_left: window ? Math.max(0, (window.endsAt - now) / 1000) : 0,
			calls_during_outage: this.calls,
			calls_during_outage_by_route: { ...this.byRoute },
		};
	}

	/**
	 * How this call fails, counted under `route` (`METHOD /pattern`), or undefined when the
	 * service is up.
	 */
	take(route: string): OutageFailure | undefined {
		const window = this.window;
		if (!window || !this.isDown(this.now())) return undefined;
		this.calls += 1;
		this.byRoute[route] = (this.byRoute[route] ?? 0) + 1;
		return window.kind === 'mix' ? MIX[(this.calls - 1) % MIX.length] : window.kind;
	}

	/** Runs `release` when the outage ends (by itself or through `end`): for `timeout` calls. */
	hold(release: () => void): void {
		const window = this.window;
		if (!window || !this.isDown(this.now())) {
			release();
			return;
		}
		this.held.add(release);
		if (this.releaseTimer === undefined) {
			this.releaseTimer = setTimeout(() => this.releaseHeld(), window.endsAt - this.now());
			this.releaseTimer.unref();
		}
	}

	private isDown(now: number): boolean {
		return this.window !== undefined && now >= this.window.startsAt && now < this.window.endsAt;
	}

	private releaseHeld(): void {
		clearTimeout(this.releaseTimer);
		this.releaseTimer = undefined;
		const held = [...this.held];
		this.held.clear();
		for (const release of held) release();
	}
}

const DURATION = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/;

/** `30s`, `2m`, `1m30s`, `1h`, or a bare number of seconds, in seconds; undefined otherwise. */
export function parseDuration(text: string): number | undefined {
	const trimmed = text.trim();
	if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed);
	const found = DURATION.exec(trimmed);
	if (!found || trimmed === '') return undefined;
	const [hours, minutes, seconds] = found.slice(1).map((part) => Number(part ?? 0));
	return hours * 3600 + minutes * 60 + seconds;
}

/**
 * The CLI's `--outage <duration>[@<start>]`: an outage of `duration` starting `start` after the
 * sandbox is ready (at once without `@`), e.g. `30s@60s`, `2m@1m30s`.
 */
export function parseOutageSchedule(text: string): { seconds: number; afterSeconds: number } {
	const [length, start, ...rest] = text.split('@');
	const seconds = parseDuration(length);
	const afterSeconds = start === undefined ? 0 : parseDuration(start);
	if (rest.length > 0 || seconds === undefined || seconds <= 0 || afterSeconds === undefined)
		throw new Error(
			`--outage must be <duration>[@<start>], such as 30s@60s, 2m or 1m30s@10s, got "${text}"`,
		);
	return { seconds, afterSeconds };
}

/** `500` and `503` may come as numbers in a JSON body; undefined for anything not a kind. */
export function outageKind(value: unknown): OutageKind | undefined {
	const text = typeof value === 'number' ? String(value) : value;
	return typeof text === 'string' && (OUTAGE_KINDS as readonly string[]).includes(text)
		? (text as OutageKind)
		: undefined;
}

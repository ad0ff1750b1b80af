/**
 * Faults injected through the control API: they let tests see how clients cope with a failing
 * service without mocking it.
 *
 * A fault matches requests by path (and optionally method) and applies either to the next
 * `count` of them (`remaining`), or to a share `rate` (0 to 1) of them until cleared. Rate
 * faults draw from a seeded generator (`seed`, default `DEFAULT_FAULT_SEED`), so that the same
 * requests in the same order meet the same faults on every run. A request draws once against
 * all the rate faults that match it and gets at most one of them, so their rates add up (5 %
 * `error_500` + 3 % `drop` + 3 % `rate_limited` fail 11 % of the requests). A count fault that
 * matches is used before any rate fault.
 *
 * `when` says whether the fault strikes `before` the request is processed (nothing happens on
 * the service's side) or `after` it (a tracking request or webhook IS created, then its answer
 * is lost: a 500, a dropped connection or a truncated body instead). `rate_limited`, `slow` and
 * `refused` (a 422 for a request the service will not take, not a duplicate) only strike before. `malformed` truncates the real answer, so it defaults to `after`; before,
 * it truncates a placeholder document and nothing is processed.
 */
import { SeededRandom } from '../world/random';

export const FAULT_KINDS = [
	'error_500',
	'rate_limited',
	'slow',
	'malformed',
	'drop',
	'refused',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const FAULT_TIMINGS = ['before', 'after'] as const;
export type FaultTiming = (typeof FAULT_TIMINGS)[number];

/** Kinds that only make sense before the request is processed. */
export const BEFORE_ONLY_FAULT_KINDS: readonly FaultKind[] = ['rate_limited', 'slow', 'refused'];

/** Seed of the rate faults' generator until one is given, and again after a clear. */
export const DEFAULT_FAULT_SEED = 'sandbox-faults';

/** When a fault strikes unless told: `malformed` cuts a real answer short, the others come first. */
export function defaultTiming(kind: FaultKind): FaultTiming {
	return kind === 'malformed' ? 'after' : 'before';
}

export interface Fault {
	id: number;
	/** Path under /v2, e.g. `/containers/abc` or `/containers/*` (`*` matches one segment or more). */
	path: string;
	method: string | null;
	kind: FaultKind;
	/** `before`: the request is not processed; `after`: it is, and its answer is replaced. */
	when: FaultTiming;
	/** Count faults: how many more matching requests it applies to; null for a rate fault. */
	remaining: number | null;
	/** Rate faults: the share (0 to 1) of matching requests it applies to; null for a count fault. */
	rate: number | null;
	/** How many requests it has applied to so far. */
	fired: number;
	/** For `slow`: real milliseconds before the normal answer. */
	delayMs: number;
	/** For `rate_limited`: the Retry-After value in seconds. */
	retryAfterSeconds: number;
}

export type FaultSpec = Omit<Fault, 'id' | 'fired'>;

function pathMatcher(pattern: string): RegExp {
	const escaped = pattern
		.split('*')
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
		.join('.+');
	return new RegExp(`^${escaped}$`);
}

export class FaultInjector {
	private faults: Fault[] = [];
	private nextId = 1;
	private currentSeed = DEFAULT_FAULT_SEED;
	private random = new SeededRandom(DEFAULT_FAULT_SEED);

	add(spec: FaultSpec): Fault {
		const added: Fault = { ...spec, id: this.nextId++, fired: 0 };
		this.faults.push(added);
		return { ...added };
	}

	list(): Fault[] {
		return this.faults.map((fault) => ({ ...fault }));
	}

	/** Removes every fault and restarts the generator from the default seed. */
	clear(): void {
		this.faults = [];
		this.reseed(DEFAULT_FAULT_SEED);
	}

	/** Restarts the rate faults' generator from `seed`. */
	reseed(seed: string): void {
		this.currentSeed = seed;
		this.random = new SeededRandom(seed);
	}

	get seed(): string {
		return this.currentSeed;
	}

	/**
	 * The fault that applies to this request, if any. A count fault is used up by the call; rate
	 * faults draw once, and the draw falls in at most one of their shares.
	 */
	take(method: string, path: string): Fault | undefined {
		const matching = this.faults.filter(
			(candidate) =>
				(candidate.method === null || candidate.method === method) &&
				pathMatcher(candidate.path).test(path),
		);
		const counted = matching.find((fault) => fault.rate === null);
		if (counted) {
			counted.fired += 1;
			counted.remaining = (counted.remaining ?? 1) - 1;
			if (counted.remaining <= 0) this.faults = this.faults.filter((kept) => kept !== counted);
			return { ...counted };
		}
		const rated = matching.filter((fault) => fault.rate !== null);
		if (rated.length === 0) return undefined;
		const draw = this.random.next();
		let threshold = 0;
		for (const fault of rated) {
			threshold += fault.rate ?? 0;
			if (draw < threshold) {
				fault.fired += 1;
				return { ...fault };
			}
		}
		return undefined;
	}
}

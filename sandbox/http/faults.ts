/**
 * Faults injected through the control API for the next N requests on a path: they let tests
 * see how clients cope with a failing service without mocking it.
 */
export const FAULT_KINDS = ['error_500', 'rate_limited', 'slow', 'malformed', 'drop'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
	id: number;
	/** Path under /v2, e.g. `/containers/abc` or `/containers/*` (`*` matches one segment or more). */
	path: string;
	method: string | null;
	kind: FaultKind;
	remaining: number;
	/** For `slow`: real milliseconds before the normal answer. */
	delayMs: number;
	/** For `rate_limited`: the Retry-After value in seconds. */
	retryAfterSeconds: number;
}

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

	add(fault: Omit<Fault, 'id'>): Fault {
		const added = { ...fault, id: this.nextId++ };
		this.faults.push(added);
		return added;
	}

	list(): Fault[] {
		return this.faults.map((fault) => ({ ...fault }));
	}

	clear(): void {
		this.faults = [];
	}

	/** The fault that applies to this request, if any; it is used up by the call. */
	take(method: string, path: string): Fault | undefined {
		const fault = this.faults.find(
			(candidate) =>
				(candidate.method === null || candidate.method === method) &&
				pathMatcher(candidate.path).test(path),
		);
		if (!fault) return undefined;
		fault.remaining -= 1;
		if (fault.remaining <= 0) this.faults = this.faults.filter((kept) => kept !== fault);
		return { ...fault };
	}
}

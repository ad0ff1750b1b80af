/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * The sandbox clock. It runs `timeScale` times faster than real time (so that one-minute rate
 * windows and day-long journeys fit in a test), and jumps forward when the control API
 * advances it. Everything time-based in the sandbox reads this clock.
 */
export class SandboxClock {
	private realBase = Date.now();
	private sandboxBase: number;

	constructor(
		readonly timeScale = 1,
		start = Date.now(),
	) {
		if (!(timeScale > 0)) throw new Error(`time scale must be positive, got ${timeScale}`);
		this.sandboxBase = start;
	}

	/** Sandbox time, in epoch milliseconds. */
	now(): number {
		return this.sandboxBase + (Date.now() - this.realBase) * this.timeScale;
	}

	nowIso(): string {
		return new Date(this.now()).toISOString();
	}

	advance(milliseconds: number): void {
		if (!(milliseconds >= 0)) throw new Error('the clock only moves forward');
		this.sandboxBase += milliseconds;
	}

	/** Real milliseconds that `sandboxMilliseconds` of sandbox time take. */
	toReal(sandboxMilliseconds: number): number {
		return sandboxMilliseconds / this.timeScale;
	}
}

/**
 * Runs callbacks when the sandbox clock reaches their time: a single real timer is armed for
 * the earliest entry, and `runDue()` (called after the clock is advanced) runs every entry that
 * is due, earliest first.
 */
export class ClockScheduler {
	private entries: Array<{ at: number; run: (at: number) => void }> = [];
	private timer: NodeJS.Timeout | undefined;
	private stopped = false;

	constructor(
		private readonly clock: SandboxClock,
		private readonly onError: (error: unknown) => void,
	) {}

	schedule(at: number, run: (at: number) => void): void {
		// After every entry due at the same time or earlier: the entries stay in time order, and
		// those of one time in the order they were scheduled. A binary search, not a sort per
		// entry: a scenario played on 2,000 boxes schedules some 20,000 steps at once.
		let low = 0;
		let high = this.entries.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.entries[middle].at <= at) low = middle + 1;
			else high = middle;
		}
		this.entries.splice(low, 0, { at, run });
		this.arm();
	}

	get pending(): number {
		return this.entries.length;
	}

	/** Runs everything due now, in time order; entries scheduled while running are honoured. */
	runDue(): void {
		const now = this.clock.now();
		while (this.entries.length > 0 && this.entries[0].at <= now) {
			const entry = this.entries.shift()!;
			try {
				entry.run(entry.at);
			} catch (error) {
				this.onError(error);
			}
		}
		this.arm();
	}

	stop(): void {
		this.stopped = true;
		if (this.timer) clearTimeout(this.timer);
		this.entries = [];
	}

	private arm(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		if (this.stopped || this.entries.length === 0) return;
		const delay = Math.max(0, this.clock.toReal(this.entries[0].at - this.clock.now()));
		// Node timers overflow past 2^31-1 ms; re-arm later for far-away entries.
		this.timer = setTimeout(() => this.runDue(), Math.min(delay, 2 ** 31 - 1));
		this.timer.unref();
	}
}

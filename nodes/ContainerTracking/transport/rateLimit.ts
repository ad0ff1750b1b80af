import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

import { RATE_LIMITS, type RateBucket } from '../logic/rateLimits';

export { bucketOf } from '../logic/rateLimits';

let windowMs = 60_000;

/**
 * Changes the length of the rate window. The service's window is one minute; tests that run
 * the sandbox with a compressed clock compress this window by the same factor.
 */
export function setRateWindow(milliseconds: number): void {
	windowMs = milliseconds;
	gates.clear();
}

/**
 * A sliding log of the calls made in the last window. A call is logged when its answer
 * arrives — never earlier than the service counted it — so that our window never ends before
 * the service's does. Callers queue: each waits for the one before it, so that concurrent items
 * never overshoot the limit together.
 *
 * Other processes may use the same key (workers in queue mode, another n8n), and nothing is
 * shared between them but the service's answers: a 429 halves the calls this process allows
 * itself per window, and each window without one gives back a tenth of the limit. Processes
 * sharing a key thus settle at about the limit together, meeting a 429 now and then rather than
 * on every call (as a network's senders share a link: additive increase, multiplicative decrease).
 */
class SlidingWindowGate {
	private readonly calls: Array<{ at: number }> = [];
	private queue: Promise<void> = Promise.resolve();
	/** Calls this process allows itself per window now. */
	private allowed: number;
	/** When `allowed` last changed. */
	private changedAt = 0;

	constructor(private readonly limit: number) {
		this.allowed = limit;
	}

	/** Waits for room in the window; call the returned function when the answer has arrived. */
	acquire(): Promise<() => void> {
		const turn = this.queue.then(() => this.waitForRoom());
		this.queue = turn.then(
			() => undefined,
			() => undefined,
		);
		return turn;
	}

	/**
	 * The service answered 429: nothing more is sent on this key until it said it may be, and
	 * this process allows itself half as many calls (once per tenth of a window: the calls in
	 * flight together meet the same limit).
	 */
	rateLimited(retryAfterMs: number): void {
		const now = Date.now();
		if (now - this.changedAt >= windowMs / 10) {
			this.allowed = Math.max(1, Math.floor(this.allowed / 2));
			this.changedAt = now;
		}
		const until = now + retryAfterMs;
		this.queue = this.queue.then(() => sleep(Math.max(0, until - Date.now())));
	}

	private recover(now: number): void {
		while (this.allowed < this.limit && now - this.changedAt >= windowMs) {
			this.allowed = Math.min(this.limit, this.allowed + Math.ceil(this.limit / 10));
			this.changedAt += windowMs;
		}
	}

	private async waitForRoom(): Promise<() => void> {
		for (;;) {
			const now = Date.now();
			this.recover(now);
			while (this.calls.length > 0 && this.calls[0].at <= now - windowMs) this.calls.shift();
			if (this.calls.length < this.allowed) {
				const call = { at: Number.POSITIVE_INFINITY };
				this.calls.push(call);
				return () => {
					call.at = Date.now();
					this.calls.sort((a, b) => a.at - b.at);
				};
			}
			// Room comes when the call that ends the excess leaves the window.
			const oldest = this.calls[this.calls.length - this.allowed].at;
			// Every logged call is still waiting for its answer: look again shortly.
			await sleep(Number.isFinite(oldest) ? Math.max(1, oldest + windowMs - now + 1) : 10);
		}
	}
}

const gates = new Map<string, SlidingWindowGate>();

/** Gates are kept per API key (hashed: the key itself is never kept) and bucket. */
export function rateGate(apiKey: string, bucket: RateBucket): SlidingWindowGate {
	const id = `${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}:${bucket}`;
	let gate = gates.get(id);
	if (!gate) {
		gate = new SlidingWindowGate(RATE_LIMITS[bucket]);
		gates.set(id, gate);
	}
	return gate;
}

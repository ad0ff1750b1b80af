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
 */
class SlidingWindowGate {
	private readonly calls: Array<{ at: number }> = [];
	private queue: Promise<void> = Promise.resolve();

	constructor(private readonly limit: number) {}

	/** Waits for room in the window; call the returned function when the answer has arrived. */
	acquire(): Promise<() => void> {
		const turn = this.queue.then(() => this.waitForRoom());
		this.queue = turn.then(
			() => undefined,
			() => undefined,
		);
		return turn;
	}

	/** After a 429, nothing more is sent on this key until the service said it may be. */
	blockFor(milliseconds: number): void {
		const until = Date.now() + milliseconds;
		this.queue = this.queue.then(() => sleep(Math.max(0, until - Date.now())));
	}

	private async waitForRoom(): Promise<() => void> {
		for (;;) {
			const now = Date.now();
			while (this.calls.length > 0 && this.calls[0].at <= now - windowMs) this.calls.shift();
			if (this.calls.length < this.limit) {
				const call = { at: Number.POSITIVE_INFINITY };
				this.calls.push(call);
				return () => {
					call.at = Date.now();
					this.calls.sort((a, b) => a.at - b.at);
				};
			}
			const oldest = this.calls[0].at;
			// Every logged call is still waiting for its answer: look again shortly.
			await sleep(Number.isFinite(oldest) ? oldest + windowMs - now + 1 : 10);
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

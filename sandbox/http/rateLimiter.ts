import type { SandboxClock } from '../clock';

import { RATE_LIMITS, type RateBucket } from '../../nodes/ContainerTracking/logic/rateLimits';

export type { RateBucket };

const WINDOW_MS = 60_000;

export interface RateDecision {
	allowed: boolean;
	/** Whole real seconds until a call would be accepted; set when refused. */
	retryAfterSeconds?: number;
}

/**
 * A sliding log per API key and bucket. The window is 60 seconds of sandbox time, so a
 * compressed clock compresses it too. Refused calls are not counted.
 */
export class RateLimiter {
	private readonly logs = new Map<string, number[]>();

	constructor(private readonly clock: SandboxClock) {}

	take(apiKey: string, bucket: RateBucket): RateDecision {
		const now = this.clock.now();
		const key = `${apiKey}\u0000${bucket}`;
		const log = (this.logs.get(key) ?? []).filter((at) => at > now - WINDOW_MS);
		this.logs.set(key, log);
		if (log.length >= RATE_LIMITS[bucket]) {
			const waitSandboxMs = log[0] + WINDOW_MS - now;
			const waitSeconds = Math.ceil(this.clock.toReal(waitSandboxMs) / 1000);
			return { allowed: false, retryAfterSeconds: Math.max(1, waitSeconds) };
		}
		log.push(now);
		return { allowed: true };
	}
}

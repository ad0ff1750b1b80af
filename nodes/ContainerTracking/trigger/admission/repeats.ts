/**
 * Repeated deliveries. The service retries a delivery until it gets a 2xx (12 retries; its schedule
 * is not documented, docs/service.md) and sometimes sends a notification twice, so one notification can
 * arrive many times; its `data.id` is the idempotency key.
 *
 * The check and the record are one step: `claim` answers whether a key is new and records it
 * before anything is awaited, so two copies arriving together cannot both pass. This is the
 * process's quick answer to a copy; the durable one, across processes and restarts, is made in
 * the execution (trigger/durable/recordedNotifications.ts).
 */
import { ranHere } from './ranHere';
import { triggerSlot } from '../triggerState';

/** Keys are kept this long: the service's whole retry schedule, with a wide margin. */
export const REPEAT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * At most this many keys per trigger (about 12 MB at 120 bytes a key): at 16 deliveries a
 * second, more than an hour and a half of traffic; beyond it the oldest are forgotten first.
 */
export const MAX_REMEMBERED_KEYS = 100_000;

export interface RepeatStore {
	/** Records `key`; true when it was not already recorded (within the window). */
	claim(key: string): boolean;
	/** Forgets `key`, so that its next delivery is not taken for a repeat. */
	release(key: string): void;
}

/** A store in this process's memory: keys in the order they were claimed, with their expiry. */
export class MemoryRepeatStore implements RepeatStore {
	private readonly expiries = new Map<string, number>();

	constructor(
		private readonly windowMs = REPEAT_WINDOW_MS,
		private readonly maxKeys = MAX_REMEMBERED_KEYS,
		private readonly now: () => number = Date.now,
	) {}

	get size(): number {
		return this.expiries.size;
	}

	claim(key: string): boolean {
		const now = this.now();
		this.forgetExpired(now);
		const expiry = this.expiries.get(key);
		if (expiry !== undefined && expiry > now) return false;
		this.expiries.set(key, now + this.windowMs);
		// A Map iterates in insertion order: the first key is the oldest.
		while (this.expiries.size > this.maxKeys)
			this.expiries.delete(this.expiries.keys().next().value as string);
		return true;
	}

	release(key: string): void {
		this.expiries.delete(key);
	}

	private forgetExpired(now: number): void {
		for (const [key, expiry] of this.expiries) {
			if (expiry > now) break;
			this.expiries.delete(key);
		}
	}
}

/**
 * The store of one trigger in this process. It lives as long as the trigger is active: n8n builds
 * a fresh node object for each delivery, so it cannot live on the node.
 */
const stores = triggerSlot('delivered notification ids', () => new MemoryRepeatStore());

export const repeatStoreFor = (scope: string): RepeatStore => stores.of(scope);

/**
 * Whether a delivery is a copy of a notification this trigger already took in this process:
 * claimed by an earlier delivery, or run here (a test event, `manual`, may be sent again on
 * purpose once its execution ran). Claims it when not.
 */
export function isRepeat(scope: string, notificationId: string, manual: boolean): boolean {
	if (!manual && ranHere(scope, notificationId)) return true;
	return !stores.of(scope).claim(notificationId);
}

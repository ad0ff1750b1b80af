/**
 * Repeated deliveries. The service retries a delivery until it gets a 2xx (12 retries from 5 s,
 * doubling: about 5.7 hours) and sometimes sends a notification twice, so one notification can
 * arrive many times; its `data.id` is the idempotency key.
 *
 * The check and the record are one step: `claim` answers whether a key is new and records it
 * before anything is awaited, so two copies arriving together cannot both pass. A delivery that
 * then fails before starting the workflow `release`s its key, so that the service's retry runs.
 */

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

const stores = new Map<string, MemoryRepeatStore>();

/** Which trigger a delivery or execution belongs to: its workflow and node ids. */
export function triggerScope(context: {
	getWorkflow(): { id?: string };
	getNode(): { id: string };
}): string {
	return `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
}

/**
 * The store of one trigger (`scope`: see `triggerScope`) in this process. It lives as long as
 * the process: n8n builds a fresh node object for each delivery, so it cannot live on the node.
 */
export function repeatStoreFor(scope: string): RepeatStore {
	let store = stores.get(scope);
	if (!store) {
		store = new MemoryRepeatStore();
		stores.set(scope, store);
	}
	return store;
}

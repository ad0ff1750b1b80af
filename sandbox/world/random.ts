import { createHash, randomUUID } from 'node:crypto';

const UPPER_CASE_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

// Separator that cannot appear in tracking numbers or resource names, so that ('ab', 'c') and
// ('a', 'bc') hash differently.
const UUID_PART_SEPARATOR = '\u001f';

/**
 * Seeded pseudo-random generator (mulberry32) so that the sandbox derives the same shipment,
 * containers and events from the same tracking number on every run.
 */
export class SeededRandom {
	private state: number;

	constructor(seed: string) {
		// sha256 spreads similar seeds ('...001', '...002') over the whole 32-bit state.
		this.state = createHash('sha256').update(seed).digest().readUInt32BE(0);
	}

	/** Uniform float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) | 0;
		let mixed = this.state;
		mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
		mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
	}

	/** Uniform integer in [min, max], both inclusive. */
	int(min: number, max: number): number {
		const low = Math.ceil(Math.min(min, max));
		const high = Math.floor(Math.max(min, max));
		return low + Math.floor(this.next() * (high - low + 1));
	}

	pick<T>(items: readonly T[]): T {
		if (items.length === 0) {
			throw new Error('SeededRandom.pick needs at least one item');
		}
		return items[this.int(0, items.length - 1)];
	}

	/** True with the given probability (0 never, 1 always). */
	chance(probability: number): boolean {
		return this.next() < probability;
	}

	/** Fisher–Yates shuffle into a new array; the input is left untouched. */
	shuffle<T>(items: readonly T[]): T[] {
		const shuffled = [...items];
		for (let index = shuffled.length - 1; index > 0; index--) {
			const swapWith = this.int(0, index);
			[shuffled[index], shuffled[swapWith]] = [shuffled[swapWith], shuffled[index]];
		}
		return shuffled;
	}

	/** String of `count` decimal digits (leading zeros allowed). */
	digits(count: number): string {
		let result = '';
		for (let index = 0; index < count; index++) {
			result += String(this.int(0, 9));
		}
		return result;
	}

	/** String of `count` upper-case ASCII letters. */
	letters(count: number): string {
		let result = '';
		for (let index = 0; index < count; index++) {
			result += UPPER_CASE_LETTERS[this.int(0, UPPER_CASE_LETTERS.length - 1)];
		}
		return result;
	}
}

/**
 * Stable UUID (version 5 layout, lowercase) for a resource derived from its parts, e.g.
 * ('container', 'MSCU1234565'); re-deriving the sandbox world then yields the same ids.
 */
export function deterministicUuid(...parts: string[]): string {
	const bytes = createHash('sha1').update(parts.join(UUID_PART_SEPARATOR)).digest().subarray(0, 16);
	bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5
	bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
	const hex = bytes.toString('hex');
	return [
		hex.slice(0, 8),
		hex.slice(8, 12),
		hex.slice(12, 16),
		hex.slice(16, 20),
		hex.slice(20, 32),
	].join('-');
}

/** Fresh random UUID for things that must never repeat, such as notification ids. */
export function randomUuid(): string {
	return randomUUID();
}

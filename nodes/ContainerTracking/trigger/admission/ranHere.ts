import { triggerSlot } from '../triggerState';

/**
 * The notifications whose execution ran in this process lately, with when: a copy of one is
 * answered without another execution, and the cut check (trigger/recovery/cutCheck.ts) looks only
 * for those that ran elsewhere.
 */

/** How long this process remembers which notifications ran in it. */
const RAN_HERE_MS = 30 * 60_000;

const ranAt = triggerSlot('notifications run here', () => new Map<string, number>());

/** Notes that the execution of each of `ids` runs in this process. */
export function noteRanHere(scope: string, ids: Iterable<string>): void {
	const ran = ranAt.of(scope);
	const now = Date.now();
	for (const id of ids) {
		ran.delete(id);
		ran.set(id, now);
	}
	// Oldest first: those past RAN_HERE_MS are at the front.
	for (const [id, at] of ran) {
		if (at > now - RAN_HERE_MS) break;
		ran.delete(id);
	}
}

/** Whether the execution of notification `id` ran in this process lately. */
export const ranHere = (scope: string, id: string): boolean => ranAt.peek(scope)?.has(id) === true;

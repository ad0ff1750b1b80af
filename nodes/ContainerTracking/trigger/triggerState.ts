/**
 * Everything a trigger keeps in this process's memory, in one place. n8n builds a fresh node
 * object for each delivery, execution and activation, so nothing can live on the node: each
 * module that needs memory between calls declares a slot here (`triggerSlot`) and keeps in it
 * what it alone reads and writes, bounded by that module. The registry owns when it ends: a
 * trigger's slots are emptied together when its workflow is deactivated (`forgetTrigger`),
 * webhook secrets and all.
 */

/** Which trigger a delivery or execution belongs to: its workflow and node ids. */
export function triggerScope(context: {
	getWorkflow(): { id?: string };
	getNode(): { id: string };
}): string {
	return `${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
}

interface SlotOptions<T> {
	/**
	 * Whether the value may go now; one still busy (a write under way) is kept until the
	 * trigger's next deactivation.
	 */
	forgetWhen?: (value: T) => boolean;
	/**
	 * Kept when the trigger is deactivated: a fact about this process rather than about one
	 * activation (trigger/recovery/restartCheck.ts, whether a restart check is owed).
	 */
	keptAcrossActivations?: boolean;
}

export interface TriggerSlot<T> {
	/** The slot's value for the trigger `scope`, made on first use. */
	of(scope: string): T;
	/** The value, when one was made. */
	peek(scope: string): T | undefined;
}

const names = new Set<string>();
/** Per trigger scope, per slot name, the slot's value. */
const states = new Map<string, Map<string, unknown>>();
const keptAlways = new Set<string>();
const forgettable = new Map<string, (value: unknown) => boolean>();

/** Declares a slot of per-trigger state; `name` says what it holds, and is used once. */
export function triggerSlot<T>(
	name: string,
	make: () => T,
	options: SlotOptions<T> = {},
): TriggerSlot<T> {
	if (names.has(name)) throw new Error(`Trigger state slot declared twice: ${name}`);
	names.add(name);
	if (options.keptAcrossActivations) keptAlways.add(name);
	if (options.forgetWhen) forgettable.set(name, options.forgetWhen as (value: unknown) => boolean);
	return {
		of(scope) {
			let slots = states.get(scope);
			if (!slots) {
				slots = new Map();
				states.set(scope, slots);
			}
			if (!slots.has(name)) slots.set(name, make());
			return slots.get(name) as T;
		},
		peek: (scope) => states.get(scope)?.get(name) as T | undefined,
	};
}

/** Empties what a trigger kept in this process: its workflow was deactivated. */
export function forgetTrigger(scope: string): void {
	const slots = states.get(scope);
	if (!slots) return;
	for (const [name, value] of [...slots]) {
		if (keptAlways.has(name)) continue;
		if (forgettable.get(name)?.(value) === false) continue;
		slots.delete(name);
	}
	if (slots.size === 0) states.delete(scope);
}

/** Work of one trigger that must not overlap: each piece starts once the one before it ended. */
export interface WorkInTurn {
	/** The latest piece of work, settled or not. */
	last: Promise<unknown>;
}

/** Runs `work` after the work `turns` was given before it, whether that succeeded or failed. */
export function inTurn<T>(turns: WorkInTurn, work: () => Promise<T>): Promise<T> {
	const turn = turns.last.then(work);
	turns.last = turn.catch(() => undefined);
	return turn;
}

import type { IDataObject } from 'n8n-workflow';

/**
 * A notification that runs after a newer one about the same container (a retry the service sent
 * late, a notification caught up after an outage) carries the container as it was when the
 * service made it: written to a board after the newer one, it would put an old state back. So each
 * trigger remembers, in this process, the newest state (`container_as_of`) its executions gave
 * of each container; an item whose state is older than that is marked `container_state_complete:
 * false`, and Fetch Container When Missing reads the container as it is now
 * (trigger/containerLookup.ts). Items of one execution are not compared with each other: Output
 * → Latest State keeps the newest of them (trigger/latestState.ts).
 *
 * The memory is this process's: with queue mode's workers, a late notification that runs on
 * another worker than the newer one keeps its own state, and says how old it is in
 * `container_as_of`.
 */

/** Containers remembered per trigger, at most (the least recently given are forgotten first). */
const REMEMBERED = 20_000;

const triggers = new Map<string, Map<string, number>>();

function stateOf(item: IDataObject): { id: string; asOf: number; state: IDataObject } | undefined {
	const state = item.container as IDataObject | undefined;
	if (typeof state !== 'object' || state === null || typeof state.id !== 'string') return undefined;
	const asOf = Date.parse(String(state.container_as_of ?? ''));
	return Number.isFinite(asOf) ? { id: state.id, asOf, state } : undefined;
}

/** Marks the items whose state is older than one an earlier execution of this trigger gave. */
export function markOutdatedStates(scope: string, items: IDataObject[]): void {
	const newest = triggers.get(scope);
	if (!newest) return;
	for (const item of items) {
		const given = stateOf(item);
		if (!given) continue;
		const known = newest.get(given.id);
		if (known !== undefined && given.asOf < known) {
			given.state.container_state_complete = false;
			given.state.container_state_outdated = true;
		}
	}
}

/** Remembers the newest state of each container these items give. */
export function rememberStates(scope: string, items: IDataObject[]): void {
	let newest = triggers.get(scope);
	if (!newest) {
		newest = new Map();
		triggers.set(scope, newest);
	}
	for (const item of items) {
		const given = stateOf(item);
		if (!given) continue;
		const known = newest.get(given.id);
		if (known !== undefined && known >= given.asOf) continue;
		// Re-inserted, so that the map's order is the order states were last given in.
		newest.delete(given.id);
		newest.set(given.id, given.asOf);
	}
	for (const id of newest.keys()) {
		if (newest.size <= REMEMBERED) break;
		newest.delete(id);
	}
}

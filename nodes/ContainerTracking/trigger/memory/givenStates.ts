import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { triggerSlot } from '../triggerState';

/**
 * A notification that runs after a newer one about the same container (a retry the service sent
 * late, a notification caught up after an outage) carries the container as it was when the
 * service made it: written to a board after the newer one, it would put an old state back. So each
 * trigger remembers, in this process, the newest state (`container_as_of`) its executions gave
 * of each container; an item whose state is older than that is marked `container_state_complete:
 * false` and `container_state_outdated: true`, and Fetch Container When Missing reads the
 * container as it is now (trigger/items/containerLookup.ts).
 *
 * The service times a notification in whole seconds, so two states of one second cannot be told
 * apart by time: when they differ (a hold placed and released within the second), which is newer
 * is not known, and those items are read again too, whether the other state came from an earlier
 * execution or from the same one. States that are the same (the several notifications of one
 * change) are not.
 *
 * The memory is this process's: with queue mode's workers, a late notification that runs on
 * another worker than the newer one keeps its own state, and says how old it is in
 * `container_as_of`.
 */

/** Containers remembered per trigger, at most (the least recently given are forgotten first). */
const REMEMBERED = 20_000;

interface Given {
	asOf: number;
	/** What the state says, without when: equal for the same state given twice. */
	fingerprint: string;
}

const givenStates = triggerSlot('newest container states', () => new Map<string, Given>());

/** Members that say when, not what: they differ between equal states read at other times. */
const TIMING_MEMBERS = new Set([
	'container_as_of',
	'container_state_complete',
	'container_state_outdated',
	'days_until_last_free_day',
]);

function stateOf(item: IDataObject): (Given & { id: string; state: IDataObject }) | undefined {
	const state = item.container as IDataObject | undefined;
	if (typeof state !== 'object' || state === null || typeof state.id !== 'string') return undefined;
	const asOf = Date.parse(String(state.container_as_of ?? ''));
	if (!Number.isFinite(asOf)) return undefined;
	const what = Object.entries(state).filter(([name]) => !TIMING_MEMBERS.has(name));
	const fingerprint = createHash('sha1').update(JSON.stringify(what)).digest('hex');
	return { id: state.id, asOf, fingerprint, state };
}

const isOlder = (given: Given, than: Given): boolean =>
	given.asOf < than.asOf || (given.asOf === than.asOf && given.fingerprint !== than.fingerprint);

/**
 * Marks the items whose state is older than one an earlier execution of this trigger gave, or
 * of the same second and different, from an earlier execution or from another item of these.
 */
export function markOutdatedStates(scope: string, items: IDataObject[]): void {
	const known = givenStates.peek(scope);
	const states = items.map(stateOf);
	// The newest states of each container among these items: one fingerprint, or several.
	const newest = new Map<string, { asOf: number; fingerprints: Set<string> }>();
	for (const given of states) {
		if (!given) continue;
		const found = newest.get(given.id);
		if (!found || given.asOf > found.asOf)
			newest.set(given.id, { asOf: given.asOf, fingerprints: new Set([given.fingerprint]) });
		else if (given.asOf === found.asOf) found.fingerprints.add(given.fingerprint);
	}
	for (const given of states) {
		if (!given) continue;
		const earlier = known?.get(given.id);
		const here = newest.get(given.id)!;
		const undecided = given.asOf === here.asOf && here.fingerprints.size > 1;
		if ((earlier && isOlder(given, earlier)) || undecided) {
			given.state.container_state_complete = false;
			given.state.container_state_outdated = true;
		}
	}
}

/** Remembers the newest state of each container these items give. */
export function rememberStates(scope: string, items: IDataObject[]): void {
	const remembered = givenStates.of(scope);
	for (const item of items) {
		const given = stateOf(item);
		if (!given) continue;
		const known = remembered.get(given.id);
		if (known !== undefined && known.asOf >= given.asOf) continue;
		// Re-inserted, so that the map's order is the order states were last given in.
		remembered.delete(given.id);
		remembered.set(given.id, { asOf: given.asOf, fingerprint: given.fingerprint });
	}
	for (const id of remembered.keys()) {
		if (remembered.size <= REMEMBERED) break;
		remembered.delete(id);
	}
}

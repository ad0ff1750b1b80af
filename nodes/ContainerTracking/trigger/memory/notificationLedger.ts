import { sleep } from 'n8n-workflow';

import { triggerSlot } from '../triggerState';

/**
 * What this process knows of a trigger's notifications, in one record per trigger: the only
 * module that changes it; the others ask (docs/design/trigger.md, "What the trigger remembers").
 * The durable half, in n8n's database, is trigger/memory/durableStore.ts.
 *
 * - **Taken**: a delivery of the notification was admitted here, or n8n's store says an execution
 *   recorded it (it ran, somewhere): a copy is answered without another execution. Kept
 *   TAKEN_FOR_MS (the service's whole retry schedule, with a wide margin), at most MAX_TAKEN.
 * - **Ran here**: its execution ran in this process, lately (RAN_HERE_MS): the cut check
 *   (trigger/recovery/cutCheck.ts) looks only for the others.
 * - **Under way here**: runs of the run journal (trigger/memory/runJournal.ts) an execution of this
 *   process opened or took over and that have not ended, with the lease periods this process wrote
 *   for each. Two executions never run one cut run again here: the first to take it over holds it.
 * - **Knowledge after a restart**: while the restart check (trigger/recovery/restartCheck.ts) has not
 *   told this process which notifications n8n's store holds, a copy this process cannot tell apart
 *   waits for it (`awaitKnowledge`), rather than start an execution that would stop empty.
 *
 * Emptied when the trigger is deactivated, but for runs still under way (trigger/triggerState.ts).
 */

/** Taken notifications are kept this long: the service's whole retry schedule, widely. */
export const TAKEN_FOR_MS = 24 * 60 * 60 * 1000;
/**
 * At most this many taken notifications per trigger (about 12 MB at 120 bytes an id): at 16
 * deliveries a second, more than an hour and a half of traffic; the oldest go first.
 */
export const MAX_TAKEN = 100_000;
/** How long this process remembers which notifications ran in it. */
const RAN_HERE_MS = 30 * 60_000;
/**
 * Longest a copy waits for the restart check's knowledge: the check reads the log and starts one
 * execution within seconds of n8n's start; a service down meanwhile must not hold copies longer.
 */
export const KNOWLEDGE_WAIT_MS = 30_000;

interface Ledger {
	/** Taken notification ids, oldest first, with when they may be forgotten. */
	taken: Map<string, number>;
	/** Notifications whose execution ran here, oldest first, with when. */
	ranAt: Map<string, number>;
	/** Runs under way here (their journal keys). */
	underWay: Set<string>;
	/** The lease periods this process wrote for each run's journal key. */
	leasePeriods: Map<string, Set<number>>;
	/** Set while the restart check's knowledge is awaited; settles when it came. */
	knowledge?: { came: Promise<void>; arrive(): void; until: number };
}

const ledgers = triggerSlot<Ledger>(
	'notification ledger',
	() => ({ taken: new Map(), ranAt: new Map(), underWay: new Set(), leasePeriods: new Map() }),
	// Runs under way keep theirs: another record of the same runs would let two executions take
	// one cut run over.
	{ forgetWhen: (ledger) => ledger.underWay.size === 0 },
);

function forgetOld(entries: Map<string, number>, before: number, max: number): void {
	// A Map iterates in insertion order: the first entries are the oldest.
	for (const [id, at] of entries) {
		if (at > before && entries.size <= max) break;
		entries.delete(id);
	}
}

// ---------------------------------------------------------------------------------------------
// Taken: which copies to drop.

/** How a delivery of a notification stands in this process. */
export type Taking =
	/** Taken now: its execution is to start. */
	| 'new'
	/** Taken before, or known to have run: a copy. */
	| 'repeat'
	/** Not taken, and the restart check's knowledge is still to come: ask again once it came. */
	| 'unknown yet';

/**
 * Takes a delivered notification, or says it was taken. The check and the claim are one step, made
 * before anything is awaited, so two copies arriving together cannot both pass. A test event
 * (`manual`) may be sent again on purpose once its execution ran.
 */
export function takeDelivery(scope: string, id: string, manual = false): Taking {
	const ledger = ledgers.of(scope);
	const now = Date.now();
	forgetOld(ledger.taken, now, MAX_TAKEN);
	if (!manual && ledger.ranAt.has(id)) return 'repeat';
	const until = ledger.taken.get(id);
	if (until !== undefined && until > now) return 'repeat';
	if (ledger.knowledge && ledger.knowledge.until > now) return 'unknown yet';
	ledger.taken.delete(id);
	ledger.taken.set(id, now + TAKEN_FOR_MS);
	return 'new';
}

/**
 * Notes notifications as taken without a delivery: n8n's store holds them (they ran), or the
 * catch-up starts them. A later copy is a repeat.
 */
export function noteTaken(scope: string, ids: Iterable<string>): void {
	const ledger = ledgers.of(scope);
	const now = Date.now();
	for (const id of ids) {
		ledger.taken.delete(id);
		ledger.taken.set(id, now + TAKEN_FOR_MS);
	}
	forgetOld(ledger.taken, now, MAX_TAKEN);
}

/** Whether a notification was taken here (admitted, caught up, or known from n8n's store). */
export const wasTaken = (scope: string, id: string): boolean =>
	(ledgers.peek(scope)?.taken.get(id) ?? 0) > Date.now();

// ---------------------------------------------------------------------------------------------
// Ran here.

/** Notes that the execution of each of `ids` runs in this process. */
export function noteRanHere(scope: string, ids: Iterable<string>): void {
	const ledger = ledgers.of(scope);
	const now = Date.now();
	for (const id of ids) {
		ledger.ranAt.delete(id);
		ledger.ranAt.set(id, now);
	}
	forgetOld(ledger.ranAt, now - RAN_HERE_MS, Number.POSITIVE_INFINITY);
}

/** Whether the execution of notification `id` ran in this process lately. */
export const ranHere = (scope: string, id: string): boolean =>
	ledgers.peek(scope)?.ranAt.has(id) === true;

// ---------------------------------------------------------------------------------------------
// Runs under way here, and the leases written for them.

/** Notes runs as under way here: opened by an execution of this process, or taken over by one. */
export function noteUnderWay(scope: string, runs: Iterable<string>): void {
	const { underWay } = ledgers.of(scope);
	for (const run of runs) underWay.add(run);
}

/** Notes runs as no longer under way here: their execution ended, or will not run them. */
export function noteNotUnderWay(scope: string, runs: Iterable<string>): void {
	const ledger = ledgers.peek(scope);
	if (!ledger) return;
	for (const run of runs) ledger.underWay.delete(run);
}

export const isUnderWay = (scope: string, run: string): boolean =>
	ledgers.peek(scope)?.underWay.has(run) === true;

/** The runs under way here, at this moment. */
export const runsUnderWay = (scope: string): string[] => [...(ledgers.peek(scope)?.underWay ?? [])];

/** Notes that this process writes a lease of `period` for each of `runs`. */
export function noteLeases(scope: string, runs: Iterable<string>, period: number): void {
	const { leasePeriods } = ledgers.of(scope);
	for (const run of runs) {
		const periods = leasePeriods.get(run) ?? new Set<number>();
		periods.add(period);
		leasePeriods.set(run, periods);
	}
}

/** Forgets the lease periods of `runs` before `period` (all when undefined); returns them by run. */
export function forgetLeases(
	scope: string,
	runs: Iterable<string>,
	before = Number.POSITIVE_INFINITY,
): Array<[string, number]> {
	const ledger = ledgers.peek(scope);
	const forgotten: Array<[string, number]> = [];
	if (!ledger) return forgotten;
	for (const run of runs) {
		const periods = ledger.leasePeriods.get(run);
		if (!periods) continue;
		for (const period of [...periods])
			if (period < before) {
				periods.delete(period);
				forgotten.push([run, period]);
			}
		if (periods.size === 0) ledger.leasePeriods.delete(run);
	}
	return forgotten;
}

// ---------------------------------------------------------------------------------------------
// Knowledge after a restart.

/**
 * After n8n started, until the restart check told which notifications n8n's store holds (or
 * KNOWLEDGE_WAIT_MS passed): a copy not taken here waits for it.
 */
export function expectKnowledge(scope: string): void {
	const ledger = ledgers.of(scope);
	if (ledger.knowledge) return;
	let arrive: () => void = () => undefined;
	const came = new Promise<void>((resolve) => (arrive = resolve));
	ledger.knowledge = { came, arrive, until: Date.now() + KNOWLEDGE_WAIT_MS };
}

/** The restart check's knowledge came (or none will): copies wait no more. */
export function knowledgeCame(scope: string): void {
	const ledger = ledgers.peek(scope);
	const knowledge = ledger?.knowledge;
	if (!ledger || !knowledge) return;
	ledger.knowledge = undefined;
	knowledge.arrive();
}

/** Settles once the restart check's knowledge came, or KNOWLEDGE_WAIT_MS after it was expected. */
export async function awaitKnowledge(scope: string): Promise<void> {
	const knowledge = ledgers.peek(scope)?.knowledge;
	if (!knowledge) return;
	await Promise.race([knowledge.came, sleep(Math.max(0, knowledge.until - Date.now()))]);
}

/**
 * Every bound a test puts on a wait is one of two kinds, and says which where it is written
 * (CONTRIBUTING.md "Suites", "Bounds"; test/unit/bounds.test.ts fails on a bare number):
 *
 * - `byClock(ms)`: the bound follows from the test's own clocks — the sandbox clock, a scaled
 *   interval, the service's retry schedule, an injected `now`. The behaviour under test promises
 *   to happen by then whatever the machine's speed (a watch that checks every 3 s, a retry the
 *   sandbox sends after 5 sandbox seconds).
 * - `generous(quietMs)`: a sanity bound on work whose duration depends on the machine. `quietMs`
 *   is what the work needs on a quiet two-core machine (rounded up); the bound is GENEROUS times
 *   that, since machines of one kind differ about twice in speed and a shared one may lend a core
 *   to another process. Such a bound only stops a test that hangs; how fast the work is belongs in
 *   `bench/`.
 *
 * A bound of both kinds adds them: `byClock(WATCH_MS) + generous(1_000)`.
 */

/** How many times its quiet duration a machine-dependent wait may take before it counts as hung. */
export const GENEROUS = 5;

/** A sanity bound: GENEROUS × what the work needs on a quiet machine. */
export function generous(quietMs: number): number {
	return Math.ceil(quietMs * GENEROUS);
}

/** A bound that follows from the test's own clocks, named as such. */
export function byClock(ms: number): number {
	return Math.ceil(ms);
}

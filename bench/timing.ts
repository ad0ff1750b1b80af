/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/** Timing shared by the benchmarks run in-process (bench/lookups.ts, bench/findNumbers.ts). */

export const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Milliseconds of `runs` runs of `run`, after one run that warms it up. */
export async function timesOf(run: () => unknown, runs: number): Promise<number[]> {
	await run();
	const times: number[] = [];
	for (let index = 0; index < runs; index++) {
		const started = process.hrtime.bigint();
		await run();
		times.push(Number(process.hrtime.bigint() - started) / 1e6);
	}
	return times;
}

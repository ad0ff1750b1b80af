/**
 * How many test files jest runs at a time. Three keep two cores busy, since most files wait (on
 * n8n, on a sandbox's clock, on retries); but each end-to-end file runs an n8n of its own, and
 * when another process holds a core (a shared CI runner), three n8n processes on the one left
 * answer the sandbox's deliveries slower than it waits for them. So the cores free right now are
 * measured (what the kernel counts idle over half a second, /proc/stat) and one slot fewer is
 * used while less than one and a half of them are free. CT_JEST_WORKERS sets the number.
 */
const { readFileSync } = require('node:fs');
const os = require('node:os');

const QUIET_SLOTS = 3;
const SAMPLE_MS = 500;

/** Idle and total CPU time of the whole machine so far, in clock ticks; undefined off Linux. */
function cpuTicks() {
	try {
		const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
		const ticks = fields.map(Number);
		// idle + iowait
		return { idle: ticks[3] + (ticks[4] ?? 0), total: ticks.reduce((sum, value) => sum + value, 0) };
	} catch {
		return undefined;
	}
}

/** Cores idle over a short sample; undefined where it cannot be measured. */
function freeCores() {
	const before = cpuTicks();
	if (!before) return undefined;
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SAMPLE_MS);
	const after = cpuTicks();
	const total = after.total - before.total;
	if (total <= 0) return undefined;
	return ((after.idle - before.idle) / total) * os.availableParallelism();
}

function fileSlots() {
	if (process.env.CT_JEST_WORKERS) return Number(process.env.CT_JEST_WORKERS);
	// Only the process that schedules files decides (jest loads this file in its workers too).
	if (process.env.JEST_WORKER_ID) return QUIET_SLOTS;
	const free = freeCores();
	const slots = free !== undefined && free < 1.5 ? QUIET_SLOTS - 1 : QUIET_SLOTS;
	if (free !== undefined && slots !== QUIET_SLOTS)
		process.stderr.write(
			`jest: ${free.toFixed(2)} of ${os.availableParallelism()} cores free: ${slots} test files at a time\n`,
		);
	return slots;
}

module.exports = { fileSlots };

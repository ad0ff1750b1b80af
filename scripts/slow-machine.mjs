#!/usr/bin/env node
// Runs a command (by default the whole suite, `npm test`) on a machine made slow on purpose: one
// core (CT_BUSY_CORES of them) kept busy by another process the whole time, as a shared CI runner
// is. A change that adds or changes a timing in test/ is tried this way before it is submitted
// (CONTRIBUTING.md "Suites"): a bound that passes only on a quiet machine fails here.
//
//   npm run test:slow-machine                       # npm test with one core busy
//   node scripts/slow-machine.mjs npm run test:quick
//   CT_BUSY_CORES=2 node scripts/slow-machine.mjs npx jest --testPathPatterns test/e2e/burst
//
// Each busy process asks for a higher priority than the suite's (nice -10, where the user may:
// root, as CI is), so that it really holds a core rather than share it fairly with the suite's
// many processes. At the end it prints how much CPU the busy processes took, so that a run can
// show it was slow.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

const command = process.argv.slice(2);
if (command.length === 0) command.push('npm', 'test');
const busyCores = Math.max(0, Number(process.env.CT_BUSY_CORES ?? 1) || 0);

/** How much higher than normal a busy process's priority is (a lower nice value). */
const BUSY_NICE = -10;

/** A process that keeps one core busy until it is killed: a plain loop, at a higher priority. */
function busyCore() {
	const burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
	try {
		os.setPriority(burner.pid, BUSY_NICE);
	} catch {
		// Not allowed for this user: it runs at normal priority and shares a core fairly.
	}
	return burner;
}

/** CPU seconds a process used so far, from /proc (Linux); null elsewhere. */
function cpuSeconds(pid) {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		// utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
		return (Number(fields[11]) + Number(fields[12])) / 100;
	} catch {
		return null;
	}
}

const burners = Array.from({ length: busyCores }, busyCore);
const started = Date.now();
const priorities = burners.map((burner) => os.getPriority(burner.pid)).join(', ');
process.stdout.write(
	`[slow-machine] ${busyCores} of ${os.availableParallelism()} cores kept busy (nice ${priorities || '-'}) while running: ${command.join(' ')}\n`,
);

function report() {
	const wall = (Date.now() - started) / 1000;
	const used = burners.map((burner) => cpuSeconds(burner.pid));
	const total = used.reduce((sum, seconds) => sum + (seconds ?? 0), 0);
	const minutes = `${Math.floor(wall / 60)} min ${Math.round(wall % 60)} s`;
	process.stdout.write(
		`[slow-machine] wall time ${minutes}; the busy processes used ${Math.round(total)} CPU s ` +
			`(${Math.round((100 * total) / Math.max(wall, 1))} % of one core)\n`,
	);
}

function stopBurners() {
	for (const burner of burners) if (burner.exitCode === null) burner.kill('SIGKILL');
}

const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'])
	process.on(signal, () => {
		child.kill(signal);
	});
child.on('exit', (code, signal) => {
	report();
	stopBurners();
	process.exit(code ?? (signal ? 1 : 0));
});

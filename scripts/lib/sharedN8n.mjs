// One n8n that every end-to-end file of a jest run shares (test/e2e/helpers.ts), instead of one
// each: jest's global setup names a folder (test/support/sharedN8n.setup.js), the first file that
// needs n8n starts it there, the others find it, and the global teardown stops it. It is started
// by whichever worker asks first, so it runs detached, logging to a file, and outlives that file.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { n8nBin, runtimeNode, withLock } from '../n8n-runtime.mjs';
import { freePort, login, N8N_MAJOR, prepareInstance } from './n8n.mjs';

const READY = 'Editor is now accessible via';
// Bounds on waiting for n8n (test/support/bounds.ts; a .mjs file cannot import it):
/**
 * Generous: 5x the quiet 24 s n8n takes from its start until it serves (a fresh database's
 * migrations included).
 */
const START_TIMEOUT_MS = 120_000;
/** Generous: 5x the quiet 3 s n8n takes to stop on SIGTERM; then SIGKILL. */
const STOP_TIMEOUT_MS = 15_000;

const stateFile = (folder) => path.join(folder, 'n8n.json');

/**
 * The shared n8n of the run whose folder is `folder`, started on first call: `{ url, port,
 * userFolder, n8nDir, env, log, cookie }` (`log` is the file n8n writes to; `cookie` is the
 * owner's session: n8n lets one user log in five times a minute, and a run has more files than
 * that). 2.x only: 1.x sets its owner up over REST and is run per file (test/e2e/helpers.ts).
 */
export async function sharedN8n(folder, { owner, extra } = {}) {
	if (N8N_MAJOR < 2) throw new Error('a shared n8n needs n8n 2.x');
	return await withLock(path.join(folder, 'n8n'), async () => {
		if (existsSync(stateFile(folder))) return JSON.parse(readFileSync(stateFile(folder), 'utf8'));
		const userFolder = path.join(folder, 'user');
		const port = await freePort();
		const brokerPort = await freePort();
		const { n8nDir, env } = await prepareInstance({ userFolder, port, brokerPort, owner, extra });
		const log = path.join(folder, 'n8n.log');
		const out = openSync(log, 'a');
		const node = runtimeNode();
		const child = spawn(node.bin, [n8nBin(n8nDir), 'start'], {
			env,
			detached: true,
			stdio: ['ignore', out, out],
		});
		closeSync(out);
		child.unref();
		const deadline = Date.now() + START_TIMEOUT_MS;
		while (!readFileSync(log, 'utf8').includes(READY)) {
			if (child.exitCode !== null || Date.now() > deadline) {
				child.kill('SIGKILL');
				throw new Error(`the shared n8n did not start:\n${readFileSync(log, 'utf8').slice(-3000)}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		const state = {
			cookie: owner ? await login(`http://127.0.0.1:${port}`, owner.email, owner.password) : '',
			pid: child.pid,
			url: `http://127.0.0.1:${port}`,
			port,
			userFolder,
			n8nDir,
			env,
			log,
		};
		writeFileSync(stateFile(folder), JSON.stringify(state));
		return state;
	});
}

/** Stops the shared n8n of `folder`, if one was started, and removes the folder. */
export async function stopSharedN8n(folder) {
	if (existsSync(stateFile(folder))) {
		const { pid, log } = JSON.parse(readFileSync(stateFile(folder), 'utf8'));
		if (process.env.CT_E2E_KEEP) process.stdout.write(`shared n8n log: ${log}\n`);
		const alive = () => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		if (alive()) process.kill(pid, 'SIGTERM');
		const deadline = Date.now() + STOP_TIMEOUT_MS;
		while (alive() && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 100));
		if (alive()) process.kill(pid, 'SIGKILL');
	}
	if (!process.env.CT_E2E_KEEP) rmSync(folder, { recursive: true, force: true });
}

// A real n8n (scripts/n8n-runtime.mjs's default, or the version CT_N8N_VERSION names) with this
// package installed the way n8n installs community packages, for `npm start`, the end-to-end tests
// and `npm run test:compat`. Each instance has its own user folder and ports, and is stopped by
// whoever started it. What differs between n8n's 1.x and 2.x lines is decided here, once:
// activation on the CLI, how the owner is set up, the Node n8n runs on.
import { execFile, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { ensureN8n, N8N_VERSION, n8nBin, runtimeNode } from '../n8n-runtime.mjs';

// The n8n version every instance here runs, for whoever records figures or states it.
export { N8N_VERSION } from '../n8n-runtime.mjs';

/** n8n's line: 1 or 2. */
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);

/**
 * The CLI command that makes an imported workflow active from n8n's next start: 2.x publishes it
 * (`publish:workflow`), 1.x has no publishing and activates it (`update:workflow --active=true`).
 */
export function activateWorkflowArgs(workflowId) {
	return N8N_MAJOR >= 2
		? ['publish:workflow', `--id=${workflowId}`]
		: ['update:workflow', `--id=${workflowId}`, '--active=true'];
}

const run = promisify(execFile);

// Bounds on waiting for n8n (test/support/bounds.ts: a bound follows from a clock, or is
// "generous", at least 5x what the wait needs on a quiet two-core machine; these .mjs files
// cannot import it, so each says which in words).
/**
 * Generous: 5x the quiet 24 s n8n takes from its start until it serves (a fresh database's
 * migrations included).
 */
const START_TIMEOUT_MS = 120_000;
/**
 * Generous: 5x the quiet 36 s of the longest CLI command run here (`n8n execute`: n8n boots,
 * then runs the workflow).
 */
const CLI_TIMEOUT_MS = 180_000;
/** Generous: 5x the quiet 3 s n8n takes to stop on SIGTERM; then SIGKILL. */
const STOP_TIMEOUT_MS = 15_000;
/**
 * Generous: 5x the quiet 24 s of the slowest REST call (a busy n8n under a bench; a quiet call
 * takes well under a second).
 */
const REST_TIMEOUT_MS = 120_000;
/** Generous: 5x the quiet 12 s of a small workflow run by hand, from the request to its end. */
const RUN_BY_HAND_TIMEOUT_MS = 60_000;
/** Generous: 5x the quiet 36 s of the longest execution waited for here (a bench's catch-up). */
const EXECUTION_END_TIMEOUT_MS = 180_000;

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-container-tracking';

/**
 * Ports handed out here come from below the system's ephemeral range (Linux 32768 and up; macOS
 * and Windows 49152 and up), so no outgoing connection and no `listen(0)` takes one between the
 * pick and the listen (n8n listens only after its imports, a minute later under load); and each is
 * claimed in a folder of this user's (CT_PORT_CLAIMS: another, for a test), so two processes of one
 * run never pick the same one.
 */
const portClaims = () =>
	process.env.CT_PORT_CLAIMS ??
	path.join(os.tmpdir(), `${PACKAGE_NAME}-ports-${process.getuid?.() ?? 'user'}`);
/** A claim protects the pick until the listen: older ones are forgotten (generous). */
const PORT_CLAIM_MS = 30 * 60_000;

function ephemeralRangeStart() {
	try {
		return Number(
			readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
		);
	} catch {
		return 49_152;
	}
}

/** Forgets claims old enough that whoever made them listens by now, or never will. */
function pruneClaims() {
	try {
		const folder = portClaims();
		mkdirSync(folder, { recursive: true });
		const now = Date.now();
		for (const name of readdirSync(folder)) {
			const file = path.join(folder, name);
			try {
				if (now - statSync(file).mtimeMs > PORT_CLAIM_MS) rmSync(file, { force: true });
			} catch {
				// Another process pruned it first.
			}
		}
	} catch {
		// A folder this user cannot write: claims nothing (claimPort).
	}
}

/** Whether this process now holds the claim on `port`. */
function claimPort(port) {
	try {
		writeFileSync(path.join(portClaims(), String(port)), String(process.pid), { flag: 'wx' });
		return true;
	} catch (error) {
		// Claimed by another process; a folder this user cannot write claims nothing.
		return error.code !== 'EEXIST';
	}
}

/** Whether 127.0.0.1:port can be listened on right now. */
function canListen(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** What the system hands out: used where no range lies below its ephemeral one. */
function systemPort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/**
 * A port nobody listens on right now, and nobody else of this user's was given: from a random
 * place in `range` (tests narrow it), every port once, then whatever the system hands out.
 */
export async function freePort({ range } = {}) {
	const high = range?.[1] ?? Math.min(32_767, ephemeralRangeStart() - 1);
	const low = range?.[0] ?? Math.max(1_024, high - 12_767);
	if (high - low < (range ? 0 : 1_000)) return await systemPort();
	pruneClaims();
	const size = high - low + 1;
	const start = randomInt(size);
	for (let step = 0; step < size; step++) {
		const port = low + ((start + step) % size);
		if (claimPort(port) && (await canListen(port))) return port;
	}
	return await systemPort();
}

/** Whether something already listens on 127.0.0.1:port. */
export function portInUse(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/**
 * `npm pack` of the built package, installed into `<userFolder>/.n8n/nodes` by README.md's
 * "From the release's tarball" steps, word for word: the tarball copied into the nodes folder and
 * `npm install --legacy-peer-deps ./<tarball>` there. So every n8n a test starts has the package
 * as a user following the README has it, and a file missing from `files` is missing here too.
 */
export async function installPackedPackage(userFolder) {
	const packDir = mkdtempSync(path.join(os.tmpdir(), 'ct-pack-'));
	const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', packDir], {
		cwd: repoRoot,
	});
	const tarballName = stdout.trim().split('\n').pop();
	const nodesFolder = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesFolder, 'node_modules', PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(nodesFolder, { recursive: true });
	copyFileSync(path.join(packDir, tarballName), path.join(nodesFolder, tarballName));
	rmSync(packDir, { recursive: true, force: true });
	await run('npm', ['install', '--legacy-peer-deps', `./${tarballName}`], { cwd: nodesFolder });
	return { target, files: readdirSync(target) };
}

/** bcrypt hash of the owner's password, with n8n's own bcryptjs. */
export function hashPassword(n8nDir, password) {
	const require = createRequire(path.join(n8nDir, 'node_modules', 'n8n', 'package.json'));
	const bcrypt = require('bcryptjs');
	return bcrypt.hashSync(password, 10);
}

/**
 * The environment of one n8n instance (names verified for n8n 2.40.7, conventions 6.3; 1.x
 * ignores the owner's, see `login`).
 */
export function n8nEnvironment({ n8nDir, userFolder, port, brokerPort, owner, extra = {} }) {
	const node = runtimeNode();
	const env = {
		...process.env,
		PATH: `${node.binDir}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'container-tracking-local-encryption-key',
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_SECURE_COOKIE: 'false',
		// Under jest NODE_ENV is "test", with which n8n prints nothing (not even --rawOutput).
		NODE_ENV: 'production',
		...extra,
	};
	if (owner && N8N_MAJOR >= 2) {
		Object.assign(env, {
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: owner.email,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: hashPassword(n8nDir, owner.password),
			N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName ?? 'Demo',
			N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName ?? 'Owner',
		});
	}
	return env;
}

/**
 * A fault at a chosen point (test/e2e/kill.test.ts): holds the write lock of n8n's SQLite database
 * (WAL: n8n still reads) until the returned function is called, from a process of its own with the
 * Node n8n runs on (its built-in SQLite, Node 22.5 and later). n8n then answers what it can without
 * writing and creates no execution. Resolves once the lock is held.
 */
export async function holdDatabaseWrites(env, userFolder) {
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	const holder = [
		"const { DatabaseSync } = require('node:sqlite');",
		'const db = new DatabaseSync(process.argv[1]);',
		"db.exec('PRAGMA busy_timeout = 20000');",
		"db.exec('BEGIN IMMEDIATE');",
		"process.stdout.write('held\\n');",
		"process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });",
		'process.stdin.resume();',
	].join('\n');
	const child = spawn(runtimeNode().bin, ['--no-warnings', '-e', holder, database], {
		env,
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	const exited = new Promise((resolve) => child.once('exit', resolve));
	let output = '';
	await new Promise((resolve, reject) => {
		const read = (chunk) => {
			output += chunk.toString();
			if (output.includes('held')) resolve(undefined);
		};
		child.stdout.on('data', read);
		child.stderr.on('data', read);
		child.once('exit', (code) =>
			reject(new Error(`could not hold the database's write lock (exit ${code}): ${output}`)),
		);
	});
	return async () => {
		child.stdin.end();
		await exited;
	};
}

/** One n8n CLI command (import:*, publish:workflow, execute); each boots n8n for a few seconds. */
export async function n8nCli(n8nDir, env, args) {
	const node = runtimeNode();
	try {
		const { stdout, stderr } = await run(node.bin, [n8nBin(n8nDir), ...args], {
			env,
			maxBuffer: 64 * 2 ** 20,
			timeout: CLI_TIMEOUT_MS,
		});
		return { stdout, stderr, code: 0 };
	} catch (error) {
		return {
			stdout: error.stdout ?? '',
			stderr: error.stderr ?? String(error),
			code: error.code ?? 1,
		};
	}
}

/**
 * `n8n execute --id --rawOutput`: the run's JSON follows the log lines and ends at the first
 * line that is a lone `}` (after a failed run n8n prints the error again).
 */
export async function executeWorkflow(n8nDir, env, workflowId) {
	const result = await n8nCli(n8nDir, env, ['execute', `--id=${workflowId}`, '--rawOutput']);
	const lines = result.stdout.split('\n');
	const start = lines.findIndex((line) => line === '{');
	const end = start === -1 ? -1 : lines.indexOf('}', start);
	const run = end === -1 ? null : JSON.parse(lines.slice(start, end + 1).join('\n'));
	return { ...result, run };
}

/**
 * Stops a child process: `signal` (SIGTERM; SIGINT is Ctrl-C), SIGKILL after `graceMs` (15 s,
 * STOP_TIMEOUT_MS); resolves once it has exited.
 */
export function processStopper(child, { signal = 'SIGTERM', graceMs = STOP_TIMEOUT_MS } = {}) {
	const exited = new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve();
		else child.once('exit', resolve);
	});
	return async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		child.kill(signal);
		const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
		await exited;
		clearTimeout(killer);
	};
}

/** What each n8n command prints once it serves (the same from n8n 1.94 to 2.41). */
const READY = {
	start: 'Editor is now accessible via',
	webhook: 'Webhook listener waiting for requests.',
	worker: 'n8n worker is now ready',
};

/**
 * `n8n start` (or `webhook`, `worker` in queue mode), resolved once it serves. `stop()` sends
 * SIGTERM and waits for the process (SIGKILL after 15 s), so nothing is left running.
 */
export async function startN8n(n8nDir, env, { onLog, command = 'start' } = {}) {
	const node = runtimeNode();
	const child = spawn(node.bin, [n8nBin(n8nDir), command], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let log = '';
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);
	await new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			// A start that failed must not leave n8n running.
			child.kill('SIGKILL');
			reject(
				new Error(
					`n8n ${command} did not start within ${START_TIMEOUT_MS / 1000} s:\n${log.slice(-3000)}`,
				),
			);
		}, START_TIMEOUT_MS);
		const read = (chunk) => {
			const text = chunk.toString();
			log = (log + text).slice(-200_000);
			onLog?.(text);
			if (log.includes(READY[command])) {
				clearTimeout(timer);
				resolve();
			}
		};
		child.stdout.on('data', read);
		child.stderr.on('data', read);
		exited.then(({ code }) => {
			clearTimeout(timer);
			reject(
				new Error(
					`n8n ${command} exited with code ${code} before it was ready:\n${log.slice(-3000)}`,
				),
			);
		});
	});
	return {
		process: child,
		url: `http://127.0.0.1:${env.N8N_PORT}`,
		log: () => log,
		stop: processStopper(child),
	};
}

/**
 * By n8n's clock: it lets one user log in five times a minute and says when to ask again
 * (Retry-After); one window and a half.
 */
const LOGIN_WAIT_MS = 90_000;

/**
 * Logs in as the owner; returns the cookie header for the REST API. On 2.x the owner comes from
 * the environment (n8nEnvironment); 1.x has no such setting, so the first login of an instance
 * sets the owner up over REST, as the editor's setup page does (n8n answers 400 once it is).
 */
export async function login(baseUrl, email, password) {
	if (N8N_MAJOR < 2) {
		const setup = await fetch(`${baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ email, password, firstName: 'Demo', lastName: 'Owner' }),
		});
		if (!setup.ok && setup.status !== 400)
			throw new Error(`owner setup failed: ${setup.status} ${await setup.text()}`);
	}
	const attempt = () =>
		fetch(`${baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: email, password }),
		});
	let response = await attempt();
	// n8n lets one user log in five times a minute; a script that restarts n8n may ask again. A
	// busy n8n answers 503 while its database ping is slow (databaseNotReady): asked again too.
	for (
		let waited = 0;
		(response.status === 429 || (await isDatabaseNotReady(response))) && waited < LOGIN_WAIT_MS;

	) {
		const seconds =
			response.status === 429 ? Number(response.headers.get('retry-after') ?? 10) || 10 : 1;
		await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
		waited += seconds * 1000;
		response = await attempt();
	}
	if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
	const cookie = response.headers.get('set-cookie') ?? '';
	return cookie.split(';')[0];
}

/**
 * One call of n8n's REST API as the user of `cookie`; its `data`, or an error naming the call.
 * An n8n that does not answer within two minutes fails the call (a busy n8n under a bench must
 * not hang whoever asks).
 */
export async function restCall(baseUrl, cookie, method, pathname, body) {
	const response = await restFetch(baseUrl, cookie, method, pathname, body);
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /rest${pathname}: ${response.status} ${text}`);
	return JSON.parse(text).data;
}

/**
 * Whether n8n refused a request because its database ping was slow: n8n answers every request
 * `503 Database is not ready!` before handling it while a busy SQLite takes over 5 s to answer,
 * so the same request may be sent again.
 */
async function isDatabaseNotReady(response) {
	if (response.status !== 503) return false;
	return (await response.clone().text()).includes('Database is not ready');
}

/** Generous: n8n's database answers its ping again within seconds once a busy moment passes. */
const DATABASE_WAIT_MS = 60_000;

/**
 * One request to n8n's REST API as the user of `cookie`. n8n closes a connection idle for 5 s;
 * a request sent on it just then meets a closed socket before n8n read it (undici: "other side
 * closed"), so that one is sent again, once, on a new connection. A request n8n refused because
 * its database was not ready (it handled nothing) is sent again for up to DATABASE_WAIT_MS.
 */
export async function restFetch(baseUrl, cookie, method, pathname, body) {
	const send = () =>
		fetch(`${baseUrl}/rest${pathname}`, {
			method,
			headers: { Cookie: cookie, 'Content-Type': 'application/json', 'browser-id': 'ct-scripts' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(REST_TIMEOUT_MS),
		});
	const sendOnce = async () => {
		try {
			return await send();
		} catch (error) {
			const code = error?.cause?.code;
			if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
			return await send();
		}
	};
	let response = await sendOnce();
	for (let waited = 0; waited < DATABASE_WAIT_MS && (await isDatabaseNotReady(response)); ) {
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		waited += 1_000;
		response = await sendOnce();
	}
	return response;
}

/**
 * Every execution of a workflow, newest first, as n8n's REST API lists them (id, status, mode,
 * createdAt, startedAt, stoppedAt…; no run data), read in pages of 100. 2.40 cut a larger limit
 * to 100 silently and pages by lastId; 2.41 answers 400 to both and pages by the nextCursor it
 * returns.
 */
export async function listExecutions(baseUrl, cookie, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const executions = [];
	let next = '';
	for (;;) {
		const page = await restCall(
			baseUrl,
			cookie,
			'GET',
			`/executions?filter=${filter}&limit=100${next}`,
		);
		executions.push(...page.results);
		if ('nextCursor' in page) {
			if (!page.nextCursor) return executions;
			next = `&cursor=${page.nextCursor}`;
		} else {
			if (page.results.length < 100) return executions;
			next = `&lastId=${executions[executions.length - 1].id}`;
		}
	}
}

/**
 * The data table named `name` in the personal project of the user of `cookie`, with that
 * project's id; `table` is undefined when there is none.
 */
export async function dataTableByName(baseUrl, cookie, name) {
	const project = await restCall(baseUrl, cookie, 'GET', '/projects/personal');
	const filter = encodeURIComponent(JSON.stringify({ name }));
	const tables = await restCall(
		baseUrl,
		cookie,
		'GET',
		`/projects/${project.id}/data-tables?filter=${filter}`,
	);
	return { projectId: project.id, table: tables.data.find((entry) => entry.name === name) };
}

/**
 * Runs an imported workflow from its trigger `trigger` in a running n8n as the user of `cookie`,
 * as a person clicking *Execute workflow* does, and waits until it succeeded; returns the
 * execution. Not `n8n execute`: the CLI does not load n8n's modules (a Data table node fails
 * there with "the module is disabled"), and it runs beside, not inside, the running instance.
 */
export async function runWorkflowByHand(
	baseUrl,
	cookie,
	workflowId,
	trigger,
	timeoutMs = RUN_BY_HAND_TIMEOUT_MS,
) {
	const { executionId } = await restCall(baseUrl, cookie, 'POST', `/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: trigger },
	});
	const execution = await executionEnded(baseUrl, cookie, executionId, timeoutMs);
	if (execution.status !== 'success')
		throw new Error(`the workflow ${workflowId} ended ${execution.status}`);
	return execution;
}

/** The stored execution once it has ended, whatever its status; an error after `timeoutMs`. */
export async function executionEnded(
	baseUrl,
	cookie,
	executionId,
	timeoutMs = EXECUTION_END_TIMEOUT_MS,
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await restCall(baseUrl, cookie, 'GET', `/executions/${executionId}`);
		if (execution.stoppedAt && !['new', 'running'].includes(execution.status)) return execution;
		if (Date.now() > deadline)
			throw new Error(`execution ${executionId} did not end within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** A fresh user folder with the package installed, the n8n install ready. */
export async function prepareInstance({ userFolder, port, brokerPort, owner, extra }) {
	const n8nDir = await ensureN8n();
	mkdirSync(userFolder, { recursive: true });
	await installPackedPackage(userFolder);
	const env = n8nEnvironment({ n8nDir, userFolder, port, brokerPort, owner, extra });
	return { n8nDir, env };
}

// Postgres and Redis for n8n in queue mode (the queue-mode tests and `npm run bench`). Both come
// from Debian's packages, installed here when missing (a fresh machine has neither); each run
// gets its own data folder and ports, and stops what it started. apt-get needs root: as another
// user (a GitHub Actions runner) it runs through `sudo -n`, which needs passwordless sudo.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { freePort, portInUse, processStopper } from './n8n.mjs';

const run = promisify(execFile);
const POSTGRES_ROOT = '/usr/lib/postgresql';

function postgresBin() {
	if (!existsSync(POSTGRES_ROOT)) return undefined;
	const versions = readdirSync(POSTGRES_ROOT)
		.filter((name) => existsSync(path.join(POSTGRES_ROOT, name, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(POSTGRES_ROOT, versions[0], 'bin') : undefined;
}

const redisBin = () =>
	['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((file) => existsSync(file));

const isRoot = () => process.getuid?.() === 0;

/**
 * The command line of `apt-get <args>`: as root, apt-get itself; as anyone else, through
 * `sudo -n` (never a password prompt: it fails instead), with DEBIAN_FRONTEND passed on since
 * sudo resets the environment.
 */
export function aptCommand(args, root = isRoot()) {
	return root
		? ['apt-get', args]
		: ['sudo', ['-n', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]];
}

/**
 * Installs the Debian packages `missing` names (none: nothing to do) with apt-get; `needs` says in
 * an error what wanted them.
 */
export async function installDebianPackages(missing, needs) {
	if (missing.length === 0) return;
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const apt = async (args) => {
		const [command, commandArgs] = aptCommand(args);
		try {
			await run(command, commandArgs, { env, maxBuffer: 64 * 2 ** 20, timeout: 15 * 60_000 });
		} catch (error) {
			const how =
				command === 'sudo'
					? 'not root, so apt-get ran through `sudo -n`, which needs passwordless sudo: run as root, allow this user sudo without a password, or install them first'
					: 'run as root';
			throw new Error(
				`${command} ${commandArgs.join(' ')} failed (${needs} needs ${missing.join(' and ')}; ${how}):\n${String(error.stderr ?? error).slice(-2000)}`,
			);
		}
	};
	await apt(['update', '-qq']);
	// The packages' own services are not needed: only their binaries.
	await apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

/** Installs Debian's `postgresql` and `redis-server` when their binaries are missing. */
export async function ensureServices() {
	const missing = [];
	if (!postgresBin()) missing.push('postgresql');
	if (!redisBin()) missing.push('redis-server');
	if (missing.length === 0) return;
	await installDebianPackages(missing, 'queue mode');
	if (!postgresBin() || !redisBin())
		throw new Error(`installing ${missing.join(', ')} left no binaries`);
}

/** Runs a command as `postgres` when we are root (Postgres refuses to run as root). */
function asPostgres(bin, args, options = {}) {
	return isRoot()
		? ['runuser', ['-u', 'postgres', '--', bin, ...args], options]
		: [bin, args, options];
}

function waitForPort(port, what, child, timeoutMs = 60_000) {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const poll = async () => {
			if (child.exitCode !== null)
				return reject(new Error(`${what} exited with ${child.exitCode}`));
			if (await portInUse(port)) return resolve();
			if (Date.now() - started > timeoutMs)
				return reject(new Error(`${what} did not listen on ${port}`));
			setTimeout(poll, 100);
		};
		poll();
	});
}

/**
 * Resolves once `ready()` says so (polled every 100 ms); rejects when `child` exits first or
 * after `timeoutMs`, naming `what` it waited for.
 */
function waitUntil(ready, what, child, timeoutMs = 60_000) {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const poll = () => {
			if (child.exitCode !== null) return reject(new Error(`exited with ${child.exitCode}`));
			if (ready()) return resolve();
			if (Date.now() - started > timeoutMs)
				return reject(new Error(`no ${what} within ${timeoutMs} ms`));
			setTimeout(poll, 100);
		};
		poll();
	});
}

/**
 * A throwaway Postgres cluster: trust authentication on 127.0.0.1, one database `n8n`, data
 * in a temporary folder removed by `stop()`.
 */
export async function startPostgres() {
	const bin = postgresBin();
	if (!bin) throw new Error('Postgres is not installed: call ensureServices() first');
	const dataRoot = mkdtempSync(path.join(os.tmpdir(), 'ct-postgres-'));
	chmodSync(dataRoot, 0o777);
	const dataDir = path.join(dataRoot, 'data');
	const socketDir = path.join(dataRoot, 'socket');
	mkdirSync(socketDir, { mode: 0o777 });
	chmodSync(socketDir, 0o777);
	const port = await freePort();
	const psql = async (database, statement) => {
		const { stdout } = await run(path.join(bin, 'psql'), [
			...['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database],
			...['-A', '-t', '-c', statement],
		]);
		return stdout.trim();
	};
	await run(
		...asPostgres(path.join(bin, 'initdb'), [
			'-D',
			dataDir,
			'-U',
			'postgres',
			'--auth=trust',
			'--encoding=UTF8',
			'--no-sync',
		]),
	);
	const child = spawn(
		...asPostgres(
			path.join(bin, 'postgres'),
			[
				'-D',
				dataDir,
				'-p',
				String(port),
				'-k',
				socketDir,
				'-c',
				'listen_addresses=127.0.0.1',
				'-c',
				'fsync=off',
				'-c',
				'synchronous_commit=off',
				'-c',
				'full_page_writes=off',
				'-c',
				'max_connections=200',
			],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		),
	);
	let log = '';
	const read = (chunk) => (log = (log + chunk.toString()).slice(-50_000));
	child.stdout.on('data', read);
	child.stderr.on('data', read);
	try {
		await waitForPort(port, 'postgres', child);
		// Postgres listens before it accepts connections ("the database system is starting up"
		// answers a connection meanwhile): its log says when it does.
		await waitUntil(
			() => log.includes('database system is ready to accept connections'),
			'"ready to accept connections" in the Postgres log',
			child,
		);
		await psql('postgres', 'CREATE DATABASE n8n');
	} catch (error) {
		await processStopper(child)();
		rmSync(dataRoot, { recursive: true, force: true });
		throw new Error(`${error.message}\n${log.slice(-2000)}`);
	}
	const stop = processStopper(child);
	return {
		port,
		database: 'n8n',
		user: 'postgres',
		log: () => log,
		/** Runs SQL through psql; returns its unaligned output. */
		async sql(statement) {
			return await psql('n8n', statement);
		},
		async stop() {
			await stop();
			rmSync(dataRoot, { recursive: true, force: true });
		},
	};
}

/** A Redis with nothing saved to disk. */
export async function startRedis() {
	const bin = redisBin();
	if (!bin) throw new Error('Redis is not installed: call ensureServices() first');
	const port = await freePort();
	const child = spawn(
		bin,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let log = '';
	const read = (chunk) => (log = (log + chunk.toString()).slice(-50_000));
	child.stdout.on('data', read);
	child.stderr.on('data', read);
	const stop = processStopper(child);
	try {
		await waitForPort(port, 'redis', child);
	} catch (error) {
		await stop();
		throw new Error(`${error.message}\n${log.slice(-2000)}`);
	}
	return { port, log: () => log, stop };
}

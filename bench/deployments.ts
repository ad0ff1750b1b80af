/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The two n8n deployments the benches drive (bench/storm.ts, bench/burst.ts), each a real n8n
 * with the packed package: one n8n on SQLite as scripts/lib/n8n.mjs sets it up, and queue mode as
 * scripts/lib/queue.mjs does (Postgres, Redis, main, webhook process, workers). Import workflows
 * with `cli` before `start`; `stop` leaves nothing running and removes their folders.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { OWNER } from '../test/e2e/helpers';
import { descendantsOf, isRunning } from './processTree';

export type Env = Record<string, string>;
export interface CliResult {
	code: number | string;
	stdout: string;
	stderr: string;
}

/** scripts/lib/n8n.mjs, as the benches use it. */
export interface N8nScripts {
	freePort(): Promise<number>;
	prepareInstance(options: unknown): Promise<{ n8nDir: string; env: Env }>;
	n8nCli(n8nDir: string, env: Env, args: string[]): Promise<CliResult>;
	startN8n(
		n8nDir: string,
		env: Env,
		options?: { onLog?: (text: string) => void },
	): Promise<{ process: ChildProcess; stop(): Promise<void> }>;
	activateWorkflowArgs(workflowId: string): string[];
	login(baseUrl: string, email: string, password: string): Promise<string>;
	restCall(
		baseUrl: string,
		cookie: string,
		method: string,
		pathname: string,
		body?: unknown,
	): Promise<unknown>;
	listExecutions(baseUrl: string, cookie: string, workflowId: string): Promise<unknown[]>;
	runWorkflowByHand(
		baseUrl: string,
		cookie: string,
		workflowId: string,
		trigger: string,
		timeoutMs?: number,
	): Promise<unknown>;
	N8N_VERSION: string;
}

export async function n8nScripts(): Promise<N8nScripts> {
	// @ts-expect-error: an .mjs helper shared with the scripts
	return (await import('../scripts/lib/n8n.mjs')) as N8nScripts;
}

export interface Deployment {
	name: string;
	/** Where the service delivers: n8n's production webhooks are under it. */
	webhookBase: string;
	/** n8n's editor and REST API. */
	restBase: string;
	cli(args: string[]): Promise<CliResult>;
	/** Starts every n8n process (the database and queue stay as they are). */
	start(): Promise<void>;
	/** Stops every n8n process; the database and queue stay. */
	stopN8n(): Promise<void>;
	restart(): Promise<void>;
	/** Stops everything and removes the folders. */
	stop(): Promise<void>;
	/**
	 * Kills what a fault kills (`killTarget`), resolved once it has exited; `start()` starts it
	 * again on the same folder and ports.
	 */
	kill?(signal: 'SIGKILL' | 'SIGTERM'): Promise<KillReport>;
	/**
	 * The process `kill` kills, named as its log is: `n8n` (one n8n), or in queue mode one worker,
	 * `worker-1`, or the webhook process, `webhook` (BURST_KILL_PROCESS), the others going on.
	 */
	killTarget?: string;
}

export interface KillReport {
	/** n8n and its task runners when the signal went out. */
	processes: number;
	/** From the signal to n8n's exit. */
	exitedAfterMs: number;
	/** Processes of the tree still alive once n8n had exited (then killed). */
	leftRunning: number;
	/** SIGTERM only: n8n had not exited after TERM_LIMIT_MS and was killed. */
	forced: boolean;
}

/** Far past n8n's default graceful-shutdown timeout (30 s): a stop that hangs is not waited for. */
const TERM_LIMIT_MS = 180_000;
/**
 * The queue-mode process a fault kills, named as scripts/lib/queue.mjs names them: a worker
 * (`worker-1`, the default) or the webhook process (`webhook`), BURST_KILL_PROCESS.
 */
export const DEFAULT_KILLED_PROCESS = 'worker-1';
const KILLED_PROCESS = process.env.BURST_KILL_PROCESS ?? DEFAULT_KILLED_PROCESS;
/** The n8n command the killed process runs (`worker`, `webhook`). */
const KILLED_COMMAND = KILLED_PROCESS.replace(/-\d+$/, '');

function signalEach(pids: number[], signal: NodeJS.Signals): void {
	for (const pid of pids) {
		try {
			process.kill(pid, signal);
		} catch {
			// Exited meanwhile.
		}
	}
}

/**
 * SIGKILL goes to n8n and every process below it at once (its task runners die with it, as in a
 * container killed for memory); SIGTERM to n8n alone, which stops its runners itself, waited for
 * up to TERM_LIMIT_MS. Whatever outlived n8n is killed, so that the start again finds its ports.
 * `signalN8n` sends the n8n process `pid` the signal and resolves once it has exited.
 */
async function killTree(
	pid: number,
	signal: 'SIGKILL' | 'SIGTERM',
	signalN8n: (signal: 'SIGKILL' | 'SIGTERM') => Promise<void>,
): Promise<KillReport> {
	const tree = descendantsOf(pid);
	const signalled = Date.now();
	let forced = false;
	const exited = signalN8n(signal);
	if (signal === 'SIGKILL') signalEach(tree, 'SIGKILL');
	const limit = setTimeout(() => {
		forced = true;
		signalEach([pid, ...descendantsOf(pid)], 'SIGKILL');
	}, TERM_LIMIT_MS);
	await exited;
	clearTimeout(limit);
	const exitedAfterMs = Date.now() - signalled;
	const left = [...new Set([...tree, ...descendantsOf(pid)])].filter(isRunning);
	signalEach(left, 'SIGKILL');
	for (let waited = 0; left.some(isRunning) && waited < 10_000; waited += 100)
		await new Promise((resolve) => setTimeout(resolve, 100));
	return { processes: 1 + tree.length, exitedAfterMs, leftRunning: left.length, forced };
}

export interface DeploymentOptions {
	/** More settings for every n8n process. */
	env?: Env;
	/** Said after the deployment's name (e.g. the settings `env` changes). */
	label?: string;
	/** Sees everything each n8n process prints; `process` names it (`n8n`, `main`, `worker-1`…). */
	onLog?: (process: string, text: string) => void;
	/** A folder for CPU profiles of the one n8n (`node --cpu-prof`), written when it stops. */
	profileDir?: string;
}

export async function singleN8n(options: DeploymentOptions = {}): Promise<Deployment> {
	const lib = await n8nScripts();
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'ct-bench-'));
	const port = await lib.freePort();
	const { n8nDir, env } = await lib.prepareInstance({
		userFolder,
		port,
		brokerPort: await lib.freePort(),
		owner: OWNER,
	});
	Object.assign(env, options.env ?? {});
	if (options.profileDir) env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${options.profileDir}`;
	let running: { process: ChildProcess; stop(): Promise<void> } | undefined;
	const onLog = options.onLog && ((text: string) => options.onLog!('n8n', text));
	const deployment: Deployment = {
		name: `one n8n (SQLite)${options.label ?? ''}`,
		webhookBase: `http://127.0.0.1:${port}`,
		restBase: `http://127.0.0.1:${port}`,
		cli: (args) => lib.n8nCli(n8nDir, env, args),
		async start() {
			running ??= await lib.startN8n(n8nDir, env, { onLog });
		},
		async stopN8n() {
			await running?.stop();
			running = undefined;
		},
		async restart() {
			await deployment.stopN8n();
			await deployment.start();
		},
		async stop() {
			await deployment.stopN8n();
			// BURST_KEEP=1 keeps n8n's folder (its database: executions, deduplication lists).
			if (process.env.BURST_KEEP) process.stdout.write(`[bench] kept ${userFolder}\n`);
			else rmSync(userFolder, { recursive: true, force: true });
		},
		killTarget: 'n8n',
		async kill(signal) {
			const child = running?.process;
			if (!child) throw new Error('n8n is not running');
			running = undefined;
			const exited = new Promise<void>((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) resolve();
				else child.once('exit', () => resolve());
			});
			return await killTree(child.pid!, signal, (sent) => {
				child.kill(sent);
				return exited;
			});
		},
	};
	return deployment;
}

/**
 * The n8n process the bench started with `command` (`worker`…) on the user folder `userFolder`
 * (its N8N_USER_FOLDER), read from /proc: not its task runners, which run other commands.
 */
function n8nProcessOn(userFolder: string, command: string): number | undefined {
	const read = (pid: number, file: string) => {
		try {
			return readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0');
		} catch {
			return []; // gone meanwhile
		}
	};
	return descendantsOf(process.pid).find(
		(pid) =>
			read(pid, 'cmdline').filter(Boolean).pop() === command &&
			read(pid, 'environ').includes(`N8N_USER_FOLDER=${userFolder}`),
	);
}

export async function queueMode(options: DeploymentOptions = {}): Promise<Deployment> {
	// @ts-expect-error: an .mjs helper shared with the scripts
	const lib = (await import('../scripts/lib/queue.mjs')) as {
		prepareQueueCluster(options: unknown): Promise<
			Omit<Deployment, 'name' | 'webhookBase' | 'restBase' | 'kill' | 'killTarget'> & {
				webhookBaseUrl: string;
				mainUrl: string;
				/** The folder holding each process's user folder, named as the process. */
				root: string;
				/** Sends one process `signal`, resolved once it has exited; `start()` starts it again. */
				kill(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void>;
			}
		>;
	};
	const cluster = await lib.prepareQueueCluster({
		owner: OWNER,
		workers: 2,
		extra: options.env ?? {},
		onLog: options.onLog,
	});
	return {
		name: `queue mode (main, webhook process, 2 workers; Postgres, Redis)${options.label ?? ''}`,
		webhookBase: cluster.webhookBaseUrl,
		restBase: cluster.mainUrl,
		cli: (args) => cluster.cli(args),
		start: () => cluster.start(),
		stopN8n: () => cluster.stopN8n(),
		restart: () => cluster.restart(),
		stop: () => cluster.stop(),
		killTarget: KILLED_PROCESS,
		// One worker (or the webhook process), as its container killed for memory (or stopped by a
		// deploy): its task runners with it, the other processes going on.
		async kill(signal) {
			const pid = n8nProcessOn(path.join(cluster.root, KILLED_PROCESS), KILLED_COMMAND);
			if (pid === undefined) throw new Error(`${KILLED_PROCESS} is not running`);
			return await killTree(pid, signal, (sent) => cluster.kill(KILLED_PROCESS, sent));
		},
	};
}

/** Imports into a deployment that is not running; a failed command throws with its output. */
export async function checkedCli(deployment: Deployment, args: string[]): Promise<void> {
	const result = await deployment.cli(args);
	if (result.code !== 0)
		throw new Error(`n8n ${args[0]}: ${(result.stderr + result.stdout).slice(-2000)}`);
}

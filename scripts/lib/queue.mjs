// n8n in queue mode, as teams run it when one n8n is not enough: Postgres and Redis
// (scripts/lib/services.mjs), one main (editor, activation), one webhook process (production
// webhooks only go there) and workers that run the executions. Every process has its own user
// folder with the packed package and its own ports; all share the database and the queue.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ensureN8n } from '../n8n-runtime.mjs';
import { freePort, installPackedPackage, n8nCli, n8nEnvironment, startN8n } from './n8n.mjs';
import { ensureServices, startPostgres, startRedis } from './services.mjs';

/**
 * Starts Postgres and Redis and prepares (does not start) the n8n processes: import workflows
 * with `cli()` first, then `start()`. `stop()` stops everything and removes the folders.
 * `onLog(name, text)` sees everything each process prints, as it prints it.
 */
export async function prepareQueueCluster({
	owner,
	workers = 2,
	extra = {},
	keep = false,
	onLog,
} = {}) {
	const n8nDir = await ensureN8n();
	await ensureServices();
	const root = mkdtempSync(path.join(os.tmpdir(), 'ct-queue-'));
	const postgres = await startPostgres();
	const redis = await startRedis().catch(async (error) => {
		await postgres.stop();
		throw error;
	});
	const webhookPort = await freePort();
	const shared = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		// n8n's pool of 2 connections a process starves under a burst's open requests
		// (docs/design/guarantees.md, "Capacity": executions failed on "timeout exceeded when trying
		// to connect").
		DB_POSTGRESDB_POOL_SIZE: '10',
		// Production webhooks are served by the webhook process only, as in a real split.
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		// The URL the trigger registers with the service: the webhook process's.
		N8N_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
		...extra,
	};

	const mainFolder = path.join(root, 'main');
	mkdirSync(mainFolder, { recursive: true });
	await installPackedPackage(mainFolder);
	const processEnv = async (name, port) => {
		const userFolder = path.join(root, name);
		if (name !== 'main')
			cpSync(path.join(mainFolder, '.n8n', 'nodes'), path.join(userFolder, '.n8n', 'nodes'), {
				recursive: true,
			});
		const brokerPort = await freePort();
		// `shared` comes last in the environment: N8N_WEBHOOK_URL names the webhook process.
		return n8nEnvironment({
			n8nDir,
			userFolder,
			port,
			brokerPort,
			owner,
			extra: shared,
		});
	};
	const mainPort = await freePort();
	const specs = [
		{ name: 'main', command: 'start', env: await processEnv('main', mainPort) },
		{ name: 'webhook', command: 'webhook', env: await processEnv('webhook', webhookPort) },
	];
	for (let index = 1; index <= workers; index++)
		specs.push({
			name: `worker-${index}`,
			command: 'worker',
			env: await processEnv(`worker-${index}`, await freePort()),
		});

	const running = new Map();
	const logs = new Map();
	const cluster = {
		n8nDir,
		root,
		postgres,
		redis,
		mainUrl: `http://127.0.0.1:${mainPort}`,
		webhookBaseUrl: `http://127.0.0.1:${webhookPort}`,
		/** The main's environment: CLI commands run with it. */
		env: specs[0].env,
		names: specs.map((spec) => spec.name),
		cli: (args) => n8nCli(n8nDir, specs[0].env, args),
		/** Everything a process printed, across its restarts. */
		log: (name) => (logs.get(name) ?? '') + (running.get(name)?.log() ?? ''),
		/** Starts the processes that are not running: the main first (it migrates the database). */
		async start() {
			const launch = async (spec) => {
				if (!running.has(spec.name))
					running.set(
						spec.name,
						await startN8n(n8nDir, spec.env, {
							command: spec.command,
							onLog: onLog && ((text) => onLog(spec.name, text)),
						}),
					);
			};
			await launch(specs[0]);
			await Promise.all(specs.slice(1).map(launch));
		},
		/** Stops every n8n process (Postgres and Redis stay). */
		async stopN8n() {
			for (const spec of [...specs].reverse()) {
				const child = running.get(spec.name);
				if (!child) continue;
				logs.set(spec.name, (logs.get(spec.name) ?? '') + child.log());
				running.delete(spec.name);
				await child.stop();
			}
		},
		async restart() {
			await cluster.stopN8n();
			await cluster.start();
		},
		/**
		 * Sends one process `signal` (SIGKILL: an out-of-memory kill) and resolves once it has
		 * exited; `start()` starts it again.
		 */
		async kill(name, signal = 'SIGKILL') {
			const child = running.get(name);
			if (!child) return;
			logs.set(name, (logs.get(name) ?? '') + child.log());
			running.delete(name);
			const { process: processOf } = child;
			if (processOf.exitCode !== null || processOf.signalCode !== null) return;
			const exited = new Promise((resolve) => processOf.once('exit', resolve));
			processOf.kill(signal);
			await exited;
		},
		async stop() {
			await cluster.stopN8n();
			await redis.stop();
			await postgres.stop();
			if (!keep) rmSync(root, { recursive: true, force: true });
		},
	};
	return cluster;
}

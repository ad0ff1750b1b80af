/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// End-to-end harness: a real n8n (scripts/lib/n8n.mjs; CT_N8N_VERSION picks which) with this
// package installed from `npm pack`, a started sandbox of the service, fixture workflows.
// - Files that do not restart or reconfigure n8n share the run's one n8n (scripts/lib/sharedN8n.mjs)
//   and import their credentials and workflows over its REST API, under ids of their own; each
//   removes what it imported in afterAll.
// - Files that do (or a run on n8n 1.x) get their own user folder, ports and n8n, import through
//   n8n's CLI, and stop them in afterAll.
// Either way each file has its own sandbox.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

import { signBody } from '../../sandbox/webhooks/delivery';
import { byClock, generous } from '../support/bounds';
import { API_KEY, eventually, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import type { ReceivedDelivery } from '../support/webhookReceiver';
import type { SandboxOptions } from '../../sandbox/server';

export const CREDENTIAL = { id: 'ctSandboxCredential', name: 'Container Tracking sandbox' };
export const NODE_TYPE = 'n8n-nodes-container-tracking.containerTracking';
export const TRIGGER_TYPE = 'n8n-nodes-container-tracking.containerTrackingTrigger';
export const OWNER = { email: 'e2e-owner@example.com', password: 'E2e-password-1' };

// What n8n's own work takes on a quiet two-core machine, rounded up: the bounds on waiting for
// it are generous(…) of these (test/support/bounds.ts).
/** Installing n8n and its Node into the cache, on a cold machine (CONTRIBUTING.md, "Suites"). */
const INSTALL_QUIET_MS = 5 * 60_000;
/** `n8n start` (or a queue-mode process) until it serves, its published workflows active. */
export const N8N_START_QUIET_MS = 20_000;
/** One n8n CLI command (import, publish, execute): it boots n8n for a few seconds. */
export const CLI_QUIET_MS = 10_000;
/**
 * A published trigger's activation as n8n does it in the background (2.x's publication outbox,
 * a restart's reactivation), its webhook registered or removed at the service: under a second
 * seen on a loaded machine, rounded up well.
 */
export const ACTIVATION_QUIET_MS = 6_000;
/**
 * One execution of a small workflow, from its delivery to its last node (an email, a POST): a
 * few hundred milliseconds, the first of a workflow (its task runner cold) a few seconds.
 */
export const EXECUTION_QUIET_MS = 4_000;
/**
 * A file's beforeAll: n8n installed into its cache when missing (the first file; the others wait
 * for its lock), then the file's own n8n, imports and sandbox, well under a minute.
 */
export const SETUP_TIMEOUT = generous(INSTALL_QUIET_MS + 60_000);
/**
 * A file's afterAll: its n8n stopped (SIGKILL after 15 s, scripts/lib/n8n.mjs processStopper) or
 * its workflows unpublished and deleted in the shared one, then its sandbox: a few seconds.
 */
export const TEARDOWN_TIMEOUT = byClock(15_000) + generous(5_000);

type Env = Record<string, string>;
export interface CliResult {
	stdout: string;
	stderr: string;
	code: number | string;
}
// The run JSON of `n8n execute --rawOutput` is read field by field in the tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunJson = any;
interface N8nLib {
	freePort(): Promise<number>;
	prepareInstance(options: {
		userFolder: string;
		port: number;
		brokerPort: number;
		owner?: { email: string; password: string };
		extra?: Env;
	}): Promise<{ n8nDir: string; env: Env }>;
	n8nCli(n8nDir: string, env: Env, args: string[]): Promise<CliResult>;
	executeWorkflow(n8nDir: string, env: Env, id: string): Promise<CliResult & { run: RunJson }>;
	startN8n(
		n8nDir: string,
		env: Env,
	): Promise<{
		url: string;
		process: import('node:child_process').ChildProcess;
		stop(): Promise<void>;
		log(): string;
	}>;
	login(url: string, email: string, password: string): Promise<string>;
	holdDatabaseWrites(env: Env, userFolder: string): Promise<() => Promise<void>>;
	/** Runs a saved workflow from `trigger` over REST and waits for its success; the execution. */
	runWorkflowByHand(
		url: string,
		cookie: string,
		workflowId: string,
		trigger: string,
		timeoutMs?: number,
	): Promise<{ data: string; status: string }>;
	/** One request to n8n's REST API, sent again once on a socket n8n had just closed. */
	restFetch(
		url: string,
		cookie: string,
		method: string,
		pathname: string,
		body?: unknown,
	): Promise<Response>;
	/** The stored execution once it has ended, whatever its status. */
	executionEnded(url: string, cookie: string, executionId: string): Promise<unknown>;
	/** Every execution of a workflow (no run data), newest first. */
	listExecutions(
		url: string,
		cookie: string,
		workflowId: string,
	): Promise<Array<{ id: string; status: string; mode: string; stoppedAt: string }>>;
	/** The CLI command that activates (2.x: publishes) a workflow from n8n's next start. */
	activateWorkflowArgs(workflowId: string): string[];
	N8N_VERSION: string;
	/** n8n's line, 1 or 2. */
	N8N_MAJOR: number;
}

/**
 * scripts/lib/*.mjs are ESM. ts-jest compiles tests to CommonJS, and jest's own module system
 * cannot load ESM without --experimental-vm-modules; a function compiled in the main context with
 * Node's default loader imports them natively (Node 24; the loaded modules live outside jest's
 * registry, which is what we want for process launchers).
 */
const importNative = (file: string): Promise<unknown> =>
	(
		vm.runInThisContext('(specifier) => import(specifier)', {
			importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
		}) as (specifier: string) => Promise<unknown>
	)(path.resolve(__dirname, '..', '..', 'scripts', file));

let lib: Promise<N8nLib> | undefined;
export function n8nLib(): Promise<N8nLib> {
	lib ??= importNative(path.join('lib', 'n8n.mjs')) as Promise<N8nLib>;
	return lib;
}

/** An email as the local SMTP server (scripts/lib/mail.mjs, maildev) parsed it. */
export interface ReceivedMail {
	subject: string;
	text?: string;
	html?: string;
	from: Array<{ address: string; name: string }>;
	to: Array<{ address: string; name: string }>;
}

export interface MailServer {
	smtpHost: string;
	smtpPort: number;
	webUrl: string;
	/** Every email received so far, in order of arrival. */
	messages: ReceivedMail[];
	/**
	 * Started `holdable` only: new SMTP connections wait unanswered (an execution stops at its Send
	 * Email node) until `release()`; `waiting()` counts them.
	 */
	hold(): void;
	/** Started `holdable` only: new SMTP connections are closed at once until `release()`. */
	refuse(): void;
	release(): void;
	waiting(): number;
	stop(): Promise<void>;
}

interface MailLib {
	startMailServer(options?: { holdable?: boolean }): Promise<MailServer>;
	smtpCredential(server: MailServer): Record<string, unknown>;
}

let mailLib: Promise<MailLib> | undefined;
function mail(): Promise<MailLib> {
	mailLib ??= importNative(path.join('lib', 'mail.mjs')) as Promise<MailLib>;
	return mailLib;
}

/** A local SMTP server with a web inbox, on free ports, for the examples' Send Email nodes. */
export async function startMailServer(options: { holdable?: boolean } = {}): Promise<MailServer> {
	return (await mail()).startMailServer(options);
}

/** The SMTP credential examples/hold-alerts.json uses (`ctDemoSmtp`), pointing at `server`. */
export async function smtpCredential(server: MailServer): Promise<Record<string, unknown>> {
	return (await mail()).smtpCredential(server);
}

/** n8n in queue mode (scripts/lib/queue.mjs): Postgres, Redis, main, webhook process, workers. */
export interface QueueCluster {
	n8nDir: string;
	mainUrl: string;
	webhookBaseUrl: string;
	env: Env;
	names: string[];
	postgres: { sql(statement: string): Promise<string> };
	cli(args: string[]): Promise<CliResult>;
	log(name: string): string;
	start(): Promise<void>;
	stopN8n(): Promise<void>;
	restart(): Promise<void>;
	/** One process (`names`) sent `signal`, waited for until it exited; `start()` starts it again. */
	kill(name: string, signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
	stop(): Promise<void>;
}

export async function prepareQueueCluster(options: {
	owner?: { email: string; password: string };
	workers?: number;
	extra?: Env;
	keep?: boolean;
}): Promise<QueueCluster> {
	const queue = (await importNative(path.join('lib', 'queue.mjs'))) as {
		prepareQueueCluster(options: unknown): Promise<QueueCluster>;
	};
	return await queue.prepareQueueCluster(options);
}

// ---------------------------------------------------------------------------------------------
// Workflows

export interface WorkflowNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	typeVersion?: number;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	executeOnce?: boolean;
	onError?: string;
	/** Names of the nodes this one takes its input from (first output of each). */
	after?: string[];
}

/** A node of this package with the sandbox credential. */
export function ctNode(
	name: string,
	parameters: Record<string, unknown>,
	extra: Partial<WorkflowNode> = {},
	credential: { id: string; name: string } = CREDENTIAL,
): WorkflowNode {
	return {
		name,
		type: NODE_TYPE,
		parameters,
		credentials: { containerTrackingApi: credential },
		...extra,
	};
}

export const START: WorkflowNode = {
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	parameters: {},
};

/**
 * Every row of the Data Table Tariff (examples/tariff-table.json makes it), read after START: the
 * tariff a test hands to Get Charges, as the examples do.
 */
export const TARIFF_ROWS: WorkflowNode = {
	name: 'Tariff',
	type: 'n8n-nodes-base.dataTable',
	typeVersion: 1.1,
	parameters: {
		resource: 'row',
		operation: 'get',
		dataTableId: { __rl: true, mode: 'name', value: 'Tariff' },
		returnAll: true,
	},
	after: [START.name],
};

/** A workflow in n8n's import format; `after` turns into connections. */
export function workflow(id: string, name: string, nodes: WorkflowNode[]): Record<string, unknown> {
	const connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: string; index: number }>> }
	> = {};
	nodes.forEach((node) => {
		for (const source of node.after ?? []) {
			connections[source] ??= { main: [[]] };
			connections[source].main[0].push({ node: node.name, type: 'main', index: 0 });
		}
	});
	return {
		id,
		name,
		nodes: nodes.map(({ after, typeVersion, parameters, ...node }, index) => ({
			id: `${id}-${index}`,
			typeVersion: typeVersion ?? 1,
			position: [index * 220, (after?.length ?? 0) === 0 ? 0 : index * 40],
			parameters: parameters ?? {},
			...node,
		})),
		connections,
		// n8n 1.x's import needs the column; every import leaves the workflow inactive anyway.
		active: false,
		settings: { executionOrder: 'v1' },
	};
}

/** Items a node produced in an `n8n execute --rawOutput` run (first run, first output). */
export function itemsOf(run: RunJson, nodeName: string): Array<Record<string, unknown>> {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(run?.data?.resultData?.runData ?? {}).join(', ')}`,
		);
	return (runs[0].data?.main?.[0] ?? []).map(
		(item: { json: Record<string, unknown> }) => item.json,
	);
}

// ---------------------------------------------------------------------------------------------
// One n8n instance with the package, next to one sandbox

export interface E2eContext {
	/** Whether this file shares the run's n8n (see the top of this file). */
	shared: boolean;
	handle: SandboxHandle;
	userFolder: string;
	port: number;
	n8nDir: string;
	env: Env;
	/** Writes `value` as JSON into the user folder's fixture dir; returns the path. */
	writeFixture(name: string, value: unknown): string;
	cli(args: string[]): Promise<CliResult>;
	/** An n8n CLI command that must succeed. */
	cliOk(args: string[]): Promise<CliResult>;
	/**
	 * Container Tracking credentials for the file's sandbox, and the examples' SMTP credential
	 * (`ctDemoSmtp`) for `smtp` when given: in one `import:credentials` when n8n is the file's own
	 * (each CLI command boots n8n for seconds).
	 */
	importCredentials(
		credentials: Array<{ id: string; name: string; apiKey: string }>,
		smtp?: MailServer,
	): Promise<void>;
	importWorkflow(definition: Record<string, unknown>): Promise<void>;
	/** Several workflows: in one `import:workflow` when n8n is the file's own. */
	importWorkflows(definitions: Array<Record<string, unknown>>): Promise<void>;
	/** Publishes (1.x: activates) an imported workflow; n8n takes it up at its next start. */
	activate(workflowId: string): Promise<void>;
	/** The examples' SMTP credential (`ctDemoSmtp`), pointing at a local mail server. */
	importSmtpCredential(server: MailServer): Promise<void>;
	/** A credential of n8n's own (e.g. the MCP Server Trigger's Bearer Auth), as n8n imports it. */
	importCredentialRecord(record: CredentialRecord): Promise<void>;
	/**
	 * Runs an imported workflow from its Manual Trigger until it ended: `n8n execute` in a file
	 * of its own, over REST in the shared n8n. `run` is the run as `execute --rawOutput` prints it.
	 */
	execute(id: string): Promise<CliResult & { run: RunJson }>;
	/** `n8n execute --rawOutput`, also beside the shared n8n (for what the CLI prints). */
	executeOnCli(id: string): Promise<CliResult & { run: RunJson }>;
	/** The ids n8n gave what was imported under `id` (the same unless n8n is shared). */
	workflowId(id: string): string;
	credentialId(id: string): string;
	webhookId(id: string): string;
	/** The production URL of the trigger whose webhookId was `id` in the imported workflow. */
	webhookUrl(id: string): string;
	/** n8n, serving: started now in a file of its own, the shared one as it is. */
	start(): Promise<{ url: string; cookie: string; log(): string }>;
	/** Stops n8n when the file has its own; the shared one stays. */
	stopN8n(): Promise<void>;
	/**
	 * Sends the file's own n8n `signal` and waits until it has exited: SIGKILL is an
	 * out-of-memory kill; SIGTERM a `docker stop` or a deploy (n8n then waits for its
	 * executions up to N8N_GRACEFUL_SHUTDOWN_TIMEOUT). `meanwhile` runs between the signal and
	 * the exit (a test's chosen point in a graceful shutdown). The shared n8n is never killed.
	 */
	killN8n(signal: 'SIGKILL' | 'SIGTERM', meanwhile?: () => Promise<void>): Promise<void>;
	/**
	 * Holds the write lock of the file's own n8n's database (SQLite) until the returned function
	 * is called: n8n answers what needs no write and creates no execution meanwhile.
	 */
	holdDatabaseWrites(): Promise<() => Promise<void>>;
	stop(): Promise<void>;
}

/** A credential as `n8n import:credentials` takes it. */
export interface CredentialRecord {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** A Container Tracking credential for the file's sandbox, as n8n imports it. */
export function credentialRecord(
	handle: SandboxHandle,
	{ id, name, apiKey }: { id: string; name: string; apiKey: string },
) {
	return {
		id,
		name,
		type: 'containerTrackingApi',
		data: {
			apiKey,
			baseUrl: handle.sandbox.url,
			signatureHeader: handle.sandbox.options.signatureHeader,
		},
	};
}

/** What the shared n8n runs with; a file that asks for more than this gets its own n8n. */
const SHARED_EXTRA: Env = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };

/**
 * n8n and a sandbox for one file. `ownN8n` for a file that stops, restarts or reconfigures n8n;
 * otherwise the file shares the run's n8n when jest's global setup named one
 * (test/support/sharedN8n.setup.js) and it runs n8n 2.x.
 */
export async function startE2e({
	sandbox = {},
	extra = {},
	ownN8n = false,
}: { sandbox?: Partial<SandboxOptions>; extra?: Env; ownN8n?: boolean } = {}): Promise<E2eContext> {
	const n8n = await n8nLib();
	const sharable = Object.entries(extra).every(([name, value]) => SHARED_EXTRA[name] === value);
	if (!ownN8n && sharable && process.env.CT_SHARED_N8N && n8n.N8N_MAJOR >= 2)
		return await joinSharedN8n(sandbox);
	const userFolder = mkdtempSync(path.join(tmpdir(), 'ct-e2e-'));
	const port = await n8n.freePort();
	const brokerPort = await n8n.freePort();
	const handle = await startTestSandbox(sandbox);
	let running: Awaited<ReturnType<N8nLib['startN8n']>> | undefined;
	let prepared: { n8nDir: string; env: Env } | undefined;
	try {
		// Installs n8n into its cache first (under a lock: jest runs e2e files in parallel).
		prepared = await n8n.prepareInstance({ userFolder, port, brokerPort, owner: OWNER, extra });
	} finally {
		if (!prepared) {
			await handle.stop();
			rmSync(userFolder, { recursive: true, force: true });
		}
	}
	const { n8nDir, env } = prepared;
	const fixtureDir = mkdtempSync(path.join(userFolder, 'fixtures-'));
	let fixtures = 0;

	const same = (id: string) => id;
	const context: E2eContext = {
		shared: false,
		handle,
		userFolder,
		port,
		n8nDir,
		env,
		workflowId: same,
		credentialId: same,
		webhookId: same,
		webhookUrl: (id) => `http://127.0.0.1:${port}/webhook/${id}/webhook`,
		writeFixture(name, value) {
			const file = path.join(fixtureDir, `${++fixtures}-${name}.json`);
			writeFileSync(file, JSON.stringify(value, null, 2));
			return file;
		},
		cli: (args) => n8n.n8nCli(n8nDir, env, args),
		async cliOk(args) {
			const result = await n8n.n8nCli(n8nDir, env, args);
			if (result.code !== 0) {
				throw new Error(
					`n8n ${args.join(' ')} exited with ${result.code}:\n${(result.stderr + result.stdout).slice(-3000)}`,
				);
			}
			return result;
		},
		async importCredentials(credentials, smtp) {
			const file = context.writeFixture('credentials', [
				...credentials.map((credential) => credentialRecord(handle, credential)),
				...(smtp ? [await smtpCredential(smtp)] : []),
			]);
			await context.cliOk(['import:credentials', `--input=${file}`]);
		},
		async importWorkflow(definition) {
			const file = context.writeFixture(String(definition.id), definition);
			await context.cliOk(['import:workflow', `--input=${file}`]);
		},
		async importWorkflows(definitions) {
			// import:workflow takes a file holding an array of workflows.
			const file = context.writeFixture('workflows', definitions);
			await context.cliOk(['import:workflow', `--input=${file}`]);
		},
		async activate(workflowId) {
			await context.cliOk(n8n.activateWorkflowArgs(workflowId));
		},
		async importSmtpCredential(server) {
			await context.importCredentialRecord(
				(await smtpCredential(server)) as unknown as CredentialRecord,
			);
		},
		async importCredentialRecord(record) {
			const file = context.writeFixture(`credential-${record.id}`, [record]);
			await context.cliOk(['import:credentials', `--input=${file}`]);
		},
		async execute(id) {
			return n8n.executeWorkflow(n8nDir, env, id);
		},
		async executeOnCli(id) {
			return n8n.executeWorkflow(n8nDir, env, id);
		},
		async start() {
			running = await n8n.startN8n(n8nDir, env);
			const cookie = await n8n.login(running.url, OWNER.email, OWNER.password);
			return { url: running.url, cookie, log: running.log };
		},
		async killN8n(signal, meanwhile) {
			const child = running?.process;
			running = undefined;
			if (!child || child.exitCode !== null || child.signalCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill(signal);
			try {
				await meanwhile?.();
			} finally {
				await exited;
			}
		},
		async holdDatabaseWrites() {
			return await n8n.holdDatabaseWrites(env, userFolder);
		},
		async stopN8n() {
			if (running && process.env.CT_E2E_KEEP)
				writeFileSync(path.join(userFolder, 'n8n.log'), running.log());
			await running?.stop();
			running = undefined;
		},
		async stop() {
			await context.stopN8n();
			await handle.stop();
			// CT_E2E_KEEP=1 keeps the user folder (database, fixtures, n8n.log) for a look afterwards.
			if (process.env.CT_E2E_KEEP) process.stdout.write(`kept ${userFolder}\n`);
			else rmSync(userFolder, { recursive: true, force: true });
		},
	};
	return context;
}

interface SharedN8n {
	url: string;
	port: number;
	userFolder: string;
	n8nDir: string;
	env: Env;
	/** The file n8n logs to. */
	log: string;
	/** The owner's session, logged in once for the whole run. */
	cookie: string;
}

let sharedLib: Promise<{ sharedN8n(folder: string, options: unknown): Promise<SharedN8n> }>;

/** A finished execution as n8n's REST API gives it; `data` is `flatted` text. */
interface StoredExecution {
	status: string;
	finished: boolean;
	stoppedAt: string | null;
	mode: string;
	data: string;
}

/** A file's context in the run's shared n8n: its imports under ids n8n gives, removed at stop. */
async function joinSharedN8n(sandbox: Partial<SandboxOptions>): Promise<E2eContext> {
	const n8n = await n8nLib();
	sharedLib ??= importNative(path.join('lib', 'sharedN8n.mjs')) as typeof sharedLib;
	const shared = await (
		await sharedLib
	).sharedN8n(process.env.CT_SHARED_N8N!, { owner: OWNER, extra: SHARED_EXTRA });
	const handle = await startTestSandbox(sandbox);
	const { cookie } = shared;
	const fixtureDir = mkdtempSync(path.join(tmpdir(), 'ct-e2e-fixtures-'));
	let fixtures = 0;
	const credentialIds = new Map<string, string>();
	const workflows = new Map<string, { id: string; versionId: string; trigger?: string }>();
	const webhookIds = new Map<string, string>();
	const active = new Set<string>();
	// n8n keeps run data as `flatted` text; read with n8n's own copy.
	const flatted = createRequire(path.join(shared.n8nDir, 'node_modules', 'n8n', 'package.json'))(
		'flatted',
	) as { parse(text: string): RunJson };

	const call = async (method: string, pathname: string, body?: unknown) => {
		const answer = await rest(shared.url, cookie, method, pathname, body);
		if (answer.status !== 200)
			throw new Error(
				`${method} /rest${pathname} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
			);
		return answer.body.data;
	};
	const createCredential = async (credential: Record<string, unknown>) => {
		const { id, ...fields } = credential;
		const created = await call('POST', '/credentials', fields);
		credentialIds.set(String(id), created.id);
	};
	const realWorkflow = (id: string) => {
		const found = workflows.get(id);
		if (!found) throw new Error(`no workflow ${id} was imported`);
		return found;
	};
	const untilEnded = async (executionId: string) =>
		(await n8n.executionEnded(shared.url, cookie, executionId)) as StoredExecution;
	// The CLI beside the running n8n: its own task broker port, the same database.
	const cliEnv = async (): Promise<Env> => ({
		...shared.env,
		N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()),
	});

	const context: E2eContext = {
		shared: true,
		handle,
		userFolder: shared.userFolder,
		port: shared.port,
		n8nDir: shared.n8nDir,
		env: shared.env,
		workflowId: (id) => realWorkflow(id).id,
		credentialId: (id) => credentialIds.get(id) ?? id,
		webhookId: (id) => webhookIds.get(id) ?? id,
		webhookUrl: (id) => `${shared.url}/webhook/${webhookIds.get(id) ?? id}/webhook`,
		writeFixture(name, value) {
			const file = path.join(fixtureDir, `${++fixtures}-${name}.json`);
			writeFileSync(file, JSON.stringify(value, null, 2));
			return file;
		},
		cli: async (args) => n8n.n8nCli(shared.n8nDir, await cliEnv(), args),
		async cliOk(args) {
			const result = await context.cli(args);
			if (result.code !== 0)
				throw new Error(
					`n8n ${args.join(' ')} exited with ${result.code}:\n${(result.stderr + result.stdout).slice(-3000)}`,
				);
			return result;
		},
		async importCredentials(credentials, smtp) {
			for (const credential of credentials)
				await createCredential(credentialRecord(handle, credential));
			if (smtp) await context.importSmtpCredential(smtp);
		},
		async importSmtpCredential(server) {
			await createCredential(await smtpCredential(server));
		},
		async importCredentialRecord(record) {
			await createCredential({ ...record });
		},
		async importWorkflows(definitions) {
			for (const definition of definitions) await context.importWorkflow(definition);
		},
		async importWorkflow(definition) {
			const nodes = (definition.nodes as Array<Record<string, unknown>>).map((node) => {
				const credentials = Object.fromEntries(
					Object.entries(
						(node.credentials ?? {}) as Record<string, { id: string; name: string }>,
					).map(([type, credential]) => [
						type,
						{ ...credential, id: context.credentialId(credential.id) },
					]),
				);
				const webhookId = node.webhookId as string | undefined;
				if (webhookId && !webhookIds.has(webhookId)) webhookIds.set(webhookId, randomUUID());
				return {
					...node,
					credentials,
					...(webhookId ? { webhookId: webhookIds.get(webhookId) } : {}),
				};
			});
			const created = await call('POST', '/workflows', {
				name: definition.name,
				nodes,
				connections: definition.connections,
				settings: definition.settings ?? {},
			});
			const trigger = (definition.nodes as Array<{ type: string; name: string }>).find(
				(node) => node.type === START.type,
			)?.name;
			workflows.set(String(definition.id), {
				id: created.id,
				versionId: created.versionId,
				trigger,
			});
		},
		async activate(workflowId) {
			const { id, versionId } = realWorkflow(workflowId);
			const { error } = await activateOverRest(shared.url, cookie, id, versionId);
			if (error !== null) throw new Error(`n8n refused to publish ${workflowId}: ${error}`);
			active.add(id);
		},
		async execute(workflowId) {
			const { id, trigger } = realWorkflow(workflowId);
			if (!trigger) throw new Error(`${workflowId} has no Manual Trigger to run from`);
			const { executionId } = await call('POST', `/workflows/${id}/run`, {
				triggerToStartFrom: { name: trigger },
			});
			const execution = await untilEnded(executionId);
			return {
				stdout: '',
				stderr: '',
				code: execution.status === 'success' ? 0 : 1,
				run: { ...execution, data: flatted.parse(execution.data) },
			};
		},
		async executeOnCli(workflowId) {
			return n8n.executeWorkflow(shared.n8nDir, await cliEnv(), realWorkflow(workflowId).id);
		},
		async start() {
			return {
				url: shared.url,
				cookie,
				log: () => readFileSync(shared.log, 'utf8'),
			};
		},
		async stopN8n() {
			// The run's n8n serves the other files.
		},
		async killN8n() {
			throw new Error('the shared n8n is not killed: start the file with ownN8n');
		},
		async holdDatabaseWrites() {
			throw new Error("the shared n8n's database is not held: start the file with ownN8n");
		},
		async stop() {
			try {
				// Unpublished while the sandbox is up: the triggers delete their webhooks there.
				for (const id of active) await deactivateOverRest(shared.url, cookie, id);
				for (const { id } of workflows.values()) {
					await rest(shared.url, cookie, 'POST', `/workflows/${id}/archive`, {});
					// n8n unpublishes in the background and refuses the delete (409) until it has:
					// waiting for it also keeps the sandbox up until the trigger removed its webhook.
					await eventually(
						async () =>
							(await rest(shared.url, cookie, 'DELETE', `/workflows/${id}`)).status === 409
								? undefined
								: true,
						{
							timeoutMs: generous(ACTIVATION_QUIET_MS),
							intervalMs: 250,
							what: `workflow ${id} unpublished`,
						},
					);
				}
				for (const id of credentialIds.values())
					await rest(shared.url, cookie, 'DELETE', `/credentials/${id}`);
			} finally {
				await handle.stop();
				rmSync(fixtureDir, { recursive: true, force: true });
			}
		},
	};
	return context;
}

export interface SandboxWebhook {
	id: string;
	attributes: { url: string; events: string[]; active: boolean; secret: string };
}

/** Waits until n8n registered a webhook with the sandbox (it activates just after it is up). */
export async function webhookRegistered(handle: SandboxHandle): Promise<void> {
	await eventually(async () => ((await sandboxWebhooks(handle)).length > 0 ? true : undefined), {
		timeoutMs: generous(ACTIVATION_QUIET_MS),
		intervalMs: 200,
		what: 'n8n to register its webhook with the sandbox',
	});
}

/** The sandbox's notification log for one webhook: what the service made for it, and its status. */
export function notificationLogOf(handle: SandboxHandle, webhookId: string) {
	return handle.sandbox.world.store
		.list('webhook_notification')
		.filter(
			(record) =>
				(record.relationships?.webhook?.data as { id: string } | undefined)?.id === webhookId,
		);
}

/** The executions n8n stored for a workflow (its id in n8n), newest first, over REST. */
export async function storedExecutions(
	n8n: { url: string; cookie: string },
	workflowId: string,
): Promise<Array<{ id: string; mode: string; status: string; stoppedAt: string | null }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = await rest(n8n.url, n8n.cookie, 'GET', `/executions?filter=${filter}`);
	if (answer.status !== 200)
		throw new Error(
			`GET /rest/executions answered ${answer.status}: ${JSON.stringify(answer.body)}`,
		);
	return answer.body.data.results;
}

/** What n8n kept of a stored execution's run: each node's runs, and how it ended. */
export interface StoredResult {
	runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: RunJson }>> } }>>;
	error?: { message?: string };
	lastNodeExecuted?: string;
}

/** A stored execution's result, read over REST; n8n keeps it as `flatted` text, read with its own copy. */
export async function storedResult(
	n8n: { url: string; cookie: string },
	n8nDir: string,
	executionId: string,
): Promise<StoredResult> {
	const stored = (await rest(n8n.url, n8n.cookie, 'GET', `/executions/${executionId}`)).body
		.data as { data: string };
	const flatted = createRequire(path.join(n8nDir, 'node_modules', 'n8n', 'package.json'))(
		'flatted',
	) as { parse(text: string): { resultData: StoredResult } };
	return flatted.parse(stored.data).resultData;
}

/** A workflow as a user imports it: an example's file of examples/, or a file given by its path. */
export function exampleWorkflow(file: string): Record<string, unknown> {
	const where = path.isAbsolute(file)
		? file
		: path.resolve(__dirname, '..', '..', 'examples', file);
	return JSON.parse(readFileSync(where, 'utf8'));
}

/**
 * A file's own n8n beside a sandbox that answers tracking requests at once: the sandbox
 * credential and the examples' SMTP one (to `mail`), the example workflows `files` (of
 * examples/) imported, `published` published and running, its trigger's webhook registered.
 */
export async function startWithExamples(
	mail: MailServer,
	files: string[],
	published: { id: string; webhookId: string },
): Promise<{ ctx: E2eContext; n8n: { url: string; cookie: string; log(): string } }> {
	const ctx = await startE2e({ sandbox: { trackingDelaySeconds: 0 }, ownN8n: true });
	await ctx.importCredentials([sandboxCredential()], mail);
	await ctx.importWorkflows(files.map(exampleWorkflow));
	await ctx.activate(published.id);
	const n8n = await ctx.start();
	await eventually(
		async () =>
			(await sandboxWebhooks(ctx.handle)).some(
				(webhook) => webhook.attributes.url === ctx.webhookUrl(published.webhookId),
			)
				? true
				: undefined,
		{
			timeoutMs: generous(ACTIVATION_QUIET_MS),
			intervalMs: 200,
			what: `${published.id} to register its webhook`,
		},
	);
	return { ctx, n8n };
}

/** The webhooks registered with the sandbox right now. */
export async function sandboxWebhooks(handle: SandboxHandle): Promise<SandboxWebhook[]> {
	return (await handle.api.get('/webhooks')).data.data as SandboxWebhook[];
}

/**
 * A notification our own subscription received, as the sandbox sent it to `webhook`: the
 * envelope names that webhook, carries the id the sandbox gave the notification for it (each
 * webhook's deliveries have an id of their own, found in the sandbox's notification log by
 * reference object and event) and is signed with its secret. The sandbox signs JSON.stringify of
 * the envelope; key order survives the round trip.
 */
export function readdressed(
	handle: SandboxHandle,
	copy: ReceivedDelivery,
	webhook: SandboxWebhook,
) {
	const envelope = JSON.parse(copy.rawBody.toString('utf8'));
	const referenceId = envelope.data.relationships.reference_object.data.id as string;
	const twin = handle.sandbox.world.store
		.list('webhook_notification')
		.find(
			(record) =>
				(record.relationships?.webhook?.data as { id: string } | undefined)?.id === webhook.id &&
				(record.relationships?.reference_object?.data as { id: string } | undefined)?.id ===
					referenceId &&
				record.attributes.event === envelope.data.attributes.event,
		);
	if (!twin)
		throw new Error(`the sandbox logged no notification of ${referenceId} for ${webhook.id}`);
	envelope.data.id = twin.id;
	if (envelope.data.attributes?.id !== undefined) envelope.data.attributes.id = twin.id;
	envelope.data.relationships.webhook.data.id = webhook.id;
	const body = JSON.stringify(envelope);
	return {
		body,
		signature: signBody(body, webhook.attributes.secret),
		notificationId: envelope.data.id as string,
	};
}

export function sandboxCredential(apiKey = API_KEY) {
	return { ...CREDENTIAL, apiKey };
}

// ---------------------------------------------------------------------------------------------
// A collector the workflows POST their items to

export interface Collector {
	url: string;
	// Items arrive as JSON and are read field by field.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	items: any[];
	/**
	 * While true, an item is kept (in `items`) and not answered: the execution that sent it
	 * waits there, mid-run, until `open()` or until its n8n dies.
	 */
	held: boolean;
	/** Answers the items held, and every later one at once. */
	open(): void;
	close(): Promise<void>;
}

export async function startCollector(): Promise<Collector> {
	const waiting: http.ServerResponse[] = [];
	const answer = (response: http.ServerResponse) => {
		if (response.destroyed) return;
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end('{"ok":true}');
	};
	const collector: Collector = {
		url: '',
		items: [],
		held: false,
		open() {
			collector.held = false;
			for (const response of waiting.splice(0)) answer(response);
		},
		close: async () => undefined,
	};
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			try {
				collector.items.push(JSON.parse(text));
			} catch {
				collector.items.push({ unparsable: text });
			}
			if (collector.held) waiting.push(response);
			else answer(response);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	collector.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/collect`;
	collector.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return collector;
}

/** An HTTP Request node POSTing each item, as JSON, to the collector. */
/**
 * Between the service and n8n (the URL n8n registers, N8N_WEBHOOK_URL): passes every delivery on
 * and, while `dropAnswers`, throws n8n's answer away and resets the service's connection, as a
 * proxy or load balancer that gave up on a slow answer does.
 */
export interface AnswerDropper {
	url: string;
	/** Where n8n listens. */
	target: string;
	dropAnswers: boolean;
	close(): Promise<void>;
}

export async function startAnswerDropper(): Promise<AnswerDropper> {
	const dropper: AnswerDropper = {
		url: '',
		target: '',
		dropAnswers: false,
		close: async () => undefined,
	};
	const server = http.createServer((request, response) => {
		const upstream = http.request(
			`${dropper.target}${request.url ?? '/'}`,
			{ method: request.method, headers: request.headers },
			(answer) => {
				if (dropper.dropAnswers) {
					answer.resume();
					answer.on('end', () => request.socket.destroy());
					return;
				}
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		upstream.on('error', () => request.socket.destroy());
		request.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	dropper.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	dropper.close = async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	};
	return dropper;
}

export function postToCollector(name: string, collector: Collector, after: string[]): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: collector.url,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify($json) }}',
			options: {},
		},
		after,
	};
}

// ---------------------------------------------------------------------------------------------
// n8n's REST API (owner cookie)

export async function rest(
	baseUrl: string,
	cookie: string,
	method: string,
	pathname: string,
	body?: unknown,
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
	const response = await (await n8nLib()).restFetch(baseUrl, cookie, method, pathname, body);
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = text;
	}
	return { status: response.status, body: parsed };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Activates a saved workflow through n8n's REST API, as the editor's switch does, and tells what
 * the editor is then told: `error` is the triggers' refusal, null when the workflow is active.
 * n8n 2.x publishes through its publication outbox (the request is accepted, the triggers are
 * activated just after, their outcome is read at `publication-status`); 1.x saves
 * `active: true` and answers the refusal at once, with 400.
 */
export async function activateOverRest(
	baseUrl: string,
	cookie: string,
	workflowId: string,
	versionId: string,
): Promise<{ error: string | null }> {
	if ((await n8nLib()).N8N_MAJOR < 2) {
		const answer = await rest(baseUrl, cookie, 'PATCH', `/workflows/${workflowId}`, {
			active: true,
			versionId,
		});
		if (answer.status === 200) return { error: null };
		if (answer.status === 400) return { error: String(answer.body.message) };
		throw new Error(`PATCH /rest/workflows/${workflowId} answered ${answer.status}`);
	}
	const activated = await rest(baseUrl, cookie, 'POST', `/workflows/${workflowId}/activate`, {
		versionId,
	});
	if (activated.status !== 200)
		throw new Error(`POST /rest/workflows/${workflowId}/activate answered ${activated.status}`);
	const publication = await eventually(
		async () => {
			const answer = await rest(
				baseUrl,
				cookie,
				'GET',
				`/workflows/${workflowId}/publication-status`,
			);
			const status = (answer.body.data ?? answer.body) as {
				status: string;
				liveVersionId: string | null;
				triggers: Array<{ status: string; errorMessage: string | null }>;
			};
			return status.status === 'in_progress' || status.triggers.length === 0 ? undefined : status;
		},
		{
			// A trigger that refuses is activated again 1, 2, 4 and 8 s later before n8n gives up
			// (2.41: TRIGGER_ACTIVATION_MAX_ATTEMPTS, WORKFLOW_REACTIVATE_INITIAL_TIMEOUT).
			timeoutMs: byClock(15_000) + generous(ACTIVATION_QUIET_MS),
			intervalMs: 250,
			what: "the trigger's publication outcome",
		},
	);
	if (publication.status !== 'failed') return { error: null };
	// A refused publication leaves no live version behind.
	expect(publication.liveVersionId).toBeNull();
	expect(publication.triggers).toHaveLength(1);
	expect(publication.triggers[0].status).toBe('failed');
	return { error: publication.triggers[0].errorMessage };
}

/** Deactivates (2.x: unpublishes) a workflow through n8n's REST API; the HTTP status. */
export async function deactivateOverRest(
	baseUrl: string,
	cookie: string,
	workflowId: string,
): Promise<number> {
	const answer =
		(await n8nLib()).N8N_MAJOR < 2
			? await rest(baseUrl, cookie, 'PATCH', `/workflows/${workflowId}`, { active: false })
			: await rest(baseUrl, cookie, 'POST', `/workflows/${workflowId}/deactivate`, {});
	return answer.status;
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error */
/**
 * `npm run bench:burst`: a busy account's burst (issue 29) in a real n8n with the packed package
 * and two examples published as shipped, read from examples/ when it runs: Container holds →
 * email (its SMTP credential pointing at a local inbox, scripts/lib/mail.mjs) and the Pickup board
 * (its Data Table created by running examples/pickup-board-table.json over REST). The sandbox runs
 * in a process of its own (sandbox/cli.ts) and n8n calls it with its own API key; the bench reads
 * with another key, so that its reads spend none of n8n's rate limit.
 *
 * - burst: N containers tracked at once, and the board's hourly branch run once (a board in use
 *   has a row for every box tracked before its last hourly run); then, within about 15 s, every one becomes ready for
 *   pickup (scenario `ready_for_pickup`) and 20 % get a customs hold (`customs_hold`). Measured
 *   until every hold alert expected has been emailed, the board equals the service for every
 *   container and the service has nothing left to deliver, or until the time limit.
 * - catch_up: n8n stopped; customs holds on enough containers that the service fails to deliver
 *   1,000 notifications to the two workflows (retries compressed); then n8n started, and measured
 *   until every missed alert was emailed and the board is right.
 * - kill, term (issue 36): the burst, and BURST_KILL_AFTER_S (55) after it began n8n is
 *   killed: `kill` SIGKILLs n8n and its task runners, `term` sends n8n SIGTERM and waits while its
 *   graceful shutdown (n8n's default timeout) lets it; BURST_RESTART_AFTER_S (5) after it exited
 *   it starts again on the same folder and ports. Measured as the burst, and at least 2 minutes
 *   after n8n serves again (the run journal's re-runs): the executions cut and run again, the
 *   alerts emailed twice or with the rerun note, the board from n8n serving again. In queue mode
 *   the signal goes to one worker, worker-1 (SIGTERM: it waits for its jobs up to its
 *   graceful-shutdown timeout), or with BURST_KILL_PROCESS=webhook to the webhook process,
 *   while the others go on; it serves
 *   again once it says it is ready (a worker has no /healthz), its cut executions are those its log
 *   says it started and never finished, and the run is watched until the main's cut check has had
 *   its time to run them again (CUT_RERUN_WINDOW_MS after the worker exited).
 *
 * Every burst ends with a wait until everything is quiet (nothing to deliver, no execution
 * running, no email for 30 s) and one more look at the board and the emails.
 *
 * A plain HTTP receiver subscribed to the same events answers every delivery at once: the
 * machine's floor beside n8n's answers. Figures go to bench/results/burst.json and burst.md, with
 * issue 29's targets beside them; a run of some parts keeps the other parts' last figures.
 *
 * The control (issue 50), in the same n8n and the same run: the same hold alerts and board built
 * as a user would without this package (bench/control/): n8n's Webhook node (POST, answers at
 * once, Raw Body), a Code node that checks the signature with the secret the service's
 * POST /webhooks answered (written into the workflow before its import) and splits the
 * changeset, then the example's email steps (subjects starting `[control] `) or its Data Table
 * steps on a table of its own, Control board (a name without "Pickup board" in it: n8n finds a
 * Data Table by name with LIKE). Its webhooks are subscribed to
 * `container.updated` on the same account. Per subscription (the package's two, the control's
 * two, the plain receiver): notifications, attempts, the share answered 2xx at the first attempt
 * and answer times; the control's emails and board are counted as the package's. A burst without
 * a fault also waits for the control's emails; a kill or the catch-up does not (a notification the
 * Webhook node answered before n8n died is not sent again).
 *
 * BURST_N=150,500  BURST_MODES=single,queue  BURST_SCENARIOS=burst,catch_up (or kill, term)
 * BURST_KILL_AFTER_S=55  BURST_RESTART_AFTER_S=5  BURST_KILL_PROCESS=worker-1 (queue mode; or webhook)
 * BURST_LIMIT_MINUTES (every run's limit; default 15 for N ≤ 150 and the catch-up, 30 above)
 * BURST_CATCH_UP=1000 (notifications missed)
 * BURST_N8N_LOG=<file> (every line every n8n process printed, appended, for a look afterwards)
 * BURST_KEEP=1 (one n8n: its user folder, with the database, is kept and named at the end)
 * BURST_CONTROL=0 (no control: its run is a column of its own, "without control")
 * BURST_LABEL=<words> (a column of its own, named so: one of several runs in a row)
 * BURST_CPU_PROF=<dir> (every n8n process, in queue mode the main, the webhook process and the
 *   workers, starts with `--cpu-prof --cpu-prof-dir=<dir>/<run>`; their task runners, which n8n
 *   gives no NODE_OPTIONS, are not profiled; the run's details get the top self-time functions,
 *   bench/cpuProfile.ts; its column is named "cpu-profiled")
 */
import { execFileSync, spawn } from 'node:child_process';
import {
	appendFileSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { DateTime } from 'luxon';

import { containerItem } from '../nodes/ContainerTracking/actions/container/summary';
import { simplifyContainer } from '../nodes/ContainerTracking/actions/simplify';
import { indexIncluded } from '../nodes/ContainerTracking/records/jsonApi';
import type { Delivery, JsonApiResource } from '../nodes/ContainerTracking/schemas';
import { includedFor } from '../nodes/ContainerTracking/trigger/recovery/notificationLog';
import {
	CUT_CHECK_EVERY_MS,
	HAND_OVER_AFTER_MS,
} from '../nodes/ContainerTracking/trigger/recovery/cutCheck';
import { deliveryItems } from '../nodes/ContainerTracking/trigger/items/deliveryItems';
import { notificationIdOf } from '../nodes/ContainerTracking/trigger/memory/recordedNotifications';
import { LEASE_MS } from '../nodes/ContainerTracking/trigger/memory/durableStore';
import { OWNER } from '../test/e2e/helpers';
import {
	BOARD_INCLUDES,
	boardRowParts,
	expectedBoardRow,
	NO_TARIFF_CHARGES,
	type BoardRow,
} from '../test/support/pickupBoardRows';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhookReceiver';
import { writeBurstReport, type BurstResults, type RunFigures } from './burstReport';
import { n8nProcessNames, summarizeProfiles } from './cpuProfile';
import {
	checkedCli,
	DEFAULT_KILLED_PROCESS,
	n8nScripts,
	queueMode,
	singleN8n,
	type Deployment,
	type KillReport,
} from './deployments';
import { AnswerProbe, percentile, ProcessSampler, type Usage } from './processTree';

const SIZES = (process.env.BURST_N ?? '150,500').split(',').map(Number);
const MODES = (process.env.BURST_MODES ?? 'single,queue').split(',');
const SCENARIOS = (process.env.BURST_SCENARIOS ?? 'burst,catch_up').split(',');
const LIMIT_MINUTES = process.env.BURST_LIMIT_MINUTES
	? Number(process.env.BURST_LIMIT_MINUTES)
	: undefined;
const CATCH_UP_NOTIFICATIONS = Number(process.env.BURST_CATCH_UP ?? 1000);
/** Issue 36's trial killed n8n 55 s after the burst began. */
const DEFAULT_KILL_AFTER_S = 55;
const KILL_AFTER_S = Number(process.env.BURST_KILL_AFTER_S ?? DEFAULT_KILL_AFTER_S);
const RESTART_AFTER_S = Number(process.env.BURST_RESTART_AFTER_S ?? 5);
/** The scenarios that kill n8n mid-burst, and how. */
const FAULTS: Record<string, 'SIGKILL' | 'SIGTERM'> = { kill: 'SIGKILL', term: 'SIGTERM' };
/** The scenarios run as the burst (a column per N). */
const BURSTS = ['burst', ...Object.keys(FAULTS)];
/**
 * More settings for every n8n process, as JSON (BURST_N8N_ENV, e.g.
 * `{"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE":"true"}`): a run with settings is kept apart from one
 * with n8n's defaults, its column named by them.
 */
const N8N_LOG_FILE = process.env.BURST_N8N_LOG;
const N8N_ENV = JSON.parse(process.env.BURST_N8N_ENV ?? '{}') as Record<string, string>;
const SETTINGS = Object.entries(N8N_ENV)
	.map(([name, value]) => `${name}=${value}`)
	.join(', ');
/**
 * A run without the control, or with n8n profiled (which slows it), is a column of its own
 * (BURST_CONTROL=0, BURST_CPU_PROF); so is a run labelled BURST_LABEL (one of several in a row, on
 * a slowed machine: `run 2 of 5, one core busy`).
 */
const VARIANT = [
	...(process.env.BURST_CONTROL === '0' ? ['without control'] : []),
	...(process.env.BURST_CPU_PROF ? ['cpu-profiled'] : []),
	...(process.env.BURST_PROBES === '0' ? ['without probes'] : []),
	...(process.env.BURST_LABEL ? [process.env.BURST_LABEL] : []),
].join(', ');
/**
 * The machine is shared: a run ends when n8n's memory reaches this (BURST_MEMORY_CAP_GB) or the
 * machine has less than 3 GB left, and n8n is stopped at once below 1.5 GB, before the kernel
 * picks what to kill.
 */
/** The answer probes (`answerProbe`), unless BURST_PROBES=0: to see whether they change a run. */
const WITH_PROBES = process.env.BURST_PROBES !== '0';
/** The control beside the package (issue 50), unless BURST_CONTROL=0. */
const WITH_CONTROL = process.env.BURST_CONTROL !== '0';
/** A folder for n8n's CPU profiles (BURST_CPU_PROF), one folder a run under it. */
const CPU_PROFILE_DIR = process.env.BURST_CPU_PROF
	? path.resolve(process.env.BURST_CPU_PROF)
	: undefined;
const MEMORY_CAP_BYTES = Number(process.env.BURST_MEMORY_CAP_GB ?? 12) * 2 ** 30;
const LOW_MEMORY_BYTES = 3 * 2 ** 30;
const OUT_OF_MEMORY_BYTES = 1.5 * 2 ** 30;

/** Issue 29, "Acceptance". */
export const TARGETS = {
	attemptsPerNotification: 1.2,
	/** The last hold email and the board, after the burst's last change. */
	minutesFor: (n: number) => (n <= 150 ? 3 : 10),
	failedExecutions: 0,
	peakMemoryBytes: 1.5 * 2 ** 30,
	catchUpMinutes: 12,
	/** Issue 36: the board equal to the service after n8n serves again. */
	afterKillMinutes: 3,
};
const limitMinutes = (n: number) => LIMIT_MINUTES ?? (n <= 150 ? 15 : 30);
const CATCH_UP_LIMIT_MINUTES = LIMIT_MINUTES ?? 15;

/** The burst: starts spread over 8 s, steps half a second apart: every change within about 15 s. */
const BURST = { spreadSeconds: 8, readyGapSeconds: 0.5, holdGapSeconds: 1, holdShare: 0.2 };
const SCAC = 'MSCU';
const N8N_KEY = 'n8n-key';
const BENCH_KEY = 'bench-key';
const SIGNATURE_HEADER = 'X-SVC-Webhook-Signature';
const CREDENTIAL = { id: 'ctSandboxCredential', name: 'Container Tracking sandbox' };
const TRIGGER_TYPE = 'n8n-nodes-container-tracking.containerTrackingTrigger';
/** How often the board is compared with the service: at most 60 of the bench's calls a minute. */
const BOARD_CHECK_MS = 5_000;
const POLL_MS = 2_000;
const TIMELINE_MS = 30_000;
/**
 * Issue 36: every cut notification has run within 2 minutes of n8n serving again; a killed run is
 * watched that long at least, so that its re-runs (and their duplicates) are counted.
 */
const RERUN_WINDOW_MS = 120_000;
/**
 * Queue mode: a killed worker's cut notifications are run again by the main's cut check
 * (trigger/recovery/cutCheck.ts), not by a restart, on the check's own clock. Each was logged
 * before the worker exited, and the main's watch, reading the log every CUT_CHECK_EVERY_MS, saw it
 * first at most a read after the exit; its run's lease lapsed at most two LEASE_MS periods after
 * the exit (trigger/memory/runJournal.ts). It is handed over HAND_OVER_AFTER_MS after that first
 * sight (at most a read late) and run again by the first hand-over after its lease lapsed: the
 * first (90 s) when it was seen no earlier than 90 s before the lapse, else the second (4 min; its
 * execution had waited in the queue or run long). The later of the two bounds, and a read more for
 * the log's slow reads under a burst: after that, waiting until quiet sees the hand-over's
 * execution end.
 */
const CUT_RERUN_WINDOW_MS =
	Math.max(
		CUT_CHECK_EVERY_MS + HAND_OVER_AFTER_MS[0] + CUT_CHECK_EVERY_MS,
		2 * LEASE_MS - HAND_OVER_AFTER_MS[0] + HAND_OVER_AFTER_MS[1] + CUT_CHECK_EVERY_MS,
	) + CUT_CHECK_EVERY_MS;
/** Everything quiet: nothing to deliver, no execution running, no email for this long. */
const QUIET_MS = 30_000;
const QUIET_LIMIT_MS = 4 * 60_000;
const REPO = path.resolve(__dirname, '..');
const EXAMPLES = path.join(REPO, 'examples');
const CONTROL_DIR = path.join(__dirname, 'control');
/** How the control's emails start (its Alert text nodes), so that they are told apart. */
const CONTROL_SUBJECT = '[control] ';
/** Where the control's Code nodes take the webhook's secret, written in before the import. */
const SECRET_PLACEHOLDER = '__WEBHOOK_SECRET__';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (text: string) => process.stdout.write(`[burst] ${text}\n`);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

// Workflow files and deliveries are JSON read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

// ------------------------------------------------------------------------------ the examples

interface Example {
	workflow: Json;
	id: string;
	name: string;
	trigger: { name: string; webhookId: string; events: string[]; options: Json };
	/** Whether its Container → Get node (the last one, when it has several) simplifies. */
	containerGetSimplifies: boolean;
	/** The "Note" line its alerts carry when the trigger's items are a run again (`rerun`). */
	rerunNote: string | null;
}

function loadExample(file: string): Example {
	const workflow = JSON.parse(readFileSync(file, 'utf8'));
	const trigger = (workflow.nodes as Json[]).find((node) => node.type === TRIGGER_TYPE);
	if (!trigger) throw new Error(`${file} has no Container Tracking Trigger`);
	const containerGet = (workflow.nodes as Json[])
		.filter(
			(node) => node.parameters?.resource === 'container' && node.parameters?.operation === 'get',
		)
		.pop();
	// examples/hold-alerts.json's Alert text: `['Note', '…']` among the lines when `held.rerun`.
	const note = (workflow.nodes as Json[])
		.map((node) => /\['Note',\s*'([^']+)'\]/.exec(String(node.parameters?.jsCode ?? ''))?.[1])
		.find(Boolean);
	return {
		rerunNote: note ? `Note: ${note}` : null,
		// Simplify is on unless the node turns it off (actions/simplify.ts).
		containerGetSimplifies: ![false, 'false'].includes(containerGet?.parameters?.simplify),
		workflow,
		id: workflow.id,
		name: workflow.name,
		trigger: {
			name: trigger.name,
			webhookId: trigger.webhookId,
			events: trigger.parameters.events ?? [],
			options: trigger.parameters.options ?? {},
		},
	};
}

/**
 * The hold changes the alert workflow emails: the values its Switch compares `$json.change` with
 * (examples/hold-alerts.json: placed and activated, cleared). Read from the file, so that the bench
 * expects what the example as it is now sends.
 */
function emailedChanges(example: Example): Set<string> {
	const found = new Set<string>();
	const visit = (value: Json) => {
		if (Array.isArray(value)) value.forEach(visit);
		else if (value && typeof value === 'object') {
			if (
				typeof value.leftValue === 'string' &&
				value.leftValue.includes('$json.change') &&
				typeof value.rightValue === 'string'
			)
				found.add(value.rightValue);
			Object.values(value).forEach(visit);
		}
	};
	for (const node of example.workflow.nodes as Json[])
		if (node.type === 'n8n-nodes-base.switch') visit(node.parameters);
	if (found.size === 0)
		throw new Error(
			`${example.name}: no Switch compares $json.change; bench/burst.ts cannot tell which hold changes are emailed`,
		);
	return found;
}

/** The items the example's trigger makes of a delivery (trigger/items/deliveryItems.ts), as it is set. */
function triggerItems(example: Example, body: Json): Json[] {
	if (!example.trigger.events.includes(body?.data?.attributes?.event)) return [];
	const options = example.trigger.options;
	return deliveryItems(body as Delivery, {
		expandHoldsAndFees: options.expandHoldsAndFees !== false,
		fields: options.fields ?? [],
		raw: options.raw === true,
	});
}

// ------------------------------------------------------------------------------ the control

/** A control workflow of bench/control/, as a user would import it. */
interface ControlWorkflow {
	workflow: Json;
	id: string;
	/** Its Webhook node's path: n8n serves it at `<webhook base>/webhook/<path>`. */
	path: string;
	/** What its webhook is subscribed to: a Code node splits `container.updated`. */
	events: string[];
}

interface ControlFiles {
	holdAlerts: ControlWorkflow;
	board: ControlWorkflow;
	/** Creates the control's Data Table, Control board, run once by hand. */
	tableSetup: { id: string; trigger: string; tableName: string; workflow: Json };
	/** The hold alert example's email steps the control's copy differs from (beyond its subject). */
	emailStepsDiffer: string[];
}

const controlFile = (name: string) =>
	JSON.parse(readFileSync(path.join(CONTROL_DIR, name), 'utf8')) as Json;

/** The Code node a control workflow checks signatures in: the one that takes the secret. */
const secretNode = (workflow: Json): Json =>
	(workflow.nodes as Json[]).find((node) =>
		String(node.parameters?.jsCode ?? '').includes(SECRET_PLACEHOLDER),
	);

function loadControlWorkflow(name: string): ControlWorkflow {
	const workflow = controlFile(name);
	const webhook = (workflow.nodes as Json[]).find((node) => node.type === 'n8n-nodes-base.webhook');
	const code = secretNode(workflow);
	if (!webhook || !code)
		throw new Error(
			`bench/control/${name}: no Webhook node, or no Code node with ${SECRET_PLACEHOLDER}`,
		);
	if (!String(code.parameters.jsCode).includes(`'${SIGNATURE_HEADER.toLowerCase()}'`))
		throw new Error(`bench/control/${name}: its Code node does not read ${SIGNATURE_HEADER}`);
	return {
		workflow,
		id: workflow.id,
		path: webhook.parameters.path,
		events: ['container.updated'],
	};
}

/**
 * The hold alert example's nodes after its trigger that the control's copy does not repeat:
 * compared with the control's two changes undone (the nodes name its Code node where the example
 * names its trigger, and the subject starts with CONTROL_SUBJECT). The bench says so, and goes on.
 */
function emailStepsDiffer(example: Example, control: ControlWorkflow): string[] {
	const split = secretNode(control.workflow).name as string;
	const copies = new Map((control.workflow.nodes as Json[]).map((node) => [node.name, node]));
	const shape = (node: Json) =>
		JSON.stringify([node.type, node.typeVersion, node.parameters, node.credentials ?? null]);
	return (example.workflow.nodes as Json[])
		.filter((node) => node.type !== TRIGGER_TYPE && node.type !== 'n8n-nodes-base.stickyNote')
		.filter((node) => {
			const copy = copies.get(node.name);
			return (
				!copy ||
				shape(copy)
					.split(`$('${split}')`)
					.join(`$('${example.trigger.name}')`)
					.split(`const subject = \`${CONTROL_SUBJECT}`)
					.join('const subject = `') !== shape(node)
			);
		})
		.map((node) => String(node.name));
}

function loadControl(holdAlerts: Example): ControlFiles {
	const setup = controlFile('pickup-board-control-table.json');
	const table = (setup.nodes as Json[]).find((node) => node.type === 'n8n-nodes-base.dataTable');
	const trigger = (setup.nodes as Json[]).find(
		(node) => node.type === 'n8n-nodes-base.manualTrigger',
	);
	const control = {
		holdAlerts: loadControlWorkflow('hold-alerts-control.json'),
		board: loadControlWorkflow('pickup-board-control.json'),
		tableSetup: {
			id: setup.id,
			trigger: trigger.name,
			tableName: table.parameters.tableName,
			workflow: setup,
		},
	};
	const differ = emailStepsDiffer(holdAlerts, control.holdAlerts);
	if (differ.length > 0)
		say(
			`bench/control/hold-alerts-control.json differs from examples/hold-alerts.json in ${differ.join(', ')}: copy them over`,
		);
	return { ...control, emailStepsDiffer: differ };
}

// ------------------------------------------------------------------------------ the sandbox

interface SandboxProcess {
	url: string;
	controlUrl: string;
	log(): string;
	stop(): Promise<void>;
}

/** sandbox/cli.ts in a process of its own, n8n's key and the bench's. */
async function startSandboxProcess(): Promise<SandboxProcess> {
	const child = spawn(
		process.execPath,
		[
			'--import',
			'tsx',
			'sandbox/cli.ts',
			...['--port', '0', '--api-key', N8N_KEY, '--extra-api-key', BENCH_KEY],
			...['--tracking-delay', '1'],
		],
		{ cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let log = '';
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const url = await new Promise<string>((resolve, reject) => {
		const read = (chunk: Buffer) => {
			log = (log + chunk.toString()).slice(-100_000);
			const ready = /Sandbox ready at (\S+)/.exec(log);
			if (ready) resolve(ready[1]);
		};
		child.stdout.on('data', read);
		child.stderr.on('data', read);
		void exited.then(() => reject(new Error(`the sandbox exited:\n${log}`)));
	});
	return {
		url,
		controlUrl: url.replace(/\/v2$/, '/_sandbox'),
		log: () => log,
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			await exited;
		},
	};
}

/** A read the bench makes again when its connection failed: on a slowed machine one may. */
const READ_ATTEMPTS = 3;

async function call(url: string, method: string, body?: unknown, attempt = 1): Promise<Json> {
	let response: Response;
	try {
		response = await fetch(url, {
			method,
			headers: { Authorization: `Token ${BENCH_KEY}`, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	} catch (error) {
		if (method !== 'GET' || attempt >= READ_ATTEMPTS) throw error;
		await sleep(1_000 * attempt);
		return await call(url, method, body, attempt + 1);
	}
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 2000)}`);
	return text ? JSON.parse(text) : undefined;
}

/** Every record of a list of the service, page by page (with the bench's key). */
async function readList(
	sandbox: SandboxProcess,
	pathname: string,
): Promise<{ data: JsonApiResource[]; included: JsonApiResource[] }> {
	const data: JsonApiResource[] = [];
	const included: JsonApiResource[] = [];
	const separator = pathname.includes('?') ? '&' : '?';
	for (let page = 1; ; page++) {
		const document = await call(
			`${sandbox.url}${pathname}${separator}page[number]=${page}&page[size]=100`,
			'GET',
		);
		data.push(...document.data);
		included.push(...(document.included ?? []));
		if (!document.links?.next) return { data, included };
	}
}

// ------------------------------------------------------------------------------ n8n's log

/** Lines of n8n's log that say something went wrong, counted by what they say. */
class LogCounter {
	readonly counts = new Map<string, number>();
	lines = 0;
	private partial = new Map<string, string>();

	/** `onLine` sees every whole line, with the process that printed it. */
	constructor(private readonly onLine?: (process: string, line: string) => void) {}

	read = (process: string, text: string) => {
		if (N8N_LOG_FILE) appendFileSync(N8N_LOG_FILE, text.replace(/^(?=.)/gm, `${process}: `));
		const lines = ((this.partial.get(process) ?? '') + text).split('\n');
		this.partial.set(process, lines.pop() ?? '');
		for (const line of lines) {
			this.lines += 1;
			this.onLine?.(process, line);
			// Stack frames are counted with the line they belong to, not on their own.
			if (/^\s*at /.test(line)) continue;
			if (!/error|warn|fail|timed out|not ready|abort|exceeded|heap/i.test(line)) continue;
			const normalized = line
				// eslint-disable-next-line no-control-regex
				.replace(/\u001b\[[0-9;]*m/g, '')
				.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
				.replace(/\d+(\.\d+)?/g, '#')
				.replace(/\s+/g, ' ')
				.trim()
				.slice(0, 160);
			this.counts.set(normalized, (this.counts.get(normalized) ?? 0) + 1);
		}
	};

	top(count = 12): Array<{ line: string; count: number }> {
		return [...this.counts]
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(([line, times]) => ({ line, count: times }));
	}
}

/**
 * What each queue-mode worker said of the executions it ran (n8n's job processor: "Worker started
 * execution 12 (job 7)", "Worker finished execution 12…", "Worker errored while running execution
 * 12…", the last when it could not finish it, e.g. cancelled at its shutdown), with when the bench
 * read the line: which executions a killed worker had under way, and which it left unfinished.
 */
class WorkerRuns {
	private readonly said: Array<{
		process: string;
		execution: string;
		event: 'started' | 'finished' | 'errored';
		at: number;
	}> = [];

	line = (process: string, line: string) => {
		const found = /Worker (started|finished|errored while running) execution (\d+)/.exec(line);
		if (!found) return;
		const event = found[1] === 'errored while running' ? 'errored' : found[1];
		this.said.push({
			process,
			execution: found[2],
			event: event as 'started' | 'finished' | 'errored',
			at: Date.now(),
		});
	};

	/** The executions of which `process` said `event` before `before`. */
	private ids(process: string, event: string, before: number): Set<string> {
		return new Set(
			this.said
				.filter((said) => said.process === process && said.event === event && said.at < before)
				.map((said) => said.execution),
		);
	}

	/** The executions `process` had started and not ended at `at`. */
	underWay(process: string, at: number): string[] {
		const finished = this.ids(process, 'finished', at);
		const errored = this.ids(process, 'errored', at);
		return [...this.ids(process, 'started', at)].filter(
			(id) => !finished.has(id) && !errored.has(id),
		);
	}

	/**
	 * The executions `process` started before `before` (when it was started again) and never
	 * finished: under way when it was signalled at `signalledAt`, and not finished while it shut
	 * down (those it gave up then, cancelled, among them).
	 */
	leftUnfinished(process: string, signalledAt: number, before: number): string[] {
		const finished = this.ids(process, 'finished', before);
		const erroredEarlier = this.ids(process, 'errored', signalledAt);
		return [...this.ids(process, 'started', before)].filter(
			(id) => !finished.has(id) && !erroredEarlier.has(id),
		);
	}
}

// ------------------------------------------------------------------------------ the rig

interface Rig {
	mode: string;
	deployment: Deployment;
	sandbox: SandboxProcess;
	mail: { messages: Json[]; smtpHost: string; smtpPort: number; stop(): Promise<void> };
	receiver: WebhookReceiver;
	cookie: string;
	table: { projectId: string; id: string };
	holdAlerts: Example;
	board: Example;
	/** The same work without the package (issue 50), with its Data Table; null with BURST_CONTROL=0. */
	control: (ControlFiles & { table: { projectId: string; id: string } }) | null;
	webhookIds: {
		holdAlerts: string;
		board: string;
		receiver: string;
		controlHoldAlerts?: string;
		controlBoard?: string;
	};
	log: LogCounter;
	/** The run's CPU profiles (BURST_CPU_PROF), and n8n's processes by id as seen while it ran. */
	profileDir: string | undefined;
	processNames: Map<number, string>;
	/** What each queue-mode worker said of its executions. */
	workerRuns: WorkerRuns;
	/** When each email arrived (Date.now()), in the order of `mail.messages`. */
	mailArrivals: number[];
	stopMailClock(): void;
}

/**
 * Every n8n process's settings: BURST_N8N_ENV's, with what the control's Code nodes need
 * (`require('crypto')`) and the CPU profile's flags (BURST_CPU_PROF) added to whatever it sets.
 */
function n8nEnv(profileDir: string | undefined): Record<string, string> {
	const env = { ...N8N_ENV };
	const add = (name: string, value: string, separator: string) => {
		env[name] = env[name] ? `${env[name]}${separator}${value}` : value;
	};
	if (WITH_CONTROL) add('NODE_FUNCTION_ALLOW_BUILTIN', 'crypto', ',');
	if (profileDir) add('NODE_OPTIONS', `--cpu-prof --cpu-prof-dir=${profileDir}`, ' ');
	return env;
}

async function setUp(mode: string, profileDir?: string): Promise<Rig> {
	const scripts = await n8nScripts();
	// @ts-expect-error: an .mjs helper shared with the scripts
	const n8nLib = (await import('../scripts/lib/n8n.mjs')) as {
		dataTableByName(
			baseUrl: string,
			cookie: string,
			name: string,
		): Promise<{ projectId: string; table?: { id: string } }>;
	};
	// @ts-expect-error: an .mjs helper shared with the scripts
	const mailLib = (await import('../scripts/lib/mail.mjs')) as {
		startMailServer(): Promise<Rig['mail']>;
		smtpCredential(server: Rig['mail']): unknown;
	};
	// @ts-expect-error: an .mjs helper shared with the scripts
	const tableLib = (await import('../scripts/lib/pickupBoardTable.mjs')) as {
		PICKUP_BOARD_SETUP: { file: string };
		createPickupBoardTable(
			baseUrl: string,
			cookie: string,
		): Promise<{ projectId: string; table: { id: string } }>;
	};
	const holdAlerts = loadExample(path.join(EXAMPLES, 'hold-alerts.json'));
	const board = loadExample(path.join(EXAMPLES, 'pickup-board.json'));
	const controlFiles = WITH_CONTROL ? loadControl(holdAlerts) : null;
	const workerRuns = new WorkerRuns();
	const log = new LogCounter(workerRuns.line);
	const sandbox = await startSandboxProcess();
	const started: Array<{ stop(): Promise<void> }> = [sandbox];
	try {
		const mail = await mailLib.startMailServer();
		started.push(mail);
		const receiver = await startWebhookReceiver(SIGNATURE_HEADER);
		started.push({ stop: () => receiver.close() });
		if (profileDir) mkdirSync(profileDir, { recursive: true });
		const env = n8nEnv(profileDir);
		const deployment =
			mode === 'queue'
				? await queueMode({ onLog: log.read, env })
				: await singleN8n({ onLog: log.read, env });
		started.push(deployment);

		const fixtures = mkdtempSync(path.join(os.tmpdir(), 'ct-burst-'));
		const write = (name: string, value: unknown) => {
			const file = path.join(fixtures, name);
			writeFileSync(file, JSON.stringify(value));
			return file;
		};
		const credentials = [
			{
				...CREDENTIAL,
				type: 'containerTrackingApi',
				data: { apiKey: N8N_KEY, baseUrl: sandbox.url, signatureHeader: SIGNATURE_HEADER },
			},
			mailLib.smtpCredential(mail),
		];
		await checkedCli(deployment, [
			'import:credentials',
			`--input=${write('credentials.json', credentials)}`,
		]);
		for (const example of [holdAlerts, board])
			await checkedCli(deployment, [
				'import:workflow',
				`--input=${write(`${example.id}.json`, example.workflow)}`,
			]);
		await checkedCli(deployment, [
			'import:workflow',
			`--input=${tableLib.PICKUP_BOARD_SETUP.file}`,
		]);
		for (const example of [holdAlerts, board])
			await checkedCli(deployment, scripts.activateWorkflowArgs(example.id));
		// The control: its webhooks subscribed as a user subscribes them (the service's API), each
		// secret written into its workflow's Code node, then imported and published.
		const controlHooks: { holdAlerts?: string; board?: string } = {};
		if (controlFiles) {
			for (const key of ['holdAlerts', 'board'] as const) {
				const flow = controlFiles[key];
				const subscribed = await call(`${sandbox.url}/webhooks`, 'POST', {
					data: {
						type: 'webhook',
						attributes: {
							url: `${deployment.webhookBase}/webhook/${flow.path}`,
							events: flow.events,
							active: true,
						},
					},
				});
				controlHooks[key] = subscribed.data.id;
				const workflow = JSON.parse(
					JSON.stringify(flow.workflow)
						.split(SECRET_PLACEHOLDER)
						.join(subscribed.data.attributes.secret),
				);
				await checkedCli(deployment, [
					'import:workflow',
					`--input=${write(`${flow.id}.json`, workflow)}`,
				]);
				await checkedCli(deployment, scripts.activateWorkflowArgs(flow.id));
			}
			await checkedCli(deployment, [
				'import:workflow',
				`--input=${write(`${controlFiles.tableSetup.id}.json`, controlFiles.tableSetup.workflow)}`,
			]);
		}
		rmSync(fixtures, { recursive: true, force: true });

		// The CLI commands above ran with the profile's flags too: theirs are not n8n's at work.
		if (profileDir)
			for (const file of readdirSync(profileDir))
				if (file.endsWith('.cpuprofile')) rmSync(path.join(profileDir, file));
		await deployment.start();
		const processNames = profileDir ? n8nProcessNames() : new Map<number, string>();
		const cookie = await scripts.login(deployment.restBase, OWNER.email, OWNER.password);
		const created = await tableLib.createPickupBoardTable(deployment.restBase, cookie);
		let control: Rig['control'] = null;
		if (controlFiles) {
			const { tableSetup } = controlFiles;
			await scripts.runWorkflowByHand(
				deployment.restBase,
				cookie,
				tableSetup.id,
				tableSetup.trigger,
			);
			const found = await n8nLib.dataTableByName(deployment.restBase, cookie, tableSetup.tableName);
			if (!found.table)
				throw new Error(
					`the control's setup ran but n8n has no data table "${tableSetup.tableName}"`,
				);
			control = { ...controlFiles, table: { projectId: found.projectId, id: found.table.id } };
		}
		const webhookUrl = (example: Example) =>
			`${deployment.webhookBase}/webhook/${example.trigger.webhookId}/webhook`;
		const registered = async () => {
			const { data } = await readList(sandbox, '/webhooks');
			const find = (example: Example) =>
				data.find(
					(webhook) =>
						webhook.attributes?.url === webhookUrl(example) && webhook.attributes?.active === true,
				)?.id;
			return { holdAlerts: find(holdAlerts), board: find(board) };
		};
		let ids = await registered();
		for (let waited = 0; !(ids.holdAlerts && ids.board); waited += 500) {
			if (waited > 120_000) throw new Error('the examples registered no webhooks within 2 minutes');
			await sleep(500);
			ids = await registered();
		}
		// The beside-figure: a receiver subscribed to every event either workflow gets.
		const events = [...new Set([...holdAlerts.trigger.events, ...board.trigger.events])];
		const subscribed = await call(`${sandbox.url}/webhooks`, 'POST', {
			data: { type: 'webhook', attributes: { url: receiver.url, events, active: true } },
		});
		receiver.secrets.set(subscribed.data.id, subscribed.data.attributes.secret);

		const mailArrivals: number[] = [];
		const mailClock = setInterval(() => {
			while (mailArrivals.length < mail.messages.length) mailArrivals.push(Date.now());
		}, 100);
		return {
			mode,
			deployment,
			sandbox,
			mail,
			receiver,
			cookie,
			table: { projectId: created.projectId, id: created.table.id },
			holdAlerts,
			board,
			control,
			webhookIds: {
				holdAlerts: ids.holdAlerts!,
				board: ids.board!,
				receiver: subscribed.data.id,
				...(controlHooks.holdAlerts
					? { controlHoldAlerts: controlHooks.holdAlerts, controlBoard: controlHooks.board }
					: {}),
			},
			log,
			profileDir,
			processNames,
			workerRuns,
			mailArrivals,
			stopMailClock: () => clearInterval(mailClock),
		};
	} catch (error) {
		for (const item of started.reverse()) await item.stop().catch(() => undefined);
		throw error;
	}
}

async function tearDown(rig: Rig): Promise<void> {
	rig.stopMailClock();
	await rig.deployment.stop().catch((error: Error) => say(`stopping n8n: ${error.message}`));
	await rig.receiver.close();
	await rig.mail.stop();
	await rig.sandbox.stop();
}

// ------------------------------------------------------------------------------ measuring

const countBy = <T>(values: T[], key: (value: T) => string) =>
	values.reduce<Record<string, number>>((counts, value) => {
		counts[key(value)] = (counts[key(value)] ?? 0) + 1;
		return counts;
	}, {});

/** An alert, as the bench tells alerts apart: container, hold, placed or released, minute. */
function alertKey(number: unknown, hold: unknown, released: boolean, minute: number | null) {
	return `${String(number)}|${String(hold).toLowerCase()}|${released ? 'released' : 'placed'}|${minute ?? '?'}`;
}

/** The alerts the hold alert workflow should send for the deliveries the receiver got. */
function expectedAlerts(rig: Rig, changes: Set<string>, withMinute: boolean): string[] {
	const seen = new Set<string>();
	const keys: string[] = [];
	for (const delivery of rig.receiver.deliveries) {
		const id = delivery.body?.data?.id;
		if (seen.has(id)) continue;
		seen.add(id);
		for (const item of triggerItems(rig.holdAlerts, delivery.body)) {
			if (!changes.has(item.change)) continue;
			const minute = withMinute ? Math.floor(Date.parse(item.changed_at) / 60_000) : null;
			keys.push(
				alertKey(item.container_number, item.hold?.name, item.change === 'cleared', minute),
			);
		}
	}
	return keys;
}

/** Whether an email is the control's (its subject starts with CONTROL_SUBJECT). */
const isControlEmail = (message: Json) => String(message.subject).startsWith(CONTROL_SUBJECT);

/** An email's alert key, read from its subject (the control's prefix left out) and its "Changed at" line. */
function emailKey(message: Json, withMinute: boolean): string {
	const subject = /^(\S+) hold (placed|released) on (\S+)(?: \(.*\))?$/.exec(
		String(message.subject).replace(CONTROL_SUBJECT, ''),
	);
	const changedAt = /^Changed at: (.+?) \(/m.exec(String(message.text ?? ''));
	const parsed = changedAt
		? DateTime.fromFormat(changedAt[1], 'yyyy-MM-dd HH:mm ZZ', { setZone: true })
		: undefined;
	const minute = withMinute && parsed?.isValid ? Math.floor(parsed.toMillis() / 60_000) : null;
	return subject
		? alertKey(subject[3], subject[1], subject[2] === 'released', minute)
		: `unreadable|${String(message.subject)}`;
}

interface AlertCount {
	expected: number;
	sent: number;
	matched: number;
	missing: number;
	/** The same alert emailed more often than it happened. */
	duplicates: number;
	/** Emails that match no alert the bench expected. */
	unexpected: number;
	/** When the email that completed the expected ones arrived (Date.now()), if they are complete. */
	completeAt: number | null;
	/** Whether the emails were told apart by the minute of their "Changed at" line. */
	byMinute: boolean;
	/** The most times one alert was emailed (as often as it happened counts once). */
	mostTimes: number;
	/** Emails with the rerun note (the alert of a run again after a cut); of the duplicates. */
	rerunNoted: number;
	duplicatesNoted: number;
	/** Up to 20 alerts expected and never emailed (alertKey). */
	missingKeys: string[];
}

/**
 * The hold alert emails of the package's workflow, or (`of` = `control`) of the control's: the
 * same alerts are expected of both.
 */
function countAlerts(
	rig: Rig,
	changes: Set<string>,
	of: 'package' | 'control' = 'package',
): AlertCount {
	const mine = (message: Json) => isControlEmail(message) === (of === 'control');
	const messages = rig.mail.messages.filter(mine);
	// The minute tells apart two alerts of one hold on one box; when no email has a readable
	// "Changed at" line (the example changed its text), alerts are matched without it.
	const byMinute = messages.some((message) => !emailKey(message, true).endsWith('|?'));
	const expected = expectedAlerts(rig, changes, byMinute);
	const expectedOf = new Map<string, number>();
	for (const key of expected) expectedOf.set(key, (expectedOf.get(key) ?? 0) + 1);
	const remaining = new Map(expectedOf);
	let matched = 0;
	let unexpected = 0;
	let rerunNoted = 0;
	let completeAt: number | null = null;
	const note = of === 'package' ? rig.holdAlerts.rerunNote : null;
	// Per alert, the emails beyond those expected are its duplicates, whichever came first: a
	// box's hold placed twice in one minute gives two alerts of one key, and a noted copy of the
	// first may arrive before the second.
	const sentOf = new Map<string, { sent: number; noted: number }>();
	rig.mail.messages.forEach((message, index) => {
		if (!mine(message)) return;
		const key = emailKey(message, byMinute);
		const left = remaining.get(key);
		const noted = note !== null && String(message.text ?? '').includes(note);
		if (noted) rerunNoted += 1;
		if (left === undefined) {
			unexpected += 1;
			return;
		}
		const ofKey = sentOf.get(key) ?? { sent: 0, noted: 0 };
		sentOf.set(key, { sent: ofKey.sent + 1, noted: ofKey.noted + (noted ? 1 : 0) });
		if (left === 0) return;
		remaining.set(key, left - 1);
		matched += 1;
		if (matched === expected.length) completeAt = rig.mailArrivals[index] ?? Date.now();
	});
	let duplicates = 0;
	let duplicatesNoted = 0;
	let mostTimes = 0;
	for (const [key, { sent, noted }] of sentOf) {
		const happened = expectedOf.get(key) ?? 0;
		const over = Math.max(0, sent - happened);
		duplicates += over;
		duplicatesNoted += Math.min(over, noted);
		if (happened > 0) mostTimes = Math.max(mostTimes, Math.ceil(sent / happened));
	}
	return {
		expected: expected.length,
		sent: messages.length,
		matched,
		missing: expected.length - matched,
		duplicates,
		mostTimes,
		unexpected,
		completeAt: expected.length === 0 ? null : completeAt,
		byMinute,
		rerunNoted,
		duplicatesNoted,
		missingKeys: [...remaining]
			.filter(([, left]) => left > 0)
			.map(([key]) => key)
			.slice(0, 20),
	};
}

/** The board when no check got an answer from n8n. */
const UNCHECKED_BOARD = {
	equal: false,
	containers: 0,
	rows: 0,
	missing: 0,
	duplicated: 0,
	extra: 0,
	differing: 0,
	example: 'n8n answered no board check',
};

interface BoardCheck {
	equal: boolean;
	containers: number;
	rows: number;
	missing: number;
	duplicated: number;
	extra: number;
	differing: number;
	/** One differing row: the column, what the board has, what the service says. */
	example: string | null;
}

/** Every row of a Data Table (the board's, or the control's), over n8n's REST API. */
async function tableRows(rig: Rig, table: { projectId: string; id: string }): Promise<BoardRow[]> {
	const scripts = await n8nScripts();
	const rows: BoardRow[] = [];
	// n8n gives at most 250 rows a page, whatever `take` asks for: read until `count`.
	for (;;) {
		const page = (await scripts.restCall(
			rig.deployment.restBase,
			rig.cookie,
			'GET',
			`/projects/${table.projectId}/data-tables/${table.id}/rows?take=250&skip=${rows.length}`,
		)) as { data: BoardRow[]; count: number };
		rows.push(...page.data);
		if (page.data.length === 0 || rows.length >= page.count) return rows;
	}
}

/**
 * The columns the control's board is compared on: what its rows must say for a person to act as
 * on the package's board (which boxes can be picked up, which holds stop the others), the holds
 * compared as a set. Its other columns follow the user's own rules (bench/control/).
 */
const CONTROL_BOARD_COLUMNS = ['ready_for_pickup', 'active_holds'];
const holdSet = (value: unknown) =>
	String(value ?? '')
		.split(',')
		.map((hold) => hold.trim())
		.filter(Boolean)
		.sort()
		.join(', ');

/** A board's rows against the rows expected, on `columns` (all of them when undefined). */
function compareBoard(
	rows: BoardRow[],
	numbers: Set<string>,
	expectedOf: Map<string, BoardRow>,
	columns?: string[],
): BoardCheck {
	const byNumber = new Map<string, BoardRow[]>();
	for (const row of rows) {
		const number = String(row.container_number);
		byNumber.set(number, [...(byNumber.get(number) ?? []), row]);
	}
	const check: BoardCheck = {
		equal: false,
		containers: numbers.size,
		rows: rows.length,
		missing: 0,
		duplicated: 0,
		extra: [...byNumber.keys()].filter((number) => !numbers.has(number)).length,
		differing: 0,
		example: null,
	};
	const value = (column: string, row: BoardRow) =>
		JSON.stringify(
			columns && column === 'active_holds' ? holdSet(row[column]) : (row[column] ?? null),
		);
	for (const [number, expected] of expectedOf) {
		const found = byNumber.get(number) ?? [];
		if (found.length === 0) check.missing += 1;
		if (found.length > 1) check.duplicated += 1;
		if (found.length !== 1) continue;
		const { columns: written } = boardRowParts(found[0]);
		const differs = (columns ?? Object.keys({ ...expected, ...written })).filter(
			(column) => value(column, written) !== value(column, expected),
		);
		if (differs.length === 0) continue;
		check.differing += 1;
		check.example ??= `${number} ${differs[0]}: board ${value(differs[0], written)}, service ${value(differs[0], expected)}`;
	}
	check.equal =
		check.missing === 0 && check.duplicated === 0 && check.extra === 0 && check.differing === 0;
	return check;
}

/**
 * The board against the service: one row per tracked container, each equal to the row its
 * Container → Get item gives (test/support/pickupBoardRows.ts, the e2e test's rules). The item
 * is what Container → Get works out (actions/container/summary.ts) from the container the
 * service serves now with the records the board's node includes. The control's board, read from
 * the same look at the service, is compared on CONTROL_BOARD_COLUMNS.
 */
async function checkBoards(
	rig: Rig,
	numbers: Set<string>,
): Promise<{ board: BoardCheck; control: BoardCheck | null }> {
	const [rows, controlRows, service] = await Promise.all([
		tableRows(rig, rig.table),
		rig.control ? tableRows(rig, rig.control.table) : Promise.resolve(null),
		readList(rig.sandbox, `/containers?include=${BOARD_INCLUDES.join(',')}`),
	]);
	const included = indexIncluded(service.included);
	const now = new Date();
	const expectedOf = new Map<string, BoardRow>();
	for (const container of service.data) {
		const number = String(container.attributes?.number);
		if (!numbers.has(number)) continue;
		// What Container → Get gives for it (actions/container/get.ts), as the board's node is set.
		const item = containerItem(container, included, now);
		expectedOf.set(
			number,
			expectedBoardRow(
				rig.board.containerGetSimplifies ? simplifyContainer(item) : item,
				// The bench makes no Data Table Tariff.
				NO_TARIFF_CHARGES,
			),
		);
	}
	return {
		board: compareBoard(rows, numbers, expectedOf),
		control: controlRows && compareBoard(controlRows, numbers, expectedOf, CONTROL_BOARD_COLUMNS),
	};
}

/**
 * An attempt's answer as the figures count it: the error when there was none (`timeout`), the
 * status of a 2xx, and the status with the message of any other (n8n's "Database is not ready!"
 * and the trigger's "Not recorded: send it again" are both 503).
 */
function answerKind(attempt: Json): string {
	if (attempt.status === null) return String(attempt.error);
	if (attempt.status >= 200 && attempt.status < 300) return String(attempt.status);
	let message = String(attempt.answer ?? '').slice(0, 60);
	try {
		message = String(JSON.parse(attempt.answer).message ?? message);
	} catch {
		// Not JSON: its first characters.
	}
	return message ? `${attempt.status} "${message}"` : String(attempt.status);
}

/** Delivery attempts to one webhook, from the sandbox's log. */
async function deliveryFigures(rig: Rig, webhookId: string, stats: Json) {
	const { deliveries } = await call(
		`${rig.sandbox.controlUrl}/deliveries?webhook_id=${webhookId}`,
		'GET',
	);
	const attempts = (deliveries as Json[]).filter((attempt) => !attempt.duplicate);
	const notifications = new Set(attempts.map((attempt) => attempt.notification_id)).size;
	const durations = attempts.map((attempt) => attempt.duration_ms as number);
	// Per notification: whether its first attempt was answered 2xx (the service's copies left out).
	const firsts = attempts.filter((attempt) => attempt.attempt === 1);
	const firstOk = firsts.filter(
		(attempt) => attempt.status !== null && attempt.status >= 200 && attempt.status < 300,
	).length;
	return {
		notifications: stats.webhooks[webhookId]?.notifications ?? null,
		notifications_attempted: notifications,
		attempts: attempts.length,
		attempts_per_notification:
			notifications === 0 ? null : Math.round((attempts.length / notifications) * 100) / 100,
		first_attempt_2xx: {
			count: firstOk,
			of: notifications,
			percent: notifications === 0 ? null : Math.round((firstOk / notifications) * 1000) / 10,
			// Notifications whose first attempt was before the log was cleared (counted as not 2xx).
			first_attempt_not_logged: notifications - new Set(firsts.map((a) => a.notification_id)).size,
		},
		answers: countBy(attempts, answerKind),
		answer_ms: {
			p50: percentile(durations, 0.5),
			p95: percentile(durations, 0.95),
			max: durations.length ? Math.max(...durations) : null,
		},
	};
}

let flatted: { parse(text: string): Json } | undefined;

/** An execution's result data; n8n keeps it as `flatted` text, read with n8n's own copy. */
async function readExecution(rig: Rig, id: string): Promise<Json> {
	return (await readExecutionData(rig, id)).resultData;
}

/** An execution's whole run data: its result, and the stack it had still to run. */
async function readExecutionData(rig: Rig, id: string): Promise<Json> {
	if (!flatted) {
		// @ts-expect-error: an .mjs helper shared with the scripts
		const runtime = (await import('../scripts/n8n-runtime.mjs')) as { runtimeDir(): string };
		flatted = createRequire(__filename)(path.join(runtime.runtimeDir(), 'node_modules', 'flatted'));
	}
	const scripts = await n8nScripts();
	const execution = (await scripts.restCall(
		rig.deployment.restBase,
		rig.cookie,
		'GET',
		`/executions/${id}`,
	)) as { data: string };
	return flatted!.parse(execution.data);
}

/**
 * Executions of a workflow since `since`: statuses, modes, durations, how many ran at once, why
 * some failed (read from the first 20 that did); and their ids.
 */
async function executionFigures(rig: Rig, workflowId: string, since: number) {
	const scripts = await n8nScripts();
	const all = (await scripts.listExecutions(
		rig.deployment.restBase,
		rig.cookie,
		workflowId,
	)) as Json[];
	const runs = all.filter(
		(run) => Date.parse(run.startedAt ?? run.createdAt ?? 0) >= since || run.status === 'new',
	);
	const failed = runs.filter((run) => ['error', 'crashed'].includes(run.status));
	const durations = runs
		.filter((run) => run.startedAt && run.stoppedAt)
		.map((run) => (Date.parse(run.stoppedAt) - Date.parse(run.startedAt)) / 1000);
	const waits = runs
		.filter((run) => run.startedAt && run.createdAt)
		.map((run) => (Date.parse(run.startedAt) - Date.parse(run.createdAt)) / 1000);
	const edges = runs
		.filter((run) => run.startedAt)
		.flatMap((run) => [
			[Date.parse(run.startedAt), 1],
			[run.stoppedAt ? Date.parse(run.stoppedAt) : Number.MAX_SAFE_INTEGER, -1],
		])
		.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let running = 0;
	let maxRunning = 0;
	for (const [, step] of edges) maxRunning = Math.max(maxRunning, (running += step));
	const errors: Record<string, number> = {};
	for (const run of failed.slice(0, 20)) {
		const result = await readExecution(rig, run.id).catch(() => undefined);
		const message = `${result?.lastNodeExecuted ?? '?'}: ${String(result?.error?.message ?? 'no error recorded').slice(0, 200)}`;
		errors[message] = (errors[message] ?? 0) + 1;
	}
	const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
	const figures = {
		total: runs.length,
		by_status: countBy(runs, (run) => String(run.status)),
		by_mode: countBy(runs, (run) => String(run.mode)),
		failed: failed.length,
		duration_s: { p50: round(percentile(durations, 0.5)), p95: round(percentile(durations, 0.95)) },
		waited_to_start_s: { p50: round(percentile(waits, 0.5)), p95: round(percentile(waits, 0.95)) },
		max_running_at_once: maxRunning,
		errors_of_failed: errors,
		errors_read_of: Math.min(failed.length, 20),
	};
	return { figures, ids: runs.map((run) => String(run.id)) };
}

interface Observed {
	ended: 'done' | 'time limit' | 'memory cap' | 'memory cap, n8n stopped' | 'n8n not started again';
	alerts: AlertCount;
	board: BoardCheck;
	boardEqualAt: number | null;
	/** The control's emails and board (equal on CONTROL_BOARD_COLUMNS), when it runs. */
	control: { alerts: AlertCount; board: BoardCheck | null; boardEqualAt: number | null } | null;
	pendingAtEnd: Record<string, number>;
	timeline: Array<Record<string, number | string | null>>;
	/** Board checks that failed (n8n did not answer its REST API), and the last reason. */
	boardCheckErrors: { count: number; last: string | null };
}

/** Watches memory while a run is observed: flags the cap, stops n8n when the machine runs out. */
class MemoryGuard {
	exceeded: string | null = null;
	n8nStopped = false;

	constructor(private readonly rig: Rig) {}

	check = (usage: Usage) => {
		if (usage.rssBytes.n8n >= MEMORY_CAP_BYTES || usage.availableBytes < LOW_MEMORY_BYTES)
			this.exceeded ??= `n8n ${Math.round(usage.rssBytes.n8n / 2 ** 20)} MB, machine ${Math.round(usage.availableBytes / 2 ** 20)} MB left`;
		if (usage.availableBytes < OUT_OF_MEMORY_BYTES && !this.n8nStopped) {
			this.n8nStopped = true;
			say(`the machine has ${Math.round(usage.availableBytes / 2 ** 20)} MB left: stopping n8n`);
			void this.rig.deployment.stopN8n();
		}
	};
}

/**
 * Watches until every expected alert is emailed, the board equals the service and the service
 * has nothing left to deliver to the workflows (the control's too, and the receiver), or until
 * `deadline`. With `waitForControl` (a burst without a fault) every expected alert of the control
 * must have been emailed too; its board is watched, not waited for.
 */
async function observe(
	rig: Rig,
	numbers: Set<string>,
	from: number,
	deadline: number,
	changes: Set<string>,
	sampler: ProcessSampler,
	guard: MemoryGuard,
	fault?: Fault,
	waitForControl = false,
): Promise<Observed> {
	let board: BoardCheck | undefined;
	let controlBoard: BoardCheck | null = null;
	const boardCheckErrors: Observed['boardCheckErrors'] = { count: 0, last: null };
	const checkBoardNow = async () => {
		try {
			const checked = await checkBoards(rig, numbers);
			controlBoard = checked.control ?? controlBoard;
			return checked.board;
		} catch (error) {
			boardCheckErrors.count += 1;
			boardCheckErrors.last = (error as Error).message.slice(0, 300);
			return undefined;
		}
	};
	let boardEqualAt: number | null = null;
	let controlBoardEqualAt: number | null = null;
	let boardCheckedAt = 0;
	let timelineAt = 0;
	const timeline: Observed['timeline'] = [];
	const pendingOf = (stats: Json) =>
		Object.fromEntries(
			Object.entries(rig.webhookIds).map(([name, id]) => [
				name,
				stats.webhooks[id]?.notifications.pending ?? 0,
			]),
		);
	for (;;) {
		const stats = await call(`${rig.sandbox.controlUrl}/stats`, 'GET');
		const pending = pendingOf(stats);
		const alerts = countAlerts(rig, changes);
		const controlAlerts = rig.control ? countAlerts(rig, changes, 'control') : null;
		// From the kill until the bench is logged in again the board cannot be read; its time
		// counts again from the first check after that. In queue mode the main answers while the
		// killed worker is down: the board is read, its time counted from the worker's start again.
		const down = fault !== undefined && fault.signalledAt !== null && fault.startedAt === null;
		if (down) boardEqualAt = controlBoardEqualAt = null;
		if (
			(!down || fault?.mainGoesOn) &&
			Date.now() - boardCheckedAt >= BOARD_CHECK_MS &&
			!guard.n8nStopped
		) {
			boardCheckedAt = Date.now();
			board = (await checkBoardNow()) ?? board;
			if (board?.equal && !down) boardEqualAt ??= boardCheckedAt;
			else boardEqualAt = null;
			if ((controlBoard as BoardCheck | null)?.equal && !down)
				controlBoardEqualAt ??= boardCheckedAt;
			else controlBoardEqualAt = null;
		}
		const usage = sampler.sample();
		if (Date.now() - timelineAt >= TIMELINE_MS) {
			timelineAt = Date.now();
			if (rig.profileDir)
				for (const [pid, name] of n8nProcessNames()) rig.processNames.set(pid, name);
			const shown = controlBoard as BoardCheck | null;
			timeline.push({
				after_s: seconds(Date.now() - from),
				emails: alerts.sent,
				alerts_missing: alerts.missing,
				board_rows_differing: board ? board.differing + board.missing : null,
				pending_hold_alerts: pending.holdAlerts,
				pending_board: pending.board,
				...(controlAlerts
					? {
							control_emails: controlAlerts.sent,
							control_alerts_missing: controlAlerts.missing,
							control_board_rows_differing: shown ? shown.differing + shown.missing : null,
							pending_control: (pending.controlHoldAlerts ?? 0) + (pending.controlBoard ?? 0),
						}
					: {}),
				n8n_rss_mb: Math.round(usage.rssBytes.n8n / 2 ** 20),
				n8n_429: stats.by_api_key[N8N_KEY]?.rate_limited ?? 0,
				...(fault ? { [fault.target]: down ? 'down' : 'up' } : {}),
			});
			say(
				`${JSON.stringify(timeline[timeline.length - 1])}${board?.example ? ` e.g. ${board.example}` : ''}`,
			);
		}
		// The control's notifications are not waited for: one its Webhook node answered late is
		// retried on the service's schedule (5 s, doubling, for hours), and runs again each time.
		const settled = Object.entries(pending).every(
			([name, count]) => count === 0 || name.startsWith('control'),
		);
		// A killed n8n is watched until its re-runs had their time too.
		const rerunsHadTime = !fault || rerunsHadTimeAfter(fault);
		const controlDone = !waitForControl || !controlAlerts || controlAlerts.missing === 0;
		const done =
			settled && alerts.missing === 0 && board?.equal === true && rerunsHadTime && controlDone;
		if (done || Date.now() >= deadline || guard.exceeded || fault?.error) {
			if (guard.exceeded) say(`memory cap: ${guard.exceeded}`);
			// The board as it is at the end, read once more (while n8n runs).
			if (!guard.n8nStopped) board = (await checkBoardNow()) ?? board;
			const lastControlBoard = controlBoard as BoardCheck | null;
			return {
				ended: done
					? 'done'
					: fault?.error
						? 'n8n not started again'
						: guard.n8nStopped
							? 'memory cap, n8n stopped'
							: guard.exceeded
								? 'memory cap'
								: 'time limit',
				alerts: countAlerts(rig, changes),
				board: board ?? UNCHECKED_BOARD,
				boardEqualAt: board?.equal ? boardEqualAt : null,
				control: rig.control
					? {
							alerts: countAlerts(rig, changes, 'control'),
							board: lastControlBoard,
							boardEqualAt: lastControlBoard?.equal ? controlBoardEqualAt : null,
						}
					: null,
				pendingAtEnd: pending,
				timeline,
				boardCheckErrors,
			};
		}
		await sleep(POLL_MS);
	}
}

// ------------------------------------------------------------------------------ the kill

/** A kill mid-burst as it goes: `killAndRestart` sets it while `observe` watches. */
interface Fault {
	signal: 'SIGKILL' | 'SIGTERM';
	/** The process killed, named as its log is: `n8n`, or in queue mode `worker-1`. */
	target: string;
	/**
	 * Queue mode: a worker is killed, and the main (its REST API, the watch and its cut check), the
	 * webhook process and the other worker go on.
	 */
	mainGoesOn: boolean;
	signalledAt: number | null;
	report: KillReport | null;
	exitedAt: number | null;
	/** When it was started again. */
	restartedAt: number | null;
	/** n8n's /healthz answered 200 again; a worker: it said it is ready. */
	servingAt: number | null;
	/** n8n said it serves again, and the bench has logged in again (a worker: it is ready). */
	startedAt: number | null;
	/**
	 * Queue mode: the stored data of the executions the worker left unfinished, read just after it
	 * exited, by execution id.
	 */
	unfinishedData: Promise<Map<string, Json>>;
	error: string | null;
	/** Settles when n8n serves again (or could not be killed or started). */
	done: Promise<void>;
}

/**
 * Whether a killed run was watched long enough for its re-runs: 2 minutes after n8n serves again
 * (its restart check); in queue mode also until the main's cut check had its time.
 */
function rerunsHadTimeAfter(fault: Fault): boolean {
	if (fault.servingAt === null || Date.now() < fault.servingAt + RERUN_WINDOW_MS) return false;
	return !fault.mainGoesOn || Date.now() >= fault.exitedAt! + CUT_RERUN_WINDOW_MS;
}

/**
 * The stored data of the executions `fault`'s worker left unfinished, read at once: a minute or
 * two after the kill n8n fails their stalled jobs (Bull's maxStalledCount is 0) and stores that
 * error in place of their data, their trigger items with it.
 */
async function unfinishedData(rig: Rig, fault: Fault): Promise<Map<string, Json>> {
	const data = new Map<string, Json>();
	for (const id of rig.workerRuns.leftUnfinished(fault.target, fault.signalledAt!, Date.now())) {
		const read = await readExecutionData(rig, id).catch(() => undefined);
		if (read) data.set(id, read);
	}
	return data;
}

/**
 * Kills n8n (queue mode: worker-1) at `at` (Date.now()), starts it RESTART_AFTER_S after it
 * exited.
 */
function killAndRestart(rig: Rig, signal: Fault['signal'], at: number): Fault {
	const fault: Fault = {
		signal,
		target: rig.deployment.killTarget ?? 'n8n',
		mainGoesOn: rig.mode === 'queue',
		signalledAt: null,
		report: null,
		exitedAt: null,
		restartedAt: null,
		servingAt: null,
		startedAt: null,
		unfinishedData: Promise.resolve(new Map()),
		error: null,
		done: Promise.resolve(),
	};
	const health = async (stop: { now: boolean }) => {
		while (!stop.now && fault.servingAt === null) {
			try {
				const answer = await fetch(`${rig.deployment.restBase}/healthz`, {
					signal: AbortSignal.timeout(2_000),
				});
				if (answer.status === 200) fault.servingAt = Date.now();
			} catch {
				// Not listening yet.
			}
			await sleep(200);
		}
	};
	fault.done = (async () => {
		if (!rig.deployment.kill) throw new Error(`${rig.deployment.name} cannot be killed here`);
		await sleep(Math.max(0, at - Date.now()));
		fault.signalledAt = Date.now();
		say(`${signal} to ${fault.target}`);
		fault.report = await rig.deployment.kill(signal);
		fault.exitedAt = Date.now();
		say(
			`${fault.target} exited ${seconds(fault.report.exitedAfterMs)} s after ${signal} (${fault.report.processes} processes${fault.report.forced ? ', killed after the SIGTERM limit' : ''}); starting it in ${RESTART_AFTER_S} s`,
		);
		if (fault.mainGoesOn) {
			// A second for the last lines the worker printed to be read.
			fault.unfinishedData = sleep(1_000).then(() => unfinishedData(rig, fault));
			await sleep(RESTART_AFTER_S * 1000);
			// A worker has no /healthz: it serves once it says it is ready, when `start()` resolves.
			// The main never stopped: the bench's session holds.
			fault.restartedAt = Date.now();
			await rig.deployment.start();
			fault.servingAt = fault.startedAt = Date.now();
			say(
				`${fault.target} ready again ${seconds(fault.servingAt - fault.exitedAt)} s after it exited`,
			);
			return;
		}
		await sleep(RESTART_AFTER_S * 1000);
		fault.restartedAt = Date.now();
		const stop = { now: false };
		const polled = health(stop);
		try {
			await rig.deployment.start();
			// From n8n's start: its log says it serves; /healthz answered before or about then.
			for (let waited = 0; fault.servingAt === null && waited < 30_000; waited += 200)
				await sleep(200);
		} finally {
			stop.now = true;
			await polled;
		}
		rig.cookie = await (
			await n8nScripts()
		).login(rig.deployment.restBase, OWNER.email, OWNER.password);
		fault.startedAt = Date.now();
		say(
			`n8n serving again ${seconds((fault.servingAt ?? Date.now()) - fault.exitedAt)} s after it exited`,
		);
	})().catch((error: Error) => {
		fault.error = error.message.slice(0, 500);
		say(`the kill: ${error.message}`);
	});
	return fault;
}

/**
 * An execution's trigger items: what its trigger gave or, in a crashed one, what it was started
 * with (the stack n8n stored when it created the execution: a crash recovery puts a placeholder
 * item, `isArtificialRecoveredEventItem`, in place of the trigger's output). Undefined when n8n
 * kept neither.
 */
function triggerItemsOf(data: Json, example: Example): Json[] | undefined {
	const real = (items: unknown) =>
		Array.isArray(items)
			? items
					.map((item: Json) => item?.json)
					.filter((json: Json) => json && json.isArtificialRecoveredEventItem !== true)
			: [];
	const ran = real(data?.resultData?.runData?.[example.trigger.name]?.[0]?.data?.main?.[0]);
	if (ran.length > 0) return ran;
	const waiting = real(
		(data?.executionData?.nodeExecutionStack as Json[] | undefined)?.find(
			(entry) => entry.node?.name === example.trigger.name,
		)?.data?.main?.[0],
	);
	return waiting.length > 0 ? waiting : undefined;
}

/**
 * The notifications an item holds (Latest State per Container folds several into one); a
 * crashed execution's waiting item carries its delivery whole (trigger/items/notificationItems.ts).
 */
const notificationIdsOf = (item: Json): string[] => {
	if (Array.isArray(item?.notification_ids))
		return (item.notification_ids as unknown[]).map(String);
	const id = item ? notificationIdOf(item) : undefined;
	return id ? [id] : [];
};

/** n8n's error for a job whose worker stopped renewing it (scaling/max-stalled-count.error). */
const STALLED_JOB = /failed to be processed too many times/;

/**
 * Queue mode: the executions of `all` the killed worker left unfinished, as n8n's "crashed" of one
 * n8n: those its log says it started and never finished, and those n8n failed as stalled jobs
 * after the signal (taken by the worker, not yet started), or marked crashed; and the executions
 * it had under way at the signal.
 */
async function leftByWorker(rig: Rig, fault: Fault, all: Json[]) {
	const time = (value: unknown) => (value ? Date.parse(String(value)) : null);
	const signalled = fault.signalledAt!;
	const unfinished = new Set(
		rig.workerRuns.leftUnfinished(fault.target, signalled, fault.restartedAt ?? Date.now()),
	);
	const underWay = new Set(rig.workerRuns.underWay(fault.target, signalled));
	const stalled = new Set<string>();
	for (const run of all) {
		const [created, stop] = [time(run.createdAt), time(run.stoppedAt)];
		if (
			run.status !== 'error' ||
			unfinished.has(String(run.id)) ||
			created === null ||
			created > fault.exitedAt! ||
			(stop !== null && stop < signalled)
		)
			continue;
		const result = await readExecution(rig, run.id).catch(() => undefined);
		if (STALLED_JOB.test(String(result?.error?.message ?? ''))) stalled.add(String(run.id));
	}
	return {
		runningAtSignal: all.filter((run) => underWay.has(String(run.id))),
		crashed: all.filter(
			(run) =>
				unfinished.has(String(run.id)) || stalled.has(String(run.id)) || run.status === 'crashed',
		),
		stalledNotInLog: stalled.size,
	};
}

interface LoggedAlerts {
	/** The alerts `example` makes of its notifications `ids`. */
	count(example: Example, ids: Set<string>, changes: Set<string>): number;
}

/**
 * The alerts of notifications told by id, from their bodies in the service's log: the receiver's
 * copies of them are notifications of its own webhook, with other ids.
 */
async function readLoggedAlerts(rig: Rig): Promise<LoggedAlerts> {
	const log = await readList(rig.sandbox, '/webhook_notifications?include=reference_object');
	const included = indexIncluded(log.included);
	const records = new Map(log.data.map((record) => [String(record.id), record]));
	return {
		count: (example, ids, changes) =>
			[...ids].reduce((count, id) => {
				const record = records.get(id) as Json | undefined;
				if (!record) return count;
				const entry = { id, status: '', createdAt: 0, included, record };
				const body = { data: record, included: includedFor(entry) ?? [] };
				return (
					count + triggerItems(example, body).filter((item) => changes.has(item.change)).length
				);
			}, 0),
	};
}

/**
 * What the kill did to each workflow's executions: running at the signal, marked crashed (their
 * notifications and alerts, read from their data), run again after the start (items `rerun`),
 * and the notifications cut and never run again. In queue mode "crashed" is what the killed
 * worker left unfinished (`leftByWorker`), whatever n8n marked it, read from its data as it was
 * just after the worker exited.
 */
async function killFigures(rig: Rig, fault: Fault, changes: Set<string>) {
	const scripts = await n8nScripts();
	const time = (value: unknown) => (value ? Date.parse(String(value)) : null);
	const signalled = fault.signalledAt!;
	const dataAtExit = await fault.unfinishedData;
	let log: Promise<LoggedAlerts> | undefined;
	const loggedAlerts = async () => await (log ??= readLoggedAlerts(rig));
	const of = async (example: Example, alerts: boolean) => {
		const all = (await scripts.listExecutions(
			rig.deployment.restBase,
			rig.cookie,
			example.id,
		)) as Json[];
		const byWorker = fault.mainGoesOn ? await leftByWorker(rig, fault, all) : undefined;
		const runningAtSignal =
			byWorker?.runningAtSignal ??
			all.filter((run) => {
				const [start, stop] = [time(run.startedAt), time(run.stoppedAt)];
				// A crashed one ran until the kill, whatever stop time n8n gave it when it found it.
				return (
					start !== null &&
					start <= signalled &&
					(stop === null || stop > signalled || run.status === 'crashed')
				);
			});
		const waitingAtSignal = all.filter((run) => {
			const [created, start] = [time(run.createdAt), time(run.startedAt)];
			return created !== null && created <= signalled && (start === null || start > signalled);
		});
		const crashed = byWorker?.crashed ?? all.filter((run) => run.status === 'crashed');
		const alertCount = (items: Json[]) =>
			alerts ? items.filter((item) => changes.has(item?.change)).length : null;
		const cut = new Set<string>();
		const unread: string[] = [];
		for (const run of crashed) {
			const items = triggerItemsOf(
				dataAtExit.get(String(run.id)) ??
					(await readExecutionData(rig, run.id).catch(() => undefined)),
				example,
			);
			if (!items) {
				unread.push(String(run.id));
				continue;
			}
			for (const item of items) for (const id of notificationIdsOf(item)) cut.add(id);
		}
		// Counted from the notifications, not the items: n8n keeps a crashed execution's items as
		// they came in (deliveries) or as its trigger made them (alerts), whichever it got to.
		const cutAlerts = alerts ? (await loggedAlerts()).count(example, cut, changes) : 0;
		const rerun = new Set<string>();
		const rerunExecutions: string[] = [];
		// Seconds after the signal: whether cut runs came back late, or the queue's backlog did.
		const afterSignal = (value: unknown) => {
			const at = time(value);
			return at === null ? null : seconds(at - signalled);
		};
		const timesOf = (run: Json) => ({
			id: String(run.id),
			mode: String(run.mode),
			created_s: afterSignal(run.createdAt),
			started_s: afterSignal(run.startedAt),
			stopped_s: afterSignal(run.stoppedAt),
		});
		const rerunTimes: Array<ReturnType<typeof timesOf>> = [];
		let rerunItems = 0;
		let rerunAlerts = 0;
		// Run after the start at all: marked rerun (its run was cut), or as a first run (never
		// recorded: the execution died before its trigger ran, or the delivery was never answered).
		const ranAfter = new Set<string>();
		for (const run of all.filter((one) => (time(one.createdAt) ?? 0) >= fault.exitedAt!)) {
			const ran =
				triggerItemsOf(await readExecutionData(rig, run.id).catch(() => undefined), example) ?? [];
			for (const item of ran) for (const id of notificationIdsOf(item)) ranAfter.add(id);
			const items = ran.filter((item) => item?.rerun === true);
			if (items.length === 0) continue;
			rerunExecutions.push(String(run.id));
			rerunTimes.push(timesOf(run));
			rerunItems += items.length;
			rerunAlerts += alertCount(items) ?? 0;
			for (const item of items) for (const id of notificationIdsOf(item)) rerun.add(id);
		}
		const cutNotRerun = [...cut].filter((id) => !ranAfter.has(id));
		return {
			executions: all.length,
			running_at_signal: runningAtSignal.length,
			waiting_at_signal: waitingAtSignal.length,
			crashed: crashed.length,
			crashed_ids: crashed.slice(0, 20).map((run) => String(run.id)),
			...(byWorker
				? {
						// How n8n ended them: `error` for a stalled job, `canceled` at the worker's shutdown…
						crashed_status: countBy(crashed, (run) => String(run.status)),
						crashed_stalled_not_in_worker_log: byWorker.stalledNotInLog,
					}
				: {}),
			cut: {
				notifications: cut.size,
				alerts: alerts ? cutAlerts : null,
				executions_unread: unread,
			},
			rerun: {
				executions: rerunExecutions.length,
				execution_ids: rerunExecutions.slice(0, 20),
				items: rerunItems,
				notifications: rerun.size,
				alerts: alerts ? rerunAlerts : null,
			},
			rerun_times_after_signal: rerunTimes.slice(0, 20),
			last_stopped_after_signal: (() => {
				const ended = all.filter((run) => time(run.stoppedAt) !== null);
				const last = ended.sort((a, b) => time(b.stoppedAt)! - time(a.stoppedAt)!)[0];
				return last ? timesOf(last) : null;
			})(),
			cut_not_rerun: { count: cutNotRerun.length, ids: cutNotRerun.slice(0, 20) },
			rerun_not_cut: [...rerun].filter((id) => !cut.has(id)).length,
		};
	};
	return {
		hold_alerts: await of(rig.holdAlerts, true),
		pickup_board: await of(rig.board, false),
	};
}

/** The workflows a run watches: the examples, and the control's when it runs. */
const workflowIds = (rig: Rig) => [
	rig.holdAlerts.id,
	rig.board.id,
	...(rig.control ? [rig.control.holdAlerts.id, rig.control.board.id] : []),
];

/** The webhooks of those workflows (not the plain receiver's); the package's alone with `packageOnly`. */
const workflowWebhookIds = (rig: Rig, packageOnly = false) =>
	[
		rig.webhookIds.holdAlerts,
		rig.webhookIds.board,
		...(packageOnly ? [] : [rig.webhookIds.controlHoldAlerts, rig.webhookIds.controlBoard]),
	].filter((id): id is string => id !== undefined);

/** Executions of the workflows that have not ended (n8n's REST API). */
async function unfinishedExecutions(rig: Rig): Promise<number> {
	const scripts = await n8nScripts();
	let count = 0;
	for (const workflowId of workflowIds(rig)) {
		const all = (await scripts.listExecutions(
			rig.deployment.restBase,
			rig.cookie,
			workflowId,
		)) as Json[];
		count += all.filter((run) => ['new', 'running', 'waiting'].includes(run.status)).length;
	}
	return count;
}

/**
 * Waits until everything is quiet (nothing left to deliver to the workflows, no execution of
 * theirs unfinished, no email for QUIET_MS; at most QUIET_LIMIT_MS), then reads the board and the
 * emails once more: a board right once may be overwritten by a late run, an alert sent again.
 */
async function whenQuiet(
	rig: Rig,
	numbers: Set<string>,
	changes: Set<string>,
	guard: MemoryGuard,
	times: { from: number; began?: number },
) {
	const from = Date.now();
	let quiet = false;
	// From the moment the burst settled (nothing left to deliver, no execution running), the board
	// is compared with the service at every look: a view is never wrong once the work is done.
	const afterSettled = { looks: 0, unequal: 0, first_unequal: null as string | null };
	while (!guard.n8nStopped && Date.now() - from < QUIET_LIMIT_MS) {
		// The package's notifications and emails: the control's retries go on for hours (observe).
		const stats = await call(`${rig.sandbox.controlUrl}/stats`, 'GET');
		const pending = workflowWebhookIds(rig, true).reduce(
			(sum, id) => sum + (stats.webhooks[id]?.notifications.pending ?? 0),
			0,
		);
		const lastEmail =
			rig.mailArrivals.filter((_, index) => !isControlEmail(rig.mail.messages[index])).pop() ?? 0;
		const unfinished = pending === 0 ? await unfinishedExecutions(rig).catch(() => -1) : -1;
		if (unfinished === 0) {
			const look = await checkBoards(rig, numbers).catch(() => undefined);
			if (look) {
				afterSettled.looks += 1;
				if (!look.board.equal) {
					afterSettled.unequal += 1;
					afterSettled.first_unequal ??= `${look.board.differing} differing, ${look.board.missing} missing${look.board.example ? `: ${look.board.example}` : ''}`;
				}
			}
			if (Date.now() - lastEmail >= QUIET_MS) {
				quiet = true;
				break;
			}
		}
		await sleep(BOARD_CHECK_MS);
	}
	const boards = await checkBoards(rig, numbers).catch(() => ({
		board: UNCHECKED_BOARD,
		control: rig.control ? UNCHECKED_BOARD : null,
	}));
	const summary = (alerts: AlertCount) => ({
		expected: alerts.expected,
		sent: alerts.sent,
		missing: alerts.missing,
		duplicates: alerts.duplicates,
		most_times_one_alert: alerts.mostTimes,
		unexpected: alerts.unexpected,
		rerun_noted: alerts.rerunNoted,
		duplicates_noted: alerts.duplicatesNoted,
		missing_keys: alerts.missingKeys,
	});
	const controlAlerts = rig.control ? countAlerts(rig, changes, 'control') : null;
	return {
		quiet,
		waited_s: seconds(Date.now() - from),
		alerts: summary(countAlerts(rig, changes)),
		board: boards.board,
		board_after_settled: afterSettled,
		...(controlAlerts
			? {
					control: {
						alerts: summary(controlAlerts),
						// The control's emails may end while the bench waits here: their last one's time
						// comes from when it arrived, counted as the run's.
						all_sent: summarizeAlerts(controlAlerts, times.from, times.began),
						board: boards.control,
					},
				}
			: {}),
	};
}

/** Everything else a run reports, read once it is over. */
async function finalFigures(rig: Rig, since: number) {
	const stats = await call(`${rig.sandbox.controlUrl}/stats`, 'GET');
	// An n8n that no longer answers (stopped for memory, or too busy) leaves its executions unread.
	const executions = async (workflowId: string) => {
		try {
			return await executionFigures(rig, workflowId, since);
		} catch (error) {
			return { figures: { error: (error as Error).message.slice(0, 300) }, ids: [] as string[] };
		}
	};
	const holdAlerts = await executions(rig.holdAlerts.id);
	const board = await executions(rig.board.id);
	const control = rig.control && {
		holdAlerts: await executions(rig.control.holdAlerts.id),
		board: await executions(rig.control.board.id),
	};
	const controlDeliveries = async (webhookId: string | undefined) =>
		webhookId ? await deliveryFigures(rig, webhookId, stats) : null;
	const n8nCalls = stats.by_api_key[N8N_KEY] ?? { calls: 0, rate_limited: 0, by_route: {} };
	const figures = {
		deliveries: {
			hold_alerts: await deliveryFigures(rig, rig.webhookIds.holdAlerts, stats),
			pickup_board: await deliveryFigures(rig, rig.webhookIds.board, stats),
			...(control
				? {
						control_hold_alerts: await controlDeliveries(rig.webhookIds.controlHoldAlerts),
						control_board: await controlDeliveries(rig.webhookIds.controlBoard),
					}
				: {}),
			plain_receiver: await deliveryFigures(rig, rig.webhookIds.receiver, stats),
		},
		executions: {
			hold_alerts: holdAlerts.figures,
			pickup_board: board.figures,
			...(control
				? {
						control_hold_alerts: control.holdAlerts.figures,
						control_board: control.board.figures,
					}
				: {}),
		},
		service_calls: {
			n8n: {
				calls: n8nCalls.calls,
				rate_limited: n8nCalls.rate_limited,
				by_route: Object.fromEntries(
					Object.entries(n8nCalls.by_route as Record<string, Json>).map(([route, counts]) => [
						route,
						{ calls: counts.calls, rate_limited: counts.rate_limited },
					]),
				),
			},
			bench: {
				calls: stats.by_api_key[BENCH_KEY]?.calls ?? 0,
				rate_limited: stats.by_api_key[BENCH_KEY]?.rate_limited ?? 0,
			},
		},
		n8n_log: { lines: rig.log.lines, warnings_and_errors: rig.log.top() },
	};
	return { executionIds: { holdAlerts: holdAlerts.ids, board: board.ids }, figures };
}

/** An alert count with the time its last email came, from `from` (and from `began`, if given). */
function summarizeAlerts(alerts: AlertCount, from: number, began?: number) {
	const { completeAt, ...rest } = alerts;
	return {
		...rest,
		all_sent_after_s: completeAt === null ? null : seconds(completeAt - from),
		...(began === undefined
			? {}
			: { all_sent_after_burst_began_s: completeAt === null ? null : seconds(completeAt - began) }),
	};
}

// ------------------------------------------------------------------------------ the runs

/**
 * `count` containers tracked at once (the sandbox's control API, no rate limit), their
 * notifications given a few seconds to go out; their ids and numbers.
 */
async function trackBoxes(rig: Rig, count: number) {
	const tracked = await call(`${rig.sandbox.controlUrl}/tracking_requests`, 'POST', {
		count,
		scac: SCAC,
	});
	const containerIds: string[] = tracked.tracking_requests.flatMap(
		(request: Json) => request.container_ids,
	);
	const numbers = new Set<string>(
		tracked.tracking_requests.map((request: Json) => request.request_number),
	);
	await sleep(3_000);
	return { containerIds, numbers };
}

/** The service's call counters, its delivery log and the receiver's deliveries, from 0. */
async function resetCounters(rig: Rig): Promise<void> {
	await call(`${rig.sandbox.controlUrl}/stats`, 'DELETE');
	await call(`${rig.sandbox.controlUrl}/deliveries`, 'DELETE');
	rig.receiver.deliveries.length = 0;
}

async function runBurst(rig: Rig, n: number, scenario: string): Promise<Record<string, unknown>> {
	const signal = FAULTS[scenario] as Fault['signal'] | undefined;
	const { containerIds, numbers } = await trackBoxes(rig, n);
	// A board in use has a row for every box tracked before its last hourly run: its hourly branch
	// runs once, as it would have before the boxes were discharged.
	await (
		await n8nScripts()
	).runWorkflowByHand(rig.deployment.restBase, rig.cookie, rig.board.id, 'Every hour', 300_000);
	await resetCounters(rig);
	const guard = new MemoryGuard(rig);
	const sampler = new ProcessSampler(guard.check);
	sampler.start();
	const probe = WITH_PROBES ? await answerProbe(rig) : undefined;
	probe?.start();
	const changes = emailedChanges(rig.holdAlerts);
	const started = Date.now();
	const ready = await call(`${rig.sandbox.controlUrl}/scenarios/ready_for_pickup`, 'POST', {
		container_ids: containerIds,
		spread_seconds: BURST.spreadSeconds,
		gap_seconds: BURST.readyGapSeconds,
	});
	const readyEnds = Date.now() + ready.ends_in_seconds * 1000;
	const everyFifth = containerIds.filter(
		(_, index) => index % Math.round(1 / BURST.holdShare) === 0,
	);
	const holds = await call(`${rig.sandbox.controlUrl}/scenarios/customs_hold`, 'POST', {
		container_ids: everyFifth,
		spread_seconds: BURST.spreadSeconds,
		gap_seconds: BURST.holdGapSeconds,
	});
	const lastChange = Math.max(readyEnds, Date.now() + holds.ends_in_seconds * 1000);
	const fault = signal && killAndRestart(rig, signal, started + KILL_AFTER_S * 1000);
	say(
		`${rig.mode} N=${n}: ${ready.started} boxes ready for pickup (${ready.steps} changes), ${holds.started} customs holds (${holds.steps} changes); last change in ${seconds(lastChange - Date.now())} s${fault ? `; ${signal}${fault.mainGoesOn ? ` to ${fault.target}` : ''} in ${seconds(started + KILL_AFTER_S * 1000 - Date.now())} s` : ''}`,
	);
	const observed = await observe(
		rig,
		numbers,
		lastChange,
		lastChange + limitMinutes(n) * 60_000,
		changes,
		sampler,
		guard,
		fault,
		!fault,
	);
	probe?.stop();
	await fault?.done;
	const quiet = await whenQuiet(rig, numbers, changes, guard, { from: lastChange, began: started });
	sampler.stop();
	const usage = sampler.summary();
	const kill = fault && {
		signal,
		// Queue mode: the worker killed, and how long the main's cut check was given.
		...(fault.mainGoesOn
			? {
					target: fault.target,
					reruns_watched_after_exit_s: seconds(CUT_RERUN_WINDOW_MS),
				}
			: {}),
		error: fault.error,
		after_burst_began_s: fault.signalledAt === null ? null : seconds(fault.signalledAt - started),
		after_last_change_s:
			fault.signalledAt === null ? null : seconds(fault.signalledAt - lastChange),
		processes_signalled: fault.report?.processes ?? null,
		exited_after_s: fault.report ? seconds(fault.report.exitedAfterMs) : null,
		left_running_after_exit: fault.report?.leftRunning ?? null,
		forced_after_term_limit: fault.report?.forced ?? null,
		restart_after_s: RESTART_AFTER_S,
		serving_after_exit_s:
			fault.servingAt === null || fault.exitedAt === null
				? null
				: seconds(fault.servingAt - fault.exitedAt),
		emails_before_signal:
			fault.signalledAt === null
				? null
				: rig.mailArrivals.filter(
						(arrival, index) =>
							arrival < fault.signalledAt! && !isControlEmail(rig.mail.messages[index]),
					).length,
		board_equal_after_serving_s:
			observed.boardEqualAt === null || fault.servingAt === null
				? null
				: seconds(observed.boardEqualAt - fault.servingAt),
		executions:
			fault.signalledAt === null || fault.exitedAt === null
				? null
				: await killFigures(rig, fault, changes).catch((error: Error) => ({
						error: error.message.slice(0, 300),
					})),
	};
	return {
		scenario,
		n,
		burst: {
			containers: containerIds.length,
			ready_for_pickup: { started: ready.started, skipped: ready.skipped, changes: ready.steps },
			customs_hold: { started: holds.started, skipped: holds.skipped, changes: holds.steps },
			last_change_after_s: seconds(lastChange - started),
			...BURST,
		},
		ended: observed.ended,
		time_limit_minutes: limitMinutes(n),
		alerts: summarizeAlerts(observed.alerts, lastChange, started),
		board: {
			...observed.board,
			equal_after_s:
				observed.boardEqualAt === null ? null : seconds(observed.boardEqualAt - lastChange),
			checked_every_s: BOARD_CHECK_MS / 1000,
		},
		...controlFigures(rig, observed, quiet.control?.all_sent ?? null, lastChange),
		pending_at_end: observed.pendingAtEnd,
		board_check_errors: observed.boardCheckErrors,
		when_quiet: quiet,
		...(probe ? { answer_probes: probe.summary() } : {}),
		...(kill ? { kill, kill_after_s: KILL_AFTER_S } : {}),
		...(await finalFigures(rig, 0)).figures,
		usage,
		timeline: observed.timeline,
	};
}

/**
 * Where the answer to a delivery waits (issue 50), sampled every second from the burst's start
 * until it is measured: an unsigned delivery to the hold alerts' trigger, which its admission
 * answers 401 before any batch or execution (so its time is n8n's request path up to the node,
 * plus the node's check), and n8n's own health check, which reads no workflow.
 */
async function answerProbe(rig: Rig): Promise<AnswerProbe> {
	const webhook = await call(`${rig.sandbox.url}/webhooks/${rig.webhookIds.holdAlerts}`, 'GET');
	const triggerUrl = String(webhook.data.attributes.url);
	const timeout = () => AbortSignal.timeout(30_000);
	return new AnswerProbe({
		unsigned_delivery_to_trigger: async () =>
			await fetch(triggerUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: '{}',
				signal: timeout(),
			}),
		n8n_healthz: async () =>
			await fetch(`${rig.deployment.restBase}/healthz`, { signal: timeout() }),
	});
}

/**
 * The control's emails and board as a run reports them: its emails once quiet when the bench
 * waited for that (`quietAlerts`, the time of the last one counted from `from` as the package's),
 * else as `observe` left them; its board when `observe` ended.
 */
function controlFigures(
	rig: Rig,
	observed: Observed,
	quietAlerts: ReturnType<typeof summarizeAlerts> | null,
	from: number,
) {
	if (!rig.control || !observed.control) return {};
	const { board, boardEqualAt } = observed.control;
	return {
		control: {
			workflows: [rig.control.holdAlerts.id, rig.control.board.id],
			subscribed_to: rig.control.holdAlerts.events,
			email_steps_differ_from_example: rig.control.emailStepsDiffer,
			alerts: quietAlerts ?? summarizeAlerts(observed.control.alerts, from),
			board: {
				...(board ?? UNCHECKED_BOARD),
				compared_on: CONTROL_BOARD_COLUMNS,
				equal_after_s: boardEqualAt === null ? null : seconds(boardEqualAt - from),
			},
		},
	};
}

/** Notification ids each trigger put on its items, per execution, for the executions `ids`. */
async function notificationsRun(
	rig: Rig,
	example: Example,
	ids: string[],
): Promise<Map<string, number>> {
	const runs = new Map<string, number>();
	for (const id of ids) {
		const result = await readExecution(rig, id);
		const items = result?.runData?.[example.trigger.name]?.[0]?.data?.main?.[0] ?? [];
		// One id per item, or several on an item of Output → Latest State per Container.
		const once = new Set<string>(
			items.flatMap((item: Json) =>
				Array.isArray(item.json?.notification_ids)
					? (item.json.notification_ids as unknown[]).map(String)
					: [String(item.json?.notification_id)],
			),
		);
		for (const notification of once) runs.set(notification, (runs.get(notification) ?? 0) + 1);
	}
	return runs;
}

async function runCatchUp(rig: Rig): Promise<Record<string, unknown>> {
	// Three container.updated notifications a customs hold, to each workflow subscribed to it.
	const subscribed = [rig.holdAlerts, rig.board].filter((example) =>
		example.trigger.events.includes('container.updated'),
	).length;
	const { containerIds, numbers } = await trackBoxes(
		rig,
		Math.ceil(CATCH_UP_NOTIFICATIONS / (3 * subscribed)),
	);
	await rig.deployment.stopN8n();
	const settings = await call(`${rig.sandbox.controlUrl}/webhook_settings`, 'GET');
	// 12 retries from 2 ms, doubling: the service gives up on each notification within 10 s.
	await call(`${rig.sandbox.controlUrl}/webhook_settings`, 'PATCH', { retry_base_seconds: 0.002 });
	await resetCounters(rig);
	const holds = await call(`${rig.sandbox.controlUrl}/scenarios/customs_hold`, 'POST', {
		container_ids: containerIds,
		spread_seconds: BURST.spreadSeconds,
		gap_seconds: BURST.holdGapSeconds,
	});
	await sleep(holds.ends_in_seconds * 1000);
	let stats: Json;
	for (let waited = 0; ; waited += 1000) {
		stats = await call(`${rig.sandbox.controlUrl}/stats`, 'GET');
		const pending = workflowWebhookIds(rig).reduce(
			(sum, id) => sum + (stats.webhooks[id]?.notifications.pending ?? 0),
			0,
		);
		if (pending === 0) break;
		if (waited > 120_000) throw new Error(`${pending} notifications still pending after 2 minutes`);
		await sleep(1000);
	}
	await call(`${rig.sandbox.controlUrl}/webhook_settings`, 'PATCH', {
		retry_base_seconds: settings.retry_base_seconds,
	});
	const failed = (id: string | undefined) =>
		id ? (stats.webhooks[id]?.notifications.failed ?? 0) : undefined;
	const missed = {
		hold_alerts: failed(rig.webhookIds.holdAlerts)!,
		pickup_board: failed(rig.webhookIds.board)!,
		// The control's are lost: nothing sends them again.
		...(rig.control
			? {
					control_hold_alerts: failed(rig.webhookIds.controlHoldAlerts),
					control_board: failed(rig.webhookIds.controlBoard),
				}
			: {}),
	};
	say(
		`${rig.mode}: n8n down, ${missed.hold_alerts + missed.pickup_board} notifications failed; starting n8n`,
	);

	const guard = new MemoryGuard(rig);
	const sampler = new ProcessSampler(guard.check);
	sampler.start();
	const started = Date.now();
	await rig.deployment.start();
	const ready = Date.now();
	const changes = emailedChanges(rig.holdAlerts);
	const observed = await observe(
		rig,
		numbers,
		started,
		started + CATCH_UP_LIMIT_MINUTES * 60_000,
		changes,
		sampler,
		guard,
	);
	sampler.stop();
	const usage = sampler.summary();
	const { figures, executionIds } = await finalFigures(rig, started);

	// Which missed notifications ran, and how often: from the log's failed notifications and the
	// trigger items of every execution since n8n started.
	const log = await readList(rig.sandbox, '/webhook_notifications');
	const ranOnce = async (example: Example, webhookId: string, ids: string[]) => {
		const failed = log.data.filter(
			(record) =>
				(record.relationships?.webhook?.data as { id: string } | undefined)?.id === webhookId &&
				record.attributes?.delivery_status === 'failed',
		);
		// Only notifications the trigger makes items of start the workflow (the hold alerts take
		// hold changes only): told by the receiver's copy of the same notification.
		const twin = new Map<string, Json>();
		for (const delivery of rig.receiver.deliveries) {
			const reference = delivery.body?.data?.relationships?.reference_object?.data?.id;
			twin.set(`${delivery.body?.data?.attributes?.event}:${reference}`, delivery.body);
		}
		const runnable = failed.filter((record) => {
			const reference = (record.relationships?.reference_object?.data as { id: string }).id;
			const copy = twin.get(`${record.attributes?.event}:${reference}`);
			return copy !== undefined && triggerItems(example, copy).length > 0;
		});
		const runs = await notificationsRun(rig, example, ids);
		return {
			missed: failed.length,
			missed_that_start_the_workflow: runnable.length,
			ran: runnable.filter((record) => (runs.get(record.id) ?? 0) >= 1).length,
			ran_more_than_once: runnable.filter((record) => (runs.get(record.id) ?? 0) > 1).length,
		};
	};
	const notifications = {
		hold_alerts: await ranOnce(rig.holdAlerts, rig.webhookIds.holdAlerts, executionIds.holdAlerts),
		pickup_board: await ranOnce(rig.board, rig.webhookIds.board, executionIds.board),
	};
	return {
		scenario: 'catch_up',
		n: containerIds.length,
		missed,
		n8n_ready_after_s: seconds(ready - started),
		ended: observed.ended,
		time_limit_minutes: CATCH_UP_LIMIT_MINUTES,
		alerts: summarizeAlerts(observed.alerts, started),
		board: {
			...observed.board,
			equal_after_s:
				observed.boardEqualAt === null ? null : seconds(observed.boardEqualAt - started),
			checked_every_s: BOARD_CHECK_MS / 1000,
		},
		notifications_run: notifications,
		...controlFigures(rig, observed, null, started),
		pending_at_end: observed.pendingAtEnd,
		board_check_errors: observed.boardCheckErrors,
		...figures,
		usage,
		timeline: observed.timeline,
	};
}

// ------------------------------------------------------------------------------ main

function git(args: string[]): string {
	try {
		return execFileSync('git', args, { cwd: REPO, encoding: 'utf8' }).trim();
	} catch {
		return '';
	}
}

const MODE_NAMES: Record<string, string> = {
	single: 'one n8n (SQLite)',
	queue: 'queue mode (main, webhook process, 2 workers; Postgres, Redis)',
};

/** The rig of the run under way: stopped whatever ends the bench, Ctrl-C included. */
let current: Rig | undefined;

for (const signal of ['SIGINT', 'SIGTERM'] as const)
	process.once(signal, () => {
		say(`${signal}: stopping n8n, the sandbox and the mail server`);
		void (current ? tearDown(current) : Promise.resolve()).finally(() => process.exit(130));
	});

async function main() {
	const scripts = await n8nScripts();
	// What was measured: the nodes (dist is built from them at this commit: npm run bench:burst
	// builds first) and the examples, as the last commit that changed them left them.
	const product = ['nodes', 'credentials', 'examples'];
	const commit = `${git(['rev-parse', '--short', 'HEAD'])}, product code of ${git(['log', '-1', '--format=%h %cs', '--', ...product])}`;
	const dirty = git(['status', '--porcelain', '--', ...product]) !== '';
	const runs: RunFigures[] = [];
	const plan: Array<{ scenario: string; mode: string; n: number | null }> = [];
	for (const scenario of SCENARIOS)
		for (const mode of MODES)
			if (BURSTS.includes(scenario)) for (const n of SIZES) plan.push({ scenario, mode, n });
			else plan.push({ scenario, mode, n: null });
	for (const { scenario, mode, n } of plan) {
		say(`${scenario} in ${MODE_NAMES[mode] ?? mode}${n === null ? '' : `, N=${n}`}`);
		const measuredAt = new Date().toISOString();
		const profileDir =
			CPU_PROFILE_DIR &&
			path.join(
				CPU_PROFILE_DIR,
				`${scenario}-${mode}${n === null ? '' : `-${n}`}-${measuredAt.replace(/[:.]/g, '-')}`,
			);
		const rig = await setUp(mode, profileDir);
		current = rig;
		try {
			const figures = BURSTS.includes(scenario)
				? await runBurst(rig, n!, scenario)
				: await runCatchUp(rig);
			runs.push({
				// A kill at another moment than the default is a column of its own.
				key: `${scenario} ${mode}${n === null ? '' : ` ${n}`}${scenario in FAULTS && KILL_AFTER_S !== DEFAULT_KILL_AFTER_S ? ` after ${KILL_AFTER_S} s` : ''}${scenario in FAULTS && mode === 'queue' && rig.deployment.killTarget !== DEFAULT_KILLED_PROCESS ? ` to ${rig.deployment.killTarget}` : ''}${SETTINGS ? ` ${SETTINGS}` : ''}${VARIANT ? ` ${VARIANT}` : ''}`,
				scenario,
				mode,
				settings: SETTINGS,
				...(VARIANT ? { variant: VARIANT } : {}),
				deployment: MODE_NAMES[mode] ?? mode,
				measured_at: measuredAt,
				commit: `${commit}${dirty ? ' with uncommitted changes' : ''}`,
				...figures,
			} as RunFigures);
		} catch (error) {
			say(`${scenario} ${mode}: ${(error as Error).stack ?? String(error)}`);
			say(`sandbox log:\n${rig.sandbox.log().slice(-3000)}`);
			throw error;
		} finally {
			current = undefined;
			if (profileDir) for (const [pid, name] of n8nProcessNames()) rig.processNames.set(pid, name);
			await tearDown(rig);
		}
		// n8n writes its profiles as it exits: read once it has.
		if (profileDir) {
			const summary = summarizeProfiles(profileDir, { names: rig.processNames });
			runs[runs.length - 1].cpu_profile = summary;
			say(
				`CPU profiles in ${profileDir}: ${summary.profiles.length}, ${summary.busy_s} s busy; first: ${summary.top
					.slice(0, 3)
					.map((entry) => `${entry.function} (${entry.url}) ${entry.share} %`)
					.join(', ')}`,
			);
		}
		// Written after every run, so that a long run interrupted keeps what it measured.
		write(runs, scripts.N8N_VERSION);
	}
}

function write(runs: RunFigures[], n8nVersion: string) {
	const dir = path.join(__dirname, 'results');
	mkdirSync(dir, { recursive: true });
	const file = path.join(dir, 'burst.json');
	let previous: RunFigures[] = [];
	try {
		previous = (JSON.parse(readFileSync(file, 'utf8')) as BurstResults).runs;
	} catch {
		// No earlier figures.
	}
	const results: BurstResults = {
		written_at: new Date().toISOString(),
		setup: {
			n8n: n8nVersion,
			node: process.version,
			cpus: os.cpus().length,
			cpu_model: os.cpus()[0]?.model ?? 'unknown',
			memory_gb: Math.round(os.totalmem() / 2 ** 30),
		},
		targets: {
			attempts_per_notification: TARGETS.attemptsPerNotification,
			minutes_n150: TARGETS.minutesFor(150),
			minutes_n500: TARGETS.minutesFor(500),
			failed_executions: TARGETS.failedExecutions,
			peak_memory_gb: TARGETS.peakMemoryBytes / 2 ** 30,
			catch_up_minutes: TARGETS.catchUpMinutes,
			after_kill_minutes: TARGETS.afterKillMinutes,
		},
		// A run of some parts keeps the other parts' last figures.
		runs: [...previous.filter((old) => !runs.some((fresh) => fresh.key === old.key)), ...runs],
	};
	writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
	writeFileSync(path.join(dir, 'burst.md'), writeBurstReport(results));
}

main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});

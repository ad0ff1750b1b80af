#!/usr/bin/env node
// Screenshots of the nodes in the n8n editor for the README, taken from the running demo
// (`scripts/start.mjs`) with headless Chromium (Debian's `chromium`, driven by playwright-core).
//
//   node_modules/.bin/node scripts/screenshots.mjs [--skip-build] [--out docs/screenshots]
//                                                   [--chromium /usr/bin/chromium]
//
// It builds the package, starts the demo on free ports in a temporary folder, signs in through
// the editor, saves five 1440×900 PNGs and stops the demo again (SIGTERM), checking that its
// ports are free afterwards. For Container → Get it adds a scratch workflow through the REST
// API and plays a last free day and fees onto that container in the sandbox. A run takes 70 to
// 90 s (about 30 s of it building and starting the demo); it waits up to 150 s more if the
// sandbox has not yet played a hold into the Hold alerts workflow (the first scenario is one).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { chromium } from 'playwright-core';

import { freePort, login, portInUse, repoRoot } from './lib/n8n.mjs';

const OWNER = { email: 'demo@example.com', password: 'Demo-password-1' };
const SANDBOX_API_KEY = 'sandbox-key';
const CREDENTIAL = { id: 'ctSandboxCredential', name: 'Container Tracking sandbox' };
const HOLD_ALERTS = {
	id: 'ctHoldAlerts',
	trigger: 'Container hold changed',
	last: 'Append to hold-alerts.log',
};
const BULK_TRACKING = { id: 'ctBulkTracking' };
const VIEWPORT = { width: 1440, height: 900 };
// Without the background-networking flags Chromium's own connections are refused by a closed
// network and slow everything down.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const started = Date.now();
let interrupted = false;

function say(message) {
	const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(3);
	process.stdout.write(`[screenshots ${seconds} s] ${message}\n`);
}

function options() {
	const { values } = parseArgs({
		options: {
			'skip-build': { type: 'boolean', default: false },
			out: { type: 'string', default: path.join(repoRoot, 'docs', 'screenshots') },
			chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) {
		process.stdout.write(
			'Usage: node_modules/.bin/node scripts/screenshots.mjs [--skip-build] [--out <folder>] [--chromium <path>]\n',
		);
		process.exit(0);
	}
	return {
		skipBuild: values['skip-build'],
		outDir: path.resolve(values.out),
		chromiumPath: values.chromium,
	};
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function runBuild() {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', 'build'], {
			cwd: repoRoot,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolve()
				: reject(new Error(`npm run build failed (exit ${code}):\n${output.slice(-3000)}`)),
		);
	});
}

/** `node scripts/start.mjs` on the given ports; resolves with the editor URL once it is running. */
function startDemo({ n8nPort, sandboxPort, demoDir }) {
	const child = spawn(
		process.execPath,
		[
			path.join(repoRoot, 'scripts', 'start.mjs'),
			'--n8n-port',
			String(n8nPort),
			'--sandbox-port',
			String(sandboxPort),
			'--demo-dir',
			demoDir,
		],
		{ cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	// 'close', not 'exit': its last lines ("stopped; nothing left running") are read by then.
	const exited = new Promise((resolve) =>
		child.once('close', (code, signal) => resolve({ code, signal })),
	);
	let output = '';
	const ready = new Promise((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`the demo did not start within 5 minutes:\n${output.slice(-3000)}`)),
			300_000,
		);
		const read = (chunk) => {
			const text = chunk.toString();
			output += text;
			for (const line of text.split('\n'))
				if (line.startsWith('[')) process.stdout.write(`  ${line}\n`);
			const match =
				/Container tracking demo is running\.[\s\S]*?n8n editor\s+(\S+)[\s\S]*?sandbox\s+(\S+)/.exec(
					output,
				);
			if (match) {
				clearTimeout(timer);
				resolve({ editorUrl: match[1], sandboxUrl: match[2] });
			}
		};
		child.stdout.on('data', read);
		child.stderr.on('data', read);
		exited.then(({ code, signal }) => {
			clearTimeout(timer);
			reject(
				new Error(
					`the demo exited (${signal ?? code}) before it was running:\n${output.slice(-3000)}`,
				),
			);
		});
	});
	return {
		ready,
		/** SIGTERM: start.mjs stops n8n and the sandbox, then exits. */
		async stop() {
			if (child.exitCode !== null || child.signalCode !== null) return;
			child.kill('SIGTERM');
			let timer;
			const result = await Promise.race([
				exited,
				new Promise((resolve) => (timer = setTimeout(resolve, 60_000, null))),
			]);
			clearTimeout(timer);
			if (result === null) {
				say(`the demo (pid ${child.pid}) did not stop within 60 s; killing it`);
				child.kill('SIGKILL');
				await exited;
			}
		},
	};
}

/** The n8n REST API with the owner's cookie (a Node-side session, separate from the browser's). */
async function restClient(baseUrl) {
	const cookie = await login(baseUrl, OWNER.email, OWNER.password);
	return async (method, pathname, body) => {
		const response = await fetch(`${baseUrl}/rest${pathname}`, {
			method,
			headers: { cookie, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} /rest${pathname}: ${response.status} ${text.slice(0, 500)}`);
		return JSON.parse(text).data;
	};
}

/** The node an execution ended on, read from its `flatted` run data. */
function lastNodeExecuted(execution) {
	try {
		const table = JSON.parse(execution.data);
		const resultData = table[Number(table[0].resultData)];
		return table[Number(resultData.lastNodeExecuted)] ?? null;
	} catch {
		return null;
	}
}

/**
 * The latest successful Hold alerts execution that went all the way to the log file (a hold
 * placed or activated), waiting for the sandbox's scenarios to produce one. After `timeoutMs`
 * any successful execution will do.
 */
async function holdAlertExecution(rest, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	const seen = new Map();
	for (;;) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: HOLD_ALERTS.id }));
		const list = await rest('GET', `/executions?filter=${filter}&limit=20`);
		const successes = (list.results ?? []).filter((execution) => execution.status === 'success');
		for (const execution of successes) {
			if (!seen.has(execution.id))
				seen.set(execution.id, lastNodeExecuted(await rest('GET', `/executions/${execution.id}`)));
			if (seen.get(execution.id) === HOLD_ALERTS.last) return execution.id;
		}
		if (Date.now() > deadline) {
			if (successes.length > 0) return successes[0].id;
			throw new Error(
				`no execution of the Hold alerts workflow within ${Math.round(timeoutMs / 1000)} s`,
			);
		}
		await sleep(3000);
	}
}

/** A scratch workflow: Manual Trigger → Container Tracking on Container → Get. */
async function createContainerGetWorkflow(rest, containerId) {
	const workflow = await rest('POST', '/workflows', {
		name: 'Get one container',
		nodes: [
			{
				id: 'd5a1b3c2-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'd5a1b3c2-0000-4000-8000-000000000002',
				name: 'Get container',
				type: 'n8n-nodes-container-tracking.containerTracking',
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'container',
					operation: 'get',
					containerId,
					options: { include: ['shipment', 'pod_terminal'] },
				},
				credentials: { containerTrackingApi: CREDENTIAL },
			},
		],
		connections: { Start: { main: [[{ node: 'Get container', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	return workflow.id;
}

/**
 * The container to show in Container → Get (the execution's, else any the sandbox tracks), with
 * a last free day and fees played onto it at once through the sandbox's control API, so that the
 * worked-out fields of the output have values rather than nulls.
 */
async function prepareContainer(sandboxUrl, preferredId) {
	const headers = { Authorization: `Token ${SANDBOX_API_KEY}`, 'Content-Type': 'application/json' };
	const response = await fetch(`${sandboxUrl}/containers?page[size]=100`, { headers });
	const containers = (await response.json()).data ?? [];
	const container = containers.find((item) => item.id === preferredId) ?? containers[0];
	if (!container) throw new Error('the sandbox tracks no containers');
	const controlUrl = sandboxUrl.replace(/\/v2$/, '/_sandbox');
	for (const scenario of ['last_free_day_changes', 'demurrage']) {
		const played = await fetch(`${controlUrl}/containers/${container.id}/scenarios/${scenario}`, {
			method: 'POST',
			headers,
			body: JSON.stringify({ gap_seconds: 0 }),
		});
		if (!played.ok)
			say(`warning: the sandbox did not play ${scenario}: ${played.status} ${await played.text()}`);
	}
	return container.id;
}

/** The trigger item's container_id in an execution's run data, if there is one. */
async function containerOfExecution(rest, executionId) {
	const execution = await rest('GET', `/executions/${executionId}`);
	const match = /"container_id":"(\d+)"/.exec(execution.data);
	if (!match) return null;
	const table = JSON.parse(execution.data);
	const value = table[Number(match[1])];
	return typeof value === 'string' ? value : null;
}

// ---- the editor ----------------------------------------------------------------------------

const byTestId = (page, id) => page.locator(`[data-test-id="${id}"]`);
const canvasNode = (page, name) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

/** Closes onboarding, "what's new" and survey dialogs and toasts, if any are showing. */
async function dismissPopups(page) {
	for (let round = 0; round < 3; round++) {
		const closers = page.locator(
			[
				'.el-overlay:visible .el-dialog__headerbtn',
				'.el-message-box__headerbtn:visible',
				'.el-notification:visible .el-notification__closeBtn',
				'[data-test-id="version-updates-panel"]:visible [aria-label="Close"]',
			].join(', '),
		);
		const count = await closers.count();
		if (count === 0) return;
		for (let index = count - 1; index >= 0; index--)
			await closers
				.nth(index)
				.click({ timeout: 2000 })
				.catch(() => undefined);
		await page.waitForTimeout(400);
	}
}

/** Mouse out of the way (no hover toolbars), popups closed, then the PNG. */
async function shoot(page, outDir, name, { check } = {}) {
	await dismissPopups(page);
	await page.mouse.move(720, 893);
	await page.waitForTimeout(600);
	if (new URL(page.url()).pathname.startsWith('/signin'))
		throw new Error(`${name}: the editor shows the sign-in page`);
	if (check) await check();
	const file = path.join(outDir, name);
	await page.screenshot({ path: file });
	say(`saved ${path.relative(repoRoot, file)}`);
}

async function signIn(page, editorUrl) {
	await page.goto(`${editorUrl}/signin`);
	await byTestId(page, 'emailOrLdapLoginId').locator('input').fill(OWNER.email);
	await byTestId(page, 'password').locator('input').fill(OWNER.password);
	await byTestId(page, 'form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
	say('signed in through the editor');
}

async function openWorkflow(page, editorUrl, workflowId) {
	await page.goto(`${editorUrl}/workflow/${workflowId}`);
	await byTestId(page, 'canvas-node').first().waitFor({ timeout: 60_000 });
	// The canvas fits the view after the nodes are drawn.
	await page.waitForTimeout(1500);
	await dismissPopups(page);
}

async function openNode(page, name) {
	await canvasNode(page, name).dblclick();
	await byTestId(page, 'ndv').waitFor({ timeout: 30_000 });
	await page.waitForTimeout(800);
}

async function closeNode(page) {
	await byTestId(page, 'ndv-close-button').click();
	await byTestId(page, 'ndv').waitFor({ state: 'hidden' });
}

async function main() {
	const { skipBuild, outDir, chromiumPath } = options();
	mkdirSync(outDir, { recursive: true });
	const demoDir = mkdtempSync(path.join(os.tmpdir(), 'ct-screenshots-demo-'));
	const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'ct-screenshots-chromium-'));
	const n8nPort = await freePort();
	let sandboxPort = await freePort();
	while (sandboxPort === n8nPort) sandboxPort = await freePort();

	let demo = null;
	let context = null;
	// One clean-up, whether the run ends, fails or is interrupted: browser, demo, temporary folders.
	let cleaning = null;
	const cleanUp = () =>
		(cleaning ??= (async () => {
			if (context) await context.close().catch(() => undefined);
			if (demo) {
				say('stopping the demo (SIGTERM)');
				await demo.stop();
				for (const port of [n8nPort, sandboxPort]) {
					if (await portInUse(port))
						say(`warning: port ${port} is still in use after the demo stopped`);
				}
			}
			rmSync(userDataDir, { recursive: true, force: true });
			rmSync(demoDir, { recursive: true, force: true });
		})());
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, async () => {
			interrupted = true;
			say(`${signal}: cleaning up`);
			await cleanUp().catch((error) => say(`clean-up failed: ${error.message}`));
			process.exit(130);
		});
	}

	try {
		if (skipBuild) say('skipping the build (--skip-build)');
		else {
			say('building the package (npm run build)');
			await runBuild();
		}
		say(`starting the demo: n8n on port ${n8nPort}, sandbox on port ${sandboxPort}`);
		demo = startDemo({ n8nPort, sandboxPort, demoDir });
		const { editorUrl, sandboxUrl } = await demo.ready;
		say(`the demo is running at ${editorUrl}`);
		const rest = await restClient(editorUrl);

		context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: chromiumPath,
			headless: true,
			args: CHROMIUM_ARGS,
			// This script stops the browser itself, after the demo (Playwright's own handlers
			// would exit the process as soon as the browser is closed).
			handleSIGINT: false,
			handleSIGTERM: false,
			handleSIGHUP: false,
			viewport: VIEWPORT,
			deviceScaleFactor: 1,
			locale: 'en-US',
			timezoneId: 'UTC',
		});
		context.setDefaultTimeout(30_000);
		const page = context.pages()[0] ?? (await context.newPage());
		await signIn(page, editorUrl);

		// 1. The Hold alerts canvas.
		await openWorkflow(page, editorUrl, HOLD_ALERTS.id);
		await shoot(page, outDir, 'hold-alerts-workflow.png', {
			check: () => canvasNode(page, HOLD_ALERTS.trigger).waitFor(),
		});

		// 2. The trigger's parameters: registration, events, options.
		await openNode(page, HOLD_ALERTS.trigger);
		await shoot(page, outDir, 'trigger-node.png', {
			check: async () => {
				await byTestId(page, 'parameter-input-registration').waitFor();
				await byTestId(page, 'parameter-input-events').waitFor();
			},
		});
		await closeNode(page);

		// 3. The bulk tracking canvas.
		await openWorkflow(page, editorUrl, BULK_TRACKING.id);
		await shoot(page, outDir, 'bulk-tracking-workflow.png', {
			check: () => canvasNode(page, 'Infer carrier and number type').waitFor(),
		});

		// 4. An execution of Hold alerts: Executions tab → the execution → the trigger's output.
		say('waiting for the sandbox to play a hold scenario into the Hold alerts workflow');
		const executionId = await holdAlertExecution(rest, 150_000);
		say(`showing execution ${executionId}`);
		await openWorkflow(page, editorUrl, HOLD_ALERTS.id);
		await byTestId(page, 'radio-button-executions').click();
		await byTestId(page, 'executions-sidebar').waitFor();
		const entry = byTestId(page, `execution-details-${executionId}`);
		if (await entry.isVisible().catch(() => false)) await entry.click();
		else await page.goto(`${editorUrl}/workflow/${HOLD_ALERTS.id}/executions/${executionId}`);
		await byTestId(page, `execution-preview-details-${executionId}`).waitFor();
		await canvasNode(page, HOLD_ALERTS.trigger).waitFor();
		await page.waitForTimeout(1500);
		await dismissPopups(page);
		await openNode(page, HOLD_ALERTS.trigger);
		await byTestId(page, 'output-panel').locator('[data-test-id="radio-button-json"]').click();
		await shoot(page, outDir, 'trigger-output.png', {
			check: () => byTestId(page, 'output-panel').getByText('"container_number"').first().waitFor(),
		});
		await closeNode(page);

		// 5. Container → Get, run on a container of the sandbox so its output is shown too.
		const containerId = await prepareContainer(
			sandboxUrl,
			await containerOfExecution(rest, executionId),
		);
		const scratchId = await createContainerGetWorkflow(rest, containerId);
		await openWorkflow(page, editorUrl, scratchId);
		await openNode(page, 'Get container');
		await byTestId(page, 'ndv').locator('[data-test-id="node-execute-button"]').first().click();
		await byTestId(page, 'node-run-status-success').waitFor({ timeout: 60_000 });
		await byTestId(page, 'output-panel').locator('[data-test-id="radio-button-json"]').click();
		await page.waitForTimeout(800);
		// The worked-out answers (pickup status, fees, last free day) close the item: show the end.
		// The JSON view is a virtual list that grows as it scrolls: scroll until the end stays put.
		await page.evaluate(async () => {
			const tree = document.querySelector('[data-test-id="output-panel"] .vjs-tree');
			if (!tree) return;
			for (let round = 0, last = -1; round < 20 && tree.scrollTop !== last; round++) {
				last = tree.scrollTop;
				tree.scrollTop = tree.scrollHeight;
				await new Promise((resolve) => setTimeout(resolve, 150));
			}
		});
		await shoot(page, outDir, 'container-get-node.png', {
			check: async () => {
				await byTestId(page, 'parameter-input-containerId').waitFor();
				await byTestId(page, 'output-panel').getByText('"pickup_status"').first().waitFor();
			},
		});
	} finally {
		await cleanUp();
	}
	say(
		`done in ${Math.round((Date.now() - started) / 1000)} s; screenshots in ${path.relative(repoRoot, outDir) || outDir}`,
	);
}

main().catch((error) => {
	if (interrupted) return; // the signal handler exits once everything is stopped
	process.stderr.write(`[screenshots] ${error.stack ?? error.message}\n`);
	process.exit(1);
});

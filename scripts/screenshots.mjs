#!/usr/bin/env node
// Screenshots of the nodes in the n8n editor for the README and docs/screenshots.md, taken from the running demo
// (`scripts/start.mjs`) with headless Chromium (Debian's `chromium`, driven by playwright-core).
//
//   node_modules/.bin/node scripts/screenshots.mjs [--skip-build] [--out docs/screenshots]
//                                                   [--chromium /usr/bin/chromium]
//
// It builds the package, starts the demo on free ports in a temporary folder, signs in through
// the editor, saves fourteen 1440×900 PNGs and stops the demo again (SIGTERM), checking that its
// ports are free afterwards. For Container → Get it adds a scratch workflow through the REST API,
// plays a last free day and fees onto that container in the sandbox, and picks the container
// from the Container field's list by typing part of its number; for Container → Get Many and for
// the Pickup board example's rows it adds others and shows each run's output in the logs panel's
// Table view, at 75 % browser zoom so that the columns fit side by side; the digest's Get Many
// shows its filters. Two shots are of the
// demo's mail inbox (a hold alert; the last free day digest, sent by hand once a box on a ship is
// due tomorrow), one of the Pickup board's Data Table once the demo has written three rows; last,
// the credential. A run takes 150 to 300 s on a busy two-CPU machine (50 to 100 s of it building
// and starting the demo); it waits up to 150 s more if the sandbox has not yet played a hold
// into the Hold alerts workflow (the first scenario is one).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import {
	dataTableByName,
	freePort,
	login,
	portInUse,
	repoRoot,
	restCall,
	runWorkflowByHand,
} from './lib/n8n.mjs';
import {
	byTestId,
	canvasNode,
	closeNode,
	dismissPopups,
	launchBrowser,
	openNode,
	VIEWPORT,
} from './lib/editor.mjs';
import { inboxEmails } from './lib/mail.mjs';
import { pickupBoardTable } from './lib/pickupBoardTable.mjs';
import { ALERT_ROUTING_TABLE } from './lib/alertRoutingTable.mjs';

const OWNER = { email: 'demo@example.com', password: 'Demo-password-1' };
const SANDBOX_API_KEY = 'sandbox-key';
const CREDENTIAL = { id: 'ctSandboxCredential', name: 'Container Tracking sandbox' };
const HOLD_ALERTS = {
	id: 'ctHoldAlerts',
	trigger: 'Container hold changed',
	last: 'Email: hold placed',
};
const BULK_TRACKING = { id: 'ctBulkTracking' };
const DIGEST = {
	id: 'ctLastFreeDayDigest',
	trigger: 'Send the digest now',
	getMany: 'Containers needing attention',
};
// The Table view gives each column the width of its name at least: the worked-out columns from
// current_status to last_free_day_facility need some 1,500 px, more than any output pane has at
// 100 %.
// At 75 % browser zoom (the page laid out 1920 px wide, captured at 1440) they fit, with the
// container number beside them (the logs panel's list of nodes narrowed as far as that takes).
const TABLE_ZOOM = 0.75;
const WORKED_OUT_COLUMNS = [
	'current_status',
	'customer_name',
	'bill_of_lading_number',
	'shipment_ref_numbers',
	'ready_for_pickup',
	'pickup_status',
];
const BOARD_COLUMNS = [
	'readiness',
	'ready_for_pickup',
	'last_free_day',
	'days_left',
	'last_free_day_at',
	'last_free_day_time_zone',
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
			// The whole summary, so that no address is read half printed.
			const match =
				/Container tracking demo is running\.[\s\S]*?n8n editor\s+(\S+)[\s\S]*?Press Ctrl-C/.exec(
					output,
				);
			if (match) {
				clearTimeout(timer);
				const inbox = /mail inbox\s+(\S+)/.exec(output);
				// The sandbox's address: demo.json, written before the summary (for demo:hold too).
				const { sandboxUrl } = JSON.parse(readFileSync(path.join(demoDir, 'demo.json'), 'utf8'));
				resolve({ editorUrl: match[1], sandboxUrl, inboxUrl: inbox?.[1] ?? null });
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

/**
 * The n8n REST API with the owner's cookie (a Node-side session, separate from the browser's):
 * `rest(method, pathname, body)`, and `rest.cookie` for the helpers of scripts/lib/n8n.mjs.
 */
async function restClient(baseUrl) {
	const cookie = await login(baseUrl, OWNER.email, OWNER.password);
	const rest = (method, pathname, body) => restCall(baseUrl, cookie, method, pathname, body);
	rest.cookie = cookie;
	return rest;
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

/** The first email in the mail inbox (its REST API) whose subject matches, waiting for it. */
async function emailInInbox(inboxUrl, subject, what, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const emails = await inboxEmails(inboxUrl);
		const found = emails.find((email) => subject.test(email.subject));
		if (found) return found;
		if (Date.now() > deadline)
			throw new Error(`no ${what} in the mail inbox within ${Math.round(timeoutMs / 1000)} s`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/**
 * Moves the line's last free day of a box still on its way to tomorrow at its port, as a line
 * would: the demo's boxes are due in three days or more, and the digest lists those due within
 * two. Returns its number.
 */
async function dueTomorrow(sandboxUrl) {
	const headers = { Authorization: `Token ${SANDBOX_API_KEY}`, 'Content-Type': 'application/json' };
	const response = await fetch(`${sandboxUrl}/containers?page[size]=100`, { headers });
	const containers = (await response.json()).data ?? [];
	const box = containers.find((item) => item.attributes?.current_status === 'on_ship');
	if (!box) throw new Error('the sandbox has no container on a ship for the digest');
	const tomorrow = new Intl.DateTimeFormat('en-CA', {
		timeZone: box.attributes.pod_timezone,
	}).format(new Date(Date.now() + 24 * 3600 * 1000));
	const controlUrl = sandboxUrl.replace(/\/v2$/, '/_sandbox');
	const changed = await fetch(`${controlUrl}/containers/${box.id}/changes`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ kind: 'set_last_free_day', source: 'line', date: tomorrow }),
	});
	if (!changed.ok) throw new Error(`the sandbox did not move the last free day: ${changed.status}`);
	return box.attributes.number;
}

/**
 * The latest successful Hold alerts execution that went all the way to its email (a hold
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

/**
 * The demo's Pickup board Data Table (created by scripts/lib/pickupBoardTable.mjs) once the
 * published Pickup board example has written `rows` rows into it.
 */
async function pickupBoardWithRows(rest, rows, timeoutMs) {
	const { name } = pickupBoardTable();
	const project = await rest('GET', '/projects/personal');
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const tables = await rest('GET', `/projects/${project.id}/data-tables`);
		const table = tables.data.find((entry) => entry.name === name);
		const written = table
			? (await rest('GET', `/projects/${project.id}/data-tables/${table.id}/rows?take=1`)).count
			: 0;
		if (written >= rows) return { projectId: project.id, tableId: table.id };
		if (Date.now() > deadline)
			throw new Error(`the data table "${name}" had ${written} rows after ${timeoutMs / 1000} s`);
		await sleep(2000);
	}
}

/** A Container Tracking node named `name` with `parameters`, on the sandbox credential. */
function containerTrackingNode(name, parameters) {
	return {
		name,
		type: 'n8n-nodes-container-tracking.containerTracking',
		typeVersion: 1,
		parameters,
		credentials: { containerTrackingApi: CREDENTIAL },
	};
}

/** A scratch workflow: Manual Trigger → `chain`, one node after the other. */
async function createScratchWorkflow(rest, { name, chain }) {
	const nodes = [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
		...chain,
	].map((node, index) => ({
		...node,
		id: `d5a1b3c2-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
		position: [index * 240, 0],
	}));
	const connections = Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((node, index) => [
				node.name,
				{ main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	const workflow = await rest('POST', '/workflows', {
		name,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	});
	return workflow.id;
}

/** The Pickup board example's nodes that read the containers and shape the board's rows. */
function pickupBoardRows() {
	const example = JSON.parse(
		readFileSync(path.join(repoRoot, 'examples', 'pickup-board.json'), 'utf8'),
	);
	return ['Get all containers', 'Board columns'].map((name) => {
		const { type, typeVersion, parameters } = example.nodes.find((node) => node.name === name);
		// The columns that name the example's other nodes (state_as_of reads Every hour's time)
		// would fail here, where those nodes do not exist; the shot shows neither.
		const assignments = parameters.assignments?.assignments?.filter(
			(assignment) => !String(assignment.value).includes("$('"),
		);
		return {
			name,
			type,
			typeVersion,
			parameters: assignments ? { ...parameters, assignments: { assignments } } : parameters,
			credentials: { containerTrackingApi: CREDENTIAL },
		};
	});
}

/**
 * What a person types into the Container field's search to find `number`: its first six
 * characters, or a shorter start (down to the four-letter owner code) that other containers have
 * too, so that the list shows more than one match.
 */
function searchTextFor(number, numbers) {
	for (let length = 6; length >= 4; length--) {
		const start = number.slice(0, length);
		if (numbers.filter((other) => other.includes(start)).length > 1) return start;
	}
	return number.slice(0, 6);
}

/**
 * The container to show in Container → Get, with a last free day and fees played onto it at once
 * through the sandbox's control API, so that the worked-out fields of the output have values
 * rather than nulls. It is the execution's container (`preferredId`) when another container's
 * number shares its start, so that the list searched for it shows more than one match; else one
 * whose number does; else the execution's or any. Returns its id, its number and what to type to
 * find it in the Container field's list.
 */
async function prepareContainer(sandboxUrl, preferredId) {
	const headers = { Authorization: `Token ${SANDBOX_API_KEY}`, 'Content-Type': 'application/json' };
	const response = await fetch(`${sandboxUrl}/containers?page[size]=100`, { headers });
	const containers = (await response.json()).data ?? [];
	const numbered = containers.filter((item) => typeof item.attributes?.number === 'string');
	const numbers = numbered.map((item) => item.attributes.number);
	const sharesItsStart = (item) => {
		const search = searchTextFor(item.attributes.number, numbers);
		return numbers.filter((number) => number.includes(search)).length > 1;
	};
	const preferred = numbered.find((item) => item.id === preferredId);
	const container =
		(preferred && sharesItsStart(preferred) ? preferred : undefined) ??
		numbered.find(sharesItsStart) ??
		preferred ??
		numbered[0];
	if (!container) throw new Error('the sandbox tracks no containers with a number');
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
	const number = container.attributes.number;
	return { id: container.id, number, search: searchTextFor(number, numbers) };
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

/**
 * Mouse out of the way (no hover toolbars), popups closed, then the PNG. `mouse` is where the
 * mouse rests ({ x, y } in CSS pixels); `capture` takes the PNG instead of `page.screenshot`.
 */
async function shoot(
	page,
	outDir,
	name,
	{ check, mouse = { x: 720, y: 893 }, capture, dialog = false } = {},
) {
	// A shot of a dialog keeps it open; any other closes what pops up.
	if (!dialog) await dismissPopups(page);
	await page.mouse.move(mouse.x, mouse.y);
	await page.waitForTimeout(600);
	if (new URL(page.url()).pathname.startsWith('/signin'))
		throw new Error(`${name}: the editor shows the sign-in page`);
	if (check) await check();
	const file = path.join(outDir, name);
	if (capture) await capture(file);
	else await page.screenshot({ path: file });
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

/** Drags `locator` (a resize handle) by dx, dy CSS pixels. */
async function dragBy(page, locator, dx, dy) {
	const box = await locator.boundingBox();
	if (!box) throw new Error('nothing to drag: the handle is not showing');
	const x = box.x + box.width / 2;
	const y = box.y + box.height / 2;
	await page.mouse.move(x, y);
	await page.mouse.down();
	await page.mouse.move(x + dx, y + dy, { steps: 15 });
	await page.mouse.up();
	await page.waitForTimeout(400);
}

/** The open NDV's Container field: its "From List" dropdown, `search` typed into its search box. */
async function searchContainerList(page, search) {
	await byTestId(page, 'resource-locator-containerId')
		.locator('[data-test-id="rlc-input"]')
		.click();
	await byTestId(page, 'rlc-search').fill(search);
}

/** Whether the Container list shows matches of `search` only, `number` among them. */
function containerListFiltered(page, search, number) {
	return page.waitForFunction(
		([wanted, expected]) => {
			const names = [...document.querySelectorAll('[data-test-id="rlc-item"]')]
				.filter((item) => item.checkVisibility())
				.map((item) => item.textContent.trim());
			return (
				names.length > 0 &&
				names.every((name) => name.toUpperCase().includes(wanted.toUpperCase())) &&
				names.some((name) => name.startsWith(expected))
			);
		},
		[search, number],
		{ timeout: 30_000 },
	);
}

/**
 * In the page, on a Table view (`element`): the columns from `first` to the last of `wanted`
 * against the box that scrolls them. Returns by how many CSS pixels that box is too narrow to
 * show them all (`shortfall`) and which of `wanted` are out of view (`hidden`). With `scroll` it
 * first scrolls the box so that the last of `wanted` is in view, starting at a column's edge:
 * from `first` where they all fit, else further right.
 */
function tableView(element, { wanted, first, scroll }) {
	const headers = [...element.querySelectorAll('thead th')];
	const column = (name) => headers.find((th) => th.textContent.trim() === name);
	const scroller = [...element.querySelectorAll('*')].find(
		(node) =>
			node.scrollWidth > node.clientWidth + 1 &&
			['auto', 'scroll'].includes(getComputedStyle(node).overflowX),
	);
	const last = column(wanted.at(-1));
	let shortfall = 0;
	if (scroller && last) {
		const origin = scroller.getBoundingClientRect().left - scroller.scrollLeft;
		const right = last.getBoundingClientRect().right - origin + 8;
		const left = (column(first) ?? headers[0]).getBoundingClientRect().left - origin;
		shortfall = right - left - scroller.clientWidth;
		if (scroll) {
			const needed = right - scroller.clientWidth;
			const edges = headers.map((th) => th.getBoundingClientRect().left - origin);
			scroller.scrollLeft =
				needed <= 0 ? 0 : shortfall <= 0 ? left : (edges.find((edge) => edge >= needed) ?? needed);
		}
	}
	const view = (scroller ?? element).getBoundingClientRect();
	const hidden = wanted.filter((name) => {
		const box = column(name)?.getBoundingClientRect();
		return !box || box.left < view.left - 1 || box.right > view.right + 1;
	});
	return { shortfall, hidden };
}

/**
 * After a run from the canvas: the logs panel open on `nodeName`'s output in the Table view,
 * taller, its overview (the list of nodes) narrowed as far as it takes to show the container
 * number beside `columns`, the table scrolled so that `columns` are in view. Returns the columns
 * that are not in view.
 */
async function showLogsTable(page, nodeName, columns, first) {
	const header = byTestId(page, 'log-details-header');
	// The panel may still be opening after the run: open it until its details show.
	for (let attempt = 0; !(await header.isVisible()); attempt++) {
		if (attempt === 5) throw new Error(`the logs panel did not open on ${nodeName}`);
		if (!(await byTestId(page, 'log-details').isVisible()))
			await byTestId(page, 'logs-overview-header').click();
		await header.waitFor({ timeout: 3000 }).catch(() => undefined);
	}
	if (!((await header.textContent()) ?? '').includes(nodeName))
		await byTestId(page, 'log-node-row').filter({ hasText: nodeName }).first().click();
	await header.filter({ hasText: nodeName }).waitFor();
	const output = byTestId(page, 'log-details-output');
	const tableButton = output.locator('[data-test-id="radio-button-table"]');
	if (await tableButton.isVisible().catch(() => false)) await tableButton.click();
	await output.locator('table thead th').first().waitFor();
	// The panel's top at 30 % of the page's height (CSS pixels as laid out, zoom included).
	const panel = byTestId(page, 'logs-panel');
	const height = await page.evaluate(() => window.innerHeight);
	const panelTop = (await panel.boundingBox()).y;
	await dragBy(
		page,
		panel.locator('[data-test-id="resize-handle"][data-dir="top"]').first(),
		0,
		Math.round(height * 0.3) - panelTop,
	);
	// The canvas above got smaller: fit the nodes into it again, a step smaller so that the
	// Execute workflow button below them does not cover their labels.
	await byTestId(page, 'zoom-to-fit').click();
	await byTestId(page, 'zoom-out-button').click();
	await page.waitForTimeout(600);
	const view = { wanted: columns, first };
	const { shortfall } = await output.evaluate(tableView, { ...view, scroll: false });
	if (shortfall > 0)
		await dragBy(
			page,
			panel.locator('[data-test-id="resize-handle"][data-dir="right"]').first(),
			-Math.ceil(shortfall) - 4,
			0,
		);
	return (await output.evaluate(tableView, { ...view, scroll: true })).hidden;
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
		const { editorUrl, sandboxUrl, inboxUrl } = await demo.ready;
		say(`the demo is running at ${editorUrl}`);
		const rest = await restClient(editorUrl);

		context = await launchBrowser(chromiumPath, userDataDir);
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

		// 3. The nodes panel of a new workflow searched for the package and opened on it: its
		// trigger and its actions. n8n lists a trigger's events there only from a static field
		// named Events; the trigger's Event Names or IDs are read from the account (its
		// getSubscribableEvents), so the panel shows the trigger once.
		await page.goto(`${editorUrl}/workflow/new`);
		await byTestId(page, 'canvas-add-button').click({ timeout: 60_000 });
		await byTestId(page, 'node-creator-search-bar').fill('Container Tracking');
		const creator = byTestId(page, 'node-creator');
		await creator
			.locator('[data-test-id="node-creator-item-name"]', { hasText: /^\s*Container Tracking\s*$/ })
			.first()
			.click();
		await shoot(page, outDir, 'trigger-actions.png', {
			check: () =>
				creator
					.locator('[data-test-id="node-creator-item-name"]', {
						hasText: /^\s*On new Container Tracking event\s*$/,
					})
					.waitFor(),
		});
		await page.keyboard.press('Escape');

		// 4. The bulk tracking canvas.
		await openWorkflow(page, editorUrl, BULK_TRACKING.id);
		await shoot(page, outDir, 'bulk-tracking-workflow.png', {
			check: () => canvasNode(page, 'Infer carrier and number type').waitFor(),
		});

		// 5. An execution of Hold alerts: Executions tab → the execution → the trigger's output.
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

		// 5b. A hold alert as it arrived in the demo's mail inbox (maildev, scripts/lib/mail.mjs).
		if (!inboxUrl) throw new Error('the demo printed no mail inbox');
		const email = await emailInInbox(inboxUrl, / hold placed on /, 'hold alert', 60_000);
		await page.goto(`${inboxUrl}/#/email/${encodeURIComponent(email.id)}`);
		await shoot(page, outDir, 'hold-alert-email.png', {
			check: () =>
				page.locator('[data-testid="email-subject"]', { hasText: email.subject }).waitFor(),
		});

		// 6. Container → Get: the Container field's list, part of a number typed into its search.
		const container = await prepareContainer(
			sandboxUrl,
			await containerOfExecution(rest, executionId),
		);
		const getId = await createScratchWorkflow(rest, {
			name: 'Get one container',
			chain: [
				containerTrackingNode('Get container', {
					resource: 'container',
					operation: 'get',
					containerId: { __rl: true, mode: 'list', value: '' },
					options: {},
				}),
			],
		});
		await openWorkflow(page, editorUrl, getId);
		await openNode(page, 'Get container');
		say(`typing "${container.search}" into the Container list's search (${container.number})`);
		await searchContainerList(page, container.search);
		await shoot(page, outDir, 'container-picker.png', {
			check: () => containerListFiltered(page, container.search, container.number),
		});

		// 7. The container picked from that list, the step run: its simplified item.
		await byTestId(page, 'rlc-item').filter({ hasText: container.number }).first().click();
		await page.waitForFunction(
			(number) =>
				document
					.querySelector('[data-test-id="resource-locator-containerId"] [data-test-id="rlc-input"]')
					?.value.startsWith(number),
			container.number,
		);
		await byTestId(page, 'ndv').locator('[data-test-id="node-execute-button"]').first().click();
		await byTestId(page, 'node-run-status-success').waitFor({ timeout: 60_000 });
		await byTestId(page, 'output-panel').locator('[data-test-id="radio-button-json"]').click();
		await shoot(page, outDir, 'container-get-node.png', {
			check: async () => {
				await byTestId(page, 'resource-locator-containerId').waitFor();
				await byTestId(page, 'output-panel').getByText('"pickup_status"').first().waitFor();
			},
		});
		await closeNode(page);

		// 8. Container → Get Many run from the canvas, its items in the logs panel's Table view. A
		// page of its own, laid out at TABLE_ZOOM (as with the browser zoomed out) and captured
		// at 1440×900.
		const manyId = await createScratchWorkflow(rest, {
			name: 'List containers',
			chain: [
				containerTrackingNode('Get many containers', {
					resource: 'container',
					operation: 'getMany',
					returnAll: true,
					options: { include: ['shipment', 'pod_terminal', 'pickup_facility'] },
				}),
			],
		});
		await tableShot(context, editorUrl, outDir, {
			workflowId: manyId,
			nodeName: 'Get many containers',
			columns: WORKED_OUT_COLUMNS,
			first: 'number',
			file: 'container-table.png',
		});

		// 9. The pickup board's rows, as the Pickup board example builds them (its Get all
		// containers and Board columns nodes, run from the canvas): date, facility and zone of
		// each last free day side by side.
		const boardId = await createScratchWorkflow(rest, {
			name: 'Pickup board rows',
			chain: pickupBoardRows(),
		});
		await tableShot(context, editorUrl, outDir, {
			workflowId: boardId,
			nodeName: 'Board columns',
			columns: BOARD_COLUMNS,
			first: 'container_number',
			file: 'pickup-board.png',
		});

		// 9b. The Pickup board itself: the Data Table the published example keeps, one row per
		// container the demo changed, zoomed out as the tables above.
		const board = await pickupBoardWithRows(rest, 3, 150_000);
		const zoomed = await zoomedPage(context);
		try {
			await zoomed.page.goto(
				`${editorUrl}/projects/${board.projectId}/datatables/${board.tableId}`,
			);
			await shoot(zoomed.page, outDir, 'pickup-board-table.png', {
				mouse: { x: Math.round(zoomed.layout.width * 0.7), y: zoomed.layout.height - 10 },
				check: () =>
					zoomed.page
						.getByRole('columnheader', { name: 'container_number' })
						.waitFor({ timeout: 30_000 }),
				capture: zoomed.capture,
			});
		} finally {
			await zoomed.close();
		}

		// 9e. The alert routing table `npm start` made (scripts/start.mjs): the default row and a
		// row for two of the sandbox's customers.
		const { projectId, table: routing } = await dataTableByName(
			editorUrl,
			rest.cookie,
			ALERT_ROUTING_TABLE,
		);
		if (!routing) throw new Error(`the demo has no data table "${ALERT_ROUTING_TABLE}"`);
		await page.goto(`${editorUrl}/projects/${projectId}/datatables/${routing.id}`);
		await shoot(page, outDir, 'alert-routing-table.png', {
			mouse: { x: Math.round(VIEWPORT.width * 0.7), y: VIEWPORT.height - 10 },
			check: () =>
				page.getByRole('columnheader', { name: 'email_to' }).waitFor({ timeout: 30_000 }),
		});

		// 9c. The digest's Container → Get Many: the node's own filters, set as the example sets them.
		await openWorkflow(page, editorUrl, DIGEST.id);
		await openNode(page, DIGEST.getMany);
		await shoot(page, outDir, 'digest-filters.png', {
			check: () => page.getByText('Last Free Day Within (Days)').first().waitFor(),
		});
		await closeNode(page);

		// 9d. The last free day digest as it arrived, sent by its own Manual Trigger.
		const due = await dueTomorrow(sandboxUrl);
		say(`${due} is due tomorrow; sending the last free day digest`);
		await runWorkflowByHand(editorUrl, rest.cookie, DIGEST.id, DIGEST.trigger);
		const digest = await emailInInbox(inboxUrl, /^Last free days: /, 'digest', 60_000);
		await page.goto(`${inboxUrl}/#/email/${encodeURIComponent(digest.id)}`);
		await shoot(page, outDir, 'digest-email.png', {
			check: () =>
				page.locator('[data-testid="email-subject"]', { hasText: digest.subject }).waitFor(),
		});

		// 10. The credential as a customer fills it in: each field's hint, a real account first.
		await page.goto(`${editorUrl}/home/credentials`);
		await dismissPopups(page);
		await page.getByText(CREDENTIAL.name, { exact: true }).first().click();
		const dialog = byTestId(page, 'credential-edit-dialog');
		await dialog.waitFor({ timeout: 30_000 });
		await shoot(page, outDir, 'credential.png', {
			dialog: true,
			check: () => dialog.getByText('For a real account').first().waitFor(),
		});
	} finally {
		await cleanUp();
	}
	say(
		`done in ${Math.round((Date.now() - started) / 1000)} s; screenshots in ${path.relative(repoRoot, outDir) || outDir}`,
	);
}

/**
 * A page of its own laid out at TABLE_ZOOM (as with the browser zoomed out) and captured at
 * 1440×900, for tables wider than the editor. `close()` when done.
 */
async function zoomedPage(context) {
	const page = await context.newPage();
	const layout = {
		width: Math.round(VIEWPORT.width / TABLE_ZOOM),
		height: Math.round(VIEWPORT.height / TABLE_ZOOM),
	};
	const cdp = await context.newCDPSession(page);
	await cdp.send('Emulation.setDeviceMetricsOverride', {
		...layout,
		deviceScaleFactor: TABLE_ZOOM,
		mobile: false,
	});
	return {
		page,
		layout,
		// page.screenshot would clip to the context's 1440×900 CSS pixels.
		capture: async (file) => {
			const { data } = await cdp.send('Page.captureScreenshot', { format: 'png' });
			writeFileSync(file, Buffer.from(data, 'base64'));
		},
		close: () => page.close(),
	};
}

/**
 * A workflow run from the canvas on a zoomed page (`zoomedPage`): `nodeName`'s items in the logs
 * panel's Table view, `columns` in view from `first`.
 */
async function tableShot(
	context,
	editorUrl,
	outDir,
	{ workflowId, nodeName, columns, first, file },
) {
	const zoomed = await zoomedPage(context);
	try {
		await openWorkflow(zoomed.page, editorUrl, workflowId);
		await byTestId(zoomed.page, 'execute-workflow-button').click();
		await canvasNode(zoomed.page, nodeName)
			.locator('[data-test-id="canvas-node-status-success"]')
			.waitFor({ timeout: 60_000 });
		const hidden = await showLogsTable(zoomed.page, nodeName, columns, first);
		await shoot(zoomed.page, outDir, file, {
			mouse: { x: Math.round(zoomed.layout.width * 0.7), y: 25 },
			check: () => {
				if (hidden.length > 0)
					throw new Error(`${file}: columns out of view: ${hidden.join(', ')}`);
			},
			capture: zoomed.capture,
		});
	} finally {
		await zoomed.close();
	}
}

main().catch((error) => {
	if (interrupted) return; // the signal handler exits once everything is stopped
	process.stderr.write(`[screenshots] ${error.stack ?? error.message}\n`);
	process.exit(1);
});

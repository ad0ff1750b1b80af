#!/usr/bin/env node
// The README followed as a newcomer would. First "Try it without an account": `npm start`'s demo
// (scripts/start.mjs) started as the README says, its printed lines checked against the README's
// quote, the editor signed in to with the printed login, the published examples, executions and
// the Pickup board looked at, `npm run demo:hold` ("Check that it works") run and its emails
// read, and Ctrl-C. Then the quick start ("Quick start: hold alerts by email") in
// a real n8n (scripts/n8n-runtime.mjs's version) from a fresh user folder: the package installed
// from its `npm pack` tarball by the README's steps, the credentials created and the example
// imported, set up and published through the editor (headless Debian Chromium driven by
// playwright-core), a customs hold played in the local sandbox, and its email awaited in a local
// MailDev inbox, then a test delivery ("Check that it works": Webhook → Get and Send Test
// Delivery, run from the editor) and what it started. It writes a transcript (transcript.md: each step, what was typed or clicked,
// what the editor said, and a PNG) and lists where the README's wording differs from the editor's.
//
//   node_modules/.bin/node scripts/walkthrough.mjs [--out dir] [--keep] [--chromium /usr/bin/chromium]
//
// It does not build: dist/ must be built (`npm run build`). A failed step ends the run with a
// non-zero exit, a message naming the step and what the page showed, and a PNG of the page.
// --keep leaves the n8n user folder in place.
import { execFile, spawn } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs, promisify } from 'node:util';

import {
	byTestId,
	canvasNode,
	closeNode,
	dismissPopups,
	launchBrowser,
	openNode,
} from './lib/editor.mjs';
import { inboxEmails, startMailServer } from './lib/mail.mjs';
import { sandboxClient, startSandbox } from './lib/sandboxClient.mjs';
import { installDebianPackages } from './lib/services.mjs';
import {
	dataTableByName,
	freePort,
	listExecutions,
	login,
	n8nEnvironment,
	PACKAGE_NAME,
	portInUse,
	processStopper,
	repoRoot,
	restCall,
	startN8n,
	N8N_VERSION,
} from './lib/n8n.mjs';
import { ensureN8n } from './n8n-runtime.mjs';

const run = promisify(execFile);
const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const OWNER = { email: 'demo@example.com', password: 'Demo-password-1' };
// The sandbox's own defaults (sandbox/server.ts DEFAULT_OPTIONS): the key start.mjs passes and
// the header it signs deliveries in.
const SANDBOX_API_KEY = 'sandbox-key';
const SANDBOX_SIGNATURE_HEADER = 'X-SVC-Webhook-Signature';
const CT_CREDENTIAL_NAME = 'My Container Tracking account';
const SMTP_CREDENTIAL_NAME = 'My mail server';
const FROM_EMAIL = 'alerts@example.com';
const TO_EMAIL = 'ops@example.com';
const CONTAINER = { number: 'MAEU6123458', scac: 'MAEU' };
const TRIGGER = 'Container hold changed';
const EMAIL_NODES = ['Email: hold placed', 'Email: hold released'];
/** The node whose email_to gets every alert no routing row takes (all, without the table). */
const DEFAULT_RECIPIENTS = 'Default recipients';
/** By the sandbox's clock: the hold's steps this far apart, then one execution each. */
const HOLD_GAP_SECONDS = 5;
/** The brief's bound on waiting for the email. */
const EMAIL_TIMEOUT_MS = 180_000;
const started = Date.now();

function say(message) {
	const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(3);
	process.stdout.write(`[walkthrough ${seconds} s] ${message}\n`);
}

function options() {
	const { values } = parseArgs({
		options: {
			out: { type: 'string' },
			keep: { type: 'boolean', default: false },
			chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM },
			help: { type: 'boolean' },
		},
	});
	if (values.help) {
		process.stdout.write(
			'Usage: node_modules/.bin/node scripts/walkthrough.mjs [--out <dir>] [--keep] [--chromium <path>]\n',
		);
		process.exit(0);
	}
	return {
		outDir: values.out ? path.resolve(values.out) : null,
		keep: values.keep,
		chromiumPath: values.chromium,
	};
}

// ---- the transcript --------------------------------------------------------------------------

const transcript = [];
const differences = [];

/** Text as the page showed it: whitespace folded, cut to `max` characters. */
function quote(text, max = 600) {
	const folded = String(text ?? '')
		.replace(/\s+/g, ' ')
		.trim();
	return folded.length > max ? `${folded.slice(0, max)}…` : folded;
}

/** One difference between the README's words and the editor's, listed once. */
function differ(readme, actual) {
	const line = `README says ${readme}; n8n ${N8N_VERSION} shows ${actual}`;
	if (!differences.includes(line)) differences.push(line);
}

class StepFailure extends Error {}

/**
 * Runs the next step: `body({ did, saw, page })` records what was done (`did`) and what the
 * editor showed (`saw`); a PNG of the page follows. A failure takes a PNG too and ends the run
 * with the step's name and the page's text.
 */
async function step(context, title, body) {
	const number = transcript.length + 1;
	const entry = { number, title, did: [], saw: [], png: null };
	transcript.push(entry);
	say(`step ${number}: ${title}`);
	const did = (text) => entry.did.push(text);
	const saw = (text) => entry.saw.push(text);
	try {
		await body({ did, saw });
		if (context.page) {
			entry.png = `step-${String(number).padStart(2, '0')}.png`;
			await context.page.screenshot({ path: path.join(context.outDir, entry.png) });
		}
	} catch (error) {
		let shown = '';
		if (context.page) {
			entry.png = `step-${String(number).padStart(2, '0')}-failed.png`;
			await context.page
				.screenshot({ path: path.join(context.outDir, entry.png) })
				.catch(() => (entry.png = null));
			shown = await context.page
				.locator('body')
				.innerText({ timeout: 5000 })
				.catch(() => '');
		}
		entry.failed = `${error.message.split('\n')[0]}${shown ? `\n\nThe page showed: "${quote(shown, 1500)}"` : ''}`;
		throw new StepFailure(
			`step ${number} (${title}) failed: ${error.message}${shown ? `\nthe page showed: ${quote(shown, 1500)}` : ''}`,
		);
	}
}

function writeTranscript(outDir, { green, seconds }) {
	const lines = [
		`# Walk-through of the README: Try it, the quick start, Check that it works (n8n ${N8N_VERSION})`,
		'',
		`${new Date().toISOString()}, ${green ? 'all steps passed' : 'FAILED'}, ${seconds} s.`,
		'',
	];
	for (const entry of transcript) {
		lines.push(`## ${entry.number}. ${entry.title}`, '');
		for (const text of entry.did) lines.push(`- Did: ${text}`);
		for (const text of entry.saw) lines.push(`- Saw: ${text}`);
		if (entry.failed) lines.push(`- **FAILED**: ${entry.failed}`);
		if (entry.png) lines.push('', `![step ${entry.number}](${entry.png})`);
		lines.push('');
	}
	lines.push('## README differences', '');
	if (differences.length === 0) lines.push('None found.');
	for (const text of differences) lines.push(`- ${text}`);
	lines.push('');
	const file = path.join(outDir, 'transcript.md');
	writeFileSync(file, lines.join('\n'));
	return file;
}

// ---- "Try it without an account" --------------------------------------------------------------

const README = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The README's section `## title`, up to the next `## `. */
function readmeSection(title) {
	const start = README.indexOf(`\n## ${title}\n`);
	if (start < 0) throw new Error(`README.md has no section "## ${title}"`);
	const end = README.indexOf('\n## ', start + 1);
	return README.slice(start, end < 0 ? undefined : end);
}

/** A line as printed, its ports and folded spaces aside: the README's quote shows 5678 and 4010. */
const printedShape = (line) => line.replace(/:\d+/g, ':PORT').replace(/\s+/g, ' ').trim();
/** Whether a printed line is the README's, where the README's `…` stands for what each start makes anew (a password). */
const printedAs = (printed, quoted) =>
	new RegExp(
		`^${printedShape(quoted)
			.split('…')
			.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
			.join('\\S+')}$`,
	).test(printedShape(printed));

/**
 * `npm start` as the README runs it (scripts/start.mjs; `npm run walkthrough` has built), on free
 * ports and in a folder of its own. `ready` resolves once it printed the line that ends its
 * summary; `stop()` is Ctrl-C (SIGINT) and resolves when it has exited.
 */
function startDemo(demoDir, n8nPort, sandboxPort) {
	const child = spawn(
		process.execPath,
		[
			path.join(repoRoot, 'scripts', 'start.mjs'),
			...['--n8n-port', String(n8nPort), '--sandbox-port', String(sandboxPort)],
			...['--demo-dir', demoDir],
		],
		{ cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	const exited = new Promise((resolve) => child.once('exit', resolve));
	const ready = new Promise((resolve, reject) => {
		const read = (chunk) => {
			output += chunk;
			if (output.includes('Press Ctrl-C to stop everything.')) resolve();
		};
		child.stdout.on('data', read);
		child.stderr.on('data', read);
		exited.then((code) => reject(new Error(`npm start exited with code ${code}:\n${output}`)));
	});
	ready.catch(() => undefined);
	return {
		ready,
		output: () => output,
		stop: processStopper(child, { signal: 'SIGINT', graceMs: 60_000 }),
	};
}

/** Signs in on n8n's sign-in page (n8n 2.x's fields). */
async function signIn(page, editorUrl, email, password) {
	await page.goto(`${editorUrl}/signin`);
	await byTestId(page, 'emailOrLdapLoginId').locator('input').fill(email);
	await byTestId(page, 'password').locator('input').fill(password);
	await byTestId(page, 'form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/**
 * The newest credential of `type` as n8n saved it (`id`, `name`): the name it shows in the nodes'
 * credential lists, whether or not the rename in its dialog took.
 */
async function savedCredential(editorUrl, type) {
	const cookie = await login(editorUrl, OWNER.email, OWNER.password);
	const listed = await restCall(editorUrl, cookie, 'GET', '/credentials');
	const found = (listed.data ?? listed)
		.filter((entry) => entry.type === type)
		.sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)))[0];
	if (!found) throw new Error(`n8n lists no ${type} credential`);
	return { id: found.id, name: found.name };
}

/** An execution's `resultData` (runData, lastNodeExecuted, error), read with n8n's own `flatted`. */
async function executionResult(editorUrl, cookie, id, n8nDir) {
	const detail = await restCall(editorUrl, cookie, 'GET', `/executions/${id}`);
	const flatted = createRequire(import.meta.url)(path.join(n8nDir, 'node_modules', 'flatted'));
	return detail?.data ? flatted.parse(detail.data).resultData : undefined;
}

/** The executions of every workflow of the instance, by workflow name. */
async function executionsByWorkflow(editorUrl, cookie) {
	const workflows = await restCall(editorUrl, cookie, 'GET', '/workflows');
	const counts = {};
	for (const workflow of workflows.data ?? workflows) {
		const runs = await listExecutions(editorUrl, cookie, workflow.id);
		if (runs.length) counts[workflow.name] = runs;
	}
	return counts;
}

// ---- the services ----------------------------------------------------------------------------

/**
 * README "From the release's tarball", as lib/n8n.mjs's installPackedPackage does it, step by
 * step here so that npm's own answer ("added 1 package") can be quoted.
 */
async function installFromTarball(userFolder) {
	const packDir = mkdtempSync(path.join(os.tmpdir(), 'ct-walkthrough-pack-'));
	try {
		const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', packDir], {
			cwd: repoRoot,
		});
		const tarball = stdout.trim().split('\n').pop();
		const nodesFolder = path.join(userFolder, '.n8n', 'nodes');
		mkdirSync(nodesFolder, { recursive: true });
		copyFileSync(path.join(packDir, tarball), path.join(nodesFolder, tarball));
		const installed = await run('npm', ['install', '--legacy-peer-deps', `./${tarball}`], {
			cwd: nodesFolder,
		});
		const target = path.join(nodesFolder, 'node_modules', PACKAGE_NAME);
		return {
			tarball,
			nodesFolder,
			target,
			npmSaid: `${installed.stdout}\n${installed.stderr}`,
			files: readdirSync(target),
		};
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the editor (shared helpers: scripts/lib/editor.mjs) ----------------------------------

/** The toasts showing now, their text (n8n says what happened in them). */
async function toasts(page) {
	const texts = await page
		.locator('.el-notification:visible')
		.allInnerTexts()
		.catch(() => []);
	return texts.map((text) => quote(text, 300)).filter(Boolean);
}

/** A text parameter of the open credential dialog or NDV, cleared and typed into. */
async function fillParameter(scope, name, value) {
	const input = scope
		.locator(`[data-test-id="parameter-input-${name}"]`)
		.locator('input, textarea')
		.first();
	await input.click();
	await input.press('ControlOrMeta+a');
	await input.press('Backspace');
	if (value !== '') await input.pressSequentially(String(value), { delay: 5 });
}

/**
 * Credentials → Create → `typeName`, as the Overview page offers it: its Create button's
 * "Credential" entry, or the Credentials tab's own button. Returns the label clicked.
 */
async function openNewCredential(page, editorUrl, typeName, did) {
	await page.goto(`${editorUrl}/home/credentials`);
	await page.waitForLoadState('networkidle').catch(() => undefined);
	await dismissPopups(page);
	// The empty Credentials tab has a big "Add first credential" card; the page's header a Create
	// split button whose menu has "Credential".
	const candidates = [
		byTestId(page, 'empty-resources-list').getByRole('button'),
		page.getByRole('button', { name: /create credential/i }),
		page.getByRole('button', { name: /add (first )?credential/i }),
	];
	let clicked = null;
	for (const candidate of candidates) {
		const first = candidate.first();
		if (await first.isVisible().catch(() => false)) {
			clicked = quote(await first.innerText());
			await first.click();
			break;
		}
	}
	if (!clicked) {
		// The header's split button: its dropdown half, then the "Credential" entry.
		const toggle = page.locator(
			'[data-test-id="add-resource"], [data-test-id="add-resource-actions"]',
		);
		await toggle.first().click();
		const item = page.getByRole('menuitem', { name: /credential/i }).first();
		clicked = `${quote(await toggle.first().innerText())} → ${quote(await item.innerText())}`;
		await item.click();
	}
	did(`on Overview → Credentials, clicked "${clicked}"`);
	const select = byTestId(page, 'new-credential-type-select');
	await select.waitFor({ timeout: 30_000 });
	const input = select.locator('input').first();
	await input.click();
	await input.pressSequentially(typeName, { delay: 10 });
	const option = page
		.locator('[data-test-id="new-credential-type-select-option"]:visible')
		.filter({ hasText: new RegExp(`^\\s*${typeName}\\s*$`) })
		.first();
	await option.click();
	did(`typed "${typeName}" into the credential type search and picked "${typeName}"`);
	const proceed = byTestId(page, 'new-credential-type-button');
	const proceedLabel = quote(await proceed.innerText());
	await proceed.click();
	did(`clicked "${proceedLabel}"`);
	const dialog = byTestId(page, 'credential-edit-dialog');
	await dialog.waitFor({ timeout: 30_000 });
	return dialog;
}

/** Renames the open credential (its title is editable inline) to `name`. */
async function renameCredential(page, dialog, name) {
	const title = byTestId(page, 'credential-name').first();
	if (!(await title.isVisible().catch(() => false))) return false;
	await title.click();
	const input = title.locator('input').first();
	await input.waitFor({ timeout: 5000 });
	await input.press('ControlOrMeta+a');
	await input.pressSequentially(name, { delay: 5 });
	await input.press('Enter');
	return true;
}

/**
 * Saves the open credential dialog and waits for its connection test's verdict: the banner's
 * text ("Connection tested successfully", or the error).
 */
async function saveCredential(page, dialog) {
	const save = byTestId(page, 'credential-save-button');
	const saveLabel = quote(await save.innerText());
	await save.click();
	// n8n tests the credential on Save and says so in a banner (hidden banners stay in the DOM).
	const verdict = dialog
		.getByText(/Connection tested successfully|Couldn.t connect with these settings/)
		.first();
	await verdict.waitFor({ timeout: 60_000 });
	await page.waitForTimeout(500);
	return { saveLabel, verdict: quote(await verdict.innerText()) };
}

async function closeCredential(page, dialog) {
	await page.keyboard.press('Escape');
	// n8n 2.41 may ask "Close without saving?" of a credential it has just saved and tested; what
	// was saved is checked over REST by the caller.
	const confirm = page.getByRole('button', { name: /^\s*Close\s*$/ }).last();
	if (await confirm.isVisible({ timeout: 2_000 }).catch(() => false)) await confirm.click();
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 }).catch(async () => {
		await dialog.locator('.el-dialog__headerbtn, [aria-label="Close"]').first().click();
		await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	});
}

/** In the open NDV: the credential select set to `name`. Returns what it showed before. */
async function pickCredential(page, name) {
	const select = byTestId(page, 'node-credentials-select').first();
	await select.waitFor({ timeout: 30_000 });
	const before = quote(
		await byTestId(page, 'ndv')
			.locator('[data-test-id="node-credentials-select"]')
			.first()
			.evaluate((element) => element.querySelector('input')?.value || element.innerText)
			.catch(() => ''),
	);
	await select.click();
	const option = page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.filter({ hasText: name })
		.first();
	await option.click();
	await page.waitForFunction(
		(wanted) =>
			[...document.querySelectorAll('[data-test-id="node-credentials-select"]')].some((element) =>
				(element.querySelector('input')?.value || element.textContent).includes(wanted),
			),
		name,
		{ timeout: 10_000 },
	);
	return before;
}

// ---- the walk-through ------------------------------------------------------------------------

async function main() {
	const { keep, chromiumPath, ...chosen } = options();
	// Debian's Chromium is installed when the default path has none (as the queue-mode suite
	// installs Postgres and Redis); nothing is started, and no folder made, when it stays missing.
	if (!existsSync(chromiumPath) && chromiumPath === DEBIAN_CHROMIUM) {
		process.stdout.write("[walkthrough] installing Debian's chromium (apt-get)\n");
		await installDebianPackages(['chromium'], 'the walkthrough');
	}
	if (!existsSync(chromiumPath)) {
		process.stderr.write(
			`[walkthrough] no Chromium at ${chromiumPath} (Debian: apt-get install chromium; or --chromium <path>)\n`,
		);
		process.exit(1);
	}
	const outDir = chosen.outDir ?? mkdtempSync(path.join(os.tmpdir(), 'ct-walkthrough-out-'));
	mkdirSync(outDir, { recursive: true });
	const workDir = mkdtempSync(path.join(os.tmpdir(), 'ct-walkthrough-'));
	const userFolder = path.join(workDir, 'n8n');
	const chromiumDir = path.join(workDir, 'chromium');
	mkdirSync(userFolder, { recursive: true });
	mkdirSync(chromiumDir, { recursive: true });
	const ctx = { outDir, page: null };
	const stoppers = [];
	const ports = [];
	let green = false;

	let cleaning = null;
	const cleanUp = () =>
		(cleaning ??= (async () => {
			// Browser first, then n8n (SIGTERM), the inbox and the sandbox: the reverse of their start.
			for (const { what, stop } of stoppers.reverse()) {
				say(`stopping ${what}`);
				await stop().catch((error) => say(`stopping ${what} failed: ${error.message}`));
			}
			const busy = [];
			for (const port of ports) if (await portInUse(port)) busy.push(port);
			if (!keep) rmSync(workDir, { recursive: true, force: true });
			else rmSync(chromiumDir, { recursive: true, force: true });
			return busy;
		})());
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, async () => {
			say(`${signal}: cleaning up`);
			await cleanUp().catch(() => undefined);
			process.exit(130);
		});
	}

	// The browser, launched by the first step that needs it and shared by the rest.
	let browser = null;
	const openBrowser = async () => {
		if (!browser) {
			browser = await launchBrowser(chromiumPath, chromiumDir);
			stoppers.push({ what: 'chromium', stop: () => browser.close() });
		}
		const page = browser.pages()[0] ?? (await browser.newPage());
		ctx.page = page;
		return page;
	};

	let failure = null;
	try {
		// ---- README "Try it without an account" ----
		const tryIt = readmeSection('Try it without an account');
		const quoted = [...tryIt.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)]
			.map((match) => match[1])
			.find((block) => block.startsWith('Container tracking demo is running.'));
		if (!quoted) throw new Error('README "Try it without an account" quotes no npm start output');
		const demoDir = path.join(workDir, 'demo');
		const demoPorts = { n8n: await freePort(), sandbox: await freePort() };
		while (demoPorts.sandbox === demoPorts.n8n) demoPorts.sandbox = await freePort();
		let demo;
		const printed = {};
		await step(
			ctx,
			"Try it: `npm ci && npm start`; what it prints, against the README's quote",
			async ({ did, saw }) => {
				const startedAt = Date.now();
				demo = startDemo(demoDir, demoPorts.n8n, demoPorts.sandbox);
				stoppers.push({ what: 'the demo (Ctrl-C)', stop: () => demo.stop() });
				did(
					`ran \`node scripts/start.mjs --n8n-port ${demoPorts.n8n} --sandbox-port ${demoPorts.sandbox}\` (what \`npm start\` runs after its build; free ports, as a busy machine needs)`,
				);
				await demo.ready;
				const seconds = Math.round((Date.now() - startedAt) / 1000);
				const lines = demo.output().split('\n');
				const summary = lines.slice(lines.indexOf('Container tracking demo is running.'));
				saw(`after ${seconds} s (n8n installed already): "${quote(summary.join(' / '), 1200)}"`);
				let from = 0;
				for (const line of quoted.split('\n').filter((text) => text.trim())) {
					const at = summary.findIndex((text, index) => index >= from && printedAs(text, line));
					if (at < 0) throw new Error(`npm start did not print the README's line "${line.trim()}"`);
					from = at + 1;
				}
				saw(`every line the README quotes was printed, in its order (ports aside)`);
				for (const [key, pattern] of [
					['editor', /^\s*n8n editor\s+(\S+)/],
					['login', /^\s*login\s+(\S+) \/ (\S+)/],
					['published', /^\s*published\s+(.+)$/],
					['mail', /^\s*mail inbox\s+(\S+)/],
				]) {
					const match = summary.map((text) => pattern.exec(text)).find(Boolean);
					if (!match) throw new Error(`npm start printed no ${key} line`);
					printed[key] = match.slice(1);
				}
				for (const port of [demoPorts.n8n, demoPorts.sandbox, new URL(printed.mail[0]).port])
					ports.push(Number(port));
			},
		);

		await step(
			ctx,
			'Try it: sign in with the printed login; Overview lists the examples, the printed ones published',
			async ({ did, saw }) => {
				const page = await openBrowser();
				const [editorUrl] = printed.editor;
				const [email, password] = printed.login;
				await signIn(page, editorUrl, email, password);
				did(`opened ${editorUrl} and signed in as ${email} / ${password}`);
				await page.goto(`${editorUrl}/home/workflows`);
				const cards = byTestId(page, 'resources-list-item-workflow');
				await cards.first().waitFor({ timeout: 30_000 });
				await page.waitForTimeout(1500);
				await dismissPopups(page);
				const listed = await cards.evaluateAll((elements) =>
					elements.map((element) => ({
						name: element.querySelector('[data-test-id="workflow-card-name"]')?.textContent?.trim(),
						published: /Published/.test(
							element.querySelector('[data-test-id="workflow-card-publish-indicator"]')
								?.textContent ?? '',
						),
					})),
				);
				saw(
					`Overview → Workflows lists: ${listed.map((card) => `"${card.name}"${card.published ? ' (Published)' : ''}`).join(', ')}`,
				);
				const published = listed.filter((card) => card.published).map((card) => card.name);
				const said = printed.published[0].split(', ').map((name) => name.trim());
				if ([...published].sort().join('|') !== [...said].sort().join('|'))
					throw new Error(
						`the published examples are ${published.join(', ')}; npm start printed ${said.join(', ')}`,
					);
				if (published.length !== 6)
					differ('six examples **published**', `${published.length} published`);
			},
		);

		await step(
			ctx,
			'Try it: within a minute, executions, a hold alert in the mail inbox, the Pickup board',
			async ({ did, saw }) => {
				const page = ctx.page;
				const [editorUrl] = printed.editor;
				const [mailUrl] = printed.mail;
				const cookie = await login(editorUrl, ...printed.login);
				const since = Date.now();
				const seen = {};
				while (Date.now() - since < 120_000 && !(seen.execution && seen.email && seen.board)) {
					await sleep(3000);
					const elapsed = Math.round((Date.now() - since) / 1000);
					if (!seen.execution) {
						const runs = await executionsByWorkflow(editorUrl, cookie);
						const names = Object.keys(runs);
						if (names.length)
							seen.execution = `${elapsed} s: ${names.map((name) => `"${name}" ${runs[name].length}`).join(', ')}`;
					}
					if (!seen.email) {
						const alert = (await inboxEmails(mailUrl)).find((email) =>
							/ hold (placed|released) on /.test(email.subject),
						);
						if (alert)
							seen.email = `${elapsed} s: "${alert.subject}" to ${alert.to.map((to) => to.address).join(', ')}`;
					}
					if (!seen.board) {
						const { projectId, table } = await dataTableByName(editorUrl, cookie, 'Pickup board');
						const rows = table
							? await restCall(
									editorUrl,
									cookie,
									'GET',
									`/projects/${projectId}/data-tables/${table.id}/rows?take=1`,
								)
							: { count: 0 };
						if (rows.count > 0) seen.board = `${elapsed} s: ${rows.count} row(s)`;
					}
				}
				did(
					'waited up to two minutes after the summary, reading n8n, the inbox and the Data Table',
				);
				saw(`first executions after ${seen.execution ?? 'none in 120 s'}`);
				saw(`first hold alert in the mail inbox after ${seen.email ?? 'none in 120 s'}`);
				saw(`the Pickup board after ${seen.board ?? 'no row in 120 s'}`);
				if (!seen.execution) throw new Error('no execution within two minutes');
				for (const [what, value] of [
					['executions fill within a minute', seen.execution],
					['hold alerts reach the mail inbox within a minute', seen.email],
					['the Pickup board fills within a minute', seen.board],
				])
					if (!value || Number.parseInt(value, 10) > 60)
						differ(what, value ?? 'not within two minutes');
				await page.goto(`${editorUrl}/home/datatables`);
				await page.getByText('Pickup board').first().waitFor({ timeout: 30_000 });
				await page.waitForTimeout(1000);
				did('opened Overview → Data tables');
				saw(
					`it lists: "${quote(
						await byTestId(page, 'resources-list-wrapper')
							.innerText()
							.catch(() => ''),
						300,
					)}"`,
				);
			},
		);

		await step(
			ctx,
			'Check that it works (demo): `npm run demo:hold`; both alerts in the mail inbox',
			async ({ did, saw }) => {
				const [mailUrl] = printed.mail;
				const checkIt = readmeSection('Check that it works');
				if (!checkIt.includes('`npm run demo:hold`'))
					throw new Error('README "Check that it works" does not name `npm run demo:hold`');
				const before = (await inboxEmails(mailUrl)).length;
				const { stdout } = await run(
					process.execPath,
					[path.join(repoRoot, 'scripts', 'demo-hold.mjs'), '--demo-dir', demoDir],
					{ cwd: repoRoot, timeout: 180_000 },
				);
				did(
					`ran \`npm run demo:hold\` (\`node scripts/demo-hold.mjs --demo-dir ${path.relative(workDir, demoDir)}\`, the demo's folder)`,
				);
				saw(`it printed: "${quote(stdout.trim().split('\n').join(' / '), 900)}"`);
				const number = /^Placed a customs hold on (\S+)\.$/m.exec(stdout)?.[1];
				if (!number) throw new Error('demo:hold printed no "Placed a customs hold on …" line');
				for (const wanted of [
					`Customs hold placed on ${number}`,
					`Cleared the customs hold on ${number}.`,
					`Customs hold released on ${number}`,
				])
					if (!stdout.includes(wanted)) throw new Error(`demo:hold did not print "${wanted}"`);
				const emails = (await inboxEmails(mailUrl))
					.slice(before)
					.filter((email) => email.subject.includes(number));
				saw(
					`the inbox has, for ${number}: ${emails.map((email) => `"${email.subject}"`).join(', ')}`,
				);
				for (const change of ['placed', 'released'])
					if (
						!emails.some((email) => email.subject.startsWith(`Customs hold ${change} on ${number}`))
					)
						throw new Error(`no "Customs hold ${change} on ${number}" email in the inbox`);
				const page = ctx.page;
				await page.goto(`${mailUrl}/#/email/${encodeURIComponent(emails[0].id)}`);
				await page.waitForTimeout(1500);
				did('opened the first of them in the mail inbox');
			},
		);

		await step(ctx, 'Try it: Ctrl-C stops everything', async ({ did, saw }) => {
			ctx.page = null;
			await demo.stop();
			did('pressed Ctrl-C (SIGINT to npm start)');
			const lines = demo.output().trim().split('\n');
			saw(`it printed: "${quote(lines.slice(-2).join(' / '))}"`);
			if (!demo.output().includes('stopped; nothing left running'))
				throw new Error('npm start did not say "stopped; nothing left running"');
			const busy = [];
			for (const port of ports) if (await portInUse(port)) busy.push(port);
			saw(
				`its ports ${ports.join(', ')}: ${busy.length ? `still in use: ${busy.join(', ')}` : 'all free'}`,
			);
			if (busy.length) throw new Error(`ports still in use after Ctrl-C: ${busy.join(', ')}`);
		});

		// ---- README "Install" and "Quick start: hold alerts by email" ----
		// 1. README "Install" → "From the tarball" (a clone's `npm pack`: nothing is released yet).
		let installed;
		await step(
			ctx,
			'Install the package from its tarball (README: Install, From the tarball)',
			async ({ did, saw }) => {
				did('did not build: dist/ as it is (`npm run build` beforehand)');
				installed = await installFromTarball(userFolder);
				did(
					`\`npm pack\` in the repository, copied \`${installed.tarball}\` to \`<userFolder>/.n8n/nodes\``,
				);
				did(`ran \`npm install --legacy-peer-deps ./${installed.tarball}\` there`);
				const added = installed.npmSaid
					.split('\n')
					.find((line) => /^added \d+ package/.test(line.trim()));
				saw(`npm: "${quote(added ?? installed.npmSaid, 300)}"`);
				if (!added)
					throw new Error(`npm printed no "added … package" line: ${quote(installed.npmSaid)}`);
				if (!/^added 1 package\b/.test(added.trim()))
					differ('npm answers `added 1 package`', `npm answering "${added.trim()}"`);
				saw(
					`installed: \`${path.relative(userFolder, installed.target)}\` with ${installed.files.join(', ')}`,
				);
			},
		);

		// 2. The sandbox, the inbox and n8n.
		let sandboxUrl;
		let mail;
		let n8n;
		let editorUrl;
		await step(
			ctx,
			'Start the sandbox of the service, a MailDev inbox and n8n (fresh user folder)',
			async ({ did, saw }) => {
				const sandboxPort = await freePort();
				ports.push(sandboxPort);
				const sandbox = startSandbox(sandboxPort, SANDBOX_API_KEY);
				stoppers.push({ what: 'the sandbox', stop: sandbox.stop });
				sandboxUrl = await sandbox.ready;
				did(
					`started the sandbox: \`tsx sandbox/cli.ts --port ${sandboxPort} --api-key ${SANDBOX_API_KEY}\``,
				);
				saw(`sandbox: "Sandbox ready at ${sandboxUrl}"`);
				mail = await startMailServer();
				stoppers.push({ what: 'the MailDev inbox', stop: mail.stop });
				ports.push(mail.smtpPort, Number(new URL(mail.webUrl).port));
				saw(`MailDev: SMTP on ${mail.smtpHost}:${mail.smtpPort}, inbox at ${mail.webUrl}`);
				const n8nDir = await ensureN8n();
				ctx.n8nDir = n8nDir;
				const port = await freePort();
				let brokerPort = await freePort();
				while (brokerPort === port) brokerPort = await freePort();
				ports.push(port, brokerPort);
				const env = n8nEnvironment({ n8nDir, userFolder, port, brokerPort, owner: OWNER });
				env.N8N_WEBHOOK_URL = `http://127.0.0.1:${port}/`;
				did(
					`started n8n ${N8N_VERSION} with N8N_USER_FOLDER=${userFolder}, N8N_WEBHOOK_URL=${env.N8N_WEBHOOK_URL}, the owner ${OWNER.email} set by N8N_INSTANCE_OWNER_*`,
				);
				n8n = await startN8n(n8nDir, env);
				stoppers.push({ what: 'n8n (SIGTERM)', stop: n8n.stop });
				editorUrl = n8n.url;
				// n8n prints the address on the line after this one.
				const lines = n8n.log().split('\n');
				const at = lines.findIndex((line) => line.includes('Editor is now accessible via'));
				saw(`n8n: "${quote(lines.slice(at, at + 2).join(' '))}"`);
			},
		);

		// 3. Sign in; the nodes panel.
		let page;
		await step(
			ctx,
			'Sign in; the nodes panel searched for "Container Tracking"',
			async ({ did, saw }) => {
				// The browser (launched by Try it): the demo's session is for another n8n on this host.
				page = await openBrowser();
				await browser.clearCookies();
				await signIn(page, editorUrl, OWNER.email, OWNER.password);
				did(`signed in as ${OWNER.email}`);
				await page.goto(`${editorUrl}/workflow/new`);
				await byTestId(page, 'canvas-add-button').waitFor({ timeout: 60_000 });
				await dismissPopups(page);
				await byTestId(page, 'canvas-add-button').click();
				did("opened a new workflow and clicked the canvas's **+** (nodes panel)");
				await byTestId(page, 'node-creator-search-bar').fill('Container Tracking');
				did('typed "Container Tracking" into the nodes panel\'s search');
				const names = byTestId(page, 'node-creator').locator(
					'[data-test-id="node-creator-item-name"]',
				);
				await names.first().waitFor();
				await page.waitForTimeout(800);
				const listed = (await names.allInnerTexts()).map((text) => quote(text, 120));
				saw(`the nodes panel lists: ${listed.map((name) => `"${name}"`).join(', ')}`);
				if (!listed.includes('Container Tracking'))
					throw new Error('"Container Tracking" is not listed');
				// n8n lists one entry per package's app; opening it shows its trigger and operations.
				await names
					.filter({ hasText: /^Container Tracking$/ })
					.first()
					.click();
				did('clicked "Container Tracking"');
				await page.waitForTimeout(1_000);
				const panel = quote(await byTestId(page, 'node-creator').innerText(), 2_000);
				const triggers = /Triggers \(\d+\)\s*[^\n]*?(?=\s*Actions|$)/.exec(panel)?.[0];
				const actions = /Actions \(\d+\)/.exec(panel)?.[0];
				saw(`the app's panel: "${triggers ?? '(no triggers)'}", "${actions ?? '(no actions)'}"`);
				if (!triggers || !actions)
					throw new Error("the app's panel lists no trigger or no actions");
				await page.keyboard.press('Escape');
			},
		);

		// 4. The Container Tracking credential.
		await step(
			ctx,
			'Overview → Credentials → Create credential → Container Tracking API; Save tests it',
			async ({ did, saw }) => {
				const dialog = await openNewCredential(page, editorUrl, 'Container Tracking API', did);
				await dialog.locator('[data-test-id="parameter-input-apiKey"]').waitFor();
				const labels = await dialog
					.locator(
						'[data-test-id="parameter-input-apiKey"], [data-test-id="parameter-input-baseUrl"], [data-test-id="parameter-input-signatureHeader"]',
					)
					.count();
				if (labels !== 3)
					throw new Error(
						`the dialog has ${labels} of the 3 fields API Key, Base URL, Webhook Signature Header`,
					);
				if (await renameCredential(page, dialog, CT_CREDENTIAL_NAME))
					did(`named it "${CT_CREDENTIAL_NAME}"`);
				await fillParameter(dialog, 'apiKey', SANDBOX_API_KEY);
				did(`API Key: "${SANDBOX_API_KEY}"`);
				await fillParameter(dialog, 'baseUrl', sandboxUrl);
				did(`Base URL: "${sandboxUrl}"`);
				await fillParameter(dialog, 'signatureHeader', SANDBOX_SIGNATURE_HEADER);
				did(`Webhook Signature Header: "${SANDBOX_SIGNATURE_HEADER}"`);
				const { saveLabel, verdict } = await saveCredential(page, dialog);
				did(`clicked "${saveLabel}"`);
				saw(`the dialog says: "${verdict}"`);
				// README: "save it: n8n tests it and shows _Connection tested successfully_".
				if (!/Connection tested successfully/.test(verdict))
					throw new Error(`the connection test did not succeed: "${verdict}"`);
				await page.screenshot({ path: path.join(outDir, 'credential-dialog.png') });
				await closeCredential(page, dialog);
				ctx.ctCredential = await savedCredential(editorUrl, 'containerTrackingApi');
				saw(`n8n saved it as "${ctx.ctCredential.name}"`);
			},
		);

		// 5. The SMTP credential.
		await step(
			ctx,
			'Create credential → SMTP, pointed at the MailDev inbox; Save',
			async ({ did, saw }) => {
				const dialog = await openNewCredential(page, editorUrl, 'SMTP', did);
				await dialog.locator('[data-test-id="parameter-input-host"]').waitFor();
				if (await renameCredential(page, dialog, SMTP_CREDENTIAL_NAME))
					did(`named it "${SMTP_CREDENTIAL_NAME}"`);
				const fieldLabels = await dialog
					.locator('[data-test-id^="parameter-input-"]')
					.evaluateAll((elements) =>
						elements.map((element) =>
							element.getAttribute('data-test-id').replace('parameter-input-', ''),
						),
					);
				saw(`fields: ${fieldLabels.join(', ')}`);
				await fillParameter(dialog, 'user', '');
				await fillParameter(dialog, 'password', '');
				did('User and Password: left empty (MailDev takes any sender)');
				await fillParameter(dialog, 'host', mail.smtpHost);
				did(`Host: "${mail.smtpHost}"`);
				await fillParameter(dialog, 'port', mail.smtpPort);
				did(`Port: "${mail.smtpPort}"`);
				// SSL/TLS: a switch, on by default for SMTP (port 465); MailDev speaks plain SMTP.
				const secure = dialog.locator('[data-test-id="parameter-input-secure"]');
				const secureSwitch = secure.locator('.el-switch, [role="switch"]').first();
				const isOn = async () =>
					(await secureSwitch.getAttribute('aria-checked')) === 'true' ||
					/is-checked/.test((await secureSwitch.getAttribute('class')) ?? '');
				if (await isOn()) {
					await secureSwitch.click();
					did('SSL/TLS: switched off');
				} else did('SSL/TLS: already off');
				const startTls = dialog
					.locator(
						'[data-test-id="parameter-input-disableStartTls"] .el-switch, [data-test-id="parameter-input-disableStartTls"] [role="switch"]',
					)
					.first();
				if (await startTls.isVisible().catch(() => false)) {
					const on =
						(await startTls.getAttribute('aria-checked')) === 'true' ||
						/is-checked/.test((await startTls.getAttribute('class')) ?? '');
					if (!on) {
						await startTls.click();
						did('Disable STARTTLS: switched on (MailDev offers no STARTTLS)');
					}
				}
				const { saveLabel, verdict } = await saveCredential(page, dialog);
				did(`clicked "${saveLabel}"`);
				saw(`the dialog says: "${verdict}"`);
				if (!/success/i.test(verdict))
					throw new Error(`the SMTP credential's test did not succeed: "${verdict}"`);
				await page.screenshot({ path: path.join(outDir, 'smtp-dialog.png') });
				await closeCredential(page, dialog);
				ctx.smtpCredential = await savedCredential(editorUrl, 'smtp');
				saw(`n8n saved it as "${ctx.smtpCredential.name}"`);
			},
		);

		// 6. A new workflow, the example imported from its file. README: "save that file to your
		// computer (it is also in a clone's `examples/` folder)": the browser's file picker opens on
		// the user's computer, here a Downloads folder with the clone's copy saved into it.
		const downloads = path.join(workDir, 'Downloads');
		mkdirSync(downloads, { recursive: true });
		const exampleFile = path.join(downloads, 'hold-alerts.json');
		copyFileSync(path.join(repoRoot, 'examples', 'hold-alerts.json'), exampleFile);
		let workflowId;
		await step(
			ctx,
			'A new workflow; ⋯ → Import → From file → hold-alerts.json',
			async ({ did, saw }) => {
				await page.goto(`${editorUrl}/workflow/new`);
				await byTestId(page, 'canvas-add-button').waitFor({ timeout: 60_000 });
				await dismissPopups(page);
				did('opened a new workflow (Overview → Create workflow: `/workflow/new`)');
				await byTestId(page, 'workflow-menu').click();
				const items = page.locator('[data-test-id^="workflow-menu-item-"]:visible');
				await items.first().waitFor();
				const labels = (await items.allInnerTexts()).map((text) => quote(text, 80));
				saw(`the ⋯ menu lists: ${labels.map((label) => `"${label}"`).join(', ')}`);
				// n8n 2.41 nests the two imports under an "Import" item: hovered, it opens a submenu.
				const parent = byTestId(page, 'workflow-menu-item-import');
				let parentLabel = null;
				if (await parent.isVisible().catch(() => false)) {
					parentLabel = quote(await parent.innerText());
					await parent.hover();
					await page.waitForTimeout(600);
					const children = page.locator('[data-test-id^="workflow-menu-item-import-"]:visible');
					saw(
						`"${parentLabel}" opens: ${(await children.allInnerTexts()).map((text) => `"${quote(text, 80)}"`).join(', ')}`,
					);
				}
				const importItem = byTestId(page, 'workflow-menu-item-import-from-file');
				await importItem.waitFor({ timeout: 10_000 });
				const urlItem = byTestId(page, 'workflow-menu-item-import-from-url');
				const urlLabel = (await urlItem.isVisible().catch(() => false))
					? quote(await urlItem.innerText())
					: null;
				const importLabel = quote(await importItem.innerText());
				const shown = (label) => (parentLabel ? `"${parentLabel}" → "${label}"` : `"${label}"`);
				// README (n8n 2.x): ⋯ → **Import** → **From file** / **From URL**.
				if (parentLabel !== 'Import' || importLabel !== 'From file')
					differ('**Import** → **From file** in the ⋯ menu', shown(importLabel));
				if (urlLabel === null) differ('**Import** → **From URL** in the ⋯ menu', 'no such item');
				else if (parentLabel !== 'Import' || urlLabel !== 'From URL')
					differ('**Import** → **From URL** in the ⋯ menu', shown(urlLabel));
				const chooser = page.waitForEvent('filechooser');
				await importItem.click();
				await (await chooser).setFiles(exampleFile);
				did(
					`saved examples/hold-alerts.json to the computer's \`${path.relative(workDir, exampleFile)}\`, clicked ${shown(importLabel)} and chose it in the file picker`,
				);
				await canvasNode(page, TRIGGER).waitFor({ timeout: 30_000 });
				await page.waitForTimeout(1500);
				const nodes = await byTestId(page, 'canvas-node').evaluateAll((elements) =>
					elements.map((element) => element.getAttribute('data-node-name')),
				);
				saw(`the canvas has: ${nodes.map((name) => `"${name}"`).join(', ')}`);
				const note = page
					.locator(
						'[data-test-id="canvas-sticky-note-node"], .sticky-textarea, [class*="sticky" i]',
					)
					.filter({ hasText: 'Set up before you publish' })
					.first();
				await note.waitFor({ timeout: 10_000 });
				saw(`the yellow note: "${quote(await note.innerText(), 900)}"`);
				for (const wanted of [TRIGGER, ...EMAIL_NODES])
					if (!nodes.includes(wanted)) throw new Error(`"${wanted}" is not on the canvas`);
				const issues = await page.locator('[data-test-id="node-issues"]').count();
				if (issues) saw(`${issues} node(s) show a warning (no credential of theirs yet)`);
			},
		);

		// 7. The note's order: the trigger's credential, the emails' credential and addresses; save.
		await step(
			ctx,
			'Follow "Set up before you publish": credentials, From Email, Default recipients; Save',
			async ({ did, saw }) => {
				await dismissPopups(page);
				await openNode(page, TRIGGER);
				const before = await pickCredential(page, ctx.ctCredential.name);
				did(
					`opened "${TRIGGER}", picked "${ctx.ctCredential.name}" under Credential${before ? ` (it showed "${before}")` : ''}`,
				);
				const webhookUrls = byTestId(page, 'ndv')
					.getByText(/Webhook URLs/i)
					.first();
				if (await webhookUrls.isVisible().catch(() => false)) {
					await webhookUrls.click();
					await page.waitForTimeout(500);
					const production = await byTestId(page, 'ndv')
						.getByText(/http:\/\/127\.0\.0\.1:\d+\/webhook\//)
						.allInnerTexts()
						.catch(() => []);
					if (production.length)
						saw(
							`the trigger's Webhook URLs: ${production.map((url) => `"${quote(url, 200)}"`).join(', ')}`,
						);
				}
				await closeNode(page);
				for (const name of EMAIL_NODES) {
					await openNode(page, name);
					const shown = await pickCredential(page, ctx.smtpCredential.name);
					did(
						`opened "${name}", picked "${ctx.smtpCredential.name}" under Credential to connect with${shown ? ` (it showed "${shown}")` : ''}`,
					);
					const ndv = byTestId(page, 'ndv');
					const labels = await ndv
						.locator('[data-test-id^="parameter-input-"]')
						.evaluateAll((elements) =>
							elements.map((element) =>
								element.getAttribute('data-test-id').replace('parameter-input-', ''),
							),
						);
					if (!labels.includes('fromEmail'))
						throw new Error(`"${name}" has no fromEmail field (${labels.join(', ')})`);
					await fillParameter(ndv, 'fromEmail', FROM_EMAIL);
					did(`From Email: "${FROM_EMAIL}"`);
					const fieldNames = await ndv
						.locator(
							'[data-test-id="parameter-input-fromEmail"], [data-test-id="parameter-input-toEmail"]',
						)
						.evaluateAll((elements) =>
							elements.map(
								(element) =>
									element
										.closest('[data-test-id="parameter-item"], .parameter-item')
										?.innerText?.split('\n')[0] ?? '',
							),
						);
					if (fieldNames.some(Boolean))
						saw(
							`"${name}" labels the fields ${fieldNames.map((label) => `"${quote(label, 60)}"`).join(' and ')}`,
						);
					await closeNode(page);
				}
				// The note's next line: who gets the alerts, in Default recipients' email_to.
				await openNode(page, DEFAULT_RECIPIENTS);
				const assignment = byTestId(page, 'ndv')
					.locator('[data-test-id="assignment-value"]')
					.first();
				const value = assignment.locator('input, textarea, [contenteditable="true"]').first();
				const shownTo = await value.inputValue().catch(async () => await value.innerText());
				await value.click();
				await value.press('ControlOrMeta+a');
				await value.press('Backspace');
				await value.pressSequentially(TO_EMAIL, { delay: 5 });
				// As a person moves on: the field keeps what was typed once it loses the focus.
				await value.press('Tab');
				await page.waitForTimeout(500);
				did(
					`opened "${DEFAULT_RECIPIENTS}", email_to: "${TO_EMAIL}" (it showed "${quote(shownTo, 80)}")`,
				);
				await page.screenshot({ path: path.join(outDir, 'default-recipients.png') });
				await closeNode(page);
				const issues = await page
					.locator('[data-test-id="canvas-node"] [data-test-id="node-issues"]')
					.count();
				if (issues) saw(`${issues} node(s) still show a warning`);
				await page.keyboard.press('ControlOrMeta+s');
				did('saved: Ctrl+S');
				await page.waitForURL(
					(url) => /\/workflow\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith('/new'),
					{ timeout: 30_000 },
				);
				workflowId = new URL(page.url()).pathname.split('/').pop();
				// What n8n saved as who gets the alerts.
				const cookie = await login(editorUrl, OWNER.email, OWNER.password);
				const savedRecipients = await restCall(editorUrl, cookie, 'GET', `/workflows/${workflowId}`)
					.then(
						(workflow) =>
							workflow.nodes.find((node) => node.name === DEFAULT_RECIPIENTS)?.parameters
								?.assignments?.assignments,
					)
					.catch((error) => error.message);
				saw(`n8n saved "${DEFAULT_RECIPIENTS}" as ${quote(JSON.stringify(savedRecipients), 300)}`);
				await page.waitForTimeout(1000);
				const saved = await page
					.locator('[data-test-id="workflow-save-button"], .header-actions, [class*="actions" i]')
					.first()
					.innerText()
					.catch(() => '');
				saw(`the workflow has id ${workflowId}; the header shows "${quote(saved, 200)}"`);
				for (const toast of await toasts(page)) saw(`toast: "${toast}"`);
			},
		);

		// 8. Publish.
		await step(ctx, 'Publish', async ({ did, saw }) => {
			await dismissPopups(page);
			// The header's Publish button opens a dialog (a version name) with its own Publish button.
			const button = byTestId(page, 'workflow-open-publish-modal-button');
			await button.waitFor({ timeout: 15_000 });
			const label = quote(await button.innerText());
			if (label !== 'Publish') differ('**Publish**', `"${label}"`);
			await button.click();
			did(`clicked "${label}" at the top right`);
			const confirm = byTestId(page, 'workflow-publish-button');
			if (
				await confirm.waitFor({ timeout: 10_000 }).then(
					() => true,
					() => false,
				)
			) {
				const modal = page
					.locator('.el-dialog:visible, [role="dialog"]:visible')
					.filter({ has: confirm })
					.first();
				saw(`a dialog: "${quote(await modal.innerText().catch(() => ''), 500)}"`);
				await page.screenshot({ path: path.join(outDir, 'publish-dialog.png') });
				const confirmLabel = quote(await confirm.innerText());
				await confirm.click();
				did(`clicked "${confirmLabel}" in the dialog`);
			}
			// The verdict: a toast, and the header's state.
			let said = [];
			for (let waited = 0; waited < 30_000 && said.length === 0; waited += 500) {
				said = await toasts(page);
				if (said.length === 0) await page.waitForTimeout(500);
			}
			for (const toast of said) saw(`toast: "${toast}"`);
			await page.waitForTimeout(1000);
			const header = await page
				.locator('header, [data-test-id="main-header"]')
				.first()
				.innerText()
				.catch(() => '');
			saw(`the header now shows: "${quote(header, 400)}"`);
			const rest = await login(editorUrl, OWNER.email, OWNER.password);
			const response = await fetch(`${editorUrl}/rest/workflows/${workflowId}`, {
				headers: { Cookie: rest },
			});
			const workflow = (await response.json()).data;
			saw(
				`n8n's REST API: the workflow is ${workflow.active ? 'active (published)' : 'NOT active'}`,
			);
			if (!workflow.active)
				throw new Error(
					`the workflow is not published; the editor said: ${said.join(' | ') || quote(header)}`,
				);
			if (said.some((text) => /error|problem|fail/i.test(text)))
				throw new Error(`publishing reported: ${said.join(' | ')}`);
			ctx.cookie = rest;
		});

		// 9. A hold in the sandbox; its email.
		await step(
			ctx,
			'A customs hold in the sandbox; its email in the MailDev inbox; Executions',
			async ({ did, saw }) => {
				const sandbox = sandboxClient(sandboxUrl, SANDBOX_API_KEY);
				const hooks = await sandbox.api('GET', '/webhooks');
				const registered = (hooks.body?.data ?? []).map(
					(hook) => `${hook.attributes.url} (${(hook.attributes.events ?? []).join(', ')})`,
				);
				saw(`the sandbox's webhooks: ${registered.join('; ') || 'none'}`);
				const tracked = await sandbox.api('POST', '/tracking_requests', {
					data: {
						type: 'tracking_request',
						attributes: {
							request_number: CONTAINER.number,
							request_type: 'container',
							scac: CONTAINER.scac,
						},
					},
				});
				if (tracked.status !== 201)
					throw new Error(
						`POST /v2/tracking_requests answered ${tracked.status}: ${JSON.stringify(tracked.body)}`,
					);
				did(
					`tracked ${CONTAINER.number} (${CONTAINER.scac}): POST ${sandboxUrl}/tracking_requests`,
				);
				let container;
				for (let waited = 0; !container; waited += 1000) {
					if (waited > 60_000) throw new Error(`${CONTAINER.number} had no container after 60 s`);
					await sleep(1000);
					const { body } = await sandbox.api('GET', '/containers?page[size]=100');
					container = (body?.data ?? []).find(
						(item) => item.attributes.number === CONTAINER.number,
					);
				}
				saw(
					`the sandbox's container ${container.id}: ${CONTAINER.number}, ${container.attributes.current_status}`,
				);
				const played = await sandbox.control(
					'POST',
					`/containers/${container.id}/scenarios/customs_hold`,
					{ gap_seconds: HOLD_GAP_SECONDS },
				);
				if (played.status !== 202)
					throw new Error(
						`the customs_hold scenario answered ${played.status}: ${JSON.stringify(played.body)}`,
					);
				did(
					`played the customs hold: POST ${sandboxUrl.replace(/\/v2$/, '/_sandbox')}/containers/${container.id}/scenarios/customs_hold (${HOLD_GAP_SECONDS} s between its steps: pending, hold, cleared)`,
				);
				const deadline = Date.now() + EMAIL_TIMEOUT_MS;
				let emails = [];
				while (emails.length < 2 && Date.now() < deadline) {
					await sleep(2000);
					emails = await inboxEmails(mail.webUrl);
					if (emails.length >= 1 && Date.now() > deadline - EMAIL_TIMEOUT_MS + 60_000) break;
				}
				if (emails.length === 0) {
					// What n8n did instead: each execution's status and, for a failed one, its error.
					const runs = await listExecutions(editorUrl, ctx.cookie, workflowId).catch(() => []);
					const told = [];
					for (const run of runs.slice(0, 5)) {
						const detail = await restCall(
							editorUrl,
							ctx.cookie,
							'GET',
							`/executions/${run.id}`,
						).catch(() => undefined);
						// n8n keeps the run as `flatted` text: read with n8n's own copy.
						const flatted = createRequire(import.meta.url)(
							path.join(ctx.n8nDir, 'node_modules', 'flatted'),
						);
						const result = detail?.data ? flatted.parse(detail.data).resultData : undefined;
						const error = result?.error
							? `${result.lastNodeExecuted ?? '?'}: ${String(result.error.message).slice(0, 300)}`
							: undefined;
						told.push(`${run.id} ${run.status}${error ? `: ${error}` : ''}`);
					}
					throw new Error(
						`no email in MailDev within ${EMAIL_TIMEOUT_MS / 1000} s; executions: ${told.join(' | ') || 'none'}`,
					);
				}
				for (const email of emails) {
					const lines = String(email.text ?? '')
						.split('\n')
						.filter((line) => line.trim())
						.slice(0, 4);
					saw(
						`email to ${(email.to ?? []).map((to) => to.address).join(', ')} from ${(email.from ?? []).map((from) => from.address).join(', ')}: subject "${email.subject}"; first lines: "${quote(lines.join(' / '), 400)}"`,
					);
				}
				if (!emails.every((email) => (email.to ?? []).some((to) => to.address === TO_EMAIL)))
					throw new Error(`an email was not sent to ${TO_EMAIL}`);
				await page.goto(`${mail.webUrl}/#/email/${encodeURIComponent(emails[0].id)}`);
				await page
					.locator('[data-testid="email-subject"]')
					.first()
					.waitFor({ timeout: 15_000 })
					.catch(() => undefined);
				await page.screenshot({ path: path.join(outDir, 'hold-email.png') });
				did('opened the first email in the MailDev inbox (hold-email.png)');
				const executions = await listExecutions(editorUrl, ctx.cookie, workflowId);
				saw(
					`Executions (REST): ${executions.length}, ${executions.map((execution) => execution.status).join(', ')}`,
				);
				await page.goto(`${editorUrl}/workflow/${workflowId}/executions`);
				await byTestId(page, 'executions-sidebar')
					.waitFor({ timeout: 30_000 })
					.catch(() => undefined);
				await page.waitForTimeout(1500);
				await dismissPopups(page);
				const listed = await page.locator('[data-test-id^="execution-details-"]').count();
				did("opened the workflow's Executions tab");
				saw(`the Executions tab lists ${listed} execution(s)`);
			},
		);

		// README "Check that it works", with an account: a test delivery to the trigger's Production
		// URL, from a workflow Webhook → Get (Include Secret) → Send Test Delivery, run in the editor.
		await step(
			ctx,
			'Check that it works (account): Webhook → Get, Send Test Delivery; Execute workflow; Executions',
			async ({ did, saw }) => {
				const checkIt = readmeSection('Check that it works');
				for (const words of [
					'**Send Test',
					'**Include Secret**',
					'`{{ $json.url }}`',
					'`{{ $json.secret }}`',
					'**Execute workflow**',
					'**Placed or released?**',
				])
					if (!checkIt.includes(words))
						throw new Error(`README "Check that it works" lacks ${words}`);
				const cookie = ctx.cookie;
				const sandbox = sandboxClient(sandboxUrl, SANDBOX_API_KEY);
				const hook = ((await sandbox.api('GET', '/webhooks')).body?.data ?? []).find((record) =>
					(record.attributes.events ?? []).includes('container.updated'),
				);
				if (!hook) throw new Error('the sandbox lists no webhook for container.updated');
				const credential = ctx.ctCredential;
				const onCredential = { containerTrackingApi: { id: credential.id, name: credential.name } };
				const type = `${PACKAGE_NAME}.containerTracking`;
				const nodes = [
					{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
					{
						name: 'Get a webhook',
						type,
						typeVersion: 1,
						parameters: {
							resource: 'webhook',
							operation: 'get',
							webhookId: {
								__rl: true,
								mode: 'list',
								value: hook.id,
								cachedResultName: hook.attributes.url,
							},
							options: { includeSecret: true },
						},
						credentials: onCredential,
					},
					{
						name: 'Send a test delivery',
						type,
						typeVersion: 1,
						parameters: {
							resource: 'webhook',
							operation: 'sendTestDelivery',
							url: '={{ $json.url }}',
							event: 'container.updated',
							secret: '={{ $json.secret }}',
						},
						credentials: onCredential,
					},
				].map((node, index) => ({
					...node,
					id: `c4ec4000-0000-4000-8000-00000000000${index + 1}`,
					position: [index * 240, 0],
				}));
				const connections = {
					Start: { main: [[{ node: 'Get a webhook', type: 'main', index: 0 }]] },
					'Get a webhook': { main: [[{ node: 'Send a test delivery', type: 'main', index: 0 }]] },
				};
				const checkWorkflow = await restCall(editorUrl, cookie, 'POST', '/workflows', {
					name: 'Check: test delivery',
					nodes,
					connections,
					settings: { executionOrder: 'v1' },
				});
				did(
					`made the workflow "Check: test delivery" (through n8n's REST API, as the README lists it): Start → Container Tracking Webhook → Get (From list: ${hook.attributes.url}; Options → Include Secret on) → Webhook → Send Test Delivery (URL {{ $json.url }}, Event container.updated, Secret {{ $json.secret }}), on "${credential.name}"`,
				);
				const runsBefore = await listExecutions(editorUrl, cookie, workflowId);
				const emailsBefore = (await inboxEmails(mail.webUrl)).length;
				await page.goto(`${editorUrl}/workflow/${checkWorkflow.id}`);
				await canvasNode(page, 'Send a test delivery').waitFor({ timeout: 60_000 });
				await dismissPopups(page);
				const execute = byTestId(page, 'execute-workflow-button');
				const executeLabel = quote(await execute.innerText());
				if (executeLabel !== 'Execute workflow')
					differ('**Execute workflow**', `"${executeLabel}"`);
				await execute.click();
				did(`opened it in the editor and clicked "${executeLabel}"`);
				let manual;
				for (let waited = 0; !manual; waited += 1000) {
					if (waited > 60_000)
						throw new Error('the test delivery workflow did not finish within 60 s');
					await sleep(1000);
					manual = (await listExecutions(editorUrl, cookie, checkWorkflow.id)).find(
						(run) => run.status !== 'running' && run.status !== 'new',
					);
				}
				const sent = (await executionResult(editorUrl, cookie, manual.id, ctx.n8nDir))?.runData?.[
					'Send a test delivery'
				]?.[0]?.data?.main?.[0]?.[0]?.json;
				saw(
					`the run ${manual.status}; "Send a test delivery" gave: ${quote(JSON.stringify({ succeeded: sent?.succeeded, status_code: sent?.status_code, error: sent?.error, response_body: sent?.response_body }), 300)}`,
				);
				await page.waitForTimeout(1000);
				await openNode(page, 'Send a test delivery');
				await page.screenshot({ path: path.join(outDir, 'test-delivery-output.png') });
				await closeNode(page);
				if (sent?.succeeded !== true)
					throw new Error(
						`Send Test Delivery did not say succeeded: true (${quote(JSON.stringify(sent), 300)})`,
					);
				let added = [];
				for (let waited = 0; added.length === 0; waited += 1000) {
					if (waited > 30_000)
						throw new Error(
							'the hold alerts workflow started no run for the test delivery within 30 s',
						);
					await sleep(1000);
					const known = new Set(runsBefore.map((run) => run.id));
					added = (await listExecutions(editorUrl, cookie, workflowId)).filter(
						(run) => !known.has(run.id) && run.status !== 'running' && run.status !== 'new',
					);
				}
				const [sample] = added;
				const result = await executionResult(editorUrl, cookie, sample.id, ctx.n8nDir);
				const item = result?.runData?.[TRIGGER]?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
				saw(
					`the hold alerts' Executions: ${added.length} more, ${sample.status}, last node "${result?.lastNodeExecuted}"; its item: event ${item.event}, container_number ${item.container_number}, warnings ${quote(JSON.stringify(item.warnings ?? []), 200)}`,
				);
				await sleep(10_000);
				const emailsAfter = (await inboxEmails(mail.webUrl)).length;
				saw(`emails in the inbox 10 s later: ${emailsAfter - emailsBefore} new`);
				if (added.length !== 1) differ('one more successful run', `${added.length} more runs`);
				if (sample.status !== 'success') throw new Error(`the sample's run ended ${sample.status}`);
				if (result?.lastNodeExecuted !== 'Placed or released?')
					differ('it ends at **Placed or released?**', `it ended at "${result?.lastNodeExecuted}"`);
				if (item.container_number !== null)
					differ('it names no container', `container_number ${item.container_number}`);
				if (emailsAfter !== emailsBefore)
					differ('no email goes out', `${emailsAfter - emailsBefore} email(s)`);
				await page.goto(`${editorUrl}/workflow/${workflowId}/executions`);
				await page.waitForTimeout(2000);
				await dismissPopups(page);
				did("opened the hold alerts workflow's Executions tab");
			},
		);

		// 10. Stop everything.
		await step(ctx, 'Stop everything; ports freed', async ({ did, saw }) => {
			ctx.page = null;
			const busy = await cleanUp();
			did(
				`stopped chromium, n8n (SIGTERM), MailDev and the sandbox${keep ? '; kept the user folder (--keep)' : '; removed the user folder'}`,
			);
			saw(
				`ports ${ports.join(', ')}: ${busy.length ? `still in use: ${busy.join(', ')}` : 'all free'}`,
			);
			if (busy.length) throw new Error(`ports still in use: ${busy.join(', ')}`);
		});
		green = true;
	} catch (error) {
		failure = error;
	} finally {
		const busy = await cleanUp().catch((error) => say(`clean-up failed: ${error.message}`));
		if (busy?.length) say(`warning: ports still in use after the clean-up: ${busy.join(', ')}`);
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	const file = writeTranscript(outDir, { green, seconds });
	if (failure) {
		process.stderr.write(
			`[walkthrough] ${failure instanceof StepFailure ? failure.message : failure.stack}\n`,
		);
		say(`transcript: ${file}`);
		process.exit(1);
	}
	say(`all steps passed in ${seconds} s; transcript: ${file}`);
	if (keep) say(`user folder kept: ${userFolder}`);
}

main().catch((error) => {
	process.stderr.write(`[walkthrough] ${error.stack ?? error.message}\n`);
	process.exit(1);
});

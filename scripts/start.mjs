#!/usr/bin/env node
// `npm start`: the local sandbox of the service and a real n8n with this package installed,
// wired together, the example workflows imported and published, and container journeys
// playing so that executions appear within a minute. Ctrl-C stops everything it started.
//
//   npm start -- --n8n-port 5678 --sandbox-port 4010
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import {
	activateWorkflowArgs,
	freePort,
	login,
	n8nCli,
	portInUse,
	prepareInstance,
	repoRoot,
	runWorkflowByHand,
	startN8n,
} from './lib/n8n.mjs';
import { createAlertRoutingTable } from './lib/alertRoutingTable.mjs';
import { createArrivalNoticesTable } from './lib/arrivalNoticesTable.mjs';
import { createPickupBoardTable } from './lib/pickupBoardTable.mjs';
import { createTariffTable } from './lib/tariffTable.mjs';
import { sandboxClient, startSandbox } from './lib/sandboxClient.mjs';
import { smtpCredential, startMailServer } from './lib/mail.mjs';
import { imapCredential } from './lib/imap.mjs';
import { startMemoryImapServer } from './lib/memoryImap.mjs';
import {
	DEMO_API_KEY,
	DEMO_ARRIVALS,
	DEMO_DESK,
	DEMO_OWNER,
	demoSummary,
	deskUrl,
	DIGEST_AFTER_SECONDS,
	NOTICE_AFTER_SECONDS,
	publishes,
	TRACK_FROM_EMAIL,
} from './lib/demoSummary.mjs';
import { runtimeNodeBuild } from './n8n-runtime.mjs';

const OWNER = DEMO_OWNER;
const API_KEY = DEMO_API_KEY;
const CREDENTIAL = { id: 'ctSandboxCredential', name: 'Container Tracking sandbox' };

function say(message) {
	process.stdout.write(`[demo] ${message}\n`);
}

function options() {
	const { values } = parseArgs({
		options: {
			'n8n-port': { type: 'string', default: process.env.N8N_DEMO_PORT ?? '5678' },
			'sandbox-port': { type: 'string', default: process.env.SANDBOX_PORT ?? '4010' },
			'demo-dir': { type: 'string' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) {
		process.stdout.write(
			'Usage: npm start -- [--n8n-port 5678] [--sandbox-port 4010] [--demo-dir <folder>]\n',
		);
		process.exit(0);
	}
	const demoDir =
		values['demo-dir'] ?? path.join(os.homedir(), '.cache', 'n8n-nodes-container-tracking', 'demo');
	return {
		n8nPort: Number(values['n8n-port']),
		sandboxPort: Number(values['sandbox-port']),
		demoDir,
	};
}

async function checkPorts(ports) {
	for (const [label, port, flag] of ports) {
		if (!Number.isInteger(port) || port < 1 || port > 65535)
			throw new Error(`${label} port "${port}" is not a port number`);
		if (await portInUse(port)) {
			throw new Error(
				`port ${port} (${label}) is already in use; choose another with ${flag} <port>`,
			);
		}
	}
}

/**
 * The example workflows, ready for `n8n import:workflow --separate`; returns them all, and those
 * to publish (lib/demoSummary.mjs), Track from email when there is a `mailbox`.
 */
function prepareWorkflows(importDir, { mailbox }) {
	mkdirSync(importDir, { recursive: true });
	const workflows = [];
	const published = [];
	for (const file of readdirSync(path.join(repoRoot, 'examples')).filter((name) =>
		name.endsWith('.json'),
	)) {
		const workflow = JSON.parse(readFileSync(path.join(repoRoot, 'examples', file), 'utf8'));
		writeFileSync(path.join(importDir, file), JSON.stringify(workflow, null, 2));
		workflows.push(workflow);
		if (publishes(workflow, { mailbox })) published.push({ id: workflow.id, name: workflow.name });
	}
	return { workflows, published };
}

/**
 * Tracks the demo's containers, then asks the sandbox for its next move every 20 seconds
 * (`POST /_sandbox/demo/next`, sandbox/demo.ts): a scenario that fits a box where it is in its
 * journey, or a fresh container when boxes have finished theirs. The sandbox keeps ready and
 * blocked boxes on the board at every moment; test/sandbox/invariants.test.ts plays this loop
 * for a simulated day.
 */
/** Seconds between the steps of one of the demo's moves. */
const MOVE_GAP_SECONDS = 4;

function playJourneys(sandbox, onMove = () => {}) {
	let stopped = false;
	const timers = new Set();
	const wait = (ms) =>
		new Promise((resolve) => {
			const timer = setTimeout(() => {
				timers.delete(timer);
				resolve();
			}, ms);
			timers.add(timer);
		});
	const loop = async () => {
		const begun = await sandbox.control('POST', '/demo/start');
		if (begun.status !== 201)
			throw new Error(`the sandbox did not start the demo (HTTP ${begun.status})`);
		await wait(4000);
		const { body } = await sandbox.api('GET', '/containers?page[size]=100');
		const numbers = (body?.data ?? []).map((container) => container.attributes.number);
		say(`the sandbox tracks ${numbers.length} containers: ${numbers.join(', ')}`);
		while (!stopped) {
			const { status, body: move } = await sandbox.control('POST', '/demo/next', {
				gap_seconds: MOVE_GAP_SECONDS,
			});
			if (status !== 200) {
				say(`the sandbox answered the next move with HTTP ${status}: ${JSON.stringify(move)}`);
			} else if (move.action === 'scenario') {
				say(`playing "${move.scenario}" for ${move.container_number}`);
				onMove(move);
			} else if (move.action === 'track') {
				say(`tracking a fresh container, ${move.container_number}`);
			}
			await wait(20_000);
		}
	};
	const done = loop().catch((error) => {
		if (!stopped) say(`journeys stopped: ${error.message}`);
	});
	return {
		async stop() {
			stopped = true;
			for (const timer of timers) clearTimeout(timer);
			await Promise.race([done, wait(0)]);
		},
	};
}

const DIGEST_AFTER_MS = DIGEST_AFTER_SECONDS * 1000;
const DIGEST = { id: 'ctLastFreeDayDigest', trigger: 'Send the digest now' };
const MONEY_AT_RISK = { id: 'ctMoneyAtRisk', trigger: 'Send it now' };

/** Runs an emailing example by hand, as its Manual Trigger does, and says what reached the inbox. */
async function runByHandAndSay(n8nUrl, cookie, mail, { id, trigger, subject, name, none }) {
	const before = mail.messages.length;
	await runWorkflowByHand(n8nUrl, cookie, id, trigger);
	const sent = mail.messages.slice(before).find((message) => subject.test(message.subject));
	say(sent ? `sent the ${name}: "${sent.subject}" (mail inbox)` : `ran the ${name}: ${none}`);
}

/**
 * Runs the last free day digest once, as *Send the digest now* does, after the journeys have
 * played a while, so that a newcomer finds a digest in the inbox without waiting for the morning.
 */
function sendDigestSoon(n8nUrl, cookie, mail) {
	let stopped = false;
	const timer = setTimeout(async () => {
		try {
			await runByHandAndSay(n8nUrl, cookie, mail, {
				...DIGEST,
				subject: /^Last free days/,
				name: 'last free day digest',
				none: 'no container needs attention yet, so no email',
			});
		} catch (error) {
			if (!stopped) say(`the last free day digest did not run: ${error.message}`);
		}
	}, DIGEST_AFTER_MS);
	return {
		async stop() {
			stopped = true;
			clearTimeout(timer);
		},
	};
}

/**
 * Runs Money at risk once, as *Send it now* does, when the demo has first put a box past its last
 * free day (its `demurrage` scenario played out): then there is money at risk to show.
 */
function sendMoneyAtRiskOnDemurrage(n8nUrl, cookie, mail) {
	let stopped = false;
	let timer = null;
	return {
		onMove(move) {
			if (timer !== null || stopped || move.scenario !== 'demurrage') return;
			timer = setTimeout(
				async () => {
					try {
						await runByHandAndSay(n8nUrl, cookie, mail, {
							...MONEY_AT_RISK,
							subject: /^Money at risk/,
							name: 'money at risk',
							none: 'no charges grow or start within 2 days, so no email',
						});
					} catch (error) {
						if (!stopped) say(`Money at risk did not run: ${error.message}`);
					}
				},
				(move.steps + 1) * MOVE_GAP_SECONDS * 1000,
			);
		},
		async stop() {
			stopped = true;
			if (timer !== null) clearTimeout(timer);
		},
	};
}

const ARRIVALS = DEMO_ARRIVALS;
const NOTICE_AFTER_MS = NOTICE_AFTER_SECONDS * 1000;

/**
 * The mailbox the Track from email example reads: an IMAP server in this process
 * (lib/memoryImap.mjs), which needs nothing installed. Should it not start, the example is
 * imported and left unpublished, and one line says so and how to run it all the same.
 */
async function startArrivalsMailbox() {
	try {
		return await startMemoryImapServer(ARRIVALS);
	} catch (error) {
		say(
			`no IMAP mailbox (${error.message.split('\n')[0]}), so "${TRACK_FROM_EMAIL.name}" is imported but not published; the other examples run. To run it, point its credential "Arrival notices inbox (IMAP)" at a mailbox of yours in n8n and publish it`,
		);
		return undefined;
	}
}

/**
 * Once the Email Trigger has logged in to the mailbox, has the sandbox mail an arrival notice
 * with a PDF into it (`POST /_sandbox/mail/arrival-notice`, sandbox/arrivalNotice.ts), and says
 * what the example answered once its reply is in the mail inbox.
 */
function mailArrivalNoticeSoon(sandbox, imap, mail) {
	let stopped = false;
	let timer;
	const wait = (ms) => new Promise((resolve) => (timer = setTimeout(resolve, ms)));
	const run = async () => {
		while (!stopped && imap.logins() === 0) await wait(1_000);
		await wait(NOTICE_AFTER_MS);
		if (stopped) return;
		const { status, body } = await sandbox.control('POST', '/mail/arrival-notice', {
			imap: { host: imap.host, port: imap.port, user: imap.user, password: imap.password },
		});
		if (status !== 201)
			throw new Error(`the sandbox answered HTTP ${status}: ${JSON.stringify(body)}`);
		say(`mailed an arrival notice with a PDF to ${ARRIVALS.user}: "${body.subject}"`);
		for (let waited = 0; !stopped && waited < 120_000; waited += 1_000) {
			const reply = mail.messages.find((message) => message.subject === `Re: ${body.subject}`);
			if (reply) {
				const count = (title) =>
					String(reply.text).split(`${title}:\n`)[1]?.split('\n\n')[0].split('\n').length ?? 0;
				say(
					`"${TRACK_FROM_EMAIL.name}" answered (mail inbox): ${count('Now tracked')} now tracked, ${count('Already tracked')} already tracked, ${count('Could not be tracked')} could not be tracked`,
				);
				return;
			}
			await wait(1_000);
		}
	};
	run().catch((error) => {
		if (!stopped) say(`the arrival notice was not mailed: ${error.message}`);
	});
	return {
		async stop() {
			stopped = true;
			clearTimeout(timer);
		},
	};
}

async function main() {
	const { n8nPort, sandboxPort, demoDir } = options();
	try {
		// A machine n8n's Node has no build for is told so before anything starts.
		runtimeNodeBuild();
		await checkPorts([
			['n8n', n8nPort, '--n8n-port'],
			['sandbox', sandboxPort, '--sandbox-port'],
		]);
	} catch (error) {
		process.stderr.write(`[demo] ${error.message}\n`);
		process.exit(1);
	}
	const started = [];
	let stopping = false;
	const stopAll = async (code) => {
		if (stopping) return;
		stopping = true;
		say('stopping…');
		for (const item of started.reverse()) await item.stop().catch(() => undefined);
		say('stopped; nothing left running');
		process.exit(code);
	};
	process.on('SIGINT', () => stopAll(0));
	process.on('SIGTERM', () => stopAll(0));

	try {
		say(`starting the sandbox on port ${sandboxPort}`);
		const sandboxProcess = startSandbox(sandboxPort, API_KEY);
		started.push(sandboxProcess);
		const sandboxUrl = await sandboxProcess.ready;

		// A fresh n8n each time: the sandbox keeps its state in memory, so yesterday's
		// registered webhooks are gone anyway.
		rmSync(demoDir, { recursive: true, force: true });
		const userFolder = path.join(demoDir, 'n8n');
		say('preparing n8n with this package installed from `npm pack`');
		const brokerPort = await freePort();
		const { n8nDir, env } = await prepareInstance({
			userFolder,
			port: n8nPort,
			brokerPort,
			owner: OWNER,
			// The settings docs/guarantees.md "Settings for a busy account" recommends for a busy account: a delivery gets no
			// expression isolate it does not use, and memory is collected before it piles up.
			extra: {
				N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
				NODE_OPTIONS: '--max-old-space-size=1024',
			},
		});

		// The hold alerts' emails go to a local inbox: nothing leaves the machine.
		const mail = await startMailServer();
		started.push(mail);
		const imap = await startArrivalsMailbox();
		if (imap) started.push(imap);

		const credentialsFile = path.join(demoDir, 'credentials.json');
		writeFileSync(
			credentialsFile,
			JSON.stringify([
				{
					...CREDENTIAL,
					type: 'containerTrackingApi',
					data: {
						apiKey: API_KEY,
						baseUrl: sandboxUrl,
						signatureHeader: 'X-SVC-Webhook-Signature',
					},
				},
				smtpCredential(mail),
				...(imap ? [imapCredential(imap)] : []),
				// The Container desk's MCP Server Trigger asks every client for this bearer token.
				{
					id: DEMO_DESK.id,
					name: DEMO_DESK.name,
					type: 'httpBearerAuth',
					data: { token: DEMO_DESK.token },
				},
			]),
		);
		say('importing the credential and the example workflows');
		const checked = async (args) => {
			const result = await n8nCli(n8nDir, env, args);
			if (result.code !== 0)
				throw new Error(`n8n ${args[0]} failed:\n${(result.stderr || result.stdout).slice(-2000)}`);
		};
		await checked(['import:credentials', `--input=${credentialsFile}`]);
		const importDir = path.join(demoDir, 'workflows');
		const { workflows, published } = prepareWorkflows(importDir, { mailbox: Boolean(imap) });
		await checked(['import:workflow', '--separate', `--input=${importDir}`]);
		for (const workflow of published) {
			await checked(activateWorkflowArgs(workflow.id));
		}

		say(`starting n8n on port ${n8nPort}`);
		const n8n = await startN8n(n8nDir, env);
		started.push(n8n);
		// The Pickup board upserts into a Data Table: its setup workflow creates it now, before the
		// journeys start any run (examples/README.md, section 2).
		const cookie = await login(n8n.url, OWNER.email, OWNER.password);
		await createPickupBoardTable(n8n.url, cookie);
		say('created the Data Table "Pickup board"');
		// The routing table, with a row for two of the sandbox's customers: their alerts and
		// digests reach their own addresses in the mail inbox, every other box the default row's.
		await createAlertRoutingTable(n8n.url, cookie, {
			rows: [
				{
					customer: 'Acme Imports',
					tag: '',
					email_to: 'acme-imports@example.com',
					slack_channel: '#acme',
				},
				{
					customer: 'Blue Harbor Foods',
					tag: '',
					email_to: 'blue-harbor@example.com',
					slack_channel: '#blue-harbor',
				},
			],
		});
		say('created the Data Table "Alert routing", with rows for Acme Imports and Blue Harbor Foods');
		// The ETA last told to each recipient, for "Arrival moved → email": the demo's ETA moves
		// (sandbox/demo.ts, eta_moved) then reach the mail inbox.
		await createArrivalNoticesTable(n8n.url, cookie);
		say('created the Data Table "Arrival notices"');
		// The rates Money at risk works charges out with (examples/tariff-table.json's own rows).
		const tariff = await createTariffTable(n8n.url, cookie);
		say(`created the Data Table "Tariff", with ${tariff.length} example rates`);
		const moneyAtRisk = sendMoneyAtRiskOnDemurrage(n8n.url, cookie, mail);
		started.push(moneyAtRisk);
		const journeys = playJourneys(sandboxClient(sandboxUrl, API_KEY), moneyAtRisk.onMove);
		started.push(journeys);
		const digest = sendDigestSoon(n8n.url, cookie, mail);
		started.push(digest);
		if (imap) started.push(mailArrivalNoticeSoon(sandboxClient(sandboxUrl, API_KEY), imap, mail));
		// Where everything is, for `npm run demo:hold` (scripts/demo-hold.mjs); gone once stopped.
		const demoFile = path.join(demoDir, 'demo.json');
		writeFileSync(
			demoFile,
			JSON.stringify({ n8nUrl: n8n.url, sandboxUrl, apiKey: API_KEY, mailUrl: mail.webUrl }),
		);
		started.push({ stop: async () => rmSync(demoFile, { force: true }) });

		process.stdout.write(
			demoSummary({
				n8nUrl: n8n.url,
				owner: OWNER,
				published: published.map((workflow) => workflow.name),
				mail,
				imap,
				desk: { url: deskUrl(n8n.url, workflows), token: DEMO_DESK.token },
			}),
		);
	} catch (error) {
		process.stderr.write(`[demo] ${error.message}\n`);
		await stopAll(1);
	}
}

main();

#!/usr/bin/env node
// `npm run demo:hold`: while `npm start` runs (in another terminal), a customs hold placed on one
// of the demo's containers through the sandbox's control API (`POST /_sandbox/containers/{id}/
// changes`, docs/sandbox.md), its alert awaited in the demo's mail inbox, then the hold cleared
// and that alert awaited too. README "Check that it works" quotes what it prints.
//
//   npm run demo:hold [-- --hold customs] [-- --demo-dir <folder>]
//
// It reads the addresses `npm start` wrote to <demo-dir>/demo.json. Exits 1 with a sentence
// saying what to do when the demo is not running or an alert does not arrive within a minute.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { inboxEmails } from './lib/mail.mjs';
import { sandboxClient } from './lib/sandboxClient.mjs';

/** The hold names the sandbox's control API takes (sandbox/control.ts HOLD_NAMES). */
const HOLDS = ['customs', 'freight', 'USDA', 'VACIS', 'TMF'];
const EMAIL_TIMEOUT_MS = 60_000;
const TROUBLESHOOTING = 'README.md, "Troubleshooting"';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function fail(message) {
	process.stderr.write(`${message}\n`);
	process.exit(1);
}

function options() {
	const { values } = parseArgs({
		options: {
			hold: { type: 'string', default: 'customs' },
			'demo-dir': { type: 'string' },
			help: { type: 'boolean' },
		},
	});
	if (values.help) {
		process.stdout.write(
			`Usage: npm run demo:hold [-- --hold ${HOLDS.join('|')}] [-- --demo-dir <folder>]\n`,
		);
		process.exit(0);
	}
	if (!HOLDS.includes(values.hold)) fail(`--hold must be one of ${HOLDS.join(', ')}`);
	const demoDir =
		values['demo-dir'] ?? path.join(os.homedir(), '.cache', 'n8n-nodes-container-tracking', 'demo');
	return { hold: values.hold, demoDir };
}

/** What `npm start` wrote once the demo was running (scripts/start.mjs). */
function readDemo(demoDir) {
	try {
		return JSON.parse(readFileSync(path.join(demoDir, 'demo.json'), 'utf8'));
	} catch {
		return fail(
			'The demo is not running: start it with `npm start` in another terminal, wait for "Container tracking demo is running.", then run this again.',
		);
	}
}

const set = (value) => value !== null && value !== undefined && value !== '';

/**
 * Whether a hold can be placed on the box as a terminal would: not gone (picked up or empty
 * returned), not on a train, and without a hold of that name already.
 */
function canTakeHold(attributes, hold) {
	if (set(attributes.empty_terminated_at)) return false;
	if (set(attributes.pod_full_out_at) || set(attributes.final_destination_full_out_at))
		return false;
	if (set(attributes.pod_rail_loaded_at) && !set(attributes.ind_rail_unloaded_at)) return false;
	return !(attributes.holds_at_pod_terminal ?? []).some((held) => held.name === hold);
}

/** The first email to arrive whose subject names the container and the change, or undefined. */
async function awaitEmail(mailUrl, number, change, seen) {
	const deadline = Date.now() + EMAIL_TIMEOUT_MS;
	while (Date.now() < deadline) {
		await sleep(2000);
		const emails = await inboxEmails(mailUrl).catch(() => []);
		const found = emails.find(
			(email) =>
				!seen.has(email.id) &&
				String(email.subject).includes(number) &&
				String(email.subject).includes(` hold ${change} `),
		);
		if (found) {
			seen.add(found.id);
			return found;
		}
	}
	return undefined;
}

async function change(sandbox, container, body) {
	const { status, body: answer } = await sandbox.control(
		'POST',
		`/containers/${container.id}/changes`,
		body,
	);
	return { ok: status === 200, status, detail: answer?.errors?.[0]?.detail ?? '' };
}

async function main() {
	const { hold, demoDir } = options();
	const demo = readDemo(demoDir);
	const sandbox = sandboxClient(demo.sandboxUrl, demo.apiKey);
	const listed = await sandbox.api('GET', '/containers?page[size]=100').catch(() => undefined);
	if (listed?.status !== 200)
		fail(
			`The sandbox at ${demo.sandboxUrl} does not answer: is \`npm start\` still running? Start it again, then run this again.`,
		);
	const candidates = (listed.body.data ?? []).filter((container) =>
		canTakeHold(container.attributes, hold),
	);
	let placed;
	for (const container of candidates) {
		const answer = await change(sandbox, container, { kind: 'place_hold', name: hold });
		if (answer.ok) {
			placed = container;
			break;
		}
	}
	if (!placed)
		fail(
			`No container of the demo can take a ${hold} hold right now (each is gone, on a train or held already): wait for the demo's next container (20 s) and run this again.`,
		);
	const number = placed.attributes.number;
	const label = `${hold.charAt(0).toUpperCase()}${hold.slice(1)}`;
	process.stdout.write(
		`Placed a ${hold} hold on ${number}.\nWaiting for its alert in the mail inbox ${demo.mailUrl} …\n`,
	);
	const seen = new Set();
	const missing = (what) =>
		fail(
			`No "${label} hold ${what} on ${number}" email within ${EMAIL_TIMEOUT_MS / 1000} s. In n8n (${demo.n8nUrl}), open the workflow "Container holds → email", tab Executions: a failed execution says which node stopped and why; none at all means no delivery reached the trigger (${TROUBLESHOOTING}).`,
		);
	const placedEmail = await awaitEmail(demo.mailUrl, number, 'placed', seen);
	if (!placedEmail) missing('placed');
	const to = (email) => (email.to ?? []).map((recipient) => recipient.address).join(', ');
	process.stdout.write(`  email to ${to(placedEmail)}: "${placedEmail.subject}"\n`);
	const cleared = await change(sandbox, placed, { kind: 'clear_hold', name: hold });
	if (!cleared.ok) fail(`Clearing the hold answered HTTP ${cleared.status}: ${cleared.detail}`);
	process.stdout.write(`Cleared the ${hold} hold on ${number}.\n`);
	const clearedEmail = await awaitEmail(demo.mailUrl, number, 'released', seen);
	if (!clearedEmail) missing('released');
	process.stdout.write(
		`  email to ${to(clearedEmail)}: "${clearedEmail.subject}"\nBoth alerts arrived: open the mail inbox to read them, and n8n's Executions to see their two runs.\n`,
	);
}

main().catch((error) => fail(`demo:hold: ${error.message}`));

// A local SMTP server with a web inbox (maildev, a devDependency), for `npm start` and the
// end-to-end tests: n8n's Send Email node delivers the example hold alerts to it, people read
// them at `webUrl`, tests read `messages`. Nothing is relayed anywhere.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { MailDev } from 'maildev';

/**
 * Starts maildev on 127.0.0.1. Port 0 (the default) lets the system pick a free port when the
 * server binds, so two test files never race for the same one.
 *
 * `messages` fills as mail arrives, each as maildev parsed it: `subject`, `from`, `to`, `text`,
 * `html`, `headers`. The mail files live in a folder of their own, removed by `stop`.
 */
export async function startMailServer({ smtpPort = 0, webPort = 0, holdable = false } = {}) {
	const mailDirectory = mkdtempSync(path.join(os.tmpdir(), 'ct-mail-'));
	const maildev = new MailDev({
		smtp: smtpPort,
		ip: '127.0.0.1',
		web: webPort,
		webIp: '127.0.0.1',
		mailDirectory,
		silent: true,
	});
	await maildev.start();
	const { smtp, api } = maildev.getServers();
	const messages = [];
	smtp.on('new', (message) => messages.push(message));
	const webUrl = `http://127.0.0.1:${api.getAddress().port}`;
	const gate = holdable ? await startGate(smtp.getAddress().port) : undefined;
	return {
		smtpHost: '127.0.0.1',
		smtpPort: gate?.port ?? smtp.getAddress().port,
		webUrl,
		messages,
		/** Holdable only: new SMTP connections wait, unanswered, until `release()`. */
		hold: () => gate?.hold(),
		/** Holdable only: new SMTP connections are closed at once (a server that is down) until `release()`. */
		refuse: () => gate?.refuse(),
		release: () => gate?.release(),
		/** Holdable only: the connections waiting now. */
		waiting: () => gate?.waiting() ?? 0,
		async stop() {
			gate?.close();
			await maildev.stop();
			rmSync(mailDirectory, { recursive: true, force: true });
		},
	};
}

/** The emails of the MailDev inbox at `webUrl`, as its REST API lists them. */
export async function inboxEmails(webUrl) {
	return await (await fetch(`${webUrl}/api/email`)).json();
}

/**
 * A gate in front of the SMTP port, for tests that need an execution to stop at its Send Email
 * node (a mail server that does not answer yet): while held, a connection is accepted and left
 * waiting, as a slow server leaves it; while refusing, it is closed at once, as a server that is
 * down closes it; released, it goes through.
 */
async function startGate(smtpPort) {
	let held = false;
	let refusing = false;
	const parked = [];
	const sockets = new Set();
	const through = (client) => {
		if (client.destroyed) return;
		const upstream = net.connect(smtpPort, '127.0.0.1');
		sockets.add(upstream);
		const end = () => {
			client.destroy();
			upstream.destroy();
			sockets.delete(client);
			sockets.delete(upstream);
		};
		for (const socket of [client, upstream]) {
			socket.on('error', end);
			socket.on('close', end);
		}
		client.pipe(upstream);
		upstream.pipe(client);
	};
	const server = net.createServer((client) => {
		sockets.add(client);
		client.on('error', () => client.destroy());
		if (refusing) client.destroy();
		else if (held) parked.push(client);
		else through(client);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: server.address().port,
		hold: () => (held = true),
		refuse: () => (refusing = true),
		release: () => {
			held = false;
			refusing = false;
			for (const client of parked.splice(0)) through(client);
		},
		waiting: () => parked.filter((client) => !client.destroyed).length,
		close: () => {
			server.close();
			for (const socket of sockets) socket.destroy();
		},
	};
}

/** The SMTP credential examples/hold-alerts.json names; `npm start` and the tests import it. */
export const DEMO_SMTP_CREDENTIAL = { id: 'ctDemoSmtp', name: 'Demo inbox (maildev)' };

/**
 * n8n's SMTP credential for that server: no TLS, no login (maildev accepts any sender), and
 * STARTTLS off because maildev offers none.
 */
export function smtpCredential(server, { id, name } = DEMO_SMTP_CREDENTIAL) {
	return {
		id,
		name,
		type: 'smtp',
		data: {
			host: server.smtpHost,
			port: server.smtpPort,
			secure: false,
			disableStartTls: true,
			user: '',
			password: '',
		},
	};
}

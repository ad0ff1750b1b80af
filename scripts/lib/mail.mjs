// A local SMTP server with a web inbox (maildev, a devDependency), for `npm start` and the
// end-to-end tests: n8n's Send Email node delivers the example hold alerts to it, people read
// them at `webUrl`, tests read `messages`. Nothing is relayed anywhere.
import { mkdtempSync, rmSync } from 'node:fs';
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
export async function startMailServer({ smtpPort = 0, webPort = 0 } = {}) {
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
	return {
		smtpHost: '127.0.0.1',
		smtpPort: smtp.getAddress().port,
		webUrl,
		messages,
		async stop() {
			await maildev.stop();
			rmSync(mailDirectory, { recursive: true, force: true });
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

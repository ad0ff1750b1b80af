// A real IMAP server for the Track from email example (examples/track-from-email.json): its
// end-to-end test and `npm start`. Debian's `dovecot-imapd`, installed here when missing (as
// scripts/lib/services.mjs installs Postgres), run as a private instance: its own configuration,
// mail, sockets and logs in a temporary folder, listening on 127.0.0.1 and a free port, so that
// several run at once and none touches a system dovecot. Mail reaches it by IMAP APPEND, as any
// IMAP server takes it (appendMessage in sandbox/arrivalNotice.ts; the sandbox's
// `POST /_sandbox/mail/arrival-notice` mails an arrival notice so).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort, portInUse, processStopper } from './n8n.mjs';
import { installDebianPackages } from './services.mjs';

const DOVECOT = '/usr/sbin/dovecot';
/** Generous: 5x the quiet second dovecot takes to listen. */
const START_TIMEOUT_MS = 30_000;

const isRoot = () => process.getuid?.() === 0;

/** Installs Debian's `dovecot-imapd` when dovecot is missing. */
export async function ensureDovecot() {
	if (existsSync(DOVECOT)) return;
	await installDebianPackages(['dovecot-imapd'], 'the Track from email example');
	if (!existsSync(DOVECOT)) throw new Error('installing dovecot-imapd left no /usr/sbin/dovecot');
}

/** uid and gid of a system user, from /etc/passwd. */
function systemUser(name) {
	const line = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((entry) => entry.startsWith(`${name}:`));
	if (!line) return undefined;
	const [, , uid, gid] = line.split(':');
	return { name, uid: Number(uid), gid: Number(gid) };
}

function groupName(gid) {
	const line = readFileSync('/etc/group', 'utf8')
		.split('\n')
		.find((entry) => entry.split(':')[2] === String(gid));
	return line?.split(':')[0];
}

/**
 * Who runs what. As root, dovecot's master stays root, its login processes run as the package's
 * `dovenull` and its internal ones as `dovecot`, and mail is read and written as `nobody` (dovecot
 * refuses root for mail, and a mail user must differ from the login user). As anyone else, every
 * process runs as that user, which dovecot allows when told so.
 */
function accounts() {
	if (isRoot()) {
		const login = systemUser('dovenull');
		const internal = systemUser('dovecot');
		const mail = systemUser('nobody');
		if (!login || !internal || !mail)
			throw new Error(
				'the users dovenull, dovecot and nobody are needed (dovecot-core makes the first two)',
			);
		return {
			login: login.name,
			internal: internal.name,
			internalGroup: groupName(internal.gid) ?? 'dovecot',
			mail: { ...mail, group: groupName(mail.gid) ?? String(mail.gid) },
		};
	}
	const self = os.userInfo();
	const user = { name: self.username, uid: self.uid, gid: self.gid };
	const group = groupName(self.gid) ?? String(self.gid);
	return {
		login: self.username,
		internal: self.username,
		internalGroup: group,
		mail: { ...user, group },
	};
}

function configuration({ root, port, instance, users, accounts: who }) {
	// Without root, no process can chroot.
	const unprivileged = !isRoot();
	return `# A private dovecot (scripts/lib/imap.mjs), nothing shared with a system one.
instance_name = ${instance}
base_dir = ${root}/run
state_dir = ${root}/state
listen = 127.0.0.1
protocols = imap
ssl = no
# Plain text passwords over an unencrypted connection: only on 127.0.0.1.
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = ${root}/dovecot.log
default_login_user = ${who.login}
default_internal_user = ${who.internal}
default_internal_group = ${who.internalGroup}
first_valid_uid = ${who.mail.uid}
last_valid_uid = ${who.mail.uid}
first_valid_gid = ${who.mail.gid}
last_valid_gid = ${who.mail.gid}
mail_location = maildir:${root}/mail/%u
mail_uid = ${who.mail.uid}
mail_gid = ${who.mail.gid}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${users}
}
userdb {
  driver = static
  args = uid=${who.mail.uid} gid=${who.mail.gid} home=${root}/home/%u
}
service imap-login {${unprivileged ? '\n  chroot =' : ''}
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
  inet_listener pop3s {
    port = 0
  }
}
service submission-login {
  inet_listener submission {
    port = 0
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0600
  }
}
${unprivileged ? 'service anvil {\n  chroot =\n}\n' : ''}namespace inbox {
  inbox = yes
  separator = /
}
`;
}

/**
 * Starts a private dovecot (ensureDovecot() first) with one user, `user`/`password` (generated
 * when not given). Returns `{ host, port, user, password, log(), logins(), stop() }`; `stop` ends it and
 * removes its folder.
 */
export async function startImapServer({
	user = 'arrivals@example.com',
	password = randomBytes(9).toString('base64url'),
} = {}) {
	if (!existsSync(DOVECOT)) throw new Error('dovecot is not installed: call ensureDovecot() first');
	const root = mkdtempSync(path.join(os.tmpdir(), 'ct-imap-'));
	const who = accounts();
	// dovecot's processes reach the folder as other users (as root: nobody, dovenull).
	chmodSync(root, 0o755);
	for (const folder of ['run', 'state', 'mail', 'home']) mkdirSync(path.join(root, folder));
	for (const folder of ['mail', 'home']) {
		const target = path.join(root, folder);
		if (isRoot()) chownSync(target, who.mail.uid, who.mail.gid);
	}
	const users = path.join(root, 'users');
	writeFileSync(users, `${user}:${password}::::::\n`, { mode: 0o644 });
	const port = await freePort();
	const config = path.join(root, 'dovecot.conf');
	const instance = `ct-imap-${path.basename(root).slice('ct-imap-'.length)}`;
	writeFileSync(config, configuration({ root, port, instance, users, accounts: who }));
	const child = spawn(DOVECOT, ['-F', '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	const read = (chunk) => (output = (output + chunk.toString()).slice(-20_000));
	child.stdout.on('data', read);
	child.stderr.on('data', read);
	const log = () => {
		const file = path.join(root, 'dovecot.log');
		return `${output}${existsSync(file) ? readFileSync(file, 'utf8').slice(-20_000) : ''}`;
	};
	const stopProcess = processStopper(child);
	const stop = async () => {
		await stopProcess();
		rmSync(root, { recursive: true, force: true });
	};
	try {
		const started = Date.now();
		while (!(await portInUse(port))) {
			if (child.exitCode !== null) throw new Error(`dovecot exited with ${child.exitCode}`);
			if (Date.now() - started > START_TIMEOUT_MS)
				throw new Error(`dovecot did not listen on ${port} within ${START_TIMEOUT_MS / 1000} s`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	} catch (error) {
		const seen = log();
		await stop();
		throw new Error(`${error.message}\n${seen.slice(-3000)}`);
	}
	return {
		host: '127.0.0.1',
		port,
		user,
		password,
		log,
		/** How many logins the server has taken: an IMAP trigger that is listening has logged in. */
		logins: () => (log().match(/imap-login: Info: Login: /g) ?? []).length,
		stop,
	};
}

/** The IMAP credential examples/track-from-email.json names; `npm start` and the tests create it. */
export const DEMO_IMAP_CREDENTIAL = { id: 'ctDemoImap', name: 'Arrival notices inbox (IMAP)' };

/**
 * n8n's IMAP credential (type `imap`) for `server`: no TLS (dovecot here offers none), plain
 * login on 127.0.0.1.
 */
export function imapCredential(server, { id, name } = DEMO_IMAP_CREDENTIAL) {
	return {
		id,
		name,
		type: 'imap',
		data: {
			user: server.user,
			password: server.password,
			host: server.host,
			port: server.port,
			secure: false,
			allowUnauthorizedCerts: false,
		},
	};
}

// The demo's IMAP mailbox for the Track from email example (`npm start`): an IMAP server inside
// this process, from the hoodiecrow-imap devDependency, holding its mail in memory, on 127.0.0.1
// and a free port. Nothing to install and no root, on every platform the demo runs on. It speaks
// what the example and the sandbox use (LOGIN, SELECT, IDLE, SEARCH, FETCH, STORE, APPEND), which
// n8n's Email Trigger (IMAP) and imapflow were tried against; the end-to-end test of the example
// runs it against a real server instead (dovecot: scripts/lib/imap.mjs).
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

const hoodiecrow = createRequire(import.meta.url)('hoodiecrow-imap');

/** Capabilities n8n's IMAP client and imapflow look for; the rest of IMAP4rev1 is built in. */
const PLUGINS = ['ID', 'IDLE', 'ENABLE', 'NAMESPACE', 'UIDPLUS', 'UNSELECT', 'LITERALPLUS'];

/**
 * Starts a mailbox with one user, `user`/`password` (generated when not given). Returns what
 * scripts/lib/imap.mjs's startImapServer returns: `{ host, port, user, password, log(),
 * logins(), stop() }`.
 */
export async function startMemoryImapServer({
	user = 'arrivals@example.com',
	password = randomBytes(9).toString('base64url'),
} = {}) {
	const server = hoodiecrow({
		plugins: PLUGINS,
		users: { [user]: { password } },
		storage: { INBOX: { messages: [] }, '': { separator: '/', folders: {} } },
	});
	const events = [];
	let logins = 0;
	// Every answer passes here: the successful logins are counted, commands it answered NO or BAD logged.
	server.outputHandlers.push((connection, response, description) => {
		if (description === 'LOGIN SUCCESS' || /^AUTHENTICATE \S+ SUCCESS$/.test(description))
			logins += 1;
		if (['NO', 'BAD'].includes(response.command))
			events.push(`${new Date().toISOString()} ${response.command} ${description ?? ''}`);
	});
	await new Promise((resolve, reject) => {
		server.server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.server.address();
	const sockets = new Set();
	server.server.on('connection', (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	return {
		host: '127.0.0.1',
		port,
		user,
		password,
		log: () => events.join('\n'),
		/** How many logins the server has taken: an IMAP trigger that is listening has logged in. */
		logins: () => logins,
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

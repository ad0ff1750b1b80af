// The private IMAP servers of scripts/lib/imap.mjs (Debian's dovecot), typed for the tests that
// mail into them: test/sandbox/arrivalNotice.test.ts, test/e2e/trackFromEmail.test.ts.
import { importNative } from './importNative';

export interface ImapServer {
	host: string;
	port: number;
	user: string;
	password: string;
	log(): string;
	/** How many logins the server has taken (an IMAP trigger that listens has logged in). */
	logins(): number;
	stop(): Promise<void>;
}

export interface ImapLib {
	/** Installs Debian's dovecot-imapd when missing (apt-get: root or `sudo -n`). */
	ensureDovecot(): Promise<void>;
	startImapServer(options?: { user?: string; password?: string }): Promise<ImapServer>;
	/** n8n's IMAP credential for `server`, as examples/track-from-email.json names it. */
	imapCredential(server: ImapServer): {
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	};
}

/** Installs dovecot when missing, then starts a private server with one user, `user`. */
export async function startImap(user: string): Promise<{ imap: ImapServer; lib: ImapLib }> {
	const lib = await importNative<ImapLib>('scripts/lib/imap.mjs');
	await lib.ensureDovecot();
	return { imap: await lib.startImapServer({ user }), lib };
}

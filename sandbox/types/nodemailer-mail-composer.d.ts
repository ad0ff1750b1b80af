// nodemailer ships no types; the sandbox uses only its MIME builder (sandbox/arrivalNotice.ts).
declare module 'nodemailer/lib/mail-composer' {
	interface Attachment {
		filename: string;
		content: Buffer | Uint8Array;
		contentType?: string;
	}
	interface MailOptions {
		from: string;
		to: string;
		subject: string;
		/** Absent: an HTML-only email. */
		text?: string;
		html?: string;
		messageId?: string;
		date?: Date;
		attachments?: Attachment[];
	}
	class MailComposer {
		constructor(options: MailOptions);
		compile(): { build(): Promise<Buffer> };
	}
	export = MailComposer;
}

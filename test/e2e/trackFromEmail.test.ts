/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The Track from email example (examples/track-from-email.json) in a real n8n with the packed
// package, reading a real IMAP server (Debian's dovecot, installed when missing and started on a
// free port: scripts/lib/imap.mjs) through an IMAP credential created over n8n's REST API, as the
// editor's Save does. The sandbox mails a forwarder's arrival notice with a PDF into the mailbox
// (POST /_sandbox/mail/arrival-notice); what a user then sees: the tracking requests the service
// has (the new numbers, the email's subject as their reference; none for the typo or the booking;
// the tracked one not again) and one reply in the local inbox (maildev) saying what is tracked,
// what was already, and what could not be and why. An email without numbers gets a reply saying
// so; our own reply, landing in the mailbox, is left alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import MailComposer from 'nodemailer/lib/mail-composer';

import { appendMessage, type ArrivalNoticeNumbers } from '../../sandbox/arrivalNotice';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { startImap, type ImapServer } from '../support/imap';
import { eventually } from '../support/sandbox';
import {
	activateOverRest,
	ACTIVATION_QUIET_MS,
	EXECUTION_QUIET_MS,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	startE2e,
	startMailServer,
	storedExecutions,
	TEARDOWN_TIMEOUT,
	type E2eContext,
	type MailServer,
	type ReceivedMail,
} from './helpers';

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'track-from-email.json');
const WORKFLOW_ID = 'ctTrackFromEmail';
const REPLY_FROM = 'tracking-desk@example.com';
/**
 * One email, from its APPEND to the reply in the inbox: the trigger told of it, its text and PDF
 * read, ten numbers inferred, six tracking requests made, one email sent. 6 s on n8n 2.41.3 once
 * warm; the first takes 23 s on a busy two-core machine (n8n starts its Code task runner).
 */
const NOTICE_QUIET_MS = 25_000;
/** The mail server has a message a moment after n8n sent it; nothing more may follow. */
const QUIET_AFTER_REPLY_MS = 1_000;
const TEST_TIMEOUT = generous(NOTICE_QUIET_MS + ACTIVATION_QUIET_MS);

interface TrackingRequest {
	request_number: string;
	request_type: string;
	scac: string;
	ref_numbers: string[];
}

describe('e2e: Track from email, a real IMAP server and a real n8n', () => {
	let ctx: E2eContext;
	let mail: MailServer;
	let imap: ImapServer;
	let n8n: { url: string; cookie: string; log(): string };

	const trackingRequests = () =>
		ctx.handle.sandbox.world.store
			.list('tracking_request')
			.map((request) => request.attributes as unknown as TrackingRequest);
	const replyTo = async (subject: string) =>
		await eventually(
			async () => mail.messages.find((message) => message.subject === `Re: ${subject}`),
			{
				timeoutMs: generous(NOTICE_QUIET_MS),
				intervalMs: 250,
				what: `the reply to "${subject}"`,
			},
		).catch((error: Error) => {
			throw new Error(
				`${error.message}\ninbox: ${JSON.stringify(mail.messages.map((message) => message.subject))}\nn8n's log:\n${n8n.log().slice(-4000)}\ndovecot's log:\n${imap.log().slice(-2000)}`,
			);
		});
	const executions = async () => await storedExecutions(n8n, ctx.workflowId(WORKFLOW_ID));
	const account = () => ({
		host: imap.host,
		port: imap.port,
		user: imap.user,
		password: imap.password,
	});
	/** Lines of a reply's section ("Now tracked:" …), each without its "- ". */
	const section = (message: ReceivedMail, title: string) => {
		const lines = String(message.text).split('\n');
		const start = lines.indexOf(`${title}:`);
		if (start < 0) return [];
		const end = lines.findIndex((line, index) => index > start && !line.startsWith('- '));
		return lines.slice(start + 1, end < 0 ? undefined : end).map((line) => line.slice(2));
	};

	beforeAll(async () => {
		const started = await startImap('arrivals@example.com');
		imap = started.imap;
		mail = await startMailServer();
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 1 } });
		await ctx.importCredentials([sandboxCredential()], mail);
		n8n = await ctx.start();

		// The IMAP credential as a user saves it in the editor: over n8n's REST API.
		const { id: exampleId, ...credential } = started.lib.imapCredential(imap);
		const created = await rest(n8n.url, n8n.cookie, 'POST', '/credentials', credential);
		expect(created.status).toBe(200);
		const workflow = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
		for (const node of workflow.nodes)
			if (node.credentials?.imap?.id === exampleId)
				node.credentials.imap = { id: created.body.data.id, name: credential.name };
		// n8n 1.94's import:workflow needs the column (test/e2e/helpers.ts, workflow()).
		await ctx.importWorkflow({ ...workflow, active: false });

		// Published as a user publishes it; the trigger then logs in to the mailbox and waits.
		const loginsBefore = imap.logins();
		if (ctx.shared) await ctx.activate(WORKFLOW_ID);
		else {
			const id = ctx.workflowId(WORKFLOW_ID);
			const saved = await rest(n8n.url, n8n.cookie, 'GET', `/workflows/${id}`);
			const { error } = await activateOverRest(n8n.url, n8n.cookie, id, saved.body.data.versionId);
			expect(error).toBeNull();
		}
		await eventually(async () => (imap.logins() > loginsBefore ? true : undefined), {
			timeoutMs: generous(ACTIVATION_QUIET_MS),
			intervalMs: 100,
			what: 'the Email Trigger (IMAP) to log in to the mailbox',
		});
		// Logged in, it selects the mailbox and listens: mail from now on is announced to it.
		await sleep(generous(200));
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
		await imap?.stop();
	}, TEARDOWN_TIMEOUT);

	it(
		'an arrival notice with a PDF: its new numbers tracked with the subject as reference, the rest not, and one reply saying which and why',
		async () => {
			const before = trackingRequests();
			const answer = await ctx.handle.control.post('/mail/arrival-notice', { imap: account() });
			expect(answer.status).toBe(201);
			const sent = answer.data as {
				subject: string;
				from: string;
				attachment: string;
				numbers: ArrivalNoticeNumbers;
			};
			const { to_track, already_tracked, wrong_check_digit, no_carrier_prediction } = sent.numbers;
			// The notice named one the account tracked before it was sent.
			for (const entry of already_tracked)
				expect(trackingRequests().map((request) => request.request_number)).toContain(entry.number);

			const reply = await replyTo(sent.subject);
			await sleep(generous(QUIET_AFTER_REPLY_MS));
			const replies = mail.messages.filter((message) => message.subject.startsWith('Re: '));
			expect(replies).toHaveLength(1);
			expect(reply.to.map((address) => address.address)).toEqual([
				'import-desk@harbor-forwarding.example',
			]);
			expect(reply.from.map((address) => address.address)).toEqual([REPLY_FROM]);
			process.stdout.write(`the reply to "${sent.subject}":\n${reply.text}\n`);

			// The service's tracking requests: one per new number, as Find Numbers typed and carried it
			// (no second inference), the subject as the reference; none for the typo or the booking;
			// the already tracked one not twice.
			const added = trackingRequests().filter(
				(request) =>
					!before.some(
						(old) => old.request_number === request.request_number && old.scac === request.scac,
					),
			);
			// (The notice tracked its already-tracked number itself, before it was sent.)
			const fresh = added.filter(
				(request) => !already_tracked.some((entry) => entry.number === request.request_number),
			);
			expect(
				fresh.map(({ request_number, request_type, scac, ref_numbers }) => ({
					request_number,
					request_type,
					scac,
					ref_numbers,
				})),
			).toEqual(
				expect.arrayContaining(
					to_track.map((entry) => ({
						request_number: entry.number,
						request_type: entry.number_type,
						scac: entry.scac,
						ref_numbers: [sent.subject],
					})),
				),
			);
			expect(fresh).toHaveLength(to_track.length);
			for (const entry of [...wrong_check_digit, ...no_carrier_prediction])
				expect(trackingRequests().map((request) => request.request_number)).not.toContain(
					entry.number,
				);
			for (const entry of already_tracked)
				expect(
					trackingRequests().filter((request) => request.request_number === entry.number),
				).toHaveLength(1);
			// Numbers found only in the PDF were tracked too.
			expect(to_track.filter((entry) => entry.in.join() === 'pdf').length).toBeGreaterThan(0);

			// The reply: what is now tracked, what was already, what could not be and why.
			const numberOf = (line: string) => line.split(' ')[0].replace(/:$/, '');
			expect(section(reply, 'Now tracked').map(numberOf).sort()).toEqual(
				to_track.map((entry) => entry.number).sort(),
			);
			expect(section(reply, 'Already tracked').map(numberOf)).toEqual(
				already_tracked.map((entry) => entry.number),
			);
			const notTracked = section(reply, 'Could not be tracked');
			expect(notTracked.map(numberOf).sort()).toEqual(
				[...wrong_check_digit, ...no_carrier_prediction].map((entry) => entry.number).sort(),
			);
			for (const typo of wrong_check_digit) {
				const line = notTracked.find((text) => text.startsWith(typo.number))!;
				expect(line).toContain('wrong check digit');
				expect(line).toContain(`${typo.correct} would be valid`);
			}
			for (const booking of no_carrier_prediction) {
				const line = notTracked.find((text) => text.startsWith(booking.number))!;
				expect(line).toMatch(/^\d+ \(booking\): no carrier prediction/);
			}
			expect(reply.text).toContain(`and in ${sent.attachment}:`);
			expect(reply.text).toContain(
				`The new tracking requests carry the reference "${sent.subject}".`,
			);
			expect(String(reply.html)).toContain('<b>Now tracked</b>');
			expect((await executions()).map((execution) => execution.status)).toEqual(['success']);
		},
		TEST_TIMEOUT,
	);

	it(
		'a number the service refuses is listed with its reason; the others of the email are tracked',
		async () => {
			// The service refuses the next tracking request (a 422 that is not "already tracked").
			const fault = await ctx.handle.control.post('/faults', {
				path: '/tracking_requests',
				method: 'POST',
				kind: 'refused',
				count: 1,
			});
			expect(fault.status).toBe(201);
			const answer = await ctx.handle.control.post('/mail/arrival-notice', { imap: account() });
			expect(answer.status).toBe(201);
			const sent = answer.data as { subject: string; numbers: ArrivalNoticeNumbers };
			const reply = await replyTo(sent.subject);
			const wanted = sent.numbers.to_track.map((entry) => entry.number);
			const refused = section(reply, 'Could not be tracked').filter((line) =>
				line.includes('the service did not take it: '),
			);
			expect(refused).toHaveLength(1);
			expect(refused[0]).toContain('Request number is not accepted by the shipping line');
			const refusedNumber = refused[0].split(' ')[0];
			expect(wanted).toContain(refusedNumber);
			const trackedNow = section(reply, 'Now tracked').map((line) => line.split(' ')[0]);
			expect(trackedNow.sort()).toEqual(wanted.filter((number) => number !== refusedNumber).sort());
			const requested = trackingRequests().filter((request) =>
				request.ref_numbers.includes(sent.subject),
			);
			expect(requested.map((request) => request.request_number).sort()).toEqual(trackedNow);
		},
		TEST_TIMEOUT,
	);

	it(
		'an HTML-only email: the numbers in its tables, a label beside its value and a column of containers, are tracked',
		async () => {
			const billOfLading = `MEDUHT${String(Date.now()).slice(-6)}`;
			const container = withCheckDigit(`MSCU${String(Date.now()).slice(-6)}`);
			const subject = 'Arrival notice (HTML) for PO 5120';
			await appendMessage(
				account(),
				await new MailComposer({
					from: 'Import desk <imports@forwarder.example>',
					to: imap.user,
					subject,
					html: `<html><body><p>Dear&nbsp;customer,</p><table>
<tr><td><b>B/L No.</b></td><td>${billOfLading}</td></tr></table>
<table><tr><th>Container</th><th>Size</th></tr><tr><td>${container.slice(0, 4)}&nbsp;${container.slice(4, 10)}-${container.slice(10)}</td><td>40HC</td></tr></table></body></html>`,
				})
					.compile()
					.build(),
			);
			const reply = await replyTo(subject);
			expect(
				section(reply, 'Now tracked')
					.map((line) => line.split(' ')[0])
					.sort(),
			).toEqual([billOfLading, container].sort());
			const requested = trackingRequests().filter((request) =>
				[billOfLading, container].includes(String(request.request_number)),
			);
			expect(requested.map((request) => request.ref_numbers)).toEqual([[subject], [subject]]);
		},
		TEST_TIMEOUT,
	);

	it(
		'an email without numbers gets a reply saying none were found, and tracks nothing; our own reply in the mailbox is left alone',
		async () => {
			const before = trackingRequests().length;
			const runs = (await executions()).length;
			const subject = 'Warehouse visit on Friday';
			await appendMessage(
				account(),
				await new MailComposer({
					from: 'Dana Buyer <dana@acme.example>',
					to: imap.user,
					subject,
					text: 'Hello, could we visit the warehouse on Friday at 10? Thanks, Dana',
				})
					.compile()
					.build(),
			);
			const reply = await replyTo(subject);
			expect(reply.to.map((address) => address.address)).toEqual(['dana@acme.example']);
			expect(reply.text).toBe(
				'No container, bill of lading or booking number was found in this email or its PDF attachments.',
			);
			expect(trackingRequests()).toHaveLength(before);

			// A copy of our own reply, with a number in it, lands in the mailbox: no reply, no request.
			const replies = mail.messages.length;
			await appendMessage(
				account(),
				await new MailComposer({
					from: `Tracking desk <${REPLY_FROM}>`,
					to: imap.user,
					subject: `Re: ${subject}`,
					text: `Now tracked:\n- ${withCheckDigit('MSCU771234')} (container, MSC)`,
				})
					.compile()
					.build(),
			);
			await eventually(
				async () => {
					const all = await executions();
					return all.length >= runs + 2 && all.every((run) => run.stoppedAt) ? all : undefined;
				},
				{
					timeoutMs: generous(2 * EXECUTION_QUIET_MS),
					intervalMs: 250,
					what: 'the execution for our own reply',
				},
			);
			await sleep(generous(QUIET_AFTER_REPLY_MS));
			expect(mail.messages).toHaveLength(replies);
			expect(trackingRequests()).toHaveLength(before);
		},
		TEST_TIMEOUT,
	);
});

/**
 * A forwarder's arrival notice, made from the sandbox's own world, mailed into an IMAP mailbox
 * (`POST /_sandbox/mail/arrival-notice`): the input of the Track from email example
 * (examples/track-from-email.json) in its end-to-end test and in `npm start`.
 *
 * The notice is written as forwarders write them: prose with container numbers spelt three ways
 * (MSCU1234565, "MSCU 123456 5", "MSCU-123456-5"), labelled bill of lading and booking numbers
 * ("B/L No.:", "Booking:"), a text table (| Container | B/L | Seal |), one container number with
 * a wrong check digit (a typo), a number the account already tracks, and a PDF attachment that
 * carries numbers found nowhere else. Every number is fresh in this world unless it is the
 * already-tracked one, so the notice says which numbers a reader of it can track and why the
 * others cannot be (`numbers`, for the tests to compare with what was tracked).
 */
import { DateTime } from 'luxon';
import MailComposer from 'nodemailer/lib/mail-composer';
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { computeCheckDigit } from '../nodes/ContainerTracking/logic/iso6346';
import { unprocessable, type ApiAnswer } from './http/jsonApi';
import type { ControlRoute } from './control';
import { inferNumber, type NumberType } from './inferNumber';
import { withCheckDigit } from './world/containerNumbers';
import { SeededRandom } from './world/random';
import { DISCHARGE_PORTS, VESSELS_BY_SCAC } from './world/referenceData';
import type { Resource } from './world/store';
import type { World } from './world/world';

/** Where a number is written: the email's text, the PDF, or both. */
export type NoticePart = 'body' | 'pdf';

export interface NoticeNumber {
	/** Normalized: upper case, no separators. */
	number: string;
	number_type: NumberType;
	/** The line the service's inference names for it with confidence; null when it names none. */
	scac: string | null;
	/** Each way it is written in the notice. */
	written_as: string[];
	in: NoticePart[];
}

export interface ArrivalNoticeNumbers {
	/** Valid, the carrier inferred with confidence (auto_select), not tracked yet. */
	to_track: NoticeNumber[];
	/** Tracked by the account already, with the SCAC the inference names. */
	already_tracked: NoticeNumber[];
	/** Container numbers whose check digit is wrong (a typo), with the number it was meant to be. */
	wrong_check_digit: Array<NoticeNumber & { correct: string }>;
	/** Valid numbers whose line the inference does not name (bookings). */
	no_carrier_prediction: NoticeNumber[];
}

export interface ArrivalNotice {
	/** The notice's own reference, AN-<date>-<sequence>. */
	reference: string;
	from: string;
	subject: string;
	text: string;
	html: string;
	attachment: { file_name: string; lines: string[] };
	numbers: ArrivalNoticeNumbers;
}

const FORWARDER = 'Harbor Forwarding Import Desk <import-desk@harbor-forwarding.example>';
/** The sequence of notices per world, so that each notice has fresh numbers and reference. */
const sequences = new WeakMap<World, number>();

/** How the notice names the already-tracked number, by its type. */
const TRACKED_LABEL: Record<string, string> = {
	container: 'Container',
	bill_of_lading: 'B/L',
	booking: 'Booking',
};

const spaced = (number: string) => `${number.slice(0, 4)} ${number.slice(4, 10)} ${number[10]}`;
const dashed = (number: string) => `${number.slice(0, 4)}-${number.slice(4, 10)}-${number[10]}`;

/** Every number the world knows: tracking requests', shipments' and containers'. */
function knownNumbers(world: World): Set<string> {
	const known = new Set<string>();
	for (const request of world.store.list('tracking_request'))
		known.add(String(request.attributes.request_number));
	for (const container of world.store.list('container'))
		known.add(String(container.attributes.number));
	for (const shipment of world.store.list('shipment')) {
		known.add(String(shipment.attributes.bill_of_lading_number));
		known.add(String(shipment.attributes.booking_number ?? ''));
	}
	return known;
}

/**
 * The account's tracking requests that a reader of the notice would send again as they are: not
 * failed, and their number inferred with confidence to the same line and type. Sent again, the
 * service answers that they are already tracked.
 */
function confidentlyTracked(world: World): Resource[] {
	return world.store.list('tracking_request').filter((request) => {
		const { request_number: number, request_type: type, scac, status } = request.attributes;
		if (status === 'failed' || !scac) return false;
		const inferred = inferNumber(String(number));
		return (
			inferred.validation.is_valid !== false &&
			inferred.number_type === type &&
			inferred.shipping_line.decision === 'auto_select' &&
			inferred.shipping_line.selected?.scac === scac
		);
	});
}

function noticeNumber(number: string, writtenAs: string[], parts: NoticePart[]): NoticeNumber {
	const inferred = inferNumber(number);
	return {
		number,
		number_type: inferred.number_type,
		scac:
			inferred.shipping_line.decision === 'auto_select'
				? (inferred.shipping_line.selected?.scac ?? null)
				: null,
		written_as: writtenAs,
		in: parts,
	};
}

/** A number that fits `shape` and that the world does not know yet. */
function fresh(known: Set<string>, shape: () => string): string {
	for (;;) {
		const number = shape();
		if (!known.has(number)) {
			known.add(number);
			return number;
		}
	}
}

/**
 * Composes the next arrival notice of `world`. When the account tracks nothing that the notice
 * could name as already tracked, it first tracks a bill of lading "from an earlier notice", so
 * that every notice has one.
 */
export function composeArrivalNotice(world: World): ArrivalNotice {
	const sequence = (sequences.get(world) ?? 0) + 1;
	sequences.set(world, sequence);
	const random = new SeededRandom(`arrival-notice:${sequence}`);
	const known = knownNumbers(world);
	const now = DateTime.fromMillis(world.clock.now(), { zone: 'UTC' });
	const reference = `AN-${now.toFormat('yyyyLLdd')}-${String(sequence).padStart(2, '0')}`;

	const container = (prefix: string) =>
		fresh(known, () => withCheckDigit(`${prefix}${random.digits(6)}`));
	const mscBillOfLading = () => fresh(known, () => `MEDU${random.letters(2)}${random.digits(6)}`);

	let tracked = confidentlyTracked(world).at(-1);
	if (!tracked) {
		tracked = world.createTrackingRequest({
			request_number: mscBillOfLading(),
			request_type: 'bill_of_lading',
			scac: 'MSCU',
			ref_numbers: [`AN-${now.minus({ days: 7 }).toFormat('yyyyLLdd')}-01`],
			shipment_tags: [],
		});
	}
	const trackedNumber = String(tracked.attributes.request_number);

	const spacedBox = container('MSCU');
	const dashedBox = container('HLCU');
	const tableBox = container('OOLU');
	const intended = container('MSCU');
	const rightDigit = computeCheckDigit(intended.slice(0, 10));
	const typo = `${intended.slice(0, 10)}${(rightDigit + 1 + random.int(0, 8)) % 10}`;
	known.add(typo);
	const billOfLading = mscBillOfLading();
	const booking = fresh(known, () => `${random.int(1, 9)}${random.digits(8)}`);
	const pdfBox = container('HDMU');
	const pdfBillOfLading = fresh(known, () => `HLCU${random.letters(3)}${random.digits(7)}`);
	const seals = [1, 2].map(() => `SL-${random.digits(7)}`);

	const port = random.pick(DISCHARGE_PORTS);
	const terminal = port.terminals[0];
	const vessel = random.pick(VESSELS_BY_SCAC.MSCU);
	const voyage = `${random.int(100, 999)}${random.pick(['E', 'W', 'N', 'S'])}`;
	const arrival = now.setZone(port.time_zone).plus({ days: 6 });
	const eta = arrival.toFormat('ccc d LLL yyyy');
	const freeDays = 4;

	const table = [
		'| Container   | B/L          | Seal       |',
		'|-------------|--------------|------------|',
		`| ${tableBox} | ${billOfLading} | ${seals[0]} |`,
		`| ${typo} | ${billOfLading} | ${seals[1]} |`,
	];
	const text = [
		'Dear customer,',
		'',
		`Please find below the arrival information for your cargo on ${vessel.name}, voyage ${voyage}, due at ${port.name} (${terminal.name}) on ${eta}.`,
		'',
		`B/L No.: ${billOfLading}`,
		`Booking: ${booking}`,
		'',
		`Containers ${spaced(spacedBox)} and ${dashed(dashedBox)} are on board and will be discharged on arrival; the boxes under the B/L above:`,
		'',
		...table,
		'',
		`${TRACKED_LABEL[String(tracked.attributes.request_type)] ?? 'Shipment'} ${trackedNumber} (see our earlier notice) is on the same vessel; nothing changes for it.`,
		'',
		`Free time at the terminal is ${freeDays} days from discharge. Please arrange customs clearance before arrival. The attached arrival notice lists the rest of the cargo.`,
		'',
		'Kind regards,',
		'Import desk, Harbor Forwarding',
	].join('\n');
	const escape = (value: string) =>
		value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	const html = `<p>${text
		.split('\n\n')
		.map((paragraph) => escape(paragraph).replace(/\n/g, '<br>'))
		.join('</p><p>')}</p>`;

	const lines = [
		'HARBOR FORWARDING - ARRIVAL NOTICE',
		`Notice ${reference}`,
		`Vessel: ${vessel.name}   Voyage: ${voyage}`,
		`Port of discharge: ${port.name}, ${terminal.name}`,
		`ETA: ${eta}`,
		'',
		`Bill of lading: ${pdfBillOfLading}`,
		`Container: ${pdfBox}   40' high cube`,
		`Container: ${spacedBox}   40' high cube`,
		'',
		`Free time: ${freeDays} days from discharge.`,
	];

	return {
		reference,
		from: FORWARDER,
		subject: `Arrival notice ${reference}: ${vessel.name} due at ${port.name} ${eta}`,
		text,
		html,
		attachment: { file_name: `arrival-notice-${reference}.pdf`, lines },
		numbers: {
			to_track: [
				noticeNumber(spacedBox, [spaced(spacedBox), spacedBox], ['body', 'pdf']),
				noticeNumber(dashedBox, [dashed(dashedBox)], ['body']),
				noticeNumber(tableBox, [tableBox], ['body']),
				noticeNumber(billOfLading, [billOfLading], ['body']),
				noticeNumber(pdfBox, [pdfBox], ['pdf']),
				noticeNumber(pdfBillOfLading, [pdfBillOfLading], ['pdf']),
			],
			already_tracked: [noticeNumber(trackedNumber, [trackedNumber], ['body'])],
			wrong_check_digit: [{ ...noticeNumber(typo, [typo], ['body']), correct: intended }],
			no_carrier_prediction: [noticeNumber(booking, [`Booking: ${booking}`], ['body'])],
		},
	};
}

/** The notice's PDF: its lines in Helvetica, one text run a line (a PDF reader reads each whole). */
export async function arrivalNoticePdf(notice: ArrivalNotice): Promise<Uint8Array> {
	const document = await PDFDocument.create();
	document.setTitle(`Arrival notice ${notice.reference}`);
	document.setProducer('container tracking sandbox');
	const font = await document.embedFont(StandardFonts.Helvetica);
	const page = document.addPage([595, 842]);
	let y = 790;
	for (const line of notice.attachment.lines) {
		if (line) page.drawText(line, { x: 50, y, size: line === line.toUpperCase() ? 14 : 11, font });
		y -= 20;
	}
	return await document.save();
}

/** The whole email (RFC 5322, MIME): text and HTML, the PDF attached. */
export async function arrivalNoticeMessage(
	notice: ArrivalNotice,
	to: string,
	messageId: string,
): Promise<Buffer> {
	const pdf = await arrivalNoticePdf(notice);
	return await new MailComposer({
		from: notice.from,
		to,
		subject: notice.subject,
		text: notice.text,
		html: notice.html,
		messageId,
		date: new Date(),
		attachments: [
			{
				filename: notice.attachment.file_name,
				content: Buffer.from(pdf),
				contentType: 'application/pdf',
			},
		],
	})
		.compile()
		.build();
}

export interface ImapAccount {
	host: string;
	port: number;
	user: string;
	password: string;
	/** Default INBOX. */
	mailbox?: string;
	/** TLS from the start (port 993); default false: plain on a local server. */
	secure?: boolean;
}

/**
 * Delivers `message` into the mailbox by IMAP APPEND, which every IMAP server accepts and which
 * tells a client watching the mailbox (n8n's Email Trigger) of a new message as any delivery
 * does. Returns its UID when the server says it (UIDPLUS).
 */
export async function appendMessage(
	account: ImapAccount,
	message: Buffer | string,
): Promise<number | undefined> {
	const { ImapFlow } = await import('imapflow');
	const client = new ImapFlow({
		host: account.host,
		port: account.port,
		secure: account.secure ?? false,
		doSTARTTLS: account.secure ? undefined : false,
		auth: { user: account.user, pass: account.password },
		logger: false,
	});
	await client.connect();
	try {
		const appended = await client.append(account.mailbox ?? 'INBOX', message, []);
		return appended ? appended.uid : undefined;
	} finally {
		await client.logout();
	}
}

/** A `POST /mail/arrival-notice` body's IMAP account, checked member by member. */
function imapAccount(body: unknown): { account: ImapAccount; to: string | undefined } {
	const given = (body ?? {}) as Record<string, unknown>;
	const imap = given.imap as Record<string, unknown> | undefined;
	if (typeof imap !== 'object' || imap === null)
		throw unprocessable(
			'give imap: {"host", "port", "user", "password"} of the mailbox to deliver to',
			'/imap',
			'blank',
		);
	for (const name of ['host', 'user', 'password'])
		if (typeof imap[name] !== 'string' || imap[name] === '')
			throw unprocessable(`imap.${name} must be text`, `/imap/${name}`, 'invalid');
	if (!Number.isInteger(imap.port) || (imap.port as number) < 1 || (imap.port as number) > 65535)
		throw unprocessable('imap.port must be a port number', '/imap/port', 'invalid');
	if (imap.mailbox !== undefined && typeof imap.mailbox !== 'string')
		throw unprocessable('imap.mailbox must be text', '/imap/mailbox', 'invalid');
	if (given.to !== undefined && typeof given.to !== 'string')
		throw unprocessable('to must be an email address', '/to', 'invalid');
	return {
		account: {
			host: imap.host as string,
			port: imap.port as number,
			user: imap.user as string,
			password: imap.password as string,
			mailbox: imap.mailbox as string | undefined,
			secure: imap.secure === true,
		},
		to: given.to as string | undefined,
	};
}

/** Composes the next notice and appends it to the mailbox; what was sent, with its numbers. */
async function mailArrivalNotice(world: World, body: unknown): Promise<ApiAnswer> {
	const { account, to: givenTo } = imapAccount(body);
	const to = givenTo ?? (account.user.includes('@') ? account.user : 'arrivals@example.com');
	const notice = composeArrivalNotice(world);
	const messageId = `<${notice.reference.toLowerCase()}.${world.clock.now()}@harbor-forwarding.example>`;
	const message = await arrivalNoticeMessage(notice, to, messageId);
	let uid: number | undefined;
	try {
		uid = await appendMessage(account, message);
	} catch (error) {
		return {
			status: 502,
			body: {
				errors: [
					{
						status: '502',
						title: 'Bad Gateway',
						detail: `the IMAP server at ${account.host}:${account.port} did not take the notice: ${(error as Error).message}`,
						code: 'imap',
					},
				],
			},
		};
	}
	return {
		status: 201,
		body: {
			message_id: messageId,
			from: notice.from,
			to,
			subject: notice.subject,
			mailbox: account.mailbox ?? 'INBOX',
			uid: uid ?? null,
			attachment: notice.attachment.file_name,
			numbers: notice.numbers,
		},
	};
}

/** The control API's mail routes (sandbox/server.ts adds them to sandbox/control.ts's). */
export function mailRoutes(world: World): ControlRoute[] {
	return [
		{
			method: 'POST',
			pattern: '/mail/arrival-notice',
			handle: (request) => mailArrivalNotice(world, request.body),
		},
	];
}

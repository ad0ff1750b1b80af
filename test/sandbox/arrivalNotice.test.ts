// The sandbox's arrival notice (sandbox/arrivalNotice.ts), the input of the Track from email
// example: numbers written as forwarders write them, each of which the sandbox then treats as the
// notice says (fresh ones accepted as tracking requests, the tracked one answered as a duplicate,
// the typo failing its check digit, the booking without a carrier); and the notice mailed by
// `POST /_sandbox/mail/arrival-notice` into a real IMAP server (Debian's dovecot, installed when
// missing: scripts/lib/imap.mjs), read back as n8n reads it, its PDF's text as n8n's Extract from
// File reads it.
import { ImapFlow } from 'imapflow';

import { checkContainerNumber } from '../../nodes/ContainerTracking/logic/iso6346';
import { composeArrivalNotice, type NoticeNumber } from '../../sandbox/arrivalNotice';
import { inferNumber } from '../../sandbox/inferNumber';
import { generous } from '../support/bounds';
import { startImap, type ImapServer } from '../support/imap';
import { importNative } from '../support/importNative';
import { startTestSandbox, type SandboxHandle } from '../support/sandbox';

interface PdfJs {
	getDocument(options: { data: Uint8Array; isEvalSupported: boolean; verbosity: number }): {
		promise: Promise<{
			numPages: number;
			getPage(page: number): Promise<{
				getTextContent(): Promise<{ items: Array<{ str?: string; transform: number[] }> }>;
			}>;
		}>;
	};
}

/** Installing dovecot (once per machine: apt-get) and starting it. */
const IMAP_SETUP_TIMEOUT = generous(60_000);

/**
 * A PDF's text as n8n's Extract from File joins it (n8n-nodes-base utils/binary.js, parseText):
 * runs on one line joined as they are, a new line where the next run is lower on the page.
 */
async function pdfText(bytes: Uint8Array): Promise<string> {
	const pdfjs = await importNative<PdfJs>('node_modules/pdfjs-dist/legacy/build/pdf.mjs');
	// Verbosity 0: no warning that the standard fonts' data is not given (only drawing needs it).
	const document = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, verbosity: 0 })
		.promise;
	const pages: string[] = [];
	for (let number = 1; number <= document.numPages; number++) {
		const content = await (await document.getPage(number)).getTextContent();
		let lastY: number | undefined;
		let text = '';
		for (const item of content.items) {
			if (item.str === undefined) continue;
			text += lastY === undefined || lastY === item.transform[5] ? item.str : `\n${item.str}`;
			lastY = item.transform[5];
		}
		pages.push(text);
	}
	return pages.join('\n\n');
}

const numbersOf = (entries: NoticeNumber[]) => entries.map((entry) => entry.number);

describe('sandbox: an arrival notice made from its own world', () => {
	let handle: SandboxHandle;

	beforeEach(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
	});
	afterEach(async () => {
		await handle.stop();
	});

	const track = (entry: NoticeNumber) =>
		handle.api.post('/tracking_requests', {
			data: {
				type: 'tracking_request',
				attributes: {
					request_number: entry.number,
					request_type: entry.number_type,
					scac: entry.scac,
				},
			},
		});

	it('writes numbers three ways, with labels and a table; each is what the notice says it is', async () => {
		const world = handle.sandbox.world;
		const notice = composeArrivalNotice(world);
		const { to_track, already_tracked, wrong_check_digit, no_carrier_prediction } = notice.numbers;

		// Written as forwarders write them.
		const written = (entry: NoticeNumber) => entry.written_as;
		const body = notice.text;
		const pdf = notice.attachment.lines.join('\n');
		for (const entry of [...to_track, ...already_tracked, ...wrong_check_digit]) {
			for (const form of written(entry)) {
				const where = [body.includes(form) && 'body', pdf.includes(form) && 'pdf'].filter(Boolean);
				expect({ form, found: where.length > 0 }).toEqual({ form, found: true });
			}
			if (entry.in.includes('body')) expect(body).toContain(entry.number.slice(0, 4));
		}
		const forms = to_track.flatMap(written);
		expect(forms.some((form) => /^[A-Z]{4} \d{6} \d$/.test(form))).toBe(true);
		expect(forms.some((form) => /^[A-Z]{4}-\d{6}-\d$/.test(form))).toBe(true);
		expect(forms.some((form) => /^[A-Z]{4}\d{7}$/.test(form))).toBe(true);
		expect(body).toMatch(/^B\/L No\.: [A-Z0-9]+$/m);
		expect(body).toMatch(/^Booking: \d+$/m);
		expect(body).toMatch(/^\| Container +\| B\/L +\| Seal +\|$/m);
		// Some numbers only in the PDF, some only in the body, one in both.
		const only = (part: 'body' | 'pdf') =>
			to_track.filter((entry) => entry.in.length === 1 && entry.in[0] === part);
		expect(only('pdf').length).toBeGreaterThanOrEqual(2);
		for (const entry of only('pdf')) expect(body).not.toContain(entry.number);
		expect(only('body').length).toBeGreaterThanOrEqual(2);
		for (const entry of only('body')) expect(pdf).not.toContain(entry.number);
		// The subject becomes a tracking request's reference, and commas separate references.
		expect(notice.subject).not.toContain(',');

		// The typo: a container number whose check digit is wrong, one digit off what was meant.
		expect(wrong_check_digit).toHaveLength(1);
		const [typo] = wrong_check_digit;
		expect(checkContainerNumber(typo.number).checkDigitPassed).toBe(false);
		expect(checkContainerNumber(typo.correct).isValid).toBe(true);
		expect(typo.number.slice(0, 10)).toBe(typo.correct.slice(0, 10));
		expect(inferNumber(typo.number).validation.is_valid).toBe(false);
		// The booking: valid, no carrier named.
		expect(no_carrier_prediction.map((entry) => entry.number_type)).toEqual(['booking']);
		for (const entry of no_carrier_prediction)
			expect(inferNumber(entry.number).shipping_line.decision).toBe('no_prediction');

		// The fresh numbers: unknown to the world, their carrier inferred with confidence, and the
		// service takes a tracking request for each.
		const known = world.store
			.list('tracking_request')
			.map((request) => String(request.attributes.request_number));
		expect(to_track.length).toBeGreaterThanOrEqual(5);
		for (const entry of to_track) {
			expect(known).not.toContain(entry.number);
			const inferred = inferNumber(entry.number);
			expect([inferred.number_type, inferred.shipping_line.decision]).toEqual([
				entry.number_type,
				'auto_select',
			]);
			expect(inferred.shipping_line.selected?.scac).toBe(entry.scac);
		}
		expect(new Set(to_track.map((entry) => entry.number_type))).toEqual(
			new Set(['container', 'bill_of_lading']),
		);
		for (const entry of to_track) expect((await track(entry)).status).toBe(201);

		// The already tracked one: the world had nothing to name, so the notice tracked one "from an
		// earlier notice"; asked again, the service answers that it is already tracked.
		expect(already_tracked).toHaveLength(1);
		expect(known).toContain(already_tracked[0].number);
		const again = await track(already_tracked[0]);
		expect(again.status).toBe(422);
		expect(again.data.errors[0].code).toBe('duplicate');

		// The next notice names fresh numbers again, and one that is tracked now (no new request).
		const requests = world.store.list('tracking_request').length;
		const next = composeArrivalNotice(world);
		expect(world.store.list('tracking_request')).toHaveLength(requests);
		for (const number of numbersOf(next.numbers.to_track))
			expect(numbersOf(to_track)).not.toContain(number);
		expect(next.subject).not.toBe(notice.subject);
		const duplicate = await track(next.numbers.already_tracked[0]);
		expect(duplicate.data.errors?.[0]?.code).toBe('duplicate');
	});

	it('names a number the account tracked itself as already tracked, and tracks none for that', async () => {
		const tracked = await handle.api.post('/tracking_requests', {
			data: {
				type: 'tracking_request',
				attributes: {
					request_number: 'MEDUFR030802',
					request_type: 'bill_of_lading',
					scac: 'MSCU',
				},
			},
		});
		expect(tracked.status).toBe(201);
		const world = handle.sandbox.world;
		const notice = composeArrivalNotice(world);
		expect(numbersOf(notice.numbers.already_tracked)).toEqual(['MEDUFR030802']);
		expect(notice.text).toContain('B/L MEDUFR030802');
		expect(world.store.list('tracking_request')).toHaveLength(1);
	});
});

describe('sandbox: POST /_sandbox/mail/arrival-notice into a real IMAP server', () => {
	let handle: SandboxHandle;
	let imap: ImapServer;

	beforeAll(async () => {
		({ imap } = await startImap('arrivals@example.com'));
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
	}, IMAP_SETUP_TIMEOUT);
	afterAll(async () => {
		await handle?.stop();
		await imap?.stop();
	});

	const account = () => ({
		host: imap.host,
		port: imap.port,
		user: imap.user,
		password: imap.password,
	});

	it('delivers the notice with its PDF; the numbers it returns are those in the mail', async () => {
		const answer = await handle.control.post('/mail/arrival-notice', { imap: account() });
		expect(answer.status).toBe(201);
		const sent = answer.data;
		expect(sent.to).toBe('arrivals@example.com');

		const client = new ImapFlow({
			host: imap.host,
			port: imap.port,
			secure: false,
			doSTARTTLS: false,
			auth: { user: imap.user, pass: imap.password },
			logger: false,
		});
		await client.connect();
		try {
			await client.mailboxOpen('INBOX');
			const message = await client.fetchOne(
				String(sent.uid),
				{ envelope: true, bodyStructure: true },
				{
					uid: true,
				},
			);
			if (!message) throw new Error(`no message ${sent.uid} in INBOX:\n${imap.log()}`);
			expect(message.envelope?.subject).toBe(sent.subject);
			expect(message.envelope?.messageId).toBe(sent.message_id);
			expect(message.envelope?.from?.[0]?.address).toBe('import-desk@harbor-forwarding.example');
			const parts: Array<{ part?: string; type: string; childNodes?: unknown[] }> = [];
			const walk = (node: { part?: string; type: string; childNodes?: unknown[] }) => {
				parts.push(node);
				for (const child of node.childNodes ?? []) walk(child as typeof node);
			};
			walk(message.bodyStructure as never);
			const download = async (type: string) => {
				const part = parts.find((node) => node.type === type);
				if (!part?.part)
					throw new Error(`no ${type} part: ${JSON.stringify(message.bodyStructure)}`);
				const { content } = await client.download(String(sent.uid), part.part, { uid: true });
				if (!content) throw new Error(`the ${type} part could not be downloaded`);
				const chunks: Buffer[] = [];
				for await (const chunk of content) chunks.push(chunk as Buffer);
				return Buffer.concat(chunks);
			};
			const text = (await download('text/plain')).toString('utf8');
			const pdf = await pdfText(new Uint8Array(await download('application/pdf')));
			const numbers = sent.numbers as Record<string, NoticeNumber[]>;
			for (const entry of Object.values(numbers).flat()) {
				for (const form of entry.written_as) {
					const where = [text.includes(form) && 'body', pdf.includes(form) && 'pdf'].filter(
						Boolean,
					);
					expect({ form, found: where.length > 0 }).toEqual({ form, found: true });
				}
				if (entry.in.includes('pdf')) expect(pdf).toContain(entry.number);
				else expect(pdf).not.toContain(entry.number);
				if (entry.in.includes('body')) expect(text).toContain(entry.number.slice(4, 10));
				else expect(text).not.toContain(entry.number);
			}
			expect(pdf).toContain('ARRIVAL NOTICE');
		} finally {
			await client.logout();
		}
	});

	it('says what is wrong with the IMAP account it is given', async () => {
		const none = await handle.control.post('/mail/arrival-notice', {});
		expect(none.status).toBe(422);
		expect(none.data.errors[0].source.pointer).toBe('/imap');
		const refused = await handle.control.post('/mail/arrival-notice', {
			imap: { ...account(), password: 'not-the-password' },
		});
		expect(refused.status).toBe(502);
		expect(refused.data.errors[0].detail).toContain(`${imap.host}:${imap.port}`);
	});
});

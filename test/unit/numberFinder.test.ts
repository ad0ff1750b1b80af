// Find Numbers in Text's scanner (nodes/ContainerTracking/logic/numberFinder.ts) on notices
// written for this test as forwarders and lines write them, and on a megabyte of prose.
import { computeCheckDigit } from '../../nodes/ContainerTracking/logic/iso6346';
import {
	findNumbers,
	MAX_OCCURRENCES,
	textProblem,
	type FoundNumber,
} from '../../nodes/ContainerTracking/logic/numberFinder';
import { prose, random } from '../support/prose';

/** What a reader of the node's items sees of each number: its type, validity and label. */
function seen(found: FoundNumber[]) {
	return found.map((number) => ({
		number: number.number,
		kind: number.kind,
		valid: number.containerCheck ? number.containerCheck.isValid : null,
		label: number.label,
	}));
}

const ARRIVAL_NOTICE = `ARRIVAL NOTICE - MV CMA CGM NORMA 0TUPFE1MA
Dear Sir/Madam,
We are pleased to advise that the following shipment is expected to arrive at Los Angeles on
18 Nov 2026 (ETA).
Master B/L: MEDUFR030802    House B/L: HBL-SHA2611045
Containers: MSCU6639870 (40HC), TGHU 812345 7 (40HC) and CAIU-743298-5 (20GP).
Please arrange customs clearance before arrival. Free time: 4 days.
Booking ref. 254839711 was used at origin.
Kind regards, Ocean Import Team, tel. +1 310 555 0199`;

const BOOKING_CONFIRMATION = `BOOKING CONFIRMATION
Booking No.: 254839712
Carrier: Maersk   Vessel: MAERSK ESSEN / 245W
Equipment: 2 x 40' HC
Please quote booking number 254839712 on all documents. Cut-off 2026-11-20 12:00.`;

const BILL_OF_LADING_TABLE = `Please find the containers of your shipment below.

| Container No. | Seal | Type | B/L No. |
|---|---|---|---|
| HLXU 314159 7 | SL778812 | 40HC | HLCUSHA2611001 |
| MRKU0025174 | SL778813 | 20GP | HLCUSHA2611001 |

Regards`;

const PDF_TEXT = `ARRIVAL NOTICE                                   Page 1 of 1
Bill of Lading          Vessel / Voyage          Port of Discharge
OOLU2136060630          CMA CGM NORMA 0TUPFE1MA  Los Angeles
Container               Size   Seal
OOLU 601245 4           40HC   OL123456
TCNU-270183-3           40HC   OL123457`;

const CHAT = 'hey, can you check cntr msku4807969 and csqu3054384? also bkg #254839713 - thx';

const NOT_NUMBERS = `Invoice INV-2026-00123, PO 4500012345, phone +49 40 123456789, reference
REF/2026/11/05, date 05.11.2026, ZIP 90731, amount USD 1,234,567.00, container count 1234567,
IMO 9299812, menu 1234567, Thank you for your booking. We confirm your order.`;

const cases: Array<{ name: string; text: string; expected: ReturnType<typeof seen> }> = [
	{
		name: 'an arrival notice in prose: labels, split numbers, a wrong check digit',
		text: ARRIVAL_NOTICE,
		expected: [
			{ number: 'MEDUFR030802', kind: 'bill_of_lading', valid: null, label: 'B/L' },
			{ number: 'HBLSHA2611045', kind: 'bill_of_lading', valid: null, label: 'B/L' },
			{ number: 'MSCU6639870', kind: 'container', valid: true, label: null },
			{ number: 'TGHU8123457', kind: 'container', valid: true, label: null },
			// The right check digit is 6: reported, not dropped.
			{ number: 'CAIU7432985', kind: 'container', valid: false, label: null },
			{ number: '254839711', kind: 'booking', valid: null, label: 'Booking ref' },
		],
	},
	{
		name: 'a booking confirmation: the same number twice is one number',
		text: BOOKING_CONFIRMATION,
		expected: [{ number: '254839712', kind: 'booking', valid: null, label: 'Booking' }],
	},
	{
		name: 'a table: the column headed B/L No., not the seals',
		text: BILL_OF_LADING_TABLE,
		expected: [
			{ number: 'HLXU3141597', kind: 'container', valid: true, label: null },
			{ number: 'HLCUSHA2611001', kind: 'bill_of_lading', valid: null, label: 'B/L No.' },
			{ number: 'MRKU0025174', kind: 'container', valid: false, label: null },
		],
	},
	{
		name: "a PDF's text in aligned columns",
		text: PDF_TEXT,
		expected: [
			{ number: 'OOLU2136060630', kind: 'bill_of_lading', valid: null, label: 'Bill of Lading' },
			{ number: 'OOLU6012454', kind: 'container', valid: true, label: null },
			{ number: 'TCNU2701833', kind: 'container', valid: true, label: null },
		],
	},
	{
		name: 'a chat message in lower case',
		text: CHAT,
		expected: [
			{ number: 'MSKU4807969', kind: 'container', valid: true, label: null },
			{ number: 'CSQU3054384', kind: 'container', valid: false, label: null },
			{ number: '254839713', kind: 'booking', valid: null, label: 'bkg' },
		],
	},
	{
		name: 'a list after one label',
		text: 'B/L Nos.: EGLV142001234567, EGLV142001234568 and EGLV142001234569 / EGLV142001234570.',
		expected: ['EGLV142001234567', 'EGLV142001234568', 'EGLV142001234569', 'EGLV142001234570'].map(
			(number) => ({ number, kind: 'bill_of_lading' as const, valid: null, label: 'B/L' }),
		),
	},
	{
		name: 'a carrier prefix with a space, and a bill of lading that starts like a container',
		text: 'Docs for OOLU 2136060631 and MSCU12345678901 are ready.',
		expected: [
			{ number: 'OOLU2136060631', kind: null, valid: null, label: null },
			{ number: 'MSCU12345678901', kind: null, valid: null, label: null },
		],
	},
	{
		name: 'invoices, orders, phones, dates, amounts and prose: nothing',
		text: NOT_NUMBERS,
		expected: [],
	},
	{
		name: 'an HTML email: a key and value table, a column table, entities',
		text: `<html><body><p>Dear&nbsp;customer,</p><table><tr><td><b>B/L No.</b></td><td>MEDUFR030803</td></tr>
<tr><td>Booking&nbsp;#</td><td>254839714</td></tr></table>
<table><tr><th>Container</th><th>Bill of Lading</th></tr><tr><td>CSQU&nbsp;305438&#45;3</td><td>OOLU2136060632</td></tr></table></body></html>`,
		expected: [
			{ number: 'MEDUFR030803', kind: 'bill_of_lading', valid: null, label: 'B/L' },
			{ number: '254839714', kind: 'booking', valid: null, label: 'Booking' },
			{ number: 'CSQU3054383', kind: 'container', valid: true, label: null },
			{ number: 'OOLU2136060632', kind: 'bill_of_lading', valid: null, label: 'Bill of Lading' },
		],
	},
	{
		name: 'a check digit in brackets and a slash before it',
		text: 'Units CSQU 305438 (3) and CSQU305438/3 are the same box.',
		expected: [{ number: 'CSQU3054383', kind: 'container', valid: true, label: null }],
	},
];

describe('Find Numbers in Text: the numbers in real-looking notices', () => {
	it.each(cases)('$name', ({ text, expected }) => {
		expect(seen(findNumbers(text))).toEqual(expected);
	});

	it('says where each number was found, as written, line and column from 1', () => {
		const [, , , tgh] = findNumbers(ARRIVAL_NOTICE);
		expect(tgh.number).toBe('TGHU8123457');
		expect(tgh.foundAs).toEqual(['TGHU 812345 7']);
		const [occurrence] = tgh.occurrences;
		expect(ARRIVAL_NOTICE.slice(occurrence.index, occurrence.index + 13)).toBe('TGHU 812345 7');
		expect(occurrence).toMatchObject({ line: 6, column: 33 });
		const booking = findNumbers(BOOKING_CONFIRMATION)[0];
		expect(booking.occurrenceCount).toBe(2);
		expect(booking.occurrences.map((found) => found.line)).toEqual([2, 5]);
	});

	it('keeps every way a number was written, and at most MAX_OCCURRENCES places', () => {
		const text = Array.from({ length: 50 }, (_, index) =>
			index % 2 === 0 ? 'CSQU3054383' : 'CSQU 305438-3',
		).join(' and ');
		const [number] = findNumbers(text);
		expect(number.occurrenceCount).toBe(50);
		expect(number.occurrences).toHaveLength(MAX_OCCURRENCES);
		expect(number.foundAs).toEqual(['CSQU3054383', 'CSQU 305438-3']);
	});

	it('tells binary data from text', () => {
		expect(textProblem(ARRIVAL_NOTICE)).toBeNull();
		expect(textProblem('%PDF-1.7\n\u0000\u0001\u0002\u0003 stream')).toMatch(/binary data/);
		// A stray control character in a long text is not binary.
		expect(textProblem(`${'a'.repeat(500)}\u0007`)).toBeNull();
	});
});

describe('Find Numbers in Text on a megabyte of prose', () => {
	const MEGABYTE = 1024 * 1024;

	it('finds no container number in prose that holds none', () => {
		const text = prose(MEGABYTE, random(52));
		expect(text.length).toBeGreaterThanOrEqual(MEGABYTE);
		const containers = findNumbers(text).filter((number) => number.kind === 'container');
		expect(containers.map((number) => number.foundAs[0])).toEqual([]);
	});

	it('finds every container number put into it, in every way of writing one, and no other', () => {
		const next = random(6346);
		const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
		const placed = new Map<string, boolean>();
		const pieces: string[] = [];
		for (let index = 0; index < 200; index++) {
			const owner =
				Array.from({ length: 3 }, () => letters[Math.floor(next() * 26)]).join('') +
				'UJZ'[Math.floor(next() * 3)];
			const serial = String(Math.floor(next() * 1e6)).padStart(6, '0');
			const right = computeCheckDigit(owner + serial);
			// One in four with a typo in its check digit.
			const digit = index % 4 === 0 ? (right + 1 + Math.floor(next() * 9)) % 10 : right;
			const written = [
				`${owner}${serial}${digit}`,
				`${owner} ${serial} ${digit}`,
				`${owner}-${serial}-${digit}`,
				`${owner} ${serial.slice(0, 3)} ${serial.slice(3)} ${digit}`,
				`${owner} ${serial}-${digit}`,
			][index % 5];
			placed.set(`${owner}${serial}${digit}`, digit === right);
			pieces.push(prose(5 * 1024, next), written);
		}
		const found = findNumbers(pieces.join(' ')).filter((number) => number.kind === 'container');
		expect(new Map(found.map((number) => [number.number, number.containerCheck?.isValid]))).toEqual(
			placed,
		);
	});
});

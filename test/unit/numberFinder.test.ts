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

/** What a reader of the node's items sees of each number: its type, validity, label and count. */
function seen(found: FoundNumber[]) {
	return found.map((number) => ({
		number: number.number,
		kind: number.kind,
		valid: number.containerCheck ? number.containerCheck.isValid : null,
		label: number.label,
		count: number.occurrenceCount,
	}));
}

/** Each occurrence as [number, line, column, as written], in the order of the numbers. */
function places(found: FoundNumber[]): Array<[string, number, number, string]> {
	return found.flatMap((number) =>
		number.occurrences.map((place): [string, number, number, string] => [
			number.number,
			place.line,
			place.column,
			place.text,
		]),
	);
}

/** Every occurrence is where it says in the text given: written so there, at that line and column. */
function expectPlacesInText(text: string, found: FoundNumber[]): void {
	for (const place of found.flatMap((number) => number.occurrences)) {
		expect(text.slice(place.index, place.index + place.text.length)).toBe(place.text);
		const before = text.slice(0, place.index);
		expect([place.line, place.column]).toEqual([
			before.split('\n').length,
			place.index - before.lastIndexOf('\n'),
		]);
	}
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

interface Case {
	name: string;
	text: string;
	expected: ReturnType<typeof seen>;
	/** Where each occurrence is, when the case is about that. */
	places?: ReturnType<typeof places>;
}

const container = (number: string, count = 1) => ({
	number,
	kind: 'container' as const,
	valid: true,
	label: null,
	count,
});

/** B/L labels as forwarders and carriers write them, each with a number and the label read. */
const BILL_OF_LADING_LABELS: Array<[written: string, number: string, label: string]> = [
	['BL No.', 'SHA2611045', 'BL'],
	['BL#', 'SHA2611045', 'BL'],
	['BL No:', 'SHA2611045', 'BL'],
	['BL Number', 'SHA2611045', 'BL'],
	['bl no.', 'SHA2611045', 'bl'],
	['HBL No.', 'SHA2611045', 'HBL'],
	// These numbers start with a carrier's prefix: the prefix search finds them too, once.
	['B/L#', 'MEDUFR030802', 'B/L'],
	['Bill of Lading No.', 'MEDUFR030802', 'Bill of Lading'],
	['MBL#:', 'MEDUFR030802', 'MBL'],
];

/** As mail clients and PDF extraction write numbers: other spaces, full-width forms, wraps. */
const AS_MAIL_CLIENTS_WRITE: Case[] = [
	{
		name: 'no-break spaces between the parts (U+00A0)',
		text: 'Container MSCU\u00A0123456\u00A06 is at the terminal.',
		expected: [container('MSCU1234566')],
		places: [['MSCU1234566', 1, 11, 'MSCU\u00A0123456\u00A06']],
	},
	{
		name: 'narrow no-break, figure and thin spaces between the parts (U+202F, U+2007, U+2009)',
		text: 'TGHU\u202F812345\u20077 and CSQU\u2009305438\u202F3',
		expected: [container('TGHU8123457'), container('CSQU3054383')],
	},
	{
		name: 'ideographic, en and four-per-em spaces between the parts (Unicode spaces)',
		text: 'OOLU\u3000601245\u20024 / TCNU\u2002270183\u20053',
		expected: [container('OOLU6012454'), container('TCNU2701833')],
	},
	// Every Unicode space (\p{Zs}) as a space.
	...Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code))
		.filter((character) => character !== ' ' && /\p{Zs}/u.test(character))
		.map(
			(space): Case => ({
				name: `the space U+${space.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} between the parts`,
				text: `Box TGHU${space}812345${space}7 gated out.`,
				expected: [container('TGHU8123457')],
			}),
		),
	{
		name: 'non-breaking hyphens between the parts (U+2011), as word processors write them',
		text: 'Container CAIU\u2011743298\u20116 arrived.',
		expected: [container('CAIU7432986')],
	},
	{
		name: 'a tab between the owner code and the digits',
		text: 'Container:\tMSCU\t1234566\t40HC',
		expected: [container('MSCU1234566')],
		places: [['MSCU1234566', 1, 12, 'MSCU\t1234566']],
	},
	{
		name: 'runs of spaces between the parts, as PDF extraction spaces them',
		text: 'OOLU   601245  4     40HC     OL123456',
		expected: [container('OOLU6012454')],
		places: [['OOLU6012454', 1, 1, 'OOLU   601245  4']],
	},
	{
		name: 'full-width forms (U+FF01–U+FF5E) read as ASCII, placed in the text as given',
		text: 'コンテナ番号：ＭＳＣＵ１２３４５６６、Ｂ／Ｌ：ＭＥＤＵＦＲ０３０８０２',
		expected: [
			container('MSCU1234566'),
			{ number: 'MEDUFR030802', kind: 'bill_of_lading', valid: null, label: 'B/L', count: 1 },
		],
		places: [
			['MSCU1234566', 1, 8, 'ＭＳＣＵ１２３４５６６'],
			['MEDUFR030802', 1, 24, 'ＭＥＤＵＦＲ０３０８０２'],
		],
	},
	{
		name: 'a spaced number wrapped at the end of a line, its check digit right: joined',
		text: 'Please release container MSCU 123456\n6 before Friday.',
		expected: [container('MSCU1234566')],
		places: [['MSCU1234566', 1, 26, 'MSCU 123456\n6']],
	},
	{
		name: 'numbers wrapped after the owner code and before the check digit, with CRLF line ends',
		text: 'Containers TGHU\r\n8123457 and CSQU 305438 \r\n3 are ready.',
		expected: [container('TGHU8123457'), container('CSQU3054383')],
		places: [
			['TGHU8123457', 1, 12, 'TGHU\r\n8123457'],
			['CSQU3054383', 2, 13, 'CSQU 305438 \r\n3'],
		],
	},
	{
		name: 'a number wrapped between the halves of its serial number',
		text: 'Box HLXU 314\n159 7 gated out.',
		expected: [container('HLXU3141597')],
	},
	{
		name: 'one container written whole, split and wrapped: three places, one number',
		text: 'MSCU1234566 is loaded.\nMSCU 123456-6 sails Friday; release container MSCU 123456\n6 today.',
		expected: [container('MSCU1234566', 3)],
	},
	{
		name: 'a number written twice, found after its label and by its carrier prefix: counted twice',
		text: 'B/L: MEDUFR030802 issued.\nPlease quote B/L MEDUFR030802 on payment.',
		expected: [
			{ number: 'MEDUFR030802', kind: 'bill_of_lading', valid: null, label: 'B/L', count: 2 },
		],
		places: [
			['MEDUFR030802', 1, 6, 'MEDUFR030802'],
			['MEDUFR030802', 2, 18, 'MEDUFR030802'],
		],
	},
	...BILL_OF_LADING_LABELS.map(
		([written, number, label]): Case => ({
			name: `the label "${written}"`,
			text: `Please see ${written} ${number} attached.`,
			expected: [{ number, kind: 'bill_of_lading', valid: null, label, count: 1 }],
		}),
	),
	{
		name: 'a wrong check digit after a tab or a run of spaces: not taken',
		text: 'Units TGHU\t8123458 and TGHU   812345  8.',
		expected: [],
	},
	{
		name: 'a wrong check digit across a line wrap: not joined',
		text: 'Units TGHU 812345\n8 pallets and TGHU\n8123458 cartons.',
		expected: [],
	},
	{
		name: 'parts a blank line apart: not joined',
		text: 'Owner code TGHU\n\n8123457',
		expected: [],
	},
	{
		name: 'prose with no-break spaces, tabs, full-width forms and wrapped words: nothing',
		text: `Dear\u00A0team, please find the invoice INV\u00A02026\u00A000123 and PO\t4500012345 attached.
The menu\u00A0123456\u00A07 of the tofu\t1234567 bar; phone +49\u202F40\u202F123456789;
ＡＭＯＵＮＴ\u3000ＵＳＤ\u3000１，２３４，５６７．００ due ２０２６－１１－０５, order
1234567 and quiz\u2009123 456\n7, jazz   123456  7 and buzz
1234567, ｍｅｎｕ\u3000１２３４５６７, thank you.`,
		expected: [],
	},
];

const cases: Case[] = [
	{
		name: 'an arrival notice in prose: labels, split numbers, a wrong check digit',
		text: ARRIVAL_NOTICE,
		expected: [
			{ number: 'MEDUFR030802', kind: 'bill_of_lading', valid: null, label: 'B/L', count: 1 },
			{ number: 'HBLSHA2611045', kind: 'bill_of_lading', valid: null, label: 'B/L', count: 1 },
			{ number: 'MSCU6639870', kind: 'container', valid: true, label: null, count: 1 },
			{ number: 'TGHU8123457', kind: 'container', valid: true, label: null, count: 1 },
			// The right check digit is 6: reported, not dropped.
			{ number: 'CAIU7432985', kind: 'container', valid: false, label: null, count: 1 },
			{ number: '254839711', kind: 'booking', valid: null, label: 'Booking ref', count: 1 },
		],
	},
	{
		name: 'a booking confirmation: the same number twice is one number',
		text: BOOKING_CONFIRMATION,
		expected: [{ number: '254839712', kind: 'booking', valid: null, label: 'Booking', count: 2 }],
	},
	{
		name: 'a table: the column headed B/L No., not the seals',
		text: BILL_OF_LADING_TABLE,
		expected: [
			{ number: 'HLXU3141597', kind: 'container', valid: true, label: null, count: 1 },
			{ number: 'HLCUSHA2611001', kind: 'bill_of_lading', valid: null, label: 'B/L No.', count: 2 },
			{ number: 'MRKU0025174', kind: 'container', valid: false, label: null, count: 1 },
		],
	},
	{
		name: "a PDF's text in aligned columns",
		text: PDF_TEXT,
		expected: [
			{
				number: 'OOLU2136060630',
				kind: 'bill_of_lading',
				valid: null,
				label: 'Bill of Lading',
				count: 1,
			},
			{ number: 'OOLU6012454', kind: 'container', valid: true, label: null, count: 1 },
			{ number: 'TCNU2701833', kind: 'container', valid: true, label: null, count: 1 },
		],
	},
	{
		name: 'a chat message in lower case',
		text: CHAT,
		expected: [
			{ number: 'MSKU4807969', kind: 'container', valid: true, label: null, count: 1 },
			{ number: 'CSQU3054384', kind: 'container', valid: false, label: null, count: 1 },
			{ number: '254839713', kind: 'booking', valid: null, label: 'bkg', count: 1 },
		],
	},
	{
		name: 'a list after one label',
		text: 'B/L Nos.: EGLV142001234567, EGLV142001234568 and EGLV142001234569 / EGLV142001234570.',
		expected: ['EGLV142001234567', 'EGLV142001234568', 'EGLV142001234569', 'EGLV142001234570'].map(
			(number) => ({
				number,
				kind: 'bill_of_lading' as const,
				valid: null,
				label: 'B/L',
				count: 1,
			}),
		),
	},
	{
		name: 'a carrier prefix with a space, and a bill of lading that starts like a container',
		text: 'Docs for OOLU 2136060631 and MSCU12345678901 are ready.',
		expected: [
			{ number: 'OOLU2136060631', kind: null, valid: null, label: null, count: 1 },
			{ number: 'MSCU12345678901', kind: null, valid: null, label: null, count: 1 },
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
			{ number: 'MEDUFR030803', kind: 'bill_of_lading', valid: null, label: 'B/L', count: 1 },
			{ number: '254839714', kind: 'booking', valid: null, label: 'Booking', count: 1 },
			{ number: 'CSQU3054383', kind: 'container', valid: true, label: null, count: 1 },
			{
				number: 'OOLU2136060632',
				kind: 'bill_of_lading',
				valid: null,
				label: 'Bill of Lading',
				count: 1,
			},
		],
		// Placed in the HTML given, as written there.
		places: [
			['MEDUFR030803', 1, 77, 'MEDUFR030803'],
			['254839714', 2, 32, '254839714'],
			['CSQU3054383', 3, 66, 'CSQU&nbsp;305438&#45;3'],
			['OOLU2136060632', 3, 97, 'OOLU2136060632'],
		],
	},
	{
		name: 'a check digit in brackets and a slash before it',
		text: 'Units CSQU 305438 (3) and CSQU305438/3 are the same box.',
		expected: [{ number: 'CSQU3054383', kind: 'container', valid: true, label: null, count: 2 }],
	},
	...AS_MAIL_CLIENTS_WRITE,
];

describe('Find Numbers in Text: the numbers in real-looking notices', () => {
	it.each(cases)('$name', ({ text, expected, places: expectedPlaces }) => {
		const found = findNumbers(text);
		expect(seen(found)).toEqual(expected);
		if (expectedPlaces) expect(places(found)).toEqual(expectedPlaces);
		expectPlacesInText(text, found);
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

/** Letters, digits and punctuation in their full-width forms (U+FF01–U+FF5E). */
function fullWidth(text: string): string {
	return text.replace(/[!-~]/g, (character) =>
		String.fromCharCode(character.charCodeAt(0) + 0xfee0),
	);
}

/**
 * Prose as mail clients and PDF extraction give it: a third of its spaces no-break, narrow,
 * ideographic, tabs, runs or line breaks, one word in ten in full-width forms.
 */
function asMailClientsWrite(text: string, next: () => number): string {
	const spaces = ['\u00A0', '\u202F', '\u2009', '\u3000', '\t', '   ', '\n', ' \r\n'];
	return text
		.replace(/[!-~]+/g, (word) => (next() < 0.1 ? fullWidth(word) : word))
		.replace(/ /g, () => (next() < 0.3 ? spaces[Math.floor(next() * spaces.length)] : ' '));
}

describe('Find Numbers in Text on a megabyte of prose', () => {
	const MEGABYTE = 1024 * 1024;

	it('finds no container number in prose that holds none', () => {
		const text = prose(MEGABYTE, random(52));
		expect(text.length).toBeGreaterThanOrEqual(MEGABYTE);
		const containers = findNumbers(text).filter((number) => number.kind === 'container');
		expect(containers.map((number) => number.foundAs[0])).toEqual([]);
	});

	it('finds no container number in that prose as mail clients and PDF extraction give it, and no other number', () => {
		const clean = prose(MEGABYTE, random(52));
		const text = asMailClientsWrite(clean, random(60));
		expect(text).toMatch(/\u00A0/);
		const found = findNumbers(text);
		expect(found.filter((number) => number.kind === 'container').map((n) => n.foundAs[0])).toEqual(
			[],
		);
		// Its other numbers are those the prose itself puts after a label ("booking 4821937").
		const cleanNumbers = new Set(findNumbers(clean).map((number) => number.number));
		expect(
			found.filter((number) => !cleanNumbers.has(number.number)).map((n) => n.foundAs[0]),
		).toEqual([]);
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
			const ways: Array<[written: string, loose: boolean]> = [
				[`${owner}${serial}${digit}`, false],
				[`${owner} ${serial} ${digit}`, false],
				[`${owner}-${serial}-${digit}`, false],
				[`${owner} ${serial.slice(0, 3)} ${serial.slice(3)} ${digit}`, false],
				[`${owner} ${serial}-${digit}`, false],
				[`${owner}\u00A0${serial}\u00A0${digit}`, false],
				[fullWidth(`${owner}${serial}${digit}`), false],
				[`${owner}\t${serial}${digit}`, true],
				[`${owner}   ${serial}  ${digit}`, true],
				[`${owner} ${serial}\n${digit}`, true],
			];
			const [written, loose] = ways[index % ways.length];
			// Parts apart by more than a space are joined only when the check digit holds.
			if (!loose || digit === right) placed.set(`${owner}${serial}${digit}`, digit === right);
			pieces.push(prose(5 * 1024, next), written);
		}
		const found = findNumbers(pieces.join(' ')).filter((number) => number.kind === 'container');
		expect(new Map(found.map((number) => [number.number, number.containerCheck?.isValid]))).toEqual(
			placed,
		);
	});
});

/**
 * Container, bill of lading and booking numbers found in free text: an email body, a PDF's
 * extracted text, a chat message. Pure and linear in the text: each pass is one left-to-right
 * scan with bounded patterns.
 *
 * | Pass      | Finds                                                    | Kind it suggests      |
 * |-----------|----------------------------------------------------------|-----------------------|
 * | container | owner code + U/J/Z + 6 digits + check digit, split by    | container             |
 * |           | spaces, dots or dashes ("MSCU 123456-5", "MSCU 123 456 5")|                       |
 * |           | or, when the check digit holds, by tabs, runs of spaces  |                       |
 * |           | or a line break ("MSCU 123456\n5")                       |                       |
 * | label     | the numbers after "B/L", "Bill of Lading", "Booking",    | the label's           |
 * |           | "BKG"… on the same line ("B/L Nos.: A, B and C")         |                       |
 * | table     | the cells under a column headed by such a label          | the label's           |
 * | prefix    | a carrier's prefix followed by 6–16 letters or digits    | none: the service's   |
 * |           | ("OOLU2136060630", "MEDU FR030802")                      | inference says        |
 *
 * - A container number with a wrong check digit is kept and reported (logic/iso6346.ts says
 *   why), never dropped. Its owner code must be written in capitals, as ISO 6346 marks it; in
 *   lower case it counts only written as one word, so that prose ("menu 1234567") gives none.
 * - A number inside a container number's span is not read again as a bill of lading.
 * - Shipment numbers are 6 to 20 letters and digits with at least 4 digits; dates are not.
 * - The passes read the text with Unicode spaces as spaces and full-width forms as ASCII
 *   (folded), an HTML body as its reader sees it (readText); every place is reported in the text
 *   given, and a place two passes both find counts once.
 */
import { checkContainerNumber, compactNumber, type ContainerNumberCheck } from './iso6346';
import { SHIPPING_LINES } from './shippingLines';

export type FoundNumberKind = 'container' | 'bill_of_lading' | 'booking';

export interface Occurrence {
	/** As it was written: the text given, from index on. */
	text: string;
	/** Character offset in the text given. */
	index: number;
	/** 1-based. */
	line: number;
	/** 1-based. */
	column: number;
}

export interface FoundNumber {
	/** Upper case, without spaces, dots, dashes and slashes (iso6346.ts, compactNumber). */
	number: string;
	/** Container from its shape, else the kind its label names; null when nothing says. */
	kind: FoundNumberKind | null;
	/** The label it was found after or under, as read (full-width forms folded: "B/L No."), else null. */
	label: string | null;
	/** How it was written, each way once. */
	foundAs: string[];
	/** Where it was found: the first MAX_OCCURRENCES. */
	occurrences: Occurrence[];
	/** How many times it was found in all. */
	occurrenceCount: number;
	/** The ISO 6346 check of a container number; undefined for other numbers. */
	containerCheck?: ContainerNumberCheck;
}

/** Kept per number: a text that repeats one number a thousand times stays a small item. */
export const MAX_OCCURRENCES = 20;

/**
 * What may stand between two parts of a container number: spaces or tabs, a dot or dash (a
 * slash before the check digit), and a line break where a mail client wrapped the line.
 */
const between = (punctuation: string) =>
	`([ \\t]{0,8}(?:[${punctuation}]{1,2}[ \\t]{0,8})?(?:\\r?\\n[ \\t]{0,8})?)`;

const CONTAINER = new RegExp(
	`(?<![A-Za-z0-9])([A-Za-z]{3}[UJZujz])${between('.\\-')}(\\d{3})${between('.')}(\\d{3})${between('.\\-/')}\\(?(\\d)\\)?(?![A-Za-z0-9])`,
	'g',
);

/**
 * The separators people type and ISO 6346 prints ("MSCU 123456 5", "MSCU-123456-5"): a number
 * written so is kept with a wrong check digit. Tabs, runs of spaces and line breaks also come
 * between words that are no number, so parts so apart are joined only when the check digit holds.
 */
const TYPED_SEPARATORS = [/^[ .-]{0,2}$/, /^[ .]?$/, /^[ .\-/]{0,2}$/];

/**
 * Labels of shipment numbers and the kind each names; matched whole words, any case. B/L is
 * written with and without its slash ("BL No.", "MBL#").
 */
const LABEL =
	/(?<![A-Za-z0-9])(bills?[ \t]+of[ \t]+lading|master[ \t]+bill|[mh]?b\/?ls?|bol|bkg|booking(?:[ \t]+(?:ref(?:erence)?|confirmation|number))?)(?![A-Za-z0-9]|-[A-Za-z0-9])/gi;

/** What may stand between a label and its number: "No.", "Nos.:", "#", "Ref:", "=". */
const AFTER_LABEL =
	/[ \t]*(?:(?:nos?|nr|numbers?|ref|reference|id)(?![A-Za-z0-9])\.?)?[ \t]*(?:[:#=.|-][ \t]*){0,2}/iy;

/** One number of a list after a label: letters and digits, dash-joined parts allowed. */
const LISTED_TOKEN = /[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/y;

/** Between two numbers of a list: a comma, a semicolon, a slash, "&", "+" or "and". */
const LIST_SEPARATOR = /[ \t]*(?:[,;/&+]|and(?![A-Za-z0-9]))?[ \t]*/iy;

/** A carrier's SCAC as written before a bill of lading number in capitals and digits. */
const FOUR_CAPITALS = /^[A-Z]{4}$/;

/**
 * Prefixes carriers put before their bill of lading numbers: the SCACs the node lists, and
 * the few lines whose bills of lading carry another prefix than their SCAC (MSC's MEDU).
 */
const BILL_OF_LADING_PREFIXES = [
	...SHIPPING_LINES.map((line) => line.scac).filter((scac) => scac !== 'TEST'),
	'MEDU',
	'SUDU',
	'APLU',
];

const PREFIXED = new RegExp(
	`(?<![A-Za-z0-9])(${BILL_OF_LADING_PREFIXES.join('|')})[ -]?([A-Z0-9]{6,16})(?![A-Za-z0-9])`,
	'g',
);

const DATE_SHAPES = [/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/, /^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/];

function digitCount(text: string): number {
	let digits = 0;
	for (const character of text) if (character >= '0' && character <= '9') digits++;
	return digits;
}

/** Whether a compacted number has the shape of a bill of lading or booking number. */
function shipmentNumberShape(written: string): boolean {
	if (DATE_SHAPES.some((shape) => shape.test(written))) return false;
	const number = compactNumber(written);
	if (!/^[A-Z0-9]{6,20}$/.test(number)) return false;
	return digitCount(number) >= 4;
}

function labelKind(label: string): FoundNumberKind {
	return /^b(?:kg|ooking)/i.test(label) ? 'booking' : 'bill_of_lading';
}

/** Line and column of offsets, from the offsets of the text's line breaks (one pass). */
function lineLocator(text: string): (index: number) => { line: number; column: number } {
	const breaks: number[] = [];
	for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1))
		breaks.push(index);
	return (index) => {
		let low = 0;
		let high = breaks.length;
		while (low < high) {
			const middle = (low + high) >> 1;
			if (breaks[middle] < index) low = middle + 1;
			else high = middle;
		}
		const lineStart = low === 0 ? 0 : breaks[low - 1] + 1;
		return { line: low + 1, column: index - lineStart + 1 };
	};
}

/** Spans of the text already read as container numbers, checked in any order. */
class Spans {
	private readonly starts: number[] = [];
	private readonly ends: number[] = [];

	/** Added in increasing order of start, as the container pass finds them. */
	add(start: number, end: number): void {
		this.starts.push(start);
		this.ends.push(end);
	}

	overlaps(start: number, end: number): boolean {
		let low = 0;
		let high = this.starts.length;
		while (low < high) {
			const middle = (low + high) >> 1;
			if (this.starts[middle] < end) low = middle + 1;
			else high = middle;
		}
		// The last span starting before `end` is the only one that can reach past `start`.
		return low > 0 && this.ends[low - 1] > start;
	}
}

/**
 * One replacement pass over a text, as pieces of the text it made: each piece copied from the
 * text before, character for character, or put in place of a match ("&amp;" read as "&").
 */
interface Replacement {
	/** Where each piece starts in the text made. */
	starts: number[];
	/** Where it came from in the text before: a copy's first character, a match's start… */
	from: number[];
	/** …and a match's last character; -1 for a copy. */
	matchLast: number[];
}

/** The text the passes read, and the replacements that made it from the text given. */
interface ReadText {
	text: string;
	replacements: Replacement[];
}

/**
 * Where a character of the read text came from in the text given: the first character of its
 * source, or the last (an entity read as one character spans the whole entity).
 */
function sourceOf(read: ReadText, index: number, which: 'first' | 'last'): number {
	let place = index;
	for (let pass = read.replacements.length - 1; pass >= 0; pass--) {
		const { starts, from, matchLast } = read.replacements[pass];
		let low = 0;
		let high = starts.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if (starts[middle] <= place) low = middle;
			else high = middle - 1;
		}
		if (matchLast[low] === -1) place = from[low] + place - starts[low];
		else place = which === 'first' ? from[low] : matchLast[low];
	}
	return place;
}

class Findings {
	/** Each number, and the read offsets it was found at: two passes finding one place count it once. */
	private readonly byNumber = new Map<string, { found: FoundNumber; places: Set<number> }>();
	private readonly locate: (index: number) => { line: number; column: number };

	constructor(
		private readonly given: string,
		private readonly read: ReadText,
	) {
		this.locate = lineLocator(given);
	}

	/** A number read from `start` to `end` in the read text. */
	add(
		number: string,
		start: number,
		end: number,
		kind: FoundNumberKind | null,
		label: string | null,
		containerCheck?: ContainerNumberCheck,
	): void {
		let entry = this.byNumber.get(number);
		if (!entry) {
			const first: FoundNumber = {
				number,
				kind,
				label,
				foundAs: [],
				occurrences: [],
				occurrenceCount: 0,
			};
			if (containerCheck) first.containerCheck = containerCheck;
			entry = { found: first, places: new Set() };
			this.byNumber.set(number, entry);
		}
		const { found, places } = entry;
		found.kind ??= kind;
		found.label ??= label;
		if (places.has(start)) return;
		places.add(start);
		found.occurrenceCount++;
		if (found.occurrences.length < MAX_OCCURRENCES) {
			const index = sourceOf(this.read, start, 'first');
			const written = this.given.slice(index, sourceOf(this.read, end - 1, 'last') + 1);
			if (!found.foundAs.includes(written)) found.foundAs.push(written);
			found.occurrences.push({ text: written, index, ...this.locate(index) });
		}
	}

	/** In the order of their first occurrence in the text. */
	list(): FoundNumber[] {
		return [...this.byNumber.values()]
			.map((entry) => entry.found)
			.sort((a, b) => a.occurrences[0].index - b.occurrences[0].index);
	}
}

function findContainers(text: string, findings: Findings, spans: Spans): void {
	for (const match of text.matchAll(CONTAINER)) {
		const [written, owner, , firstDigits, , nextDigits, , checkDigit] = match;
		const check = checkContainerNumber(owner + firstDigits + nextDigits + checkDigit);
		const capitals = owner === owner.toUpperCase();
		const oneWord = /^[A-Za-z]{4}\d{7}$/.test(written);
		if (!capitals && !oneWord) continue;
		const typed = [match[2], match[4], match[6]].every((separator, position) =>
			TYPED_SEPARATORS[position].test(separator),
		);
		// Parts further apart are joined only when the check digit holds; a wrap joins two lines.
		const lineBreaks = written.split('\n').length - 1;
		if (!typed && (!check.checkDigitPassed || lineBreaks > 1)) continue;
		spans.add(match.index, match.index + written.length);
		findings.add(
			check.normalized,
			match.index,
			match.index + written.length,
			'container',
			null,
			check,
		);
	}
}

function addShipmentNumber(
	findings: Findings,
	spans: Spans,
	written: string,
	index: number,
	kind: FoundNumberKind | null,
	label: string | null,
): void {
	if (spans.overlaps(index, index + written.length)) return;
	findings.add(compactNumber(written), index, index + written.length, kind, label);
}

/** The numbers listed after each label, up to the first word that is not one. */
function findLabelled(text: string, findings: Findings, spans: Spans): void {
	for (const match of text.matchAll(LABEL)) {
		const label = match[0];
		AFTER_LABEL.lastIndex = match.index + label.length;
		if (!AFTER_LABEL.exec(text)) continue;
		let position = AFTER_LABEL.lastIndex;
		for (;;) {
			LISTED_TOKEN.lastIndex = position;
			const token = LISTED_TOKEN.exec(text);
			if (!token) break;
			let written = token[0];
			let end = LISTED_TOKEN.lastIndex;
			// "OOLU 2136060630": a carrier's SCAC, a space, then the digits.
			const digitsAfter = FOUR_CAPITALS.test(written)
				? /^[ \t](\d{6,16})(?![A-Za-z0-9])/.exec(text.slice(end, end + 18))
				: null;
			if (digitsAfter) {
				written += digitsAfter[0];
				end += digitsAfter[0].length;
			}
			if (!shipmentNumberShape(written)) break;
			addShipmentNumber(findings, spans, written, token.index, labelKind(label), label);
			LIST_SEPARATOR.lastIndex = end;
			LIST_SEPARATOR.exec(text);
			if (LIST_SEPARATOR.lastIndex === end) break;
			position = LIST_SEPARATOR.lastIndex;
		}
	}
}

interface Cell {
	text: string;
	index: number;
}

/** The cells of a table row: split on "|", tabs, or runs of two or more spaces. */
function cellsOf(line: string, lineStart: number): Cell[] {
	const separator = line.includes('|') ? /\|/g : line.includes('\t') ? /\t/g : / {2,}/g;
	const cells: Cell[] = [];
	let start = 0;
	const push = (end: number) => {
		const raw = line.slice(start, end);
		const leading = raw.length - raw.trimStart().length;
		cells.push({ text: raw.trim(), index: lineStart + start + leading });
	};
	for (const match of line.matchAll(separator)) {
		push(match.index);
		start = match.index + match[0].length;
	}
	push(line.length);
	// A row written "| a | b |" has an empty cell before the first bar and after the last.
	if (separator.source === '\\|') {
		if (cells.length > 0 && cells[0].text === '') cells.shift();
		if (cells.length > 0 && cells[cells.length - 1].text === '') cells.pop();
	}
	return cells;
}

const WHOLE_LABEL = new RegExp(`^(?:${LABEL.source})${AFTER_LABEL.source}$`, 'i');

/** The numbers in the columns that a row of headers names with a label. */
function findInTables(text: string, findings: Findings, spans: Spans): void {
	let columns: Array<{ position: number; label: string }> = [];
	let width = 0;
	let lineStart = 0;
	for (const line of text.split('\n')) {
		const cells = cellsOf(line, lineStart);
		const headers =
			cells.length >= 2
				? cells.flatMap((cell, position) =>
						WHOLE_LABEL.test(cell.text) ? [{ position, label: cell.text }] : [],
					)
				: [];
		if (headers.length > 0) {
			// A row of headers starts a table (a key and its value in one row start one too).
			columns = headers;
			width = cells.length;
		} else if (columns.length > 0 && cells.length === width) {
			for (const { position, label } of columns) {
				const cell = cells[position];
				if (shipmentNumberShape(cell.text))
					addShipmentNumber(findings, spans, cell.text, cell.index, labelKind(label), label);
			}
		} else {
			// Any other row ends the table.
			columns = [];
			width = 0;
		}
		lineStart += line.length + 1;
	}
}

function findPrefixed(text: string, findings: Findings, spans: Spans): void {
	for (const match of text.matchAll(PREFIXED)) {
		const [written, , rest] = match;
		if (digitCount(rest) < 5) continue;
		addShipmentNumber(findings, spans, written, match.index, null, null);
	}
}

/**
 * Why the text cannot be searched (it looks like binary data), or null. Control characters
 * other than tabs and line breaks, or U+FFFD from a failed decoding, in more than 1 % of it.
 */
export function textProblem(text: string): string | null {
	let control = 0;
	let first = -1;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if ((code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) || code === 0xfffd) {
			control++;
			if (first === -1) first = index;
		}
	}
	if (control === 0 || control <= text.length / 100) return null;
	return `The text looks like binary data: ${control} of its ${text.length} characters are control characters (the first at offset ${first})`;
}

const HTML = /<(?:html|body|table|tr|td|th|br|p|div|span)\b[^>]*>/i;

const ENTITIES: Record<string, string> = {
	nbsp: ' ',
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
};

/** The text with each match of `pattern` (global) replaced, and the pieces that say from where. */
function replaced(
	read: ReadText,
	pattern: RegExp,
	replacement: string | ((match: RegExpExecArray) => string),
): ReadText {
	const { text } = read;
	const pieces: string[] = [];
	const made: Replacement = { starts: [], from: [], matchLast: [] };
	let length = 0;
	const add = (piece: string, from: number, matchLast: number) => {
		if (piece === '') return;
		pieces.push(piece);
		made.starts.push(length);
		made.from.push(from);
		made.matchLast.push(matchLast);
		length += piece.length;
	};
	let copiedTo = 0;
	for (const match of text.matchAll(pattern)) {
		add(text.slice(copiedTo, match.index), copiedTo, -1);
		const piece = typeof replacement === 'string' ? replacement : replacement(match);
		add(piece, match.index, match.index + match[0].length - 1);
		copiedTo = match.index + match[0].length;
	}
	add(text.slice(copiedTo), copiedTo, -1);
	return { text: pieces.join(''), replacements: [...read.replacements, made] };
}

/**
 * Unicode spaces (no-break, narrow, thin, ideographic…) read as a space, full-width forms
 * (U+FF01–U+FF5E) as their ASCII letters, digits and signs, as NFKC reads them, and non-breaking
 * hyphens as hyphens: each one character for one, so that offsets stay the same. Tabs stay tabs:
 * tables split on them. The spaces are \p{Zs} but the space, listed: a plain class scans a
 * megabyte 5 to 10 times faster than the Unicode property.
 */
const FOLDED = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u2010\u2011\uFF01-\uFF5E]/g;

function folded(text: string): string {
	return text.replace(FOLDED, (character) => {
		const code = character.charCodeAt(0);
		if (code >= 0xff01) return String.fromCharCode(code - 0xfee0);
		return code === 0x2010 || code === 0x2011 ? '-' : ' ';
	});
}

/**
 * The text as the passes read it, folded: an HTML email body as the text a reader sees, so that
 * its tables read as the passes for tables and labels expect (a row per line, each cell after a
 * "|": a label's value in the next cell is the label's), with the replacements that lead back to
 * the HTML; other text as it is.
 */
function readText(given: string): ReadText {
	let read: ReadText = { text: given, replacements: [] };
	if (HTML.test(given)) {
		read = replaced(read, /<(script|style)\b[^>]*>[^]*?<\/\1\s*>/gi, ' ');
		read = replaced(read, /<\/?(?:tr|br|p|div|li|h[1-6]|table)\b[^>]*>/gi, '\n');
		read = replaced(read, /<t[dh]\b[^>]*>/gi, ' | ');
		read = replaced(read, /<[^>]*>/g, '');
		read = replaced(read, /&(?:#(\d{1,6})|([a-z]{2,6}));/gi, ([entity, code, name]) =>
			code !== undefined
				? String.fromCodePoint(Number(code))
				: (ENTITIES[name.toLowerCase()] ?? entity),
		);
		read = replaced(read, /[ \t]*\n[ \t\n]*/g, '\n');
	}
	return { ...read, text: folded(read.text) };
}

/**
 * Every container, bill of lading and booking number candidate in the text, each once, each
 * place in the text given (an HTML body's places are in its HTML).
 */
export function findNumbers(input: string): FoundNumber[] {
	const read = readText(input);
	const { text } = read;
	const findings = new Findings(input, read);
	const spans = new Spans();
	findContainers(text, findings, spans);
	findLabelled(text, findings, spans);
	findInTables(text, findings, spans);
	findPrefixed(text, findings, spans);
	return findings.list();
}

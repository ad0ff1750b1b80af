/**
 * Container, bill of lading and booking numbers found in free text: an email body, a PDF's
 * extracted text, a chat message. Pure and linear in the text: each pass is one left-to-right
 * scan with bounded patterns.
 *
 * | Pass      | Finds                                                    | Kind it suggests      |
 * |-----------|----------------------------------------------------------|-----------------------|
 * | container | owner code + U/J/Z + 6 digits + check digit, split by    | container             |
 * |           | spaces, dots or dashes ("MSCU 123456-5", "MSCU 123 456 5")|                       |
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
 */
import { checkContainerNumber, compactNumber, type ContainerNumberCheck } from './iso6346';
import { SHIPPING_LINES } from './shippingLines';

export type FoundNumberKind = 'container' | 'bill_of_lading' | 'booking';

export interface Occurrence {
	/** As it was written. */
	text: string;
	/** Character offset in the text. */
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
	/** The label it was found after or under, as written ("B/L No."), else null. */
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

const CONTAINER =
	/(?<![A-Za-z0-9])([A-Za-z]{3}[UJZujz])[ .-]{0,2}(\d{3})[ .]?(\d{3})[ .\-/]{0,2}\(?(\d)\)?(?![A-Za-z0-9])/g;

/** Labels of shipment numbers and the kind each names; matched whole words, any case. */
const LABEL =
	/(?<![A-Za-z0-9])(bills?[ \t]+of[ \t]+lading|master[ \t]+bill|[mh]?b\/ls?|[mh]bl|bol|bkg|booking(?:[ \t]+(?:ref(?:erence)?|confirmation|number))?)(?![A-Za-z0-9]|-[A-Za-z0-9])/gi;

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

class Findings {
	private readonly byNumber = new Map<string, FoundNumber>();

	constructor(private readonly locate: (index: number) => { line: number; column: number }) {}

	add(
		number: string,
		written: string,
		index: number,
		kind: FoundNumberKind | null,
		label: string | null,
		containerCheck?: ContainerNumberCheck,
	): void {
		let found = this.byNumber.get(number);
		if (!found) {
			found = { number, kind, label, foundAs: [], occurrences: [], occurrenceCount: 0 };
			if (containerCheck) found.containerCheck = containerCheck;
			this.byNumber.set(number, found);
		}
		found.kind ??= kind;
		found.label ??= label;
		found.occurrenceCount++;
		if (found.occurrences.length < MAX_OCCURRENCES) {
			if (!found.foundAs.includes(written)) found.foundAs.push(written);
			found.occurrences.push({ text: written, index, ...this.locate(index) });
		}
	}

	/** In the order of their first occurrence in the text. */
	list(): FoundNumber[] {
		return [...this.byNumber.values()].sort(
			(a, b) => a.occurrences[0].index - b.occurrences[0].index,
		);
	}
}

function findContainers(text: string, findings: Findings, spans: Spans): void {
	for (const match of text.matchAll(CONTAINER)) {
		const [written, owner, firstDigits, nextDigits, checkDigit] = match;
		const check = checkContainerNumber(owner + firstDigits + nextDigits + checkDigit);
		const capitals = owner === owner.toUpperCase();
		const oneWord = /^[A-Za-z]{4}\d{7}$/.test(written);
		if (!capitals && !oneWord) continue;
		spans.add(match.index, match.index + written.length);
		findings.add(check.normalized, written, match.index, 'container', null, check);
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
	findings.add(compactNumber(written), written, index, kind, label);
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

/**
 * An HTML email body as the text a reader sees, so that its tables read as the passes for tables
 * and labels expect: a row per line, each cell after a "|" (a label's value in the next cell is
 * the label's). Text that is not HTML is returned as it is.
 */
export function readableText(text: string): string {
	if (!HTML.test(text)) return text;
	return text
		.replace(/<(script|style)\b[^>]*>[^]*?<\/\1\s*>/gi, ' ')
		.replace(/<\/?(?:tr|br|p|div|li|h[1-6]|table)\b[^>]*>/gi, '\n')
		.replace(/<t[dh]\b[^>]*>/gi, ' | ')
		.replace(/<[^>]*>/g, '')
		.replace(
			/&(?:#(\d{1,6})|([a-z]{2,6}));/gi,
			(entity, code: string | undefined, name: string | undefined) =>
				code !== undefined
					? String.fromCodePoint(Number(code))
					: (ENTITIES[name!.toLowerCase()] ?? entity),
		)
		.replace(/[ \t]*\n[ \t\n]*/g, '\n');
}

/**
 * Every container, bill of lading and booking number candidate in the text, each once. An HTML
 * text is read as readableText gives it; offsets, lines and columns are then in that text.
 */
export function findNumbers(input: string): FoundNumber[] {
	const text = readableText(input);
	const findings = new Findings(lineLocator(text));
	const spans = new Spans();
	findContainers(text, findings, spans);
	findLabelled(text, findings, spans);
	findInTables(text, findings, spans);
	findPrefixed(text, findings, spans);
	return findings.list();
}

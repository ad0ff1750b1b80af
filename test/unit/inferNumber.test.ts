import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import {
	AUTO_SELECT_MIN_CONFIDENCE,
	CONFIDENCE,
	decisionForConfidence,
	inferNumber,
	inferNumberResponseBody,
	inferNumberResultId,
	NEEDS_CONFIRMATION_MIN_CONFIDENCE,
	type InferNumberAttributes,
} from '../../sandbox/inferNumber';
import { SHIPPING_LINES } from '../../sandbox/world/shippingLines';
import { describeWithFixtures, readFixture } from '../support/sharedFixtures';

const MSC = { scac: 'MSCU', name: 'MSC' };
const MAERSK = { scac: 'MAEU', name: 'Maersk' };

/** The same number with a wrong last digit. */
function withWrongCheckDigit(number: string): string {
	return `${number.slice(0, 10)}${(Number(number[10]) + 1) % 10}`;
}

describe('decisionForConfidence', () => {
	it.each([
		[1, 'auto_select'],
		[0.95, 'auto_select'],
		[0.9499, 'needs_confirmation'],
		[0.7, 'needs_confirmation'],
		[0.6999, 'no_prediction'],
		[0, 'no_prediction'],
	])('%s gives %s', (confidence, decision) => {
		expect(decisionForConfidence(confidence)).toBe(decision);
	});

	it('uses the interface thresholds', () => {
		expect(AUTO_SELECT_MIN_CONFIDENCE).toBe(0.95);
		expect(NEEDS_CONFIRMATION_MIN_CONFIDENCE).toBe(0.7);
	});
});

describe('container numbers', () => {
	it('auto-selects the line when the owner code is its own SCAC', () => {
		const number = withCheckDigit('MSCU123456');
		expect(inferNumber(number)).toEqual({
			number_type: 'container',
			validation: {
				is_valid: true,
				type: 'container',
				check_digit_passed: true,
				parsed_number: number,
				reason: null,
			},
			shipping_line: {
				decision: 'auto_select',
				selected: { ...MSC, confidence: CONFIDENCE.ownerCodeIsScac },
				candidates: [{ ...MSC, confidence: CONFIDENCE.ownerCodeIsScac }],
			},
		});
	});

	it.each(['MSCU', 'MAEU', 'HLCU', 'OOLU', 'YMLU', 'HDMU', 'ZIMU'])(
		'auto-selects for owner code %s',
		(ownerCode) => {
			const result = inferNumber(withCheckDigit(`${ownerCode}000001`));
			expect(result.shipping_line.decision).toBe('auto_select');
			expect(result.shipping_line.selected?.scac).toBe(ownerCode);
		},
	);

	it.each([
		['MEDU', 'MSCU'],
		['MSKU', 'MAEU'],
		['MRKU', 'MAEU'],
		['CMAU', 'CMDU'],
		['HLXU', 'HLCU'],
		['CSNU', 'COSU'],
		['CBHU', 'COSU'],
		['ONEU', 'ONEY'],
		['EGHU', 'EGLV'],
		['EISU', 'EGLV'],
		['EMCU', 'EGLV'],
		['YMMU', 'YMLU'],
		['ZCSU', 'ZIMU'],
		['WHLU', 'WHLC'],
		['WHSU', 'WHLC'],
	])('asks to confirm %s as %s', (ownerCode, scac) => {
		const line = SHIPPING_LINES.find((entry) => entry.scac === scac);
		const expected = { scac, name: line?.name, confidence: CONFIDENCE.otherContainerPrefix };
		const result = inferNumber(withCheckDigit(`${ownerCode}765432`));
		expect(result.validation.is_valid).toBe(true);
		expect(result.shipping_line).toEqual({
			decision: 'needs_confirmation',
			selected: expected,
			candidates: [expected],
		});
	});

	it.each([
		'CAIU7432986',
		'NYKU0800893',
		withCheckDigit('TGHU123456'),
		withCheckDigit('TCLU123456'),
	])('does not predict for the lessor or unknown owner of %s', (number) => {
		expect(inferNumber(number)).toEqual({
			number_type: 'container',
			validation: {
				is_valid: true,
				type: 'container',
				check_digit_passed: true,
				parsed_number: number,
				reason: null,
			},
			shipping_line: { decision: 'no_prediction', candidates: [] },
		});
	});

	it('reports a wrong check digit, naming both digits, and still predicts', () => {
		const result = inferNumber('MSKU4807960');
		expect(result.number_type).toBe('container');
		expect(result.validation).toEqual({
			is_valid: false,
			type: 'container',
			check_digit_passed: false,
			parsed_number: 'MSKU4807960',
			reason: 'Check digit 0 does not match the ISO 6346 check digit 9',
		});
		expect(result.shipping_line.decision).toBe('needs_confirmation');
		expect(result.shipping_line.selected?.scac).toBe('MAEU');
	});

	it('reports a fourth letter that is no equipment category', () => {
		const number = withCheckDigit('MSCX123456');
		const result = inferNumber(number);
		expect(result.number_type).toBe('container');
		expect(result.validation.is_valid).toBe(false);
		expect(result.validation.check_digit_passed).toBe(true);
		expect(result.validation.reason).toContain('"X" is not an ISO 6346 equipment category');
		expect(result.shipping_line).toEqual({ decision: 'no_prediction', candidates: [] });
	});

	it('normalizes what people type', () => {
		const expected = inferNumber('MSKU4807969');
		for (const typed of ['msku4807969', ' MSKU 480796 9 ', 'MSKU-480796-9', 'msku.4807969']) {
			expect(inferNumber(typed)).toEqual(expected);
		}
		expect(expected.validation.parsed_number).toBe('MSKU4807969');
	});

	it('reports a container prefix with the wrong number of digits', () => {
		const result = inferNumber('MSKU480796');
		expect(result.number_type).toBe('container');
		expect(result.validation).toEqual({
			is_valid: false,
			type: 'container',
			parsed_number: 'MSKU480796',
			reason:
				'A container number is four letters followed by seven digits (ISO 6346); "MSKU480796" has 6 digits',
		});
		expect(result.shipping_line).toEqual({
			decision: 'needs_confirmation',
			selected: { ...MAERSK, confidence: CONFIDENCE.malformedKnownPrefix },
			candidates: [{ ...MAERSK, confidence: CONFIDENCE.malformedKnownPrefix }],
		});
	});

	it('never predicts the TEST carrier', () => {
		const result = inferNumber(withCheckDigit('TESU123456'));
		expect(result.shipping_line).toEqual({ decision: 'no_prediction', candidates: [] });
		expect(inferNumber('TEST1234567').shipping_line.candidates).toEqual([]);
		expect(inferNumber('TEST-TR-SUCCEEDED')).toEqual({
			number_type: 'bill_of_lading',
			validation: {
				is_valid: null,
				type: 'shipment',
				parsed_number: 'TESTTRSUCCEEDED',
				reason: null,
			},
			shipping_line: { decision: 'no_prediction', candidates: [] },
		});
	});
});

describe('bills of lading', () => {
	it.each(
		SHIPPING_LINES.filter((line) => line.billOfLadingPrefix !== null).map(
			(line) => [line.billOfLadingPrefix, line.scac, line.name] as const,
		),
	)('auto-selects %s numbers as %s', (prefix, scac, name) => {
		const number = `${prefix}234567890`;
		const expected = { scac, name, confidence: CONFIDENCE.billOfLadingPrefix };
		expect(inferNumber(number)).toEqual({
			number_type: 'bill_of_lading',
			validation: { is_valid: true, type: 'shipment', parsed_number: number, reason: null },
			shipping_line: { decision: 'auto_select', selected: expected, candidates: [expected] },
		});
	});

	it('accepts 6 to 16 letters or digits after the prefix', () => {
		for (const rest of ['123456', 'SHA1234567', 'A'.repeat(15) + '1', '1234567890123456']) {
			const result = inferNumber(`HLCU${rest}`);
			expect(result.number_type).toBe('bill_of_lading');
			expect(result.validation.is_valid).toBe(true);
			expect(result.shipping_line.selected?.scac).toBe('HLCU');
		}
	});

	it('takes a container-shaped number with a BL prefix as a container', () => {
		const number = withCheckDigit('MEDU123456');
		const result = inferNumber(number);
		expect(result.number_type).toBe('container');
		expect(result.shipping_line.decision).toBe('needs_confirmation');
	});

	it('takes four letters and seven digits with a BL prefix but no category letter as a BL', () => {
		for (const number of ['ONEY1234567', 'EGLV1234567', 'WHLC1234567']) {
			const result = inferNumber(number);
			expect(result.number_type).toBe('bill_of_lading');
			expect(result.validation.is_valid).toBe(true);
			expect(result.validation.check_digit_passed).toBeUndefined();
			expect(result.shipping_line.decision).toBe('auto_select');
		}
	});

	it('reports a BL prefix with too few characters after it, keeping the line as candidate', () => {
		const result = inferNumber('CMDU12345');
		expect(result.number_type).toBe('bill_of_lading');
		expect(result.validation).toEqual({
			is_valid: false,
			type: 'shipment',
			parsed_number: 'CMDU12345',
			reason:
				'A CMA CGM bill of lading number is CMDU followed by 6 to 16 letters or digits; "CMDU12345" has 5 after the prefix',
		});
		expect(result.shipping_line.decision).toBe('needs_confirmation');
		expect(result.shipping_line.selected?.scac).toBe('CMDU');
	});

	it.each(['ABCD12345678', 'SZX123456789', 'HAMBURG1234', 'XYZ789', '1234567', '1234567890123'])(
		'takes %s, of unknown format, as a BL without prediction',
		(number) => {
			expect(inferNumber(number)).toEqual({
				number_type: 'bill_of_lading',
				validation: { is_valid: null, type: 'shipment', parsed_number: number, reason: null },
				shipping_line: { decision: 'no_prediction', candidates: [] },
			});
		},
	);
});

describe('booking numbers', () => {
	it.each(['12345678', '1234567890', '123456789012'])('accepts %s without a hint', (number) => {
		expect(inferNumber(number)).toEqual({
			number_type: 'booking',
			validation: { is_valid: true, type: 'shipment', parsed_number: number, reason: null },
			shipping_line: { decision: 'no_prediction', candidates: [] },
		});
	});

	it('lists Maersk as a low-confidence candidate for 9 digits, without selecting it', () => {
		expect(inferNumber('240 123 456')).toEqual({
			number_type: 'booking',
			validation: { is_valid: true, type: 'shipment', parsed_number: '240123456', reason: null },
			shipping_line: {
				decision: 'no_prediction',
				candidates: [{ ...MAERSK, confidence: CONFIDENCE.nineDigitBooking }],
			},
		});
	});
});

describe('unreadable input', () => {
	it.each([
		['', 'bill_of_lading', 'The number is empty'],
		['  - ', 'bill_of_lading', 'The number is empty'],
		['12345', 'booking', 'is too short'],
		['ABC12', 'bill_of_lading', 'is too short'],
		['MSCU1', 'container', 'is too short'],
		['1'.repeat(21), 'booking', 'is too long'],
		['ABC' + '1'.repeat(18), 'bill_of_lading', 'is too long'],
		['MSKU' + '1'.repeat(17), 'container', 'is too long'],
		['MAEU' + '1'.repeat(17), 'bill_of_lading', 'is too long'],
		['MEDU1', 'bill_of_lading', 'is too short'],
		['MSKU480796#9', 'container', 'also contains "#"'],
		['1234_5678', 'booking', 'also contains "_"'],
		['MEDU€12345678', 'bill_of_lading', 'also contains "€"'],
	])('reports %j as an invalid %s', (input, numberType, reason) => {
		const result = inferNumber(input);
		expect(result.number_type).toBe(numberType);
		expect(result.validation.is_valid).toBe(false);
		expect(result.validation.type).toBe(numberType === 'container' ? 'container' : 'shipment');
		expect(result.validation.reason).toContain(reason);
		expect(result.validation).not.toHaveProperty('check_digit_passed');
		expect(result.shipping_line).toEqual({ decision: 'no_prediction', candidates: [] });
	});

	it('gives no parsed number when characters other than letters and digits remain', () => {
		expect(inferNumber('MSKU480796#9').validation.parsed_number).toBeNull();
		expect(inferNumber('').validation.parsed_number).toBeNull();
		expect(inferNumber('12345').validation.parsed_number).toBe('12345');
	});
});

describe('result id and response body', () => {
	it('derives a stable req_<uuid> id from the normalized number', () => {
		const id = inferNumberResultId('MSKU4807969');
		expect(id).toMatch(/^req_[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(inferNumberResultId(' msku-480796-9 ')).toBe(id);
		expect(inferNumberResultId('MSKU4807960')).not.toBe(id);
	});

	it('wraps the attributes as the service does', () => {
		expect(inferNumberResponseBody('MSKU4807969')).toEqual({
			data: {
				id: inferNumberResultId('MSKU4807969'),
				type: 'infer_number_results',
				attributes: inferNumber('MSKU4807969'),
			},
		});
	});
});

/** Every key path of a JSON value; array elements share the path `[]`. */
function keyPaths(value: unknown, prefix = ''): string[] {
	if (Array.isArray(value)) return value.flatMap((item) => keyPaths(item, `${prefix}[]`));
	if (value === null || typeof value !== 'object') return [prefix];
	return Object.entries(value).flatMap(([key, item]) =>
		keyPaths(item, prefix ? `${prefix}.${key}` : key),
	);
}

function keySet(value: unknown): string[] {
	return [...new Set(keyPaths(value))].sort();
}

describeWithFixtures('response shape against the published example', () => {
	it('has exactly the key set of infer_number.container.json', () => {
		const fixture = readFixture<{ data: unknown }>('api', 'infer_number.container.json');
		// The fixture is a valid container with a selected line: the fullest shape there is.
		const body = inferNumberResponseBody(withCheckDigit('WHLU123456'));
		expect(keySet(body)).toEqual(keySet(fixture));
		expect(Object.keys(body.data.attributes)).toEqual(
			Object.keys((fixture.data as { attributes: object }).attributes),
		);
	});
});

describe('invariants over generated numbers', () => {
	/** Small seeded generator (mulberry32) so that failures reproduce. */
	function seededRandom(seed: number): () => number {
		let state = seed;
		return () => {
			state = (state + 0x6d2b79f5) | 0;
			let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
			mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
			return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
		};
	}

	const random = seededRandom(6346);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
	const digits = (count: number) =>
		Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');
	const characters = (alphabet: string, count: number) =>
		Array.from({ length: count }, () => pick([...alphabet])).join('');
	const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

	const knownPrefixes = SHIPPING_LINES.flatMap((line) => [
		...line.containerPrefixes,
		...(line.billOfLadingPrefix ? [line.billOfLadingPrefix] : []),
	]);
	const ownerCodes = [...knownPrefixes, 'CAIU', 'TGHU', 'NYKU', 'TCLU', 'TEST', 'TESU'];

	const generators: Array<() => string> = [
		() => withCheckDigit(`${pick(ownerCodes)}${digits(6)}`),
		() => withWrongCheckDigit(withCheckDigit(`${pick(ownerCodes)}${digits(6)}`)),
		() => withCheckDigit(`${characters(letters, 3)}${pick(['U', 'J', 'Z'])}${digits(6)}`),
		() => `${characters(letters, 4)}${digits(7)}`,
		() => `${pick(knownPrefixes)}${characters(`${letters}0123456789`, Math.floor(random() * 20))}`,
		() => `${pick(knownPrefixes)}${digits(Math.floor(random() * 12))}`,
		() => digits(1 + Math.floor(random() * 24)),
		() => characters(`${letters}0123456789`, Math.floor(random() * 24)),
		() => characters(`${letters.toLowerCase()}0123456789 -./#`, Math.floor(random() * 24)),
	];
	const numbers = Array.from({ length: 5000 }, () => pick(generators)());
	const lineNames = new Map(SHIPPING_LINES.map((line) => [line.scac, line.name]));

	/** The rules this result breaks, as readable sentences; empty when it keeps them all. */
	function brokenInvariants(number: string, result: InferNumberAttributes): string[] {
		const { validation, shipping_line: shippingLine } = result;
		const { decision, selected, candidates } = shippingLine;
		const broken: string[] = [];
		const rule = (holds: boolean, description: string) => {
			if (!holds) broken.push(`${JSON.stringify(number)}: ${description}`);
		};

		rule(
			candidates.every(
				(entry, index) => index === 0 || candidates[index - 1].confidence >= entry.confidence,
			),
			'candidates ranked by confidence, highest first',
		);
		for (const entry of candidates) {
			rule(entry.scac !== 'TEST', 'TEST never predicted');
			rule(entry.name === lineNames.get(entry.scac), `name of ${entry.scac} from SHIPPING_LINES`);
			rule(entry.confidence >= 0 && entry.confidence <= 1, 'confidence from 0 to 1');
		}
		if (selected) {
			rule(decision !== 'no_prediction', 'no selection with no_prediction');
			rule(decisionForConfidence(selected.confidence) === decision, 'decision per thresholds');
			rule(
				JSON.stringify(selected) === JSON.stringify(candidates[0]),
				'selected is the first candidate',
			);
		} else {
			rule(!('selected' in shippingLine), 'no selected key without a selection');
			rule(decision === 'no_prediction', 'a decision other than no_prediction selects');
			rule(
				candidates.every((entry) => entry.confidence < NEEDS_CONFIRMATION_MIN_CONFIDENCE),
				'unselected candidates below the needs_confirmation threshold',
			);
		}

		const expectedType = result.number_type === 'container' ? 'container' : 'shipment';
		rule(validation.type === expectedType, `validation.type ${expectedType}`);
		rule(
			validation.is_valid === false
				? typeof validation.reason === 'string' && validation.reason.length > 0
				: validation.reason === null,
			'a reason exactly when invalid',
		);
		const normalized = number.toUpperCase().replace(/[\s.\-/]/g, '');
		const containerShaped =
			result.number_type === 'container' && /^[A-Z]{4}\d{7}$/.test(normalized);
		rule(
			'check_digit_passed' in validation === containerShaped,
			'check_digit_passed exactly for container-shaped numbers',
		);
		rule(
			validation.parsed_number === (/^[A-Z0-9]+$/.test(normalized) ? normalized : null),
			'parsed_number is the normalized number when it is letters and digits',
		);
		return broken;
	}

	it('keeps decision, selection, ranking and validation consistent', () => {
		const decisions = new Set<string>();
		const numberTypes = new Set<string>();
		const broken: string[] = [];
		for (const number of numbers) {
			const result = inferNumber(number);
			broken.push(...brokenInvariants(number, result));
			decisions.add(result.shipping_line.decision);
			numberTypes.add(`${result.number_type}:${String(result.validation.is_valid)}`);
		}
		expect(broken).toEqual([]);
		// The generators reach every decision and every verdict of every type that has one.
		expect([...decisions].sort()).toEqual(['auto_select', 'needs_confirmation', 'no_prediction']);
		expect([...numberTypes].sort()).toEqual([
			'bill_of_lading:false',
			'bill_of_lading:null',
			'bill_of_lading:true',
			'booking:false',
			'booking:true',
			'container:false',
			'container:true',
		]);
	});

	it('gives the same answer and id for the same number', () => {
		for (const number of numbers.slice(0, 500)) {
			expect(inferNumber(number)).toEqual(inferNumber(number));
			expect(inferNumberResultId(number)).toBe(inferNumberResultId(number));
		}
	});
});

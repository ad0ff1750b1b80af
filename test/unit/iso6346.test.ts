import {
	checkContainerNumber,
	computeCheckDigit,
	looksLikeContainerNumber,
	normalizeContainerNumber,
} from '../../nodes/ContainerTracking/logic/iso6346';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';

/** The same number with its last digit replaced by the next one (mod 10): always wrong. */
function withWrongCheckDigit(number: string): string {
	return `${number.slice(0, 10)}${(Number(number[10]) + 1) % 10}`;
}

describe('ISO 6346 check digit', () => {
	// CSQU3054383 is the standard's worked example; the others are the service's published ones.
	const knownValid = ['CSQU3054383', 'CAIU7432986', 'MSKU4807969', 'NYKU0800893'];

	it.each(knownValid)('accepts %s', (number) => {
		expect(checkContainerNumber(number)).toEqual({
			normalized: number,
			isValid: true,
			checkDigitPassed: true,
			expectedCheckDigit: Number(number[10]),
			reason: null,
		});
		expect(computeCheckDigit(number.slice(0, 10))).toBe(Number(number[10]));
	});

	it.each(knownValid.map(withWrongCheckDigit))(
		'rejects %s with the expected digit named',
		(number) => {
			const check = checkContainerNumber(number);
			const expected = Number(number[10]) === 0 ? 9 : Number(number[10]) - 1;
			expect(check.isValid).toBe(false);
			expect(check.checkDigitPassed).toBe(false);
			expect(check.expectedCheckDigit).toBe(expected);
			expect(check.reason).toBe(
				`Check digit ${number[10]} does not match the ISO 6346 check digit ${expected}`,
			);
		},
	);

	it('gives letters values that skip 11, 22 and 33', () => {
		// K=21 (after A=10, 11 skipped), A=10, V=34 and U=32 (22 and 33 skipped).
		// KAVU123456: 21*1 + 10*2 + 34*4 + 32*8 = 433; digits 1*16 + 2*32 + 3*64 + 4*128 + 5*256
		// + 6*512 = 5136; 5569 mod 11 = 3. Without the skips K=20, V=31, U=30 would give 5540
		// mod 11 = 7, so this catches a naive letter table.
		expect(computeCheckDigit('KAVU123456')).toBe(3);
		expect(checkContainerNumber('KAVU1234563').isValid).toBe(true);
	});

	it('writes a remainder of 10 as 0', () => {
		// MSCU000010: M=24, S=30, C=13, U=32 give 24 + 60 + 52 + 256 = 392; the 1 at position 8
		// adds 256: 648 = 58*11 + 10, so the remainder 10 is written as 0.
		expect(computeCheckDigit('MSCU000010')).toBe(0);
		expect(checkContainerNumber('MSCU0000100').isValid).toBe(true);
		expect(checkContainerNumber('MSCU0000101').reason).toBe(
			'Check digit 1 does not match the ISO 6346 check digit 0',
		);
	});

	it('is case-insensitive on the ten-character prefix', () => {
		expect(computeCheckDigit('csqu305438')).toBe(3);
	});

	it('refuses a prefix that is not four letters and six digits', () => {
		expect(() => computeCheckDigit('CSQU30543')).toThrow('four letters followed by six digits');
		expect(() => computeCheckDigit('CSQ13054383')).toThrow();
		expect(() => computeCheckDigit('1SQU305438')).toThrow();
	});
});

describe('normalization', () => {
	it.each([
		['csqu3054383', 'CSQU3054383'],
		['  CSQU 305438 3 ', 'CSQU3054383'],
		['CSQU-305438-3', 'CSQU3054383'],
		['csqu.305.438.3', 'CSQU3054383'],
		['CSQU/3054383', 'CSQU3054383'],
		['\tcsqu 3054383\n', 'CSQU3054383'],
	])('normalizes %j to %s', (input, normalized) => {
		expect(normalizeContainerNumber(input)).toBe(normalized);
		expect(looksLikeContainerNumber(input)).toBe(true);
		const check = checkContainerNumber(input);
		expect(check.normalized).toBe(normalized);
		expect(check.isValid).toBe(true);
	});
});

describe('equipment category', () => {
	it.each(['U', 'J', 'Z'])('accepts category %s', (category) => {
		expect(checkContainerNumber(withCheckDigit(`CSQ${category}305438`)).isValid).toBe(true);
	});

	it('rejects another fourth letter even with the right check digit', () => {
		const number = withCheckDigit('CSQX305438');
		const check = checkContainerNumber(number);
		expect(check.isValid).toBe(false);
		expect(check.checkDigitPassed).toBe(true);
		expect(check.reason).toBe(
			'The fourth letter "X" is not an ISO 6346 equipment category (U, J or Z)',
		);
	});
});

describe('wrong shapes', () => {
	it.each([
		'',
		'CSQU305438',
		'CSQU30543833',
		'CSQ3054383',
		'CSQUU054383',
		'1SQU3054383',
		'CSQU305438X',
		'CSQU3O54383',
		'MEDU12345678',
	])('rejects %j with a reason and no check digit', (input) => {
		expect(looksLikeContainerNumber(input)).toBe(false);
		expect(checkContainerNumber(input)).toEqual({
			normalized: normalizeContainerNumber(input),
			isValid: false,
			checkDigitPassed: null,
			expectedCheckDigit: null,
			reason: 'A container number is four letters followed by seven digits (ISO 6346)',
		});
	});
});

describe('withCheckDigit', () => {
	it('completes the known numbers', () => {
		expect(withCheckDigit('CSQU305438')).toBe('CSQU3054383');
		expect(withCheckDigit('caiu743298')).toBe('CAIU7432986');
		expect(withCheckDigit('MSKU480796')).toBe('MSKU4807969');
		expect(withCheckDigit('NYKU080089')).toBe('NYKU0800893');
	});

	it('always gives a valid number', () => {
		for (let serial = 0; serial < 1000; serial += 7) {
			const number = withCheckDigit(`TGHU${String(serial * 997).padStart(6, '0')}`);
			expect(checkContainerNumber(number).isValid).toBe(true);
		}
	});
});

/**
 * ISO 6346 container numbers: a three-letter owner code, an equipment category identifier
 * (U freight container, J detachable equipment, Z trailer or chassis), a six-digit serial
 * number and a check digit computed over the first ten characters.
 */

const CONTAINER_NUMBER_SHAPE = /^[A-Z]{3}[UJZ]\d{6}\d$/;

/** Letter values skip multiples of 11 (11, 22, 33), as the standard prescribes. */
function characterValue(character: string): number {
	if (character >= '0' && character <= '9') return character.charCodeAt(0) - 48;
	let value = 10;
	for (let code = 65; code < character.charCodeAt(0); code++) {
		value++;
		if (value % 11 === 0) value++;
	}
	return value;
}

/** The check digit of the first ten characters (owner code, category, serial number). */
export function computeCheckDigit(firstTen: string): number {
	const prefix = firstTen.toUpperCase();
	if (!/^[A-Z]{4}\d{6}$/.test(prefix)) {
		throw new Error(`"${firstTen}" is not four letters followed by six digits`);
	}
	let sum = 0;
	for (let position = 0; position < 10; position++) {
		sum += characterValue(prefix[position]) * 2 ** position;
	}
	// A remainder of 10 is written as 0.
	return (sum % 11) % 10;
}

/**
 * A shipping number as it is compared: upper case, without the spaces, dots, dashes and slashes
 * people type into container, bill of lading and booking numbers.
 */
export function compactNumber(input: string): string {
	return input.toUpperCase().replace(/[\s.\-/]/g, '');
}

/** A container number as it is compared and sent (see compactNumber). */
export const normalizeContainerNumber = compactNumber;

/** True when the text has the shape of a container number, whatever its check digit. */
export function looksLikeContainerNumber(input: string): boolean {
	return /^[A-Z]{4}\d{7}$/.test(normalizeContainerNumber(input));
}

export interface ContainerNumberCheck {
	normalized: string;
	/** Shape and check digit both right. */
	isValid: boolean;
	/** Null when the shape is wrong and no check digit could be computed. */
	checkDigitPassed: boolean | null;
	expectedCheckDigit: number | null;
	/** Why the number is invalid; null when it is valid. */
	reason: string | null;
}

export function checkContainerNumber(input: string): ContainerNumberCheck {
	const normalized = normalizeContainerNumber(input);
	if (!/^[A-Z]{4}\d{7}$/.test(normalized)) {
		return {
			normalized,
			isValid: false,
			checkDigitPassed: null,
			expectedCheckDigit: null,
			reason: 'A container number is four letters followed by seven digits (ISO 6346)',
		};
	}
	const expected = computeCheckDigit(normalized.slice(0, 10));
	const actual = Number(normalized[10]);
	const checkDigitPassed = expected === actual;
	if (!CONTAINER_NUMBER_SHAPE.test(normalized)) {
		return {
			normalized,
			isValid: false,
			checkDigitPassed,
			expectedCheckDigit: expected,
			reason: `The fourth letter "${normalized[3]}" is not an ISO 6346 equipment category (U, J or Z)`,
		};
	}
	return {
		normalized,
		isValid: checkDigitPassed,
		checkDigitPassed,
		expectedCheckDigit: expected,
		reason: checkDigitPassed
			? null
			: `Check digit ${actual} does not match the ISO 6346 check digit ${expected}`,
	};
}

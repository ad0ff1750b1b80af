/**
 * The sandbox's answer to POST /tracking_requests/infer_number: the number type, a format verdict
 * and a carrier prediction (docs/service.md, "Number inference"). Pure and deterministic: one
 * number, one answer.
 *
 * The number is normalized as container numbers are (upper case; spaces, dashes, dots and
 * slashes removed). Rules, first match wins:
 * 1. Four letters + seven digits is a container, unless the fourth letter is not an ISO 6346
 *    category (U, J, Z) and the number starts with a carrier's bill of lading prefix (ONEY,
 *    EGLV, WHLC + 7 digits): that cannot be a container and is a valid bill of lading (rule 2).
 *    Validity, `check_digit_passed` and the reason come from ISO 6346. The carrier comes from
 *    the owner prefix alone, also when the check digit is wrong (a typo elsewhere does not
 *    change the owner): prefix equal to the line's own SCAC 0.97, other listed prefix 0.85,
 *    unknown prefix (lessors) no candidate.
 * 2. A bill of lading prefix followed by 6 to 16 letters or digits: bill of lading, valid,
 *    that line at 0.99.
 * 3. 8 to 12 digits: booking, valid, no prediction; 9 digits lists Maersk at 0.55.
 * 4. 6 to 20 letters or digits starting with a known prefix but of the wrong length (a container
 *    prefix followed by digits, or a bill of lading prefix followed by too few characters):
 *    invalid container or bill of lading with a reason; the prefix's line stays a candidate at
 *    0.80 (never auto-selected, since a wrong shape may mean another kind of number).
 * 5. Any other 6 to 20 letters or digits: bill of lading of unknown format (`is_valid` null).
 * 6. Anything else (empty, shorter than 6, longer than 20, other characters): invalid with a
 *    reason, no prediction, typed by its closest shape: the type of its letters and digits alone
 *    when other characters were dropped; else digits only: booking; a bill of lading prefix:
 *    bill of lading; three letters, U/J/Z and digits: container; else bill of lading.
 * The decision follows only from the best candidate's confidence (the thresholds of
 * docs/service.md, "Number inference"), so it can never disagree with it. SCAC TEST is never
 * predicted. `parsed_number` is the normalized number when it is made of letters and digits,
 * else null.
 */
import { createHash } from 'node:crypto';

import type { z } from 'zod';

import {
	checkContainerNumber,
	normalizeContainerNumber,
} from '../nodes/ContainerTracking/logic/iso6346';
import type {
	InferNumberAttributes as ServedInference,
	inferNumberValidation,
	REQUEST_TYPES,
	SHIPPING_LINE_DECISIONS,
	shippingLinePrediction,
} from '../nodes/ContainerTracking/schemas';
import {
	findShippingLine,
	findShippingLineByBillOfLadingPrefix,
	findShippingLineByContainerPrefix,
	type ShippingLine,
} from './world/shippingLines';

export type NumberType = (typeof REQUEST_TYPES)[number];
export type ShippingLineDecision = (typeof SHIPPING_LINE_DECISIONS)[number];

/*
 * The nodes' schema types of an inference (schemas/resources.ts), narrowed to what the sandbox
 * always sends: a known number type and decision, a confidence as a number, every member there.
 */
export type ShippingLineCandidate = z.infer<typeof shippingLinePrediction> & {
	name: string;
	/** From 0 to 1. */
	confidence: number;
};

export type InferNumberValidation = z.infer<typeof inferNumberValidation> & {
	is_valid: boolean | null;
	type: 'container' | 'shipment';
	parsed_number: string | null;
	reason: string | null;
};

export type InferNumberShippingLine = Omit<
	ServedInference['shipping_line'],
	'decision' | 'selected' | 'candidates'
> & {
	decision: ShippingLineDecision;
	/** The best candidate; absent with `no_prediction`. */
	selected?: ShippingLineCandidate;
	/** Ranked by confidence, highest first; may be non-empty with `no_prediction`. */
	candidates: ShippingLineCandidate[];
};

export type InferNumberAttributes = Omit<
	ServedInference,
	'number_type' | 'validation' | 'shipping_line'
> & {
	number_type: NumberType;
	validation: InferNumberValidation;
	shipping_line: InferNumberShippingLine;
};

export interface InferNumberResponseBody {
	data: { id: string; type: 'infer_number_results'; attributes: InferNumberAttributes };
}

/**
 * docs/service.md, "Number inference": auto_select from 95%, needs_confirmation from 70%,
 * no_prediction below.
 */
export const AUTO_SELECT_MIN_CONFIDENCE = 0.95;
export const NEEDS_CONFIRMATION_MIN_CONFIDENCE = 0.7;

export const CONFIDENCE = {
	billOfLadingPrefix: 0.99,
	/** Owner code equal to the line's SCAC (MSCU, MAEU, ...): the line's own boxes. */
	ownerCodeIsScac: 0.97,
	/** Other listed owner codes: usually the line, but lessors and swaps blur it. */
	otherContainerPrefix: 0.85,
	/** Known prefix, wrong length. */
	malformedKnownPrefix: 0.8,
	/** Maersk books with 9 digits, but so do others: a hint, not a prediction. */
	nineDigitBooking: 0.55,
} as const;

const MIN_LENGTH = 6;
const MAX_LENGTH = 20;
const NEVER_PREDICTED_SCAC = 'TEST';

export function decisionForConfidence(confidence: number): ShippingLineDecision {
	if (confidence >= AUTO_SELECT_MIN_CONFIDENCE) return 'auto_select';
	if (confidence >= NEEDS_CONFIRMATION_MIN_CONFIDENCE) return 'needs_confirmation';
	return 'no_prediction';
}

export function inferNumber(input: string): InferNumberAttributes {
	const normalized = normalizeContainerNumber(input);
	const lettersAndDigits = /^[A-Z0-9]+$/.test(normalized);
	const parsedNumber = lettersAndDigits ? normalized : null;
	const billOfLadingLine = findShippingLineByBillOfLadingPrefix(normalized);

	// ONEY1234567 cannot be a container (Y is no category) but is a fine ONE bill of lading.
	const billOfLadingNotContainer = billOfLadingLine !== undefined && !/^...[UJZ]/.test(normalized);
	if (/^[A-Z]{4}\d{7}$/.test(normalized) && !billOfLadingNotContainer) {
		const check = checkContainerNumber(normalized);
		return {
			number_type: 'container',
			validation: {
				is_valid: check.isValid,
				type: 'container',
				check_digit_passed: check.checkDigitPassed === true,
				parsed_number: parsedNumber,
				reason: check.reason,
			},
			shipping_line: predict(containerPrefixCandidates(normalized.slice(0, 4))),
		};
	}

	const withinLength = normalized.length >= MIN_LENGTH && normalized.length <= MAX_LENGTH;
	if (lettersAndDigits && withinLength) {
		if (billOfLadingLine) {
			const rest = normalized.slice(billOfLadingLine.billOfLadingPrefix?.length);
			if (rest.length >= 6 && rest.length <= 16) {
				return shipment('bill_of_lading', true, parsedNumber, null, [
					candidate(billOfLadingLine, CONFIDENCE.billOfLadingPrefix),
				]);
			}
		}
		if (/^\d{8,12}$/.test(normalized)) {
			const maersk = findShippingLine('MAEU');
			const hints =
				normalized.length === 9 && maersk ? [candidate(maersk, CONFIDENCE.nineDigitBooking)] : [];
			return shipment('booking', true, parsedNumber, null, hints);
		}
		const containerLine = findShippingLineByContainerPrefix(normalized.slice(0, 4));
		if (containerLine && /^[A-Z]{4}\d+$/.test(normalized)) {
			const digits = normalized.length - 4;
			return {
				number_type: 'container',
				validation: {
					is_valid: false,
					type: 'container',
					parsed_number: parsedNumber,
					reason: `A container number is four letters followed by seven digits (ISO 6346); "${normalized}" has ${digits} digits`,
				},
				shipping_line: predict([candidate(containerLine, CONFIDENCE.malformedKnownPrefix)]),
			};
		}
		if (billOfLadingLine) {
			const prefix = billOfLadingLine.billOfLadingPrefix ?? '';
			const restLength = normalized.length - prefix.length;
			return shipment(
				'bill_of_lading',
				false,
				parsedNumber,
				`A ${billOfLadingLine.name} bill of lading number is ${prefix} followed by 6 to 16 letters or digits; "${normalized}" has ${restLength} after the prefix`,
				[candidate(billOfLadingLine, CONFIDENCE.malformedKnownPrefix)],
			);
		}
		return shipment('bill_of_lading', null, parsedNumber, null, []);
	}

	const numberType = closestNumberType(normalized);
	const reason = unreadableReason(normalized, lettersAndDigits);
	if (numberType === 'container') {
		return {
			number_type: 'container',
			validation: { is_valid: false, type: 'container', parsed_number: parsedNumber, reason },
			shipping_line: predict([]),
		};
	}
	return shipment(numberType, false, parsedNumber, reason, []);
}

/** A stable `req_<uuid>` id: a version 5 style UUID from the SHA-1 of the normalized number. */
export function inferNumberResultId(input: string): string {
	const bytes = createHash('sha1').update(normalizeContainerNumber(input)).digest().subarray(0, 16);
	// Version 5 and RFC 4122 variant bits, so the id reads as a UUID to any validator.
	bytes[6] = (bytes[6] & 0x0f) | 0x50;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	const hex = bytes.toString('hex');
	return `req_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The whole 200 response body, as the service wraps it. */
export function inferNumberResponseBody(input: string): InferNumberResponseBody {
	return {
		data: {
			id: inferNumberResultId(input),
			type: 'infer_number_results',
			attributes: inferNumber(input),
		},
	};
}

function containerPrefixCandidates(ownerCode: string): ShippingLineCandidate[] {
	const line = findShippingLineByContainerPrefix(ownerCode);
	if (!line) return [];
	const confidence =
		line.scac === ownerCode ? CONFIDENCE.ownerCodeIsScac : CONFIDENCE.otherContainerPrefix;
	return [candidate(line, confidence)];
}

function candidate(line: ShippingLine, confidence: number): ShippingLineCandidate {
	return { scac: line.scac, name: line.name, confidence };
}

/** Ranks the candidates and derives the decision from the best one, so they always agree. */
function predict(candidates: ShippingLineCandidate[]): InferNumberShippingLine {
	const ranked = candidates
		.filter((entry) => entry.scac !== NEVER_PREDICTED_SCAC)
		.sort((a, b) => b.confidence - a.confidence);
	const best = ranked[0];
	const decision = best ? decisionForConfidence(best.confidence) : 'no_prediction';
	if (decision === 'no_prediction') return { decision, candidates: ranked };
	return { decision, selected: { ...best }, candidates: ranked };
}

function shipment(
	numberType: 'bill_of_lading' | 'booking',
	isValid: boolean | null,
	parsedNumber: string | null,
	reason: string | null,
	candidates: ShippingLineCandidate[],
): InferNumberAttributes {
	return {
		number_type: numberType,
		validation: { is_valid: isValid, type: 'shipment', parsed_number: parsedNumber, reason },
		shipping_line: predict(candidates),
	};
}

function closestNumberType(normalized: string): NumberType {
	const lettersAndDigits = normalized.replace(/[^A-Z0-9]/g, '');
	// With the stray characters dropped, the number may read fine: that is its closest shape.
	if (lettersAndDigits !== normalized && lettersAndDigits.length > 0) {
		return inferNumber(lettersAndDigits).number_type;
	}
	if (/^\d+$/.test(lettersAndDigits)) return 'booking';
	if (findShippingLineByBillOfLadingPrefix(lettersAndDigits)) return 'bill_of_lading';
	if (/^[A-Z]{3}[UJZ]\d+$/.test(lettersAndDigits)) return 'container';
	return 'bill_of_lading';
}

function unreadableReason(normalized: string, lettersAndDigits: boolean): string {
	if (normalized.length === 0) return 'The number is empty';
	if (!lettersAndDigits) {
		const others = [...new Set(normalized.replace(/[A-Z0-9]/g, ''))].join('');
		return `A tracking number contains only letters and digits; "${normalized}" also contains "${others}"`;
	}
	if (normalized.length < MIN_LENGTH) {
		return `"${normalized}" is too short for a tracking number (${normalized.length} characters, at least ${MIN_LENGTH})`;
	}
	return `"${normalized}" is too long for a tracking number (${normalized.length} characters, at most ${MAX_LENGTH})`;
}

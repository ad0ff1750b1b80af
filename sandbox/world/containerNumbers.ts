/**
 * Container numbers for the sandbox's boxes, and for the tests, the bench and the demos that
 * track them: any ten characters completed into a number that passes the ISO 6346 check.
 */
import { computeCheckDigit } from '../../nodes/ContainerTracking/logic/iso6346';

/** Completes a ten-character prefix into a valid container number. */
export function withCheckDigit(firstTen: string): string {
	return `${firstTen.toUpperCase()}${computeCheckDigit(firstTen)}`;
}

import { createHmac, timingSafeEqual } from 'crypto';

/**
 * The service signs each delivery with the lowercase hex HMAC-SHA256 of the raw request body,
 * keyed with the webhook's secret; no prefix, no timestamp (service notes, "Webhooks"). The
 * check runs on the bytes received, never on a re-serialized parsed body, and compares in
 * constant time.
 */
export function expectedSignature(rawBody: Buffer, secret: string): string {
	return createHmac('sha256', secret).update(rawBody).digest('hex');
}

export function isValidSignature(
	rawBody: Buffer | undefined,
	secret: string | undefined,
	header: string | string[] | undefined,
): boolean {
	if (!rawBody || !secret) return false;
	const received = Array.isArray(header) ? header[0] : header;
	if (typeof received !== 'string') return false;
	const expected = Buffer.from(expectedSignature(rawBody, secret), 'utf8');
	// Hex is hex in either case: an upper-case copy of the right signature is the right signature.
	const given = Buffer.from(received.trim().toLowerCase(), 'utf8');
	return given.length === expected.length && timingSafeEqual(given, expected);
}

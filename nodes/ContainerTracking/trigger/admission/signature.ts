import { createHmac, timingSafeEqual } from 'crypto';

import { triggerSlot } from '../triggerState';

/**
 * The service signs each delivery with the lowercase hex HMAC-SHA256 of the raw request body,
 * keyed with the webhook's secret; no prefix, no timestamp (docs/service.md, "Signature"). The
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

export const DEFAULT_SIGNATURE_HEADER = 'X-SVC-Webhook-Signature';

/**
 * The signature header's name, by trigger: reading the credential costs n8n a database read and
 * a decryption per delivery, the largest part of a delivery's time before the answer. A name
 * seen before is tried first; when it gives no valid signature the credential is read again, so
 * a renamed header is picked up at the next delivery. The name is no secret, and a delivery
 * passes only with a valid HMAC of its body under the webhook's secret, whatever the name.
 */
const signatureHeaders = triggerSlot<{ name?: string }>('signature header name', () => ({}));

export async function hasValidSignature(
	scope: string,
	readHeaderName: () => Promise<unknown>,
	headers: Record<string, string | string[] | undefined>,
	rawBody: Buffer | undefined,
	secret: string | undefined,
): Promise<boolean> {
	const known = signatureHeaders.of(scope).name;
	if (known !== undefined && isValidSignature(rawBody, secret, headers[known])) return true;
	const name = String((await readHeaderName()) || DEFAULT_SIGNATURE_HEADER).toLowerCase();
	signatureHeaders.of(scope).name = name;
	return isValidSignature(rawBody, secret, headers[name]);
}

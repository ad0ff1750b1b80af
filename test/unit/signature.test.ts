// Signature verification on its own (nodes/ContainerTracking/trigger/admission/signature.ts): the
// lowercase hex HMAC-SHA256 of the raw bytes received, keyed with the webhook's secret.
import { createHmac } from 'crypto';

import {
	hasValidSignature,
	isValidSignature,
} from '../../nodes/ContainerTracking/trigger/admission/signature';

const SECRET = 'whsec-unit-test';
const body = Buffer.from('{"data":{"id":"n-1","attributes":{"event":"container.updated"}}}');
const sign = (raw: Buffer | string, secret = SECRET) =>
	createHmac('sha256', secret).update(raw).digest('hex');

describe('isValidSignature', () => {
	it('accepts the HMAC of the raw bytes, as the service sends it or in upper case', () => {
		expect(isValidSignature(body, SECRET, sign(body))).toBe(true);
		expect(isValidSignature(body, SECRET, ` ${sign(body)} `)).toBe(true);
		expect(isValidSignature(body, SECRET, sign(body).toUpperCase())).toBe(true);
		// Node's HTTP server gives a repeated header as a list: the first one counts.
		expect(isValidSignature(body, SECRET, [sign(body), 'other'])).toBe(true);
	});

	it('checks the bytes received: a byte-order mark is part of what was signed', () => {
		const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]);
		expect(isValidSignature(withBom, SECRET, sign(withBom))).toBe(true);
		expect(isValidSignature(withBom, SECRET, sign(body))).toBe(false);
	});

	it.each([
		['another secret', body, SECRET, sign(body, 'not-the-secret')],
		['a changed body', Buffer.from(body.toString().replace('n-1', 'n-2')), SECRET, sign(body)],
		[
			'a re-serialized body',
			Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1)),
			SECRET,
			sign(body),
		],
		['no header', body, SECRET, undefined],
		['an empty header', body, SECRET, ''],
		['a truncated signature', body, SECRET, sign(body).slice(0, 32)],
		['a prefixed signature', body, SECRET, `sha256=${sign(body)}`],
		['no stored secret', body, undefined, sign(body, '')],
		['no body', undefined, SECRET, sign('')],
	])('refuses %s', (_label, raw, secret, header) => {
		expect(isValidSignature(raw, secret, header)).toBe(false);
	});
});

describe('hasValidSignature: the header name from the credential, read once per trigger', () => {
	const credential = (name: string | undefined) => {
		const reads = { count: 0 };
		return { reads, read: async () => (reads.count++, name) };
	};

	it('reads the credential for the first delivery only, while signatures keep checking out', async () => {
		const { reads, read } = credential('X-Custom-Signature');
		for (let delivery = 0; delivery < 5; delivery++)
			expect(
				await hasValidSignature(
					'wf-a:node',
					read,
					{ 'x-custom-signature': sign(body) },
					body,
					SECRET,
				),
			).toBe(true);
		expect(reads.count).toBe(1);
		// A forged delivery is refused however the name was learned, and makes it read again.
		expect(
			await hasValidSignature(
				'wf-a:node',
				read,
				{ 'x-custom-signature': sign(body, 'forged') },
				body,
				SECRET,
			),
		).toBe(false);
		expect(reads.count).toBe(2);
	});

	it('picks up a renamed header at the next delivery', async () => {
		let name = 'X-Old-Signature';
		const read = async () => name;
		expect(
			await hasValidSignature('wf-b:node', read, { 'x-old-signature': sign(body) }, body, SECRET),
		).toBe(true);
		name = 'X-New-Signature';
		expect(
			await hasValidSignature('wf-b:node', read, { 'x-new-signature': sign(body) }, body, SECRET),
		).toBe(true);
	});

	it('uses the default header name when the credential leaves it empty', async () => {
		const { read } = credential('');
		expect(
			await hasValidSignature(
				'wf-c:node',
				read,
				{ 'x-svc-webhook-signature': sign(body) },
				body,
				SECRET,
			),
		).toBe(true);
		expect(await hasValidSignature('wf-c:node', read, {}, body, SECRET)).toBe(false);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// A webhook receiver for tests. It verifies signatures with its own HMAC code (not the
// sandbox's), exactly as docs/service.md, "Signature", describes: lowercase hex HMAC-SHA256 of
// the raw body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
	headers: http.IncomingHttpHeaders;
	rawBody: Buffer;
	// Deliveries are read field by field in tests; the schema tests check their shape.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
	/** Null when no secret was known for the delivery's webhook. */
	signatureValid: boolean | null;
	answeredWith: number;
}

export interface WebhookReceiver {
	url: string;
	deliveries: ReceivedDelivery[];
	/** Secrets by webhook id, so that each delivery is checked with its own webhook's secret. */
	secrets: Map<string, string>;
	/** Status to answer with; a function decides per delivery. */
	answer: number | ((delivery: Omit<ReceivedDelivery, 'answeredWith'>, index: number) => number);
	signatureHeader: string;
	close(): Promise<void>;
}

export function verifySignature(
	rawBody: Buffer,
	secret: string,
	header: string | undefined,
): boolean {
	if (!header) return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest('hex');
	if (!/^[0-9a-f]{64}$/.test(header)) return false;
	return timingSafeEqual(Buffer.from(expected, 'utf8'), Buffer.from(header, 'utf8'));
}

export async function startWebhookReceiver(
	signatureHeader = 'X-SVC-Webhook-Signature',
): Promise<WebhookReceiver> {
	const receiver: WebhookReceiver = {
		url: '',
		deliveries: [],
		secrets: new Map(),
		answer: 200,
		signatureHeader,
		close: async () => undefined,
	};
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const rawBody = Buffer.concat(chunks);
			// eslint-disable-next-line @typescript-eslint/no-explicit-any
			let body: any = null;
			try {
				body = JSON.parse(rawBody.toString('utf8'));
			} catch {
				body = null;
			}
			const webhookId = body?.data?.relationships?.webhook?.data?.id as string | undefined;
			const secret = webhookId ? receiver.secrets.get(webhookId) : undefined;
			const header = request.headers[receiver.signatureHeader.toLowerCase()] as string | undefined;
			const delivery = {
				headers: request.headers,
				rawBody,
				body,
				signatureValid: secret ? verifySignature(rawBody, secret, header) : null,
			};
			const status =
				typeof receiver.answer === 'function'
					? receiver.answer(delivery, receiver.deliveries.length)
					: receiver.answer;
			receiver.deliveries.push({ ...delivery, answeredWith: status });
			response.writeHead(status);
			response.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
	receiver.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return receiver;
}

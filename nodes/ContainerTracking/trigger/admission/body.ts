/** The body of a delivery, as the service sent it, and its JSON. */

interface DeliveryRequest {
	rawBody?: Buffer;
	/** n8n's reader of the request stream (it sets `rawBody`); absent outside n8n. */
	readRawBody?: () => Promise<void>;
}

/**
 * The bytes the signature was made over. n8n reads them itself for JSON, text, form and XML
 * content types; for any other, or none, they are read here, so that a delivery is verified
 * whatever `Content-Type` it came with. Undefined when there is no body to read.
 */
export async function rawBodyOf(request: DeliveryRequest): Promise<Buffer | undefined> {
	if (!request.rawBody && typeof request.readRawBody === 'function') {
		try {
			await request.readRawBody();
		} catch {
			return undefined;
		}
	}
	return request.rawBody;
}

/** A BOM before the JSON is not part of it: n8n's Webhook node reads such bodies too. */
export function parseJsonBody(rawBody: Buffer): unknown {
	const text = rawBody.toString('utf8');
	return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

// Reading a delivery's body (nodes/ContainerTracking/trigger/admission/body.ts): the bytes the
// signature covers, whether n8n read them already or left the request stream for the node.
import { parseJsonBody, rawBodyOf } from '../../nodes/ContainerTracking/trigger/admission/body';

/** A request as n8n hands it to a webhook: `readRawBody` reads the stream into `rawBody`. */
function requestOf(text: string, alreadyRead: boolean) {
	const request: { rawBody?: Buffer; readRawBody: () => Promise<void>; reads: number } = {
		rawBody: alreadyRead ? Buffer.from(text) : undefined,
		reads: 0,
		async readRawBody() {
			request.reads++;
			await Promise.resolve();
			request.rawBody = Buffer.from(text);
		},
	};
	return request;
}

describe("a delivery's body", () => {
	it('uses the bytes n8n read, and reads them itself when n8n did not (any Content-Type)', async () => {
		const read = requestOf('{"a":1}', true);
		expect((await rawBodyOf(read))?.toString()).toBe('{"a":1}');
		expect(read.reads).toBe(0);
		const unread = requestOf('{"b":2}', false);
		expect((await rawBodyOf(unread))?.toString()).toBe('{"b":2}');
		expect(unread.reads).toBe(1);
	});

	it('has no body when the stream cannot be read, or outside n8n', async () => {
		const broken = {
			readRawBody: async () => {
				throw new Error('Request body stream was aborted or is not readable');
			},
		};
		expect(await rawBodyOf(broken)).toBeUndefined();
		expect(await rawBodyOf({})).toBeUndefined();
	});

	it('reads JSON with or without a byte-order mark, and refuses what is not JSON', () => {
		expect(parseJsonBody(Buffer.from('\uFEFF{"data":{"id":"n-1"}}'))).toEqual({
			data: { id: 'n-1' },
		});
		expect(parseJsonBody(Buffer.from('{"data":{"id":"n-2"}}'))).toEqual({ data: { id: 'n-2' } });
		expect(() => parseJsonBody(Buffer.from('not json'))).toThrow(SyntaxError);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// An HTTP server standing in for n8n's webhook endpoint: the sandbox delivers to it, it hands
// each POST to the trigger (through TriggerHarness, as n8n's webhook server would), answers
// with the node's status — a delivery that starts an execution once it is created — and runs
// that execution; every call is kept for assertions, once its execution has run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import type { Doc } from './deliveries';
import type { TriggerHarness } from './trigger';

export interface BridgeCall {
	path: string;
	status: number;
	notificationId: string | null;
	started: boolean;
	/** What the execution it started put out (the trigger's output), else none. */
	items: IDataObject[];
	error?: unknown;
}

export interface Bridge {
	/** Base of webhook URLs, as n8n's N8N_WEBHOOK_URL + `/webhook`. */
	webhookBaseUrl: string;
	calls: BridgeCall[];
	harness: TriggerHarness | undefined;
	/** n8n down: every connection is dropped unanswered (the sandbox counts a failed attempt). */
	down: boolean;
	close(): Promise<void>;
}

export async function startBridge(): Promise<Bridge> {
	const bridge: Bridge = {
		webhookBaseUrl: '',
		calls: [],
		harness: undefined,
		down: false,
		close: async () => undefined,
	};
	const server = http.createServer((request, response) => {
		if (bridge.down) {
			request.socket.destroy();
			return;
		}
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const raw = Buffer.concat(chunks);
			const path = request.url ?? '';
			let notificationId: string | null = null;
			try {
				notificationId = (JSON.parse(raw.toString('utf8')) as Doc)?.data?.id ?? null;
			} catch {
				notificationId = null;
			}
			const harness = bridge.harness;
			// n8n answers 404 for a path no active webhook listens on.
			if (
				!harness ||
				request.method !== 'POST' ||
				`${bridge.webhookBaseUrl}${path.replace(/^\/webhook/, '')}` !== harness.webhookUrl
			) {
				bridge.calls.push({ path, status: 404, notificationId, started: false, items: [] });
				response.writeHead(404).end();
				return;
			}
			const headers = Object.fromEntries(
				Object.entries(request.headers).filter(
					(entry): entry is [string, string] => typeof entry[1] === 'string',
				),
			);
			harness.deliver(raw, headers).then(
				({ result, sent, items }) => {
					const answer = result.workflowData ? harness.creationAnswer : 200;
					const started = result.workflowData !== undefined && [200, 'cut'].includes(answer);
					// Cut: the execution ran, and the connection closes with no answer (gone: closed before).
					if (answer === 'cut' || answer === 'gone') {
						response.destroy();
						bridge.calls.push({ path, status: 0, notificationId, started, items });
						return;
					}
					const status = sent?.status ?? answer;
					response.writeHead(status).end();
					bridge.calls.push({ path, status, notificationId, started, items });
				},
				(error: unknown) => {
					bridge.calls.push({
						path,
						status: 500,
						notificationId,
						started: false,
						items: [],
						error,
					});
					response.writeHead(500).end();
				},
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	bridge.webhookBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
	bridge.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return bridge;
}

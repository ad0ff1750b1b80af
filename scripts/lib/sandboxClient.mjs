// The local sandbox of the service as scripts start and call it (scripts/start.mjs,
// scripts/walkthrough.mjs).
import { spawn } from 'node:child_process';
import path from 'node:path';

import { processStopper, repoRoot } from './n8n.mjs';

/**
 * The sandbox in a process of its own on `port`, with the API key `apiKey`: `ready` resolves to
 * its base URL; `stop` ends it (SIGKILL when SIGTERM has not within 15 s).
 */
export function startSandbox(port, apiKey) {
	const child = spawn(
		path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
		['sandbox/cli.ts', '--port', String(port), '--api-key', apiKey],
		{ cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	const ready = new Promise((resolve, reject) => {
		let output = '';
		child.stdout.on('data', (chunk) => {
			output += chunk;
			const match = /Sandbox ready at (\S+)/.exec(output);
			if (match) resolve(match[1]);
		});
		child.stderr.on('data', (chunk) => {
			output += chunk;
			process.stderr.write(`[sandbox] ${chunk}`);
		});
		exited.then((code) => reject(new Error(`the sandbox exited with code ${code}: ${output}`)));
	});
	return { ready, stop: processStopper(child) };
}

/** The sandbox's API (`api`) and its control API (`control`), with the API key `apiKey`. */
export function sandboxClient(baseUrl, apiKey) {
	const controlUrl = baseUrl.replace(/\/v2$/, '/_sandbox');
	const call = async (url, method, body) => {
		const response = await fetch(url, {
			method,
			headers: { Authorization: `Token ${apiKey}`, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		return { status: response.status, body: text ? JSON.parse(text) : undefined };
	};
	return {
		api: (method, pathname, body) => call(`${baseUrl}${pathname}`, method, body),
		control: (method, pathname, body) => call(`${controlUrl}${pathname}`, method, body),
	};
}

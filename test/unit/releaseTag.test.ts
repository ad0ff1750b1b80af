/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- runs a release script as the workflow does; the rules are for the published nodes */
// scripts/check-release-tag.mjs, the gate of .github/workflows/publish.yml: a tag that does not
// name package.json's version publishes nothing.
import { spawnSync } from 'node:child_process';

import { version } from '../../package.json';
import { importNative, repoRoot } from '../support/importNative';

const SCRIPT = 'scripts/check-release-tag.mjs';

function check(...args: string[]) {
	const result = spawnSync(process.execPath, [SCRIPT, ...args], {
		cwd: repoRoot,
		encoding: 'utf8',
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('releaseTagProblem', () => {
	let problem: (tag: string | undefined, version: string) => string | undefined;
	beforeAll(async () => {
		({ releaseTagProblem: problem } = await importNative<{
			releaseTagProblem: typeof problem;
		}>(SCRIPT));
	});

	it('lets v<version> and refs/tags/v<version> through', () => {
		expect(problem('v1.2.3', '1.2.3')).toBeUndefined();
		expect(problem('refs/tags/v1.2.3', '1.2.3')).toBeUndefined();
		expect(problem('v1.0.0-beta.1', '1.0.0-beta.1')).toBeUndefined();
	});

	it('refuses another version, saying both and the fix', () => {
		expect(problem('v1.2.4', '1.2.3')).toBe(
			`tag v1.2.4 does not match package.json's version 1.2.3: tag the release v1.2.3, or set "version" in package.json to 1.2.4 and tag that commit`,
		);
		expect(problem('v1.2', '1.2.3')).toMatch(/does not match/);
	});

	it('refuses a tag without the v and an empty tag', () => {
		expect(problem('1.2.3', '1.2.3')).toMatch(/^tag 1.2.3 is not a release tag: .*\(v1.2.3\)$/);
		expect(problem('', '1.2.3')).toMatch(/^no tag given/);
		expect(problem(undefined, '1.2.3')).toMatch(/^no tag given/);
	});
});

describe('node scripts/check-release-tag.mjs <tag>', () => {
	it(`exits 0 for this package's own tag v${version}`, () => {
		const run = check(`v${version}`);
		expect(run).toMatchObject({ code: 0, stderr: '' });
		expect(run.stdout).toContain(`publishes n8n-nodes-container-tracking@${version}`);
	});

	it('exits 1 with the reason on stderr for a tag naming another version', () => {
		const run = check('v99.0.0');
		expect(run.code).toBe(1);
		expect(run.stdout).toBe('');
		expect(run.stderr).toBe(
			`check-release-tag: refusing to publish n8n-nodes-container-tracking: tag v99.0.0 does not match package.json's version ${version}: tag the release v${version}, or set "version" in package.json to 99.0.0 and tag that commit\n`,
		);
	});

	it('exits 2 with its usage when the tag is missing', () => {
		expect(check()).toMatchObject({ code: 2, stderr: expect.stringMatching(/^usage: /) });
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- runs the workflow validator and a workflow step; the rules are for the published nodes */
// The GitHub Actions workflows, checked offline: each file is valid for GitHub (action-validator
// with GitHub's schema), CI runs `.ci/run` on every push and pull request with Node 24 and the
// n8n runtime cache, and a release publishes with provenance only from a v* tag that names
// package.json's version, after lint, build and the tests, without a token.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

import { importNative, repoRoot } from '../support/importNative';

interface Step {
	name?: string;
	id?: string;
	if?: string;
	uses?: string;
	run?: string;
	with?: Record<string, string | number | boolean>;
	env?: Record<string, string>;
}
interface Job {
	name?: string;
	needs?: string | string[];
	'runs-on': string;
	'timeout-minutes'?: number;
	permissions?: Record<string, string>;
	steps: Step[];
	/** A reusable workflow the job calls instead of steps of its own. */
	uses?: string;
	strategy?: { 'fail-fast'?: boolean; matrix: Record<string, string> };
}
interface Workflow {
	name: string;
	on: Record<string, { tags?: string[]; branches?: string[] } | Array<{ cron: string }> | null>;
	permissions?: Record<string, string>;
	concurrency?: { group: string; 'cancel-in-progress': boolean };
	jobs: Record<string, Job>;
}

const WORKFLOWS = path.join(repoRoot, '.github', 'workflows');
const VALIDATOR = require.resolve('@action-validator/cli/cli.mjs');
const CACHE_PATH = '~/.cache/n8n-nodes-container-tracking';
const CACHE_KEY =
	"n8n-runtime-${{ runner.os }}-${{ runner.arch }}-${{ steps.n8n.outputs.version }}-${{ hashFiles('scripts/n8n-runtime.mjs') }}";

const text = (file: string) => readFileSync(path.join(WORKFLOWS, file), 'utf8');
const load = (file: string) => parse(text(file)) as Workflow;

/** action-validator's CLI on one file: exit code and the errors it printed. */
function validate(file: string) {
	const result = spawnSync(process.execPath, [VALIDATOR, file], { encoding: 'utf8' });
	return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

function expectValid(file: string) {
	const { code, output } = validate(file);
	if (code !== 0) throw new Error(`action-validator rejects ${file}:\n${output}`);
}

/** The index of the first step matching, failing when there is none. */
function stepIndex(job: Job, match: (step: Step) => boolean, what: string): number {
	const index = job.steps.findIndex(match);
	if (index < 0) throw new Error(`no step ${what} in ${JSON.stringify(job.steps, null, 2)}`);
	return index;
}
const runs = (command: string) => (step: Step) => step.run?.trim() === command;
const uses = (action: string) => (step: Step) => step.uses?.split('@')[0] === action;

/**
 * What the publishing job's npm step runs, for each npm version the runner might have: a fake
 * `npm` first on PATH answers --version and records any other call.
 */
function npmUpgrades(script: string): Record<string, string[]> {
	const dir = mkdtempSync(path.join(tmpdir(), 'ct-workflows-'));
	try {
		const fake = path.join(dir, 'npm');
		writeFileSync(
			fake,
			'#!/bin/sh\nif [ "$1" = --version ]; then echo "$NPM_VERSION"; else echo "$@" >> "$NPM_CALLS"; fi\n',
			{ mode: 0o755 },
		);
		const calls: Record<string, string[]> = {};
		for (const version of ['10.9.2', '11.4.2', '11.5.0', '11.5.1', '11.19.0', '12.0.0']) {
			const log = path.join(dir, `calls-${version}`);
			writeFileSync(log, '');
			const result = spawnSync('bash', ['-eo', 'pipefail', '-c', script], {
				env: {
					...process.env,
					PATH: `${dir}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
					NPM_VERSION: version,
					NPM_CALLS: log,
				},
				encoding: 'utf8',
			});
			expect(result.status).toBe(0);
			calls[version] = readFileSync(log, 'utf8').split(/\s+/).filter(Boolean);
		}
		return calls;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe('action-validator', () => {
	it.each(['ci.yml', 'publish.yml', 'compat.yml'])('accepts %s', (file) => {
		expectValid(path.join(WORKFLOWS, file));
	});

	it('rejects a broken copy, and the check fails saying why', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'ct-workflows-'));
		try {
			const broken = path.join(dir, 'ci.yml');
			writeFileSync(broken, text('ci.yml').replace('runs-on:', 'run-on:'));
			const { code, output } = validate(broken);
			expect(code).toBe(1);
			expect(output).toContain("Additional property 'run-on' is not allowed");
			expect(() => expectValid(broken)).toThrow(/action-validator rejects .*ci\.yml/);

			const noPermission = path.join(dir, 'publish.yml');
			writeFileSync(noPermission, text('publish.yml').replace('id-token: write', 'id-token: 1'));
			expect(() => expectValid(noPermission)).toThrow(/The value must be string/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

/** Node 24 through actions/setup-node, before anything runs node or npm. */
function expectNode24(job: Job) {
	const setup = stepIndex(job, uses('actions/setup-node'), 'actions/setup-node');
	expect(String(job.steps[setup].with?.['node-version'])).toBe('24');
	const firstRun = job.steps.findIndex((step) => step.run !== undefined);
	expect(setup).toBeLessThan(firstRun);
}

/** Restores ~/.cache/n8n-nodes-container-tracking keyed on the n8n version and the script. */
function expectRuntimeCache(job: Job): number {
	const restore = stepIndex(
		job,
		(step) => /^actions\/cache(\/restore)?$/.test(step.uses?.split('@')[0] ?? ''),
		'restoring the n8n runtime',
	);
	expect(job.steps[restore].with).toMatchObject({ path: CACHE_PATH, key: CACHE_KEY });
	const version = stepIndex(job, (step) => step.id === 'n8n', 'with id n8n');
	expect(version).toBeLessThan(restore);
	return restore;
}

describe('ci.yml', () => {
	const ci = load('ci.yml');
	const job = ci.jobs.test;

	it('runs on every push and pull request', () => {
		expect(ci.on).toEqual({ push: null, pull_request: null });
	});

	it('reads the repository only, and cancels a superseded run of the same ref', () => {
		expect(ci.permissions).toEqual({ contents: 'read' });
		expect(Object.values(ci.jobs).every((each) => each.permissions === undefined)).toBe(true);
		expect(ci.concurrency).toEqual({
			group: '${{ github.workflow }}-${{ github.ref }}',
			'cancel-in-progress': true,
		});
	});

	it('runs .ci/run exactly, on ubuntu with Node 24, within 90 minutes', () => {
		expect(Object.keys(ci.jobs)).toEqual(['test']);
		expect(job['runs-on']).toMatch(/^ubuntu-/);
		expect(job['timeout-minutes']).toBe(90);
		expectNode24(job);
		const commands = job.steps.filter((step) => step.run !== undefined);
		expect(commands.filter((step) => /npm |\.ci\/run/.test(step.run!))).toEqual([
			{ name: '.ci/run', run: '.ci/run' },
		]);
		expect(readFileSync(path.join(repoRoot, '.ci', 'run'), 'utf8')).toContain('npm ci && npm test');
	});

	it('restores the n8n runtime before .ci/run and saves a finished install after it', () => {
		const restore = expectRuntimeCache(job);
		const run = stepIndex(job, runs('.ci/run'), '.ci/run');
		const save = stepIndex(job, uses('actions/cache/save'), 'saving the n8n runtime');
		expect(restore).toBeLessThan(run);
		expect(run).toBeLessThan(save);
		expect(job.steps[save].with).toEqual({
			path: CACHE_PATH,
			key: '${{ steps.n8n-cache.outputs.cache-primary-key }}',
		});
		expect(job.steps[restore].id).toBe('n8n-cache');
		// A failed test still saves the install; a cancelled run or a half install does not.
		expect(job.steps[save].if).toMatch(/!cancelled\(\)/);
		expect(job.steps[save].if).toContain("steps.runtime.outputs.installed == 'true'");
		const check = job.steps.find((step) => step.id === 'runtime');
		expect(check?.run).toContain('installed.json');
	});

	it("keys the cache on scripts/n8n-runtime.mjs's N8N_VERSION, read by the step itself", async () => {
		const { N8N_VERSION } = await importNative<{ N8N_VERSION: string }>('scripts/n8n-runtime.mjs');
		const dir = mkdtempSync(path.join(tmpdir(), 'ct-workflows-'));
		try {
			for (const workflow of [ci, load('publish.yml')]) {
				const step = Object.values(workflow.jobs)
					.flatMap((each) => each.steps ?? [])
					.find((each) => each.id === 'n8n');
				const output = path.join(dir, 'output');
				writeFileSync(output, '');
				const result = spawnSync('bash', ['-eo', 'pipefail', '-c', step!.run!], {
					cwd: repoRoot,
					env: { ...process.env, GITHUB_OUTPUT: output },
					encoding: 'utf8',
				});
				expect(result.stderr).toBe('');
				expect(readFileSync(output, 'utf8')).toBe(`version=${N8N_VERSION}\n`);
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('publish.yml', () => {
	const source = text('publish.yml');
	const publish = load('publish.yml');
	const verify = publish.jobs.verify;
	const release = publish.jobs.publish;

	it('runs only for a pushed v* tag', () => {
		expect(publish.on).toEqual({ push: { tags: ['v*'] } });
	});

	it('gives id-token: write to the publishing job alone', () => {
		expect(publish.permissions).toEqual({ contents: 'read' });
		expect(verify.permissions).toEqual({ contents: 'read' });
		expect(release.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	});

	it('publishes with provenance, public, after the job that lints, builds and tests', () => {
		expect(release.needs).toEqual(['verify', 'compat']);
		expect(publish.jobs.compat.uses).toBe('./.github/workflows/compat.yml');
		expectNode24(verify);
		expectNode24(release);
		const order = ['npm ci', 'npm run lint', 'npm run build', 'npm test'].map((command) =>
			stepIndex(verify, runs(command), command),
		);
		expect(order).toEqual([...order].sort((a, b) => a - b));
		expectRuntimeCache(verify);
		// The publishing job builds its own dist from a clean install.
		const ci = stepIndex(release, runs('npm ci'), 'npm ci');
		const build = stepIndex(release, runs('npm run build'), 'npm run build');
		const npmPublish = stepIndex(
			release,
			runs('npm publish --provenance --access public'),
			'npm publish',
		);
		expect(ci).toBeLessThan(build);
		expect(build).toBeLessThan(npmPublish);
		expect(release.steps.filter((step) => step.run?.includes('npm publish'))).toHaveLength(1);
	});

	it('checks the tag against package.json before anything is built or published', () => {
		for (const job of [verify, release]) {
			const check = stepIndex(
				job,
				runs('node scripts/check-release-tag.mjs "$GITHUB_REF_NAME"'),
				'checking the tag',
			);
			expect(check).toBeLessThan(stepIndex(job, runs('npm ci'), 'npm ci'));
		}
	});

	it('authenticates through trusted publishing: registry set, npm 11.5.1 or later, no token', () => {
		const setup = release.steps[stepIndex(release, uses('actions/setup-node'), 'setup-node')];
		expect(setup.with?.['registry-url']).toBe('https://registry.npmjs.org');
		// setup-node before v7 exported a placeholder NODE_AUTH_TOKEN that npm sent instead of
		// trading the OIDC token.
		expect(Number(setup.uses?.split('@v')[1])).toBeGreaterThanOrEqual(7);
		const upgrade = stepIndex(release, (step) => /npm@/.test(step.run ?? ''), 'upgrading npm');
		const npmPublish = stepIndex(release, (step) => /npm publish/.test(step.run ?? ''), 'publish');
		expect(upgrade).toBeLessThan(npmPublish);
		expect(npmUpgrades(release.steps[upgrade].run!)).toEqual({
			'10.9.2': ['install', '--global', 'npm@11.19.1'],
			'11.4.2': ['install', '--global', 'npm@11.19.1'],
			'11.5.0': ['install', '--global', 'npm@11.19.1'],
			'11.5.1': [],
			'11.19.0': [],
			'12.0.0': [],
		});
		expect(source).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN|secrets\./);
		for (const job of [verify, release])
			for (const step of job.steps) expect(step.env ?? {}).not.toHaveProperty('NODE_AUTH_TOKEN');
	});
});

describe('compat.yml', () => {
	const compat = load('compat.yml');
	const smoke = compat.jobs.smoke;

	it('runs weekly, by hand, and when publish.yml calls it before a release', () => {
		expect(Object.keys(compat.on).sort()).toEqual([
			'schedule',
			'workflow_call',
			'workflow_dispatch',
		]);
		expect(compat.permissions).toEqual({ contents: 'read' });
	});

	it("runs `npm run test:compat` once per version of scripts/n8n-runtime.mjs's COMPAT_N8N_VERSIONS, read by the step itself", async () => {
		const { COMPAT_N8N_VERSIONS } = await importNative<{ COMPAT_N8N_VERSIONS: string[] }>(
			'scripts/n8n-runtime.mjs',
		);
		const read = compat.jobs.versions.steps.find((step) => step.id === 'read')!;
		const dir = mkdtempSync(path.join(tmpdir(), 'ct-workflows-'));
		try {
			const output = path.join(dir, 'output');
			writeFileSync(output, '');
			const result = spawnSync('bash', ['-eo', 'pipefail', '-c', read.run!], {
				cwd: repoRoot,
				env: { ...process.env, GITHUB_OUTPUT: output },
				encoding: 'utf8',
			});
			expect(result.stderr).toBe('');
			expect(readFileSync(output, 'utf8')).toBe(
				`versions=${JSON.stringify(COMPAT_N8N_VERSIONS)}\n`,
			);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
		expect(smoke.needs).toBe('versions');
		expect(smoke.strategy).toEqual({
			'fail-fast': false,
			matrix: { n8n: '${{ fromJSON(needs.versions.outputs.versions) }}' },
		});
		const ci = stepIndex(smoke, runs('npm ci'), 'npm ci');
		const test = stepIndex(smoke, (step) => /npm run test:compat/.test(step.run ?? ''), 'compat');
		expect(ci).toBeLessThan(test);
		expect(smoke.steps[test].env).toEqual({ N8N_VERSION: '${{ matrix.n8n }}' });
		const restore = stepIndex(smoke, uses('actions/cache/restore'), 'cache restore');
		expect(restore).toBeLessThan(test);
		expect(smoke.steps[restore].with?.key).toContain('${{ matrix.n8n }}');
	});
});

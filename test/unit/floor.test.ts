/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- loads the built package in a process of its own; the rules are for the published nodes */
// The oldest n8n the package supports (docs/compatibility.md) runs the n8n-workflow that the
// `n8n-workflow-floor` devDependency holds. Every value the built nodes read from n8n-workflow
// must exist there, or the nodes fail to load on that n8n while the credential still loads (an
// install that looks fine and half works). The sources' types are checked against it by
// `npm run typecheck` (tsconfig.floor.json); this checks the built code, in seconds, without n8n.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const dist = path.join(root, 'dist');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const floor = require('n8n-workflow-floor') as Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const floorVersion = (require('n8n-workflow-floor/package.json') as { version: string }).version;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const current = require('n8n-workflow') as Record<string, unknown>;

function builtFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(dir, entry.name);
		if (entry.isDirectory()) return builtFiles(file);
		return entry.name.endsWith('.js') ? [file] : [];
	});
}

/** The n8n-workflow members compiled code reads (`n8n_workflow_1.Name`, TypeScript's CommonJS). */
export function n8nWorkflowValuesOf(code: string): string[] {
	const names = new Set<string>();
	for (const match of code.matchAll(/\bn8n_workflow_\d*\.([A-Za-z_$][\w$]*)/g)) names.add(match[1]);
	return [...names];
}

/** The values of `code` the floor's n8n-workflow does not export. */
function missingFromFloor(code: string): string[] {
	return n8nWorkflowValuesOf(code).filter((name) => !(name in floor));
}

describe(`the built nodes on the oldest supported n8n-workflow (${floorVersion})`, () => {
	beforeAll(() => {
		if (!existsSync(path.join(dist, 'nodes')))
			throw new Error('dist/ is missing: `npm test` builds it first (npm run build)');
	});

	it('read only values that n8n-workflow exports there', () => {
		const files = builtFiles(dist);
		const used = new Set<string>();
		const missing: string[] = [];
		for (const file of files) {
			const code = readFileSync(file, 'utf8');
			n8nWorkflowValuesOf(code).forEach((name) => used.add(name));
			missingFromFloor(code).forEach((name) =>
				missing.push(`${path.relative(root, file)}: ${name}`),
			);
		}
		// The scan found what the nodes use (NodeConnectionTypes among them), not nothing.
		expect(used.has('NodeConnectionTypes')).toBe(true);
		expect(used.has('NodeOperationError')).toBe(true);
		expect(missing).toEqual([]);
	});

	it('flags a value that only a newer n8n-workflow exports', () => {
		const newer = Object.keys(current).filter((name) => !(name in floor));
		expect(newer.length).toBeGreaterThan(0);
		const code = `const n8n_workflow_1 = require("n8n-workflow");\nn8n_workflow_1.NodeApiError;\n(0, n8n_workflow_1.${newer[0]})();`;
		expect(missingFromFloor(code)).toEqual([newer[0]]);
	});

	it('load there, as n8n loads them: both nodes and the credential, with their inputs and outputs', () => {
		const output = execFileSync(
			process.execPath,
			[path.join(root, 'test', 'support', 'loadAgainstFloor.cjs')],
			{ encoding: 'utf8', timeout: 60_000 },
		);
		const report = JSON.parse(output) as {
			n8nWorkflow: string;
			loaded: Array<{ name: string; inputs?: unknown; outputs?: unknown; properties: number }>;
			failed: Array<{ file: string; error: string }>;
		};
		expect(report.n8nWorkflow).toBe(floorVersion);
		expect(report.failed).toEqual([]);
		const byName = Object.fromEntries(report.loaded.map((entry) => [entry.name, entry]));
		expect(Object.keys(byName).sort()).toEqual([
			'containerTracking',
			'containerTrackingApi',
			'containerTrackingTrigger',
		]);
		expect(byName.containerTracking).toMatchObject({ inputs: ['main'], outputs: ['main'] });
		expect(byName.containerTrackingTrigger).toMatchObject({ inputs: [], outputs: ['main'] });
		expect(byName.containerTracking.properties).toBeGreaterThan(10);
	});
});

/**
 * Two projects: `main` runs every suite; `drift` runs the engine and end-to-end suites once more
 * against a sandbox that serves data as real accounts send it (sandbox/drift.ts), so that agreeing
 * with our own sandbox's tidy values is never all the node is tested against. The end-to-end files
 * of both share one n8n where they can (test/e2e/helpers.ts); CONTRIBUTING.md "Suites" says what
 * runs where and how long it takes.
 * One project alone: `npx jest --selectProjects drift`.
 * @type {import('jest').Config}
 */
const { fileSlots } = require('./test/support/workers');

const shared = {
	testEnvironment: 'node',
	// The run's one n8n for the end-to-end files that share it (test/e2e/helpers.ts).
	globalSetup: '<rootDir>/test/support/sharedN8n.setup.js',
	globalTeardown: '<rootDir>/test/support/sharedN8n.teardown.js',
	roots: ['<rootDir>/test'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
	},
	// Type errors are caught once by `npm run typecheck`; ts-jest only transpiles.
};

module.exports = {
	// A global option: jest ignores it inside a project. Generous (test/support/bounds.ts): 5× the
	// 6 s that the slowest test without a timeout of its own needs on a quiet two-core machine;
	// every longer test names its own bound.
	testTimeout: 30000,
	// Two cores, but most suites wait (on n8n, on a sandbox's clock, on retries): three files at a
	// time keep both cores busy. Fewer when the machine lends cores to others (test/support/workers.js).
	maxWorkers: fileSlots(),
	testSequencer: '<rootDir>/test/support/slowFirstSequencer.js',
	reporters: ['default', '<rootDir>/test/support/summaryReporter.js'],
	projects: [
		{
			...shared,
			displayName: 'main',
			testMatch: ['**/*.test.ts'],
			setupFiles: ['<rootDir>/test/support/env.ts'],
		},
		{
			...shared,
			displayName: 'drift',
			testMatch: ['<rootDir>/test/engine/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts'],
			// These two read the published examples, not the sandbox: nothing there drifts.
			testPathIgnorePatterns: [
				'/node_modules/',
				'/test/engine/properties\\.test\\.ts$',
				'/test/engine/realDeliveries\\.test\\.ts$',
				// Queue mode runs the same trigger as trigger.test.ts, which drifts; once is enough.
				'/test/e2e/queueMode\\.test\\.ts$',
				// Outages are about time (12 real seconds each); faults.test.ts already runs the same
				// create answers through the same transport under drift.
				'/test/engine/serviceOutage\\.test\\.ts$',
				// The watch is about time and order (when a check runs, what a read starts from); the
				// deliveries it catches up are the live ones' shapes, which trigger.test.ts and the
				// end-to-end outage suite run under drift.
				'/test/engine/watch\\.test\\.ts$',
				// Kills are about n8n's processes; the restart check reads the notification log as the
				// catch-up does, which the end-to-end outage suite runs under drift.
				'/test/e2e/kill\\.test\\.ts$',
			],
			setupFiles: ['<rootDir>/test/support/env.ts', '<rootDir>/test/support/driftEnv.ts'],
		},
	],
};

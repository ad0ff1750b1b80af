/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
	},
	// Type errors are caught once by `npm run typecheck`; ts-jest only transpiles.
	testTimeout: 30000,
	setupFiles: ['<rootDir>/test/support/env.ts'],
	reporters: ['default', '<rootDir>/test/support/summaryReporter.js'],
};

// Prints plain closing lines after jest's own summary, so that CI logs carry figures any reader
// (or tool) can pick up: "jest: N passed, N failed, N skipped", then the run's wall time and its
// five slowest files, so that a change that makes the suite slower is seen when it is made.
// With CT_TIMINGS_FILE set, every file's seconds are written there as JSON (to compare two runs,
// a quiet and a slow one, file by file).
const { writeFileSync } = require('node:fs');
const path = require('node:path');

class SummaryReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
	}

	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const wallSeconds = Math.round((Date.now() - results.startTime) / 1000);
		const files = results.testResults
			.map((file) => ({
				file: path.relative(this.rootDir, file.testFilePath),
				project: file.displayName?.name ?? file.displayName,
				seconds: (file.perfStats.end - file.perfStats.start) / 1000,
			}))
			.sort((a, b) => b.seconds - a.seconds);
		if (process.env.CT_TIMINGS_FILE)
			writeFileSync(
				process.env.CT_TIMINGS_FILE,
				`${JSON.stringify({ wallSeconds, files }, null, '\t')}\n`,
			);
		const slowest = files
			.slice(0, 5)
			.map(
				({ file, project, seconds }) =>
					`${file}${project ? ` (${project})` : ''} ${Math.round(seconds)} s`,
			);
		process.stdout.write(
			`\njest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n` +
				`jest wall time: ${Math.floor(wallSeconds / 60)} min ${wallSeconds % 60} s; slowest files: ${slowest.join(', ')}\n`,
		);
	}
}
module.exports = SummaryReporter;

// Prints one plain closing line, "jest: N passed, N failed, N skipped", after jest's own
// summary, so that CI logs carry a count that any reader (or tool) can pick up.
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		process.stdout.write(
			`\njest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`,
		);
	}
}
module.exports = SummaryReporter;

// Starts the longest files first, so that with three at a time none of them starts last and
// runs alone at the end. Jest orders by the durations it cached on this machine; a fresh clone
// (CI) has none, and jest would order by file size, so the files known to take over a minute
// come first there, longest first (CONTRIBUTING.md, "Suites").
const Sequencer = require('@jest/test-sequencer').default;

const LONGEST_FIRST = [
	'test/e2e/queueMode.test.ts',
	'test/e2e/outage.test.ts',
	'test/e2e/kill.test.ts',
	'test/engine/watch.test.ts',
	'test/e2e/trigger.test.ts',
	'test/sandbox/invariants.test.ts',
	'test/e2e/pickupBoard.test.ts',
	'test/engine/serviceOutage.test.ts',
	'test/e2e/burst.test.ts',
	'test/e2e/trackFromEmail.test.ts',
];

const rank = (test) => {
	const index = LONGEST_FIRST.findIndex((file) => test.path.endsWith(file));
	return index === -1 ? LONGEST_FIRST.length : index;
};

class SlowFirstSequencer extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		// Array.prototype.sort is stable: the rest keep jest's order.
		return [...sorted].sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = SlowFirstSequencer;

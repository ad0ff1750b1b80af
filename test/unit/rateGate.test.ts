// The rate gate on its own (nodes/ContainerTracking/transport/rateLimit.ts), on fake timers: the
// calls a process allows itself per window, halved by a 429 (once for the calls that met it
// together) and given back a tenth of the limit per window without one, so that processes
// sharing an API key settle at about the limit together.
import { randomUUID } from 'node:crypto';

import { rateGate } from '../../nodes/ContainerTracking/transport/rateLimit';

const WINDOW_MS = 60_000;

/** Asks for `count` calls at once; each answers as soon as it is let through. */
function ask(gate: ReturnType<typeof rateGate>, count: number) {
	const through: number[] = [];
	for (let index = 0; index < count; index++)
		void gate.acquire().then((answered) => {
			through.push(Date.now());
			answered();
		});
	return through;
}

describe('rate gate', () => {
	beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
	afterEach(() => jest.useRealTimers());

	it('lets the limit through per window', async () => {
		const gate = rateGate(randomUUID(), 'default');
		const through = ask(gate, 150);
		await jest.advanceTimersByTimeAsync(1_000);
		expect(through).toHaveLength(100);
		await jest.advanceTimersByTimeAsync(WINDOW_MS);
		expect(through).toHaveLength(150);
	});

	it('after a 429 allows itself half the calls per window, and a tenth of the limit back per window without one', async () => {
		const gate = rateGate(randomUUID(), 'default');
		const cutAt = Date.now();
		gate.rateLimited(0);
		// The calls in flight that met the same limit halve it once, not once each.
		gate.rateLimited(0);
		gate.rateLimited(0);
		const through = ask(gate, 200);
		await jest.advanceTimersByTimeAsync(WINDOW_MS - 1_000);
		expect(through).toHaveLength(50);
		// A window on: the first 50 left it, and 60 are allowed now.
		await jest.advanceTimersByTimeAsync(2_000);
		expect(through).toHaveLength(110);
		expect(Math.min(...through.slice(50))).toBeGreaterThanOrEqual(cutAt + WINDOW_MS);
		// Each window without a 429 gives back 10 more, up to the limit.
		await jest.advanceTimersByTimeAsync(WINDOW_MS);
		expect(through).toHaveLength(180);
		await jest.advanceTimersByTimeAsync(WINDOW_MS);
		expect(through).toHaveLength(200);
	});

	it('sends nothing on the key until the Retry-After has passed', async () => {
		const gate = rateGate(randomUUID(), 'default');
		gate.rateLimited(5_000);
		const through = ask(gate, 1);
		await jest.advanceTimersByTimeAsync(4_900);
		expect(through).toHaveLength(0);
		await jest.advanceTimersByTimeAsync(200);
		expect(through).toHaveLength(1);
	});
});

// The circuit shared by every call to one service (nodes/ContainerTracking/transport/circuit.ts):
// when it opens, that one probe at a time goes out, and that the first answer lets every
// waiting call go at once.
import { sleep } from 'n8n-workflow';

import { Circuit, jitteredBackoff } from '../../nodes/ContainerTracking/transport/circuit';
import { byClock, generous } from '../support/bounds';

const fault = (reason = 'HTTP 503', at = Date.now()) => ({ reason, at, address: false });

/** The first probe of an open circuit, and the one after a failed probe, come 0.5 to 1 s later. */
const PROBE_FIRST_MS = 1_000;
/** How often a call waiting at the circuit looks at it again. */
const POLL_MS = 100;

/** A circuit opened by three faults `ago` ms ago. */
function openedAgo(ago: number): Circuit {
	const circuit = new Circuit();
	for (let count = 0; count < 3; count++)
		circuit.failed(fault('HTTP 503', Date.now() - ago), false);
	return circuit;
}

describe('jitteredBackoff', () => {
	it('doubles from half a second to a ceiling of 10 s, jittered to between half and all of it', () => {
		for (let run = 0; run < 200; run++) {
			const [first, second, later] = [0, 1, 10].map((step) => jitteredBackoff(step));
			expect(first).toBeGreaterThanOrEqual(250);
			expect(first).toBeLessThanOrEqual(500);
			expect(second).toBeGreaterThanOrEqual(500);
			expect(second).toBeLessThanOrEqual(1000);
			expect(later).toBeGreaterThanOrEqual(5000);
			expect(later).toBeLessThanOrEqual(10_000);
		}
	});
});

describe('Circuit', () => {
	it('stays closed through two faults in a row and an answer, opens on the third', () => {
		const circuit = new Circuit();
		circuit.failed(fault(), false);
		circuit.failed(fault(), false);
		circuit.answered();
		circuit.failed(fault(), false);
		circuit.failed(fault(), false);
		expect(circuit.isOpen).toBe(false);
		circuit.failed(fault('ECONNRESET'), false);
		expect(circuit.isOpen).toBe(true);
		expect(circuit.lastFault?.reason).toBe('ECONNRESET');
	});

	it('open: one probe at a time when it is due; the others wait, and give up at their deadline', async () => {
		// Opened a second ago: its first probe is due.
		const circuit = openedAgo(PROBE_FIRST_MS);
		expect(await circuit.admit(Date.now())).toBe('probe');
		// The probe is out: another call waits until its deadline.
		const waitMs = byClock(300);
		const started = Date.now();
		expect(await circuit.admit(Date.now() + waitMs)).toBe('expired');
		expect(Date.now() - started).toBeGreaterThanOrEqual(waitMs - 10);
		// The probe failed: the next one is due 0.5 to 1 s later, not at once.
		const failedProbe = fault();
		circuit.failed(failedProbe, true);
		expect(await circuit.admit(Date.now())).toBe('expired');
		// A call whose deadline is when that probe is due at the latest waits for it and takes it.
		expect(await circuit.admit(Date.now() + byClock(PROBE_FIRST_MS))).toBe('probe');
		expect(Date.now() - failedProbe.at).toBeGreaterThanOrEqual(PROBE_FIRST_MS / 2);
	});

	it('the first answer closes it and lets every waiting call go within a tenth of a second', async () => {
		const circuit = openedAgo(PROBE_FIRST_MS);
		// A deadline none of these waits comes near: quietly they take a few hundredths of a second.
		const far = Date.now() + generous(200);
		expect(await circuit.admit(far)).toBe('probe');
		const waiting = Promise.all([circuit.admit(far), circuit.admit(far), circuit.admit(far)]);
		await sleep(byClock(50));
		const answeredAt = Date.now();
		circuit.answered();
		expect(await waiting).toEqual(['go', 'go', 'go']);
		// They saw it at their next look at the circuit, not at their deadline.
		expect(Date.now() - answeredAt).toBeLessThan(byClock(POLL_MS) + generous(50));
		expect(circuit.isOpen).toBe(false);
		expect(circuit.everAnswered).toBe(true);
	});

	it('a past deadline still takes a due probe: someone finds out that the service is back', async () => {
		// Opened a second ago: its first probe is due.
		const circuit = openedAgo(PROBE_FIRST_MS);
		expect(await circuit.admit(Date.now() - 1)).toBe('probe');
		expect(await circuit.admit(Date.now() - 1)).toBe('expired');
	});
});

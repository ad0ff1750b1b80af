// The circuit shared by every call to one service (nodes/ContainerTracking/transport/circuit.ts):
// when it opens, that one probe at a time goes out, and that the first answer lets every
// waiting call go at once.
import { sleep } from 'n8n-workflow';

import { Circuit, jitteredBackoff } from '../../nodes/ContainerTracking/transport/circuit';

const fault = (reason = 'HTTP 503') => ({ reason, at: Date.now(), address: false });

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
		const circuit = new Circuit();
		for (let count = 0; count < 3; count++) circuit.failed(fault(), false);
		const far = Date.now() + 60_000;
		const first = await circuit.admit(far);
		expect(first).toBe('probe');
		// The probe is out: another call waits until its deadline.
		const started = Date.now();
		expect(await circuit.admit(Date.now() + 300)).toBe('expired');
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		// The probe failed: the next one is due 0.5 to 1 s later, not at once.
		circuit.failed(fault(), true);
		expect(await circuit.admit(Date.now() + 100)).toBe('expired');
		expect(await circuit.admit(far)).toBe('probe');
	});

	it('the first answer closes it and lets every waiting call go within a tenth of a second', async () => {
		const circuit = new Circuit();
		for (let count = 0; count < 3; count++) circuit.failed(fault(), false);
		const far = Date.now() + 60_000;
		expect(await circuit.admit(far)).toBe('probe');
		const waiting = Promise.all([circuit.admit(far), circuit.admit(far), circuit.admit(far)]);
		await sleep(50);
		const answeredAt = Date.now();
		circuit.answered();
		expect(await waiting).toEqual(['go', 'go', 'go']);
		expect(Date.now() - answeredAt).toBeLessThan(250);
		expect(circuit.isOpen).toBe(false);
		expect(circuit.everAnswered).toBe(true);
	});

	it('a past deadline still takes a due probe: someone finds out that the service is back', async () => {
		const circuit = new Circuit();
		for (let count = 0; count < 3; count++) circuit.failed(fault(), false);
		await sleep(1050);
		expect(await circuit.admit(Date.now() - 1)).toBe('probe');
		expect(await circuit.admit(Date.now() - 1)).toBe('expired');
	});
});

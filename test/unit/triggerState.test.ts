// The per-trigger registry of in-process state (nodes/ContainerTracking/trigger/triggerState.ts):
// a trigger's slots are emptied together when its workflow is deactivated, but for a fact about
// the process, and a value still busy.
import { forgetTrigger, triggerSlot } from '../../nodes/ContainerTracking/trigger/triggerState';

describe('trigger state', () => {
	const secret = triggerSlot<{ value?: string }>('test: a secret', () => ({}));
	const owed = triggerSlot<{ check?: string }>('test: owed once per process', () => ({}), {
		keptAcrossActivations: true,
	});
	const writes = triggerSlot<{ underWay: number }>('test: writes', () => ({ underWay: 0 }), {
		forgetWhen: (value) => value.underWay === 0,
	});

	it('keeps each trigger apart, and empties one trigger when it is deactivated', () => {
		secret.of('w1:n').value = 'one';
		secret.of('w2:n').value = 'two';
		owed.of('w1:n').check = 'made';
		forgetTrigger('w1:n');
		expect(secret.peek('w1:n')).toBeUndefined();
		expect(secret.of('w1:n')).toEqual({});
		expect(secret.peek('w2:n')).toEqual({ value: 'two' });
		// Whether the restart check was made is the process's, not the activation's.
		expect(owed.peek('w1:n')).toEqual({ check: 'made' });
	});

	it('keeps a value still busy until a deactivation finds it idle', () => {
		writes.of('w3:n').underWay = 1;
		forgetTrigger('w3:n');
		expect(writes.peek('w3:n')).toEqual({ underWay: 1 });
		writes.of('w3:n').underWay = 0;
		forgetTrigger('w3:n');
		expect(writes.peek('w3:n')).toBeUndefined();
	});

	it('refuses a slot declared twice under one name', () => {
		expect(() => triggerSlot('test: a secret', () => ({}))).toThrow(/declared twice/);
	});
});

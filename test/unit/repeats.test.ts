// Repeat detection on its own (nodes/ContainerTracking/trigger/admission/repeats.ts): the check and
// the record are one step, a released key runs again, keys expire after the retry window, and the
// number kept is bounded.
import {
	MAX_REMEMBERED_KEYS,
	MemoryRepeatStore,
	REPEAT_WINDOW_MS,
	repeatStoreFor,
} from '../../nodes/ContainerTracking/trigger/admission/repeats';

describe('MemoryRepeatStore', () => {
	it('claims a key once; the second claim is a repeat', () => {
		const store = new MemoryRepeatStore();
		expect(store.claim('n-1')).toBe(true);
		expect(store.claim('n-1')).toBe(false);
		expect(store.claim('n-2')).toBe(true);
	});

	it('lets a released key be claimed again (a failed delivery is retried)', () => {
		const store = new MemoryRepeatStore();
		expect(store.claim('n-1')).toBe(true);
		store.release('n-1');
		expect(store.claim('n-1')).toBe(true);
		expect(store.claim('n-1')).toBe(false);
	});

	it('keeps keys for the whole retry schedule of the service (about 5.7 hours), then forgets them', () => {
		let now = 0;
		const store = new MemoryRepeatStore(REPEAT_WINDOW_MS, MAX_REMEMBERED_KEYS, () => now);
		store.claim('n-1');
		// 12 retries from 5 s, doubling: the last one 5 * (2^12 - 1) s after the first delivery.
		now = 5_000 * (2 ** 12 - 1);
		expect(store.claim('n-1')).toBe(false);
		now = REPEAT_WINDOW_MS + 1;
		expect(store.claim('n-1')).toBe(true);
		expect(store.size).toBe(1);
	});

	it('remembers far more than 1,000 ids: a repeat after 50,000 other deliveries is caught', () => {
		const store = new MemoryRepeatStore();
		store.claim('first');
		for (let index = 0; index < 50_000; index++) store.claim(`other-${index}`);
		expect(store.claim('first')).toBe(false);
	});

	it('forgets the oldest keys first beyond its bound', () => {
		const store = new MemoryRepeatStore(REPEAT_WINDOW_MS, 3);
		for (const key of ['a', 'b', 'c', 'd']) store.claim(key);
		expect(store.size).toBe(3);
		expect(store.claim('a')).toBe(true);
		expect(store.claim('d')).toBe(false);
	});

	it('keeps one store per trigger, shared by every delivery to it in this process', () => {
		const first = repeatStoreFor('workflow-1:node-1');
		expect(repeatStoreFor('workflow-1:node-1')).toBe(first);
		expect(repeatStoreFor('workflow-2:node-1')).not.toBe(first);
		expect(first.claim('shared')).toBe(true);
		expect(repeatStoreFor('workflow-1:node-1').claim('shared')).toBe(false);
		expect(repeatStoreFor('workflow-2:node-1').claim('shared')).toBe(true);
	});
});

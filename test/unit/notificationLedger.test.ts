// What this process knows of a trigger's notifications, on its own
// (nodes/ContainerTracking/trigger/memory/notificationLedger.ts): a delivery is taken once and a copy
// is a repeat, taken notifications are kept for the service's whole retry schedule and bounded,
// each trigger has its own record, a run is under way here until it ends, and after a restart a
// delivery that cannot be told from a copy waits for the restart check's knowledge, no longer than
// its bound. Deactivation empties the record but for runs still under way.
import {
	awaitKnowledge,
	expectKnowledge,
	isUnderWay,
	KNOWLEDGE_WAIT_MS,
	knowledgeCame,
	MAX_TAKEN,
	noteNotUnderWay,
	noteRanHere,
	noteTaken,
	noteUnderWay,
	ranHere,
	takeDelivery,
	TAKEN_FOR_MS,
} from '../../nodes/ContainerTracking/trigger/memory/notificationLedger';
import { forgetTrigger } from '../../nodes/ContainerTracking/trigger/triggerState';
import { byClock } from '../support/bounds';

/** The service's last retry: 12 retries from 5 s, doubling, after the first delivery. */
const LAST_RETRY_MS = byClock(5_000 * (2 ** 12 - 1));

let triggers = 0;
const aTrigger = () => `ledger-${++triggers}:node-1`;

describe('the notification ledger', () => {
	afterEach(() => jest.useRealTimers());

	it('takes a delivery once; a copy is a repeat, in the same step as the check', () => {
		const scope = aTrigger();
		expect(takeDelivery(scope, 'n-1')).toBe('new');
		expect(takeDelivery(scope, 'n-1')).toBe('repeat');
		expect(takeDelivery(scope, 'n-2')).toBe('new');
	});

	it('keeps taken notifications for the service whole retry schedule (about 5.7 hours), then forgets them', () => {
		jest.useFakeTimers({ now: Date.parse('2026-12-07T10:00:00Z') });
		const scope = aTrigger();
		takeDelivery(scope, 'n-1');
		jest.setSystemTime(Date.now() + LAST_RETRY_MS);
		expect(takeDelivery(scope, 'n-1')).toBe('repeat');
		jest.setSystemTime(Date.now() + TAKEN_FOR_MS);
		expect(takeDelivery(scope, 'n-1')).toBe('new');
	});

	it('remembers far more than 1,000 ids, and forgets the oldest first beyond its bound', () => {
		const scope = aTrigger();
		takeDelivery(scope, 'first');
		for (let index = 0; index < 50_000; index++) takeDelivery(scope, `other-${index}`);
		expect(takeDelivery(scope, 'first')).toBe('repeat');
		for (let index = 0; index < MAX_TAKEN; index++) takeDelivery(scope, `more-${index}`);
		expect(takeDelivery(scope, 'first')).toBe('new');
		expect(takeDelivery(scope, `more-${MAX_TAKEN - 1}`)).toBe('repeat');
	});

	it('keeps one record per trigger', () => {
		const [first, second] = [aTrigger(), aTrigger()];
		expect(takeDelivery(first, 'shared')).toBe('new');
		expect(takeDelivery(first, 'shared')).toBe('repeat');
		expect(takeDelivery(second, 'shared')).toBe('new');
	});

	it('takes as a repeat a copy of a notification that ran here, or that n8n’s store holds; a test event may come again', () => {
		const scope = aTrigger();
		noteRanHere(scope, ['ran']);
		noteTaken(scope, ['stored']);
		expect(ranHere(scope, 'ran')).toBe(true);
		expect(takeDelivery(scope, 'ran')).toBe('repeat');
		expect(takeDelivery(scope, 'stored')).toBe('repeat');
		expect(takeDelivery(scope, 'ran', true)).toBe('new');
	});

	it('after a restart, a delivery not taken waits for the restart check: then a copy is a repeat and a new one is taken', async () => {
		const scope = aTrigger();
		expectKnowledge(scope);
		expect(takeDelivery(scope, 'ran-before')).toBe('unknown yet');
		expect(takeDelivery(scope, 'new-one')).toBe('unknown yet');
		const waiting = awaitKnowledge(scope);
		noteTaken(scope, ['ran-before']);
		knowledgeCame(scope);
		await waiting;
		expect(takeDelivery(scope, 'ran-before')).toBe('repeat');
		expect(takeDelivery(scope, 'new-one')).toBe('new');
	});

	it('waits for the restart check no longer than its bound', async () => {
		jest.useFakeTimers({ now: Date.parse('2026-12-07T10:00:00Z') });
		const scope = aTrigger();
		expectKnowledge(scope);
		let waited = false;
		const waiting = awaitKnowledge(scope).then(() => (waited = true));
		await jest.advanceTimersByTimeAsync(KNOWLEDGE_WAIT_MS - 1);
		expect(waited).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		await waiting;
		expect(takeDelivery(scope, 'n-1')).toBe('new');
	});

	it('is emptied when the trigger is deactivated, but for runs still under way', () => {
		const scope = aTrigger();
		takeDelivery(scope, 'n-1');
		noteUnderWay(scope, ['run:n-2']);
		forgetTrigger(scope);
		// A run under way keeps the record whole: nothing of it is forgotten while it runs.
		expect(isUnderWay(scope, 'run:n-2')).toBe(true);
		expect(takeDelivery(scope, 'n-1')).toBe('repeat');
		noteNotUnderWay(scope, ['run:n-2']);
		forgetTrigger(scope);
		expect(isUnderWay(scope, 'run:n-2')).toBe(false);
		expect(takeDelivery(scope, 'n-1')).toBe('new');
	});
});

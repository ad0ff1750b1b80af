// The cut check's cadence (nodes/ContainerTracking/trigger/recovery/cutCheck.ts): how often the
// main reads the service's log to find runs a dead worker cut. The main of queue mode sees no
// delivery, so it learns from the log that executions run elsewhere, and from then on reads every
// minute. (Against a real n8n with a worker killed: test/e2e/queueMode.test.ts.)
import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import type { LoggedNotification } from '../../nodes/ContainerTracking/trigger/recovery/notificationLog';
import {
	checkCutRuns,
	CUT_CHECK_EVERY_MS,
	cutCheckDueIn,

	HAND_OVER_AFTER_MS,
	LEARN_FOR_MS,
} from '../../nodes/ContainerTracking/trigger/recovery/cutCheck';
import { forgetTrigger, triggerScope } from '../../nodes/ContainerTracking/trigger/triggerState';

const WEBHOOK = 'webhook-1';
const OPTIONS = { expandHoldsAndFees: true, fields: [], raw: false, fetchContainer: false };
let triggers = 0;

/** The main's trigger as the watch runs it: what it hands over is kept, not run. */
function mainTrigger() {
	const handed: IDataObject[][] = [];
	const workflow = { id: `cut-cadence-${++triggers}` };
	const context = {
		getWorkflow: () => workflow,
		getNode: () => ({ id: 'trigger-1', name: 'Container updated' }),
		emit: (data: Array<Array<{ json: IDataObject }>>) =>
			handed.push(data[0].map((item) => item.json)),
		helpers: { returnJsonArray: (items: IDataObject[]) => items.map((json) => ({ json })) },
		logger: { warn: () => undefined, info: () => undefined },
	} as unknown as ITriggerFunctions;
	return { context, handed, scope: triggerScope(context) };
}

const logged = (id: string, createdAt: number, status: string): LoggedNotification => ({
	id,
	webhookId: WEBHOOK,
	status,
	createdAt,
	included: new Map(),
	record: { id, type: 'webhook_notification' },
});

const minutes = (count: number) => count * 60_000;

describe('the cut check reads the log', () => {
	const start = Date.parse('2026-11-28T10:00:00Z');
	beforeEach(() => jest.useFakeTimers({ now: start }));
	afterEach(() => jest.useRealTimers());

	it('every minute for its first half hour, then only at the watch interval when every execution ran here (one n8n)', async () => {
		const { context, scope } = mainTrigger();
		await checkCutRuns(context, [WEBHOOK], start, OPTIONS, []);
		expect(cutCheckDueIn(scope)).toBe(CUT_CHECK_EVERY_MS);
		jest.setSystemTime(start + LEARN_FOR_MS + 1);
		await checkCutRuns(context, [WEBHOOK], start, OPTIONS, []);
		expect(cutCheckDueIn(scope)).toBe(Number.POSITIVE_INFINITY);
		forgetTrigger(scope);
	});

	it('every minute for as long as the workflow is active, once a notification answered had not run here when due (queue mode)', async () => {
		const { context, scope, handed } = mainTrigger();
		const ranOnAWorker = logged('n-1', start + 1_000, 'succeeded');
		await checkCutRuns(context, [WEBHOOK], start, OPTIONS, [ranOnAWorker]);
		for (const after of HAND_OVER_AFTER_MS) {
			jest.setSystemTime(start + 1_000 + after);
			await checkCutRuns(context, [WEBHOOK], start, OPTIONS, [ranOnAWorker]);
		}
		expect(handed.flat()).toHaveLength(HAND_OVER_AFTER_MS.length);

		// Hours later, long after its last hand-over and with nothing new in the log.
		jest.setSystemTime(start + minutes(180));
		await checkCutRuns(context, [WEBHOOK], start, OPTIONS, []);
		expect(cutCheckDueIn(scope)).toBe(CUT_CHECK_EVERY_MS);
		forgetTrigger(scope);
	});

	it('when a hand-over is due, not at the next whole minute', async () => {
		const { context, scope, handed } = mainTrigger();
		// Logged a second before the check read it.
		const cut = logged('n-1', start - 1_000, 'succeeded');
		await checkCutRuns(context, [WEBHOOK], start - 60_000, OPTIONS, [cut]);
		expect(cutCheckDueIn(scope)).toBe(CUT_CHECK_EVERY_MS);
		// A minute on, its hand-over is 29 s away: the check wakes then, and hands it over.
		jest.setSystemTime(start + minutes(1));
		await checkCutRuns(context, [WEBHOOK], start - 60_000, OPTIONS, []);
		expect(cutCheckDueIn(scope)).toBe(HAND_OVER_AFTER_MS[0] - 1_000 - minutes(1));
		jest.setSystemTime(start - 1_000 + HAND_OVER_AFTER_MS[0]);
		await checkCutRuns(context, [WEBHOOK], start - 60_000, OPTIONS, []);
		expect(handed.flat()).toHaveLength(1);
		forgetTrigger(scope);
	});

	it('a notification the service still retries (not answered) does not count as run elsewhere', async () => {
		const { context, scope } = mainTrigger();
		const neverAnswered = logged('n-1', start + 1_000, 'pending');
		await checkCutRuns(context, [WEBHOOK], start, OPTIONS, [neverAnswered]);
		for (const after of HAND_OVER_AFTER_MS) {
			jest.setSystemTime(start + 1_000 + after);
			await checkCutRuns(context, [WEBHOOK], start, OPTIONS, [neverAnswered]);
		}
		jest.setSystemTime(start + minutes(180));
		await checkCutRuns(context, [WEBHOOK], start, OPTIONS, []);
		expect(cutCheckDueIn(scope)).toBe(Number.POSITIVE_INFINITY);
		forgetTrigger(scope);
	});
});

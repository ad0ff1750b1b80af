// The run journal on its own (nodes/ContainerTracking/trigger/memory/runJournal.ts): which
// notifications' runs are open in n8n's store, what an execution's end closes, and what the restart
// check runs again. The store below keeps a node's list as n8n's does; n8n's end-of-execution hook
// is the list of handlers an execution adds, called where a test ends the execution. (Killed in a
// real n8n: test/e2e/kill.test.ts.)
import {
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import { notificationIdOf } from '../../nodes/ContainerTracking/trigger/memory/recordedNotifications';
import {
	checkItem,
	carrierItem,
} from '../../nodes/ContainerTracking/trigger/items/notificationItems';
import { LEASE_MS } from '../../nodes/ContainerTracking/trigger/memory/durableStore';
import { LOOK_AGAIN_AFTER_MS } from '../../nodes/ContainerTracking/trigger/memory/runJournal';
import type { EndedRun } from '../../nodes/ContainerTracking/n8nInternals';

let stores = 0;

function storeLikeN8ns() {
	const workflowId = `journal-${++stores}`;
	let saved: string[] = [];
	return {
		workflowId,
		saved: () => [...saved],
		async checkProcessedAndRecord(
			items: string[],
			_scope?: string,
			{ maxEntries }: { maxEntries?: number } = {},
		) {
			const read = new Set(saved);
			const fresh = items.filter((item) => !read.has(item));
			// As n8n's: the oldest entries beyond maxEntries go.
			saved = [...saved, ...fresh].slice(-(maxEntries ?? Infinity));
			return { new: fresh, processed: items.filter((item) => read.has(item)) };
		},
		async removeProcessed(items: string[]) {
			const removed = new Set(items);
			saved = saved.filter((item) => !removed.has(item));
		},
		/** Another process's write of the list it read earlier. */
		overwrite: (list: string[]) => (saved = [...list]),
	};
}

/**
 * The same store as one process reaches it, until the process dies (`kill`): then its calls
 * never answer, as a killed worker writes nothing more.
 */
function reachedBy(store: ReturnType<typeof storeLikeN8ns>) {
	let dead = false;
	const never = new Promise<never>(() => undefined);
	return {
		...store,
		kill: () => (dead = true),
		checkProcessedAndRecord: async (...args: Parameters<typeof store.checkProcessedAndRecord>) =>
			dead ? await never : await store.checkProcessedAndRecord(...args),
		removeProcessed: async (items: string[]) =>
			dead ? await never : await store.removeProcessed(items),
	};
}

interface Execution {
	context: IExecuteFunctions;
	/** n8n ends the execution: its end-of-execution handlers run, given how it ended. */
	end(ended?: EndedRun): Promise<void>;
}

function executionOf(
	store: ReturnType<typeof storeLikeN8ns>,
	items: IDataObject[],
	{ mode = 'webhook', hooks = true }: { mode?: string; hooks?: boolean } = {},
): Execution {
	const handlers: Array<(ended?: EndedRun) => Promise<void>> = [];
	const context = {
		getInputData: (): INodeExecutionData[] => items.map((json) => ({ json })),
		getNodeParameter: (name: string) => (name === 'options' ? {} : 'changes'),
		getWorkflow: () => ({ id: store.workflowId }),
		getMode: () => mode,
		logger: { warn: () => undefined, info: () => undefined },
		getNode: () => ({ id: 'trigger-1' }),
		helpers: {
			checkProcessedAndRecord: store.checkProcessedAndRecord,
			removeProcessed: store.removeProcessed,
		},
		additionalData: hooks
			? {
					hooks: {
						addHandler: (_name: string, handler: (ended?: EndedRun) => Promise<void>) =>
							handlers.push(handler),
					},
				}
			: {},
	} as unknown as IExecuteFunctions;
	return {
		context,
		end: async (ended) => {
			for (const handler of handlers) await handler(ended);
		},
	};
}

const run = async (execution: Execution) =>
	(await new Trigger().execute.call(execution.context))[0].map((item) => item.json);

/** A restart check's execution that finds runs open: it looks at them again a while later. */
const handOver = async (execution: Execution) => {
	const ran = run(execution);
	await jest.advanceTimersByTimeAsync(LOOK_AGAIN_AFTER_MS);
	return await ran;
};

type HandedOver = typeof import('../../nodes/ContainerTracking/trigger/recovery/handedOver');

/**
 * Another n8n process (a worker in queue mode): the node's modules loaded on their own, beside this
 * one's. Its trigger keeps what it chose (the cut check's choice is made before the bodies of the
 * notifications it runs are read from the service:
 * nodes/ContainerTracking/trigger/recovery/cutCheck.ts).
 */
function anotherProcess(): HandedOver['handedOverItems'] {
	let chosen: HandedOver['handedOverItems'] | undefined;
	jest.isolateModules(() => {
		chosen = jest.requireActual<HandedOver>(
			'../../nodes/ContainerTracking/trigger/recovery/handedOver',
		).handedOverItems;
	});
	return chosen!;
}

/** The node as the running n8n process loaded it. */
let Trigger = ContainerTrackingTrigger;

/**
 * n8n started again: the node's modules are loaded afresh, with no memory of what the last process
 * had under way; n8n's store keeps its list.
 */
/** The webhook's repeat check (trigger/memory/notificationLedger.ts) of the process `Trigger` runs in. */
let takeDelivery: typeof import('../../nodes/ContainerTracking/trigger/memory/notificationLedger').takeDelivery;
const isRepeat = (scope: string, id: string) => takeDelivery(scope, id) === 'repeat';

function restarted(): void {
	jest.isolateModules(() => {
		({ ContainerTrackingTrigger: Trigger } = jest.requireActual<
			typeof import('../../nodes/ContainerTracking/ContainerTrackingTrigger.node')
		>('../../nodes/ContainerTracking/ContainerTrackingTrigger.node'));
		({ takeDelivery } = jest.requireActual<
			typeof import('../../nodes/ContainerTracking/trigger/memory/notificationLedger')
		>('../../nodes/ContainerTracking/trigger/memory/notificationLedger'));
	});
}

const delivered = (id: string) => ({ notification_id: id });
const recovering = (id: string) => carrierItem({ data: { id } }, 'recovering');
const openRuns = (store: ReturnType<typeof storeLikeN8ns>) =>
	store
		.saved()
		.filter((key) => key.startsWith('run:'))
		.sort();

describe('the run journal', () => {
	// The store's later checks (trigger/memory/recordedNotifications.ts) wait on timers: fake
	// ones, from a clock 3 s before a lease period ends, so that a restart check's look again falls
	// in the next one.
	beforeEach(() =>
		jest.useFakeTimers({
			doNotFake: ['nextTick', 'queueMicrotask'],
			now: Math.ceil(Date.parse('2026-11-28T10:00:00Z') / LEASE_MS) * LEASE_MS + LEASE_MS - 3_000,
		}),
	);
	afterEach(() => jest.useRealTimers());

	it('an execution opens the run of each notification it runs, and closes it when it ends', async () => {
		const store = storeLikeN8ns();
		const execution = executionOf(store, [delivered('n-1'), delivered('n-2')]);
		expect(await run(execution)).toHaveLength(2);
		expect(openRuns(store)).toEqual(['run:n-1', 'run:n-2']);
		await execution.end();
		expect(openRuns(store)).toEqual([]);
		// The notifications stay recorded: a copy later still starts nothing.
		expect(await run(executionOf(store, [delivered('n-1')]))).toEqual([]);
	});

	it('after a cut, the restart check runs again only the notifications whose run is open, marked rerun, once', async () => {
		const store = storeLikeN8ns();
		// n-1 and n-2 ran in an execution n8n never ended (killed); n-3's ended.
		await run(executionOf(store, [delivered('n-1'), delivered('n-2')]));
		const finished = executionOf(store, [delivered('n-3')]);
		await run(finished);
		await finished.end();
		restarted();
		const before = store.saved();

		const check = executionOf(store, ['n-1', 'n-2', 'n-3'].map(recovering));
		const rerun = await handOver(check);
		expect(rerun.map(notificationIdOf)).toEqual(['n-1', 'n-2']);
		expect(rerun.every((item) => item.rerun === true)).toBe(true);
		// The check added nothing about n-3 to the store: its run is not opened by looking at it.
		// (The runs taken over get this period's lease: the look again may fall in the next one.)
		const aboutN3 = (keys: string[]) => keys.filter((key) => key.includes('n-3')).sort();
		expect(aboutN3(store.saved())).toEqual(aboutN3(before));
		expect(openRuns(store)).toEqual(['run:n-1', 'run:n-2']);
		await check.end();
		expect(openRuns(store)).toEqual([]);
		// A second restart finds nothing to run again.
		expect(await run(executionOf(store, ['n-1', 'n-2', 'n-3'].map(recovering)))).toEqual([]);
	});

	it('a notification answered whose execution was killed before the trigger ran in it runs at the restart check, as a first run, once', async () => {
		const store = storeLikeN8ns();
		// n-1 ran and ended; n-2 was answered, and n8n died before any execution recorded it.
		const finished = executionOf(store, [delivered('n-1')]);
		await run(finished);
		await finished.end();

		const check = executionOf(store, ['n-1', 'n-2'].map(recovering));
		const ran = await run(check);
		expect(ran.map(notificationIdOf)).toEqual(['n-2']);
		expect(ran.some((item) => item.rerun === true)).toBe(false);
		// Its run is open while the check runs it: a kill now runs it again at the next restart.
		expect(openRuns(store)).toEqual(['run:n-2']);
		await check.end();
		expect(openRuns(store)).toEqual([]);
		expect(await run(executionOf(store, ['n-1', 'n-2'].map(recovering)))).toEqual([]);
		// The service's copy of it, if it comes later, is a repeat.
		expect(await run(executionOf(store, [delivered('n-2')]))).toEqual([]);
	});

	it('after a restart, a copy of a notification that ran before it, sent once the restart check ran, is answered as a repeat: no execution starts to stop empty', async () => {
		const store = storeLikeN8ns();
		const finished = executionOf(store, [delivered('n-1')]);
		await run(finished);
		await finished.end();
		restarted();
		const scope = `${store.workflowId}:trigger-1`;
		// The new process knows nothing yet: a copy now would start an execution (that stops empty).
		expect(isRepeat(scope, 'n-0')).toBe(false);

		const check = executionOf(store, ['n-1', 'n-2'].map(recovering));
		expect((await run(check)).map(notificationIdOf)).toEqual(['n-2']);
		await check.end();
		// n-1 ran before the restart, n-2 in the check: the service's copies are answered at once.
		expect(isRepeat(scope, 'n-1')).toBe(true);
		expect(isRepeat(scope, 'n-2')).toBe(true);
		// One the store never held is not taken for a repeat.
		expect(isRepeat(scope, 'n-3')).toBe(false);
	});

	it("a burst's runs under way never push the ids of the notifications before them out of n8n's store: their copies stay repeats", async () => {
		const store = storeLikeN8ns();
		const ids = (from: number, count: number) =>
			Array.from({ length: count }, (_, index) => `n-${from + index}`);
		const earlier = executionOf(store, ids(0, 1_000).map(delivered));
		expect(await run(earlier)).toHaveLength(1_000);
		await earlier.end();
		// Six executions of a burst hold 1,200 runs under way (each with its mark and lease), and a
		// restart check looks at 2,200 notifications: more entries than the ids n8n's list keeps.
		for (let batch = 0; batch < 6; batch += 1)
			expect(
				await run(executionOf(store, ids(1_000 + batch * 200, 200).map(delivered))),
			).toHaveLength(200);
		// Every one was recorded, none was cut (those under way run in this process): none runs.
		expect(await run(executionOf(store, ids(0, 2_200).map(recovering)))).toEqual([]);
		expect(await run(executionOf(store, [delivered('n-0'), delivered('n-999')]))).toEqual([]);
	});

	/** An execution that ended `error`, the node `node` failing with `error` as n8n keeps it (its fields spread). */
	const failedAt = (node: string, error: Record<string, unknown>): EndedRun => ({
		status: 'error',
		data: {
			resultData: {
				error,
				runData: { 'Container updated': [{}], [node]: [{ error }] },
			},
		},
	});
	// n8n 2.41's errors, as their classes (n8n/dist/task-runners/errors) make them.
	const codeNodeFoundNoRunner = {
		message: 'Task request timed out',
		description:
			'Your Code node task was not matched to a runner within the timeout period (waited 60 seconds). This indicates that the task runner is currently down, or not ready, or at capacity, so it cannot service your task.',
		level: 'warning',
		extra: { elapsedSeconds: 60 },
	};
	const runnerDisconnected = { message: 'Node execution failed', runnerId: 'runner-1' };
	const cancelledAtShutdown = {
		message: 'The execution was cancelled because the system is shutting down',
		reason: 'shutdown',
	};

	it.each([
		['its Code node found no task runner (n8n stopping)', codeNodeFoundNoRunner],
		['its task runner disconnected mid-task', runnerDisconnected],
		['n8n cancelled it to shut down', cancelledAtShutdown],
	])(
		'an execution that failed because %s leaves its runs open: the restart check runs them, marked rerun',
		async (_label, error) => {
			const store = storeLikeN8ns();
			const failed = executionOf(store, [delivered('n-1'), delivered('n-2')]);
			await run(failed);
			await failed.end(failedAt('Format alert', error));
			expect(openRuns(store)).toEqual(['run:n-1', 'run:n-2']);

			const rerun = await handOver(executionOf(store, ['n-1', 'n-2'].map(recovering)));
			expect(rerun.map(notificationIdOf)).toEqual(['n-1', 'n-2']);
			expect(rerun.every((item) => item.rerun === true)).toBe(true);
		},
	);

	it("an execution that failed on the workflow's own error, or succeeded, closes its runs: nothing runs again", async () => {
		const store = storeLikeN8ns();
		const ownError = executionOf(store, [delivered('n-1')]);
		await run(ownError);
		// A Code node's own exception, and a mail server refusing: the workflow's, not n8n's.
		await ownError.end(
			failedAt('Format alert', {
				message: "Cannot read properties of undefined (reading 'name') [line 2]",
				description: 'TypeError',
			}),
		);
		const succeeded = executionOf(store, [delivered('n-2')]);
		await run(succeeded);
		await succeeded.end({ status: 'success', data: { resultData: { runData: {} } } });
		expect(openRuns(store)).toEqual([]);
		expect(await run(executionOf(store, ['n-1', 'n-2'].map(recovering)))).toEqual([]);
	});

	it("a run under way in this process is not cut: after a restart, the service's next attempt ran before the restart check looked, and runs once", async () => {
		const store = storeLikeN8ns();
		// Recorded by an execution n8n never ended; its answer never reached the service (still
		// pending there), so the restart check hands it over and the service sends it again.
		await run(executionOf(store, [delivered('n-1')]));
		restarted();
		// n-2 was never recorded; its next attempt reaches the new process before the check.
		const live = executionOf(store, [delivered('n-2')]);
		expect((await run(live)).map(notificationIdOf)).toEqual(['n-2']);
		const check = executionOf(store, ['n-1', 'n-2'].map(recovering));
		const ran = await handOver(check);
		// n-1 runs again (cut); n-2, whose run is under way here, does not run a second time.
		expect(ran.map(notificationIdOf)).toEqual(['n-1']);
		expect(ran[0].rerun).toBe(true);
		await live.end();
		await check.end();
		expect(openRuns(store)).toEqual([]);
		// n-1's next attempt from the service is a repeat.
		expect(await run(executionOf(store, [delivered('n-1')]))).toEqual([]);
	});

	it('a restart check cut in its turn leaves the runs open for the next one', async () => {
		const store = storeLikeN8ns();
		await run(executionOf(store, [delivered('n-1')]));
		restarted();
		await handOver(executionOf(store, [recovering('n-1')]));
		restarted();
		const next = await handOver(executionOf(store, [recovering('n-1')]));
		expect(next.map(notificationIdOf)).toEqual(['n-1']);
	});

	it("a copy that comes while its original runs leaves the original's run open; one after it ended closes what it opened", async () => {
		const store = storeLikeN8ns();
		const original = executionOf(store, [delivered('n-1')]);
		await run(original);
		const early = executionOf(store, [delivered('n-1')]);
		expect(await run(early)).toEqual([]);
		await early.end();
		expect(openRuns(store)).toEqual(['run:n-1']);
		await original.end();
		const late = executionOf(store, [delivered('n-1')]);
		expect(await run(late)).toEqual([]);
		await late.end();
		expect(openRuns(store)).toEqual([]);
	});

	it('an execution retried by hand in n8n runs its notifications again, marked rerun', async () => {
		const store = storeLikeN8ns();
		const first = executionOf(store, [delivered('n-1')]);
		await run(first);
		await first.end();
		const retried = await run(executionOf(store, [delivered('n-1')], { mode: 'retry' }));
		expect(retried).toEqual([{ notification_id: 'n-1', rerun: true }]);
	});

	it('a restart check retried by hand in n8n runs again only the runs still open', async () => {
		const store = storeLikeN8ns();
		await run(executionOf(store, [delivered('n-1')]));
		const ended = executionOf(store, [delivered('n-2')]);
		await run(ended);
		await ended.end();
		restarted();
		const retried = executionOf(store, [recovering('n-1'), recovering('n-2')], { mode: 'retry' });
		const items = await handOver(retried);
		expect(items.map(notificationIdOf)).toEqual(['n-1']);
		expect(items[0].rerun).toBe(true);
		await retried.end();
		expect(openRuns(store)).toEqual([]);
	});

	it('a repeat that comes after its original ended holds no run while its own execution goes on: a restart check elsewhere then runs nothing', async () => {
		const store = storeLikeN8ns();
		const original = executionOf(store, [delivered('n-1')]);
		await run(original);
		await original.end();
		// The service's copy reaches a worker: its execution stops at the trigger, and has not ended.
		const repeat = executionOf(store, [delivered('n-1')]);
		expect(await run(repeat)).toEqual([]);
		expect(openRuns(store)).toEqual([]);
		// n8n's main started again meanwhile: its restart check runs on the other worker.
		restarted();
		expect(await run(executionOf(store, [recovering('n-1')]))).toEqual([]);
		await repeat.end();
		expect(openRuns(store)).toEqual([]);
	});

	it("removes again, two seconds later, a closed run another process's write put back (queue mode)", async () => {
		const store = storeLikeN8ns();
		const execution = executionOf(store, [delivered('n-1')]);
		await run(execution);
		// Another worker read the list while n-1's run was open…
		const readByOther = store.saved();
		await execution.end();
		expect(openRuns(store)).toEqual([]);
		// …and writes it back, with its own id, after the close.
		store.overwrite([...readByOther, 'n-other']);
		expect(openRuns(store)).toEqual(['run:n-1']);
		await jest.advanceTimersByTimeAsync(2_000);
		expect(openRuns(store)).toEqual([]);
		expect(store.saved()).toContain('n-other');
		// A restart now runs nothing again.
		expect(await run(executionOf(store, [recovering('n-1')]))).toEqual([]);
	});

	it("a repeat's run, removed at once and put back by another worker's write, is removed again: no cut check or restart runs it (queue mode)", async () => {
		const shared = storeLikeN8ns();
		const original = executionOf(shared, [delivered('n-1')]);
		await run(original);
		await original.end();
		// Minutes later (this process no longer checks that close), the service's copy comes: its
		// record adds n-1's run with its mark and lease, and removes them in the next write.
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		let readByOther: string[] = [];
		const watched = {
			...shared,
			checkProcessedAndRecord: async (items: string[]) => {
				const recorded = await shared.checkProcessedAndRecord(items);
				// Another worker reads the list between the copy's two writes.
				if (items.includes('run:n-1')) readByOther = shared.saved();
				return recorded;
			},
		};
		expect(await run(executionOf(watched, [delivered('n-1')]))).toEqual([]);
		expect(openRuns(shared)).toEqual([]);
		// …and writes it back, with its own id, after the removal.
		shared.overwrite([...readByOther, 'n-other']);
		expect(openRuns(shared)).toEqual(['run:n-1']);
		await jest.advanceTimersByTimeAsync(2_000);
		expect(openRuns(shared)).toEqual([]);
		expect(shared.saved()).toContain('n-other');
		// Its lease has lapsed since: the main's cut check runs nothing, nor does a restart.
		await jest.advanceTimersByTimeAsync(4 * LEASE_MS);
		const check = executionOf(shared, [], { mode: 'trigger' });
		const checked = checkItem({ id: 'n-1', createdAt: Date.now(), answered: true });
		const choice = anotherProcess();
		expect(
			(await choice(check.context, `${shared.workflowId}:trigger-1`, [{ json: checked }], true))
				.items,
		).toEqual([]);
		restarted();
		expect(await run(executionOf(shared, [recovering('n-1')]))).toEqual([]);
	});

	it("a repeat's run that another worker holds for one write while the restart check looks is not taken for a cut one", async () => {
		const store = storeLikeN8ns();
		const original = executionOf(store, [delivered('n-1')]);
		await run(original);
		await original.end();
		await jest.advanceTimersByTimeAsync(5 * 60_000);
		restarted();
		// The copy's execution on the other worker has written n-1's run, mark and lease, and
		// removes them a moment later, as the restart check looks.
		const lease = `lease:n-1:${Math.floor(Date.now() / LEASE_MS)}`;
		store.overwrite([...store.saved(), 'run:n-1', 'lease:n-1:held', lease]);
		void sleep(300).then(
			async () => await store.removeProcessed(['run:n-1', 'lease:n-1:held', lease]),
		);
		expect(await handOver(executionOf(store, [recovering('n-1')]))).toEqual([]);
		expect(openRuns(store)).toEqual([]);
	});

	it("without n8n's end-of-execution hook nothing is opened, so a restart runs nothing again", async () => {
		const store = storeLikeN8ns();
		expect(await run(executionOf(store, [delivered('n-1')], { hooks: false }))).toHaveLength(1);
		expect(openRuns(store)).toEqual([]);
		expect(await run(executionOf(store, [recovering('n-1')]))).toEqual([]);
	});

	describe('the cut check (queue mode: a worker dies while the main goes on, nodes/ContainerTracking/trigger/recovery/cutCheck.ts)', () => {
		const checked = (id: string, answered = true) =>
			checkItem({ id, createdAt: Date.parse('2026-11-28T10:00:00Z'), answered });
		const choose = async (
			choice: HandedOver['handedOverItems'],
			execution: Execution,
			items: IDataObject[],
		) =>
			(
				await choice(
					execution.context,
					`${String(execution.context.getWorkflow().id)}:trigger-1`,
					items.map((json) => ({ json })),
					true,
				)
			).items.map((item) => [notificationIdOf(item.json), item.json.rerun === true]);

		it('a run under way on another worker, its lease renewed, is left alone; once that worker is killed, it runs again, marked rerun, once', async () => {
			const shared = storeLikeN8ns();
			const onWorker = reachedBy(shared);
			// A worker runs n-1 and n-2 in an execution that goes on (a slow email server).
			const running = executionOf(onWorker, [delivered('n-1'), delivered('n-2')]);
			expect(await run(running)).toHaveLength(2);

			// The main's cut check runs on the other worker: both runs are leased; n-3, answered
			// and never recorded (its job died before the trigger ran), runs now as a first run.
			const checking = anotherProcess();
			const check = () => executionOf(shared, [], { mode: 'trigger' });
			const all = ['n-1', 'n-2', 'n-3'].map((id) => checked(id));
			expect(await choose(checking, check(), all)).toEqual([['n-3', false]]);
			// Minutes later, the first worker still renewing its leases: nothing is cut.
			await jest.advanceTimersByTimeAsync(4 * LEASE_MS);
			expect(await choose(checking, check(), all)).toEqual([]);
			expect(openRuns(shared)).toEqual(['run:n-1', 'run:n-2', 'run:n-3']);

			// Killed: its leases are not renewed, and lapse within two periods.
			onWorker.kill();
			await jest.advanceTimersByTimeAsync(LEASE_MS);
			await jest.advanceTimersByTimeAsync(LEASE_MS);
			expect(await choose(checking, check(), all)).toEqual([
				['n-1', true],
				['n-2', true],
			]);
			// Taken over and renewed by the process that runs them again: not run a third time.
			await jest.advanceTimersByTimeAsync(4 * LEASE_MS);
			expect(await choose(checking, check(), all)).toEqual([]);
		});

		it("a run key another worker's write put back after a look removed it (a run that ended) is not run again, and goes", async () => {
			const store = storeLikeN8ns();
			const finished = executionOf(store, [delivered('n-1')]);
			await run(finished);
			await finished.end();
			// A check on another worker looked at n-1's run (its key added, then removed); a third
			// wrote back the list it had read in between, with that key in it.
			const lookedAt = [...store.saved(), 'run:n-1'];
			store.overwrite(lookedAt);
			await jest.advanceTimersByTimeAsync(4 * LEASE_MS);
			const check = () => executionOf(store, [], { mode: 'trigger' });
			expect(await choose(anotherProcess(), check(), [checked('n-1')])).toEqual([]);
			expect(openRuns(store)).toEqual([]);
			// Nor at a restart.
			restarted();
			expect(await run(executionOf(store, [recovering('n-1')]))).toEqual([]);
		});

		it('a notification not answered when the check saw it, never recorded, is left to the service or the catch-up', async () => {
			const store = storeLikeN8ns();
			const choice = anotherProcess();
			expect(
				await choose(choice, executionOf(store, [], { mode: 'trigger' }), [checked('n-9', false)]),
			).toEqual([]);
			expect(store.saved()).toEqual([]);
		});

		it('a run that ended is never run again, and looking at it leaves the store as it was', async () => {
			const store = storeLikeN8ns();
			const finished = executionOf(store, [delivered('n-1')]);
			await run(finished);
			await finished.end();
			const before = store.saved();
			await jest.advanceTimersByTimeAsync(4 * LEASE_MS);
			expect(
				await choose(anotherProcess(), executionOf(store, [], { mode: 'trigger' }), [
					checked('n-1'),
				]),
			).toEqual([]);
			expect(store.saved().sort()).toEqual(before.sort());
		});
	});
});

// The durable half of repeat detection on its own
// (nodes/ContainerTracking/trigger/memory/recordedNotifications.ts). n8n's deduplication store
// reads a node's list of ids, awaits, and writes the list back; the stand-in below does the same,
// so that records made at the same moment would lose ids if the trigger did not make them one after
// the other. (In a real n8n: test/e2e/trigger.test.ts.)
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import { notificationIdOf } from '../../nodes/ContainerTracking/trigger/memory/recordedNotifications';
import { carrierItem } from '../../nodes/ContainerTracking/trigger/items/notificationItems';

/** The trigger's execute(), as n8n runs it in the execution a delivery started. */
const passNewNotification = async (context: IExecuteFunctions) =>
	await new ContainerTrackingTrigger().execute.call(context);

let stores = 0;

/** n8n's store for one trigger (each gets its own workflow id, as records are kept per trigger). */
function storeLikeN8ns() {
	const workflowId = `workflow-${++stores}`;
	let saved: string[] = [];
	let calls = 0;
	const tick = () => Promise.resolve().then(() => undefined);
	return {
		workflowId,
		saved: () => saved,
		calls: () => calls,
		/** Another process's write of the list it read earlier. */
		overwrite: (list: string[]) => (saved = list),
		async checkProcessedAndRecord(items: string[]) {
			calls++;
			const read = [...saved];
			await tick();
			const fresh = items.filter((item) => !read.includes(item));
			await tick();
			saved = [...read, ...fresh];
			return { new: fresh, processed: items.filter((item) => read.includes(item)) };
		},
	};
}

function executionOf(
	store: ReturnType<typeof storeLikeN8ns>,
	items: IDataObject[],
	options: IDataObject = {},
	mode = 'webhook',
	warnings: string[] = [],
): IExecuteFunctions {
	return {
		getInputData: (): INodeExecutionData[] => items.map((json) => ({ json })),
		getNodeParameter: (name: string) => (name === 'options' ? options : 'changes'),
		getWorkflow: () => ({ id: store.workflowId }),
		getMode: () => mode,
		logger: { warn: (message: string) => warnings.push(message) },
		getNode: () => ({ id: 'trigger-1' }),
		helpers: { checkProcessedAndRecord: store.checkProcessedAndRecord },
	} as unknown as IExecuteFunctions;
}

describe('durable repeat detection inside the execution', () => {
	// The later checks wait on timers: fake ones, moved on where a test needs them.
	beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
	afterEach(() => jest.useRealTimers());

	it('passes a new notification on whole and stops a recorded one with no items', async () => {
		const store = storeLikeN8ns();
		const items = [
			{ notification_id: 'n-1', field: 'holds_at_pod_terminal' },
			{ notification_id: 'n-1', field: 'pickup_lfd' },
		];
		expect((await passNewNotification(executionOf(store, items)))[0]).toHaveLength(2);
		expect(await passNewNotification(executionOf(store, items))).toEqual([[]]);
	});

	it('passes the new notifications of an execution that holds several, and only those', async () => {
		const store = storeLikeN8ns();
		await passNewNotification(executionOf(store, [{ notification_id: 'n-1' }]));
		const batch = [
			{ notification_id: 'n-1', field: 'pickup_lfd' },
			{ notification_id: 'n-2', field: 'holds_at_pod_terminal' },
			{ notification_id: 'n-2', field: 'pickup_lfd' },
			{ notification_id: 'n-3', field: 'available_for_pickup' },
		];
		const [passed] = await passNewNotification(executionOf(store, batch));
		expect(passed.map((item) => [item.json.notification_id, item.json.field])).toEqual([
			['n-2', 'holds_at_pod_terminal'],
			['n-2', 'pickup_lfd'],
			['n-3', 'available_for_pickup'],
		]);
		// Each output item names the item of the delivery it came from.
		expect(passed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }]);
		// One read and write of n8n's store for the whole batch.
		expect(store.calls()).toBe(2);
		expect(await passNewNotification(executionOf(store, batch))).toEqual([[]]);
	});

	it('records ids arriving in 50 executions at once without losing any', async () => {
		const store = storeLikeN8ns();
		const ids = Array.from({ length: 50 }, (_, index) => `n-${index}`);
		const outputs = await Promise.all(
			ids.map((id) => passNewNotification(executionOf(store, [{ notification_id: id }]))),
		);
		expect(outputs.every((output) => output[0].length === 1)).toBe(true);
		expect([...store.saved()].sort()).toEqual([...ids].sort());
		// Records made while one was under way went together: not one read and write each.
		expect(store.calls()).toBeLessThanOrEqual(2);
		// Control: the stand-in does lose ids when records are not made one after the other.
		const raw = storeLikeN8ns();
		await Promise.all(ids.map((id) => raw.checkProcessedAndRecord([id])));
		expect(raw.saved().length).toBeLessThan(ids.length);
	});

	it('passes one of two copies of a notification arriving at once, in one batch or in two', async () => {
		const store = storeLikeN8ns();
		const copies = async () =>
			await Promise.all(
				[1, 2].map(() => passNewNotification(executionOf(store, [{ notification_id: 'n-x' }]))),
			);
		expect((await copies()).map((output) => output[0].length).sort()).toEqual([0, 1]);
		// Behind a record under way, both copies wait for the next one together.
		const busy = passNewNotification(executionOf(store, [{ notification_id: 'n-busy' }]));
		const [first, second] = await Promise.all(
			['n-y', 'n-y'].map((id) =>
				passNewNotification(executionOf(store, [{ notification_id: id }])),
			),
		);
		await busy;
		expect([first[0].length, second[0].length].sort()).toEqual([0, 1]);
	});

	/** Another worker read the list before this worker's next write and writes it back after. */
	function racedOnce(store: ReturnType<typeof storeLikeN8ns>) {
		const record = store.checkProcessedAndRecord;
		let raced = false;
		store.checkProcessedAndRecord = async (items: string[]) => {
			if (raced) return await record(items);
			raced = true;
			const readByOtherWorker = [...store.saved()];
			const result = await record(items);
			store.overwrite([...readByOtherWorker, 'other-worker-id']);
			return result;
		};
	}

	it("puts back, with this process's next record, an id another process's write dropped (queue mode)", async () => {
		const store = storeLikeN8ns();
		racedOnce(store);
		const output = await passNewNotification(
			executionOf(store, [{ notification_id: 'this-worker-id' }]),
		);
		expect(output[0]).toHaveLength(1);
		// n8n's store has no lock: the other worker's write dropped this worker's id…
		expect(store.saved()).toEqual(['other-worker-id']);
		// …and the next delivery this worker records puts it back.
		await passNewNotification(executionOf(store, [{ notification_id: 'next-id' }]));
		expect([...store.saved()].sort()).toEqual(['next-id', 'other-worker-id', 'this-worker-id']);
		expect(
			await passNewNotification(executionOf(store, [{ notification_id: 'this-worker-id' }])),
		).toEqual([[]]);
	});

	describe('with no delivery after it', () => {
		it('puts a dropped id back two seconds after its record', async () => {
			const store = storeLikeN8ns();
			racedOnce(store);
			await passNewNotification(executionOf(store, [{ notification_id: 'this-worker-id' }]));
			expect(store.saved()).toEqual(['other-worker-id']);
			await jest.advanceTimersByTimeAsync(2_000);
			expect([...store.saved()].sort()).toEqual(['other-worker-id', 'this-worker-id']);
		});

		it('checks again half a minute later, for a write that took longer', async () => {
			const store = storeLikeN8ns();
			await passNewNotification(executionOf(store, [{ notification_id: 'this-worker-id' }]));
			await jest.advanceTimersByTimeAsync(2_000);
			// A slow worker read the list before this id was recorded and writes only now.
			store.overwrite(['slow-worker-id']);
			await jest.advanceTimersByTimeAsync(30_000);
			expect([...store.saved()].sort()).toEqual(['slow-worker-id', 'this-worker-id']);
			// Checks stop once one has found nothing missing and the last one agrees.
			await jest.advanceTimersByTimeAsync(32_000);
			store.overwrite([]);
			await jest.advanceTimersByTimeAsync(120_000);
			expect(store.saved()).toEqual([]);
		});
	});

	it('passes everything on when Ignore Repeated Deliveries is off', async () => {
		const store = storeLikeN8ns();
		const items = [{ notification_id: 'n-1' }];
		await passNewNotification(executionOf(store, items));
		const output = await passNewNotification(executionOf(store, items, { deduplicate: false }));
		expect(output[0]).toHaveLength(1);
	});

	it('passes a test event on every time, and goes on when the store fails', async () => {
		const store = storeLikeN8ns();
		const items = [{ notification_id: 'n-1' }];
		for (let run = 0; run < 2; run++)
			expect((await passNewNotification(executionOf(store, items, {}, 'manual')))[0]).toHaveLength(
				1,
			);
		const broken = {
			...storeLikeN8ns(),
			checkProcessedAndRecord: async () => {
				throw new Error('database unavailable');
			},
		};
		const warnings: string[] = [];
		const output = await passNewNotification(
			executionOf(broken as never, items, {}, 'webhook', warnings),
		);
		expect(output[0]).toHaveLength(1);
		expect(warnings).toHaveLength(1);
	});

	it("makes a record again when another worker made the trigger's list at the same moment", async () => {
		// n8n's store reads that a trigger has no list yet and inserts one; another worker's insert
		// of the same list landed in between, so this insert fails on the unique key, writing nothing.
		const store = storeLikeN8ns();
		const record = store.checkProcessedAndRecord;
		let inserts = 0;
		store.checkProcessedAndRecord = async (items: string[]) => {
			if (++inserts === 1) {
				store.overwrite(['other-worker-id']);
				throw new Error(
					'duplicate key value violates unique constraint "PK_ca04b9d8dc72de268fe07a65773"',
				);
			}
			return await record(items);
		};
		const warnings: string[] = [];
		const first = await passNewNotification(
			executionOf(store, [{ notification_id: 'n-1' }], {}, 'webhook', warnings),
		);
		expect(first[0]).toHaveLength(1);
		expect(warnings).toEqual([]);
		expect(store.saved()).toEqual(expect.arrayContaining(['other-worker-id', 'n-1']));
		// Recorded: its repeat stops at the trigger.
		const repeat = await passNewNotification(executionOf(store, [{ notification_id: 'n-1' }]));
		expect(repeat[0]).toHaveLength(0);
	});

	it('finds the notification id in items and in raw notifications', () => {
		expect(notificationIdOf({ notification_id: 'n-1' })).toBe('n-1');
		expect(notificationIdOf({ data: { id: 'n-2', type: 'webhook_notification' } })).toBe('n-2');
		expect(notificationIdOf({ data: {} })).toBeUndefined();
		// What a delivery hands its execution (trigger/items/notificationItems.ts).
		expect(notificationIdOf(carrierItem({ data: { id: 'n-3' } }))).toBe('n-3');
		expect(notificationIdOf(undefined)).toBeUndefined();
	});
});

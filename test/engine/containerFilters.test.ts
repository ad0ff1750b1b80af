// Container → Get Many's filters and order, run by n8n's engine against a sandbox whose
// containers are put into known states through the control API: which containers each filter
// keeps is known by construction (what was played and set), not worked out again here. The
// Terminal filter's answer is read from the service's own answer. Runs under drift too
// (jest.config.js): drift never touches status, holds that block, availability or timestamps.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runContainerTrackingNode } from '../support/engine';
import {
	ALL_BOXES as ALL,
	BOXES,
	boxOf,
	putBoxesInStates,
	type Box,
} from '../support/containerStates';
import { API_KEY, startTestSandbox, type SandboxHandle } from '../support/sandbox';

describe('Container Tracking node: Container → Get Many filters and order', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });

	const getMany = async (
		filters: INodeParameters,
		more: INodeParameters = {},
		nodeOptions: { continueOnFail?: boolean } = {},
	) =>
		runContainerTrackingNode(
			{ resource: 'container', operation: 'getMany', returnAll: true, filters, ...more },
			[{}],
			credentials(),
			nodeOptions,
		);
	/** The boxes an answer lists, in its order. */
	const boxes = async (filters: INodeParameters, more: INodeParameters = {}) => {
		const { items, error } = await getMany(filters, more);
		if (error) throw error;
		return items.map((item) => boxOf(item.json.number));
	};
	const sorted = (list: Array<Box | undefined>) => [...list].sort();
	const except = (...left: Box[]) => ALL.filter((box) => !left.includes(box)).sort();

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		await putBoxesInStates(handle);
	});
	afterAll(async () => handle.stop());

	it('the boxes are in the states the filters are tested on', async () => {
		const { items, error } = await getMany({});
		expect(error).toBeUndefined();
		const state = Object.fromEntries(
			items.map((item) => [
				boxOf(item.json.number),
				[item.json.pickup_status, item.json.days_until_last_free_day],
			]),
		);
		expect(state).toEqual({
			readySoon: ['ready', 1],
			heldToday: ['on_hold', 0],
			readyPassed: ['ready', -2],
			onShipLater: ['not_available', 5],
			returned: ['not_available', -5],
			pendingHold: ['not_available', null],
			readyUndated: ['ready', null],
		});
		expect(items.find((item) => boxOf(item.json.number) === 'returned')?.json.current_status).toBe(
			'empty_returned',
		);
	});

	it('Pickup Status keeps the chosen statuses; Not Ready is every status but ready', async () => {
		expect(sorted(await boxes({ pickupStatuses: ['ready'] }))).toEqual(
			['readySoon', 'readyPassed', 'readyUndated'].sort(),
		);
		expect(sorted(await boxes({ pickupStatuses: ['not_ready'] }))).toEqual(
			except('readySoon', 'readyPassed', 'readyUndated'),
		);
		expect(await boxes({ pickupStatuses: ['on_hold'] })).toEqual(['heldToday']);
		expect(sorted(await boxes({ pickupStatuses: ['on_hold', 'ready'] }))).toEqual(
			['heldToday', 'readySoon', 'readyPassed', 'readyUndated'].sort(),
		);
	});

	it('Last Free Day: within the next days, or passed, or not known, at each facility', async () => {
		expect(sorted(await boxes({ lastFreeDay: 'within' }))).toEqual(
			['readySoon', 'heldToday'].sort(),
		);
		expect(sorted(await boxes({ lastFreeDay: 'within', lastFreeDayDays: 5 }))).toEqual(
			['readySoon', 'heldToday', 'onShipLater'].sort(),
		);
		expect(sorted(await boxes({ lastFreeDay: 'withinOrPassed', lastFreeDayDays: 0 }))).toEqual(
			['heldToday', 'readyPassed', 'returned'].sort(),
		);
		expect(sorted(await boxes({ lastFreeDay: 'passed' }))).toEqual(
			['readyPassed', 'returned'].sort(),
		);
		expect(sorted(await boxes({ lastFreeDay: 'unknown' }))).toEqual(
			['pendingHold', 'readyUndated'].sort(),
		);
		// The number of days alone means "within".
		expect(await boxes({ lastFreeDayDays: 0 })).toEqual(['heldToday']);
	});

	it('Has Active Holds counts holds that block, not pending ones', async () => {
		expect(await boxes({ hasActiveHolds: 'yes' })).toEqual(['heldToday']);
		expect(sorted(await boxes({ hasActiveHolds: 'no' }))).toEqual(except('heldToday'));
	});

	it('Current Status Is and Is Not', async () => {
		expect(await boxes({ currentStatuses: ['empty_returned'] })).toEqual(['returned']);
		expect(
			sorted(
				await boxes({ excludedCurrentStatuses: ['picked_up', 'delivered', 'empty_returned'] }),
			),
		).toEqual(except('returned'));
		// From an expression, a comma-separated text is a list.
		expect(
			sorted(await boxes({ excludedCurrentStatuses: '={{ "picked_up, empty_returned" }}' })),
		).toEqual(except('returned'));
	});

	it('Terminal matches the port terminal by part of its name or by code, as the service names it', async () => {
		const { data } = await handle.api.get('/containers', {
			params: { include: 'pod_terminal', 'page[size]': 100 },
		});
		const terminals = new Map<string, IDataObject>(
			(data.included as Array<{ type: string; id: string; attributes: IDataObject }>)
				.filter((record) => record.type === 'terminal')
				.map((record) => [record.id, record.attributes]),
		);
		const servedTerminal = (container: IDataObject) =>
			terminals.get(
				String(
					((container.relationships as IDataObject).pod_terminal as { data?: { id: string } })?.data
						?.id,
				),
			);
		const served = data.data as IDataObject[];
		const first = served.map(servedTerminal).find((terminal) => terminal?.name)!;
		const name = String(first.name);
		const part = name.slice(0, Math.max(4, Math.ceil(name.length / 2))).toUpperCase();
		const expected = served
			.filter((container) =>
				String(servedTerminal(container)?.name ?? '')
					.toLowerCase()
					.includes(part.toLowerCase()),
			)
			.map((container) => boxOf((container.attributes as IDataObject).number))
			.sort();
		expect(expected.length).toBeGreaterThan(0);
		expect(sorted(await boxes({ terminal: ` ${part} ` }))).toEqual(expected);
		if (first.firms_code) {
			const byCode = served
				.filter((container) => servedTerminal(container)?.firms_code === first.firms_code)
				.map((container) => boxOf((container.attributes as IDataObject).number))
				.sort();
			expect(sorted(await boxes({ terminal: String(first.firms_code).toLowerCase() }))).toEqual(
				byCode,
			);
		}
		expect(await boxes({ terminal: 'No Such Terminal Anywhere' })).toEqual([]);
	});

	it('every filter set must hold: the daily question of the digest', async () => {
		expect(
			sorted(
				await boxes({
					lastFreeDay: 'withinOrPassed',
					lastFreeDayDays: 2,
					pickupStatuses: ['not_ready'],
					excludedCurrentStatuses: ['picked_up', 'delivered', 'empty_returned'],
				}),
			),
		).toEqual(['heldToday']);
	});

	it('Limit counts the containers that pass the filters, read over several pages', async () => {
		const all = await boxes({});
		const notReady = all.filter((box) =>
			['heldToday', 'onShipLater', 'returned', 'pendingHold'].includes(box!),
		);
		// A limit of 2 asks for pages of 2: the kept ones are spread over several.
		const { items, error } = await getMany(
			{ pickupStatuses: ['not_ready'] },
			{ returnAll: false, limit: 2 },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => boxOf(item.json.number))).toEqual(notReady.slice(0, 2));
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('Order by last free day: earliest date first, boxes without one last; Limit after the order', async () => {
		const order = await boxes({}, { options: { sort: 'lastFreeDay' } });
		expect(order.slice(0, 5)).toEqual([
			'returned',
			'readyPassed',
			'heldToday',
			'readySoon',
			'onShipLater',
		]);
		expect(sorted(order.slice(5))).toEqual(['pendingHold', 'readyUndated']);
		// The undated keep the service's order among themselves.
		const service = await boxes({});
		expect(order.slice(5)).toEqual(
			service.filter((box) => box === 'pendingHold' || box === 'readyUndated'),
		);

		const { items } = await getMany(
			{ pickupStatuses: ['ready'] },
			{ returnAll: false, limit: 1, options: { sort: 'lastFreeDay' } },
		);
		expect(items.map((item) => boxOf(item.json.number))).toEqual(['readyPassed']);
	});

	it('the simplified items pass the same filters', async () => {
		const { items } = await getMany({ hasActiveHolds: 'yes' }, { simplify: true });
		expect(items.map((item) => [item.json.number, item.json.active_holds])).toEqual([
			[BOXES.heldToday.number, ['customs']],
		]);
	});

	it('a bad number of days is an error naming the filter; with Continue On Fail, an error item', async () => {
		const failed = await getMany({ lastFreeDay: 'within', lastFreeDayDays: '={{ "soon" }}' });
		expect(failed.items).toEqual([]);
		expect(failed.error?.message).toBe(
			'The filter "Last Free Day Within (Days)" is "soon": it takes a whole number of days, 0 or more',
		);

		// Two input items, the second with a bad value: the first still lists, the second is an
		// error item paired with it.
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getMany',
				returnAll: true,
				filters: { lastFreeDayDays: '={{ $json.days }}' },
			},
			[{ days: 0 }, { days: 'two' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => [boxOf(item.json.number) ?? null, item.pairedItem])).toEqual([
			['heldToday', { item: 0 }],
			[null, { item: 1 }],
		]);
		expect(items[1].json).toEqual({
			error:
				'The filter "Last Free Day Within (Days)" is "two": it takes a whole number of days, 0 or more',
			error_description: 'Check the filter "Last Free Day Within (Days)" of item 1, or remove it.',
		});
	});

	// Last: it leaves one box's terminal unchecked for the rest of the file.
	it('Data keeps the fresh or the stale: a terminal last checked 8 days ago is stale, and the digest question leaves it out', async () => {
		const ids = Object.fromEntries(
			handle.sandbox.world.store
				.list('container')
				.map((container) => [boxOf(container.attributes.number), container.id]),
		) as Record<Box, string>;
		const unchecked = await handle.control.post(`/containers/${ids.heldToday}/stale_terminal`, {
			days: 8,
		});
		expect(unchecked.status).toBe(200);
		// Get Many includes each box's shipment: a shipment whose tracking stopped (drift stops
		// some) makes its boxes stale too.
		const store = handle.sandbox.world.store;
		const stopped = ALL.filter((box) => {
			const shipment = store.related(store.get('container', ids[box])!, 'shipment')[0];
			const served = handle.served('shipment', shipment.id).attributes;
			return Boolean(served.line_tracking_stopped_at ?? served.line_tracking_stopped_reason);
		});
		const stale = [...new Set<Box>(['heldToday', ...stopped])].sort();
		expect(sorted(await boxes({ data: 'stale' }))).toEqual(stale);
		expect(sorted(await boxes({ data: 'fresh' }))).toEqual(except(...stale));
		expect(
			sorted(
				await boxes({
					data: 'fresh',
					lastFreeDay: 'withinOrPassed',
					pickupStatuses: ['not_ready'],
				}),
			),
		).not.toContain('heldToday');
		const { items } = await getMany({ data: 'stale' });
		const held = items.find((item) => boxOf(item.json.number) === 'heldToday')!;
		expect(held.json).toMatchObject({
			data_fresh: false,
			data_stale_since: unchecked.data.terminal_checked_at,
			// And "; tracking stopped …" where drift stopped its shipment.
			data_stale_reason: expect.stringMatching(/^the terminal was last checked 8 days ago/),
			pickup_status: 'on_hold',
		});
		expect(String(held.json.pickup_status_reason)).toMatch(
			/^Data stale since \d{4}-\d\d-\d\d: the terminal was last checked 8 days ago[.;].* Last known: On hold/,
		);
	});
});

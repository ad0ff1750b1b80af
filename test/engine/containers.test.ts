// The container operations (get, get many, transport events, raw events), run by n8n's engine
// against started sandboxes whose containers are moved through their journeys and changed
// through the control API. Setup may read and write the sandbox; assertions use node output.
import { DateTime } from 'luxon';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { eventLabel } from '../../nodes/ContainerTracking/logic/eventNames';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generateShipment } from '../../sandbox/world/generator';
import { runContainerTrackingNode } from '../support/engine';
import {
	API_KEY,
	eventually,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';

/** Non-inland MSC box with a freight hold at discharge (the sandbox derives journeys from the number). */
const PORT_PICKUP_BOX = 'MSCU1000022';
/** Maersk box moving inland by rail: port of discharge in Los Angeles, destination in Chicago. */
const INLAND_BOX = 'MSKU4807969';

function sandboxHelpers(handle: () => SandboxHandle) {
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle().sandbox.url });
	const change = async (containerId: string, body: Record<string, unknown>) => {
		const answer = await handle().control.post(`/containers/${containerId}/changes`, body);
		if (answer.status !== 200)
			throw new Error(`change ${JSON.stringify(body)} answered ${answer.status}`);
	};
	const remainingSteps = async (containerId: string): Promise<string[]> =>
		(await handle().control.get(`/containers/${containerId}/journey`)).data.remaining_steps;
	/** Moves the clock two hours at a time until `step` has happened. */
	const advanceUntilDone = async (containerId: string, step: string) => {
		for (let hours = 0; (await remainingSteps(containerId)).includes(step); hours += 2) {
			if (hours > 24 * 30) throw new Error(`${step} never happened`);
			await handle().control.post('/clock/advance', { hours: 2 });
		}
	};
	return { credentials, change, remainingSteps, advanceUntilDone };
}

function expectPaired(items: INodeExecutionData[], item = 0) {
	expect(
		items.every((entry) => (entry.pairedItem as { item: number } | undefined)?.item === item),
	).toBe(true);
}

describe('Container Tracking node: get a container', () => {
	let handle: SandboxHandle;
	const { credentials, change, advanceUntilDone } = sandboxHelpers(() => handle);
	// The full item: these tests read attributes and related records that Simplify leaves out
	// (test/engine/simplify.test.ts covers the simplified shape, the default).
	const get = (containerId: string, options: INodeParameters = {}) =>
		runContainerTrackingNode(
			{ resource: 'container', operation: 'get', containerId, simplify: false, options },
			[{}],
			credentials(),
		);

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
	});
	afterAll(async () => handle.stop());

	it('resolves the shipment and the port terminal by default', async () => {
		const { containerIds, shipmentId } = await trackContainer(
			handle,
			withCheckDigit('MSCU500001'),
			'MSCU',
		);
		const { items, error } = await get(containerIds[0]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const container = items[0].json;
		const storedShipment = handle.sandbox.world.store.get('shipment', shipmentId)!;
		const storedTerminal = handle.sandbox.world.store.related(
			handle.sandbox.world.store.get('container', containerIds[0])!,
			'pod_terminal',
		)[0];
		expect(container).toMatchObject({
			id: containerIds[0],
			number: withCheckDigit('MSCU500001'),
			shipment_id: shipmentId,
			pod_terminal_id: storedTerminal.id,
			shipment: {
				type: 'shipment',
				id: shipmentId,
				bill_of_lading_number: storedShipment.attributes.bill_of_lading_number,
				shipping_line_scac: 'MSCU',
			},
			pod_terminal: {
				type: 'terminal',
				id: storedTerminal.id,
				name: storedTerminal.attributes.name,
			},
		});
		// Not asked for, so not resolved: only the id is there.
		expect(container.pickup_facility).toBeUndefined();
		expect(container).toHaveProperty('pickup_facility_id', null);
	});

	it('works out pickup readiness from availability and holds as the journey goes on', async () => {
		const { containerIds } = await trackContainer(handle, PORT_PICKUP_BOX, 'MSCU');
		const id = containerIds[0];
		const readiness = async () => {
			const { items, error } = await get(id, { include: [] });
			expect(error).toBeUndefined();
			expect(items[0].pairedItem).toEqual({ item: 0 });
			return items[0].json as {
				ready_for_pickup: unknown;
				pickup_status: string;
				active_holds: Array<{ name: string }>;
			};
		};

		// Still on the vessel: no availability reported yet.
		expect(await readiness()).toMatchObject({
			ready_for_pickup: false,
			pickup_status: 'not_available',
		});

		await advanceUntilDone(id, 'vessel_discharged');
		await change(id, { kind: 'set_availability', available: null });
		expect(await readiness()).toMatchObject({ ready_for_pickup: null, pickup_status: 'unknown' });

		await change(id, { kind: 'set_availability', available: false });
		await change(id, { kind: 'activate_hold', name: 'customs' });
		const onHold = await readiness();
		expect(onHold).toMatchObject({ ready_for_pickup: false, pickup_status: 'on_hold' });
		expect(onHold.active_holds.map((hold) => hold.name)).toContain('customs');

		await change(id, { kind: 'clear_hold', name: 'customs' });
		await change(id, { kind: 'clear_hold', name: 'freight' });
		await change(id, { kind: 'set_availability', available: true });
		expect(await readiness()).toMatchObject({
			ready_for_pickup: true,
			pickup_status: 'ready',
			active_holds: [],
		});

		// A pending hold is a warning, not a block.
		await change(id, { kind: 'place_hold', name: 'TMF', status: 'pending' });
		expect(await readiness()).toMatchObject({
			ready_for_pickup: true,
			pickup_status: 'ready',
			pending_holds: [{ name: 'TMF', status: 'pending' }],
		});

		await change(id, {
			kind: 'place_hold',
			name: 'USDA',
			status: 'hold',
			description: 'Agricultural inspection',
		});
		const outOfSync = await readiness();
		expect(outOfSync).toMatchObject({ ready_for_pickup: false, pickup_status: 'out_of_sync' });
		expect(outOfSync.active_holds).toEqual([
			{ name: 'USDA', status: 'hold', description: 'Agricultural inspection' },
		]);
	});

	it('sums the fees without the total the terminal adds', async () => {
		const { containerIds } = await trackContainer(handle, withCheckDigit('MSCU500002'), 'MSCU');
		const id = containerIds[0];
		const before = await get(id);
		expect(before.items[0].json).toMatchObject({ fees_total: 0, fees_currency: null });

		await change(id, { kind: 'post_fee', type: 'exam', amount: 350 });
		await change(id, { kind: 'post_fee', type: 'demurrage', amount: 175 });
		const { items, error } = await get(id);
		expect(error).toBeUndefined();
		// The terminal also reports a `total` of 525: adding it would double the amount.
		expect(items[0].json.fees_at_pod_terminal).toEqual(
			expect.arrayContaining([{ type: 'total', amount: 525, currency_code: 'USD' }]),
		);
		expect(items[0].json).toMatchObject({ fees_total: 525, fees_currency: 'USD' });
	});

	it('takes the last free day from line, then terminal, then rail, with days left in the facility zone', async () => {
		const { containerIds } = await trackContainer(handle, INLAND_BOX, 'MAEU');
		const id = containerIds[0];
		const stored = handle.sandbox.world.store.get('container', id)!.attributes;
		const podZone = String(stored.pod_timezone);
		const railZone = String(stored.final_destination_timezone);
		expect(podZone).not.toBe(railZone);
		const dateIn = (zone: string, days: number) =>
			DateTime.now().setZone(zone).plus({ days }).toISODate()!;
		/** Calendar days from today to `date`, both read in `zone`, worked out here independently. */
		const calendarDaysUntil = (iso: string, zone: string) => {
			const lfd = DateTime.fromISO(iso, { zone }).toISODate()!;
			const today = DateTime.now().setZone(zone).toISODate()!;
			return DateTime.fromISO(lfd, { zone: 'utc' }).diff(
				DateTime.fromISO(today, { zone: 'utc' }),
				'days',
			).days;
		};
		const lastFreeDay = async () => {
			const { items, error } = await get(id);
			expect(error).toBeUndefined();
			return items[0].json as {
				last_free_day: string | null;
				last_free_day_source: string | null;
				last_free_day_timezone: string | null;
				days_until_last_free_day: number | null;
			};
		};

		expect(await lastFreeDay()).toMatchObject({
			last_free_day: null,
			last_free_day_source: null,
			days_until_last_free_day: null,
		});

		// Rail alone: its date, read in the inland destination's zone.
		const rail = dateIn(railZone, 2);
		await change(id, { kind: 'set_last_free_day', source: 'rail', date: rail });
		const fromRail = await lastFreeDay();
		expect(fromRail).toMatchObject({
			last_free_day_source: 'rail',
			last_free_day_timezone: railZone,
		});
		expect(DateTime.fromISO(fromRail.last_free_day!, { zone: railZone }).toISODate()).toBe(rail);
		expect(fromRail.days_until_last_free_day).toBe(
			calendarDaysUntil(fromRail.last_free_day!, railZone),
		);

		// Terminal beats rail even though it is later: a priority, not the earliest date.
		const terminal = dateIn(podZone, 6);
		await change(id, { kind: 'set_last_free_day', source: 'terminal', date: terminal });
		const fromTerminal = await lastFreeDay();
		expect(fromTerminal).toMatchObject({
			last_free_day_source: 'terminal',
			last_free_day_timezone: podZone,
		});
		expect(DateTime.fromISO(fromTerminal.last_free_day!, { zone: podZone }).toISODate()).toBe(
			terminal,
		);
		expect(fromTerminal.days_until_last_free_day).toBe(
			calendarDaysUntil(fromTerminal.last_free_day!, podZone),
		);

		// The line beats both, also when it is in the past.
		const line = dateIn(podZone, -3);
		await change(id, { kind: 'set_last_free_day', source: 'line', date: line });
		const fromLine = await lastFreeDay();
		expect(fromLine).toMatchObject({
			last_free_day_source: 'line',
			last_free_day_timezone: podZone,
		});
		expect(DateTime.fromISO(fromLine.last_free_day!, { zone: podZone }).toISODate()).toBe(line);
		expect(fromLine.days_until_last_free_day).toBe(
			calendarDaysUntil(fromLine.last_free_day!, podZone),
		);
		expect(fromLine.days_until_last_free_day).toBeLessThan(0);

		// The line withdraws its date: the terminal's applies again.
		await change(id, { kind: 'set_last_free_day', source: 'line', date: null });
		expect(await lastFreeDay()).toMatchObject({
			last_free_day_source: 'terminal',
			last_free_day: fromTerminal.last_free_day,
		});
	});

	it('gives two boxes at one terminal with the same line LFD the same date, though one moves inland', async () => {
		// Two Maersk boxes discharged at the same terminal in the New York zone, one of them going
		// on by rail to the Chicago zone (the sandbox derives each journey from the number).
		const plan = (number: string) => {
			const generated = generateShipment({
				number,
				scac: 'MAEU',
				requestType: 'container',
				refNumbers: [],
				tags: [],
				createdAt: Date.now(),
			});
			const container = generated.containers[0].attributes;
			return {
				number,
				terminal: String(generated.plans[0].podTerminal.attributes.name),
				podZone: container.pod_timezone,
				railZone: container.final_destination_timezone,
				inland: generated.plans[0].inland !== null,
			};
		};
		const candidates = Array.from({ length: 2000 }, (_, index) =>
			plan(withCheckDigit(`MSKU${480000 + index}`)),
		);
		const inlandBox = candidates.find(
			(box) =>
				box.inland && box.podZone === 'America/New_York' && box.railZone === 'America/Chicago',
		);
		const portBox = candidates.find((box) => !box.inland && box.terminal === inlandBox?.terminal);
		if (!inlandBox || !portBox) throw new Error('no pair of boxes at one New York terminal');

		const inland = (await trackContainer(handle, inlandBox.number, 'MAEU')).containerIds[0];
		const port = (await trackContainer(handle, portBox.number, 'MAEU')).containerIds[0];
		await advanceUntilDone(inland, 'rail_departed');
		expect(handle.sandbox.world.store.get('container', inland)!.attributes).toMatchObject({
			ind_rail_carrier_scac: expect.any(String),
			pod_timezone: 'America/New_York',
			final_destination_timezone: 'America/Chicago',
		});
		// Local midnight in New York, five days on: still the day before in Chicago.
		const newYorkMidnight = DateTime.now()
			.setZone('America/New_York')
			.startOf('day')
			.plus({ days: 5 })
			.toUTC()
			.toISO({ suppressMilliseconds: true })!;
		const date = DateTime.fromISO(newYorkMidnight, { zone: 'America/New_York' }).toISODate();
		for (const id of [inland, port])
			await change(id, { kind: 'set_last_free_day', source: 'line', date: newYorkMidnight });

		for (const id of [inland, port]) {
			const { items, error } = await get(id);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				last_free_day: newYorkMidnight,
				last_free_day_source: 'line',
				last_free_day_date: date,
				days_until_last_free_day: 5,
				last_free_day_timezone: 'America/New_York',
				last_free_day_facility: inlandBox.terminal,
			});
		}

		// Written at midnight in Chicago instead, the inland box's date is Chicago's, at its
		// destination (the shipment's destination name: Get does not include the rail terminal).
		const chicagoMidnight = DateTime.fromISO(newYorkMidnight)
			.setZone('America/Chicago')
			.startOf('day')
			.plus({ days: 1 })
			.toUTC()
			.toISO({ suppressMilliseconds: true })!;
		await change(inland, { kind: 'set_last_free_day', source: 'line', date: chicagoMidnight });
		const { items } = await get(inland);
		const shipment = items[0].json.shipment as { destination_name: string };
		expect(items[0].json).toMatchObject({
			last_free_day_timezone: 'America/Chicago',
			last_free_day_date: date,
			last_free_day_facility: shipment.destination_name,
		});
		expect(shipment.destination_name).toEqual(expect.any(String));
	});

	it('with Return Raw Document, answers the JSON:API document as the service sent it', async () => {
		const { containerIds } = await trackContainer(handle, withCheckDigit('MSCU500003'), 'MSCU');
		// Simplify is on (its default): Return Raw Document wins.
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'get',
				containerId: containerIds[0],
				simplify: true,
				options: { raw: true, include: ['shipment'] },
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const document = items[0].json as {
			data: { id: string; type: string; attributes: object };
			included: Array<{ type: string }>;
		};
		expect(document.data).toMatchObject({ id: containerIds[0], type: 'container' });
		expect(document.data.attributes).toHaveProperty('holds_at_pod_terminal');
		expect(document.included.map((record) => record.type)).toEqual(['shipment']);
		expect(items[0].json).not.toHaveProperty('ready_for_pickup');
		expect(items[0].json).not.toHaveProperty('number');
	});

	it('an unknown id fails with HTTP 404, and is an error item with Continue On Fail', async () => {
		const unknownId = '00000000-0000-4000-8000-000000000000';
		const failed = await get(unknownId);
		expect(failed.items).toEqual([]);
		expect(failed.error?.httpCode).toBe('404');
		expect(failed.error?.message).toBe(
			'Not Found (GET /containers/00000000-0000-4000-8000-000000000000)',
		);

		const { containerIds } = await trackContainer(handle, withCheckDigit('MSCU500004'), 'MSCU');
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'container', operation: 'get', containerId: '={{ $json.containerId }}' },
			[{ containerId: unknownId }, { containerId: containerIds[0] }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0]).toEqual({
			json: {
				error: 'Not Found (GET /containers/00000000-0000-4000-8000-000000000000)',
				error_description:
					'Not found (HTTP 404 for GET /containers/00000000-0000-4000-8000-000000000000).',
				http_code: '404',
			},
			pairedItem: { item: 0 },
		});
		expect(items[1].json.id).toBe(containerIds[0]);
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});

	it('maps the container id from each input item, one output item each', async () => {
		const ids: string[] = [];
		for (const number of ['MSCU500005', 'MSCU500006', 'MSCU500007']) {
			ids.push((await trackContainer(handle, withCheckDigit(number), 'MSCU')).containerIds[0]);
		}
		const input = [ids[2], ids[0], ids[1]].map((containerId) => ({ containerId }));
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'get',
				containerId: '={{ $json.containerId }}',
				simplify: false,
			},
			input,
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[ids[2], { item: 0 }],
			[ids[0], { item: 1 }],
			[ids[1], { item: 2 }],
		]);
		expect(items.map((item) => (item.json.shipment as { type: string }).type)).toEqual([
			'shipment',
			'shipment',
			'shipment',
		]);
	});
});

describe('Container Tracking node: get many containers', () => {
	let handle: SandboxHandle;
	const { credentials } = sandboxHelpers(() => handle);

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		// Bills of lading bring one to three containers each: enough requests for more than 100
		// containers while staying under the 100 tracking requests a minute.
		const store = handle.sandbox.world.store;
		for (let index = 0; store.list('container').length <= 120; index++) {
			if (index >= 99) throw new Error('too few containers generated');
			const created = await handle.api.post('/tracking_requests', {
				data: {
					type: 'tracking_request',
					attributes: {
						request_number: `MEDU${String(700000 + index)}`,
						request_type: 'bill_of_lading',
						scac: 'MSCU',
					},
				},
			});
			if (created.status !== 201) throw new Error(`tracking request answered ${created.status}`);
			await eventually(
				() =>
					store.get('tracking_request', created.data.data.id)?.attributes.status === 'created'
						? true
						: undefined,
				{ what: 'the tracking request to succeed' },
			);
		}
	});
	afterAll(async () => handle.stop());

	it('with Return All, returns every container exactly once across pages', async () => {
		const expected = handle.sandbox.world.store.list('container').map((container) => container.id);
		expect(expected.length).toBeGreaterThan(100);
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'container', operation: 'getMany', returnAll: true },
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(expected.length);
		expect(items.map((item) => item.json.id).sort()).toEqual([...expected].sort());
		expectPaired(items);
		// Each is a worked-out container item, not a bare record.
		expect(
			items.every(
				(item) =>
					typeof item.json.pickup_status === 'string' && typeof item.json.number === 'string',
			),
		).toBe(true);
	});

	it('with a limit of 7, returns 7 distinct containers', async () => {
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getMany',
				returnAll: false,
				limit: 7,
				simplify: false,
				options: { include: ['shipment'] },
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(7);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(7);
		expectPaired(items);
		expect(
			items.every(
				(item) => (item.json.shipment as { type?: string } | undefined)?.type === 'shipment',
			),
		).toBe(true);
	});
});

describe('Container Tracking node: transport events', () => {
	let handle: SandboxHandle;
	const { credentials, change } = sandboxHelpers(() => handle);
	let containerId: string;
	/** An event without a timestamp, with the highest id: the service lists it last. */
	const UNDATED_EVENT_ID = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
	const events = (parameters: INodeParameters, id = containerId) =>
		runContainerTrackingNode(
			{ resource: 'container', operation: 'getTransportEvents', containerId: id, ...parameters },
			[{}],
			credentials(),
		);
	// The events as the sandbox serves them (drifted when the suite runs with drift on).
	const storedEvents = (id = containerId) =>
		handle.sandbox.world.store
			.related(handle.sandbox.world.store.get('container', id)!, 'transport_events')
			.map((event) => handle.sandbox.served(event));
	const timestamps = (items: INodeExecutionData[]) =>
		items.map((item) => item.json.timestamp as string | null);

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		({
			containerIds: [containerId],
		} = await trackContainer(handle, PORT_PICKUP_BOX, 'MSCU'));
		// The whole journey, to the empty return.
		await handle.control.post('/clock/advance', { days: 40 });
		const { data } = await handle.control.get(`/containers/${containerId}/journey`);
		expect(data.remaining_steps).toEqual([]);
		const store = handle.sandbox.world.store;
		const container = store.get('container', containerId)!;
		store.put({
			id: UNDATED_EVENT_ID,
			type: 'transport_event',
			attributes: {
				event: 'container.transport.feeder_arrived',
				voyage_number: null,
				timestamp: null,
				timezone: null,
				location_locode: null,
				created_at: new Date(handle.sandbox.clock.now()).toISOString(),
				data_source: 'shipping_line',
			},
			relationships: {
				shipment: container.relationships!.shipment,
				container: { data: { id: containerId, type: 'container' } },
				vessel: { data: null },
				location: { data: null },
				terminal: { data: null },
			},
		});
		(container.relationships!.transport_events.data as Array<{ id: string; type: string }>).push({
			id: UNDATED_EVENT_ID,
			type: 'transport_event',
		});
	});
	afterAll(async () => handle.stop());

	it('with Return All, returns every event of the journey, oldest first and the undated one last', async () => {
		const expected = storedEvents().map((event) => event.id);
		expect(expected.length).toBeGreaterThan(8);
		const { items, error } = await events({ returnAll: true });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id).sort()).toEqual([...expected].sort());
		expectPaired(items);
		const names = items.map((item) => item.json.event);
		expect(names).toEqual(
			expect.arrayContaining([
				'container.transport.vessel_arrived',
				'container.transport.full_out',
				'container.transport.empty_in',
			]),
		);
		const dated = timestamps(items).slice(0, -1) as string[];
		expect(dated.every((timestamp) => typeof timestamp === 'string')).toBe(true);
		expect([...dated].sort((a, b) => Date.parse(a) - Date.parse(b))).toEqual(dated);
		expect(items[items.length - 1].json.id).toBe(UNDATED_EVENT_ID);
		// The history the service had before tracking comes first.
		expect(names[0]).toBe('container.transport.empty_out');
		// Each event is labelled beside its raw name, the undated feeder arrival too.
		for (const { json } of items) {
			expect(json.event_label).toEqual(expect.any(String));
			expect(json.event_label).toBe(eventLabel(String(json.event)));
		}
		expect(items[items.length - 1].json).toMatchObject({
			event: 'container.transport.feeder_arrived',
			event_label: 'Feeder Vessel Arrived',
		});
	});

	it('newest first keeps the undated event last', async () => {
		const { items, error } = await events({ returnAll: true, options: { sort: 'desc' } });
		expect(error).toBeUndefined();
		const dated = timestamps(items).slice(0, -1) as string[];
		expect([...dated].sort((a, b) => Date.parse(b) - Date.parse(a))).toEqual(dated);
		expect(items[0].json.event).toBe('container.transport.empty_in');
		expect(items[items.length - 1].json.id).toBe(UNDATED_EVENT_ID);
	});

	it('filters by event names and by data sources', async () => {
		const wanted = ['container.transport.vessel_arrived', 'container.transport.full_out'];
		const byName = await events({ returnAll: true, options: { eventNames: wanted } });
		expect(byName.error).toBeUndefined();
		const expectedByName = storedEvents().filter((event) =>
			wanted.includes(String(event.attributes.event)),
		);
		expect(expectedByName.length).toBeGreaterThanOrEqual(2);
		expect(byName.items.map((item) => item.json.id).sort()).toEqual(
			expectedByName.map((event) => event.id).sort(),
		);

		const bySource = await events({ returnAll: true, options: { dataSources: ['ais'] } });
		expect(bySource.error).toBeUndefined();
		const expectedBySource = storedEvents().filter(
			(event) => event.attributes.data_source === 'ais',
		);
		expect(expectedBySource.length).toBeGreaterThan(0);
		expect(bySource.items.map((item) => item.json.id).sort()).toEqual(
			expectedBySource.map((event) => event.id).sort(),
		);
		expect(bySource.items.every((item) => item.json.data_source === 'ais')).toBe(true);
	});

	it('applies the limit after filtering', async () => {
		// The undated event is the last the service lists: a limit applied first would miss it.
		const { items, error } = await events({
			returnAll: false,
			limit: 1,
			options: { eventNames: ['container.transport.feeder_arrived'], sort: 'none' },
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual([UNDATED_EVENT_ID]);

		const terminalEvents = storedEvents().filter(
			(event) => event.attributes.data_source === 'terminal',
		);
		const limited = await events({
			returnAll: false,
			limit: 2,
			options: { dataSources: ['terminal'], sort: 'desc' },
		});
		expect(terminalEvents.length).toBeGreaterThan(2);
		expect(limited.items).toHaveLength(2);
		expect(limited.items.every((item) => item.json.data_source === 'terminal')).toBe(true);
		const latest = [...terminalEvents]
			.filter((event) => typeof event.attributes.timestamp === 'string')
			.sort((a, b) =>
				String(b.attributes.timestamp).localeCompare(String(a.attributes.timestamp)),
			)[0];
		expect(limited.items[0].json.timestamp).toBe(latest.attributes.timestamp);
	});

	it('resolves vessel, location and terminal on each event', async () => {
		const { items, error } = await events({
			returnAll: true,
			options: { eventNames: ['container.transport.vessel_arrived'] },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const arrived = items[0].json;
		const stored = storedEvents().find((event) => event.id === arrived.id)!;
		const store = handle.sandbox.world.store;
		const vessel = store.related(stored, 'vessel')[0];
		const port = store.related(stored, 'location')[0];
		const terminal = store.related(stored, 'terminal')[0];
		expect(arrived).toMatchObject({
			event: 'container.transport.vessel_arrived',
			event_label: 'Vessel Arrived at Port of Discharge',
			vessel_id: vessel.id,
			vessel: {
				type: 'vessel',
				id: vessel.id,
				name: vessel.attributes.name,
				imo: vessel.attributes.imo,
			},
			location_id: port.id,
			location: { type: 'port', id: port.id, code: arrived.location_locode },
			terminal_id: terminal.id,
			terminal: { type: 'terminal', id: terminal.id, name: terminal.attributes.name },
		});
		// Without includes only the ids remain.
		const bare = await events({
			returnAll: true,
			options: { eventNames: ['container.transport.vessel_arrived'], include: [] },
		});
		expect(bare.items[0].json.vessel_id).toBe(vessel.id);
		expect(bare.items[0].json.vessel).toBeUndefined();
	});

	it('follows the pages when a container has more than 100 events', async () => {
		const { containerIds } = await trackContainer(handle, withCheckDigit('MSCU600001'), 'MSCU');
		const id = containerIds[0];
		const start = Date.parse('2030-01-01T08:00:00Z');
		for (let index = 0; index < 110; index++) {
			await change(id, {
				kind: 'set_pickup_appointment',
				at: new Date(start + index * 3_600_000).toISOString(),
			});
		}
		const expected = storedEvents(id).map((event) => event.id);
		expect(expected.length).toBeGreaterThan(110);
		const { items, error } = await events({ returnAll: true, options: { sort: 'none' } }, id);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(expected.length);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(expected.length);
		expect(items.map((item) => item.json.id).sort()).toEqual([...expected].sort());
		expect(
			items.filter((item) => item.json.event === 'container.pickup_appointment.changed'),
		).toHaveLength(110);
		expectPaired(items);
	});
});

describe('Container Tracking node: raw events', () => {
	let handle: SandboxHandle;
	const { credentials } = sandboxHelpers(() => handle);

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
	});
	afterAll(async () => handle.stop());

	it('returns one item per raw event, flags estimated ones and resolves the vessel', async () => {
		const { containerIds } = await trackContainer(handle, withCheckDigit('MSCU800001'), 'MSCU');
		const raw = await handle.api.get(`/containers/${containerIds[0]}/raw_events`);
		const rawIds = (raw.data.data as Array<{ id: string }>).map((event) => event.id);
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'container', operation: 'getRawEvents', containerId: '={{ $json.id }}' },
			[{ id: containerIds[0] }],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual(rawIds);
		expectPaired(items);
		// Four past events from the line, and the vessel's estimated arrival and discharge.
		const estimated = items.filter((item) => item.json.estimated === true);
		expect(estimated.map((item) => item.json.event)).toEqual([
			'vessel_arrived',
			'vessel_discharged',
		]);
		expect(items.filter((item) => item.json.estimated === false)).toHaveLength(4);
		for (const item of items.filter((entry) => entry.json.vessel_id)) {
			expect(item.json.vessel).toMatchObject({
				type: 'vessel',
				id: item.json.vessel_id,
				name: item.json.vessel_name,
			});
		}
		expect(
			estimated.every((item) => (item.json.vessel as { name?: string } | undefined)?.name),
		).toBe(true);
		const emptyOut = items.find((item) => item.json.event === 'empty_out')!;
		expect(emptyOut.json.vessel_id).toBeNull();
		expect(emptyOut.json.vessel).toBeUndefined();
	});

	it('with several input items, pairs each event with the container it came from', async () => {
		const first = (await trackContainer(handle, withCheckDigit('MSCU800002'), 'MSCU'))
			.containerIds[0];
		const second = (await trackContainer(handle, withCheckDigit('MSCU800003'), 'MSCU'))
			.containerIds[0];
		const { items, error } = await runContainerTrackingNode(
			{ resource: 'container', operation: 'getRawEvents', containerId: '={{ $json.id }}' },
			[{ id: first }, { id: second }],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(12);
		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
			...Array<number>(6).fill(0),
			...Array<number>(6).fill(1),
		]);
	});
});

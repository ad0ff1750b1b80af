// Container → Get Charges through n8n's engine against a started sandbox: the box's last free day,
// pickup and return are set in the sandbox's store relative to today (setup may write the
// sandbox), and the node works out its demurrage and detention from a tariff typed into it or
// handed over by an earlier node. Expected figures follow from the dates set, counted by hand.
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import { callTool } from '../support/toolRun';
import { API_KEY, startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';

const ZONE = 'America/Los_Angeles';

/** Local midnight `days` from today at the port, as the service writes a last free day. */
function portMidnight(days: number): string {
	return DateTime.now().setZone(ZONE).startOf('day').plus({ days }).toUTC().toISO()!;
}
/** Noon at the port `days` from today. */
function portNoon(days: number): string {
	return DateTime.now().setZone(ZONE).startOf('day').plus({ days, hours: 12 }).toUTC().toISO()!;
}

const TYPED_TARIFF = {
	row: [
		{
			charge: 'demurrage',
			shippingLine: 'MSCU',
			fromDay: 1,
			toDay: 2,
			ratePerDay: 100,
			currency: 'USD',
		},
		{
			charge: 'demurrage',
			shippingLine: 'MSCU',
			fromDay: 3,
			toDay: 0,
			ratePerDay: 250,
			currency: 'USD',
		},
		{
			charge: 'detention',
			shippingLine: 'MSCU',
			freeDays: 2,
			fromDay: 1,
			toDay: 0,
			ratePerDay: 75,
			currency: 'USD',
		},
	],
};

describe('Container → Get Charges', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const getCharges = (
		parameters: Record<string, unknown>,
		input: IDataObject[],
		continueOnFail = false,
	) =>
		runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getCharges',
				containerId: { __rl: true, mode: 'number', value: '={{ $json.number }}' },
				...parameters,
			},
			input,
			credentials(),
			continueOnFail ? { continueOnFail: true } : {},
		);
	/** A tracked MSC box at Los Angeles with the given dates set in the sandbox. */
	async function boxWith(serial: string, attributes: Record<string, unknown>): Promise<string> {
		const number = withCheckDigit(`MSCU${serial}`);
		const { containerIds, shipmentId } = await trackContainer(handle, number, 'MSCU');
		const container = handle.sandbox.world.store.get('container', containerIds[0])!;
		Object.assign(container.attributes!, {
			pod_timezone: ZONE,
			pod_arrived_at: portNoon(-12),
			pod_discharged_at: portNoon(-11),
			pod_full_out_at: null,
			final_destination_full_out_at: null,
			empty_terminated_at: null,
			ind_rail_carrier_scac: null,
			ind_eta_at: null,
			ind_ata_at: null,
			equipment_length: 40,
			fees_at_pod_terminal: [],
			import_deadlines: { pickup_lfd_line: null, pickup_lfd_terminal: null, pickup_lfd_rail: null },
			pickup_lfd: null,
			...attributes,
		});
		handle.sandbox.world.store.get('shipment', shipmentId)!.attributes!.shipping_line_scac = 'MSCU';
		return number;
	}

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
	});
	afterAll(async () => handle.stop());

	it('a box at the port past its last free day: the days, the tiers, tomorrow, and the terminal’s fee beside', async () => {
		const number = await boxWith('600001', {
			import_deadlines: {
				pickup_lfd_line: null,
				pickup_lfd_terminal: portMidnight(-3),
				pickup_lfd_rail: null,
			},
			fees_at_pod_terminal: [{ type: 'demurrage', amount: 90, currency_code: 'USD' }],
		});
		const { items, error } = await getCharges({ tariffSource: 'typed', tariffRows: TYPED_TARIFF }, [
			{ number },
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		// Three days after the last free day, today included: 100 + 100 + 250; tomorrow 250.
		expect(items[0].json).toMatchObject({
			number,
			shipping_line: 'MSCU',
			charges_status: 'in_demurrage',
			last_free_day_source: 'terminal',
			last_free_day_date: DateTime.now().setZone(ZONE).minus({ days: 3 }).toISODate(),
			demurrage_days: 3,
			demurrage_charges: 450,
			charges_total: 450,
			charges_currency: 'USD',
			rate_from_tomorrow: 250,
			one_more_day_costs: 250,
			terminal_demurrage_fee: 90,
			charges_missing: [],
		});
	});

	it('the tariff from an earlier node (a Data Table’s rows), a box out past its detention free days, and a return date', async () => {
		const number = await boxWith('600002', {
			import_deadlines: {
				pickup_lfd_line: null,
				pickup_lfd_terminal: portMidnight(-6),
				pickup_lfd_rail: null,
			},
			pod_full_out_at: portNoon(-5),
		});
		// As a Data Table gives its rows: its own columns beside the tariff's, headings as typed.
		const tariff = [
			{
				id: 1,
				Charge: 'Demurrage',
				'Shipping Line': 'MSCU',
				'Rate Per Day': 100,
				Currency: 'USD',
				createdAt: '2026-01-01',
			},
			{
				id: 2,
				Charge: 'Per diem',
				'Shipping Line': 'MSCU',
				'Free Days': 2,
				'From Day': 1,
				'To Day': null,
				'Rate Per Day': '80',
				Currency: 'USD',
			},
		];
		const { items, error } = await getCharges(
			{ tariffSource: 'input', tariffRowsInput: '={{ $json.tariff }}', whatIfDate: 'tomorrow' },
			[{ number, tariff }],
		);
		expect(error).toBeUndefined();
		// Picked up 5 days ago, a day after the last free day: 1 day of demurrage. Detention: the
		// pickup day and the next free, then 4 days through today (the 3rd day before today to today); a return tomorrow adds one.
		expect(items[0].json).toMatchObject({
			charges_status: 'in_detention',
			picked_up_on: DateTime.now().setZone(ZONE).minus({ days: 5 }).toISODate(),
			demurrage_days: 1,
			demurrage_charges: 100,
			detention_days: 4,
			detention_charges: 320,
			charges_total: 420,
			what_if_date: DateTime.now().setZone(ZONE).plus({ days: 1 }).toISODate(),
			charges_if_picked_up: null,
			charges_if_returned: 500,
		});
	});

	it('what is missing is said; with Continue On Fail every input gives an output, the failed one in words', async () => {
		const noLfd = await boxWith('600003', {});
		const unknown = withCheckDigit('MSCU699999');
		const { items, error } = await getCharges(
			{ tariffSource: 'typed', tariffRows: TYPED_TARIFF },
			[{ number: noLfd }, { number: unknown }],
			true,
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({
			charges_status: 'unknown',
			demurrage_charges: null,
			charges_missing: ['No last free day yet'],
		});
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(String(items[1].json.error)).toContain(`No container numbered ${unknown}`);
	});

	it('the input item as the container (Get Many, Simplify off): no call per box, the same figures as by number', async () => {
		const numbers = [
			await boxWith('600005', {
				import_deadlines: {
					pickup_lfd_line: null,
					pickup_lfd_terminal: portMidnight(-2),
					pickup_lfd_rail: null,
				},
			}),
			await boxWith('600006', {
				import_deadlines: {
					pickup_lfd_line: null,
					pickup_lfd_terminal: portMidnight(-8),
					pickup_lfd_rail: null,
				},
				pod_full_out_at: portNoon(-6),
			}),
		];
		const many = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getMany',
				returnAll: true,
				simplify: false,
				options: { include: ['shipment', 'pod_terminal', 'pickup_facility'] },
			},
			[{}],
			credentials(),
		);
		expect(many.error).toBeUndefined();
		const mine = many.items.filter((item) => numbers.includes(String(item.json.number)));
		expect(mine).toHaveLength(2);
		const fromItems = await getCharges(
			{
				containerSource: 'input',
				tariffSource: 'typed',
				tariffRows: TYPED_TARIFF,
				whatIfDate: 'tomorrow',
			},
			mine.map((item) => item.json),
		);
		const byNumber = await getCharges(
			{ tariffSource: 'typed', tariffRows: TYPED_TARIFF, whatIfDate: 'tomorrow' },
			mine.map((item) => ({ number: item.json.number })),
		);
		expect(fromItems.error).toBeUndefined();
		expect(fromItems.items.map((item) => item.json)).toEqual(
			byNumber.items.map((item) => item.json),
		);
		expect(fromItems.items[0].json).toMatchObject({
			charges_status: 'in_demurrage',
			demurrage_charges: 200,
		});
		expect(fromItems.items[1].json).toMatchObject({ charges_status: 'in_detention' });

		const simplified = await getCharges(
			{ containerSource: 'input', tariffSource: 'typed', tariffRows: TYPED_TARIFF },
			[{ number: numbers[0], last_free_day_date: '2026-01-01' }],
			true,
		);
		expect(simplified.items[0].json.error).toBe(
			'The input item is not a whole container: it lacks its last free days and time zones (field "Container")',
		);
	});

	it('a tariff row it cannot read fails the item, naming the row and the field', async () => {
		const number = await boxWith('600004', {});
		const { items, error } = await getCharges(
			{
				tariffSource: 'input',
				tariffRowsInput: '={{ $json.tariff }}',
			},
			[{ number, tariff: [{ charge: 'demurrage', rate_per_day: 'ten' }] }],
			true,
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe(
			'Tariff row 1: Rate Per Day "ten" is not a number of 0 or more (field "Tariff Rows")',
		);
	});
	it('as a model’s tool: "what will it cost if we pick it up tomorrow?" answers as the node does, in words when it cannot', async () => {
		const number = await boxWith('600009', {
			import_deadlines: {
				pickup_lfd_line: null,
				pickup_lfd_terminal: portMidnight(-3),
				pickup_lfd_rail: null,
			},
		});
		const asked = {
			resource: 'container',
			operation: 'getCharges',
			containerId: {
				__rl: true,
				mode: 'number',
				value:
					"={{ $fromAI('container_number', 'The container number the person gave', 'string') }}",
			},
			tariffSource: 'typed',
			tariffRows: TYPED_TARIFF,
			whatIfDate:
				"={{ $fromAI('pickup_date', 'The day the person asks about: a date, today, tomorrow or a weekday', 'string') }}",
		};
		const call = await callTool(
			asked,
			{ container_number: number, pickup_date: 'tomorrow' },
			credentials(),
			{
				toolName: 'container_charges',
			},
		);
		expect(call.error).toBeUndefined();
		expect(call.argumentNames.sort()).toEqual(['container_number', 'pickup_date']);
		const { items } = await getCharges(
			{ tariffSource: 'typed', tariffRows: TYPED_TARIFF, whatIfDate: 'tomorrow' },
			[{ number }],
		);
		const said = Object.fromEntries(
			Object.entries(items[0].json).filter(
				([name, value]) => value !== null && !/_ids?$/.test(name),
			),
		);
		expect(call.answer).toEqual([said]);
		expect(call.answer![0]).toMatchObject({ charges_status: 'in_demurrage', charges_total: 450 });
		const unknown = await callTool(
			asked,
			{ container_number: withCheckDigit('MSCU699998'), pickup_date: 'Friday' },
			credentials(),
		);
		expect(unknown.error).toBeUndefined();
		expect(String(unknown.answer![0].error)).toMatch(
			/is tracked by this account\. .*Create a tracking request/,
		);
	});
});

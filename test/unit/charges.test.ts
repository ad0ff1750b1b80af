import fc from 'fast-check';

import {
	addDays,
	chargeForDays,
	containerCharges,
	countedDays,
	dateFromWords,
	isCountedDay,
	lastFreeDateFrom,
	tierRate,
	type ChargesInput,
	type DayRule,
} from '../../nodes/ContainerTracking/logic/charges';
import {
	readTariffRows,
	type BoxKind,
	type TariffRow,
} from '../../nodes/ContainerTracking/logic/tariff';

const CALENDAR: DayRule = { day_count: 'calendar', holidays: new Set() };
const LA = 'America/Los_Angeles';

/** A tariff as a person types it: one row per tier. */
function tariff(...rows: Array<Record<string, unknown>>): TariffRow[] {
	const read = readTariffRows(rows);
	expect(read.problems).toEqual([]);
	return read.rows;
}

const MAERSK_USD = tariff(
	{
		charge: 'demurrage',
		shipping_line: 'MAEU',
		from_day: 1,
		to_day: 4,
		rate_per_day: 100,
		currency: 'USD',
	},
	{
		charge: 'demurrage',
		shipping_line: 'MAEU',
		from_day: 5,
		to_day: 9,
		rate_per_day: 200,
		currency: 'USD',
	},
	{ charge: 'demurrage', shipping_line: 'MAEU', from_day: 10, rate_per_day: 300, currency: 'USD' },
	{
		charge: 'detention',
		shipping_line: 'MAEU',
		free_days: 4,
		from_day: 1,
		to_day: 3,
		rate_per_day: 50,
		currency: 'USD',
	},
	{
		charge: 'detention',
		shipping_line: 'MAEU',
		free_days: 4,
		from_day: 4,
		rate_per_day: 80,
		currency: 'USD',
	},
);

const MAERSK_40: BoxKind = {
	shipping_line: ['MAEU', 'Maersk'],
	terminal: ['Pier 400', 'Y773'],
	size_feet: 40,
	high_cube: false,
	container_type: 'dry',
};

/** A box discharged at Los Angeles whose terminal's last free day is `lfd` (a date there). */
function atLosAngeles(lfd: string, more: ChargesInput = {}): ChargesInput {
	return {
		pod_timezone: LA,
		pod_arrived_at: '2026-02-27T15:00:00Z',
		pod_discharged_at: '2026-02-28T15:00:00Z',
		import_deadlines: {
			pickup_lfd_terminal: `${lfd}T08:00:00Z`,
			pickup_lfd_line: null,
			pickup_lfd_rail: null,
		},
		...more,
	};
}

/** Noon at Los Angeles on `date` (in winter time; 19:00Z in summer time is noon too). */
const noonAt = (date: string) => new Date(`${date}T20:00:00Z`);

function charges(
	input: ChargesInput,
	now: Date,
	{
		rows = MAERSK_USD,
		box = MAERSK_40,
		holidays = [] as string[],
		whatIf = null as string | null,
	} = {},
) {
	return containerCharges(input, box, rows, { now, holidays: new Set(holidays), whatIf });
}

describe('tiers', () => {
	const tiers = MAERSK_USD.filter((row) => row.charge === 'demurrage');

	it.each([
		[0, 0],
		[1, 100],
		[4, 400],
		[5, 600],
		[9, 1_400],
		[10, 1_700],
		[11, 2_000],
	])('%i days charged cost %i: each tier from its from day through its to day', (days, cost) => {
		expect(chargeForDays(tiers, days)).toEqual({ by_currency: { USD: cost }, uncovered_day: null });
	});

	it('a day no tier covers is named, not charged at 0', () => {
		const gap = tariff(
			{ charge: 'demurrage', from_day: 1, to_day: 3, rate_per_day: 100, currency: 'USD' },
			{ charge: 'demurrage', from_day: 6, to_day: 7, rate_per_day: 200, currency: 'USD' },
		);
		expect(chargeForDays(gap, 3).uncovered_day).toBeNull();
		expect(chargeForDays(gap, 4).uncovered_day).toBe(4);
		expect(chargeForDays(gap, 8).uncovered_day).toBe(4);
		const closed = gap.slice(0, 1);
		expect(chargeForDays(closed, 4).uncovered_day).toBe(4);
	});
});

describe('demurrage: after the last free day until the box leaves the port', () => {
	it('a pickup on the last free day costs nothing; the day after costs one day', () => {
		const onLfd = charges(
			atLosAngeles('2026-03-04', { pod_full_out_at: '2026-03-05T06:00:00Z' }),
			noonAt('2026-03-20'),
		);
		expect(onLfd).toMatchObject({
			picked_up_on: '2026-03-04',
			demurrage_days: 0,
			demurrage_charges: 0,
			demurrage_currency: 'USD',
		});
		const dayAfter = charges(
			atLosAngeles('2026-03-04', { pod_full_out_at: '2026-03-05T18:00:00Z' }),
			noonAt('2026-03-06'),
		);
		expect(dayAfter).toMatchObject({
			picked_up_on: '2026-03-05',
			demurrage_days: 1,
			demurrage_charges: 100,
		});
	});

	it('still at the port: days through today, the rate from tomorrow and what one more day costs', () => {
		// LFD 2 March; today 6 March: 4 days (3, 4, 5, 6), tomorrow is day 5, the next tier.
		const result = charges(atLosAngeles('2026-03-02'), noonAt('2026-03-06'));
		expect(result).toMatchObject({
			charges_status: 'in_demurrage',
			free_time: 'separate',
			last_free_day_date: '2026-03-02',
			last_free_day_source: 'terminal',
			last_free_day_timezone: LA,
			free_days_left: 0,
			demurrage_days: 4,
			demurrage_charges: 400,
			detention_days: null,
			charges_total: 400,
			charges_currency: 'USD',
			rate_from_tomorrow: 200,
			one_more_day_costs: 200,
			charges_missing: [],
		});
	});

	it('in free time: free days left count today; nothing charged; tomorrow free or at the first rate', () => {
		const twoLeft = charges(atLosAngeles('2026-03-07'), noonAt('2026-03-06'));
		expect(twoLeft).toMatchObject({
			charges_status: 'in_free_time',
			free_days_left: 2,
			demurrage_charges: 0,
			rate_from_tomorrow: 0,
			one_more_day_costs: 0,
		});
		const lastDay = charges(atLosAngeles('2026-03-06'), noonAt('2026-03-06'));
		expect(lastDay).toMatchObject({
			free_days_left: 1,
			rate_from_tomorrow: 100,
			one_more_day_costs: 100,
		});
	});

	it('a last free day that moves after charges began: the charges follow the one reported now', () => {
		const today = noonAt('2026-03-06');
		expect(charges(atLosAngeles('2026-03-02'), today)).toMatchObject({
			demurrage_days: 4,
			demurrage_charges: 400,
		});
		expect(charges(atLosAngeles('2026-03-04'), today)).toMatchObject({
			charges_status: 'in_demurrage',
			demurrage_days: 2,
			demurrage_charges: 200,
		});
		expect(charges(atLosAngeles('2026-03-09'), today)).toMatchObject({
			charges_status: 'in_free_time',
			demurrage_days: 0,
			demurrage_charges: 0,
			free_days_left: 4,
		});
	});

	it('days are the place’s dates across the spring daylight-saving change', () => {
		// 8 March 2026, 2 a.m.: Los Angeles moves from UTC−8 to UTC−7. LFD Saturday 7 March.
		// 07:30Z on 8 March is 23:30 on the 7th in Los Angeles: a pickup on the last free day.
		const onLfd = charges(
			atLosAngeles('2026-03-07', { pod_full_out_at: '2026-03-08T07:30:00Z' }),
			noonAt('2026-03-20'),
		);
		expect(onLfd).toMatchObject({ picked_up_on: '2026-03-07', demurrage_days: 0 });
		// 06:30Z on 9 March is 23:30 on the 8th (summer time): one day, although 22.5 hours passed.
		const oneDay = charges(
			atLosAngeles('2026-03-07', { pod_full_out_at: '2026-03-09T06:30:00Z' }),
			noonAt('2026-03-20'),
		);
		expect(oneDay).toMatchObject({
			picked_up_on: '2026-03-08',
			demurrage_days: 1,
			demurrage_charges: 100,
		});
		// Still there at 23:30 on 8 March (06:30Z on the 9th): one day so far, not two.
		expect(charges(atLosAngeles('2026-03-07'), new Date('2026-03-09T06:30:00Z'))).toMatchObject({
			demurrage_days: 1,
		});
	});

	it('and across the autumn change, when a day lasts 25 hours', () => {
		// 1 November 2026, 2 a.m.: back to UTC−8. LFD 31 October (07:00Z, summer time).
		const box = {
			pod_timezone: LA,
			pod_discharged_at: '2026-10-25T15:00:00Z',
			import_deadlines: { pickup_lfd_terminal: '2026-10-31T07:00:00Z' },
		} as ChargesInput;
		// 07:30Z on 2 November is 23:30 on 1 November: one day.
		expect(
			charges({ ...box, pod_full_out_at: '2026-11-02T07:30:00Z' }, noonAt('2026-11-20')),
		).toMatchObject({
			last_free_day_date: '2026-10-31',
			picked_up_on: '2026-11-01',
			demurrage_days: 1,
		});
	});

	it('working days: a weekend and a holiday are neither free nor charged', () => {
		const working = tariff({
			charge: 'demurrage',
			from_day: 1,
			rate_per_day: 100,
			currency: 'USD',
			day_count: 'Working days',
		});
		// LFD Thursday 24 December; 25th a holiday, 26-27 a weekend; pickup Monday 28th: one day.
		const box = atLosAngeles('2026-12-24', { pod_full_out_at: '2026-12-28T20:00:00Z' });
		const result = charges(box, noonAt('2027-01-05'), { rows: working, holidays: ['2026-12-25'] });
		expect(result).toMatchObject({ demurrage_days: 1, demurrage_charges: 100 });
		// In calendar days the same pickup is four days.
		const calendar = tariff({
			charge: 'demurrage',
			from_day: 1,
			rate_per_day: 100,
			currency: 'USD',
		});
		expect(charges(box, noonAt('2027-01-05'), { rows: calendar })).toMatchObject({
			demurrage_days: 4,
		});
		// Friday the 25th at the port, working days: waiting until Saturday costs nothing.
		expect(
			charges(atLosAngeles('2026-12-24'), noonAt('2026-12-25'), {
				rows: working,
				holidays: ['2026-12-25'],
			}),
		).toMatchObject({
			charges_status: 'in_demurrage',
			demurrage_days: 0,
			one_more_day_costs: 0,
			rate_from_tomorrow: 100,
		});
	});
});

describe('detention: from pickup, after its own free days, until the empty is back', () => {
	const pickedUp = (pickup: string, more: ChargesInput = {}) =>
		atLosAngeles('2026-03-04', { pod_full_out_at: `${pickup}T18:00:00Z`, ...more });

	it('the day of pickup is day 1 of the free days: a return that day costs nothing', () => {
		const result = charges(
			pickedUp('2026-03-03', {
				empty_terminated_at: '2026-03-03T23:00:00Z',
				empty_terminated_timezone: LA,
			}),
			noonAt('2026-03-20'),
		);
		expect(result).toMatchObject({
			charges_status: 'returned',
			returned_on: '2026-03-03',
			detention_last_free_day: '2026-03-06',
			detention_days: 0,
			detention_charges: 0,
			charges_total: 0,
			one_more_day_costs: 0,
		});
	});

	it('free days 0: the day of pickup is charged, a return that day too', () => {
		const noFreeDays = tariff(
			{ charge: 'demurrage', rate_per_day: 100, currency: 'USD' },
			{ charge: 'detention', free_days: 0, rate_per_day: 50, currency: 'USD' },
		);
		const result = charges(
			pickedUp('2026-03-03', { empty_terminated_at: '2026-03-03T23:00:00Z' }),
			noonAt('2026-03-20'),
			{ rows: noFreeDays },
		);
		expect(result).toMatchObject({
			detention_last_free_day: '2026-03-02',
			detention_days: 1,
			detention_charges: 50,
		});
		const freeDemurrage = tariff({
			charge: 'demurrage',
			free_days: 0,
			rate_per_day: 100,
			currency: 'USD',
		});
		// A demurrage row's free days do not apply: its free time is the last free day.
		expect(
			charges(atLosAngeles('2026-03-04'), noonAt('2026-03-04'), { rows: freeDemurrage }),
		).toMatchObject({
			charges_status: 'in_free_time',
			demurrage_charges: 0,
		});
	});

	it('out past its free days: detention so far, the demurrage before it, and their total', () => {
		// Picked up 6 March (2 days of demurrage), free through 9 March, today 13 March: 4 days.
		const result = charges(pickedUp('2026-03-06'), noonAt('2026-03-13'));
		expect(result).toMatchObject({
			charges_status: 'in_detention',
			demurrage_days: 2,
			demurrage_charges: 200,
			detention_last_free_day: '2026-03-09',
			detention_days: 4,
			detention_charges: 3 * 50 + 80,
			charges_total: 200 + 230,
			charges_currency: 'USD',
			free_days_left: 0,
			rate_from_tomorrow: 80,
			one_more_day_costs: 80,
		});
	});

	it('working days across a weekend and a holiday', () => {
		const working = tariff(
			{ charge: 'demurrage', rate_per_day: 100, currency: 'USD' },
			{
				charge: 'detention',
				free_days: 3,
				rate_per_day: 50,
				currency: 'USD',
				day_count: 'working',
			},
		);
		expect(
			lastFreeDateFrom('2026-12-24', 3, {
				day_count: 'working',
				holidays: new Set(['2026-12-25']),
			}),
		).toBe('2026-12-29');
		const box = atLosAngeles('2026-12-24', {
			pod_full_out_at: '2026-12-24T20:00:00Z',
			empty_terminated_at: '2026-12-31T20:00:00Z',
		});
		expect(
			charges(box, noonAt('2027-01-05'), { rows: working, holidays: ['2026-12-25'] }),
		).toMatchObject({
			detention_last_free_day: '2026-12-29',
			detention_days: 2,
			detention_charges: 100,
		});
	});
});

describe('which last free day and which place', () => {
	it('a box with line, terminal and rail last free days: the line’s, as the node applies it', () => {
		const box: ChargesInput = {
			pod_timezone: 'America/New_York',
			final_destination_timezone: 'America/Chicago',
			pod_discharged_at: '2026-03-01T12:00:00Z',
			ind_rail_carrier_scac: 'BNSF',
			ind_ata_at: '2026-03-05T12:00:00Z',
			import_deadlines: {
				pickup_lfd_line: '2026-03-09T04:00:00Z', // midnight in New York only (EDT, UTC−4)
				pickup_lfd_terminal: '2026-03-04T05:00:00Z',
				pickup_lfd_rail: '2026-03-08T06:00:00Z',
			},
			final_destination_full_out_at: '2026-03-11T16:00:00Z',
		};
		expect(charges(box, noonAt('2026-03-20'))).toMatchObject({
			last_free_day_date: '2026-03-09',
			last_free_day_source: 'line',
			last_free_day_timezone: 'America/New_York',
			picked_up_on: '2026-03-11',
			demurrage_days: 2,
		});
		// Without the line's: the terminal's, at the port, ended when the box left the port by rail.
		const terminal = {
			...box,
			pod_rail_departed_at: '2026-03-06T02:00:00Z', // the 5th in New York
			import_deadlines: { ...box.import_deadlines!, pickup_lfd_line: null },
		};
		expect(charges(terminal, noonAt('2026-03-20'))).toMatchObject({
			last_free_day_date: '2026-03-04',
			last_free_day_source: 'terminal',
			demurrage_days: 1,
		});
		// The rail's alone: read in Chicago, ended by the pickup at the ramp.
		const rail = {
			...box,
			import_deadlines: {
				pickup_lfd_line: null,
				pickup_lfd_terminal: null,
				pickup_lfd_rail: '2026-03-08T06:00:00Z',
			},
		};
		expect(charges(rail, noonAt('2026-03-20'))).toMatchObject({
			last_free_day_date: '2026-03-08',
			last_free_day_source: 'rail',
			last_free_day_timezone: 'America/Chicago',
			demurrage_days: 3,
		});
	});
});

describe('what is missing is said, never guessed', () => {
	it('no last free day yet', () => {
		const result = charges(
			{ pod_timezone: LA, pod_discharged_at: '2026-03-01T12:00:00Z' },
			noonAt('2026-03-06'),
		);
		expect(result).toMatchObject({
			charges_status: 'unknown',
			demurrage_charges: null,
			charges_total: null,
			one_more_day_costs: null,
			charges_missing: ['No last free day yet'],
		});
	});

	it('no tariff row for the line, size or terminal', () => {
		const msc = tariff({
			charge: 'demurrage',
			shipping_line: 'MSCU',
			rate_per_day: 90,
			currency: 'EUR',
		});
		const result = charges(atLosAngeles('2026-03-02'), noonAt('2026-03-06'), { rows: msc });
		expect(result).toMatchObject({
			charges_status: 'in_demurrage',
			demurrage_days: 4,
			demurrage_charges: null,
			charges_total: null,
			rate_from_tomorrow: null,
		});
		expect(result.charges_missing).toEqual([
			'No demurrage row of the tariff applies to this box (its line, terminal, size, type)',
			'No detention row of the tariff applies to this box (its line, terminal, size, type)',
		]);
		const only20 = tariff({
			charge: 'demurrage',
			container_size: '20',
			rate_per_day: 90,
			currency: 'USD',
		});
		expect(
			charges(atLosAngeles('2026-03-02'), noonAt('2026-03-06'), { rows: only20 }).demurrage_charges,
		).toBeNull();
		const otherTerminal = tariff({
			charge: 'demurrage',
			terminal: 'TraPac',
			rate_per_day: 90,
			currency: 'USD',
		});
		expect(
			charges(atLosAngeles('2026-03-02'), noonAt('2026-03-06'), { rows: otherTerminal })
				.demurrage_charges,
		).toBeNull();
	});

	it('a pickup without an arrival', () => {
		const box = atLosAngeles('2026-03-04', {
			pod_arrived_at: null,
			pod_discharged_at: null,
			pod_full_out_at: '2026-03-05T18:00:00Z',
		});
		expect(charges(box, noonAt('2026-03-06')).charges_missing).toContain(
			'The service reports a pickup but no arrival',
		);
	});

	it('a box not arrived yet: its status says so, and a pickup date can still be priced', () => {
		const box = atLosAngeles('2026-03-10', { pod_arrived_at: null, pod_discharged_at: null });
		expect(charges(box, noonAt('2026-03-06'), { whatIf: '2026-03-12' })).toMatchObject({
			charges_status: 'not_arrived',
			what_if_date: '2026-03-12',
			charges_if_picked_up: 200,
		});
	});
});

describe('the tariff’s rows', () => {
	it('the most specific row wins, and each row keeps its currency', () => {
		const rows = tariff(
			{ charge: 'demurrage', rate_per_day: 10, currency: 'usd' },
			{ Charge: 'Demurrage', 'Shipping Line': 'maersk', 'Rate Per Day': '75.50', Currency: 'EUR' },
			{
				charge: 'demurrage',
				shipping_line: 'MAEU',
				terminal: 'y773',
				size: "40'",
				rate: 120,
				currency: 'GBP',
			},
		);
		expect(charges(atLosAngeles('2026-03-04'), noonAt('2026-03-06'), { rows })).toMatchObject({
			demurrage_charges: 240,
			demurrage_currency: 'GBP',
		});
		const lineOnly = rows.slice(0, 2);
		expect(
			charges(atLosAngeles('2026-03-04'), noonAt('2026-03-06'), { rows: lineOnly }),
		).toMatchObject({
			demurrage_charges: 151,
			demurrage_currency: 'EUR',
			charges_currency: 'EUR',
		});
	});

	it('a sum over two currencies is not given; each currency is', () => {
		const rows = tariff(
			{ charge: 'demurrage', rate_per_day: 100, currency: 'USD' },
			{ charge: 'detention', free_days: 0, rate_per_day: 90, currency: 'EUR' },
		);
		const box = atLosAngeles('2026-03-04', { pod_full_out_at: '2026-03-06T18:00:00Z' });
		expect(charges(box, noonAt('2026-03-07'), { rows })).toMatchObject({
			demurrage_charges: 200,
			demurrage_currency: 'USD',
			detention_charges: 180,
			detention_currency: 'EUR',
			charges_total: null,
			charges_currency: null,
			charges_by_currency: { USD: 200, EUR: 180 },
		});
	});

	it('names each value it cannot read, by row and column', () => {
		expect(
			readTariffRows([
				{ charge: 'storage', rate_per_day: 1 },
				{ charge: 'detention', rate_per_day: '7o', free_days: 2 },
				{ charge: 'detention', rate_per_day: 5 },
				{ charge: 'demurrage', rate_per_day: 5, from_day: 4, to_day: 2, day_count: 'weekly' },
			]).problems,
		).toEqual([
			'Tariff row 1: Charge "storage" is not demurrage, detention or combined',
			'Tariff row 2: Rate Per Day "7o" is not a number of 0 or more',
			'Tariff row 3 (detention) has no Free Days (0 when none)',
			'Tariff row 4: Day Count "weekly" is not calendar or working days',
			'Tariff row 4: To Day 2 is before From Day 4',
		]);
	});
});

describe('combined free time', () => {
	const combined = [
		...tariff(
			{
				charge: 'combined',
				shipping_line: 'MAEU',
				free_days: 7,
				from_day: 1,
				to_day: 5,
				rate_per_day: 60,
				currency: 'USD',
			},
			{
				charge: 'combined',
				shipping_line: 'MAEU',
				free_days: 7,
				from_day: 6,
				rate_per_day: 120,
				currency: 'USD',
			},
		),
		...MAERSK_USD,
	];

	it('counts from the day of discharge until the empty is back, and wins over separate rows', () => {
		// Discharged 28 February (Los Angeles): free through 6 March; returned 13 March: 7 days.
		const box = atLosAngeles('2026-03-04', {
			pod_full_out_at: '2026-03-05T18:00:00Z',
			empty_terminated_at: '2026-03-13T18:00:00Z',
		});
		expect(charges(box, noonAt('2026-03-20'), { rows: combined })).toMatchObject({
			free_time: 'combined',
			charges_status: 'returned',
			combined_last_free_day: '2026-03-06',
			combined_days: 7,
			combined_charges: 5 * 60 + 2 * 120,
			demurrage_charges: null,
			detention_charges: null,
			charges_total: 540,
		});
	});

	it('out and past the free time: in detention; at the port past it: in demurrage', () => {
		const out = atLosAngeles('2026-03-04', { pod_full_out_at: '2026-03-05T18:00:00Z' });
		expect(charges(out, noonAt('2026-03-08'), { rows: combined })).toMatchObject({
			charges_status: 'in_detention',
			combined_days: 2,
		});
		expect(
			charges(atLosAngeles('2026-03-04'), noonAt('2026-03-08'), { rows: combined }),
		).toMatchObject({
			charges_status: 'in_demurrage',
			combined_days: 2,
		});
	});
});

describe('what a pickup or a return on a given date costs', () => {
	it('reads a date as a person says it, in the place’s days', () => {
		// 6 March 2026 is a Friday.
		expect(dateFromWords('Friday', '2026-03-06', LA)).toBe('2026-03-06');
		expect(dateFromWords('next mon', '2026-03-06', LA)).toBe('2026-03-09');
		expect(dateFromWords('tomorrow', '2026-03-06', LA)).toBe('2026-03-07');
		expect(dateFromWords('2026-03-12', '2026-03-06', LA)).toBe('2026-03-12');
		expect(dateFromWords('2026-03-12T06:00:00Z', '2026-03-06', LA)).toBe('2026-03-11');
		expect(dateFromWords('soon', '2026-03-06', LA)).toBeNull();
	});

	it('at the port: a pickup on that date, and a return that same day', () => {
		// LFD 4 March, today Thursday 5 March; Monday is 9 March: 5 days of demurrage.
		const result = charges(atLosAngeles('2026-03-04'), noonAt('2026-03-05'), { whatIf: 'Monday' });
		expect(result).toMatchObject({
			what_if_date: '2026-03-09',
			charges_if_picked_up: 600,
			charges_if_returned: 600,
		});
	});

	it('out: a return on that date adds the detention to the demurrage paid', () => {
		const box = atLosAngeles('2026-03-04', { pod_full_out_at: '2026-03-06T18:00:00Z' });
		const result = charges(box, noonAt('2026-03-07'), { whatIf: '2026-03-12' });
		expect(result).toMatchObject({
			charges_if_picked_up: null,
			// 2 days of demurrage; free through 9 March, then 10, 11, 12.
			charges_if_returned: 200 + 150,
		});
		expect(charges(box, noonAt('2026-03-07'), { whatIf: '2026-03-01' }).charges_missing).toContain(
			'2026-03-01 is before the pickup (2026-03-06)',
		);
	});

	it('a date it cannot read is an error', () => {
		expect(() =>
			charges(atLosAngeles('2026-03-04'), noonAt('2026-03-05'), { whatIf: 'soon' }),
		).toThrow('"soon" is not a date');
	});
});

describe('the terminal’s own fees', () => {
	it('are shown beside the charges, never added to them', () => {
		const box = atLosAngeles('2026-03-02', {
			fees_at_pod_terminal: [
				{ type: 'demurrage', amount: 450, currency_code: 'USD' },
				{ type: 'exam', amount: 100, currency_code: 'USD' },
			],
		});
		expect(charges(box, noonAt('2026-03-06'))).toMatchObject({
			demurrage_charges: 400,
			charges_total: 400,
			terminal_demurrage_fee: 450,
			terminal_fees_total: 550,
			terminal_fees_currency: 'USD',
		});
	});
});

describe('properties over generated tariffs and dates', () => {
	const tiersArbitrary = fc
		.array(
			fc.record({
				length: fc.integer({ min: 1, max: 10 }),
				rate: fc.integer({ min: 0, max: 50_000 }).map((cents) => cents / 100),
			}),
			{ minLength: 1, maxLength: 5 },
		)
		.map((spans): TariffRow[] => {
			let from = 1;
			return spans.map(({ length, rate }, index) => {
				const row: TariffRow = {
					charge: 'demurrage',
					shipping_line: null,
					terminal: null,
					container_size: null,
					container_type: null,
					free_days: null,
					from_day: from,
					to_day: index === spans.length - 1 ? null : from + length - 1,
					rate_per_day: rate,
					currency: 'USD',
					day_count: 'calendar',
				};
				from += length;
				return row;
			});
		});

	it('a day’s charge equals its tier’s rate', () => {
		fc.assert(
			fc.property(tiersArbitrary, fc.integer({ min: 0, max: 80 }), (tiers, days) => {
				const before = chargeForDays(tiers, days).by_currency.USD;
				const after = chargeForDays(tiers, days + 1).by_currency.USD;
				expect(after - before).toBeCloseTo(tierRate(tiers, days + 1)!.rate_per_day, 6);
			}),
		);
	});

	const dates = fc
		.integer({ min: 0, max: 3 * 365 })
		.map((offset) =>
			new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10),
		);

	it('charges never decrease as days pass: at the port, then out, then back', () => {
		fc.assert(
			fc.property(
				tiersArbitrary,
				tiersArbitrary,
				fc.integer({ min: 0, max: 10 }),
				fc.constantFrom<'calendar' | 'working'>('calendar', 'working'),
				fc.array(dates, { maxLength: 10 }),
				dates,
				fc.integer({ min: 0, max: 20 }),
				fc.integer({ min: 0, max: 30 }),
				fc.array(fc.integer({ min: 0, max: 60 * 24 }), { minLength: 2, maxLength: 6 }),
				fc.constantFrom(LA, 'Europe/Berlin', 'Asia/Singapore'),
				(
					demurrage,
					detention,
					freeDays,
					dayCount,
					holidays,
					lfd,
					pickupAfter,
					returnAfter,
					hours,
					zone,
				) => {
					const rows = [
						...demurrage.map((row) => ({ ...row, day_count: dayCount })),
						...detention.map((row) => ({
							...row,
							charge: 'detention' as const,
							free_days: freeDays,
							day_count: dayCount,
						})),
					];
					const noon = (date: string) => new Date(`${date}T12:00:00Z`);
					const pickup = new Date(noon(lfd).getTime() + pickupAfter * 86_400_000).toISOString();
					const back = new Date(Date.parse(pickup) + returnAfter * 86_400_000).toISOString();
					const box: ChargesInput = {
						pod_timezone: zone,
						pod_discharged_at: new Date(noon(lfd).getTime() - 5 * 86_400_000).toISOString(),
						import_deadlines: { pickup_lfd_terminal: lfd },
						pod_full_out_at: pickup,
						empty_terminated_at: back,
					};
					// Moments from 5 days before the last free day, in increasing order.
					let moment = noon(lfd).getTime() - 5 * 86_400_000;
					let previous = -1;
					for (const step of hours) {
						moment += step * 3_600_000;
						const now = new Date(moment);
						// The facts known at `now`: a pickup or a return later than now has not happened.
						const known: ChargesInput = {
							...box,
							pod_full_out_at: Date.parse(pickup) <= moment ? pickup : null,
							empty_terminated_at: Date.parse(back) <= moment ? back : null,
						};
						const result = containerCharges(known, MAERSK_40, rows, {
							now,
							holidays: new Set(holidays),
						});
						expect(result.charges_missing).toEqual([]);
						expect(result.charges_total).not.toBeNull();
						expect(result.charges_total!).toBeGreaterThanOrEqual(previous);
						previous = result.charges_total!;
					}
				},
			),
		);
	});

	const nearDates = fc
		.integer({ min: 0, max: 120 })
		.map((offset) =>
			new Date(Date.UTC(2026, 10, 1) + offset * 86_400_000).toISOString().slice(0, 10),
		);

	it('countedDays adds up: the days after a through b, and after b through c, are those after a through c', () => {
		fc.assert(
			fc.property(
				nearDates,
				nearDates,
				nearDates,
				fc.array(nearDates, { maxLength: 20 }),
				(x, y, z, holidays) => {
					const [a, b, c] = [x, y, z].sort();
					const rule: DayRule = { day_count: 'working', holidays: new Set(holidays) };
					expect(countedDays(a, b, rule) + countedDays(b, c, rule)).toBe(countedDays(a, c, rule));
					// The same as looking at each day in turn.
					let oneByOne = 0;
					for (let day = addDays(a, 1); day <= c; day = addDays(day, 1))
						if (isCountedDay(day, rule)) oneByOne++;
					expect(countedDays(a, c, rule)).toBe(oneByOne);
					expect(countedDays(a, c, CALENDAR)).toBeGreaterThanOrEqual(countedDays(a, c, rule));
				},
			),
		);
	});
});

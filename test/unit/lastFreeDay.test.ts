import {
	daysUntilLastFreeDay,
	lastFreeDay,
	lastFreeDayDate,
	type LastFreeDayInput,
} from '../../nodes/ContainerTracking/logic/lastFreeDay';
import { describeWithFixtures, readFixture } from '../support/sharedFixtures';

// Local midnights written in UTC, as the service writes LFDs.
const JULY_5_NEW_YORK = '2024-07-05T04:00:00Z';
const JULY_7_NEW_YORK = '2024-07-07T04:00:00Z';
const JULY_9_NEW_YORK = '2024-07-09T04:00:00Z';

/** A port-only move discharged in New York, with a Chicago final destination zone on file. */
const atPort: LastFreeDayInput = {
	pod_timezone: 'America/New_York',
	final_destination_timezone: 'America/Chicago',
	ind_rail_carrier_scac: null,
	ind_eta_at: null,
	ind_ata_at: null,
};

describe('lastFreeDay: which LFD applies', () => {
	it('takes the line LFD first even when it is later than the others (a priority)', () => {
		expect(
			lastFreeDay({
				...atPort,
				import_deadlines: {
					pickup_lfd_line: JULY_9_NEW_YORK,
					pickup_lfd_terminal: JULY_7_NEW_YORK,
					pickup_lfd_rail: JULY_5_NEW_YORK,
				},
			}),
		).toEqual({
			last_free_day: JULY_9_NEW_YORK,
			last_free_day_source: 'line',
			last_free_day_timezone: 'America/New_York',
			last_free_day_place: 'port_terminal',
		});
	});

	it('takes the terminal LFD before the earlier rail LFD', () => {
		expect(
			lastFreeDay({
				...atPort,
				import_deadlines: {
					pickup_lfd_line: null,
					pickup_lfd_terminal: JULY_7_NEW_YORK,
					pickup_lfd_rail: JULY_5_NEW_YORK,
				},
			}),
		).toMatchObject({ last_free_day: JULY_7_NEW_YORK, last_free_day_source: 'terminal' });
	});

	it.each([
		['pickup_lfd_line', 'line', 'America/New_York', 'port_terminal'],
		['pickup_lfd_terminal', 'terminal', 'America/New_York', 'port_terminal'],
		['pickup_lfd_rail', 'rail', 'America/Chicago', 'inland_destination'],
	] as const)('reads %s alone as source %s in %s', (field, source, timezone, place) => {
		expect(lastFreeDay({ ...atPort, import_deadlines: { [field]: JULY_7_NEW_YORK } })).toEqual({
			last_free_day: JULY_7_NEW_YORK,
			last_free_day_source: source,
			last_free_day_timezone: timezone,
			last_free_day_place: place,
		});
	});

	it('falls back to the coalesced pickup_lfd, source unknown, without import_deadlines', () => {
		const expected = {
			last_free_day: JULY_7_NEW_YORK,
			last_free_day_source: null,
			last_free_day_timezone: 'America/New_York',
			last_free_day_place: 'port_terminal',
		};
		expect(lastFreeDay({ ...atPort, pickup_lfd: JULY_7_NEW_YORK })).toEqual(expected);
		expect(lastFreeDay({ ...atPort, import_deadlines: null, pickup_lfd: JULY_7_NEW_YORK })).toEqual(
			expected,
		);
	});

	it('also falls back when import_deadlines holds only nulls', () => {
		expect(
			lastFreeDay({
				...atPort,
				import_deadlines: {
					pickup_lfd_line: null,
					pickup_lfd_terminal: null,
					pickup_lfd_rail: null,
				},
				pickup_lfd: JULY_7_NEW_YORK,
			}),
		).toMatchObject({ last_free_day: JULY_7_NEW_YORK, last_free_day_source: null });
	});

	it('prefers import_deadlines over pickup_lfd', () => {
		expect(
			lastFreeDay({
				...atPort,
				import_deadlines: { pickup_lfd_terminal: JULY_9_NEW_YORK },
				pickup_lfd: JULY_7_NEW_YORK,
			}),
		).toMatchObject({ last_free_day: JULY_9_NEW_YORK, last_free_day_source: 'terminal' });
	});

	it('reads the deprecated ind_facility_lfd_on as a rail LFD only as a last resort', () => {
		expect(lastFreeDay({ ...atPort, ind_facility_lfd_on: '2024-07-08T05:00:00Z' })).toEqual({
			last_free_day: '2024-07-08T05:00:00Z',
			last_free_day_source: 'rail',
			last_free_day_timezone: 'America/Chicago',
			last_free_day_place: 'inland_destination',
		});
		expect(
			lastFreeDay({
				...atPort,
				pickup_lfd: JULY_7_NEW_YORK,
				ind_facility_lfd_on: '2024-07-08T05:00:00Z',
			}).last_free_day,
		).toBe(JULY_7_NEW_YORK);
	});

	it('answers all null when no LFD is known', () => {
		const none = {
			last_free_day: null,
			last_free_day_source: null,
			last_free_day_timezone: null,
			last_free_day_place: null,
		};
		expect(lastFreeDay(null)).toEqual(none);
		expect(lastFreeDay(undefined)).toEqual(none);
		expect(lastFreeDay({})).toEqual(none);
		expect(lastFreeDay({ ...atPort, import_deadlines: {}, pickup_lfd: null })).toEqual(none);
		expect(lastFreeDay({ ...atPort, pickup_lfd: '' })).toEqual(none);
	});
});

describe('lastFreeDay: the zone a line LFD was written in', () => {
	// The same instant, local midnight in New York and still the day before in Chicago.
	const JULY_7_CHICAGO = '2024-07-07T05:00:00Z';
	const inland = { ...atPort, ind_rail_carrier_scac: 'BNSF' };
	const zoneOf = (input: LastFreeDayInput) => lastFreeDay(input).last_free_day_timezone;

	it('reads an inland box’s line LFD written at New York midnight in New York (the same day as its terminal neighbours)', () => {
		// Under the rule before, an inland move read it in Chicago: 6 July, a day early.
		const lfd = lastFreeDay({ ...inland, import_deadlines: { pickup_lfd_line: JULY_7_NEW_YORK } });
		expect(lfd).toMatchObject({
			last_free_day_timezone: 'America/New_York',
			last_free_day_place: 'port_terminal',
		});
		expect(lastFreeDayDate(lfd.last_free_day, lfd.last_free_day_timezone)).toBe('2024-07-07');
		const neighbour = lastFreeDay({
			...atPort,
			import_deadlines: { pickup_lfd_terminal: JULY_7_NEW_YORK },
		});
		expect(lastFreeDayDate(neighbour.last_free_day, neighbour.last_free_day_timezone)).toBe(
			lastFreeDayDate(lfd.last_free_day, lfd.last_free_day_timezone),
		);
	});

	it('reads a port box’s line LFD written at Chicago midnight in Chicago', () => {
		const lfd = lastFreeDay({ ...atPort, import_deadlines: { pickup_lfd_line: JULY_7_CHICAGO } });
		expect(lfd).toMatchObject({
			last_free_day_timezone: 'America/Chicago',
			last_free_day_place: 'inland_destination',
		});
		expect(lastFreeDayDate(lfd.last_free_day, lfd.last_free_day_timezone)).toBe('2024-07-07');
	});

	it('reads the coalesced pickup_lfd the same way', () => {
		expect(zoneOf({ ...inland, pickup_lfd: JULY_7_NEW_YORK })).toBe('America/New_York');
		expect(zoneOf({ ...atPort, pickup_lfd: JULY_7_CHICAGO })).toBe('America/Chicago');
	});

	it.each([
		// East of UTC: midnight in Tokyo is 15:00Z the day before, 23:00 in Shanghai.
		['Asia/Tokyo', 'Asia/Shanghai', '2024-07-06T15:00:00Z', 'Asia/Tokyo', '2024-07-07'],
		['Asia/Tokyo', 'Asia/Shanghai', '2024-07-06T16:00:00Z', 'Asia/Shanghai', '2024-07-07'],
		// Europe in summer (UTC+2 and UTC+1).
		['Europe/Amsterdam', 'Europe/London', '2024-07-06T22:00:00Z', 'Europe/Amsterdam', '2024-07-07'],
		['Europe/Amsterdam', 'Europe/London', '2024-07-06T23:00:00Z', 'Europe/London', '2024-07-07'],
		// West of UTC across the Pacific.
		[
			'America/Los_Angeles',
			'America/Denver',
			'2024-07-07T07:00:00Z',
			'America/Los_Angeles',
			'2024-07-07',
		],
		[
			'America/Los_Angeles',
			'America/Denver',
			'2024-07-07T06:00:00Z',
			'America/Denver',
			'2024-07-07',
		],
	] as const)(
		'port %s, destination %s: %s is local midnight in %s (%s)',
		(pod, destination, iso, zone, date) => {
			for (const moves of [{}, { ind_eta_at: '2024-07-05T12:00:00Z' }]) {
				const lfd = lastFreeDay({
					pod_timezone: pod,
					final_destination_timezone: destination,
					...moves,
					import_deadlines: { pickup_lfd_line: iso },
				});
				expect(lfd.last_free_day_timezone).toBe(zone);
				expect(lastFreeDayDate(lfd.last_free_day, lfd.last_free_day_timezone)).toBe(date);
			}
		},
	);

	describe('on DST change days', () => {
		// 8 March 2026 (spring forward, 02:00 local) and 1 November 2026 (fall back): midnight comes
		// before the change, so New York's midnight is 05:00Z and 04:00Z, Chicago's an hour later.
		it.each([
			['2026-03-08T05:00:00Z', 'America/New_York', '2026-03-08'],
			['2026-03-08T06:00:00Z', 'America/Chicago', '2026-03-08'],
			['2026-11-01T04:00:00Z', 'America/New_York', '2026-11-01'],
			['2026-11-01T05:00:00Z', 'America/Chicago', '2026-11-01'],
			// The day after each change: offsets have moved by an hour.
			['2026-03-09T04:00:00Z', 'America/New_York', '2026-03-09'],
			['2026-11-02T05:00:00Z', 'America/New_York', '2026-11-02'],
			['2026-11-02T06:00:00Z', 'America/Chicago', '2026-11-02'],
		] as const)('%s is local midnight in %s', (iso, zone, date) => {
			for (const input of [atPort, inland]) {
				const lfd = lastFreeDay({ ...input, import_deadlines: { pickup_lfd_line: iso } });
				expect(lfd.last_free_day_timezone).toBe(zone);
				expect(lastFreeDayDate(lfd.last_free_day, lfd.last_free_day_timezone)).toBe(date);
			}
		});

		it('tells Phoenix from Denver only while Denver keeps summer time', () => {
			const input = {
				pod_timezone: 'America/Phoenix',
				final_destination_timezone: 'America/Denver',
			};
			// July: Phoenix UTC-7, Denver UTC-6.
			expect(
				zoneOf({ ...input, import_deadlines: { pickup_lfd_line: '2024-07-07T07:00:00Z' } }),
			).toBe('America/Phoenix');
			expect(
				zoneOf({ ...input, import_deadlines: { pickup_lfd_line: '2024-07-07T06:00:00Z' } }),
			).toBe('America/Denver');
			// January: both UTC-7, midnight in both, so the rule before decides (no inland move: port).
			expect(
				zoneOf({ ...input, import_deadlines: { pickup_lfd_line: '2025-01-07T07:00:00Z' } }),
			).toBe('America/Phoenix');
		});

		it('in the southern hemisphere: Sydney (UTC+11 in January) against Brisbane (UTC+10)', () => {
			const input = {
				pod_timezone: 'Australia/Sydney',
				final_destination_timezone: 'Australia/Brisbane',
			};
			expect(
				zoneOf({ ...input, import_deadlines: { pickup_lfd_line: '2025-01-06T13:00:00Z' } }),
			).toBe('Australia/Sydney');
			expect(
				zoneOf({ ...input, import_deadlines: { pickup_lfd_line: '2025-01-06T14:00:00Z' } }),
			).toBe('Australia/Brisbane');
		});
	});

	describe('falls back to the rule before when the value names no single zone', () => {
		it.each([
			['ind_rail_carrier_scac', 'BNSF'],
			['ind_eta_at', '2024-07-03T15:00:00Z'],
			['ind_ata_at', '2024-07-04T09:00:00Z'],
		] as const)(
			'midnight in neither zone: the final destination’s when %s shows an inland move',
			(field, value) => {
				const noon = '2024-07-07T16:00:00Z';
				expect(
					zoneOf({ ...atPort, [field]: value, import_deadlines: { pickup_lfd_line: noon } }),
				).toBe('America/Chicago');
			},
		);

		it('midnight in neither zone: the port’s when the box stays at the port', () => {
			expect(
				zoneOf({ ...atPort, import_deadlines: { pickup_lfd_line: '2024-07-07T16:00:00Z' } }),
			).toBe('America/New_York');
		});

		it('midnight in both (two names of one zone): inland move, the final destination’s', () => {
			const sameOffset = {
				pod_timezone: 'America/New_York',
				final_destination_timezone: 'US/Eastern',
			};
			expect(
				zoneOf({ ...sameOffset, import_deadlines: { pickup_lfd_line: JULY_7_NEW_YORK } }),
			).toBe('America/New_York');
			expect(
				zoneOf({
					...sameOffset,
					ind_rail_carrier_scac: 'CSXT',
					import_deadlines: { pickup_lfd_line: JULY_7_NEW_YORK },
				}),
			).toBe('US/Eastern');
		});

		it('a plain date is midnight everywhere: the rule before', () => {
			expect(zoneOf({ ...inland, import_deadlines: { pickup_lfd_line: '2024-07-07' } })).toBe(
				'America/Chicago',
			);
			expect(zoneOf({ ...atPort, pickup_lfd: '2024-07-07' })).toBe('America/New_York');
		});

		it('one zone missing: the other, midnight there or not', () => {
			expect(
				zoneOf({
					...inland,
					final_destination_timezone: null,
					import_deadlines: { pickup_lfd_line: JULY_7_CHICAGO },
				}),
			).toBe('America/New_York');
			expect(
				zoneOf({
					...atPort,
					pod_timezone: null,
					import_deadlines: { pickup_lfd_line: JULY_7_NEW_YORK },
				}),
			).toBe('America/Chicago');
		});

		it('an unknown zone is never midnight: the known one wins when it is', () => {
			expect(
				zoneOf({
					...inland,
					final_destination_timezone: 'Mars/Olympus_Mons',
					import_deadlines: { pickup_lfd_line: JULY_7_NEW_YORK },
				}),
			).toBe('America/New_York');
		});

		it('no zone at all: no zone and no place', () => {
			expect(lastFreeDay({ import_deadlines: { pickup_lfd_line: JULY_7_NEW_YORK } })).toMatchObject(
				{ last_free_day_timezone: null, last_free_day_place: null },
			);
		});
	});
});

describe('lastFreeDay: terminal and rail LFDs keep their own zone', () => {
	it('reads the terminal LFD in the port zone, even on an inland move and at Chicago midnight', () => {
		expect(
			lastFreeDay({
				...atPort,
				ind_rail_carrier_scac: 'BNSF',
				import_deadlines: { pickup_lfd_terminal: '2024-07-07T05:00:00Z' },
			}),
		).toMatchObject({
			last_free_day_timezone: 'America/New_York',
			last_free_day_place: 'port_terminal',
		});
	});

	it('reads the rail LFD in the final destination zone, even at New York midnight', () => {
		expect(
			lastFreeDay({ ...atPort, import_deadlines: { pickup_lfd_rail: JULY_7_NEW_YORK } }),
		).toMatchObject({
			last_free_day_timezone: 'America/Chicago',
			last_free_day_place: 'inland_destination',
		});
	});

	it('does not borrow another zone for terminal or rail LFDs', () => {
		expect(
			lastFreeDay({
				...atPort,
				pod_timezone: null,
				import_deadlines: { pickup_lfd_terminal: JULY_7_NEW_YORK },
			}),
		).toMatchObject({ last_free_day_timezone: null, last_free_day_place: null });
		expect(
			lastFreeDay({
				...atPort,
				final_destination_timezone: null,
				import_deadlines: { pickup_lfd_rail: JULY_7_NEW_YORK },
			}).last_free_day_timezone,
		).toBeNull();
	});
});

describe('daysUntilLastFreeDay', () => {
	const newYork = 'America/New_York';
	const at = (iso: string) => new Date(iso);

	it('is 0 on the last free day itself, from its first to its last minute', () => {
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, at('2024-07-07T00:00:00-04:00'))).toBe(0);
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, at('2024-07-07T23:59:59-04:00'))).toBe(0);
	});

	it('counts calendar days ahead, whatever the hour', () => {
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, at('2024-07-06T23:59:00-04:00'))).toBe(1);
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, at('2024-07-05T00:01:00-04:00'))).toBe(2);
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, at('2024-06-07T12:00:00-04:00'))).toBe(
			30,
		);
	});

	it('is negative once the last free day has passed', () => {
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, at('2024-07-08T00:00:00-04:00'))).toBe(
			-1,
		);
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, at('2024-07-10T18:00:00-04:00'))).toBe(
			-3,
		);
	});

	it('takes the calendar day in the given zone: Tokyo and Los Angeles differ', () => {
		const now = at('2024-07-07T12:00:00Z'); // 21:00 on 7 July in Tokyo, 05:00 on 7 July in LA
		const lfd = '2024-07-07T15:00:00Z'; // 00:00 on 8 July in Tokyo, 08:00 on 7 July in LA
		expect(daysUntilLastFreeDay(lfd, 'Asia/Tokyo', now)).toBe(1);
		expect(daysUntilLastFreeDay(lfd, 'America/Los_Angeles', now)).toBe(0);
	});

	it('takes "today" in the given zone: the same instant is 8 July in Tokyo, 7 July in LA', () => {
		const now = at('2024-07-07T16:00:00Z');
		// Each LFD is local midnight of 8 July.
		expect(daysUntilLastFreeDay('2024-07-07T15:00:00Z', 'Asia/Tokyo', now)).toBe(0);
		expect(daysUntilLastFreeDay('2024-07-08T07:00:00Z', 'America/Los_Angeles', now)).toBe(1);
	});

	describe('across the US spring-forward change (8 March 2026, 02:00 New York)', () => {
		const lfd = '2026-03-09T04:00:00Z'; // midnight EDT on 9 March

		it.each([
			['2026-03-07T12:00:00-05:00', 2],
			// Only 47 hours from the start of 7 March to the start of 9 March: not "1.96 days".
			['2026-03-07T00:30:00-05:00', 2],
			['2026-03-07T23:30:00-05:00', 2],
			['2026-03-08T00:00:00-05:00', 1],
			['2026-03-08T03:30:00-04:00', 1],
			['2026-03-08T23:59:00-04:00', 1],
			['2026-03-09T00:00:00-04:00', 0],
		])('from %s → %i', (now, days) => {
			expect(daysUntilLastFreeDay(lfd, newYork, at(now))).toBe(days);
		});
	});

	describe('across the US fall-back change (1 November 2026, 02:00 New York)', () => {
		const lfd = '2026-11-02T05:00:00Z'; // midnight EST on 2 November

		it.each([
			['2026-10-31T12:00:00-04:00', 2],
			// 49 hours from the start of 31 October to the start of 2 November: not "2.04 days".
			['2026-10-31T00:00:00-04:00', 2],
			['2026-11-01T00:00:00-04:00', 1],
			['2026-11-01T01:30:00-05:00', 1],
			['2026-11-01T23:30:00-05:00', 1],
			['2026-11-02T00:00:00-05:00', 0],
		])('from %s → %i', (now, days) => {
			expect(daysUntilLastFreeDay(lfd, newYork, at(now))).toBe(days);
		});

		it('counts an LFD on the change day itself', () => {
			expect(
				daysUntilLastFreeDay('2026-11-01T04:00:00Z', newYork, at('2026-10-31T12:00:00-04:00')),
			).toBe(1);
		});
	});

	it('counts across a southern-hemisphere change (Sydney, 5 April 2026)', () => {
		// Midnight AEST on 7 April; now is midnight AEDT on 4 April.
		expect(
			daysUntilLastFreeDay('2026-04-06T14:00:00Z', 'Australia/Sydney', at('2026-04-03T13:00:00Z')),
		).toBe(3);
	});

	it('accepts link names and LFDs written with an offset or as a plain date', () => {
		const now = at('2024-07-06T12:00:00-04:00');
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, 'US/Eastern', now)).toBe(1);
		expect(daysUntilLastFreeDay('2024-07-07T00:00:00-04:00', newYork, now)).toBe(1);
		expect(daysUntilLastFreeDay('2024-07-07', newYork, now)).toBe(1);
		expect(daysUntilLastFreeDay('2024-07-07', 'Asia/Tokyo', now)).toBe(0);
	});

	it.each([
		['an invalid zone', JULY_7_NEW_YORK, 'Mars/Olympus_Mons'],
		['an empty zone', JULY_7_NEW_YORK, ''],
		['a null zone', JULY_7_NEW_YORK, null],
		['an undefined zone', JULY_7_NEW_YORK, undefined],
		['a null LFD', null, newYork],
		['an undefined LFD', undefined, newYork],
		['an unreadable LFD', 'next Tuesday', newYork],
	])('is null for %s', (_name, lfd, zone) => {
		expect(daysUntilLastFreeDay(lfd, zone, at('2024-07-06T12:00:00Z'))).toBeNull();
	});

	it('is null for an invalid now', () => {
		expect(daysUntilLastFreeDay(JULY_7_NEW_YORK, newYork, new Date(Number.NaN))).toBeNull();
	});
});

describe('lastFreeDayDate', () => {
	it('is the date in the facility zone where it differs from the UTC date', () => {
		// Local midnight of 8 July in Shanghai is 16:00 UTC on 7 July.
		expect(lastFreeDayDate('2024-07-07T16:00:00Z', 'Asia/Shanghai')).toBe('2024-07-08');
		// 23:30 UTC on 7 July is already 8 July in Auckland (UTC+12) and still 7 July in New York.
		expect(lastFreeDayDate('2024-07-07T23:30:00Z', 'Pacific/Auckland')).toBe('2024-07-08');
		expect(lastFreeDayDate('2024-07-07T23:30:00Z', 'America/New_York')).toBe('2024-07-07');
		// 00:30 UTC on 8 July is 7 July in Los Angeles.
		expect(lastFreeDayDate('2024-07-08T00:30:00Z', 'America/Los_Angeles')).toBe('2024-07-07');
	});

	it('reads the service’s local midnights as their own date', () => {
		expect(lastFreeDayDate(JULY_7_NEW_YORK, 'America/New_York')).toBe('2024-07-07');
		expect(lastFreeDayDate('2024-07-07T04:00:00Z', 'US/Eastern')).toBe('2024-07-07');
	});

	it('keeps a plain date as it is, in any zone', () => {
		expect(lastFreeDayDate('2024-07-07', 'Asia/Tokyo')).toBe('2024-07-07');
		expect(lastFreeDayDate('2024-07-07', null)).toBe('2024-07-07');
	});

	it('reads the date in UTC when the zone is missing or unknown', () => {
		expect(lastFreeDayDate('2024-07-07T16:00:00Z', null)).toBe('2024-07-07');
		expect(lastFreeDayDate('2024-07-07T16:00:00Z', undefined)).toBe('2024-07-07');
		expect(lastFreeDayDate('2024-07-07T16:00:00Z', ' ')).toBe('2024-07-07');
		expect(lastFreeDayDate('2024-07-07T16:00:00Z', 'Mars/Olympus_Mons')).toBe('2024-07-07');
	});

	it('is null without a readable last free day', () => {
		expect(lastFreeDayDate(null, 'America/New_York')).toBeNull();
		expect(lastFreeDayDate(undefined, 'America/New_York')).toBeNull();
		expect(lastFreeDayDate('', 'America/New_York')).toBeNull();
		expect(lastFreeDayDate('next Tuesday', 'America/New_York')).toBeNull();
	});
});

describeWithFixtures('lastFreeDay: the service’s published containers', () => {
	type Resource = { type?: string; attributes?: LastFreeDayInput & { number?: string } };
	type Document = { data?: Resource; included?: Resource[] };

	function containerOf(document: Document): LastFreeDayInput {
		const resources = [document.data, ...(document.included ?? [])];
		const container = resources.find((resource) => resource?.type === 'container');
		if (!container?.attributes) throw new Error('no container in this fixture');
		return container.attributes;
	}

	it('api/container.get.json: the line LFD, in the inland zone (rail carrier set)', () => {
		const attributes = containerOf(readFixture<Document>('api', 'container.get.json'));
		const lfd = lastFreeDay(attributes);
		expect(lfd).toEqual({
			last_free_day: '2024-07-07T04:00:00Z',
			last_free_day_source: 'line',
			// Midnight in both its zones (two names of one): an inland move, so the destination's.
			last_free_day_timezone: 'US/Eastern',
			last_free_day_place: 'inland_destination',
		});
		// Its LFD agrees with the coalesced field (docs/service.md, "Last free day").
		expect(lfd.last_free_day).toBe(attributes.pickup_lfd);
		expect(lastFreeDayDate(lfd.last_free_day, lfd.last_free_day_timezone)).toBe('2024-07-07');
		expect(
			daysUntilLastFreeDay(
				lfd.last_free_day,
				lfd.last_free_day_timezone,
				new Date('2024-06-26T17:51:12Z'),
			),
		).toBe(11);
	});

	it('vessel_discharged: no import_deadlines, so the coalesced pickup_lfd in the port zone', () => {
		const attributes = containerOf(
			readFixture<Document>('notifications', 'container.transport.vessel_discharged.json'),
		);
		const lfd = lastFreeDay(attributes);
		expect(lfd).toEqual({
			last_free_day: '2022-10-27T04:00:00Z',
			last_free_day_source: null,
			last_free_day_timezone: 'America/New_York',
			last_free_day_place: 'port_terminal',
		});
		expect(lastFreeDayDate(lfd.last_free_day, lfd.last_free_day_timezone)).toBe('2022-10-27');
		expect(
			daysUntilLastFreeDay(
				lfd.last_free_day,
				lfd.last_free_day_timezone,
				new Date('2022-10-27T03:59:00Z'),
			),
		).toBe(1);
	});
});

import { freshness } from '../../nodes/ContainerTracking/logic/freshness';
import { importDeadlines } from '../../nodes/ContainerTracking/logic/lastFreeDay';

const NOW = new Date('2026-11-27T12:00:00Z');

describe('freshness: whether a container’s data can still be acted on', () => {
	it('is fresh when the terminal was checked within 7 days and tracking goes on', () => {
		expect(
			freshness(
				{ terminal_checked_at: '2026-11-21T12:00:00Z' },
				{ line_tracking_stopped_at: null, line_tracking_stopped_reason: null },
				NOW,
			),
		).toEqual({
			terminal_checked_at: '2026-11-21T12:00:00Z',
			terminal_checked_days_ago: 6,
			tracking_stopped: false,
			tracking_stopped_at: null,
			tracking_stopped_reason: null,
			data_fresh: true,
			data_stale_since: null,
			data_stale_reason: null,
		});
	});

	it('is stale from the last terminal check once that is more than 7 days ago', () => {
		const eightDays = freshness({ terminal_checked_at: '2026-11-19T09:30:00Z' }, {}, NOW);
		expect(eightDays).toMatchObject({
			terminal_checked_days_ago: 8,
			data_fresh: false,
			data_stale_since: '2026-11-19T09:30:00Z',
			data_stale_reason: 'the terminal was last checked 8 days ago',
		});
		// Exactly 7 days is still within the rule; a minute past is not.
		expect(freshness({ terminal_checked_at: '2026-11-20T12:00:00Z' }, {}, NOW).data_fresh).toBe(
			true,
		);
		expect(freshness({ terminal_checked_at: '2026-11-20T11:59:00Z' }, {}, NOW).data_fresh).toBe(
			false,
		);
	});

	it('is stale once tracking stopped, in words, and from the earlier of the two moments', () => {
		const stopped = freshness(
			{ terminal_checked_at: '2026-11-26T00:00:00Z' },
			{
				line_tracking_stopped_at: '2026-11-24T08:00:00Z',
				line_tracking_stopped_reason: 'past_arrival_window',
			},
			NOW,
		);
		expect(stopped).toMatchObject({
			tracking_stopped: true,
			tracking_stopped_reason: 'past_arrival_window',
			data_fresh: false,
			data_stale_since: '2026-11-24T08:00:00Z',
			data_stale_reason: 'tracking stopped on 2026-11-24: the shipment is past its arrival window',
		});
		const both = freshness(
			{ terminal_checked_at: '2026-11-10T00:00:00Z' },
			{ line_tracking_stopped_at: '2026-11-15T00:00:00Z', line_tracking_stopped_reason: null },
			NOW,
		);
		expect(both.data_stale_since).toBe('2026-11-10T00:00:00Z');
		expect(both.data_stale_reason).toBe(
			'the terminal was last checked 17 days ago; tracking stopped on 2026-11-15',
		);
	});

	it('passes a stop reason no table lists through, and says nothing of a shipment it was not given', () => {
		expect(freshness({}, { line_tracking_stopped_reason: 'carrier_merged' }, NOW)).toMatchObject({
			tracking_stopped: true,
			data_fresh: false,
			data_stale_since: null,
			data_stale_reason: 'tracking stopped: carrier_merged',
		});
		expect(freshness({ terminal_checked_at: null }, null, NOW)).toMatchObject({
			terminal_checked_days_ago: null,
			tracking_stopped: null,
			data_fresh: true,
		});
		// A date the service could not have meant is not a check.
		expect(freshness({ terminal_checked_at: 'yesterday' }, null, NOW)).toMatchObject({
			terminal_checked_days_ago: null,
			data_fresh: true,
		});
	});
});

describe('importDeadlines: all three last free days and the earliest', () => {
	it('lists each and picks the one that runs out first, whatever the priority', () => {
		expect(
			importDeadlines({
				import_deadlines: {
					pickup_lfd_line: '2026-12-04T05:00:00Z',
					pickup_lfd_terminal: '2026-12-02T05:00:00Z',
					pickup_lfd_rail: null,
				},
			}),
		).toEqual({
			last_free_day_line: '2026-12-04T05:00:00Z',
			last_free_day_terminal: '2026-12-02T05:00:00Z',
			last_free_day_rail: null,
			earliest_last_free_day: '2026-12-02T05:00:00Z',
			earliest_last_free_day_source: 'terminal',
		});
	});

	it('reads the deprecated rail day when the deadlines lack it, and nothing when none is set', () => {
		expect(
			importDeadlines({ import_deadlines: null, ind_facility_lfd_on: '2026-12-01T06:00:00Z' }),
		).toMatchObject({
			last_free_day_rail: '2026-12-01T06:00:00Z',
			earliest_last_free_day_source: 'rail',
		});
		expect(importDeadlines(undefined)).toEqual({
			last_free_day_line: null,
			last_free_day_terminal: null,
			last_free_day_rail: null,
			earliest_last_free_day: null,
			earliest_last_free_day_source: null,
		});
	});
});

// Container items as Container → Get and Get Many build them: worked-out fields first, the last
// free day as a local date, and the simplified shape (actions/simplify.ts).
import type { IDataObject } from 'n8n-workflow';

import { containerItem } from '../../nodes/ContainerTracking/actions/container/summary';
import {
	simplifyContainer,
	simplifyField,
	wantsSimplified,
} from '../../nodes/ContainerTracking/actions/simplify';
import { indexIncluded } from '../../nodes/ContainerTracking/records/jsonApi';
import type { JsonApiResource } from '../../nodes/ContainerTracking/schemas';
import { SIMPLIFIED_KEYS, WORKED_OUT_KEYS } from '../support/containerItems';
import { describeWithFixtures, readFixture } from '../support/sharedFixtures';

const NOW = new Date('2024-07-05T12:00:00Z');

const SHIPMENT: JsonApiResource = {
	id: 'shp-1',
	type: 'shipment',
	attributes: {
		bill_of_lading_number: 'MEDUFR030802',
		shipping_line_scac: 'MSCU',
		shipping_line_name: 'Mediterranean Shipping Company',
		shipping_line_short_name: 'MSC',
		pod_vessel_name: 'MSC GULSUN',
		pod_eta_at: '2024-07-01T10:00:00Z',
		pod_ata_at: '2024-07-01T12:00:00Z',
	},
};

const TERMINAL: JsonApiResource = {
	id: 'trm-1',
	type: 'terminal',
	attributes: { name: 'Yangshan Phase IV', firms_code: null },
};

/** A discharged box in Shanghai with a customs hold, fees and a terminal LFD. */
function container(attributes: IDataObject = {}, relationships?: JsonApiResource['relationships']) {
	return {
		id: 'ctr-1',
		type: 'container',
		attributes: {
			number: 'MSCU1000022',
			equipment_type: 'dry',
			current_status: 'grounded',
			pod_arrived_at: '2024-07-01T11:30:00Z',
			pod_discharged_at: '2024-07-02T08:00:00Z',
			availability_known: true,
			available_for_pickup: false,
			holds_at_pod_terminal: [
				{ name: 'customs', status: 'hold', description: 'Awaiting release' },
				{ name: 'TMF', status: 'pending' },
			],
			fees_at_pod_terminal: [
				{ type: 'demurrage', amount: 120, currency_code: 'CNY' },
				{ type: 'total', amount: 120, currency_code: 'CNY' },
			],
			pod_timezone: 'Asia/Shanghai',
			// Local midnight of 8 July in Shanghai: still 7 July in UTC.
			import_deadlines: { pickup_lfd_terminal: '2024-07-07T16:00:00Z' },
			...attributes,
		},
		relationships: relationships ?? {
			shipment: { data: { id: 'shp-1', type: 'shipment' } },
			pod_terminal: { data: { id: 'trm-1', type: 'terminal' } },
			pickup_facility: { data: null },
			transport_events: { data: [{ id: 'ev-1', type: 'transport_event' }] },
		},
	} satisfies JsonApiResource;
}

const BOTH_INCLUDED = indexIncluded([SHIPMENT, TERMINAL]);

describe('containerItem: worked-out fields first', () => {
	it('starts with number, status and the worked-out fields, in that order', () => {
		const item = containerItem(container(), BOTH_INCLUDED, NOW);
		expect(Object.keys(item).slice(0, WORKED_OUT_KEYS.length)).toEqual(WORKED_OUT_KEYS);
	});

	it('puts every attribute and relationship after them, with their values unchanged', () => {
		const record = container();
		const item = containerItem(record, BOTH_INCLUDED, NOW);
		const keys = Object.keys(item);
		const raw = [
			...Object.keys(record.attributes).filter(
				(name) => name !== 'number' && name !== 'current_status',
			),
			'shipment_id',
			'shipment',
			'pod_terminal_id',
			'pod_terminal',
			'pickup_facility_id',
			'transport_events_ids',
		];
		for (const name of raw)
			expect(keys.indexOf(name)).toBeGreaterThanOrEqual(WORKED_OUT_KEYS.length);
		// Identifiers last, the container's own first among them.
		expect(keys.slice(-5)).toEqual([
			'id',
			'shipment_id',
			'pod_terminal_id',
			'pickup_facility_id',
			'transport_events_ids',
		]);
		expect(item).toMatchObject({
			equipment_type: 'dry',
			holds_at_pod_terminal: record.attributes.holds_at_pod_terminal,
			shipment_id: 'shp-1',
			shipment: { type: 'shipment', id: 'shp-1', bill_of_lading_number: 'MEDUFR030802' },
			pod_terminal: { type: 'terminal', id: 'trm-1', name: 'Yangshan Phase IV' },
			pickup_facility_id: null,
			transport_events_ids: ['ev-1'],
		});
	});

	it('keeps the worked-out value where an attribute has the same name', () => {
		const item = containerItem(
			container({ pickup_status: 'from the service', last_free_day_date: '1999-01-01' }),
			BOTH_INCLUDED,
			NOW,
		);
		expect(item.pickup_status).toBe('on_hold');
		expect(item.last_free_day_date).toBe('2024-07-08');
	});

	it('keeps holds with unknown statuses right after the other holds, only when there are some', () => {
		const plain = containerItem(container(), BOTH_INCLUDED, NOW);
		expect(plain).not.toHaveProperty('holds_with_unknown_status');
		const item = containerItem(
			container({ holds_at_pod_terminal: [{ name: 'CTF', status: 'satisfied' }] }),
			BOTH_INCLUDED,
			NOW,
		);
		const keys = Object.keys(item);
		expect(keys[keys.indexOf('pending_holds') + 1]).toBe('holds_with_unknown_status');
	});

	it('has no number member when the container came without one, as before', () => {
		const record = container();
		delete (record.attributes as IDataObject).number;
		const item = containerItem(record, BOTH_INCLUDED, NOW);
		expect(item).not.toHaveProperty('number');
		expect(Object.keys(item).slice(0, 2)).toEqual(['current_status', 'customer_name']);
	});
});

describe('containerItem: the last free day as a local date', () => {
	it('gives the date in the facility zone beside the UTC timestamp near midnight', () => {
		const item = containerItem(container(), BOTH_INCLUDED, NOW);
		expect(item).toMatchObject({
			last_free_day_date: '2024-07-08',
			last_free_day: '2024-07-07T16:00:00Z',
			last_free_day_source: 'terminal',
			last_free_day_timezone: 'Asia/Shanghai',
			// 5 July 20:00 in Shanghai: 3 days to 8 July.
			days_until_last_free_day: 3,
		});
	});

	it('gives the UTC date when the zone is unknown, and keeps the timestamp', () => {
		const item = containerItem(container({ pod_timezone: null }), BOTH_INCLUDED, NOW);
		expect(item).toMatchObject({
			last_free_day_date: '2024-07-07',
			last_free_day: '2024-07-07T16:00:00Z',
			last_free_day_timezone: null,
			days_until_last_free_day: null,
		});
	});

	it('is null without a last free day', () => {
		const item = containerItem(container({ import_deadlines: null }), BOTH_INCLUDED, NOW);
		expect(item).toMatchObject({ last_free_day_date: null, last_free_day: null });
	});
});

describe('containerItem: the facility whose last free day it is', () => {
	const inlandAttributes = {
		pod_timezone: 'America/Los_Angeles',
		final_destination_timezone: 'America/Chicago',
		ind_rail_carrier_scac: 'BNSF',
	};
	const RAMP: JsonApiResource = {
		id: 'ramp-1',
		type: 'rail_terminal',
		attributes: { name: 'BNSF Logistics Park Chicago' },
	};
	const shipmentTo = (attributes: IDataObject): JsonApiResource => ({
		...SHIPMENT,
		attributes: { ...SHIPMENT.attributes, ...attributes },
		relationships: { destination_terminal: { data: { id: 'ramp-1', type: 'rail_terminal' } } },
	});
	const facility = (attributes: IDataObject, included: JsonApiResource[]) =>
		containerItem(container({ ...inlandAttributes, ...attributes }), indexIncluded(included), NOW)
			.last_free_day_facility;
	// Midnight in Chicago and in Los Angeles, 7 July.
	const CHICAGO = '2024-07-07T05:00:00Z';
	const LOS_ANGELES = '2024-07-07T07:00:00Z';

	it('names the port terminal for a terminal LFD, or for a line LFD written in the port’s zone', () => {
		expect(facility({ import_deadlines: { pickup_lfd_terminal: CHICAGO } }, [TERMINAL])).toBe(
			'Yangshan Phase IV',
		);
		expect(facility({ import_deadlines: { pickup_lfd_line: LOS_ANGELES } }, [TERMINAL])).toBe(
			'Yangshan Phase IV',
		);
	});

	it('names the inland facility for a rail LFD, or a line LFD written in the destination’s zone', () => {
		const ramp = [shipmentTo({}), RAMP];
		expect(facility({ import_deadlines: { pickup_lfd_rail: CHICAGO } }, ramp)).toBe(
			'BNSF Logistics Park Chicago',
		);
		expect(facility({ import_deadlines: { pickup_lfd_line: CHICAGO } }, ramp)).toBe(
			'BNSF Logistics Park Chicago',
		);
	});

	it('prefers the container’s pickup facility, then the ramp, then the destination’s name', () => {
		const pickup: JsonApiResource = {
			id: 'pf-1',
			type: 'terminal',
			attributes: { name: 'Joliet Intermodal' },
		};
		const withPickup = (record: ReturnType<typeof container>) => ({
			...record,
			relationships: {
				...record.relationships,
				pickup_facility: { data: { id: 'pf-1', type: 'terminal' } },
			},
		});
		const lfd = { ...inlandAttributes, import_deadlines: { pickup_lfd_rail: CHICAGO } };
		expect(
			containerItem(withPickup(container(lfd)), indexIncluded([shipmentTo({}), RAMP, pickup]), NOW)
				.last_free_day_facility,
		).toBe('Joliet Intermodal');
		expect(facility(lfd, [shipmentTo({ destination_name: 'Chicago' })])).toBe('Chicago');
	});

	it('falls back to the port of discharge’s name, and is null when nothing was included', () => {
		const lfd = { import_deadlines: { pickup_lfd_terminal: CHICAGO } };
		expect(facility(lfd, [shipmentTo({ port_of_discharge_name: 'Los Angeles' })])).toBe(
			'Los Angeles',
		);
		expect(facility(lfd, [])).toBeNull();
		expect(facility({ import_deadlines: null }, [TERMINAL])).toBeNull();
	});
});

describe('simplifyContainer', () => {
	it('keeps the fields people use, from the container and its included records', () => {
		const simplified = simplifyContainer(containerItem(container(), BOTH_INCLUDED, NOW));
		expect(simplified).toEqual({
			id: 'ctr-1',
			number: 'MSCU1000022',
			current_status: 'grounded',
			customer_name: null,
			bill_of_lading_number: 'MEDUFR030802',
			shipment_ref_numbers: [],
			shipment_tags: [],
			container_ref_numbers: [],
			ready_for_pickup: false,
			pickup_status: 'on_hold',
			pickup_status_reason: expect.stringContaining('customs'),
			data_fresh: true,
			data_stale_since: null,
			data_stale_reason: null,
			last_free_day_date: '2024-07-08',
			days_until_last_free_day: 3,
			last_free_day_facility: 'Yangshan Phase IV',
			last_free_day_timezone: 'Asia/Shanghai',
			last_free_day: '2024-07-07T16:00:00Z',
			last_free_day_source: 'terminal',
			earliest_last_free_day: '2024-07-07T16:00:00Z',
			active_holds: ['customs'],
			// The customs hold is listed: not cleared.
			customs_cleared: false,
			fees_total: 120,
			fees_currency: 'CNY',
			// The terminal's total is reported beside the demurrage line it repeats.
			fees_by_type: { demurrage: 120, total: 120 },
			terminal: 'Yangshan Phase IV',
			vessel: 'MSC GULSUN',
			pod_eta_at: '2024-07-01T10:00:00Z',
			// The container's own arrival comes before the shipment's.
			pod_ata_at: '2024-07-01T11:30:00Z',
			pod_original_eta_at: null,
			pod_discharged_at: '2024-07-02T08:00:00Z',
			picked_up_at: null,
			rail_after_port: false,
			rail_carrier_scac: null,
			inland_eta_at: null,
			inland_arrived_at: null,
			empty_returned_at: null,
			bill_of_lading: 'MEDUFR030802',
			shipping_line: 'Mediterranean Shipping Company',
			shipping_line_scac: 'MSCU',
			container_as_of: null,
			shipment_id: 'shp-1',
		});
		expect(Object.keys(simplified)).toEqual(SIMPLIFIED_KEYS);
	});

	it('without included records: the terminal id, null for what only the shipment knows', () => {
		const simplified = simplifyContainer(
			containerItem(container({ pod_arrived_at: null }), new Map(), NOW),
		);
		expect(simplified).toMatchObject({
			terminal: 'trm-1',
			vessel: null,
			pod_eta_at: null,
			pod_ata_at: null,
			bill_of_lading: null,
			shipping_line: null,
			shipping_line_scac: null,
			container_as_of: null,
			shipment_id: 'shp-1',
		});
		// The same members whatever was included, so columns line up across items.
		expect(Object.keys(simplified)).toEqual(
			Object.keys(simplifyContainer(containerItem(container(), BOTH_INCLUDED, NOW))),
		);
	});

	it('takes the shipment’s arrival when the container has none', () => {
		const simplified = simplifyContainer(
			containerItem(container({ pod_arrived_at: null }), BOTH_INCLUDED, NOW),
		);
		expect(simplified.pod_ata_at).toBe('2024-07-01T12:00:00Z');
	});

	it('adds the per-currency sums when the fees are in several currencies, and keeps warnings', () => {
		const item = containerItem(
			container({
				fees_at_pod_terminal: [
					{ type: 'demurrage', amount: 120, currency_code: 'CNY' },
					{ type: 'exam', amount: 50, currency_code: 'USD' },
				],
			}),
			BOTH_INCLUDED,
			NOW,
		);
		const warnings = [{ record: 'container ctr-1', path: 'attributes.x', expected: 'text' }];
		const simplified = simplifyContainer({ ...item, warnings });
		expect(simplified).toMatchObject({
			fees_total: null,
			fees_currency: null,
			fees_by_currency: { CNY: 120, USD: 50 },
			warnings,
		});
		expect(simplifyContainer(item)).not.toHaveProperty('warnings');
	});

	it('names holds with no readable name as sent, and no terminal as null', () => {
		const simplified = simplifyContainer(
			containerItem(
				container({ holds_at_pod_terminal: [{ name: 'USDA', status: 'hold' }] }, {}),
				new Map(),
				NOW,
			),
		);
		expect(simplified).toMatchObject({ active_holds: ['USDA'], terminal: null, shipment_id: null });
	});
});

describe('the Simplify field and parameter', () => {
	it('follows n8n’s convention', () => {
		expect(simplifyField('container', ['get', 'getMany'])).toEqual({
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: { show: { resource: ['container'], operation: ['get', 'getMany'] } },
		});
	});

	const reading = (value: unknown) =>
		wantsSimplified(
			{
				getNodeParameter: ((_name: string, _index: number, fallback: unknown) =>
					value === undefined ? fallback : value) as never,
			},
			0,
		);

	it.each([
		[undefined, true],
		[true, true],
		[false, false],
		['false', false],
		[' FALSE ', false],
		['0', false],
		[0, false],
		['true', true],
		['', true],
		['maybe', true],
		[null, true],
	])('reads %p as %p', (value, simplified) => {
		expect(reading(value)).toBe(simplified);
	});
});

describeWithFixtures('containerItem: the service’s published container', () => {
	it('api/container.get.json: worked-out fields first, then its 37 attributes', () => {
		const document = readFixture<{ data: JsonApiResource; included?: unknown }>(
			'api',
			'container.get.json',
		);
		const item = containerItem(document.data, indexIncluded(document.included), NOW);
		expect(Object.keys(item).slice(0, WORKED_OUT_KEYS.length)).toEqual(WORKED_OUT_KEYS);
		expect(item).toMatchObject({
			last_free_day_date: '2024-07-07',
			last_free_day: '2024-07-07T04:00:00Z',
			last_free_day_timezone: 'US/Eastern',
			// The line's and the terminal's deadline are the same instant: the line's comes first.
			last_free_day_line: '2024-07-07T04:00:00Z',
			last_free_day_terminal: '2024-07-07T04:00:00Z',
			last_free_day_rail: null,
			earliest_last_free_day: '2024-07-07T04:00:00Z',
			earliest_last_free_day_source: 'line',
			// Its terminal was last read on 26 June: on 5 July that is 8 days, and the data is stale.
			terminal_checked_at: '2024-06-26T17:51:12Z',
			terminal_checked_days_ago: 8,
			data_fresh: false,
			data_stale_since: '2024-06-26T17:51:12Z',
		});
		expect(String(item.pickup_status_reason)).toMatch(
			/^Data stale since 2024-06-26: the terminal was last checked 8 days ago/,
		);
		const keys = Object.keys(item);
		for (const name of Object.keys(document.data.attributes ?? {}).filter(
			(key) => !WORKED_OUT_KEYS.includes(key),
		))
			expect(keys.indexOf(name)).toBeGreaterThanOrEqual(WORKED_OUT_KEYS.length);
	});
});

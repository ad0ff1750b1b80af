/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the example workflow from disk and runs its Code nodes; the rules are for the published nodes */
// The Code nodes of examples/arrival-moved.json, run here on the trigger's items
// (trigger/items/deliveryItems.ts on deliveries written as the sandbox sends them): one change
// per shipment and arrival, routed per recipient; a move told only when it reaches the threshold
// from the ETA last told, a first estimate recorded silently; the email's lines. End to end:
// test/e2e/arrivalMoved.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

import { DateTime } from 'luxon';

import { deliveryItems } from '../../nodes/ContainerTracking/trigger/items/deliveryItems';
import type { Delivery } from '../../nodes/ContainerTracking/schemas';

type Json = Record<string, unknown>;
const workflow = JSON.parse(
	readFileSync(path.resolve(__dirname, '..', '..', 'examples', 'arrival-moved.json'), 'utf8'),
) as { nodes: Array<{ name: string; parameters: Json }> };
const codeOf = (name: string) =>
	String(workflow.nodes.find((node) => node.name === name)!.parameters.jsCode);

/** A Code node run once for all items, reading the nodes before it by name. */
function run(name: string, nodes: Record<string, Json[]>, extra: Json = {}): Json[] {
	const context = vm.createContext({
		DateTime,
		$: (node: string) => {
			const list = nodes[node];
			if (!list) throw new Error(`${name} reads no node "${node}"`);
			return { all: () => list.map((json) => ({ json })), first: () => ({ json: list[0] }) };
		},
		...extra,
	});
	const out = vm.runInContext(`(() => {\n${codeOf(name)}\n})()`, context);
	return (Array.isArray(out) ? out : [out]).map((item: { json: Json }) => item.json);
}

const SHIPMENT = {
	id: 's-1',
	type: 'shipment',
	attributes: {
		bill_of_lading_number: 'MEDUFR030802',
		customer_name: 'Acme Imports',
		tags: ['reefer'],
		ref_numbers: ['PO-4412'],
		port_of_discharge_locode: 'USLAX',
		port_of_discharge_name: 'Los Angeles',
		pod_timezone: 'America/Los_Angeles',
		destination_locode: 'USCHI',
		destination_name: 'Chicago',
		destination_timezone: 'America/Chicago',
	},
};

/** shipment.estimated.arrival as the sandbox sends it (and the published example shows it). */
function estimated(eta: string, createdAt: string): Delivery {
	return {
		data: {
			id: `n-${eta}`,
			type: 'webhook_notification',
			attributes: { event: 'shipment.estimated.arrival', created_at: createdAt },
			relationships: { reference_object: { data: { id: `e-${eta}`, type: 'estimated_event' } } },
		},
		included: [
			SHIPMENT,
			{
				id: `e-${eta}`,
				type: 'estimated_event',
				attributes: {
					event: 'shipment.estimated.arrival',
					estimated_timestamp: eta,
					location_locode: 'USLAX',
					timezone: 'America/Los_Angeles',
					created_at: createdAt,
				},
				relationships: { shipment: { data: { id: 's-1', type: 'shipment' } } },
			},
		],
	} as unknown as Delivery;
}

/** container.updated of a box's inland ETA. */
function inlandChange(number: string, old: string | null, eta: string): Delivery {
	return {
		data: {
			id: `n-${number}-${eta}`,
			type: 'webhook_notification',
			attributes: { event: 'container.updated', created_at: '2026-11-20T10:00:00Z' },
			relationships: {
				reference_object: { data: { id: `u-${number}`, type: 'container_updated_event' } },
			},
		},
		included: [
			SHIPMENT,
			{
				id: `c-${number}`,
				type: 'container',
				attributes: {
					number,
					final_destination_timezone: 'America/Chicago',
					holds_at_pod_terminal: [],
				},
				relationships: { shipment: { data: { id: 's-1', type: 'shipment' } } },
			},
			{
				id: `u-${number}`,
				type: 'container_updated_event',
				attributes: {
					changeset: { ind_eta_at: [old, eta] },
					timestamp: '2026-11-20T10:00:00Z',
					timezone: 'America/Los_Angeles',
				},
				relationships: {
					container: { data: { id: `c-${number}`, type: 'container' } },
					shipment: { data: { id: 's-1', type: 'shipment' } },
				},
			},
		],
	} as unknown as Delivery;
}

const triggerItems = (deliveries: Delivery[]) =>
	deliveries.flatMap((delivery) =>
		deliveryItems(delivery, { expandHoldsAndFees: true, fields: ['ind_eta_at'], raw: false }),
	);
const ROWS = [
	{ customer: '*', tag: '', email_to: 'dispatch@example.com' },
	{
		customer: 'Acme Imports',
		tag: '',
		email_to: 'buyer@acme.example, ops@acme.example',
		free_days: 4,
	},
	{ customer: '', tag: 'Reefer', email_to: 'reefers@example.com, buyer@acme.example' },
];

function recipients(deliveries: Delivery[], rows: Json[] = ROWS): Json[] {
	return run('Recipients', {
		'Default recipients': [{ email_to: 'me@example.com' }],
		'Routing table': rows,
		'Arrival estimate changed': triggerItems(deliveries),
	});
}

describe('Recipients: one change per shipment and arrival, routed', () => {
	it('a move that came as several deliveries is one change, with the newest estimate, to each address once', () => {
		const changes = recipients([
			estimated('2026-11-24T14:00:00Z', '2026-11-20T10:00:00Z'),
			estimated('2026-11-26T14:00:00Z', '2026-11-20T11:00:00Z'),
			estimated('2026-11-25T14:00:00Z', '2026-11-20T10:30:00Z'),
			inlandChange('MSCU1000022', null, '2026-12-01T05:00:00Z'),
			inlandChange('MSKU4807969', '2026-11-30T05:00:00Z', '2026-12-01T07:00:00Z'),
		]);
		// Inland, the rail carrier estimates each box: one change per box.
		expect(changes.map((change) => [change.key, change.estimated_arrival_at])).toEqual([
			['port_of_discharge:MEDUFR030802', '2026-11-26T14:00:00Z'],
			['inland_destination:MEDUFR030802:MSCU1000022', '2026-12-01T05:00:00Z'],
			['inland_destination:MEDUFR030802:MSKU4807969', '2026-12-01T07:00:00Z'],
		]);
		expect(changes[1].container_numbers).toEqual(['MSCU1000022']);
		expect(changes[1].time_zone).toBe('America/Chicago');
		// The customer's row and the tag's, each address once, with the free days of its first row.
		expect(changes[0].recipients).toEqual([
			{ email: 'buyer@acme.example', free_days: 4 },
			{ email: 'ops@acme.example', free_days: 4 },
			{ email: 'reefers@example.com', free_days: null },
		]);
		expect(changes[0].route_note).toBeNull();
	});

	it('an estimate of an arrival that happened is not a move', () => {
		const arrived = inlandChange(
			'MSCU1000022',
			'2026-12-04T05:00:00Z',
			'2026-12-01T05:00:00Z',
		) as unknown as {
			included: Array<{ type: string; attributes: Json }>;
		};
		arrived.included.find((record) => record.type === 'container')!.attributes.ind_ata_at =
			'2026-12-01T05:00:00Z';
		expect(recipients([arrived as unknown as Delivery])).toEqual([]);
	});

	it('an estimate that names no shipment tells no one; an unread table sends to the default recipients, saying why', () => {
		const alone = estimated('2026-11-24T14:00:00Z', '2026-11-20T10:00:00Z') as unknown as {
			included: Json[];
		};
		alone.included = alone.included.filter((record) => record.type !== 'shipment');
		expect(recipients([alone as unknown as Delivery])).toEqual([]);
		const vessel = {
			data: {
				id: 'n-v',
				attributes: { event: 'container.transport.estimated.vessel_arrived' },
				relationships: { reference_object: { data: { id: 't-1', type: 'transport_event' } } },
			},
			included: [
				{ id: 't-1', type: 'transport_event', attributes: { timestamp: '2026-11-24T14:00:00Z' } },
			],
		} as unknown as Delivery;
		expect(recipients([vessel])).toEqual([]);
		const [change] = recipients(
			[estimated('2026-11-24T14:00:00Z', '2026-11-20T10:00:00Z')],
			[{ error: 'Could not find the data table' }],
		);
		expect(change.recipients).toEqual([{ email: 'me@example.com', free_days: null }]);
		expect(change.route_note).toMatch(/could not be read .*: sent to the default recipients$/);
	});
});

describe('Moves that matter: against the ETA last told', () => {
	const change = {
		key: 'port_of_discharge:MEDUFR030802',
		estimated_arrival_at: '2026-11-26T14:00:00Z',
		recipients: [
			{ email: 'buyer@acme.example', free_days: 4 },
			{ email: 'ops@acme.example', free_days: null },
		],
	};
	const moves = (told: Json[], settings: Json = { threshold_days: 1, free_days: '' }) =>
		run('Moves that matter', {
			Settings: [settings],
			'Arrival notices': told,
			Recipients: [change],
		});
	const row = (recipient: string, eta: string) => ({
		key: change.key,
		recipient,
		last_notified_eta: eta,
	});

	it('a first estimate is recorded for each recipient, told to none', () => {
		// An empty table: n8n's Always Output Data gives one empty item.
		expect(moves([{}]).map((item) => [item.email_to, item.tell, item.previous_eta])).toEqual([
			['buyer@acme.example', false, null],
			['ops@acme.example', false, null],
		]);
	});

	it('a move of at least the threshold is told, a smaller one not (and not recorded: it adds up)', () => {
		const told = [
			row('BUYER@acme.example', '2026-11-25T14:00:00Z'),
			row('ops@acme.example', '2026-11-26T00:00:00Z'),
		];
		expect(moves(told)).toEqual([
			expect.objectContaining({
				email_to: 'buyer@acme.example',
				tell: true,
				previous_eta: '2026-11-25T14:00:00Z',
				moved_hours: 24,
				free_days: 4,
			}),
		]);
		// Settings: a threshold of half a day tells both; their free days as Settings says.
		expect(
			moves(told, { threshold_days: 0.5, free_days: '3' }).map((item) => [
				item.email_to,
				item.moved_hours,
				item.free_days,
			]),
		).toEqual([
			['buyer@acme.example', 24, 4],
			['ops@acme.example', 14, 3],
		]);
		// The same ETA again (a repeated delivery): nothing.
		expect(
			moves([row('buyer@acme.example', change.estimated_arrival_at)], { threshold_days: 0 }),
		).toEqual([expect.objectContaining({ email_to: 'ops@acme.example', tell: false })]);
	});

	it('a table that cannot be read stops the run, saying how to make it', () => {
		expect(() => moves([{ error: 'Could not find the data table' }])).toThrow(
			/"Arrival notices" could not be read .* run the workflow "Arrival notices: create the table" once/,
		);
	});
});

describe('Email text', () => {
	const move = {
		arrival: 'port_of_discharge',
		estimated_arrival_at: '2026-11-26T22:00:00Z',
		previous_eta: '2026-11-24T22:00:00Z',
		moved_hours: 48,
		time_zone: 'America/Los_Angeles',
		locode: 'USLAX',
		place_name: 'Los Angeles',
		bill_of_lading_number: 'MEDUFR030802',
		customer_name: 'Acme Imports',
		shipment_ref_numbers: ['PO-4412'],
		container_numbers: [],
		email_to: 'buyer@acme.example',
		free_days: 4,
		route_note: null,
	};
	const text = (shipment: Json, changes: Json = {}) =>
		run(
			'Email text',
			{},
			{
				$json: shipment,
				$: (name: string) => {
					if (name !== 'Worth an email?') throw new Error(`Email text reads no node "${name}"`);
					return { item: { json: { ...move, ...changes } } };
				},
			},
		)[0];
	const lines = (email: Json) =>
		Object.fromEntries(
			String(email.text)
				.split('\n')
				.slice(2)
				.map((line) => line.split(/: (.*)/s).slice(0, 2)),
		);

	it('old and new ETA in the port’s zone (a UTC evening is the same day there), the days, the containers', () => {
		const email = text({
			containers: [
				{ number: 'MSCU1000022', pickup_lfd: null },
				{ number: 'MSKU4807969', pickup_lfd: null },
			],
			pod_vessel_name: 'MSC ZOE',
			pod_voyage_number: '646E',
		});
		expect(email.subject).toBe(
			'Arrival moved 2 days later: BL MEDUFR030802 (Acme Imports) now Thu 26 Nov 14:00 (America/Los_Angeles) at Los Angeles (USLAX)',
		);
		expect(lines(email)).toEqual({
			'Bill of lading': 'MEDUFR030802',
			Customer: 'Acme Imports',
			References: 'PO-4412',
			Containers: 'MSCU1000022, MSKU4807969',
			Arrival: 'Los Angeles (USLAX), port of discharge',
			'Old ETA': 'Tue 24 Nov 14:00 (America/Los_Angeles)',
			'New ETA': 'Thu 26 Nov 14:00 (America/Los_Angeles)',
			Moved: '2 days later (48 hours)',
			// No terminal says it yet: the new ETA's date there, plus the customer's free days.
			'Last free day': "Mon 30 Nov (the new ETA's date + 4 free days)",
			Vessel: 'MSC ZOE, voyage 646E',
		});
		expect(email.email_to).toBe('buyer@acme.example');
	});

	it('a last free day the service knows wins; none and no free days: not known yet; earlier moves say so', () => {
		const known = text({
			containers: [{ number: 'MSCU1000022', pickup_lfd: '2026-12-02T07:59:00Z' }],
		});
		expect(lines(known)['Last free day']).toBe('MSCU1000022: Tue 1 Dec');
		const unknown = text(
			{ containers: [] },
			{
				free_days: null,
				moved_hours: -30,
				estimated_arrival_at: '2026-11-23T16:00:00Z',
				route_note: 'No routing row',
			},
		);
		expect(lines(unknown)).toMatchObject({
			'Last free day': 'not known yet',
			Moved: '1.3 days earlier (30 hours)',
			Containers: 'not known',
			Routing: 'No routing row',
		});
	});
});

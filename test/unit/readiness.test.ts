import {
	pickupReadiness,
	type PickupStatus,
	type ReadinessInput,
} from '../../nodes/ContainerTracking/logic/readiness';
import type { TerminalHold } from '../../nodes/ContainerTracking/schemas';
import { describeWithFixtures, fixtureNames, readFixture } from '../support/sharedFixtures';

const customsHold: TerminalHold = { name: 'customs', status: 'hold', description: null };
const usdaPending: TerminalHold = { name: 'USDA', status: 'pending', description: null };

/** Discharged at the port, nothing picked up: only availability and holds decide. */
const atTerminal: ReadinessInput = {
	availability_known: true,
	available_for_pickup: true,
	holds_at_pod_terminal: [],
	pod_discharged_at: '2024-06-22T04:00:00Z',
	pod_full_out_at: null,
	final_destination_full_out_at: null,
	empty_terminated_at: null,
	pod_timezone: 'America/New_York',
};

function readiness(overrides: ReadinessInput) {
	return pickupReadiness({ ...atTerminal, ...overrides });
}

/** Off-spec data (wrong case, unknown names) that the types rightly refuse. */
function offSpecHold(hold: Record<string, unknown>): TerminalHold {
	return hold as unknown as TerminalHold;
}

describe('pickupReadiness: availability × holds × availability_known', () => {
	const holdSets: Record<string, TerminalHold[]> = {
		'no holds': [],
		'a pending hold only': [usdaPending],
		'an active hold': [customsHold],
		'active and pending holds': [customsHold, usdaPending],
	};
	type HoldSet = keyof typeof holdSets;
	const expectedWhenKnown: Record<string, Record<HoldSet, PickupStatus>> = {
		true: {
			'no holds': 'ready',
			'a pending hold only': 'ready',
			'an active hold': 'out_of_sync',
			'active and pending holds': 'out_of_sync',
		},
		false: {
			'no holds': 'out_of_sync',
			'a pending hold only': 'out_of_sync',
			'an active hold': 'on_hold',
			'active and pending holds': 'on_hold',
		},
		null: {
			'no holds': 'unknown',
			'a pending hold only': 'unknown',
			'an active hold': 'unknown',
			'active and pending holds': 'unknown',
		},
	};
	const readyByStatus: Record<PickupStatus, boolean | null> = {
		ready: true,
		on_hold: false,
		out_of_sync: false,
		not_available: false,
		unknown: null,
	};

	const cases: Array<[boolean | null, HoldSet, boolean | undefined, PickupStatus]> = [];
	for (const available of [true, false, null]) {
		for (const holdSet of Object.keys(holdSets) as HoldSet[]) {
			for (const known of [true, false, undefined]) {
				const expected =
					known === false ? 'unknown' : expectedWhenKnown[String(available)][holdSet];
				cases.push([available, holdSet, known, expected]);
			}
		}
	}

	it.each(cases)(
		'available_for_pickup %p with %s, availability_known %p → %s',
		(available, holdSet, known, expected) => {
			const attributes: ReadinessInput = {
				...atTerminal,
				available_for_pickup: available,
				holds_at_pod_terminal: holdSets[holdSet],
			};
			if (known === undefined) delete attributes.availability_known;
			else attributes.availability_known = known;

			const result = pickupReadiness(attributes);
			expect(result.pickup_status).toBe(expected);
			expect(result.ready_for_pickup).toBe(readyByStatus[expected]);
			expect(result.active_holds).toEqual(holdSets[holdSet].filter((h) => h.status === 'hold'));
			expect(result.pending_holds).toEqual(holdSets[holdSet].filter((h) => h.status === 'pending'));
			expect(result.reason).toMatch(/^[A-Z].*\.$/);
		},
	);

	it('treats absent availability like null', () => {
		const attributes: ReadinessInput = { ...atTerminal };
		delete attributes.available_for_pickup;
		expect(pickupReadiness(attributes)).toMatchObject({
			pickup_status: 'unknown',
			ready_for_pickup: null,
		});
	});

	it('says why availability is unknown', () => {
		expect(readiness({ availability_known: false }).reason).toBe(
			'Unknown: this terminal does not report availability for the container, ' +
				'so confirm with the terminal before dispatching.',
		);
		expect(readiness({ available_for_pickup: null }).reason).toBe(
			'Unknown: the terminal has not reported whether the container is available yet.',
		);
	});
});

describe('pickupReadiness: reasons a dispatcher reads', () => {
	it('states the definitive ready signal plainly', () => {
		expect(readiness({}).reason).toBe(
			'Ready for pickup: the terminal reports the container available with no holds.',
		);
	});

	it('warns about a pending hold without blocking', () => {
		const result = readiness({ holds_at_pod_terminal: [usdaPending] });
		expect(result.ready_for_pickup).toBe(true);
		expect(result.reason).toBe(
			'Ready for pickup, but 1 pending hold (USDA) could become active before pickup.',
		);
	});

	it('names every active hold, with its raw description quoted', () => {
		const result = readiness({
			available_for_pickup: false,
			holds_at_pod_terminal: [
				{ name: 'freight', status: 'hold', description: 'FREIGHT_BL_HOLD' },
				{ name: 'other', status: 'hold', description: 'ONDOCK' },
				{ name: 'TMF', status: 'pending', description: null },
			],
		});
		expect(result.pickup_status).toBe('on_hold');
		expect(result.reason).toBe(
			'On hold: the terminal reports the container not available with 2 active holds ' +
				'(freight "FREIGHT_BL_HOLD" and other "ONDOCK") and 1 pending hold (TMF pier pass).',
		);
	});

	it('labels every documented hold name', () => {
		const result = readiness({
			available_for_pickup: false,
			holds_at_pod_terminal: (['freight', 'customs', 'USDA', 'VACIS', 'TMF', 'other'] as const).map(
				(name): TerminalHold => ({ name, status: 'hold' }),
			),
		});
		expect(result.active_holds).toHaveLength(6);
		expect(result.reason).toContain(
			'6 active holds (freight, customs, USDA, VACIS exam, TMF pier pass and other)',
		);
	});

	it('asks for a re-read when available but an active hold is listed', () => {
		expect(readiness({ holds_at_pod_terminal: [customsHold] }).reason).toBe(
			'Out of sync: the terminal reports the container available but lists 1 active hold ' +
				'(customs); re-read the container or wait for the next container.updated notification ' +
				'before dispatching.',
		);
	});

	it('asks for a re-read when not available but nothing blocks', () => {
		expect(readiness({ available_for_pickup: false }).reason).toBe(
			'Out of sync: the terminal reports the container not available but lists no active ' +
				'holds; re-read the container or wait for the next container.updated notification ' +
				'before dispatching.',
		);
		expect(
			readiness({ available_for_pickup: false, holds_at_pod_terminal: [usdaPending] }).reason,
		).toContain('lists only 1 pending hold (USDA); re-read');
	});

	it('ignores blank descriptions and keeps the hold objects as given', () => {
		const hold: TerminalHold = { name: 'other', status: 'hold', description: '  ' };
		const result = readiness({ available_for_pickup: false, holds_at_pod_terminal: [hold] });
		expect(result.reason).toContain('1 active hold (other).');
		expect(result.active_holds[0]).toBe(hold);
	});
});

describe('pickupReadiness: hold values are matched case-sensitively', () => {
	it('does not read a lower-case "usda" as the USDA hold, but still reports and counts it', () => {
		const result = readiness({
			available_for_pickup: false,
			holds_at_pod_terminal: [offSpecHold({ name: 'usda', status: 'hold' })],
		});
		expect(result.pickup_status).toBe('on_hold');
		expect(result.reason).toContain('1 active hold (unrecognized "usda")');
		expect(result.reason).not.toContain('(USDA)');
	});

	it.each(['Vacis', 'tmf', 'Customs'])('labels %s as unrecognized', (name) => {
		const result = readiness({
			available_for_pickup: false,
			holds_at_pod_terminal: [offSpecHold({ name, status: 'hold' })],
		});
		expect(result.reason).toContain(`unrecognized "${name}"`);
	});

	it('treats only status "hold" as active and only "pending" as pending', () => {
		const oddStatuses = [
			offSpecHold({ name: 'customs', status: 'HOLD' }),
			offSpecHold({ name: 'customs', status: 'Pending' }),
			offSpecHold({ name: 'customs', status: 'released' }),
		];
		const result = readiness({ holds_at_pod_terminal: oddStatuses });
		expect(result.active_holds).toEqual([]);
		expect(result.pending_holds).toEqual([]);
		expect(result.pickup_status).toBe('ready');
	});
});

describe('pickupReadiness: where the box is comes first', () => {
	const notAvailableCases: Array<[string, ReadinessInput, string]> = [
		[
			'not yet discharged',
			{ pod_discharged_at: null },
			'Not available: the container has not been discharged from the vessel yet.',
		],
		[
			'not yet discharged (field absent)',
			{ pod_discharged_at: undefined },
			'Not available: the container has not been discharged from the vessel yet.',
		],
		[
			'picked up at the port',
			{ pod_full_out_at: '2022-10-21T15:05:00Z' },
			'Not available: the container was already picked up from the port terminal on 2022-10-21.',
		],
		[
			'picked up at the final destination',
			{
				final_destination_full_out_at: '2024-06-27T03:00:00Z',
				final_destination_timezone: 'America/Chicago',
			},
			// 03:00 UTC is still the evening before in Chicago.
			'Not available: the container was already picked up at its final destination on 2024-06-26.',
		],
		[
			'returned empty',
			{ empty_terminated_at: '2024-07-01T18:00:00Z', empty_terminated_timezone: 'US/Eastern' },
			'Not available: the empty container was already returned on 2024-07-01.',
		],
		[
			'on rail inland',
			{ current_status: 'on_rail', ind_rail_carrier_scac: 'BNSF' },
			'Not available: the container is on rail to its inland destination and has not arrived ' +
				'there yet.',
		],
		[
			'departed the port by rail',
			{ pod_rail_departed_at: '2024-06-25T10:00:00Z' },
			'Not available: the container is on rail to its inland destination and has not arrived ' +
				'there yet.',
		],
		[
			'drayed out of the port for an inland move',
			{
				pod_full_out_at: '2022-10-14T16:21:00Z',
				pod_timezone: 'America/Los_Angeles',
				ind_eta_at: '2022-10-18T09:36:00Z',
			},
			'Not available: the container left the port terminal on 2022-10-14 for its inland ' +
				'destination and has not arrived there yet.',
		],
	];

	it.each(notAvailableCases)('%s', (_name, overrides, reason) => {
		const result = readiness(overrides);
		expect(result).toMatchObject({ pickup_status: 'not_available', ready_for_pickup: false });
		expect(result.reason).toBe(reason);
	});

	it.each(['picked_up', 'delivered', 'empty_returned', 'dropped', 'off_dock', 'loaded'] as const)(
		'status %s means the box is gone, whatever availability says',
		(status) => {
			const result = readiness({ current_status: status });
			expect(result).toMatchObject({ pickup_status: 'not_available', ready_for_pickup: false });
			expect(result.reason).toContain(`(status ${status})`);
		},
	);

	it.each([
		'new',
		'on_ship',
		'available',
		'not_available',
		'grounded',
		'awaiting_inland_transfer',
	] as const)('status %s leaves the decision to availability and holds', (status) => {
		expect(readiness({ current_status: status }).pickup_status).toBe('ready');
	});

	it('gone beats a stale "available" flag', () => {
		expect(readiness({ pod_full_out_at: '2024-06-25T12:00:00Z' }).pickup_status).toBe(
			'not_available',
		);
	});

	it('not discharged beats unknown availability, and still reports holds', () => {
		const result = readiness({
			pod_discharged_at: null,
			availability_known: false,
			available_for_pickup: null,
			holds_at_pod_terminal: [customsHold, usdaPending],
		});
		expect(result.pickup_status).toBe('not_available');
		expect(result.ready_for_pickup).toBe(false);
		expect(result.active_holds).toEqual([customsHold]);
		expect(result.pending_holds).toEqual([usdaPending]);
	});

	it('the empty return is named before the pickup when both are set', () => {
		expect(
			readiness({
				pod_full_out_at: '2024-06-25T12:00:00Z',
				empty_terminated_at: '2024-06-30T12:00:00Z',
				current_status: 'empty_returned',
			}).reason,
		).toContain('empty container was already returned');
	});

	it('an inland arrival puts the box at a facility even without a discharge time', () => {
		const result = readiness({ pod_discharged_at: null, ind_ata_at: '2024-07-02T15:00:00Z' });
		expect(result.pickup_status).toBe('ready');
	});

	it('a box that left the port and arrived inland is judged at the inland destination', () => {
		const base: ReadinessInput = {
			pod_full_out_at: '2022-10-14T16:21:00Z',
			ind_rail_carrier_scac: 'BNSF',
			pod_rail_departed_at: '2022-10-15T02:00:00Z',
			current_status: 'on_rail',
			ind_ata_at: '2022-10-21T17:43:00Z',
		};
		expect(readiness({ ...base, current_status: 'available' }).pickup_status).toBe('ready');
		expect(readiness(base).pickup_status).toBe('ready');
		expect(
			readiness({ ...base, ind_ata_at: null, ind_rail_unloaded_at: '2022-10-22T01:00:00Z' })
				.pickup_status,
		).toBe('ready');
		expect(
			readiness({
				...base,
				available_for_pickup: false,
				holds_at_pod_terminal: [customsHold],
			}).pickup_status,
		).toBe('on_hold');
		expect(
			readiness({ ...base, final_destination_full_out_at: '2022-10-23T15:00:00Z' }).pickup_status,
		).toBe('not_available');
	});

	it('falls back to the UTC date when the time zone is unusable', () => {
		expect(
			readiness({ pod_full_out_at: '2022-10-21T02:00:00Z', pod_timezone: 'Mars/Olympus_Mons' })
				.reason,
		).toContain('on 2022-10-21.');
	});
});

describe('pickupReadiness: missing data', () => {
	it('accepts null or empty attributes', () => {
		for (const attributes of [null, undefined, {}]) {
			expect(pickupReadiness(attributes)).toEqual({
				ready_for_pickup: false,
				pickup_status: 'not_available',
				active_holds: [],
				pending_holds: [],
				holds_with_unknown_status: [],
				reason: 'Not available: the container has not been discharged from the vessel yet.',
			});
		}
	});

	it('treats a missing or null holds array as no holds', () => {
		expect(readiness({ holds_at_pod_terminal: null }).pickup_status).toBe('ready');
		expect(readiness({ holds_at_pod_terminal: undefined }).pickup_status).toBe('ready');
	});

	it('skips null hold entries and reports entries that are not holds, without letting them block', () => {
		const holds = [null, 'customs', 42, customsHold] as unknown as TerminalHold[];
		const result = readiness({ holds_at_pod_terminal: holds });
		expect(result.active_holds).toEqual([customsHold]);
		expect(result.holds_with_unknown_status).toEqual(['customs', 42]);
		expect(result.reason).toContain(
			'2 holds with a status this node does not know ("customs" and 42)',
		);
	});
});

describe('pickupReadiness: values no table lists', () => {
	const satisfied = offSpecHold({
		name: 'CTF',
		status: 'satisfied',
		description: 'Clean Truck Fee paid',
	});

	it('a hold with an unknown status does not block pickup, and the reason names it', () => {
		const result = readiness({ holds_at_pod_terminal: [satisfied] });
		expect(result).toMatchObject({
			ready_for_pickup: true,
			pickup_status: 'ready',
			active_holds: [],
			pending_holds: [],
			holds_with_unknown_status: [satisfied],
		});
		expect(result.reason).toBe(
			'Ready for pickup: the terminal reports the container available with no holds. ' +
				'The terminal also lists 1 hold with a status this node does not know ' +
				'(unrecognized "CTF" "Clean Truck Fee paid" (status "satisfied")); check with the terminal.',
		);
	});

	it('a hold without a status, or in another case, is reported and does not block', () => {
		const holds = [
			offSpecHold({ name: 'customs' }),
			offSpecHold({ name: 'customs', status: 'HOLD' }),
		];
		const result = readiness({ available_for_pickup: false, holds_at_pod_terminal: holds });
		expect(result.pickup_status).toBe('out_of_sync');
		expect(result.holds_with_unknown_status).toEqual(holds);
		expect(result.reason).toContain('customs (no status) and customs (status "HOLD")');
	});

	it('the note follows every reason, milestones included', () => {
		const result = readiness({
			pod_full_out_at: '2022-10-21T15:00:00Z',
			holds_at_pod_terminal: [satisfied],
		});
		expect(result.pickup_status).toBe('not_available');
		expect(result.reason).toMatch(/^Not available: .* check with the terminal\.$/);
	});

	it('an unknown hold name with status `hold` blocks like any hold', () => {
		const demurrageHold = offSpecHold({ name: 'DEMURRAGE', status: 'hold', description: null });
		expect(
			readiness({ available_for_pickup: false, holds_at_pod_terminal: [demurrageHold] }),
		).toMatchObject({
			pickup_status: 'on_hold',
			active_holds: [demurrageHold],
			holds_with_unknown_status: [],
		});
	});

	it('an unknown current_status is no milestone: availability and holds decide', () => {
		for (const current_status of ['in_transit_inland', 'customs_exam', '']) {
			expect(readiness({ current_status }).pickup_status).toBe('ready');
			expect(
				readiness({
					current_status,
					available_for_pickup: false,
					holds_at_pod_terminal: [customsHold],
				}).pickup_status,
			).toBe('on_hold');
			expect(readiness({ current_status, pod_discharged_at: null }).pickup_status).toBe(
				'not_available',
			);
		}
	});
});

describeWithFixtures('pickupReadiness: the service’s published containers', () => {
	type Resource = { type?: string; attributes?: ReadinessInput & { number?: string } };
	type Document = { data?: Resource | Resource[]; included?: Resource[] };

	const containers = new Map<string, ReadinessInput & { number?: string }>();
	const collect = (document: Document) => {
		const data = Array.isArray(document.data) ? document.data : [document.data];
		for (const resource of [...data, ...(document.included ?? [])]) {
			if (resource?.type === 'container' && resource.attributes?.number) {
				containers.set(resource.attributes.number, resource.attributes);
			}
		}
	};
	for (const name of fixtureNames('api')) collect(readFixture<Document>('api', name));
	for (const name of fixtureNames('notifications')) {
		collect(readFixture<Document>('notifications', name));
	}

	// What a dispatcher should be told for each, and why.
	const expected: Record<string, [PickupStatus, number]> = {
		// api/container.get.json: discharged, available, no holds.
		CAIU7432986: ['ready', 0],
		// container.created: still on the ship (availability not known either).
		MRKU3700927: ['not_available', 0],
		// container.pickup_lfd.changed: full out at the final destination.
		OERU6438708: ['not_available', 0],
		// container.transport.full_out: picked up at Savannah.
		MSKU8532556: ['not_available', 0],
		// rail_arrived: left Long Beach; the holds listed were last seen there.
		OOLU6213464: ['not_available', 3],
		// vessel_discharged and updated: available, no holds.
		NYKU0800893: ['ready', 0],
		MSKU4807969: ['ready', 0],
	};

	it('finds the published containers', () => {
		expect(containers.size).toBeGreaterThan(0);
	});

	it.each(Object.entries(expected))('%s → %p', (number, [status, activeHolds]) => {
		const attributes = containers.get(number);
		if (!attributes) return; // That example is not in this copy of the fixtures.
		const result = pickupReadiness(attributes);
		expect(result.pickup_status).toBe(status);
		expect(result.active_holds).toHaveLength(activeHolds);
	});

	it('gives every container a consistent answer', () => {
		for (const attributes of containers.values()) {
			const result = pickupReadiness(attributes);
			expect(result.ready_for_pickup).toBe(
				result.pickup_status === 'ready' ? true : result.pickup_status === 'unknown' ? null : false,
			);
			expect(result.reason.length).toBeGreaterThan(0);
		}
	});
});

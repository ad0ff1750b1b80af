// The desk's milestones (logic/journey.ts): customs cleared, picked up, rail after the port.
import fc from 'fast-check';

import { journeyMilestones, type JourneyInput } from '../../nodes/ContainerTracking/logic/journey';
import { pickupReadiness } from '../../nodes/ContainerTracking/logic/readiness';

const DISCHARGED = { pod_discharged_at: '2026-11-02T08:00:00Z', availability_known: true };
const customs = (status: string) => ({ name: 'customs', status });

describe('journeyMilestones', () => {
	it.each<
		[
			string,
			JourneyInput | null,
			{ customs_cleared: boolean | null; picked_up_at: string | null; rail_after_port: boolean },
		]
	>([
		['nothing known', null, { customs_cleared: null, picked_up_at: null, rail_after_port: false }],
		[
			'at sea',
			{ current_status: 'on_ship' },
			{ customs_cleared: null, picked_up_at: null, rail_after_port: false },
		],
		[
			'discharged, the terminal reports no hold',
			{ ...DISCHARGED, holds_at_pod_terminal: [] },
			{ customs_cleared: true, picked_up_at: null, rail_after_port: false },
		],
		[
			'discharged, a freight hold only',
			{ ...DISCHARGED, holds_at_pod_terminal: [{ name: 'freight', status: 'hold' }] },
			{ customs_cleared: true, picked_up_at: null, rail_after_port: false },
		],
		[
			'a customs hold',
			{ ...DISCHARGED, holds_at_pod_terminal: [customs('hold')] },
			{ customs_cleared: false, picked_up_at: null, rail_after_port: false },
		],
		[
			'a pending customs hold',
			{ ...DISCHARGED, holds_at_pod_terminal: [customs('pending')] },
			{ customs_cleared: false, picked_up_at: null, rail_after_port: false },
		],
		[
			'a customs entry of a status no table lists does not count',
			{ ...DISCHARGED, holds_at_pod_terminal: [customs('satisfied'), null] as never },
			{ customs_cleared: true, picked_up_at: null, rail_after_port: false },
		],
		[
			'discharged, availability not reported',
			{ pod_discharged_at: '2026-11-02T08:00:00Z', availability_known: false },
			{ customs_cleared: null, picked_up_at: null, rail_after_port: false },
		],
		[
			'picked up at the port',
			{ ...DISCHARGED, pod_full_out_at: '2026-11-04T15:00:00Z' },
			{ customs_cleared: true, picked_up_at: '2026-11-04T15:00:00Z', rail_after_port: false },
		],
		[
			'left the port for the rail ramp: no pickup yet',
			{ ...DISCHARGED, pod_full_out_at: '2026-11-04T15:00:00Z', ind_rail_carrier_scac: 'BNSF' },
			{ customs_cleared: true, picked_up_at: null, rail_after_port: true },
		],
		[
			'picked up at the inland ramp',
			{
				pod_rail_departed_at: '2026-11-05T01:00:00Z',
				ind_ata_at: '2026-11-08T10:00:00Z',
				final_destination_full_out_at: '2026-11-09T14:00:00Z',
			},
			{ customs_cleared: true, picked_up_at: '2026-11-09T14:00:00Z', rail_after_port: true },
		],
		[
			'on rail by status alone',
			{ current_status: 'on_rail' },
			{ customs_cleared: null, picked_up_at: null, rail_after_port: true },
		],
		[
			'returned empty',
			{ empty_terminated_at: '2026-11-12T09:00:00Z' },
			{ customs_cleared: true, picked_up_at: null, rail_after_port: false },
		],
		[
			'delivered by status',
			{ current_status: 'delivered' },
			{ customs_cleared: true, picked_up_at: null, rail_after_port: false },
		],
		[
			'an empty rail carrier is no rail',
			{ ...DISCHARGED, pod_rail_carrier_scac: '  ' },
			{ customs_cleared: true, picked_up_at: null, rail_after_port: false },
		],
	])('%s', (_, attributes, expected) => {
		expect(journeyMilestones(attributes)).toEqual(expected);
	});
});

describe('journeyMilestones against pickup readiness, over generated containers', () => {
	const when = fc.option(fc.constantFrom('2026-11-02T08:00:00Z', '2026-11-09T14:00:00Z'), {
		nil: null,
	});
	const attributes = fc.record(
		{
			current_status: fc.constantFrom(
				'on_ship',
				'available',
				'grounded',
				'on_rail',
				'picked_up',
				'delivered',
				'empty_returned',
				'unmapped_status',
			),
			availability_known: fc.option(fc.boolean(), { nil: null }),
			available_for_pickup: fc.option(fc.boolean(), { nil: null }),
			holds_at_pod_terminal: fc.array(
				fc.record({
					name: fc.constantFrom('customs', 'freight', 'USDA', 'other', 'CUSTOMS'),
					status: fc.constantFrom('hold', 'pending', 'released'),
				}),
				{ maxLength: 3 },
			),
			pod_discharged_at: when,
			pod_full_out_at: when,
			final_destination_full_out_at: when,
			empty_terminated_at: when,
			ind_rail_carrier_scac: fc.option(fc.constantFrom('BNSF', 'UP'), { nil: null }),
			ind_ata_at: when,
		},
		{ requiredKeys: [] },
	);

	it('never says a box still held by customs cleared it, nor one gone not picked up', () => {
		fc.assert(
			fc.property(attributes, (input) => {
				const milestones = journeyMilestones(input as JourneyInput);
				const readiness = pickupReadiness(input as never);
				const customsHold = readiness.active_holds.some((hold) => hold.name === 'customs');
				if (customsHold) expect(milestones.customs_cleared).toBe(false);
				// A box picked up cannot be picked up again.
				if (milestones.picked_up_at !== null) expect(readiness.ready_for_pickup).toBe(false);
				// Ready for pickup means at the terminal: not picked up yet.
				if (readiness.ready_for_pickup) expect(milestones.picked_up_at).toBeNull();
				// A returned empty went through customs.
				if (
					input.empty_terminated_at &&
					!input.holds_at_pod_terminal?.some((hold) => hold.name === 'customs')
				)
					expect(milestones.customs_cleared).toBe(true);
			}),
			{ numRuns: 2_000 },
		);
	});
});

/**
 * A container's natural journey after tracking starts: arrival at the port of discharge,
 * terminal holds that go pending, active and cleared, fees, last free days from line, terminal
 * and rail, availability, and either pickup at the port or an inland rail move in the order of
 * docs/service.md, "Rail journey order". Each step is a named change on the sandbox clock.
 */
import { withFee, withHold, withoutHold, type ContainerAttributes } from './containerChanges';
import type { ContainerPlan } from './plan';
import { DAY, HOUR, isoTimestamp, lastFreeDay } from './time';
import type { StepContext } from './world';

export interface JourneyStep {
	name: string;
	at: number;
	apply(context: StepContext): void;
}

type StepBody = (context: StepContext) => void;

function setDeadline(attributes: ContainerAttributes, name: string, value: string | null): void {
	attributes.import_deadlines = {
		pickup_lfd_terminal: null,
		pickup_lfd_rail: null,
		pickup_lfd_line: null,
		...attributes.import_deadlines,
		[name]: value,
	};
}

/**
 * The estimate once the actual is known: kept when it was not later than the actual, else
 * moved to it (a leg is never estimated to arrive after it arrived).
 */
function estimateUpTo(estimate: unknown, actual: string): string {
	if (typeof estimate !== 'string') return actual;
	return Date.parse(estimate) <= Date.parse(actual) ? estimate : actual;
}

/**
 * When the box was really discharged (a scenario may have played the journey early): last free
 * days count from there. The planned time when it has not been yet.
 */
function dischargedAt(attributes: ContainerAttributes, planned: number): number {
	const actual = Date.parse(String(attributes.pod_discharged_at));
	return Number.isFinite(actual) ? actual : planned;
}

function blocked(attributes: ContainerAttributes): boolean {
	return attributes.holds_at_pod_terminal.some((hold) => hold.status === 'hold');
}

function yardSlot(plan: ContainerPlan, salt: number): string {
	const digits = (parseInt(plan.containerId.slice(0, 6), 16) + salt) % 10000;
	return `Yard - Y${String(digits).padStart(4, '0')}${String.fromCharCode(65 + (salt % 6))}`;
}

export function planJourney(plan: ContainerPlan, trackedAt: number): JourneyStep[] {
	const steps: JourneyStep[] = [];
	const add = (name: string, at: number, apply: StepBody) => steps.push({ name, at, apply });
	const podZone = String(plan.pod.attributes.time_zone);
	const eta = plan.etaAt;
	// The line revises its estimate once while the vessel is at sea (once per shipment: the
	// first of its containers to get there; not once the ETA was moved on demand).
	const revisedEta = eta + (plan.freeDays % 2 === 0 ? 1 : -1) * 7 * HOUR;
	const arrival = revisedEta;
	const discharge = arrival + 18 * HOUR;

	add('eta_revised', trackedAt + 6 * HOUR, (context) => {
		context.reviseArrival(isoTimestamp(revisedEta));
	});

	add('vessel_arrived', arrival, (context) => {
		// The estimate moves to the actual on arrival: an ETA is never later than its ATA.
		context.updateShipment((shipment) => {
			const actual = String(shipment.pod_ata_at ?? isoTimestamp(context.at));
			return { pod_ata_at: actual, pod_eta_at: estimateUpTo(shipment.pod_eta_at, actual) };
		});
		context.change((attributes) => {
			attributes.pod_arrived_at = isoTimestamp(context.at);
		});
		context.transportEvent('container.transport.vessel_arrived', {
			place: 'pod',
			dataSource: 'ais',
			withVessel: true,
		});
	});

	add('vessel_berthed', arrival + 5 * HOUR, (context) => {
		context.transportEvent('container.transport.vessel_berthed', {
			place: 'pod',
			dataSource: 'ais',
			withVessel: true,
		});
	});

	add('vessel_discharged', discharge, (context) => {
		context.transportEvent('container.transport.vessel_discharged', {
			place: 'pod',
			dataSource: 'terminal',
			withVessel: true,
		});
		context.change((attributes) => {
			attributes.pod_discharged_at = isoTimestamp(context.at);
			attributes.current_status = plan.inland ? 'awaiting_inland_transfer' : 'not_available';
			attributes.availability_known = true;
			attributes.available_for_pickup = false;
			attributes.location_at_pod_terminal = yardSlot(plan, 1);
			let holds = withHold(attributes.holds_at_pod_terminal, {
				name: 'customs',
				status: 'pending',
				description: 'Awaiting customs release',
			});
			if (plan.freightHold) {
				holds = withHold(holds, {
					name: 'freight',
					status: 'hold',
					description: 'Freight charges unpaid',
				});
			}
			attributes.holds_at_pod_terminal = holds;
			if (plan.lineReportsLastFreeDay && !plan.inland) {
				setDeadline(attributes, 'pickup_lfd_line', lastFreeDay(context.at, plan.freeDays, podZone));
			}
		});
	});

	add('customs_hold_activated', discharge + 8 * HOUR, (context) => {
		context.change((attributes) => {
			attributes.holds_at_pod_terminal = withHold(attributes.holds_at_pod_terminal, {
				name: 'customs',
				status: 'hold',
				description: 'Customs hold: documents under review',
			});
			if (!plan.inland) {
				setDeadline(
					attributes,
					'pickup_lfd_terminal',
					lastFreeDay(dischargedAt(attributes, discharge), plan.freeDays + 1, podZone),
				);
			}
		});
	});

	let next = discharge + 12 * HOUR;
	if (plan.vacisExam) {
		add('vacis_hold_placed', next, (context) => {
			context.change((attributes) => {
				attributes.holds_at_pod_terminal = withHold(attributes.holds_at_pod_terminal, {
					name: 'VACIS',
					status: 'hold',
					description: 'Selected for non-intrusive inspection',
				});
			});
		});
		add('vacis_exam_fee_posted', next + 14 * HOUR, (context) => {
			context.change((attributes) => {
				attributes.holds_at_pod_terminal = withoutHold(attributes.holds_at_pod_terminal, {
					name: 'VACIS',
					description: null,
				});
				attributes.fees_at_pod_terminal = withFee(attributes.fees_at_pod_terminal, {
					type: 'exam',
					amount: examFee(plan.containerId, 0),
					currency_code: 'USD',
				});
			});
		});
		next += 16 * HOUR;
	}

	add('holds_cleared', next + 2 * HOUR, (context) => {
		context.change((attributes) => {
			attributes.holds_at_pod_terminal = withoutHold(
				withoutHold(attributes.holds_at_pod_terminal, { name: 'customs', description: null }),
				{ name: 'freight', description: null },
			);
		});
	});
	next += 4 * HOUR;

	if (plan.inland) return [...steps, ...railLeg(plan, next)];

	add('available', next, (context) => {
		context.change((attributes) => {
			attributes.location_at_pod_terminal = yardSlot(plan, 2);
			// A hold a scenario made active keeps it; clearing that hold releases it.
			if (blocked(attributes)) return;
			attributes.available_for_pickup = true;
			attributes.current_status = 'available';
		});
		context.transportEvent('container.transport.available', {
			place: 'pod',
			dataSource: 'terminal',
		});
	});

	const lastFreeDayAt = Date.parse(lastFreeDay(discharge, plan.freeDays, podZone));
	if (plan.outcome === 'pickup') {
		const pickupAt = Math.max(next + 20 * HOUR, lastFreeDayAt - 10 * HOUR);
		add('pickup_appointment_booked', next + 6 * HOUR, (context) => {
			context.change((attributes) => {
				attributes.pickup_appointment_at = isoTimestamp(pickupAt);
			});
		});
		add('full_out', pickupAt, (context) => fullOutAtPort(context));
		add('empty_in', pickupAt + emptyReturnAfter(plan, 3), (context) =>
			emptyIn(context, podZone, 'pod'),
		);
		return steps;
	}

	// Demurrage: the line grants one more free day, then the box sits past it.
	add('line_extends_last_free_day', next + 12 * HOUR, (context) => {
		context.change((attributes) => {
			setDeadline(
				attributes,
				'pickup_lfd_line',
				lastFreeDay(dischargedAt(attributes, discharge), plan.freeDays + 1, podZone),
			);
		});
	});
	const extendedLastFreeDay = Date.parse(lastFreeDay(discharge, plan.freeDays + 1, podZone));
	// The last free day is free: demurrage accrues from the day after it, once a day (the world
	// works the amount out on every change: World.accrueDemurrage); the terminal checks daily.
	for (let day = 1; day <= 3; day++) {
		add(`demurrage_day_${day}`, extendedLastFreeDay + day * DAY + 2 * HOUR, (context) => {
			context.change(() => undefined);
		});
	}
	const lateFullOut = extendedLastFreeDay + 3 * DAY + 9 * HOUR;
	add('full_out', lateFullOut, (context) => fullOutAtPort(context));
	add('empty_in', lateFullOut + emptyReturnAfter(plan, 2), (context) =>
		emptyIn(context, podZone, 'pod'),
	);
	return steps;
}

/**
 * An exam fee as the terminal charges it: 250 to 450 USD by box and by exam (`nth` counts the
 * box's exams), so that fees differ from box to box.
 */
export function examFee(containerId: string, nth: number): number {
	return 250 + ((parseInt(containerId.slice(0, 6), 16) + nth * 3) % 9) * 25;
}

/** How long after pickup the empty comes back: `usualDays`, or 7 days for a box that stays out. */
function emptyReturnAfter(plan: ContainerPlan, usualDays: number): number {
	return (plan.staysOut ? 7 : usualDays) * DAY;
}

function fullOutAtPort(context: StepContext): void {
	context.change((attributes) => {
		attributes.pod_full_out_at = isoTimestamp(context.at);
		attributes.pod_full_out_chassis_number = `TRLU${String(context.at % 1_000_000).padStart(6, '0')}`;
		attributes.available_for_pickup = false;
		// Out of the gate: the terminal holds nothing for a box it no longer has.
		attributes.holds_at_pod_terminal = [];
		attributes.current_status = 'picked_up';
		attributes.location_at_pod_terminal = null;
		attributes.pickup_appointment_at = null;
	});
	context.transportEvent('container.transport.full_out', { place: 'pod', dataSource: 'terminal' });
}

function emptyIn(context: StepContext, zone: string, place: 'pod' | 'facility'): void {
	context.change((attributes) => {
		attributes.empty_terminated_at = isoTimestamp(context.at);
		attributes.empty_terminated_timezone = zone;
		attributes.current_status = 'empty_returned';
	});
	context.transportEvent('container.transport.empty_in', { place, dataSource: 'terminal' });
}

/**
 * docs/service.md, "Rail journey order": rail_loaded, rail_departed,
 * arrived_at_inland_destination, rail_unloaded, available, full_out, empty_in.
 */
function railLeg(plan: ContainerPlan, start: number): JourneyStep[] {
	const inland = plan.inland!;
	const destinationZone = String(inland.metro.attributes.time_zone);
	const steps: JourneyStep[] = [];
	const add = (name: string, at: number, apply: StepBody) => steps.push({ name, at, apply });
	const departed = start + 10 * HOUR;
	const estimatedArrival = departed + 3 * DAY;
	const arrived = estimatedArrival + 5 * HOUR;

	add('rail_loaded', start + 4 * HOUR, (context) => {
		context.change((attributes) => {
			attributes.pod_rail_loaded_at = isoTimestamp(context.at);
			attributes.pod_rail_carrier_scac = inland.railCarrierScac;
			attributes.ind_rail_carrier_scac = inland.railCarrierScac;
			attributes.current_status = 'on_rail';
			attributes.available_for_pickup = false;
			attributes.location_at_pod_terminal = null;
		});
		context.transportEvent('container.transport.rail_loaded', {
			place: 'pod',
			dataSource: 'terminal',
		});
	});
	add('rail_departed', departed, (context) => {
		// From when it really left: an arrival moved on demand moves the rest of the journey.
		const estimate = isoTimestamp(context.at + (estimatedArrival - departed));
		context.change((attributes) => {
			attributes.pod_rail_departed_at = isoTimestamp(context.at);
			attributes.ind_eta_at = estimate;
		});
		context.transportEvent('container.transport.rail_departed', {
			place: 'pod',
			dataSource: 'terminal',
		});
		context.transportEvent('container.transport.estimated.arrived_at_inland_destination', {
			place: 'destination',
			dataSource: 'terminal',
			timestamp: estimate,
		});
	});
	if (inland.interchange) {
		add('rail_interchange', departed + DAY + 6 * HOUR, (context) => {
			context.transportEvent('container.transport.rail_arrived', {
				place: 'interchange',
				dataSource: 'terminal',
			});
		});
	}
	add('arrived_at_inland_destination', arrived, (context) => {
		context.change((attributes) => {
			attributes.ind_ata_at = isoTimestamp(context.at);
			attributes.ind_eta_at = estimateUpTo(attributes.ind_eta_at, isoTimestamp(context.at));
		});
		context.updateShipment((shipment) => {
			const actual = String(shipment.destination_ata_at ?? isoTimestamp(context.at));
			return {
				destination_ata_at: actual,
				destination_eta_at: estimateUpTo(shipment.destination_eta_at, actual),
			};
		});
		context.transportEvent('container.transport.rail_arrived', {
			place: 'facility',
			dataSource: 'terminal',
		});
		context.transportEvent('container.transport.arrived_at_inland_destination', {
			place: 'facility',
			dataSource: 'terminal',
		});
	});
	add('rail_unloaded', arrived + 7 * HOUR, (context) => {
		context.change((attributes) => {
			attributes.ind_rail_unloaded_at = isoTimestamp(context.at);
			attributes.current_status = 'grounded';
			attributes.available_for_pickup = false;
			attributes.location_at_pod_terminal = `Parking - P${String(context.at % 997).padStart(3, '0')}`;
			setDeadline(
				attributes,
				'pickup_lfd_rail',
				lastFreeDay(context.at, plan.freeDays, destinationZone),
			);
			attributes.holds_at_pod_terminal = withHold(attributes.holds_at_pod_terminal, {
				name: 'freight',
				status: 'pending',
				description: 'Rail freight release pending',
			});
		});
		context.transportEvent('container.transport.rail_unloaded', {
			place: 'facility',
			dataSource: 'terminal',
		});
	});
	add('available', arrived + 13 * HOUR, (context) => {
		context.change((attributes) => {
			attributes.holds_at_pod_terminal = withoutHold(attributes.holds_at_pod_terminal, {
				name: 'freight',
				description: null,
			});
			if (blocked(attributes)) return;
			attributes.available_for_pickup = true;
			attributes.current_status = 'available';
		});
		context.transportEvent('container.transport.available', {
			place: 'facility',
			dataSource: 'terminal',
		});
	});
	const pickedUp = arrived + DAY + 15 * HOUR;
	add('full_out', pickedUp, (context) => {
		context.change((attributes) => {
			attributes.final_destination_full_out_at = isoTimestamp(context.at);
			attributes.available_for_pickup = false;
			attributes.holds_at_pod_terminal = [];
			attributes.current_status = 'picked_up';
			attributes.location_at_pod_terminal = null;
		});
		context.transportEvent('container.transport.full_out', {
			place: 'facility',
			dataSource: 'terminal',
		});
	});
	add('empty_in', pickedUp + emptyReturnAfter(plan, 2), (context) =>
		emptyIn(context, destinationZone, 'facility'),
	);
	return steps;
}

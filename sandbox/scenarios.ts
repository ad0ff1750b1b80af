/**
 * Named scenarios the control API plays on a container (`POST /_sandbox/containers/{id}/
 * scenarios/{name}`), each a few changes one gap apart, and the journey phases each can happen
 * in. A scenario asked for where it cannot happen (a customs hold on a box whose empty was
 * returned) is refused with a 409 naming the box's state; a step that falls due after the box
 * has left (a natural pickup overtook it) is dropped, so that nothing follows the pickup but the
 * journey's own steps.
 *
 * Holds and availability agree from the moment the terminal released the box: a hold made
 * active on an available box makes it not available, and clearing the last one makes it
 * available again. Hold texts and exam fees vary from play to play.
 */
import { badRequest, conflict } from './http/jsonApi';
import { withFee, withHold, withoutHold, type ContainerAttributes } from './world/containerChanges';
import { examFee } from './world/journey';
import {
	containerPhase,
	daysPastLastFreeDay,
	describePhase,
	hasLeft,
	lastFreeDayZone,
	waitsForPickup,
	type Phase,
} from './world/phase';
import { DAY, HOUR, isoTimestamp, lastFreeDay } from './world/time';
import type { World } from './world/world';

export const SCENARIOS = [
	'journey',
	'customs_hold',
	'vacis_exam',
	'demurrage',
	'last_free_day_changes',
	'ready_for_pickup',
	'hold_on_available_box',
	'eta_moved',
] as const;

export type ScenarioName = (typeof SCENARIOS)[number];

const CUSTOMS_TEXTS = [
	'Awaiting customs release',
	'CBP documents under review',
	'ISF data mismatch: entry on hold',
	'Customs entry not filed',
	'CBP exam ordered: awaiting release',
];
const VACIS_TEXTS = [
	'Selected for NII scan',
	'VACIS exam scheduled at the CES',
	'Selected for non-intrusive inspection',
];
const OTHER_TEXTS = [
	'DOWN - Broken machine over pile',
	'Box under a stack: restow needed',
	'Damaged seal: terminal inspection',
	'Reefer plug check pending',
];

type Attributes = ContainerAttributes;

/** The phases where each scenario (but `journey`, always possible) can happen. */
const PHASES: Record<Exclude<ScenarioName, 'journey'>, readonly Phase[]> = {
	customs_hold: ['on_ship', 'at_port_terminal', 'at_inland_facility'],
	vacis_exam: ['at_port_terminal'],
	demurrage: ['at_port_terminal', 'at_inland_facility'],
	last_free_day_changes: ['on_ship', 'at_port_terminal', 'on_rail', 'at_inland_facility'],
	ready_for_pickup: ['on_ship', 'at_port_terminal', 'on_rail', 'at_inland_facility'],
	hold_on_available_box: ['at_port_terminal', 'at_inland_facility'],
	eta_moved: ['on_ship', 'on_rail'],
};

/**
 * `eta_moved`: the hours each move of a shipment's arrival takes, in turn (the n-th move of that
 * shipment takes the n-th): a first estimate, a move of two days, one back, then two small ones
 * that add up to more than a day, as the example "Arrival moved" coalesces them.
 */
export const ETA_MOVES_HOURS = [30, 50, -30, 8, 20] as const;

/** The hours the next `eta_moved` of the container's shipment takes: never into the past. */
function nextEtaMoveHours(world: World, containerId: string): number {
	const container = world.requireContainer(containerId);
	const shipment = world.store.related(container, 'shipment')[0];
	const moves = shipment ? world.arrivalMovesOf(shipment.id) : 0;
	const hours = ETA_MOVES_HOURS[moves % ETA_MOVES_HOURS.length];
	const eta = Date.parse(
		String(
			container.attributes.pod_arrived_at
				? container.attributes.ind_eta_at
				: shipment?.attributes.pod_eta_at,
		),
	);
	// An estimate is never moved to less than a day from now: an earlier move becomes a later one.
	return eta + hours * HOUR > world.clock.now() + DAY ? hours : Math.abs(hours);
}

function isScenario(name: string): name is ScenarioName {
	return (SCENARIOS as readonly string[]).includes(name);
}

const activeHolds = (attributes: Attributes) =>
	attributes.holds_at_pod_terminal.filter((hold) => hold.status === 'hold');

/**
 * Why `name` cannot happen on the container now, or null when it can. The same rules refuse a
 * request and let the demo (sandbox/demo.ts) pick only scenarios that fit.
 */
export function scenarioRefusal(world: World, containerId: string, name: string): string | null {
	if (!isScenario(name) || name === 'journey') return null;
	const attributes = world.requireContainer(containerId).attributes as Attributes;
	const phase = containerPhase(attributes);
	const inland = world.journeyPlanOf(containerId)?.inland != null;
	if (!PHASES[name].includes(phase)) return `it is ${describePhase(attributes)}`;
	const zone = lastFreeDayZone(attributes);
	const accruing = daysPastLastFreeDay(attributes.pickup_lfd, world.clock.now(), zone) >= 1;
	switch (name) {
		case 'vacis_exam':
			if (world.journeyPlanOf(containerId)?.vacisExam)
				return 'its journey already has a VACIS exam';
			if (attributes.fees_at_pod_terminal.some((fee) => fee.type === 'exam'))
				return 'it was already examined (an exam fee is posted)';
			if (attributes.holds_at_pod_terminal.some((hold) => hold.name === 'VACIS'))
				return 'it already has a VACIS hold';
			return null;
		case 'demurrage':
			if (!waitsForPickup(attributes, inland))
				return `it does not wait for pickup (${describePhase(attributes)})`;
			if (accruing) return `its last free day ${String(attributes.pickup_lfd)} is already over`;
			return null;
		case 'last_free_day_changes':
			if (accruing)
				return `its last free day ${String(attributes.pickup_lfd)} is over and demurrage accrues`;
			return null;
		case 'hold_on_available_box':
			if (attributes.available_for_pickup !== true)
				return `it is not available for pickup (${describePhase(attributes)})`;
			return null;
		case 'eta_moved': {
			const shipment = world.store.related(world.requireContainer(containerId), 'shipment')[0];
			if (phase === 'on_ship' && !shipment?.attributes.pod_ata_at) return null;
			if (phase === 'on_rail' && attributes.ind_eta_at && !attributes.ind_ata_at) return null;
			return phase === 'on_ship'
				? 'its vessel has arrived'
				: 'it has no inland estimate that can move';
		}
		default:
			return null;
	}
}

/** A container's attributes changed one step of a scenario; never once the box has left. */
type Step = (attributes: Attributes) => void;

/** The scenario's name, checked: 400 for a name no scenario has. */
export function requireScenario(name: string): ScenarioName {
	if (!isScenario(name)) {
		throw badRequest(
			`unknown scenario ${name}; try ${SCENARIOS.join(', ')}`,
			{ parameter: 'name' },
			'invalid',
		);
	}
	return name;
}

/** The 409 a scenario that cannot happen on the box answers, naming the box's state. */
function scenarioConflict(world: World, containerId: string, name: string, refusal: string) {
	const number = String(world.requireContainer(containerId).attributes.number);
	return conflict(`${name} cannot happen on container ${number}: ${refusal}`, {
		parameter: 'name',
	});
}

/**
 * Plays a scenario from `startAt` (sandbox time, default now), one step every `gapMs`; returns
 * the number of steps. Throws 400 for an unknown name and 409 when the scenario cannot happen on
 * the box now: whether it can is decided when it is asked for, however late it starts.
 */
export function playScenario(
	world: World,
	containerId: string,
	name: string,
	gapMs: number,
	startAt = world.clock.now(),
): number {
	world.requireContainer(containerId);
	const scenario = requireScenario(name);
	if (scenario === 'journey') {
		// Steps due now run now, as for every other scenario: with a gap of 0 the box has arrived
		// at its end when the call answers, not at the scheduler's next tick.
		const steps = world.playJourney(containerId, gapMs, undefined, startAt);
		world.scheduler.runDue();
		return steps;
	}
	const refusal = scenarioRefusal(world, containerId, scenario);
	if (refusal) throw scenarioConflict(world, containerId, scenario, refusal);
	const play = world.scenariosPlayed++;
	if (scenario === 'eta_moved') {
		// One move of the whole shipment's arrival (World.moveArrival), at its start.
		const hours = nextEtaMoveHours(world, containerId);
		const shipment = world.store.related(world.requireContainer(containerId), 'shipment')[0];
		world.scheduler.schedule(startAt, () => {
			if (scenarioRefusal(world, containerId, scenario) === null)
				world.moveArrival(shipment.id, hours * HOUR);
		});
		world.scheduler.runDue();
		return 1;
	}
	let journeySteps = 0;
	if (scenario === 'ready_for_pickup')
		journeySteps = world.playJourney(containerId, gapMs, 'available', startAt);
	const steps = scenarioSteps(world, containerId, scenario, play);
	steps.forEach((step, index) =>
		world.scheduler.schedule(startAt + (journeySteps + index) * gapMs, (at) => {
			if (hasLeft(world.requireContainer(containerId).attributes)) return;
			world.changeContainer(containerId, at, step);
		}),
	);
	world.scheduler.runDue();
	return journeySteps + steps.length;
}

export interface ScenarioStart {
	container_id: string;
	container_number: string;
	steps: number;
	/** Sandbox time of its first step. */
	starts_at: string;
}

export interface ScenarioSkip {
	container_id: string;
	container_number: string;
	/** Why the scenario cannot happen on the box, as the single-container route's 409 says it. */
	reason: string;
}

export interface ScenarioBurst {
	started: ScenarioStart[];
	skipped: ScenarioSkip[];
	/** Sandbox time of the last step of all. */
	endsAt: number;
}

/**
 * Plays a scenario on many containers, their starts spread evenly over `spreadMs` of sandbox time
 * from now (the first now, the last `spreadMs` later), each one step every `gapMs`. A box where
 * the scenario cannot happen now is skipped with the reason, and the spread is shared by the
 * others. Throws 400 for an unknown name, 404 for an unknown container (before anything starts).
 */
export function playScenarioOnMany(
	world: World,
	containerIds: string[],
	name: string,
	{ gapMs, spreadMs }: { gapMs: number; spreadMs: number },
): ScenarioBurst {
	const scenario = requireScenario(name);
	const containers = containerIds.map((id) => world.requireContainer(id));
	const skipped: ScenarioSkip[] = [];
	const playable = containers.filter((container) => {
		const reason = scenarioRefusal(world, container.id, scenario);
		if (reason)
			skipped.push({
				container_id: container.id,
				container_number: String(container.attributes.number),
				reason,
			});
		return reason === null;
	});
	const now = world.clock.now();
	const interval = playable.length > 1 ? spreadMs / (playable.length - 1) : 0;
	let endsAt = now;
	const started = playable.map((container, index) => {
		const startAt = now + index * interval;
		const steps = playScenario(world, container.id, scenario, gapMs, startAt);
		endsAt = Math.max(endsAt, startAt + Math.max(0, steps - 1) * gapMs);
		return {
			container_id: container.id,
			container_number: String(container.attributes.number),
			steps,
			starts_at: isoTimestamp(startAt),
		};
	});
	return { started, skipped, endsAt };
}

function scenarioSteps(
	world: World,
	containerId: string,
	name: Exclude<ScenarioName, 'journey' | 'eta_moved'>,
	play: number,
): Step[] {
	const plan = world.journeyPlanOf(containerId);
	const inland = plan?.inland != null;
	const text = (texts: string[]) => texts[play % texts.length];
	/** The terminal released the box: its journey's own availability is behind it. */
	const released = () => !world.remainingSteps(containerId).includes('available');
	const block: Step = (attributes) => {
		if (activeHolds(attributes).length > 0 && attributes.available_for_pickup === true) {
			attributes.available_for_pickup = false;
			attributes.current_status = 'not_available';
		}
	};
	const release: Step = (attributes) => {
		if (
			activeHolds(attributes).length === 0 &&
			waitsForPickup(attributes, inland) &&
			released() &&
			attributes.available_for_pickup !== true
		) {
			attributes.available_for_pickup = true;
			attributes.availability_known = true;
			attributes.current_status = 'available';
		}
	};
	const placeHold =
		(hold: { name: string; status: 'hold' | 'pending'; description: string | null }): Step =>
		(attributes) => {
			attributes.holds_at_pod_terminal = withHold(attributes.holds_at_pod_terminal, hold);
			block(attributes);
		};
	const clearHold =
		(hold: { name: string; description: string | null }): Step =>
		(attributes) => {
			attributes.holds_at_pod_terminal = withoutHold(attributes.holds_at_pod_terminal, hold);
			release(attributes);
		};
	switch (name) {
		case 'customs_hold': {
			const description = text(CUSTOMS_TEXTS);
			return [
				placeHold({ name: 'customs', status: 'pending', description }),
				placeHold({ name: 'customs', status: 'hold', description }),
				clearHold({ name: 'customs', description: null }),
			];
		}
		case 'vacis_exam': {
			return [
				placeHold({ name: 'VACIS', status: 'hold', description: text(VACIS_TEXTS) }),
				(attributes) => {
					attributes.fees_at_pod_terminal = withFee(attributes.fees_at_pod_terminal, {
						type: 'exam',
						amount: examFee(containerId, 1),
						currency_code: 'USD',
					});
				},
				clearHold({ name: 'VACIS', description: null }),
			];
		}
		case 'demurrage': {
			// The box sits past its last free day: 1 to 3 days ago, where it is; the world
			// charges the days since (World.accrueDemurrage) and one more each day it stays.
			const daysAgo = 1 + (play % 3);
			return [
				(attributes) => {
					const zone = lastFreeDayZone(attributes);
					const source = attributes.import_deadlines?.pickup_lfd_line
						? 'pickup_lfd_line'
						: attributes.import_deadlines?.pickup_lfd_terminal || !inland
							? 'pickup_lfd_terminal'
							: 'pickup_lfd_rail';
					attributes.import_deadlines = {
						pickup_lfd_terminal: null,
						pickup_lfd_rail: null,
						pickup_lfd_line: null,
						...attributes.import_deadlines,
						[source]: lastFreeDay(world.clock.now(), -daysAgo, zone),
					};
				},
			];
		}
		case 'last_free_day_changes': {
			const on = (source: string, days: number): Step => {
				return (attributes) => {
					const zone = String(
						(source === 'pickup_lfd_rail'
							? attributes.final_destination_timezone
							: attributes.pod_timezone) ?? 'UTC',
					);
					attributes.import_deadlines = {
						pickup_lfd_terminal: null,
						pickup_lfd_rail: null,
						pickup_lfd_line: null,
						...attributes.import_deadlines,
						// The facility's own calendar: N days on from today there.
						[source]: lastFreeDay(world.clock.now(), days, zone),
					};
				};
			};
			// The line corrects its date last, to two days out: the daily digest's horizon
			// (examples/last-free-day-digest.json), so the demo shows a box due soon.
			return [
				on('pickup_lfd_terminal', 4),
				on('pickup_lfd_line', 5),
				on('pickup_lfd_rail', 6),
				on('pickup_lfd_line', 2),
			];
		}
		case 'ready_for_pickup':
			// After the journey up to the terminal's availability: any hold left is released.
			return [
				(attributes) => {
					attributes.holds_at_pod_terminal = [];
					release(attributes);
				},
			];
		case 'hold_on_available_box': {
			const other = text(OTHER_TEXTS);
			return [
				placeHold({ name: 'USDA', status: 'hold', description: 'Agricultural inspection' }),
				placeHold({ name: 'other', status: 'hold', description: other }),
				clearHold({ name: 'USDA', description: null }),
				clearHold({ name: 'other', description: other }),
			];
		}
	}
}

// The invariants a served container (with its shipment) keeps with drift off: the rules that
// make the sandbox's data make sense, checked on every read and every webhook delivery of
// test/sandbox/invariants.test.ts. One list of named rules; a violation names the container
// number and the rule. The phase of a box and its days past the last free day are read as the
// sandbox reads them (sandbox/world/phase.ts): what is judged is everything else agreeing.
import {
	containerPhase,
	daysPastLastFreeDay,
	lastFreeDayZone,
	PHASE_ORDER,
	type Phase,
} from '../../sandbox/world/phase';

/** Attributes of a record as served (loosely typed, as JSON gives them). */
type Attributes = Record<string, unknown>;

export interface Subject {
	/** The container's attributes as served or delivered. */
	container: Attributes;
	/** Its shipment's attributes, when they were read or delivered with it. */
	shipment?: Attributes;
	/** The same container's attributes as read just before (reads are in order). */
	previous?: Attributes;
	/** The event of the delivery that carried the container, for deliveries. */
	event?: string;
}

export interface Violation {
	container: string;
	invariant: string;
	detail: string;
}

const isSet = (value: unknown) => value !== null && value !== undefined && value !== '';
const time = (value: unknown) => (isSet(value) ? Date.parse(String(value)) : NaN);

/** The statuses each phase may show. */
const STATUSES: Record<Phase, string[]> = {
	on_ship: ['on_ship'],
	at_port_terminal: ['not_available', 'available', 'awaiting_inland_transfer'],
	on_rail: ['on_rail'],
	at_inland_facility: ['grounded', 'not_available', 'available'],
	picked_up: ['picked_up'],
	empty_returned: ['empty_returned'],
};

/** Each milestone and the one it needs before it (same time or earlier). */
const MILESTONES: Array<[string, string[]]> = [
	['pod_discharged_at', ['pod_arrived_at']],
	['pod_full_out_at', ['pod_discharged_at']],
	['pod_rail_loaded_at', ['pod_discharged_at']],
	['pod_rail_departed_at', ['pod_rail_loaded_at']],
	['ind_ata_at', ['pod_rail_departed_at']],
	['ind_rail_unloaded_at', ['ind_ata_at']],
	['final_destination_full_out_at', ['ind_rail_unloaded_at']],
	['empty_terminated_at', ['pod_full_out_at', 'final_destination_full_out_at']],
];

type Fee = { type: string; amount: unknown; currency_code: unknown };
const feesOf = (a: Attributes) =>
	(Array.isArray(a.fees_at_pod_terminal) ? a.fees_at_pod_terminal : []) as Fee[];
const demurrageOf = (a: Attributes) =>
	Number(feesOf(a).find((fee) => fee.type === 'demurrage')?.amount ?? 0);
const holdsOf = (a: Attributes) =>
	(Array.isArray(a.holds_at_pod_terminal) ? a.holds_at_pod_terminal : []) as Array<{
		name: string;
		status: string;
	}>;

/** Whether the box waits where it is picked up, so that its last free day can pass. */
function waits(a: Attributes): boolean {
	const phase = containerPhase(a);
	return (
		phase === 'at_inland_facility' ||
		(phase === 'at_port_terminal' && a.current_status !== 'awaiting_inland_transfer')
	);
}

/** Calendar days past the last free day at `at`, where the box is (0 on the day itself). */
const daysPast = (a: Attributes, at: number) =>
	Number.isFinite(at) ? daysPastLastFreeDay(a.pickup_lfd, at, lastFreeDayZone(a)) : 0;

/** When the terminal's figures are from: its last check, or the moment the box left. */
function figuresAt(a: Attributes): number {
	const left = Math.min(
		...[a.pod_full_out_at, a.final_destination_full_out_at].map(time).filter(Number.isFinite),
	);
	return Math.min(time(a.terminal_checked_at), left);
}

/**
 * The invariants, by name: each returns what is wrong with the subject, or null. They hold for
 * every container the sandbox serves or delivers with drift off.
 */
export const INVARIANTS: Record<string, (subject: Subject) => string | null> = {
	status_follows_milestones: ({ container: a }) => {
		const phase = containerPhase(a);
		const status = String(a.current_status);
		if (!STATUSES[phase].includes(status)) return `${phase} but current_status ${status}`;
		if ((status === 'available') !== (a.available_for_pickup === true))
			return `current_status ${status} with available_for_pickup ${String(a.available_for_pickup)}`;
		return null;
	},
	milestones_in_order: ({ container: a }) => {
		for (const [milestone, needs] of MILESTONES) {
			if (!isSet(a[milestone])) continue;
			const before = needs.filter((name) => isSet(a[name]));
			if (before.length === 0) return `${milestone} without ${needs.join(' or ')}`;
			for (const name of before)
				if (time(a[name]) > time(a[milestone]))
					return `${name} ${String(a[name])} after ${milestone} ${String(a[milestone])}`;
		}
		return null;
	},
	nothing_held_or_available_once_gone: ({ container: a }) => {
		const phase = containerPhase(a);
		if (phase !== 'picked_up' && phase !== 'empty_returned') return null;
		if (holdsOf(a).length > 0)
			return `${phase} with holds ${holdsOf(a)
				.map((hold) => `${hold.name}:${hold.status}`)
				.join(', ')}`;
		if (a.available_for_pickup === true) return `${phase} but available_for_pickup true`;
		return null;
	},
	available_only_without_active_holds: ({ container: a }) => {
		const active = holdsOf(a).filter((hold) => hold.status === 'hold');
		return a.available_for_pickup === true && active.length > 0
			? `available for pickup with active holds ${active.map((hold) => hold.name).join(', ')}`
			: null;
	},
	eta_not_after_ata: ({ container: a, shipment: s }) => {
		const legs: Array<[Attributes | undefined, string, string]> = [
			[a, 'ind_eta_at', 'ind_ata_at'],
			[s, 'pod_eta_at', 'pod_ata_at'],
			[s, 'destination_eta_at', 'destination_ata_at'],
		];
		for (const [record, eta, ata] of legs) {
			if (!record || !isSet(record[eta]) || !isSet(record[ata])) continue;
			if (time(record[eta]) > time(record[ata]))
				return `${eta} ${String(record[eta])} later than ${ata} ${String(record[ata])}`;
		}
		return null;
	},
	fee_total_is_sum: ({ container: a }) => {
		const fees = feesOf(a);
		const items = fees.filter((fee) => fee.type !== 'total');
		const total = fees.find((fee) => fee.type === 'total');
		if (fees.some((fee) => typeof fee.amount !== 'number' || fee.amount < 0))
			return `a fee that is not an amount of at least 0: ${JSON.stringify(fees)}`;
		const sum = Math.round(items.reduce((all, fee) => all + Number(fee.amount), 0) * 100) / 100;
		if (items.length > 0 && total?.amount !== sum)
			return `total ${String(total?.amount)} for fees summing to ${sum}`;
		if (items.length === 0 && total) return 'a total without fees';
		return null;
	},
	demurrage_only_after_last_free_day: ({ container: a }) => {
		if (demurrageOf(a) <= 0) return null;
		if (!isSet(a.pickup_lfd)) return `demurrage ${demurrageOf(a)} without a last free day`;
		if (daysPast(a, figuresAt(a)) < 1)
			return `demurrage ${demurrageOf(a)} on or before the last free day ${String(a.pickup_lfd)}`;
		return null;
	},
	demurrage_accrues_past_last_free_day: ({ container: a }) => {
		if (!waits(a)) return null;
		const days = daysPast(a, time(a.terminal_checked_at));
		if (days >= 1 && demurrageOf(a) <= 0)
			return `${days} days past the last free day ${String(a.pickup_lfd)} and no demurrage`;
		return null;
	},
	last_free_day_is_first_source: ({ container: a }) => {
		const deadlines = (a.import_deadlines ?? {}) as Attributes;
		const first =
			deadlines.pickup_lfd_line ??
			deadlines.pickup_lfd_terminal ??
			deadlines.pickup_lfd_rail ??
			null;
		return (a.pickup_lfd ?? null) === first
			? null
			: `pickup_lfd ${String(a.pickup_lfd)}, first deadline ${String(first)}`;
	},
	phase_never_goes_back: ({ container: a, previous }) => {
		if (!previous) return null;
		const [was, is] = [containerPhase(previous), containerPhase(a)];
		return PHASE_ORDER.indexOf(is) < PHASE_ORDER.indexOf(was) ? `${was}, then ${is}` : null;
	},
	nothing_after_empty_return: ({ container: a, previous, event }) => {
		if (!isSet(a.empty_terminated_at)) return null;
		if (event !== undefined && event !== 'container.transport.empty_in')
			return `${event} delivered after the empty return`;
		if (previous && isSet(previous.empty_terminated_at)) {
			const changed = Object.keys({ ...previous, ...a }).filter(
				(name) => JSON.stringify(previous[name]) !== JSON.stringify(a[name]),
			);
			if (changed.length > 0) return `changed after the empty return: ${changed.join(', ')}`;
		}
		return null;
	},
};

/** Every invariant the subject breaks, each with the container number and the invariant's name. */
export function checkInvariants(subject: Subject): Violation[] {
	const violations: Violation[] = [];
	for (const [invariant, check] of Object.entries(INVARIANTS)) {
		const detail = check(subject);
		if (detail !== null)
			violations.push({ container: String(subject.container.number), invariant, detail });
	}
	return violations;
}

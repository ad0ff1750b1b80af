/**
 * The demo's director (`npm start` calls `POST /_sandbox/demo/next` every 20 seconds): each
 * call plays one scenario that fits a box where it is in its journey, or tracks a fresh
 * container when too few boxes are still to be picked up. It keeps a mix on the pickup board at
 * every moment: a box made ready when none is, a hold placed when no box is blocked, never the
 * last ready box held or picked up; and it turns through holds, exams, demurrage, last free day
 * changes, arrivals moved and pickups so that the alerts differ from one round to the next. It picks only
 * scenarios the control API would accept (sandbox/scenarios.ts, `scenarioRefusal`).
 */
import { pickupReadiness } from '../nodes/ContainerTracking/logic/readiness';
import { playScenario, scenarioRefusal, type ScenarioName } from './scenarios';
import type { ContainerAttributes } from './world/containerChanges';
import { withCheckDigit } from './world/containerNumbers';
import { hasLeft } from './world/phase';
import type { Resource } from './world/store';
import type { World } from './world/world';

export interface DemoMove {
	action: 'scenario' | 'track' | 'wait';
	scenario: ScenarioName | null;
	container_id: string | null;
	/** The container played on, or the number tracked. */
	container_number: string | null;
	steps: number;
	/** Boxes still to be picked up that are ready, and that are not, before this move. */
	ready: number;
	blocked: number;
}

type Intent = 'hold' | 'exam' | 'fees' | 'lfd' | 'ready' | 'pickup' | 'eta';

/** One intent per round, in turn; a round whose intent fits no box takes the next that does. */
const ROTATION: Intent[] = [
	'eta',
	'hold',
	'fees',
	'exam',
	'lfd',
	'ready',
	'eta',
	'hold',
	'fees',
	'pickup',
	'exam',
	'eta',
	'hold',
	'lfd',
	'ready',
];

const SCENARIOS_FOR: Record<Intent, ScenarioName[]> = {
	hold: ['customs_hold', 'hold_on_available_box'],
	exam: ['vacis_exam'],
	fees: ['demurrage'],
	lfd: ['last_free_day_changes'],
	ready: ['ready_for_pickup'],
	pickup: ['journey'],
	eta: ['eta_moved'],
};

/** What the demo tracks when it starts: a container, bills of lading of two lines, the test SCAC. */
export const DEMO_TRACKED = [
	{ number: 'TEST-TR-SUCCEEDED', scac: 'TEST', type: 'container', refs: [], tags: [] },
	{ number: 'MSKU4807969', scac: 'MAEU', type: 'container', refs: ['PO 4411'], tags: ['reefer'] },
	{
		number: 'MEDUFR030802',
		scac: 'MSCU',
		type: 'bill_of_lading',
		refs: ['PO-4412', 'SO 19-22'],
		tags: ['priority'],
	},
	{
		number: 'HLCU1234567890',
		scac: 'HLCU',
		type: 'bill_of_lading',
		refs: ['JOB-0077'],
		tags: ['reefer'],
	},
] as const;

/**
 * The references and tags of the demo's fresh containers, in turn: as a forwarder's are, some
 * with none, a tag on boxes of several customers, references typed with spaces and dashes.
 */
const FRESH_OWNERS: ReadonlyArray<{ refs: string[]; tags: string[] }> = [
	{ refs: ['PO 5120'], tags: [] },
	{ refs: [], tags: ['reefer'] },
	{ refs: ['JOB-0081', 'PO-5121'], tags: ['priority'] },
	{ refs: [], tags: [] },
];

/** Intents that end a box's readiness for a while (or for good). */
const BLOCKING: Intent[] = ['hold', 'exam', 'pickup'];
/** Ready boxes the demo keeps at every moment (two, so that a natural pickup leaves one). */
const MIN_READY = 2;
/** Boxes still to be picked up below which a fresh container is tracked. */
const MIN_LIVE = 5;
/**
 * Scenarios a box goes through before it is picked up (its journey played to the empty return)
 * and a fresh container takes its place: holds come to new boxes, not again and again to the
 * same ones.
 */
const PLAYS_PER_BOX = 10;
/** Fresh containers: these lines' own prefixes, in turn. */
const FRESH = [
	{ scac: 'MAEU', prefix: 'MSKU' },
	{ scac: 'MSCU', prefix: 'MEDU' },
	{ scac: 'HLCU', prefix: 'HLXU' },
	{ scac: 'CMDU', prefix: 'CMAU' },
];

interface Box {
	id: string;
	number: string;
	attributes: ContainerAttributes;
	ready: boolean;
}

export class DemoDirector {
	private round = 0;
	private fresh = 0;
	private pendingRequest: string | null = null;
	/** Container id → sandbox time until which a scenario it plays is still under way. */
	private readonly busyUntil = new Map<string, number>();
	/** Container id → the round it was last played in. */
	private readonly lastPlayed = new Map<string, number>();
	/** Container id → scenarios played on it. */
	private readonly plays = new Map<string, number>();

	constructor(private readonly world: World) {}

	/** Tracks the demo's starting containers (those not tracked yet); returns the requests. */
	start(): Resource[] {
		const tracked = this.trackedNumbers();
		return DEMO_TRACKED.filter((entry) => !tracked.has(entry.number)).map((entry) =>
			this.world.createTrackingRequest({
				request_number: entry.number,
				request_type: entry.type,
				scac: entry.scac,
				ref_numbers: [...entry.refs],
				shipment_tags: ['demo', ...entry.tags],
			}),
		);
	}

	next(gapMs: number): DemoMove {
		const round = this.round++;
		const now = this.world.clock.now();
		const live = this.world.store
			.list('container')
			.filter((container) => !hasLeft(container.attributes))
			.map((container) => boxOf(container));
		const ready = live.filter((box) => box.ready);
		const counts = { ready: ready.length, blocked: live.length - ready.length };
		const tracking =
			this.pendingRequest !== null &&
			this.world.store.get('tracking_request', this.pendingRequest)?.attributes.status ===
				'pending';
		// A fresh box (at sea: not ready) when too few are left, or when every box is ready.
		if ((live.length < MIN_LIVE || counts.blocked === 0) && !tracking)
			return { ...this.track(), ...counts };

		const intents: Intent[] = [];
		if (ready.length < MIN_READY) intents.push('ready');
		if (ready.some((box) => this.playsOf(box) >= PLAYS_PER_BOX)) intents.push('pickup');
		for (let turn = 0; turn < ROTATION.length; turn++)
			intents.push(ROTATION[(round + turn) % ROTATION.length]);

		for (const intent of intents) {
			const choice = this.choose(intent, live, counts, now, round);
			if (!choice) continue;
			const { box, scenario } = choice;
			const steps = playScenario(this.world, box.id, scenario, gapMs);
			this.busyUntil.set(box.id, now + (steps + 1) * gapMs);
			this.lastPlayed.set(box.id, round);
			this.plays.set(box.id, this.playsOf(box) + 1);
			return {
				action: 'scenario',
				scenario,
				container_id: box.id,
				container_number: box.number,
				steps,
				...counts,
			};
		}
		if (!tracking) return { ...this.track(), ...counts };
		return {
			action: 'wait',
			scenario: null,
			container_id: null,
			container_number: null,
			steps: 0,
			...counts,
		};
	}

	private choose(
		intent: Intent,
		live: Box[],
		counts: { ready: number; blocked: number },
		now: number,
		round: number,
	): { box: Box; scenario: ScenarioName } | undefined {
		const scenarios = SCENARIOS_FOR[intent];
		// Hold scenarios take turns, so that the same alert does not come every time.
		const offset = round % scenarios.length;
		const ordered = [...scenarios.slice(offset), ...scenarios.slice(0, offset)];
		const candidates = live
			.filter((box) => (this.busyUntil.get(box.id) ?? 0) <= now)
			// MIN_READY boxes stay ready (holds, exams and pickups take a ready box only beyond
			// them), and one box at least stays blocked (only a second one is made ready).
			.filter((box) => !(box.ready && BLOCKING.includes(intent) && counts.ready <= MIN_READY))
			.filter((box) => intent !== 'ready' || (!box.ready && counts.blocked >= 2))
			.filter((box) => intent !== 'pickup' || box.ready)
			// A box that has had its share waits for its pickup (or to be made ready for it).
			.filter(
				(box) => intent === 'pickup' || intent === 'ready' || this.playsOf(box) < PLAYS_PER_BOX,
			)
			.sort(
				(a, b) =>
					(intent === 'pickup' ? this.playsOf(b) - this.playsOf(a) : 0) ||
					// The shipment moved most before: its next move is told against the last one
					// (examples/arrival-moved.json records a shipment's first estimate without an email).
					(intent === 'eta' ? this.arrivalMoves(b) - this.arrivalMoves(a) : 0) ||
					(this.lastPlayed.get(a.id) ?? -1) - (this.lastPlayed.get(b.id) ?? -1) ||
					a.number.localeCompare(b.number),
			);
		for (const scenario of ordered) {
			const box = candidates.find(
				(candidate) => scenarioRefusal(this.world, candidate.id, scenario) === null,
			);
			if (box) return { box, scenario };
		}
		return undefined;
	}

	private arrivalMoves(box: Box): number {
		const shipment = this.world.store.related(this.world.requireContainer(box.id), 'shipment')[0];
		return shipment ? this.world.arrivalMovesOf(shipment.id) : 0;
	}

	private playsOf(box: Box): number {
		return this.plays.get(box.id) ?? 0;
	}

	private trackedNumbers(): Set<unknown> {
		return new Set(
			this.world.store.list('tracking_request').map((request) => request.attributes.request_number),
		);
	}

	/** Tracks a fresh container, a number no request has used yet. */
	private track(): DemoMove {
		const used = this.trackedNumbers();
		let number: string;
		let line: (typeof FRESH)[number];
		do {
			const serial = this.fresh++;
			line = FRESH[serial % FRESH.length];
			number = withCheckDigit(
				`${line.prefix}${String((271828 + serial * 7919) % 1_000_000).padStart(6, '0')}`,
			);
		} while (used.has(number));
		const owner = FRESH_OWNERS[this.fresh % FRESH_OWNERS.length];
		const request = this.world.createTrackingRequest({
			request_number: number,
			request_type: 'container',
			scac: line.scac,
			ref_numbers: [...owner.refs],
			shipment_tags: ['demo', ...owner.tags],
		});
		this.pendingRequest = request.id;
		return {
			action: 'track',
			scenario: null,
			container_id: null,
			container_number: number,
			steps: 0,
			ready: 0,
			blocked: 0,
		};
	}
}

function boxOf(container: Resource): Box {
	const attributes = container.attributes as ContainerAttributes;
	return {
		id: container.id,
		number: String(attributes.number),
		attributes,
		ready: pickupReadiness(attributes).pickup_status === 'ready',
	};
}

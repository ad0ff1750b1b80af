/**
 * The sandbox's world: tracking requests, shipments, containers and their journeys on the
 * sandbox clock, and the notifications every change produces.
 *
 * Every change to a container goes through `changeContainer`, which compares the container
 * before and after and sends what the service would send: a `container.updated` changeset
 * built from the real old and new values (docs/service.md, "Changesets"), and the deadline
 * notifications.
 */
import { DateTime } from 'luxon';
import type { z } from 'zod';

import type { trackingRequestAttributes } from '../../nodes/ContainerTracking/schemas';
import type { SandboxClock } from '../clock';
import { ClockScheduler } from '../clock';
import { inDriftSubset } from '../drift';
import { ApiError, ValidationErrors, conflict, notFound, unprocessable } from '../http/jsonApi';
import { copy } from '../http/documents';
import {
	buildChangeset,
	changedDeadlineEvents,
	coalescedLastFreeDay,
	withFee,
	withoutFee,
	type ContainerAttributes,
} from './containerChanges';
import { EVENT_NAMES, RAIL_PLAN_EVENTS } from './eventNames';
import { inferNumber } from '../inferNumber';
import { generateShipment } from './generator';
import type { ContainerPlan } from './plan';
import { planJourney, type JourneyStep } from './journey';
import { daysPastLastFreeDay, lastFreeDayZone, waitsForPickup } from './phase';
import { deterministicUuid, randomUuid } from './random';
import { findShippingLine } from './shippingLines';
import { ref, relationshipTo, type Resource, type Store } from './store';
import { isoTimestamp } from './time';

export interface Notification {
	id: string;
	event: string;
	reference: Resource;
	/** Undefined for deliveries that carry only the reference object. */
	included: Resource[] | undefined;
	createdAt: string;
	/**
	 * Sent only while drift is on: what real accounts send beyond the interface (a `pod_eta_at`
	 * change in `container.updated`, sandbox/drift.ts).
	 */
	onlyWithDrift?: boolean;
}

export interface WorldOptions {
	/** Sandbox milliseconds between a tracking request and its outcome. */
	trackingDelayMs: number;
	/**
	 * Whether the account has the Rail Plan entitlement
	 * (docs/service.md, "Base URL and authentication").
	 */
	railPlan: boolean;
	/** Whether the account has Container Refresh, a paid feature (403 without it). */
	containerRefresh: boolean;
	/** Whether the account has Routing Data (container routes), a paid feature (403 without it). */
	routingData: boolean;
}

/** What a tracking request is created with: the schema's attributes, all given. */
export type TrackingRequestInput = z.infer<typeof trackingRequestAttributes> & {
	request_type: string;
	scac: string;
	ref_numbers: string[];
	shipment_tags: string[];
	/** No carrier given: the service works it out while the request is pending. */
	auto_detect_vocc_scac?: boolean;
	/** Stored as given: `{"shipment": [...], "containers": [...]}`. */
	initial_custom_fields?: unknown;
};

/**
 * Deliveries of these events carry only the reference object
 * (docs/service.md, "Reference objects").
 */
const REFERENCE_ONLY_EVENTS = new Set([
	'container.transport.available',
	'container.transport.not_available',
	'container.pickup_appointment.changed',
	'container.pickup_lfd_line.changed',
]);

const TEST_SUCCEEDED = 'TEST-TR-SUCCEEDED';
const TEST_FAILED = 'TEST-TR-FAILED';

interface ContainerJourney {
	plan: ContainerPlan;
	steps: JourneyStep[];
	/** Index of the next natural step that has not happened yet. */
	next: number;
	/** When the next daily demurrage check is due (sandbox ms), once one is armed. */
	accrualAt?: number;
	/** Bumped when the remaining steps move in time: a step scheduled before then is void. */
	generation: number;
}

/** Which arrival an estimate is of: the vessel's at the port of discharge, or the box's inland. */
export type ArrivalKind = 'port' | 'inland';

/** What `moveArrival` changed: each estimate as `[old, new]`. */
export interface ArrivalMove {
	shipment_id: string;
	arrival: ArrivalKind;
	moved_hours: number;
	pod_eta_at?: [unknown, string];
	destination_eta_at?: [unknown, string];
	containers: Array<{ id: string; number: string; ind_eta_at?: [unknown, string] }>;
}

export class World {
	readonly scheduler: ClockScheduler;
	private readonly journeys = new Map<string, ContainerJourney>();
	/** Shipments whose line revised its estimate, or whose estimate was moved on demand. */
	private readonly revisedArrivals = new Set<string>();
	/** Moves on demand of each shipment's arrival (`moveArrival`), by shipment id. */
	private readonly arrivalMoves = new Map<string, number>();
	/** Scenarios played so far: picks the wording of the next hold, so that texts vary. */
	scenariosPlayed = 0;

	constructor(
		readonly store: Store,
		readonly clock: SandboxClock,
		private readonly notify: (notification: Notification) => void,
		readonly options: WorldOptions,
		onError: (error: unknown) => void,
	) {
		this.scheduler = new ClockScheduler(clock, onError);
	}

	// ---------------------------------------------------------------- tracking requests

	createTrackingRequest(input: TrackingRequestInput): Resource {
		const errors = new ValidationErrors();
		const number = input.request_number.trim().toUpperCase();
		const autoDetect = input.auto_detect_vocc_scac === true && !input.scac.trim();
		// An alternative SCAC stands for its line (`alternative_scacs`).
		const given = input.scac.trim().toUpperCase();
		const scac = findShippingLine(given)?.scac ?? given;
		if (!number)
			errors.add("Request number can't be blank", '/data/attributes/request_number', 'blank');
		if (autoDetect) {
			// The carrier is worked out when the request resolves.
		} else if (!scac) errors.add("Scac can't be blank", '/data/attributes/scac', 'blank');
		else if (!findShippingLine(scac)) {
			errors.add(`Scac '${scac}' is not recognized`, '/data/attributes/scac', 'invalid');
		}
		if (!['container', 'bill_of_lading', 'booking'].includes(input.request_type)) {
			errors.add(
				'Request type must be one of container, bill_of_lading, booking',
				'/data/attributes/request_type',
				'inclusion',
			);
		}
		errors.throwIfAny();
		const duplicate = this.store
			.list('tracking_request')
			.find(
				(existing) =>
					existing.attributes.request_number === number &&
					!autoDetect &&
					existing.attributes.scac === scac &&
					existing.attributes.status !== 'failed',
			);
		if (duplicate) {
			throw new ApiError(422, [
				{
					status: '422',
					title: 'Unprocessable Entity',
					detail: `Request number '${number}' with scac '${scac}' is already being tracked`,
					code: 'duplicate',
					source: { pointer: '/data/attributes/request_number' },
				},
			]);
		}
		const now = this.clock.now();
		const id = randomUuid();
		const trackingRequest = this.store.put({
			id,
			type: 'tracking_request',
			attributes: {
				request_number: number,
				request_type: input.request_type,
				scac: autoDetect ? null : scac,
				ref_numbers: input.ref_numbers,
				shipment_tags: input.shipment_tags,
				...(input.initial_custom_fields !== undefined
					? { initial_custom_fields: input.initial_custom_fields }
					: {}),
				status: 'pending',
				failed_reason: null,
				created_at: isoTimestamp(now),
				updated_at: isoTimestamp(now),
				is_retrying: false,
				retry_count: null,
			},
			relationships: { tracked_object: { data: null }, customer: { data: null } },
			links: { self: `/v2/tracking_requests/${id}` },
		});
		this.scheduler.schedule(now + this.options.trackingDelayMs, (at) =>
			this.resolveTrackingRequest(id, at),
		);
		return trackingRequest;
	}

	private resolveTrackingRequest(id: string, at: number): void {
		const trackingRequest = this.store.get('tracking_request', id);
		if (!trackingRequest) return;
		const { request_number: number, request_type: requestType } =
			trackingRequest.attributes as Record<string, string>;
		// Auto-detection: the carrier the inference names (the service asks the carriers, so a
		// prefix that needs confirmation is enough), else a failure.
		const named = inferNumber(number).shipping_line;
		const detected = trackingRequest.attributes.scac
			? String(trackingRequest.attributes.scac)
			: named?.decision === 'no_prediction'
				? undefined
				: named?.selected?.scac;
		const scac = detected ?? '';
		if (detected) trackingRequest.attributes = { ...trackingRequest.attributes, scac: detected };
		const failedReason = detected
			? this.failureOf(number, scac, requestType)
			: 'scac_auto_detect_failed';
		if (failedReason) {
			trackingRequest.attributes = {
				...trackingRequest.attributes,
				status: 'failed',
				failed_reason: failedReason,
				updated_at: isoTimestamp(at),
			};
			this.emit('tracking_request.failed', trackingRequest, [trackingRequest], at);
			return;
		}
		const generated = generateShipment({
			number,
			scac,
			requestType,
			refNumbers: trackingRequest.attributes.ref_numbers as string[],
			tags: trackingRequest.attributes.shipment_tags as string[],
			createdAt: at,
		});
		for (const record of generated.records) this.store.put(record);
		this.store.put(generated.shipment);
		for (const container of generated.containers) this.store.put(container);
		for (const plan of generated.plans) this.startJourney(plan, at);
		trackingRequest.attributes = {
			...trackingRequest.attributes,
			status: 'created',
			updated_at: isoTimestamp(at),
		};
		trackingRequest.relationships = {
			...trackingRequest.relationships,
			tracked_object: relationshipTo(generated.shipment),
		};
		this.emit(
			'tracking_request.succeeded',
			trackingRequest,
			[...generated.containers, generated.shipment, trackingRequest],
			at,
		);
		for (const container of generated.containers) {
			const createdEvent = this.store.put({
				id: deterministicUuid('container_created_event', container.id),
				type: 'container_created_event',
				attributes: {
					timestamp: isoTimestamp(at),
					timezone: container.attributes.pod_timezone ?? null,
				},
				relationships: {
					container: relationshipTo(container),
					shipment: relationshipTo(generated.shipment),
				},
			});
			this.emit(
				'container.created',
				createdEvent,
				[generated.shipment, container, createdEvent],
				at,
			);
		}
	}

	/** The sandbox's stand-in for asking the shipping line; null when the number is found. */
	private failureOf(number: string, scac: string, requestType: string): string | null {
		if (scac === 'TEST') return number === TEST_SUCCEEDED ? null : 'not_found';
		if (number === TEST_SUCCEEDED || number === TEST_FAILED) return 'not_found';
		if (requestType === 'container') {
			const shape = /^[A-Z]{3}[UJZ]\d{7}$/.test(number);
			if (!shape) return 'invalid_number';
		}
		return null;
	}

	// ---------------------------------------------------------------- journeys

	private startJourney(plan: ContainerPlan, at: number): void {
		const steps = planJourney(plan, at);
		const journey: ContainerJourney = { plan, steps, next: 0, generation: 0 };
		this.journeys.set(plan.containerId, journey);
		this.recordHistory(plan);
		this.scheduleNextNaturalStep(journey);
	}

	/** Events that happened before the service tracked the container (backdated history). */
	private recordHistory(plan: ContainerPlan): void {
		for (const event of plan.history) {
			this.addTransportEvent(plan, event.event, event.at, {
				place: event.place,
				dataSource: event.dataSource,
				withVessel: event.withVessel,
				createdAt: plan.trackedAt,
				notify: false,
			});
		}
	}

	private scheduleNextNaturalStep(journey: ContainerJourney): void {
		const step = journey.steps[journey.next];
		if (!step) return;
		const index = journey.next;
		const generation = journey.generation;
		this.scheduler.schedule(step.at, (at) => {
			// A scenario may already have played this step, or its time moved (moveArrival).
			if (journey.next !== index || journey.generation !== generation) return;
			this.runStep(journey, at);
			this.scheduleNextNaturalStep(journey);
		});
	}

	private runStep(journey: ContainerJourney, at: number): void {
		const step = journey.steps[journey.next];
		journey.next += 1;
		step.apply(this.stepContext(journey.plan, at));
	}

	/**
	 * Plays a container's natural journey from `startAt` (sandbox time, default now), one step every
	 * `gapMs` of sandbox time (each stamped with the time it is played at): all the rest of it, or
	 * up to and including its next step named `untilStep` (none when that already happened), after
	 * which the rest follows at its own times. Returns the number of steps played.
	 */
	playJourney(
		containerId: string,
		gapMs: number,
		untilStep?: string,
		startAt = this.clock.now(),
	): number {
		const journey = this.requireJourney(containerId);
		const last =
			untilStep === undefined
				? journey.steps.length - 1
				: journey.steps.findIndex(
						(step, index) => index >= journey.next && step.name === untilStep,
					);
		if (last < journey.next) return 0;
		for (let index = journey.next; index <= last; index++) {
			const offset = index - journey.next;
			this.scheduler.schedule(startAt + offset * gapMs, (at) => {
				if (journey.next !== index) return;
				this.runStep(journey, at);
				if (index === last) this.scheduleNextNaturalStep(journey);
			});
		}
		return last - journey.next + 1;
	}

	remainingSteps(containerId: string): string[] {
		const journey = this.requireJourney(containerId);
		return journey.steps.slice(journey.next).map((step) => step.name);
	}

	private requireJourney(containerId: string): ContainerJourney {
		const journey = this.journeys.get(containerId);
		if (!journey) throw notFound();
		return journey;
	}

	journeyPlanOf(containerId: string): ContainerPlan | undefined {
		return this.journeys.get(containerId)?.plan;
	}

	/** What a journey step may do to the world. */
	stepContext(plan: ContainerPlan, at: number): StepContext {
		return {
			at,
			plan,
			container: () => this.requireContainer(plan.containerId),
			change: (mutate) => this.changeContainer(plan.containerId, at, mutate),
			updateShipment: (patch) => {
				const shipment = this.store.get('shipment', plan.shipmentId);
				if (!shipment) return;
				const values = typeof patch === 'function' ? patch(shipment.attributes) : patch;
				shipment.attributes = { ...shipment.attributes, ...values };
			},
			transportEvent: (event, options) => this.addTransportEvent(plan, event, at, options),
			reviseArrival: (newEta) => this.reviseArrival(plan, newEta, at),
		};
	}

	// ---------------------------------------------------------------- containers

	/**
	 * `PATCH /shipments/{id}/stop_tracking` and `resume_tracking`: a stopped shipment gets no more
	 * updates, and neither do its containers: their notifications are not sent (`emit`).
	 */
	setShipmentTracking(id: string, tracking: boolean): Resource {
		const shipment = this.store.get('shipment', id);
		if (!shipment) throw notFound();
		const now = isoTimestamp(this.clock.now());
		shipment.attributes = {
			...shipment.attributes,
			line_tracking_stopped_at: tracking ? null : now,
			line_tracking_stopped_reason: tracking ? null : 'cancelled_by_user',
			updated_at: now,
		};
		return shipment;
	}

	/** Whether the shipment a record belongs to has stopped tracking. */
	private trackingStopped(record: Resource): boolean {
		const shipmentId =
			record.type === 'shipment'
				? record.id
				: ((record.relationships?.shipment?.data as { id?: string } | null | undefined)?.id ??
					(record.relationships?.tracked_object?.data as { id?: string } | null | undefined)?.id);
		const shipment = shipmentId ? this.store.get('shipment', shipmentId) : undefined;
		return Boolean(shipment?.attributes.line_tracking_stopped_at);
	}

	/**
	 * `PATCH /containers/{id}/refresh`: the line, the terminal and the rail are read again now
	 * (`terminal_checked_at`); what changed arrives later, as notifications.
	 */
	refreshContainer(id: string): { message: string } {
		if (!this.options.containerRefresh) {
			throw new ApiError(403, [
				{
					status: '403',
					title: 'API access not enabled',
					detail: 'The container refresh endpoint is not enabled for this account',
				},
			]);
		}
		const container = this.requireContainer(id);
		container.attributes = {
			...container.attributes,
			terminal_checked_at: isoTimestamp(this.clock.now()),
		};
		return { message: 'Started refresh for Shipping line, Terminal, Rail' };
	}

	/**
	 * The terminal stops being read (its feed is down, or it dropped the box from its list): the
	 * container keeps what it last said, last checked `days` days ago, and nothing is notified.
	 * The next change or refresh reads it again.
	 */
	leaveTerminalUnchecked(id: string, days: number): { terminal_checked_at: string } {
		const container = this.requireContainer(id);
		const terminal_checked_at = isoTimestamp(this.clock.now() - days * 86_400_000);
		container.attributes = { ...container.attributes, terminal_checked_at };
		return { terminal_checked_at };
	}

	/**
	 * What a user sets on a shipment at the service: its customer, reference numbers and tags (each
	 * left as it is when not given). Nothing is notified: the service sends no event for these.
	 */
	setShipmentOwner(
		id: string,
		owner: { customer_name?: string | null; ref_numbers?: string[]; tags?: string[] },
	): Resource {
		const shipment = this.store.get('shipment', id);
		if (!shipment) throw notFound();
		shipment.attributes = { ...shipment.attributes, ...owner };
		return shipment;
	}

	requireContainer(id: string): Resource {
		const container = this.store.get('container', id);
		if (!container) throw notFound();
		return container;
	}

	/**
	 * Applies `mutate` to a copy of the container's attributes, stores the result, and sends
	 * `container.updated` (with the real before and after values) and deadline notifications.
	 */
	changeContainer(
		containerId: string,
		at: number,
		mutate: (attributes: ContainerAttributes) => ContainerAttributes | void,
	): Record<string, [unknown, unknown]> {
		const container = this.requireContainer(containerId);
		const before = copy(container.attributes) as ContainerAttributes;
		const draft = copy(container.attributes) as ContainerAttributes;
		const after = (mutate(draft) ?? draft) as ContainerAttributes;
		after.pickup_lfd = coalescedLastFreeDay(after);
		after.terminal_checked_at = isoTimestamp(at);
		const journey = this.journeys.get(containerId);
		if (journey) this.accrueDemurrage(journey, before, after, at);
		container.attributes = after;

		const plan = journey?.plan;
		const changeset = buildChangeset(before, after);
		if (Object.keys(changeset).length > 0) this.sendContainerUpdated(container, changeset, at);
		for (const event of changedDeadlineEvents(before, after)) {
			if (plan)
				this.addTransportEvent(plan, event, at, { place: 'facility', dataSource: 'terminal' });
		}
		return changeset;
	}

	/**
	 * Demurrage accrues by the day once the last free day is over, while the box waits where it
	 * is picked up (up to the moment it leaves): the plan's daily rate times the calendar days
	 * past the last free day, where the box is. A check is armed for the next day's charge.
	 */
	private accrueDemurrage(
		journey: ContainerJourney,
		before: ContainerAttributes,
		after: ContainerAttributes,
		at: number,
	): void {
		const inland = journey.plan.inland !== null;
		if (!waitsForPickup(before, inland) && !waitsForPickup(after, inland)) return;
		const zone = lastFreeDayZone(after);
		const days = daysPastLastFreeDay(after.pickup_lfd, at, zone);
		const owed = after.fees_at_pod_terminal.find((fee) => fee.type === 'demurrage');
		if (days >= 1) {
			const amount = journey.plan.demurragePerDay * days;
			if (owed?.amount !== amount) {
				after.fees_at_pod_terminal = withFee(after.fees_at_pod_terminal, {
					type: 'demurrage',
					amount,
					currency_code: 'USD',
				});
			}
		} else if (owed && before.pickup_lfd !== after.pickup_lfd) {
			// The last free day moved past today: the days charged are waived.
			after.fees_at_pod_terminal = withoutFee(after.fees_at_pod_terminal, 'demurrage');
		}
		if (!waitsForPickup(after, inland) || typeof after.pickup_lfd !== 'string') return;
		const next = DateTime.fromISO(after.pickup_lfd, { zone })
			.startOf('day')
			.plus({ days: days + 1, hours: 2 })
			.toMillis();
		if (journey.accrualAt === next || next <= at) return;
		journey.accrualAt = next;
		this.scheduler.schedule(next, (tickAt) => {
			if (journey.accrualAt !== next) return;
			journey.accrualAt = undefined;
			const { attributes } = this.requireContainer(journey.plan.containerId);
			if (!waitsForPickup(attributes, inland)) return;
			this.changeContainer(journey.plan.containerId, tickAt, () => undefined);
		});
	}

	private sendContainerUpdated(
		container: Resource,
		changeset: Record<string, [unknown, unknown]>,
		at: number,
		onlyWithDrift = false,
	): void {
		const shipment = this.store.related(container, 'shipment')[0];
		const plan = this.journeys.get(container.id)?.plan;
		const facility = plan
			? this.currentFacility(plan)
			: this.store.related(container, 'pod_terminal')[0];
		const updatedEvent = this.store.put({
			id: randomUuid(),
			type: 'container_updated_event',
			attributes: {
				changeset,
				timestamp: isoTimestamp(at),
				data_source: 'terminal',
				timezone: plan ? this.currentTimezone(plan) : (container.attributes.pod_timezone ?? null),
			},
			relationships: {
				container: relationshipTo(container),
				terminal: relationshipTo(facility),
				shipment: relationshipTo(shipment),
			},
		});
		// The facility's place: a port terminal's port, or a rail terminal's metro area (its port is null).
		const place = facility
			? this.store.related(facility, facility.type === 'rail_terminal' ? 'metro_area' : 'port')[0]
			: undefined;
		this.emit(
			'container.updated',
			updatedEvent,
			compact([shipment, place, facility, container, updatedEvent]),
			at,
			onlyWithDrift,
		);
	}

	/** Where the container is handled now: the port terminal, or the rail terminal once inland. */
	private currentFacility(plan: ContainerPlan): Resource | undefined {
		const container = this.store.get('container', plan.containerId);
		const inland = plan.inland && container?.attributes.ind_ata_at;
		return this.store.find(inland ? ref(plan.inland!.railTerminal) : ref(plan.podTerminal));
	}

	private currentTimezone(plan: ContainerPlan): string {
		const container = this.store.get('container', plan.containerId);
		return plan.inland && container?.attributes.ind_ata_at
			? String(plan.inland.metro.attributes.time_zone)
			: String(plan.pod.attributes.time_zone);
	}

	// ---------------------------------------------------------------- transport events

	private addTransportEvent(
		plan: ContainerPlan,
		event: string,
		at: number,
		options: TransportEventOptions,
	): Resource {
		const container = this.requireContainer(plan.containerId);
		const where = this.placeOf(plan, options.place);
		const estimated = event.includes('.estimated.');
		const transportEvent = this.store.put({
			id: randomUuid(),
			type: 'transport_event',
			attributes: {
				event,
				voyage_number: options.withVessel ? plan.voyageNumber : null,
				timestamp: options.timestamp === undefined ? isoTimestamp(at) : options.timestamp,
				timezone: where.timezone,
				location_locode: where.locode,
				created_at: isoTimestamp(options.createdAt ?? at),
				data_source: options.dataSource,
			},
			relationships: {
				shipment: { data: { id: plan.shipmentId, type: 'shipment' } },
				container: relationshipTo(container),
				vessel: relationshipTo(options.withVessel ? plan.vessel : null),
				location: relationshipTo(where.location),
				terminal: relationshipTo(where.terminal),
			},
		});
		// The history holds past events only: estimated ones are served as raw events.
		if (!estimated) {
			const history = container.relationships!.transport_events.data as Array<{
				id: string;
				type: string;
			}>;
			history.push(ref(transportEvent));
		}
		if (options.notify !== false) {
			const included = estimated
				? [withoutRelationships(transportEvent)]
				: compact([
						this.store.get('shipment', plan.shipmentId),
						container,
						this.store.find(where.location),
						this.store.find(where.terminal),
						options.withVessel ? this.store.find(ref(plan.vessel)) : undefined,
						transportEvent,
					]);
			this.emit(event, transportEvent, REFERENCE_ONLY_EVENTS.has(event) ? undefined : included, at);
		}
		return transportEvent;
	}

	private placeOf(
		plan: ContainerPlan,
		place: Place,
	): {
		location: Resource | null;
		terminal: Resource | null;
		locode: string | null;
		timezone: string | null;
	} {
		const facility = place === 'facility' ? (this.currentFacility(plan) ?? plan.podTerminal) : null;
		if (place === 'pol') return portPlace(plan.pol, null);
		if (place === 'pod' || (facility && facility.type === 'terminal'))
			return portPlace(plan.pod, plan.podTerminal);
		if (place === 'destination' && plan.inland)
			return metroPlace(plan.inland.metro, plan.inland.railTerminal);
		if (place === 'interchange' && plan.inland?.interchange) {
			return metroPlace(plan.inland.interchange.metro, plan.inland.interchange.railTerminal);
		}
		if (plan.inland) return metroPlace(plan.inland.metro, plan.inland.railTerminal);
		return portPlace(plan.pod, plan.podTerminal);
	}

	/**
	 * `shipment.estimated.arrival` (an `estimated_event`: the published example carries no previous
	 * estimate, so neither does this) and one `container.transport.estimated.vessel_arrived` per
	 * container of the shipment (the transport event alone, as the published example sends it).
	 */
	private sendEstimatedArrival(shipment: Resource, plans: ContainerPlan[], at: number): void {
		const plan = plans[0];
		const newEta = String(shipment.attributes.pod_eta_at);
		const estimatedEvent = this.store.put({
			id: randomUuid(),
			type: 'estimated_event',
			attributes: {
				created_at: isoTimestamp(at),
				estimated_timestamp: newEta,
				voyage_number: plan.voyageNumber,
				event: 'shipment.estimated.arrival',
				location_locode: plan.pod.attributes.code,
				timezone: plan.pod.attributes.time_zone,
				data_source: 'shipping_line',
			},
			relationships: {
				shipment: relationshipTo(shipment),
				port: relationshipTo(plan.pod),
				vessel: relationshipTo(plan.vessel),
			},
		});
		this.emit(
			'shipment.estimated.arrival',
			estimatedEvent,
			[shipment, plan.pod, estimatedEvent],
			at,
		);
		for (const each of plans)
			this.addTransportEvent(each, 'container.transport.estimated.vessel_arrived', at, {
				place: 'pod',
				dataSource: 'shipping_line',
				withVessel: true,
				timestamp: newEta,
			});
	}

	/** The journeys of a shipment's containers. */
	private journeysOf(shipmentId: string): ContainerJourney[] {
		return [...this.journeys.values()].filter((journey) => journey.plan.shipmentId === shipmentId);
	}

	/** The journey's steps still to come happen `deltaMs` later (earlier when negative). */
	private shiftJourney(journey: ContainerJourney, deltaMs: number): void {
		for (const step of journey.steps.slice(journey.next)) step.at += deltaMs;
		journey.generation += 1;
		this.scheduleNextNaturalStep(journey);
	}

	private reviseArrival(plan: ContainerPlan, newEta: string, at: number): void {
		const shipment = this.store.get('shipment', plan.shipmentId);
		if (!shipment || shipment.attributes.pod_ata_at || this.revisedArrivals.has(shipment.id))
			return;
		this.revisedArrivals.add(shipment.id);
		const old = shipment.attributes.pod_eta_at;
		shipment.attributes = { ...shipment.attributes, pod_eta_at: newEta };
		const journeys = this.journeysOf(shipment.id);
		this.sendEstimatedArrival(
			shipment,
			journeys.map((journey) => journey.plan),
			at,
		);
		this.sendEtaChangesWithDrift(journeys, old, newEta, at);
	}

	/**
	 * Real accounts also send the shipment's new `pod_eta_at` as a change of each container
	 * (`container.updated`), which the interface does not list: sent with drift on, for the
	 * containers of drift's subset (sandbox/drift.ts, `container.pod_eta_at_change`).
	 */
	private sendEtaChangesWithDrift(
		journeys: ContainerJourney[],
		old: unknown,
		newEta: string,
		at: number,
	): void {
		for (const journey of journeys) {
			const container = this.store.get('container', journey.plan.containerId);
			if (!container || !inDriftSubset('container.pod_eta_at_change', container)) continue;
			this.sendContainerUpdated(container, { pod_eta_at: [old, newEta] }, at, true);
		}
	}

	/**
	 * The line (port) or the rail carrier (inland) moves its estimated arrival by `deltaMs`, as
	 * the service reports it (docs/sandbox.md, "Moving an arrival"):
	 * - `port`: the shipment's `pod_eta_at` (and `destination_eta_at`, when the line gave one),
	 *   `shipment.estimated.arrival`, and one `container.transport.estimated.vessel_arrived` per
	 *   container; the rest of each container's journey moves with it;
	 * - `inland`: each container on its way inland with an estimate: `ind_eta_at`
	 *   (`container.updated`) and `container.transport.estimated.arrived_at_inland_destination`;
	 *   the shipment's `destination_eta_at` moves too.
	 * Without `arrival`: the port while the vessel is at sea, else inland. 409 when that arrival
	 * has happened, or when the new estimate would be in the past.
	 */
	arrivalMovesOf(shipmentId: string): number {
		return this.arrivalMoves.get(shipmentId) ?? 0;
	}

	moveArrival(shipmentId: string, deltaMs: number, arrival?: ArrivalKind): ArrivalMove {
		const shipment = this.store.get('shipment', shipmentId);
		if (!shipment) throw notFound();
		if (!Number.isFinite(deltaMs) || deltaMs === 0)
			throw unprocessable('the move must be a number of hours other than 0', '/hours', 'invalid');
		const at = this.clock.now();
		const bl = String(shipment.attributes.bill_of_lading_number);
		const kind: ArrivalKind = arrival ?? (shipment.attributes.pod_ata_at ? 'inland' : 'port');
		const later = (value: unknown) => isoTimestamp(Date.parse(String(value)) + deltaMs);
		const journeys = this.journeysOf(shipmentId);
		const move: ArrivalMove = {
			shipment_id: shipmentId,
			arrival: kind,
			moved_hours: deltaMs / 3_600_000,
			containers: [],
		};
		const destination = () => {
			const { destination_eta_at: old, destination_ata_at: actual } = shipment.attributes;
			if (typeof old !== 'string' || actual) return {};
			move.destination_eta_at = [old, later(old)];
			return { destination_eta_at: later(old) };
		};
		if (kind === 'port') {
			const old = shipment.attributes.pod_eta_at;
			if (shipment.attributes.pod_ata_at)
				throw conflict(`the vessel of shipment ${bl} has arrived: its ETA cannot move`, {
					pointer: '/arrival',
				});
			if (typeof old !== 'string' || Date.parse(later(old)) <= at)
				throw conflict(`the new ETA of shipment ${bl} would not be in the future`, {
					pointer: '/hours',
				});
			this.revisedArrivals.add(shipmentId);
			this.arrivalMoves.set(shipmentId, this.arrivalMovesOf(shipmentId) + 1);
			move.pod_eta_at = [old, later(old)];
			shipment.attributes = { ...shipment.attributes, pod_eta_at: later(old), ...destination() };
			this.sendEstimatedArrival(
				shipment,
				journeys.map((journey) => journey.plan),
				at,
			);
			this.sendEtaChangesWithDrift(journeys, old, later(old), at);
			for (const journey of journeys) {
				this.shiftJourney(journey, deltaMs);
				move.containers.push({
					id: journey.plan.containerId,
					number: String(this.requireContainer(journey.plan.containerId).attributes.number),
				});
			}
			return move;
		}
		const inland = journeys.filter((journey) => {
			const attributes = this.store.get('container', journey.plan.containerId)?.attributes;
			return (
				journey.plan.inland &&
				typeof attributes?.ind_eta_at === 'string' &&
				!attributes.ind_ata_at &&
				Date.parse(later(attributes.ind_eta_at)) > at
			);
		});
		if (inland.length === 0)
			throw conflict(
				`no container of shipment ${bl} is on its way inland with an estimate that can move there`,
				{ pointer: '/arrival' },
			);
		this.arrivalMoves.set(shipmentId, this.arrivalMovesOf(shipmentId) + 1);
		shipment.attributes = { ...shipment.attributes, ...destination() };
		for (const journey of inland) {
			const changeset = this.changeContainer(journey.plan.containerId, at, (attributes) => {
				attributes.ind_eta_at = later(attributes.ind_eta_at);
			});
			const eta = changeset.ind_eta_at as [unknown, string];
			this.addTransportEvent(
				journey.plan,
				'container.transport.estimated.arrived_at_inland_destination',
				at,
				{ place: 'destination', dataSource: 'terminal', timestamp: eta[1] },
			);
			this.shiftJourney(journey, deltaMs);
			move.containers.push({
				id: journey.plan.containerId,
				number: String(this.requireContainer(journey.plan.containerId).attributes.number),
				ind_eta_at: eta,
			});
		}
		return move;
	}

	// ---------------------------------------------------------------- webhooks

	validateWebhookAttributes(
		attributes: Record<string, unknown>,
		partial: boolean,
	): Record<string, unknown> {
		const errors = new ValidationErrors();
		const accepted: Record<string, unknown> = {};
		if ('url' in attributes || !partial) {
			const url = attributes.url;
			if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(url)) {
				errors.add('Url must be a valid http or https URL', '/data/attributes/url', 'invalid');
			} else accepted.url = url;
		}
		if ('events' in attributes || !partial) {
			const events = attributes.events;
			if (!Array.isArray(events) || events.length === 0) {
				errors.add("Events can't be blank", '/data/attributes/events', 'blank');
			} else {
				const unknown = events.filter(
					(event) => typeof event !== 'string' || !EVENT_NAMES.includes(event),
				);
				if (unknown.length > 0) {
					errors.add(
						`Events ${unknown.map(String).join(', ')} are not valid event names`,
						'/data/attributes/events',
						'inclusion',
					);
				} else accepted.events = [...new Set(events as string[])];
			}
		}
		if ('active' in attributes) {
			if (typeof attributes.active !== 'boolean') {
				errors.add('Active must be true or false', '/data/attributes/active', 'invalid');
			} else accepted.active = attributes.active;
		} else if (!partial) accepted.active = true;
		if ('headers' in attributes) {
			const headers = attributes.headers;
			const valid =
				headers === null ||
				(Array.isArray(headers) &&
					headers.every(
						(header) =>
							typeof header === 'object' &&
							header !== null &&
							typeof (header as Record<string, unknown>).name === 'string' &&
							typeof (header as Record<string, unknown>).value === 'string',
					));
			if (!valid)
				errors.add(
					'Headers must be null or a list of {name, value}',
					'/data/attributes/headers',
					'invalid',
				);
			else accepted.headers = headers;
		}
		errors.throwIfAny();
		const events = (accepted.events as string[] | undefined) ?? [];
		const needsRailPlan = events.filter((event) => RAIL_PLAN_EVENTS.includes(event));
		if (!this.options.railPlan && needsRailPlan.length > 0) {
			throw new ApiError(403, [
				{
					status: '403',
					title: 'Forbidden',
					detail: `${needsRailPlan.join(', ')} requires the Rail Plan entitlement`,
					code: 'entitlement_required',
					source: { pointer: '/data/attributes/events' },
				},
			]);
		}
		return accepted;
	}

	// ---------------------------------------------------------------- notifications

	private emit(
		event: string,
		reference: Resource,
		included: Resource[] | undefined,
		at: number,
		onlyWithDrift = false,
	): void {
		if (this.trackingStopped(reference)) return;
		this.notify({
			id: randomUuid(),
			event,
			reference: copy(reference),
			included: included?.map((record) => copy(record)),
			createdAt: isoTimestamp(at),
			...(onlyWithDrift ? { onlyWithDrift } : {}),
		});
	}
}

/** Where an event happens: port of lading or discharge, where the box is now, a rail interchange, the inland destination. */
export type Place = 'pol' | 'pod' | 'facility' | 'interchange' | 'destination';

export interface TransportEventOptions {
	place: Place;
	dataSource: 'shipping_line' | 'terminal' | 'ais';
	withVessel?: boolean;
	/** The event's own time when it differs from when it was seen (null for unknown). */
	timestamp?: string | null;
	createdAt?: number;
	notify?: boolean;
}

export interface StepContext {
	at: number;
	plan: ContainerPlan;
	container(): Resource;
	change(
		mutate: (attributes: ContainerAttributes) => ContainerAttributes | void,
	): Record<string, [unknown, unknown]>;
	/** Merges a patch into the shipment's attributes (or the patch worked out from them). */
	updateShipment(
		patch:
			| Record<string, unknown>
			| ((attributes: Record<string, unknown>) => Record<string, unknown>),
	): void;
	transportEvent(event: string, options: TransportEventOptions): Resource;
	/**
	 * The line revises the vessel's estimated arrival to `newEta`: once per shipment, and not
	 * once the vessel is in or the estimate was moved on demand.
	 */
	reviseArrival(newEta: string): void;
}

function compact(records: Array<Resource | undefined | null>): Resource[] {
	return records.filter((record): record is Resource => Boolean(record));
}

function withoutRelationships(resource: Resource): Resource {
	return { id: resource.id, type: resource.type, attributes: resource.attributes };
}

function portPlace(port: Resource, terminal: Resource | null) {
	return {
		location: port,
		terminal,
		locode: String(port.attributes.code),
		timezone: String(port.attributes.time_zone),
	};
}

function metroPlace(metro: Resource, railTerminal: Resource) {
	return {
		location: metro,
		terminal: railTerminal,
		locode: String(metro.attributes.code),
		timezone: String(metro.attributes.time_zone),
	};
}

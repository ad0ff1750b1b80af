/**
 * The control API under /_sandbox/ (same API key as the service): move the clock, play a
 * scenario or emit one change for a container, track many containers or play a scenario on many
 * at once (sandbox/bulk.ts), inject faults (counted or at a rate, before or after the request is
 * processed), take the service down for a while (an outage), switch drift on and off, read the
 * delivery log and the calls made to the API (sandbox/http/requestStats.ts), and set how webhooks
 * are served (retry base, delivery timeout, deactivation after failures, logging while inactive).
 */
import type { DriftSwitch } from './drift';
import { badRequest, conflict, unprocessable, type ApiAnswer } from './http/jsonApi';
import {
	BEFORE_ONLY_FAULT_KINDS,
	FAULT_KINDS,
	FAULT_TIMINGS,
	defaultTiming,
	type FaultInjector,
	type FaultKind,
	type FaultTiming,
} from './http/faults';
import { OUTAGE_KINDS, outageKind, type Outage, type OutageSpec } from './http/outage';
import type { WebhookDispatcher } from './webhooks/delivery';
import {
	withFee,
	withHold,
	withoutFee,
	withoutHold,
	type ContainerAttributes,
} from './world/containerChanges';
import { bulkHandlers } from './bulk';
import { DemoDirector } from './demo';
import { DEMO_TARIFF } from './demoTariff';
import type { RequestStats } from './http/requestStats';
import { playScenario } from './scenarios';
import { describePhase, hasLeft } from './world/phase';
import { DAY, HOUR, isoTimestamp, parseLastFreeDay } from './world/time';
import type { World } from './world/world';

export interface ControlRequest {
	method: string;
	params: Record<string, string>;
	query: URLSearchParams;
	body: unknown;
}

export interface ControlRoute {
	method: string;
	pattern: string;
	handle(request: ControlRequest): ApiAnswer | Promise<ApiAnswer>;
}

type Change = (attributes: ContainerAttributes) => void;

const HOLD_NAMES = ['freight', 'customs', 'USDA', 'VACIS', 'TMF', 'other'];
const FEE_TYPES = ['demurrage', 'exam', 'extended_dwell_time', 'other', 'total'];
const DEADLINE_SOURCES: Record<string, string> = {
	line: 'pickup_lfd_line',
	terminal: 'pickup_lfd_terminal',
	rail: 'pickup_lfd_rail',
};

function field<T>(body: unknown, name: string): T | undefined {
	return (body as Record<string, unknown> | null | undefined)?.[name] as T | undefined;
}

/**
 * A `PATCH /_sandbox/shipments/:id` body: any of `customer_name` (text or null), `ref_numbers` and
 * `tags` (lists of text), as a user sets them at the service.
 */
function shipmentOwner(body: unknown): {
	customer_name?: string | null;
	ref_numbers?: string[];
	tags?: string[];
} {
	const owner: { customer_name?: string | null; ref_numbers?: string[]; tags?: string[] } = {};
	const customer = field<unknown>(body, 'customer_name');
	if (customer !== undefined) {
		if (customer !== null && typeof customer !== 'string')
			throw unprocessable('customer_name must be text or null', '/customer_name', 'invalid');
		owner.customer_name = customer;
	}
	for (const name of ['ref_numbers', 'tags'] as const) {
		const list = field<unknown>(body, name);
		if (list === undefined) continue;
		if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string'))
			throw unprocessable(`${name} must be a list of text`, `/${name}`, 'invalid');
		owner[name] = list as string[];
	}
	if (Object.keys(owner).length === 0)
		throw unprocessable('give customer_name, ref_numbers or tags', '', 'invalid');
	return owner;
}

function oneOf(value: unknown, allowed: readonly string[], name: string): string {
	if (typeof value !== 'string' || !allowed.includes(value)) {
		throw badRequest(
			`${name} must be one of ${allowed.join(', ')}`,
			{ pointer: `/${name}` },
			'invalid',
		);
	}
	return value;
}

/**
 * One change, as the terminal or line would report it. Each returns the mutation applied
 * through the world, so that changesets and notifications come from real before/after values.
 */
export function changeFromBody(world: World, containerId: string, body: unknown): Change {
	const kind = oneOf(
		field(body, 'kind'),
		[
			'place_hold',
			'activate_hold',
			'clear_hold',
			'post_fee',
			'remove_fee',
			'set_last_free_day',
			'set_availability',
			'set_pickup_appointment',
		],
		'kind',
	);
	const description = field<string | null>(body, 'description') ?? null;
	switch (kind) {
		case 'place_hold': {
			const name = oneOf(field(body, 'name'), HOLD_NAMES, 'name');
			const status = oneOf(field(body, 'status') ?? 'hold', ['hold', 'pending'], 'status') as
				| 'hold'
				| 'pending';
			return (attributes) => {
				attributes.holds_at_pod_terminal = withHold(attributes.holds_at_pod_terminal, {
					name,
					status,
					description,
				});
			};
		}
		case 'activate_hold': {
			const name = oneOf(field(body, 'name'), HOLD_NAMES, 'name');
			return (attributes) => {
				const existing = attributes.holds_at_pod_terminal.find(
					(hold) => hold.name === name && (name !== 'other' || hold.description === description),
				);
				attributes.holds_at_pod_terminal = withHold(attributes.holds_at_pod_terminal, {
					name,
					status: 'hold',
					description: existing?.description ?? description,
				});
			};
		}
		case 'clear_hold': {
			const name = oneOf(field(body, 'name'), HOLD_NAMES, 'name');
			return (attributes) => {
				attributes.holds_at_pod_terminal = withoutHold(attributes.holds_at_pod_terminal, {
					name,
					description,
				});
			};
		}
		case 'post_fee': {
			const type = oneOf(
				field(body, 'type'),
				FEE_TYPES.filter((fee) => fee !== 'total'),
				'type',
			);
			const amount = field<number>(body, 'amount');
			if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
				throw badRequest(
					'amount must be a number of at least 0',
					{ pointer: '/amount' },
					'invalid',
				);
			}
			const currency = field<string>(body, 'currency_code') ?? 'USD';
			return (attributes) => {
				attributes.fees_at_pod_terminal = withFee(attributes.fees_at_pod_terminal, {
					type,
					amount,
					currency_code: currency,
				});
			};
		}
		case 'remove_fee': {
			const type = oneOf(field(body, 'type'), FEE_TYPES, 'type');
			return (attributes) => {
				attributes.fees_at_pod_terminal = withoutFee(attributes.fees_at_pod_terminal, type);
			};
		}
		case 'set_last_free_day': {
			const source = oneOf(field(body, 'source'), Object.keys(DEADLINE_SOURCES), 'source');
			const raw = field<string | null>(body, 'date');
			const container = world.requireContainer(containerId);
			const zone = String(
				source === 'rail'
					? container.attributes.final_destination_timezone
					: container.attributes.pod_timezone,
			);
			const value = raw === null || raw === undefined ? null : parseLastFreeDay(String(raw), zone);
			if (raw && value === null) {
				throw badRequest(
					'date must be YYYY-MM-DD or an ISO 8601 timestamp',
					{ pointer: '/date' },
					'invalid',
				);
			}
			return (attributes) => {
				attributes.import_deadlines = {
					pickup_lfd_terminal: null,
					pickup_lfd_rail: null,
					pickup_lfd_line: null,
					...attributes.import_deadlines,
					[DEADLINE_SOURCES[source]]: value,
				};
			};
		}
		case 'set_pickup_appointment': {
			const raw = field<string | null>(body, 'at');
			const value = raw ? isoTimestamp(Date.parse(raw)) : null;
			return (attributes) => {
				attributes.pickup_appointment_at = value;
			};
		}
		default: {
			const available = field<boolean | null>(body, 'available');
			if (available !== null && typeof available !== 'boolean') {
				throw badRequest(
					'available must be true, false or null',
					{ pointer: '/available' },
					'invalid',
				);
			}
			return (attributes) => {
				attributes.availability_known = available !== null;
				attributes.available_for_pickup = available;
				if (available === true) attributes.current_status = 'available';
				if (available === false) attributes.current_status = 'not_available';
			};
		}
	}
}

/**
 * Once the box has left (full out, or its empty returned), no hold can be placed or activated
 * and it cannot become available: 409, naming its state.
 */
function refuseOnGoneBox(attributes: Record<string, unknown>, body: unknown): void {
	const kind = field<string>(body, 'kind');
	const starts =
		kind === 'place_hold' ||
		kind === 'activate_hold' ||
		(kind === 'set_availability' && field(body, 'available') === true);
	if (!starts || !hasLeft(attributes)) return;
	throw conflict(
		`${kind} cannot happen on container ${String(attributes.number)}: it is ${describePhase(attributes)}`,
		{ pointer: '/kind' },
	);
}

function durationMs(body: unknown): number {
	const parts: Record<string, number> = {
		days: DAY,
		hours: HOUR,
		minutes: 60_000,
		seconds: 1000,
		milliseconds: 1,
	};
	let total = 0;
	let named = false;
	for (const [name, unit] of Object.entries(parts)) {
		const value = field<number>(body, name);
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
			throw badRequest(
				`${name} must be a number of at least 0`,
				{ pointer: `/${name}` },
				'invalid',
			);
		}
		total += value * unit;
		named = true;
	}
	if (!named)
		throw badRequest(
			'give days, hours, minutes, seconds or milliseconds',
			{ pointer: '/' },
			'blank',
		);
	return total;
}

/** How far an estimate moves: `hours` and/or `days`, either sign, not 0 in all. */
function signedDurationMs(body: unknown): number {
	let total = 0;
	for (const [name, unit] of [
		['days', DAY],
		['hours', HOUR],
	] as const) {
		const value = field<unknown>(body, name);
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isFinite(value))
			throw unprocessable(`${name} must be a number (negative: earlier)`, `/${name}`, 'invalid');
		total += value * unit;
	}
	if (total === 0)
		throw unprocessable('give hours or days to move the estimate by, not 0', '/hours', 'blank');
	return total;
}

/** `GET` and `PATCH /webhook_settings`: the delivery options, as the control API names them. */
function webhookSettingsBody(dispatcher: WebhookDispatcher): Record<string, unknown> {
	const options = dispatcher.options;
	return {
		retry_base_seconds: options.retryBaseMs / 1000,
		timeout_ms: options.timeoutMs,
		deactivate_after_failures: options.deactivateAfterFailures,
		log_while_inactive: options.logWhileInactive,
		log_order: options.logOldestFirst ? 'oldest_first' : 'newest_first',
	};
}

/**
 * Applies a `PATCH /webhook_settings` body, any subset of `retry_base_seconds` (sandbox seconds
 * before the first retry, at least 0), `timeout_ms` (real milliseconds a receiver has to answer,
 * at least 1), `deactivate_after_failures` (a whole number of at least 1, or null for never),
 * `log_while_inactive` (true or false) and `log_order` (`newest_first` or `oldest_first`). Every member is checked before any is applied; an
 * unknown member is refused, so that a misspelt setting cannot pass unnoticed.
 */
function applyWebhookSettings(dispatcher: WebhookDispatcher, body: unknown): void {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw unprocessable('the body must be an object of settings', '/', 'invalid');
	const settings = body as Record<string, unknown>;
	const known = Object.keys(webhookSettingsBody(dispatcher));
	const unknown = Object.keys(settings).filter((name) => !known.includes(name));
	if (unknown.length > 0)
		throw unprocessable(`unknown setting; use ${known.join(', ')}`, `/${unknown[0]}`, 'invalid');
	const number = (name: string, min: number) => {
		const value = settings[name];
		if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
			throw unprocessable(`${name} must be a number of at least ${min}`, `/${name}`, 'invalid');
		return value;
	};
	const { options } = dispatcher;
	const next = { ...options };
	if ('retry_base_seconds' in settings) next.retryBaseMs = number('retry_base_seconds', 0) * 1000;
	if ('timeout_ms' in settings) next.timeoutMs = number('timeout_ms', 1);
	if ('deactivate_after_failures' in settings) {
		const value = settings.deactivate_after_failures;
		if (value !== null && !(typeof value === 'number' && Number.isInteger(value) && value >= 1))
			throw unprocessable(
				'deactivate_after_failures must be a whole number of at least 1, or null',
				'/deactivate_after_failures',
				'invalid',
			);
		next.deactivateAfterFailures = value;
	}
	if ('log_order' in settings) {
		if (settings.log_order !== 'newest_first' && settings.log_order !== 'oldest_first')
			throw unprocessable(
				'log_order must be newest_first or oldest_first',
				'/log_order',
				'invalid',
			);
		next.logOldestFirst = settings.log_order === 'oldest_first';
	}
	if ('log_while_inactive' in settings) {
		if (typeof settings.log_while_inactive !== 'boolean')
			throw unprocessable(
				'log_while_inactive must be true or false',
				'/log_while_inactive',
				'invalid',
			);
		next.logWhileInactive = settings.log_while_inactive;
	}
	Object.assign(options, next);
}

/**
 * How much of the matching traffic a fault takes: the next `count` requests (default 1), or a
 * share `rate` from 0 to 1 of them until cleared; not both.
 */
function faultShare(body: unknown): { count: number; rate: number | null } {
	const count = field<unknown>(body, 'count') ?? undefined;
	const rate = field<unknown>(body, 'rate') ?? undefined;
	if (rate === undefined) {
		if (count !== undefined && (typeof count !== 'number' || !Number.isFinite(count)))
			throw unprocessable('count must be a number', '/count', 'invalid');
		return { count: Math.max(1, Math.floor((count as number | undefined) ?? 1)), rate: null };
	}
	if (count !== undefined) throw unprocessable('give count or rate, not both', '/rate', 'invalid');
	if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1)
		throw unprocessable('rate must be a number from 0 to 1', '/rate', 'invalid');
	return { count: 0, rate };
}

/** `before` or `after`; `rate_limited` and `slow` only happen before the request is processed. */
function faultTiming(body: unknown, kind: FaultKind): FaultTiming {
	const when = field<unknown>(body, 'when');
	if (when === undefined || when === null) return defaultTiming(kind);
	if (typeof when !== 'string' || !(FAULT_TIMINGS as readonly string[]).includes(when))
		throw unprocessable(`when must be one of ${FAULT_TIMINGS.join(', ')}`, '/when', 'invalid');
	if (when === 'after' && BEFORE_ONLY_FAULT_KINDS.includes(kind))
		throw unprocessable(
			`${kind} happens before the request is processed; when must be before`,
			'/when',
			'invalid',
		);
	return when as FaultTiming;
}

/**
 * A `POST /outage` body: `seconds` (real seconds, more than 0), `kind` (default `mix`; 500 and
 * 503 may be numbers) and `after_seconds` (real seconds before it starts, default 0). Anything
 * else is refused, so that a misspelt member cannot pass unnoticed.
 */
function outageSpec(body: unknown): OutageSpec {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw badRequest(
			'the body must be an object such as {"seconds": 30}',
			{ pointer: '/' },
			'invalid',
		);
	const members = body as Record<string, unknown>;
	const unknown = Object.keys(members).find(
		(name) => !['seconds', 'kind', 'after_seconds'].includes(name),
	);
	if (unknown !== undefined)
		throw badRequest(
			'unknown member; use seconds, kind, after_seconds',
			{ pointer: `/${unknown}` },
			'invalid',
		);
	const seconds = (name: string, min: number, exclusive: boolean) => {
		const value = members[name];
		if (
			typeof value !== 'number' ||
			!Number.isFinite(value) ||
			value < min ||
			(exclusive && value === min)
		)
			throw badRequest(
				`${name} must be a number of ${exclusive ? 'more than' : 'at least'} ${min}`,
				{ pointer: `/${name}` },
				'invalid',
			);
		return value;
	};
	const length = seconds('seconds', 0, true);
	const kind = members.kind === undefined ? undefined : outageKind(members.kind);
	if (members.kind !== undefined && kind === undefined)
		throw badRequest(
			`kind must be one of ${OUTAGE_KINDS.join(', ')}`,
			{ pointer: '/kind' },
			'invalid',
		);
	return {
		seconds: length,
		kind,
		afterSeconds: members.after_seconds === undefined ? 0 : seconds('after_seconds', 0, false),
	};
}

export function controlRoutes(
	world: World,
	faults: FaultInjector,
	dispatcher: WebhookDispatcher,
	defaults: { scenarioGapMs: number },
	drift: DriftSwitch,
	outage: Outage,
	stats: RequestStats,
): ControlRoute[] {
	const director = new DemoDirector(world);
	/** `gap_seconds` of a scenario's body: sandbox seconds between its steps. */
	const gapOf = (body: unknown) => {
		const gapSeconds = field<number>(body, 'gap_seconds');
		return typeof gapSeconds === 'number' && gapSeconds >= 0
			? gapSeconds * 1000
			: defaults.scenarioGapMs;
	};
	const clockBody = () => ({
		now: isoTimestamp(world.clock.now()),
		time_scale: world.clock.timeScale,
		pending_steps: world.scheduler.pending,
	});
	return [
		{ method: 'GET', pattern: '/clock', handle: () => ({ status: 200, body: clockBody() }) },
		{
			method: 'GET',
			pattern: '/tariff',
			handle: () => ({ status: 200, body: { data: DEMO_TARIFF } }),
		},
		{
			method: 'POST',
			pattern: '/clock/advance',
			handle: (request) => {
				world.clock.advance(durationMs(request.body));
				world.scheduler.runDue();
				return { status: 200, body: clockBody() };
			},
		},
		{
			method: 'GET',
			pattern: '/containers/:id/journey',
			handle: (request) => ({
				status: 200,
				body: { remaining_steps: world.remainingSteps(request.params.id) },
			}),
		},
		{
			method: 'POST',
			pattern: '/containers/:id/scenarios/:name',
			handle: (request) => {
				const { id, name } = request.params;
				world.requireContainer(id);
				const gapMs = gapOf(request.body);
				const steps = playScenario(world, id, name, gapMs);
				return { status: 202, body: { scenario: name, steps, gap_seconds: gapMs / 1000 } };
			},
		},
		{
			method: 'POST',
			pattern: '/demo/start',
			handle: () => ({
				status: 201,
				body: {
					tracking_requests: director.start().map((request) => ({
						id: request.id,
						request_number: request.attributes.request_number,
					})),
				},
			}),
		},
		{
			method: 'POST',
			pattern: '/demo/next',
			handle: (request) => {
				const gapMs = gapOf(request.body);
				return { status: 200, body: director.next(gapMs) };
			},
		},
		{
			method: 'POST',
			pattern: '/containers/:id/changes',
			handle: (request) => {
				const { id } = request.params;
				const container = world.requireContainer(id);
				const change = changeFromBody(world, id, request.body);
				refuseOnGoneBox(container.attributes, request.body);
				const changeset = world.changeContainer(id, world.clock.now(), change);
				return { status: 200, body: { changeset } };
			},
		},
		{
			method: 'POST',
			pattern: '/containers/:id/stale_terminal',
			handle: (request) => {
				const days = field<number>(request.body, 'days') ?? 8;
				if (typeof days !== 'number' || !Number.isFinite(days) || days < 0)
					throw unprocessable('days must be a number of days, 0 or more', '/days', 'invalid');
				return {
					status: 200,
					body: world.leaveTerminalUnchecked(request.params.id, days),
				};
			},
		},
		{
			method: 'PATCH',
			pattern: '/shipments/:id',
			handle: (request) => ({
				status: 200,
				body: { data: world.setShipmentOwner(request.params.id, shipmentOwner(request.body)) },
			}),
		},
		{
			// docs/sandbox.md, "Moving an arrival": `hours` or `days` (negative: earlier), `arrival`.
			method: 'POST',
			pattern: '/shipments/:id/eta',
			handle: (request) => {
				const arrival = field<unknown>(request.body, 'arrival');
				const kind =
					arrival === undefined
						? undefined
						: (oneOf(arrival, ['port', 'inland'], 'arrival') as 'port' | 'inland');
				return {
					status: 200,
					body: world.moveArrival(request.params.id, signedDurationMs(request.body), kind),
				};
			},
		},
		{
			method: 'POST',
			pattern: '/faults',
			handle: (request) => {
				const body = request.body;
				const path = field<string>(body, 'path');
				if (typeof path !== 'string' || !path.startsWith('/')) {
					throw badRequest(
						'path must be a path under /v2, such as /containers/*',
						{ pointer: '/path' },
						'invalid',
					);
				}
				const kind = oneOf(field(body, 'kind'), FAULT_KINDS, 'kind') as FaultKind;
				const method = field<string>(body, 'method');
				const { count, rate } = faultShare(body);
				const when = faultTiming(body, kind);
				const seed = field<unknown>(body, 'seed');
				if (seed !== undefined) {
					if (typeof seed !== 'string' && (typeof seed !== 'number' || !Number.isFinite(seed)))
						throw unprocessable('seed must be a string or a number', '/seed', 'invalid');
					faults.reseed(String(seed));
				}
				const fault = faults.add({
					path,
					kind,
					method: method ? method.toUpperCase() : null,
					when,
					remaining: rate === null ? count : null,
					rate,
					delayMs: field<number>(body, 'delay_ms') ?? 3000,
					retryAfterSeconds: field<number>(body, 'retry_after') ?? 1,
				});
				return { status: 201, body: { fault } };
			},
		},
		{
			method: 'GET',
			pattern: '/faults',
			handle: () => ({ status: 200, body: { faults: faults.list(), seed: faults.seed } }),
		},
		{
			method: 'DELETE',
			pattern: '/faults',
			handle: () => {
				faults.clear();
				return { status: 204 };
			},
		},
		{
			method: 'POST',
			pattern: '/outage',
			handle: (request) => ({ status: 201, body: outage.start(outageSpec(request.body)) }),
		},
		{ method: 'GET', pattern: '/outage', handle: () => ({ status: 200, body: outage.status() }) },
		{ method: 'DELETE', pattern: '/outage', handle: () => ({ status: 200, body: outage.end() }) },
		{
			method: 'GET',
			pattern: '/drift',
			handle: () => ({ status: 200, body: { enabled: drift.enabled } }),
		},
		{
			method: 'POST',
			pattern: '/drift',
			handle: (request) => {
				const enabled = field<unknown>(request.body, 'enabled');
				if (typeof enabled !== 'boolean')
					throw unprocessable('enabled must be true or false', '/enabled', 'invalid');
				drift.enabled = enabled;
				return { status: 200, body: { enabled: drift.enabled } };
			},
		},
		{
			method: 'GET',
			pattern: '/webhook_settings',
			handle: () => ({ status: 200, body: webhookSettingsBody(dispatcher) }),
		},
		{
			// Takes effect from the next attempt on: a retry already waiting keeps its time.
			method: 'PATCH',
			pattern: '/webhook_settings',
			handle: (request) => {
				applyWebhookSettings(dispatcher, request.body);
				return { status: 200, body: webhookSettingsBody(dispatcher) };
			},
		},
		{
			method: 'GET',
			pattern: '/deliveries',
			handle: (request) => {
				const event = request.query.get('event');
				const webhookId = request.query.get('webhook_id');
				const deliveries = dispatcher.log.filter(
					(entry) =>
						(!event || entry.event === event) && (!webhookId || entry.webhook_id === webhookId),
				);
				return { status: 200, body: { deliveries } };
			},
		},
		{
			method: 'DELETE',
			pattern: '/deliveries',
			handle: () => {
				dispatcher.log.length = 0;
				return { status: 204 };
			},
		},
		{
			method: 'POST',
			pattern: '/tracking_requests',
			handle: (request) => bulkHandlers.trackMany(world, request.body),
		},
		{
			method: 'POST',
			pattern: '/scenarios/:name',
			handle: (request) =>
				bulkHandlers.playOnMany(world, request.params.name, request.body, defaults.scenarioGapMs),
		},
		{
			// The calls since the last reset, and each webhook's notifications as the log has them now.
			method: 'GET',
			pattern: '/stats',
			handle: () => {
				const statuses = dispatcher.notifications.statusesByWebhook();
				const webhooks = Object.fromEntries(
					Object.entries(statuses).map(([id, notifications]) => {
						const webhook = world.store.get('webhook', id);
						return [
							id,
							{
								url: webhook?.attributes.url ?? null,
								active: webhook?.attributes.active ?? null,
								notifications,
							},
						];
					}),
				);
				return { status: 200, body: { ...stats.body(), webhooks } };
			},
		},
		{
			method: 'DELETE',
			pattern: '/stats',
			handle: () => {
				stats.reset();
				return { status: 204 };
			},
		},
	];
}

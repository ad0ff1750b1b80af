/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Sandbox code, not node code: a bulk call waits on a timer for its tracking requests.
/**
 * The control API's calls for many containers at once, for benches and tests that play a busy
 * account: tracking hundreds of containers without the service's rate limit
 * (`POST /_sandbox/tracking_requests`), and one scenario on many of them, their starts spread over
 * a few seconds (`POST /_sandbox/scenarios/{name}`). Both go through the world as the API and the
 * single-container route do: the same records, journeys and notifications.
 */
import {
	ApiError,
	notFound,
	unprocessable,
	type ApiAnswer,
	type ErrorObject,
} from './http/jsonApi';
import { playScenarioOnMany } from './scenarios';
import { withCheckDigit } from './world/containerNumbers';
import { findShippingLine } from './world/shippingLines';
import type { Resource } from './world/store';
import { isoTimestamp } from './world/time';
import type { World } from './world/world';

/** At most this many tracking requests a call: 2,000 boxes take a few seconds. */
export const MAX_BULK_TRACKING = 5_000;
/** Numbers drawn for `count` start here, away from the numbers tests and the demo spell out. */
const FIRST_DRAWN_SERIAL = 900_000;
/** Real milliseconds a bulk call waits beyond the tracking delay for its requests to resolve. */
const RESOLVE_MARGIN_MS = 30_000;
const REQUEST_TYPES = ['container', 'bill_of_lading', 'booking'];

function members(body: unknown, allowed: string[]): Record<string, unknown> {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw unprocessable(`the body must be an object of ${allowed.join(', ')}`, '/', 'invalid');
	const given = body as Record<string, unknown>;
	const unknown = Object.keys(given).find((name) => !allowed.includes(name));
	// A misspelt member must not pass unnoticed.
	if (unknown !== undefined)
		throw unprocessable(`unknown member; use ${allowed.join(', ')}`, `/${unknown}`, 'invalid');
	return given;
}

function seconds(value: unknown, name: string, fallbackMs: number): number {
	if (value === undefined) return fallbackMs;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
		throw unprocessable(`${name} must be a number of at least 0`, `/${name}`, 'invalid');
	return value * 1000;
}

/** Numbers the account tracks with `scac` now (a failed request tracks nothing). */
function trackedNumbers(world: World, scac: string): Set<string> {
	return new Set(
		world.store
			.list('tracking_request')
			.filter(
				(request) => request.attributes.scac === scac && request.attributes.status !== 'failed',
			)
			.map((request) => String(request.attributes.request_number)),
	);
}

/** `count` container numbers of the line's first prefix that it does not track yet. */
function drawNumbers(world: World, scac: string, count: number): string[] {
	const prefix = findShippingLine(scac)?.containerPrefixes[0];
	if (!prefix)
		throw unprocessable(
			`the sandbox draws no container numbers for ${scac}; give numbers`,
			'/scac',
			'invalid',
		);
	const tracked = trackedNumbers(world, scac);
	const numbers: string[] = [];
	for (let serial = FIRST_DRAWN_SERIAL; numbers.length < count && serial <= 999_999; serial++) {
		const number = withCheckDigit(`${prefix}${serial}`);
		if (!tracked.has(number)) numbers.push(number);
	}
	if (numbers.length < count)
		throw unprocessable(
			`the sandbox has no ${count} numbers left for ${scac}`,
			'/count',
			'invalid',
		);
	return numbers;
}

/**
 * The numbers a `POST /tracking_requests` body asks for: `numbers` (a list of strings) or `count`
 * (drawn), not both. Every number is checked first, as the API checks one (scac, duplicate), and
 * nothing is created when any is refused: one 422 lists them all.
 */
function requestedNumbers(world: World, body: Record<string, unknown>, scac: string): string[] {
	if ((body.numbers === undefined) === (body.count === undefined))
		throw unprocessable('give numbers or count, one of them', '/numbers', 'invalid');
	if (body.count !== undefined) {
		const count = body.count;
		if (
			typeof count !== 'number' ||
			!Number.isInteger(count) ||
			count < 1 ||
			count > MAX_BULK_TRACKING
		)
			throw unprocessable(
				`count must be a whole number from 1 to ${MAX_BULK_TRACKING}`,
				'/count',
				'invalid',
			);
		return drawNumbers(world, scac, count);
	}
	const numbers = body.numbers;
	if (!Array.isArray(numbers) || numbers.length === 0 || numbers.length > MAX_BULK_TRACKING)
		throw unprocessable(
			`numbers must be a list of 1 to ${MAX_BULK_TRACKING} numbers`,
			'/numbers',
			'invalid',
		);
	const tracked = trackedNumbers(world, scac);
	const seen = new Set<string>();
	const errors: ErrorObject[] = [];
	const refuse = (index: number, detail: string, code: string) =>
		errors.push({
			status: '422',
			title: 'Unprocessable Entity',
			detail,
			code,
			source: { pointer: `/numbers/${index}` },
		});
	numbers.forEach((raw, index) => {
		if (typeof raw !== 'string' || raw.trim() === '') {
			refuse(index, 'each number must be a string that is not blank', 'blank');
			return;
		}
		const number = raw.trim().toUpperCase();
		if (tracked.has(number))
			refuse(
				index,
				`Request number '${number}' with scac '${scac}' is already being tracked`,
				'duplicate',
			);
		else if (seen.has(number)) refuse(index, `${number} is in the list twice`, 'duplicate');
		seen.add(number);
	});
	if (errors.length > 0) throw new ApiError(422, errors);
	return [...seen];
}

function describeRequest(world: World, request: Resource) {
	const shipment = world.store.find(
		request.relationships?.tracked_object?.data as Resource | null | undefined,
	);
	return {
		id: request.id,
		request_number: request.attributes.request_number,
		status: request.attributes.status,
		failed_reason: request.attributes.failed_reason,
		shipment_id: shipment?.id ?? null,
		container_ids: shipment
			? world.store.related(shipment, 'containers').map((container) => container.id)
			: [],
	};
}

/**
 * Creates the tracking requests as `POST /v2/tracking_requests` does, without its rate limit,
 * then waits until each has succeeded or failed (the tracking delay) and answers with them, their
 * shipments and containers.
 */
async function trackMany(world: World, body: unknown): Promise<ApiAnswer> {
	const given = members(body, ['numbers', 'count', 'scac', 'request_type']);
	const scac = typeof given.scac === 'string' ? given.scac.trim().toUpperCase() : '';
	if (!findShippingLine(scac))
		throw unprocessable(
			`scac must be one the sandbox knows, got ${String(given.scac)}`,
			'/scac',
			'invalid',
		);
	const requestType = given.request_type ?? 'container';
	if (typeof requestType !== 'string' || !REQUEST_TYPES.includes(requestType))
		throw unprocessable(
			`request_type must be one of ${REQUEST_TYPES.join(', ')}`,
			'/request_type',
			'inclusion',
		);
	const requests = requestedNumbers(world, given, scac).map((number) =>
		world.createTrackingRequest({
			request_number: number,
			request_type: requestType,
			scac,
			ref_numbers: [],
			shipment_tags: [],
		}),
	);
	const deadline =
		Date.now() + world.clock.toReal(world.options.trackingDelayMs) + RESOLVE_MARGIN_MS;
	while (
		requests.some((request) => request.attributes.status === 'pending') &&
		Date.now() < deadline
	)
		await new Promise((resolve) => setTimeout(resolve, 20));
	const described = requests.map((request) => describeRequest(world, request));
	return {
		status: 201,
		body: {
			tracking_requests: described,
			containers: described.reduce((sum, request) => sum + request.container_ids.length, 0),
		},
	};
}

/**
 * Plays a scenario on `container_ids` or on every container (`all: true`), their starts spread
 * over `spread_seconds`, each one step every `gap_seconds`: 202 with the boxes started and those
 * skipped (with the reason the single-container route's 409 gives), or 409 when it can happen on
 * none of them.
 */
function playOnMany(world: World, name: string, body: unknown, defaultGapMs: number): ApiAnswer {
	const given = members(body ?? {}, ['container_ids', 'all', 'spread_seconds', 'gap_seconds']);
	const all = given.all === true;
	if (given.all !== undefined && typeof given.all !== 'boolean')
		throw unprocessable('all must be true or false', '/all', 'invalid');
	if (all === (given.container_ids !== undefined))
		throw unprocessable(
			'give container_ids or all: true, one of them',
			'/container_ids',
			'invalid',
		);
	const ids = all
		? world.store.list('container').map((container) => container.id)
		: given.container_ids;
	if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
		throw unprocessable(
			'container_ids must be a list of container ids',
			'/container_ids',
			'invalid',
		);
	const gapMs = seconds(given.gap_seconds, 'gap_seconds', defaultGapMs);
	const spreadMs = seconds(given.spread_seconds, 'spread_seconds', 0);
	const unknown = (ids as string[]).find((id) => !world.store.get('container', id));
	if (unknown !== undefined) throw notFound();
	const { started, skipped, endsAt } = playScenarioOnMany(world, ids as string[], name, {
		gapMs,
		spreadMs,
	});
	if (started.length === 0 && skipped.length > 0)
		throw new ApiError(
			409,
			skipped.map((skip) => ({
				status: '409',
				title: 'Conflict',
				detail: `${name} cannot happen on container ${skip.container_number}: ${skip.reason}`,
				code: 'invalid_state',
				source: { parameter: 'container_ids' },
			})),
		);
	return {
		status: 202,
		body: {
			scenario: name,
			started: started.length,
			skipped: skipped.length,
			steps: started.reduce((sum, start) => sum + start.steps, 0),
			gap_seconds: gapMs / 1000,
			spread_seconds: spreadMs / 1000,
			ends_at: isoTimestamp(endsAt),
			// Real seconds until the last step, whatever the time scale.
			ends_in_seconds: Math.max(0, world.clock.toReal(endsAt - world.clock.now()) / 1000),
			containers: started,
			skipped_containers: skipped,
		},
	};
}

export const bulkHandlers = { trackMany, playOnMany };

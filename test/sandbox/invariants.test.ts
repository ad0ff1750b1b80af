/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// The sandbox's data makes sense (issue 20): seeded journeys of random scenarios on random
// containers, with the clock advanced, and the demo's own loop (POST /_sandbox/demo/next, as
// `npm start` calls it) for a simulated day, every served container and every webhook delivery
// checked against the named invariants of ./invariants.ts. Drift stays off: drift is where the
// real world's oddities go on purpose.
import fc from 'fast-check';

import { pickupReadiness } from '../../nodes/ContainerTracking/logic/readiness';
import type { TerminalHold as Hold } from '../../nodes/ContainerTracking/schemas';
import { SCENARIOS } from '../../sandbox/scenarios';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import type { SandboxHandle } from '../support/sandbox';
import type { WebhookReceiver } from '../support/webhookReceiver';
import {
	eventOf,
	eventuallyPasses,
	type Json,
	referenceRecord,
	sandboxForEachTest,
} from './helpers';
import { checkInvariants, INVARIANTS, type Subject, type Violation } from './invariants';

/** A served container with its shipment, as the checker takes them. */
interface Read {
	id: string;
	container: Json;
	shipment?: Json;
}

/** Reads and deliveries checked, and what broke an invariant. */
class Ledger {
	reads = 0;
	deliveries = 0;
	readonly violations: Violation[] = [];
	private readonly last = new Map<string, Json>();

	read(read: Read): void {
		this.reads++;
		this.violations.push(
			...checkInvariants({
				container: read.container,
				shipment: read.shipment,
				previous: this.last.get(read.id),
			}),
		);
		this.last.set(read.id, read.container);
	}

	/** Every container a delivery carries, with the shipment it carries, and the event. */
	delivered(body: Json): void {
		this.deliveries++;
		const included = (body.included ?? []) as Json[];
		const shipment = included.find((record) => record.type === 'shipment')?.attributes;
		for (const record of included.filter((record) => record.type === 'container')) {
			const subject: Subject = {
				container: record.attributes,
				shipment,
				event: body.data.attributes.event,
			};
			this.violations.push(...checkInvariants(subject));
		}
	}
}

function withShipments(body: Json): Read[] {
	const shipments = new Map<string, Json>(
		((body.included ?? []) as Json[])
			.filter((record) => record.type === 'shipment')
			.map((record) => [record.id, record.attributes]),
	);
	const records = (Array.isArray(body.data) ? body.data : [body.data]) as Json[];
	return records.map((record) => ({
		id: record.id,
		container: record.attributes,
		shipment: shipments.get(record.relationships?.shipment?.data?.id),
	}));
}

/** GET /containers, every page, with their shipments. */
async function readAll(handle: SandboxHandle): Promise<Read[]> {
	const reads: Read[] = [];
	let url: string | undefined = '/containers?include=shipment&page[size]=100';
	while (url) {
		const answer: { status: number; data: Json } = await handle.api.get(url);
		if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
		reads.push(...withShipments(answer.data));
		url = answer.data.links?.next;
	}
	return reads;
}

/** GET /containers/{id} with its shipment. */
async function readOne(handle: SandboxHandle, id: string): Promise<Read> {
	const answer = await handle.api.get(`/containers/${id}`, { params: { include: 'shipment' } });
	if (answer.status !== 200) throw new Error(`GET /containers/${id} answered ${answer.status}`);
	return withShipments(answer.data)[0];
}

async function advance(handle: SandboxHandle, body: Record<string, number>): Promise<void> {
	const answer = await handle.control.post('/clock/advance', body);
	if (answer.status !== 200) throw new Error(`advance answered ${answer.status}`);
}

/** Tracks a number and returns its containers' ids once the request succeeded. */
async function track(
	handle: SandboxHandle,
	number: string,
	scac: string,
	type: string,
): Promise<string[]> {
	const created = await handle.api.post('/tracking_requests', {
		data: {
			type: 'tracking_request',
			attributes: { request_number: number, request_type: type, scac },
		},
	});
	if (created.status !== 201) throw new Error(`tracking ${number}: ${created.status}`);
	await advance(handle, { seconds: 0 });
	const request = await handle.api.get(`/tracking_requests/${created.data.data.id}`);
	const shipmentId = request.data.data.relationships.tracked_object.data?.id;
	if (!shipmentId) throw new Error(`${number} was not tracked: ${JSON.stringify(request.data)}`);
	const shipment = await handle.api.get(`/shipments/${shipmentId}`);
	return (shipment.data.data.relationships.containers.data as Array<{ id: string }>).map(
		(container) => container.id,
	);
}

/** Waits for every delivery the sandbox made to reach the receiver, then checks them all. */
async function checkDeliveries(
	handle: SandboxHandle,
	receiver: WebhookReceiver,
	ledger: Ledger,
): Promise<void> {
	await eventuallyPasses(
		async () => {
			const log = (await handle.control.get('/deliveries')).data.deliveries as unknown[];
			expect(receiver.deliveries.length).toBe(log.length);
		},
		// Generous: the last round's deliveries reach the receiver within a second on a quiet machine.
		{ timeoutMs: generous(6_000) },
	);
	for (const delivery of receiver.deliveries) ledger.delivered(delivery.body);
}

const report = (ledger: Ledger) =>
	ledger.violations
		.slice(0, 20)
		.map((violation) => `${violation.container} ${violation.invariant}: ${violation.detail}`);

describe('the invariant checker', () => {
	/** A box picked up and returned: every invariant holds. */
	const returned = {
		number: 'MSKU1234565',
		current_status: 'empty_returned',
		available_for_pickup: false,
		availability_known: true,
		holds_at_pod_terminal: [],
		fees_at_pod_terminal: [
			{ type: 'demurrage', amount: 400, currency_code: 'USD' },
			{ type: 'total', amount: 400, currency_code: 'USD' },
		],
		pod_timezone: 'America/New_York',
		pod_arrived_at: '2026-03-01T10:00:00Z',
		pod_discharged_at: '2026-03-02T04:00:00Z',
		pod_full_out_at: '2026-03-09T15:00:00Z',
		empty_terminated_at: '2026-03-11T15:00:00Z',
		terminal_checked_at: '2026-03-11T15:00:00Z',
		import_deadlines: {
			pickup_lfd_line: '2026-03-06T05:00:00Z',
			pickup_lfd_terminal: null,
			pickup_lfd_rail: null,
		},
		pickup_lfd: '2026-03-06T05:00:00Z',
	};
	const shipment = { pod_eta_at: '2026-03-01T10:00:00Z', pod_ata_at: '2026-03-01T10:00:00Z' };
	const waiting = {
		...returned,
		current_status: 'available',
		available_for_pickup: true,
		pod_full_out_at: null,
		empty_terminated_at: null,
		fees_at_pod_terminal: [],
		terminal_checked_at: '2026-03-05T12:00:00Z',
	};
	const names = (violations: Violation[]) => violations.map((violation) => violation.invariant);

	it('passes a record that makes sense', () => {
		expect(checkInvariants({ container: returned, shipment })).toEqual([]);
		expect(checkInvariants({ container: waiting, shipment, previous: waiting })).toEqual([]);
	});

	// One bad record per invariant: the checker names that invariant and the container.
	const bad: Record<keyof typeof INVARIANTS, Subject> = {
		status_follows_milestones: { container: { ...returned, current_status: 'available' } },
		milestones_in_order: {
			container: { ...returned, pod_full_out_at: '2026-03-12T15:00:00Z' },
		},
		nothing_held_or_available_once_gone: {
			container: {
				...returned,
				holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: null }],
			},
		},
		available_only_without_active_holds: {
			container: {
				...waiting,
				holds_at_pod_terminal: [{ name: 'USDA', status: 'hold', description: null }],
			},
		},
		eta_not_after_ata: {
			container: returned,
			shipment: { ...shipment, pod_eta_at: '2026-03-03T10:00:00Z' },
		},
		fee_total_is_sum: {
			container: {
				...returned,
				fees_at_pod_terminal: [
					{ type: 'demurrage', amount: 400, currency_code: 'USD' },
					{ type: 'total', amount: 875, currency_code: 'USD' },
				],
			},
		},
		demurrage_only_after_last_free_day: {
			container: {
				...waiting,
				terminal_checked_at: '2026-03-06T12:00:00Z',
				fees_at_pod_terminal: [
					{ type: 'demurrage', amount: 175, currency_code: 'USD' },
					{ type: 'total', amount: 175, currency_code: 'USD' },
				],
			},
		},
		demurrage_accrues_past_last_free_day: {
			container: { ...waiting, terminal_checked_at: '2026-03-08T12:00:00Z' },
		},
		last_free_day_is_first_source: {
			container: { ...returned, pickup_lfd: '2026-03-07T05:00:00Z' },
		},
		phase_never_goes_back: { container: waiting, previous: returned },
		nothing_after_empty_return: {
			container: returned,
			previous: { ...returned, fees_at_pod_terminal: [] },
		},
	};
	it.each(Object.entries(bad))('catches %s', (invariant, subject) => {
		const violations = checkInvariants(subject);
		expect(names(violations)).toContain(invariant);
		expect(violations.find((violation) => violation.invariant === invariant)).toMatchObject({
			container: 'MSKU1234565',
		});
	});

	it('catches a hold placed after the empty return, however it is read or delivered', () => {
		const held = {
			...returned,
			holds_at_pod_terminal: [
				{ name: 'VACIS', status: 'hold', description: 'Selected for NII scan' },
			],
		};
		expect(names(checkInvariants({ container: held, previous: returned }))).toEqual([
			'nothing_held_or_available_once_gone',
			'nothing_after_empty_return',
		]);
		expect(names(checkInvariants({ container: held, event: 'container.updated' }))).toEqual([
			'nothing_held_or_available_once_gone',
			'nothing_after_empty_return',
		]);
	});
});

describe('the sandbox keeps the invariants', () => {
	const sandbox = sandboxForEachTest();

	it('refuses every scenario but the journey on a returned box, with a 409 naming its state', async () => {
		const number = withCheckDigit('MSKU900001');
		const [id] = await track(sandbox.handle, number, 'MAEU', 'container');
		await sandbox.handle.control.post(`/containers/${id}/scenarios/journey`, { gap_seconds: 0 });
		for (const name of SCENARIOS.filter((scenario) => scenario !== 'journey')) {
			const answer = await sandbox.handle.control.post(`/containers/${id}/scenarios/${name}`, {
				gap_seconds: 0,
			});
			expect([name, answer.status]).toEqual([name, 409]);
			expect(answer.data.errors[0]).toMatchObject({ status: '409', code: 'invalid_state' });
			expect(answer.data.errors[0].detail).toMatch(
				new RegExp(
					`^${name} cannot happen on container ${number}: it is empty returned since .*, current_status empty_returned$`,
				),
			);
		}
		for (const change of [
			{ kind: 'place_hold', name: 'customs' },
			{ kind: 'set_availability', available: true },
		]) {
			const answer = await sandbox.handle.control.post(`/containers/${id}/changes`, change);
			expect([change.kind, answer.status]).toEqual([change.kind, 409]);
		}
		const ledger = new Ledger();
		ledger.read(await readOne(sandbox.handle, id));
		await checkDeliveries(sandbox.handle, sandbox.receiver, ledger);
		expect(report(ledger)).toEqual([]);
	});

	it(
		'plays 200 seeded journeys of random scenarios on random containers: every read and delivery keeps every invariant',
		async () => {
			const started = Date.now();
			const ledger = new Ledger();
			const used = new Set<string>();
			let journeys = 0;
			let refused = 0;
			let played = 0;
			const scacs = [
				{ scac: 'MAEU', prefix: 'MSKU', bl: 'MAEU' },
				{ scac: 'MSCU', prefix: 'MEDU', bl: 'MEDU' },
				{ scac: 'HLCU', prefix: 'HLXU', bl: 'HLCU' },
				{ scac: 'CMDU', prefix: 'CMAU', bl: 'CMDU' },
			];
			const operation = fc.oneof(
				fc.record({
					scenario: fc.constantFrom(...SCENARIOS),
					box: fc.nat(2),
					gapSeconds: fc.constantFrom(0, 1, 600, 3600, 6 * 3600),
				}),
				fc.record({ hours: fc.integer({ min: 1, max: 96 }) }),
			);
			await fc.assert(
				fc.asyncProperty(
					fc.record({
						line: fc.constantFrom(...scacs),
						serial: fc.integer({ min: 0, max: 999_999 }),
						billOfLading: fc.boolean(),
						operations: fc.array(operation, { minLength: 2, maxLength: 9 }),
					}),
					async ({ line, serial, billOfLading, operations }) => {
						let number = '';
						for (let next = serial; !number || used.has(number); next++) {
							const digits = String(next % 1_000_000).padStart(6, '0');
							number = billOfLading
								? `${line.bl}${digits}123`
								: withCheckDigit(`${line.prefix}${digits}`);
						}
						used.add(number);
						journeys++;
						const ids = await track(
							sandbox.handle,
							number,
							line.scac,
							billOfLading ? 'bill_of_lading' : 'container',
						);
						const readBoxes = async () => {
							for (const id of ids) ledger.read(await readOne(sandbox.handle, id));
						};
						await readBoxes();
						for (const step of operations) {
							if ('hours' in step) {
								await advance(sandbox.handle, { hours: step.hours });
							} else {
								const id = ids[step.box % ids.length];
								const answer = await sandbox.handle.control.post(
									`/containers/${id}/scenarios/${step.scenario}`,
									{ gap_seconds: step.gapSeconds },
								);
								if (answer.status === 409) {
									refused++;
									expect(answer.data.errors[0].detail).toMatch(
										new RegExp(`^${step.scenario} cannot happen on container [A-Z]{4}\\d{7}: `),
									);
								} else {
									expect(answer.status).toBe(202);
									played++;
								}
							}
							await readBoxes();
						}
						// The rest of the journey, to the empty return, and a quiet week after it.
						await advance(sandbox.handle, { days: 40 });
						await readBoxes();
						await advance(sandbox.handle, { days: 7 });
						await readBoxes();
					},
				),
				{ numRuns: 200, seed: 20_2026, endOnFailure: true },
			);
			for (const read of await readAll(sandbox.handle)) ledger.read(read);
			await checkDeliveries(sandbox.handle, sandbox.receiver, ledger);
			process.stdout.write(
				`${journeys} journeys: ${played} scenarios played, ${refused} refused; ` +
					`${ledger.reads} reads and ${ledger.deliveries} deliveries checked, ` +
					`${ledger.violations.length} violations, ${Date.now() - started} ms\n`,
			);
			expect(journeys).toBeGreaterThanOrEqual(200);
			expect(report(ledger)).toEqual([]);
			// Generous: its own work (200 journeys, every read and delivery checked) takes about 20 s on
			// a quiet two-core machine.
		},
		generous(20_000),
	);

	it(
		"plays the demo's loop for a simulated day: every move fits its box, the board always mixes ready and blocked boxes, fees and hold texts vary",
		async () => {
			const started = Date.now();
			const { handle, receiver } = sandbox;
			const ledger = new Ledger();
			const begun = await handle.control.post('/demo/start');
			expect(begun.status).toBe(201);
			expect(begun.data.tracking_requests).toHaveLength(4);
			await advance(handle, { seconds: 4 });

			const ROUND_SECONDS = 20;
			const rounds = (24 * 3600) / ROUND_SECONDS;
			const moves: Json[] = [];
			const unmixed: string[] = [];
			let samples = 0;
			for (let round = 0; round < rounds; round++) {
				const move = await handle.control.post('/demo/next', { gap_seconds: 4 });
				expect([round, move.status]).toEqual([round, 200]);
				moves.push(move.data);
				// Every 20 s from the second minute on (the first ready box needs the journey played up
				// to the terminal's availability), boxes still to be picked up are ready and blocked.
				if (round >= 3 && (move.data.ready === 0 || move.data.blocked === 0))
					unmixed.push(`round ${round}: ${move.data.ready} ready, ${move.data.blocked} blocked`);
				await advance(handle, { seconds: ROUND_SECONDS });
				// The board as served, every 40 minutes: the same mix, read by the node's readiness.
				if (round % 120 === 6) {
					samples++;
					const reads = await readAll(handle);
					for (const read of reads) ledger.read(read);
					const statuses = reads.map((read) => pickupReadiness(read.container).pickup_status);
					const ready = statuses.filter((status) => status === 'ready').length;
					if (ready === 0 || ready === statuses.length)
						unmixed.push(`round ${round}: ${ready} served ready of ${statuses.length}`);
				}
			}
			const reads = await readAll(handle);
			for (const read of reads) ledger.read(read);
			await checkDeliveries(handle, receiver, ledger);

			// Alert lines (a hold made active on a container), in the order they were delivered: never
			// the same line twice running, as the loop once wrote "VACIS hold placed" every round.
			const placed = receiver.deliveries
				.filter((delivery) => eventOf(delivery) === 'container.updated')
				.map((delivery) => ({
					event: referenceRecord(delivery).attributes,
					number: (delivery.body.included as Json[]).find((record) => record.type === 'container')
						?.attributes.number,
				}))
				.sort((a, b) => Date.parse(a.event.timestamp) - Date.parse(b.event.timestamp))
				.flatMap(({ event, number }) => {
					const [before, after] = (event.changeset.holds_at_pod_terminal ?? [[], []]) as Hold[][];
					const active = (holds: Hold[]) =>
						(holds ?? [])
							.filter((hold) => hold.status === 'hold')
							.map((hold) => `${number} ${hold.name}: ${hold.description}`);
					return active(after).filter((text) => !active(before).includes(text));
				});
			const repeats = placed.filter((text, index) => index > 0 && placed[index - 1] === text);
			const totals = reads
				.map(
					(read) =>
						(read.container.fees_at_pod_terminal as Array<{ type: string; amount: number }>).find(
							(fee) => fee.type === 'total',
						)?.amount,
				)
				.filter((total): total is number => total !== undefined);
			const mostCommon = Math.max(
				...totals.map((total) => totals.filter((other) => other === total).length),
			);
			const scenarios = moves.filter((move) => move.action === 'scenario');
			const played = [...new Set(scenarios.map((move) => move.scenario))].sort();
			process.stdout.write(
				`demo day: ${rounds} rounds, ${scenarios.length} scenarios (${played.join(', ')}), ` +
					`${moves.filter((move) => move.action === 'track').length} containers tracked, ${reads.length} in all; ` +
					`${samples} board samples, ${unmixed.length} without a mix; ${placed.length} holds placed, ` +
					`${new Set(placed).size} texts, ${repeats.length} repeated running; fee totals: ` +
					`${new Set(totals).size} distinct of ${totals.length}, at most ${mostCommon} alike, ` +
					`${totals.filter((total) => total === 875).length} of 875; ${ledger.reads} reads and ` +
					`${ledger.deliveries} deliveries checked, ${ledger.violations.length} violations, ` +
					`${Date.now() - started} ms\n`,
			);
			expect(report(ledger)).toEqual([]);
			expect(unmixed).toEqual([]);
			expect(repeats).toEqual([]);
			expect(played).toEqual([...SCENARIOS].sort());
			expect(new Set(totals).size).toBeGreaterThanOrEqual(5);
			expect(mostCommon).toBeLessThanOrEqual(totals.length / 3);
			// Generous: the day runs on the sandbox clock (4,320 rounds of 20 sandbox seconds, no real
			// wait); its own work (about 24,000 deliveries checked) takes about a minute on a quiet
			// two-core machine.
		},
		generous(60_000),
	);
});

// Drift over real HTTP (sandbox/drift.ts): answers and deliveries carry values beyond the
// interface's tables, null relationships, records without links, extra members, null entries in
// lists and numeric strings; every catalogue item is observed, on both sides of its subset for
// the suites' usual numbers, while what clients decide on stays as the world stores it. Also:
// reads are stable, deliveries are signed over the drifted bytes, the control switch, and the
// plain sandbox when drift is off.
import type { AxiosResponse } from 'axios';
import { isEqual } from 'lodash';

import { EVENT_NAMES } from '../../sandbox/world/eventNames';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import {
	containerDocument,
	containerListDocument,
	inferNumberDocument,
	listDocument,
	rawEventListDocument,
	shipment,
	singleResourceDocument,
	trackingRequest,
	trackingRequestDocument,
	transportEventListDocument,
	webhookDocument,
	webhookListDocument,
} from '../../nodes/ContainerTracking/schemas';
import {
	DRIFT_EXTRA_ATTRIBUTES,
	DRIFT_VALUES,
	driftDocument,
	driftNotification,
	driftRecord,
	inDriftSubset,
	type DriftSubset,
} from '../../sandbox/drift';
import { inferNumberResponseBody } from '../../sandbox/inferNumber';
import type { Resource } from '../../sandbox/world/store';
import { generous } from '../support/bounds';
import { eventually, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import {
	startWebhookReceiver,
	type ReceivedDelivery,
	type WebhookReceiver,
} from '../support/webhookReceiver';
import { expectApiError, expectOk, expectSchema } from './expectations';
import {
	changesetsFor,
	controlChange,
	deliveriesFor,
	eventOf,
	expectChangesetsChain,
	expectValidDelivery,
	referenceRecord,
	subscribe,
	type Json,
} from './helpers';

const shipmentDocument = singleResourceDocument(shipment);
const trackingRequestListDocument = listDocument(trackingRequest);
const NOT_FOUND_BODY = { errors: [{ status: '404', title: 'Not Found' }] };

/** The suites' usual numbers: MSCU1000022, MSKU4807969 and withCheckDigit('MSCU500001')…4. */
const BOX_INPUTS: ReadonlyArray<{ number: string; scac: string }> = [
	{ number: 'MSCU1000022', scac: 'MSCU' },
	{ number: 'MSKU4807969', scac: 'MAEU' },
	...['MSCU500001', 'MSCU500002', 'MSCU500003', 'MSCU500004'].map((prefix) => ({
		number: withCheckDigit(prefix),
		scac: 'MSCU',
	})),
];
/** Booking numbers on both sides of the `request_type` subset. */
const BOOKINGS = ['254839201', '254839202', '254839203', '254839204'];

interface Box {
	number: string;
	scac: string;
	refNumbers: string[];
	tags: string[];
	/** The 201 answer's body. */
	created: Json;
	trackingRequestId: string;
	shipmentId: string;
	containerId: string;
}

function trackingRequestBody(
	number: string,
	scac: string,
	requestType: string,
	extra: Record<string, unknown> = {},
) {
	return {
		data: {
			type: 'tracking_request',
			attributes: { request_number: number, scac, request_type: requestType, ...extra },
		},
	};
}

/** Creates a tracking request; waits until it has a shipment (or has failed). */
async function track(
	handle: SandboxHandle,
	number: string,
	scac: string,
	requestType = 'container',
	extra: Record<string, unknown> = {},
): Promise<{ created: AxiosResponse; id: string; shipmentId: string | null }> {
	const created = await handle.api.post(
		'/tracking_requests',
		trackingRequestBody(number, scac, requestType, extra),
	);
	if (created.status !== 201)
		throw new Error(
			`tracking ${number} answered ${created.status}: ${JSON.stringify(created.data)}`,
		);
	const id = created.data.data.id as string;
	const shipmentId = await eventually(
		async () => {
			const { data } = await handle.api.get(`/tracking_requests/${id}`);
			if (data.data.attributes.status === 'failed') return null;
			return (data.data.relationships.tracked_object.data?.id as string | undefined) ?? undefined;
		},
		{ what: `tracking request ${number} to resolve` },
	);
	return { created, id, shipmentId };
}

/** Waits until every delivery sent so far has been received and logged, and nothing new comes. */
async function settle(handle: SandboxHandle, receiver: WebhookReceiver): Promise<void> {
	let previous = -1;
	await eventually(
		async () => {
			const logged = handle.sandbox.dispatcher.log.length;
			const received = receiver.deliveries.length;
			const stable = logged === received && received === previous;
			previous = received;
			return stable ? true : undefined;
		},
		{ intervalMs: 150, what: 'deliveries to settle' },
	);
}

function stored(handle: SandboxHandle, type: string, id: string): Resource {
	const record = handle.sandbox.world.store.get(type, id);
	if (!record) throw new Error(`no stored ${type} ${id}`);
	return record;
}

/** Both outcomes occur: the subset is neither empty nor everything for these inputs. */
function expectBothSides(flags: boolean[], what: string): void {
	if (!flags.includes(true) || !flags.includes(false))
		throw new Error(`${what}: expected both drifted and plain records, got ${flags.join(', ')}`);
}

const withNull = (list: unknown) => [...((list as unknown[] | null) ?? []), null];

/** A container attribute served either as stored, or as drift changes it; true when drifted. */
function driftedOr(served: unknown, plain: unknown, drifted: unknown, what: string): boolean {
	if (isEqual(served, plain)) return false;
	if (isEqual(served, drifted)) return true;
	throw new Error(
		`${what}: served ${JSON.stringify(served)}, neither the stored ${JSON.stringify(plain)} nor the drifted ${JSON.stringify(drifted)}`,
	);
}

function expectedExtraFee(fees: Array<Record<string, unknown>>): Record<string, unknown> {
	const currencies = new Set(fees.map((fee) => fee.currency_code));
	const [currency] = [...currencies];
	return fees.length > 0 && currencies.size === 1 && typeof currency === 'string'
		? { type: DRIFT_VALUES.feeType, amount: 0, currency_code: currency }
		: { type: DRIFT_VALUES.feeType, amount: 0 };
}

/** The catalogue's container mutations, checked against the stored record; returns the flags. */
function containerDrift(served: Json, plain: Resource): Record<string, boolean> {
	const a = plain.attributes;
	const s = served.attributes;
	const fees = a.fees_at_pod_terminal as Array<Record<string, unknown>>;
	const holds = a.holds_at_pod_terminal as unknown[];
	const flags = {
		'container.ref_numbers_null': driftedOr(
			s.ref_numbers,
			a.ref_numbers,
			withNull(a.ref_numbers),
			'ref_numbers',
		),
		'container.weight_as_string': driftedOr(
			s.weight_in_lbs,
			a.weight_in_lbs,
			String(a.weight_in_lbs),
			'weight_in_lbs',
		),
		'container.equipment_length': driftedOr(
			s.equipment_length,
			a.equipment_length,
			DRIFT_VALUES.equipmentLength,
			'equipment_length',
		),
		'container.equipment_type': driftedOr(
			s.equipment_type,
			a.equipment_type,
			DRIFT_VALUES.equipmentType,
			'equipment_type',
		),
		'container.equipment_height': driftedOr(
			s.equipment_height,
			a.equipment_height,
			DRIFT_VALUES.equipmentHeight,
			'equipment_height',
		),
		'container.extra_hold': driftedOr(
			s.holds_at_pod_terminal,
			holds,
			[...holds, DRIFT_VALUES.hold],
			'holds_at_pod_terminal',
		),
		'container.extra_fee': driftedOr(
			s.fees_at_pod_terminal,
			fees,
			[...fees, expectedExtraFee(fees)],
			'fees_at_pod_terminal',
		),
	};
	// Each flag is the subset the sandbox declares for this record.
	for (const [subset, flag] of Object.entries(flags))
		expect([subset, flag]).toEqual([subset, inDriftSubset(subset as DriftSubset, plain)]);
	return flags;
}

/** What clients decide on is served as stored. */
function expectDecisiveAttributesKept(served: Json, plain: Resource): void {
	const a = plain.attributes;
	for (const name of [
		'number',
		'current_status',
		'available_for_pickup',
		'availability_known',
		'pickup_lfd',
		'pickup_appointment_at',
		'import_deadlines',
		'created_at',
		'terminal_checked_at',
		'pod_arrived_at',
		'pod_discharged_at',
		'pod_full_out_at',
		'empty_terminated_at',
		'pod_timezone',
	])
		expect([name, served.attributes[name]]).toEqual([name, a[name]]);
	// The holds and fees the service reported come first, unchanged; drift only appends.
	const holds = a.holds_at_pod_terminal as unknown[];
	const fees = a.fees_at_pod_terminal as unknown[];
	expect(served.attributes.holds_at_pod_terminal.slice(0, holds.length)).toEqual(holds);
	expect(served.attributes.fees_at_pod_terminal.slice(0, fees.length)).toEqual(fees);
	for (const hold of served.attributes.holds_at_pod_terminal as Array<{ status: string }>)
		if (!holds.some((kept) => isEqual(kept, hold)))
			expect(['hold', 'pending']).not.toContain(hold.status);
}

// ---------------------------------------------------------------------------------------------

describe('a drifting sandbox', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	const boxes: Box[] = [];
	const failed: Record<string, string> = {};
	const bookings: Record<string, { created: Json; id: string }> = {};

	beforeAll(async () => {
		// A sandbox hour per real second: the rate limits' minute lasts 17 ms, so the many reads of
		// this suite are never refused. The journeys are over once the clock has moved 40 days.
		handle = await startTestSandbox({ drift: true, trackingDelaySeconds: 0, timeScale: 3600 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, EVENT_NAMES);
		for (const [index, { number, scac }] of BOX_INPUTS.entries()) {
			// Most boxes carry reference numbers and tags, some none, so null entries meet both shapes.
			const refNumbers = index % 3 !== 2 ? ['PO-4471'] : [];
			const tags = index % 3 !== 2 ? ['east-coast'] : [];
			const { created, id, shipmentId } = await track(handle, number, scac, 'container', {
				ref_numbers: refNumbers,
				shipment_tags: tags,
			});
			const containerIds = (
				stored(handle, 'shipment', shipmentId!).relationships!.containers.data as Array<{
					id: string;
				}>
			).map((reference) => reference.id);
			boxes.push({
				number,
				scac,
				refNumbers,
				tags,
				created: created.data,
				trackingRequestId: id,
				shipmentId: shipmentId!,
				containerId: containerIds[0],
			});
		}
		for (const number of ['TEST-TR-FAILED', 'TEST-TR-NOT-FOUND'])
			failed[number] = (await track(handle, number, 'TEST')).id;
		for (const number of BOOKINGS) {
			const { created, id } = await track(handle, number, 'MSCU', 'booking');
			bookings[number] = { created: created.data, id };
		}
		expect((await handle.control.post('/clock/advance', { days: 40 })).status).toBe(200);
		await settle(handle, receiver);
		// Fees in one currency everywhere, and one box in the extra-fee subset with two currencies.
		// An hour apart, so that changeset timestamps (whole seconds) order the changes.
		await handle.control.post('/clock/advance', { hours: 1 });
		for (const box of boxes)
			await controlChange(handle, box.containerId, {
				kind: 'post_fee',
				type: 'extended_dwell_time',
				amount: 95,
			});
		const mixed = boxes.find((box) =>
			inDriftSubset('container.extra_fee', stored(handle, 'container', box.containerId)),
		)!;
		await handle.control.post('/clock/advance', { hours: 1 });
		await controlChange(handle, mixed.containerId, {
			kind: 'post_fee',
			type: 'other',
			amount: 40,
			currency_code: 'EUR',
		});
		await settle(handle, receiver);
		// Tracking, 40 days of journeys and their deliveries: 3.4 s on the busy two-core machine.
	}, generous(6_000));

	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	describe('answers', () => {
		it('serves containers with extra members, jsonapi and a resource meta; the store keeps none of them', async () => {
			for (const box of boxes) {
				const body = expectOk(
					await handle.api.get(`/containers/${box.containerId}`),
					200,
					containerDocument,
				) as Json;
				const plain = stored(handle, 'container', box.containerId);
				expect(body.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
				expect(body.data.meta).toEqual(DRIFT_VALUES.resourceMeta);
				expect(body.data.attributes.id).toBe(box.containerId);
				expect(body.data.attributes.custom_fields).toEqual(DRIFT_VALUES.customFields);
				expect(body.data.attributes.last_status_refresh_at).toBe(
					plain.attributes.terminal_checked_at ?? plain.attributes.created_at,
				);
				for (const name of DRIFT_EXTRA_ATTRIBUTES.container)
					expect(body.data.attributes).toHaveProperty(name);
				// The world's state is not drifted.
				expect(plain.attributes).not.toHaveProperty('custom_fields');
				expect(plain.attributes).not.toHaveProperty('id');
				expect(plain).not.toHaveProperty('meta');
				expect(body.data.relationships).toEqual(plain.relationships);
				expectDecisiveAttributesKept(body.data, plain);
			}
		});

		it('drifts each container subset, and the usual numbers fall on both sides of every one', async () => {
			const all: Array<Record<string, boolean>> = [];
			for (const box of boxes) {
				const { data } = await handle.api.get(`/containers/${box.containerId}`);
				all.push(containerDrift(data.data, stored(handle, 'container', box.containerId)));
			}
			for (const subset of Object.keys(all[0]))
				expectBothSides(
					all.map((flags) => flags[subset]),
					subset,
				);
			// MSCU1000022 and MSKU4807969 never drift alike.
			for (const subset of Object.keys(all[0])) expect(all[0][subset]).not.toBe(all[1][subset]);
			// The appended fee carries the currency the other fees share, and none when they differ.
			const feeTypes = await Promise.all(
				boxes.map(async (box) => {
					const { data } = await handle.api.get(`/containers/${box.containerId}`);
					return (data.data.attributes.fees_at_pod_terminal as Array<Record<string, unknown>>).find(
						(fee) => fee.type === DRIFT_VALUES.feeType,
					);
				}),
			);
			expect(feeTypes).toContainEqual({ type: 'storage', amount: 0, currency_code: 'USD' });
			expect(feeTypes).toContainEqual({ type: 'storage', amount: 0 });
		});

		it('serves the same record identically on every read, in the list as alone, as handle.served says', async () => {
			const list = expectOk(
				await handle.api.get('/containers', { params: { 'page[size]': 100 } }),
				200,
				containerListDocument,
			) as Json;
			expect(list.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
			// List documents come without meta; links stay.
			expect(list).not.toHaveProperty('meta');
			expect(list.links.self).toEqual(expect.any(String));
			for (const box of boxes) {
				const first = (await handle.api.get(`/containers/${box.containerId}`)).data;
				const second = (await handle.api.get(`/containers/${box.containerId}`)).data;
				expect(second).toEqual(first);
				expect(list.data.find((record: Json) => record.id === box.containerId)).toEqual(first.data);
				expect(handle.served('container', box.containerId)).toEqual(first.data);
				expect(handle.served('shipment', box.shipmentId)).toEqual(
					(await handle.api.get(`/shipments/${box.shipmentId}`)).data.data,
				);
			}
		});

		it('drops links from included records, relationships from some included shipments, and points some terminals at a null port', async () => {
			const shipmentFlags: boolean[] = [];
			const terminalFlags: boolean[] = [];
			for (const box of boxes) {
				const body = expectOk(
					await handle.api.get(`/containers/${box.containerId}`, {
						params: { include: 'shipment,pod_terminal,transport_events' },
					}),
					200,
					containerDocument,
				) as Json;
				const included = body.included as Json[];
				expect(included.length).toBeGreaterThan(2);
				for (const record of included) {
					expect(record).not.toHaveProperty('links');
					expect(record.meta).toEqual(DRIFT_VALUES.resourceMeta);
				}
				const includedShipment = included.find((record) => record.type === 'shipment');
				const plainShipment = stored(handle, 'shipment', box.shipmentId);
				expect(plainShipment.links).toBeDefined();
				const lost = !('relationships' in includedShipment);
				expect(lost).toBe(inDriftSubset('included.no_relationships', plainShipment));
				if (!lost) expect(includedShipment.relationships).toEqual(plainShipment.relationships);
				shipmentFlags.push(lost);
				// The same shipment, read as primary data, keeps links and relationships.
				const primary = (await handle.api.get(`/shipments/${box.shipmentId}`)).data.data;
				expect(primary.links).toEqual(plainShipment.links);
				expect(primary.relationships).toEqual(plainShipment.relationships);
				expect(includedShipment.attributes).toEqual(primary.attributes);
				const terminal = included.find((record) => record.type === 'terminal');
				const plainTerminal = stored(handle, 'terminal', terminal.id);
				expect(terminal.attributes.provided_data).toEqual(DRIFT_VALUES.providedData);
				const nulled = terminal.relationships.port.data === null;
				expect(plainTerminal.relationships!.port.data).not.toBeNull();
				if (!nulled) expect(terminal.relationships).toEqual(plainTerminal.relationships);
				terminalFlags.push(nulled);
			}
			expectBothSides(shipmentFlags, 'included shipments without relationships');
			expectBothSides(terminalFlags, 'included terminals with a null port');
		});

		it('serves pierpass for a subset of terminal events and numeric-string coordinates for a subset of places', async () => {
			const sourceFlags: boolean[] = [];
			const placeFlags: boolean[] = [];
			for (const box of boxes) {
				const body = expectOk(
					await handle.api.get(`/containers/${box.containerId}/transport_events`, {
						params: {
							'page[size]': 100,
							include: 'shipment,container,vessel,location,terminal',
						},
					}),
					200,
					transportEventListDocument,
				) as Json;
				expect(body.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
				expect(body.data.length).toBeGreaterThan(4);
				for (const event of body.data as Json[]) {
					const plain = stored(handle, 'transport_event', event.id);
					// The event and where it happened identify the subset; the container is never lost.
					expect(event.attributes.event).toBe(plain.attributes.event);
					expect(event.attributes.timestamp).toBe(plain.attributes.timestamp);
					expect(event.relationships).toEqual(plain.relationships);
					expect(event.relationships.container.data.id).toBe(box.containerId);
					expect(event.attributes.estimated).toBe(false);
					expect(event.attributes.id).toBe(event.id);
					const pierpass = driftedOr(
						event.attributes.data_source,
						plain.attributes.data_source,
						DRIFT_VALUES.dataSource,
						'data_source',
					);
					if (pierpass) expect(plain.attributes.data_source).toBe('terminal');
					if (plain.attributes.data_source === 'terminal') sourceFlags.push(pierpass);
				}
				for (const record of body.included as Json[]) {
					expect(record).not.toHaveProperty('links');
					if (record.type === 'vessel')
						expect(record.attributes.vessel_type).toBe(DRIFT_VALUES.vesselType);
					if (record.type !== 'port' && record.type !== 'metro_area') continue;
					const plain = stored(handle, record.type, record.id);
					const latitude = driftedOr(
						record.attributes.latitude,
						plain.attributes.latitude,
						String(plain.attributes.latitude),
						'latitude',
					);
					const longitude = driftedOr(
						record.attributes.longitude,
						plain.attributes.longitude,
						String(plain.attributes.longitude),
						'longitude',
					);
					expect(longitude).toBe(latitude);
					placeFlags.push(latitude);
				}
			}
			expectBothSides(sourceFlags, 'terminal events served as pierpass');
			expectBothSides(placeFlags, 'places with numeric-string coordinates');
		});

		it('drifts the status of a subset of new tracking requests in their 201 answers', () => {
			const flags = boxes.map((box) => {
				expectSchema(trackingRequestDocument, box.created);
				expect(box.created.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
				const status = box.created.data.attributes.status as string;
				expect([DRIFT_VALUES.trackingRequestStatus.pending, 'pending']).toContain(status);
				const drifted = status === DRIFT_VALUES.trackingRequestStatus.pending;
				expect(drifted).toBe(
					inDriftSubset('tracking_request.status', {
						type: 'tracking_request',
						attributes: { request_number: box.number },
					}),
				);
				expect(box.created.data.attributes.tags).toEqual(box.tags);
				expect(box.created.data.attributes.source).toBe(DRIFT_VALUES.trackingRequestSource);
				expect(box.created.data.relationships.tracked_object).toEqual({ data: null });
				return drifted;
			});
			expectBothSides(flags, 'tracking requests answered as accepted');
			expect(flags[0]).not.toBe(flags[1]);
		});

		it('drifts failed_reason and request_type by subset in GET answers, lists and 201s alike', async () => {
			const reasonOf = async (id: string) =>
				(
					expectOk(
						await handle.api.get(`/tracking_requests/${id}`),
						200,
						trackingRequestDocument,
					) as Json
				).data.attributes;
			const drifted = await reasonOf(failed['TEST-TR-FAILED']);
			expect(drifted.status).toBe('failed');
			expect(drifted.failed_reason).toBe(DRIFT_VALUES.failedReason);
			const plain = await reasonOf(failed['TEST-TR-NOT-FOUND']);
			expect(plain.status).toBe('failed');
			expect(plain.failed_reason).toBe('not_found');
			const types: boolean[] = [];
			for (const number of BOOKINGS) {
				const answered = bookings[number].created.data.attributes.request_type;
				const read = (await reasonOf(bookings[number].id)).request_type;
				expect(read).toBe(answered);
				expect(
					stored(handle, 'tracking_request', bookings[number].id).attributes.request_type,
				).toBe('booking');
				types.push(
					driftedOr(read, 'booking', DRIFT_VALUES.requestType, `request_type of ${number}`),
				);
			}
			expect(types).toEqual([true, false, true, false]);
			const list = expectOk(
				await handle.api.get('/tracking_requests', { params: { 'page[size]': 100 } }),
				200,
				trackingRequestListDocument,
			) as Json;
			expect(list).not.toHaveProperty('meta');
			for (const record of list.data as Json[])
				expect(record).toEqual((await handle.api.get(`/tracking_requests/${record.id}`)).data.data);
			// A resolved request is never pending again: `created` is served as stored.
			for (const box of boxes)
				expect((await reasonOf(box.trackingRequestId)).status).toBe('created');
		});

		it('drifts shipments: booking_number, custom fields, null entries in ref_numbers and tags, account_closed', async () => {
			const flags: Record<string, boolean[]> = {
				'shipment.ref_numbers_null': [],
				'shipment.tags_null': [],
				'shipment.stopped_reason': [],
			};
			// One shipment without a customer and one with, as a user sets them at the service.
			for (const [box, customer] of [
				[boxes[0], null],
				[boxes[1], 'Acme Imports'],
			] as const)
				expect(
					(await handle.control.patch(`/shipments/${box.shipmentId}`, { customer_name: customer }))
						.status,
				).toBe(200);
			for (const box of boxes) {
				const body = expectOk(
					await handle.api.get(`/shipments/${box.shipmentId}`),
					200,
					shipmentDocument,
				) as Json;
				const plain = stored(handle, 'shipment', box.shipmentId);
				const a = plain.attributes;
				const s = body.data.attributes;
				expect(body.data.links).toEqual(plain.links);
				expect(s.bill_of_lading_number).toBe(a.bill_of_lading_number);
				expect(s.booking_number).toMatch(/^\d{9}$/);
				expect(s.custom_fields).toEqual(DRIFT_VALUES.customFields);
				expect(s.pod_eta_at).toBe(a.pod_eta_at);
				// A shipment without a customer comes without the member; one with keeps it.
				if (a.customer_name === null) expect(s).not.toHaveProperty('customer_name');
				else expect(s.customer_name).toBe(a.customer_name);
				flags['shipment.ref_numbers_null'].push(
					driftedOr(s.ref_numbers, a.ref_numbers, withNull(a.ref_numbers), 'ref_numbers'),
				);
				flags['shipment.tags_null'].push(driftedOr(s.tags, a.tags, withNull(a.tags), 'tags'));
				const stopped = s.line_tracking_stopped_reason === DRIFT_VALUES.lineTrackingStoppedReason;
				expect(a.line_tracking_stopped_reason).toBeNull();
				if (stopped) expect(s.line_tracking_stopped_at).toBe(a.line_tracking_last_attempted_at);
				else expect(s.line_tracking_stopped_at).toBe(a.line_tracking_stopped_at);
				flags['shipment.stopped_reason'].push(stopped);
				for (const [subset, list] of Object.entries(flags))
					expect([subset, list[list.length - 1]]).toEqual([
						subset,
						inDriftSubset(subset as DriftSubset, plain),
					]);
			}
			for (const [subset, list] of Object.entries(flags)) {
				expectBothSides(list, subset);
				expect([subset, list[0]]).not.toEqual([subset, list[1]]);
			}
			// Both shapes of a null entry: appended to a list, and [null] for an empty one.
			const refNumbers = await Promise.all(
				boxes.map(
					async (box) =>
						(await handle.api.get(`/containers/${box.containerId}`)).data.data.attributes
							.ref_numbers,
				),
			);
			expect(refNumbers).toContainEqual(['PO-4471', null]);
			expect(refNumbers).toContainEqual([null]);
			const shipments = await Promise.all(
				boxes.map(
					async (box) =>
						(await handle.api.get(`/shipments/${box.shipmentId}`)).data.data.attributes,
				),
			);
			expect(shipments.map((attributes) => attributes.ref_numbers)).toContainEqual([
				'PO-4471',
				null,
			]);
			expect(shipments.map((attributes) => attributes.ref_numbers)).toContainEqual([null]);
			expect(shipments.map((attributes) => attributes.tags)).toContainEqual(['east-coast', null]);
			expect(shipments.map((attributes) => attributes.tags)).toContainEqual([null]);
			// Both shapes of a customer: named, and a member left out.
			expect(shipments.some((attributes) => typeof attributes.customer_name === 'string')).toBe(
				true,
			);
			expect(shipments.some((attributes) => !('customer_name' in attributes))).toBe(true);
		});

		it('adds extra members only to inference results, webhooks and raw events', async () => {
			for (const number of ['MSCU1000022', 'MEDUFR030802', 'CSQU3054384', 'XYZ']) {
				const body = expectOk(
					await handle.api.post('/tracking_requests/infer_number', { number }),
					200,
					inferNumberDocument,
				) as Json;
				const plain = inferNumberResponseBody(number).data;
				expect(body.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
				expect(body.data.id).toBe(plain.id);
				expect(body.data.meta).toEqual(DRIFT_VALUES.resourceMeta);
				const { id, beta, ...attributes } = body.data.attributes;
				expect(id).toBe(plain.id);
				expect(beta).toBe(DRIFT_VALUES.inferenceBeta);
				expect(attributes).toEqual(plain.attributes);
			}
			const created = expectOk(
				await handle.api.post('/webhooks', {
					data: {
						type: 'webhook',
						attributes: { url: 'https://example.com/drift', events: ['container.updated'] },
					},
				}),
				201,
				webhookDocument,
			) as Json;
			const webhook = stored(handle, 'webhook', created.data.id);
			const { id, description, ...attributes } = created.data.attributes;
			expect(id).toBe(webhook.id);
			expect(description).toBeNull();
			expect(attributes).toEqual(webhook.attributes);
			expect(created.data.links).toEqual(webhook.links);
			const list = expectOk(await handle.api.get('/webhooks'), 200, webhookListDocument) as Json;
			expect(list).not.toHaveProperty('meta');
			expect(list.data.map((record: Json) => record.attributes.description)).toEqual(
				list.data.map(() => null),
			);
			const raw = expectOk(
				await handle.api.get(`/containers/${boxes[0].containerId}/raw_events`),
				200,
				rawEventListDocument,
			) as Json;
			expect(raw.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
			for (const record of raw.data as Json[]) {
				expect(record.meta).toEqual(DRIFT_VALUES.resourceMeta);
				expect(record.attributes.id).toBe(record.id);
			}
		});

		it('does not drift error answers', async () => {
			const missing = await handle.api.get('/containers/no-such-container');
			expectApiError(missing, 404);
			expect(missing.data).toEqual(NOT_FOUND_BODY);
			const duplicate = await handle.api.post(
				'/tracking_requests',
				trackingRequestBody(boxes[0].number, boxes[0].scac, 'container'),
			);
			expect(expectApiError(duplicate, 422)[0].code).toBe('duplicate');
			expect(Object.keys(duplicate.data)).toEqual(['errors']);
			const unknownRoute = await handle.api.get('/no_such_route');
			expect(unknownRoute.status).toBe(404);
			expect(String(unknownRoute.headers['content-type'])).toContain('text/html');
		});
	});

	describe('deliveries', () => {
		it('signs every delivery over its drifted bytes, with jsonapi, meta and webhook_url', () => {
			expect(receiver.deliveries.length).toBeGreaterThan(50);
			for (const delivery of receiver.deliveries) {
				expect(delivery.signatureValid).toBe(true);
				const body = delivery.body;
				expect(body.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
				expect(body.meta).toEqual(DRIFT_VALUES.notificationMeta);
				expect(body.data.attributes.webhook_url).toBe(receiver.url);
				expect(body.data.meta).toEqual(DRIFT_VALUES.resourceMeta);
				// What the client needs to find the subject is never null.
				expect(body.data.relationships.reference_object.data.id).toEqual(expect.any(String));
				expect(body.data.relationships.webhook.data.id).toEqual(expect.any(String));
				expectValidDelivery(body, `${eventOf(delivery)} delivery`);
				for (const record of (body.included ?? []) as Json[]) {
					expect(record).not.toHaveProperty('links');
					expect(record.meta).toEqual(DRIFT_VALUES.resourceMeta);
				}
			}
		});

		it('nulls the shipment of the included container for a subset, in deliveries only', () => {
			const flags = boxes.map((box) => {
				const updates = deliveriesFor(receiver, {
					event: 'container.updated',
					containerId: box.containerId,
				});
				expect(updates.length).toBeGreaterThan(1);
				const nulled = updates.map((delivery) => {
					const container = (delivery.body.included as Json[]).find(
						(record) => record.type === 'container',
					);
					// The reference object still names the shipment.
					expect(referenceRecord(delivery).relationships.shipment.data.id).toBe(box.shipmentId);
					return container.relationships.shipment.data === null;
				});
				// A box is in the subset or not, in every delivery.
				expect(new Set(nulled).size).toBe(1);
				const plain = stored(handle, 'container', box.containerId);
				expect(nulled[0]).toBe(inDriftSubset('container.shipment_null', plain));
				expect(plain.relationships!.shipment.data).not.toBeNull();
				expect(handle.served('container', box.containerId).relationships!.shipment.data).toEqual(
					plain.relationships!.shipment.data,
				);
				return nulled[0];
			});
			expectBothSides(flags, 'delivered containers with a null shipment');
		});

		it('leaves changesets as the service diffed them; the included container drifts as GET serves it', async () => {
			for (const box of boxes) {
				const changesets = changesetsFor(receiver, box.containerId);
				const last = expectChangesetsChain(
					changesets.map((entry) => entry.changeset),
					box.number,
				);
				const plain = stored(handle, 'container', box.containerId);
				expect(last.holds_at_pod_terminal ?? []).toEqual(plain.attributes.holds_at_pod_terminal);
				expect(last.fees_at_pod_terminal).toEqual(plain.attributes.fees_at_pod_terminal);
				const everyValue = JSON.stringify(changesets.map((entry) => entry.changeset));
				expect(everyValue).not.toContain(`"${DRIFT_VALUES.hold.name}"`);
				expect(everyValue).not.toContain(`"${DRIFT_VALUES.feeType}"`);
				// The last delivery came with the last change (a fee the journey never posts, after the
				// journey): its container is what GET serves now.
				const updates = deliveriesFor(receiver, {
					event: 'container.updated',
					containerId: box.containerId,
				});
				const latest = updates
					.map((delivery) => ({
						delivery,
						at: Date.parse(referenceRecord(delivery).attributes.timestamp),
					}))
					.sort((a, b) => a.at - b.at)
					.pop()!.delivery;
				const delivered = (latest.body.included as Json[]).find(
					(record) => record.type === 'container',
				);
				const served = (await handle.api.get(`/containers/${box.containerId}`)).data.data;
				expect(delivered.attributes).toEqual(served.attributes);
				containerDrift(delivered, plain);
			}
		});

		it('drifts tracking requests and transport events in deliveries as in answers', () => {
			const failedDelivery = (id: string) =>
				deliveriesFor(receiver, { event: 'tracking_request.failed' })
					.map((delivery) => referenceRecord(delivery))
					.find((record) => record?.id === id);
			expect(failedDelivery(failed['TEST-TR-FAILED']).attributes.failed_reason).toBe(
				DRIFT_VALUES.failedReason,
			);
			expect(failedDelivery(failed['TEST-TR-NOT-FOUND']).attributes.failed_reason).toBe(
				'not_found',
			);
			for (const box of boxes) {
				const succeeded = deliveriesFor(receiver, { event: 'tracking_request.succeeded' })
					.map((delivery) => referenceRecord(delivery))
					.find((record) => record?.id === box.trackingRequestId);
				expect(succeeded.relationships.tracked_object.data.id).toBe(box.shipmentId);
				expect(succeeded.attributes.source).toBe(DRIFT_VALUES.trackingRequestSource);
			}
			const flags: boolean[] = [];
			const transport = receiver.deliveries.filter((delivery: ReceivedDelivery) =>
				eventOf(delivery).startsWith('container.transport.'),
			);
			expect(transport.length).toBeGreaterThan(10);
			for (const delivery of transport) {
				const event = referenceRecord(delivery);
				if (!event) continue; // reference-only deliveries
				const plain = stored(handle, 'transport_event', event.id);
				if (plain.relationships?.container && event.relationships)
					expect(event.relationships.container).toEqual(plain.relationships.container);
				expect(event.attributes.estimated).toBe(eventOf(delivery).includes('.estimated.'));
				if (plain.attributes.data_source !== 'terminal') {
					expect(event.attributes.data_source).toBe(plain.attributes.data_source);
					continue;
				}
				flags.push(event.attributes.data_source === DRIFT_VALUES.dataSource);
			}
			expectBothSides(flags, 'delivered terminal events served as pierpass');
		});
	});
});

describe('the drift switch of the control API', () => {
	let handle: SandboxHandle;
	let receiver: WebhookReceiver;
	let containerId: string;

	beforeAll(async () => {
		handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		receiver = await startWebhookReceiver();
		await subscribe(handle, receiver, ['container.updated']);
		const { shipmentId } = await track(handle, 'MSCU1000022', 'MSCU');
		containerId = (
			stored(handle, 'shipment', shipmentId!).relationships!.containers.data as Array<{
				id: string;
			}>
		)[0].id;
	});
	afterAll(async () => {
		await handle.stop();
		await receiver.close();
	});

	const lastContainerUpdate = () => {
		const updates = deliveriesFor(receiver, { event: 'container.updated', containerId });
		return updates[updates.length - 1];
	};

	it('serves the stored records as they are while drift is off', async () => {
		expect((await handle.control.get('/drift')).data).toEqual({ enabled: false });
		expect(handle.sandbox.drift.enabled).toBe(false);
		const plain = stored(handle, 'container', containerId);
		const body = (await handle.api.get(`/containers/${containerId}`)).data;
		expect(body).not.toHaveProperty('jsonapi');
		expect(body.data).toEqual(plain);
		expect(handle.served('container', containerId)).toEqual(plain);
		expect((await handle.api.get('/containers')).data.meta).toEqual({ size: 1, total: 1 });
		await controlChange(handle, containerId, { kind: 'post_fee', type: 'exam', amount: 350 });
		const delivery = await eventually(() => lastContainerUpdate(), { what: 'a plain delivery' });
		expect(delivery.signatureValid).toBe(true);
		expect(delivery.body).not.toHaveProperty('jsonapi');
		const included = (delivery.body.included as Json[]).find((r) => r.type === 'container');
		expect(included).toEqual(stored(handle, 'container', containerId));
	});

	it('turns drift on at run time, for answers and deliveries, and off again', async () => {
		const on = await handle.control.post('/drift', { enabled: true });
		expect(on.status).toBe(200);
		expect(on.data).toEqual({ enabled: true });
		expect(handle.sandbox.drift.enabled).toBe(true);
		expect((await handle.control.get('/drift')).data).toEqual({ enabled: true });
		const plain = stored(handle, 'container', containerId);
		const drifted = (await handle.api.get(`/containers/${containerId}`)).data;
		expect(drifted.jsonapi).toEqual(DRIFT_VALUES.jsonapi);
		expect(drifted.data).toEqual(driftRecord(plain, 'primary'));
		expect(drifted.data).not.toEqual(plain);
		expect(handle.served('container', containerId)).toEqual(drifted.data);
		expect((await handle.api.get('/containers')).data).not.toHaveProperty('meta');
		const before = receiver.deliveries.length;
		await controlChange(handle, containerId, { kind: 'post_fee', type: 'demurrage', amount: 175 });
		const delivery = await eventually(
			() => (receiver.deliveries.length > before ? lastContainerUpdate() : undefined),
			{ what: 'a drifted delivery' },
		);
		expect(delivery.signatureValid).toBe(true);
		expect(delivery.body.jsonapi).toEqual(DRIFT_VALUES.jsonapi);

		const off = await handle.control.post('/drift', { enabled: false });
		expect(off.data).toEqual({ enabled: false });
		const again = (await handle.api.get(`/containers/${containerId}`)).data;
		expect(again).not.toHaveProperty('jsonapi');
		expect(again.data).toEqual(stored(handle, 'container', containerId));
	});

	it('answers 422 for a switch that is not true or false, and keeps the state', async () => {
		for (const body of [{ enabled: 'yes' }, {}, { enabled: 1 }, { enabled: null }]) {
			const refused = await handle.control.post('/drift', body);
			expect(expectApiError(refused, 422)[0].source?.pointer).toBe('/enabled');
		}
		expect((await handle.control.get('/drift')).data).toEqual({ enabled: false });
	});
});

describe('drift transforms', () => {
	const container: Resource = {
		id: 'c1',
		type: 'container',
		attributes: {
			number: 'MSCU1000022',
			ref_numbers: [],
			weight_in_lbs: 41000,
			equipment_type: 'dry',
			equipment_length: 40,
			equipment_height: 'high_cube',
			holds_at_pod_terminal: [{ name: 'customs', status: 'hold', description: null }],
			fees_at_pod_terminal: [
				{ type: 'exam', amount: 350, currency_code: 'USD' },
				{ type: 'other', amount: 40, currency_code: 'EUR' },
			],
			current_status: 'available',
			created_at: '2025-01-01T00:00:00Z',
			terminal_checked_at: null,
		},
		relationships: { shipment: { data: { id: 's1', type: 'shipment' } } },
	};

	it('never changes the record it is given, and gives the same copy every time', () => {
		const before = structuredClone(container);
		const first = driftRecord(container, 'included');
		expect(container).toEqual(before);
		expect(driftRecord(container, 'included')).toEqual(first);
		expect(first).not.toBe(container);
	});

	it('appends a fee without a currency when the other fees are in several', () => {
		// MSCU1000022 is in the extra-fee subset.
		expect(inDriftSubset('container.extra_fee', container)).toBe(true);
		const fees = driftRecord(container, 'primary').attributes.fees_at_pod_terminal as unknown[];
		expect(fees[fees.length - 1]).toEqual({ type: 'storage', amount: 0 });
	});

	it('serves awaiting_manifest as hold for the status subset', () => {
		const request = (number: string): Resource => ({
			id: number,
			type: 'tracking_request',
			attributes: { request_number: number, status: 'awaiting_manifest', failed_reason: null },
		});
		const statuses = ['MSKU4807969', 'MSCU1000022'].map(
			(number) => driftRecord(request(number), 'primary').attributes.status,
		);
		expect(statuses).toEqual([
			DRIFT_VALUES.trackingRequestStatus.awaiting_manifest,
			'awaiting_manifest',
		]);
	});

	it('leaves error bodies and the envelope relationships alone', () => {
		const error = { errors: [{ status: '422', code: 'duplicate' }] };
		expect(driftDocument(error)).toBe(error);
		const envelope = {
			data: {
				id: 'n1',
				type: 'webhook_notification',
				attributes: { id: 'n1', event: 'container.updated' },
				relationships: {
					reference_object: { data: { id: 'e1', type: 'container_updated_event' } },
					webhook: { data: { id: 'w1', type: 'webhook' } },
				},
			},
			included: [
				{
					id: 'e1',
					type: 'container_updated_event',
					attributes: { changeset: { holds_at_pod_terminal: [[], []] } },
					relationships: { container: { data: { id: 'c1', type: 'container' } } },
				},
			],
		};
		const drifted = driftNotification(envelope, { webhookUrl: 'https://example.com/h' }) as Json;
		expect(drifted.data.relationships).toEqual(envelope.data.relationships);
		expect(drifted.data.attributes.webhook_url).toBe('https://example.com/h');
		expect(drifted.included[0].attributes.changeset).toEqual(
			envelope.included[0].attributes.changeset,
		);
		expect(drifted.included[0].relationships).toEqual(envelope.included[0].relationships);
	});
});

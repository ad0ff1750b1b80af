import type { z } from 'zod';

import {
	changeset,
	container,
	containerDocument,
	containerListDocument,
	containerUpdatedEvent,
	deliveryCore,
	documentWarnings,
	inferNumberDocument,
	listDocumentCore,
	rawEventListDocument,
	singleDocumentCore,
	trackingRequestDocument,
	transportEventListDocument,
	webhookDocument,
	webhookListDocument,
	webhookNotificationEnvelope,
} from '../../nodes/ContainerTracking/schemas';
import { jsonApiErrorDocument } from '../support/errorDocument';
import { expectSchema, formatIssues } from '../support/schemaAssertions';
import { describeWithFixtures, fixtureNames, readFixture } from '../support/sharedFixtures';

// ---------------------------------------------------------------------------------------------
// Helpers: every failure message lists the zod issues with their paths.

/** Fails unless parsing fails with an issue at `path` (or inside it). */
function expectInvalidAt(schema: z.ZodTypeAny, value: unknown, path: Array<string | number>) {
	const result = schema.safeParse(value);
	if (result.success) throw new Error(`expected a failure at ${path.join('.')}, but it parsed`);
	const wanted = path.join('.');
	const found = result.error.issues.some((issue) => {
		const at = issue.path.join('.');
		return at === wanted || at.startsWith(`${wanted}.`);
	});
	if (!found) {
		throw new Error(`expected an issue at ${wanted}, got:\n${formatIssues(result.error)}`);
	}
}

// ---------------------------------------------------------------------------------------------
// Every published example passes its schema.

/** Fixture file → schema of the document it shows. A new file without an entry fails. */
const apiFixtureSchemas: Record<string, z.ZodTypeAny> = {
	'container.get.json': containerDocument,
	'container.raw_events.json': rawEventListDocument,
	'container.transport_events.json': transportEventListDocument,
	'infer_number.422.json': jsonApiErrorDocument,
	'infer_number.429.json': jsonApiErrorDocument,
	'infer_number.container.json': inferNumberDocument,
	'tracking_request.create.201.json': trackingRequestDocument,
	'tracking_request.create.422.json': jsonApiErrorDocument,
	'webhook.create.201.json': webhookDocument,
};

/**
 * Notification fixture → the reference object type its event implies
 * (docs/service.md, "Reference objects").
 */
const notificationReferenceTypes: Record<string, string> = {
	'container.created.json': 'container_created_event',
	'container.pickup_lfd.changed.json': 'transport_event',
	'container.transport.available.json': 'transport_event',
	'container.transport.estimated.vessel_arrived.json': 'transport_event',
	'container.transport.full_out.json': 'transport_event',
	'container.transport.rail_arrived.json': 'transport_event',
	'container.transport.vessel_discharged.json': 'transport_event',
	'container.updated.json': 'container_updated_event',
	'shipment.estimated.arrival.json': 'estimated_event',
	'tracking_request.failed.json': 'tracking_request',
	'tracking_request.succeeded.json': 'tracking_request',
};

/** docs/service.md, "Reference objects": which reference object type an event name comes with. */
function referenceTypeOfEvent(event: string): string | undefined {
	if (event.startsWith('tracking_request.')) return 'tracking_request';
	if (event.startsWith('container.transport.')) return 'transport_event';
	if (/^container\.pickup_(lfd|lfd_line|lfd_terminal|lfd_rail|appointment)\.changed$/.test(event)) {
		return 'transport_event';
	}
	const byEvent: Record<string, string> = {
		'container.updated': 'container_updated_event',
		'container.created': 'container_created_event',
		'shipment.estimated.arrival': 'estimated_event',
		'container.pod_terminal_changed': 'container_pod_terminal_changed_event',
	};
	return byEvent[event];
}

describeWithFixtures('schemas: published API examples', () => {
	const names = fixtureNames('api');

	it('has a schema for every API fixture file', () => {
		expect(names.filter((name) => !(name in apiFixtureSchemas))).toEqual([]);
		expect(names.length).toBeGreaterThan(0);
	});

	// `it.each` refuses an empty table, which is what a skipped suite (no fixtures) sees.
	const eachApiFixture = names.length > 0 ? it.each(names) : it.skip.each(['(none)']);
	eachApiFixture('%s matches its schema', (name) => {
		const schema = apiFixtureSchemas[name];
		if (!schema) throw new Error(`no schema mapped for fixtures/api/${name}`);
		expectSchema(schema, readFixture('api', name), `fixtures/api/${name}`);
	});
});

describeWithFixtures('schemas: published webhook deliveries', () => {
	const names = fixtureNames('notifications');

	it('has an expected reference type for every notification fixture file', () => {
		expect(names.filter((name) => !(name in notificationReferenceTypes))).toEqual([]);
		expect(names.length).toBeGreaterThan(0);
	});

	const eachNotificationFixture = names.length > 0 ? it.each(names) : it.skip.each(['(none)']);
	eachNotificationFixture('%s matches the webhook_notification envelope', (name) => {
		const delivery = expectSchema(
			webhookNotificationEnvelope,
			readFixture('notifications', name),
			`fixtures/notifications/${name}`,
		);
		const referenceType = (delivery.data.relationships.reference_object.data as { type: string })
			.type;
		expect(referenceType).toBe(notificationReferenceTypes[name]);
		expect(referenceTypeOfEvent(delivery.data.attributes.event)).toBe(referenceType);
	});
});

// ---------------------------------------------------------------------------------------------
// Small documents built here, so these run without the shared fixtures.

const ids = {
	container: '5f3d40ad-2e2f-4778-8973-8a3a70bef56d',
	shipment: 'c0633538-4e53-4c33-bde5-055a5bdbfa29',
	event: '638dd40b-6d1a-48a5-af2f-c68463059149',
	webhook: 'fdd1cf95-7569-4bf9-965b-825a55fa6303',
	notification: 'aee69c9e-66e5-4ead-82ee-668dafc242ee',
};

function containerDocumentWith(attributes: Record<string, unknown>) {
	return {
		data: {
			id: ids.container,
			type: 'container',
			attributes: { number: 'MSKU4807969', ...attributes },
		},
	};
}

function containerUpdatedRecord(changes: Record<string, unknown>) {
	return {
		id: ids.event,
		type: 'container_updated_event',
		attributes: {
			changeset: changes,
			timestamp: '2022-10-21T20:19:12Z',
			data_source: 'terminal',
			timezone: 'America/New_York',
		},
		relationships: {
			container: { data: { id: ids.container, type: 'container' } },
			terminal: { data: null },
			shipment: { data: { id: ids.shipment, type: 'shipment' } },
		},
	};
}

function delivery(event: string, included: unknown[] = []) {
	return {
		data: {
			id: ids.notification,
			type: 'webhook_notification',
			attributes: {
				id: ids.notification,
				event,
				delivery_status: 'succeeded',
				created_at: '2022-10-21T20:19:13Z',
			},
			relationships: {
				reference_object: { data: { id: ids.event, type: 'container_updated_event' } },
				webhook: { data: { id: ids.webhook, type: 'webhook' } },
				webhook_notification_logs: { data: [] },
			},
		},
		included,
	};
}

/** The warnings a document gives, as `record | path | expected | received` lines. */
function warningLines(schema: z.ZodTypeAny, value: unknown): string[] {
	return documentWarnings(schema, value).all.map(
		(warning) => `${warning.record} | ${warning.path} | ${warning.expected} | ${warning.received}`,
	);
}

describe('schemas: values no table lists pass, unchanged', () => {
	it('container: unknown status, equipment, hold names and statuses, fee types', () => {
		const doc = containerDocumentWith({
			current_status: 'in_transit_inland',
			equipment_type: 'ventilated',
			equipment_length: 53,
			equipment_height: 'super_high_cube',
			holds_at_pod_terminal: [
				{ name: 'usda', status: 'released', description: null },
				{ name: 'CTF', status: 'satisfied' },
			],
			fees_at_pod_terminal: [{ type: 'storage', amount: 10, currency_code: 'USD' }],
		});
		expect(warningLines(containerDocument, doc)).toEqual([]);
		expect(expectSchema(containerDocument, doc).data.attributes).toEqual(doc.data.attributes);
	});

	it('tracking request, shipment, transport event and inference values', () => {
		const trackingRequest = {
			data: {
				id: 't1',
				type: 'tracking_request',
				attributes: {
					request_number: 'MEDUFR030802',
					request_type: 'booking_number',
					scac: 'MSCU',
					status: 'accepted',
					failed_reason: 'scac_auto_detect_failed',
				},
			},
		};
		expect(warningLines(trackingRequestDocument, trackingRequest)).toEqual([]);
		for (const status of ['hold', 'awaiting_manifest', 'created']) {
			const doc = structuredClone(trackingRequest);
			doc.data.attributes.status = status;
			expect(warningLines(trackingRequestDocument, doc)).toEqual([]);
		}
		const events = {
			data: [
				{
					id: 'e1',
					type: 'transport_event',
					attributes: { event: 'container.transport.gate_scanned', data_source: 'pierpass' },
				},
			],
			included: [
				{
					id: 's1',
					type: 'shipment',
					attributes: {
						bill_of_lading_number: 'MEDUFR030802',
						line_tracking_stopped_reason: 'account_closed',
					},
				},
			],
		};
		expect(warningLines(transportEventListDocument, events)).toEqual([]);
		const inference = {
			data: {
				id: 'req_1',
				type: 'infer_number_results',
				attributes: {
					number_type: 'house_bill_of_lading',
					validation: { is_valid: true, type: 'shipment' },
					shipping_line: { decision: 'manual_review', candidates: [] },
				},
			},
		};
		expect(warningLines(inferNumberDocument, inference)).toEqual([]);
	});

	it('lets unknown fields through and keeps them', () => {
		const doc = containerDocumentWith({
			brand_new_attribute: { nested: true },
			holds_at_pod_terminal: [{ name: 'TMF', status: 'hold', since: '2024-01-01' }],
		});
		const parsed = expectSchema(containerDocument, { ...doc, jsonapi: { version: '1.0' } });
		expect(parsed.data.attributes.brand_new_attribute).toEqual({ nested: true });
		expect(parsed.data.attributes.holds_at_pod_terminal?.[0]).toMatchObject({
			since: '2024-01-01',
		});
		expect(parsed).toHaveProperty('jsonapi');
		expectSchema(container, { ...doc.data, extra_top_level: 1 });
	});
});

describe('schemas: structure real answers carry', () => {
	it('null relationships, records without links, relationships or meta, null list entries, numeric strings', () => {
		const doc = {
			data: {
				id: ids.container,
				type: 'container',
				attributes: {
					number: 'MSKU4807969',
					ref_numbers: [null],
					weight_in_lbs: '52910',
					fees_at_pod_terminal: [{ type: 'demurrage', amount: '175.50' }],
				},
				relationships: {
					shipment: { data: null },
					pod_terminal: { links: { related: '/v2/terminals/1' } },
					transport_events: { data: null },
				},
			},
			included: [
				{
					id: ids.shipment,
					type: 'shipment',
					attributes: { bill_of_lading_number: 'X', ref_numbers: [null], tags: [null] },
				},
				{
					id: 't1',
					type: 'terminal',
					attributes: { name: 'APM' },
					relationships: { port: { data: null } },
				},
				{ id: 'p1', type: 'port', attributes: { latitude: '37.8044', longitude: -122.27 } },
			],
			links: null,
			meta: null,
		};
		expect(warningLines(containerDocument, doc)).toEqual([]);
	});
});

describe('schemas: differences become warnings that name the record, the path and the expectation', () => {
	it('container attributes of the wrong shape', () => {
		const doc = containerDocumentWith({
			holds_at_pod_terminal: { name: 'customs', status: 'hold' },
			fees_at_pod_terminal: [
				{ type: 'demurrage', currency_code: 'USD' },
				{ type: 'exam', amount: 'twelve' },
			],
			pickup_lfd: '07/07/2024',
			available_for_pickup: 'yes',
		});
		expect(warningLines(containerDocument, doc)).toEqual([
			`container ${ids.container} | attributes.pickup_lfd | an ISO 8601 date-time | "07/07/2024"`,
			`container ${ids.container} | attributes.available_for_pickup | true or false | "yes"`,
			`container ${ids.container} | attributes.holds_at_pod_terminal | a list | {"name":"customs","status":"hold"}`,
			`container ${ids.container} | attributes.fees_at_pod_terminal.0.amount | a number or a numeric string | nothing`,
			`container ${ids.container} | attributes.fees_at_pod_terminal.1.amount | a number or a numeric string | "twelve"`,
		]);
	});

	it('a container without its number', () => {
		expect(warningLines(containerDocument, containerDocumentWith({ number: null }))).toEqual([
			`container ${ids.container} | attributes.number | text | null`,
		]);
	});

	it('a warning in an included record names that record; a list item gets its own and its related records\u2019 warnings', () => {
		const list = {
			data: [
				{
					id: 'c1',
					type: 'container',
					attributes: { number: 'A' },
					relationships: { shipment: { data: { id: 's1', type: 'shipment' } } },
				},
				{ id: 'c2', type: 'container', attributes: { number: 2 } },
			],
			included: [
				{
					id: 's1',
					type: 'shipment',
					attributes: { bill_of_lading_number: 'B', ref_numbers: 'PO-1' },
				},
			],
		};
		const warnings = documentWarnings(containerListDocument, list);
		expect(warnings.forRecord(0)).toEqual([
			{
				record: 'shipment s1',
				path: 'attributes.ref_numbers',
				expected: 'a list of strings',
				received: '"PO-1"',
			},
		]);
		expect(warnings.forRecord(1)).toEqual([
			{ record: 'container c2', path: 'attributes.number', expected: 'text', received: '2' },
		]);
		expect(warnings.all).toHaveLength(2);
	});

	it('tracking requests, inferences and webhooks', () => {
		const inference = {
			data: {
				id: 'req_1',
				type: 'infer_number_results',
				attributes: {
					number_type: 'container',
					shipping_line: {
						decision: 'auto_select',
						selected: { scac: 'MAEU', confidence: 'high' },
					},
				},
			},
		};
		expect(warningLines(inferNumberDocument, inference)).toEqual([
			'infer_number_results req_1 | attributes.shipping_line.selected.confidence | a number or a numeric string | "high"',
		]);
		const webhookRecord = {
			id: 'w1',
			type: 'webhook',
			attributes: { url: 'https://example.com/hook', headers: 'X-Token: abc' },
		};
		expect(warningLines(webhookDocument, { data: webhookRecord })).toEqual([
			'webhook w1 | attributes.headers | a list | "X-Token: abc"',
		]);
		expect(
			warningLines(webhookListDocument, { data: [webhookRecord], meta: { size: 30, total: 1 } }),
		).toHaveLength(1);
	});

	it('never throws, whatever the body', () => {
		for (const body of [
			null,
			'text',
			42,
			[],
			{},
			{ data: null },
			{ data: [null] },
			{ included: 'x' },
		]) {
			expect(() => documentWarnings(containerDocument, body)).not.toThrow();
			expect(() => documentWarnings(containerListDocument, body).forRecord(0)).not.toThrow();
		}
	});

	it('accepts error bodies with null or missing title and detail', () => {
		expectSchema(jsonApiErrorDocument, {
			errors: [
				{ status: '404', title: 'Not Found' },
				{
					status: '422',
					title: null,
					detail: null,
					code: 'duplicate',
					source: { pointer: '/data' },
				},
			],
		});
		expectInvalidAt(jsonApiErrorDocument, { errors: [{ status: 422 }] }, ['errors', 0, 'status']);
	});
});

describe('schemas: what an operation cannot work without', () => {
	it('a single answer needs data with an id and a type', () => {
		expectSchema(singleDocumentCore, { data: { id: 'c1', type: 'container' } });
		expectInvalidAt(singleDocumentCore, {}, ['data']);
		expectInvalidAt(singleDocumentCore, { data: null }, ['data']);
		expectInvalidAt(singleDocumentCore, { data: { type: 'container' } }, ['data', 'id']);
		expectInvalidAt(singleDocumentCore, { data: { id: 'c1' } }, ['data', 'type']);
	});

	it('a list answer needs a list of records with ids and types (an empty list is an answer)', () => {
		expectSchema(listDocumentCore, { data: [] });
		expectInvalidAt(listDocumentCore, { data: { id: 'c1', type: 'container' } }, ['data']);
		expectInvalidAt(
			listDocumentCore,
			{ data: [{ id: 'c1', type: 'container' }, { type: 'container' }] },
			['data', 1, 'id'],
		);
	});

	it('a delivery needs data.id and data.attributes.event, nothing else', () => {
		expectSchema(deliveryCore, { data: { id: 'n1', attributes: { event: 'container.updated' } } });
		expectInvalidAt(deliveryCore, { data: { attributes: { event: 'container.updated' } } }, [
			'data',
			'id',
		]);
		expectInvalidAt(deliveryCore, { data: { id: 'n1', attributes: {} } }, [
			'data',
			'attributes',
			'event',
		]);
		expectInvalidAt(deliveryCore, { data: { id: 'n1', attributes: { event: '' } } }, [
			'data',
			'attributes',
			'event',
		]);
	});
});

describe('schemas: webhook deliveries', () => {
	const changed = { available_for_pickup: [false, true] };

	it('accepts a delivery with an unknown event name', () => {
		const parsed = expectSchema(webhookNotificationEnvelope, delivery('container.teleported'));
		expect(parsed.data.attributes.event).toBe('container.teleported');
	});

	it('accepts included records of unknown types as generic resources', () => {
		const unknownRecord = { id: 'd1', type: 'document', attributes: { pages: 3 } };
		expectSchema(webhookNotificationEnvelope, delivery('document.extracted', [unknownRecord]));
	});

	it('a delivery without data.relationships.reference_object is a warning, not a refusal', () => {
		const withoutReference = delivery('container.updated');
		delete (
			withoutReference.data.relationships as Partial<typeof withoutReference.data.relationships>
		).reference_object;
		expect(warningLines(webhookNotificationEnvelope, withoutReference)).toEqual([
			`webhook_notification ${ids.notification} | relationships.reference_object | an object | nothing`,
		]);
		expectSchema(deliveryCore, withoutReference);
	});

	it('lets any changeset value through: pairs are checked where the changeset is split', () => {
		for (const value of [[true], [false, true, true], 'true', null]) {
			const body = delivery('container.updated', [
				containerUpdatedRecord({ available_for_pickup: value }),
			]);
			expect(warningLines(webhookNotificationEnvelope, body)).toEqual([]);
		}
		expectSchema(changeset, { pickup_lfd: [null] });
	});

	it('accepts changesets with any attribute name and any old/new values', () => {
		const record = containerUpdatedRecord({
			...changed,
			holds_at_pod_terminal: [[], [{ name: 'customs', status: 'hold', description: null }]],
			some_future_attribute: [null, { anything: 1 }],
		});
		const parsed = expectSchema(containerUpdatedEvent, record);
		expect(Object.keys(parsed.attributes.changeset)).toHaveLength(3);
		expectSchema(webhookNotificationEnvelope, delivery('container.updated', [record]));
	});

	it('checks included records of known types against their schema, as warnings on that record', () => {
		const badContainer = containerDocumentWith({
			holds_at_pod_terminal: [{ name: 'customs', status: 7 }],
		}).data;
		expect(
			warningLines(
				webhookNotificationEnvelope,
				delivery('container.updated', [containerUpdatedRecord(changed), badContainer]),
			),
		).toEqual([
			`container ${ids.container} | attributes.holds_at_pod_terminal.0.status | text | 7`,
		]);
	});

	it('accepts a delivery whose included is empty, null or absent', () => {
		const withoutIncluded: Partial<ReturnType<typeof delivery>> = delivery(
			'container.transport.available',
		);
		delete withoutIncluded.included;
		expectSchema(webhookNotificationEnvelope, withoutIncluded);
		expectSchema(webhookNotificationEnvelope, delivery('container.transport.available', []));
		expectSchema(webhookNotificationEnvelope, { ...withoutIncluded, included: null });
	});
});

import type { z } from 'zod';

import {
	changeset,
	container,
	containerDocument,
	containerUpdatedEvent,
	inferNumberDocument,
	jsonApiErrorDocument,
	port,
	rawEventListDocument,
	terminalFee,
	terminalHold,
	trackingRequestDocument,
	transportEventListDocument,
	webhookDocument,
	webhookListDocument,
	webhookNotificationDocument,
} from '../../nodes/ContainerTracking/schemas';
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

/** Notification fixture → the reference object type its event implies (service notes). */
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

/** The service notes' rule: which reference object type an event name comes with. */
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
			webhookNotificationDocument,
			readFixture('notifications', name),
			`fixtures/notifications/${name}`,
		);
		const referenceType = delivery.data.relationships.reference_object.data.type;
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

const attributesPath = ['data', 'attributes'];

describe('schemas: container', () => {
	it('accepts a container with only its number', () => {
		expectSchema(containerDocument, containerDocumentWith({}));
	});

	it('rejects a hold with status "released" (cleared holds leave the array)', () => {
		const doc = containerDocumentWith({
			holds_at_pod_terminal: [{ name: 'customs', status: 'released', description: null }],
		});
		expectInvalidAt(containerDocument, doc, [
			...attributesPath,
			'holds_at_pod_terminal',
			0,
			'status',
		]);
	});

	it('rejects a hold name in the wrong case', () => {
		expectInvalidAt(terminalHold, { name: 'usda', status: 'hold' }, ['name']);
		expectSchema(terminalHold, { name: 'USDA', status: 'pending' });
	});

	it('rejects holds_at_pod_terminal that is not an array', () => {
		const doc = containerDocumentWith({
			holds_at_pod_terminal: { name: 'customs', status: 'hold' },
		});
		expectInvalidAt(containerDocument, doc, [...attributesPath, 'holds_at_pod_terminal']);
		expectInvalidAt(containerDocument, containerDocumentWith({ holds_at_pod_terminal: null }), [
			...attributesPath,
			'holds_at_pod_terminal',
		]);
	});

	it('rejects a fee without amount, accepts amount 0', () => {
		const doc = containerDocumentWith({
			fees_at_pod_terminal: [{ type: 'demurrage', currency_code: 'USD' }],
		});
		expectInvalidAt(containerDocument, doc, [
			...attributesPath,
			'fees_at_pod_terminal',
			0,
			'amount',
		]);
		expectSchema(terminalFee, { type: 'exam', amount: 0, currency_code: 'USD' });
		expectInvalidAt(terminalFee, { type: 'storage', amount: 10 }, ['type']);
	});

	it('rejects a container whose number is null or missing', () => {
		expectInvalidAt(containerDocument, containerDocumentWith({ number: null }), [
			...attributesPath,
			'number',
		]);
		const withoutNumber = { data: { id: ids.container, type: 'container', attributes: {} } };
		expectInvalidAt(containerDocument, withoutNumber, [...attributesPath, 'number']);
	});

	it('checks enums and date-times of present attributes', () => {
		expectInvalidAt(containerDocument, containerDocumentWith({ current_status: 'lost' }), [
			...attributesPath,
			'current_status',
		]);
		expectInvalidAt(containerDocument, containerDocumentWith({ equipment_length: 30 }), [
			...attributesPath,
			'equipment_length',
		]);
		expectInvalidAt(containerDocument, containerDocumentWith({ pickup_lfd: '07/07/2024' }), [
			...attributesPath,
			'pickup_lfd',
		]);
		expectSchema(
			containerDocument,
			containerDocumentWith({
				created_at: '2020-04-04T16:13:35-07:00',
				pickup_lfd: '2022-10-21T20:19:12Z',
				ind_facility_lfd_on: null,
				import_deadlines: {
					pickup_lfd_terminal: null,
					pickup_lfd_rail: null,
					pickup_lfd_line: null,
				},
			}),
		);
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

describe('schemas: port coordinates', () => {
	const portWith = (latitude: unknown) => ({
		id: 'p1',
		type: 'port',
		attributes: { name: 'Oakland', code: 'USOAK', country_code: 'US', latitude },
	});

	it('accepts numbers, numeric strings and null', () => {
		for (const latitude of [37.8044, '37.8044', '-122.2712', null]) {
			expectSchema(port, portWith(latitude), `latitude ${String(latitude)}`);
		}
	});

	it('rejects text that is not a number', () => {
		expectInvalidAt(port, portWith('north'), ['attributes', 'latitude']);
	});
});

describe('schemas: infer_number result', () => {
	const result = (shippingLine: Record<string, unknown>) => ({
		data: {
			id: 'req_1',
			type: 'infer_number_results',
			attributes: {
				number_type: 'bill_of_lading',
				validation: { is_valid: null, type: 'shipment', reason: null, parsed_number: null },
				shipping_line: shippingLine,
			},
		},
	});

	it('accepts a result without `selected`', () => {
		expectSchema(inferNumberDocument, result({ decision: 'no_prediction', candidates: [] }));
	});

	it('rejects an unknown decision and a confidence above 1', () => {
		expectInvalidAt(inferNumberDocument, result({ decision: 'maybe', candidates: [] }), [
			...attributesPath,
			'shipping_line',
			'decision',
		]);
		const tooConfident = result({
			decision: 'auto_select',
			candidates: [{ scac: 'MAEU', name: 'Maersk', confidence: 95 }],
		});
		expectInvalidAt(inferNumberDocument, tooConfident, [
			...attributesPath,
			'shipping_line',
			'candidates',
			0,
			'confidence',
		]);
	});
});

describe('schemas: tracking requests and webhooks', () => {
	it('rejects an unknown tracking request status', () => {
		const doc = {
			data: {
				id: 't1',
				type: 'tracking_request',
				attributes: {
					request_number: 'MEDUFR030802',
					request_type: 'bill_of_lading',
					scac: 'MSCU',
					status: 'done',
				},
			},
		};
		expectInvalidAt(trackingRequestDocument, doc, [...attributesPath, 'status']);
	});

	it('accepts webhook headers as null or [{name, value}], and any event name', () => {
		const webhookRecord = (headers: unknown) => ({
			id: 'w1',
			type: 'webhook',
			attributes: {
				url: 'https://example.com/hook',
				active: true,
				events: ['container.updated', 'some.future.event'],
				headers,
			},
		});
		expectSchema(webhookListDocument, {
			data: [webhookRecord(null), webhookRecord([{ name: 'X-Token', value: 'abc' }])],
			links: { self: 'https://api.example.com/v2/webhooks?page[number]=1' },
			meta: { size: 30, total: 2 },
		});
		expectInvalidAt(webhookDocument, { data: webhookRecord('X-Token: abc') }, [
			...attributesPath,
			'headers',
		]);
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

describe('schemas: webhook deliveries', () => {
	const changed = { available_for_pickup: [false, true] };

	it('accepts a delivery with an unknown event name', () => {
		const parsed = expectSchema(webhookNotificationDocument, delivery('container.teleported'));
		expect(parsed.data.attributes.event).toBe('container.teleported');
	});

	it('accepts included records of unknown types as generic resources', () => {
		const unknownRecord = { id: 'd1', type: 'document', attributes: { pages: 3 } };
		expectSchema(webhookNotificationDocument, delivery('document.extracted', [unknownRecord]));
	});

	it('rejects a delivery without data.relationships.reference_object', () => {
		const withoutReference = delivery('container.updated');
		delete (
			withoutReference.data.relationships as Partial<typeof withoutReference.data.relationships>
		).reference_object;
		expectInvalidAt(webhookNotificationDocument, withoutReference, [
			'data',
			'relationships',
			'reference_object',
		]);
	});

	it('rejects a changeset value that is not a two-element array', () => {
		for (const value of [[true], [false, true, true], 'true', null]) {
			const body = delivery('container.updated', [
				containerUpdatedRecord({ available_for_pickup: value }),
			]);
			expectInvalidAt(webhookNotificationDocument, body, [
				'included',
				0,
				'attributes',
				'changeset',
				'available_for_pickup',
			]);
		}
		expectInvalidAt(changeset, { pickup_lfd: [null] }, ['pickup_lfd']);
	});

	it('accepts changesets with any attribute name and any old/new values', () => {
		const record = containerUpdatedRecord({
			...changed,
			holds_at_pod_terminal: [[], [{ name: 'customs', status: 'hold', description: null }]],
			some_future_attribute: [null, { anything: 1 }],
		});
		const parsed = expectSchema(containerUpdatedEvent, record);
		expect(Object.keys(parsed.attributes.changeset)).toHaveLength(3);
		expectSchema(webhookNotificationDocument, delivery('container.updated', [record]));
	});

	it('checks included records of known types against their schema', () => {
		const badContainer = containerDocumentWith({
			holds_at_pod_terminal: [{ name: 'customs', status: 'released' }],
		}).data;
		expectInvalidAt(
			webhookNotificationDocument,
			delivery('container.updated', [containerUpdatedRecord(changed), badContainer]),
			['included', 1, 'attributes', 'holds_at_pod_terminal', 0, 'status'],
		);
	});

	it('accepts a delivery whose included is empty or absent', () => {
		const withoutIncluded: Partial<ReturnType<typeof delivery>> = delivery(
			'container.transport.available',
		);
		delete withoutIncluded.included;
		expectSchema(webhookNotificationDocument, withoutIncluded);
		expectSchema(webhookNotificationDocument, delivery('container.transport.available', []));
	});
});

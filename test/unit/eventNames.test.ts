/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a test reading docs/trigger.md from disk; both rules are for the published nodes */
// Readable events (nodes/ContainerTracking/logic/eventNames.ts): every known event name has a
// label and a meaning, the pickers list them in a container's journey order, and items carry the
// label beside the raw name; a name the service adds later still passes through everywhere.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { description as getTransportEvents } from '../../nodes/ContainerTracking/actions/container/getTransportEvents';
import { description as createWebhook } from '../../nodes/ContainerTracking/actions/webhook/create';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import {
	EVENT_OPTIONS,
	eventLabel,
	withEventLabel,
} from '../../nodes/ContainerTracking/logic/eventNames';
import { deliveryItems } from '../../nodes/ContainerTracking/trigger/items/deliveryItems';
import type { Delivery } from '../../nodes/ContainerTracking/schemas';
import { EVENT_NAMES, RAIL_PLAN_EVENTS } from '../../sandbox/world/eventNames';

const values = EVENT_OPTIONS.map((option) => String(option.value));
const position = (name: string) => values.indexOf(name);

function optionsOf(properties: INodeProperties[], name: string): INodePropertyOptions[] {
	const found = properties.find((property) => property.name === name);
	if (found) return found.options as INodePropertyOptions[];
	const nested = properties
		.flatMap((property) => (property.options ?? []) as INodeProperties[])
		.find((property) => property.name === name);
	return nested!.options as INodePropertyOptions[];
}

/** A delivery that carries only its reference object, as the service sends some events. */
function referenceOnly(event: string): Delivery {
	return {
		data: {
			id: 'n-9',
			attributes: { event, created_at: '2026-11-23T10:00:00Z' },
			relationships: { reference_object: { data: { id: 'te-9', type: 'transport_event' } } },
		},
	};
}

describe('event labels', () => {
	it('gives each of the 43 names one option, with a label and a meaning naming the raw name', () => {
		expect(EVENT_NAMES).toHaveLength(43);
		expect(EVENT_OPTIONS).toHaveLength(43);
		expect([...values].sort()).toEqual([...EVENT_NAMES].sort());
		for (const name of EVENT_NAMES) {
			const option = EVENT_OPTIONS.find((entry) => entry.value === name)!;
			expect(option.name).toBe(eventLabel(name));
			expect(option.name).not.toBe(name);
			expect(option.name).toMatch(/^[A-Z]/);
			expect(option.description).toMatch(/^[A-Z]/);
			expect(option.description!.endsWith(` (${name})`)).toBe(true);
			expect(option.description!.length).toBeGreaterThan(name.length + 20);
			// The line n8n's nodes panel shows for the trigger.
			expect(option.action).toBe(`On ${option.name}`);
		}
	});

	it('has unique labels', () => {
		const labels = EVENT_OPTIONS.map((option) => option.name);
		expect(new Set(labels).size).toBe(labels.length);
		const folded = labels.map((label) => label.toLowerCase());
		expect(new Set(folded).size).toBe(labels.length);
	});

	it('reads the labels the issue asked for', () => {
		expect(eventLabel('container.transport.vessel_arrived')).toBe(
			'Vessel Arrived at Port of Discharge',
		);
		expect(eventLabel('container.updated')).toBe(
			'Container Updated — holds, fees, last free day, availability',
		);
		expect(eventLabel('container.pickup_lfd.changed')).toBe('Last Free Day Changed');
		expect(eventLabel('container.pickup_lfd_line.changed')).toBe('Line Last Free Day Changed');
		expect(eventLabel('container.pickup_appointment.changed')).toBe('Pickup Appointment Changed');
		expect(eventLabel('tracking_request.succeeded')).toBe('Tracking Request Succeeded');
		for (const name of RAIL_PLAN_EVENTS) expect(eventLabel(name)).toMatch(/\(Rail Plan\)$/);
		expect(eventLabel('container.pickup_lfd_rail.changed')).toBe(
			'Rail Last Free Day Changed (Rail Plan)',
		);
		for (const name of EVENT_NAMES.filter((entry) => entry.includes('.estimated.')))
			expect(eventLabel(name)).toMatch(/^Estimated .* Changed$/);
	});

	it('lists container.updated first, then a container journey in order', () => {
		expect(values[0]).toBe('container.updated');
		const journey = [
			'tracking_request.succeeded',
			'container.created',
			'container.transport.empty_out',
			'container.transport.full_in',
			'container.transport.vessel_loaded',
			'container.transport.vessel_departed',
			'container.transport.transshipment_arrived',
			'container.transport.feeder_arrived',
			'container.transport.vessel_arrived',
			'container.transport.vessel_berthed',
			'container.transport.vessel_discharged',
			'container.transport.available',
			'container.pickup_lfd.changed',
			'container.transport.rail_loaded',
			'container.transport.rail_departed',
			'container.transport.arrived_at_inland_destination',
			'container.transport.rail_unloaded',
			'container.transport.full_out',
			'container.transport.delivered',
			'container.transport.empty_in',
			'document.extracted',
		];
		const positions = journey.map(position);
		expect(positions.every((index) => index > 0)).toBe(true);
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
		// Each group stays together: the four tracking request events, the five deadlines.
		const together = (prefix: string) => {
			const at = values.flatMap((value, index) => (value.startsWith(prefix) ? [index] : []));
			expect(at[at.length - 1] - at[0]).toBe(at.length - 1);
		};
		together('tracking_request.');
		together('container.pickup_');
		together('document.');
		// An estimate comes just before what it estimates.
		expect(position('container.transport.estimated.vessel_departed') + 1).toBe(
			position('container.transport.vessel_departed'),
		);
		expect(position('container.transport.estimated.vessel_arrived') + 1).toBe(
			position('container.transport.vessel_arrived'),
		);
		expect(position('container.transport.estimated.arrived_at_inland_destination') + 1).toBe(
			position('container.transport.arrived_at_inland_destination'),
		);
	});

	it('has no label for a name it does not know, nor for names of Object.prototype', () => {
		expect(eventLabel('container.transport.drone_delivered')).toBeUndefined();
		expect(eventLabel('constructor')).toBeUndefined();
		expect(eventLabel('__proto__')).toBeUndefined();
		expect(eventLabel('')).toBeUndefined();
	});

	it('puts event_label right after event, and leaves other items as they are', () => {
		const item = { id: 'te-1', event: 'container.transport.full_out', timestamp: null };
		const labelled = withEventLabel(item);
		expect(Object.keys(labelled)).toEqual(['id', 'event', 'event_label', 'timestamp']);
		expect(labelled).toEqual({ ...item, event_label: 'Full Container Picked Up' });
		expect(item).not.toHaveProperty('event_label');

		const unknown = { id: 'te-2', event: 'container.transport.drone_delivered' };
		expect(withEventLabel(unknown)).toBe(unknown);
		const noEvent = { id: 'te-3', event: null };
		expect(withEventLabel(noEvent)).toBe(noEvent);
		const ownLabel = { event: 'container.updated', event_label: 'from the service' };
		expect(withEventLabel(ownLabel)).toBe(ownLabel);
	});
});

describe('docs/trigger.md', () => {
	it('lists the events as the pickers do, in their order', () => {
		const readme = readFileSync(path.join(__dirname, '../../docs/trigger.md'), 'utf8');
		const start = readme.indexOf('<summary>The 43 events, in the order the picker lists them');
		expect(start).toBeGreaterThan(0);
		const rows = readme
			.slice(start, readme.indexOf('</details>', start))
			.split('\n')
			.filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
			.slice(1)
			.map((line) => line.split('|').map((cell) => cell.trim()));
		expect(rows.map(([, label, name]) => [label, name])).toEqual(
			EVENT_OPTIONS.map((option) => [option.name, `\`${String(option.value)}\``]),
		);
	});
});

describe('the pickers', () => {
	it('Webhook → Create events offer every labelled event; the trigger loads the account’s', () => {
		const trigger = new ContainerTrackingTrigger().description.properties;
		// The account's list, the node's whole list when it cannot be read (engine/webhookEvents).
		expect(trigger.find((property) => property.name === 'events')?.typeOptions).toEqual({
			loadOptionsMethod: 'getSubscribableEvents',
		});
		expect(optionsOf(createWebhook, 'events')).toBe(EVENT_OPTIONS);
	});

	it('Get Transport Events filters by past transport, deadline and document events, labelled, in journey order', () => {
		const options = optionsOf(getTransportEvents, 'eventNames');
		const names = options.map((option) => String(option.value));
		expect(names).toEqual(
			values.filter(
				(value) =>
					!value.includes('.estimated.') &&
					!value.startsWith('tracking_request.') &&
					!value.startsWith('shipment.') &&
					!['container.updated', 'container.created', 'container.pod_terminal_changed'].includes(
						value,
					),
			),
		);
		expect(names).toContain('container.transport.vessel_arrived');
		expect(names).toContain('container.pickup_appointment.changed');
		expect(names).toContain('document.extraction_failed');
		for (const option of options)
			expect(option).toBe(EVENT_OPTIONS.find((entry) => entry.value === option.value));
	});
});

describe('trigger items', () => {
	const options = { expandHoldsAndFees: true, fields: [], raw: false };

	it('carry the raw event and its label beside it', () => {
		const [item] = deliveryItems(referenceOnly('container.transport.available'), options);
		expect(Object.keys(item).slice(0, 3)).toEqual(['event', 'event_label', 'notification_id']);
		expect(item).toMatchObject({
			event: 'container.transport.available',
			event_label: 'Available for Pickup',
		});
	});

	it('pass an unknown event name through, without a label', () => {
		const [known] = deliveryItems(referenceOnly('container.transport.available'), options);
		const unknown = deliveryItems(referenceOnly('container.transport.drone_delivered'), options);
		const expected: IDataObject = { ...known, event: 'container.transport.drone_delivered' };
		delete expected.event_label;
		expect(unknown).toEqual([expected]);
		expect(unknown[0]).not.toHaveProperty('event_label');
		expect(unknown[0]).toMatchObject({ notification_id: 'n-9', reference_id: 'te-9' });
	});

	it('in raw mode are the notification as it came, without a label', () => {
		const notification = referenceOnly('container.transport.available');
		expect(deliveryItems(notification, { ...options, raw: true })).toEqual([notification]);
	});
});

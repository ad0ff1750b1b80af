/**
 * Raw events: the carrier's and terminal's own view of a journey, including estimated future
 * events (docs/service.md, "Raw events"), in the shape of the service's published example.
 */
import { DateTime } from 'luxon';

import { deterministicUuid } from './random';
import type { Resource } from './store';
import { HOUR, isoTimestamp } from './time';
import type { World } from './world';

/** How carriers word the events in their own feeds. */
const ORIGINAL_WORDING: Record<string, string> = {
	empty_out: 'Gate out empty',
	full_in: 'Gate in full',
	vessel_loaded: 'Loaded on vessel',
	vessel_departed: 'Vessel departed',
	vessel_arrived: 'Vessel arrived',
	vessel_berthed: 'Vessel berthed',
	vessel_discharged: 'Discharged from vessel',
	available: 'Available for delivery',
	full_out: 'Gate out full',
	empty_in: 'Empty returned',
	rail_loaded: 'Loaded on rail',
	rail_departed: 'Rail departed',
	rail_arrived: 'Rail arrived',
	arrived_at_inland_destination: 'Arrived at inland destination',
	rail_unloaded: 'Unloaded from rail',
};

interface RawEventSource {
	key: string;
	event: string;
	timestamp: string | null;
	estimated: boolean;
	createdAt: string;
	timezone: string | null;
	locode: string | null;
	location: Resource | undefined;
	vessel: Resource | undefined;
	voyageNumber: string | null;
}

export function rawEventsOf(
	world: World,
	container: Resource,
): { events: Resource[]; vessels: Resource[] } {
	const sources: RawEventSource[] = [];
	for (const transportEvent of world.store.related(container, 'transport_events')) {
		const name = String(transportEvent.attributes.event);
		if (!name.startsWith('container.transport.')) continue;
		sources.push({
			key: transportEvent.id,
			event: name.replace('container.transport.', ''),
			timestamp: transportEvent.attributes.timestamp as string | null,
			estimated: false,
			createdAt: String(transportEvent.attributes.created_at),
			timezone: transportEvent.attributes.timezone as string | null,
			locode: transportEvent.attributes.location_locode as string | null,
			location: world.store.related(transportEvent, 'location')[0],
			vessel: world.store.related(transportEvent, 'vessel')[0],
			voyageNumber: transportEvent.attributes.voyage_number as string | null,
		});
	}
	const plan = world.journeyPlanOf(container.id);
	const shipment = world.store.related(container, 'shipment')[0];
	const estimatedArrival = shipment?.attributes.pod_eta_at as string | null | undefined;
	if (plan && estimatedArrival && !container.attributes.pod_arrived_at) {
		const shared = {
			estimated: true,
			createdAt: isoTimestamp(world.clock.now()),
			timezone: String(plan.pod.attributes.time_zone),
			locode: String(plan.pod.attributes.code),
			location: plan.pod,
			vessel: plan.vessel,
			voyageNumber: plan.voyageNumber,
		};
		sources.push({
			...shared,
			key: `${container.id}:eta`,
			event: 'vessel_arrived',
			timestamp: estimatedArrival,
		});
		sources.push({
			...shared,
			key: `${container.id}:etd`,
			event: 'vessel_discharged',
			timestamp: isoTimestamp(Date.parse(estimatedArrival) + 18 * HOUR),
		});
	}
	sources.sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? ''));

	const vessels = new Map<string, Resource>();
	const events = sources.map((source, index): Resource => {
		if (source.vessel) vessels.set(source.vessel.id, source.vessel);
		const local = source.timestamp
			? DateTime.fromISO(source.timestamp, { zone: source.timezone ?? 'UTC' })
			: null;
		return {
			id: deterministicUuid('raw_event', source.key),
			type: 'raw_event',
			attributes: {
				timestamp: source.timestamp,
				estimated: source.estimated,
				actual_on: source.estimated || !local ? null : local.toISODate(),
				estimated_at: source.estimated ? source.timestamp : null,
				actual_at: source.estimated ? null : source.timestamp,
				event: source.event,
				index,
				original_event: ORIGINAL_WORDING[source.event] ?? source.event.replace(/_/g, ' '),
				created_at: source.createdAt,
				voyage_number: source.voyageNumber,
				location_name: (source.location?.attributes.name as string | undefined) ?? null,
				location_locode: source.locode,
				vessel_name: (source.vessel?.attributes.name as string | undefined) ?? null,
				vessel_imo: (source.vessel?.attributes.imo as string | undefined) ?? null,
				timezone: source.timezone,
			},
			relationships: {
				location: {
					data: source.location ? { id: source.location.id, type: source.location.type } : null,
				},
				vessel: { data: source.vessel ? { id: source.vessel.id, type: 'vessel' } : null },
			},
		};
	});
	return { events, vessels: [...vessels.values()].map((vessel) => structuredClone(vessel)) };
}

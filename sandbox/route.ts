/**
 * `GET /containers/{id}/route`: where a container goes, stop by stop (docs/service.md, "Terminals,
 * ports and vessels"): a `route` whose `route_locations` are the port of lading, the port of
 * discharge and, on an inland move, the destination, each with how the box arrives (`inbound_*`)
 * and leaves (`outbound_*`), the port, its terminal and the vessels included. Routing Data is a
 * paid feature: an account without it gets 403.
 */
import { ApiError } from './http/jsonApi';
import { deterministicUuid } from './world/random';
import { relationshipTo, type Resource } from './world/store';
import type { World } from './world/world';

type Attributes = Record<string, unknown>;

function stop(
	routeId: string,
	index: number,
	location: Resource | undefined,
	facility: Resource | undefined,
	inbound: { mode: string; vessel?: Resource; eta: unknown; ata: unknown } | null,
	outbound: { mode: string; vessel?: Resource; etd: unknown; atd: unknown } | null,
	line: Attributes,
): Resource {
	const voyage = line.pod_voyage_number ?? null;
	return {
		id: deterministicUuid('route_location', routeId, String(index)),
		type: 'route_location',
		attributes: {
			inbound_mode: inbound?.mode ?? null,
			inbound_scac: inbound?.mode === 'vessel' ? line.shipping_line_scac : null,
			inbound_voyage_number: inbound?.mode === 'vessel' ? voyage : null,
			inbound_eta_at: inbound?.eta ?? null,
			inbound_ata_at: inbound?.ata ?? null,
			outbound_mode: outbound?.mode ?? null,
			outbound_scac: outbound?.mode === 'vessel' ? line.shipping_line_scac : null,
			outbound_voyage_number: outbound?.mode === 'vessel' ? voyage : null,
			outbound_etd_at: outbound?.etd ?? null,
			outbound_atd_at: outbound?.atd ?? null,
		},
		relationships: {
			location: relationshipTo(location),
			facility: relationshipTo(facility),
			inbound_vessel: relationshipTo(inbound?.vessel),
			outbound_vessel: relationshipTo(outbound?.vessel),
		},
	};
}

export function routeAnswer(world: World, containerId: string) {
	if (!world.options.routingData)
		throw new ApiError(403, [
			{
				status: '403',
				title: 'API access not enabled',
				detail: 'The container route endpoint is not enabled for this account',
			},
		]);
	const container = world.requireContainer(containerId);
	const box = container.attributes as Attributes;
	const shipment = world.store.related(container, 'shipment')[0];
	const line = (shipment?.attributes ?? {}) as Attributes;
	const related = (name: string) => (shipment ? world.store.related(shipment, name)[0] : undefined);
	const vessel = world.store
		.list('vessel')
		.find((record) => record.attributes.imo === line.pod_vessel_imo);
	const routeId = deterministicUuid('route', containerId);
	const destination = related('destination');
	const inland = Boolean(destination);
	const locations = [
		stop(
			routeId,
			0,
			related('port_of_lading'),
			undefined,
			null,
			{
				mode: 'vessel',
				vessel,
				etd: line.pol_etd_at,
				atd: line.pol_atd_at,
			},
			line,
		),
		stop(
			routeId,
			1,
			related('port_of_discharge'),
			related('pod_terminal'),
			{ mode: 'vessel', vessel, eta: line.pod_eta_at, ata: box.pod_arrived_at ?? line.pod_ata_at },
			inland ? { mode: 'rail', etd: null, atd: box.pod_rail_departed_at ?? null } : null,
			line,
		),
		...(inland
			? [
					stop(
						routeId,
						2,
						destination,
						related('destination_terminal'),
						{ mode: 'rail', eta: box.ind_eta_at ?? line.destination_eta_at, ata: box.ind_ata_at },
						null,
						line,
					),
				]
			: []),
	];
	const referenced = new Map<string, Resource>();
	for (const location of locations)
		for (const relationship of Object.values(location.relationships ?? {})) {
			const data = (relationship as { data: { id: string; type: string } | null }).data;
			const record = data ? world.store.get(data.type, data.id) : undefined;
			if (record) referenced.set(`${record.type}:${record.id}`, record);
		}
	const updatedAt = box.updated_at ?? box.created_at ?? null;
	return {
		status: 200,
		body: {
			data: {
				id: routeId,
				type: 'route',
				attributes: { created_at: box.created_at ?? null, updated_at: updatedAt },
				relationships: {
					cargo: { data: { id: container.id, type: 'container' } },
					route_locations: {
						data: locations.map((location) => ({ id: location.id, type: location.type })),
					},
				},
			},
			included: [...locations, ...referenced.values()],
		},
	};
}

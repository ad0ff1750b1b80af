/**
 * Derives a realistic shipment from a tracking number: the same number and SCAC always give the
 * same ports, terminal, vessel, equipment and journey, so tests and demos are repeatable.
 */
import { withCheckDigit } from './containerNumbers';
import type { ContainerPlan } from './plan';
import { customerFor } from './customers';
import { deterministicUuid, SeededRandom } from './random';
import {
	DISCHARGE_PORTS,
	INLAND_DESTINATIONS,
	ORIGIN_PORTS,
	VESSELS_BY_SCAC,
	type InlandDestinationRecord,
	type PortRecord,
	type RailTerminalRecord,
	type TerminalRecord,
	type VesselRecord,
} from './referenceData';
import { findShippingLine } from './shippingLines';
import { relationshipTo, relationshipToMany, type Resource } from './store';
import { DAY, HOUR, isoTimestamp } from './time';

export interface ShipmentRequest {
	number: string;
	scac: string;
	requestType: string;
	refNumbers: string[];
	tags: string[];
	createdAt: number;
}

export interface GeneratedShipment {
	shipment: Resource;
	containers: Resource[];
	/** Ports, metro areas, terminals, rail terminals and the vessel the shipment refers to. */
	records: Resource[];
	plans: ContainerPlan[];
}

/** Lessors own many boxes, which is why a container prefix does not name the carrier. */
const LESSOR_PREFIXES = ['TGHU', 'CAIU', 'TCLU', 'SEGU', 'FCIU', 'TRHU', 'BMOU', 'GESU'];

const EQUIPMENT = [
	{ type: 'dry', length: 40, height: 'high_cube', tare: 8400 },
	{ type: 'dry', length: 40, height: 'standard', tare: 8200 },
	{ type: 'dry', length: 20, height: 'standard', tare: 4900 },
	{ type: 'dry', length: 45, height: 'high_cube', tare: 10800 },
	{ type: 'reefer', length: 40, height: 'high_cube', tare: 10100 },
] as const;

function portResource(port: PortRecord): Resource {
	return {
		id: deterministicUuid('port', port.code),
		type: 'port',
		attributes: {
			name: port.name,
			code: port.code,
			state_abbr: port.state_abbr,
			city: port.city,
			country_code: port.country_code,
			time_zone: port.time_zone,
			latitude: port.latitude,
			longitude: port.longitude,
		},
	};
}

function terminalResource(terminal: TerminalRecord, port: Resource): Resource {
	// A terminal record holds exactly the attributes of the service's `terminal`
	// (docs/service.md, "Terminals, ports and vessels").
	return {
		id: deterministicUuid('terminal', terminal.firms_code),
		type: 'terminal',
		attributes: { ...terminal },
		relationships: { port: relationshipTo(port) },
	};
}

function metroResource(metro: InlandDestinationRecord): Resource {
	return {
		id: deterministicUuid('metro_area', metro.code),
		type: 'metro_area',
		attributes: {
			name: metro.name,
			code: metro.code,
			state_abbr: metro.state_abbr,
			country_code: metro.country_code,
			time_zone: metro.time_zone,
			latitude: metro.latitude,
			longitude: metro.longitude,
		},
	};
}

function railTerminalResource(railTerminal: RailTerminalRecord, metro: Resource): Resource {
	return {
		id: deterministicUuid('rail_terminal', railTerminal.firms_code),
		type: 'rail_terminal',
		attributes: {
			name: railTerminal.name,
			nickname: railTerminal.nickname,
			firms_code: railTerminal.firms_code,
		},
		relationships: { port: { data: null }, metro_area: relationshipTo(metro) },
	};
}

function vesselResource(vessel: VesselRecord, random: SeededRandom, at: number): Resource {
	return {
		id: deterministicUuid('vessel', vessel.imo),
		type: 'vessel',
		attributes: {
			name: vessel.name,
			imo: vessel.imo,
			mmsi: vessel.mmsi,
			latitude: Math.round((random.next() * 60 - 10) * 10000) / 10000,
			longitude: Math.round((random.next() * 120 - 180) * 10000) / 10000,
			nautical_speed_knots: random.int(12, 21),
			navigational_heading_degrees: random.int(0, 359),
			position_timestamp: isoTimestamp(at - random.int(5, 90) * 60_000),
		},
	};
}

function containerNumbers(request: ShipmentRequest, random: SeededRandom): string[] {
	if (request.requestType === 'container') {
		// TEST numbers are not container numbers: the test carrier's box gets a real-looking one.
		return [request.scac === 'TEST' ? withCheckDigit(`TSTU${random.digits(6)}`) : request.number];
	}
	const line = findShippingLine(request.scac);
	const ownPrefixes = line?.containerPrefixes ?? [];
	const count = random.int(1, 3);
	return Array.from({ length: count }, () => {
		const prefix =
			ownPrefixes.length > 0 && random.chance(0.7)
				? random.pick(ownPrefixes)
				: random.pick(LESSOR_PREFIXES);
		return withCheckDigit(`${prefix}${random.digits(6)}`);
	});
}

function inlandRoute(pod: (typeof DISCHARGE_PORTS)[number], random: SeededRandom) {
	const destinations = INLAND_DESTINATIONS.filter((destination) =>
		destination.dischargePortCodes.includes(pod.code),
	);
	if (destinations.length === 0 || !random.chance(0.35)) return null;
	const destination = random.pick(destinations);
	const served = destination.railTerminals.filter((ramp) =>
		pod.railCarrierScacs.includes(ramp.railCarrierScac),
	);
	const railTerminal = random.pick(served.length > 0 ? served : destination.railTerminals);
	const interchanges = INLAND_DESTINATIONS.filter((other) => other.code !== destination.code);
	const interchange =
		interchanges.length > 0 && random.chance(0.5) ? random.pick(interchanges) : null;
	return { destination, railTerminal, interchange };
}

export function generateShipment(request: ShipmentRequest): GeneratedShipment {
	const random = new SeededRandom(`${request.scac}:${request.number}`);
	const line = findShippingLine(request.scac);
	const records: Resource[] = [];
	const keep = (resource: Resource) => {
		records.push(resource);
		return resource;
	};

	const polRecord = random.pick(ORIGIN_PORTS);
	const podRecord = random.pick(DISCHARGE_PORTS);
	const pol = keep(portResource(polRecord));
	const pod = keep(portResource(podRecord));
	const podTerminal = keep(terminalResource(random.pick(podRecord.terminals), pod));
	const fleet =
		VESSELS_BY_SCAC[request.scac] ?? VESSELS_BY_SCAC.TEST ?? Object.values(VESSELS_BY_SCAC)[0];
	const vessel = keep(vesselResource(random.pick(fleet), random, request.createdAt));
	const voyageNumber = `${random.digits(3)}${random.pick(['E', 'W', 'N', 'S'])}`;

	const route = inlandRoute(podRecord, random);
	const metro = route ? keep(metroResource(route.destination)) : null;
	const railTerminal =
		route && metro ? keep(railTerminalResource(route.railTerminal, metro)) : null;
	let interchange: { metro: Resource; railTerminal: Resource } | null = null;
	if (route?.interchange) {
		const interchangeMetro = keep(metroResource(route.interchange));
		interchange = {
			metro: interchangeMetro,
			railTerminal: keep(
				railTerminalResource(route.interchange.railTerminals[0], interchangeMetro),
			),
		};
	}

	const departedAt = request.createdAt - random.int(3, 12) * DAY - random.int(0, 23) * HOUR;
	const etaAt = request.createdAt + random.int(2, 9) * DAY + random.int(0, 23) * HOUR;
	const originalEtaAt = etaAt - random.int(-2, 2) * DAY;
	const billOfLading =
		request.requestType === 'bill_of_lading'
			? request.number
			: `${line?.billOfLadingPrefix ?? request.scac}${random.digits(9)}`;
	const blPrefix = line?.billOfLadingPrefix ?? '';
	const shipmentId = deterministicUuid('shipment', request.scac, request.number);
	const numbers = containerNumbers(request, random);
	const containerIds = numbers.map((number) =>
		deterministicUuid('container', request.scac, number),
	);
	const destinationZone = metro ? String(metro.attributes.time_zone) : podRecord.time_zone;

	const shipment: Resource = {
		id: shipmentId,
		type: 'shipment',
		attributes: {
			bill_of_lading_number: billOfLading,
			normalized_number:
				blPrefix && billOfLading.startsWith(blPrefix)
					? billOfLading.slice(blPrefix.length)
					: billOfLading,
			ref_numbers: request.refNumbers,
			created_at: isoTimestamp(request.createdAt),
			tags: request.tags,
			port_of_lading_locode: polRecord.code,
			port_of_lading_name: polRecord.name,
			port_of_discharge_locode: podRecord.code,
			port_of_discharge_name: podRecord.name,
			destination_locode: metro ? metro.attributes.code : null,
			destination_name: metro ? metro.attributes.name : null,
			shipping_line_scac: request.scac,
			shipping_line_name: line?.name ?? request.scac,
			shipping_line_short_name: line?.name ?? request.scac,
			customer_name: customerFor(request.scac, request.number),
			pod_vessel_name: vessel.attributes.name,
			pod_vessel_imo: vessel.attributes.imo,
			pod_voyage_number: voyageNumber,
			pol_etd_at: isoTimestamp(departedAt - 10 * HOUR),
			pol_atd_at: isoTimestamp(departedAt),
			pod_eta_at: isoTimestamp(etaAt),
			pod_original_eta_at: isoTimestamp(originalEtaAt),
			pod_ata_at: null,
			destination_eta_at: metro ? isoTimestamp(etaAt + 6 * DAY) : null,
			destination_ata_at: null,
			pol_timezone: polRecord.time_zone,
			pod_timezone: podRecord.time_zone,
			destination_timezone: metro ? destinationZone : null,
			line_tracking_last_attempted_at: isoTimestamp(request.createdAt),
			line_tracking_last_succeeded_at: isoTimestamp(request.createdAt),
			line_tracking_stopped_at: null,
			line_tracking_stopped_reason: null,
		},
		relationships: {
			destination: relationshipTo(metro),
			port_of_lading: relationshipTo(pol),
			port_of_discharge: relationshipTo(pod),
			containers: relationshipToMany(containerIds.map((id) => ({ id, type: 'container' }))),
			pod_terminal: relationshipTo(podTerminal),
			destination_terminal: relationshipTo(railTerminal),
			line_tracking_stopped_by_user: { data: null },
		},
		links: { self: `/v2/shipments/${shipmentId}` },
	};

	const containers: Resource[] = [];
	const plans: ContainerPlan[] = [];
	numbers.forEach((number, index) => {
		const equipment = random.pick(EQUIPMENT);
		const containerId = containerIds[index];
		containers.push({
			id: containerId,
			type: 'container',
			attributes: {
				number,
				ref_numbers: request.refNumbers,
				equipment_type: equipment.type,
				equipment_length: equipment.length,
				equipment_height: equipment.height,
				weight_in_lbs: equipment.tare + random.int(4000, 38000),
				created_at: isoTimestamp(request.createdAt),
				seal_number: `${random.letters(2)}${random.digits(7)}`,
				pickup_lfd: null,
				pickup_appointment_at: null,
				availability_known: false,
				available_for_pickup: null,
				pod_arrived_at: null,
				pod_discharged_at: null,
				pod_full_out_at: null,
				terminal_checked_at: null,
				pod_full_out_chassis_number: null,
				location_at_pod_terminal: null,
				final_destination_full_out_at: null,
				empty_terminated_at: null,
				holds_at_pod_terminal: [],
				fees_at_pod_terminal: [],
				pod_timezone: podRecord.time_zone,
				final_destination_timezone: destinationZone,
				empty_terminated_timezone: destinationZone,
				pod_rail_carrier_scac: null,
				ind_rail_carrier_scac: null,
				pod_last_tracking_request_at: isoTimestamp(request.createdAt),
				shipment_last_tracking_request_at: isoTimestamp(request.createdAt),
				pod_rail_loaded_at: null,
				pod_rail_departed_at: null,
				ind_eta_at: null,
				ind_ata_at: null,
				ind_rail_unloaded_at: null,
				ind_facility_lfd_on: null,
				import_deadlines: {
					pickup_lfd_terminal: null,
					pickup_lfd_rail: null,
					pickup_lfd_line: null,
				},
				current_status: 'on_ship',
			},
			relationships: {
				shipment: relationshipTo(shipment),
				pickup_facility: { data: null },
				pod_terminal: relationshipTo(podTerminal),
				transport_events: { data: [] },
				raw_events: { data: [] },
			},
		});
		plans.push({
			containerId,
			shipmentId,
			trackedAt: request.createdAt,
			pol,
			pod,
			podTerminal,
			vessel,
			voyageNumber,
			// Boxes of one shipment are discharged a few hours apart.
			etaAt: etaAt + index * 3 * HOUR,
			inland:
				route && metro && railTerminal
					? {
							metro,
							railTerminal,
							railCarrierScac: route.railTerminal.railCarrierScac,
							interchange,
						}
					: null,
			outcome: random.chance(0.5) ? 'pickup' : 'demurrage',
			// From the number, not a draw: every seeded journey keeps its other draws.
			staysOut: Number(number.slice(4, 10)) % 3 === 2,
			vacisExam: random.chance(0.35),
			freightHold: random.chance(0.4),
			lineReportsLastFreeDay: random.chance(0.7),
			freeDays: random.int(3, 5),
			demurragePerDay: random.pick([150, 175, 200, 250]),
			history: [
				{
					event: 'container.transport.empty_out',
					at: departedAt - 6 * DAY,
					place: 'pol',
					dataSource: 'shipping_line',
					withVessel: false,
				},
				{
					event: 'container.transport.full_in',
					at: departedAt - 3 * DAY,
					place: 'pol',
					dataSource: 'shipping_line',
					withVessel: false,
				},
				{
					event: 'container.transport.vessel_loaded',
					at: departedAt - 14 * HOUR,
					place: 'pol',
					dataSource: 'shipping_line',
					withVessel: true,
				},
				{
					event: 'container.transport.vessel_departed',
					at: departedAt,
					place: 'pol',
					dataSource: 'shipping_line',
					withVessel: true,
				},
			],
		});
	});

	return { shipment, containers, records, plans };
}

/**
 * `GET /vessels/{id}` and `GET /vessels/{imo}`: a vessel the account's shipments sail on, and with
 * `show_positions=true` its last positions, oldest first, ending where it is now
 * (docs/service.md, "Terminals, ports and vessels").
 */
import { notFound } from './http/jsonApi';
import type { Resource } from './world/store';
import type { World } from './world/world';

const POSITIONS = 6;
const HOURS_APART = 6;

/** Where the vessel was, every six hours before its last reported position, on its heading. */
function positionsOf(vessel: Resource): Array<Record<string, unknown>> {
	const {
		latitude,
		longitude,
		nautical_speed_knots,
		navigational_heading_degrees,
		position_timestamp,
	} = vessel.attributes as Record<string, number | string | null>;
	if (typeof latitude !== 'number' || typeof longitude !== 'number') return [];
	const at = Date.parse(String(position_timestamp ?? ''));
	const heading = Number(navigational_heading_degrees ?? 0);
	// Nautical miles sailed in six hours, as degrees of arc.
	const step = (Number(nautical_speed_knots ?? 15) * HOURS_APART) / 60;
	const radians = (heading * Math.PI) / 180;
	return Array.from({ length: POSITIONS }, (_, index) => {
		const back = POSITIONS - 1 - index;
		return {
			latitude: Math.round((latitude - back * step * Math.cos(radians)) * 10000) / 10000,
			longitude: Math.round((longitude - back * step * Math.sin(radians)) * 10000) / 10000,
			heading,
			timestamp: Number.isNaN(at)
				? null
				: new Date(at - back * HOURS_APART * 3_600_000).toISOString().replace('.000Z', 'Z'),
			estimated: false,
		};
	});
}

export function vesselAnswer(world: World, idOrImo: string, query: URLSearchParams) {
	const vessel =
		world.store.get('vessel', idOrImo) ??
		world.store.list('vessel').find((record) => record.attributes.imo === idOrImo);
	if (!vessel) throw notFound();
	const attributes = { ...vessel.attributes };
	if (query.get('show_positions') === 'true') attributes.positions = positionsOf(vessel);
	return { status: 200, body: { data: { ...vessel, attributes } } };
}

import { IANAZone } from 'luxon';

import { SHIPPING_LINES } from '../../nodes/ContainerTracking/logic/shippingLines';
import {
	DISCHARGE_PORTS,
	INLAND_DESTINATIONS,
	ORIGIN_PORTS,
	RAIL_CARRIERS,
	VESSELS_BY_SCAC,
} from '../../sandbox/world/referenceData';
import { deterministicUuid, randomUuid, SeededRandom } from '../../sandbox/world/random';

const OCEAN_CARRIER_SCACS = [
	'MSCU',
	'MAEU',
	'CMDU',
	'HLCU',
	'COSU',
	'ONEY',
	'EGLV',
	'OOLU',
	'YMLU',
	'HDMU',
	'ZIMU',
	'WHLC',
	'TEST',
];

const UUID_V5_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FIRMS_CODE_PATTERN = /^[A-Z][0-9A-Z]{3}$/;

/** IMO check digit, written independently of the data: weights 7..2 over the first six digits. */
function hasValidImoCheckDigit(imo: string): boolean {
	if (!/^\d{7}$/.test(imo)) return false;
	const weightedSum = [7, 6, 5, 4, 3, 2].reduce(
		(sum, weight, index) => sum + weight * Number(imo[index]),
		0,
	);
	return weightedSum % 10 === Number(imo[6]);
}

function duplicatesIn(values: readonly string[]): string[] {
	return values.filter((value, index) => values.indexOf(value) !== index);
}

const allPorts = [...ORIGIN_PORTS, ...DISCHARGE_PORTS];
const allTerminals = DISCHARGE_PORTS.flatMap((port) => port.terminals);
const allRailTerminals = INLAND_DESTINATIONS.flatMap((destination) => destination.railTerminals);
const allVessels = Object.values(VESSELS_BY_SCAC).flat();
const railCarrierScacs = RAIL_CARRIERS.map((carrier) => carrier.scac);

describe('reference data', () => {
	describe('locations', () => {
		it('uses valid IANA time zones everywhere', () => {
			const zones = [...allPorts, ...INLAND_DESTINATIONS].map((place) => place.time_zone);
			const invalid = zones.filter((zone) => !IANAZone.isValidZone(zone));
			expect(invalid).toEqual([]);
		});

		it('uses 5-character LOCODEs that start with the country code', () => {
			for (const place of [...allPorts, ...INLAND_DESTINATIONS]) {
				expect(place.code).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/);
				expect(place.code.slice(0, 2)).toBe(place.country_code);
			}
		});

		it('has no duplicate LOCODEs', () => {
			const codes = [...allPorts, ...INLAND_DESTINATIONS].map((place) => place.code);
			expect(duplicatesIn(codes)).toEqual([]);
		});

		it('has coordinates on the globe', () => {
			for (const place of [...allPorts, ...INLAND_DESTINATIONS]) {
				expect(Math.abs(place.latitude)).toBeLessThanOrEqual(90);
				expect(Math.abs(place.longitude)).toBeLessThanOrEqual(180);
			}
		});

		it('loads outside the US and discharges in the US', () => {
			expect(ORIGIN_PORTS.length).toBeGreaterThanOrEqual(10);
			for (const port of ORIGIN_PORTS) {
				expect(port.country_code).not.toBe('US');
				expect(port.state_abbr).toBeNull();
			}
			expect(DISCHARGE_PORTS.length).toBeGreaterThanOrEqual(5);
			for (const port of DISCHARGE_PORTS) {
				expect(port.country_code).toBe('US');
				expect(port.state_abbr).toMatch(/^[A-Z]{2}$/);
			}
		});
	});

	describe('terminals', () => {
		it('gives every discharge port at least two terminals', () => {
			for (const port of DISCHARGE_PORTS) {
				expect(port.terminals.length).toBeGreaterThanOrEqual(2);
			}
		});

		it('uses FIRMS codes of one letter and three characters, without duplicates', () => {
			const firmsCodes = [...allTerminals, ...allRailTerminals].map(
				(terminal) => terminal.firms_code,
			);
			for (const firmsCode of firmsCodes) {
				expect(firmsCode).toMatch(FIRMS_CODE_PATTERN);
			}
			expect(duplicatesIn(firmsCodes)).toEqual([]);
		});

		it('gives terminals a complete US address', () => {
			for (const terminal of allTerminals) {
				expect(terminal.country).toBe('United States');
				expect(terminal.state_abbr).toMatch(/^[A-Z]{2}$/);
				expect(terminal.zip).toMatch(/^\d{5}$/);
				expect(terminal.street.length).toBeGreaterThan(0);
			}
		});
	});

	describe('rail', () => {
		it('lists the six Class I railroads once each', () => {
			expect(RAIL_CARRIERS).toHaveLength(6);
			expect(duplicatesIn(railCarrierScacs)).toEqual([]);
		});

		it('only refers to known railroads', () => {
			const referenced = [
				...DISCHARGE_PORTS.flatMap((port) => port.railCarrierScacs),
				...allRailTerminals.map((terminal) => terminal.railCarrierScac),
			];
			for (const scac of referenced) {
				expect(railCarrierScacs).toContain(scac);
			}
		});

		it('reaches every inland destination from at least one discharge port', () => {
			const dischargePortCodes = DISCHARGE_PORTS.map((port) => port.code);
			for (const destination of INLAND_DESTINATIONS) {
				expect(destination.railTerminals.length).toBeGreaterThanOrEqual(1);
				expect(destination.dischargePortCodes.length).toBeGreaterThanOrEqual(1);
				for (const portCode of destination.dischargePortCodes) {
					expect(dischargePortCodes).toContain(portCode);
				}
			}
		});

		it('connects a port to a destination only through a railroad that serves both', () => {
			const routesWithoutSharedRailroad: string[] = [];
			for (const destination of INLAND_DESTINATIONS) {
				const rampCarriers = destination.railTerminals.map((terminal) => terminal.railCarrierScac);
				for (const portCode of destination.dischargePortCodes) {
					const port = DISCHARGE_PORTS.find((candidate) => candidate.code === portCode);
					const servesBoth = port?.railCarrierScacs.some((scac) => rampCarriers.includes(scac));
					if (!servesBoth) routesWithoutSharedRailroad.push(`${portCode} -> ${destination.code}`);
				}
			}
			expect(routesWithoutSharedRailroad).toEqual([]);
		});
	});

	describe('vessels', () => {
		it.each(OCEAN_CARRIER_SCACS)('has 3 to 5 vessels for %s', (scac) => {
			const vessels = VESSELS_BY_SCAC[scac] ?? [];
			expect(vessels.length).toBeGreaterThanOrEqual(3);
			expect(vessels.length).toBeLessThanOrEqual(5);
		});

		it('has vessels for every shipping line the nodes know', () => {
			for (const line of SHIPPING_LINES) {
				expect(VESSELS_BY_SCAC[line.scac]?.length ?? 0).toBeGreaterThan(0);
			}
		});

		it('uses IMO numbers that satisfy the check digit', () => {
			const invalid = allVessels.filter((vessel) => !hasValidImoCheckDigit(vessel.imo));
			expect(invalid).toEqual([]);
		});

		it('rejects a wrong IMO check digit in the test helper itself', () => {
			expect(hasValidImoCheckDigit('9289958')).toBe(true);
			expect(hasValidImoCheckDigit('9289957')).toBe(false);
			expect(hasValidImoCheckDigit('928995')).toBe(false);
		});

		it('uses 9-digit MMSIs', () => {
			for (const vessel of allVessels) {
				expect(vessel.mmsi).toMatch(/^\d{9}$/);
			}
		});

		it('has no duplicate IMOs, MMSIs or names', () => {
			expect(duplicatesIn(allVessels.map((vessel) => vessel.imo))).toEqual([]);
			expect(duplicatesIn(allVessels.map((vessel) => vessel.mmsi))).toEqual([]);
			expect(duplicatesIn(allVessels.map((vessel) => vessel.name))).toEqual([]);
		});
	});
});

describe('SeededRandom', () => {
	function draws(random: SeededRandom, count: number): number[] {
		return Array.from({ length: count }, () => random.next());
	}

	it('repeats the same sequence for the same seed', () => {
		expect(draws(new SeededRandom('MSCU1234565'), 50)).toEqual(
			draws(new SeededRandom('MSCU1234565'), 50),
		);
	});

	it('gives different sequences for different seeds, even similar ones', () => {
		expect(draws(new SeededRandom('MEDUXA123456'), 10)).not.toEqual(
			draws(new SeededRandom('MEDUXA123457'), 10),
		);
	});

	it('draws floats in [0, 1)', () => {
		const values = draws(new SeededRandom('floats'), 10_000);
		expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
		expect(Math.max(...values)).toBeLessThan(1);
	});

	it('draws integers within inclusive bounds and reaches both ends', () => {
		const random = new SeededRandom('bounds');
		const values = Array.from({ length: 5_000 }, () => random.int(3, 7));
		expect(values.every(Number.isInteger)).toBe(true);
		expect([...new Set(values)].sort()).toEqual([3, 4, 5, 6, 7]);
	});

	it('returns the only value when min equals max', () => {
		expect(new SeededRandom('single').int(4, 4)).toBe(4);
	});

	it('picks an element of the list and refuses an empty one', () => {
		const random = new SeededRandom('pick');
		const items = ['a', 'b', 'c'] as const;
		for (let draw = 0; draw < 100; draw++) {
			expect(items).toContain(random.pick(items));
		}
		expect(() => random.pick([])).toThrow();
	});

	it('honours certain and impossible chances', () => {
		const random = new SeededRandom('chance');
		for (let draw = 0; draw < 100; draw++) {
			expect(random.chance(0)).toBe(false);
			expect(random.chance(1)).toBe(true);
		}
	});

	it('shuffles into a new array with the same elements', () => {
		const original = Object.freeze([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		const shuffled = new SeededRandom('shuffle').shuffle(original);
		expect(shuffled).not.toBe(original);
		expect([...shuffled].sort((a, b) => a - b)).toEqual([...original]);
		expect(new SeededRandom('shuffle').shuffle(original)).toEqual(shuffled);
	});

	it('produces digit and letter strings of the requested length', () => {
		const random = new SeededRandom('strings');
		expect(random.digits(7)).toMatch(/^\d{7}$/);
		expect(random.letters(4)).toMatch(/^[A-Z]{4}$/);
		expect(random.digits(0)).toBe('');
	});
});

describe('deterministicUuid', () => {
	it('has the version 5 layout in lowercase', () => {
		expect(deterministicUuid('container', 'MSCU1234565')).toMatch(UUID_V5_PATTERN);
	});

	it('is stable for the same parts', () => {
		expect(deterministicUuid('shipment', 'MEDUXA123456')).toBe(
			deterministicUuid('shipment', 'MEDUXA123456'),
		);
	});

	it('differs for different parts, including a different split of the same text', () => {
		const ids = [
			deterministicUuid('shipment', 'MEDUXA123456'),
			deterministicUuid('shipment', 'MEDUXA123457'),
			deterministicUuid('container', 'MEDUXA123456'),
			deterministicUuid('shipmentM', 'EDUXA123456'),
		];
		expect(new Set(ids).size).toBe(ids.length);
	});
});

describe('randomUuid', () => {
	it('returns a fresh RFC 4122 id each time', () => {
		const first = randomUuid();
		expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(randomUuid()).not.toBe(first);
	});
});

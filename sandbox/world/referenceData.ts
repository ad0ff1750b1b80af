/**
 * Reference data the sandbox draws from when it derives a shipment from a tracking number:
 * real ports (UN/LOCODE, IANA time zone), their container terminals, inland rail destinations and
 * vessels per ocean carrier.
 *
 * Fields named in snake_case mirror the service's resource attributes (docs/service.md,
 * "Terminals, ports and vessels") so that a record can be copied into `attributes`; camelCase
 * fields are sandbox-only wiring.
 *
 * Provenance, so nobody mistakes this for a registry extract:
 * - LOCODEs, time zones, cities and coordinates are real (coordinates are approximate).
 * - Terminal names and addresses are the real terminals. FIRMS codes E425 (APM Elizabeth) and
 *   H572 (BNSF Logistics Park Chicago) come from the service's own fixtures; the others are real
 *   where remembered and otherwise plausible, and none were checked against the CBP list.
 * - `smdg_code` values are plausible SMDG-style abbreviations, not looked up.
 * - IMO numbers are the ships' numbers as remembered; all satisfy the IMO check digit (tested).
 *   MMSIs use the flag state's MID prefix but are not verified against AIS.
 */

import type { z } from 'zod';

import type {
	metroAreaAttributes,
	portAttributes,
	railTerminalAttributes,
	terminalAttributes,
	vesselAttributes,
} from '../../nodes/ContainerTracking/schemas';

/*
 * Records are the nodes' schema types (schemas/resources.ts), narrowed to what the sandbox always
 * writes: the members listed here are never missing, and coordinates are numbers.
 */

export type PortRecord = z.infer<typeof portAttributes> & {
	name: string;
	/** UN/LOCODE */
	code: string;
	/** Only set for US ports. */
	state_abbr: string | null;
	city: string | null;
	country_code: string;
	/** IANA zone */
	time_zone: string;
	latitude: number;
	longitude: number;
};

export type TerminalRecord = z.infer<typeof terminalAttributes> & {
	nickname: string;
	/** CBP FIRMS code: one letter and three digits. */
	firms_code: string;
	smdg_code: string | null;
	bic_facility_code: string | null;
	street: string;
	city: string;
	state: string;
	state_abbr: string;
	zip: string;
	country: string;
};

export type DischargePortRecord = PortRecord & {
	terminals: readonly TerminalRecord[];
	/** Class I railroads that load import boxes at this port (SCACs from RAIL_CARRIERS). */
	railCarrierScacs: readonly string[];
};

export type MetroAreaRecord = z.infer<typeof metroAreaAttributes> & {
	name: string;
	/** UN/LOCODE */
	code: string;
	state_abbr: string | null;
	country_code: string;
	/** IANA zone */
	time_zone: string;
	latitude: number;
	longitude: number;
};

export type RailTerminalRecord = z.infer<typeof railTerminalAttributes> & {
	nickname: string;
	firms_code: string;
	city: string;
	/** Railroad operating the ramp, i.e. the delivering carrier (`ind_rail_carrier_scac`). */
	railCarrierScac: string;
};

export type InlandDestinationRecord = MetroAreaRecord & {
	railTerminals: readonly RailTerminalRecord[];
	/** LOCODEs of discharge ports with a rail service to one of this metro's ramps. */
	dischargePortCodes: readonly string[];
};

export interface RailCarrierRecord {
	scac: string;
	name: string;
}

export type VesselRecord = z.infer<typeof vesselAttributes> & {
	name: string;
	/** 7 digits, last one is the IMO check digit. */
	imo: string;
	/** 9 digits, starting with the flag state's MID. */
	mmsi: string;
};

export const ORIGIN_PORTS: readonly PortRecord[] = [
	{
		name: 'Shanghai',
		code: 'CNSHA',
		city: 'Shanghai',
		state_abbr: null,
		country_code: 'CN',
		time_zone: 'Asia/Shanghai',
		latitude: 31.3669,
		longitude: 121.6147,
	},
	{
		name: 'Ningbo',
		code: 'CNNGB',
		city: 'Ningbo',
		state_abbr: null,
		country_code: 'CN',
		time_zone: 'Asia/Shanghai',
		latitude: 29.9333,
		longitude: 121.8667,
	},
	{
		name: 'Yantian',
		code: 'CNYTN',
		city: 'Shenzhen',
		state_abbr: null,
		country_code: 'CN',
		time_zone: 'Asia/Shanghai',
		latitude: 22.5745,
		longitude: 114.268,
	},
	{
		name: 'Busan',
		code: 'KRPUS',
		city: 'Busan',
		state_abbr: null,
		country_code: 'KR',
		time_zone: 'Asia/Seoul',
		latitude: 35.1028,
		longitude: 129.0403,
	},
	{
		name: 'Singapore',
		code: 'SGSIN',
		city: 'Singapore',
		state_abbr: null,
		country_code: 'SG',
		time_zone: 'Asia/Singapore',
		latitude: 1.2644,
		longitude: 103.8223,
	},
	{
		name: 'Kaohsiung',
		code: 'TWKHH',
		city: 'Kaohsiung',
		state_abbr: null,
		country_code: 'TW',
		time_zone: 'Asia/Taipei',
		latitude: 22.6163,
		longitude: 120.2818,
	},
	{
		name: 'Ho Chi Minh City',
		code: 'VNSGN',
		city: 'Ho Chi Minh City',
		state_abbr: null,
		country_code: 'VN',
		time_zone: 'Asia/Ho_Chi_Minh',
		latitude: 10.7626,
		longitude: 106.7224,
	},
	{
		name: 'Nhava Sheva',
		code: 'INNSA',
		city: 'Navi Mumbai',
		state_abbr: null,
		country_code: 'IN',
		time_zone: 'Asia/Kolkata',
		latitude: 18.9497,
		longitude: 72.951,
	},
	{
		name: 'Jakarta, Java',
		code: 'IDJKT',
		city: 'Jakarta',
		state_abbr: null,
		country_code: 'ID',
		time_zone: 'Asia/Jakarta',
		latitude: -6.1045,
		longitude: 106.8866,
	},
	{
		name: 'Yokohama',
		code: 'JPYOK',
		city: 'Yokohama',
		state_abbr: null,
		country_code: 'JP',
		time_zone: 'Asia/Tokyo',
		latitude: 35.45,
		longitude: 139.65,
	},
	{
		name: 'Rotterdam',
		code: 'NLRTM',
		city: 'Rotterdam',
		state_abbr: null,
		country_code: 'NL',
		time_zone: 'Europe/Amsterdam',
		latitude: 51.949,
		longitude: 4.145,
	},
	{
		name: 'Hamburg',
		code: 'DEHAM',
		city: 'Hamburg',
		state_abbr: null,
		country_code: 'DE',
		time_zone: 'Europe/Berlin',
		latitude: 53.541,
		longitude: 9.967,
	},
	{
		name: 'Antwerp',
		code: 'BEANR',
		city: 'Antwerp',
		state_abbr: null,
		country_code: 'BE',
		time_zone: 'Europe/Brussels',
		latitude: 51.264,
		longitude: 4.399,
	},
];

export const DISCHARGE_PORTS: readonly DischargePortRecord[] = [
	{
		name: 'Los Angeles',
		code: 'USLAX',
		city: 'Los Angeles',
		state_abbr: 'CA',
		country_code: 'US',
		time_zone: 'America/Los_Angeles',
		latitude: 33.7361,
		longitude: -118.2639,
		railCarrierScacs: ['BNSF', 'UPRR'],
		terminals: [
			{
				name: 'APM Terminals Pier 400',
				nickname: 'APM',
				firms_code: 'W185',
				smdg_code: 'APMT',
				bic_facility_code: null,
				street: '2500 Navy Way',
				city: 'San Pedro',
				state: 'California',
				state_abbr: 'CA',
				zip: '90731',
				country: 'United States',
			},
			{
				name: 'Fenix Marine Services',
				nickname: 'Fenix',
				firms_code: 'Y258',
				smdg_code: 'FMS',
				bic_facility_code: null,
				street: '614 Terminal Way',
				city: 'San Pedro',
				state: 'California',
				state_abbr: 'CA',
				zip: '90731',
				country: 'United States',
			},
			{
				name: 'Yusen Terminals',
				nickname: 'YTI',
				firms_code: 'Y790',
				smdg_code: 'YTI',
				bic_facility_code: null,
				street: '701 New Dock Street Berths 212-225',
				city: 'Terminal Island',
				state: 'California',
				state_abbr: 'CA',
				zip: '90731',
				country: 'United States',
			},
		],
	},
	{
		name: 'Long Beach',
		code: 'USLGB',
		city: 'Long Beach',
		state_abbr: 'CA',
		country_code: 'US',
		time_zone: 'America/Los_Angeles',
		latitude: 33.7542,
		longitude: -118.2165,
		railCarrierScacs: ['BNSF', 'UPRR'],
		terminals: [
			{
				name: 'Long Beach Container Terminal',
				nickname: 'LBCT',
				firms_code: 'W178',
				smdg_code: 'LBCT',
				bic_facility_code: null,
				street: '1171 Pier F Avenue',
				city: 'Long Beach',
				state: 'California',
				state_abbr: 'CA',
				zip: '90802',
				country: 'United States',
			},
			{
				name: 'Total Terminals International',
				nickname: 'TTI',
				firms_code: 'W182',
				smdg_code: 'TTI',
				bic_facility_code: null,
				street: '301 Mitscher Avenue',
				city: 'Long Beach',
				state: 'California',
				state_abbr: 'CA',
				zip: '90802',
				country: 'United States',
			},
			{
				name: 'International Transportation Service',
				nickname: 'ITS',
				firms_code: 'Y309',
				smdg_code: 'ITS',
				bic_facility_code: null,
				street: '1281 Pier G Way',
				city: 'Long Beach',
				state: 'California',
				state_abbr: 'CA',
				zip: '90802',
				country: 'United States',
			},
		],
	},
	{
		// Name, city and state as the service reports this port (see container.updated fixture).
		name: 'New York / New Jersey',
		code: 'USNYC',
		city: 'New York',
		state_abbr: 'NY',
		country_code: 'US',
		time_zone: 'America/New_York',
		latitude: 40.684996498,
		longitude: -74.151115685,
		railCarrierScacs: ['CSXT', 'NS'],
		terminals: [
			{
				name: 'Port Elizabeth',
				nickname: 'APM Terminals',
				firms_code: 'E425',
				smdg_code: null,
				bic_facility_code: null,
				street: '5080 McLester Street',
				city: 'Elizabeth',
				state: 'New Jersey',
				state_abbr: 'NJ',
				zip: '07201',
				country: 'United States',
			},
			{
				name: 'Maher Terminals',
				nickname: 'Maher',
				firms_code: 'E416',
				smdg_code: 'MAHER',
				bic_facility_code: null,
				street: '1210 Corbin Street',
				city: 'Elizabeth',
				state: 'New Jersey',
				state_abbr: 'NJ',
				zip: '07201',
				country: 'United States',
			},
			{
				name: 'Port Newark Container Terminal',
				nickname: 'PNCT',
				firms_code: 'E025',
				smdg_code: 'PNCT',
				bic_facility_code: null,
				street: '241 Calcutta Street',
				city: 'Newark',
				state: 'New Jersey',
				state_abbr: 'NJ',
				zip: '07114',
				country: 'United States',
			},
		],
	},
	{
		name: 'Savannah',
		code: 'USSAV',
		city: 'Savannah',
		state_abbr: 'GA',
		country_code: 'US',
		time_zone: 'America/New_York',
		latitude: 32.1266,
		longitude: -81.1432,
		railCarrierScacs: ['CSXT', 'NS'],
		terminals: [
			{
				name: 'Garden City Terminal',
				nickname: 'GCT',
				firms_code: 'L795',
				smdg_code: 'GCT',
				bic_facility_code: null,
				street: '2 Main Street',
				city: 'Garden City',
				state: 'Georgia',
				state_abbr: 'GA',
				zip: '31408',
				country: 'United States',
			},
			{
				name: 'Ocean Terminal',
				nickname: 'Ocean',
				firms_code: 'L796',
				smdg_code: null,
				bic_facility_code: null,
				street: 'West Lathrop Avenue',
				city: 'Savannah',
				state: 'Georgia',
				state_abbr: 'GA',
				zip: '31415',
				country: 'United States',
			},
		],
	},
	{
		name: 'Houston',
		code: 'USHOU',
		city: 'Houston',
		state_abbr: 'TX',
		country_code: 'US',
		time_zone: 'America/Chicago',
		latitude: 29.6138,
		longitude: -95.0171,
		railCarrierScacs: ['UPRR', 'BNSF'],
		terminals: [
			{
				name: 'Bayport Container Terminal',
				nickname: 'Bayport',
				firms_code: 'W043',
				smdg_code: 'BCT',
				bic_facility_code: null,
				street: '12619 Port Road',
				city: 'Pasadena',
				state: 'Texas',
				state_abbr: 'TX',
				zip: '77507',
				country: 'United States',
			},
			{
				name: 'Barbours Cut Container Terminal',
				nickname: 'Barbours Cut',
				firms_code: 'W038',
				smdg_code: 'BCCT',
				bic_facility_code: null,
				street: '1515 East Barbours Cut Boulevard',
				city: 'La Porte',
				state: 'Texas',
				state_abbr: 'TX',
				zip: '77571',
				country: 'United States',
			},
		],
	},
	{
		name: 'Seattle',
		code: 'USSEA',
		city: 'Seattle',
		state_abbr: 'WA',
		country_code: 'US',
		time_zone: 'America/Los_Angeles',
		latitude: 47.5802,
		longitude: -122.3478,
		railCarrierScacs: ['BNSF', 'UPRR'],
		terminals: [
			{
				name: 'Terminal 18',
				nickname: 'T18',
				firms_code: 'V314',
				smdg_code: 'T18',
				bic_facility_code: null,
				street: '1050 SW Spokane Street',
				city: 'Seattle',
				state: 'Washington',
				state_abbr: 'WA',
				zip: '98134',
				country: 'United States',
			},
			{
				name: 'Terminal 5',
				nickname: 'T5',
				firms_code: 'V355',
				smdg_code: 'T5',
				bic_facility_code: null,
				street: '2701 26th Avenue SW',
				city: 'Seattle',
				state: 'Washington',
				state_abbr: 'WA',
				zip: '98106',
				country: 'United States',
			},
		],
	},
];

/**
 * Class I railroads by the SCAC the service reports in `pod_rail_carrier_scac` /
 * `ind_rail_carrier_scac`. Choices: Union Pacific as UPRR (the form the service's own examples
 * use, although its reporting mark is UP), CSX Transportation as CSXT, Norfolk Southern as NS,
 * Canadian National as CN, and Canadian Pacific Kansas City as CPKC (the merged company; the
 * legacy marks CP and KCS still appear on older data).
 */
export const RAIL_CARRIERS: readonly RailCarrierRecord[] = [
	{ scac: 'BNSF', name: 'BNSF Railway' },
	{ scac: 'UPRR', name: 'Union Pacific Railroad' },
	{ scac: 'CSXT', name: 'CSX Transportation' },
	{ scac: 'NS', name: 'Norfolk Southern Railway' },
	{ scac: 'CN', name: 'Canadian National Railway' },
	{ scac: 'CPKC', name: 'Canadian Pacific Kansas City' },
];

const WEST_COAST_AND_GULF_PORT_CODES = ['USLAX', 'USLGB', 'USSEA', 'USHOU'];

/**
 * Inland metro areas reached by rail. West Coast and Gulf imports ride BNSF/UP; East Coast
 * imports ride CSX/NS. Rail ramp FIRMS codes other than H572 are plausible, not looked up.
 */
export const INLAND_DESTINATIONS: readonly InlandDestinationRecord[] = [
	{
		name: 'Chicago',
		code: 'USCHI',
		state_abbr: 'IL',
		country_code: 'US',
		time_zone: 'America/Chicago',
		latitude: 41.8781,
		longitude: -87.6298,
		railTerminals: [
			{
				name: 'BNSF - Logistics Park Chicago (LPC) Intermodal Facility',
				nickname: 'BNSF',
				firms_code: 'H572',
				city: 'Elwood',
				railCarrierScac: 'BNSF',
			},
			{
				name: 'CSX - Bedford Park Intermodal Terminal',
				nickname: 'CSX',
				firms_code: 'H685',
				city: 'Bedford Park',
				railCarrierScac: 'CSXT',
			},
		],
		dischargePortCodes: ['USLAX', 'USLGB', 'USSEA', 'USNYC', 'USSAV'],
	},
	{
		name: 'Memphis',
		code: 'USMEM',
		state_abbr: 'TN',
		country_code: 'US',
		time_zone: 'America/Chicago',
		latitude: 35.1495,
		longitude: -90.049,
		railTerminals: [
			{
				name: 'BNSF - Memphis Intermodal Facility',
				nickname: 'BNSF',
				firms_code: 'L210',
				city: 'Memphis',
				railCarrierScac: 'BNSF',
			},
			{
				name: 'NS - Memphis Regional Intermodal Facility',
				nickname: 'NS',
				firms_code: 'L221',
				city: 'Rossville',
				railCarrierScac: 'NS',
			},
		],
		dischargePortCodes: [...WEST_COAST_AND_GULF_PORT_CODES, 'USNYC', 'USSAV'],
	},
	{
		name: 'Dallas',
		code: 'USDAL',
		state_abbr: 'TX',
		country_code: 'US',
		time_zone: 'America/Chicago',
		latitude: 32.7767,
		longitude: -96.797,
		railTerminals: [
			{
				name: 'UP - Dallas Intermodal Terminal',
				nickname: 'UP',
				firms_code: 'P560',
				city: 'Wilmer',
				railCarrierScac: 'UPRR',
			},
			{
				name: 'BNSF - Alliance Intermodal Facility',
				nickname: 'BNSF',
				firms_code: 'P571',
				city: 'Haslet',
				railCarrierScac: 'BNSF',
			},
		],
		dischargePortCodes: WEST_COAST_AND_GULF_PORT_CODES,
	},
	{
		name: 'Kansas City',
		code: 'USMKC',
		state_abbr: 'MO',
		country_code: 'US',
		time_zone: 'America/Chicago',
		latitude: 39.0997,
		longitude: -94.5786,
		railTerminals: [
			{
				name: 'BNSF - Logistics Park Kansas City (LPKC) Intermodal Facility',
				nickname: 'BNSF',
				firms_code: 'K431',
				city: 'Edgerton',
				railCarrierScac: 'BNSF',
			},
		],
		dischargePortCodes: WEST_COAST_AND_GULF_PORT_CODES,
	},
	{
		name: 'Columbus',
		code: 'USCMH',
		state_abbr: 'OH',
		country_code: 'US',
		time_zone: 'America/New_York',
		latitude: 39.9612,
		longitude: -82.9988,
		railTerminals: [
			{
				name: 'NS - Rickenbacker Intermodal Terminal',
				nickname: 'NS',
				firms_code: 'N818',
				city: 'Columbus',
				railCarrierScac: 'NS',
			},
			{
				name: 'CSX - Columbus Intermodal Terminal',
				nickname: 'CSX',
				firms_code: 'N826',
				city: 'Columbus',
				railCarrierScac: 'CSXT',
			},
		],
		dischargePortCodes: ['USNYC', 'USSAV'],
	},
	{
		name: 'Denver',
		code: 'USDEN',
		state_abbr: 'CO',
		country_code: 'US',
		time_zone: 'America/Denver',
		latitude: 39.7392,
		longitude: -104.9903,
		railTerminals: [
			{
				name: 'UP - Denver Intermodal Terminal',
				nickname: 'UP',
				firms_code: 'D734',
				city: 'Denver',
				railCarrierScac: 'UPRR',
			},
			{
				name: 'BNSF - Denver Intermodal Facility',
				nickname: 'BNSF',
				firms_code: 'D741',
				city: 'Denver',
				railCarrierScac: 'BNSF',
			},
		],
		dischargePortCodes: WEST_COAST_AND_GULF_PORT_CODES,
	},
];

/** Vessels per ocean carrier SCAC (the lines in SHIPPING_LINES plus the TEST carrier). */
export const VESSELS_BY_SCAC: Readonly<Record<string, readonly VesselRecord[]>> = {
	MSCU: [
		{ name: 'MSC GULSUN', imo: '9839430', mmsi: '636019825' },
		{ name: 'MSC OSCAR', imo: '9703291', mmsi: '353879000' },
		{ name: 'MSC ZOE', imo: '9703318', mmsi: '353969000' },
		{ name: 'MSC IRINA', imo: '9930038', mmsi: '636022442' },
		{ name: 'MSC LORETO', imo: '9934747', mmsi: '255806412' },
	],
	MAEU: [
		{ name: 'MAERSK SYDNEY', imo: '9289958', mmsi: '219562000' },
		{ name: 'MADRID MAERSK', imo: '9778791', mmsi: '219836000' },
		{ name: 'MAERSK MC-KINNEY MOLLER', imo: '9619907', mmsi: '219018271' },
		{ name: 'MAERSK ESSEN', imo: '9456769', mmsi: '219143000' },
		{ name: 'MAERSK ELBA', imo: '9458078', mmsi: '220597000' },
	],
	CMDU: [
		{ name: 'CMA CGM MARCO POLO', imo: '9454436', mmsi: '228010800' },
		{ name: 'CMA CGM JACQUES SAADE', imo: '9839179', mmsi: '228386800' },
		{ name: 'CMA CGM ANTOINE DE SAINT EXUPERY', imo: '9776418', mmsi: '228339600' },
		{ name: 'CMA CGM BENJAMIN FRANKLIN', imo: '9706891', mmsi: '228061000' },
	],
	HLCU: [
		{ name: 'BERLIN EXPRESS', imo: '9501332', mmsi: '218422000' },
		{ name: 'ESSEN EXPRESS', imo: '9501370', mmsi: '218426000' },
		{ name: 'AL MURABBA', imo: '9708813', mmsi: '215114000' },
		{ name: 'AL NEFUD', imo: '9708837', mmsi: '215120000' },
	],
	COSU: [
		{ name: 'COSCO SHIPPING UNIVERSE', imo: '9795610', mmsi: '477333500' },
		{ name: 'COSCO ENGLAND', imo: '9516428', mmsi: '477236600' },
		{ name: 'COSCO SHIPPING TAURUS', imo: '9783526', mmsi: '477172700' },
		{ name: 'COSCO SHIPPING ARIES', imo: '9783514', mmsi: '477172600' },
	],
	ONEY: [
		{ name: 'ONE APUS', imo: '9806079', mmsi: '373460000' },
		{ name: 'ONE STORK', imo: '9741396', mmsi: '563055700' },
		{ name: 'ONE INNOVATION', imo: '9943827', mmsi: '563196900' },
		{ name: 'ONE COMMITMENT', imo: '9756743', mmsi: '373287000' },
	],
	EGLV: [
		{ name: 'EVER GIVEN', imo: '9811000', mmsi: '353136000' },
		{ name: 'EVER ACE', imo: '9893890', mmsi: '355281000' },
		{ name: 'EVER LEADING', imo: '9832717', mmsi: '416005600' },
		{ name: 'EVER FAITH', imo: '9811012', mmsi: '235113000' },
	],
	OOLU: [
		{ name: 'OOCL HONG KONG', imo: '9776171', mmsi: '477266900' },
		{ name: 'OOCL GERMANY', imo: '9776183', mmsi: '477267200' },
		{ name: 'OOCL SPAIN', imo: '9797400', mmsi: '477333900' },
	],
	YMLU: [
		{ name: 'YM WELLNESS', imo: '9704958', mmsi: '636017482' },
		{ name: 'YM WARRANTY', imo: '9684653', mmsi: '636016520' },
		{ name: 'YM WORLD', imo: '9684641', mmsi: '636016519' },
	],
	HDMU: [
		{ name: 'HMM ALGECIRAS', imo: '9863297', mmsi: '440326000' },
		{ name: 'HMM OSLO', imo: '9863302', mmsi: '440331000' },
		{ name: 'HMM COPENHAGEN', imo: '9863314', mmsi: '440337000' },
	],
	ZIMU: [
		{ name: 'ZIM SAMMY OFER', imo: '9931214', mmsi: '636022290' },
		{ name: 'ZIM KINGSTON', imo: '9231822', mmsi: '249905000' },
		{ name: 'ZIM MOUNT EVEREST', imo: '9936680', mmsi: '636022310' },
	],
	WHLC: [
		{ name: 'WAN HAI A01', imo: '9939096', mmsi: '563176600' },
		{ name: 'WAN HAI 625', imo: '9339375', mmsi: '565590000' },
		{ name: 'WAN HAI 352', imo: '9890006', mmsi: '563113700' },
	],
	// Fictional hulls for the test carrier: made-up IMOs with a valid check digit and US MIDs
	// (368), so they pass the same validation as real ones.
	TEST: [
		{ name: 'SANDBOX PIONEER', imo: '9900019', mmsi: '368000101' },
		{ name: 'SANDBOX VOYAGER', imo: '9900021', mmsi: '368000102' },
		{ name: 'SANDBOX HORIZON', imo: '9900033', mmsi: '368000103' },
	],
};

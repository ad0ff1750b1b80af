/**
 * The shipping lines the service knows well enough to predict (docs/service.md, "Shipping lines").
 * Container owner prefixes do not reliably name the carrier, because lessors own many boxes: a
 * prefix match is a candidate, never a certainty.
 */
export interface ShippingLine {
	scac: string;
	name: string;
	containerPrefixes: string[];
	billOfLadingPrefix: string | null;
}

export const SHIPPING_LINES: readonly ShippingLine[] = [
	{ scac: 'MSCU', name: 'MSC', containerPrefixes: ['MSCU', 'MEDU'], billOfLadingPrefix: 'MEDU' },
	{
		scac: 'MAEU',
		name: 'Maersk',
		containerPrefixes: ['MAEU', 'MSKU', 'MRKU'],
		billOfLadingPrefix: 'MAEU',
	},
	{ scac: 'CMDU', name: 'CMA CGM', containerPrefixes: ['CMAU'], billOfLadingPrefix: 'CMDU' },
	{
		scac: 'HLCU',
		name: 'Hapag-Lloyd',
		containerPrefixes: ['HLCU', 'HLXU'],
		billOfLadingPrefix: 'HLCU',
	},
	{ scac: 'COSU', name: 'COSCO', containerPrefixes: ['CSNU', 'CBHU'], billOfLadingPrefix: 'COSU' },
	{
		scac: 'ONEY',
		name: 'Ocean Network Express',
		containerPrefixes: ['ONEU'],
		billOfLadingPrefix: 'ONEY',
	},
	{
		scac: 'EGLV',
		name: 'Evergreen',
		containerPrefixes: ['EGHU', 'EISU', 'EMCU'],
		billOfLadingPrefix: 'EGLV',
	},
	{ scac: 'OOLU', name: 'OOCL', containerPrefixes: ['OOLU'], billOfLadingPrefix: 'OOLU' },
	{
		scac: 'YMLU',
		name: 'Yang Ming',
		containerPrefixes: ['YMLU', 'YMMU'],
		billOfLadingPrefix: 'YMLU',
	},
	{ scac: 'HDMU', name: 'HMM', containerPrefixes: ['HDMU'], billOfLadingPrefix: 'HDMU' },
	{ scac: 'ZIMU', name: 'ZIM', containerPrefixes: ['ZIMU', 'ZCSU'], billOfLadingPrefix: 'ZIMU' },
	{
		scac: 'WHLC',
		name: 'Wan Hai',
		containerPrefixes: ['WHLU', 'WHSU'],
		billOfLadingPrefix: 'WHLC',
	},
	{ scac: 'TEST', name: 'Test carrier', containerPrefixes: [], billOfLadingPrefix: null },
];

export function findShippingLine(scac: string): ShippingLine | undefined {
	const wanted = scac.trim().toUpperCase();
	return SHIPPING_LINES.find((line) => line.scac === wanted);
}

/** The line whose common container prefixes include this owner code (a candidate only). */
export function findShippingLineByContainerPrefix(ownerCode: string): ShippingLine | undefined {
	const wanted = ownerCode.trim().toUpperCase();
	return SHIPPING_LINES.find((line) => line.containerPrefixes.includes(wanted));
}

/** The line whose bill of lading prefix starts this (normalized) number. */
export function findShippingLineByBillOfLadingPrefix(number: string): ShippingLine | undefined {
	const wanted = number.trim().toUpperCase();
	return SHIPPING_LINES.find(
		(line) => line.billOfLadingPrefix !== null && wanted.startsWith(line.billOfLadingPrefix),
	);
}

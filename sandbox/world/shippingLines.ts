/**
 * The shipping lines as the sandbox knows them: the nodes' lines (SCAC and name) with the
 * prefixes the sandbox predicts carriers from and draws container numbers with
 * (docs/service.md, "Shipping lines"). Container owner prefixes do not reliably name the
 * carrier, because lessors own many boxes: a prefix match is a candidate, never a certainty.
 */
import {
	SHIPPING_LINES as NAMED_LINES,
	type ShippingLine as NamedLine,
} from '../../nodes/ContainerTracking/logic/shippingLines';
import { deterministicUuid } from './random';
import type { Resource } from './store';

export interface ShippingLine extends NamedLine {
	containerPrefixes: string[];
	billOfLadingPrefix: string | null;
}

type Prefixes = Pick<ShippingLine, 'containerPrefixes' | 'billOfLadingPrefix'>;

/** Every line the nodes list, and no other (a line missing or extra does not compile). */
const PREFIXES: Record<(typeof NAMED_LINES)[number]['scac'], Prefixes> = {
	MSCU: { containerPrefixes: ['MSCU', 'MEDU'], billOfLadingPrefix: 'MEDU' },
	MAEU: { containerPrefixes: ['MAEU', 'MSKU', 'MRKU'], billOfLadingPrefix: 'MAEU' },
	CMDU: { containerPrefixes: ['CMAU'], billOfLadingPrefix: 'CMDU' },
	HLCU: { containerPrefixes: ['HLCU', 'HLXU'], billOfLadingPrefix: 'HLCU' },
	COSU: { containerPrefixes: ['CSNU', 'CBHU'], billOfLadingPrefix: 'COSU' },
	ONEY: { containerPrefixes: ['ONEU'], billOfLadingPrefix: 'ONEY' },
	EGLV: { containerPrefixes: ['EGHU', 'EISU', 'EMCU'], billOfLadingPrefix: 'EGLV' },
	OOLU: { containerPrefixes: ['OOLU'], billOfLadingPrefix: 'OOLU' },
	YMLU: { containerPrefixes: ['YMLU', 'YMMU'], billOfLadingPrefix: 'YMLU' },
	HDMU: { containerPrefixes: ['HDMU'], billOfLadingPrefix: 'HDMU' },
	ZIMU: { containerPrefixes: ['ZIMU', 'ZCSU'], billOfLadingPrefix: 'ZIMU' },
	WHLC: { containerPrefixes: ['WHLU', 'WHSU'], billOfLadingPrefix: 'WHLC' },
	TEST: { containerPrefixes: [], billOfLadingPrefix: null },
};

export const SHIPPING_LINES: readonly ShippingLine[] = NAMED_LINES.map((line) => ({
	...line,
	...PREFIXES[line.scac],
}));

/** Other SCACs a line accepts in tracking requests (`alternative_scacs`). */
const ALTERNATIVE_SCACS: Record<string, string[]> = { MSCU: ['MEDU'] };

/** The line of a SCAC, its own or one of its alternatives. */
export function findShippingLine(scac: string): ShippingLine | undefined {
	const wanted = scac.trim().toUpperCase();
	return SHIPPING_LINES.find(
		(line) => line.scac === wanted || (ALTERNATIVE_SCACS[line.scac] ?? []).includes(wanted),
	);
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

/** Lines this account cannot track bookings with: what a request for one is checked against. */
const WITHOUT_BOOKINGS = new Set(['HDMU', 'WHLC']);

/** `GET /shipping_lines`: the lines the account can track, and by which kinds of number. */
export function shippingLineRecords(): Resource[] {
	return SHIPPING_LINES.map((line) => {
		const id = deterministicUuid('shipping_line', line.scac, line.scac);
		return {
			id,
			type: 'shipping_line',
			attributes: {
				scac: line.scac,
				name: line.name,
				short_name: line.name,
				alternative_scacs: ALTERNATIVE_SCACS[line.scac] ?? [],
				bill_of_lading_tracking_support: line.billOfLadingPrefix !== null || line.scac === 'TEST',
				booking_number_tracking_support: !WITHOUT_BOOKINGS.has(line.scac),
				container_number_tracking_support: true,
			},
			links: { self: `/v2/shipping_lines/${id}` },
		};
	});
}

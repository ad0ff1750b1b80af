/**
 * Totals of the fees a terminal reports (docs/service.md, "Fee totals" and "Holds and fees").
 *
 * | Fees given                                   | Summed                 | fees_total | currency |
 * |----------------------------------------------|------------------------|------------|----------|
 * | empty array (no fees)                        | nothing                | 0          | null     |
 * | missing or null (nothing reported)           | nothing                | null       | null     |
 * | at least one fee whose type is not `total`   | every non-`total` fee  | the sum    | its code |
 * | only fees of type `total`                    | the `total` fees       | the sum    | its code |
 * | amounts in two or more currencies            | per currency only      | null       | null     |
 *
 * - `total` may overlap the line items, so it is used only when nothing else is there, even
 *   when the line items are still 0 (an amount of 0 is reported, not posted: it counts as 0).
 * - Amounts are in the terminal's local currency (docs/service.md, "Holds and fees"), so a fee
 *   without `currency_code` is in the same currency as its coded neighbours: when exactly one
 *   code appears, uncoded fees join it. With no code at all they are grouped under '' and
 *   `fees_currency` is null (unknown). With two or more codes, uncoded fees stay under '' and no
 *   total is given.
 * - Codes are trimmed and upper-cased (ISO 4217 is upper case), so `usd` and `USD` are one.
 * - Every type other than `total` is a line item, including types no table lists (`storage`,
 *   `chassis`…): an unknown fee is still money owed, so it counts.
 * - An amount sent as a numeric string ("120.50") counts as that number. An element without a
 *   numeric `amount` is skipped: it cannot be added.
 * - Sums are rounded to cents, so 0.1 + 0.2 is 0.3.
 *
 * `feesByType` sums the same readable fees per `type` as reported, `total` included under its
 * own name and types no table lists under theirs (a fee without a type under `other`, the
 * interface's name for an unmapped fee); null when nothing was reported or when the amounts are
 * in two or more currencies, where a sum per type would add dollars to euros.
 */
import type { TerminalFee } from '../schemas';
import { toNumber } from '../schemas/values';

export interface FeeTotals {
	/** Null when nothing was reported or when the fees are in more than one currency. */
	fees_total: number | null;
	/** Null when there are no fees, no currency code, or several currencies. */
	fees_currency: string | null;
	/** Sum per currency code; '' collects fees without a code. */
	fees_by_currency: Record<string, number>;
}

/** Rounds to cents; toPrecision first absorbs float noise such as 1.005 * 100 = 100.4999... */
export function roundToCents(value: number): number {
	return Math.round(Number((value * 100).toPrecision(15))) / 100 + 0;
}

/** A fee whose amount can be added, with that amount as a number. */
function readableFee(value: unknown): (TerminalFee & { amount: number }) | null {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
	const amount = toNumber((value as { amount?: unknown }).amount);
	return amount === null ? null : { ...(value as TerminalFee), amount };
}

function currencyOf(fee: TerminalFee): string {
	return typeof fee.currency_code === 'string' ? fee.currency_code.trim().toUpperCase() : '';
}

/** The currency codes of `fees`, as `feeTotals` groups them (uncoded fees join a sole code). */
function currencyCodes(fees: readonly TerminalFee[]): Set<string> {
	return new Set(fees.map(currencyOf).filter((code) => code !== ''));
}

/** Sums a container's `fees_at_pod_terminal` as the table at the top of this file says. */
export function feeTotals(fees: readonly TerminalFee[] | null | undefined): FeeTotals {
	if (!Array.isArray(fees)) return { fees_total: null, fees_currency: null, fees_by_currency: {} };

	const readable = fees
		.map(readableFee)
		.filter((fee): fee is TerminalFee & { amount: number } => fee !== null);
	const lineItems = readable.filter((fee) => fee.type !== 'total');
	const summed = lineItems.length > 0 ? lineItems : readable;

	const codes = currencyCodes(summed);
	const soleCode = codes.size === 1 ? [...codes][0] : null;

	const unrounded: Record<string, number> = {};
	for (const fee of summed) {
		const code = currencyOf(fee) || (soleCode ?? '');
		unrounded[code] = (unrounded[code] ?? 0) + fee.amount;
	}
	const fees_by_currency: Record<string, number> = {};
	for (const [code, sum] of Object.entries(unrounded)) fees_by_currency[code] = roundToCents(sum);

	const buckets = Object.keys(fees_by_currency);
	if (buckets.length > 1) return { fees_total: null, fees_currency: null, fees_by_currency };
	if (buckets.length === 0) return { fees_total: 0, fees_currency: null, fees_by_currency };
	return {
		fees_total: fees_by_currency[buckets[0]],
		fees_currency: buckets[0] === '' ? null : buckets[0],
		fees_by_currency,
	};
}

/** The amount per fee type, rounded to cents, as the table at the top of this file says. */
export function feesByType(
	fees: readonly TerminalFee[] | null | undefined,
): Record<string, number> | null {
	if (!Array.isArray(fees)) return null;
	const readable = fees
		.map(readableFee)
		.filter((fee): fee is TerminalFee & { amount: number } => fee !== null);
	if (currencyCodes(readable).size > 1) return null;
	const unrounded: Record<string, number> = {};
	for (const fee of readable) {
		const type = typeof fee.type === 'string' && fee.type.trim() !== '' ? fee.type : 'other';
		unrounded[type] = (unrounded[type] ?? 0) + fee.amount;
	}
	const byType: Record<string, number> = {};
	for (const [type, sum] of Object.entries(unrounded)) byType[type] = roundToCents(sum);
	return byType;
}

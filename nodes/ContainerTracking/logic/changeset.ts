/**
 * A `container.updated` changeset (docs/service.md, "Changesets") turned into what changed, one
 * entry per attribute — and, for the hold and fee arrays, one entry per hold or fee that changed.
 *
 * Holds (docs/service.md, "Holds and fees"): matched by `name`; `other` holds also by
 * `description`, since several unmapped holds can stand side by side. A cleared hold disappears
 * from the array.
 *
 * | before              | after                       | change      |
 * |---------------------|-----------------------------|-------------|
 * | absent              | status `hold`               | `placed`    |
 * | absent              | status `pending`            | `pending`   |
 * | absent              | any other status, or none   | `listed`    |
 * | status other than   | status `hold`               | `activated` |
 * | `hold`              |                             |             |
 * | present             | absent                      | `cleared`   |
 * | present             | other difference            | `updated`   |
 *
 * A status no table lists never reads as `placed`: only `hold` blocks pickup (logic/readiness.ts),
 * so such a hold is `listed`, and becomes `activated` if it turns into `hold`.
 *
 * Fees (docs/service.md, "Holds and fees"): matched by `type` and `currency_code`: `added`,
 * `removed`, `amount_changed` (with `old_amount` and `new_amount`; numeric strings count as their
 * number), `updated` for any other difference. Fee types no table lists are diffed like the
 * others.
 *
 * A changeset value must be an `[old, new]` pair, and for holds and fees each side a list (or
 * null). Anything else still gives an entry, with the value as sent under `raw_value`, null old
 * and new values, and a `warning`: a change is never dropped.
 */
import { isEqual } from 'lodash';

import { shortJson, type DataWarning } from '../schemas/warnings';
import { toNumber } from '../schemas/values';

export const HOLDS_FIELD = 'holds_at_pod_terminal';
export const FEES_FIELD = 'fees_at_pod_terminal';

type Json = unknown;
type Element = Record<string, Json>;

export type HoldChangeKind = 'placed' | 'pending' | 'listed' | 'activated' | 'cleared' | 'updated';
export type FeeChangeKind = 'added' | 'removed' | 'amount_changed' | 'updated';

export interface FieldChange {
	field: string;
	old_value: Json;
	new_value: Json;
	change?: HoldChangeKind | FeeChangeKind;
	/** The hold as it is now (or as it was, when cleared). */
	hold?: Element;
	/** The fee as it is now (or as it was, when removed). */
	fee?: Element;
	old_amount?: number | null;
	new_amount?: number | null;
	/** The value as sent, when it is not an `[old, new]` pair. */
	raw_value?: Json;
	/** Why `raw_value` could not be read as a change (path relative to the changeset). */
	warning?: Omit<DataWarning, 'record'>;
}

function elements(value: Json): Element[] {
	return Array.isArray(value)
		? value.filter((entry): entry is Element => typeof entry === 'object' && entry !== null)
		: [];
}

function holdKey(hold: Element): string {
	const name = String(hold.name ?? '');
	return name === 'other' ? `other\u0000${String(hold.description ?? '')}` : name;
}

function feeKey(fee: Element): string {
	return `${String(fee.type ?? '')}\u0000${String(fee.currency_code ?? '')}`;
}

/**
 * Pairs the elements of two arrays by key. Elements sharing a key are paired in order, so two
 * identical holds are two holds, not one.
 */
function pairByKey(
	before: Element[],
	after: Element[],
	keyOf: (element: Element) => string,
): Array<{ old?: Element; new?: Element }> {
	const remaining = new Map<string, Element[]>();
	for (const element of before) {
		const key = keyOf(element);
		remaining.set(key, [...(remaining.get(key) ?? []), element]);
	}
	const pairs: Array<{ old?: Element; new?: Element }> = [];
	for (const element of after) {
		const candidates = remaining.get(keyOf(element)) ?? [];
		pairs.push({ old: candidates.shift(), new: element });
	}
	for (const leftovers of remaining.values()) {
		for (const element of leftovers) pairs.push({ old: element });
	}
	return pairs;
}

/** What a hold that was not there before is, by its status; any other status is `listed`. */
const NEW_HOLD_CHANGES: Readonly<Record<string, HoldChangeKind>> = {
	hold: 'placed',
	pending: 'pending',
};

export function diffHolds(before: Json, after: Json): FieldChange[] {
	const changes: FieldChange[] = [];
	for (const pair of pairByKey(elements(before), elements(after), holdKey)) {
		if (pair.old && pair.new && isEqual(pair.old, pair.new)) continue;
		let change: HoldChangeKind;
		if (!pair.old) change = NEW_HOLD_CHANGES[String(pair.new!.status)] ?? 'listed';
		else if (!pair.new) change = 'cleared';
		else if (pair.old.status !== 'hold' && pair.new.status === 'hold') change = 'activated';
		else change = 'updated';
		changes.push({
			field: HOLDS_FIELD,
			old_value: pair.old ?? null,
			new_value: pair.new ?? null,
			change,
			hold: (pair.new ?? pair.old)!,
		});
	}
	return changes;
}

function amountOf(fee: Element | undefined): number | null {
	return toNumber(fee?.amount);
}

export function diffFees(before: Json, after: Json): FieldChange[] {
	const changes: FieldChange[] = [];
	for (const pair of pairByKey(elements(before), elements(after), feeKey)) {
		if (pair.old && pair.new && isEqual(pair.old, pair.new)) continue;
		let change: FeeChangeKind;
		if (!pair.old) change = 'added';
		else if (!pair.new) change = 'removed';
		else if (amountOf(pair.old) !== amountOf(pair.new)) change = 'amount_changed';
		else change = 'updated';
		changes.push({
			field: FEES_FIELD,
			old_value: pair.old ?? null,
			new_value: pair.new ?? null,
			change,
			fee: (pair.new ?? pair.old)!,
			old_amount: amountOf(pair.old),
			new_amount: amountOf(pair.new),
		});
	}
	return changes;
}

export interface SplitOptions {
	/** One entry per hold or fee that changed, instead of one entry holding both arrays. */
	expandHoldsAndFees: boolean;
	/** Only these attributes (all when empty). */
	fields?: readonly string[];
}

/** Whether `value` reads as `[old, new]`; for holds and fees each side must be a list or null. */
function isPair(field: string, value: Json): value is [Json, Json] {
	if (!Array.isArray(value) || value.length !== 2) return false;
	if (field !== HOLDS_FIELD && field !== FEES_FIELD) return true;
	return value.every((side) => side === null || Array.isArray(side));
}

/**
 * One entry per changed attribute, in the changeset's order. Keys are an open set: an unknown
 * attribute is passed on like any other. A value that is not an `[old, new]` pair is passed on
 * as `raw_value` with a warning, never dropped.
 */
export function splitChangeset(changeset: Json, options: SplitOptions): FieldChange[] {
	if (typeof changeset !== 'object' || changeset === null || Array.isArray(changeset)) return [];
	const wanted = options.fields && options.fields.length > 0 ? new Set(options.fields) : undefined;
	const changes: FieldChange[] = [];
	for (const [field, value] of Object.entries(changeset as Record<string, Json>)) {
		if (wanted && !wanted.has(field)) continue;
		if (!isPair(field, value)) {
			changes.push({
				field,
				old_value: null,
				new_value: null,
				raw_value: value ?? null,
				warning: {
					path: `attributes.changeset.${field}`,
					expected:
						field === HOLDS_FIELD || field === FEES_FIELD
							? 'an [old, new] pair of lists'
							: 'an [old, new] pair',
					received: shortJson(value),
				},
			});
			continue;
		}
		const [oldValue, newValue] = value;
		if (options.expandHoldsAndFees && field === HOLDS_FIELD) {
			changes.push(...diffHolds(oldValue, newValue));
		} else if (options.expandHoldsAndFees && field === FEES_FIELD) {
			changes.push(...diffFees(oldValue, newValue));
		} else {
			changes.push({ field, old_value: oldValue ?? null, new_value: newValue ?? null });
		}
	}
	return changes;
}

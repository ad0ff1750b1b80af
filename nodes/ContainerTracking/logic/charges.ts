/**
 * Demurrage and detention of one box, worked out from the user's tariff (logic/tariff.ts) and
 * what the service reports (docs/charges.md says the same to users; keep the two together).
 *
 * Days are dates in the place's time zone, never 24-hour blocks, so a daylight-saving change
 * moves nothing. A date counts as a day of the clock when days are calendar days, or, for
 * working days, when it is Monday to Friday and not one of the user's holidays: a day that does
 * not count is neither free nor charged.
 *
 * | Clock      | Starts (its day 1)                  | Free until                         | Ends (the last day charged)      |
 * |------------|-------------------------------------|------------------------------------|----------------------------------|
 * | demurrage  | —                                   | the last free day (logic/lastFreeDay.ts: line, terminal, rail, in that order) | the day the box leaves that place: `pod_full_out_at` at the port, `final_destination_full_out_at` inland |
 * | detention  | the day of pickup                   | its free days, counted from day 1  | the day the empty is returned (`empty_terminated_at`) |
 * | combined   | the day of discharge at the port    | its free days, counted from day 1  | the day the empty is returned    |
 *
 * - A day is charged when it is after the free time and on or before the clock's end; before the
 *   end is known, through today ("so far"), or through a date the user gives ("if picked up on").
 *   So a pickup on the last free day costs no demurrage, the day after costs one day; the day of
 *   pickup is detention's day 1, and a return that day is free unless the free days are 0.
 * - Day n of the charged days costs the rate of the tier whose from day ≤ n ≤ to day (to day
 *   blank: no end). A day no tier covers makes the charge unknown (null, said), never 0.
 * - The last free day used is the one the service reports now: when it moves, the charges
 *   follow it, the days already charged included.
 * - Amounts are kept per currency, each tier's own; a sum is given only within one currency.
 * - The terminal's own demurrage fee (`fees_at_pod_terminal`) is shown beside, never added.
 * - What cannot be worked out is null, and `charges_missing` says why in a sentence.
 */
import { DateTime } from 'luxon';

import type { ContainerAttributes } from '../schemas';
import { feesByType, feeTotals, roundToCents } from './fees';
import { lastFreeDay, lastFreeDayDate, type LastFreeDayInput } from './lastFreeDay';
import { tariffFor, type BoxKind, type DayCount, type Tariff, type TariffRow } from './tariff';

// ---------------------------------------------------------------------------------------------
// Day arithmetic on dates ("2026-03-08"), whatever their zone.

/** How days are counted: calendar days, or working days without the user's holidays. */
export interface DayRule {
	day_count: DayCount;
	/** Dates ("2026-12-25") that are not working days. */
	holidays: ReadonlySet<string>;
}

function dateOf(date: string): DateTime {
	return DateTime.fromISO(date, { zone: 'utc' });
}

export function addDays(date: string, days: number): string {
	return dateOf(date).plus({ days }).toISODate()!;
}

export function isCountedDay(date: string, rule: DayRule): boolean {
	if (rule.day_count === 'calendar') return true;
	return dateOf(date).weekday <= 5 && !rule.holidays.has(date);
}

/** The days that count from the day after `after` through `through`, both dates. */
export function countedDays(after: string, through: string, rule: DayRule): number {
	if (through <= after) return 0;
	const span = Math.round(dateOf(through).diff(dateOf(after), 'days').days);
	if (rule.day_count === 'calendar') return span;
	// Whole weeks hold five working days each; the days left over are looked at one by one.
	let count = Math.floor(span / 7) * 5;
	const firstWeekday = dateOf(after).weekday;
	for (let day = span - (span % 7) + 1; day <= span; day++)
		if ((firstWeekday + day - 1) % 7 < 5) count++;
	for (const holiday of rule.holidays)
		if (holiday > after && holiday <= through && dateOf(holiday).weekday <= 5) count--;
	return count;
}

/**
 * The last free day of a clock whose day 1 is `start`: its `freeDays`-th counted day; the day
 * before `start` when there are none.
 */
export function lastFreeDateFrom(start: string, freeDays: number, rule: DayRule): string {
	let date = addDays(start, -1);
	for (let left = freeDays; left > 0; ) {
		date = addDays(date, 1);
		if (isCountedDay(date, rule)) left--;
	}
	return date;
}

/** The rate of charged day `day` (1 is the first), or null when no tier covers it. */
export function tierRate(tiers: readonly TariffRow[], day: number): TariffRow | null {
	return tiers.find((tier) => tier.from_day <= day && (tier.to_day ?? Infinity) >= day) ?? null;
}

export interface Amount {
	/** Sum per currency code; '' holds tiers without a currency. */
	by_currency: Record<string, number>;
	/** The first charged day no tier covers, or null when every day has a rate. */
	uncovered_day: number | null;
}

/** What `days` charged days cost: per tier, the days of it among 1 … `days` times its rate. */
export function chargeForDays(tiers: readonly TariffRow[], days: number): Amount {
	const unrounded: Record<string, number> = {};
	let uncovered_day: number | null = null;
	const sorted = [...tiers].sort((a, b) => a.from_day - b.from_day);
	// The first tier's currency, so that no day charged yet still names it.
	if (sorted.length > 0) unrounded[sorted[0].currency ?? ''] = 0;
	let next = 1;
	for (const tier of sorted) {
		if (tier.from_day > next && next <= days && uncovered_day === null) uncovered_day = next;
		const last = Math.min(tier.to_day ?? Infinity, days);
		const inTier = Math.max(0, last - tier.from_day + 1);
		const code = tier.currency ?? '';
		if (inTier > 0) unrounded[code] = (unrounded[code] ?? 0) + inTier * tier.rate_per_day;
		next = Math.max(next, (tier.to_day ?? Infinity) + 1);
	}
	if (next <= days && uncovered_day === null) uncovered_day = next;
	const by_currency: Record<string, number> = {};
	for (const [code, sum] of Object.entries(unrounded)) by_currency[code] = roundToCents(sum);
	return { by_currency, uncovered_day };
}

// ---------------------------------------------------------------------------------------------
// A clock: its last free day, its end, its day rule and tiers.

interface Clock {
	name: 'demurrage' | 'detention' | 'combined';
	lastFree: string;
	/** The last day it runs (the day the box left, or came back), or null while it runs. */
	end: string | null;
	rule: DayRule;
	tiers: readonly TariffRow[] | null;
}

function daysThrough(clock: Clock, date: string): number {
	const through = clock.end !== null && clock.end < date ? clock.end : date;
	return countedDays(clock.lastFree, through, clock.rule);
}

function noRow(charge: string): string {
	return `No ${charge} row of the tariff applies to this box (its line, terminal, size, type)`;
}

/** The charge of a clock through `date`, or a sentence saying why it cannot be given. */
function chargeThrough(clock: Clock, date: string): Record<string, number> | string {
	if (!clock.tiers) return noRow(clock.name);
	const days = daysThrough(clock, date);
	const amount = chargeForDays(clock.tiers, days);
	if (amount.uncovered_day !== null)
		return `The tariff has no ${clock.name} rate for day ${amount.uncovered_day}`;
	return amount.by_currency;
}

function plus(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
	const sum: Record<string, number> = { ...a };
	for (const [code, value] of Object.entries(b)) sum[code] = roundToCents((sum[code] ?? 0) + value);
	return sum;
}

function minus(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
	return plus(a, Object.fromEntries(Object.entries(b).map(([code, value]) => [code, -value])));
}

/** One amount and its currency, or null amount when the sum spans currencies. */
function single(amounts: Record<string, number>): {
	amount: number | null;
	currency: string | null;
} {
	const codes = Object.keys(amounts);
	if (codes.length === 0) return { amount: 0, currency: null };
	if (codes.length > 1) return { amount: null, currency: null };
	return { amount: amounts[codes[0]], currency: codes[0] === '' ? null : codes[0] };
}

// ---------------------------------------------------------------------------------------------
// The box.

/** What this file reads of a container; any of it may be missing or null. */
export type ChargesInput = LastFreeDayInput & {
	[Key in
		| 'pod_arrived_at'
		| 'pod_discharged_at'
		| 'pod_full_out_at'
		| 'pod_rail_departed_at'
		| 'ind_ata_at'
		| 'ind_rail_unloaded_at'
		| 'final_destination_full_out_at'
		| 'empty_terminated_at'
		| 'empty_terminated_timezone'
		| 'fees_at_pod_terminal']?: ContainerAttributes[Key] | null;
};

export type ChargesStatus =
	| 'not_arrived'
	| 'in_free_time'
	| 'in_demurrage'
	| 'in_detention'
	| 'returned'
	| 'unknown';

export interface ContainerCharges {
	charges_status: ChargesStatus;
	/** `separate` (demurrage, then detention) or `combined`; null when no row applies. */
	free_time: 'separate' | 'combined' | null;
	last_free_day_date: string | null;
	last_free_day_source: string | null;
	last_free_day_timezone: string | null;
	picked_up_on: string | null;
	returned_on: string | null;
	/** Days of free time left in the clock that runs now, today included; 0 once charged. */
	free_days_left: number | null;
	demurrage_days: number | null;
	demurrage_charges: number | null;
	demurrage_currency: string | null;
	detention_last_free_day: string | null;
	detention_days: number | null;
	detention_charges: number | null;
	detention_currency: string | null;
	combined_last_free_day: string | null;
	combined_days: number | null;
	combined_charges: number | null;
	combined_currency: string | null;
	charges_total: number | null;
	charges_currency: string | null;
	charges_by_currency: Record<string, number> | null;
	/** The rate per day of the clock that runs now, from tomorrow on (0 while tomorrow is free). */
	rate_from_tomorrow: number | null;
	/** What waiting until tomorrow adds to the charges (0 on a day that does not count). */
	one_more_day_costs: number | null;
	what_if_date: string | null;
	charges_if_picked_up: number | null;
	charges_if_returned: number | null;
	terminal_demurrage_fee: number | null;
	terminal_fees_total: number | null;
	terminal_fees_currency: string | null;
	charges_missing: string[];
}

function text(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function isSet(value: unknown): boolean {
	return value !== null && value !== undefined && value !== '';
}

/** The date of an instant in `zone` (UTC when the zone is unknown), or null. */
function localDate(iso: unknown, zone: string | null): string | null {
	const value = text(iso);
	if (!value) return null;
	const inZone = zone ? DateTime.fromISO(value, { zone }) : null;
	const date = inZone?.isValid ? inZone : DateTime.fromISO(value, { zone: 'utc' });
	return date.isValid ? date.toISODate() : null;
}

function todayIn(zone: string | null, now: Date): string {
	const inZone = zone ? DateTime.fromJSDate(now, { zone }) : null;
	return (inZone?.isValid ? inZone : DateTime.fromJSDate(now, { zone: 'utc' })).toISODate()!;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * A date as a person says it, read against `today` (a date in the place's zone): "2026-12-11",
 * an ISO date-time (its date in `zone`), "today", "tomorrow", or a weekday ("Friday", "fri",
 * "next friday": the first such day from today on). Null when it is none of these.
 */
export function dateFromWords(words: string, today: string, zone: string | null): string | null {
	const said = words
		.trim()
		.toLowerCase()
		.replace(/^(on|next|this)\s+/, '');
	if (said === '') return null;
	if (said === 'today') return today;
	if (said === 'tomorrow') return addDays(today, 1);
	const weekday = WEEKDAYS.findIndex((name) => said.length >= 3 && name.startsWith(said));
	if (weekday !== -1) {
		const ahead = (weekday + 1 - dateOf(today).weekday + 7) % 7;
		return addDays(today, ahead);
	}
	if (/^\d{4}-\d{2}-\d{2}$/.test(said)) return dateOf(said).isValid ? said : null;
	return localDate(words.trim(), zone);
}

export interface ChargesOptions {
	now: Date;
	/** Dates that are not working days, for tariffs that count working days. */
	holidays: ReadonlySet<string>;
	/** A pickup or return date as a person says it (dateFromWords), or null. */
	whatIf?: string | null;
}

/**
 * The charges of one box, as the table at the top of this file says. `box` names its line,
 * terminal and equipment for the tariff's rows; `rows` are the tariff as read (logic/tariff.ts).
 * Throws only for a what-if date that cannot be read (the caller names the field).
 */
export function containerCharges(
	attributes: ChargesInput | null | undefined,
	box: BoxKind,
	rows: readonly TariffRow[],
	{ now, holidays, whatIf }: ChargesOptions,
): ContainerCharges {
	const input: ChargesInput = attributes ?? {};
	const missing: string[] = [];
	const say = (sentence: string) => {
		if (!missing.includes(sentence)) missing.push(sentence);
	};

	const podZone = text(input.pod_timezone);
	const inlandZone = text(input.final_destination_timezone);
	const movesInland =
		isSet(input.ind_rail_carrier_scac) || isSet(input.ind_eta_at) || isSet(input.ind_ata_at);

	// Pickup: where the consignee takes the box, the inland ramp on an inland move.
	const pickupZone = movesInland ? (inlandZone ?? podZone) : (podZone ?? inlandZone);
	const pickedUpAt = movesInland ? input.final_destination_full_out_at : input.pod_full_out_at;
	const picked_up_on = localDate(pickedUpAt, pickupZone);
	const returnZone = text(input.empty_terminated_timezone) ?? pickupZone;
	const returned_on = localDate(input.empty_terminated_at, returnZone);
	const arrived = [
		input.pod_arrived_at,
		input.pod_discharged_at,
		input.ind_ata_at,
		input.ind_rail_unloaded_at,
	].some(isSet);
	if (picked_up_on && !arrived) say('The service reports a pickup but no arrival');
	if (returned_on && !picked_up_on) say('The service reports the empty returned but no pickup');

	// The last free day the node applies, and the day the box leaves its place.
	const deadline = lastFreeDay(input);
	const lfdZone = deadline.last_free_day_timezone;
	const lfdDate = lastFreeDayDate(deadline.last_free_day, lfdZone);
	const leftAt =
		(deadline.last_free_day_place === 'inland_destination'
			? text(input.final_destination_full_out_at)
			: deadline.last_free_day_place === 'port_terminal'
				? (text(input.pod_full_out_at) ?? text(input.pod_rail_departed_at))
				: null) ?? pickedUpAt;
	const lfdPlaceZone = lfdZone ?? pickupZone;
	const leftOn = localDate(leftAt, lfdPlaceZone);
	if (deadline.last_free_day && !lfdZone)
		say('The place’s time zone is unknown: the last free day is read in UTC');

	const combinedRows = tariffFor(rows, 'combined', box);
	const demurrageRows = tariffFor(rows, 'demurrage', box);
	const detentionRows = tariffFor(rows, 'detention', box);
	const combined = combinedRows.tariff !== null;
	const problems = combined
		? combinedRows.problems
		: [...demurrageRows.problems, ...detentionRows.problems];
	problems.forEach(say);
	const rule = (tariff: Tariff | null): DayRule => ({
		day_count: tariff?.day_count ?? 'calendar',
		holidays,
	});

	let clockBeforePickup: Clock | null = null;
	let clockAfterPickup: Clock | null = null;
	let detention_last_free_day: string | null = null;
	let combined_last_free_day: string | null = null;
	if (combined) {
		const tariff = combinedRows.tariff!;
		const discharged = localDate(input.pod_discharged_at ?? input.pod_arrived_at, podZone);
		if (!discharged) say('No discharge at the port yet: the combined free time has not started');
		else {
			combined_last_free_day = lastFreeDateFrom(discharged, tariff.free_days ?? 0, rule(tariff));
			const clock: Clock = {
				name: 'combined',
				lastFree: combined_last_free_day,
				end: returned_on,
				rule: rule(tariff),
				tiers: tariff.tiers,
			};
			clockBeforePickup = clock;
			clockAfterPickup = clock;
		}
	} else {
		if (rows.length > 0 && !demurrageRows.tariff) say(noRow('demurrage'));
		if (rows.length > 0 && !detentionRows.tariff) say(noRow('detention'));
		if (!lfdDate) say('No last free day yet');
		else
			clockBeforePickup = {
				name: 'demurrage',
				lastFree: lfdDate,
				end: leftOn,
				rule: rule(demurrageRows.tariff),
				tiers: demurrageRows.tariff?.tiers ?? null,
			};
		if (picked_up_on && detentionRows.tariff) {
			const tariff = detentionRows.tariff;
			detention_last_free_day = lastFreeDateFrom(picked_up_on, tariff.free_days ?? 0, rule(tariff));
			clockAfterPickup = {
				name: 'detention',
				lastFree: detention_last_free_day,
				end: returned_on,
				rule: rule(tariff),
				tiers: tariff.tiers,
			};
		}
	}
	if (rows.length === 0) say('The tariff has no rows');

	const zoneOf = (clock: Clock | null): string | null =>
		clock?.name === 'demurrage' ? lfdPlaceZone : clock?.name === 'combined' ? podZone : pickupZone;
	const today = (clock: Clock | null) => todayIn(zoneOf(clock), now);

	/** Amounts, or null once the sentence saying why not is said. */
	const known = (charge: Record<string, number> | string): Record<string, number> | null => {
		if (typeof charge !== 'string') return charge;
		say(charge);
		return null;
	};
	/** A clock's days and charges so far, each null (and said) when they cannot be given. */
	const soFar = (clock: Clock | null) =>
		clock
			? {
					days: daysThrough(clock, today(clock)),
					amounts: known(chargeThrough(clock, today(clock))),
				}
			: { days: null, amounts: null };

	// Where the box stands, and the clock that runs now.
	const running = returned_on ? null : picked_up_on ? clockAfterPickup : clockBeforePickup;
	const charges_status: ChargesStatus = returned_on
		? 'returned'
		: !picked_up_on && !arrived
			? 'not_arrived'
			: !running
				? 'unknown'
				: today(running) <= running.lastFree
					? 'in_free_time'
					: picked_up_on
						? 'in_detention'
						: 'in_demurrage';

	const demurrage = combined ? null : soFar(clockBeforePickup);
	const detention = combined ? null : soFar(clockAfterPickup);
	const merged = combined ? soFar(clockBeforePickup) : null;
	// Detention counts in the total once the box is out.
	const parts = combined ? [merged!] : picked_up_on ? [demurrage!, detention!] : [demurrage!];
	const total = parts.every((part) => part.amounts !== null)
		? parts.reduce<Record<string, number>>((sum, part) => plus(sum, part.amounts!), {})
		: null;

	let free_days_left: number | null = null;
	let rate_from_tomorrow: number | null = null;
	let one_more_day_costs: number | null = null;
	if (returned_on) {
		free_days_left = 0;
		rate_from_tomorrow = 0;
		one_more_day_costs = 0;
	} else if (running) {
		const day = today(running);
		free_days_left = countedDays(addDays(day, -1), running.lastFree, running.rule);
		const tomorrow = addDays(day, 1);
		if (running.tiers) {
			if (tomorrow <= running.lastFree) rate_from_tomorrow = 0;
			else
				rate_from_tomorrow =
					tierRate(running.tiers, daysThrough(running, day) + 1)?.rate_per_day ?? null;
			const [byToday, byTomorrow] = [
				known(chargeThrough(running, day)),
				known(chargeThrough(running, tomorrow)),
			];
			if (byToday && byTomorrow) one_more_day_costs = single(minus(byTomorrow, byToday)).amount;
		}
	}

	// What if the box is picked up, or the empty returned, on a given date.
	let what_if_date: string | null = null;
	let charges_if_picked_up: number | null = null;
	let charges_if_returned: number | null = null;
	if (text(whatIf)) {
		const base = picked_up_on ? (clockAfterPickup ?? clockBeforePickup) : clockBeforePickup;
		const date = dateFromWords(whatIf!, todayIn(zoneOf(base) ?? pickupZone, now), zoneOf(base));
		if (!date)
			throw new Error(
				`"${whatIf}" is not a date: give one such as 2026-12-11, today, tomorrow or Friday`,
			);
		what_if_date = date;
		const amount = (charge: Record<string, number> | string): number | null => {
			const charges = known(charge);
			if (!charges) return null;
			const one = single(charges);
			if (one.amount === null) say('The charges for that date are in more than one currency');
			return one.amount;
		};
		if (returned_on) say('The empty is back: there is no pickup or return left to price');
		else if (picked_up_on && date < picked_up_on)
			say(`${date} is before the pickup (${picked_up_on})`);
		else if (combined) {
			if (clockBeforePickup) {
				const clock = { ...clockBeforePickup, end: null };
				if (!picked_up_on) charges_if_picked_up = amount(chargeThrough(clock, date));
				charges_if_returned = amount(chargeThrough(clock, date));
			}
		} else {
			const pickupDate = picked_up_on ?? date;
			const demurrageClock = clockBeforePickup && {
				...clockBeforePickup,
				end: clockBeforePickup.end ?? pickupDate,
			};
			const demurrageCharge = demurrageClock ? chargeThrough(demurrageClock, pickupDate) : null;
			if (!picked_up_on && demurrageCharge !== null) charges_if_picked_up = amount(demurrageCharge);
			const detentionTariff = detentionRows.tariff;
			if (demurrageCharge !== null && typeof demurrageCharge !== 'string' && detentionTariff) {
				const detentionClock: Clock = {
					name: 'detention',
					lastFree: lastFreeDateFrom(
						pickupDate,
						detentionTariff.free_days ?? 0,
						rule(detentionTariff),
					),
					end: null,
					rule: rule(detentionTariff),
					tiers: detentionTariff.tiers,
				};
				const detentionCharge = chargeThrough(detentionClock, date);
				charges_if_returned =
					typeof detentionCharge === 'string'
						? amount(detentionCharge)
						: amount(plus(demurrageCharge, detentionCharge));
			}
		}
	}

	const fees = feeTotals(input.fees_at_pod_terminal);
	const feesPerType = feesByType(input.fees_at_pod_terminal);
	const totalOne = total ? single(total) : null;
	const oneOf = (amounts: Record<string, number> | null | undefined) =>
		amounts ? single(amounts) : { amount: null, currency: null };
	return {
		charges_status,
		free_time: combined
			? 'combined'
			: demurrageRows.tariff || detentionRows.tariff
				? 'separate'
				: null,
		last_free_day_date: lfdDate,
		last_free_day_source: deadline.last_free_day_source,
		last_free_day_timezone: lfdZone,
		picked_up_on,
		returned_on,
		free_days_left,
		demurrage_days: demurrage?.days ?? null,
		demurrage_charges: oneOf(demurrage?.amounts).amount,
		demurrage_currency:
			oneOf(demurrage?.amounts).currency ?? demurrageRows.tariff?.tiers[0].currency ?? null,
		detention_last_free_day,
		detention_days: detention?.days ?? null,
		detention_charges: oneOf(detention?.amounts).amount,
		detention_currency:
			oneOf(detention?.amounts).currency ?? detentionRows.tariff?.tiers[0].currency ?? null,
		combined_last_free_day,
		combined_days: merged?.days ?? null,
		combined_charges: oneOf(merged?.amounts).amount,
		combined_currency:
			oneOf(merged?.amounts).currency ?? combinedRows.tariff?.tiers[0].currency ?? null,
		charges_total: totalOne?.amount ?? null,
		charges_currency: totalOne?.currency ?? null,
		charges_by_currency: total,
		rate_from_tomorrow,
		one_more_day_costs,
		what_if_date,
		charges_if_picked_up,
		charges_if_returned,
		terminal_demurrage_fee: feesPerType?.demurrage ?? null,
		terminal_fees_total: fees.fees_total,
		terminal_fees_currency: fees.fees_currency,
		charges_missing: missing,
	};
}

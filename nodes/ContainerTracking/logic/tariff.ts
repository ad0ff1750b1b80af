/**
 * The user's demurrage and detention tariff: its rows read from what a person typed or a Data
 * Table holds, and the rows that apply to one box (docs/charges.md, "The tariff").
 *
 * One row is one tier: a charge (demurrage, detention, or combined where the contract merges
 * them), who it applies to (shipping line, terminal, container size, container type; blank is
 * any), the free days, from day and to day (days charged: day 1 is the first day after the free
 * time; to day blank is open-ended), the rate per day, its currency and whether days are calendar
 * or working days. Rows with the same charge and the same four "applies to" values are one
 * tariff, their tiers side by side.
 *
 * Which rows apply to a box: of the rows of a charge that match it, the group naming the most of
 * the four wins (a line and terminal row beats a line row, which beats a blank one); equal, the
 * group listed first. A combined row that matches wins over separate demurrage and detention.
 *
 * Columns are found whatever their case and spacing ("Rate Per Day", "rate_per_day", "rate"), so
 * that a Data Table's or a sheet's rows are read as they are; columns no table lists (a Data
 * Table's id, createdAt) are ignored.
 */
import { toNumber } from '../schemas/values';

export type ChargeKind = 'demurrage' | 'detention' | 'combined';
export type DayCount = 'calendar' | 'working';

export interface TariffRow {
	charge: ChargeKind;
	shipping_line: string | null;
	terminal: string | null;
	container_size: string | null;
	container_type: string | null;
	/** Null on a demurrage row: its free time is the last free day. */
	free_days: number | null;
	from_day: number;
	to_day: number | null;
	rate_per_day: number;
	currency: string | null;
	day_count: DayCount;
}

/** One tariff: the rows of one charge that apply to one box, its tiers in order of from day. */
export interface Tariff {
	charge: ChargeKind;
	free_days: number | null;
	day_count: DayCount;
	tiers: TariffRow[];
}

/** What the tariff's rows are matched against: the box's line, terminal and equipment. */
export interface BoxKind {
	/** The line's SCAC, name and short name: a row's line matches any of them. */
	shipping_line: string[];
	/** The terminal's name, nickname and codes (FIRMS, SMDG, BIC): a row's terminal matches any. */
	terminal: string[];
	/** Its length in feet (the service's `equipment_length`). */
	size_feet: number | null;
	high_cube: boolean;
	container_type: string | null;
}

/** The columns of a row, each with the names it is found under (compared without case and spacing). */
const COLUMNS = {
	charge: ['charge', 'charge type', 'kind'],
	shipping_line: ['shipping line', 'line', 'scac', 'carrier'],
	terminal: ['terminal', 'facility'],
	container_size: ['container size', 'size', 'equipment size', 'equipment length'],
	container_type: ['container type', 'type', 'equipment type'],
	free_days: ['free days', 'free time'],
	from_day: ['from day', 'from'],
	to_day: ['to day', 'to'],
	rate_per_day: ['rate per day', 'rate', 'daily rate', 'per day'],
	currency: ['currency', 'currency code'],
	day_count: ['day count', 'days', 'count days as'],
} as const;

type Column = keyof typeof COLUMNS;

/** The words of a column's heading: "Rate_Per-Day" and "ratePerDay" are "rate per day". */
function heading(name: string): string {
	return name
		.trim()
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.replace(/[\s_\-.]+/g, ' ');
}

function cell(row: Record<string, unknown>, column: Column): unknown {
	const names: readonly string[] = COLUMNS[column];
	for (const [name, value] of Object.entries(row)) if (names.includes(heading(name))) return value;
	return undefined;
}

function blank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

function textOf(value: unknown): string | null {
	return blank(value) ? null : String(value).trim();
}

const CHARGE_WORDS: Record<string, ChargeKind> = {
	demurrage: 'demurrage',
	detention: 'detention',
	'per diem': 'detention',
	perdiem: 'detention',
	combined: 'combined',
	'demurrage and detention': 'combined',
	'demurrage & detention': 'combined',
	'd&d': 'combined',
};

const DAY_COUNT_WORDS: Record<string, DayCount> = {
	calendar: 'calendar',
	'calendar days': 'calendar',
	working: 'working',
	'working days': 'working',
	business: 'working',
	'business days': 'working',
};

/**
 * The rows of a tariff as a person or a Data Table gives them, read into tiers; every value that
 * cannot be read is named (row number from 1, column, value) in `problems`, and its row left out.
 */
export function readTariffRows(rows: unknown[]): { rows: TariffRow[]; problems: string[] } {
	const read: TariffRow[] = [];
	const problems: string[] = [];
	rows.forEach((raw, index) => {
		const where = `Tariff row ${index + 1}`;
		if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
			problems.push(`${where} is not a row of named columns`);
			return;
		}
		const row = raw as Record<string, unknown>;
		const rowProblems: string[] = [];
		const number = (column: Column, label: string, { required }: { required: boolean }) => {
			const value = cell(row, column);
			if (blank(value)) {
				if (required) rowProblems.push(`${where} has no ${label}`);
				return null;
			}
			const parsed = toNumber(typeof value === 'string' ? value.replace(/,/g, '') : value);
			if (parsed === null || parsed < 0) {
				rowProblems.push(`${where}: ${label} "${String(value)}" is not a number of 0 or more`);
				return null;
			}
			return parsed;
		};

		const chargeText = textOf(cell(row, 'charge'));
		const charge = chargeText ? CHARGE_WORDS[heading(chargeText)] : undefined;
		if (!charge)
			rowProblems.push(
				chargeText
					? `${where}: Charge "${chargeText}" is not demurrage, detention or combined`
					: `${where} has no Charge (demurrage, detention or combined)`,
			);
		const dayCountText = textOf(cell(row, 'day_count'));
		const day_count = dayCountText ? DAY_COUNT_WORDS[heading(dayCountText)] : 'calendar';
		if (!day_count)
			rowProblems.push(`${where}: Day Count "${dayCountText}" is not calendar or working days`);
		const free_days = number('free_days', 'Free Days', { required: false });
		const from_day = number('from_day', 'From Day', { required: false }) ?? 1;
		const to_day = number('to_day', 'To Day', { required: false });
		const rate_per_day = number('rate_per_day', 'Rate Per Day', { required: true });
		for (const [label, value] of [
			['Free Days', free_days],
			['From Day', from_day],
			['To Day', to_day],
		] as const)
			if (value !== null && !Number.isInteger(value))
				rowProblems.push(`${where}: ${label} ${value} is not a whole number of days`);
		if (from_day < 1)
			rowProblems.push(`${where}: From Day is ${from_day}; day 1 is the first day charged`);
		if (to_day !== null && to_day < from_day)
			rowProblems.push(`${where}: To Day ${to_day} is before From Day ${from_day}`);
		if (charge && charge !== 'demurrage' && free_days === null)
			rowProblems.push(`${where} (${charge}) has no Free Days (0 when none)`);

		if (rowProblems.length > 0 || !charge || !day_count || rate_per_day === null) {
			problems.push(...rowProblems);
			return;
		}
		const currency = textOf(cell(row, 'currency'));
		read.push({
			charge,
			shipping_line: textOf(cell(row, 'shipping_line')),
			terminal: textOf(cell(row, 'terminal')),
			container_size: textOf(cell(row, 'container_size')),
			container_type: textOf(cell(row, 'container_type')),
			free_days: charge === 'demurrage' ? null : free_days,
			from_day,
			to_day,
			rate_per_day,
			currency: currency === null ? null : currency.toUpperCase(),
			day_count,
		});
	});
	return { rows: read, problems };
}

const same = (a: string, b: string): boolean => heading(a) === heading(b);

/** "40", "40'", "40HC", "40 high cube": the length, and whether a high cube is asked for. */
function sizeOf(text: string): { length: number | null; highCube: boolean } {
	const digits = /\d+/.exec(text);
	return {
		length: digits ? Number(digits[0]) : null,
		highCube: /hc|high\s*cube|hq/i.test(text),
	};
}

function matches(row: TariffRow, box: BoxKind): boolean {
	if (row.shipping_line && !box.shipping_line.some((name) => same(name, row.shipping_line!)))
		return false;
	if (row.terminal && !box.terminal.some((name) => same(name, row.terminal!))) return false;
	if (row.container_size) {
		const size = sizeOf(row.container_size);
		if (size.length !== null && size.length !== box.size_feet) return false;
		if (size.highCube && !box.high_cube) return false;
	}
	if (row.container_type && !(box.container_type && same(box.container_type, row.container_type)))
		return false;
	return true;
}

function appliesTo(row: TariffRow): string {
	return JSON.stringify([row.shipping_line, row.terminal, row.container_size, row.container_type]);
}

function specificity(row: TariffRow): number {
	return [row.shipping_line, row.terminal, row.container_size, row.container_type].filter(
		(value) => value !== null,
	).length;
}

/**
 * The tariff of `charge` that applies to `box`, as the top of this file says, or null when no
 * row does. `problems` names what its rows disagree on (free days, day count).
 */
export function tariffFor(
	rows: readonly TariffRow[],
	charge: ChargeKind,
	box: BoxKind,
): { tariff: Tariff | null; problems: string[] } {
	const candidates = rows.filter((row) => row.charge === charge && matches(row, box));
	if (candidates.length === 0) return { tariff: null, problems: [] };
	const best = Math.max(...candidates.map(specificity));
	const chosen = appliesTo(candidates.find((row) => specificity(row) === best)!);
	const tiers = candidates
		.filter((row) => appliesTo(row) === chosen)
		.sort((a, b) => a.from_day - b.from_day);
	const problems: string[] = [];
	const freeDays = new Set(tiers.map((row) => row.free_days));
	const dayCounts = new Set(tiers.map((row) => row.day_count));
	if (freeDays.size > 1)
		problems.push(
			`The ${charge} rows for this box give different free days (${[...freeDays].join(', ')})`,
		);
	if (dayCounts.size > 1)
		problems.push(`The ${charge} rows for this box count days differently (calendar and working)`);
	for (const [index, tier] of tiers.entries()) {
		const next = tiers[index + 1];
		if (next && (tier.to_day === null || tier.to_day >= next.from_day))
			problems.push(
				`The ${charge} rows for this box overlap: day ${next.from_day} is in two tiers`,
			);
	}
	return {
		tariff: { charge, free_days: tiers[0].free_days, day_count: tiers[0].day_count, tiers },
		problems,
	};
}

/**
 * What a change to a container looks like from the outside: the attributes a
 * `container.updated` changeset reports, the deadline notifications, and the hold and fee
 * arithmetic (docs/service.md, "Fee totals": a `total` fee kept equal to the sum of the other
 * fees).
 */
import { isEqual } from 'lodash';

import type {
	ContainerAttributes as ServedContainerAttributes,
	TerminalFee as ServedFee,
	TerminalHold,
} from '../../nodes/ContainerTracking/schemas';

/** The sandbox writes every amount as a number; the service may send numeric strings. */
export type TerminalFee = ServedFee & { amount: number };

/**
 * Container attributes whose changes the terminal (and, for `ind_eta_at`, the rail carrier)
 * reports through `container.updated`.
 */
export const CHANGESET_ATTRIBUTES = [
	'available_for_pickup',
	'ind_eta_at',
	'holds_at_pod_terminal',
	'fees_at_pod_terminal',
	'pickup_lfd',
	'pickup_appointment_at',
	'location_at_pod_terminal',
	'pod_full_out_chassis_number',
] as const;

/** Deadline attribute → the notification sent when it changes. */
export const DEADLINE_NOTIFICATIONS: ReadonlyArray<{
	read: (attributes: ContainerAttributes) => unknown;
	event: string;
}> = [
	{ read: (a) => deadline(a, 'pickup_lfd_line'), event: 'container.pickup_lfd_line.changed' },
	{
		read: (a) => deadline(a, 'pickup_lfd_terminal'),
		event: 'container.pickup_lfd_terminal.changed',
	},
	{ read: (a) => deadline(a, 'pickup_lfd_rail'), event: 'container.pickup_lfd_rail.changed' },
	{ read: (a) => a.pickup_lfd, event: 'container.pickup_lfd.changed' },
	{ read: (a) => a.pickup_appointment_at, event: 'container.pickup_appointment.changed' },
];

/** A container's attributes as the sandbox keeps them: holds and fees always listed. */
export type ContainerAttributes = ServedContainerAttributes & {
	holds_at_pod_terminal: TerminalHold[];
	fees_at_pod_terminal: TerminalFee[];
};

function deadline(attributes: ContainerAttributes, name: string): string | null {
	const value = attributes.import_deadlines?.[name];
	return typeof value === 'string' ? value : null;
}

/**
 * docs/service.md, "Last free day": the first non-null of line, terminal, rail — a priority, not
 * the earliest date.
 */
export function coalescedLastFreeDay(attributes: ContainerAttributes): string | null {
	return (
		deadline(attributes, 'pickup_lfd_line') ??
		deadline(attributes, 'pickup_lfd_terminal') ??
		deadline(attributes, 'pickup_lfd_rail')
	);
}

/** docs/service.md, "Changesets": attribute name → [old, new], for the attributes that changed. */
export function buildChangeset(
	before: ContainerAttributes,
	after: ContainerAttributes,
): Record<string, [unknown, unknown]> {
	const changeset: Record<string, [unknown, unknown]> = {};
	for (const name of CHANGESET_ATTRIBUTES) {
		const oldValue = before[name] ?? null;
		const newValue = after[name] ?? null;
		if (!isEqual(oldValue, newValue)) changeset[name] = [oldValue, newValue];
	}
	return changeset;
}

export function changedDeadlineEvents(
	before: ContainerAttributes,
	after: ContainerAttributes,
): string[] {
	return DEADLINE_NOTIFICATIONS.filter(
		(deadlineNotification) =>
			!isEqual(deadlineNotification.read(before) ?? null, deadlineNotification.read(after) ?? null),
	).map((deadlineNotification) => deadlineNotification.event);
}

/** Holds are matched by name, and `other` holds also by description (they cannot be told apart otherwise). */
export function sameHold(
	a: Pick<TerminalHold, 'name' | 'description'>,
	b: Pick<TerminalHold, 'name' | 'description'>,
): boolean {
	if (a.name !== b.name) return false;
	return a.name !== 'other' || (a.description ?? null) === (b.description ?? null);
}

export function withHold(holds: TerminalHold[], hold: TerminalHold): TerminalHold[] {
	const index = holds.findIndex((existing) => sameHold(existing, hold));
	if (index === -1) return [...holds, hold];
	return holds.map((existing, position) => (position === index ? hold : existing));
}

export function withoutHold(
	holds: TerminalHold[],
	hold: Pick<TerminalHold, 'name' | 'description'>,
): TerminalHold[] {
	return holds.filter((existing) => !sameHold(existing, hold));
}

/** Sets a fee of `type` (0 is a valid amount: reported but not posted yet) and re-adds the `total`. */
export function withFee(fees: TerminalFee[], fee: TerminalFee): TerminalFee[] {
	const lineItems = fees.filter(
		(existing) => existing.type !== 'total' && existing.type !== fee.type,
	);
	return withTotal([...lineItems, fee]);
}

export function withoutFee(fees: TerminalFee[], type: string): TerminalFee[] {
	return withTotal(fees.filter((existing) => existing.type !== 'total' && existing.type !== type));
}

function withTotal(lineItems: TerminalFee[]): TerminalFee[] {
	if (lineItems.length === 0) return [];
	const currency = lineItems[0].currency_code;
	if (lineItems.some((fee) => fee.currency_code !== currency)) return lineItems;
	const amount = Math.round(lineItems.reduce((sum, fee) => sum + fee.amount, 0) * 100) / 100;
	return [...lineItems, { type: 'total', amount, currency_code: currency }];
}

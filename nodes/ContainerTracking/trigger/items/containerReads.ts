import type { IDataObject } from 'n8n-workflow';

import { readContainerItem } from '../../actions/container/summary';
import type { IncludedIndex } from '../../records/jsonApi';
import type { JsonApiResource } from '../../schemas';

/**
 * What the trigger's reads of containers put on its items (Fetch Container When Missing), apart
 * from how the reads are made (trigger/items/containerLookup.ts): which container each item
 * lacks, and the state a read gives it, with when that state was the service's
 * (`container_as_of`). Pure, so that the newest-state rule (docs/design/trigger.md, "The newest
 * state wins") can be checked under any order of reads and notifications.
 */

/** A container sought: by a transport event it lists, or by its own id. */
export type Sought = { eventId: string } | { containerId: string };

export const soughtKey = (sought: Sought): string =>
	'eventId' in sought ? `event:${sought.eventId}` : `container:${sought.containerId}`;

/** A container as the service answered it: its record, and when it was asked and answered. */
export interface ContainerRead {
	record: JsonApiResource;
	included: IncludedIndex;
	requestedAt: Date;
	answeredAt: Date;
}

/**
 * How a read says when its state was the service's (`container_as_of`):
 * - `second`: the second it was answered in, as the service times a notification: a read and a
 *   notification of the same second count as equally new, so a view that keeps the later of
 *   equals does not keep a read made a moment before a change over the change's notification;
 * - `requested`: the moment it was asked, to the millisecond, which is never later than the
 *   moment the service served the state it gives (docs/design/trigger.md, "The newest state
 *   wins").
 */
export type ReadTime = 'second' | 'requested';

/** The container as Container → Get gives it, with when it was the service's (above). */
function readState(read: ContainerRead, time: ReadTime): IDataObject {
	const state = readContainerItem(read.record, read.included, {
		askedAt: read.requestedAt,
		answeredAt: read.answeredAt,
	});
	if (time === 'second')
		state.container_as_of = new Date(Math.floor(read.answeredAt.getTime() / 1000) * 1000)
			.toISOString()
			.replace('.000Z', 'Z');
	return state;
}

/** An item and the container it lacks. */
export interface Lacking {
	item: IDataObject;
	sought: Sought;
}

/**
 * What an item lacks of its container, if anything: the container, or records of its state;
 * with `every`, any container it names, to be read as it is now.
 */
function soughtFor(item: IDataObject, every: boolean): Sought | undefined {
	const container = item.container as IDataObject | undefined;
	if (
		container &&
		typeof container.id === 'string' &&
		(every || container.container_state_complete === false)
	)
		return { containerId: container.id };
	if (every && typeof item.container_id === 'string' && item.container_id !== '')
		return { containerId: item.container_id };
	if (!item.container_number && item.reference_type === 'transport_event')
		return typeof item.reference_id === 'string' ? { eventId: item.reference_id } : undefined;
	return undefined;
}

/** The items that lack something of their container (`soughtFor`), with what. */
export function lackingContainers(items: IDataObject[], every: boolean): Lacking[] {
	return items
		.map((item) => ({ item, sought: soughtFor(item, every) }))
		.filter((entry): entry is Lacking => entry.sought !== undefined);
}

/** The item names the container it is about, as a delivery that included it would. */
function nameContainer(item: IDataObject, container: IDataObject): void {
	const shipment = container.shipment as IDataObject | undefined;
	item.container_id = (container.id as string | undefined) ?? null;
	item.container_number = typeof container.number === 'string' ? container.number : null;
	if (!item.shipment_id) item.shipment_id = (container.shipment_id as string | undefined) ?? null;
	if (!item.bill_of_lading_number && typeof shipment?.bill_of_lading_number === 'string')
		item.bill_of_lading_number = shipment.bill_of_lading_number;
	// An estimated arrival whose delivery did not name its shipment: now it does.
	const estimate = item.arrival_estimate as IDataObject | undefined;
	if (estimate && !estimate.bill_of_lading_number && item.bill_of_lading_number)
		estimate.bill_of_lading_number = item.bill_of_lading_number;
	item.container = container;
}

/**
 * Said on an item that got no read, so that a workflow can tell "no container" from "not looked
 * up". With `every` (a view kept from the items), the state its delivery carried stays on it but
 * untimed (`container_as_of` null): only reads are timed so that the latest is the newest, and a
 * view reads such a box itself (the Pickup board's Get the container) rather than write it.
 */
function unread(item: IDataObject, every: boolean, message: string, description?: string): void {
	item.container_lookup_error = description ? `${message} (${description})` : message;
	const state = item.container as IDataObject | undefined;
	if (!every || typeof state !== 'object' || state === null) return;
	state.container_as_of = null;
	state.container_state_complete = false;
}

/** Puts on each item the container read for it, or says why there is none. */
export function putReads(
	lacking: Lacking[],
	found: Map<string, ContainerRead>,
	every: boolean,
): void {
	for (const { item, sought } of lacking) {
		const read = found.get(soughtKey(sought));
		if (read) nameContainer(item, readState(read, every ? 'requested' : 'second'));
		else if ('eventId' in sought)
			unread(
				item,
				every,
				`No container of the account lists transport event ${sought.eventId}`,
				'The container may have been deleted, or the service lists its events elsewhere.',
			);
		else
			unread(
				item,
				every,
				`Container ${sought.containerId} could not be read again`,
				'It may have been deleted.',
			);
	}
}

/**
 * A lookup that failed does not hold the notifications back: their items go on as the delivery
 * made them (`unread`), with `container_lookup_error` saying why.
 */
export function putLookupFailure(lacking: Lacking[], error: unknown, every: boolean): void {
	const { message, description } = error as { message: string; description?: string };
	for (const { item } of lacking)
		unread(item, every, `The container could not be looked up: ${message}`, description);
}

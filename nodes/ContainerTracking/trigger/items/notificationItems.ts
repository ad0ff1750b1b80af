import type { IDataObject } from 'n8n-workflow';

import { documentWarnings, webhookNotificationEnvelope, type Delivery } from '../../schemas';
import { deliveryItems, type DeliveryOptions } from './deliveryItems';

export interface ItemOptions extends DeliveryOptions {
	/**
	 * Look up the container of a delivery that carries only its reference object: done in the
	 * execution (trigger/execution.ts), never while a delivery waits for its answer.
	 */
	fetchContainer: boolean;
}

/**
 * The items a notification starts the workflow with, whether it was delivered or caught up from
 * the service's log: `body` as received, `notification` its parsed core. What differs from the
 * interface becomes a warning on the items, except in raw output, which passes the body on.
 * Built from the delivery alone: no call to the service.
 */
export function notificationItems(
	notification: Delivery,
	body: unknown,
	options: ItemOptions,
): IDataObject[] {
	return deliveryItems(
		notification,
		options,
		options.raw ? [] : documentWarnings(webhookNotificationEnvelope, body).all,
	);
}

/**
 * What `webhook` and the catch-up hand the execution: each notification as the service sent it,
 * one item each (its carrier item). Its output items are made in the execution, so that a
 * delivery waits for its answer only while it is identified and verified.
 */
const DELIVERY = 'container_tracking_delivery';

/**
 * Marks a carried notification: `caught_up`, the service gave up delivering it
 * (trigger/recovery/catchUp.ts); `recovering`, the restart check (trigger/recovery/restartCheck.ts)
 * hands it over, logged lately, and it runs again only when its run was cut
 * (trigger/memory/runJournal.ts), or as a first run when no execution recorded it.
 */
export type DeliveryMark = 'caught_up' | 'recovering';

const RECOVERING = 'container_tracking_recovering';

export function carrierItem(body: unknown, mark?: DeliveryMark): IDataObject {
	return {
		[DELIVERY]: body as IDataObject,
		...(mark === 'caught_up' ? { caught_up: true } : {}),
		...(mark === 'recovering' ? { [RECOVERING]: true } : {}),
	};
}

/** Whether an execution's item is a notification the restart check handed over. */
export function isRecovering(item: IDataObject): boolean {
	return item[RECOVERING] === true;
}

/** The notification an execution's item carries; undefined for any other item. */
export function deliveryOf(item: IDataObject): IDataObject | undefined {
	const body = item[DELIVERY];
	return typeof body === 'object' && body !== null ? (body as IDataObject) : undefined;
}

/**
 * A notification the cut check hands over (trigger/recovery/cutCheck.ts): its id, when the service
 * logged it, and whether it was answered when last seen. The execution runs it only when its run
 * was cut (open, its lease not renewed), or, answered, when no execution ever recorded it; then it
 * reads its body from the service's log.
 */
export interface CheckedNotification {
	id: string;
	createdAt: number;
	answered: boolean;
}

const CHECK = 'container_tracking_check';

export const checkItem = (notification: CheckedNotification): IDataObject => ({
	[CHECK]: { ...notification },
});

/** The notification a cut check's item names; undefined for any other item. */
export function checkedOf(item: IDataObject): CheckedNotification | undefined {
	const checked = item[CHECK] as IDataObject | undefined;
	if (typeof checked !== 'object' || checked === null || typeof checked.id !== 'string')
		return undefined;
	return {
		id: checked.id,
		createdAt: Number(checked.createdAt),
		answered: checked.answered === true,
	};
}

import type { IDataObject } from 'n8n-workflow';

import { documentWarnings, webhookNotificationEnvelope, type Delivery } from '../schemas';
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

import type { IDataObject } from 'n8n-workflow';

import { documentWarnings, webhookNotificationEnvelope, type Delivery } from '../schemas';
import type { ContainerTrackingContext } from '../transport/request';
import { addMissingContainers } from './containerLookup';
import { deliveryItems, type DeliveryOptions } from './deliveryItems';

export interface ItemOptions extends DeliveryOptions {
	/** Look up the container of a delivery that carries only its reference object. */
	fetchContainer: boolean;
}

/**
 * The items a notification starts the workflow with, whether it was delivered or caught up from
 * the service's log: `body` as received, `notification` its parsed core. What differs from the
 * interface becomes a warning on the items, except in raw output, which passes the body on.
 */
export async function notificationItems(
	context: ContainerTrackingContext,
	notification: Delivery,
	body: unknown,
	options: ItemOptions,
): Promise<IDataObject[]> {
	const items = deliveryItems(
		notification,
		options,
		options.raw ? [] : documentWarnings(webhookNotificationEnvelope, body).all,
	);
	if (items.length > 0 && options.fetchContainer && !options.raw)
		await addMissingContainers.call(context, items);
	return items;
}

import { NodeApiError, type IDataObject, type INodePropertyOptions } from 'n8n-workflow';

import { EVENT_OPTIONS, eventLabel } from '../logic/eventNames';
import { isRecord, membersOf } from '../schemas';
import { containerTrackingRequest, type ContainerTrackingContext } from './request';

/** One event the account may subscribe to, with its category, as `GET /webhooks/events` lists it. */
export interface SubscribableEvent extends IDataObject {
	event: string | null;
	event_label: string | null;
	category_id: string | null;
	category_name: string | null;
}

/**
 * `GET /webhooks/events`: categories, each with its events (`name`, `description`), flattened
 * to one entry per event in the service's order. An event no list of the node holds passes
 * through with its own name and no label.
 */
export async function readSubscribableEvents(
	context: ContainerTrackingContext,
	{ itemIndex, toleranceSeconds }: { itemIndex?: number; toleranceSeconds?: number } = {},
): Promise<SubscribableEvent[]> {
	const response = await containerTrackingRequest.call(context, 'GET', '/webhooks/events', {
		itemIndex,
		toleranceSeconds,
	});
	const categories = Array.isArray(response.body?.data) ? response.body.data : [];
	const events: SubscribableEvent[] = [];
	for (const category of categories.filter(isRecord)) {
		const attributes = membersOf(category.attributes);
		const listed = Array.isArray(attributes.events) ? attributes.events.filter(isRecord) : [];
		for (const event of listed) {
			const name = typeof event.name === 'string' ? event.name : null;
			events.push({
				...(event as IDataObject),
				event: name,
				event_label: (name ? eventLabel(name) : undefined) ?? null,
				category_id: typeof category.id === 'string' ? category.id : null,
				category_name: typeof attributes.name === 'string' ? attributes.name : null,
			});
		}
	}
	return events;
}

/**
 * The Events choices of the trigger: the events this account may subscribe to, labelled as the
 * node labels them; the node's full list when the account's cannot be read (no wait for an
 * outage: a picker answers now).
 */
export async function subscribableEventOptions(
	context: ContainerTrackingContext,
): Promise<INodePropertyOptions[]> {
	try {
		const events = await readSubscribableEvents(context, { toleranceSeconds: 0 });
		const options = events.flatMap(({ event, event_label, description }) => {
			if (!event) return [];
			const known = EVENT_OPTIONS.find((option) => option.value === event);
			return [
				known ?? {
					name: event_label ?? event,
					value: event,
					description: typeof description === 'string' ? `${description} (${event})` : event,
				},
			];
		});
		if (options.length > 0) return options;
	} catch {
		// The node's own list below.
	}
	return EVENT_OPTIONS;
}

/**
 * The error for a webhook the service refused (403) to subscribe to `events`: when the account's
 * list can be read, it names the chosen events that list lacks (the Rail Plan's, say) in words.
 * Any other error, or a list that cannot be read or names them all, is returned as it was.
 */
export async function explainRefusedEvents(
	context: ContainerTrackingContext,
	error: unknown,
	events: string[],
): Promise<unknown> {
	if (!(error instanceof NodeApiError) || error.httpCode !== '403') return error;
	let listed: SubscribableEvent[];
	try {
		listed = await readSubscribableEvents(context, { toleranceSeconds: 0 });
	} catch {
		return error;
	}
	const allowed = new Set(listed.map((entry) => entry.event));
	const lacking = events.filter((event) => !allowed.has(event));
	if (lacking.length === 0) return error;
	const named = lacking.map((event) => `${eventLabel(event) ?? event} (${event})`).join(', ');
	return new NodeApiError(context.getNode(), error.errorResponse ?? {}, {
		httpCode: '403',
		message: `This account cannot subscribe to ${named}`,
		description: `The service refused the webhook (${error.message}) and does not list ${lacking.length === 1 ? 'this event' : 'these events'} among those the account may subscribe to (Webhook → Get Events): rail events need the service's Rail Plan. Remove ${lacking.length === 1 ? 'it' : 'them'} from Events, or ask the service to enable ${lacking.length === 1 ? 'it' : 'them'}.`,
	});
}

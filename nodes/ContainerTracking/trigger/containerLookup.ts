import type { IDataObject } from 'n8n-workflow';

import { membersOf } from '../schemas';
import { relatedIdentifiers } from '../records/jsonApi';
import { fetchAllPages } from '../transport/pagination';
import type { ContainerTrackingContext } from '../transport/request';

const listsEvent = (eventId: string) => (record: IDataObject) =>
	relatedIdentifiers(record, 'transport_events').some((event) => event.id === eventId);

/**
 * Deliveries of some events carry only their reference object (a transport event id): the
 * container is found as the one whose relationships list that event, so that the items can still
 * name it. The service cannot look a container up by event, so its containers are read page by
 * page, stopping at the page that has it (on 2,000 containers: 1 to 20 calls, not always 20).
 */
export async function addMissingContainers(
	this: ContainerTrackingContext,
	items: IDataObject[],
): Promise<void> {
	const missing = items.filter(
		(item) => !item.container_number && item.reference_type === 'transport_event',
	);
	if (missing.length === 0) return;
	const isTheOne = listsEvent(String(missing[0].reference_id));
	const pages = await fetchAllPages.call(this, '/containers', {
		what: 'looking up the container of a transport event',
		until: (page) => page.records.some(isTheOne),
	});
	const container = pages.records.find(isTheOne);
	for (const item of missing) {
		const attributes = membersOf(container?.attributes);
		item.container_id = container?.id ?? null;
		item.container_number = typeof attributes.number === 'string' ? attributes.number : null;
		// The record's own id first, and never hidden by an attribute called `id`.
		if (container)
			item.container = Object.assign({ id: container.id }, attributes, { id: container.id });
	}
}

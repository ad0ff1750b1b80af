import type { IDataObject } from 'n8n-workflow';

import { normalizeContainerNumber } from '../../logic/iso6346';
import {
	listDocumentCore,
	membersOf,
	searchResultListDocument,
	type DocumentWarnings,
	type JsonApiResource,
} from '../../schemas';
import {
	containerTrackingRequest,
	readAnswer,
	type ContainerTrackingContext,
} from '../../transport/request';

/** The service answers at most this many results, with no further page. */
export const SEARCH_LIMIT = 25;

/** What a search result is, in the words the other operations use: `cargo` is a container. */
const RESULT_TYPES: Record<string, string> = { cargo: 'container' };

const normalizedNumber = (value: unknown) =>
	typeof value === 'string' ? normalizeContainerNumber(value) : '';

/** `GET /search?query=`: the records whose numbers contain `query`, as the service ranks them. */
export async function searchRecords(
	context: ContainerTrackingContext,
	query: string,
	itemIndex?: number,
): Promise<{ records: JsonApiResource[]; warnings: DocumentWarnings }> {
	const response = await containerTrackingRequest.call(context, 'GET', '/search', {
		qs: { query },
		itemIndex,
	});
	const { document, warnings } = readAnswer(
		context,
		listDocumentCore,
		searchResultListDocument,
		response.body,
		'searching by number',
		itemIndex,
	);
	return { records: document.data as JsonApiResource[], warnings };
}

/**
 * One item per result: the service's attributes as they came, `result_type` in the node's words,
 * and the id each other operation takes (`container_id`, `shipment_id`, `tracking_request_id`).
 * A container number found on several shipments says so on each of its containers
 * (`on_several_shipments`, `shipment_ids_of_number`): a box reused on another journey, or the
 * same box tracked through two bills of lading.
 */
export function searchItems(records: JsonApiResource[]): IDataObject[] {
	const shipmentsByNumber = new Map<string, Set<string>>();
	for (const record of records) {
		const attributes = membersOf(record.attributes);
		if (record.type !== 'cargo' || typeof attributes.shipment_id !== 'string') continue;
		const number = normalizedNumber(attributes.number);
		shipmentsByNumber.set(
			number,
			(shipmentsByNumber.get(number) ?? new Set()).add(attributes.shipment_id),
		);
	}
	return records.map((record) => {
		const attributes = membersOf(record.attributes) as IDataObject;
		const resultType = RESULT_TYPES[record.type] ?? record.type;
		const item: IDataObject = { result_type: resultType, id: record.id, ...attributes };
		if (resultType === 'container') {
			const shipments = [...(shipmentsByNumber.get(normalizedNumber(attributes.number)) ?? [])];
			item.container_id = record.id;
			item.on_several_shipments = shipments.length > 1;
			item.shipment_ids_of_number = shipments;
		}
		if (resultType === 'shipment') item.shipment_id ??= record.id;
		if (resultType === 'tracking_request') item.tracking_request_id = record.id;
		return item;
	});
}

import type { IDataObject } from 'n8n-workflow';

import { pickFields } from '../simplify';
import { flattenResource, type IncludedIndex } from '../../records/jsonApi';
import type { JsonApiResource } from '../../schemas';

/**
 * A tracking request as an item: its attributes, and `shipment_id` for the shipment it created
 * (the service calls that relationship `tracked_object`; it is null until a shipment exists).
 */
export function trackingRequestItem(record: JsonApiResource, included: IncludedIndex): IDataObject {
	const flat = flattenResource(record, included);
	const shipmentId = flat.tracked_object_id;
	return { ...flat, shipment_id: typeof shipmentId === 'string' && shipmentId ? shipmentId : null };
}

const SIMPLE_FIELDS = [
	'id',
	'request_number',
	'request_type',
	'scac',
	'status',
	'failed_reason',
	'is_retrying',
	'retry_count',
	'shipment_id',
	'created_at',
	'updated_at',
] as const;

/** What people look at in a tracking request: where it stands, and why when it failed. */
export function simplifyTrackingRequest(item: IDataObject): IDataObject {
	return pickFields(item, SIMPLE_FIELDS);
}

import { z } from 'zod';

import {
	deliveryCore,
	includedResources,
	jsonApiError,
	listDocument,
	resourceObject,
	singleResourceDocument,
} from './jsonApi';
import {
	container,
	containerAttributes,
	importDeadlines,
	inferNumberAttributes,
	inferNumberResult,
	rawEvent,
	resourceSchemasByType,
	searchResult,
	shippingLine,
	shipment,
	terminalFee,
	terminalHold,
	trackingRequest,
	transportEvent,
	webhook,
	webhookAttributes,
	vessel,
	route,
} from './resources';

export * from './jsonApi';
export * from './resources';
export * from './notification';
export * from './values';
export * from './warnings';

// ---------------------------------------------------------------------------------------------
// Documents, one per endpoint answer. Records of known types in `included` are checked too.

const included = includedResources(resourceSchemasByType);

/** GET /containers/{id} */
export const containerDocument = singleResourceDocument(container, included);
/** GET /containers */
export const containerListDocument = listDocument(container, included);
/** GET /containers/{id}/transport_events */
export const transportEventListDocument = listDocument(transportEvent, included);
/** GET /containers/{id}/raw_events */
export const rawEventListDocument = listDocument(rawEvent, included);
/** POST /tracking_requests/infer_number (200) */
export const inferNumberDocument = singleResourceDocument(inferNumberResult, included);
/** POST /tracking_requests (201), GET /tracking_requests/{id} */
export const trackingRequestDocument = singleResourceDocument(trackingRequest, included);
/** GET /tracking_requests */
export const trackingRequestListDocument = listDocument(trackingRequest, included);
/** GET /shipments/{id}, PATCH /shipments/{id}/stop_tracking and resume_tracking */
export const shipmentDocument = singleResourceDocument(shipment, included);
/** GET /shipments */
export const shipmentListDocument = listDocument(shipment, included);
/** POST /webhooks (201), GET and PATCH /webhooks/{id} */
export const webhookDocument = singleResourceDocument(webhook, included);
/** GET /webhooks */
export const webhookListDocument = listDocument(webhook, included);
/** GET /vessels/{id or imo} */
export const vesselDocument = singleResourceDocument(vessel, included);
/** GET /containers/{id}/route */
export const routeDocument = singleResourceDocument(route, included);
/** GET /shipping_lines */
export const shippingLineListDocument = listDocument(shippingLine, included);
/** GET /search */
export const searchResultListDocument = listDocument(searchResult, included);

// ---------------------------------------------------------------------------------------------
// Types

/**
 * A delivery body as far as the trigger relies on it: its notification id and event
 * (`deliveryCore`); everything else may be missing or different.
 */
export type Delivery = z.infer<typeof deliveryCore>;
/** Any record of an answer, as the nodes read it: an id, a type, and whatever else it carries. */
export type JsonApiResource = z.infer<typeof resourceObject>;
export type JsonApiError = z.infer<typeof jsonApiError>;
export type ContainerAttributes = z.infer<typeof containerAttributes>;
export type ImportDeadlines = z.infer<typeof importDeadlines>;
export type TerminalHold = z.infer<typeof terminalHold>;
export type TerminalFee = z.infer<typeof terminalFee>;
export type InferNumberAttributes = z.infer<typeof inferNumberAttributes>;
export type WebhookAttributes = z.infer<typeof webhookAttributes>;

import { z } from 'zod';

import {
	includedResources,
	jsonApiError,
	jsonApiErrorDocument,
	links,
	listDocument,
	meta,
	relationship,
	resourceIdentifier,
	resourceObject,
	singleResourceDocument,
} from './jsonApi';
import {
	changeset,
	containerCreatedEvent,
	containerPodTerminalChangedEvent,
	containerUpdatedEvent,
	estimatedEvent,
	webhookNotificationAttributes,
	webhookNotificationEnvelope,
	webhookNotificationResource,
} from './notification';
import {
	container,
	containerAttributes,
	importDeadlines,
	inferNumberAttributes,
	inferNumberResult,
	inferNumberValidation,
	metroArea,
	port,
	railTerminal,
	rawEvent,
	resourceSchemasByType,
	shipment,
	shipmentAttributes,
	shippingLinePrediction,
	terminal,
	terminalFee,
	terminalHold,
	trackingRequest,
	trackingRequestAttributes,
	transportEvent,
	transportEventAttributes,
	vessel,
	vesselPosition,
	webhook,
	webhookAttributes,
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
/** GET /shipments/{id} */
export const shipmentDocument = singleResourceDocument(shipment, included);
/** POST /webhooks (201), GET and PATCH /webhooks/{id} */
export const webhookDocument = singleResourceDocument(webhook, included);
/** GET /webhooks */
export const webhookListDocument = listDocument(webhook, included);
/** A webhook delivery body (also GET /webhook_notifications/{id}). */
export const webhookNotificationDocument = webhookNotificationEnvelope;

// ---------------------------------------------------------------------------------------------
// Types

export type ResourceIdentifier = z.infer<typeof resourceIdentifier>;
export type Relationship = z.infer<typeof relationship>;
export type Links = z.infer<typeof links>;
export type Meta = z.infer<typeof meta>;
export type JsonApiResource = z.infer<typeof resourceObject>;
export type JsonApiError = z.infer<typeof jsonApiError>;
export type JsonApiErrorDocument = z.infer<typeof jsonApiErrorDocument>;

export type TransportEvent = z.infer<typeof transportEvent>;
export type TransportEventAttributes = z.infer<typeof transportEventAttributes>;
export type Shipment = z.infer<typeof shipment>;
export type ShipmentAttributes = z.infer<typeof shipmentAttributes>;
export type Container = z.infer<typeof container>;
export type ContainerAttributes = z.infer<typeof containerAttributes>;
export type ImportDeadlines = z.infer<typeof importDeadlines>;
export type TerminalHold = z.infer<typeof terminalHold>;
export type TerminalFee = z.infer<typeof terminalFee>;
export type Port = z.infer<typeof port>;
export type MetroArea = z.infer<typeof metroArea>;
export type Terminal = z.infer<typeof terminal>;
export type RailTerminal = z.infer<typeof railTerminal>;
export type Vessel = z.infer<typeof vessel>;
export type VesselPosition = z.infer<typeof vesselPosition>;
export type RawEvent = z.infer<typeof rawEvent>;
export type TrackingRequest = z.infer<typeof trackingRequest>;
export type TrackingRequestAttributes = z.infer<typeof trackingRequestAttributes>;
export type Webhook = z.infer<typeof webhook>;
export type WebhookAttributes = z.infer<typeof webhookAttributes>;
export type InferNumberResult = z.infer<typeof inferNumberResult>;
export type InferNumberAttributes = z.infer<typeof inferNumberAttributes>;
export type InferNumberValidation = z.infer<typeof inferNumberValidation>;
export type ShippingLinePrediction = z.infer<typeof shippingLinePrediction>;

export type Changeset = z.infer<typeof changeset>;
export type ContainerUpdatedEvent = z.infer<typeof containerUpdatedEvent>;
export type ContainerCreatedEvent = z.infer<typeof containerCreatedEvent>;
export type EstimatedEvent = z.infer<typeof estimatedEvent>;
export type ContainerPodTerminalChangedEvent = z.infer<typeof containerPodTerminalChangedEvent>;
export type WebhookNotificationAttributes = z.infer<typeof webhookNotificationAttributes>;
export type WebhookNotificationResource = z.infer<typeof webhookNotificationResource>;
/** A whole webhook delivery body: `{data: webhook_notification, included?, links?}`. */
export type WebhookNotification = z.infer<typeof webhookNotificationEnvelope>;

export type ContainerDocument = z.infer<typeof containerDocument>;
export type ContainerListDocument = z.infer<typeof containerListDocument>;
export type TransportEventListDocument = z.infer<typeof transportEventListDocument>;
export type RawEventListDocument = z.infer<typeof rawEventListDocument>;
export type InferNumberDocument = z.infer<typeof inferNumberDocument>;
export type TrackingRequestDocument = z.infer<typeof trackingRequestDocument>;
export type WebhookDocument = z.infer<typeof webhookDocument>;
export type WebhookListDocument = z.infer<typeof webhookListDocument>;
export type WebhookNotificationDocument = z.infer<typeof webhookNotificationDocument>;

/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Helpers shared by the sandbox suites: schema checks that print zod issues, webhook
// subscription, polling assertions, and a deterministic scan for journey variants.
import type { AxiosResponse } from 'axios';
import { isEqual } from 'lodash';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import {
	notificationSchemasByType,
	webhookNotificationEnvelope,
} from '../../nodes/ContainerTracking/schemas';
import { generateShipment } from '../../sandbox/world/generator';
import type { ContainerPlan } from '../../sandbox/world/plan';
import { EVENT_NAMES } from '../../sandbox/world/eventNames';
import { generous } from '../support/bounds';
import { eventually, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { expectSchema, formatIssues } from '../support/schemaAssertions';
import {
	startWebhookReceiver,
	type ReceivedDelivery,
	type WebhookReceiver,
} from '../support/webhookReceiver';

/**
 * A parsed JSON document or record, read from an HTTP answer or a delivery body (as loosely
 * typed as `JSON.parse` makes it); the suites check shapes with the zod schemas.
 */
export type Json = ReturnType<typeof JSON.parse>;

// ---------------------------------------------------------------------------------------------
// Schemas

export { expectSchema, formatIssues };

/**
 * A whole delivery body: the envelope, and every record of `included` against the schema of its
 * type (a type without a schema fails: the suites should know every type the sandbox sends).
 */
export function expectValidDelivery(body: unknown, label = 'delivery'): void {
	expectSchema(webhookNotificationEnvelope, body, label);
	const included = ((body as { included?: unknown[] }).included ?? []) as Array<{
		type: string;
		id: string;
	}>;
	included.forEach((record, index) => {
		const schema = Object.prototype.hasOwnProperty.call(notificationSchemasByType, record.type)
			? notificationSchemasByType[record.type]
			: undefined;
		if (!schema)
			throw new Error(`${label}: included[${index}] has type ${record.type}, which has no schema`);
		expectSchema(schema, record, `${label}: included[${index}] (${record.type})`);
	});
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export interface Subscription {
	id: string;
	secret: string;
}

/** POST /webhooks for `receiver`; registers the returned secret with the receiver. */
export async function subscribe(
	handle: SandboxHandle,
	receiver: WebhookReceiver,
	events: readonly string[],
	url = receiver.url,
): Promise<Subscription> {
	const answer = await handle.api.post('/webhooks', {
		data: { type: 'webhook', attributes: { url, active: true, events } },
	});
	if (answer.status !== 201)
		throw new Error(`POST /webhooks answered ${answer.status}: ${JSON.stringify(answer.data)}`);
	const id = answer.data.data.id as string;
	const secret = answer.data.data.attributes.secret as string;
	receiver.secrets.set(id, secret);
	return { id, secret };
}

export const eventOf = (delivery: ReceivedDelivery): string =>
	delivery.body?.data?.attributes?.event;
export const webhookOf = (delivery: ReceivedDelivery): string =>
	delivery.body?.data?.relationships?.webhook?.data?.id;
export const notificationIdOf = (delivery: ReceivedDelivery): string => delivery.body?.data?.id;

/** The record of `included` the notification is about (its reference object), if included. */
export function referenceRecord(delivery: ReceivedDelivery): Json {
	const reference = delivery.body.data.relationships.reference_object.data as {
		id: string;
		type: string;
	};
	return ((delivery.body.included ?? []) as Json[]).find(
		(record) => record.id === reference.id && record.type === reference.type,
	);
}

/** Container id a delivery is about, read from its reference record (undefined when reference-only). */
export function containerIdOf(delivery: ReceivedDelivery): string | undefined {
	return referenceRecord(delivery)?.relationships?.container?.data?.id;
}

export function deliveriesFor(
	receiver: WebhookReceiver,
	filter: { event?: string; webhookId?: string; containerId?: string } = {},
): ReceivedDelivery[] {
	return receiver.deliveries.filter(
		(delivery) =>
			(filter.event === undefined || eventOf(delivery) === filter.event) &&
			(filter.webhookId === undefined || webhookOf(delivery) === filter.webhookId) &&
			(filter.containerId === undefined || containerIdOf(delivery) === filter.containerId),
	);
}

export type Changeset = Record<string, [unknown, unknown]>;

/** The `container.updated` changesets received for a container, in the order of their `timestamp`. */
export function changesetsFor(
	receiver: WebhookReceiver,
	containerId: string,
): Array<{ timestamp: string; changeset: Changeset }> {
	return deliveriesFor(receiver, { event: 'container.updated', containerId })
		.map(
			(delivery) =>
				referenceRecord(delivery).attributes as { timestamp: string; changeset: Changeset },
		)
		.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
}

/**
 * docs/service.md, "Changesets", on real values: every entry is `[old, new]` with old ≠ new, and
 * for each attribute the old value of a change is the new value of the change before it.
 */
export function expectChangesetsChain(
	changesets: Changeset[],
	label: string,
): Record<string, unknown> {
	const last: Record<string, unknown> = {};
	changesets.forEach((changeset, index) => {
		for (const [name, entry] of Object.entries(changeset)) {
			if (!Array.isArray(entry) || entry.length !== 2) {
				throw new Error(
					`${label}: changeset ${index} ${name} is not [old, new]: ${JSON.stringify(entry)}`,
				);
			}
			if (isEqual(entry[0], entry[1])) {
				throw new Error(
					`${label}: changeset ${index} ${name} does not change: ${JSON.stringify(entry)}`,
				);
			}
			if (name in last && !isEqual(last[name], entry[0])) {
				throw new Error(
					`${label}: changeset ${index} ${name} starts from ${JSON.stringify(entry[0])}, ` +
						`but the change before it ended at ${JSON.stringify(last[name])}`,
				);
			}
			last[name] = entry[1];
		}
	});
	return last;
}

/**
 * A sandbox (drift off, tracking requests answered at once) and a receiver subscribed to every
 * event, fresh for each test of the describe block that calls this; read them from the result.
 */
export function sandboxForEachTest(): { handle: SandboxHandle; receiver: WebhookReceiver } {
	const context = {} as { handle: SandboxHandle; receiver: WebhookReceiver };
	beforeEach(async () => {
		context.handle = await startTestSandbox({ drift: false, trackingDelaySeconds: 0 });
		context.receiver = await startWebhookReceiver();
		await subscribe(context.handle, context.receiver, EVENT_NAMES);
	});
	afterEach(async () => {
		await context.handle.stop();
		await context.receiver.close();
	});
	return context;
}

// ---------------------------------------------------------------------------------------------
// Polling

/**
 * Retries `check` (which throws on failure) until it passes; on timeout rethrows its last error.
 * The default bound suits what the sandbox sends at once or within a compressed retry schedule
 * (under two seconds on a quiet machine); a wait on the sandbox's own clock adds it in `byClock`.
 */
export async function eventuallyPasses<T>(
	check: () => T | Promise<T>,
	{ timeoutMs = generous(2_000), intervalMs = 50 } = {},
): Promise<T> {
	let lastError: unknown = new Error('never ran');
	try {
		const { value } = await eventually(
			async () => {
				try {
					return { value: await check() };
				} catch (error) {
					lastError = error;
					return undefined;
				}
			},
			{ timeoutMs, intervalMs },
		);
		return value;
	} catch {
		throw lastError;
	}
}

/**
 * Checks that `check` keeps passing for `durationMs` (used to prove that something does NOT
 * happen: a quiet window). The default is long enough for a delivery the sandbox sends at once to
 * reach a local receiver (well under 80 ms on a quiet machine); a slower machine can only let a
 * window pass that should have failed, never fail one that should pass.
 */
export async function consistently(
	check: () => void | Promise<void>,
	durationMs = generous(80),
	intervalMs = 25,
): Promise<void> {
	const end = Date.now() + durationMs;
	for (;;) {
		await check();
		if (Date.now() >= end) return;
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

// ---------------------------------------------------------------------------------------------
// HTTP reads

/** Every transport event of a container, following `links.next`. */
export async function allTransportEvents(
	handle: SandboxHandle,
	containerId: string,
): Promise<Json[]> {
	const events: Json[] = [];
	let url: string | undefined = `/containers/${containerId}/transport_events?page[size]=100`;
	while (url) {
		const answer: AxiosResponse = await handle.api.get(url);
		if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
		events.push(...(answer.data.data as Json[]));
		url = answer.data.links?.next;
	}
	return events;
}

export async function getContainer(handle: SandboxHandle, containerId: string): Promise<Json> {
	const answer = await handle.api.get(`/containers/${containerId}`);
	if (answer.status !== 200)
		throw new Error(`GET /containers/${containerId} answered ${answer.status}`);
	return answer.data;
}

// ---------------------------------------------------------------------------------------------
// Choosing inputs: the generator is deterministic, so scanning candidate numbers finds one whose
// journey has the wanted shape. Only inputs are chosen this way; assertions go through HTTP.

export function planOfNumber(number: string, scac: string): ContainerPlan {
	return generateShipment({
		number,
		scac,
		requestType: 'container',
		refNumbers: [],
		tags: [],
		createdAt: 0,
	}).plans[0];
}

export function findContainerNumber(
	prefix: string,
	scac: string,
	wanted: (plan: ContainerPlan) => boolean,
	skip: readonly string[] = [],
): string {
	for (let serial = 0; serial < 5000; serial++) {
		const number = withCheckDigit(
			`${prefix}${String((314159 + serial * 7919) % 1_000_000).padStart(6, '0')}`,
		);
		if (skip.includes(number)) continue;
		if (wanted(planOfNumber(number, scac))) return number;
	}
	throw new Error(`no ${prefix} number found for the wanted plan`);
}

/** A bill of lading of MSCU (`MEDU<infix>` and six digits) whose shipment's plans are `wanted`. */
export function findBillOfLading(
	wanted: (plans: ContainerPlan[]) => boolean,
	infix = 'AR',
): string {
	for (let serial = 0; serial < 5000; serial++) {
		const number = `MEDU${infix}${String(410_000 + serial * 37).padStart(6, '0')}`;
		const { plans } = generateShipment({
			number,
			scac: 'MSCU',
			requestType: 'bill_of_lading',
			refNumbers: [],
			tags: [],
			createdAt: 0,
		});
		if (wanted(plans)) return number;
	}
	throw new Error('no bill of lading found for the wanted shipment');
}

export async function controlChange(
	handle: SandboxHandle,
	containerId: string,
	body: Record<string, unknown>,
): Promise<Changeset> {
	const answer = await handle.control.post(`/containers/${containerId}/changes`, body);
	if (answer.status !== 200)
		throw new Error(
			`change ${JSON.stringify(body)} answered ${answer.status}: ${JSON.stringify(answer.data)}`,
		);
	return answer.data.changeset as Changeset;
}

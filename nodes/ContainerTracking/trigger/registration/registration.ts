import {
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { singleDocumentCore, webhookDocument, type DocumentWarnings } from '../../schemas';
import {
	containerTrackingRequest,
	CREDENTIAL_NAME,
	readAnswer,
	type ContainerTrackingContext,
} from '../../transport/request';
import {
	createWebhook,
	listWebhooks,
	webhookAttributes,
	webhookBody,
	type WebhookRecord,
	type WebhookSettings,
} from '../../transport/webhooks';
import { explainRefusedEvents } from '../../transport/webhookEvents';
import { urlScope } from './reachability';
import { inTurn, triggerScope, triggerSlot, type WorkInTurn } from '../triggerState';

/**
 * The trigger's webhook with the service, as n8n (de)activates a workflow: `checkExists`, then
 * `create` when it answered false; `delete` on deactivation. The webhook's id and secret live in
 * the node's static data (saved with the workflow on activation), with the URL it was registered
 * for: the watch (trigger/recovery/watch.ts) runs where n8n gives no webhook URL, and repairs the
 * webhook it names while the workflow is active.
 */

export const AUTOMATIC = 'automatic';
export const EXISTING = 'existing';

function sameEvents(a: unknown, b: string[]): boolean {
	return Array.isArray(a) && a.length === b.length && b.every((event) => a.includes(event));
}

/**
 * Registration and repair of one trigger's webhook, one after the other in this process: n8n
 * activates a workflow's webhooks and its watch at the same time, and two of them creating a
 * webhook at once would leave the service with two.
 */
const registrationTurns = triggerSlot<WorkInTurn>('registration queue', () => ({
	last: Promise.resolve(),
}));

const oneAtATime = <T>(scope: string, work: () => Promise<T>): Promise<T> =>
	inTurn(registrationTurns.of(scope), work);

/** The service's answers during registration may differ from the interface: say so in the log. */
function logWarnings(
	context: ContainerTrackingContext,
	what: string,
	warnings: DocumentWarnings,
): void {
	if (warnings.all.length > 0)
		context.logger.warn(`Container tracking: unexpected parts in the answer to ${what}`, {
			warnings: warnings.all,
		});
}

/** Subscribes an adopted or stored webhook to exactly the node's events, and turns it on. */
async function syncWebhook(
	context: ContainerTrackingContext,
	webhook: WebhookRecord,
	events: string[],
): Promise<void> {
	const attributes = webhookAttributes(webhook);
	if (sameEvents(attributes.events, events) && attributes.active !== false) return;
	try {
		await containerTrackingRequest.call(
			context,
			'PATCH',
			`/webhooks/${encodeURIComponent(webhook.id)}`,
			{ body: webhookBody({ events, active: true }) },
		);
	} catch (error) {
		throw await explainRefusedEvents(context, error, events);
	}
}

/** A webhook from an answer; what differs from the interface is logged, not refused. */
function webhookFrom(
	context: ContainerTrackingContext,
	body: unknown,
	what: string,
): WebhookRecord {
	const { document, warnings } = readAnswer(
		context,
		singleDocumentCore,
		webhookDocument,
		body,
		what,
	);
	logWarnings(context, what, warnings);
	return document.data as WebhookRecord;
}

/** What the node's static data keeps of its webhook. */
export interface WebhookState extends IDataObject {
	webhookId?: string;
	webhookSecret?: string;
	/** The URL the webhook was registered for: n8n tells a trigger's watch no URL. */
	webhookUrl?: string;
	/** Ids this trigger's webhook had before it was created again: their notifications are its. */
	formerWebhookIds?: string[];
}

const FORMER_IDS_KEPT = 5;

/**
 * The secret each trigger's webhook was last seen with, in this process: a webhook the watch
 * created again (a new secret) signs with it before n8n saves the node's static data again, and a
 * webhook process reads static data saved before.
 */
const currentSecrets = triggerSlot<{ secret?: string }>('current webhook secret', () => ({}));
/** A failed signature looks the secret up at most this often per trigger. */
const SECRET_LOOKUP_EVERY_MS = 30_000;
const secretLookups = triggerSlot<{ at?: number; secret?: Promise<string | undefined> }>(
	'webhook secret lookup',
	() => ({}),
);

function forget(state: WebhookState): void {
	delete state.webhookId;
	delete state.webhookSecret;
}

function adopt(
	context: ContainerTrackingContext,
	state: WebhookState,
	webhook: WebhookRecord,
	secret: string,
	url: string,
): void {
	currentSecrets.of(triggerScope(context)).secret = secret;
	if (state.webhookId && state.webhookId !== webhook.id)
		state.formerWebhookIds = [state.webhookId, ...(state.formerWebhookIds ?? [])]
			.filter((id) => id !== webhook.id)
			.slice(0, FORMER_IDS_KEPT);
	state.webhookId = webhook.id;
	state.webhookSecret = secret;
	state.webhookUrl = url;
}

function secretOf(webhook: WebhookRecord | undefined): string | undefined {
	const secret = webhookAttributes(webhook).secret;
	return typeof secret === 'string' && secret !== '' ? secret : undefined;
}

/** The webhook the service holds under `id`, or undefined when it has none (404). */
async function readWebhook(
	context: ContainerTrackingContext,
	id: string,
): Promise<WebhookRecord | undefined> {
	const response = await containerTrackingRequest.call(
		context,
		'GET',
		`/webhooks/${encodeURIComponent(id)}`,
		{ acceptStatuses: [404] },
	);
	return response.status === 404
		? undefined
		: webhookFrom(context, response.body, 'reading the webhook');
}

/** The account's webhook for `url`, if any. */
async function webhookForUrl(
	context: ContainerTrackingContext,
	url: string,
): Promise<WebhookRecord | undefined> {
	const { records, warnings } = await listWebhooks.call(context);
	logWarnings(context, 'listing webhooks', warnings);
	return records.find((webhook) => webhookAttributes(webhook).url === url);
}

/** n8n's setting for the address its webhook URLs start with: n8n 1.x reads only WEBHOOK_URL. */
const WEBHOOK_URL_SETTING = 'N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x)';

/**
 * Refuses, before any call, a webhook URL the service cannot reach: one on a loopback or private
 * network, or a local name, while the credential's Base URL is public. Said in n8n's log too, as
 * a warning naming the URL. A Base URL on a loopback or private network as well (the local
 * sandbox, a service in the same network) lets it through: how two private networks connect
 * cannot be told from their addresses, and refusing would stop setups that work.
 */
async function refuseUnreachableUrl(context: IHookFunctions, url: string): Promise<void> {
	const webhook = urlScope(url);
	if (!webhook || webhook.scope === 'public') return;
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	const service = urlScope(String(credentials.baseUrl ?? ''));
	// A Base URL that is not a URL fails the first call, in a sentence of its own.
	if (!service || service.scope !== 'public') return;
	const problem = `The service at ${service.host} cannot reach this workflow's webhook URL ${url}: ${webhook.reason}`;
	const remedy = `Run n8n at a public address and set n8n's ${WEBHOOK_URL_SETTING} to it; to try the trigger on this machine, use the local sandbox as the credential's Base URL`;
	context.logger.warn(`Container tracking: ${problem}. ${remedy}.`, {
		webhookUrl: url,
		baseUrl: String(credentials.baseUrl),
	});
	throw new NodeOperationError(context.getNode(), `${problem}; set n8n's ${WEBHOOK_URL_SETTING}`, {
		description: `${remedy}. The service sends each notification to the workflow's Production URL, which n8n builds from ${WEBHOOK_URL_SETTING}.`,
	});
}

/**
 * True when this node's webhook is registered with the service. A webhook found by its
 * URL (static data lost, or the workflow published again) is adopted, not duplicated.
 */
export async function webhookExists(this: IHookFunctions): Promise<boolean> {
	const state = this.getWorkflowStaticData('node') as WebhookState;
	const url = this.getNodeWebhookUrl('default') as string;
	await refuseUnreachableUrl(this, url);
	if (this.getNodeParameter('registration', AUTOMATIC) === EXISTING) {
		state.webhookUrl = url;
		return true;
	}
	const events = this.getNodeParameter('events', []) as string[];
	return await oneAtATime(triggerScope(this), async () => {
		if (state.webhookId && state.webhookSecret) {
			const webhook = await readWebhook(this, String(state.webhookId));
			if (webhook && webhookAttributes(webhook).url === url) {
				await syncWebhook(this, webhook, events);
				state.webhookUrl = url;
				return true;
			}
			forget(state);
		}
		const mine = await webhookForUrl(this, url);
		const secret = secretOf(mine);
		if (!mine || !secret) return false;
		adopt(this, state, mine, secret, url);
		await syncWebhook(this, mine, events);
		return true;
	});
}

/** Creates the webhook for `url`; one the lost first attempt created is adopted. */
async function registerWebhook(
	context: ContainerTrackingContext,
	state: WebhookState,
	url: string,
	events: string[],
): Promise<WebhookRecord> {
	const { response, adopted } = await createWebhook
		.call(context, { url, events, active: true })
		.catch(async (error: unknown) => {
			throw await explainRefusedEvents(context, error, events);
		});
	const webhook = webhookFrom(context, response.body, 'creating the webhook');
	const secret = secretOf(webhook);
	if (!secret) {
		throw new NodeOperationError(
			context.getNode(),
			'The service created the webhook without a secret',
			{
				description: 'Deliveries could not be verified; the webhook was not used.',
			},
		);
	}
	// A webhook the lost first attempt created is taken as it is: bring its events in line.
	if (adopted) await syncWebhook(context, webhook, events);
	adopt(context, state, webhook, secret, url);
	return webhook;
}

/** Registers the webhook; a webhook the lost first attempt created is adopted. */
export async function createTriggerWebhook(this: IHookFunctions): Promise<boolean> {
	if (this.getNodeParameter('registration', AUTOMATIC) === EXISTING) return true;
	const url = this.getNodeWebhookUrl('default') as string;
	await refuseUnreachableUrl(this, url);
	const events = this.getNodeParameter('events', []) as string[];
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one event to subscribe to');
	}
	const state = this.getWorkflowStaticData('node') as WebhookState;
	await oneAtATime(triggerScope(this), async () => await registerWebhook(this, state, url, events));
	return true;
}

/** Removes the webhook; one already gone is not an error. */
export async function deleteTriggerWebhook(this: IHookFunctions): Promise<boolean> {
	const state = this.getWorkflowStaticData('node') as WebhookState;
	if (this.getNodeParameter('registration', AUTOMATIC) === EXISTING || !state.webhookId)
		return true;
	await oneAtATime(triggerScope(this), async () => {
		if (!state.webhookId) return;
		const response = await containerTrackingRequest.call(
			this,
			'DELETE',
			`/webhooks/${encodeURIComponent(String(state.webhookId))}`,
			{ acceptStatuses: [404] },
		);
		this.logger.debug('Container tracking webhook removed', {
			webhookId: state.webhookId,
			status: response.status,
		});
		forget(state);
		delete state.formerWebhookIds;
	});
	return true;
}

/** What the watch found wrong with the webhook and set right. */
interface WebhookRepair {
	/** The webhook's id after the repair (undefined: there is none to watch). */
	webhookId?: string;
	/** Every id this trigger's notifications may carry as their webhook. */
	webhookIds: string[];
	/** What was wrong, in words, when something was. */
	problems: string[];
}

/**
 * The watch's check, while the workflow is active: the webhook exists, is active, has this URL
 * and these events; else it is set right (PATCH, same id and secret) or created again (deleted at
 * the service). A webhook created elsewhere is only turned on again: its URL, events and secret
 * are its owner's. Nothing is created before n8n's activation registered one (no id yet).
 */
export async function repairWebhook(
	context: ContainerTrackingContext,
	state: WebhookState,
	existing: boolean,
	events: string[],
): Promise<WebhookRepair> {
	const url = state.webhookUrl;
	// Before n8n registered a webhook, or after it removed it, there is nothing to watch.
	if (!url || (!existing && !state.webhookId)) return { webhookIds: [], problems: [] };
	return await oneAtATime(triggerScope(context), async () => {
		const problems: string[] = [];
		const known = existing ? undefined : state.webhookId;
		let webhook = known ? await readWebhook(context, known) : await webhookForUrl(context, url);
		if (!webhook && !existing && state.webhookId) {
			problems.push(`webhook ${state.webhookId} no longer exists at the service`);
			const found = await webhookForUrl(context, url);
			const secret = secretOf(found);
			if (found && secret) adopt(context, state, found, secret, url);
			webhook = found && secret ? found : await registerWebhook(context, state, url, events);
			problems.push(`now webhook ${webhook.id}`);
		} else if (webhook) {
			const attributes = webhookAttributes(webhook);
			const fix: WebhookSettings = {};
			if (attributes.active === false) {
				problems.push('it was inactive (the service turns a webhook off after failed deliveries)');
				fix.active = true;
			}
			if (!existing && attributes.url !== url) {
				problems.push(`its URL was ${String(attributes.url)}`);
				fix.url = url;
			}
			if (!existing && !sameEvents(attributes.events, events)) {
				problems.push(`its events were ${JSON.stringify(attributes.events ?? null)}`);
				fix.events = events;
			}
			if (problems.length > 0)
				await containerTrackingRequest.call(
					context,
					'PATCH',
					`/webhooks/${encodeURIComponent(webhook.id)}`,
					{ body: webhookBody(fix) },
				);
		} else if (existing) {
			problems.push(`no webhook of the account has this node's URL ${url}`);
		}
		const webhookId = webhook?.id;
		return {
			webhookId,
			webhookIds: [...new Set([webhookId, ...(state.formerWebhookIds ?? [])])].filter(
				(id): id is string => typeof id === 'string',
			),
			problems,
		};
	});
}

/** The webhook's secret as the service holds it now, read at most every SECRET_LOOKUP_EVERY_MS. */
async function lookUpSecret(context: IWebhookFunctions): Promise<string | undefined> {
	const scope = triggerScope(context);
	const now = Date.now();
	const last = secretLookups.of(scope);
	if (last.secret && last.at !== undefined && now - last.at < SECRET_LOOKUP_EVERY_MS)
		return await last.secret;
	const state = context.getWorkflowStaticData('node') as WebhookState;
	const url = context.getNodeWebhookUrl('default') as string;
	const secret = (async () => {
		try {
			const byId = state.webhookId ? await readWebhook(context, state.webhookId) : undefined;
			const webhook =
				byId && webhookAttributes(byId).url === url ? byId : await webhookForUrl(context, url);
			return secretOf(webhook);
		} catch (error) {
			context.logger.warn("Container tracking: could not read the webhook's current secret", {
				error: (error as Error).message,
			});
			return undefined;
		}
	})();
	last.at = now;
	last.secret = secret;
	return await secret;
}

/**
 * For a delivery that `stale` (the secret in static data) does not verify: a newer secret that
 * does, the one this process last saw, else the one the service holds now (read at most every
 * SECRET_LOOKUP_EVERY_MS per trigger). A webhook created again, by the watch or by hand with this
 * node's URL, then does not turn every delivery into a 401, and a flood of forged deliveries
 * costs one read per interval.
 */
export async function renewedSecret(
	context: IWebhookFunctions,
	stale: string | undefined,
	signs: (secret: string) => Promise<boolean>,
): Promise<string | undefined> {
	const scope = triggerScope(context);
	const known = currentSecrets.of(scope).secret;
	if (known && known !== stale && (await signs(known))) return known;
	const current = await lookUpSecret(context);
	if (!current || current === stale || current === known || !(await signs(current)))
		return undefined;
	currentSecrets.of(scope).secret = current;
	return current;
}

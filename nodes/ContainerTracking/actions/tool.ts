import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { isIdentifier } from '../records/jsonApi';
import { serviceOutageOf } from '../transport/request';
import { isServiceId } from './locators';

/*
 * The node as an AI model's tool. n8n offers every `usableAsTool` node to its AI Agent and its
 * MCP Server Trigger as the node type `<name>Tool`, with the same fields and `execute`; the model
 * reads the tool's description, fills the fields left to it (`$fromAI`), and reads back the
 * items as JSON text. Three things differ from a workflow, and live here:
 * - the description says when to use the operation and what it returns, not just its name
 *   (n8n's automatic one is "Get a container in Container Tracking");
 * - the answer is small: the items without their empty (null) members and related records'
 *   ids, as a model's context is;
 * - a failure is an answer in words the model can relay and act on, never a failed execution:
 *   the person asked a question, and "that number fails its check digit" is its answer;
 * - someone is waiting: an outage is ridden out for seconds, not minutes (transport/request.ts).
 * Whether a run is a tool's: n8nInternals.ts, isToolRun.
 */

/**
 * The Description field of a tool, one per operation: shown only when the node runs as a tool
 * (`@tool`), with the operation's `toolDescription` as its default. Named `toolDescription`, as
 * n8n names its own: n8n then adds none of its own, and reads this one for the tool
 * (NodeHelpers.getToolDescriptionForNode), the default included, since n8n fills in defaults.
 */
export function toolDescriptionField(
	resource: string,
	operation: string,
	description: string,
): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: description,
		required: true,
		typeOptions: { rows: 3 },
		description:
			'What the AI model reads of this tool: when to use it and what it returns. Edit it to name your own customers, terminals or words.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

/**
 * A related record as a model reads it: by its name (a port, terminal, vessel) or number (a
 * container, a shipment's bill of lading), not spelled out; dropped when it has neither.
 */
function relatedInWords(value: IDataObject): string | undefined {
	for (const name of ['name', 'number', 'bill_of_lading_number', 'request_number'])
		if (typeof value[name] === 'string' && value[name] !== '') return value[name] as string;
	return undefined;
}

const isRelatedRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' &&
	value !== null &&
	!Array.isArray(value) &&
	typeof (value as IDataObject).id === 'string' &&
	typeof (value as IDataObject).type === 'string';

/** One member's value as a model reads it, or undefined to leave it out. */
function inWords(value: unknown): unknown {
	if (value === null || value === undefined) return undefined;
	if (isServiceId(value)) return undefined;
	if (isRelatedRecord(value)) return relatedInWords(value);
	if (Array.isArray(value) && value.length > 0 && value.every(isRelatedRecord)) {
		const named = value.map(relatedInWords).filter((name) => name !== undefined);
		return named.length > 0 ? named : undefined;
	}
	return value;
}

/**
 * An item as a model reads it: the members that say something, in order. Left out: nulls, the
 * ids of related records (`shipment_id`, a terminal given by its id): what a model may ask about
 * next it asks by number; a related record read along (an event's port, terminal and vessel) is
 * given by its name. The record's own `id` stays, for the operations that take one.
 */
export function toolAnswer(json: IDataObject): IDataObject {
	const answer: IDataObject = {};
	for (const [name, value] of Object.entries(json)) {
		if (name === 'id') {
			answer.id = value;
			continue;
		}
		if (isIdentifier(name)) continue;
		const said = inWords(value);
		if (said !== undefined) answer[name] = said as IDataObject[string];
	}
	return answer;
}

/** "Item 3: " and the like, which mean nothing to a model asked one question. */
const ITEM_MENTION = /\s*\(?\bitem \d+\)?:?\s*/gi;

/** A sentence ends with its stop: joined sentences read as sentences. */
function sentence(text: string): string {
	const trimmed = text.replace(ITEM_MENTION, ' ').replace(/\s+/g, ' ').trim();
	return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The HTTP status of a failed call, when the error carries one. */
function httpStatus(error: unknown): number | undefined {
	const code = Number(
		(error as { httpCode?: unknown }).httpCode ??
			(error as { context?: { httpCode?: unknown } }).context?.httpCode,
	);
	return Number.isInteger(code) && code >= 100 ? code : undefined;
}

/**
 * What a model is told when the operation failed, in sentences it can relay to the person and
 * act on: what happened, then what to do. The node's own messages already say both (a number
 * not tracked, a check digit that fails, what the service refused); the service's faults are
 * said by what they mean for the person: wait, or have the owner fix the credential.
 */
export function toolErrorAnswer(error: unknown): IDataObject {
	const message = String((error as Error)?.message ?? error);
	const description = (error as { description?: unknown }).description;
	const status = httpStatus(error);
	const outage = serviceOutageOf(error);
	if (outage) {
		const limited = outage.lastFault !== null && /429|limit/i.test(outage.lastFault);
		const again = outage.repeatIsSafe
			? ' Asking again is safe: what was already done is not done twice.'
			: '';
		return {
			error: limited
				? `The tracking service is limiting requests right now (HTTP 429), so this was not answered. Wait a minute, then ask again.${again}`
				: `The tracking service is not answering right now${outage.lastFault ? ` (${outage.lastFault})` : ''}, so this was not answered. Try again in a minute or two.${again}`,
		};
	}
	const said = [message, typeof description === 'string' ? description : '']
		.filter(Boolean)
		.map(sentence)
		.join(' ');
	if (status === 429)
		return {
			error: `The tracking service is limiting requests right now (HTTP 429), so this was not answered. Wait a minute, then ask again.`,
		};
	if (status !== undefined && status >= 500)
		return {
			error:
				`The tracking service is not answering right now (HTTP ${status}), so this was not answered. Try again in a minute or two. ${said}`.trim(),
		};
	if (status === 401 || status === 403)
		return {
			error:
				`The tracking service refused this n8n's API key (HTTP ${status}): the person who runs this n8n must fix the Container Tracking credential. ${said}`.trim(),
		};
	return { error: said };
}

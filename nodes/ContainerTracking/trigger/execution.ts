import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { deliveryCore } from '../schemas';
import { addMissingContainers } from './containerLookup';
import { newNotificationItems } from './durableRepeats';
import { latestStatePerContainer } from './latestState';
import { markOutdatedStates, rememberStates } from './newestStates';
import { deliveryOf, notificationItems, type ItemOptions } from './notificationItems';
import { triggerScope } from './repeats';

/** Output: one item per change (and per hold or fee), or one per container. */
export const OUTPUT_CHANGES = 'changes';
export const OUTPUT_LATEST_STATE = 'latestState';

/** The items of one notification; an item that carries none passes as it is. */
function itemsOf(item: INodeExecutionData, options: ItemOptions): INodeExecutionData[] {
	const body = deliveryOf(item.json);
	const delivery = body && deliveryCore.safeParse(body);
	if (!delivery?.success) return [item];
	const made = notificationItems(delivery.data, body, options);
	const caughtUp = item.json.caught_up === true;
	return made.map((json) => ({
		json: caughtUp && !options.raw ? { ...json, caught_up: true } : json,
		pairedItem: item.pairedItem,
	}));
}

/**
 * What runs in the execution a delivery (or a batch of deliveries, trigger/deliveryBatches.ts,
 * or the catch-up) started: notifications an earlier execution recorded stop here
 * (trigger/durableRepeats.ts); the others become the workflow's items; the containers deliveries
 * did not include, or included older than an earlier execution gave them (trigger/newestStates.ts),
 * are looked up (trigger/containerLookup.ts), here rather than while a delivery waits for its
 * answer, with the execution's time to ride out an outage; then, when asked, one item per
 * container.
 */
export async function triggerExecution(
	context: IExecuteFunctions,
	options: ItemOptions & { deduplicate: boolean },
): Promise<INodeExecutionData[][]> {
	// Each output item names the delivery it came from, also after some are dropped.
	const input = context
		.getInputData()
		.map((item, index) => ({ ...item, pairedItem: { item: index } }));
	const fresh = await newNotificationItems(context, input, options.deduplicate);
	const items = fresh.flatMap((item) => itemsOf(item, options));
	if (options.raw || items.length === 0) return [items];
	const jsons = items.map((item) => item.json);
	const scope = triggerScope(context);
	markOutdatedStates(scope, jsons);
	if (options.fetchContainer) await addMissingContainers(context, jsons);
	rememberStates(scope, jsons);
	const output = context.getNodeParameter('output', 0, OUTPUT_CHANGES) as string;
	return [output === OUTPUT_LATEST_STATE ? latestStatePerContainer(items) : items];
}

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { addMissingContainers } from './containerLookup';
import { newNotificationItems } from './durableRepeats';
import { latestStatePerContainer } from './latestState';

/** Output: one item per change (and per hold or fee), or one per container. */
export const OUTPUT_CHANGES = 'changes';
export const OUTPUT_LATEST_STATE = 'latestState';

/**
 * What runs in the execution a delivery (or a batch of deliveries, trigger/deliveryBatches.ts,
 * or the catch-up) started, with the items `webhook` or the catch-up made: notifications an
 * earlier execution recorded stop here (trigger/durableRepeats.ts); the containers deliveries
 * did not include are looked up (trigger/containerLookup.ts), here rather than while a delivery
 * waits for its answer, with the execution's time to ride out an outage; then, when asked, one
 * item per container.
 */
export async function triggerExecution(
	context: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	// Each output item names the delivery's item it came from, also after some are dropped.
	const input = context.getInputData().map((item, index) => ({ ...item, pairedItem: { item: index } }));
	const items = await newNotificationItems(context, input, options.deduplicate !== false);
	if (options.raw === true || items.length === 0) return [items];
	if (options.fetchContainer === true)
		await addMissingContainers(
			context,
			items.map((item) => item.json),
		);
	const output = context.getNodeParameter('output', 0, OUTPUT_CHANGES) as string;
	return [output === OUTPUT_LATEST_STATE ? latestStatePerContainer(items) : items];
}

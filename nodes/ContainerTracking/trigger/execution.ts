import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { executionEndHooks } from '../n8nInternals';
import { deliveryCore } from '../schemas';
import { addMissingContainers } from './items/containerLookup';
import { batchStarted } from './batching/deliveryBatches';
import { deliveredItems, idsOf, type SelectedItems } from './memory/recordedNotifications';
import { latestStatePerContainer } from './items/latestState';
import { markOutdatedStates, rememberStates } from './memory/givenStates';
import { deliveryOf, notificationItems, type ItemOptions } from './items/notificationItems';
import { triggerScope } from './triggerState';
import { handedOverItems, isHandedOver, withLoggedBodies } from './recovery/handedOver';
import { closeRunsAtEnd, leaveRunsOpen } from './memory/runJournal';

/** Output: one item per change (and per hold or fee), or one per container. */
export const OUTPUT_CHANGES = 'changes';
export const OUTPUT_LATEST_STATE = 'latestState';

/** The items of one notification; an item that carries none passes as it is. */
function itemsOf(item: INodeExecutionData, options: ItemOptions): INodeExecutionData[] {
	const body = deliveryOf(item.json);
	const delivery = body && deliveryCore.safeParse(body);
	if (!delivery?.success) return [item];
	const made = notificationItems(delivery.data, body, options);
	const marks = {
		...(item.json.caught_up === true ? { caught_up: true } : {}),
		...(item.json.rerun === true ? { rerun: true } : {}),
	};
	return made.map((json) => ({
		json: options.raw ? json : { ...json, ...marks },
		pairedItem: item.pairedItem,
	}));
}

/**
 * Which notifications this execution runs (trigger/memory/): those delivered (live, or caught up)
 * that no execution recorded before, and of those the watch handed over from the service's log
 * (trigger/recovery/handedOver.ts), those whose run was cut or that never ran; with each, the runs
 * it opened, closed when it ends. A test event, an unsaved workflow or Ignore Repeated Deliveries
 * off: every item.
 */
async function selectedItems(
	context: IExecuteFunctions,
	scope: string,
	input: INodeExecutionData[],
	deduplicate: boolean,
): Promise<SelectedItems> {
	if (!deduplicate || context.getMode() === 'manual' || !context.getWorkflow().id)
		return { items: input, opened: [] };
	// The runs this execution opens are closed when it ends (trigger/memory/runJournal.ts).
	const journal = executionEndHooks(context) !== undefined;
	const handedOver = input.filter(isHandedOver);
	const delivered = await deliveredItems(
		context,
		scope,
		input.filter((item) => !isHandedOver(item)),
		journal,
	);
	if (handedOver.length === 0) return delivered;
	const recovered = await handedOverItems(context, scope, handedOver, journal);
	// The cut check's notifications that run again come as ids: their bodies are in the log.
	const items = await withLoggedBodies(context, recovered.items).catch(async (error: Error) => {
		leaveRunsOpen(scope, [...delivered.opened, ...recovered.opened]);
		throw error;
	});
	return {
		items: [...items, ...delivered.items],
		opened: [...recovered.opened, ...delivered.opened],
	};
}

/**
 * What runs in the execution a delivery (or a batch of deliveries,
 * trigger/batching/deliveryBatches.ts, or the watch) started: the notifications it runs
 * (`selectedItems`) become the workflow's items; the containers deliveries did not include, or
 * included older than an earlier execution gave them (trigger/memory/givenStates.ts), are looked up
 * (trigger/items/containerLookup.ts), here rather than while a delivery waits for its answer, with
 * the execution's time to ride out an outage; then, when asked, one item per container.
 */
export async function triggerExecution(
	context: IExecuteFunctions,
	options: ItemOptions & { deduplicate: boolean },
): Promise<INodeExecutionData[][]> {
	// Each output item names the delivery it came from, also after some are dropped.
	const input = context
		.getInputData()
		.map((item, index) => ({ ...item, pairedItem: { item: index } }));
	const scope = triggerScope(context);
	// The next batch of deliveries in this process need not wait for this one any more.
	batchStarted(scope, idsOf(input));
	const { items: kept, opened } = await selectedItems(context, scope, input, options.deduplicate);
	closeRunsAtEnd(context, scope, opened);
	const items = kept.flatMap((item) => itemsOf(item, options));
	if (options.raw || items.length === 0) return [items];
	const jsons = items.map((item) => item.json);
	const output = context.getNodeParameter('output', 0, OUTPUT_CHANGES) as string;
	markOutdatedStates(scope, jsons);
	// A view kept from the latest states gets each as the service has it after the
	// notifications came, so that it ends on the newest whatever order executions write in.
	if (options.fetchContainer)
		await addMissingContainers(context, jsons, { every: output === OUTPUT_LATEST_STATE });
	rememberStates(scope, jsons);
	if (output !== OUTPUT_LATEST_STATE) return [items];
	const simplify = context.getNodeParameter('simplify', 0, true) as boolean;
	return [latestStatePerContainer(items, { simplify })];
}

// n8n's deduplication store (the one behind the Remove Duplicates node, and the trigger's durable
// repeat detection: nodes/ContainerTracking/trigger/memory/recordedNotifications.ts), kept in this
// process's memory for engine tests. A real n8n keeps it in its database (test/e2e/). Without it,
// n8n-core's helpers throw and the trigger goes on unrecorded, as it does when n8n's database
// fails.
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/** One list per workflow (scope `workflow`) or per node (scope `node`), oldest first. */
class DeduplicatorInMemory implements IDataDeduplicator {
	private readonly lists = new Map<string, string[]>();

	private keyOf(scope: DeduplicationScope, context: ICheckProcessedContextData): string {
		return scope === 'node' ? `${context.workflow.id}:${context.node?.id}` : context.workflow.id;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const key = this.keyOf(scope, context);
		const list = this.lists.get(key) ?? [];
		const held = new Set(list);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const value = String(item);
			if (held.has(value)) output.processed.push(item);
			else {
				output.new.push(item);
				held.add(value);
				list.push(value);
			}
		}
		// As n8n's: the oldest entries go beyond maxEntries.
		const kept = options.maxEntries ? list.slice(-options.maxEntries) : list;
		this.lists.set(key, kept);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
	): Promise<void> {
		const key = this.keyOf(scope, context);
		const removed = new Set(items.map(String));
		this.lists.set(
			key,
			(this.lists.get(key) ?? []).filter((value) => !removed.has(value)),
		);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
	): Promise<void> {
		this.lists.delete(this.keyOf(scope, context));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		context: ICheckProcessedContextData,
	): Promise<number> {
		return this.lists.get(this.keyOf(scope, context))?.length ?? 0;
	}
}

/**
 * Gives this test file's n8n-core a deduplication store in memory (once: n8n-core allows one; jest
 * loads modules afresh for each file).
 */
export async function useDeduplicationInMemory(): Promise<void> {
	try {
		DataDeduplicationService.getInstance();
	} catch {
		await DataDeduplicationService.init(new DeduplicatorInMemory());
	}
}

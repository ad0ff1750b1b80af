import type {
	IExecuteFunctions,
	INodeExecutionData,
	ITriggerFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

/**
 * Every place the nodes rely on what n8n does rather than on what n8n-workflow's types promise,
 * each with what it relies on. Tested on n8n 1.94.1, 1.123.x and 2.41.3 (`npm run test:compat`,
 * scripts/compat.mjs; the end-to-end tests in test/e2e/ on 2.41.3): a new n8n line is checked
 * here first. Nothing here imports the package's own modules.
 */

/**
 * Whether this run is the node as an AI model's tool (the AI Agent, the MCP Server Trigger): n8n
 * offers a `usableAsTool` node as the node type `<name>Tool` (convertNodeToAiTool) and runs the
 * same `execute` under that type.
 */
export function isToolRun(context: Pick<IExecuteFunctions, 'getNode'>): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * A webhook answered by the node itself, handing n8n `workflowData` to start an execution with.
 * n8n (live-webhooks.js → webhook-helpers.js) still creates and runs the execution when
 * `noWebhookResponse` is set, and writes no answer of its own: the answer is already sent.
 */
export function alreadyAnswered(workflowData?: INodeExecutionData[][]): IWebhookResponseData {
	return workflowData ? { noWebhookResponse: true, workflowData } : { noWebhookResponse: true };
}

/**
 * `emit` with the execution deduplication key of n8n 2.20 and later: n8n starts no second
 * execution with a key it already started one with. n8n-workflow before it types three parameters
 * (the oldest supported, 1.92.0, does), and n8n before it ignores the fourth argument.
 */
export function emitOnce(
	context: ITriggerFunctions,
	data: INodeExecutionData[][],
	deduplicationKey: string,
): void {
	const emitter = context as unknown as {
		emit(data: INodeExecutionData[][], response: undefined, done: undefined, key: string): void;
	};
	emitter.emit(data, undefined, undefined, deduplicationKey);
}

/** An error as n8n keeps it in an ended execution's data: the thrown error's fields, spread. */
interface KeptError {
	message?: unknown;
	description?: unknown;
	reason?: unknown;
	runnerId?: unknown;
}

/** What n8n's end-of-execution hook is given (n8n-workflow's IRun), as far as it is read here. */
export interface EndedRun {
	status?: string;
	data?: {
		resultData?: {
			error?: KeptError;
			runData?: Record<string, Array<{ error?: KeptError } | null> | undefined>;
		};
	};
}

/** n8n's lifecycle hooks of the execution `context` runs in, as far as they are used here. */
export interface EndHooks {
	addHandler(name: 'workflowExecuteAfter', handler: (run?: EndedRun) => Promise<void>): void;
}

/**
 * The hooks n8n calls when the execution ends (n8n-core's ExecutionLifecycleHooks, on the
 * context's `additionalData`, as every n8n from 1.80 builds it); undefined elsewhere.
 */
export function executionEndHooks(context: IExecuteFunctions): EndHooks | undefined {
	const hooks = (context as unknown as { additionalData?: { hooks?: Partial<EndHooks> } })
		.additionalData?.hooks;
	return typeof hooks?.addHandler === 'function' ? (hooks as EndHooks) : undefined;
}

/**
 * The errors n8n fails a node with when what runs it is gone, not because of the workflow: a
 * Code node's task finding no task runner (n8n's graceful shutdown stops its runners before it
 * waits for its executions, so every Code node still to run in those seconds fails so), a runner
 * that disconnected or stopped answering mid-task, a runner restarting in a loop, and an
 * execution n8n cancelled because it was shutting down. Matched on what n8n keeps of them (the
 * message, and the fields only these errors carry), in every n8n that has task runners.
 */
function isRunnerOrShutdownFailure(error: KeptError | undefined): boolean {
	if (!error) return false;
	const message = typeof error.message === 'string' ? error.message : '';
	return (
		error.reason === 'shutdown' ||
		/^Task request timed out/.test(message) ||
		/^Task execution aborted because runner became unresponsive/.test(message) ||
		/^Task runner has restarted \d+ times/.test(message) ||
		(message === 'Node execution failed' && error.runnerId !== undefined)
	);
}

/** Whether an ended execution failed because n8n could not run it (above), not by its workflow. */
export function endedForWantOfARunner(run: EndedRun | undefined): boolean {
	const result = run?.data?.resultData;
	if (!result || run?.status === 'success') return false;
	if (isRunnerOrShutdownFailure(result.error)) return true;
	return Object.values(result.runData ?? {}).some((tasks) =>
		(tasks ?? []).some((task) => isRunnerOrShutdownFailure(task?.error ?? undefined)),
	);
}

/**
 * n8n's deduplication store makes a node's list on its first record with an insert, after reading
 * that there was none: two processes making it at once, one insert fails on the list's unique key
 * (Postgres, SQLite, MySQL wording) having written nothing.
 */
export const isListMadeMeanwhile = (error: unknown): boolean =>
	/duplicate key value violates unique constraint|UNIQUE constraint failed|Duplicate entry/i.test(
		error instanceof Error ? error.message : String(error),
	);

/**
 * What n8n 2.x says when it evaluates an expression in a context that holds no isolate: with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE an execution acquires one at its first expression, and a
 * trigger holds one only while n8n activates it.
 */
export const isNoIsolateError = (error: unknown): boolean =>
	/No bridge acquired/i.test(String((error as Error)?.message ?? ''));

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { carrierItem, checkedOf, isRecovering } from '../items/notificationItems';
import { knowledgeCame, noteTaken } from '../memory/notificationLedger';
import {
	idsOf,
	markedRerun,
	notificationIdOf,
	recordedNow,
	type SelectedItems,
} from '../memory/recordedNotifications';
import { cutAmong, openRuns } from '../memory/runJournal';
import { runKey } from '../memory/durableStore';
import { bodyFromLog, findInLog, readLoggedBody } from './notificationLog';

/**
 * In the execution the watch started with notifications read from the service's log: which of
 * them run. Two kinds come (trigger/items/notificationItems.ts):
 * - the restart check's (`recovering`, trigger/recovery/restartCheck.ts), in a process that
 *   started lately: the process that wrote their runs' leases may have died a moment ago, so leases
 *   are not looked at;
 * - the cut check's (`checkItem`, trigger/recovery/cutCheck.ts), in a process that goes on while
 *   another may have died: a run whose lease is renewed is under way elsewhere.
 * Of each, those whose run was cut run again, marked `rerun: true` (the run journal,
 * trigger/memory/runJournal.ts, takes each over once); those the service had answered and no
 * execution ever recorded run as a first run; the rest ran, and are dropped. A live execution
 * never comes here.
 */

/**
 * Of the restart check's notifications, first: which n8n's store holds (recorded by an execution
 * before) and which it did not (recorded now: they run as a first run). Every one of them is then
 * taken in this process, and the knowledge copies wait for came (trigger/memory/notificationLedger.ts).
 */
async function sortedByRecord(
	context: IExecuteFunctions,
	scope: string,
	recovering: INodeExecutionData[],
): Promise<{ recordedBefore: string[]; firstRuns: INodeExecutionData[] }> {
	const ids = idsOf(recovering);
	try {
		const fresh = await recordedNow(context, scope, ids);
		noteTaken(scope, ids);
		return {
			recordedBefore: ids.filter((id) => !fresh.has(id)),
			firstRuns: recovering.filter((item) => fresh.has(notificationIdOf(item.json) ?? '')),
		};
	} finally {
		knowledgeCame(scope);
	}
}

/**
 * The items to pass on of the notifications handed over (above), and the runs this execution
 * opened or took over, to be closed when it ends. An execution retried by hand runs again only
 * those whose run was cut.
 */
export async function handedOverItems(
	context: IExecuteFunctions,
	scope: string,
	handedOver: INodeExecutionData[],
	journal: boolean,
): Promise<SelectedItems> {
	const recovering = handedOver.filter((item) => isRecovering(item.json));
	const checked = handedOver.filter((item) => checkedOf(item.json) !== undefined);
	const retried = context.getMode() === 'retry';
	try {
		const sorted = retried
			? { recordedBefore: idsOf(recovering), firstRuns: [] }
			: await sortedByRecord(context, scope, recovering);
		// These run again only where their run is open (and, checked, not renewed).
		const cut = new Set([
			...(sorted.recordedBefore.length > 0
				? await cutAmong(context, scope, sorted.recordedBefore)
				: []),
			...(checked.length > 0
				? await cutAmong(context, scope, idsOf(checked), { leased: true })
				: []),
		]);
		const isCut = (item: INodeExecutionData) => cut.has(notificationIdOf(item.json) ?? '');
		const rerun = [...recovering, ...checked].filter(isCut);
		if (checked.some(isCut))
			context.logger.warn(
				'Container tracking: notifications whose run was cut (the n8n process running it stopped) run again',
				{ notificationIds: idsOf(checked.filter(isCut)) },
			);
		const cutRuns = journal ? [...cut].map(runKey) : [];
		if (retried) return { items: markedRerun(rerun), opened: cutRuns };
		// The cut check's process did not restart: one not answered is on its way, or the
		// catch-up's. One answered and never recorded runs now.
		const answered = checked.filter(
			(item) => checkedOf(item.json)?.answered === true && !isCut(item),
		);
		const fresh =
			answered.length > 0 ? await recordedNow(context, scope, idsOf(answered)) : new Set();
		const firstRuns = [
			...sorted.firstRuns,
			...answered.filter((item) => fresh.has(notificationIdOf(item.json) ?? '')),
		];
		// Recorded first, their runs opened after: looking at one that ran opens nothing.
		const opened = journal ? await openRuns(context, scope, idsOf(firstRuns)) : [];
		return { items: [...markedRerun(rerun), ...firstRuns], opened: [...cutRuns, ...opened] };
	} catch (error) {
		// These notifications mostly ran already: they wait for the next check rather than all
		// run again.
		context.logger.warn('Container tracking: could not look up the notifications handed over', {
			notificationIds: idsOf([...recovering, ...checked]).slice(0, 20),
			error: (error as Error).message,
		});
		return { items: [], opened: [] };
	}
}

/** Whether an execution's item is one the watch handed over from the service's log. */
export const isHandedOver = (item: INodeExecutionData): boolean =>
	isRecovering(item.json) || checkedOf(item.json) !== undefined;

/**
 * The cut check's notifications that run hold their ids only: each as the service delivers it,
 * read from the log's pages that hold them (found by halving, at most a page per notification),
 * or on its own where those pages do not show it: a few cut out of a busy hour cost a few calls,
 * not a walk back through the hour's log at the service's rate limit. One the service no longer
 * has is dropped, and said so.
 */
export async function withLoggedBodies(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const named = items.map((item) => checkedOf(item.json));
	const wanted = named.filter((checked) => checked !== undefined);
	if (wanted.length === 0) return items;
	const logged = await findInLog(context, wanted, wanted.length);
	const resolved: INodeExecutionData[] = [];
	for (const [index, item] of items.entries()) {
		const checked = named[index];
		if (!checked) {
			resolved.push(item);
			continue;
		}
		const entry = logged.get(checked.id);
		const body = entry
			? await bodyFromLog(context, entry)
			: await readLoggedBody(context, checked.id);
		if (body === undefined) {
			context.logger.warn(
				'Container tracking: a notification to run again is no longer in the service log',
				{ notificationId: checked.id },
			);
			continue;
		}
		const marks = item.json.rerun === true ? { rerun: true } : {};
		resolved.push({ ...item, json: { ...carrierItem(body), ...marks } });
	}
	return resolved;
}

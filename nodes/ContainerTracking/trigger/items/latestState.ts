import { omit, pick } from 'lodash';
import type { IDataObject, INodeExecutionData, IPairedItemData } from 'n8n-workflow';

import { simplifyContainer } from '../../actions/simplify';
import { OWNERSHIP_FIELDS } from '../../logic/ownership';

/**
 * Output → Latest State per Container: the items of one execution folded into one per
 * container, shaped as Container → Get gives a container by default (Simplify on:
 * actions/simplify.ts), with what changed beside it. A workflow that keeps a view of each
 * container (a board, a sheet, a database row) then writes a container once per execution,
 * however many of its changes the execution holds, and reads it as it reads Container → Get.
 *
 * The state is the newest the items carry (`container_as_of`: when the service made the
 * notification, or when the trigger read the container), whatever order the items came in. With
 * Fetch Container When Missing every container is read after its notifications came
 * (trigger/execution.ts), so that a view kept from these items ends on the service's newest.
 * Items that name no container (a tracking request that failed, an estimate for a shipment) pass
 * through as they are.
 */

/** What each change keeps: the item without the container it was about. */
function changeOf(item: IDataObject): IDataObject {
	return omit(item, 'container');
}

const asOf = (item: IDataObject): number => {
	const container = item.container as IDataObject | undefined;
	const time = Date.parse(String(container?.container_as_of ?? ''));
	return Number.isFinite(time) ? time : Number.NEGATIVE_INFINITY;
};

const unique = (values: unknown[]): unknown[] => [
	...new Set(values.filter((value) => value !== undefined && value !== null)),
];

function folded(group: INodeExecutionData[], simplify: boolean): INodeExecutionData {
	const jsons = group.map((item) => item.json);
	// The newest state; of equal ones, the later item's.
	const newest = jsons.reduce((best, item) => (asOf(item) >= asOf(best) ? item : best));
	const state = newest.container as IDataObject | undefined;
	const json: IDataObject = {
		...(state
			? {
					// Simplify off: the whole container, as Get gives it with Simplify off, which Get
					// Charges reads as its input item without a call of its own.
					...(simplify ? simplifyContainer(state) : state),
					container_state_complete: state.container_state_complete ?? true,
				}
			: {
					id: newest.container_id,
					number: newest.container_number ?? null,
					...pick(newest, OWNERSHIP_FIELDS),
				}),
		container_id: newest.container_id,
		container_number: (state?.number as string | undefined) ?? newest.container_number ?? null,
		notification_ids: unique(jsons.map((item) => item.notification_id)) as string[],
		events: unique(jsons.map((item) => item.event)) as string[],
		changes: jsons.map(changeOf),
	};
	if (jsons.some((item) => item.caught_up === true)) json.caught_up = true;
	if (jsons.some((item) => item.rerun === true)) json.rerun = true;
	const lookupErrors = unique(jsons.map((item) => item.container_lookup_error));
	// Also beside a state: it is then the one a delivery carried, not a read.
	if (lookupErrors.length > 0) json.container_lookup_error = lookupErrors.join('; ');
	const pairedItem = group.flatMap((item) => pairedOf(item));
	return { json, pairedItem };
}

/** The trigger's items an item is paired with (trigger/execution.ts pairs each with its input). */
function pairedOf(item: INodeExecutionData): IPairedItemData[] {
	const paired = item.pairedItem;
	if (paired === undefined) return [];
	if (typeof paired === 'number') return [{ item: paired }];
	return Array.isArray(paired) ? paired : [paired];
}

export function latestStatePerContainer(
	items: INodeExecutionData[],
	{ simplify = true }: { simplify?: boolean } = {},
): INodeExecutionData[] {
	const groups = new Map<string, INodeExecutionData[]>();
	const out: Array<INodeExecutionData | INodeExecutionData[]> = [];
	for (const item of items) {
		const id = item.json.container_id;
		if (typeof id !== 'string' || id === '') {
			out.push(item);
			continue;
		}
		const group = groups.get(id);
		if (group) group.push(item);
		else {
			const created = [item];
			groups.set(id, created);
			// Each container's item stands where its first change stood.
			out.push(created);
		}
	}
	return out.map((entry) => (Array.isArray(entry) ? folded(entry, simplify) : entry));
}

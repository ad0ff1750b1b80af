import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { CONTAINER_STATUSES } from '../../schemas';
import { isRecord } from '../../schemas/values';
import { ownershipFilter } from '../../logic/ownership';
import { showFor, valueOptions } from '../common';

/**
 * Container → Get Many's filters and order. The service filters and sorts none of its lists, so
 * the node does, on the items as it outputs them (actions/container/summary.ts): a filter reads
 * the same worked-out pickup status, last free day and holds a user sees, never a second rule.
 *
 * | Filter               | Keeps a container whose …                                            |
 * |----------------------|----------------------------------------------------------------------|
 * | Pickup Status        | `pickup_status` is one chosen; Not Ready is every status but ready   |
 * | Last Free Day        | `days_until_last_free_day` (at its facility) is 0…N (Within), ≤ N    |
 * |                      | (Within or Passed), < 0 (Passed), or null (Not Known)                |
 * | Has Active Holds     | `active_holds` (status `hold`) is non-empty (Yes) or empty (No)      |
 * | Current Status Is    | `current_status` is one chosen                                       |
 * | Current Status Is Not| `current_status` is none chosen: a status no table lists is kept     |
 * | Data                 | `data_fresh` is true (Fresh) or false (Stale: logic/freshness.ts)    |
 * | Terminal             | port terminal or pickup facility: name or nickname contains the text, |
 * |                      | or a code (FIRMS, SMDG, BIC) or id equals it; or the last free day's  |
 * |                      | facility name contains it. Case and surrounding spaces are ignored.   |
 * | Customer             | `customer_name` contains the text, ignoring case                      |
 * | Reference Number     | a shipment or container reference contains it, ignoring case, spaces  |
 * |                      | and dashes (logic/ownership.ts)                                       |
 * | Tags                 | the shipment has at least one of them, ignoring case                  |
 *
 * Every filter set must hold. A Last Free Day filter never keeps a container without a readable
 * last free day, except Not Known.
 */

export const LAST_FREE_DAY_WINDOWS = ['within', 'withinOrPassed', 'passed', 'unknown'] as const;
export type LastFreeDayWindow = (typeof LAST_FREE_DAY_WINDOWS)[number];

/** The filters as the node's parameters hold them. */
export interface ContainerFilters {
	pickupStatuses?: string[];
	lastFreeDay?: LastFreeDayWindow;
	lastFreeDayDays?: number;
	hasActiveHolds?: 'yes' | 'no';
	currentStatuses?: string[];
	excludedCurrentStatuses?: string[];
	terminal?: string;
	data?: 'fresh' | 'stale';
	customer?: string;
	reference?: string;
	tags?: string[];
}

/** The pseudo pickup status "any status but ready". */
export const NOT_READY = 'not_ready';

/** How many days ahead "Within" looks when the filter does not say. */
export const DEFAULT_LAST_FREE_DAY_DAYS = 2;

const STATUS_NAMES = {
	new: 'New',
	on_ship: 'On Ship',
	available: 'Available',
	not_available: 'Not Available',
	grounded: 'Grounded',
	on_rail: 'On Rail',
	picked_up: 'Picked Up',
	off_dock: 'Off Dock',
	delivered: 'Delivered',
	dropped: 'Dropped',
	loaded: 'Loaded',
	empty_returned: 'Empty Returned',
	awaiting_inland_transfer: 'Awaiting Inland Transfer',
} as const;

/** The records the Terminal filter reads, added to the request when it is set. */
export const TERMINAL_INCLUDES = ['pod_terminal', 'pickup_facility'];

/**
 * The filters on whose box it is (logic/ownership.ts), for `what` ('containers', 'shipments'):
 * the service filters neither list by them, so the node reads the pages and keeps the matches.
 */
export function ownershipFilterFields(
	what: 'containers' | 'shipments',
): Record<'customer' | 'reference' | 'tags', INodeProperties> {
	const whose = what === 'containers' ? 'whose shipment’s' : 'whose';
	return {
		customer: {
			displayName: 'Customer',
			name: 'customer',
			type: 'string',
			default: '',
			placeholder: 'e.g. Acme Imports',
			description: `Only ${what} ${whose} customer name contains this, ignoring case. The service does not filter by customer: the node reads the pages and keeps the matches.`,
		},
		reference: {
			displayName: 'Reference Number',
			name: 'reference',
			type: 'string',
			default: '',
			placeholder: 'e.g. PO-4411',
			description: `Only ${what} with a reference number ${what === 'containers' ? '(the shipment’s or the container’s own) ' : ''}containing this; case, spaces and dashes do not count. Done by the node. To find one by reference in a single call, use Search → Find by Number.`,
		},
		tags: {
			displayName: 'Tags',
			name: 'tags',
			type: 'string',
			default: '',
			placeholder: 'e.g. reefer, priority',
			description: `Only ${what} ${what === 'containers' ? 'whose shipment has' : 'with'} at least one of these tags (comma-separated), ignoring case. Done by the node.`,
		},
	};
}

export function filtersField(): INodeProperties {
	const owner = ownershipFilterFields('containers');
	const statusOptions = valueOptions(CONTAINER_STATUSES, STATUS_NAMES);
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: showFor('container', 'getMany'),
		description:
			'Done by the node on the worked-out fields; Limit counts the containers that pass every filter',
		options: [
			{
				displayName: 'Current Status Is',
				name: 'currentStatuses',
				type: 'multiOptions',
				options: statusOptions,
				default: [],
				description: 'Only containers whose current status is one of these',
			},
			{
				displayName: 'Current Status Is Not',
				name: 'excludedCurrentStatuses',
				type: 'multiOptions',
				options: statusOptions,
				default: [],
				description:
					'Leave out containers whose current status is one of these, e.g. Picked Up, Delivered and Empty Returned for the boxes still to collect. A status no list names is kept.',
			},
			owner.customer,
			{
				displayName: 'Data',
				name: 'data',
				type: 'options',
				options: [
					{
						name: 'Fresh',
						value: 'fresh',
						description: 'The terminal checked within 7 days and tracking goes on',
					},
					{
						name: 'Stale',
						value: 'stale',
						description:
							'The terminal not checked for over 7 days, or tracking stopped: what the item says may no longer be true',
					},
				],
				default: 'fresh',
				description:
					'Whether the container’s data can still be acted on (`data_fresh`): a last free day on stale data is not urgent, it needs checking',
			},
			{
				displayName: 'Has Active Holds',
				name: 'hasActiveHolds',
				type: 'options',
				options: [
					{ name: 'Yes', value: 'yes', description: 'At least one hold with status hold' },
					{ name: 'No', value: 'no', description: 'No hold with status hold' },
				],
				default: 'yes',
				description: 'Whether the terminal lists a hold that blocks pickup (pending holds do not)',
			},
			{
				displayName: 'Last Free Day',
				name: 'lastFreeDay',
				type: 'options',
				options: [
					{
						name: 'Within the Next Days',
						value: 'within',
						description: 'Today or up to Last Free Day Within (Days) ahead, at its facility',
					},
					{
						name: 'Within the Next Days or Passed',
						value: 'withinOrPassed',
						description: 'Up to Last Free Day Within (Days) ahead, or already passed',
					},
					{ name: 'Passed', value: 'passed', description: 'Before today at its facility' },
					{ name: 'Not Known', value: 'unknown', description: 'No readable last free day' },
				],
				default: 'withinOrPassed',
				description: 'Only containers whose last free day, as a date at its facility, is here',
			},
			{
				displayName: 'Last Free Day Within (Days)',
				name: 'lastFreeDayDays',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: DEFAULT_LAST_FREE_DAY_DAYS,
				description:
					'How many days ahead the Last Free Day filter looks: 0 is today only, 2 is today, tomorrow and the day after. Set alone, it keeps the containers within these days.',
			},
			{
				displayName: 'Pickup Status',
				name: 'pickupStatuses',
				type: 'multiOptions',
				options: [
					{ name: 'Ready', value: 'ready' },
					{ name: 'Not Ready (Any Other Status)', value: NOT_READY },
					{ name: 'On Hold', value: 'on_hold' },
					{ name: 'Not Available', value: 'not_available' },
					{ name: 'Out of Sync', value: 'out_of_sync' },
					{ name: 'Unknown', value: 'unknown' },
				],
				default: [],
				description:
					'Only containers whose worked-out pickup status is one of these. On Hold is a box at its terminal blocked by a hold.',
			},
			owner.reference,
			owner.tags,
			{
				displayName: 'Terminal',
				name: 'terminal',
				type: 'string',
				default: '',
				placeholder: 'e.g. Garden City or Y309',
				description:
					'Only containers at this port terminal or pickup facility: part of its name, or its FIRMS, SMDG or BIC code. The node includes the port terminal and pickup facility to read them.',
			},
		],
	};
}

export const SORT_ORDERS = ['service', 'lastFreeDay'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const sortOption: INodeProperties = {
	displayName: 'Order',
	name: 'sort',
	type: 'options',
	options: [
		{ name: 'As the Service Lists Them', value: 'service' },
		{
			name: 'By Last Free Day, Earliest First',
			value: 'lastFreeDay',
			description:
				'By the date at each facility, then the moment; containers without one last. Reads every page before Limit applies.',
		},
	],
	default: 'service',
	description: 'The order of the items',
};

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** The related facility records an item carries (flattened: actions/container/summary.ts). */
function facilities(item: IDataObject): IDataObject[] {
	return [item.pod_terminal, item.pickup_facility].filter(isRecord) as IDataObject[];
}

function atTerminal(item: IDataObject, wanted: string): boolean {
	for (const facility of facilities(item)) {
		if ([facility.name, facility.nickname].some((name) => text(name).includes(wanted))) return true;
		const codes = [
			facility.firms_code,
			facility.smdg_code,
			facility.bic_facility_code,
			facility.id,
		];
		if (codes.some((code) => text(code) === wanted)) return true;
	}
	return text(item.last_free_day_facility).includes(wanted);
}

function inWindow(days: unknown, window: LastFreeDayWindow, ahead: number): boolean {
	const known = typeof days === 'number' && Number.isFinite(days);
	if (window === 'unknown') return !known;
	if (!known) return false;
	if (window === 'passed') return days < 0;
	if (window === 'within') return days >= 0 && days <= ahead;
	return days <= ahead;
}

/** The filters' test of one container item; with no filter set it keeps every item. */
export function containerFilter(filters: ContainerFilters): (item: IDataObject) => boolean {
	const pickup = new Set(filters.pickupStatuses ?? []);
	const statuses = new Set(filters.currentStatuses ?? []);
	const excluded = new Set(filters.excludedCurrentStatuses ?? []);
	const terminal = text(filters.terminal);
	const owned = ownershipFilter(filters);
	const ahead = filters.lastFreeDayDays ?? DEFAULT_LAST_FREE_DAY_DAYS;
	const window: LastFreeDayWindow | undefined =
		filters.lastFreeDay ?? (filters.lastFreeDayDays !== undefined ? 'within' : undefined);
	return (item) => {
		const pickupStatus = String(item.pickup_status);
		if (
			pickup.size > 0 &&
			!pickup.has(pickupStatus) &&
			!(pickup.has(NOT_READY) && pickupStatus !== 'ready')
		)
			return false;
		if (window && !inWindow(item.days_until_last_free_day, window, ahead)) return false;
		if (filters.hasActiveHolds) {
			const holds = Array.isArray(item.active_holds) ? item.active_holds.length : 0;
			if (holds > 0 !== (filters.hasActiveHolds === 'yes')) return false;
		}
		const status = typeof item.current_status === 'string' ? item.current_status : '';
		if (statuses.size > 0 && !statuses.has(status)) return false;
		if (excluded.has(status)) return false;
		if (terminal && !atTerminal(item, terminal)) return false;
		if (filters.data && (item.data_fresh !== false) !== (filters.data === 'fresh')) return false;
		return owned(item);
	};
}

function lastFreeDayMoment(item: IDataObject): number {
	const moment = typeof item.last_free_day === 'string' ? Date.parse(item.last_free_day) : NaN;
	return Number.isNaN(moment) ? Infinity : moment;
}

/**
 * Items by last free day, earliest first: by the date at each facility (what a person reads),
 * then the moment it starts; items without a readable date last, each group in the order given.
 */
export function byLastFreeDay<Item extends { json: IDataObject }>(items: Item[]): Item[] {
	const date = ({ json }: Item) =>
		typeof json.last_free_day_date === 'string' ? json.last_free_day_date : null;
	return items
		.map((item, index) => ({ item, index, date: date(item), moment: lastFreeDayMoment(item.json) }))
		.sort((a, b) => {
			if (a.date !== b.date) {
				if (a.date === null) return 1;
				if (b.date === null) return -1;
				return a.date < b.date ? -1 : 1;
			}
			// Infinity - Infinity is NaN, which falls through to the given order.
			return a.moment - b.moment || a.index - b.index;
		})
		.map(({ item }) => item);
}

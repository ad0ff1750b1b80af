/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- reads the example workflows and evaluates their own expressions; the rules are for the published nodes */
// The newest state wins whatever order work runs in (docs/design/trigger.md, "The newest state
// wins"): one box changes a few times, some changes within one second; its notifications are
// delivered late, twice, in batches that start executions which run side by side and finish in any
// order; a read of the box waits in the rate gate while another is served; a read fails; a
// notification runs again after a cut; the board's hourly branch re-reads every box meanwhile.
// Each execution's items are made by the trigger's own code (notificationItems, the newest-state
// marks, what a read puts on an item, Latest State per Container), and every board write goes
// through the Pickup board example's own rule, read from examples/pickup-board.json: its Switch,
// its `state_as_of` expression and its conditional update. Whatever the order, the row ends on the
// box's last state. The orders are generated (fast-check), not chosen.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { readContainerItem } from '../../nodes/ContainerTracking/actions/container/summary';
import { simplifyContainer } from '../../nodes/ContainerTracking/actions/simplify';
import { indexIncluded } from '../../nodes/ContainerTracking/records/jsonApi';
import { deliveryCore, type JsonApiResource } from '../../nodes/ContainerTracking/schemas';
import {
	lackingContainers,
	putLookupFailure,
	putReads,
	soughtKey,
	type ContainerRead,
} from '../../nodes/ContainerTracking/trigger/items/containerReads';
import { latestStatePerContainer } from '../../nodes/ContainerTracking/trigger/items/latestState';
import { notificationItems } from '../../nodes/ContainerTracking/trigger/items/notificationItems';
import {
	markOutdatedStates,
	rememberStates,
} from '../../nodes/ContainerTracking/trigger/memory/givenStates';
import { repoRoot } from '../support/importNative';

interface WorkflowNode {
	name: string;
	type: string;
	parameters: IDataObject;
}
interface Workflow {
	nodes: WorkflowNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const board: Workflow = JSON.parse(
	readFileSync(path.join(repoRoot, 'examples', 'pickup-board.json'), 'utf8'),
);
const nodeOf = (name: string) => {
	const found = board.nodes.find((node) => node.name === name);
	if (!found) throw new Error(`examples/pickup-board.json has no node "${name}"`);
	return found;
};
const TRIGGER = board.nodes.find((node) => node.type.endsWith('.containerTrackingTrigger'))!;
const SCHEDULE = board.nodes.find((node) => node.type === 'n8n-nodes-base.scheduleTrigger')!;

// ---------------------------------------------------------------------------------------------
// The example's rule, read from the workflow: where an item goes, the `state_as_of` it is written
// with, and when the conditional update takes it.

/** `={{ expression }}` → `expression`. */
const expressionOf = (value: unknown): string => {
	const match = /^=\{\{([\s\S]*)\}\}$/.exec(String(value));
	if (!match) throw new Error(`not an expression: ${String(value)}`);
	return match[1];
};

interface ExpressionScope {
	json: IDataObject;
	now: number;
	/** The schedule's run, when the item comes from the hourly branch. */
	hourly?: { timestamp: string };
}

/**
 * Evaluates one of the example's expressions as n8n does for these: `$json`, `$now`, `DateTime`
 * and `$('<schedule>')`.
 */
function evaluate(expression: string, scope: ExpressionScope): unknown {
	const $ = (name: string) => {
		if (name !== SCHEDULE.name) throw new Error(`the expression reads node "${name}"`);
		return {
			isExecuted: scope.hourly !== undefined,
			first: () => ({ json: scope.hourly ?? {} }),
		};
	};
	const run = new Function('$json', '$now', 'DateTime', '$', `return (${expression});`);
	return run(scope.json, DateTime.fromMillis(scope.now, { zone: 'UTC' }), DateTime, $);
}

/** Where the board's Switch sends a trigger item: its outputs in order, by their rules. */
function switchOutput(json: IDataObject): string | undefined {
	const rules = (
		nodeOf('State carried?').parameters.rules as {
			values: Array<{
				outputKey: string;
				conditions: {
					conditions: Array<{ leftValue: string; operator: { operation: string } }>;
				};
			}>;
		}
	).values;
	for (const rule of rules) {
		const holds = rule.conditions.conditions.every((condition) => {
			const value = evaluate(expressionOf(condition.leftValue), { json, now: 0 });
			if (condition.operator.operation !== 'notEmpty')
				throw new Error(`the Switch tests ${condition.operator.operation}`);
			return value !== undefined && value !== null && value !== '';
		});
		if (holds) return rule.outputKey;
	}
	return undefined;
}

const outputOf = (key: string) => {
	const rules = (nodeOf('State carried?').parameters.rules as { values: Array<{ outputKey: string }> })
		.values;
	const index = rules.findIndex((rule) => rule.outputKey === key);
	return board.connections['State carried?'].main[index]?.[0]?.node;
};

const columnExpression = (column: string) => {
	const assignments = (
		nodeOf('Board columns').parameters.assignments as {
			assignments: Array<{ name: string; value: string }>;
		}
	).assignments;
	return expressionOf(assignments.find((entry) => entry.name === column)!.value);
};

interface Row {
	state_as_of: string | null;
	/** Which of the box's states the row holds (its `fees_other`, below). */
	state: number;
}

/**
 * The board's write of one row (Write if not newer, then No row yet → Upsert the row), as n8n's
 * Data Table runs it: one UPDATE … WHERE for the update, text compared as SQLite compares it.
 */
function writeRow(row: Row | undefined, columns: Row): Row {
	const conditions = (
		nodeOf('Write if not newer').parameters.filters as {
			conditions: Array<{ keyName: string; condition: string; keyValue: string }>;
		}
	).conditions;
	const guard = conditions.find((condition) => condition.keyName === 'state_as_of');
	if (!row) return columns;
	if (!guard) return columns;
	expect(guard.condition).toBe('lte');
	const bound = columns.state_as_of;
	// SQL: NULL compared with anything is not true.
	const takes = row.state_as_of !== null && bound !== null && row.state_as_of <= bound;
	return takes ? columns : row;
}

// ---------------------------------------------------------------------------------------------
// The service: one box whose states are told apart by one fee (the board's `fees_other` column).

const CONTAINER_ID = '6f0a9b2e-0c1d-4e2f-8a3b-4c5d6e7f8091';
const SHIPMENT_ID = '2b4d6f80-1a3c-4e5f-9071-8293a4b5c6d7';
const NUMBER = 'MSCU7300009';
const BASE = Date.UTC(2026, 11, 7, 10, 0, 0);

const fees = (state: number) => [{ type: 'other', amount: state, currency_code: 'USD' }];

function containerRecord(state: number): JsonApiResource {
	return {
		id: CONTAINER_ID,
		type: 'container',
		attributes: {
			number: NUMBER,
			ref_numbers: [],
			created_at: '2026-11-30T08:00:00Z',
			availability_known: true,
			available_for_pickup: state % 2 === 0,
			holds_at_pod_terminal: [],
			fees_at_pod_terminal: fees(state),
			current_status: state % 2 === 0 ? 'available' : 'not_available',
			pod_timezone: 'America/Los_Angeles',
			terminal_checked_at: new Date(BASE).toISOString(),
		},
		relationships: {
			shipment: { data: { id: SHIPMENT_ID, type: 'shipment' } },
			pod_terminal: { data: null },
			pickup_facility: { data: null },
			// The events of each change so far: a reference-only delivery finds the box by its event.
			transport_events: {
				data: Array.from({ length: state }, (_, index) => ({
					id: `event-${index + 1}`,
					type: 'transport_event',
				})),
			},
		},
	} as unknown as JsonApiResource;
}

const shipmentRecord = {
	id: SHIPMENT_ID,
	type: 'shipment',
	attributes: {
		bill_of_lading_number: 'MSCU123456789',
		customer_name: 'Acme Imports',
		ref_numbers: [],
		tags: [],
		pod_timezone: 'America/Los_Angeles',
		line_tracking_last_succeeded_at: new Date(BASE).toISOString(),
	},
	relationships: { containers: { data: [{ id: CONTAINER_ID, type: 'container' }] } },
} as unknown as JsonApiResource;

/** A notification's envelope, as the service delivers it, naming the record that caused it. */
function envelope(
	id: string,
	event: string,
	createdAt: number,
	reference: { id: string; type: string },
): IDataObject {
	return {
		id,
		type: 'webhook_notification',
		attributes: {
			id,
			event,
			delivery_status: 'succeeded',
			created_at: new Date(createdAt).toISOString().replace('.000Z', 'Z'),
		},
		relationships: {
			reference_object: { data: reference },
			webhook: { data: { id: 'webhook-1', type: 'webhook' } },
		},
	};
}

/** The `container.updated` of change `state` (from `state - 1`), with the box as it is then. */
function containerUpdated(state: number, createdAt: number): IDataObject {
	return {
		data: envelope(`notification-${state}`, 'container.updated', createdAt, {
			id: `change-${state}`,
			type: 'container_updated_event',
		}),
		included: [
			{
				id: `change-${state}`,
				type: 'container_updated_event',
				attributes: {
					changeset: { fees_at_pod_terminal: [fees(state - 1), fees(state)] },
					timestamp: new Date(createdAt).toISOString(),
					data_source: 'terminal',
					timezone: 'America/Los_Angeles',
				},
				relationships: {
					container: { data: { id: CONTAINER_ID, type: 'container' } },
					shipment: { data: { id: SHIPMENT_ID, type: 'shipment' } },
				},
			},
			containerRecord(state),
			shipmentRecord,
		],
	};
}

/**
 * The `container.transport.available` of change `state`: the service sends it by reference only
 * (docs/service.md, "Reference objects"), so its container is found by the event it lists.
 */
const availableByReference = (state: number, createdAt: number): IDataObject => ({
	data: envelope(`available-${state}`, 'container.transport.available', createdAt, {
		id: `event-${state}`,
		type: 'transport_event',
	}),
});

// ---------------------------------------------------------------------------------------------
// One history: when the box changed, and when each piece of work ran.

interface Change {
	/** When the service made the change (ms since BASE). */
	at: number;
	/** How long after the change the service made its notifications (their created_at). */
	notifiedAfter: number;
	/** Whether the change made the box available: a reference-only notification too. */
	available: boolean;
}

/** A notification of a change: `container.updated`, or the reference-only `available`. */
interface Notification {
	change: number;
	kind: 'updated' | 'available';
	body: IDataObject;
}

interface Execution {
	/** The notifications it was handed (a copy of one already run is dropped). */
	notifications: number[];
	/** Whether it runs them again after a cut (`rerun`): nothing is dropped. */
	rerun: boolean;
	/** After the last of its deliveries: n8n starts it, the trigger records its notifications. */
	startAfter: number;
	/** After its start, the trigger asks the service for the box… */
	askAfter: number;
	/** …which serves it this much later (the rate gate, a busy service)… */
	servedAfter: number;
	readFails: boolean;
	/** …and the board's nodes run, and write, this much after that. */
	columnsAfter: number;
	writeAfter: number;
	/** For the board's own read of a box the trigger could not read (Get the container). */
	getServedAfter: number;
}

interface Hourly {
	/** When the schedule fired (ms since BASE)… */
	at: number;
	/** …when Get all containers was served, and when the rows were written after it. */
	servedAfter: number;
	writeAfter: number;
}

interface History {
	changes: Change[];
	notifications: Notification[];
	/** When each notification arrives: its first delivery, and a late copy of some. */
	arrivals: Array<{ first: number; copy?: number }>;
	executions: Execution[];
	hourly: Hourly[];
}

/** The box's state the service serves at `at`: its last change at or before it. */
const stateAt = (changes: Change[], at: number) =>
	changes.filter((change) => change.at <= at).length;

type Step = { at: number; order: number; run: () => void };

/** Replays one history; returns the board's row at the end. */
function replay(history: History, scope: string): Row {
	const { changes, notifications, arrivals } = history;
	const steps: Step[] = [];
	let order = 0;
	const at = (time: number, run: () => void) => steps.push({ at: time, order: order++, run });
	let row: Row | undefined = { state_as_of: '2026-12-07T09:00:00.000Z', state: 0 };
	const recorded = new Set<number>();

	/** The board's part for one item the trigger gave: Switch, maybe Get, columns, the write. */
	const boardWrite = (json: IDataObject, execution: Execution, servedAt: number) => {
		const output = outputOf(switchOutput(json) ?? '');
		const columnsAt = servedAt + execution.columnsAfter;
		const write = (item: IDataObject, evaluatedAt: number) => {
			const stateAsOf = evaluate(columnExpression('state_as_of'), {
				json: item,
				now: BASE + evaluatedAt,
			}) as string | null;
			const columns = { state_as_of: stateAsOf, state: feeState(item) };
			at(evaluatedAt + execution.writeAfter, () => (row = writeRow(row, columns)));
		};
		if (output === 'Board columns') at(columnsAt, () => write(json, columnsAt));
		else if (output === 'Get the container') {
			// Container → Get, asked at `columnsAt`, served later; its item goes to Board columns.
			const getServedAt = columnsAt + execution.getServedAfter;
			at(getServedAt, () => {
				const got = gotContainer(stateAt(changes, getServedAt), columnsAt, getServedAt);
				write(got, getServedAt + execution.columnsAfter);
			});
		}
	};

	for (const execution of history.executions) {
		const last = Math.max(...execution.notifications.map((index) => arrivals[index].first));
		const startAt = last + execution.startAfter;
		const askedAt = startAt + execution.askAfter;
		const servedAt = askedAt + execution.servedAfter;
		let jsons: IDataObject[] = [];
		let items: INodeExecutionData[] = [];
		at(startAt, () => {
			// The durable record: a notification recorded by an execution before runs no more,
			// unless this one runs it again after a cut.
			const kept = execution.notifications.filter(
				(index) => execution.rerun || !recorded.has(index),
			);
			for (const index of kept) recorded.add(index);
			items = kept.flatMap((index) => {
				const { body } = notifications[index];
				const made = notificationItems(deliveryCore.parse(body), body, {
					expandHoldsAndFees: true,
					fields: [],
					raw: false,
					fetchContainer: true,
				});
				return made.map((json) => ({
					json: execution.rerun ? { ...json, rerun: true } : json,
				}));
			});
			jsons = items.map((item) => item.json);
		});
		at(askedAt, () => markOutdatedStates(scope, jsons));
		at(servedAt, () => {
			const lacking = lackingContainers(jsons, TRIGGER_EVERY);
			if (execution.readFails)
				putLookupFailure(lacking, new Error('The service did not answer'), TRIGGER_EVERY);
			else {
				const served = stateAt(changes, servedAt);
				const read: ContainerRead = {
					record: containerRecord(served),
					included: indexIncluded([shipmentRecord]),
					requestedAt: new Date(BASE + askedAt),
					answeredAt: new Date(BASE + servedAt),
				};
				// A box sought by its event is found once it lists the event.
				const listed = ({ sought }: { sought: Parameters<typeof soughtKey>[0] }) =>
					!('eventId' in sought) || Number(sought.eventId.split('-')[1]) <= served;
				putReads(
					lacking,
					new Map(lacking.filter(listed).map(({ sought }) => [soughtKey(sought), read])),
					TRIGGER_EVERY,
				);
			}
			rememberStates(scope, jsons);
			for (const { json } of latestStatePerContainer(items)) boardWrite(json, execution, servedAt);
		});
	}

	for (const hourly of history.hourly) {
		const servedAt = hourly.at + hourly.servedAfter;
		at(servedAt, () => {
			const got = gotContainer(stateAt(changes, servedAt), hourly.at, servedAt);
			const stateAsOf = evaluate(columnExpression('state_as_of'), {
				json: got,
				now: BASE + servedAt,
				hourly: { timestamp: new Date(BASE + hourly.at).toISOString() },
			}) as string | null;
			const columns = { state_as_of: stateAsOf, state: feeState(got) };
			at(servedAt + hourly.writeAfter, () => (row = writeRow(row, columns)));
		});
	}

	// Steps run in time order, and those of one moment in the order they were planned; a step may
	// plan steps after it.
	for (;;) {
		steps.sort((a, b) => a.at - b.at || a.order - b.order);
		const next = steps.shift();
		if (!next) break;
		next.run();
	}
	return row!;
}

/** Latest State per Container with Fetch Container When Missing: every container is read. */
const TRIGGER_EVERY =
	TRIGGER.parameters.output === 'latestState' &&
	(TRIGGER.parameters.options as IDataObject).fetchContainer === true;

const floorSecond = (ms: number) => Math.floor((BASE + ms) / 1000) * 1000 - BASE;

/** The state a board item holds: the fee that tells the states apart. */
function feeState(item: IDataObject): number {
	const byType = item.fees_by_type as Record<string, number> | null | undefined;
	return byType?.other ?? -1;
}

/**
 * What Container → Get (and each item of Get Many) gives for the box, asked at `askedAt` and
 * served with the service's state `state` at `servedAt`, as the board's nodes are set (Simplify
 * on).
 */
function gotContainer(state: number, askedAt: number, servedAt: number): IDataObject {
	return simplifyContainer(
		readContainerItem(containerRecord(state), indexIncluded([shipmentRecord]), {
			askedAt: new Date(BASE + askedAt),
			answeredAt: new Date(BASE + servedAt),
		}),
	);
}

// ---------------------------------------------------------------------------------------------
// Histories as n8n allows them.

const MAX_CHANGES = 5;
const timing = fc.record({
	startAfter: fc.integer({ min: 0, max: 3_000 }),
	askAfter: fc.integer({ min: 0, max: 1_500 }),
	servedAfter: fc.integer({ min: 0, max: 6_000 }),
	readFails: fc.boolean(),
	columnsAfter: fc.integer({ min: 0, max: 3_000 }),
	writeAfter: fc.integer({ min: 0, max: 3_000 }),
	getServedAfter: fc.integer({ min: 0, max: 3_000 }),
});

const history: fc.Arbitrary<History> = fc
	.record({
		changes: fc.array(
			fc.record({
				gap: fc.integer({ min: 1, max: 1_500 }),
				notifiedAfter: fc.integer({ min: 0, max: 1_200 }),
				available: fc.boolean(),
			}),
			{ minLength: 1, maxLength: MAX_CHANGES },
		),
		arrivals: fc.array(
			fc.record({
				first: fc.integer({ min: 0, max: 4_000 }),
				copy: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }),
			}),
			{ minLength: 2 * MAX_CHANGES, maxLength: 2 * MAX_CHANGES },
		),
		cuts: fc.array(fc.boolean(), { minLength: 4 * MAX_CHANGES, maxLength: 4 * MAX_CHANGES }),
		timings: fc.array(timing, { minLength: 4 * MAX_CHANGES, maxLength: 4 * MAX_CHANGES }),
		reruns: fc.array(fc.nat(), { maxLength: 2 }),
		hourly: fc.array(
			fc.record({
				at: fc.integer({ min: -2_000, max: 12_000 }),
				servedAfter: fc.integer({ min: 0, max: 8_000 }),
				writeAfter: fc.integer({ min: 0, max: 3_000 }),
			}),
			{ maxLength: 2 },
		),
	})
	.map(({ changes: drawn, arrivals: delays, cuts, timings, reruns, hourly }) => {
		let time = 0;
		const changes: Change[] = drawn.map(({ gap, notifiedAfter, available }) => {
			time += gap;
			return { at: time, notifiedAfter, available };
		});
		const notifications: Notification[] = changes.flatMap((change, index) => {
			const createdAt = BASE + floorSecond(change.at + change.notifiedAfter);
			return [
				{ change: index, kind: 'updated' as const, body: containerUpdated(index + 1, createdAt) },
				...(change.available
					? [
							{
								change: index,
								kind: 'available' as const,
								body: availableByReference(index + 1, createdAt),
							},
						]
					: []),
			];
		});
		const arrivals = notifications.map(({ change }, index) => {
			const made = changes[change].at + changes[change].notifiedAfter;
			const delay = delays[index];
			return {
				first: made + delay.first,
				...(delay.copy === undefined ? {} : { copy: made + delay.copy }),
			};
		});
		// Deliveries in the order they arrive (copies included), cut into batches: each batch one
		// execution, as deliveries that arrive together start one.
		const deliveries = arrivals
			.flatMap((arrival, index) => [
				{ index, at: arrival.first },
				...(arrival.copy === undefined ? [] : [{ index, at: arrival.copy }]),
			])
			.sort((a, b) => a.at - b.at);
		const batches: Array<{ notifications: number[]; last: number }> = [
			{ notifications: [], last: 0 },
		];
		deliveries.forEach((delivery, position) => {
			const batch = batches.at(-1)!;
			batch.notifications.push(delivery.index);
			batch.last = delivery.at;
			if (cuts[position % cuts.length] && position < deliveries.length - 1)
				batches.push({ notifications: [], last: 0 });
		});
		const executions: Execution[] = batches.map((batch, index) => {
			const own = timings[index % timings.length];
			// Started after its last delivery: `startAfter` counts from the first arrival of the
			// notification that came last, which a copy may follow.
			const latest = Math.max(...batch.notifications.map((entry) => arrivals[entry].first));
			return {
				...own,
				rerun: false,
				notifications: batch.notifications,
				startAfter: own.startAfter + batch.last - latest,
			};
		});
		// A notification whose run was cut runs again later, in an execution of its own.
		for (const [position, pick] of reruns.entries()) {
			const own = timings[(batches.length + position) % timings.length];
			executions.push({
				...own,
				rerun: true,
				notifications: [pick % notifications.length],
				startAfter: own.startAfter + 10_000,
			});
		}
		return { changes, notifications, arrivals, executions, hourly } satisfies History;
	});

describe('the newest state wins, in every order work can run in', () => {
	it('reads the rule from the Pickup board example', () => {
		expect(TRIGGER_EVERY).toBe(true);
		expect(outputOf('State carried')).toBe('Board columns');
		expect(outputOf('To read')).toBe('Get the container');
	});

	it("ends every generated history with the board's row on the box's last state", () => {
		let run = 0;
		fc.assert(
			fc.property(history, (generated) => {
				const row = replay(generated, `newest-state-${run++}:trigger`);
				expect(row.state).toBe(generated.changes.length);
			}),
			{ numRuns: 500 },
		);
	});
});

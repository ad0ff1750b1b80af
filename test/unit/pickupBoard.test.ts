/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the example workflows and runs a Code node of one */
// The Pickup board's two variants and its table, checked offline: the Google Sheets variant
// cannot reach Google here, so this is what keeps it the same board as the Data Table variant
// (test/e2e/pickupBoard.test.ts runs that one in a real n8n). Both write exactly the columns the
// setup workflow creates (scripts/lib/pickupBoardTable.mjs), matched on container_number, and
// both write a box's row only where it holds no newer state (docs/design/trigger.md, "The newest
// state wins"): the Sheets variant's Code node that decides it is run here on rows and items.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

import fc from 'fast-check';

import { importNative, repoRoot } from '../support/importNative';

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, unknown>;
	executeOnce?: boolean;
	alwaysOutputData?: boolean;
}
interface Workflow {
	id: string;
	name: string;
	nodes: Node[];
	connections: Record<string, unknown>;
}
interface Table {
	name: string;
	columns: Array<{ name: string; type: string }>;
}

const example = (file: string): Workflow =>
	JSON.parse(readFileSync(path.join(repoRoot, 'examples', file), 'utf8'));
const node = (workflow: Workflow, name: string): Node => {
	const found = workflow.nodes.find((entry) => entry.name === name);
	if (!found) throw new Error(`${workflow.id} has no node "${name}"`);
	return found;
};
const assignments = (workflow: Workflow) =>
	(
		node(workflow, 'Board columns').parameters.assignments as {
			assignments: Array<{ id: string; name: string; type: string; value: string }>;
		}
	).assignments;
/** Edit Fields' type of the value each table column type is written from. */
const SET_TYPE: Record<string, string> = {
	string: 'string',
	number: 'number',
	boolean: 'boolean',
	// An ISO timestamp, which the Data Table reads into its Date column.
	date: 'string',
};
/**
 * Everything but the nodes that write the rows (the first of `writers` is where Board columns'
 * items go), sticky notes, node ids and the webhook's id.
 */
const board = (workflow: Workflow, writers: string[]) => ({
	nodes: workflow.nodes
		.filter((entry) => !writers.includes(entry.name) && entry.type !== 'n8n-nodes-base.stickyNote')
		.map(({ name, type, typeVersion, parameters, credentials }) => ({
			name,
			type,
			typeVersion,
			// The assignments' ids are n8n's own; their names, types and values must match.
			parameters:
				name === 'Board columns'
					? assignments(workflow).map(({ name: column, type: kind, value }) => [
							column,
							kind,
							value,
						])
					: parameters,
			credentials,
		})),
	connections: JSON.stringify(
		Object.fromEntries(
			Object.entries(
				workflow.connections as Record<string, { main: Array<Array<{ node: string }>> }>,
			)
				.filter(([from]) => !writers.includes(from))
				.map(([from, { main }]) => [
					from,
					main.map((targets) => targets.filter(({ node: to }) => !writers.slice(1).includes(to))),
				]),
		),
	).replaceAll(writers[0], '<writer>'),
});

/** The Sheets variant's nodes after Board columns, the first where its items go on. */
const SHEETS_WRITERS = [
	'Wait for the read',
	'Read the board',
	'Keep if not newer',
	'Append or update the row',
];

describe('Pickup board examples', () => {
	const dataTable = example('pickup-board.json');
	const sheets = example('pickup-board-google-sheets.json');
	let table: Table;

	beforeAll(async () => {
		const lib = await importNative<{ pickupBoardTable(): Table }>(
			'scripts/lib/pickupBoardTable.mjs',
		);
		table = lib.pickupBoardTable();
	});

	it('the setup workflow makes a table n8n accepts, with the columns Board columns writes', () => {
		expect(table.name).toBe('Pickup board');
		// n8n 2.40's rule for column names (@n8n/api-types, data-table.schema), and no system column.
		for (const { name } of table.columns) {
			expect(name).toMatch(/^[a-zA-Z][a-zA-Z0-9_]*$/);
			expect(name.length).toBeLessThanOrEqual(63);
			expect(['id', 'createdat', 'updatedat']).not.toContain(name.toLowerCase());
		}
		expect(assignments(dataTable).map(({ name, type }) => ({ name, type: type }))).toEqual(
			table.columns.map(({ name, type }) => ({ name, type: SET_TYPE[type] })),
		);
		// A day at its facility stays text: a Date column would turn it into a UTC instant.
		expect(table.columns.find((column) => column.name === 'last_free_day')?.type).toBe('string');
	});

	it("the Sheets variant's header row to import (examples/pickup-board-header.csv) is the columns Board columns writes, in order", () => {
		const header = readFileSync(path.join(repoRoot, 'examples', 'pickup-board-header.csv'), 'utf8');
		expect(header.trim().split(',')).toEqual(assignments(sheets).map(({ name }) => name));
	});

	it('the Data Table variant upserts into that table, matched on container_number', () => {
		const upsert = node(dataTable, 'Upsert the row');
		expect(upsert.type).toBe('n8n-nodes-base.dataTable');
		expect(upsert.parameters).toMatchObject({
			resource: 'row',
			operation: 'upsert',
			dataTableId: { __rl: true, mode: 'name', value: table.name },
			filters: {
				conditions: [
					{
						keyName: 'container_number',
						condition: 'eq',
						keyValue: '={{ $json.container_number }}',
					},
				],
			},
			columns: { mappingMode: 'autoMapInputData' },
		});
	});

	it('the Data Table variant changes a row only where its state is not newer, in one step, and adds a missing one', () => {
		const write = node(dataTable, 'Write if not newer');
		expect(write.parameters).toMatchObject({
			resource: 'row',
			operation: 'update',
			dataTableId: { __rl: true, mode: 'name', value: table.name },
			matchType: 'allConditions',
			filters: {
				conditions: [
					{
						keyName: 'container_number',
						condition: 'eq',
						keyValue: '={{ $json.container_number }}',
					},
					{ keyName: 'state_as_of', condition: 'lte', keyValue: '={{ $json.state_as_of }}' },
				],
			},
			columns: { mappingMode: 'autoMapInputData' },
		});
		// Text, so that it compares in time order: one format only, UTC with milliseconds.
		expect(table.columns.find((column) => column.name === 'state_as_of')?.type).toBe('string');
		expect(node(dataTable, 'No row yet').parameters).toMatchObject({
			operation: 'rowNotExists',
			filters: {
				conditions: [{ keyName: 'container_number', keyValue: '={{ $json.container_number }}' }],
			},
		});
		expect(dataTable.connections['Board columns']).toEqual({
			main: [
				[
					{ node: 'Write if not newer', type: 'main', index: 0 },
					{ node: 'No row yet', type: 'main', index: 0 },
				],
			],
		});
		expect(dataTable.connections['No row yet']).toEqual({
			main: [[{ node: 'Upsert the row', type: 'main', index: 0 }]],
		});
	});

	it('the Google Sheets variant is the same workflow, writing the same columns', () => {
		expect(board(sheets, SHEETS_WRITERS)).toEqual(
			board(dataTable, ['Write if not newer', 'No row yet', 'Upsert the row']),
		);
		const write = node(sheets, 'Append or update the row');
		expect(write.type).toBe('n8n-nodes-base.googleSheets');
		expect(write.parameters).toMatchObject({
			resource: 'sheet',
			operation: 'appendOrUpdate',
			sheetName: { __rl: true, mode: 'name', value: table.name },
			columns: { mappingMode: 'autoMapInputData', matchingColumns: ['container_number'] },
		});
		const schema = (write.parameters.columns as { schema: Array<{ id: string }> }).schema;
		expect(schema.map((column) => column.id)).toEqual(table.columns.map((column) => column.name));
		// Append or Update Row reads and writes the range A:Z of the sheet (n8n-nodes-base 2.40,
		// GoogleSheets v2 appendOrUpdate): a 27th column would be out of its reach.
		expect(table.columns.length).toBeLessThanOrEqual(26);
	});

	it('the Google Sheets variant reads the tab once per execution, then writes only what it keeps', () => {
		const write = node(sheets, 'Append or update the row');
		const read = node(sheets, 'Read the board');
		// Get Row(s) in Sheet of every row (no filter) of the tab the writer writes, with the same
		// credential and document to pick. Execute Once: n8n-nodes-base's read runs once per input
		// item from version 4.2 on; Always Output Data: an empty tab gives no item, which would stop
		// the items of a board with no row yet.
		expect(read.type).toBe(write.type);
		expect(read.typeVersion).toBe(write.typeVersion);
		expect(read.parameters).toEqual({
			authentication: write.parameters.authentication,
			resource: 'sheet',
			operation: 'read',
			documentId: write.parameters.documentId,
			sheetName: write.parameters.sheetName,
			options: {},
		});
		expect(read.credentials).toEqual(write.credentials);
		expect(read).toMatchObject({ executeOnce: true, alwaysOutputData: true });
		// Merge → Choose Branch: waits for both inputs and hands on Board columns' items (input 1),
		// each paired with its own, so Keep if not newer runs after the read, on those items.
		expect(node(sheets, 'Wait for the read')).toMatchObject({
			type: 'n8n-nodes-base.merge',
			parameters: { mode: 'chooseBranch', useDataOfInput: 1 },
		});
		expect(node(sheets, 'Keep if not newer')).toMatchObject({
			type: 'n8n-nodes-base.code',
			parameters: { jsCode: expect.any(String) },
		});
		// Run Once for All Items: n8n's default, which n8n leaves out of the saved workflow.
		expect(node(sheets, 'Keep if not newer').parameters.mode ?? 'runOnceForAllItems').toBe(
			'runOnceForAllItems',
		);
		const to = (name: string, index = 0) => ({ node: name, type: 'main', index });
		expect(
			Object.fromEntries(SHEETS_WRITERS.map((name) => [name, sheets.connections[name]])),
		).toEqual({
			'Wait for the read': { main: [[to('Keep if not newer')]] },
			'Read the board': { main: [[to('Wait for the read', 1)]] },
			'Keep if not newer': { main: [[to('Append or update the row')]] },
			'Append or update the row': undefined,
		});
		expect(sheets.connections['Board columns']).toEqual({
			main: [[to('Wait for the read'), to('Read the board')]],
		});
		// The writer is Append or Update Row as before, with its options left as n8n's.
		expect(write.parameters.options).toEqual({});
	});

	it('the charge columns come from Get Charges with the Data Table Tariff, read once per run, and no call per box', () => {
		const to = (name: string, index = 0) => ({ node: name, type: 'main', index });
		for (const tariff of ['Tariff', 'Tariff (on a change)'])
			expect(node(dataTable, tariff)).toMatchObject({
				type: 'n8n-nodes-base.dataTable',
				parameters: {
					operation: 'get',
					dataTableId: { __rl: true, mode: 'name', value: 'Tariff' },
					returnAll: true,
				},
				// Once per execution; a missing table or an empty one still lets the board be written.
				executeOnce: true,
				alwaysOutputData: true,
				onError: 'continueRegularOutput',
			});
		// Every hour: the table, then every container whole (Simplify off), once, so that Charges
		// takes each box from its input item and calls the service for none.
		expect(dataTable.connections['Every hour']).toEqual({ main: [[to('Tariff')]] });
		expect(dataTable.connections['Tariff']).toEqual({ main: [[to('Get all containers')]] });
		expect(node(dataTable, 'Get all containers')).toMatchObject({
			executeOnce: true,
			parameters: { operation: 'getMany', returnAll: true, simplify: false },
		});
		const charges = (name: string, source: string, tariff: string) =>
			expect(node(dataTable, name)).toMatchObject({
				onError: 'continueRegularOutput',
				parameters: {
					operation: 'getCharges',
					containerSource: source,
					tariffSource: 'input',
					tariffRowsInput: expect.stringContaining(`$('${tariff}').all()`),
				},
			});
		charges('Charges', 'input', 'Tariff');
		// On a change too: the trigger gives each container whole (Simplify off), so Charges takes
		// it from its input item, with no call of its own.
		charges('Charges (on a change)', 'input', 'Tariff (on a change)');
		expect(
			dataTable.nodes.find((entry) => entry.type.endsWith('containerTrackingTrigger'))!.parameters,
		).toMatchObject({ output: 'latestState', simplify: false, options: { fetchContainer: true } });
		// Each box's charges beside the box, by position, the box's own fields kept.
		for (const [from, merge, next] of [
			['Get all containers', 'Add the charges', 'Board columns'],
			['Wait for the tariff', 'Add the charges (on a change)', 'State carried?'],
		]) {
			const source = from === 'Get all containers' ? 'Charges' : 'Charges (on a change)';
			expect(dataTable.connections[from]).toEqual({ main: [[to(source), to(merge)]] });
			expect(dataTable.connections[source]).toEqual({ main: [[to(merge, 1)]] });
			expect(dataTable.connections[merge]).toEqual({ main: [[to(next)]] });
			expect(node(dataTable, merge).parameters).toMatchObject({
				mode: 'combine',
				combineBy: 'combineByPosition',
				options: { clashHandling: { values: { resolveClash: 'preferInput1' } } },
			});
		}
		expect(assignments(dataTable).map(({ name }) => name)).toEqual(
			expect.arrayContaining([
				'charges_status',
				'charges_so_far',
				'charges_currency',
				'one_more_day_costs',
			]),
		);
	});

	it('each variant has its own workflow id and its own fixed webhook', () => {
		const trigger = (workflow: Workflow) =>
			workflow.nodes.find((entry) => entry.type.endsWith('containerTrackingTrigger'))!;
		expect(dataTable.id).toBe('ctPickupBoard');
		expect(trigger(dataTable).webhookId).toBe('c2f1d7e4-8a3b-4c59-b6d0-2e9f4a7c1b83');
		expect(sheets.id).not.toBe(dataTable.id);
		expect(trigger(sheets).webhookId).toMatch(/^[0-9a-f-]{36}$/);
		expect(trigger(sheets).webhookId).not.toBe(trigger(dataTable).webhookId);
	});
});

describe('Keep if not newer (the Google Sheets variant), run as n8n runs it', () => {
	const sheets = example('pickup-board-google-sheets.json');
	const code = String(node(sheets, 'Keep if not newer').parameters.jsCode);
	const columns = assignments(sheets).map(({ name }) => name);

	type Json = Record<string, unknown>;
	interface Out {
		json: Json;
		pairedItem: { item: number };
	}

	/**
	 * The Code node, Run Once for All Items, as n8n's task runner runs it (@n8n/task-runner,
	 * js-task-runner: the code is the body of an async function whose result is the items): its
	 * input is Board columns' items (through Wait for the read), and Read the board's items are
	 * the tab's rows.
	 */
	async function keep(items: Json[], rows: Json[]): Promise<Out[]> {
		const all = (list: Json[]) => ({ all: () => list.map((json) => ({ json })) });
		const context = vm.createContext({
			module: { exports: {} },
			$input: all(items),
			$: (name: string) => {
				if (name === 'Read the board') return all(rows);
				throw new Error(`Keep if not newer reads no node "${name}"`);
			},
		});
		return (await vm.runInContext(
			`module.exports = async function VmCodeWrapper() {${code}\n}()`,
			context,
		)) as Out[];
	}

	/** An item of Board columns: every column, as it writes them. */
	const item = (container: string, stateAsOf: string): Json => ({
		...Object.fromEntries(columns.map((column) => [column, `${column} of ${container}`])),
		days_left: 3,
		ready_for_pickup: true,
		container_number: container,
		state_as_of: stateAsOf,
	});
	/** A row as Get Row(s) in Sheet gives it: the header's columns and row_number. */
	const row = (container: string, stateAsOf?: string, rowNumber = 2): Json => ({
		row_number: rowNumber,
		...Object.fromEntries(columns.map((column) => [column, `old ${column}`])),
		container_number: container,
		state_as_of: stateAsOf,
	});
	const kept = async (items: Json[], rows: Json[]) =>
		(await keep(items, rows)).map(({ json }) => json.container_number);

	const T = '2026-12-07T10:00:05.123Z';
	const EARLIER = '2026-12-07T10:00:05.122Z';
	const LATER = '2026-12-07T10:00:05.124Z';
	const BOX = 'MSCU1234566';
	const OTHER = 'TGHU9876547';

	it('keeps a box with no row yet, on an empty tab (Always Output Data: one empty item) and beside other rows', async () => {
		expect(await kept([item(BOX, T)], [{}])).toEqual([BOX]);
		expect(await kept([item(BOX, T)], [row(OTHER, LATER)])).toEqual([BOX]);
	});

	it('keeps a box whose row is older or equal, drops one whose row is newer', async () => {
		expect(await kept([item(BOX, T)], [row(BOX, EARLIER)])).toEqual([BOX]);
		expect(await kept([item(BOX, T)], [row(BOX, T)])).toEqual([BOX]);
		expect(await kept([item(BOX, T)], [row(BOX, LATER)])).toEqual([]);
		// A day, not a millisecond: text order is time order in this one format.
		expect(await kept([item(BOX, '2026-12-09T00:00:00.000Z')], [row(BOX, T)])).toEqual([BOX]);
		expect(await kept([item(BOX, '2026-11-30T23:59:59.999Z')], [row(BOX, T)])).toEqual([]);
	});

	it("keeps a box whose row has no state_as_of, or one not in the board's format", async () => {
		expect(await kept([item(BOX, T)], [row(BOX, '')])).toEqual([BOX]);
		expect(await kept([item(BOX, T)], [row(BOX)])).toEqual([BOX]);
		const withoutColumn = row(BOX, LATER);
		delete withoutColumn.state_as_of;
		expect(await kept([item(BOX, T)], [withoutColumn])).toEqual([BOX]);
		// A cell Sheets shows as a date (typed over by hand, say) is written over, not kept forever.
		expect(await kept([item(BOX, T)], [row(BOX, '12/9/2026 10:00:05')])).toEqual([BOX]);
	});

	it("hands on exactly Board columns' items, each paired with its own input", async () => {
		const items = [item(BOX, T), item(OTHER, T)];
		const out = await keep(items, [row(BOX, EARLIER, 2), row(OTHER, EARLIER, 3)]);
		expect(out.map(({ json }) => Object.keys(json).sort())).toEqual([
			[...columns].sort(),
			[...columns].sort(),
		]);
		expect(out.map(({ json }) => json)).toEqual(items);
		expect(out.map(({ pairedItem }) => pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('empties a cell whose column has no value now (Append or Update keeps a cell where the item holds null)', async () => {
		// The charges could be worked out an hour ago; the tariff row is gone now.
		const noCharges = {
			...item(BOX, T),
			charges_so_far: null,
			charges_currency: null,
			one_more_day_costs: null,
			fees_demurrage: null,
		};
		const [out] = await keep([noCharges], [row(BOX, EARLIER)]);
		expect(out.json).toEqual({
			...noCharges,
			charges_so_far: '',
			charges_currency: '',
			one_more_day_costs: '',
			fees_demurrage: '',
		});
		// A value that is there is written as it is: false and 0 too.
		const [kept0] = await keep([{ ...item(BOX, T), days_left: 0, ready_for_pickup: false }], []);
		expect(kept0.json).toMatchObject({ days_left: 0, ready_for_pickup: false });
	});

	it('decides each box of one execution on its own row: one dropped, one kept', async () => {
		const out = await keep(
			[item(BOX, T), item(OTHER, T)],
			[row(BOX, LATER, 2), row(OTHER, EARLIER, 3)],
		);
		expect(out.map(({ json, pairedItem }) => [json.container_number, pairedItem.item])).toEqual([
			[OTHER, 1],
		]);
	});

	it('compares with the first of two rows of one box, the one Append or Update Row writes', async () => {
		expect(await kept([item(BOX, T)], [row(BOX, EARLIER, 2), row(BOX, LATER, 3)])).toEqual([BOX]);
		expect(await kept([item(BOX, T)], [row(BOX, LATER, 2), row(BOX, EARLIER, 3)])).toEqual([]);
	});

	it('keeps an item exactly when its box has no row, a row without state_as_of, or one not newer (generated)', async () => {
		const boxes = ['MSCU1234566', 'TGHU9876547', 'MAEU6123458', 'CMAU1234560'];
		// A few milliseconds apart, so that equal times are common.
		const time = fc
			.integer({ min: 0, max: 4 })
			.map((ms) => new Date(Date.UTC(2026, 11, 7, 10, 0, 5, 120 + ms)).toISOString());
		const rowState = fc.option(fc.oneof(time, fc.constant('')), { nil: undefined });
		await fc.assert(
			fc.asyncProperty(
				fc.shuffledSubarray(boxes, { minLength: 1 }).chain((itemBoxes) =>
					fc.record({
						items: fc.tuple(...itemBoxes.map((box) => time.map((asOf) => item(box, asOf)))),
						rows: fc
							.shuffledSubarray(boxes)
							.chain((rowBoxes) =>
								fc.tuple(...rowBoxes.map((box) => rowState.map((asOf) => row(box, asOf)))),
							),
					}),
				),
				async ({ items, rows }) => {
					const out = await keep(items, rows.length ? rows : [{}]);
					const expected = items
						.map((json, index) => ({ json, pairedItem: { item: index } }))
						.filter(({ json }) => {
							const found = rows.find((each) => each.container_number === json.container_number);
							return (
								!found ||
								!found.state_as_of ||
								String(found.state_as_of) <= String(json.state_as_of)
							);
						});
					expect(out).toEqual(expected);
				},
			),
			{ numRuns: 500 },
		);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the example workflows */
// The Pickup board's two variants and its table, checked offline: the Google Sheets variant
// cannot reach Google here, so this is what keeps it the same board as the Data Table variant
// (test/e2e/pickupBoard.test.ts runs that one in a real n8n). Both write exactly the columns the
// setup workflow creates (scripts/lib/pickupBoardTable.mjs), matched on container_number.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { importNative, repoRoot } from '../support/importNative';

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, unknown>;
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
		expect(board(sheets, ['Append or update the row'])).toEqual(
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

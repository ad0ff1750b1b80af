// The Pickup board's n8n Data Table (examples/README.md, section 2). Its name and columns are
// written once, in the setup workflow examples/pickup-board-table.json, which people import and
// run themselves; `npm start` and test/e2e/pickupBoard.test.ts run that same workflow, and
// test/unit/pickupBoard.test.ts keeps both board workflows' columns equal to it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { dataTableByName, repoRoot, runWorkflowByHand } from './n8n.mjs';

export const PICKUP_BOARD_SETUP = {
	file: path.join(repoRoot, 'examples', 'pickup-board-table.json'),
	id: 'ctPickupBoardTable',
	trigger: 'Create it once',
};

/** The table's name and its columns (`{ name, type }`, in order) as the setup workflow makes them. */
export function pickupBoardTable() {
	const workflow = JSON.parse(readFileSync(PICKUP_BOARD_SETUP.file, 'utf8'));
	const node = workflow.nodes.find((entry) => entry.type === 'n8n-nodes-base.dataTable');
	return {
		name: node.parameters.tableName,
		columns: node.parameters.columns.column.map(({ name, type }) => ({ name, type })),
	};
}

/**
 * Runs the imported setup workflow in a running n8n as the user of `cookie`, as a person clicking
 * *Execute workflow* does, and returns the table and its project.
 */
export async function createPickupBoardTable(baseUrl, cookie) {
	await runWorkflowByHand(baseUrl, cookie, PICKUP_BOARD_SETUP.id, PICKUP_BOARD_SETUP.trigger);
	const { name } = pickupBoardTable();
	const { projectId, table } = await dataTableByName(baseUrl, cookie, name);
	if (!table) throw new Error(`the setup workflow ran but n8n has no data table "${name}"`);
	return { projectId, table };
}

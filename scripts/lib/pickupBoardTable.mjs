// The Pickup board's n8n Data Table (examples/README.md, section 2). Its name and columns are
// written once, in the setup workflow examples/pickup-board-table.json, which people import and
// run themselves; `npm start` and test/e2e/pickupBoard.test.ts run that same workflow, and
// test/unit/pickupBoard.test.ts keeps both board workflows' columns equal to it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from './n8n.mjs';

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

async function rest(baseUrl, cookie, method, pathname, body) {
	const response = await fetch(`${baseUrl}/rest${pathname}`, {
		method,
		headers: { Cookie: cookie, 'Content-Type': 'application/json', 'browser-id': 'ct-setup' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /rest${pathname}: ${response.status} ${text}`);
	return JSON.parse(text).data;
}

/**
 * Runs the imported setup workflow in a running n8n as the user of `cookie`, as a person clicking
 * *Execute workflow* does, and returns the table and its project. Not `n8n execute`: the CLI does
 * not load n8n's data table module (the node fails with "the module is disabled").
 */
export async function createPickupBoardTable(baseUrl, cookie) {
	const { executionId } = await rest(
		baseUrl,
		cookie,
		'POST',
		`/workflows/${PICKUP_BOARD_SETUP.id}/run`,
		{ triggerToStartFrom: { name: PICKUP_BOARD_SETUP.trigger } },
	);
	const deadline = Date.now() + 60_000;
	for (;;) {
		const execution = await rest(baseUrl, cookie, 'GET', `/executions/${executionId}`);
		if (execution.status === 'success') break;
		if (execution.finished === false && execution.stoppedAt)
			throw new Error(`the setup workflow ${PICKUP_BOARD_SETUP.id} ended ${execution.status}`);
		if (Date.now() > deadline)
			throw new Error(`the setup workflow ${PICKUP_BOARD_SETUP.id} did not finish within 60 s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	const project = await rest(baseUrl, cookie, 'GET', '/projects/personal');
	const { name } = pickupBoardTable();
	const filter = encodeURIComponent(JSON.stringify({ name }));
	const tables = await rest(
		baseUrl,
		cookie,
		'GET',
		`/projects/${project.id}/data-tables?filter=${filter}`,
	);
	const table = tables.data.find((entry) => entry.name === name);
	if (!table) throw new Error(`the setup workflow ran but n8n has no data table "${name}"`);
	return { projectId: project.id, table };
}

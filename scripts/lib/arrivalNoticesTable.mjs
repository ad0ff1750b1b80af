// The "Arrival moved" example's Data Table (examples/README.md, "Arrival moved"): the setup
// workflow examples/arrival-notices-table.json makes it, as people run it themselves; `npm start`
// and test/e2e/arrivalMoved.test.ts run that same workflow.
import { dataTableByName, restCall, runWorkflowByHand } from './n8n.mjs';

export const ARRIVAL_NOTICES_SETUP = { id: 'ctArrivalNoticesTable', trigger: 'Create it once' };
export const ARRIVAL_NOTICES_TABLE = 'Arrival notices';

/**
 * Runs the imported setup workflow (`workflowId`: the id n8n gave it) as a person clicking
 * *Execute workflow* does; returns the table's rows path, for reading what was recorded.
 */
export async function createArrivalNoticesTable(
	baseUrl,
	cookie,
	{ workflowId = ARRIVAL_NOTICES_SETUP.id } = {},
) {
	await runWorkflowByHand(baseUrl, cookie, workflowId, ARRIVAL_NOTICES_SETUP.trigger);
	const { projectId, table } = await dataTableByName(baseUrl, cookie, ARRIVAL_NOTICES_TABLE);
	if (!table)
		throw new Error(`the setup workflow ran but n8n has no data table "${ARRIVAL_NOTICES_TABLE}"`);
	return `/projects/${projectId}/data-tables/${table.id}`;
}

/** Every row of the table at `tablePath` (what createArrivalNoticesTable returned). */
export async function arrivalNoticeRows(baseUrl, cookie, tablePath) {
	return (await restCall(baseUrl, cookie, 'GET', `${tablePath}/rows?take=1000`)).data;
}

// The Money at risk example's Data Table (docs/charges.md, "Money at risk"): the setup workflow
// examples/tariff-table.json makes it with a few example rates, as people run it themselves;
// `npm start` runs that same workflow.
import { dataTableByName, restCall, runWorkflowByHand } from './n8n.mjs';

export const TARIFF_SETUP = { id: 'ctTariffTable', trigger: 'Create it once' };
export const TARIFF_TABLE = 'Tariff';

/**
 * Runs the imported setup workflow (`workflowId`: the id n8n gave it) as a person clicking
 * *Execute workflow* does, and returns every row of the table.
 */
export async function createTariffTable(baseUrl, cookie, { workflowId = TARIFF_SETUP.id } = {}) {
	await runWorkflowByHand(baseUrl, cookie, workflowId, TARIFF_SETUP.trigger);
	const { projectId, table } = await dataTableByName(baseUrl, cookie, TARIFF_TABLE);
	if (!table) throw new Error(`the setup workflow ran but n8n has no data table "${TARIFF_TABLE}"`);
	return (
		await restCall(
			baseUrl,
			cookie,
			'GET',
			`/projects/${projectId}/data-tables/${table.id}/rows?take=1000`,
		)
	).data;
}

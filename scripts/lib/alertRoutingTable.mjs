// The hold alerts' and the digest's routing table (examples/README.md, section 5): the setup
// workflow examples/alert-routing-table.json makes it with its default row, as people run it
// themselves; `npm start` and test/e2e/routing.test.ts run that same workflow, then add rows as a
// person does in the table.
import { dataTableByName, restCall, runWorkflowByHand } from './n8n.mjs';

export const ALERT_ROUTING_SETUP = { id: 'ctAlertRoutingTable', trigger: 'Create it once' };
export const ALERT_ROUTING_TABLE = 'Alert routing';

/**
 * Runs the imported setup workflow (`workflowId`: the id n8n gave it) as a person clicking
 * *Execute workflow* does, adds `rows` (`{customer, tag, email_to, slack_channel}`), and returns
 * every row of the table.
 */
export async function createAlertRoutingTable(
	baseUrl,
	cookie,
	{ workflowId = ALERT_ROUTING_SETUP.id, rows = [] } = {},
) {
	await runWorkflowByHand(baseUrl, cookie, workflowId, ALERT_ROUTING_SETUP.trigger);
	const rest = (method, pathname, body) => restCall(baseUrl, cookie, method, pathname, body);
	const { projectId, table } = await dataTableByName(baseUrl, cookie, ALERT_ROUTING_TABLE);
	if (!table)
		throw new Error(`the setup workflow ran but n8n has no data table "${ALERT_ROUTING_TABLE}"`);
	const tablePath = `/projects/${projectId}/data-tables/${table.id}`;
	if (rows.length > 0) await rest('POST', `${tablePath}/insert`, { data: rows });
	return (await rest('GET', `${tablePath}/rows?take=1000`)).data;
}

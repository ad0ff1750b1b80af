// What `npm start` (scripts/start.mjs) signs in with, publishes and prints once everything runs:
// here, so that test/unit/demoPrintout.test.ts holds README's quote of it to the same text.

/** The demo's n8n owner: the login the summary prints. */
export const DEMO_OWNER = {
	email: 'demo@example.com',
	password: 'Demo-password-1',
	firstName: 'Demo',
	lastName: 'Dispatcher',
};
/** The sandbox's API key in the demo. */
export const DEMO_API_KEY = 'sandbox-key';
/** The mailbox Track from email reads, and its login: the demo's, on 127.0.0.1 only. */
export const DEMO_ARRIVALS = { user: 'arrivals@example.com', password: 'Arrivals-password-1' };

/**
 * The Container desk over MCP (examples/container-desk-mcp.json): its Bearer Auth credential, as
 * the example's trigger names it, with the demo's token (a fixed one, as the login is: the demo
 * listens on 127.0.0.1 only). An MCP client sends it as `Authorization: Bearer <token>`.
 */
export const DEMO_DESK = {
	id: 'ctDeskBearer',
	name: 'Container desk token',
	token: 'demo-desk-token',
};

/**
 * Where an MCP client reaches the Container desk: n8n serves an MCP Server Trigger under `/mcp/`
 * (N8N_ENDPOINT_MCP), at the trigger's Path, in the example `workflows`.
 */
export function deskUrl(n8nUrl, workflows) {
	const trigger = workflows
		.flatMap((workflow) => workflow.nodes)
		.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
	if (!trigger) throw new Error('no example workflow has an MCP Server Trigger');
	return `${n8nUrl}/mcp/${trigger.parameters.path}`;
}

/** Published only when the demo has its mailbox: the Email Trigger needs an IMAP server. */
export const TRACK_FROM_EMAIL = { id: 'ctTrackFromEmail', name: 'Track from email' };

/**
 * Imported, never published: the Slack variant of the hold alerts needs a Slack credential and
 * channel of the user's own, the Google Sheets variant of the Pickup board a Google account and
 * sheet, the Ask in chat examples a chat model's credential (and Ask in Slack a Slack app) of the
 * user's own (examples/README.md).
 */
const UNPUBLISHED_EXAMPLES = new Set([
	'ctHoldAlertsSlack',
	'ctPickupBoardGoogleSheets',
	'ctAskInChat',
	'ctAskInChatSlack',
]);

/**
 * Whether the demo publishes the example `workflow`: each that starts on its own (a trigger other
 * than the manual one) but the variants above; Track from email, whose Email Trigger is no
 * trigger by its type's name, when the demo has its `mailbox`.
 */
export function publishes(workflow, { mailbox }) {
	if (workflow.id === TRACK_FROM_EMAIL.id) return mailbox;
	return (
		!UNPUBLISHED_EXAMPLES.has(workflow.id) &&
		workflow.nodes.some(
			(node) => node.type.endsWith('Trigger') && !node.type.includes('manualTrigger'),
		)
	);
}

/** The sandbox mails its arrival notice this long after the mailbox is watched. */
export const NOTICE_AFTER_SECONDS = 30;
/** The digest's own trigger fires at 7 in the morning; the demo sends one this long after start. */
export const DIGEST_AFTER_SECONDS = 120;

/**
 * The lines `npm start` prints once the demo runs: where each part is and what to sign in with
 * (README "Try it without an account" says what happens next). `imap` is undefined when the demo
 * has no mailbox; `desk` is the MCP server's address and token.
 */
export function demoSummary({ n8nUrl, owner, published, mail, imap, desk }) {
	const arrivals = imap
		? `IMAP ${imap.host}:${imap.port}, ${imap.user} / ${imap.password}`
		: 'no IMAP mailbox: Track from email is not published';
	return `
Container tracking demo is running.

  n8n editor    ${n8nUrl}
  login         ${owner.email} / ${owner.password}
  published     ${published.join(', ')}
  mail inbox    ${mail.webUrl}
  arrivals      ${arrivals}
  MCP server    ${desk.url}
  MCP token     ${desk.token}

Press Ctrl-C to stop everything.
`;
}

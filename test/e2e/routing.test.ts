// Every alert reaches the person who acts on it (examples/README.md, "Routing"): in a real n8n,
// the routing table made by examples/alert-routing-table.json, with rows for two of three
// customers and a tag, routes the hold alerts (examples/hold-alerts.json) and the last free day
// digest (examples/last-free-day-digest.json). A burst of customs holds on boxes of all three
// customers, of a tagged box and of a box without a customer: each alert reaches exactly its
// rows' recipients (or the default row's), once, naming customer, bill of lading and references;
// the digest sends each recipient one email with only its boxes.
import { DateTime } from 'luxon';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import type { Resource } from '../../sandbox/world/store';
import { byClock, generous } from '../support/bounds';
import { importNative } from '../support/importNative';
import { eventually, trackManyContainers } from '../support/sandbox';
import {
	ACTIVATION_QUIET_MS,
	EXECUTION_QUIET_MS,
	N8N_START_QUIET_MS,
	n8nLib,
	SETUP_TIMEOUT,
	sleep,
	startMailServer,
	startWithExamples,
	TEARDOWN_TIMEOUT,
	type E2eContext,
	type MailServer,
	type ReceivedMail,
} from './helpers';

interface AlertRoutingLib {
	ALERT_ROUTING_SETUP: { id: string; trigger: string };
	createAlertRoutingTable(
		baseUrl: string,
		cookie: string,
		options: { workflowId?: string; rows?: Array<Record<string, string>> },
	): Promise<Array<Record<string, unknown>>>;
}
const HOLD_ALERTS = { id: 'ctHoldAlerts', webhookId: '7b0e6a52-3c1d-4e8f-9a47-1d2c3b4a5e61' };
const DIGEST = { id: 'ctLastFreeDayDigest', trigger: 'Send the digest now' };
/** The default row examples/alert-routing-table.json writes. */
const DEFAULT_TO = 'dispatch@example.com';
/** The mail server has a message a moment after n8n sent it. */
const MAIL_READ_QUIET_MS = 500;
/** Starting n8n and its webhook; then seven alerts and a digest, a few executions each. */
const TEST_TIMEOUT = generous(N8N_START_QUIET_MS + ACTIVATION_QUIET_MS + 4 * EXECUTION_QUIET_MS);

const ACME = 'Acme Imports';
const BLUE = 'Blue Harbor Foods';
/** Named at the service, in no row of the table. */
const GLOBEX = 'Globex Retail, Inc.';
/** The routing rows a user adds after the setup workflow made the table and its default row. */
const ROWS = [
	{ customer: ACME, tag: '', email_to: 'buyer@acme.example, ops@acme.example', slack_channel: '' },
	{ customer: BLUE, tag: '', email_to: 'imports@blueharbor.example', slack_channel: '' },
	{ customer: '', tag: 'reefer', email_to: 'reefers@example.com', slack_channel: '' },
];

/** Each box: whose it is at the service, and who must get its alert. */
const BOXES = [
	{ customer: ACME, tags: [], to: ['buyer@acme.example', 'ops@acme.example'] },
	{
		customer: ACME,
		tags: ['reefer'],
		to: ['buyer@acme.example', 'ops@acme.example', 'reefers@example.com'],
	},
	{ customer: BLUE, tags: [], to: ['imports@blueharbor.example'] },
	{ customer: BLUE, tags: [], to: ['imports@blueharbor.example'] },
	{ customer: GLOBEX, tags: [], to: [DEFAULT_TO] },
	{ customer: GLOBEX, tags: ['Reefer'], to: ['reefers@example.com'] },
	{ customer: null, tags: [], to: [DEFAULT_TO] },
].map((box, index) => ({
	...box,
	number: withCheckDigit(`MSCU${String(640_100 + index * 7)}`),
	// References as people type them: spaces and dashes.
	refs: [`PO ${4410 + index}-B`],
}));

describe('e2e: alerts and digests routed by customer and tag in a real n8n', () => {
	let ctx: E2eContext;
	let mail: MailServer;
	let n8n: { url: string; cookie: string; log(): string };
	/** Each box's container and the bill of lading the service gave its shipment. */
	const tracked = new Map<string, { container: Resource; billOfLading: string }>();

	const addresses = (message: ReceivedMail) => message.to.map((address) => address.address).sort();
	const holdAlerts = () =>
		mail.messages.filter((message) => / hold placed on /.test(message.subject));

	beforeAll(async () => {
		mail = await startMailServer();
		({ ctx, n8n } = await startWithExamples(
			mail,
			['alert-routing-table.json', 'hold-alerts.json', 'last-free-day-digest.json'],
			HOLD_ALERTS,
		));

		// The table as examples/README.md says to make it: run the setup workflow, add the rows.
		const lib = await importNative<AlertRoutingLib>('scripts/lib/alertRoutingTable.mjs');
		const rows = await lib.createAlertRoutingTable(n8n.url, n8n.cookie, {
			workflowId: ctx.workflowId(lib.ALERT_ROUTING_SETUP.id),
			rows: ROWS,
		});
		expect(rows).toEqual(
			expect.arrayContaining([expect.objectContaining({ customer: '*', email_to: DEFAULT_TO })]),
		);
		expect(rows).toHaveLength(ROWS.length + 1);

		// The boxes, each named for its customer, references and tags at the service.
		const store = ctx.handle.sandbox.world.store;
		await trackManyContainers(
			ctx.handle,
			BOXES.map((box) => box.number),
			'MSCU',
		);
		for (const box of BOXES) {
			const container = store
				.list('container')
				.find((record) => record.attributes.number === box.number)!;
			const shipment = store.related(container, 'shipment')[0];
			const named = await ctx.handle.control.patch(`/shipments/${shipment.id}`, {
				customer_name: box.customer,
				ref_numbers: box.refs,
				tags: box.tags,
			});
			expect(named.status).toBe(200);
			tracked.set(box.number, {
				container,
				billOfLading: String(shipment.attributes.bill_of_lading_number),
			});
		}
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
	}, TEARDOWN_TIMEOUT);

	it(
		'a burst of customs holds: each alert reaches exactly its customer’s or tag’s recipients, or the default, once, naming whose box it is',
		async () => {
			// A last free day today for each box (a change of no hold: no alert), for the digest below.
			for (const { container } of tracked.values()) {
				const zone = String(container.attributes.pod_timezone);
				const changed = await ctx.handle.control.post(`/containers/${container.id}/changes`, {
					kind: 'set_last_free_day',
					source: 'line',
					date: DateTime.now().setZone(zone).toISODate(),
				});
				expect(changed.status).toBe(200);
			}
			await Promise.all(
				[...tracked.values()].map(async ({ container }) => {
					const placed = await ctx.handle.control.post(`/containers/${container.id}/changes`, {
						kind: 'place_hold',
						name: 'customs',
						status: 'hold',
					});
					expect(placed.status).toBe(200);
				}),
			);
			await eventually(async () => (holdAlerts().length >= BOXES.length ? true : undefined), {
				timeoutMs: byClock(1_000) + generous(2 * EXECUTION_QUIET_MS),
				intervalMs: 250,
				what: `${BOXES.length} hold alerts`,
			}).catch((error: Error) => {
				throw new Error(`${error.message}\nn8n's log:\n${n8n.log().slice(-6000)}`);
			});
			// Once each: nothing more follows.
			await sleep(generous(MAIL_READ_QUIET_MS));
			expect(holdAlerts()).toHaveLength(BOXES.length);

			for (const box of BOXES) {
				const { billOfLading } = tracked.get(box.number)!;
				const alerts = holdAlerts().filter((message) => message.subject.includes(box.number));
				expect(alerts).toHaveLength(1);
				const [alert] = alerts;
				expect(addresses(alert)).toEqual([...box.to].sort());
				const whose = `${box.customer ?? 'no customer'} · BL ${billOfLading} · ref ${box.refs.join(', ')}`;
				expect(alert.subject).toBe(`Customs hold placed on ${box.number} (${whose})`);
				const lines = String(alert.text).split('\n');
				expect(lines[0]).toContain(
					`for ${box.customer ?? 'no named customer'}, bill of lading ${billOfLading}, references ${box.refs.join(', ')}.`,
				);
				// Sent to the default: the alert says why, so that someone adds the row.
				const routing = lines.find((line) => line.startsWith('Routing: '));
				if (box.to.includes(DEFAULT_TO))
					expect(routing).toBe(
						`Routing: No routing row for ${box.customer ? `customer "${box.customer}"` : 'a box without a customer'}: sent to the default row`,
					);
				else expect(routing).toBeUndefined();
			}
		},
		TEST_TIMEOUT,
	);

	it(
		'the digest sends each recipient one email with only its boxes',
		async () => {
			const before = mail.messages.length;
			const lib = await n8nLib();
			await lib.runWorkflowByHand(n8n.url, n8n.cookie, ctx.workflowId(DIGEST.id), DIGEST.trigger);
			await sleep(generous(MAIL_READ_QUIET_MS));
			const digests = mail.messages.slice(before);
			const expected = new Map<string, string[]>();
			for (const box of BOXES)
				for (const to of box.to) expected.set(to, [...(expected.get(to) ?? []), box.number]);
			// One email per recipient, each to that recipient alone.
			expect(digests.map((message) => addresses(message).join()).sort()).toEqual(
				[...expected.keys()].sort(),
			);
			for (const message of digests) {
				const [to] = addresses(message);
				const numbers = [...String(message.html).matchAll(/<tr><td>([A-Z]{4}\d{7})<\/td>/g)].map(
					(match) => match[1],
				);
				expect(numbers.sort()).toEqual([...expected.get(to)!].sort());
				expect(message.subject).toMatch(/^Last free days: \d+ containers? needs? attention/);
			}
		},
		TEST_TIMEOUT,
	);
});

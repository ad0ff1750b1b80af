// Money at risk (examples/money-at-risk.json, docs/charges.md) in a real n8n with the packed
// package: its Data Table made by examples/tariff-table.json (run twice: no rate twice), boxes
// put in known states in the sandbox relative to today, the example run by hand. What is
// asserted is what the email says, box by box: the boxes at risk and only those, the costliest
// wait first, the figures Container → Get Charges gives for the same boxes (run by number in the
// same n8n), and for two boxes the figures counted by hand from the demo tariff.
import { DateTime } from 'luxon';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { importNative } from '../support/importNative';
import { trackManyContainers } from '../support/sandbox';
import {
	CLI_QUIET_MS,
	ctNode,
	exampleWorkflow,
	itemsOf,
	sandboxCredential,
	SETUP_TIMEOUT,
	START,
	startE2e,
	startMailServer,
	TARIFF_ROWS,
	TEARDOWN_TIMEOUT,
	workflow,
	type E2eContext,
	type MailServer,
} from './helpers';

interface TariffLib {
	TARIFF_SETUP: { id: string };
	createTariffTable(
		baseUrl: string,
		cookie: string,
		options: { workflowId?: string },
	): Promise<Array<Record<string, unknown>>>;
}

const MONEY_AT_RISK = 'ctMoneyAtRisk';
const ZONE = 'America/Los_Angeles';
/** Two setup runs, the example, the operation: each a few seconds over REST. */
const TEST_TIMEOUT = generous(4 * CLI_QUIET_MS);

const portMidnight = (days: number) =>
	DateTime.now().setZone(ZONE).startOf('day').plus({ days }).toUTC().toISO()!;
const portNoon = (days: number) =>
	DateTime.now().setZone(ZONE).startOf('day').plus({ days, hours: 12 }).toUTC().toISO()!;

/** MSC boxes at Los Angeles, 20-foot dry: the demo tariff's any-line rows apply. */
const BOXES = {
	// Last free day 3 days ago, still at the port: 3 days at 150.
	inDemurrage: {
		number: withCheckDigit('MSCU720001'),
		lfd: -3,
		pickedUp: null as number | null,
	},
	// Last free day 8 days ago, picked up 7 days ago (1 day of demurrage), out past 4 free days:
	// detention days are the 5th to the 8th day out, today included: 4 at 100.
	inDetention: { number: withCheckDigit('MSCU720002'), lfd: -8, pickedUp: -7 },
	// Its last free day tomorrow: 2 free days left, charges start within 2 days.
	endsSoon: { number: withCheckDigit('MSCU720003'), lfd: 1, pickedUp: null },
	// A week of free time left: not at risk.
	farOff: { number: withCheckDigit('MSCU720004'), lfd: 7, pickedUp: null },
};

describe('e2e: Money at risk in a real n8n', () => {
	let ctx: E2eContext;
	let mail: MailServer;

	beforeAll(async () => {
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 0 } });
		mail = await startMailServer();
		await ctx.importCredentials([sandboxCredential()], mail);
		await ctx.importWorkflows([
			exampleWorkflow('tariff-table.json'),
			exampleWorkflow('money-at-risk.json'),
			// The operation alone, for the same boxes by number, with the same table.
			workflow('ctChargesByNumber', 'Charges by number', [
				START,
				TARIFF_ROWS,
				{
					name: 'Numbers',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					executeOnce: true,
					parameters: {
						jsCode: `return ${JSON.stringify(Object.values(BOXES).map(({ number }) => ({ json: { number } })))};`,
					},
					after: ['Tariff'],
				},
				ctNode(
					'Get Charges',
					{
						resource: 'container',
						operation: 'getCharges',
						containerId: { __rl: true, mode: 'number', value: '={{ $json.number }}' },
						tariffSource: 'input',
						tariffRowsInput: "={{ $('Tariff').all().map(row => row.json) }}",
					},
					{ after: ['Numbers'] },
				),
			]),
		]);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
	}, TEARDOWN_TIMEOUT);

	it(
		'the email lists the boxes at risk, costliest wait first, with the figures of Get Charges',
		async () => {
			// The table, made as a person does; a second run adds no rate twice.
			const n8n = await ctx.start();
			const lib = await importNative<TariffLib>('scripts/lib/tariffTable.mjs');
			const workflowId = ctx.workflowId(lib.TARIFF_SETUP.id);
			const first = await lib.createTariffTable(n8n.url, n8n.cookie, { workflowId });
			const second = await lib.createTariffTable(n8n.url, n8n.cookie, { workflowId });
			expect(first.length).toBe(7);
			expect(second.length).toBe(first.length);

			// The boxes, in their states (setup writes the sandbox's store).
			const numbers = Object.values(BOXES).map(({ number }) => number);
			const containers = await trackManyContainers(ctx.handle, numbers, 'MSCU');
			const store = ctx.handle.sandbox.world.store;
			for (const { number, lfd, pickedUp } of Object.values(BOXES)) {
				const container = containers.find((record) => record.attributes.number === number)!;
				Object.assign(store.get('container', container.id)!.attributes!, {
					pod_timezone: ZONE,
					pod_arrived_at: portNoon(-12),
					pod_discharged_at: portNoon(-11),
					pod_full_out_at: pickedUp === null ? null : portNoon(pickedUp),
					current_status: pickedUp === null ? 'available' : 'picked_up',
					final_destination_full_out_at: null,
					empty_terminated_at: null,
					ind_rail_carrier_scac: null,
					ind_eta_at: null,
					ind_ata_at: null,
					equipment_length: 20,
					equipment_height: 'standard',
					equipment_type: 'dry',
					pickup_lfd: null,
					import_deadlines: {
						pickup_lfd_line: null,
						pickup_lfd_terminal: portMidnight(lfd),
						pickup_lfd_rail: null,
					},
				});
			}

			const run = await ctx.execute(MONEY_AT_RISK);
			expect(run.run.data.resultData.error).toBeUndefined();
			expect(run.code).toBe(0);
			const emails = itemsOf(run.run, 'One email per recipient') as Array<{
				to: string;
				subject: string;
				containers: Array<Record<string, unknown>>;
			}>;
			expect(emails.length).toBeGreaterThan(0);
			// Every recipient's list is in the same order; the boxes of this file in each.
			const listed = new Map<string, Record<string, unknown>>();
			for (const email of emails) {
				const mine = email.containers.filter((box) => numbers.includes(String(box.number)));
				const order = mine.map((box) => box.number);
				expect(order).toEqual(
					[BOXES.inDemurrage.number, BOXES.inDetention.number, BOXES.endsSoon.number].filter(
						(number) => order.includes(number),
					),
				);
				for (const box of mine) listed.set(String(box.number), box);
			}
			expect([...listed.keys()].sort()).toEqual(
				[BOXES.inDemurrage.number, BOXES.inDetention.number, BOXES.endsSoon.number].sort(),
			);
			// Each recipient's email reached the inbox.
			for (const email of emails)
				expect(mail.messages.some((message) => message.subject === email.subject)).toBe(true);

			// By hand, from the demo tariff: 3 days at 150; 1 day at 150 and 4 at 100.
			expect(listed.get(BOXES.inDemurrage.number)).toMatchObject({
				charges_status: 'in_demurrage',
				charges_total: 450,
				charges_currency: 'USD',
				one_more_day_costs: 150,
			});
			expect(listed.get(BOXES.inDetention.number)).toMatchObject({
				charges_status: 'in_detention',
				charges_total: 150 + 400,
				one_more_day_costs: 100,
			});
			expect(listed.get(BOXES.endsSoon.number)).toMatchObject({
				charges_status: 'in_free_time',
				charges_total: 0,
				one_more_day_costs: 0,
			});

			// The operation, by number, in the same n8n: the same figures for the same boxes.
			const operation = await ctx.execute('ctChargesByNumber');
			expect(operation.code).toBe(0);
			const byNumber = new Map(
				itemsOf(operation.run, 'Get Charges').map((item) => [String(item.number), item]),
			);
			for (const [number, box] of listed)
				expect(box).toEqual({
					number,
					customer_name: byNumber.get(number)!.customer_name,
					charges_status: byNumber.get(number)!.charges_status,
					charges_total: byNumber.get(number)!.charges_total,
					charges_currency: byNumber.get(number)!.charges_currency,
					one_more_day_costs: byNumber.get(number)!.one_more_day_costs,
				});
			expect(byNumber.get(BOXES.farOff.number)).toMatchObject({
				charges_status: 'in_free_time',
				free_days_left: 8,
			});
		},
		TEST_TIMEOUT,
	);
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The last free day digest (examples/last-free-day-digest.json) in a real n8n with the
// packed package, its SMTP credential pointing at a local mail server (scripts/lib/mail.mjs).
// Run by hand (`n8n execute`, its Manual Trigger: the Schedule Trigger feeds the same chain):
// with nothing to report it sends nothing; with boxes in known states it sends one email whose
// table lists exactly the containers an independent reading of the sandbox's own records says
// need attention, earliest last free day first.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DateTime } from 'luxon';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { BOXES, putBoxesInStates } from '../support/containerStates';
import { eventually, trackManyContainers } from '../support/sandbox';
import {
	CLI_QUIET_MS,
	itemsOf,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	startE2e,
	startMailServer,
	TEARDOWN_TIMEOUT,
	type E2eContext,
	type MailServer,
} from './helpers';

const DIGEST = path.resolve(__dirname, '..', '..', 'examples', 'last-free-day-digest.json');
const DIGEST_ID = 'ctLastFreeDayDigest';
/**
 * A run of the digest: over REST in the shared n8n, a few seconds; in an n8n of its own (n8n
 * 1.x), an `n8n execute`, which boots n8n. The second test also puts a dozen boxes in states.
 */
const TEST_TIMEOUT = generous(2 * CLI_QUIET_MS);
/**
 * The mail server has a message a moment after n8n sent it, and the Send Email node sends before
 * the execution ends.
 */
const MAIL_READ_QUIET_MS = 200;
/** Statuses of a box that has left the place it is picked up from (logic/readiness.ts, row 1). */
const GONE = ['picked_up', 'delivered', 'empty_returned', 'dropped', 'off_dock', 'loaded'];

/** A held box due tomorrow whose terminal was last read 8 days ago. */
const STALE_BOX = withCheckDigit('MSCU610008');

/** The cells of each body row of the HTML table at `index` (0 the first) in `html`. */
function tableRows(html: string, index = 0): string[][] {
	const body = [...html.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)][index]?.[1] ?? '';
	return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
		[...row[1].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]),
	);
}

describe('e2e: the last free day digest in a real n8n', () => {
	let ctx: E2eContext;
	let mail: MailServer;

	beforeAll(async () => {
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 0 } });
		mail = await startMailServer();
		await ctx.importCredentials([sandboxCredential()], mail);
		await ctx.importWorkflow(JSON.parse(readFileSync(DIGEST, 'utf8')));
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		await mail?.stop();
	}, TEARDOWN_TIMEOUT);

	const runDigest = async () => {
		const result = await ctx.execute(DIGEST_ID);
		if (result.code !== 0 || !result.run)
			throw new Error(`n8n execute failed:\n${(result.stderr + result.stdout).slice(-4000)}`);
		expect(result.run.data.resultData.error).toBeUndefined();
		return result.run;
	};

	it(
		'with nothing that needs attention, no email is sent',
		async () => {
			const run = await runDigest();
			expect(itemsOf(run, 'Containers needing attention')).toEqual([]);
			expect(run.data.resultData.runData['Email the digest']).toBeUndefined();
			// And no email came from anywhere else.
			await sleep(generous(MAIL_READ_QUIET_MS));
			expect(mail.messages).toEqual([]);
		},
		TEST_TIMEOUT,
	);

	it(
		'one email lists exactly the containers that need attention, earliest last free day first',
		async () => {
			const ids = await putBoxesInStates(ctx.handle);
			// Two boxes still on the ship: one due in two days, one already past its day.
			const store = ctx.handle.sandbox.world.store;
			for (const [box, days] of [
				['onShipLater', 2],
				['pendingHold', -1],
			] as const) {
				const zone = String(store.get('container', ids[box])!.attributes.pod_timezone);
				const answer = await ctx.handle.control.post(`/containers/${ids[box]}/changes`, {
					kind: 'set_last_free_day',
					source: 'line',
					date: DateTime.now().setZone(zone).startOf('day').plus({ days }).toISODate(),
				});
				expect(answer.status).toBe(200);
			}

			// A box due tomorrow, on hold, whose terminal then stopped being read 8 days ago.
			const stale = (await trackManyContainers(ctx.handle, [STALE_BOX], 'MSCU')).find(
				(container) => container.attributes.number === STALE_BOX,
			)!;
			for (const [route, body] of [
				['scenarios/ready_for_pickup', { gap_seconds: 0 }],
				['changes', { kind: 'place_hold', name: 'customs', status: 'hold' }],
				['changes', { kind: 'set_availability', available: false }],
				[
					'changes',
					{
						kind: 'set_last_free_day',
						source: 'line',
						date: DateTime.now()
							.setZone(String(stale.attributes.pod_timezone))
							.startOf('day')
							.plus({ days: 1 })
							.toISODate(),
					},
				],
				['stale_terminal', { days: 8 }],
			] as const) {
				const answer = await ctx.handle.control.post(`/containers/${stale.id}/${route}`, body);
				expect(answer.status).toBeLessThan(300);
			}
			const staleSince = String(
				store.get('container', stale.id)!.attributes.terminal_checked_at,
			).slice(0, 10);

			// Independently of the node: the sandbox's own records, read with the plain rules of
			// the interface (a line last free day is a date at the port; ready means discharged,
			// available and no active hold; a box that left is no one's concern; a box whose
			// terminal was last read more than 7 days ago is not due but stale).
			const attention = store
				.list('container')
				.map((container) => {
					const attributes = container.attributes as {
						number: string;
						current_status: string;
						pod_timezone: string;
						pod_discharged_at: string | null;
						available_for_pickup: boolean | null;
						holds_at_pod_terminal: Array<{ status: string }> | null;
						import_deadlines?: { pickup_lfd_line?: string | null };
						terminal_checked_at: string | null;
					};
					const checked = attributes.terminal_checked_at;
					// The shipment as the service serves it (drift stops tracking on some).
					const shipmentId = store.related(container, 'shipment')[0]?.id;
					const served = shipmentId ? ctx.handle.served('shipment', shipmentId).attributes : {};
					const stale =
						(checked !== null && Date.now() - Date.parse(checked) > 7 * 86_400_000) ||
						Boolean(served.line_tracking_stopped_at ?? served.line_tracking_stopped_reason);
					const zone = String(attributes.pod_timezone);
					const line = attributes.import_deadlines?.pickup_lfd_line ?? null;
					const date = line ? DateTime.fromISO(line, { zone }).toISODate() : null;
					const days = line
						? DateTime.fromISO(line, { zone })
								.startOf('day')
								.diff(DateTime.now().setZone(zone).startOf('day'), 'days').days
						: null;
					const ready =
						Boolean(attributes.pod_discharged_at) &&
						attributes.available_for_pickup === true &&
						!(attributes.holds_at_pod_terminal ?? []).some((hold) => hold.status === 'hold');
					const needsAttention =
						!GONE.includes(attributes.current_status) &&
						days !== null &&
						Math.round(days) <= 2 &&
						!ready;
					return { number: String(attributes.number), date, line, needsAttention, stale };
				})
				.filter((container) => container.needsAttention)
				.sort((a, b) => Date.parse(a.line!) - Date.parse(b.line!));
			// By construction: the held box (today), the two on the ship, and the stale one.
			expect(attention.map((container) => container.number).sort()).toEqual(
				[
					BOXES.heldToday.number,
					BOXES.onShipLater.number,
					BOXES.pendingHold.number,
					STALE_BOX,
				].sort(),
			);
			const expected = attention.filter((container) => !container.stale);
			const staleNumbers = attention
				.filter((container) => container.stale)
				.map((container) => container.number);

			await runDigest();
			const [digest] = await eventually(
				async () => (mail.messages.length > 0 ? mail.messages : undefined),
				{ timeoutMs: generous(1_000), intervalMs: 100, what: 'the digest email' },
			);
			// Only one.
			await sleep(generous(MAIL_READ_QUIET_MS));
			expect(mail.messages).toHaveLength(1);

			// `$now` is in the instance's zone (GENERIC_TIMEZONE, n8n's default America/New_York).
			const today = DateTime.now()
				.setZone(ctx.env.GENERIC_TIMEZONE ?? 'America/New_York')
				.toFormat('yyyy-MM-dd');
			const count = (n: number) => (n === 1 ? '1 container needs' : `${n} containers need`);
			expect(digest.subject).toBe(
				`Last free days: ${count(expected.length)} attention, ${staleNumbers.length} with stale data, on ${today}`,
			);
			const rows = tableRows(digest.html ?? '');
			expect(rows.map((cells) => cells[0])).toEqual(expected.map((container) => container.number));
			// Each last free day is the date at its facility, as the records hold it.
			rows.forEach((cells, index) => expect(cells[2]).toContain(String(expected[index].date)));
			const held = rows.find((cells) => cells[0] === BOXES.heldToday.number);
			// Unless drift stopped its shipment's tracking: then it is listed as stale.
			if (!staleNumbers.includes(BOXES.heldToday.number)) {
				expect(held?.[3]).toBe('today');
				expect(held?.[4]).toBe('customs');
			}
			// The stale box under its own heading, not as due: since when, and why.
			const html = digest.html ?? '';
			expect(html.indexOf('<h3>Data stale since the date shown</h3>')).toBeGreaterThan(
				html.indexOf('</table>'),
			);
			const staleRows = tableRows(html, 1);
			expect(staleRows.map((cells) => cells[0]).sort()).toEqual([...staleNumbers].sort());
			const unchecked = staleRows.find((cells) => cells[0] === STALE_BOX)!;
			expect(unchecked).toEqual([
				STALE_BOX,
				expect.any(String),
				expect.any(String),
				// Since the terminal check, or earlier where drift stopped the shipment's tracking.
				expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
				expect.stringContaining('the terminal was last checked 8 days ago'),
				expect.stringContaining('On hold'),
				// Whose box: the shipment's customer (the sandbox names one on most) and references.
				String(
					ctx.handle.served('shipment', store.related(stale, 'shipment')[0].id).attributes
						.customer_name ?? '',
				),
				'',
			]);
			expect(unchecked[3] <= staleSince).toBe(true);
			// The plain-text part lists the same containers, one line each, then the stale one.
			const [due, staleText] = (digest.text ?? '').trim().split('\n\nData stale since');
			const lines = due.split('\n').slice(2);
			expect(lines.map((line) => line.split(' | ')[0])).toEqual(
				expected.map((container) => container.number),
			);
			for (const number of staleNumbers) expect(staleText).toContain(`${number} | `);
			expect(staleText).toContain('the terminal was last checked 8 days ago');
		},
		TEST_TIMEOUT,
	);
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The Pickup board example (examples/pickup-board.json) in a real n8n, set up as
// examples/README.md tells users to: the setup workflow creates the Data Table, the board is
// published. Four containers go through holds, availability, fees and last free day changes in
// the sandbox; the table must then hold exactly one row per container, each equal to what
// Container → Get says about that container (read by the node in the same n8n) under
// examples/README.md's column rules, its charge columns equal to what Container → Get Charges
// works out for the box from the same Data Table Tariff (made by examples/tariff-table.json).
// Then the hourly branch runs once: it rewrites every row in place, brings back a deleted row and
// puts right a wrong one, and adds no row. Last, a delivery of an old state that arrives late (a
// new notification id, as a long-retried one has) must leave every row as it is.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DateTime } from 'luxon';

import { signBody } from '../../sandbox/webhooks/delivery';
import { byClock, generous } from '../support/bounds';
import { eventually } from '../support/sandbox';
import { importNative } from '../support/importNative';
import { BOARD_INCLUDES, boardRowParts, expectedBoardRow } from '../support/pickupBoardRows';
import {
	ACTIVATION_QUIET_MS,
	ctNode,
	EXECUTION_QUIET_MS,
	N8N_START_QUIET_MS,
	n8nLib,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	START,
	startE2e,
	TARIFF_ROWS,
	TEARDOWN_TIMEOUT,
	workflow,
	type E2eContext,
} from './helpers';

const BOARD = { id: 'ctPickupBoard', webhookId: 'c2f1d7e4-8a3b-4c59-b6d0-2e9f4a7c1b83' };
const READER_ID = 'e2eBoardReader';
/**
 * Seconds between a box's changes (the scenarios' steps, and from one scenario or change to the
 * next), on the sandbox clock at real speed: each delivery's run is over before the next change.
 */
const GAP_SECONDS = 1;
/**
 * The trigger's Batch Window (1 s from node version 1.2): a delivery may wait that long for
 * its execution, which is created before it is answered.
 */
const BATCH_WINDOW_MS = byClock(1_000);
/** A manual run of the board's hourly branch or of the reader: a few calls and writes each. */
const MANUAL_RUN_QUIET_MS = 5_000;
/**
 * The service's rate window: the board's runs and the reader (a Get and a Get Charges per box)
 * share the account's 100 calls a minute, so a run may wait for one window.
 */
const RATE_WINDOW_MS = byClock(60_000);
/**
 * The longest tests: the journey, about 15 s of scenario on the sandbox clock and as long again
 * of runs and reads; the late delivery, with n8n stopped (SIGKILL after 15 s) and started again.
 */
const TEST_TIMEOUT = byClock(15_000) + 2 * RATE_WINDOW_MS + generous(N8N_START_QUIET_MS + 30_000);

type Row = Record<string, unknown>;
type Item = Record<string, unknown>;
interface TariffLib {
	TARIFF_SETUP: { id: string };
	createTariffTable(
		baseUrl: string,
		cookie: string,
		options: { workflowId: string },
	): Promise<unknown[]>;
}
interface PickupBoardTableLib {
	PICKUP_BOARD_SETUP: { file: string; id: string; trigger: string };
	pickupBoardTable(): { name: string; columns: Array<{ name: string; type: string }> };
	createPickupBoardTable(
		baseUrl: string,
		cookie: string,
	): Promise<{ projectId: string; table: { id: string; name: string } }>;
}

describe('e2e: the Pickup board example keeps one Data Table row per container', () => {
	let ctx: E2eContext;
	let n8n: { url: string; cookie: string };
	let lib: PickupBoardTableLib;
	let table: { projectId: string; id: string };
	let boardExample: { nodes: Array<{ name: string; type: string; parameters: Item }> };
	/** Sandbox ids of the containers, by number. */
	const containerIds = new Map<string, string>();
	let journeyStart: number;

	const n8nRest = async (method: string, pathname: string, body?: unknown) => {
		const answer = await rest(n8n.url, n8n.cookie, method, pathname, body);
		if (answer.status >= 300)
			throw new Error(
				`${method} /rest${pathname}: ${answer.status} ${JSON.stringify(answer.body)}`,
			);
		return answer.body.data;
	};
	const tablePath = () => `/projects/${table.projectId}/data-tables/${table.id}`;
	const rows = async (): Promise<Row[]> =>
		(await n8nRest('GET', `${tablePath()}/rows?take=1000`)).data;
	/** The Data Table filter for one container's row (the REST API's JSON filter). */
	const byNumber = (number: string) => ({
		type: 'and',
		filters: [{ columnName: 'container_number', condition: 'eq', value: number }],
	});
	/** An execution's result; n8n keeps it as `flatted` text, read with n8n's own copy. */
	const resultOf = (execution: { data: string }) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const flatted = require(path.join(ctx.n8nDir, 'node_modules', 'flatted'));
		return flatted.parse(execution.data).resultData as {
			runData: Record<string, Array<{ data?: { main?: Array<Array<{ json: Item }>> } }>>;
			error?: { message: string };
			lastNodeExecuted?: string;
		};
	};
	const runDataOf = (execution: { data: string }) => resultOf(execution).runData;
	const outputOf = (runData: ReturnType<typeof runDataOf>, node: string): Item[] | undefined =>
		runData[node]?.[0]?.data?.main?.[0]?.map((entry) => entry.json);
	/** A manual run from `trigger`, as *Execute workflow* starts it; its run data on success. */
	const runManually = async (workflowId: string, trigger: string) =>
		runDataOf(
			await (
				await n8nLib()
			).runWorkflowByHand(
				n8n.url,
				n8n.cookie,
				workflowId,
				trigger,
				RATE_WINDOW_MS + generous(MANUAL_RUN_QUIET_MS),
			),
		);
	/**
	 * Container → Get of every container and its Container → Get Charges (by id, from the Data
	 * Table Tariff), run by the node in this n8n: each number's pair.
	 */
	const containerGets = async (): Promise<Map<string, { item: Item; charges: Item }>> => {
		const runData = await runManually(READER_ID, START.name);
		const items = outputOf(runData, 'Container → Get') ?? [];
		const charges = outputOf(runData, 'Get Charges') ?? [];
		expect(charges).toHaveLength(items.length);
		return new Map(
			items.map((item, index) => [String(item.number), { item, charges: charges[index] }]),
		);
	};
	/** The board's executions that deliveries started. */
	const boardRuns = async (): Promise<Array<{ id: string; status: string; stoppedAt: string }>> =>
		(await (await n8nLib()).listExecutions(n8n.url, n8n.cookie, BOARD.id)).filter(
			(run) => run.mode === 'webhook',
		);
	/**
	 * The board's webhook as the sandbox stores it. The test reads the sandbox's own records, not
	 * its API: the API's calls share the account's 100 a minute with the board's.
	 */
	const boardWebhook = () => {
		const webhook = ctx.handle.sandbox.world.store
			.list('webhook')
			.find((entry) => String(entry.attributes.url).includes(BOARD.webhookId));
		if (!webhook) throw new Error('the board registered no webhook with the sandbox');
		return {
			id: webhook.id,
			url: String(webhook.attributes.url),
			secret: String(webhook.attributes.secret),
		};
	};
	const boardWebhookId = async () => boardWebhook().id;

	const expectBoardToMatch = (
		board: Row[],
		gets: Map<string, { item: Item; charges: Item }>,
		since: number,
	) => {
		const numbers = board.map((row) => row.container_number);
		expect([...numbers].sort()).toEqual([...containerIds.keys()].sort());
		for (const row of board) {
			// id, createdAt and updatedAt are n8n's own columns.
			const { columns, n8nColumns, writtenAt, stateAsOf } = boardRowParts(row);
			expect(n8nColumns).not.toContain(undefined);
			const read = gets.get(String(row.container_number));
			expect(read).toBeDefined();
			expect(columns).toEqual(expectedBoardRow(read!.item, read!.charges));
			expect(Date.parse(String(writtenAt))).toBeGreaterThanOrEqual(since);
			expect(Date.parse(String(writtenAt))).toBeLessThanOrEqual(Date.now());
			// When the row's state was the service's: a notification's time (whole seconds) or a read's.
			expect(String(stateAsOf)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
			expect(Date.parse(String(stateAsOf))).toBeGreaterThanOrEqual(since - 1000);
			expect(Date.parse(String(stateAsOf))).toBeLessThanOrEqual(Date.now());
		}
	};

	beforeAll(async () => {
		lib = await importNative<PickupBoardTableLib>('scripts/lib/pickupBoardTable.mjs');
		boardExample = JSON.parse(
			readFileSync(path.resolve(__dirname, '..', '..', 'examples', 'pickup-board.json'), 'utf8'),
		);
		ctx = await startE2e({ sandbox: { trackingDelaySeconds: 1 }, ownN8n: true });
		await ctx.importCredentials([sandboxCredential()]);
		await ctx.importWorkflows([
			JSON.parse(readFileSync(lib.PICKUP_BOARD_SETUP.file, 'utf8')),
			JSON.parse(
				readFileSync(path.resolve(__dirname, '..', '..', 'examples', 'tariff-table.json'), 'utf8'),
			),
			boardExample,
			workflow(READER_ID, 'Container → Get of every container', [
				START,
				TARIFF_ROWS,
				ctNode(
					'All containers',
					{ resource: 'container', operation: 'getMany', returnAll: true, options: {} },
					{ after: ['Tariff'], executeOnce: true },
				),
				ctNode(
					'Container → Get',
					{
						resource: 'container',
						operation: 'get',
						containerId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						options: { include: BOARD_INCLUDES },
					},
					{ after: ['All containers'] },
				),
				ctNode(
					'Get Charges',
					{
						resource: 'container',
						operation: 'getCharges',
						containerSource: 'locator',
						containerId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						tariffSource: 'input',
						tariffRowsInput: "={{ $('Tariff').all().map(row => row.json) }}",
					},
					{ after: ['Container → Get'], onError: 'continueRegularOutput' },
				),
			]),
		]);
		await ctx.activate(BOARD.id);
		n8n = await ctx.start();
		await eventually(() => boardWebhookId().catch(() => undefined), {
			timeoutMs: generous(ACTIVATION_QUIET_MS),
			intervalMs: 250,
			what: 'the published board to register its webhook with the sandbox',
		});
		const created = await lib.createPickupBoardTable(n8n.url, n8n.cookie);
		table = { projectId: created.projectId, id: created.table.id };
		// The user's tariff, made as a person does (examples/README.md, section 10).
		const tariffLib = await importNative<TariffLib>('scripts/lib/tariffTable.mjs');
		expect(
			(
				await tariffLib.createTariffTable(n8n.url, n8n.cookie, {
					workflowId: ctx.workflowId(tariffLib.TARIFF_SETUP.id),
				})
			).length,
		).toBeGreaterThan(0);
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
	}, TEARDOWN_TIMEOUT);

	it(
		'the setup workflow creates the table with the columns Board columns writes, once',
		async () => {
			const columns: Array<{ name: string; type: string; index: number }> = await n8nRest(
				'GET',
				`${tablePath()}/columns`,
			);
			const expected = lib.pickupBoardTable();
			expect(expected.name).toBe('Pickup board');
			expect(
				[...columns].sort((a, b) => a.index - b.index).map(({ name, type }) => ({ name, type })),
			).toEqual(expected.columns);
			const boardColumns = boardExample.nodes.find((node) => node.name === 'Board columns')!
				.parameters.assignments as { assignments: Array<{ name: string }> };
			expect(boardColumns.assignments.map((assignment) => assignment.name)).toEqual(
				expected.columns.map((column) => column.name),
			);
			// Run again (a second `npm start` on the same n8n, a user clicking twice): the same table.
			const again = await lib.createPickupBoardTable(n8n.url, n8n.cookie);
			expect(again.table.id).toBe(table.id);
			// Beside it the Data Table Tariff, made for the charge columns.
			const { data: tables } = await n8nRest('GET', `/projects/${table.projectId}/data-tables`);
			expect(
				(tables as Array<{ name: string }>).filter(({ name }) => name === expected.name),
			).toHaveLength(1);
		},
		TEST_TIMEOUT,
	);

	it(
		'after a journey of four containers the table holds one row per container, equal to Container → Get',
		async () => {
			const tracked: Array<[string, string]> = [
				['MAEU6123458', 'MAEU'],
				['MSCU1000022', 'MSCU'],
				['MSKU4807969', 'MAEU'],
				['MEDU7165290', 'MSCU'],
			];
			for (const [number, scac] of tracked) {
				const created = await ctx.handle.api.post('/tracking_requests', {
					data: {
						type: 'tracking_request',
						attributes: { request_number: number, request_type: 'container', scac },
					},
				});
				expect(created.status).toBe(201);
			}
			await eventually(
				() => {
					const found = ctx.handle.sandbox.world.store.list('container');
					if (found.length < tracked.length) return undefined;
					for (const container of found)
						containerIds.set(String(container.attributes.number), container.id);
					return true;
				},
				{
					// Tracking requests succeed after 1 s on the sandbox clock (trackingDelaySeconds).
					timeoutMs: byClock(1_000) + generous(1_000),
					what: 'the four containers to be tracked',
				},
			);
			expect([...containerIds.keys()].sort()).toEqual(tracked.map(([number]) => number).sort());
			const id = (number: string) => containerIds.get(number)!;

			journeyStart = Date.now();
			const scenario = async (number: string, name: string) => {
				const played = await ctx.handle.control.post(
					`/containers/${id(number)}/scenarios/${name}`,
					{ gap_seconds: GAP_SECONDS },
				);
				expect([number, name, played.status]).toEqual([number, name, 202]);
				// Its steps play a gap apart from now; the next change one gap after the last.
				await sleep(byClock((played.data.steps as number) * GAP_SECONDS * 1000));
			};
			const change = async (number: string, body: Record<string, unknown>) => {
				const changed = await ctx.handle.control.post(`/containers/${id(number)}/changes`, body);
				expect([number, body.kind, changed.status]).toEqual([number, body.kind, 200]);
				await sleep(byClock(GAP_SECONDS * 1000));
			};
			const zoneOf = (number: string) =>
				String(
					ctx.handle.sandbox.world.store.get('container', id(number))!.attributes.pod_timezone,
				);
			const inTwoDays = DateTime.now()
				.setZone(zoneOf('MEDU7165290'))
				.plus({ days: 2 })
				.toISODate()!;

			await Promise.all([
				// Discharged, released, examined (a VACIS hold and an exam fee), then past its last free
				// day: ready, with fees.
				(async () => {
					await scenario('MAEU6123458', 'ready_for_pickup');
					await scenario('MAEU6123458', 'vacis_exam');
					await scenario('MAEU6123458', 'demurrage');
				})(),
				// Still aboard: a customs hold comes and goes, the last free day moves four times.
				(async () => {
					await scenario('MSCU1000022', 'customs_hold');
					await scenario('MSCU1000022', 'last_free_day_changes');
				})(),
				// Released at its inland ramp, then a customs hold the availability flag first ignores
				// (out of sync), then follows (on hold).
				(async () => {
					await scenario('MSKU4807969', 'ready_for_pickup');
					await change('MSKU4807969', {
						kind: 'place_hold',
						name: 'customs',
						status: 'hold',
						description: 'CBP exam ordered: awaiting release',
					});
					await change('MSKU4807969', { kind: 'set_availability', available: false });
				})(),
				// Only its last free day, from the line.
				change('MEDU7165290', { kind: 'set_last_free_day', source: 'line', date: inTwoDays }),
			]);

			// Every delivery to the board answered, and no new one for two gaps: the trigger answers
			// each at once, so "all answered" alone can come before the last steps' notifications.
			const webhookId = await boardWebhookId();
			let seen = { count: -1, since: Date.now() };
			const delivered = await eventually(
				() => {
					const log = ctx.handle.sandbox.world.store
						.list('webhook_notification')
						.filter(
							(record) =>
								(record.relationships?.webhook?.data as { id: string } | undefined)?.id ===
								webhookId,
						);
					if (log.length !== seen.count) seen = { count: log.length, since: Date.now() };
					const quiet = Date.now() - seen.since >= byClock(2 * GAP_SECONDS * 1000);
					return quiet && log.every((record) => record.attributes.delivery_status === 'succeeded')
						? log.length
						: undefined;
				},
				{
					// The last changes were made a gap ago; a delivery a busy n8n refused or answered
					// late comes again after the sandbox's first retry, 5 s.
					timeoutMs:
						BATCH_WINDOW_MS +
						byClock(5_000 + 2 * GAP_SECONDS * 1000) +
						generous(EXECUTION_QUIET_MS),
					intervalMs: 250,
					what: 'every delivery to the board to succeed',
				},
			);
			const deliveredIds = ctx.handle.sandbox.world.store
				.list('webhook_notification')
				.filter(
					(record) =>
						(record.relationships?.webhook?.data as { id: string } | undefined)?.id === webhookId,
				)
				.map((record) => record.id);
			expect(delivered).toBeGreaterThanOrEqual(20);
			// What each finished run's trigger put out, read once per run.
			const outputs = new Map<string, Item[]>();
			const runs = await eventually(
				async () => {
					const found = await boardRuns();
					if (!found.every((run) => run.stoppedAt)) return undefined;
					for (const run of found.filter((entry) => !outputs.has(entry.id))) {
						const runData = runDataOf(await n8nRest('GET', `/executions/${run.id}`));
						outputs.set(run.id, outputOf(runData, 'Pickup readiness or deadline changed') ?? []);
					}
					const ran = new Set(
						[...outputs.values()].flat().flatMap((item) => item.notification_ids as string[]),
					);
					return deliveredIds.every((id) => ran.has(id)) ? found : undefined;
				},
				{
					// The runs of the last deliveries, and reading every run's output over REST.
					timeoutMs: generous(4 * EXECUTION_QUIET_MS),
					intervalMs: 500,
					what: `the runs of ${delivered} notifications`,
				},
			);
			// Every run succeeded; a failed one is named with the node it stopped at and its error.
			const failures = [];
			for (const run of runs.filter((entry) => entry.status !== 'success')) {
				const { error, lastNodeExecuted } = resultOf(await n8nRest('GET', `/executions/${run.id}`));
				failures.push(`${run.id} ${run.status} in ${lastNodeExecuted}: ${error?.message}`);
			}
			expect(failures).toEqual([]);

			// Deliveries that arrive together start one run, and a run gives one item per container
			// with its latest state (Latest State per Container): each notification in one run, once;
			// no container read again, as every delivery carried its container or had it looked up.
			const items = [...outputs.values()].flat();
			const ranIds = items.flatMap((item) => item.notification_ids as string[]);
			expect([...ranIds].sort()).toEqual([...deliveredIds].sort());
			expect(runs.length).toBeLessThan(delivered);
			let folded = 0;
			for (const run of runs) {
				const runData = runDataOf(await n8nRest('GET', `/executions/${run.id}`));
				const triggered = outputs.get(run.id)!;
				const ids = triggered.map((item) => item.container_id);
				expect(new Set(ids).size).toBe(ids.length);
				expect(outputOf(runData, 'Get the container') ?? []).toHaveLength(0);
				folded += triggered.filter((item) => (item.notification_ids as string[]).length > 1).length;
			}
			expect(folded).toBeGreaterThan(0);

			const board = await rows();
			const gets = await containerGets();
			expectBoardToMatch(board, gets, journeyStart);

			// What a dispatcher reads on each row, in words; on a box whose data is stale (drift
			// stops some shipments' tracking) the row says so instead.
			const row = (number: string) => board.find((entry) => entry.container_number === number)!;
			const readiness = (number: string, words: string) =>
				gets.get(number)!.item.data_fresh === false
					? expect.stringMatching(/^Stale since /)
					: words;
			expect(row('MAEU6123458')).toMatchObject({ readiness: readiness('MAEU6123458', 'Ready') });
			if (gets.get('MAEU6123458')!.item.data_fresh !== false)
				expect(row('MAEU6123458').why_not_ready).toBe('');
			expect(row('MAEU6123458').fees_exam).toBeGreaterThan(0);
			expect(row('MAEU6123458').fees_demurrage).toBeGreaterThan(0);
			expect(row('MAEU6123458').days_left).toBeLessThan(0);
			// Past its last free day and still at the terminal: in demurrage, as Get Charges says.
			expect(row('MAEU6123458').charges_status).toMatch(/^in_demurrage/);
			expect(row('MSCU1000022')).toMatchObject({
				readiness: readiness('MSCU1000022', 'Not available'),
				ready_for_pickup: false,
				active_holds: '',
			});
			expect(row('MSCU1000022').why_not_ready).toContain('not been discharged');
			expect(row('MSKU4807969')).toMatchObject({
				readiness: readiness('MSKU4807969', 'On hold'),
				ready_for_pickup: false,
				active_holds: 'customs',
			});
			expect(row('MSKU4807969').why_not_ready).toContain(
				'customs "CBP exam ordered: awaiting release"',
			);
			expect(row('MEDU7165290')).toMatchObject({
				last_free_day: inTwoDays,
				days_left: 2,
				last_free_day_source: 'line',
			});
			expect(String(row('MEDU7165290').last_free_day_time_zone)).toMatch(
				new RegExp(`^${zoneOf('MEDU7165290')} \\(UTC[+-]\\d{2}:\\d{2}\\)$`),
			);
		},
		TEST_TIMEOUT,
	);

	it(
		'the hourly branch rewrites every row in place, brings back a deleted row and corrects a wrong one',
		async () => {
			const before = await rows();
			const deleted = before.find((row) => row.container_number === 'MSCU1000022')!;
			const filter = encodeURIComponent(JSON.stringify(byNumber('MSCU1000022')));
			await n8nRest('DELETE', `${tablePath()}/rows?filter=${filter}`);
			await n8nRest('PATCH', `${tablePath()}/rows`, {
				filter: byNumber('MAEU6123458'),
				data: { days_left: 99, readiness: 'Ready (yesterday)' },
			});
			expect(await rows()).toHaveLength(containerIds.size - 1);
			// The terminal of the held box stops being read: its row turns stale within the hour.
			const unchecked = await ctx.handle.control.post(
				`/containers/${containerIds.get('MSKU4807969')}/stale_terminal`,
				{ days: 8 },
			);
			expect(unchecked.status).toBe(200);

			const refreshStart = Date.now();
			const runData = await runManually(BOARD.id, 'Every hour');
			expect(outputOf(runData, 'Get all containers')).toHaveLength(containerIds.size);

			const after = await rows();
			expectBoardToMatch(after, await containerGets(), refreshStart);
			const stale = after.find((row) => row.container_number === 'MSKU4807969')!;
			expect(stale).toMatchObject({
				readiness: `Stale since ${String(unchecked.data.terminal_checked_at).slice(0, 10)}`,
				ready_for_pickup: false,
				active_holds: 'customs',
			});
			expect(stale.why_not_ready).toMatch(
				/^Data stale since \d{4}-\d\d-\d\d: the terminal was last checked 8 days ago\. Last known: On hold/,
			);
			// In place: every row that was there keeps its id.
			for (const row of before.filter((entry) => entry !== deleted))
				expect(after.find((entry) => entry.id === row.id)?.container_number).toBe(
					row.container_number,
				);
		},
		TEST_TIMEOUT,
	);

	it(
		'a delivery of an older state that arrives late leaves every row equal to Container → Get, also after n8n restarted',
		async () => {
			const webhook = boardWebhook();
			const webhookId = webhook.id;
			// The first container.updated the board got for a box that has changed much since: it
			// carries the box before it was released.
			const { dispatcher } = ctx.handle.sandbox;
			const about = containerIds.get('MAEU6123458');
			const oldest = ctx.handle.sandbox.world.store
				.list('webhook_notification')
				.filter(
					(record) =>
						(record.relationships?.webhook?.data as { id: string } | undefined)?.id === webhookId &&
						record.attributes.event === 'container.updated' &&
						(dispatcher.notifications.carriedBy(record.id) ?? []).some(
							(carried) => carried.type === 'container' && carried.id === about,
						),
				)
				.sort((a, b) =>
					String(a.attributes.created_at).localeCompare(String(b.attributes.created_at)),
				)[0];
			expect(oldest).toBeDefined();
			const oldAsOf = String(oldest.attributes.created_at);
			/** Sends it again as a notification the service retried for long: a new id, so it runs. */
			const deliverLate = async () => {
				const envelope = dispatcher.notifications.envelope(
					oldest,
					ctx.handle.sandbox.url,
					dispatcher.notifications.carriedBy(oldest.id),
				) as { data: { id: string; attributes: Record<string, unknown> } };
				const lateId = randomUUID();
				envelope.data.id = lateId;
				if (envelope.data.attributes.id !== undefined) envelope.data.attributes.id = lateId;
				const body = JSON.stringify(envelope);
				const answer = await fetch(webhook.url, {
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						'X-SVC-Webhook-Signature': signBody(body, webhook.secret),
					},
					body,
				});
				expect(answer.status).toBe(200);
				return await eventually(
					async () => {
						for (const run of await boardRuns()) {
							if (!run.stoppedAt) continue;
							const runData = runDataOf(await n8nRest('GET', `/executions/${run.id}`));
							const items = outputOf(runData, 'Pickup readiness or deadline changed') ?? [];
							const late = items.find((item) =>
								(item.notification_ids as string[]).includes(lateId),
							);
							if (late)
								return {
									late,
									written: [
										...(outputOf(runData, 'Write if not newer') ?? []),
										...(outputOf(runData, 'Upsert the row') ?? []),
									],
								};
						}
						return undefined;
					},
					{
						timeoutMs: BATCH_WINDOW_MS + RATE_WINDOW_MS + generous(EXECUTION_QUIET_MS),
						intervalMs: 500,
						what: 'the late delivery to run',
					},
				);
			};

			// The trigger gave newer states of that box: it reads the box as it is now.
			const looked = await deliverLate();
			expect(Date.parse(String(looked.late.container_as_of))).toBeGreaterThan(Date.parse(oldAsOf));
			expectBoardToMatch(await rows(), await containerGets(), journeyStart);

			// A restarted n8n (or another worker) remembers no state given before: what it gives
			// is still read from the service after the delivery came, not the delivery's old state.
			await ctx.stopN8n();
			n8n = await ctx.start();
			const restartedAt = Date.now();
			const again = await deliverLate();
			expect(Date.parse(String(again.late.container_as_of))).toBeGreaterThanOrEqual(restartedAt);
			expect(again.written).toHaveLength(1);
			expectBoardToMatch(await rows(), await containerGets(), journeyStart);
		},
		TEST_TIMEOUT,
	);
});

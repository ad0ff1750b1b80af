/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The example workflows of examples/ in a real n8n 2.40.7, as examples/README.md tells users to
// run them: output folder filled in, N8N_RESTRICT_FILE_ACCESS_TO set to it, the two trigger
// workflows published. Bulk tracking runs with `n8n execute`; then a customs hold plays in the
// sandbox and the hold alert and the pickup board must land on disk.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { DateTime } from 'luxon';

import { eventually } from '../support/sandbox';
import {
	itemsOf,
	rest,
	sandboxCredential,
	SETUP_TIMEOUT,
	sleep,
	startE2e,
	type E2eContext,
} from './helpers';

const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples');
const HOLD_ALERTS = { id: 'ctHoldAlerts', webhookId: '7b0e6a52-3c1d-4e8f-9a47-1d2c3b4a5e61' };
const PICKUP_BOARD = { id: 'ctPickupBoard', webhookId: 'c2f1d7e4-8a3b-4c59-b6d0-2e9f4a7c1b83' };
const TEST_TIMEOUT = 4 * 60_000;

describe('e2e: the example workflows in a real n8n', () => {
	let ctx: E2eContext;
	let outputDir: string;
	let n8n: { url: string; cookie: string };

	const example = (file: string) =>
		JSON.parse(
			readFileSync(path.join(EXAMPLES, file), 'utf8').replaceAll('__DEMO_OUTPUT_DIR__', outputDir),
		);
	const webhookUrl = (webhookId: string) =>
		`http://127.0.0.1:${ctx.port}/webhook/${webhookId}/webhook`;
	const sandboxWebhooks = async () =>
		(await ctx.handle.api.get('/webhooks')).data.data as Array<{
			attributes: { url: string; events: string[] };
		}>;
	const executions = async (
		workflowId: string,
	): Promise<Array<{ status: string; stoppedAt: string | null }>> => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const answer = await rest(n8n.url, n8n.cookie, 'GET', `/executions?filter=${filter}`);
		if (answer.status !== 200) throw new Error(`GET /rest/executions answered ${answer.status}`);
		return answer.body.data.results;
	};

	beforeAll(async () => {
		// The real path: n8n resolves symlinks in file paths but not in the allowed folders.
		outputDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ct-e2e-output-')));
		ctx = await startE2e({
			sandbox: { trackingDelaySeconds: 1 },
			extra: { N8N_RESTRICT_FILE_ACCESS_TO: outputDir },
		});
		await ctx.importCredentials([sandboxCredential()]);
		for (const file of ['bulk-tracking.json', 'hold-alerts.json', 'pickup-board.json']) {
			await ctx.importWorkflow(example(file));
		}
	}, SETUP_TIMEOUT);

	afterAll(async () => {
		await ctx?.stop();
		if (outputDir && !process.env.CT_E2E_KEEP) rmSync(outputDir, { recursive: true, force: true });
	}, 60_000);

	it(
		'bulk tracking routes each number by the inferred decision and tracks the confident ones',
		async () => {
			const result = await ctx.execute('ctBulkTracking');
			if (result.code !== 0 || !result.run)
				throw new Error(`n8n execute failed:\n${(result.stderr + result.stdout).slice(-4000)}`);
			const { run } = result;
			expect(run.data.resultData.error).toBeUndefined();

			const inferred = itemsOf(run, 'Infer carrier and number type');
			expect(inferred.map((item) => [item.number_type, item.decision])).toEqual([
				['container', 'auto_select'],
				['bill_of_lading', 'auto_select'],
				['container', 'needs_confirmation'],
				['container', 'needs_confirmation'],
				['container', 'no_prediction'],
			]);
			expect(itemsOf(run, 'Create tracking request')).toEqual([
				expect.objectContaining({
					request_number: 'MAEU6123458',
					request_type: 'container',
					scac: 'MAEU',
					status: 'pending',
					already_tracked: false,
				}),
				expect.objectContaining({
					request_number: 'MEDUFR030802',
					request_type: 'bill_of_lading',
					scac: 'MSCU',
					status: 'pending',
					already_tracked: false,
				}),
			]);
			const toConfirm = itemsOf(run, 'Needs confirmation');
			expect(toConfirm.map((item) => item.number)).toEqual(['MSKU4807969', 'MEDU7165290']);
			expect(String(toConfirm[0].status)).toMatch(/^needs confirmation: .*\(\w{4}, \d+ %\)/);
			expect(itemsOf(run, 'No carrier prediction')).toEqual([
				expect.objectContaining({
					number: 'CAIU7432986',
					status: expect.stringContaining('no prediction'),
				}),
			]);
			expect(itemsOf(run, 'Create TEST tracking request')).toEqual([
				expect.objectContaining({
					request_number: 'TEST-TR-SUCCEEDED',
					scac: 'TEST',
					status: 'pending',
				}),
			]);

			const { data } = await ctx.handle.api.get('/tracking_requests');
			expect(
				(data.data as Array<{ attributes: { request_number: string } }>)
					.map((request) => request.attributes.request_number)
					.sort(),
			).toEqual(['MAEU6123458', 'MEDUFR030802', 'TEST-TR-SUCCEEDED']);
		},
		TEST_TIMEOUT,
	);

	it(
		'published, the two trigger workflows register their webhooks for their events',
		async () => {
			await ctx.cliOk(['publish:workflow', `--id=${HOLD_ALERTS.id}`]);
			await ctx.cliOk(['publish:workflow', `--id=${PICKUP_BOARD.id}`]);
			n8n = await ctx.start();
			await eventually(async () => ((await sandboxWebhooks()).length >= 2 ? true : undefined), {
				timeoutMs: 60_000,
				intervalMs: 200,
				what: 'both example triggers to register their webhooks',
			});
			await sleep(1000);
			const byUrl = Object.fromEntries(
				(await sandboxWebhooks()).map((webhook) => [
					webhook.attributes.url,
					webhook.attributes.events,
				]),
			);
			expect(byUrl).toEqual({
				[webhookUrl(HOLD_ALERTS.webhookId)]: ['container.updated'],
				[webhookUrl(PICKUP_BOARD.webhookId)]: [
					'container.updated',
					'container.pickup_lfd.changed',
					'container.transport.available',
				],
			});
		},
		TEST_TIMEOUT,
	);

	it(
		'a customs hold writes one alert line (activated only) and the pickup board sheet',
		async () => {
			// The tracking requests of the bulk run succeed on the sandbox clock.
			const containers = await eventually(
				async () => {
					const { data } = await ctx.handle.api.get('/tracking_requests');
					const requests = data.data as Array<{ attributes: { status: string } }>;
					if (requests.some((request) => request.attributes.status === 'pending')) return undefined;
					return (await ctx.handle.api.get('/containers', { params: { 'page[size]': 100 } })).data
						.data as Array<{
						id: string;
						attributes: { number: string };
					}>;
				},
				{ timeoutMs: 30_000, what: 'the tracking requests to succeed' },
			);
			const box = containers.find((container) => container.attributes.number === 'MAEU6123458')!;
			expect(box).toBeDefined();
			const terminal = ctx.handle.sandbox.world.store.related(
				ctx.handle.sandbox.world.store.get('container', box.id)!,
				'pod_terminal',
			)[0];

			const played = await ctx.handle.control.post(`/containers/${box.id}/scenarios/customs_hold`, {
				gap_seconds: 1,
			});
			expect(played.status).toBe(202);

			// Three container.updated deliveries: each starts both workflows.
			for (const workflowId of [HOLD_ALERTS.id, PICKUP_BOARD.id]) {
				await eventually(
					async () => {
						const runs = await executions(workflowId);
						return runs.length >= 3 && runs.every((run) => run.stoppedAt) ? runs : undefined;
					},
					{
						timeoutMs: 60_000,
						intervalMs: 250,
						what: `three finished executions of ${workflowId}`,
					},
				);
				expect((await executions(workflowId)).map((run) => run.status)).toEqual([
					'success',
					'success',
					'success',
				]);
			}

			// Pending and cleared are filtered out: only the activation is an alert.
			const alerts = readFileSync(path.join(outputDir, 'hold-alerts.log'), 'utf8')
				.split('\n')
				.filter(Boolean);
			expect(alerts).toHaveLength(1);
			// The time in the terminal's zone, with its offset and the zone's name.
			expect(alerts[0]).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2} [+-]\d{2}:\d{2} [\w/]+\] /);
			expect(alerts[0]).toContain(
				`Container MAEU6123458: customs hold activated (Awaiting customs release) at ${terminal.attributes.name}`,
			);

			const sheetFile = path.join(outputDir, 'pickup-board.xlsx');
			expect(existsSync(sheetFile)).toBe(true);
			// Read with the spreadsheet library n8n itself writes it with.
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const xlsx = require(path.join(ctx.n8nDir, 'node_modules', '@e965', 'xlsx'));
			const readBoard = () => {
				const book = xlsx.read(readFileSync(sheetFile));
				expect(book.SheetNames).toEqual(['Pickup board']);
				return xlsx.utils.sheet_to_json(book.Sheets['Pickup board']) as Array<
					Record<string, unknown>
				>;
			};
			const rows = readBoard();
			expect(rows.map((row) => row['Container number']).sort()).toEqual(
				containers.map((container) => container.attributes.number).sort(),
			);
			const row = rows.find((entry) => entry['Container number'] === 'MAEU6123458')!;
			expect(row).toMatchObject({ Terminal: terminal.attributes.name });
			expect(['ready', 'on_hold', 'not_available', 'out_of_sync', 'unknown']).toContain(
				row['Pickup status'],
			);

			// The line sets a last free day three days on: the board rewrites the row with the date
			// at the terminal, the terminal's name and its zone with that day's offset.
			const podZone = String(
				ctx.handle.sandbox.world.store.get('container', box.id)!.attributes.pod_timezone,
			);
			const lastFreeDay = DateTime.now().setZone(podZone).startOf('day').plus({ days: 3 });
			const changed = await ctx.handle.control.post(`/containers/${box.id}/changes`, {
				kind: 'set_last_free_day',
				source: 'line',
				date: lastFreeDay.toISODate(),
			});
			expect(changed.status).toBe(200);
			const updated = await eventually(
				async () => {
					const found = readBoard().find((entry) => entry['Container number'] === 'MAEU6123458');
					return found?.['Last free day'] === lastFreeDay.toISODate() ? found : undefined;
				},
				{ timeoutMs: 60_000, intervalMs: 500, what: 'the board to show the new last free day' },
			);
			expect(updated).toMatchObject({
				'Days until last free day': 3,
				'Last free day at': terminal.attributes.name,
				'Last free day time zone': `${podZone} (UTC${lastFreeDay.toFormat('ZZ')})`,
				'Last free day source': 'line',
			});
		},
		TEST_TIMEOUT,
	);
});

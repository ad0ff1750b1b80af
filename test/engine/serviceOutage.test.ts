// A service outage at the start of a bulk run (nodes/ContainerTracking/transport/circuit.ts and
// request.ts): the sandbox fails every call for 12 real seconds (500, 503 and dropped
// connections in turn, before it handles them), then recovers. Items wait at the shared circuit
// while one probe at a time finds out whether the service is back: the outage costs time, not
// items, and nothing is created twice. An Outage Tolerance shorter than the outage fails the
// items that waited longer than it, each saying so, and loses none. The trigger's activation and
// the editor's list searches ride out a short outage through the same transport.
import type { INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { byClock, generous } from '../support/bounds';
import { runContainerTrackingNode, searchWithNode } from '../support/engine';
import { TriggerHarness } from '../support/trigger';
import {
	API_KEY,
	startPacedSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

// Long enough for the circuit's probes to come seconds apart (at most 1, 1, 2, 4 and 8 s: the
// outage outlasts several), short enough not to spend half a minute as 30 s did.
const OUTAGE_SECONDS = 12;
const OUTAGE_MS = OUTAGE_SECONDS * 1_000;
/** The longest wait between two probes of an open circuit (transport/circuit.ts). */
const PROBE_CEILING_MS = 10_000;
/**
 * By then a run of 200 Create items that met the outage has ended: the service is back after
 * OUTAGE_MS, the circuit's next probe finds it so within PROBE_CEILING_MS, and the items left go
 * through in two rate windows (100 a window, 1 s in the paced sandbox), all quietly under 3 s of
 * work.
 */
const RUN_DUE = byClock(OUTAGE_MS + PROBE_CEILING_MS + 2 * 1_000) + generous(3_000);
/** The Outage Tolerance of the editor's list searches (transport/request.ts). */
const SEARCH_TOLERANCE_MS = 10_000;
/** Outage Tolerance of the second test: a third of the outage, as 10 s was of 30 s. */
const TOLERANCE_SECONDS = 4;
/**
 * How many items fail with that tolerance. Items go one after the other, each waiting its own
 * tolerance from when it met the outage: item k gives up about (k + 1) × TOLERANCE after the
 * outage started, so every item whose time comes before the service is back fails (at least the
 * first OUTAGE / TOLERANCE − 1), and none once the circuit closed, at most PROBE_CEILING_MS after
 * it.
 */
const FEWEST_FAILED = Math.floor(OUTAGE_SECONDS / TOLERANCE_SECONDS) - 1;
const MOST_FAILED = Math.floor((OUTAGE_MS + PROBE_CEILING_MS) / (TOLERANCE_SECONDS * 1_000));

function createParameters(options: INodeParameters = {}): INodeParameters {
	return {
		resource: 'trackingRequest',
		operation: 'create',
		requestNumber: '={{ $json.number }}',
		requestType: 'container',
		scac: 'MSCU',
		options,
	};
}

describe(`a ${OUTAGE_SECONDS} s service outage at the start of 200 Create Tracking Request items`, () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const storedNumbers = () =>
		handle.sandbox.world.store
			.list('tracking_request')
			.map((request) => String(request.attributes.request_number));

	beforeEach(async () => {
		// Tracking requests stay pending (no journeys run during the test).
		handle = await startPacedSandbox({ trackingDelaySeconds: 86_400 });
	});
	afterEach(() => handle.stop());

	it(
		'costs time, not items: 0 failed, 0 created twice, a probe every few seconds',
		async () => {
			const numbers = Array.from({ length: 200 }, (_, index) =>
				withCheckDigit(`MSCU${String(710000 + index).padStart(6, '0')}`),
			);
			handle.sandbox.outage.start({ seconds: OUTAGE_SECONDS, kind: 'mix' });
			const started = Date.now();
			const { items, error } = await runContainerTrackingNode(
				createParameters(),
				numbers.map((number) => ({ number })),
				credentials(),
				{ onError: 'continueRegularOutput' },
			);
			const seconds = (Date.now() - started) / 1000;
			expect(error).toBeUndefined();
			expect(items).toHaveLength(200);
			expect(
				items.filter((item) => item.json.error !== undefined).map((item) => item.json),
			).toEqual([]);
			expect(items.map((item) => item.json.request_number)).toEqual(numbers);
			// Exactly one tracking request per number.
			expect(storedNumbers().sort()).toEqual([...numbers].sort());
			// The first item waited out the outage and says so; the rest went through at once.
			expect(items[0].json).toMatchObject({ retried: true });
			expect(String(items[0].json.retried_after)).toMatch(/HTTP 50[03]|ECONNRESET|socket hang up/);
			// It ends once the service is back, not before, and not later than the next probe (and the
			// rest of the items) after it.
			expect(seconds).toBeGreaterThanOrEqual(OUTAGE_SECONDS);
			expect(seconds * 1_000).toBeLessThan(RUN_DUE);
			// What reached the service while it was down: the first item's tries until the circuit
			// opened, then one probe at a time, 0.5 to 10 s apart. At the soonest (the circuit's
			// clock): tries at 0, 0.25 and 0.75 s, then probes 0.5, 0.5, 1, 2 and 4 s apart, 8 in 12 s.
			const { calls_during_outage: calls } = handle.sandbox.outage.status();
			expect(calls).toBeGreaterThanOrEqual(3);
			expect(calls).toBeLessThanOrEqual(9);
		},
		RUN_DUE + generous(1_000),
	);

	it(
		`with Outage Tolerance ${TOLERANCE_SECONDS} s, the items that waited longer fail saying so; none is created twice or lost`,
		async () => {
			const numbers = Array.from({ length: 200 }, (_, index) =>
				withCheckDigit(`MSCU${String(720000 + index).padStart(6, '0')}`),
			);
			handle.sandbox.outage.start({ seconds: OUTAGE_SECONDS, kind: 'mix' });
			const { items, error } = await runContainerTrackingNode(
				createParameters({ outageTolerance: TOLERANCE_SECONDS }),
				numbers.map((number) => ({ number })),
				credentials(),
				{ onError: 'continueRegularOutput' },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(200);
			const failed = items.filter((item) => item.json.error !== undefined);
			// Items go one after the other: each waits its own tolerance, so two to five outlast it.
			expect(failed.length).toBeGreaterThanOrEqual(FEWEST_FAILED);
			expect(failed.length).toBeLessThanOrEqual(MOST_FAILED);
			for (const item of failed) {
				const index = (item.pairedItem as { item: number }).item;
				const error = String(item.json.error);
				expect(error).toMatch(
					new RegExp(
						`^The service has not answered for \\d+ s \\(last: (HTTP 50[03]|a dropped connection) at \\d{2}:\\d{2}:\\d{2} UTC\\); item ${index} (was not sent|may have been created)$`,
					),
				);
				// It gave up once its tolerance had passed: at its deadline, or at the failure of a probe
				// it took then (quietly a tenth of a second later).
				const waitedMs = Number(/for (\d+) s/.exec(error)![1]) * 1_000;
				expect(waitedMs).toBeGreaterThanOrEqual(TOLERANCE_SECONDS * 1_000);
				expect(waitedMs).toBeLessThan(byClock(TOLERANCE_SECONDS * 1_000) + generous(300));
				expect(String(item.json.error_description)).toContain(
					`Outage Tolerance is ${TOLERANCE_SECONDS} s`,
				);
			}
			// Every number is either tracked once or reported: none lost, none twice.
			const stored = storedNumbers();
			expect(new Set(stored).size).toBe(stored.length);
			const succeeded = items
				.filter((item) => item.json.error === undefined)
				.map((item) => String(item.json.request_number));
			expect(succeeded.every((number) => stored.includes(number))).toBe(true);
			const reported = failed.map((item) => numbers[(item.pairedItem as { item: number }).item]);
			expect([...succeeded, ...reported].sort()).toEqual([...numbers].sort());
			// A failed item that went out may have created its request; one that was not sent did not.
			for (const item of failed) {
				const number = numbers[(item.pairedItem as { item: number }).item];
				if (String(item.json.error).endsWith('was not sent')) expect(stored).not.toContain(number);
			}
		},
		RUN_DUE + generous(1_000),
	);

	it(
		'the trigger’s activation rides out a 2 s outage and registers its webhook once',
		async () => {
			const harness = new TriggerHarness(
				{ registration: 'automatic', events: ['container.updated'], options: {} },
				credentials(),
			);
			handle.sandbox.outage.start({ seconds: 2, kind: 'mix' });
			await harness.activate();
			const webhooks = handle.sandbox.world.store.list('webhook');
			expect(webhooks).toHaveLength(1);
			expect(handle.sandbox.outage.status().calls_during_outage).toBeGreaterThan(0);
			// The service is back after 2 s, and the circuit's probes are at most 2 s apart by then
			// (0.5 to 1 s, 0.5 to 1 s, then 1 to 2 s): one finds it back within 2 s; then activation's
			// calls (quietly well under a second).
		},
		byClock(2_000 + 2_000) + generous(1_000),
	);

	it(
		'a list search in the editor waits a short outage out, and gives up on a long one in about 10 s',
		async () => {
			// A sandbox whose tracking requests succeed at once, so that there is a container to list.
			await handle.stop();
			handle = await startPacedSandbox({ trackingDelaySeconds: 0 });
			await trackManyContainers(handle, [withCheckDigit('MSCU730001')], 'MSCU');
			handle.sandbox.outage.start({ seconds: 2, kind: '503' });
			const found = await searchWithNode('searchContainers', credentials());
			expect(found.results.map((result) => String(result.name))).toEqual([
				expect.stringMatching(/^MSCU730001\d/),
			]);

			handle.sandbox.outage.start({ seconds: 60, kind: '503' });
			const started = Date.now();
			await expect(searchWithNode('searchContainers', credentials())).rejects.toThrow(
				/^The service has not answered for 1\d s \(last: HTTP 503 at .+\); this call got no answer$/,
			);
			// It gave up at its tolerance (10 s for a list search, transport/request.ts), well before the
			// outage ended.
			expect(Date.now() - started).toBeLessThan(byClock(SEARCH_TOLERANCE_MS) + generous(1_000));
			handle.sandbox.outage.end();
		},
		byClock(2_000 + 2_000 + SEARCH_TOLERANCE_MS) + generous(3_000),
	);
});

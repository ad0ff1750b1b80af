// The node as an AI model's tool (actions/tool.ts), run by n8n's engine as n8n runs tools
// (test/support/toolRun.ts) against a started sandbox: the model is asked for a container number
// as a person says it, reads what the operation is for, gets the box's answer without its empty
// members, and is told in sentences what went wrong (a mistyped number, a box not tracked, the
// service failing or limiting calls for a while), after which the next call works.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { runContainerTrackingNode } from '../support/engine';
import { callTool } from '../support/toolRun';
import { API_KEY, startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';
import { toolDescription as getToolDescription } from '../../nodes/ContainerTracking/actions/container/get';

const BOX = 'MSCU1000022';

/** Container → Get as the desk's tool: the number is the model's to fill. */
const STATUS_TOOL = {
	resource: 'container',
	operation: 'get',
	containerId: {
		__rl: true,
		mode: 'number',
		value:
			"={{ $fromAI('container_number', 'The container number as the person wrote it, e.g. MSKU7654328', 'string') }}",
	},
};

describe('the node as a tool', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const ask = (containerNumber: string) =>
		callTool(STATUS_TOOL, { container_number: containerNumber }, credentials(), {
			toolName: 'container_status',
		});

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		await trackContainer(handle, BOX, 'MSCU');
	});
	afterAll(async () => handle.stop());
	afterEach(() => handle.control.delete('/faults'));

	it('says when to use it, asks for the number, and answers what Container → Get says', async () => {
		// As a person writes it: lower case, spaced.
		const call = await ask('mscu 100002 2');
		expect(call.error).toBeUndefined();
		expect(call.name).toBe('container_status');
		expect(call.description).toBe(getToolDescription);
		expect(call.argumentNames).toEqual(['container_number']);
		const { items } = await runContainerTrackingNode(
			{ ...STATUS_TOOL, containerId: { __rl: true, mode: 'number', value: BOX } },
			[{}],
			credentials(),
		);
		const said = Object.fromEntries(
			Object.entries(items[0].json).filter(
				([name, value]) => value !== null && name !== 'container_as_of' && !/_ids?$/.test(name),
			),
		);
		expect(call.answer).toHaveLength(1);
		const { container_as_of: asOf, ...answer } = call.answer![0];
		expect(answer).toEqual(said);
		expect(Date.parse(String(asOf))).not.toBeNaN();
		// Nothing empty: a model's context holds what says something.
		expect(Object.values(call.answer![0])).not.toContain(null);
	});

	it('a box’s events: each place, terminal and vessel by its name, no ids', async () => {
		const call = await callTool(
			{
				resource: 'container',
				operation: 'getTransportEvents',
				containerId: STATUS_TOOL.containerId,
				returnAll: true,
			},
			{ container_number: BOX },
			credentials(),
		);
		expect(call.error).toBeUndefined();
		const { items } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getTransportEvents',
				containerId: { __rl: true, mode: 'number', value: BOX },
				returnAll: true,
			},
			[{}],
			credentials(),
		);
		expect(call.answer).toHaveLength(items.length);
		expect(items.length).toBeGreaterThan(0);
		for (const [index, event] of call.answer!.entries()) {
			const item = items[index].json as Record<string, { name?: string } | string | null>;
			expect(event.event).toBe(item.event);
			for (const related of ['location', 'terminal', 'vessel'])
				if (item[related] && typeof item[related] === 'object')
					expect(event[related]).toBe((item[related] as { name: string }).name);
			expect(JSON.stringify({ ...event, id: undefined })).not.toMatch(
				/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/i,
			);
			// A short line per event, not the records it names spelled out.
			expect(JSON.stringify(event).length).toBeLessThan(JSON.stringify(item).length / 2);
		}
	});

	it('a mistyped number: an answer naming the number it most likely is', async () => {
		const typo = `${BOX.slice(0, 10)}${(Number(BOX.slice(10)) + 1) % 10}`;
		const call = await ask(typo);
		expect(call.error).toBeUndefined();
		expect(call.answer).toEqual([
			{
				error: expect.stringContaining(
					`${typo} fails its check digit (ISO 6346 expects ${BOX.slice(10)} at the end): did you mean ${BOX}? This account tracks ${BOX}.`,
				),
			},
		]);
		expect(String(call.answer![0].error)).not.toMatch(/\bitem\b/i);
	});

	it('a box this account does not track: an answer saying so and how to track it', async () => {
		const untracked = withCheckDigit('MSKU765432');
		const call = await ask(untracked);
		expect(call.error).toBeUndefined();
		expect(String(call.answer![0].error)).toMatch(
			new RegExp(
				`^No container numbered ${untracked} is tracked by this account\\. .*Create a tracking request for it first`,
			),
		);
	});

	it('what is no container number: an answer saying what one looks like', async () => {
		const call = await ask('the blue one');
		expect(call.error).toBeUndefined();
		expect(call.answer).toEqual([
			{
				error:
					'"the blue one" is not a container number. The field "Container" (Number) takes four letters and seven digits, e.g. MSKU4807969.',
			},
		]);
	});

	it(
		'the service failing for a while: an answer in seconds, not minutes; then the next call works',
		async () => {
			await handle.control.post('/faults', {
				path: '/containers/*',
				kind: 'error_500',
				count: 1_000,
			});
			const started = Date.now();
			const failing = await ask(BOX);
			const waited = Date.now() - started;
			expect(failing.error).toBeUndefined();
			expect(String(failing.answer![0].error)).toMatch(
				/^The tracking service is not answering right now \(HTTP 500\), so this was not answered\. Try again in a minute or two\./,
			);
			// A tool rides an outage out for 10 s (a workflow item for 120 s): the model is not left waiting.
			expect(waited).toBeLessThan(generous(30_000));
			await handle.control.delete('/faults');
			const after = await ask(BOX);
			expect(after.answer![0]).toMatchObject({ number: BOX });
		},
		generous(60_000),
	);

	it(
		'the service limiting calls for a while: an answer saying to wait; then the next call works',
		async () => {
			await handle.control.post('/faults', {
				path: '/containers/*',
				kind: 'rate_limited',
				retry_after: 1,
				count: 1_000,
			});
			const limited = await ask(BOX);
			expect(limited.error).toBeUndefined();
			expect(limited.answer).toEqual([
				{
					error:
						'The tracking service is limiting requests right now (HTTP 429), so this was not answered. Wait a minute, then ask again.',
				},
			]);
			await handle.control.delete('/faults');
			expect((await ask(BOX)).answer![0]).toMatchObject({ number: BOX });
		},
		// After a run of 429s this process allows itself one call a rate window (transport/rateLimit.ts):
		// the next call may wait that window, as the answer tells the model to.
		generous(120_000),
	);
});

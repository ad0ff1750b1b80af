// Get Transport Events puts the container's number on every event item (`container_number`,
// beside `container_id`), run by n8n's engine against a started sandbox: from the included
// container when the answer has it, else from one GET of the container per call of the
// operation, never one per event.
import type { INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import {
	API_KEY,
	countRequests,
	startTestSandbox,
	trackContainer,
	type SandboxHandle,
} from '../support/sandbox';

describe('Container Tracking node: transport events carry the container number', () => {
	let handle: SandboxHandle;
	const numbers = [withCheckDigit('MSCU610001'), withCheckDigit('MSCU610002')];
	const ids: string[] = [];
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const events = (parameters: INodeParameters, input: Array<{ id: string }>) =>
		runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getTransportEvents',
				containerId: '={{ $json.id }}',
				returnAll: true,
				...parameters,
			},
			input,
			credentials(),
		);
	let counters: Array<() => Promise<number>> = [];
	const total = async () =>
		(await Promise.all(counters.map((count) => count()))).reduce((a, b) => a + b, 0);
	/** Counts GETs of the containers themselves (not of their events) from now on. */
	const containerGets = async () => {
		const before = await total();
		return async () => (await total()) - before;
	};

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		for (const number of numbers)
			ids.push((await trackContainer(handle, number, 'MSCU')).containerIds[0]);
		// Some way into the journeys: several events each.
		await handle.control.post('/clock/advance', { days: 10 });
		counters = await Promise.all(
			ids.map((id) => countRequests(handle, 'GET', `/containers/${id}`)),
		);
	});
	afterAll(async () => handle.stop());

	it('every event has its container number beside container_id, one GET per input item', async () => {
		const gets = await containerGets();
		const { items, error } = await events({}, [{ id: ids[0] }, { id: ids[1] }]);
		expect(error).toBeUndefined();
		for (const [index, id] of ids.entries()) {
			const own = items.filter((item) => (item.pairedItem as { item: number }).item === index);
			expect(own.length).toBeGreaterThan(2);
			for (const { json } of own) {
				expect(json).toMatchObject({ container_id: id, container_number: numbers[index] });
				const keys = Object.keys(json);
				expect(keys[keys.indexOf('container_id') + 1]).toBe('container_number');
			}
		}
		expect(await gets()).toBe(2);
	});

	it('takes the number from the included container without a GET of it', async () => {
		const gets = await containerGets();
		const { items, error } = await events({ options: { include: ['container', 'vessel'] } }, [
			{ id: ids[1] },
		]);
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(2);
		expect(items.every((item) => item.json.container_number === numbers[1])).toBe(true);
		expect(await gets()).toBe(0);
	});

	it('uses the number the container was given by, without a GET of it', async () => {
		const gets = await containerGets();
		const { items, error } = await events(
			{ containerId: { __rl: true, mode: 'number', value: numbers[0] } },
			[{ id: 'unused' }],
		);
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(2);
		expect(
			items.every(
				(item) => item.json.container_id === ids[0] && item.json.container_number === numbers[0],
			),
		).toBe(true);
		expect(await gets()).toBe(0);
	});

	it('makes no call for the number when no event is left after filtering', async () => {
		const gets = await containerGets();
		const { items, error } = await events(
			{ options: { eventNames: ['container.transport.rail_arrived'] } },
			[{ id: ids[0] }],
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
		expect(await gets()).toBe(0);
	});
});

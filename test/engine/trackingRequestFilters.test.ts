// Tracking Request → Get Many with the filters the service applies itself (carrier, one status,
// created and updated since) through n8n's engine against a started sandbox of 250 requests:
// one call instead of three pages, and filters only the node can apply (several statuses, part
// of a number) still hold beside them.
import type { INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { runContainerTrackingNode } from '../support/engine';
import {
	API_KEY,
	countRequests,
	startTestSandbox,
	trackContainer,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

describe('Tracking Request → Get Many, filtered by the service', () => {
	let handle: SandboxHandle;
	let listCalls: () => Promise<number>;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const maersk = [withCheckDigit('MSKU760001'), withCheckDigit('MSKU760002')];
	let betweenTheTwo: string;

	const getMany = (filters: INodeParameters) =>
		runContainerTrackingNode(
			{
				resource: 'trackingRequest',
				operation: 'getMany',
				returnAll: true,
				filters,
				simplify: false,
			},
			[{}],
			credentials(),
		);

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		await trackManyContainers(
			handle,
			Array.from({ length: 250 }, (_, index) =>
				withCheckDigit(`MSCU76${String(index).padStart(4, '0')}`),
			),
			'MSCU',
		);
		await trackContainer(handle, maersk[0], 'MAEU');
		await handle.control.post('/clock/advance', { seconds: 60 });
		betweenTheTwo = new Date(
			Date.parse((await handle.control.get('/clock')).data.now) - 30_000,
		).toISOString();
		await trackContainer(handle, maersk[1], 'MAEU');
		listCalls = await countRequests(handle, 'GET', '/tracking_requests');
		// Under a second on the busy two-core machine.
	}, generous(2_000));
	afterAll(async () => handle?.stop());

	it('by carrier and one status: one call, newest first, only those', async () => {
		const before = await listCalls();
		const { items, error } = await getMany({ scac: 'maeu', statuses: ['created'] });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.request_number)).toEqual([maersk[1], maersk[0]]);
		expect((await listCalls()) - before).toBe(1);
	});

	it('created after a time: only what came later, in one call', async () => {
		const before = await listCalls();
		const { items } = await getMany({ createdAfter: betweenTheTwo });
		expect(items.map((item) => item.json.request_number)).toEqual([maersk[1]]);
		expect((await listCalls()) - before).toBe(1);
	});

	it('filters only the node can apply still hold beside the service’s: part of a number, several statuses', async () => {
		const { items } = await getMany({
			scac: 'MSCU',
			requestNumber: 'cu760 12',
			statuses: ['created', 'pending'],
		});
		// Created in the same second: their order among themselves is the service's.
		expect(items.map((item) => item.json.request_number).sort()).toEqual(
			Array.from({ length: 10 }, (_, index) => withCheckDigit(`MSCU7601${20 + index}`)).sort(),
		);
	});
});

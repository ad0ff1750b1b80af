// Finding boxes by whose they are (nodes/ContainerTracking/logic/ownership.ts), through n8n's
// engine against a started sandbox whose shipments are named for customers, references and tags
// as a user names them at the service: Container and Shipment → Get Many keep the matches (the
// service filters neither list by them), and Search → Find by Number finds a reference number,
// as the service's search does. Which boxes match is known by construction.
import type { INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import {
	API_KEY,
	startTestSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

const OWNERS = [
	{ customer: 'Acme Imports', refs: ['PO 4411-B'], tags: ['reefer'] },
	{ customer: 'Acme Imports West', refs: ['SO-19'], tags: [] },
	{ customer: 'Blue Harbor Foods', refs: ['PO-7000'], tags: ['Reefer', 'priority'] },
	{ customer: null, refs: [], tags: [] },
].map((owner, index) => ({
	...owner,
	number: withCheckDigit(`MSCU${String(650_200 + index * 3)}`),
}));

describe('Container Tracking node: finding boxes by customer, reference and tag', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const run = async (parameters: INodeParameters) => {
		const { items, error } = await runContainerTrackingNode(parameters, [{}], credentials());
		if (error) throw error;
		return items.map((item) => item.json);
	};
	/** The container numbers Get Many keeps, sorted. */
	const containers = async (filters: INodeParameters, simplify = true) =>
		(await run({ resource: 'container', operation: 'getMany', returnAll: true, filters, simplify }))
			.map((item) => String(item.number))
			.sort();
	const numbersOf = (...indexes: number[]) => indexes.map((index) => OWNERS[index].number).sort();

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		await trackManyContainers(
			handle,
			OWNERS.map((owner) => owner.number),
			'MSCU',
		);
		const store = handle.sandbox.world.store;
		for (const owner of OWNERS) {
			const container = store
				.list('container')
				.find((record) => record.attributes.number === owner.number)!;
			const shipment = store.related(container, 'shipment')[0];
			const answer = await handle.control.patch(`/shipments/${shipment.id}`, {
				customer_name: owner.customer,
				ref_numbers: owner.refs,
				tags: owner.tags,
			});
			expect(answer.status).toBe(200);
		}
	});
	afterAll(async () => handle?.stop());

	it('Container → Get Many names whose box each is, simplified or not', async () => {
		for (const simplify of [true, false]) {
			const items = await run({
				resource: 'container',
				operation: 'getMany',
				returnAll: true,
				simplify,
			});
			const byNumber = new Map(items.map((item) => [item.number, item]));
			for (const owner of OWNERS)
				expect(byNumber.get(owner.number)).toMatchObject({
					customer_name: owner.customer,
					shipment_ref_numbers: owner.refs,
					shipment_tags: owner.tags,
					bill_of_lading_number: expect.any(String),
				});
		}
	});

	it('Customer keeps the boxes whose customer name contains the text, ignoring case', async () => {
		expect(await containers({ customer: 'acme imports' })).toEqual(numbersOf(0, 1));
		expect(await containers({ customer: 'Blue Harbor' })).toEqual(numbersOf(2));
		expect(await containers({ customer: 'Globex' })).toEqual([]);
	});

	it('Reference Number ignores case, spaces and dashes; Tags keeps any of them, ignoring case', async () => {
		expect(await containers({ reference: 'po4411b' })).toEqual(numbersOf(0));
		expect(await containers({ reference: 'PO' })).toEqual(numbersOf(0, 2));
		expect(await containers({ tags: 'REEFER' })).toEqual(numbersOf(0, 2));
		expect(await containers({ tags: 'priority, hazmat' })).toEqual(numbersOf(2));
		// Every filter set must hold.
		expect(await containers({ customer: 'acme', tags: 'reefer' })).toEqual(numbersOf(0));
	});

	it('Shipment → Get Many keeps the shipments of a customer, reference or tag', async () => {
		const shipments = async (filters: INodeParameters) =>
			(await run({ resource: 'shipment', operation: 'getMany', returnAll: true, filters }))
				.map((item) => (item.container_numbers as string[])[0])
				.sort();
		expect(await shipments({ customer: 'Acme' })).toEqual(numbersOf(0, 1));
		expect(await shipments({ reference: 'so 19' })).toEqual(numbersOf(1));
		expect(await shipments({ tags: 'reefer' })).toEqual(numbersOf(0, 2));
		const [item] = await run({
			resource: 'shipment',
			operation: 'getMany',
			returnAll: true,
			filters: { customer: 'blue harbor' },
		});
		expect(item).toMatchObject({
			customer_name: 'Blue Harbor Foods',
			shipment_ref_numbers: ['PO-7000'],
			shipment_tags: ['Reefer', 'priority'],
		});
	});

	it('Search → Find by Number finds a reference number, as the service’s search does', async () => {
		const found = await run({ resource: 'search', operation: 'byNumber', query: 'PO-7000' });
		expect(found.length).toBeGreaterThan(0);
		expect(found.map((item) => item.ref_numbers)).toContainEqual(['PO-7000']);
	});
});

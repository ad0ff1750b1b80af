// Search → Find by Number through n8n's engine against a started sandbox: a number as the user
// has it (part of one, any case) finds shipments, containers and tracking requests, each with the
// id the other operations take, in the service's order and within its 25; a container number
// tracked on two shipments says so; an empty Number fails naming the field.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { generous } from '../support/bounds';
import { runContainerTrackingNode } from '../support/engine';
import {
	API_KEY,
	startTestSandbox,
	trackContainer,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

const byNumber = (query: string) => ({ resource: 'search', operation: 'byNumber', query });

describe('Search → Find by Number', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const twice = withCheckDigit('MSKU730001');
	let tracked: Array<Awaited<ReturnType<typeof trackContainer>>>;

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		// One box tracked through two lines: two shipments hold a container of that number.
		tracked = [
			await trackContainer(handle, twice, 'MAEU'),
			await trackContainer(handle, twice, 'MSCU'),
		];
		await trackManyContainers(
			handle,
			Array.from({ length: 30 }, (_, index) => withCheckDigit(`TGHU${730_100 + index}`)),
			'MSCU',
		);
		// Under half a second on the busy two-core machine.
	}, generous(2_000));
	afterAll(async () => handle?.stop());

	it('finds a container number on two shipments, says so, and gives each record the ids the other operations take', async () => {
		const { items, error } = await runContainerTrackingNode(
			byNumber(` ${twice.toLowerCase()} `),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		const found = items.map((item) => item.json);
		// Containers, then tracking requests (no shipment's bill of lading holds the number).
		expect(found.map((item) => item.result_type)).toEqual([
			'container',
			'container',
			'tracking_request',
			'tracking_request',
		]);
		const shipmentIds = tracked.map((entry) => entry.shipmentId).sort();
		const containers = found.filter((item) => item.result_type === 'container');
		expect(containers.map((item) => item.shipment_id).sort()).toEqual(shipmentIds);
		expect(containers.map((item) => item.container_id).sort()).toEqual(
			tracked.flatMap((entry) => entry.containerIds).sort(),
		);
		for (const container of containers) {
			expect(container).toMatchObject({ number: twice, on_several_shipments: true });
			expect((container.shipment_ids_of_number as string[]).sort()).toEqual(shipmentIds);
		}
		const requests = found.filter((item) => item.result_type === 'tracking_request');
		expect(requests.map((item) => item.tracking_request_id).sort()).toEqual(
			tracked.map((entry) => entry.trackingRequestId).sort(),
		);
		expect(requests.map((item) => item.scac).sort()).toEqual(['MAEU', 'MSCU']);
		expect(found.every((item) => item.warnings === undefined)).toBe(true);
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('finds a shipment by its bill of lading, first, with its containers counted', async () => {
		const shipment = handle.sandbox.world.store.get('shipment', tracked[0].shipmentId)!;
		const billOfLading = String(shipment.attributes.bill_of_lading_number);
		const { items, error } = await runContainerTrackingNode(
			byNumber(billOfLading.slice(2)),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			result_type: 'shipment',
			id: tracked[0].shipmentId,
			shipment_id: tracked[0].shipmentId,
			number: billOfLading,
			scac: 'MAEU',
			containers_count: 1,
			tracking_stopped: false,
		});
	});

	it('answers at most the service’s 25 for part of a number, each container once', async () => {
		const { items, error } = await runContainerTrackingNode(
			byNumber('tghu7301'),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(25);
		const numbers = items.map((item) => String(item.json.number));
		expect(numbers.every((number) => number.startsWith('TGHU7301'))).toBe(true);
		const containers = items.filter((item) => item.json.result_type === 'container');
		expect(new Set(containers.map((item) => item.json.container_id)).size).toBe(containers.length);
		expect(containers.every((item) => item.json.on_several_shipments === false)).toBe(true);
	});

	it('finds nothing for a number the account does not track: no item', async () => {
		const { items, error } = await runContainerTrackingNode(
			byNumber(withCheckDigit('ZZZU000001')),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
	});

	it('an empty Number fails naming the field; with Continue On Fail the item says so', async () => {
		const { items, error } = await runContainerTrackingNode(
			byNumber('  '),
			[{}, {}],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		for (const [index, item] of items.entries()) {
			expect(item.pairedItem).toEqual({ item: index });
			expect(String(item.json.error)).toContain('"Number"');
		}
	});
});

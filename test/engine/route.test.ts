// Container → Get Route through n8n's engine against a started sandbox: a container's stops in
// route order, each with its place, terminal, vessel and times, as the service's records say
// them; an account without Routing Data gets a sentence that says so on each item.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import { expectEveryItemRefused } from '../support/paidFeature';
import {
	API_KEY,
	startTestSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

const getRoute = {
	resource: 'container',
	operation: 'getRoute',
	containerId: { __rl: true, mode: 'number', value: '={{ $json.number }}' },
};
const NUMBER = withCheckDigit('MSCU764001');

describe('Container → Get Route', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });

	afterEach(async () => handle?.stop());

	it('gives the stops in route order: port of lading, port of discharge and its terminal, the vessel and its times', async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		const container = (await trackManyContainers(handle, [NUMBER], 'MSCU')).find(
			(record) => record.attributes.number === NUMBER,
		)!;
		const store = handle.sandbox.world.store;
		const shipment = store.related(container, 'shipment')[0];
		const line = shipment.attributes as Record<string, unknown>;
		const { items, error } = await runContainerTrackingNode(
			getRoute,
			[{ number: NUMBER }],
			credentials(),
		);
		expect(error).toBeUndefined();
		const route = items[0].json;
		expect(route).toMatchObject({ container_id: container.id, container_number: NUMBER });
		const stops = route.stops as Array<Record<string, unknown>>;
		const inland = Boolean(line.destination_name);
		expect(stops).toHaveLength(inland ? 3 : 2);
		expect(stops[0]).toMatchObject({
			place: line.port_of_lading_name,
			locode: line.port_of_lading_locode,
			departed_at: line.pol_atd_at,
			departure_expected_at: line.pol_etd_at,
			leaves_by: 'vessel',
			outbound_vessel_name: line.pod_vessel_name,
			arrived_at: null,
		});
		expect(stops[1]).toMatchObject({
			place: line.port_of_discharge_name,
			locode: line.port_of_discharge_locode,
			facility_name: store.related(shipment, 'pod_terminal')[0].attributes.name,
			arrival_expected_at: line.pod_eta_at,
			arrives_by: 'vessel',
			inbound_vessel_name: line.pod_vessel_name,
			inbound_vessel: expect.objectContaining({ imo: line.pod_vessel_imo }),
			inbound_voyage_number: line.pod_voyage_number,
		});
		if (inland)
			expect(stops[2]).toMatchObject({ place: line.destination_name, arrives_by: 'rail' });
	});

	it('an account without the feature: each item says so in words, and Continue On Fail keeps every item', async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0, routingData: false });
		await trackManyContainers(handle, [NUMBER], 'MSCU');
		const run = await runContainerTrackingNode(
			getRoute,
			[{ number: NUMBER }, { number: NUMBER }],
			credentials(),
			{ continueOnFail: true },
		);
		expectEveryItemRefused(
			run,
			2,
			'This account cannot read container routes: Routing Data is a paid feature',
		);
	});
});

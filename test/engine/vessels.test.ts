// Vessel → Get through n8n's engine against a started sandbox: a vessel by its id or by its IMO
// number, with its recent positions when asked (oldest first, ending where it is now); an
// unknown vessel fails its item with the service's 404, an empty field names the field.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import { API_KEY, startTestSandbox, trackContainer, type SandboxHandle } from '../support/sandbox';

describe('Vessel → Get', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const get = (vessel: string, showPositions = false) => ({
		resource: 'vessel',
		operation: 'get',
		vessel,
		showPositions,
	});

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		await trackContainer(handle, withCheckDigit('MSKU763001'), 'MAEU');
	});
	afterAll(async () => handle?.stop());

	it('by id, and by IMO with its positions, oldest first, ending where it is', async () => {
		const [vessel] = handle.sandbox.world.store.list('vessel');
		const { imo, name, latitude, longitude } = vessel.attributes as Record<string, unknown>;
		const byId = await runContainerTrackingNode(get(vessel.id), [{}], credentials());
		expect(byId.error).toBeUndefined();
		expect(byId.items[0].json).toMatchObject({ id: vessel.id, name, imo });
		expect(byId.items[0].json.positions).toBeUndefined();

		const byImo = await runContainerTrackingNode(get(String(imo), true), [{}], credentials());
		expect(byImo.error).toBeUndefined();
		const positions = byImo.items[0].json.positions as Array<Record<string, unknown>>;
		expect(byImo.items[0].json.id).toBe(vessel.id);
		expect(positions.length).toBeGreaterThan(1);
		const times = positions.map((position) => Date.parse(String(position.timestamp)));
		expect([...times].sort((a, b) => a - b)).toEqual(times);
		expect(positions.at(-1)).toMatchObject({ latitude, longitude });
	});

	it('an unknown vessel fails with the service’s 404, an empty one names the field; Continue On Fail keeps both', async () => {
		const { items, error } = await runContainerTrackingNode(
			{ ...get('={{ $json.vessel }}') },
			[{ vessel: '0000000' }, { vessel: '' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.http_code).toBe('404');
		expect(String(items[1].json.error)).toContain('"Vessel ID or IMO"');
	});
});

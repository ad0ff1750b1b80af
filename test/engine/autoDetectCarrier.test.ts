// Tracking Request → Create with Shipping Line "Detected by the Service" through n8n's engine
// against a started sandbox: the request goes out without a carrier (`auto_detect_vocc_scac`),
// no inference call is made, and the service's own detection decides: the carrier it found, or
// `scac_auto_detect_failed`. Custom fields go with the request; a Custom Fields option that is
// not a JSON object fails its item naming the option.
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import {
	API_KEY,
	countRequests,
	eventually,
	startTestSandbox,
	type SandboxHandle,
} from '../support/sandbox';

describe('Tracking Request → Create, carrier detected by the service', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const create = (requestNumber: string, options = {}) => ({
		resource: 'trackingRequest',
		operation: 'create',
		requestNumber,
		requestType: 'container',
		scac: 'auto_detect',
		options,
	});
	const stored = (id: string) => handle.sandbox.world.store.get('tracking_request', id)!.attributes;

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
	});
	afterAll(async () => handle?.stop());

	it('sends no carrier and asks for no inference; the service finds Maersk for an MSKU box', async () => {
		const inferences = await countRequests(handle, 'POST', '/tracking_requests/infer_number');
		const customFields = { shipment: [{ api_slug: 'po', value: 'PO-77' }] };
		const { items, error } = await runContainerTrackingNode(
			create(withCheckDigit('MSKU761001'), { customFields: JSON.stringify(customFields) }),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'pending', already_tracked: false });
		expect(items[0].json.scac ?? null).toBeNull();
		expect(await inferences()).toBe(0);
		const id = String(items[0].json.id);
		expect(stored(id).initial_custom_fields).toEqual(customFields);
		await eventually(() => (stored(id).status === 'created' ? true : undefined), {
			what: 'the request to be created',
		});
		expect(stored(id).scac).toBe('MAEU');
	});

	it('a number whose carrier cannot be told fails at the service with scac_auto_detect_failed', async () => {
		// A lessor's box: its prefix names no shipping line.
		const { items, error } = await runContainerTrackingNode(
			create(withCheckDigit('CAIU761002')),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		const id = String(items[0].json.id);
		await eventually(() => (stored(id).status === 'failed' ? true : undefined), {
			what: 'the request to fail',
		});
		expect(stored(id).failed_reason).toBe('scac_auto_detect_failed');
	});

	it('Custom Fields that are not a JSON object fail the item naming the option', async () => {
		const { items, error } = await runContainerTrackingNode(
			create(withCheckDigit('MSKU761003'), { customFields: '[1, 2' }),
			[{}],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toBe('The option "Custom Fields" is not a JSON object');
	});
});

// The Create Tracking Request operation, run by n8n's engine against a started sandbox: explicit
// and inferred carriers, duplicates, options that must reach the service, and per-item errors.
import type { INodeParameters } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { runContainerTrackingNode } from '../support/engine';
import { API_KEY, startTestSandbox, type SandboxHandle } from '../support/sandbox';

describe('Container Tracking node: create tracking request', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const create = (parameters: INodeParameters) => ({
		resource: 'trackingRequest',
		operation: 'create',
		...parameters,
	});
	const storedRequest = (id: unknown) =>
		handle.sandbox.world.store.get('tracking_request', String(id));

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 600 });
	});
	afterAll(async () => handle.stop());

	it('with an explicit type and carrier, creates a pending request; the same again is "already tracked"', async () => {
		const parameters = create({
			requestNumber: 'MSKU4807969',
			requestType: 'container',
			scac: 'MAEU',
		});
		const first = await runContainerTrackingNode(parameters, [{}], credentials());
		expect(first.error).toBeUndefined();
		expect(first.items).toHaveLength(1);
		expect(first.items[0].pairedItem).toEqual({ item: 0 });
		expect(first.items[0].json).toMatchObject({
			request_number: 'MSKU4807969',
			request_type: 'container',
			scac: 'MAEU',
			// `pending`, or what a drifting sandbox serves instead (test/support/sandbox.ts).
			status: handle.served('tracking_request', String(first.items[0].json.id)).attributes.status,
			already_tracked: false,
		});
		expect(first.items[0].json.id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
		// No inference was asked for, so none is reported.
		expect(first.items[0].json.inferred).toBeUndefined();
		expect(storedRequest(first.items[0].json.id)?.attributes).toMatchObject({
			request_number: 'MSKU4807969',
			scac: 'MAEU',
		});

		const again = await runContainerTrackingNode(parameters, [{}], credentials());
		expect(again.error).toBeUndefined();
		expect(again.items).toHaveLength(1);
		expect(again.items[0].pairedItem).toEqual({ item: 0 });
		expect(again.items[0].json).toMatchObject({
			request_number: 'MSKU4807969',
			scac: 'MAEU',
			already_tracked: true,
		});
		expect(String(again.items[0].json.message)).toContain('already being tracked');
		expect(
			handle.sandbox.world.store
				.list('tracking_request')
				.filter((request) => request.attributes.request_number === 'MSKU4807969'),
		).toHaveLength(1);
	});

	it('infers carrier and type of a bill of lading number with an auto_select prediction', async () => {
		const { items, error } = await runContainerTrackingNode(
			create({ requestNumber: 'MEDUFR030802', requestType: 'infer', scac: 'infer' }),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({
			request_number: 'MEDUFR030802',
			request_type: 'bill_of_lading',
			scac: 'MSCU',
			status: 'pending',
			already_tracked: false,
			inferred: { decision: 'auto_select', scac: 'MSCU', number_type: 'bill_of_lading' },
		});
		expect(storedRequest(items[0].json.id)?.attributes).toMatchObject({
			request_type: 'bill_of_lading',
			scac: 'MSCU',
		});
	});

	it('a needs_confirmation prediction fails the item listing the candidates, unless accepted', async () => {
		const number = withCheckDigit('MEDU123456');
		const parameters = create({ requestNumber: number, requestType: 'infer', scac: 'infer' });
		const refused = await runContainerTrackingNode(parameters, [{}], credentials());
		expect(refused.items).toEqual([]);
		expect(refused.error?.message).toContain(number);
		expect(refused.error?.message).toContain('needs_confirmation');
		expect(refused.error?.message).toContain('MSC (MSCU, 85 %)');
		expect(refused.error?.description).toContain('Accept Carrier Needing Confirmation');
		expect(
			handle.sandbox.world.store
				.list('tracking_request')
				.some((request) => request.attributes.request_number === number),
		).toBe(false);

		// With Continue On Fail the error item is all a user sees: it still names the candidates.
		const itemError = await runContainerTrackingNode(parameters, [{}], credentials(), {
			continueOnFail: true,
		});
		expect(itemError.error).toBeUndefined();
		expect(itemError.items).toHaveLength(1);
		expect(itemError.items[0].pairedItem).toEqual({ item: 0 });
		expect(String(itemError.items[0].json.error)).toContain('MSC (MSCU, 85 %)');

		const accepted = await runContainerTrackingNode(
			{ ...parameters, options: { acceptNeedsConfirmation: true } },
			[{}],
			credentials(),
		);
		expect(accepted.error).toBeUndefined();
		expect(accepted.items[0].json).toMatchObject({
			request_number: number,
			request_type: 'container',
			scac: 'MSCU',
			already_tracked: false,
			inferred: { decision: 'needs_confirmation', scac: 'MSCU' },
		});
	});

	it('a number with an unknown owner prefix (no_prediction) fails naming the decision', async () => {
		const number = withCheckDigit('CAIU123456');
		const { items, error } = await runContainerTrackingNode(
			create({
				requestNumber: number,
				requestType: 'infer',
				scac: 'infer',
				options: { acceptNeedsConfirmation: true },
			}),
			[{}],
			credentials(),
		);
		expect(items).toEqual([]);
		expect(error?.message).toContain(number);
		expect(error?.message).toContain('decision: no_prediction');
		expect(error?.context?.itemIndex).toBe(0);
	});

	it('reference numbers and shipment tags given as "a, b" reach the service as lists', async () => {
		const { items, error } = await runContainerTrackingNode(
			create({
				requestNumber: withCheckDigit('MSCU246810'),
				requestType: 'container',
				scac: 'MSCU',
				options: { refNumbers: 'PO-1, PO-2', shipmentTags: 'customer-a,  priority ,' },
			}),
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			ref_numbers: ['PO-1', 'PO-2'],
			shipment_tags: ['customer-a', 'priority'],
		});
		const { data } = await handle.api.get(`/tracking_requests/${String(items[0].json.id)}`);
		expect(data.data.attributes.ref_numbers).toEqual(['PO-1', 'PO-2']);
		expect(data.data.attributes.shipment_tags).toEqual(['customer-a', 'priority']);
	});

	it('with Continue On Fail, a bad middle item becomes an error item and the others are created', async () => {
		const numbers = [withCheckDigit('MSCU135790'), '', withCheckDigit('MSCU975310')];
		const { items, error } = await runContainerTrackingNode(
			create({ requestNumber: '={{ $json.number }}', requestType: 'container', scac: 'MSCU' }),
			numbers.map((number) => ({ number })),
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toMatchObject({ request_number: numbers[0], already_tracked: false });
		expect(items[1].json).toEqual({
			error: 'The field "Request Number" is empty',
			error_description:
				'Enter a value for "Request Number", or map one from the input with an expression.',
		});
		expect(items[2].json).toMatchObject({ request_number: numbers[2], already_tracked: false });
	});

	it('an invalid SCAC from an expression fails with the service detail and its pointer', async () => {
		const { items, error } = await runContainerTrackingNode(
			create({
				requestNumber: withCheckDigit('MSCU112233'),
				requestType: 'container',
				scac: '={{ $json.scac }}',
			}),
			[{ scac: 'XXXX' }],
			credentials(),
		);
		expect(items).toEqual([]);
		expect(error?.httpCode).toBe('422');
		expect(error?.message).toBe("Scac 'XXXX' is not recognized (/data/attributes/scac)");
		expect(error?.description).toContain('HTTP 422');
		expect(error?.context?.itemIndex).toBe(0);
	});
});

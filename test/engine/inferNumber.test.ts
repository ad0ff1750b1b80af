// The Infer Carrier and Number Type operation, run by n8n's engine against a started sandbox.
import { API_KEY, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { runContainerTrackingNode } from '../support/engine';

describe('Container Tracking node: infer carrier and number type', () => {
	let handle: SandboxHandle;
	const parameters = {
		resource: 'trackingRequest',
		operation: 'inferNumber',
		number: '={{ $json.number }}',
	};

	beforeAll(async () => {
		handle = await startTestSandbox();
	});
	afterAll(async () => handle.stop());

	it('answers one item per input number with the service fields and a flat summary', async () => {
		const { items, error } = await runContainerTrackingNode(
			parameters,
			[{ number: 'MSCU6639870' }, { number: 'medufr030802' }, { number: 'CAIU7432985' }],
			{ apiKey: API_KEY, baseUrl: `${handle.sandbox.url}/` },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const [container, billOfLading, wrongDigit] = items.map((item) => item.json);
		expect(container).toMatchObject({
			number: 'MSCU6639870',
			number_type: 'container',
			is_valid: true,
			scac: 'MSCU',
			carrier_name: 'MSC',
			decision: 'auto_select',
			validation: { check_digit_passed: true, type: 'container' },
		});
		expect(billOfLading).toMatchObject({
			number_type: 'bill_of_lading',
			scac: 'MSCU',
			decision: 'auto_select',
		});
		expect(wrongDigit).toMatchObject({
			number_type: 'container',
			is_valid: false,
			decision: 'no_prediction',
			scac: null,
			validation: { check_digit_passed: false },
		});
		expect(String((wrongDigit.validation as { reason: string }).reason)).toContain('6');
		// The flat summary says why, next to is_valid; a valid number has no reason.
		expect(wrongDigit.reason).toBe((wrongDigit.validation as { reason: string }).reason);
		expect(Object.keys(wrongDigit).indexOf('reason')).toBeLessThan(
			Object.keys(wrongDigit).indexOf('validation'),
		);
		expect(container.reason).toBeNull();
	});

	it('a wrong API key fails the node with the service answer', async () => {
		const { items, error } = await runContainerTrackingNode(
			parameters,
			[{ number: 'MSCU6639870' }],
			{
				apiKey: 'not-the-key',
				baseUrl: handle.sandbox.url,
			},
		);
		expect(items).toEqual([]);
		expect(error?.httpCode).toBe('401');
		expect(error?.message).toBe('Unknown API key');
		expect(error?.description).toContain('check the credential');
	});

	it('with Continue On Fail, an empty number yields an error item naming the field, and the rest succeed', async () => {
		const { items, error } = await runContainerTrackingNode(
			parameters,
			[{ number: '' }, { number: 'MSCU6639870' }],
			{ apiKey: API_KEY, baseUrl: handle.sandbox.url },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toMatch(/Number/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.scac).toBe('MSCU');
	});
});

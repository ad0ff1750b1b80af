// Find Numbers in Text, run by n8n's engine against a started sandbox: what the service is asked,
// what each number's item says, and what bad input gives.
import type { INodeParameters } from 'n8n-workflow';

import type { Occurrence } from '../../nodes/ContainerTracking/logic/numberFinder';

import { countRequests, API_KEY, startTestSandbox, type SandboxHandle } from '../support/sandbox';
import { runContainerTrackingNode } from '../support/engine';

const NOTICE = `ARRIVAL NOTICE
Master B/L: MEDUFR030802
Containers: MSCU6639870, TGHU 812345 7 and CAIU-743298-5 (the right check digit is 6).
Booking No.: 254839711`;

describe('Container Tracking node: find numbers in text', () => {
	let handle: SandboxHandle;
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const parameters = (options: INodeParameters = {}, inferCarrier = true): INodeParameters => ({
		resource: 'trackingRequest',
		operation: 'findNumbers',
		text: '={{ $json.text }}',
		inferCarrier,
		options,
	});

	/** The inference calls made since the last time this was called. */
	let inferences: () => Promise<number>;

	beforeAll(async () => {
		handle = await startTestSandbox();
		const counted = await countRequests(handle, 'POST', '/tracking_requests/infer_number');
		let seen = 0;
		inferences = async () => {
			const total = await counted();
			const since = total - seen;
			seen = total;
			return since;
		};
	});
	afterAll(async () => handle.stop());

	it('gives one item per number with the service inference, asking once per distinct number of the run', async () => {
		await inferences();
		const { items, error } = await runContainerTrackingNode(
			parameters(),
			// The body and its PDF's text name the same numbers.
			[{ text: NOTICE }, { text: `Copy of the notice:\n${NOTICE}` }],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(10);
		expect(items.map((item) => item.pairedItem)).toEqual([
			...Array(5).fill({ item: 0 }),
			...Array(5).fill({ item: 1 }),
		]);
		const [billOfLading, container, split, typo, booking] = items.map((item) => item.json);
		expect(billOfLading).toMatchObject({
			number: 'MEDUFR030802',
			number_type: 'bill_of_lading',
			scac: 'MSCU',
			decision: 'auto_select',
			inferred: true,
			label: 'B/L',
		});
		expect(container).toMatchObject({
			number: 'MSCU6639870',
			number_type: 'container',
			is_valid: true,
			check_digit_passed: true,
			scac: 'MSCU',
			decision: 'auto_select',
		});
		expect(split).toMatchObject({ number: 'TGHU8123457', found_as: ['TGHU 812345 7'] });
		expect(typo).toMatchObject({
			number: 'CAIU7432985',
			number_type: 'container',
			is_valid: false,
			check_digit_passed: false,
			expected_check_digit: 6,
			inferred: false,
			scac: null,
		});
		expect(String(typo.reason)).toContain('6');
		expect(String(typo.not_inferred_reason)).toContain('typo');
		expect(booking).toMatchObject({
			number: '254839711',
			number_type: 'booking',
			label: 'Booking',
		});
		// 4 distinct numbers worth asking about, in two items: 4 calls, not 8.
		expect(await inferences()).toBe(4);
	});

	it('infers the first Max Numbers to Infer and lists the others', async () => {
		await inferences();
		const text = `B/L Nos.: ${Array.from({ length: 6 }, (_, index) => `EGLV14200123456${index}`).join(', ')}`;
		const { items } = await runContainerTrackingNode(
			parameters({ maxNumbers: 2 }),
			[{ text }],
			credentials(),
		);
		expect(items.map((item) => item.json.inferred)).toEqual([
			true,
			true,
			false,
			false,
			false,
			false,
		]);
		expect(items[0].json).toMatchObject({ scac: 'EGLV', number_type: 'bill_of_lading' });
		expect(String(items[5].json.not_inferred_reason)).toContain('Max Numbers to Infer');
		expect(await inferences()).toBe(2);
	});

	it('without Infer Carrier asks nothing and still checks container numbers', async () => {
		await inferences();
		const { items } = await runContainerTrackingNode(
			parameters({}, false),
			[{ text: NOTICE }],
			credentials(),
		);
		expect(
			items.map((item) => [item.json.number, item.json.number_type, item.json.is_valid]),
		).toEqual([
			['MEDUFR030802', 'bill_of_lading', null],
			['MSCU6639870', 'container', true],
			['TGHU8123457', 'container', true],
			['CAIU7432985', 'container', false],
			['254839711', 'booking', null],
		]);
		expect(await inferences()).toBe(0);
	});

	it('finds numbers as mail clients write them, each counted once a place and placed in the text given', async () => {
		const text = [
			'Dear team,',
			'BL# MEDUFR030802 covers ＭＳＣＵ６６３９８７０ and TGHU\u00A0812345\u00A07;',
			'please release CSQU 305438',
			'3 and quote B/L#\tMEDUFR030802 on payment.',
		].join('\r\n');
		const { items, error } = await runContainerTrackingNode(
			parameters({}, false),
			[{ text }],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(
			items.map(({ json }) => [json.number, json.number_type, json.label, json.occurrence_count]),
		).toEqual([
			['MEDUFR030802', 'bill_of_lading', 'BL', 2],
			['MSCU6639870', 'container', null, 1],
			['TGHU8123457', 'container', null, 1],
			['CSQU3054383', 'container', null, 1],
		]);
		const places = items.flatMap(({ json }) => json.occurrences as unknown as Occurrence[]);
		expect(places.map((place) => [place.text, place.line, place.column])).toEqual([
			['MEDUFR030802', 2, 5],
			['MEDUFR030802', 4, 18],
			['ＭＳＣＵ６６３９８７０', 2, 25],
			['TGHU\u00A0812345\u00A07', 2, 41],
			['CSQU 305438\r\n3', 3, 16],
		]);
		for (const place of places)
			expect(text.slice(place.index, place.index + place.text.length)).toBe(place.text);
	});

	it('One Item per Text gives the counts and the list, also for a text without numbers', async () => {
		const { items } = await runContainerTrackingNode(
			parameters({ output: 'oneItem' }, false),
			[{ text: NOTICE }, { text: 'Thank you for your booking. We confirm your order.' }],
			credentials(),
		);
		expect(items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				numbers_found: 5,
				containers: 3,
				bills_of_lading: 1,
				bookings: 1,
				invalid: 1,
				text_length: NOTICE.length,
			}),
			expect.objectContaining({ numbers_found: 0, numbers: [] }),
		]);
		const { items: eachNumber } = await runContainerTrackingNode(
			parameters({}, false),
			[{ text: 'Thank you for your booking.' }],
			credentials(),
		);
		expect(eachNumber).toEqual([]);
	});

	it('with Continue On Fail, empty, non-text and binary input each give an error item naming the field, and the others their numbers', async () => {
		const { items, error } = await runContainerTrackingNode(
			parameters({}, false),
			[
				{ text: '' },
				{ text: { body: NOTICE } },
				{ text: `%PDF-1.7\n${'\u0000\u0001\u0002\u0003'.repeat(100)}` },
				{ text: NOTICE },
			],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.slice(0, 3).map((item) => [item.pairedItem, item.json.error])).toEqual([
			[{ item: 0 }, 'The field "Text" is empty'],
			[{ item: 1 }, 'The field "Text" holds an object, not text'],
			[{ item: 2 }, expect.stringContaining('binary data')],
		]);
		expect(String(items[2].json.error_description)).toContain('Extract from File');
		expect(items.slice(3)).toHaveLength(5);
		expect(items.slice(3).every((item) => (item.pairedItem as { item: number }).item === 3)).toBe(
			true,
		);
	});

	it('a megabyte of text gives its numbers, with calls bounded by Max Numbers to Infer', async () => {
		await inferences();
		const filler = 'Please arrange pickup with the terminal before the last free day. '.repeat(250);
		const text = Array.from(
			{ length: 64 },
			(_, index) => `${filler}\nB/L: EGLV1420012${String(index).padStart(5, '0')}\n`,
		).join('');
		expect(text.length).toBeGreaterThan(1_000_000);
		const { items, error } = await runContainerTrackingNode(
			parameters({ maxNumbers: 5 }),
			[{ text }],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(64);
		expect(items.filter((item) => item.json.inferred)).toHaveLength(5);
		expect(await inferences()).toBe(5);
	});

	// Last: it clears the sandbox's faults, the request counter among them.
	it('with the service down, every number still gives its item, saying it was not inferred and why', async () => {
		// One fault answers a request: the request counter goes first.
		await handle.control.delete('/faults');
		const down = await handle.control.post('/faults', {
			path: '/tracking_requests/infer_number',
			method: 'POST',
			kind: 'error_500',
			rate: 1,
		});
		expect(down.status).toBe(201);
		try {
			const { items, error } = await runContainerTrackingNode(
				parameters({ outageTolerance: 1 }),
				[{ text: NOTICE }],
				credentials(),
			);
			expect(error).toBeUndefined();
			expect(
				items.map((item) => [item.json.number, item.json.inferred, item.json.is_valid]),
			).toEqual([
				['MEDUFR030802', false, null],
				['MSCU6639870', false, true],
				['TGHU8123457', false, true],
				['CAIU7432985', false, false],
				['254839711', false, null],
			]);
			for (const item of [items[0], items[1], items[2], items[4]])
				expect(String(item.json.not_inferred_reason)).toMatch(/^The service could not infer it: /);
			expect(String(items[3].json.not_inferred_reason)).toContain('typo');
		} finally {
			await handle.control.delete('/faults');
		}
	});
});

import { feesByType, feeTotals } from '../../nodes/ContainerTracking/logic/fees';
import type { TerminalFee } from '../../nodes/ContainerTracking/schemas';
import { describeWithFixtures, fixtureNames, readFixture } from '../support/sharedFixtures';

function fee(type: TerminalFee['type'], amount: number, currency_code?: string): TerminalFee {
	return currency_code === undefined ? { type, amount } : { type, amount, currency_code };
}

describe('feeTotals', () => {
	it('sums line items', () => {
		expect(
			feeTotals([fee('demurrage', 450, 'USD'), fee('exam', 325.5, 'USD'), fee('other', 20, 'USD')]),
		).toEqual({ fees_total: 795.5, fees_currency: 'USD', fees_by_currency: { USD: 795.5 } });
	});

	it('leaves out the total when line items are present (docs/service.md, "Fee totals")', () => {
		expect(
			feeTotals([
				fee('demurrage', 300, 'USD'),
				fee('total', 425, 'USD'),
				fee('extended_dwell_time', 125, 'USD'),
			]),
		).toEqual({ fees_total: 425, fees_currency: 'USD', fees_by_currency: { USD: 425 } });
	});

	it('leaves out a total that disagrees with the line items too', () => {
		expect(feeTotals([fee('demurrage', 300, 'USD'), fee('total', 999, 'USD')]).fees_total).toBe(
			300,
		);
	});

	it('uses the total when it is the only fee', () => {
		expect(feeTotals([fee('total', 610.25, 'USD')])).toEqual({
			fees_total: 610.25,
			fees_currency: 'USD',
			fees_by_currency: { USD: 610.25 },
		});
	});

	it('adds several totals when only totals are present', () => {
		expect(feeTotals([fee('total', 100, 'EUR'), fee('total', 50.5, 'EUR')]).fees_total).toBe(150.5);
	});

	it('never adds across currencies', () => {
		expect(
			feeTotals([fee('demurrage', 100, 'USD'), fee('exam', 80, 'CAD'), fee('other', 5, 'USD')]),
		).toEqual({ fees_total: null, fees_currency: null, fees_by_currency: { USD: 105, CAD: 80 } });
	});

	it('keeps the per-currency sums of totals when only totals are present', () => {
		expect(feeTotals([fee('total', 100, 'USD'), fee('total', 90, 'EUR')])).toEqual({
			fees_total: null,
			fees_currency: null,
			fees_by_currency: { USD: 100, EUR: 90 },
		});
	});

	it('counts an amount of 0 (reported, not posted yet)', () => {
		expect(feeTotals([fee('demurrage', 0, 'USD')])).toEqual({
			fees_total: 0,
			fees_currency: 'USD',
			fees_by_currency: { USD: 0 },
		});
		// Line items at 0 still win over a total: the rule excludes `total` whenever items exist.
		expect(feeTotals([fee('exam', 0, 'USD'), fee('total', 180, 'USD')]).fees_total).toBe(0);
	});

	it('rounds to cents, free of floating-point artifacts', () => {
		expect(feeTotals([fee('exam', 0.1, 'USD'), fee('other', 0.2, 'USD')]).fees_total).toBe(0.3);
		expect(
			feeTotals([fee('demurrage', 1.1, 'USD'), fee('exam', 2.2, 'USD'), fee('other', 3.3, 'USD')])
				.fees_total,
		).toBe(6.6);
		expect(feeTotals(Array.from({ length: 10 }, () => fee('other', 0.1, 'USD'))).fees_total).toBe(
			1,
		);
		// 1.005 * 100 is 100.49999… in binary; it still rounds half up to 1.01.
		expect(feeTotals([fee('other', 1.005, 'USD')]).fees_total).toBe(1.01);
		expect(
			feeTotals([fee('exam', 0.1, 'USD'), fee('other', 0.2, 'USD'), fee('exam', 0.7, 'CAD')])
				.fees_by_currency,
		).toEqual({ USD: 0.3, CAD: 0.7 });
	});

	it('reads an empty array as no fees (docs/service.md, "Holds and fees")', () => {
		expect(feeTotals([])).toEqual({ fees_total: 0, fees_currency: null, fees_by_currency: {} });
	});

	it('reads a missing array as nothing reported', () => {
		for (const fees of [null, undefined]) {
			expect(feeTotals(fees)).toEqual({
				fees_total: null,
				fees_currency: null,
				fees_by_currency: {},
			});
		}
	});

	it('puts uncoded fees in the one currency their neighbours name', () => {
		expect(feeTotals([fee('demurrage', 100, 'USD'), fee('exam', 50)])).toEqual({
			fees_total: 150,
			fees_currency: 'USD',
			fees_by_currency: { USD: 150 },
		});
	});

	it("groups fees without any currency code under '' with no currency named", () => {
		expect(feeTotals([fee('demurrage', 100), fee('exam', 50)])).toEqual({
			fees_total: 150,
			fees_currency: null,
			fees_by_currency: { '': 150 },
		});
	});

	it("keeps uncoded fees apart under '' when several currencies appear", () => {
		expect(
			feeTotals([fee('demurrage', 100, 'USD'), fee('exam', 80, 'CAD'), fee('other', 5)]),
		).toEqual({
			fees_total: null,
			fees_currency: null,
			fees_by_currency: { USD: 100, CAD: 80, '': 5 },
		});
	});

	it('treats currency codes case-insensitively, reporting them upper case', () => {
		expect(feeTotals([fee('demurrage', 100, 'usd'), fee('exam', 50, ' USD ')])).toEqual({
			fees_total: 150,
			fees_currency: 'USD',
			fees_by_currency: { USD: 150 },
		});
	});

	it('counts amounts sent as numeric strings, and skips entries without a usable amount', () => {
		const fees = [
			fee('demurrage', 100, 'USD'),
			{ type: 'exam', amount: '50.25', currency_code: 'USD' },
			{ type: 'other', amount: Number.NaN, currency_code: 'USD' },
			{ type: 'other', amount: 'fifty', currency_code: 'USD' },
			{ type: 'other', currency_code: 'USD' },
			null,
			'demurrage',
		] as unknown as TerminalFee[];
		expect(feeTotals(fees)).toEqual({
			fees_total: 150.25,
			fees_currency: 'USD',
			fees_by_currency: { USD: 150.25 },
		});
	});

	it('counts fee types no table lists: only `total` is left out', () => {
		const fees = [
			fee('demurrage', 100, 'USD'),
			fee('storage', 40, 'USD'),
			fee('chassis_split', 12.5, 'USD'),
			fee('total', 152.5, 'USD'),
		] as unknown as TerminalFee[];
		expect(feeTotals(fees)).toMatchObject({ fees_total: 152.5, fees_currency: 'USD' });
		// Alone, an unknown type is a line item too; a lone `total` is used only when nothing else is.
		expect(
			feeTotals([fee('storage', 40, 'USD'), fee('total', 999, 'USD')] as TerminalFee[]),
		).toMatchObject({ fees_total: 40 });
	});

	it('does not change the fees it is given', () => {
		const fees = [fee('demurrage', 0.1, 'usd'), fee('total', 0.1, 'usd')];
		const copy = JSON.parse(JSON.stringify(fees)) as TerminalFee[];
		feeTotals(fees);
		expect(fees).toEqual(copy);
	});
});

describeWithFixtures('feeTotals: the service’s published containers', () => {
	it('reads every published fees array (all empty) as no fees', () => {
		type Resource = { type?: string; attributes?: { fees_at_pod_terminal?: TerminalFee[] } };
		type Document = { data?: Resource; included?: Resource[] };
		const feeArrays: TerminalFee[][] = [];
		for (const group of ['api', 'notifications'] as const) {
			for (const name of fixtureNames(group)) {
				const document = readFixture<Document>(group, name);
				for (const resource of [document.data, ...(document.included ?? [])]) {
					const fees = resource?.type === 'container' && resource.attributes?.fees_at_pod_terminal;
					if (Array.isArray(fees)) feeArrays.push(fees);
				}
			}
		}
		expect(feeArrays.length).toBeGreaterThan(0);
		for (const fees of feeArrays) {
			const expectedTotal = fees.length === 0 ? 0 : expect.any(Number);
			expect(feeTotals(fees).fees_total).toEqual(expectedTotal);
		}
	});
});

describe('feesByType', () => {
	it('sums each type as reported, the total under its own name', () => {
		expect(
			feesByType([
				fee('demurrage', 150, 'USD'),
				fee('demurrage', 225.1, 'USD'),
				fee('exam', 0, 'USD'),
				fee('total', 375.1, 'USD'),
			]),
		).toEqual({ demurrage: 375.1, exam: 0, total: 375.1 });
	});

	it('keeps a type no table lists under its name, and a fee without a type under other', () => {
		expect(
			feesByType([
				{ type: 'storage', amount: '40.5' } as unknown as TerminalFee,
				{ amount: 10 } as unknown as TerminalFee,
				fee('other', 5),
			]),
		).toEqual({ storage: 40.5, other: 15 });
	});

	it('is empty for no fees, null when nothing was reported or the currencies differ', () => {
		expect(feesByType([])).toEqual({});
		expect(feesByType(null)).toBeNull();
		expect(feesByType(undefined)).toBeNull();
		expect(feesByType([fee('demurrage', 100, 'USD'), fee('exam', 90, 'EUR')])).toBeNull();
		// An uncoded fee joins the sole code, as in feeTotals.
		expect(feesByType([fee('demurrage', 100, 'usd'), fee('exam', 90)])).toEqual({
			demurrage: 100,
			exam: 90,
		});
	});

	it('rounds to cents and skips an amount that is not a number', () => {
		expect(
			feesByType([
				fee('exam', 0.1),
				fee('exam', 0.2),
				{ type: 'demurrage', amount: 'soon' } as unknown as TerminalFee,
			]),
		).toEqual({ exam: 0.3 });
	});
});

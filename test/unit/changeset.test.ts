// A `container.updated` changeset (docs/service.md, "Changesets") split into changes: every hold
// transition (docs/service.md, "Holds and fees", and the table at the top of
// logic/changeset.ts), fees, open-ended keys, odd values, filtering, and the service's published
// example.
import {
	diffFees,
	diffHolds,
	FEES_FIELD,
	HOLDS_FIELD,
	splitChangeset,
	type FieldChange,
} from '../../nodes/ContainerTracking/logic/changeset';
import { describeWithFixtures, readFixture } from '../support/sharedFixtures';

const EXPANDED = { expandHoldsAndFees: true };
const WHOLE = { expandHoldsAndFees: false };

const customsPending = {
	name: 'customs',
	status: 'pending',
	description: 'Awaiting customs release',
};
const customsHold = { name: 'customs', status: 'hold', description: 'Awaiting customs release' };
const freightHold = { name: 'freight', status: 'hold', description: null };
const usdaHold = { name: 'USDA', status: 'hold', description: 'Phytosanitary inspection' };

const demurrage = (amount: number, currency_code = 'USD') => ({
	type: 'demurrage',
	amount,
	currency_code,
});

/** Compact view of hold changes: kind and the hold's name (and description for `other`). */
const holdSummary = (changes: FieldChange[]) =>
	changes.map((change) => [change.change, change.hold?.name, change.hold?.description ?? null]);

describe('diffHolds: statuses no table lists', () => {
	const satisfied = { name: 'CTF', status: 'satisfied', description: 'Clean Truck Fee paid' };

	it('listed, not placed: a new hold whose status is not `hold` or `pending`', () => {
		expect(holdSummary(diffHolds([], [satisfied]))).toEqual([
			['listed', 'CTF', 'Clean Truck Fee paid'],
		]);
		expect(holdSummary(diffHolds([], [{ name: 'customs' }]))).toEqual([
			['listed', 'customs', null],
		]);
	});

	it('activated: any status other than `hold` that turns into `hold`', () => {
		const active = { ...satisfied, status: 'hold' };
		expect(holdSummary(diffHolds([satisfied], [active]))).toEqual([
			['activated', 'CTF', 'Clean Truck Fee paid'],
		]);
		expect(holdSummary(diffHolds([active], [satisfied]))).toEqual([
			['updated', 'CTF', 'Clean Truck Fee paid'],
		]);
	});

	it('an unknown hold name is a hold like any other', () => {
		const ctfHold = { name: 'CTF', status: 'hold', description: null };
		expect(holdSummary(diffHolds([], [ctfHold]))).toEqual([['placed', 'CTF', null]]);
		expect(holdSummary(diffHolds([ctfHold], []))).toEqual([['cleared', 'CTF', null]]);
	});
});

describe('diffFees: values no table lists', () => {
	it('diffs unknown fee types, and reads numeric-string amounts as numbers', () => {
		expect(diffFees([], [{ type: 'storage', amount: '40.5', currency_code: 'USD' }])).toEqual([
			expect.objectContaining({ change: 'added', old_amount: null, new_amount: 40.5 }),
		]);
		const before = { type: 'storage', amount: 40, currency_code: 'USD' };
		expect(diffFees([before], [{ ...before, amount: '55' }])).toEqual([
			expect.objectContaining({ change: 'amount_changed', old_amount: 40, new_amount: 55 }),
		]);
		// The same amount written as text is not an amount change.
		expect(diffFees([before], [{ ...before, amount: '40' }])).toEqual([
			expect.objectContaining({ change: 'updated', old_amount: 40, new_amount: 40 }),
		]);
	});
});

describe('diffHolds: the transitions of docs/service.md, "Holds and fees"', () => {
	it('placed: a hold that was absent and is now active', () => {
		expect(diffHolds([], [customsHold])).toEqual([
			{
				field: HOLDS_FIELD,
				old_value: null,
				new_value: customsHold,
				change: 'placed',
				hold: customsHold,
			},
		]);
	});

	it('pending: a hold that was absent and is now expected', () => {
		expect(diffHolds([], [customsPending])).toEqual([
			{
				field: HOLDS_FIELD,
				old_value: null,
				new_value: customsPending,
				change: 'pending',
				hold: customsPending,
			},
		]);
	});

	it('activated: the same hold going from pending to hold', () => {
		expect(diffHolds([customsPending], [customsHold])).toEqual([
			{
				field: HOLDS_FIELD,
				old_value: customsPending,
				new_value: customsHold,
				change: 'activated',
				hold: customsHold,
			},
		]);
	});

	it('cleared: a hold removed from the array (there is no released status); the item shows the hold as it was', () => {
		expect(diffHolds([customsHold], [])).toEqual([
			{
				field: HOLDS_FIELD,
				old_value: customsHold,
				new_value: null,
				change: 'cleared',
				hold: customsHold,
			},
		]);
		// A pending hold that goes away is cleared as well.
		expect(holdSummary(diffHolds([customsPending], []))).toEqual([
			['cleared', 'customs', 'Awaiting customs release'],
		]);
	});

	it('updated: any other difference of a hold that stays (text, or back from hold to pending)', () => {
		const reworded = { ...customsHold, description: 'Exam ordered' };
		expect(diffHolds([customsHold], [reworded])).toEqual([
			{
				field: HOLDS_FIELD,
				old_value: customsHold,
				new_value: reworded,
				change: 'updated',
				hold: reworded,
			},
		]);
		expect(holdSummary(diffHolds([customsHold], [customsPending]))).toEqual([
			['updated', 'customs', 'Awaiting customs release'],
		]);
	});

	it('holds that did not change give nothing, whatever their position', () => {
		expect(diffHolds([freightHold, customsPending], [customsPending, freightHold])).toEqual([]);
		expect(
			holdSummary(diffHolds([freightHold, customsPending], [customsHold, freightHold, usdaHold])),
		).toEqual([
			['activated', 'customs', 'Awaiting customs release'],
			['placed', 'USDA', 'Phytosanitary inspection'],
		]);
	});

	it('names are case-sensitive: USDA and usda are two different holds', () => {
		const lower = { ...usdaHold, name: 'usda' };
		expect(holdSummary(diffHolds([usdaHold], [lower]))).toEqual([
			['placed', 'usda', 'Phytosanitary inspection'],
			['cleared', 'USDA', 'Phytosanitary inspection'],
		]);
	});

	it('several `other` holds are told apart by their description', () => {
		const broken = {
			name: 'other',
			status: 'hold',
			description: 'DOWN - Broken Machine Over Pile',
		};
		const machine = { name: 'other', status: 'hold', description: 'MACHINE - ' };
		const pendingOther = { name: 'other', status: 'pending', description: 'Line review' };
		const activeOther = { ...pendingOther, status: 'hold' };
		const changes = diffHolds([broken, machine, pendingOther], [activeOther, machine]);
		expect(holdSummary(changes).sort()).toEqual(
			[
				['activated', 'other', 'Line review'],
				['cleared', 'other', 'DOWN - Broken Machine Over Pile'],
			].sort(),
		);
		// Replacing one unmapped hold by another is a clear and a placement, not an update.
		const replaced = { name: 'other', status: 'hold', description: 'Chassis hold' };
		expect(holdSummary(diffHolds([broken], [replaced])).sort()).toEqual(
			[
				['cleared', 'other', 'DOWN - Broken Machine Over Pile'],
				['placed', 'other', 'Chassis hold'],
			].sort(),
		);
	});

	it('two identical `other` holds are two holds: clearing one reports exactly one cleared', () => {
		const twin = { name: 'other', status: 'hold', description: 'Gate hold' };
		expect(diffHolds([twin, { ...twin }], [{ ...twin }])).toEqual([
			{ field: HOLDS_FIELD, old_value: twin, new_value: null, change: 'cleared', hold: twin },
		]);
		expect(holdSummary(diffHolds([twin], [twin, { ...twin }]))).toEqual([
			['placed', 'other', 'Gate hold'],
		]);
		expect(diffHolds([twin, twin], [twin, twin])).toEqual([]);
	});

	it('null or missing arrays count as empty (docs/service.md, "Holds and fees")', () => {
		expect(holdSummary(diffHolds(null, [customsHold]))).toEqual([
			['placed', 'customs', 'Awaiting customs release'],
		]);
		expect(holdSummary(diffHolds([customsHold], null))).toEqual([
			['cleared', 'customs', 'Awaiting customs release'],
		]);
		expect(diffHolds(undefined, undefined)).toEqual([]);
	});
});

describe('diffFees: fees of docs/service.md, "Holds and fees"', () => {
	it('added: a fee that was absent, with no old amount', () => {
		expect(diffFees([], [demurrage(175)])).toEqual([
			{
				field: FEES_FIELD,
				old_value: null,
				new_value: demurrage(175),
				change: 'added',
				fee: demurrage(175),
				old_amount: null,
				new_amount: 175,
			},
		]);
	});

	it('removed: the item shows the fee as it was', () => {
		expect(diffFees([demurrage(525)], [])).toEqual([
			{
				field: FEES_FIELD,
				old_value: demurrage(525),
				new_value: null,
				change: 'removed',
				fee: demurrage(525),
				old_amount: 525,
				new_amount: null,
			},
		]);
	});

	it('amount_changed: demurrage growing, with old_amount and new_amount', () => {
		expect(diffFees([demurrage(175)], [demurrage(350)])).toEqual([
			{
				field: FEES_FIELD,
				old_value: demurrage(175),
				new_value: demurrage(350),
				change: 'amount_changed',
				fee: demurrage(350),
				old_amount: 175,
				new_amount: 350,
			},
		]);
	});

	it('an amount of 0 (fee reported, not posted yet) is an amount, not a missing one', () => {
		const [change] = diffFees(
			[{ type: 'exam', amount: 0, currency_code: 'USD' }],
			[{ type: 'exam', amount: 350, currency_code: 'USD' }],
		);
		expect(change).toMatchObject({ change: 'amount_changed', old_amount: 0, new_amount: 350 });
		const [added] = diffFees([], [{ type: 'exam', amount: 0, currency_code: 'USD' }]);
		expect(added).toMatchObject({ change: 'added', old_amount: null, new_amount: 0 });
	});

	it('a `total` fee is a fee like the others', () => {
		const total = (amount: number) => ({ type: 'total', amount, currency_code: 'USD' });
		const changes = diffFees(
			[demurrage(175), total(175)],
			[demurrage(350), total(700), { type: 'exam', amount: 350, currency_code: 'USD' }],
		);
		expect(
			changes.map((change) => [
				change.change,
				change.fee?.type,
				change.old_amount,
				change.new_amount,
			]),
		).toEqual([
			['amount_changed', 'demurrage', 175, 350],
			['amount_changed', 'total', 175, 700],
			['added', 'exam', null, 350],
		]);
	});

	it('fees are matched by type and currency: the same type in two currencies is two fees', () => {
		const changes = diffFees(
			[demurrage(100, 'USD')],
			[demurrage(100, 'USD'), demurrage(90, 'CAD')],
		);
		expect(
			changes.map((change) => [change.change, change.fee?.currency_code, change.new_amount]),
		).toEqual([['added', 'CAD', 90]]);
	});

	it('updated: same amount, another difference', () => {
		const before = { type: 'other', amount: 40, currency_code: 'USD' };
		const after = { ...before, description: 'Chassis split' };
		expect(diffFees([before], [after])).toEqual([
			{
				field: FEES_FIELD,
				old_value: before,
				new_value: after,
				change: 'updated',
				fee: after,
				old_amount: 40,
				new_amount: 40,
			},
		]);
	});

	it('unchanged fees give nothing', () => {
		expect(
			diffFees(
				[demurrage(175), { type: 'exam', amount: 350, currency_code: 'USD' }],
				[{ type: 'exam', amount: 350, currency_code: 'USD' }, demurrage(175)],
			),
		).toEqual([]);
	});
});

describe('splitChangeset', () => {
	it('one entry per attribute, in the changeset order; hold and fee arrays give one entry per change', () => {
		const changes = splitChangeset(
			{
				available_for_pickup: [false, true],
				[HOLDS_FIELD]: [[customsPending, freightHold], [customsHold]],
				pickup_lfd: ['2024-07-08T07:00:00Z', '2024-07-10T07:00:00Z'],
				[FEES_FIELD]: [[], [demurrage(175)]],
			},
			EXPANDED,
		);
		expect(changes.map((change) => [change.field, change.change ?? null])).toEqual([
			['available_for_pickup', null],
			[HOLDS_FIELD, 'activated'],
			[HOLDS_FIELD, 'cleared'],
			['pickup_lfd', null],
			[FEES_FIELD, 'added'],
		]);
		expect(changes[0]).toEqual({
			field: 'available_for_pickup',
			old_value: false,
			new_value: true,
		});
		expect(changes[2].hold).toEqual(freightHold);
		expect(changes[4]).toMatchObject({ fee: demurrage(175), old_amount: null, new_amount: 175 });
	});

	it('follows a hold through every step of its life, one changeset per step', () => {
		const steps: Array<[unknown[], unknown[]]> = [
			[[], [customsPending]],
			[[customsPending], [customsHold]],
			[[customsHold], []],
		];
		const kinds = steps.map((pair) =>
			splitChangeset({ [HOLDS_FIELD]: pair }, EXPANDED).map((change) => change.change),
		);
		expect(kinds).toEqual([['pending'], ['activated'], ['cleared']]);
		expect(
			splitChangeset({ [HOLDS_FIELD]: [[], [customsHold]] }, EXPANDED).map(
				(change) => change.change,
			),
		).toEqual(['placed']);
	});

	it('unknown attribute names are passed on like any other', () => {
		expect(
			splitChangeset(
				{ berth_window: ['A', 'B'], custom_attribute: [{ x: 1 }, { x: 2 }] },
				EXPANDED,
			),
		).toEqual([
			{ field: 'berth_window', old_value: 'A', new_value: 'B' },
			{ field: 'custom_attribute', old_value: { x: 1 }, new_value: { x: 2 } },
		]);
	});

	it('null old (or new) values stay null', () => {
		expect(
			splitChangeset(
				{ pickup_appointment_at: [null, '2024-07-09T15:00:00Z'], seal_number: ['S1', null] },
				EXPANDED,
			),
		).toEqual([
			{ field: 'pickup_appointment_at', old_value: null, new_value: '2024-07-09T15:00:00Z' },
			{ field: 'seal_number', old_value: 'S1', new_value: null },
		]);
		// A null holds array before the hold (rather than []) is still a placement.
		expect(
			splitChangeset({ [HOLDS_FIELD]: [null, [customsHold]] }, EXPANDED).map(
				(change) => change.change,
			),
		).toEqual(['placed']);
	});

	it('a value that is not an [old, new] pair is passed on as raw_value with a warning, never dropped', () => {
		const odd = { plain: 'now', triple: [1, 2, 3], single: ['only'], empty: [], nothing: null };
		expect(splitChangeset(odd, EXPANDED)).toEqual(
			Object.entries(odd).map(([field, value]) => ({
				field,
				old_value: null,
				new_value: null,
				raw_value: value,
				warning: {
					path: `attributes.changeset.${field}`,
					expected: 'an [old, new] pair',
					received: JSON.stringify(value),
				},
			})),
		);
	});

	it('holds and fees must be a pair of lists: a bare list of two holds is not read as a change', () => {
		const bare = [customsHold, usdaHold];
		for (const options of [EXPANDED, WHOLE]) {
			expect(splitChangeset({ [HOLDS_FIELD]: bare }, options)).toEqual([
				expect.objectContaining({
					field: HOLDS_FIELD,
					raw_value: bare,
					warning: expect.objectContaining({ expected: 'an [old, new] pair of lists' }),
				}),
			]);
		}
		// null stands for "no list" on either side.
		expect(splitChangeset({ [HOLDS_FIELD]: [null, [customsHold]] }, EXPANDED)).toEqual([
			expect.objectContaining({ change: 'placed', hold: customsHold }),
		]);
		expect(splitChangeset({ [FEES_FIELD]: [[], 'demurrage 175'] }, EXPANDED)[0]).toMatchObject({
			raw_value: [[], 'demurrage 175'],
		});
	});

	it('something that is not a changeset gives no entries', () => {
		for (const value of [null, undefined, 'changed', 42, [['a', 'b']]]) {
			expect(splitChangeset(value, EXPANDED)).toEqual([]);
		}
	});

	it('fields keeps only the attributes asked for; empty keeps all', () => {
		const changeset = {
			available_for_pickup: [false, true],
			[HOLDS_FIELD]: [[customsHold], []],
			[FEES_FIELD]: [[], [demurrage(175)]],
		};
		expect(splitChangeset(changeset, { ...EXPANDED, fields: [HOLDS_FIELD] })).toEqual([
			{
				field: HOLDS_FIELD,
				old_value: customsHold,
				new_value: null,
				change: 'cleared',
				hold: customsHold,
			},
		]);
		expect(
			splitChangeset(changeset, { ...EXPANDED, fields: [FEES_FIELD, 'available_for_pickup'] }).map(
				(change) => change.field,
			),
		).toEqual(['available_for_pickup', FEES_FIELD]);
		expect(splitChangeset(changeset, { ...EXPANDED, fields: ['pickup_lfd'] })).toEqual([]);
		expect(splitChangeset(changeset, { ...EXPANDED, fields: [] })).toHaveLength(3);
	});

	it('with expansion off, hold and fee changes are one entry each with both whole arrays', () => {
		const holdsBefore = [customsPending, freightHold];
		const holdsAfter = [customsHold];
		const feesBefore = [demurrage(175)];
		const feesAfter = [demurrage(350), { type: 'total', amount: 350, currency_code: 'USD' }];
		expect(
			splitChangeset(
				{ [HOLDS_FIELD]: [holdsBefore, holdsAfter], [FEES_FIELD]: [feesBefore, feesAfter] },
				WHOLE,
			),
		).toEqual([
			{ field: HOLDS_FIELD, old_value: holdsBefore, new_value: holdsAfter },
			{ field: FEES_FIELD, old_value: feesBefore, new_value: feesAfter },
		]);
	});

	it('a changeset of 1,000 attributes gives all 1,000, in order', () => {
		const names = Array.from(
			{ length: 1000 },
			(_, index) => `attribute_${String(index).padStart(4, '0')}`,
		);
		const changeset = Object.fromEntries(names.map((name, index) => [name, [index, index + 1]]));
		const changes = splitChangeset(changeset, EXPANDED);
		expect(changes).toHaveLength(1000);
		expect(changes.map((change) => change.field)).toEqual(names);
		expect(changes[999]).toEqual({ field: 'attribute_0999', old_value: 999, new_value: 1000 });
	});
});

describeWithFixtures('splitChangeset on the published container.updated example', () => {
	interface Fixture {
		included: Array<{
			type: string;
			attributes: { changeset: Record<string, [unknown, unknown]> };
		}>;
	}
	const changesetOf = () => {
		const fixture = readFixture<Fixture>('notifications', 'container.updated.json');
		const event = fixture.included.find((record) => record.type === 'container_updated_event');
		if (!event) throw new Error('the example has no container_updated_event');
		return event.attributes.changeset;
	};

	it('availability comes true and both unmapped holds are cleared, each told apart by its description', () => {
		const changeset = changesetOf();
		const [holdsBefore] = changeset[HOLDS_FIELD] as [Array<{ description: string }>, unknown];
		expect(holdsBefore).toHaveLength(2);
		const changes = splitChangeset(changeset, EXPANDED);
		expect(changes[0]).toEqual({
			field: 'available_for_pickup',
			old_value: false,
			new_value: true,
		});
		expect(holdSummary(changes.slice(1))).toEqual([
			['cleared', 'other', holdsBefore[0].description],
			['cleared', 'other', holdsBefore[1].description],
		]);
		expect(changes).toHaveLength(3);
	});

	it('without expansion it is one entry per attribute', () => {
		const changeset = changesetOf();
		expect(splitChangeset(changeset, WHOLE)).toEqual(
			Object.entries(changeset).map(([field, [oldValue, newValue]]) => ({
				field,
				old_value: oldValue,
				new_value: newValue,
			})),
		);
	});
});

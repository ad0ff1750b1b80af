/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a test reading docs/service.md from disk; both rules are for the published nodes */
// The hold table (nodes/ContainerTracking/logic/holdNames.ts) and the trigger items that carry it
// (trigger/items/deliveryItems.ts): every name docs/service.md lists has a meaning and a resolver,
// names match exactly, and a name no table lists passes through with nulls, never dropped.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { holdMeaning } from '../../nodes/ContainerTracking/logic/holdNames';
import { deliveryItems } from '../../nodes/ContainerTracking/trigger/items/deliveryItems';
import type { Delivery } from '../../nodes/ContainerTracking/schemas';

/** The hold names of docs/service.md's table in "Holds and fees" (first column, in backticks). */
function documentedHoldNames(): string[] {
	const text = readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'service.md'), 'utf8');
	const section = text.slice(text.indexOf('### Holds and fees'));
	const table = section.slice(
		section.indexOf('| Hold '),
		section.indexOf('\n\n', section.indexOf('| Hold ')),
	);
	return [...table.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]);
}

describe('holdMeaning', () => {
	it('gives every documented hold name a meaning and who clears it', () => {
		const names = documentedHoldNames();
		expect(names).toEqual(['freight', 'customs', 'USDA', 'VACIS', 'TMF', 'other']);
		for (const name of names) {
			const meaning = holdMeaning(name);
			expect(meaning.hold_meaning).toEqual(expect.any(String));
			expect(meaning.hold_resolved_by).toEqual(expect.any(String));
		}
	});

	it('uses the interface’s words', () => {
		expect(holdMeaning('freight')).toEqual({
			hold_meaning: 'Carrier freight charges unpaid',
			hold_resolved_by: 'Shipping line or freight forwarder',
		});
		expect(holdMeaning('customs').hold_resolved_by).toBe('Licensed customs broker');
		expect(holdMeaning('TMF').hold_resolved_by).toBe('Payment to the terminal');
	});

	it('matches names exactly and knows nothing of other names', () => {
		for (const name of ['usda', 'Customs', 'chassis', '', 'toString', '__proto__', null, 7])
			expect(holdMeaning(name)).toEqual({ hold_meaning: null, hold_resolved_by: null });
	});
});

describe('trigger items of hold changes', () => {
	function containerUpdated(changeset: Record<string, unknown>): Delivery {
		return {
			data: {
				id: 'n-1',
				attributes: { event: 'container.updated' },
				relationships: {
					reference_object: { data: { id: 'cue-1', type: 'container_updated_event' } },
				},
			},
			included: [
				{
					id: 'cue-1',
					type: 'container_updated_event',
					attributes: { changeset },
					relationships: { container: { data: { id: 'c-1', type: 'container' } } },
				},
				{ id: 'c-1', type: 'container', attributes: { number: 'MSCU1000022' } },
			],
		};
	}
	const holdsChanged = (before: unknown[], after: unknown[]) =>
		containerUpdated({ holds_at_pod_terminal: [before, after] });
	const options = { expandHoldsAndFees: true, fields: [], raw: false };

	it('carry the meaning and who clears it, for placed and cleared holds alike', () => {
		const items = deliveryItems(
			holdsChanged(
				[{ name: 'VACIS', status: 'hold' }],
				[{ name: 'freight', status: 'hold', description: 'Freight charges unpaid' }],
			),
			options,
		);
		expect(items.map((item) => [item.change, item.hold_meaning, item.hold_resolved_by])).toEqual([
			['placed', holdMeaning('freight').hold_meaning, 'Shipping line or freight forwarder'],
			['cleared', holdMeaning('VACIS').hold_meaning, 'Customs broker'],
		]);
	});

	it('pass a hold no table lists on, with null meaning and its description', () => {
		const items = deliveryItems(
			holdsChanged([], [{ name: 'chassis', status: 'hold', description: 'Chassis split' }]),
			options,
		);
		expect(items).toEqual([
			expect.objectContaining({
				change: 'placed',
				hold: { name: 'chassis', status: 'hold', description: 'Chassis split' },
				hold_meaning: null,
				hold_resolved_by: null,
			}),
		]);
	});

	it('leave items of other fields without them', () => {
		const items = deliveryItems(
			containerUpdated({ pickup_lfd: [null, '2026-11-28T08:00:00Z'] }),
			options,
		);
		expect(items).toHaveLength(1);
		expect(items[0]).not.toHaveProperty('hold_meaning');
	});
});

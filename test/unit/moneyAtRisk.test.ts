/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reading the examples from disk; the rule is for the published nodes */
// The Money at risk example's rates (examples/tariff-table.json) are the sandbox's demo tariff
// (sandbox/demoTariff.ts), which `npm start` shows money at risk with, and the node reads them
// without a problem; the example reads the container from Get Many's items (no call per box).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { readTariffRows } from '../../nodes/ContainerTracking/logic/tariff';
import { DEMO_TARIFF } from '../../sandbox/demoTariff';
import { repoRoot } from '../support/importNative';

interface ExampleNode {
	name: string;
	parameters: Record<string, unknown>;
}
const example = (file: string): ExampleNode[] =>
	JSON.parse(readFileSync(path.join(repoRoot, 'examples', file), 'utf8')).nodes;

describe('Money at risk and its tariff table', () => {
	const code = String(
		example('tariff-table.json').find((node) => node.name === 'Example rates')!.parameters.jsCode,
	);
	const rates = JSON.parse(/const rates = (\[[\s\S]*?\]);/.exec(code)![1]) as Array<
		Record<string, unknown>
	>;

	it('the set-up workflow writes the demo tariff the sandbox serves, row for row', () => {
		expect(rates).toEqual(DEMO_TARIFF.map((row) => ({ terminal: '', container_type: '', ...row })));
	});

	it('the node reads every rate without a problem', () => {
		const read = readTariffRows(rates);
		expect(read.problems).toEqual([]);
		expect(read.rows).toHaveLength(rates.length);
	});

	it('Charges takes the containers Get Many gave, Simplify off, and the table’s rows', () => {
		const nodes = example('money-at-risk.json');
		const many = nodes.find((node) => node.name === 'Containers not returned')!.parameters;
		const charges = nodes.find((node) => node.name === 'Charges')!.parameters;
		expect(many).toMatchObject({ operation: 'getMany', simplify: false });
		expect(charges).toMatchObject({
			operation: 'getCharges',
			containerSource: 'input',
			tariffSource: 'input',
			tariffRowsInput: "={{ $('Tariff').all().map(row => row.json) }}",
		});
	});
});

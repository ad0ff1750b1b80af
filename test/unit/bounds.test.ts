/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a test reading the project's test sources from disk; both rules are for the published nodes */
// Every bound a test puts on a wait says which kind it is (test/support/bounds.ts): `byClock`
// (follows from the test's own clocks) or `generous` (a sanity bound, GENEROUS × the quiet
// duration). A bare number there is how a suite comes to depend on how fast the machine is today,
// so this test reads every file under test/ and names each one it finds:
// - a jest timeout: the number after a test's or hook's function, `jest.setTimeout`;
// - a wait's bound: `timeoutMs`, `deadlineMs`, `budgetMs` in an object or a parameter's default;
// - a deadline: `Date.now() + …`, and a measured duration compared with `toBeLessThan…`.
// An expression is named when it is a call of `byClock` or `generous`, a constant whose value is
// named, a sum, difference, Math.max or Math.min of named parts, a named part times a number, or a
// value handed through from elsewhere (a parameter, a property), whose own source is checked.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import * as ts from 'typescript';

import { byClock, generous, GENEROUS } from '../support/bounds';

const root = path.resolve(__dirname, '../..');
const testDir = path.join(root, 'test');

const NAMING_CALLS = new Set(['byClock', 'generous']);
const JEST_CALLS = new Set(['it', 'test', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach']);
const BOUND_NAMES = new Set(['timeoutMs', 'deadlineMs', 'budgetMs']);

function testFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return testFiles(full);
		return /\.(ts|js)$/.test(entry.name) ? [full] : [];
	});
}

interface Source {
	file: string;
	source: ts.SourceFile;
	/** Top-level and nested `const NAME = …` of this file. */
	constants: Map<string, ts.Expression>;
}

function parse(file: string, text = readFileSync(file, 'utf8')): Source {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const constants = new Map<string, ts.Expression>();
	const visit = (node: ts.Node) => {
		if (
			ts.isVariableDeclaration(node) &&
			ts.isIdentifier(node.name) &&
			node.initializer &&
			ts.isVariableDeclarationList(node.parent) &&
			node.parent.flags & ts.NodeFlags.Const
		)
			constants.set(node.name.text, node.initializer);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return { file, source, constants };
}

const sources = testFiles(testDir).map((file) => parse(file));
/** Constants exported by one test file and imported by another (SETUP_TIMEOUT, say). */
const exported = new Map<string, ts.Expression>();
for (const { source, constants } of sources)
	for (const statement of source.statements)
		if (
			ts.isVariableStatement(statement) &&
			statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
		)
			for (const declaration of statement.declarationList.declarations)
				if (ts.isIdentifier(declaration.name) && constants.has(declaration.name.text))
					exported.set(declaration.name.text, constants.get(declaration.name.text)!);

function unwrap(expression: ts.Expression): ts.Expression {
	let current = expression;
	while (
		ts.isParenthesizedExpression(current) ||
		ts.isAsExpression(current) ||
		ts.isNonNullExpression(current)
	)
		current = current.expression;
	return current;
}

/** Whether `expression` is named as a bound of one kind or the other (see the header). */
function isNamed(expression: ts.Expression, file: Source, seen = new Set<string>()): boolean {
	const node = unwrap(expression);
	if (ts.isCallExpression(node)) {
		const callee = node.expression.getText(file.source);
		if (NAMING_CALLS.has(callee)) return true;
		if (callee === 'Math.max' || callee === 'Math.min')
			return node.arguments.every((argument) => isNamed(argument, file, seen));
		// Any other call hands a value through (a helper computing its bound); its source is checked.
		return true;
	}
	if (ts.isBinaryExpression(node)) {
		const operator = node.operatorToken.kind;
		if (operator === ts.SyntaxKind.PlusToken || operator === ts.SyntaxKind.MinusToken)
			return isNamed(node.left, file, seen) && isNamed(node.right, file, seen);
		if (operator === ts.SyntaxKind.AsteriskToken || operator === ts.SyntaxKind.SlashToken) {
			// A named bound scaled by a plain number (twice the interval) stays named.
			const left = ts.isNumericLiteral(unwrap(node.left));
			const right = ts.isNumericLiteral(unwrap(node.right));
			if (left && right) return false;
			if (left) return isNamed(node.right, file, seen);
			if (right) return isNamed(node.left, file, seen);
			return isNamed(node.left, file, seen) || isNamed(node.right, file, seen);
		}
		if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken)
			return isNamed(node.left, file, seen) && isNamed(node.right, file, seen);
		return false;
	}
	if (ts.isConditionalExpression(node))
		return isNamed(node.whenTrue, file, seen) && isNamed(node.whenFalse, file, seen);
	if (ts.isIdentifier(node)) {
		if (seen.has(node.text)) return true;
		seen.add(node.text);
		const value = file.constants.get(node.text) ?? exported.get(node.text);
		// A parameter or a variable: handed through, named where it comes from.
		return value === undefined ? true : isNamed(value, file, seen);
	}
	// `options.timeoutMs`, `this.x`: handed through.
	if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) return true;
	return false;
}

interface Finding {
	where: string;
	what: string;
	text: string;
}

function findings(file: Source): Finding[] {
	const found: Finding[] = [];
	const note = (node: ts.Node, what: string, bound: ts.Expression) => {
		if (isNamed(bound, file)) return;
		const { line } = file.source.getLineAndCharacterOfPosition(node.getStart(file.source));
		found.push({
			where: `${path.relative(root, file.file)}:${line + 1}`,
			what,
			text: bound.getText(file.source),
		});
	};
	const visit = (node: ts.Node) => {
		if (ts.isCallExpression(node)) {
			const callee = node.expression.getText(file.source);
			// it(name, fn, timeout), beforeAll(fn, timeout): a timeout is what follows the function.
			const [beforeLast, last] = node.arguments.slice(-2);
			if (
				JEST_CALLS.has(callee.split(/[.(]/)[0]) &&
				beforeLast &&
				last &&
				ts.isFunctionLike(unwrap(beforeLast)) &&
				!ts.isFunctionLike(unwrap(last))
			)
				note(node, `jest timeout of ${callee.split('(')[0]}`, last);
			if (callee === 'jest.setTimeout' && node.arguments[0])
				note(node, 'jest.setTimeout', node.arguments[0]);
			// expect(<a duration measured with Date.now()>).toBeLessThan(bound)
			if (
				ts.isPropertyAccessExpression(node.expression) &&
				/^toBeLessThan(OrEqual)?$/.test(node.expression.name.text) &&
				node.arguments[0]
			) {
				const subject = node.expression.expression;
				if (
					ts.isCallExpression(subject) &&
					subject.expression.getText(file.source) === 'expect' &&
					/Date\.now\(\)|performance\.now\(\)/.test(
						subject.arguments[0]?.getText(file.source) ?? '',
					)
				)
					note(node, 'a measured duration', node.arguments[0]);
			}
		}
		if (
			ts.isPropertyAssignment(node) &&
			ts.isIdentifier(node.name) &&
			BOUND_NAMES.has(node.name.text)
		)
			note(node, node.name.text, node.initializer);
		// A default: `{ timeoutMs = … }` in a destructured parameter, or `timeoutMs = …` itself.
		if (
			(ts.isBindingElement(node) || ts.isParameter(node)) &&
			ts.isIdentifier(node.name) &&
			BOUND_NAMES.has(node.name.text) &&
			node.initializer
		)
			note(node, `${node.name.text} by default`, node.initializer);
		// Date.now() + <bound>
		if (
			ts.isBinaryExpression(node) &&
			node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
			/^(Date|performance)\.now\(\)$/.test(unwrap(node.left).getText(file.source))
		)
			note(node, 'a deadline', node.right);
		ts.forEachChild(node, visit);
	};
	visit(file.source);
	return found;
}

describe('bounds on waits (test/support/bounds.ts)', () => {
	it('reads the whole suite', () => {
		// The harness, the waits' helpers and the end-to-end files are all among them.
		const names = sources.map(({ file }) => path.relative(root, file));
		expect(names).toEqual(
			expect.arrayContaining([
				'test/support/sandbox.ts',
				'test/e2e/helpers.ts',
				'test/e2e/burst.test.ts',
				'test/sandbox/invariants.test.ts',
			]),
		);
		expect(names.length).toBeGreaterThan(90);
	});

	it('every timeout, deadline and wait in test/ says whether it follows from a clock or is generous', () => {
		const bare = sources
			.flatMap(findings)
			.map(({ where, what, text }) => `${where} ${what}: ${text}`);
		expect(bare).toEqual([]);
	});

	it('finds a bare number, and takes a named one', () => {
		const check = (text: string) =>
			findings(parse(path.join(testDir, 'planted.ts'), text)).map(
				({ what, text: bound }) => `${what}: ${bound}`,
			);
		expect(check("it('waits', async () => {}, 120_000);")).toEqual(['jest timeout of it: 120_000']);
		expect(check('await eventually(check, { timeoutMs: 30_000 });')).toEqual(['timeoutMs: 30_000']);
		expect(check('const deadline = Date.now() + 5_000;')).toEqual(['a deadline: 5_000']);
		expect(check('expect(Date.now() - started).toBeLessThan(WATCH_MS + 5_000);')).toEqual([
			'a measured duration: WATCH_MS + 5_000',
		]);
		expect(check('function wait({ timeoutMs = 10_000 } = {}) {}')).toEqual([
			'timeoutMs by default: 10_000',
		]);
		expect(
			check(
				[
					'const WATCH_MS = byClock(3_000);',
					"it('waits', async () => {}, generous(20_000));",
					'await eventually(check, { timeoutMs: WATCH_MS + generous(1_000) });',
					'await eventually(check, { timeoutMs: 2 * WATCH_MS });',
					'const deadline = Date.now() + Math.max(WATCH_MS, generous(500));',
					'expect(Date.now() - started).toBeLessThan(WATCH_MS + generous(1_000));',
					'function wait({ timeoutMs = generous(2_000) } = {}) {}',
					'await eventually(check, { timeoutMs: options.timeoutMs });',
				].join('\n'),
			),
		).toEqual([]);
	});

	it('a generous bound is five times the quiet duration, a clock bound the clock’s own', () => {
		expect(GENEROUS).toBeGreaterThanOrEqual(5);
		expect(generous(2_000)).toBe(2_000 * GENEROUS);
		expect(byClock(3_000)).toBe(3_000);
	});
});

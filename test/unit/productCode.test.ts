/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a test reading the project's sources from disk; both rules are for the published nodes */
// Only product code in the package: every export of a file that ships (tsconfig.json's include
// set, compiled into dist/) is used by a file that ships. Code that only the sandbox, the tests,
// the bench or the scripts use lives under sandbox/ (or beside its users), not in dist/.
//
// Allowed:
// - n8n's entry points: the class each file in package.json's `n8n.nodes` and `n8n.credentials`
//   exports under the file's name (n8n loads it by that name);
// - type-only exports (interfaces, type aliases) that the sandbox, the tests, the bench or the
//   scripts use, such as the service's `z.infer` record types: they emit no code into dist/;
// - TEST_SEAMS below: product state that the tests and the bench must set, so it ships with it.
// A use is any reference, a type's included: a zod schema whose inferred type a shipped file
// uses counts as used.
import path from 'node:path';

import * as ts from 'typescript';

import packageJson from '../../package.json';
import { generous } from '../support/bounds';

const root = path.resolve(__dirname, '../..');

/**
 * `setRateWindow` compresses the node's own rate window for runs against a sandbox whose clock
 * is compressed (test/support/sandbox.ts, bench/run.ts); the window it sets is the node's.
 */
const TEST_SEAMS = new Set(['nodes/ContainerTracking/transport/rateLimit.ts:setRateWindow']);

function configFiles(config: string): ts.ParsedCommandLine {
	const { config: json, error } = ts.readConfigFile(path.join(root, config), ts.sys.readFile);
	if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
	return ts.parseJsonConfigFileContent(json, ts.sys, root);
}

const relative = (fileName: string) => path.relative(root, path.resolve(fileName));

/** `dist/nodes/X/Name.node.js` → `nodes/X/Name.node.ts:Name` */
function entryPoints(): Set<string> {
	const { nodes, credentials } = packageJson.n8n;
	return new Set(
		[...nodes, ...credentials].map((built) => {
			const source = built.replace(/^dist\//, '').replace(/\.js$/, '.ts');
			return `${source}:${path.basename(source).split('.')[0]}`;
		}),
	);
}

interface Export {
	file: string;
	name: string;
	typeOnly: boolean;
	/** Files that use it, its own file included when it is used there. */
	users: Set<string>;
}

/** Every export declared in a product file, with the files (of the whole project) that use it. */
function productExports(): { exports: Export[]; isProduct: (file: string) => boolean } {
	const product = new Set(
		configFiles('tsconfig.json')
			.fileNames.filter((fileName) => /\.tsx?$/.test(fileName))
			.map(relative),
	);
	const everything = configFiles('tsconfig.test.json');
	// The project's own files only: what they import from packages is never one of their exports.
	const program = ts.createProgram(everything.fileNames, {
		...everything.options,
		noEmit: true,
		noResolve: true,
		types: [],
	});
	const checker = program.getTypeChecker();
	const sources = program
		.getSourceFiles()
		.filter((source) => !source.isDeclarationFile && !source.fileName.includes('/node_modules/'));

	const users = new Map<ts.Symbol, Set<string>>();
	const use = (symbol: ts.Symbol | undefined, file: string) => {
		const seen = new Set<ts.Symbol>();
		// Through imports and re-exports to the declaration.
		while (symbol && !seen.has(symbol)) {
			seen.add(symbol);
			const files = users.get(symbol) ?? new Set<string>();
			users.set(symbol, files.add(file));
			const exported = (symbol as { exportSymbol?: ts.Symbol }).exportSymbol;
			if (exported) use(exported, file);
			symbol =
				symbol.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(symbol) : undefined;
		}
	};
	const useWholeModule = (namespace: ts.Symbol, file: string) => {
		const module = checker.getAliasedSymbol(namespace);
		for (const member of checker.getExportsOfModule(module)) use(member, file);
	};

	const declared: Array<{ file: string; symbol: ts.Symbol }> = [];
	for (const source of sources) {
		const file = relative(source.fileName);
		const module = checker.getSymbolAtLocation(source);
		if (!product.has(file) || !module) continue;
		for (const symbol of checker.getExportsOfModule(module)) {
			// `export *` lists another file's exports: they are checked in that file.
			const declaration = symbol.declarations?.[0];
			if (declaration && relative(declaration.getSourceFile().fileName) === file)
				declared.push({ file, symbol });
		}
	}

	// Only identifiers that can name an export are resolved: the exports' names (a renamed import
	// names it in `import { name as other }`) and the namespaces of `import * as name`.
	const names = new Set(declared.map(({ symbol }) => symbol.name));
	for (const source of sources) {
		const collect = (node: ts.Node): void => {
			if (ts.isNamespaceImport(node)) names.add(node.name.text);
			ts.forEachChild(node, collect);
		};
		collect(source);
	}

	for (const source of sources) {
		const file = relative(source.fileName);
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node) && names.has(node.text)) {
				const parent = node.parent;
				const declares =
					(parent as ts.NamedDeclaration).name === node && !ts.isPropertyAccessExpression(parent);
				if (!declares) {
					const symbol = checker.getSymbolAtLocation(node);
					use(symbol, file);
					// `import * as get` whose object is passed on, not only read as `get.name`: all of
					// the module's exports are reachable through it.
					const namespace = symbol?.declarations?.some(ts.isNamespaceImport);
					if (namespace && !(ts.isPropertyAccessExpression(parent) && parent.expression === node))
						useWholeModule(symbol!, file);
				} else if (ts.isShorthandPropertyAssignment(parent)) {
					const value = checker.getShorthandAssignmentValueSymbol(parent);
					use(value, file);
					if (value?.declarations?.some(ts.isNamespaceImport)) useWholeModule(value, file);
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}

	const exports = declared.map(({ file, symbol }): Export => {
		const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
		return {
			file,
			name: symbol.name,
			typeOnly: !(target.flags & ts.SymbolFlags.Value),
			users: users.get(symbol) ?? new Set(),
		};
	});
	return { exports, isProduct: (file) => product.has(file) };
}

describe('product code', () => {
	it(
		'exports only what a shipped file uses',
		() => {
			const { exports, isProduct } = productExports();
			const allowed = entryPoints();
			// The scan itself: it sees the node's classes, their modules' exports and the sandbox's uses.
			expect(exports.map(({ file, name }) => `${file}:${name}`)).toEqual(
				expect.arrayContaining([...allowed, ...TEST_SEAMS]),
			);
			expect(exports.length).toBeGreaterThan(100);

			const unused = exports
				.filter(
					({ file, name }) => !allowed.has(`${file}:${name}`) && !TEST_SEAMS.has(`${file}:${name}`),
				)
				.filter(({ users }) => ![...users].some(isProduct))
				.filter(({ typeOnly, users }) => !(typeOnly && users.size > 0))
				.map(({ file, name, typeOnly, users }) => {
					const where = users.size > 0 ? `used only by ${[...users].sort().join(', ')}` : 'unused';
					return `${file}: ${typeOnly ? 'type ' : ''}${name} (${where})`;
				});
			expect(unused).toEqual([]);
			// A type-checker pass over the whole project: 13 s on the busy two-core machine.
		},
		generous(20_000),
	);
});

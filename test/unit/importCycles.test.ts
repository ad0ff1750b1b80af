/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// No import cycle in nodes/ (CONTRIBUTING.md, "The trigger"): a module reads as what it imports, and a
// cycle makes two modules one that nobody can read alone. Imports are read by TypeScript's own
// pre-processor, type-only imports included: a cycle of types is still a cycle to a reader.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';

const NODES = path.join(__dirname, '..', '..', 'nodes');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/** The files of the set a relative import names (`./x` → x.ts or x/index.ts). */
function resolved(from: string, specifier: string, files: Set<string>): string | undefined {
	if (!specifier.startsWith('.')) return undefined;
	const base = path.resolve(path.dirname(from), specifier);
	return [`${base}.ts`, path.join(base, 'index.ts')].find((file) => files.has(file));
}

/** Each file's imports within the set. */
export function importGraph(files: string[], read: (file: string) => string): Map<string, string[]> {
	const known = new Set(files);
	return new Map(
		files.map((file) => [
			file,
			ts
				.preProcessFile(read(file), true, true)
				.importedFiles.map((imported) => resolved(file, imported.fileName, known))
				.filter((target): target is string => target !== undefined),
		]),
	);
}

/** Every cycle, as the files along it (depth-first search; each cycle reported once). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
	const cycles: string[][] = [];
	const seen = new Set<string>();
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		stack.push(file);
		for (const next of graph.get(file) ?? []) {
			if (state.get(next) === 'open') {
				const cycle = stack.slice(stack.indexOf(next));
				const key = [...cycle].sort().join('|');
				if (!seen.has(key)) {
					seen.add(key);
					cycles.push([...cycle, next]);
				}
			} else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(file, 'done');
	};
	for (const file of graph.keys()) if (!state.has(file)) visit(file);
	return cycles;
}

describe('imports in nodes/', () => {
	it('make no cycle', () => {
		const files = sourceFiles(NODES);
		expect(files.length).toBeGreaterThan(50);
		const graph = importGraph(files, (file) => readFileSync(file, 'utf8'));
		const cycles = cyclesOf(graph).map((cycle) =>
			cycle.map((file) => path.relative(NODES, file)).join(' → '),
		);
		expect(cycles).toEqual([]);
	});

	it('a planted cycle is found, through an index file and a type-only import, and named', () => {
		const sources: Record<string, string> = {
			'/n/a.ts': "import { b } from './b';",
			'/n/b.ts': "import type { C } from './c';",
			'/n/c/index.ts': "import { a } from '../a';\nimport { sleep } from 'n8n-workflow';",
			'/n/d.ts': "import { a } from './a';",
		};
		const graph = importGraph(Object.keys(sources), (file) => sources[file]);
		expect(cyclesOf(graph)).toEqual([['/n/a.ts', '/n/b.ts', '/n/c/index.ts', '/n/a.ts']]);
		delete sources['/n/c/index.ts'];
		sources['/n/c/index.ts'] = "import { sleep } from 'n8n-workflow';";
		expect(cyclesOf(importGraph(Object.keys(sources), (file) => sources[file]))).toEqual([]);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the repository's sources from disk; the rules are for the published nodes */
// One source of types: the service's records are typed by their zod schemas (z.infer), never by
// a hand-written twin. This test reads every interface and object type written by hand in the
// nodes, the credential and the sandbox (TypeScript's parser) and compares its members with the
// members of every object schema the nodes export (schemas/). A hand-written type that repeats
// three or more members of a schema, and is mostly made of them, is a twin. Types that narrow a
// schema type (`ServedFee & { amount: number }`) are intersections and are not hand-written
// twins: they say what the sandbox always writes on top of the schema.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';
import { z } from 'zod';

import * as schemas from '../../nodes/ContainerTracking/schemas';

const ROOT = path.resolve(__dirname, '..', '..');
const SOURCE_FOLDERS = ['nodes', 'credentials', 'sandbox'];
/** Shared members that make a twin, and the share of its own members they must be. */
const MIN_SHARED = 3;
const MIN_SHARE = 0.6;

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const file = path.join(folder, name);
		if (statSync(file).isDirectory()) return sourceFiles(file);
		return file.endsWith('.ts') ? [file] : [];
	});
}

/** The members of a zod object schema, through optional, nullable, effects and arrays. */
function objectKeys(schema: unknown): string[] | undefined {
	let current = schema;
	for (let depth = 0; depth < 10; depth++) {
		if (current instanceof z.ZodObject) return Object.keys(current.shape as object);
		if (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
			current = current.unwrap();
		else if (current instanceof z.ZodEffects) current = current.innerType();
		else if (current instanceof z.ZodArray) current = current.element;
		else return undefined;
	}
	return undefined;
}

/** Every object schema the nodes export, and the objects nested in their members. */
function schemaShapes(): Map<string, Set<string>> {
	const shapes = new Map<string, Set<string>>();
	const visit = (name: string, schema: unknown) => {
		const keys = objectKeys(schema);
		if (!keys || shapes.has(name)) return;
		if (keys.length >= MIN_SHARED) shapes.set(name, new Set(keys));
		let object = schema;
		while (!(object instanceof z.ZodObject)) {
			if (object instanceof z.ZodOptional || object instanceof z.ZodNullable)
				object = object.unwrap();
			else if (object instanceof z.ZodEffects) object = object.innerType();
			else if (object instanceof z.ZodArray) object = object.element;
			else return;
		}
		for (const [member, inner] of Object.entries(object.shape as Record<string, unknown>))
			visit(`${name}.${member}`, inner);
	};
	for (const [name, value] of Object.entries(schemas)) visit(name, value);
	return shapes;
}

interface HandWritten {
	where: string;
	name: string;
	members: string[];
}

/** Interfaces, and type aliases that are a plain object literal, with their own members. */
function handWrittenTypes(): HandWritten[] {
	const found: HandWritten[] = [];
	for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))) {
		const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
		const membersOf = (elements: ts.NodeArray<ts.TypeElement>) =>
			elements
				.map((element) => element.name)
				.filter((name): name is ts.PropertyName => name !== undefined)
				.map((name) => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : ''))
				.filter(Boolean);
		const visit = (node: ts.Node) => {
			const where = `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
			if (ts.isInterfaceDeclaration(node))
				found.push({ where, name: node.name.text, members: membersOf(node.members) });
			else if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type))
				found.push({ where, name: node.name.text, members: membersOf(node.type.members) });
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

function twinsOf(types: HandWritten[], shapes: Map<string, Set<string>>): string[] {
	const twins: string[] = [];
	// Top-level schemas first: a twin is named after the record it repeats.
	const bySpecificity = [...shapes].sort(([a], [b]) => a.split('.').length - b.split('.').length);
	for (const type of types) {
		for (const [schema, keys] of bySpecificity) {
			const shared = type.members.filter((member) => keys.has(member));
			if (shared.length >= MIN_SHARED && shared.length / type.members.length >= MIN_SHARE) {
				twins.push(`${type.where} ${type.name} repeats ${schema}: ${shared.join(', ')}`);
				break;
			}
		}
	}
	return twins;
}

describe('one source of types', () => {
	const shapes = schemaShapes();
	const types = handWrittenTypes();

	it('reads the schemas and the hand-written types it compares', () => {
		expect(shapes.get('terminalHold')).toEqual(new Set(['name', 'status', 'description']));
		expect(shapes.size).toBeGreaterThan(20);
		expect(types.length).toBeGreaterThan(20);
	});

	it('finds a twin when one is written', () => {
		const twin: HandWritten = {
			where: 'example.ts:1',
			name: 'Fee',
			members: ['type', 'amount', 'currency_code'],
		};
		expect(twinsOf([twin], shapes)).toEqual([
			'example.ts:1 Fee repeats terminalFee: type, amount, currency_code',
		]);
	});

	it('no hand-written type repeats a record type the schemas hold', () => {
		expect(twinsOf(types, shapes)).toEqual([]);
	});
});

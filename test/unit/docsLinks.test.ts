/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a test reading the README and the codex files from disk; both rules are for the published nodes */
// The editor's Docs link of each node lands on its README section. n8n 2.40 opens a node's
// `documentationUrl` as it is, but appends its own query (`?utm_source=n8n_app…`) to the codex
// link (ContainerTracking*.node.json): after a `#fragment` that query would become part of the
// fragment, and the anchor would never land. So the anchored link is the description's, and the
// codex links have no fragment.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';

const ROOT = path.resolve(__dirname, '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** GitHub's anchors of the README's headings. */
const anchors = new Set(
	README.split('\n')
		.filter((line) => /^#{1,6}\s/.test(line))
		.map((line) =>
			line
				.replace(/^#+\s*/, '')
				.toLowerCase()
				.replace(/[^\w\s-]/g, '')
				.trim()
				.replace(/\s/g, '-'),
		),
);

describe.each([
	['Container Tracking', new ContainerTracking().description, 'ContainerTracking.node.json'],
	[
		'Container Tracking Trigger',
		new ContainerTrackingTrigger().description,
		'ContainerTrackingTrigger.node.json',
	],
])('%s: the Docs link', (_name, description, codexFile) => {
	it('opens a README section that exists', () => {
		const url = new URL(String(description.documentationUrl));
		expect(url.protocol).toBe('https:');
		expect(url.hash).not.toBe('');
		expect(anchors.has(url.hash.slice(1))).toBe(true);
	});

	it('the codex links carry no fragment for n8n to append its query to', () => {
		const codex = JSON.parse(
			readFileSync(path.join(ROOT, 'nodes', 'ContainerTracking', codexFile), 'utf8'),
		) as { resources: Record<string, Array<{ url: string }>> };
		const urls = Object.values(codex.resources).flat();
		expect(urls.length).toBeGreaterThan(0);
		for (const { url } of urls) expect(url).not.toContain('#');
	});
});

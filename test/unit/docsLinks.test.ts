/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test reading the documentation and the codex files from disk; the rule is for the published nodes */
// Every link of the documentation lands, and so does each node's Docs link. A relative link (or
// one to this repository's own GitHub page, file or raw file) must name a file that exists and,
// for a Markdown file, an anchor one of its headings has (GitHub's anchors: lower case,
// punctuation but `-` dropped, spaces as `-`, a repeated heading -1, -2); whichever Markdown
// files the text lives in (test/support/docs.ts, docFiles).
// n8n 2.40 opens a node's `documentationUrl` as it is, but appends its own query
// (`?utm_source=n8n_app…`) to the codex link (ContainerTracking*.node.json): after a `#fragment`
// that query would become part of the fragment, and the anchor would never land. So the anchored
// link is the description's, and the codex links have no fragment.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ContainerTrackingApi } from '../../credentials/ContainerTrackingApi.credentials';
import { ContainerTracking } from '../../nodes/ContainerTracking/ContainerTracking.node';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';
import {
	anchorsOf,
	checkLinks,
	checkSectionReferences,
	diskTree,
	docFiles,
	linkProblem,
	repositoryAddress,
	ROOT,
	slug,
	type DocFile,
	type Tree,
} from '../support/docs';
import { stickyNotes, workflowOf } from '../support/docsPages';

const repository = repositoryAddress(
	(
		JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
			repository: string | { url: string };
		}
	).repository,
);
const tree = diskTree();
const docs = docFiles();

/** A tree of the given files only. */
function treeOf(files: readonly DocFile[]): Tree {
	const texts = new Map(files.map(({ file, text }) => [file, text]));
	const dirs = new Set(
		files.flatMap(({ file }) =>
			file
				.split('/')
				.slice(0, -1)
				.map((_, index, parts) => parts.slice(0, index + 1).join('/')),
		),
	);
	return {
		kind: (file) => (texts.has(file) ? 'file' : dirs.has(file) ? 'dir' : undefined),
		read: (file) => texts.get(file),
	};
}

describe("GitHub's anchors", () => {
	it('are the headings in lower case, punctuation dropped, repeats numbered', () => {
		expect(slug('Connect a real account')).toBe('connect-a-real-account');
		expect(slug('What it serves under `/v2`')).toBe('what-it-serves-under-v2');
		expect(slug('Control API (`/_sandbox/`, any key of the account)')).toBe(
			'control-api-_sandbox-any-key-of-the-account',
		);
		expect(slug('Install **from a tarball** — _before_ publishing')).toBe(
			'install-from-a-tarball--before-publishing',
		);
		expect(slug('[Speed](#speed), 2.41.3')).toBe('speed-2413');
		const anchors = anchorsOf(
			[
				'# Title',
				'## Usage',
				'```sh',
				'# Not a heading',
				'```',
				'## Usage',
				'Setext',
				'------',
				'<a id="kept"></a>',
			].join('\n'),
		);
		expect([...anchors]).toEqual(['title', 'usage', 'usage-1', 'setext', 'kept']);
	});
});

describe('each check of a link fails on a planted break', () => {
	const planted = [
		{
			file: 'README.md',
			text: [
				'# Package',
				'## Install',
				'See [the reference](docs/reference.md#trigger-options), [install](#install),',
				'[gone](#installing), [missing file](docs/nodes.md), [bad anchor](docs/reference.md#triggers)',
				'and ![a picture](docs/screenshots/board.png), [CHANGELOG](./CHANGELOG.md).',
				`The [raw example](https://raw.githubusercontent.com/${repository.slice(19)}/main/examples/nope.json),`,
				`[on GitHub](${repository}/blob/main/docs/reference.md#nope), [n8n](https://docs.n8n.io/#x).`,
				'Why: [the design](docs/design/reference.md#claims), [leases](docs/design/reference.md#leases).',
				'`[not a link](#in-code)`',
				'```md',
				'[not a link](#in-a-block)',
				'```',
			].join('\n'),
		},
		{
			file: 'docs/reference.md',
			text: '# Reference\n\n## Trigger options\n\n[Back](../README.md#usage)',
		},
		{
			file: 'docs/design/reference.md',
			text: '# Reference, inside\n\n_For contributors._\n\n## Claims\n\n[The page](../reference.md#trigger-option)',
		},
		{ file: 'docs/screenshots/board.png', text: '' },
		{ file: 'CHANGELOG.md', text: '# Changelog' },
	];

	it('reports a missing file, a missing anchor, here, in another page or in docs/design, and this repository’s own URLs', () => {
		expect(checkLinks(planted, treeOf(planted), repository)).toEqual([
			'README.md:4: #installing: README.md has no heading with the anchor #installing',
			'README.md:4: docs/nodes.md: docs/nodes.md does not exist',
			'README.md:4: docs/reference.md#triggers: docs/reference.md has no heading with the anchor #triggers',
			expect.stringMatching(
				/^README\.md:6: https:\/\/raw\.githubusercontent\.com\/.*: examples\/nope\.json does not exist$/,
			),
			expect.stringMatching(
				/^README\.md:7: https:\/\/github\.com\/.*#nope: docs\/reference\.md has no heading with the anchor #nope$/,
			),
			'README.md:8: docs/design/reference.md#leases: docs/design/reference.md has no heading with the anchor #leases',
			'docs/reference.md:5: ../README.md#usage: README.md has no heading with the anchor #usage',
			'docs/design/reference.md:7: ../reference.md#trigger-option: docs/reference.md has no heading with the anchor #trigger-option',
		]);
	});

	it('reports a reference whose quoted section is not the heading it lands on, or not one the page has', () => {
		const pages = [
			...planted,
			{
				file: 'docs/trigger.md',
				text: [
					'# Trigger',
					'## 5. Events',
					'See [reference.md, "Trigger options"](reference.md#trigger-options) and',
					'[reference.md, "Options"](reference.md#trigger-options), and README "Install", README, "Docker".',
					'Also (examples/README.md, "Routing") and [README, "Package"](../README.md).',
				].join('\n'),
			},
			{
				file: 'examples/README.md',
				text: '# Examples\n\n[trigger.md, "Events"](../docs/trigger.md#5-events)',
			},
		];
		expect(checkSectionReferences(pages, treeOf(pages), repository)).toEqual([
			'docs/trigger.md:4: says "Options" but #trigger-options is the heading "Trigger options"',
			'docs/trigger.md:4: refers to README.md, "Docker", a section it does not have',
			'docs/trigger.md:5: refers to examples/README.md, "Routing", a section it does not have',
		]);
	});

	it("reports a node's Docs link to a section that does not exist", () => {
		expect(
			linkProblem('(node)', `${repository}#no-such-section`, treeOf(planted), repository),
		).toBe(
			`${repository}#no-such-section: README.md has no heading with the anchor #no-such-section`,
		);
		expect(
			linkProblem('(node)', `${repository}#install`, treeOf(planted), repository),
		).toBeUndefined();
	});
});

describe('every link of the documentation lands', () => {
	it('the documentation is there', () => {
		expect(docs.map(({ file }) => file)).toEqual(
			expect.arrayContaining(['README.md', 'CHANGELOG.md', 'examples/README.md']),
		);
	});

	it('every relative link and anchor, in every Markdown file', () => {
		expect(checkLinks(docs, tree, repository)).toEqual([]);
	});

	it("every link and address in the examples' sticky notes", () => {
		const notes = readdirSync(path.join(ROOT, 'examples'))
			.filter((file) => file.endsWith('.json'))
			.flatMap((file) =>
				stickyNotes(
					workflowOf({
						file: `examples/${file}`,
						text: readFileSync(path.join(ROOT, 'examples', file), 'utf8'),
					}),
				),
			);
		expect(notes.length).toBeGreaterThan(5);
		expect(checkLinks(notes, tree, repository)).toEqual([]);
	});

	it('every reference to a section by its title lands on that section', () => {
		expect(checkSectionReferences(docs, tree, repository)).toEqual([]);
	});
});

describe.each([
	['Container Tracking', new ContainerTracking().description, 'ContainerTracking.node.json'],
	[
		'Container Tracking Trigger',
		new ContainerTrackingTrigger().description,
		'ContainerTrackingTrigger.node.json',
	],
])('%s: the Docs link', (_name, description, codexFile) => {
	it('opens a section of the documentation that exists', () => {
		const url = new URL(String(description.documentationUrl));
		expect(url.protocol).toBe('https:');
		expect(url.hash).not.toBe('');
		expect(String(description.documentationUrl).toLowerCase()).toMatch(
			new RegExp(`^${repository.toLowerCase().replace(/[.]/g, '\\.')}[/#]`),
		);
		expect(
			linkProblem('(node)', String(description.documentationUrl), tree, repository),
		).toBeUndefined();
	});

	it('the codex links carry no fragment for n8n to append its query to', () => {
		const codex = JSON.parse(
			readFileSync(path.join(ROOT, 'nodes', 'ContainerTracking', codexFile), 'utf8'),
		) as { resources: Record<string, Array<{ url: string }>> };
		const urls = Object.values(codex.resources).flat();
		expect(urls.length).toBeGreaterThan(0);
		for (const { url } of urls) {
			expect(url).not.toContain('#');
			expect(linkProblem('(codex)', url, tree, repository)).toBeUndefined();
		}
	});
});

describe('the credential: the Docs link', () => {
	it('opens a section of the documentation that exists', () => {
		const url = String(new ContainerTrackingApi().documentationUrl);
		expect(new URL(url).hash).not.toBe('');
		expect(linkProblem('(credential)', url, tree, repository)).toBeUndefined();
	});
});

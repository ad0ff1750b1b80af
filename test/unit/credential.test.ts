/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a test reading the README from disk; both rules are for the published nodes */
// A credential a customer can fill (credentials/ContainerTrackingApi.credentials.ts): after an
// install from n8n's Community Nodes panel there is no sandbox script to run, so every field's
// hint says first what a real account uses and where it is found, then the sandbox; its
// documentation link opens the README's "Connect a real account". The trigger's notice says
// where the service must reach n8n.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ContainerTrackingApi } from '../../credentials/ContainerTrackingApi.credentials';
import { ContainerTrackingTrigger } from '../../nodes/ContainerTracking/ContainerTrackingTrigger.node';

const README = readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
const credential = new ContainerTrackingApi();
const field = (name: string) => credential.properties.find((property) => property.name === name)!;
/** The hint as the editor shows it, without its markup. */
const hintText = (name: string) => String(field(name).hint ?? '').replace(/<[^>]+>/g, '');

describe('Container Tracking API credential', () => {
	it.each(['apiKey', 'baseUrl', 'signatureHeader'])(
		'%s has a hint that says what a real account uses first, the sandbox in a second sentence',
		(name) => {
			const hint = hintText(name);
			expect(hint).toMatch(/^For a real account: [^.]+[^.]*\. For the local sandbox\b/);
			expect(hint.indexOf('real account')).toBeLessThan(hint.indexOf('sandbox'));
		},
	);

	it('each hint says where a real account finds its value', () => {
		expect(hintText('apiKey')).toContain("your account's developer settings");
		expect(hintText('baseUrl')).toContain("the service's developer documentation");
		expect(hintText('baseUrl')).toMatch(/ending in \/v2/);
		expect(hintText('signatureHeader')).toContain("the service's webhook documentation");
	});

	it("the sandbox's values stay in the hints: its key, its address and its header", () => {
		expect(hintText('apiKey')).toContain('sandbox-key');
		expect(hintText('baseUrl')).toContain('http://127.0.0.1:4010/v2');
		expect(hintText('signatureHeader')).toContain(String(field('signatureHeader').default));
	});

	it("the Base URL's placeholder is a pattern ending in /v2, not a host that looks real", () => {
		const placeholder = String(field('baseUrl').placeholder);
		expect(placeholder).toMatch(/^https:\/\/<[^>]+>\/v2$/);
		expect(placeholder).not.toMatch(/\.example\b/);
	});

	it('its documentation link opens the README section "Connect a real account"', () => {
		expect(credential.documentationUrl).toMatch(/^https:\/\/.+#connect-a-real-account$/);
		expect(README).toMatch(/^## Connect a real account$/m);
	});

	it('the README section says where each value comes from, that n8n must be reachable, and how to test', () => {
		const section = README.split(/^## Connect a real account$/m)[1].split(/^## /m)[0];
		const reachable = README.split(/^## Make n8n reachable$/m)[1].split(/^## /m)[0];
		for (const words of ['N8N_WEBHOOK_URL', 'WEBHOOK_URL', 'Production URL', 'public'])
			expect(reachable).toContain(words);
		for (const words of [
			'developer settings',
			'/v2',
			'webhook documentation',
			// Reachability is stated once, in its own section, and linked from here.
			'[Make n8n reachable](#make-n8n-reachable)',
			// n8n tests a credential when it is saved (no Test button in 2.x): what it then says.
			'Saving the credential tests it',
			'_Connection tested successfully_',
			'**Retry**',
		])
			expect(section).toContain(words);
	});
});

describe('Container Tracking Trigger notice', () => {
	const properties = new ContainerTrackingTrigger().description.properties;
	const notice = properties.find((property) => property.type === 'notice');

	it("comes first and says the service must reach the Production URL, set in N8N_WEBHOOK_URL, and the sandbox's case", () => {
		expect(properties[0]).toBe(notice);
		expect(notice?.displayName).toContain("this workflow's Production URL");
		expect(notice?.displayName).toContain('public address');
		expect(notice?.displayName).toContain('N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x)');
		expect(notice?.displayName).toContain('sandbox');
	});
});

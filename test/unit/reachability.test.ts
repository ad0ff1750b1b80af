// Where a URL's host can be reached from
// (nodes/ContainerTracking/trigger/registration/reachability.ts): the trigger refuses a webhook URL
// the service cannot reach, so every spelling of a loopback or private address must be seen, and no
// public one taken for private.
import { urlScope } from '../../nodes/ContainerTracking/trigger/registration/reachability';

const scopeOf = (url: string) => urlScope(url)?.scope;

describe('urlScope', () => {
	it.each([
		['http://127.0.0.1:5678/webhook/x/webhook', 'loopback'],
		['http://127.255.255.254/', 'loopback'],
		['http://127.1/', 'loopback'], // short form: 127.0.0.1
		['http://0x7f.0.0.1/', 'loopback'], // hex
		['http://2130706433/', 'loopback'], // one number
		['http://0177.0.0.1/', 'loopback'], // octal
		['http://0.0.0.0:5678/', 'loopback'],
		['http://10.0.0.5/', 'private'],
		['http://10.255.255.255/', 'private'],
		['http://172.16.0.1/', 'private'],
		['http://172.31.255.255/', 'private'],
		['http://192.168.1.20:5678/', 'private'],
		['http://100.64.0.1/', 'private'], // carrier-grade NAT (Tailscale's addresses)
		['http://100.127.255.255/', 'private'],
		['http://169.254.169.254/', 'link-local'],
	])('IPv4 %s is %s', (url, scope) => {
		expect(scopeOf(url)).toBe(scope);
	});

	it.each([
		'http://11.0.0.1/',
		'http://9.255.255.255/',
		'http://172.15.255.255/',
		'http://172.32.0.0/',
		'http://192.167.255.255/',
		'http://192.169.0.0/',
		'http://100.63.255.255/',
		'http://100.128.0.0/',
		'http://169.253.255.255/',
		'http://128.0.0.1/',
		'https://8.8.8.8/',
		'https://203.0.113.7:8443/webhook',
	])('IPv4 %s next to the ranges is public', (url) => {
		expect(urlScope(url)).toEqual({ host: new URL(url).hostname, scope: 'public', reason: '' });
	});

	it.each([
		['http://[::1]:5678/', 'loopback'],
		['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
		['http://[::]/', 'loopback'],
		['http://[fc00::1]/', 'private'],
		['http://[fd12:3456:789a::1]/', 'private'],
		['http://[FDFF:ffff::1]/', 'private'],
		['http://[fe80::1]/', 'link-local'],
		['http://[febf::1]/', 'link-local'],
		['http://[fec0::1]/', 'private'], // site-local, deprecated
		['http://[::ffff:127.0.0.1]/', 'loopback'], // IPv4-mapped
		['http://[::ffff:192.168.0.1]/', 'private'],
		['http://[::ffff:8.8.8.8]/', 'public'],
		['http://[2001:db8::1]/', 'public'],
		['http://[2a00:1450:4001:80b::200e]:443/', 'public'],
		['http://[fbff::1]/', 'public'], // just below fc00::/7
		['http://[fe00::1]/', 'public'], // between fc00::/7 and fe80::/10
		['http://[::2]/', 'public'],
	])('IPv6 %s is %s', (url, scope) => {
		expect(scopeOf(url)).toBe(scope);
	});

	it.each([
		['http://localhost:5678/', 'loopback'],
		['http://LOCALHOST/', 'loopback'],
		['http://n8n.localhost/', 'loopback'],
		['http://localhost./', 'loopback'],
		['http://n8n:5678/webhook/x/webhook', 'local-name'], // a docker compose service
		['http://my-laptop/', 'local-name'],
		['http://my-laptop.local:5678/', 'local-name'],
		['http://host.docker.internal:5678/', 'local-name'],
		['http://n8n.home.arpa/', 'local-name'],
	])('the name %s is %s', (url, scope) => {
		expect(scopeOf(url)).toBe(scope);
	});

	it.each([
		'https://n8n.example.com/webhook/x/webhook',
		'https://api.example.com/v2',
		'https://localhost.example.com/', // localhost only as the last label counts
		'https://local.example.org/',
		'https://internal-tools.acme.com/',
		'https://n8n.acme.co.uk:8443/webhook',
	])('the name %s is public', (url) => {
		expect(scopeOf(url)).toBe('public');
	});

	it('ignores the port, the path, the query and the credentials in the URL', () => {
		expect(urlScope('http://user:pw@192.168.0.10:8080/a/b?c=127.0.0.1#d')).toEqual({
			host: '192.168.0.10',
			scope: 'private',
			reason: '192.168.0.10 is a private address (192.168.0.0/16)',
		});
		expect(scopeOf('https://n8n.example.com/?next=http://127.0.0.1/')).toBe('public');
	});

	it('says why, naming the host as the URL parser normalized it', () => {
		expect(urlScope('http://127.1:5678/')).toEqual({
			host: '127.0.0.1',
			scope: 'loopback',
			reason: '127.0.0.1 is a loopback address (127.0.0.0/8)',
		});
		expect(urlScope('http://[::1]/')?.reason).toBe('::1 is the loopback address');
		expect(urlScope('http://[::ffff:10.1.2.3]/')?.reason).toBe(
			'::ffff:a01:203 is the IPv4 address 10.1.2.3, a private address (10.0.0.0/8)',
		);
		expect(urlScope('http://n8n:5678/')?.reason).toMatch(/^n8n is a single-label host name/);
		expect(urlScope('http://Localhost/')?.reason).toContain('localhost');
	});

	it('answers undefined for what is not an http(s) URL', () => {
		for (const url of ['', 'not a url', '127.0.0.1', 'ftp://127.0.0.1/', 'http://', 'file:///x'])
			expect(urlScope(url)).toBeUndefined();
	});

	it('trims the URL as the credential does', () => {
		expect(scopeOf('  http://127.0.0.1:4010/v2  ')).toBe('loopback');
	});
});

/**
 * Where an address can be reached from: the whole internet (`public`), or only the machine n8n
 * runs on or a network it is in. Read from the URL alone, without a DNS lookup: a name that
 * resolves to a private address is not seen here, a loopback, private or local name is.
 */
export type AddressScope = 'public' | 'loopback' | 'private' | 'link-local' | 'local-name';

export interface UrlScope {
	/** The URL's host as the URL parser normalized it (IPv6 in brackets). */
	host: string;
	scope: AddressScope;
	/** Why the host is not public, in words ("a loopback address (127.0.0.0/8)"); empty if it is. */
	reason: string;
}

/** [first address, prefix length, scope, the range's name] */
type Range4 = [string, number, Exclude<AddressScope, 'public' | 'local-name'>, string];

const IPV4_RANGES: Range4[] = [
	['0.0.0.0', 8, 'loopback', 'this host (0.0.0.0/8)'],
	['127.0.0.0', 8, 'loopback', 'a loopback address (127.0.0.0/8)'],
	['10.0.0.0', 8, 'private', 'a private address (10.0.0.0/8)'],
	['172.16.0.0', 12, 'private', 'a private address (172.16.0.0/12)'],
	['192.168.0.0', 16, 'private', 'a private address (192.168.0.0/16)'],
	['100.64.0.0', 10, 'private', 'a carrier-grade NAT address (100.64.0.0/10)'],
	['169.254.0.0', 16, 'link-local', 'a link-local address (169.254.0.0/16)'],
];

/** Names only a local network resolves: RFC 6761 (localhost), 6762 (local), 8375, ICANN's internal. */
const LOCAL_SUFFIXES: Array<[string, AddressScope, string]> = [
	['localhost', 'loopback', 'a name of the machine n8n runs on (localhost)'],
	['local', 'local-name', 'a multicast DNS name (.local) that only the local network resolves'],
	['internal', 'local-name', 'a private-use name (.internal) that only a private network resolves'],
	['home.arpa', 'local-name', 'a home network name (.home.arpa) that only that network resolves'],
];

function ipv4Number(address: string): number | undefined {
	const parts = address.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) < 256))
		return undefined;
	return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

/** The range a dotted IPv4 address is in, public (undefined range), or undefined if not IPv4. */
function ipv4Range(address: string): { range?: Range4 } | undefined {
	const value = ipv4Number(address);
	if (value === undefined) return undefined;
	const within = ([first, prefix]: Range4) =>
		Math.floor(value / 2 ** (32 - prefix)) === Math.floor(ipv4Number(first)! / 2 ** (32 - prefix));
	return { range: IPV4_RANGES.find(within) };
}

function ipv4Scope(address: string): Omit<UrlScope, 'host'> | undefined {
	const found = ipv4Range(address);
	if (!found) return undefined;
	if (!found.range) return { scope: 'public', reason: '' };
	return { scope: found.range[2], reason: `${address} is ${found.range[3]}` };
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
	let text = address.toLowerCase();
	const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (tail) {
		const value = ipv4Number(tail[2]);
		if (value === undefined) return undefined;
		text = `${tail[1]}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
	}
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
	const head = groupsOf(halves[0]);
	const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
	const missing = 8 - head.length - rest.length;
	if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
	const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
	if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
	return groups.map((group) => parseInt(group, 16));
}

function ipv6Scope(address: string): Omit<UrlScope, 'host'> | undefined {
	const groups = ipv6Groups(address);
	if (!groups) return undefined;
	const zeros = (count: number) => groups.slice(0, count).every((group) => group === 0);
	if (zeros(7) && groups[7] === 1)
		return { scope: 'loopback', reason: '::1 is the loopback address' };
	if (zeros(8)) return { scope: 'loopback', reason: ':: is the unspecified address (this host)' };
	// IPv4-mapped (::ffff:a.b.c.d): the IPv4 address decides.
	if (zeros(5) && groups[5] === 0xffff) {
		const v4 = [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
		const { range } = ipv4Range(v4)!;
		if (!range) return { scope: 'public', reason: '' };
		return { scope: range[2], reason: `${address} is the IPv4 address ${v4}, ${range[3]}` };
	}
	if ((groups[0] & 0xfe00) === 0xfc00)
		return { scope: 'private', reason: `${address} is a unique local address (fc00::/7)` };
	if ((groups[0] & 0xffc0) === 0xfe80)
		return { scope: 'link-local', reason: `${address} is a link-local address (fe80::/10)` };
	if ((groups[0] & 0xffc0) === 0xfec0)
		return { scope: 'private', reason: `${address} is a site-local address (fec0::/10)` };
	return { scope: 'public', reason: '' };
}

function nameScope(name: string): Omit<UrlScope, 'host'> {
	const host = name.toLowerCase().replace(/\.$/, '');
	for (const [suffix, scope, what] of LOCAL_SUFFIXES)
		if (host === suffix || host.endsWith(`.${suffix}`))
			return { scope, reason: `${host} is ${what}` };
	if (!host.includes('.'))
		return {
			scope: 'local-name',
			reason: `${host} is a single-label host name, which only a local network (or a container network) resolves`,
		};
	return { scope: 'public', reason: '' };
}

/**
 * The scope of a URL's host, or undefined when `url` is not an http(s) URL. The WHATWG URL
 * parser first normalizes the host (127.1, 0x7f.0.0.1 and 2130706433 all become 127.0.0.1;
 * IPv6 is compressed, an IPv4 tail turned to hex), so every spelling of an address is classified
 * alike.
 */
export function urlScope(url: string): UrlScope | undefined {
	let host: string;
	try {
		const parsed = new URL(url.trim());
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
		host = parsed.hostname;
	} catch {
		return undefined;
	}
	if (host === '') return undefined;
	const address = host.startsWith('[') ? host.slice(1, -1) : host;
	const scope = host.startsWith('[')
		? ipv6Scope(address)
		: (ipv4Scope(address) ?? nameScope(address));
	return scope && { host, ...scope };
}

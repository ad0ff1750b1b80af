// Resource locators (nodes/ContainerTracking/actions/locators.ts and methods/listSearch.ts) on an
// account of 1,000 containers: "From list" searches by part of a number across pages, "Number"
// finds a few numbers with one search each and a whole column with one read of the list, a
// number typed into "By ID" still finds its container, and an id carried into "Number" reads that
// container. Calls are counted by the sandbox.
import { containerLocator } from '../../nodes/ContainerTracking/actions/locators';
import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import { SEARCH_MATCHES_PER_CALL } from '../../nodes/ContainerTracking/methods/listSearch';
import { MAX_PAGE_SIZE } from '../../nodes/ContainerTracking/transport/pagination';
import type { Resource } from '../../sandbox/world/store';
import { generous } from '../support/bounds';
import { runContainerTrackingNode, searchWithNode } from '../support/engine';
import {
	API_KEY,
	countRequests,
	eventually,
	startTestSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';

const CONTAINERS = 1_000;
const numberOf = (serial: number) => withCheckDigit(`MSCU${String(serial).padStart(6, '0')}`);

describe('Resource locators among 1,000 containers', () => {
	let handle: SandboxHandle;
	let containers: Resource[];
	const credentials = () => ({ apiKey: API_KEY, baseUrl: handle.sandbox.url });
	const idOfNumber = (number: string) =>
		containers.find((container) => container.attributes.number === number)!.id;

	let listCalls: () => Promise<number>;
	let searchCalls: () => Promise<number>;

	beforeAll(async () => {
		handle = await startTestSandbox({ trackingDelaySeconds: 0 });
		containers = await trackManyContainers(
			handle,
			Array.from({ length: CONTAINERS }, (_, serial) => numberOf(serial)),
			'MSCU',
		);
		listCalls = await countRequests(handle, 'GET', '/containers');
		searchCalls = await countRequests(handle, 'GET', '/search');
		// Tracking 1,000 numbers: 5 s on the busy two-core machine.
	}, generous(8_000));
	afterAll(async () => handle?.stop());

	it('From list without a search shows one page of 100, named by number, with a token for more', async () => {
		const before = await listCalls();
		const first = await searchWithNode('searchContainers', credentials());
		expect(await listCalls()).toBe(before + 1);
		expect(first.results).toHaveLength(MAX_PAGE_SIZE);
		expect(first.paginationToken).toEqual(expect.stringContaining('page[number]=2'));
		const named = first.results[0];
		expect(String(named.name)).toMatch(/^MSCU\d{7}( · .+)?$/);
		expect(named.value).toBe(idOfNumber(String(named.name).split(' · ')[0]));
		const second = await searchWithNode(
			'searchContainers',
			credentials(),
			undefined,
			first.paginationToken as string,
		);
		expect(second.results).toHaveLength(MAX_PAGE_SIZE);
		expect(second.results.map((result) => result.value)).not.toContain(named.value);
	});

	it('a part of a number typed in lowercase with a space finds its matches with one search, not a read of the list', async () => {
		// "u000 99" is "U00099": the ten numbers of serials 000990 to 000999, all on page 10.
		const wanted = containers
			.map((container) => String(container.attributes.number))
			.filter((number) => number.includes('U00099'));
		expect(wanted).toHaveLength(10);
		const [listsBefore, searchesBefore] = [await listCalls(), await searchCalls()];
		const found = await searchWithNode('searchContainers', credentials(), 'u000 99');
		// Ten of them on the list's last page; the service's search names all ten in one answer.
		expect((await searchCalls()) - searchesBefore).toBe(1);
		expect((await listCalls()) - listsBefore).toBe(0);
		expect(found.results.map((result) => String(result.name).split(' · ')[0]).sort()).toEqual(
			wanted.sort(),
		);
		expect(
			found.results.every(
				(result) => result.value === idOfNumber(String(result.name).split(' · ')[0]),
			),
		).toBe(true);
	});

	it('a search matching more than one call holds continues, page after page, without repeats', async () => {
		// Every number holds "MSCU": the service's search stops at 25, so the list is read; the
		// first call stops once it has 20 matches.
		const seen: string[] = [];
		let token: string | undefined;
		let calls = 0;
		do {
			const page = await searchWithNode('searchContainers', credentials(), 'mscu', token);
			seen.push(...page.results.map((result) => String(result.value)));
			token = page.paginationToken as string | undefined;
			calls++;
			if (calls === 1) expect(page.results.length).toBeGreaterThanOrEqual(SEARCH_MATCHES_PER_CALL);
		} while (token && calls < 20);
		expect(token).toBeUndefined();
		expect(new Set(seen).size).toBe(CONTAINERS);
		expect(seen).toHaveLength(CONTAINERS);
	});

	const getByNumber = (numbers: string[]) =>
		runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'get',
				containerId: { __rl: true, mode: 'number', value: '={{ $json.number }}' },
				simplify: true,
			},
			numbers.map((number) => ({ number })),
			credentials(),
		);

	it('Number finds a few numbers with one search each, whatever the size of the account', async () => {
		const numbers = [numberOf(5), numberOf(512), numberOf(999), numberOf(250), numberOf(5)];
		const [listsBefore, searchesBefore] = [await listCalls(), await searchCalls()];
		const { items, error } = await getByNumber(numbers);
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.number, item.json.id, item.pairedItem])).toEqual(
			numbers.map((number, index) => [number, idOfNumber(number), { item: index }]),
		);
		// Four numbers, one of them twice: four searches, and the list is not read.
		expect((await searchCalls()) - searchesBefore).toBe(4);
		expect((await listCalls()) - listsBefore).toBe(0);
	});

	it('Number resolves a column of more than 20 numbers with one read of the list (10 calls for 1,000)', async () => {
		const numbers = Array.from({ length: 25 }, (_, index) => numberOf(index * 37));
		const [listsBefore, searchesBefore] = [await listCalls(), await searchCalls()];
		const { items, error } = await getByNumber(numbers);
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.number, item.json.id, item.pairedItem])).toEqual(
			numbers.map((number, index) => [number, idOfNumber(number), { item: index }]),
		);
		expect((await listCalls()) - listsBefore).toBe(CONTAINERS / MAX_PAGE_SIZE);
		expect((await searchCalls()) - searchesBefore).toBe(0);
	});

	it('a number typed the way people write it, or into By ID, finds its container', async () => {
		const number = numberOf(42);
		const spaced = `${number.slice(0, 4)} ${number.slice(4, 10)}-${number.slice(10)}`.toLowerCase();
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getTransportEvents',
				containerId: { __rl: true, mode: 'id', value: spaced },
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		expect(items.every((item) => item.json.container_id === idOfNumber(number))).toBe(true);
	});

	it('an id carried into Number, as the editor does when switching from the list, reads that container without the list', async () => {
		const id = idOfNumber(numberOf(77));
		// The mode's own check in the editor lets the id stand (it is not flagged red)…
		const numberMode = containerLocator('get').modes!.find((mode) => mode.name === 'number')!;
		const regex = (numberMode.validation![0] as unknown as { properties: { regex: string } })
			.properties.regex;
		expect(new RegExp(regex).test(id)).toBe(true);
		expect(new RegExp(regex).test(' mscu 000077-3 ')).toBe(true);
		expect(new RegExp(regex).test('MSCU00007')).toBe(false);
		// …and the node reads it as the id it is, with no read of the list.
		const before = await listCalls();
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'get',
				containerId: { __rl: true, mode: 'number', value: id },
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.number, item.json.id])).toEqual([[numberOf(77), id]]);
		expect(await listCalls()).toBe(before);
	});

	it('a number no container has fails naming the field, with a check-digit hint for a typo', async () => {
		const typo = `${numberOf(7).slice(0, 10)}${(Number(numberOf(7).slice(10)) + 1) % 10}`;
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'getRawEvents',
				containerId: { __rl: true, mode: 'number', value: typo },
			},
			[{}],
			credentials(),
		);
		expect(items).toEqual([]);
		expect(error?.message).toBe(`No container numbered ${typo} is tracked by this account`);
		expect(error?.description).toContain("The service's search by number found none");
		// The number it most likely is: the check digit corrected, which this account tracks.
		expect(error?.description).toContain(
			`${typo} fails its check digit (ISO 6346 expects ${numberOf(7).slice(10)} at the end): did you mean ${numberOf(7)}? This account tracks ${numberOf(7)}.`,
		);
		expect(error?.description).toContain('"Container"');
	});

	it('with Continue On Fail, every item yields an item: found, not tracked, not a number', async () => {
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'get',
				containerId: { __rl: true, mode: 'number', value: '={{ $json.number }}' },
			},
			[{ number: numberOf(1) }, { number: withCheckDigit('MSKU999999') }, { number: 'hello' }],
			credentials(),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.id).toBe(idOfNumber(numberOf(1)));
		expect(items[1].json.error).toMatch(/^No container numbered MSKU999999\d is tracked/);
		expect(items[2].json.error).toBe('"hello" is not a container number');
	});

	// Last: it adds a container to the account.
	it('a number on two journeys resolves to the newest one', async () => {
		const number = numberOf(300);
		const first = idOfNumber(number);
		await handle.control.post('/clock/advance', { hours: 24 });
		await trackManyContainers(handle, [number], 'MAEU');
		const again = await eventually(
			() =>
				handle.sandbox.world.store
					.list('container')
					.find((container) => container.attributes.number === number && container.id !== first),
			{ what: 'a second journey of the same box' },
		);
		const { items, error } = await runContainerTrackingNode(
			{
				resource: 'container',
				operation: 'get',
				containerId: { __rl: true, mode: 'number', value: number },
			},
			[{}],
			credentials(),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual([again.id]);
	});
});

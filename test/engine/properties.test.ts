// Property tests over the service's published examples (fast-check): each example is mutated as
// real data differs from it (values no table lists, null relationships, dropped optional members,
// unknown members, numbers as numeric strings, null list entries) and must still be read.
// - The trigger, run by n8n-core's WebhookContext: never throws, answers every signed delivery
//   that keeps its id and event without a 4xx, starts the workflow with items, names the
//   notification and event, warns about nothing it tolerates, keeps known fields.
// - The node's reading of API answers: the parts it needs survive, warnings never throw, items
//   are built for every record, unseen values reach them unchanged, known fields keep their values.
import fc from 'fast-check';

import { containerItem } from '../../nodes/ContainerTracking/actions/container/summary';
import { inferenceSummary } from '../../nodes/ContainerTracking/actions/trackingRequest/inferNumber';
import {
	documentWarnings,
	inferNumberDocument,
	listDocumentCore,
	singleDocumentCore,
	containerDocument,
	rawEventListDocument,
	trackingRequestDocument,
	transportEventListDocument,
	webhookDocument,
	webhookNotificationEnvelope,
} from '../../nodes/ContainerTracking/schemas';
import { flattenResource, indexIncluded } from '../../nodes/ContainerTracking/records/jsonApi';
import type { JsonApiResource } from '../../nodes/ContainerTracking/schemas';
import { deliverSigned, SECRET, type Doc } from '../support/deliveries';
import {
	applyMutations,
	isTolerated,
	mutationSites,
	mutationsOf,
	type Mutation,
	type Site,
} from '../support/mutations';
import { describeWithFixtures, fixtureNames, readFixture } from '../support/sharedFixtures';
import { TriggerHarness } from '../support/trigger';

/** Runs per example and property: enough to meet every kind of site, quick enough for npm test. */
const RUNS = 40;
const NOW = new Date('2024-07-05T12:00:00Z');

const only = (kind: Site['kind']) => (site: Site) => site.kind === kind;

/** A property over mutation sets of `sites`; skipped when an example offers no such site. */
async function forMutations(
	sites: Site[],
	property: (mutations: Mutation[]) => Promise<void> | void,
): Promise<void> {
	if (sites.length === 0) return;
	await fc.assert(
		fc.asyncProperty(mutationsOf(sites), async (mutations) => property(mutations)),
		{
			numRuns: RUNS,
			// FC_SEED replays the seed a failure printed.
			// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals
			...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
		},
	);
}

// ---------------------------------------------------------------------------------------------

let workflows = 0;

/**
 * Each run is another workflow: the trigger remembers the newest state it gave of a container per
 * workflow (trigger/memory/givenStates.ts), and a mutated example is another state of the same
 * second.
 */
function trigger() {
	workflows += 1;
	return new TriggerHarness(
		{
			registration: 'automatic',
			events: ['container.updated'],
			// Repeats are the business of other tests: every run here delivers the same ids.
			options: { deduplicate: false },
		},
		{ apiKey: 'unused', baseUrl: 'http://127.0.0.1:9/v2' },
		{ webhookId: 'w-1', webhookSecret: SECRET },
		{ workflowId: `properties-${workflows}` },
	);
}

async function deliveryItems(notification: Doc): Promise<Doc[]> {
	const { result, sent, items } = await deliverSigned(trigger(), notification);
	if (sent?.status !== 200) throw new Error(`answered ${sent?.status}: ${JSON.stringify(sent?.body)}`);
	if (!result.workflowData) throw new Error(`started nothing: ${JSON.stringify(result)}`);
	return items as Doc[];
}

function recordAt(document: Doc, type: string): Doc | undefined {
	const ref = document?.data?.relationships?.reference_object?.data;
	if (!ref || !Array.isArray(document.included)) return undefined;
	return document.included.find(
		(record: Doc) => record?.type === ref.type && record?.id === ref.id && type === ref.type,
	);
}

/**
 * Where an unseen value must show in the items: in the changeset of a container.updated, in the
 * reference record's attributes otherwise (it is flattened onto the item).
 */
function isShown(site: Site, document: Doc): boolean {
	const [head, index, member] = site.path;
	if (head !== 'included' || typeof index !== 'number' || member !== 'attributes') return false;
	const ref = document.data?.relationships?.reference_object?.data;
	const record = document.included?.[index];
	if (!ref || record?.type !== ref.type || record?.id !== ref.id) return false;
	const updated =
		document.data.attributes.event === 'container.updated' &&
		recordAt(document, 'container_updated_event');
	return updated ? site.path[4] === 'changeset' : true;
}

describeWithFixtures('properties: the trigger reads mutated published deliveries', () => {
	const names = fixtureNames('notifications');
	const eachDelivery = names.length > 0 ? it.each(names) : it.skip.each(['(none)']);

	eachDelivery(
		'%s: any mutations keep a 2xx answer and items naming the notification',
		async (name) => {
			const original = readFixture<Doc>('notifications', name);
			await forMutations(mutationSites(original), async (mutations) => {
				const mutated = applyMutations(original, mutations) as Doc;
				const items = await deliveryItems(mutated);
				expect(items.length).toBeGreaterThan(0);
				for (const item of items) {
					expect(item.event).toBe(mutated.data.attributes.event);
					expect(item.notification_id).toBe(String(mutated.data.id));
				}
			});
		},
	);

	eachDelivery(
		'%s: what real data carries gives no warnings, and unseen values show unchanged',
		async (name) => {
			const original = readFixture<Doc>('notifications', name);
			await forMutations(mutationSites(original).filter(isTolerated), async (mutations) => {
				const mutated = applyMutations(original, mutations) as Doc;
				expect(documentWarnings(webhookNotificationEnvelope, mutated).all).toEqual([]);
				const items = await deliveryItems(mutated);
				expect(items.filter((item) => item.warnings !== undefined)).toEqual([]);
				const shown = JSON.stringify(items);
				for (const { site, token } of mutations) {
					// Numbers become 53, not the token; a later mutation may have removed the place again.
					if (site.kind !== 'unseen_value' || !JSON.stringify(mutated).includes(token)) continue;
					if (isShown(site, mutated)) expect(shown).toContain(token);
				}
			});
		},
	);

	eachDelivery('%s: unknown members change no known field', async (name) => {
		const original = readFixture<Doc>('notifications', name);
		const before = await deliveryItems(original);
		await forMutations(mutationSites(original).filter(only('add_member')), async (mutations) => {
			const after = await deliveryItems(applyMutations(original, mutations));
			// A new changeset key is a change of its own: its item comes after the others.
			expect(after.length).toBeGreaterThanOrEqual(before.length);
			before.forEach((item, index) => expect(after[index]).toMatchObject(item));
		});
	});
});

// ---------------------------------------------------------------------------------------------

/** The schema each published answer is read with, and whether it lists records. */
const API_ANSWERS: Record<
	string,
	{ schema: Parameters<typeof documentWarnings>[0]; list: boolean }
> = {
	'container.get.json': { schema: containerDocument, list: false },
	'container.raw_events.json': { schema: rawEventListDocument, list: true },
	'container.transport_events.json': { schema: transportEventListDocument, list: true },
	'infer_number.container.json': { schema: inferNumberDocument, list: false },
	'tracking_request.create.201.json': { schema: trackingRequestDocument, list: false },
	'webhook.create.201.json': { schema: webhookDocument, list: false },
};

/** The items the node's operations build from an answer (see actions/*). */
function nodeItems(document: Doc): Doc[] {
	const included = indexIncluded(document.included);
	const records: Doc[] = Array.isArray(document.data) ? document.data : [document.data];
	return records.map((record: JsonApiResource) => {
		if (record.type === 'container') return containerItem(record, included, NOW);
		if (record.type === 'infer_number_results')
			return { ...inferenceSummary(record.attributes ?? {}), ...(record.attributes ?? {}) };
		return flattenResource(record, included);
	});
}

describeWithFixtures('properties: the node reads mutated published answers', () => {
	const names = fixtureNames('api').filter((name) => name in API_ANSWERS);
	const eachAnswer = names.length > 0 ? it.each(names) : it.skip.each(['(none)']);

	eachAnswer(
		'%s: any mutations keep what the operation needs, and items for every record',
		async (name) => {
			const { schema, list } = API_ANSWERS[name];
			const original = readFixture<Doc>('api', name);
			await forMutations(mutationSites(original), (mutations) => {
				const mutated = applyMutations(original, mutations) as Doc;
				expect((list ? listDocumentCore : singleDocumentCore).safeParse(mutated).success).toBe(
					true,
				);
				const warnings = documentWarnings(schema, mutated);
				const items = nodeItems(mutated);
				expect(items).toHaveLength(list ? mutated.data.length : 1);
				items.forEach((_item, index) =>
					expect(Array.isArray(warnings.forRecord(index))).toBe(true),
				);
			});
		},
	);

	eachAnswer(
		'%s: what real data carries gives no warnings, and unseen values show unchanged',
		async (name) => {
			const { schema } = API_ANSWERS[name];
			const original = readFixture<Doc>('api', name);
			await forMutations(mutationSites(original).filter(isTolerated), (mutations) => {
				const mutated = applyMutations(original, mutations) as Doc;
				expect(documentWarnings(schema, mutated).all).toEqual([]);
				const shown = JSON.stringify(nodeItems(mutated));
				for (const { site, token } of mutations) {
					const inPrimaryAttributes =
						site.path[0] === 'data' &&
						site.path.includes('attributes') &&
						site.kind === 'unseen_value';
					if (inPrimaryAttributes && JSON.stringify(mutated).includes(token))
						expect(shown).toContain(token);
				}
			});
		},
	);

	eachAnswer('%s: unknown members change no known field', async (name) => {
		const original = readFixture<Doc>('api', name);
		const before = nodeItems(original);
		await forMutations(mutationSites(original).filter(only('add_member')), (mutations) => {
			const after = nodeItems(applyMutations(original, mutations));
			after.forEach((item, index) => expect(item).toMatchObject(before[index]));
		});
	});
});

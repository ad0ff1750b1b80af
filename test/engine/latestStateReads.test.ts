// Output → Latest State per Container with Fetch Container When Missing
// (nodes/ContainerTracking/trigger/execution.ts): each container's state is the service's as read
// after its notifications came, not the state a notification carried. The service times a
// notification in whole seconds, so two changes of one box can share a second, and executions
// end in any order: a view that keeps the newest state (the Pickup board's `state_as_of`) ends on
// the service's newest only when every state it is given is a read, timed when it was asked.
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { withCheckDigit } from '../../sandbox/world/containerNumbers';
import type { Resource } from '../../sandbox/world/store';
import {
	deliverSigned,
	fixtureNotification,
	recordOf,
	SECRET,
	type Doc,
} from '../support/deliveries';
import { runContainerTrackingNode } from '../support/engine';
import {
	API_KEY,
	countRequests,
	startTestSandbox,
	trackManyContainers,
	type SandboxHandle,
} from '../support/sandbox';
import { describeWithFixtures } from '../support/sharedFixtures';
import { TriggerHarness } from '../support/trigger';

// The notification is the service's published one (../shared): skipped where it is not.
describeWithFixtures(
	'Latest State per Container reads each container after its notifications came',
	() => {
		let handle: SandboxHandle;
		let container: Resource;

		beforeAll(async () => {
			handle = await startTestSandbox({ trackingDelaySeconds: 0 });
			[container] = await trackManyContainers(handle, [withCheckDigit('MSCU073100')], 'MSCU');
		});

		afterAll(async () => {
			await handle?.stop();
		});

		const harness = (output: string, simplify?: boolean) =>
			new TriggerHarness(
				{
					registration: 'automatic',
					events: ['container.updated'],
					output,
					...(simplify === undefined ? {} : { simplify }),
					options: { fetchContainer: true },
				},
				{ apiKey: API_KEY, baseUrl: handle.sandbox.url },
				{ webhookId: randomUUID(), webhookSecret: SECRET },
			);

		/**
		 * The published container.updated, about the sandbox's container: it carries the box as the
		 * fixture has it (another number, a customs hold), made at `createdAt`.
		 */
		function updateOfSandboxContainer(createdAt: string): Doc {
			const published = fixtureNotification('container.updated');
			const fixtureId = recordOf(published, 'container').id as string;
			const notification = JSON.parse(
				JSON.stringify(published).split(fixtureId).join(container.id),
			) as Doc;
			notification.data.attributes.created_at = createdAt;
			return notification;
		}

		const served = () => handle.served('container', container.id).attributes;

		it('gives the container as the service has it, timed when it was asked, whatever the notification carried', async () => {
			const now = new Date();
			const second = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString();
			const notification = updateOfSandboxContainer(second);
			expect(recordOf(notification, 'container').attributes.number).not.toBe(served().number);

			const before = Date.now();
			const { items } = await deliverSigned(harness('latestState'), notification);
			const after = Date.now();
			expect(items).toHaveLength(1);
			const [item] = items;
			expect(item).toMatchObject({
				id: container.id,
				container_id: container.id,
				number: served().number,
				container_number: served().number,
				notification_ids: [notification.data.id],
			});
			// The moment the read was asked, to the millisecond: after the delivery came.
			const asOf = Date.parse(String(item.container_as_of));
			expect(asOf).toBeGreaterThanOrEqual(before);
			expect(asOf).toBeLessThanOrEqual(after);
		});

		it('two notifications of one second run in either order: the one run later gives the later read', async () => {
			const second = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
			const first = updateOfSandboxContainer(second);
			const secondOfSecond = updateOfSandboxContainer(second);
			recordOf(secondOfSecond, 'container').attributes.holds_at_pod_terminal = [];

			const later = await deliverSigned(harness('latestState'), secondOfSecond);
			const earlier = await deliverSigned(harness('latestState'), first);
			const asOf = (run: { items: Doc[] }) => Date.parse(String(run.items[0].container_as_of));
			expect(asOf(earlier)).toBeGreaterThan(asOf(later));
			for (const run of [later, earlier])
				expect(run.items[0]).toMatchObject({
					number: served().number,
					active_holds: expect.any(Array),
				});
			expect(earlier.items[0].active_holds).toEqual(later.items[0].active_holds);
		});

		it('Simplify off gives the whole container, as Get with Simplify off does; Get Charges reads it with no call of its own', async () => {
			const notification = updateOfSandboxContainer(new Date().toISOString());
			const { items } = await deliverSigned(harness('latestState', false), notification);
			expect(items).toHaveLength(1);
			const [item] = items;
			const credentials = { apiKey: API_KEY, baseUrl: handle.sandbox.url };
			const get = await runContainerTrackingNode(
				{
					resource: 'container',
					operation: 'get',
					containerId: { __rl: true, mode: 'id', value: container.id },
					simplify: false,
					options: { include: ['shipment', 'pod_terminal', 'pickup_facility'] },
				},
				[{}],
				credentials,
			);
			const whole = get.items[0].json;
			// Every member Get gives, the same (its read's time and the fees' "as of" aside), and the
			// trigger's own beside them.
			const moment = new Set(['container_as_of', 'days_until_last_free_day']);
			expect(Object.keys(item).sort()).toEqual(
				[
					...new Set([
						...Object.keys(whole),
						'container_id',
						'container_number',
						'container_state_complete',
						'notification_ids',
						'events',
						'changes',
					]),
				].sort(),
			);
			for (const [name, value] of Object.entries(whole))
				if (!moment.has(name)) expect([name, item[name]]).toEqual([name, value]);
			expect(item).toMatchObject({
				pod_timezone: served().pod_timezone,
				notification_ids: [notification.data.id],
			});

			// Get Charges on the trigger's item: the same charges as by id, and no read of the container.
			const tariffRows = {
				row: [
					{ charge: 'demurrage', rate_per_day: 150, currency: 'USD' },
					{ charge: 'detention', free_days: 4, rate_per_day: 90, currency: 'USD' },
				],
			};
			const reads = await countRequests(handle, 'GET', '/containers/*');
			const fromItem = await runContainerTrackingNode(
				{
					resource: 'container',
					operation: 'getCharges',
					containerSource: 'input',
					tariffSource: 'typed',
					tariffRows,
				},
				[item as IDataObject],
				credentials,
			);
			expect(await reads()).toBe(0);
			const byId = await runContainerTrackingNode(
				{
					resource: 'container',
					operation: 'getCharges',
					containerId: { __rl: true, mode: 'id', value: container.id },
					tariffSource: 'typed',
					tariffRows,
				},
				[{}],
				credentials,
			);
			expect(fromItem.error).toBeUndefined();
			expect(fromItem.items[0].json).toEqual(byId.items[0].json);

			// Simplify on (the default) keeps the fields Get gives with Simplify on.
			const simplified = await deliverSigned(
				harness('latestState'),
				updateOfSandboxContainer(new Date().toISOString()),
			);
			expect(simplified.items[0]).not.toHaveProperty('pod_timezone');
			expect(simplified.items[0]).toHaveProperty('last_free_day_date');
		});

		it('Output Changes keeps the state the notification carried (nothing read)', async () => {
			const notification = updateOfSandboxContainer(new Date().toISOString());
			const { items } = await deliverSigned(harness('changes'), notification);
			expect(items.length).toBeGreaterThan(0);
			for (const item of items)
				expect(item.container).toMatchObject({
					number: recordOf(notification, 'container').attributes.number,
					container_as_of: notification.data.attributes.created_at,
				});
		});
	},
);

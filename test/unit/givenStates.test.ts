// A late notification must not bring an old state back
// (nodes/ContainerTracking/trigger/memory/givenStates.ts): an item whose container state is older
// than one an earlier execution of the same trigger gave is marked for a fresh read; items of one
// execution are not compared with each other.
import type { IDataObject } from 'n8n-workflow';

import {
	markOutdatedStates,
	rememberStates,
} from '../../nodes/ContainerTracking/trigger/memory/givenStates';

const item = (id: string, asOf: string, status = 'available'): IDataObject => ({
	container_id: id,
	container: { id, current_status: status, container_as_of: asOf, container_state_complete: true },
});
const state = (entry: IDataObject) => entry.container as IDataObject;

describe('newest states per container', () => {
	it('marks a state older than one an earlier execution gave, and only that one', () => {
		const scope = 'workflow-a:node-1';
		const first = [item('c1', '2026-11-26T10:00:05Z'), item('c2', '2026-11-26T10:00:01Z')];
		markOutdatedStates(scope, first);
		expect(first.map((entry) => state(entry).container_state_outdated)).toEqual([
			undefined,
			undefined,
		]);
		rememberStates(scope, first);

		const late = [
			item('c1', '2026-11-26T10:00:02Z'),
			item('c1', '2026-11-26T10:00:05Z'),
			item('c2', '2026-11-26T10:00:09Z'),
			item('c3', '2026-11-26T09:00:00Z'),
		];
		markOutdatedStates(scope, late);
		expect(late.map((entry) => state(entry).container_state_complete)).toEqual([
			false,
			true,
			true,
			true,
		]);
		expect(state(late[0]).container_state_outdated).toBe(true);
	});

	it('states of the same second that differ are read again; the same state given twice is not', () => {
		const scope = 'workflow-d:node-1';
		rememberStates(scope, [item('c1', '2026-11-26T10:00:05Z', 'on_hold')]);
		const next = [
			item('c1', '2026-11-26T10:00:05Z', 'on_hold'),
			item('c1', '2026-11-26T10:00:05Z', 'available'),
		];
		markOutdatedStates(scope, next);
		expect(next.map((entry) => state(entry).container_state_outdated)).toEqual([true, true]);

		// Within one execution: two notifications of one change agree; two changes of one second do not.
		const agreeing = [item('c2', '2026-11-26T10:00:07Z'), item('c2', '2026-11-26T10:00:07Z')];
		markOutdatedStates(scope, agreeing);
		expect(agreeing.map((entry) => state(entry).container_state_complete)).toEqual([true, true]);
		const differing = [
			item('c3', '2026-11-26T10:00:06Z', 'on_hold'),
			item('c3', '2026-11-26T10:00:07Z', 'on_hold'),
			item('c3', '2026-11-26T10:00:07Z', 'available'),
		];
		markOutdatedStates(scope, differing);
		expect(differing.map((entry) => state(entry).container_state_complete)).toEqual([
			true,
			false,
			false,
		]);
	});

	it('keeps each trigger apart, and ignores items without a dated state', () => {
		rememberStates('workflow-b:node-1', [item('c1', '2026-11-26T12:00:00Z')]);
		const other = [item('c1', '2026-11-26T11:00:00Z'), { container_id: 'c1' }];
		markOutdatedStates('workflow-c:node-1', other);
		expect(state(other[0]).container_state_complete).toBe(true);
		const undated = [{ container_id: 'c1', container: { id: 'c1' } }] as IDataObject[];
		markOutdatedStates('workflow-b:node-1', undated);
		expect(state(undated[0]).container_state_complete).toBeUndefined();
	});
});

// What a model is told when an operation fails (actions/tool.ts): sentences it can relay and act
// on, without the item numbers a workflow's error carries.
import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { toolAnswer, toolErrorAnswer } from '../../nodes/ContainerTracking/actions/tool';

const node: INode = {
	id: 'n1',
	name: 'container_status',
	type: 'n8n-nodes-container-tracking.containerTrackingTool',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const apiError = (httpCode: string, message: string, description?: string) =>
	new NodeApiError(node, { message } as JsonObject, { httpCode, message, description });

describe('toolErrorAnswer', () => {
	it('a refused API key: who must fix what', () => {
		expect(toolErrorAnswer(apiError('401', 'Authorization failed')).error).toBe(
			"The tracking service refused this n8n's API key (HTTP 401): the person who runs this n8n must fix the Container Tracking credential. Authorization failed.",
		);
	});

	it('a 5xx the node did not ride out: wait, in words', () => {
		expect(toolErrorAnswer(apiError('503', 'Service unavailable')).error).toMatch(
			/^The tracking service is not answering right now \(HTTP 503\), so this was not answered\. Try again in a minute or two\./,
		);
	});

	it('an outage that outlasted the tool’s tolerance: what it was, and whether asking again is safe', () => {
		const outage = apiError(
			'',
			'The service has not answered for 10 s; item 0 may have been created',
		);
		outage.context.serviceOutage = { lastFault: 'HTTP 500', repeatIsSafe: true };
		expect(toolErrorAnswer(outage).error).toBe(
			'The tracking service is not answering right now (HTTP 500), so this was not answered. Try again in a minute or two. Asking again is safe: what was already done is not done twice.',
		);
	});

	it('the node’s own errors keep their words, without item numbers, as sentences', () => {
		const error = new NodeOperationError(node, 'Item 3: "the blue one" is not a container number', {
			description:
				'The field "Container" (Number) takes four letters and seven digits, e.g. MSKU4807969',
		});
		expect(toolErrorAnswer(error)).toEqual({
			error:
				'"the blue one" is not a container number. The field "Container" (Number) takes four letters and seven digits, e.g. MSKU4807969.',
		});
	});
});

describe('toolAnswer', () => {
	it('keeps what says something, in order: no nulls, no related ids, the record’s own id', () => {
		expect(
			toolAnswer({
				number: 'MSCU1000022',
				customer_name: null,
				active_holds: [],
				ready_for_pickup: false,
				id: 'c-1',
				shipment_id: 's-1',
				container_ids: ['c-1'],
			}),
		).toEqual({ number: 'MSCU1000022', active_holds: [], ready_for_pickup: false, id: 'c-1' });
	});
});

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { containerTrackingRequest } from '../../transport/request';
import { paidFeatureError } from '../common';
import { containerLocator, locatedContainer } from '../locators';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Refresh',
	action: 'Refresh a container',
	description:
		'Ask the service to read the shipping line, terminal and rail again now (a paid feature, 10 a minute); what changed arrives later as notifications',
};

export const toolDescription =
	'Use this only when someone explicitly asks to re-check a container with the shipping line and terminal now. Returns whether the service accepted the refresh; the new data arrives later, so answer from Get afterwards.';

export const description: INodeProperties[] = [containerLocator('refresh')];

/**
 * `PATCH /containers/{id}/refresh` (no body), in its own bucket of 10 a minute
 * (logic/rateLimits.ts): the node waits for a free slot rather than meet a 429. The answer is a
 * message, not a record. An account without the feature gets 403, said in words.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { id: containerId, number } = await locatedContainer(this, itemIndex);
	let response;
	try {
		response = await containerTrackingRequest.call(
			this,
			'PATCH',
			`/containers/${encodeURIComponent(containerId)}/refresh`,
			{ itemIndex },
		);
	} catch (error) {
		throw paidFeatureError(this, error, itemIndex, {
			refusal: 'This account cannot refresh containers: Container Refresh is a paid feature',
			instead: 'leave the container to its regular updates',
		});
	}
	const body = (response.body ?? {}) as { message?: unknown };
	return [
		{
			json: {
				container_id: containerId,
				...(number ? { container_number: number } : {}),
				refresh_started: true,
				message: typeof body.message === 'string' ? body.message : null,
			},
			pairedItem: { item: itemIndex },
		},
	];
}

import {
	NodeApiError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import { asNodeError } from '../../transport/errors';
import { containerTrackingRequest } from '../../transport/request';
import { containerLocator, locatedContainer } from '../locators';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Refresh',
	action: 'Refresh a container',
	description:
		'Ask the service to read the shipping line, terminal and rail again now (a paid feature, 10 a minute); what changed arrives later as notifications',
};

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
		const refused = error as NodeApiError;
		if (refused instanceof NodeApiError && refused.httpCode === '403') {
			throw new NodeApiError(this.getNode(), refused.errorResponse as JsonObject, {
				itemIndex,
				httpCode: '403',
				message: 'This account cannot refresh containers: Container Refresh is a paid feature',
				description: `The service answered 403: ${refused.message}. Ask the service to enable it for the account, or leave the container to its regular updates.`,
			});
		}
		throw asNodeError(this.getNode(), error, itemIndex);
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

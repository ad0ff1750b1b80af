import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { flattenResource, type IncludedIndex } from '../../records/jsonApi';
import type { JsonApiResource } from '../../schemas';

/**
 * A webhook as an item. Its signing `secret` is left out unless asked for: whatever an item
 * holds is saved with the execution, and the secret lets anyone forge deliveries.
 */
export function webhookItem(
	record: JsonApiResource,
	included: IncludedIndex,
	includeSecret: boolean,
): IDataObject {
	const { secret, ...rest } = flattenResource(record, included);
	return includeSecret && secret !== undefined ? { ...rest, secret } : rest;
}

export const includeSecretOption: INodeProperties = {
	displayName: 'Include Secret',
	name: 'includeSecret',
	type: 'boolean',
	default: false,
	description:
		'Whether to put the signing secret on the item. It is then saved with the execution data: anyone who can read it can forge deliveries.',
};

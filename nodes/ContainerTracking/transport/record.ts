import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';
import type { z } from 'zod';

import { singleDocumentCore } from '../schemas/jsonApi';
import type { DataWarning } from '../schemas/warnings';
import type { JsonApiResource } from '../schemas';
import { indexIncluded, type IncludedIndex } from '../records/jsonApi';
import {
	containerTrackingRequest,
	readAnswer,
	type ContainerTrackingContext,
	type ServiceResponse,
} from './request';

/**
 * One record read or written (`GET /shipments/{id}`, `PATCH /webhooks/{id}`…): the answer must
 * hold a record with an id and a type; every other difference from `document` is a warning for
 * its item.
 */
export async function requestRecord(
	this: ContainerTrackingContext,
	method: IHttpRequestMethods,
	path: string,
	document: z.ZodTypeAny,
	what: string,
	{ itemIndex, qs, body }: { itemIndex: number; qs?: IDataObject; body?: IDataObject },
): Promise<{
	record: JsonApiResource;
	included: IncludedIndex;
	warnings: DataWarning[];
	response: ServiceResponse;
}> {
	const response = await containerTrackingRequest.call(this, method, path, {
		qs,
		body,
		itemIndex,
	});
	const answer = readAnswer(this, singleDocumentCore, document, response.body, what, itemIndex);
	return {
		record: answer.document.data,
		included: indexIncluded(answer.document.included),
		warnings: answer.warnings.forRecord(),
		response,
	};
}

import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export type ContainerTrackingContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

export const CREDENTIAL_NAME = 'containerTrackingApi';

export interface RequestParameters {
	body?: IDataObject;
	qs?: IDataObject;
}

/** The credential's base URL without trailing slashes, so that paths join cleanly. */
export async function baseUrlOf(context: ContainerTrackingContext): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_NAME);
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}

/**
 * One authenticated call to the service. Responses may come back as
 * `application/vnd.api+json`, so the body is parsed as JSON whatever the content type says.
 */
export async function containerTrackingRequest(
	this: ContainerTrackingContext,
	method: IHttpRequestMethods,
	path: string,
	{ body, qs }: RequestParameters = {},
): Promise<IDataObject> {
	const options: IHttpRequestOptions = {
		method,
		url: `${await baseUrlOf(this)}${path}`,
		headers: { Accept: 'application/json' },
		json: true,
	};
	if (body !== undefined) {
		options.body = body;
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	if (qs !== undefined) options.qs = qs;
	const response = (await this.helpers.httpRequestWithAuthentication.call(
		this,
		CREDENTIAL_NAME,
		options,
	)) as unknown;
	if (typeof response === 'string') return JSON.parse(response) as IDataObject;
	return (response ?? {}) as IDataObject;
}

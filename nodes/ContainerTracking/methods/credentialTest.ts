import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { baseUrlProblem, hostOf, unreachableMessage, wrongPathMessage } from '../transport/errors';

/** Long enough for a slow service, short enough that the Test button does not seem to hang. */
const TEST_TIMEOUT_MS = 20_000;

interface TestResponse {
	statusCode: number;
	body: unknown;
}

function failed(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}

/** Whether a body is a JSON:API list, as the service answers GET /containers. */
function isServiceList(body: unknown): boolean {
	let parsed = body;
	if (typeof body === 'string') {
		try {
			parsed = JSON.parse(body);
		} catch {
			return false;
		}
	}
	return (
		typeof parsed === 'object' &&
		parsed !== null &&
		Array.isArray((parsed as { data?: unknown }).data)
	);
}

/**
 * The credential's Test button: one real call (the first container), whose every failure is
 * said in a sentence that tells what to fix. A declarative `test` cannot do this: n8n reports
 * connection failures there as bare codes (ECONNREFUSED, ERR_INVALID_URL).
 */
export async function containerTrackingApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = String(data.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	const problem = baseUrlProblem(baseUrl);
	if (problem) return failed(problem);

	let response: TestResponse;
	try {
		// The only HTTP helper n8n gives a credential test (ICredentialTestFunctions in n8n-workflow).
		// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions
		response = (await this.helpers.request({
			method: 'GET',
			uri: `${baseUrl}/containers`,
			qs: { 'page[size]': 1 },
			// As the credential's `authenticate` block sends it
			// (credentials/ContainerTrackingApi.credentials.ts).
			headers: { Accept: 'application/json', Authorization: `Token ${String(data.apiKey ?? '')}` },
			json: false,
			simple: false,
			resolveWithFullResponse: true,
			timeout: TEST_TIMEOUT_MS,
		})) as TestResponse;
	} catch (error) {
		return failed(
			unreachableMessage(baseUrl, error) ??
				`${hostOf(baseUrl)} could not be reached: ${(error as Error).message}`,
		);
	}

	const status = response.statusCode;
	if (status === 401 || status === 403) {
		return failed(
			`The API key was refused (HTTP ${status}): check that it is complete and current, as your account's API settings show it`,
		);
	}
	if (status === 429) {
		return failed(
			'The service answers, but this API key is over its rate limit (HTTP 429): test again in a minute',
		);
	}
	if (status >= 500) {
		return failed(
			`The service at ${hostOf(baseUrl)} failed (HTTP ${status}): test again later; the Base URL and API key were not checked`,
		);
	}
	// A 404, or an answer that is not the service's list (an HTML page, another API).
	if (status < 200 || status >= 300 || !isServiceList(response.body)) {
		return failed(wrongPathMessage(baseUrl));
	}
	return { status: 'OK', message: 'Connection successful!' };
}

import type { IWebhookFunctions } from 'n8n-workflow';

import { deliveryCore, type Delivery } from '../../schemas';
import { CREDENTIAL_NAME } from '../../transport/request';
import { parseJsonBody, rawBodyOf } from './body';
import { renewedSecret } from '../registration/registration';
import { hasValidSignature } from './signature';

/**
 * Verifying and identifying a delivery, before anything else is done with it. Refused (401, 400)
 * only what is not signed with the webhook's secret or cannot be identified (not JSON, or no
 * notification id or event name); everything else is admitted, and what does not match the
 * interface becomes a warning on its items.
 */

export type Admission =
	| { admitted: false; status: 400 | 401; message: string }
	| { admitted: true; notificationId: string; notification: Delivery; body: unknown };

/** The secret deliveries are checked against: pasted in the node, or stored at registration. */
function secretOf(context: IWebhookFunctions, existing: boolean): string | undefined {
	if (existing) return String(context.getNodeParameter('secret', '') ?? '') || undefined;
	return (context.getWorkflowStaticData('node').webhookSecret as string | undefined) || undefined;
}

export async function admitDelivery(
	context: IWebhookFunctions,
	scope: string,
	existing: boolean,
): Promise<Admission> {
	const request = context.getRequestObject();
	const rawBody = await rawBodyOf(request);
	const signedWith = async (key: string | undefined) =>
		await hasValidSignature(
			scope,
			async () => (await context.getCredentials(CREDENTIAL_NAME)).signatureHeader,
			request.headers,
			rawBody,
			key,
		);
	const secret = secretOf(context, existing);
	// The webhook may have been created again, with another secret, since static data was saved.
	const signed =
		(await signedWith(secret)) ||
		(!existing && (await renewedSecret(context, secret, signedWith)) !== undefined);
	if (!signed) return { admitted: false, status: 401, message: 'Invalid or missing signature' };

	let body: unknown;
	try {
		body = parseJsonBody(rawBody!);
	} catch {
		return { admitted: false, status: 400, message: 'The body is not JSON' };
	}
	const delivery = deliveryCore.safeParse(body);
	if (!delivery.success)
		return {
			admitted: false,
			status: 400,
			message: 'The body is not a notification: it has no data.id or no event',
		};
	return {
		admitted: true,
		notificationId: String(delivery.data.data.id),
		notification: delivery.data,
		body,
	};
}

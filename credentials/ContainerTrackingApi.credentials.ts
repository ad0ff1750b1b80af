import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

export class ContainerTrackingApi implements ICredentialType {
	name = 'containerTrackingApi';

	displayName = 'Container Tracking API';

	icon: Icon = {
		light: 'file:../icons/containerTracking.svg',
		dark: 'file:../icons/containerTracking.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-container-tracking/n8n-nodes-container-tracking#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The key from your account\'s API settings; sent as "Authorization: Token &lt;API key&gt;" on every request. The local sandbox accepts <code>sandbox-key</code>.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.container-tracking.example/v2',
			description:
				"The address of the service's API for your account, ending in /v2, as your account's API settings or the service's developer documentation give it",
			hint: 'To try the nodes without an account, run the local sandbox (<code>npm run sandbox</code>, or <code>npm start</code> for the whole demo) and enter <code>http://127.0.0.1:4010/v2</code>',
		},
		{
			displayName: 'Webhook Signature Header',
			name: 'signatureHeader',
			type: 'string',
			default: 'X-SVC-Webhook-Signature',
			description:
				"The header in which the service signs each webhook delivery, as the service's webhook documentation names it (each deployment puts its own short name in it; the default suits the local sandbox). The Container Tracking Trigger rejects deliveries whose signature there does not match.",
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Token {{$credentials.apiKey}}',
			},
		},
	};

	// No declarative `test`: n8n would prefer it to the nodes' `testedBy`, and it reports an
	// unreachable or malformed Base URL as a bare code. The Test button runs
	// nodes/ContainerTracking/methods/credentialTest.ts instead.
}

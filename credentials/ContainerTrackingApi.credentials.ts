import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class ContainerTrackingApi implements ICredentialType {
	name = 'containerTrackingApi';

	displayName = 'Container Tracking API';

	icon: Icon = {
		light: 'file:../icons/containerTracking.svg',
		dark: 'file:../icons/containerTracking.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-container-tracking/n8n-nodes-container-tracking#connect-a-real-account';

	// Each hint says first what a real account uses and where it is found, then the sandbox: a
	// package installed from n8n's Community Nodes panel comes without the sandbox's scripts.
	// The service documents no host of its own here, so the Base URL's placeholder is a pattern.
	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent as "Authorization: Token &lt;API key&gt;" on every request to the service',
			hint: "For a real account: the API key from your account's developer settings (create one there if none is listed). For the local sandbox: <code>sandbox-key</code>.",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://<api-host-from-the-service-docs>/v2',
			description:
				"The address of the service's API, ending in /v2; every request goes to a path under it",
			hint: "For a real account: the API address the service's developer documentation gives, ending in <code>/v2</code>. For the local sandbox (<code>npm run sandbox</code> in a clone of this package's repository, or <code>npm start</code> for the whole demo): <code>http://127.0.0.1:4010/v2</code>.",
		},
		{
			displayName: 'Webhook Signature Header',
			name: 'signatureHeader',
			type: 'string',
			default: 'X-SVC-Webhook-Signature',
			description:
				'The header in which the service signs each webhook delivery. The Container Tracking Trigger rejects deliveries whose signature there does not match.',
			hint: "For a real account: the signature header's name as the service's webhook documentation gives it (its own short name in place of SVC). For the local sandbox: the default, <code>X-SVC-Webhook-Signature</code>.",
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

	// One real call, the first container. Declarative because n8n's verification refuses the only
	// HTTP helper a credential test function gets (the deprecated helpers.request): n8n itself
	// reports a connection failure here, by its code (ECONNREFUSED); operations say it in a
	// sentence (nodes/ContainerTracking/transport/errors.ts).
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/containers',
			qs: { 'page[size]': 1 },
			headers: { Accept: 'application/json' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						"The API key was refused (HTTP 401): check that it is complete and current, as your account's API settings show it",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						"The API key was refused (HTTP 403): the account may lack API access; check the key in your account's API settings",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Something answers at this Base URL, but not as the service (HTTP 404): the Base URL must end in /v2',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 429,
					message:
						'The service answers, but this API key is over its rate limit (HTTP 429): test again in a minute',
				},
			},
		],
	};
}

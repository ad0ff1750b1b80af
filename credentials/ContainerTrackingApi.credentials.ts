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
		'https://github.com/n8n-nodes-container-tracking/n8n-nodes-container-tracking#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent as "Authorization: Token &lt;API key&gt;" on every request',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'http://127.0.0.1:4010/v2',
			description:
				'Full address of the service, ending in /v2. The local sandbox listens on http://127.0.0.1:4010/v2 by default.',
		},
		{
			displayName: 'Webhook Signature Header',
			name: 'signatureHeader',
			type: 'string',
			default: 'X-SVC-Webhook-Signature',
			description:
				'Header that carries the signature of webhook deliveries; each deployment of the service uses its own short name in it',
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

	// A real call: a wrong key answers 401, an unreachable base URL fails to connect.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/containers',
			qs: { 'page[size]': 1 },
			headers: { Accept: 'application/json' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The API key was refused: check that it is complete and current',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'Nothing answers at this base URL: it must be the service address ending in /v2',
				},
			},
		],
	};
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error */
// A command-line tool, not node code: plain errors end the process with a message.
/**
 * `npm run sandbox -- --port 4010 --api-key sandbox-key`: starts the local sandbox of the
 * service and prints one line, `Sandbox ready at http://127.0.0.1:<port>/v2`, once it listens.
 */
import { parseArgs } from 'node:util';

import {
	DEFAULT_OUTAGE_KIND,
	OUTAGE_KINDS,
	outageKind,
	parseOutageSchedule,
	type OutageSpec,
} from './http/outage';
import { DEFAULT_OPTIONS, startSandbox, type SandboxOptions } from './server';

const HELP = `Usage: npm run sandbox -- [options]

  --port <n>                 port to listen on (default ${DEFAULT_OPTIONS.port}; 0 picks a free one)
  --host <address>           address to listen on (default ${DEFAULT_OPTIONS.host})
  --api-key <key>            the API key clients must send (default ${DEFAULT_OPTIONS.apiKey})
  --extra-api-key <key>      another key of the same account, with rate limits of its own
                             (repeatable)
  --signature-header <name>  header carrying webhook signatures (default ${DEFAULT_OPTIONS.signatureHeader})
  --time-scale <x>           sandbox seconds per real second (default 1); compresses rate-limit
                             windows, journeys and delivery retries
  --duplicate-rate <0..1>    share of notifications delivered twice (default 0)
  --no-rail-plan             the account lacks the Rail Plan entitlement (403 on rail LFD webhooks)
  --no-container-refresh     the account lacks Container Refresh (403 on PATCH /containers/{id}/refresh)
  --no-routing-data          the account lacks Routing Data (403 on GET /containers/{id}/route)
  --scenario-gap <s>         sandbox seconds between steps of a played scenario (default ${DEFAULT_OPTIONS.scenarioGapSeconds})
  --tracking-delay <s>       sandbox seconds before a tracking request resolves (default ${DEFAULT_OPTIONS.trackingDelaySeconds})
  --retry-base <s>           sandbox seconds before the first delivery retry (default ${DEFAULT_OPTIONS.retryBaseSeconds})
  --deactivate-after-failures <n>
                             set a webhook inactive after n notifications in a row end failed
                             (default: never)
  --log-while-inactive       still log notifications for inactive webhooks, as failed
                             (the last three and the delivery timeout can be changed at run time:
                             PATCH /_sandbox/webhook_settings)
  --drift                    serve data as the real service sends it: values beyond the interface's
                             tables, null relationships, extra members, numeric strings (also
                             switchable at run time: POST /_sandbox/drift {"enabled": true})
  --outage <duration>[@<start>]
                             take the service API (/v2) down for <duration> of real time, <start>
                             after the sandbox is ready (default at once): 30s@60s, 2m, 1m30s@10s;
                             the control API and webhook deliveries keep working (also at run time:
                             POST /_sandbox/outage {"seconds": 30, "kind": "503"})
  --outage-kind <kind>       how calls fail during the outage: ${OUTAGE_KINDS.join(', ')}
                             (default ${DEFAULT_OUTAGE_KIND}: 500, 503 and dropped connections in turn)
  --verbose                  log every request to stderr
  --help                     show this text
`;

function number(
	value: string | undefined,
	name: string,
	min: number,
	max = Infinity,
): number | undefined {
	if (value === undefined) return undefined;
	const parsed = Number(value);
	if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
		throw new Error(`--${name} must be a number between ${min} and ${max}, got "${value}"`);
	}
	return parsed;
}

function wholeNumber(value: string | undefined, name: string, min: number): number | undefined {
	const parsed = number(value, name, min);
	if (parsed !== undefined && !Number.isInteger(parsed))
		throw new Error(`--${name} must be a whole number, got "${value}"`);
	return parsed;
}

/** `--outage 30s@60s` and `--outage-kind 503`; the kind alone is refused. */
function outageOption(
	schedule: string | undefined,
	kind: string | undefined,
): OutageSpec | undefined {
	if (kind !== undefined && outageKind(kind) === undefined)
		throw new Error(`--outage-kind must be one of ${OUTAGE_KINDS.join(', ')}, got "${kind}"`);
	if (schedule === undefined) {
		if (kind !== undefined) throw new Error('--outage-kind needs --outage <duration>[@<start>]');
		return undefined;
	}
	return { ...parseOutageSchedule(schedule), kind: outageKind(kind ?? DEFAULT_OUTAGE_KIND) };
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			host: { type: 'string' },
			'api-key': { type: 'string' },
			'extra-api-key': { type: 'string', multiple: true },
			'signature-header': { type: 'string' },
			'time-scale': { type: 'string' },
			'duplicate-rate': { type: 'string' },
			'no-rail-plan': { type: 'boolean' },
			'no-container-refresh': { type: 'boolean' },
			'no-routing-data': { type: 'boolean' },
			'scenario-gap': { type: 'string' },
			'tracking-delay': { type: 'string' },
			'retry-base': { type: 'string' },
			'deactivate-after-failures': { type: 'string' },
			'log-while-inactive': { type: 'boolean' },
			verbose: { type: 'boolean' },
			drift: { type: 'boolean' },
			outage: { type: 'string' },
			'outage-kind': { type: 'string' },
			help: { type: 'boolean' },
		},
		strict: true,
	});
	if (values.help) {
		process.stdout.write(HELP);
		return;
	}
	const overrides: Partial<SandboxOptions> = {
		port: number(values.port, 'port', 0, 65535),
		host: values.host,
		apiKey: values['api-key'],
		extraApiKeys: values['extra-api-key'],
		signatureHeader: values['signature-header'],
		timeScale: number(values['time-scale'], 'time-scale', 0.001),
		duplicateRate: number(values['duplicate-rate'], 'duplicate-rate', 0, 1),
		railPlan: values['no-rail-plan'] ? false : undefined,
		containerRefresh: values['no-container-refresh'] ? false : undefined,
		routingData: values['no-routing-data'] ? false : undefined,
		scenarioGapSeconds: number(values['scenario-gap'], 'scenario-gap', 0),
		trackingDelaySeconds: number(values['tracking-delay'], 'tracking-delay', 0),
		retryBaseSeconds: number(values['retry-base'], 'retry-base', 0),
		deactivateAfterFailures: wholeNumber(
			values['deactivate-after-failures'],
			'deactivate-after-failures',
			1,
		),
		logWhileInactive: values['log-while-inactive'],
		verbose: values.verbose,
		drift: values.drift,
	};
	const outage = outageOption(values.outage, values['outage-kind']);
	const defined = Object.fromEntries(
		Object.entries(overrides).filter(([, value]) => value !== undefined),
	);
	let sandbox;
	try {
		sandbox = await startSandbox(defined);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'EADDRINUSE') {
			throw new Error(
				`port ${overrides.port ?? DEFAULT_OPTIONS.port} is already in use; pick another with --port`,
			);
		}
		throw error;
	}
	if (outage) sandbox.outage.start(outage);
	process.stdout.write(`Sandbox ready at ${sandbox.url}\n`);
	const stop = () => {
		sandbox
			.stop()
			.catch(() => undefined)
			.finally(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});

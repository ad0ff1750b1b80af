import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

/*
 * A circuit breaker per API key and base URL, shared by every item and every execution in the
 * process, as the rate gates are (transport/rateLimit.ts). An outage hits every call in flight
 * at once; without a shared circuit each item would spend its own tries on a service that is
 * down, and the next item would start hammering it again.
 *
 * - Closed: calls go out. Each fault (5xx, dropped connection, timeout, unreadable answer) counts;
 *   any answer resets the count.
 * - After FAULTS_TO_OPEN faults in a row it opens: calls wait instead of going out, and one probe
 *   at a time goes out when it is due (the waiting call itself when it is safe to repeat, else a
 *   cheap read: transport/request.ts). Probes come further apart after each failed one (1, 2, 4,
 *   8, then every 10 s, with jitter so that processes sharing a service do not probe together).
 * - The first answer closes it, and every waiting call goes again, paced by the rate gates.
 */

const FAULTS_TO_OPEN = 3;
/** The longest wait between two tries of a call, or two probes of an open circuit. */
const BACKOFF_CEILING_MS = 10_000;
const BACKOFF_FIRST_MS = 500;
const PROBE_FIRST_MS = 1_000;
/** How often a waiting call looks at the circuit again. */
const POLL_MS = 100;

/** `base` doubled `step` times, at most the ceiling, then jittered to between half and all of it. */
export function jitteredBackoff(step: number, base = BACKOFF_FIRST_MS): number {
	const full = Math.min(BACKOFF_CEILING_MS, base * 2 ** Math.max(0, step));
	return full / 2 + Math.random() * (full / 2);
}

interface Fault {
	/** What the attempt met: `HTTP 503`, `ECONNRESET`, … */
	reason: string;
	at: number;
	/** A refused connection or an unknown host: the address may be wrong (transport/request.ts). */
	address: boolean;
}

/** What a call waiting at an open circuit may do: go, go as the probe, or give up. */
type Admission = 'go' | 'probe' | 'expired';

export class Circuit {
	private faultsInARow = 0;
	private openSince: number | undefined;
	private probing = false;
	private probeFailures = 0;
	private nextProbeAt = 0;
	/** Counts changes that waiting calls look for: a probe ended, the circuit closed. */
	private changes = 0;
	/** The last fault any call met, for the messages of calls that give up. */
	lastFault: Fault | undefined;
	/** Whether the service ever answered on this circuit (a wrong Base URL never does). */
	everAnswered = false;

	get isOpen(): boolean {
		return this.openSince !== undefined;
	}

	/**
	 * Before an attempt. Closed: go. Open: wait until it closes, or until a probe is due and none
	 * is out (this call is then the probe), or until `deadline` (expired). A call past its
	 * deadline still takes a due probe: someone has to find out that the service is back.
	 */
	async admit(deadline: number): Promise<Admission> {
		for (;;) {
			if (!this.isOpen) return 'go';
			const now = Date.now();
			if (!this.probing && now >= this.nextProbeAt) {
				this.probing = true;
				return 'probe';
			}
			if (now >= deadline) return 'expired';
			const until = this.probing ? deadline : Math.min(deadline, this.nextProbeAt);
			await this.waitFor(until - now);
		}
	}

	/** An answer came (any status the service chose to send): the service is up. */
	answered(): void {
		this.everAnswered = true;
		this.faultsInARow = 0;
		this.probeFailures = 0;
		this.probing = false;
		if (this.openSince === undefined) return;
		this.openSince = undefined;
		this.wakeAll();
	}

	/** An attempt met a fault. `probe`: it was the open circuit's probe. */
	failed(fault: Fault, probe: boolean): void {
		this.lastFault = fault;
		this.faultsInARow++;
		if (probe) {
			this.probing = false;
			this.nextProbeAt = fault.at + jitteredBackoff(this.probeFailures++, PROBE_FIRST_MS);
			this.wakeAll();
			return;
		}
		if (this.openSince === undefined && this.faultsInARow >= FAULTS_TO_OPEN) {
			this.openSince = fault.at;
			this.nextProbeAt = fault.at + jitteredBackoff(0, PROBE_FIRST_MS);
		}
	}

	/** A probe that ended without telling either way (an error of another kind). */
	probeDone(): void {
		if (!this.probing) return;
		this.probing = false;
		this.wakeAll();
	}

	/**
	 * Waits `milliseconds`, or less when the circuit changes (a probe ends, it closes): looks
	 * every POLL_MS, so that no timer outlives the wait (n8n-workflow 2.40's sleep cannot be
	 * cancelled).
	 */
	private async waitFor(milliseconds: number): Promise<void> {
		const until = Date.now() + milliseconds;
		const seen = this.changes;
		while (this.changes === seen && Date.now() < until)
			await sleep(Math.max(0, Math.min(POLL_MS, until - Date.now())));
	}

	private wakeAll(): void {
		this.changes++;
	}
}

const circuits = new Map<string, Circuit>();

/** The circuit of an API key (hashed: the key itself is never kept) and base URL. */
export function circuitOf(apiKey: string, baseUrl: string): Circuit {
	const id = createHash('sha256').update(`${apiKey}\n${baseUrl}`).digest('hex').slice(0, 24);
	let circuit = circuits.get(id);
	if (!circuit) {
		circuit = new Circuit();
		circuits.set(id, circuit);
	}
	return circuit;
}

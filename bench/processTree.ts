/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The memory and CPU of a bench's own processes, read from /proc once a second: the n8n
 * processes (every process started from n8n's bin, with what they start: the task runners), the
 * sandbox, Postgres and Redis, and the bench itself; and how busy the whole machine was, so that a
 * figure taken while other work ran on the same CPUs says so.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

export type ProcessGroup = 'n8n' | 'sandbox' | 'services' | 'bench';

/** Linux's clock ticks a second (`getconf CLK_TCK`), the unit of /proc's CPU times. */
const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

interface ProcessInfo {
	pid: number;
	ppid: number;
	/** utime + stime, in ticks. */
	ticks: number;
	/** /proc's state letter: `Z` for a zombie (dead, its exit not yet collected). */
	state: string;
	rssBytes: number;
}

function readProcess(pid: number): ProcessInfo | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (field 2) may hold spaces and parentheses: fields start after the last ')'.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const statm = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
		return {
			pid,
			ppid: Number(fields[1]),
			state: fields[0],
			ticks: Number(fields[11]) + Number(fields[12]),
			rssBytes: Number(statm[1]) * PAGE_BYTES,
		};
	} catch {
		return undefined; // gone meanwhile
	}
}

/** Every process alive now, as /proc lists it. */
function allProcesses(): ProcessInfo[] {
	return readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.map((name) => readProcess(Number(name)))
		.filter((info): info is ProcessInfo => info !== undefined);
}

/** Whether `pid` runs: not gone, and not a zombie. */
export function isRunning(pid: number): boolean {
	const info = readProcess(pid);
	return info !== undefined && info.state !== 'Z';
}

/** Every process below `pid` (its children, theirs, and so on). */
export function descendantsOf(pid: number): number[] {
	const children = new Map<number, number[]>();
	for (const info of allProcesses())
		children.set(info.ppid, [...(children.get(info.ppid) ?? []), info.pid]);
	const found: number[] = [];
	const visit = (of: number) => {
		for (const child of children.get(of) ?? []) {
			found.push(child);
			visit(child);
		}
	};
	visit(pid);
	return found;
}

function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
	} catch {
		return '';
	}
}

/** Busy and total ticks of the whole machine (every CPU). */
function machineTicks(): { busy: number; total: number } {
	const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
	const numbers = values.map(Number);
	const total = numbers.reduce((sum, value) => sum + value, 0);
	// idle and iowait are fields 4 and 5 of the cpu line.
	return { busy: total - numbers[3] - (numbers[4] ?? 0), total };
}

function groupOf(command: string): ProcessGroup | undefined {
	if (/\/n8n\/bin\/n8n\b/.test(command)) return 'n8n';
	if (command.includes('sandbox/cli.ts')) return 'sandbox';
	if (/\bpostgres\b|redis-server/.test(command)) return 'services';
	return undefined;
}

export interface Usage {
	/** Sum of the resident memory of each group's processes, now. */
	rssBytes: Record<ProcessGroup, number>;
	/** What the whole machine has left (MemAvailable). */
	availableBytes: number;
}

function availableBytes(): number {
	const line = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
	return line ? Number(line[1]) * 1024 : os.freemem();
}

export interface UsageSummary {
	seconds: number;
	/** The highest sum of the n8n processes' resident memory, and when (seconds from the start). */
	n8nPeakBytes: number;
	n8nPeakAtSeconds: number;
	/** The highest memory of one n8n process with its task runners (in queue mode: of 4). */
	oneN8nProcessPeakBytes: number;
	n8nStartBytes: number;
	n8nEndBytes: number;
	servicesPeakBytes: number;
	sandboxPeakBytes: number;
	/** CPUs used on average: the machine in all, each group of ours, and everything else. */
	cpus: Record<ProcessGroup | 'machine' | 'others', number>;
	/** The 1-minute load average: highest and mean of the samples. */
	loadAverage: { max: number; mean: number };
}

/** Samples the process tree below `rootPid` (this process) every `intervalMs` until stopped. */
export class ProcessSampler {
	private timer: NodeJS.Timeout | undefined;
	private startedAt = 0;
	private machineStart = machineTicks();
	private readonly lastTicks = new Map<number, number>();
	private readonly cpuTicks: Record<ProcessGroup, number> = {
		n8n: 0,
		sandbox: 0,
		services: 0,
		bench: 0,
	};
	private readonly groups = new Map<number, ProcessGroup>();
	private readonly loads: number[] = [];
	private peak = { n8n: 0, at: 0, oneN8n: 0, services: 0, sandbox: 0 };
	private first: Usage | undefined;
	private last: Usage | undefined;

	constructor(
		/** Called with every sample taken by the timer. */
		private readonly onSample: (usage: Usage) => void = () => undefined,
		private readonly rootPid = process.pid,
		private readonly intervalMs = 1000,
	) {}

	start(): void {
		this.startedAt = Date.now();
		this.machineStart = machineTicks();
		// The first sample only notes each process's CPU time so far: it is not this run's.
		this.sample(false);
		this.timer = setInterval(() => this.onSample(this.sample()), this.intervalMs);
	}

	/** One sample now: each group's memory, and (when `countCpu`) the CPU ticks since the last. */
	sample(countCpu = true): Usage {
		const all = allProcesses();
		const children = new Map<number, ProcessInfo[]>();
		for (const info of all) children.set(info.ppid, [...(children.get(info.ppid) ?? []), info]);
		const rssBytes: Record<ProcessGroup, number> = { n8n: 0, sandbox: 0, services: 0, bench: 0 };
		/** Each n8n process with what it started (its task runners), by the n8n process's pid. */
		const n8nProcesses = new Map<number, number>();
		const visit = (info: ProcessInfo, inherited: ProcessGroup, n8nRoot?: number) => {
			// A process keeps the group it was first seen in (its command line is read once).
			let group = this.groups.get(info.pid);
			if (!group) {
				group = groupOf(commandLine(info.pid)) ?? inherited;
				this.groups.set(info.pid, group);
			}
			rssBytes[group] += info.rssBytes;
			const root = group === 'n8n' ? (n8nRoot ?? info.pid) : undefined;
			if (root !== undefined) n8nProcesses.set(root, (n8nProcesses.get(root) ?? 0) + info.rssBytes);
			const before = this.lastTicks.get(info.pid) ?? 0;
			if (countCpu) this.cpuTicks[group] += Math.max(0, info.ticks - before);
			this.lastTicks.set(info.pid, info.ticks);
			for (const child of children.get(info.pid) ?? []) visit(child, group, root);
		};
		const root = all.find((info) => info.pid === this.rootPid);
		if (root) visit(root, 'bench');
		const usage = { rssBytes, availableBytes: availableBytes() };
		const seconds = (Date.now() - this.startedAt) / 1000;
		if (rssBytes.n8n > this.peak.n8n) this.peak = { ...this.peak, n8n: rssBytes.n8n, at: seconds };
		this.peak.oneN8n = Math.max(this.peak.oneN8n, ...n8nProcesses.values());
		this.peak.services = Math.max(this.peak.services, rssBytes.services);
		this.peak.sandbox = Math.max(this.peak.sandbox, rssBytes.sandbox);
		this.loads.push(os.loadavg()[0]);
		this.first ??= usage;
		this.last = usage;
		return usage;
	}

	/** What was sampled from the start until now. */
	summary(): UsageSummary {
		const seconds = Math.max(0.001, (Date.now() - this.startedAt) / 1000);
		const machine = machineTicks();
		const cpus = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / seconds) * 100) / 100;
		const machineBusy = cpus(machine.busy - this.machineStart.busy);
		const ours = Object.values(this.cpuTicks).reduce((sum, ticks) => sum + ticks, 0);
		return {
			seconds: Math.round(seconds),
			n8nPeakBytes: this.peak.n8n,
			n8nPeakAtSeconds: Math.round(this.peak.at),
			oneN8nProcessPeakBytes: this.peak.oneN8n,
			n8nStartBytes: this.first?.rssBytes.n8n ?? 0,
			n8nEndBytes: this.last?.rssBytes.n8n ?? 0,
			servicesPeakBytes: this.peak.services,
			sandboxPeakBytes: this.peak.sandbox,
			cpus: {
				machine: machineBusy,
				n8n: cpus(this.cpuTicks.n8n),
				sandbox: cpus(this.cpuTicks.sandbox),
				services: cpus(this.cpuTicks.services),
				bench: cpus(this.cpuTicks.bench),
				others: Math.max(0, Math.round((machineBusy - cpus(ours)) * 100) / 100),
			},
			loadAverage: {
				max: Math.round(Math.max(0, ...this.loads) * 100) / 100,
				mean:
					Math.round(
						(this.loads.reduce((sum, load) => sum + load, 0) / Math.max(1, this.loads.length)) *
							100,
					) / 100,
			},
		};
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}
}

/** The nearest-rank percentile of `values` (`share` 0.5 for the median), null when there are none. */
export function percentile(values: number[], share: number): number | null {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

/** What `AnswerProbe` says of one probe: how many were sent, how they were answered, how fast. */
export interface ProbeSummary {
	probes: number;
	/** HTTP status, or `timeout` / `error`, with how many got it. */
	statuses: Record<string, number>;
	ms: { p50: number | null; p95: number | null; max: number | null };
}

/**
 * Where an answer waits (issue 50): every `intervalMs`, one request n8n answers without a
 * workflow's execution, timed. `probes` name each request; their times say how long n8n took to
 * reach a node's code (or its own health check) while the burst ran.
 */
export class AnswerProbe {
	private timer: NodeJS.Timeout | undefined;
	private readonly times = new Map<string, number[]>();
	private readonly statuses = new Map<string, Map<string, number>>();

	constructor(
		private readonly probes: Record<string, () => Promise<Response>>,
		private readonly intervalMs = 1000,
	) {}

	start(): void {
		this.timer = setInterval(() => {
			for (const [name, send] of Object.entries(this.probes)) void this.probe(name, send);
		}, this.intervalMs);
	}

	stop(): void {
		clearInterval(this.timer);
	}

	private async probe(name: string, send: () => Promise<Response>): Promise<void> {
		const started = Date.now();
		const status = await send()
			.then(async (response) => {
				await response.arrayBuffer();
				return String(response.status);
			})
			.catch((error: Error) => (error.name === 'TimeoutError' ? 'timeout' : 'error'));
		const times = this.times.get(name) ?? [];
		times.push(Date.now() - started);
		this.times.set(name, times);
		const counts = this.statuses.get(name) ?? new Map<string, number>();
		counts.set(status, (counts.get(status) ?? 0) + 1);
		this.statuses.set(name, counts);
	}

	summary(): Record<string, ProbeSummary> {
		return Object.fromEntries(
			[...this.times].map(([name, times]) => [
				name,
				{
					probes: times.length,
					statuses: Object.fromEntries(this.statuses.get(name) ?? []),
					ms: {
						p50: percentile(times, 0.5),
						p95: percentile(times, 0.95),
						max: percentile(times, 1),
					},
				},
			]),
		);
	}
}

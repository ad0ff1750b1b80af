/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * Where n8n's CPU time went, from the `.cpuprofile` files `node --cpu-prof` writes when a process
 * exits (bench/burst.ts with BURST_CPU_PROF=<dir>): each profile's nodes' `hitCount` times its
 * sampling interval (the profile's span over its samples) is their self time, summed over every
 * profile by function name and script, `(idle)` left out. The top 25, with each process's
 * sampled and busy seconds.
 *
 * On its own, on any folder of profiles:
 *
 *   node --import tsx bench/cpuProfile.ts <dir> [--top 25] [--json]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { descendantsOf } from './processTree';

export const TOP_FUNCTIONS = 25;

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
}

interface CpuProfile {
	nodes: Array<{ id: number; callFrame: CallFrame; hitCount?: number; children?: number[] }>;
	startTime: number;
	endTime: number;
	samples?: number[];
}

export interface ProfileSummary {
	dir: string;
	profiles: Array<{
		file: string;
		/** What the process was: `n8n`, `main`, `worker-1`… or `task runner`, when known. */
		process: string;
		/** Seconds from the profile's start to its end, and of them not idle. */
		sampled_s: number;
		busy_s: number;
		interval_us: number;
	}>;
	/** Profiles that could not be read, with why. */
	unreadable: Array<{ file: string; error: string }>;
	busy_s: number;
	/**
	 * Busy time by whose code was running: the outermost frame of a workflow node's code (n8n's
	 * nodes, `n8n node: Set`) or of this package's (`package: trigger/execution.js`) on the stack,
	 * else `n8n itself`: its engine, database, HTTP, and the continuations of whatever awaited (an
	 * async stack starts afresh after each await, so a node's database query counts here).
	 */
	by_owner: Array<{ owner: string; ms: number; share: number }>;
	top: Array<{
		function: string;
		/** The script, shortened to its package path (`n8n-core/dist/…`), or `(native)`. */
		url: string;
		/** The 1-based line of the function that took the most of this name in this script. */
		line: number | null;
		self_ms: number;
		/** Of the busy time of every profile, in %. */
		share: number;
		processes: string[];
	}>;
}

/**
 * `CPU.20261202.160534.12345.0.001.cpuprofile`, Node's default name: the process id, and the
 * thread's (0 the main thread, others a worker thread's).
 */
const idsOf = (file: string): { pid: number; thread: number } | null => {
	const found = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(file);
	return found ? { pid: Number(found[1]), thread: Number(found[2]) } : null;
};

const N8N_ITSELF = 'n8n itself';

/** Whose code a frame is: a workflow node's, this package's, or undefined (n8n's, Node's). */
function ownerOf(url: string): string | undefined {
	const ours = /n8n-nodes-container-tracking\/dist\/(?:nodes\/ContainerTracking\/)?(.+)$/.exec(url);
	if (ours) return `package: ${ours[1]}`;
	const node = /n8n-nodes-base\/dist\/nodes\/([^/]+)\//.exec(url);
	return node ? `n8n node: ${node[1]}` : undefined;
}

/** Each profile node's owner: that of its outermost owned frame, from the root down. */
function ownersOf(profile: CpuProfile): Map<number, string> {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const owners = new Map<number, string>();
	const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
	const stack = profile.nodes
		.filter((node) => !childIds.has(node.id))
		.map((node) => ({ id: node.id, owner: undefined as string | undefined }));
	while (stack.length > 0) {
		const { id, owner } = stack.pop()!;
		const node = byId.get(id);
		if (!node) continue;
		const own = owner ?? ownerOf(node.callFrame.url);
		owners.set(id, own ?? N8N_ITSELF);
		for (const child of node.children ?? []) stack.push({ id: child, owner: own });
	}
	return owners;
}

/** A script's address, short: from its last `node_modules/` on, else its last three parts. */
export function shortUrl(url: string): string {
	if (!url) return '(native)';
	const plain = url.replace(/^file:\/\//, '');
	const inModules = plain.lastIndexOf('node_modules/');
	if (inModules !== -1) return plain.slice(inModules + 'node_modules/'.length);
	return plain.split('/').slice(-3).join('/');
}

/**
 * Sums the profiles in `dir`. `names` gives the process of a profile by its process id (the
 * bench reads them from /proc while n8n runs); a profile of n8n's task runner is told by its
 * scripts.
 */
export function summarizeProfiles(
	dir: string,
	{ top = TOP_FUNCTIONS, names = new Map<number, string>() } = {},
): ProfileSummary {
	const files = readdirSync(dir)
		.filter((file) => file.endsWith('.cpuprofile'))
		.sort();
	const summary: ProfileSummary = {
		dir,
		profiles: [],
		unreadable: [],
		busy_s: 0,
		by_owner: [],
		top: [],
	};
	const byOwner = new Map<string, number>();
	const byFunction = new Map<
		string,
		{
			name: string;
			url: string;
			selfUs: number;
			lines: Map<number, number>;
			processes: Set<string>;
		}
	>();
	for (const file of files) {
		let profile: CpuProfile;
		try {
			profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
		} catch (error) {
			summary.unreadable.push({ file, error: (error as Error).message.slice(0, 200) });
			continue;
		}
		const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
		const spanUs = Math.max(0, profile.endTime - profile.startTime);
		const samples = profile.samples?.length ?? hits;
		const intervalUs = samples > 0 ? spanUs / samples : 0;
		// A task runner runs @n8n/task-runner's start script, which n8n itself only names.
		const runner = profile.nodes.some((node) =>
			node.callFrame.url.endsWith('/@n8n/task-runner/dist/start.js'),
		);
		const ids = idsOf(file);
		const processName = `${
			(ids ? names.get(ids.pid) : undefined) ??
			(runner ? 'task runner' : ids ? `process ${ids.pid}` : 'a process')
		}${ids?.thread ? ` (thread ${ids.thread})` : ''}`;
		let busyUs = 0;
		const owners = ownersOf(profile);
		for (const node of profile.nodes) {
			const { functionName, url, lineNumber } = node.callFrame;
			if (!node.hitCount || functionName === '(idle)') continue;
			const selfUs = node.hitCount * intervalUs;
			busyUs += selfUs;
			const owner = owners.get(node.id) ?? N8N_ITSELF;
			byOwner.set(owner, (byOwner.get(owner) ?? 0) + selfUs);
			const name = functionName || '(anonymous)';
			const key = `${name}\u0000${url}`;
			const entry = byFunction.get(key) ?? {
				name,
				url,
				selfUs: 0,
				lines: new Map<number, number>(),
				processes: new Set<string>(),
			};
			entry.selfUs += selfUs;
			entry.lines.set(lineNumber, (entry.lines.get(lineNumber) ?? 0) + selfUs);
			entry.processes.add(processName);
			byFunction.set(key, entry);
		}
		summary.busy_s += busyUs / 1e6;
		summary.profiles.push({
			file,
			process: processName,
			sampled_s: Math.round(spanUs / 1e5) / 10,
			busy_s: Math.round(busyUs / 1e5) / 10,
			interval_us: Math.round(intervalUs),
		});
	}
	const busyUs = summary.busy_s * 1e6;
	summary.busy_s = Math.round(summary.busy_s * 10) / 10;
	summary.by_owner = [...byOwner]
		.sort((a, b) => b[1] - a[1])
		.map(([owner, us]) => ({
			owner,
			ms: Math.round(us / 1000),
			share: busyUs > 0 ? Math.round((us / busyUs) * 1000) / 10 : 0,
		}));
	summary.top = [...byFunction.values()]
		.sort((a, b) => b.selfUs - a.selfUs)
		.slice(0, top)
		.map((entry) => {
			const line = [...entry.lines].sort((a, b) => b[1] - a[1])[0]?.[0];
			return {
				function: entry.name,
				url: shortUrl(entry.url),
				line: entry.url && line !== undefined && line >= 0 ? line + 1 : null,
				self_ms: Math.round(entry.selfUs / 1000),
				share: busyUs > 0 ? Math.round((entry.selfUs / busyUs) * 1000) / 10 : 0,
				processes: [...entry.processes].sort(),
			};
		});
	return summary;
}

/**
 * The n8n processes below `rootPid` now, by process id: the one n8n (`n8n`), or in queue mode
 * each by its user folder (`main`, `webhook`, `worker-1`…), and their task runners
 * (`main task runner`…).
 */
export function n8nProcessNames(rootPid = process.pid): Map<number, string> {
	const read = (pid: number, file: string) => {
		try {
			return readFileSync(`/proc/${pid}/${file}`, 'utf8');
		} catch {
			return ''; // gone meanwhile
		}
	};
	const names = new Map<number, string>();
	const pids = descendantsOf(rootPid);
	for (const pid of pids) {
		const command = read(pid, 'cmdline').split('\0').filter(Boolean);
		if (!command.some((part) => /\/n8n\/bin\/n8n$/.test(part))) continue;
		const folder = /(?:^|\0)N8N_USER_FOLDER=([^\0]*)/.exec(read(pid, 'environ'))?.[1];
		const queued = folder && /\/ct-queue-[^/]+\/([^/]+)$/.exec(folder)?.[1];
		names.set(pid, queued || 'n8n');
	}
	for (const pid of pids) {
		if (names.has(pid) || !read(pid, 'cmdline').includes('task-runner')) continue;
		const stat = read(pid, 'stat');
		const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
		names.set(pid, `${names.get(parent) ?? 'n8n'} task runner`);
	}
	return names;
}

const formatNumber = (value: number) => value.toLocaleString('en-US');

/** The summary as Markdown: a line of processes, then the top functions as a table. */
export function profileMarkdown(summary: ProfileSummary): string[] {
	if (summary.profiles.length === 0)
		return [`No CPU profile was written in ${summary.dir} (a process killed writes none).`];
	const processes = summary.profiles
		.map(
			(profile) =>
				`${profile.process} ${formatNumber(profile.busy_s)} s busy of ${formatNumber(profile.sampled_s)} s`,
		)
		.join(', ');
	return [
		`CPU profiles (\`node --cpu-prof\`, ${summary.dir}): ${summary.profiles.length} processes, ${formatNumber(summary.busy_s)} s busy in all (${processes})${summary.unreadable.length ? `; ${summary.unreadable.length} unreadable` : ''}.`,
		'',
		'Busy time by whose code ran (the outermost workflow node or package frame on the stack; `n8n itself` also holds what ran after an await):',
		'',
		'| Whose code | Time | Of the busy time |',
		'| --- | --- | --- |',
		...(summary.by_owner ?? [])
			.slice(0, 15)
			.map((entry) => `| ${entry.owner} | ${formatNumber(entry.ms)} ms | ${entry.share} % |`),
		'',
		'Self time by function (hit count × sampling interval), idle left out:',
		'',
		'| Function | Script | Self time | Of the busy time | Processes |',
		'| --- | --- | --- | --- | --- |',
		...summary.top.map(
			(entry) =>
				`| \`${entry.function.replace(/[`|]/g, '')}\` | ${entry.url.replace(/\|/g, '')}${entry.line === null ? '' : `:${entry.line}`} | ${formatNumber(entry.self_ms)} ms | ${entry.share} % | ${entry.processes.join(', ')} |`,
		),
	];
}

if (require.main === module) {
	const args = process.argv.slice(2);
	const topAt = args.indexOf('--top');
	const dir = args.find(
		(arg, index) => !arg.startsWith('--') && (topAt === -1 || index !== topAt + 1),
	);
	if (!dir) {
		process.stderr.write(
			'usage: node --import tsx bench/cpuProfile.ts <dir> [--top 25] [--json]\n',
		);
		process.exitCode = 2;
	} else {
		const summary = summarizeProfiles(path.resolve(dir), {
			top: topAt === -1 ? TOP_FUNCTIONS : Number(args[topAt + 1]),
		});
		process.stdout.write(
			args.includes('--json')
				? `${JSON.stringify(summary, null, 2)}\n`
				: `${profileMarkdown(summary).join('\n')}\n`,
		);
	}
}

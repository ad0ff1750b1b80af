/**
 * bench/results/burst.md from the figures bench/burst.ts measured: the setup, then one table per
 * part with issue 29's targets beside the figures of each run (a column a run; the kills with
 * issue 36's, beside the burst without a kill, each saying what was killed: one n8n, or in queue
 * mode one worker), then the details that say where time and calls went.
 */

import { profileMarkdown, type ProfileSummary } from './cpuProfile';
import type { ProbeSummary } from './processTree';

// Run figures are JSON, read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RunFigures = Record<string, any> & {
	key: string;
	scenario: string;
	mode: string;
	deployment: string;
	measured_at: string;
	commit: string;
};

export interface BurstResults {
	written_at: string;
	setup: { n8n: string; node: string; cpus: number; cpu_model: string; memory_gb: number };
	targets: {
		attempts_per_notification: number;
		minutes_n150: number;
		minutes_n500: number;
		failed_executions: number;
		peak_memory_gb: number;
		catch_up_minutes: number;
		after_kill_minutes: number;
	};
	runs: RunFigures[];
}

const MODE_ORDER = ['single', 'queue'];
/** The scenarios that kill n8n mid-burst, in their columns' order, and the signal each sends. */
const KILLS: Record<string, string> = { kill: 'SIGKILL', term: 'SIGTERM' };

const number = (value: unknown) =>
	typeof value === 'number' ? value.toLocaleString('en-US') : value === null ? '–' : String(value);
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MB`;
/** Seconds as minutes and seconds, or what was missing when the time never came. */
const duration = (value: number | null, missing: string) => {
	if (value === null || value === undefined) return missing;
	const minutes = Math.floor(value / 60);
	const rest = Math.round(value - minutes * 60);
	return minutes > 0 ? `${minutes} min ${rest} s` : `${value} s`;
};
/** ✓ or ✗ after a figure compared with its target. */
const mark = (ok: boolean) => (ok ? ' ✓' : ' ✗');
/** Executions by the status n8n gave them: `3 error, 1 canceled`. */
const statuses = (counts: Record<string, number>) =>
	Object.entries(counts)
		.map(([status, count]) => `${number(count)} ${status}`)
		.join(', ');
/** The deployment, and the n8n settings it ran with beside n8n's defaults (BURST_N8N_ENV). */
const modeLabel = (run: RunFigures) =>
	`${run.mode === 'queue' ? 'queue mode' : 'one n8n'}${run.settings ? ` (${String(run.settings)})` : ''}`;

function columns(runs: RunFigures[]): RunFigures[] {
	return [...runs].sort(
		(a, b) =>
			String(a.settings ?? '').localeCompare(String(b.settings ?? '')) ||
			MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode) ||
			Number(a.n) - Number(b.n),
	);
}

function table(header: string[], rows: string[][]): string[] {
	return [
		`| ${header.join(' | ')} |`,
		`| ${header.map(() => '---').join(' | ')} |`,
		...rows.map((row) => `| ${row.join(' | ')} |`),
	];
}

/** What a run's machine was doing beside it. */
function load(run: RunFigures): string {
	const cpus = run.usage?.cpus;
	if (!cpus) return '–';
	return `${cpus.others} of the CPUs (load average up to ${run.usage.loadAverage.max})`;
}

function answers(deliveries: RunFigures['deliveries']['hold_alerts']): string {
	const counts = deliveries.answers as Record<string, number>;
	const ok = ['200', '201', '202', '204'].reduce((sum, status) => sum + (counts[status] ?? 0), 0);
	const others = Object.entries(counts)
		.filter(([status]) => !['200', '201', '202', '204'].includes(status))
		.map(([status, count]) => `${number(count)} ${status}`);
	return [`${number(ok)} 2xx`, ...others].join(', ');
}

const attempts = (deliveries: RunFigures['deliveries']['hold_alerts'], target: number) =>
	deliveries.attempts_per_notification === null
		? '–'
		: `${deliveries.attempts_per_notification}${mark(deliveries.attempts_per_notification <= target)}`;

const answerTimes = (deliveries: RunFigures['deliveries']['hold_alerts']) =>
	`${number(deliveries.answer_ms.p50)} / ${number(deliveries.answer_ms.p95)} ms`;

/** The notifications whose first delivery attempt was answered 2xx: `812 (91.3 %)`. */
const firstAttempt = (deliveries: RunFigures['deliveries']['hold_alerts']) =>
	deliveries.first_attempt_2xx
		? `${number(deliveries.first_attempt_2xx.count)} of ${number(deliveries.first_attempt_2xx.of)} (${deliveries.first_attempt_2xx.percent ?? '–'} %)`
		: '–';

function sharedRows(
	runs: RunFigures[],
	results: BurstResults,
	minutesOf: (run: RunFigures) => number,
) {
	const targets = results.targets;
	// A figure a run could not read (n8n stopped or not answering) shows as a dash.
	const cell = (render: (run: RunFigures) => string) =>
		runs.map((run) => {
			try {
				return render(run);
			} catch {
				return '–';
			}
		});
	return {
		header: [
			['Measured', '', ...cell((run) => `${run.measured_at.slice(0, 16).replace('T', ' ')} UTC`)],
			['Commit; product code measured', '', ...cell((run) => run.commit)],
			['Other work on the machine, mean', '', ...cell(load)],
			[
				'Ended',
				'',
				...cell((run) =>
					run.ended === 'time limit' ? `time limit (${run.time_limit_minutes} min)` : run.ended,
				),
			],
		],
		delivery: [
			[
				'Delivery attempts per notification: hold alerts; board',
				`≤ ${targets.attempts_per_notification}`,
				...cell(
					(run) =>
						`${attempts(run.deliveries.hold_alerts, targets.attempts_per_notification)}; ${attempts(run.deliveries.pickup_board, targets.attempts_per_notification)}`,
				),
			],
			[
				'Notifications answered 2xx at the first attempt: hold alerts; board',
				'',
				...cell(
					(run) =>
						`${firstAttempt(run.deliveries.hold_alerts)}; ${firstAttempt(run.deliveries.pickup_board)}`,
				),
			],
			[
				"n8n's answers: hold alerts; board",
				'',
				...cell(
					(run) =>
						`${answers(run.deliveries.hold_alerts)}; ${answers(run.deliveries.pickup_board)}`,
				),
			],
			[
				"n8n's answer time p50 / p95: hold alerts; board",
				'',
				...cell(
					(run) =>
						`${answerTimes(run.deliveries.hold_alerts)}; ${answerTimes(run.deliveries.pickup_board)}`,
				),
			],
			[
				'Plain receiver beside it: attempts per notification; answer time p50 / p95',
				'',
				...cell(
					(run) =>
						`${run.deliveries.plain_receiver.attempts_per_notification ?? '–'}; ${answerTimes(run.deliveries.plain_receiver)}`,
				),
			],
			[
				"While the burst ran, every second: an unsigned delivery to the hold alerts' trigger (answered 401 by its first check); n8n's /healthz. Answer time p50 / p95 / max (probes: answers)",
				'',
				...cell((run) => {
					const probes = run.answer_probes as Record<string, ProbeSummary> | undefined;
					if (!probes) return '–';
					const answers = (probe: ProbeSummary) =>
						Object.entries(probe.statuses)
							.map(([status, count]) => `${count} ${status}`)
							.join(', ');
					const times = (probe: ProbeSummary | undefined) =>
						probe
							? `${probe.ms.p50} / ${probe.ms.p95} / ${probe.ms.max} ms (${probe.probes}: ${answers(probe)})`
							: '–';
					return `${times(probes.unsigned_delivery_to_trigger)}; ${times(probes.n8n_healthz)}`;
				}),
			],
		],
		outcome: [
			[
				'Last hold email expected',
				`≤ ${targets.minutes_n150} min (N=150), ≤ ${targets.minutes_n500} min (N=500)`,
				...cell(
					(run) =>
						`${duration(run.alerts.all_sent_after_s, `not all within ${run.time_limit_minutes} min`)}${run.alerts.all_sent_after_s === null ? ' ✗' : mark(run.alerts.all_sent_after_s <= minutesOf(run) * 60)}`,
				),
			],
			[
				'Hold emails: expected / sent / missing / duplicates / unexpected',
				'each once',
				...cell(
					(run) =>
						`${number(run.alerts.expected)} / ${number(run.alerts.sent)} / ${number(run.alerts.missing)} / ${number(run.alerts.duplicates)} / ${number(run.alerts.unexpected)}${mark(run.alerts.missing === 0 && run.alerts.duplicates === 0 && run.alerts.unexpected === 0)}`,
				),
			],
			[
				'Board equal to Container → Get for every container',
				'same as the emails',
				...cell(
					(run) =>
						`${duration(run.board.equal_after_s, `not within ${run.time_limit_minutes} min`)}${run.board.equal_after_s === null ? ' ✗' : mark(run.board.equal_after_s <= minutesOf(run) * 60)}`,
				),
			],
			[
				'Board at the end: rows / containers; rows differing, missing, duplicated',
				'one row each, equal',
				...cell(
					(run) =>
						`${number(run.board.rows)} / ${number(run.board.containers)}; ${number(run.board.differing)}, ${number(run.board.missing)}, ${number(run.board.duplicated)}`,
				),
			],
			[
				'Executions: hold alerts; board (failed)',
				`${targets.failed_executions} failed`,
				...cell(
					(run) =>
						`${number(run.executions.hold_alerts.total)} (${number(run.executions.hold_alerts.failed)}); ${number(run.executions.pickup_board.total)} (${number(run.executions.pickup_board.failed)})${mark(run.executions.hold_alerts.failed + run.executions.pickup_board.failed <= targets.failed_executions)}`,
				),
			],
			[
				'Execution time p50 / p95; most running at once (hold alerts; board)',
				'',
				...cell(
					(run) =>
						`${run.executions.hold_alerts.duration_s.p50 ?? '–'} / ${run.executions.hold_alerts.duration_s.p95 ?? '–'} s, ${run.executions.hold_alerts.max_running_at_once}; ${run.executions.pickup_board.duration_s.p50 ?? '–'} / ${run.executions.pickup_board.duration_s.p95 ?? '–'} s, ${run.executions.pickup_board.max_running_at_once}`,
				),
			],
			[
				"n8n's calls to the service; answered 429",
				'no item failed for a 429',
				...cell(
					(run) =>
						`${number(run.service_calls.n8n.calls)}; ${number(run.service_calls.n8n.rate_limited)}`,
				),
			],
			[
				"n8n's memory, every n8n process and task runner: start → peak (catch-up: peak); queue mode: the largest process",
				`≤ ${targets.peak_memory_gb} GB (one n8n)`,
				...cell((run) => {
					const peak = `${run.usage.n8nStartBytes ? `${mb(run.usage.n8nStartBytes)} → ` : ''}${mb(run.usage.n8nPeakBytes)}`;
					return run.mode === 'queue'
						? `${peak}; ${mb(run.usage.oneN8nProcessPeakBytes)}`
						: `${peak}${mark(run.usage.n8nPeakBytes <= targets.peak_memory_gb * 2 ** 30)}`;
				}),
			],
			[
				'Notifications the service had still to deliver at the end: hold alerts; board',
				'0',
				...cell(
					(run) => `${number(run.pending_at_end.holdAlerts)}; ${number(run.pending_at_end.board)}`,
				),
			],
		],
	};
}

/** A figure per run, or a dash where a run has not got it (older runs, a scenario without it). */
const cells = (runs: RunFigures[], render: (run: RunFigures) => string) =>
	runs.map((run) => {
		try {
			return render(run);
		} catch {
			return '–';
		}
	});

const boardState = (board: RunFigures['board']) =>
	`${number(board.rows)} / ${number(board.containers)}; ${number(board.differing)}, ${number(board.missing)}, ${number(board.duplicated)}`;

/** The board and the emails once everything was quiet (runs since the kill scenarios). */
function quietRows(runs: RunFigures[]): string[][] {
	return [
		[
			'Once everything was quiet (nothing to deliver, no execution running, no email for 30 s): waited; board equal (rows / containers; differing, missing, duplicated)',
			'equal',
			...cells(
				runs,
				(run) =>
					`${run.when_quiet.quiet ? `${duration(run.when_quiet.waited_s, '–')}` : `not quiet within ${duration(run.when_quiet.waited_s, '–')}`}; ${run.when_quiet.board.equal ? 'equal' : 'not equal'} (${boardState(run.when_quiet.board)})${mark(run.when_quiet.board.equal)}`,
			),
		],
		[
			'Board compared with the service at every look (every 5 s) from the moment the burst settled (nothing to deliver, no execution running) until quiet: looks; unequal (the first)',
			'every look equal',
			...cells(runs, (run) => {
				const looks = run.when_quiet.board_after_settled;
				if (!looks) return '–';
				return `${number(looks.looks)}; ${number(looks.unequal)}${looks.first_unequal ? ` (${looks.first_unequal})` : ''}${mark(looks.looks > 0 && looks.unequal === 0)}`;
			}),
		],
		[
			'The most times one hold alert was emailed',
			'1 without a kill, ≤ 2 with one (once before it, once after)',
			...cells(runs, (run) => {
				const most = run.when_quiet.alerts.most_times_one_alert;
				if (most === undefined) return '–';
				return `${number(most)}${mark(most <= (run.kill ? 2 : 1))}`;
			}),
		],
	];
}

function burstSection(runs: RunFigures[], results: BurstResults): string[] {
	if (runs.length === 0) return [];
	const minutesOf = (run: RunFigures) =>
		run.n <= 150 ? results.targets.minutes_n150 : results.targets.minutes_n500;
	const rows = sharedRows(runs, results, minutesOf);
	const burst = [
		[
			'The burst: boxes ready for pickup (changes) + customs holds (changes); last change after',
			'within 15 s',
			...runs.map(
				(run) =>
					`${number(run.burst.ready_for_pickup.started)} (${number(run.burst.ready_for_pickup.changes)}) + ${number(run.burst.customs_hold.started)} (${number(run.burst.customs_hold.changes)}); ${run.burst.last_change_after_s} s`,
			),
		],
		[
			'Notifications made: hold alerts; board; plain receiver',
			'',
			...runs.map(
				(run) =>
					`${number(total(run.deliveries.hold_alerts.notifications))}; ${number(total(run.deliveries.pickup_board.notifications))}; ${number(total(run.deliveries.plain_receiver.notifications))}`,
			),
		],
	];
	// The control beside the package (issue 50), in a run that had one.
	const control = [
		[
			"Control, the same work with n8n's Webhook node (see below): last hold email; hold emails expected / sent / missing / duplicates / unexpected",
			'',
			...cells(
				runs,
				(run) =>
					`${duration(run.control.alerts.all_sent_after_s, 'not all')}; ${number(run.control.alerts.expected)} / ${number(run.control.alerts.sent)} / ${number(run.control.alerts.missing)} / ${number(run.control.alerts.duplicates)} / ${number(run.control.alerts.unexpected)}`,
			),
		],
		[
			'Control: delivery attempts per notification, notifications answered 2xx at the first attempt (hold alerts; board)',
			'',
			...cells(
				runs,
				(run) =>
					`${run.deliveries.control_hold_alerts.attempts_per_notification ?? '–'}, ${firstAttempt(run.deliveries.control_hold_alerts)}; ${run.deliveries.control_board.attempts_per_notification ?? '–'}, ${firstAttempt(run.deliveries.control_board)}`,
			),
		],
	];
	return [
		'## Burst: every container ready for pickup within 15 s, 20 % with a customs hold',
		'',
		"The boxes are tracked first, and the board's hourly branch runs once, so that the board has a row for each box, as a board in use has for boxes tracked before its last hourly run. Times count from the burst's last change. The board is compared every 5 s, so its time is to within that.",
		'',
		...table(
			[
				'',
				'Target (issue 29)',
				...runs.map(
					(run) => `${modeLabel(run)}, N=${run.n}${run.variant ? `, ${String(run.variant)}` : ''}`,
				),
			],
			[
				...rows.header,
				...burst,
				...rows.delivery,
				...rows.outcome,
				...quietRows(runs),
				...(runs.some((run) => run.control) ? control : []),
			],
		),
		'',
	];
}

/** A board's state in a cell: when it was equal, and its rows at the end. */
const boardCell = (board: RunFigures['board'] | undefined) =>
	board
		? `${duration(board.equal_after_s, 'not equal')}; ${boardState(board)}${board.compared_on ? ` (on ${(board.compared_on as string[]).join(', ')})` : ''}`
		: '';

/** Executions in a cell: how many (failed); their time p50 / p95. */
const executionCell = (executions: RunFigures['executions']['hold_alerts'] | undefined) =>
	!executions
		? ''
		: executions.error
			? `not read (${String(executions.error).slice(0, 80)})`
			: `${number(executions.total)} (${number(executions.failed)}); ${executions.duration_s.p50 ?? '–'} / ${executions.duration_s.p95 ?? '–'} s`;

/** Hold emails in a cell: the last one's time, and expected / sent / missing / duplicates / unexpected. */
const alertCell = (alerts: RunFigures['alerts'] | undefined) =>
	alerts
		? `${duration(alerts.all_sent_after_s, 'not all')}${alerts.all_sent_after_burst_began_s === undefined || alerts.all_sent_after_burst_began_s === null ? '' : ` (${duration(alerts.all_sent_after_burst_began_s, '–')})`}; ${number(alerts.expected)} / ${number(alerts.sent)} / ${number(alerts.missing)} / ${number(alerts.duplicates)} / ${number(alerts.unexpected)}`
		: '';

/**
 * Issue 50: each run that had the control, a row per subscription (the package's two, the
 * control's two, the plain receiver): its deliveries, its executions, and what it did.
 */
function controlSection(runs: RunFigures[]): string[] {
	const withControl = runs.filter((run) => run.deliveries?.control_hold_alerts);
	if (withControl.length === 0) return [];
	const lines = [
		"## Beside it: the same work with n8n's Webhook node (issue 50)",
		'',
		"In the same n8n, the same run: the hold alerts and the board built as a user would without this package (bench/control/). n8n's **Webhook** node (POST, answers at once, Raw Body on), subscribed to `container.updated` on the same account with the service's API; a **Code** node that checks each delivery's HMAC-SHA256 with the secret the subscription answered (written into the workflow before its import) and splits the changeset into one item per hold that changed (hold alerts) or gives the container the delivery carries (board); then the example's email steps (routing table, Switch, alert text, Send Email through the same SMTP credential; subjects start `[control]`) or its Data Table steps on a table of its own, *Control board* (n8n finds a Data Table by name with LIKE: a name with *Pickup board* in it would be taken for the example's). One execution per delivery, no de-duplication. The same alerts are expected of both; the control's board is compared with the service on the columns it can say as the package's does (ready for pickup, active holds). A notification counts as answered 2xx at the first attempt when its first delivery attempt got a 2xx; the service's copies are left out. Times count from the burst's last change (in brackets: from the burst's start).",
		'',
	];
	for (const run of withControl) {
		const subscriptions: Array<[string, string, string | undefined]> = [
			['Package: hold alerts (Container holds → email)', 'hold_alerts', 'alerts'],
			['Package: pickup board', 'pickup_board', 'board'],
			['Control: hold alerts', 'control_hold_alerts', 'control.alerts'],
			['Control: pickup board', 'control_board', 'control.board'],
			['Plain receiver (answers at once)', 'plain_receiver', undefined],
		];
		const outcome = (what: string | undefined) => {
			try {
				if (what === 'alerts') return alertCell(run.alerts);
				if (what === 'board') return boardCell(run.board);
				if (what === 'control.alerts') return alertCell(run.control.alerts);
				if (what === 'control.board') return boardCell(run.control.board);
			} catch {
				return '–';
			}
			return '';
		};
		lines.push(
			`### ${modeLabel(run)}, N=${run.n}, ${run.scenario}${run.kill_after_s === undefined ? '' : ` after ${run.kill_after_s} s`}${run.variant ? ` (${run.variant})` : ''}`,
			'',
			`Measured ${run.measured_at.slice(0, 16).replace('T', ' ')} UTC at ${run.commit}; ended: ${run.ended}.${run.control?.email_steps_differ_from_example?.length ? ` The control's email steps differ from the example's in ${(run.control.email_steps_differ_from_example as string[]).join(', ')}.` : ''}`,
			'',
			...table(
				[
					'Subscription',
					'Notifications',
					'Attempts (per notification)',
					'Answered 2xx at the first attempt',
					'Answer time p50 / p95',
					'Executions (failed); time p50 / p95',
					'Last hold email (from the start); emails expected / sent / missing / duplicates / unexpected — or the board: equal after; rows / containers; differing, missing, duplicated',
				],
				subscriptions.map(([label, key, what]) => {
					const deliveries = run.deliveries[key] as RunFigures['deliveries']['hold_alerts'];
					// The webhook's notifications the service had still to send when the run ended.
					const pendingKey = key.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase());
					const pending =
						run.pending_at_end?.[
							{ hold_alerts: 'holdAlerts', pickup_board: 'board', plain_receiver: 'receiver' }[
								key
							] ?? pendingKey
						];
					return [
						label,
						deliveries
							? `${number(deliveries.notifications_attempted)}${pending ? ` (${number(pending)} still to deliver at the end)` : ''}`
							: '–',
						deliveries
							? `${number(deliveries.attempts)} (${deliveries.attempts_per_notification ?? '–'})`
							: '–',
						deliveries ? firstAttempt(deliveries) : '–',
						deliveries ? answerTimes(deliveries) : '–',
						executionCell(run.executions?.[key]),
						outcome(what),
					];
				}),
			),
			'',
		);
	}
	return lines;
}

/** The signal a kill sent, and to what when not to the one n8n: `SIGKILL to worker-1`. */
const signalledTo = (run: RunFigures) =>
	`${run.kill.signal}${run.kill.target ? ` to ${run.kill.target}` : ''}`;

/** The kills, each beside the burst without one of the same deployment, settings and N. */
function killSection(kills: RunFigures[], bursts: RunFigures[], results: BurstResults): string[] {
	if (kills.length === 0) return [];
	const same = (a: RunFigures, b: RunFigures) =>
		a.mode === b.mode && a.n === b.n && String(a.settings ?? '') === String(b.settings ?? '');
	const runs = columns([
		...bursts.filter((burst) => kills.some((kill) => same(kill, burst))),
		...kills,
	]).sort(
		(a, b) =>
			MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode) ||
			Number(a.scenario in KILLS) - Number(b.scenario in KILLS) ||
			Object.keys(KILLS).indexOf(a.scenario) - Object.keys(KILLS).indexOf(b.scenario) ||
			Number(a.kill_after_s ?? 0) - Number(b.kill_after_s ?? 0),
	);
	const minutesOf = (run: RunFigures) =>
		run.n <= 150 ? results.targets.minutes_n150 : results.targets.minutes_n500;
	const rows = sharedRows(runs, results, minutesOf);
	const afterKill = results.targets.after_kill_minutes;
	// A queue-mode kill signals one worker (`kill.target`): rows that mean something else for it
	// say what before their colon, only when such a column is there.
	const worker = kills.find((run) => run.kill?.target)?.kill as RunFigures['kill'] | undefined;
	const forWorker = (label: string, queueMode: string) => {
		if (!worker) return label;
		const colon = label.indexOf(':');
		return colon === -1
			? `${label} (queue mode: ${queueMode})`
			: `${label.slice(0, colon)} (queue mode: ${queueMode})${label.slice(colon)}`;
	};
	const both = (run: RunFigures, render: (figures: RunFigures) => string) =>
		`${render(run.kill.executions.hold_alerts)}; ${render(run.kill.executions.pickup_board)}`;
	// The alerts a kill may repeat: those of its cut executions, read from their data (or, when
	// n8n kept none, those run again).
	const cutAlerts = (run: RunFigures) => {
		const figures = run.kill.executions.hold_alerts;
		return figures.cut.executions_unread.length === 0 ? figures.cut.alerts : figures.rerun.alerts;
	};
	const kill = [
		[
			'The kill: signal, after the burst began (after its last change); processes signalled; emails sent before it',
			'any moment',
			...cells(runs, (run) =>
				run.kill
					? `${signalledTo(run)} at ${run.kill.after_burst_began_s} s (${run.kill.after_last_change_s} s); ${run.kill.processes_signalled}; ${number(run.kill.emails_before_signal)}${run.kill.error ? ` (${run.kill.error})` : ''}`
					: 'no kill',
			),
		],
		[
			worker
				? `n8n (queue mode: ${worker.target}) exited after the signal; started again after; serving again (/healthz; a worker: it said it is ready) after it exited`
				: 'n8n exited after the signal; started again after; serving again (/healthz) after it exited',
			'',
			...cells(
				runs,
				(run) =>
					`${run.kill.exited_after_s} s${run.kill.forced_after_term_limit ? ' (killed at the SIGTERM limit)' : ''}; ${run.kill.restart_after_s} s; ${run.kill.serving_after_exit_s} s`,
			),
		],
		[
			worker
				? 'Executions running when signalled, in queue mode on the worker killed (waiting to start): hold alerts; board'
				: 'Executions running when signalled (waiting to start): hold alerts; board',
			'',
			...cells(runs, (run) =>
				both(run, (figures) => `${figures.running_at_signal} (${figures.waiting_at_signal})`),
			),
		],
		[
			forWorker(
				'Executions n8n marked crashed: hold alerts; board',
				'those the worker left unfinished, with the status n8n gave them, e.g. error for a stalled job',
			),
			'',
			...cells(runs, (run) =>
				both(run, (figures) =>
					figures.crashed_status
						? `${number(figures.crashed)} (${statuses(figures.crashed_status) || 'none'})`
						: number(figures.crashed),
				),
			),
		],
		[
			'Their notifications: hold alerts (their alerts); board',
			'',
			...cells(
				runs,
				(run) =>
					`${number(run.kill.executions.hold_alerts.cut.notifications)} (${number(run.kill.executions.hold_alerts.cut.alerts)}); ${number(run.kill.executions.pickup_board.cut.notifications)}`,
			),
		],
		[
			forWorker(
				'Executions with rerun items after the start: hold alerts (notifications, alerts); board (notifications)',
				"after the worker exited, handed over by the main's cut check",
			),
			'',
			...cells(
				runs,
				(run) =>
					`${number(run.kill.executions.hold_alerts.rerun.executions)} (${number(run.kill.executions.hold_alerts.rerun.notifications)}, ${number(run.kill.executions.hold_alerts.rerun.alerts)}); ${number(run.kill.executions.pickup_board.rerun.executions)} (${number(run.kill.executions.pickup_board.rerun.notifications)})`,
			),
		],
		[
			'Notifications of crashed executions not run after the start (marked rerun or as a first run): hold alerts; board',
			'0',
			...cells(runs, (run) => {
				const { hold_alerts: holds, pickup_board: board } = run.kill.executions;
				// Crashed executions whose items n8n kept not: their notifications are not known.
				const unread = holds.cut.executions_unread.length + board.cut.executions_unread.length;
				return `${number(holds.cut_not_rerun.count)}; ${number(board.cut_not_rerun.count)}${unread ? ` (not known for ${unread} crashed executions n8n kept no items of)` : mark(holds.cut_not_rerun.count + board.cut_not_rerun.count === 0)}`;
			}),
		],
		[
			'Hold alerts once quiet: expected / emailed / missing / duplicates; with the rerun note (of the duplicates)',
			"0 missing; duplicates ≤ the cut executions' alerts, each with the rerun note",
			...cells(runs, (run) => {
				const alerts = run.when_quiet.alerts;
				const bound = run.kill ? cutAlerts(run) : 0;
				return `${number(alerts.expected)} / ${number(alerts.sent)} / ${number(alerts.missing)} / ${number(alerts.duplicates)}; ${number(alerts.rerun_noted)} (${number(alerts.duplicates_noted)})${mark(alerts.missing === 0 && alerts.duplicates <= bound && alerts.duplicates_noted === alerts.duplicates)}`;
			}),
		],
		[
			forWorker(
				'Board equal to Container → Get for every container, from n8n serving again',
				'from the worker serving again',
			),
			`≤ ${afterKill} min`,
			...cells(
				runs,
				(run) =>
					`${duration(run.kill.board_equal_after_serving_s, `not within ${run.time_limit_minutes} min of the last change`)}${run.kill.board_equal_after_serving_s === null ? ' ✗' : mark(run.kill.board_equal_after_serving_s <= afterKill * 60)}`,
			),
		],
	];
	return [
		'## n8n killed mid-burst',
		'',
		`The burst above, and n8n killed while it runs: \`kill\` SIGKILLs n8n and its task runners, \`term\` sends n8n SIGTERM and waits while its graceful shutdown (n8n's default timeout) lets it; ${kills[0].kill?.restart_after_s ?? 5} s after n8n exited it starts again on the same folder and ports. A killed run is watched at least 2 minutes after n8n serves again (the run journal's re-runs), then until everything is quiet. Executions running when signalled are those started before it and stopped after it (or never); crashed, cut and run again are read from n8n's executions (their trigger's items, \`rerun: true\` after the start). Each kill is beside the burst without one, same deployment, settings and N.`,
		...(worker
			? [
					'',
					`In queue mode (main, webhook process, 2 workers) the signal goes to one worker, ${worker.target}, with its task runners (SIGKILL) or alone (SIGTERM: it waits for its jobs up to its graceful-shutdown timeout, then exits); the main, the webhook process and the other worker go on, and ${worker.target} starts again ${worker.restart_after_s} s after it exited. A worker has no /healthz: it serves again when it says it is ready. The executions it left unfinished are those its log says it started and never finished, with those n8n failed as stalled jobs after the signal (taken, not yet started): n8n marks none of them crashed, as no n8n restarts; it fails their stalled jobs a minute or two later and stores that error in place of their data, so their items are read just after the worker exited. No restart runs their notifications again: the main's cut check does, 90 s after its watch first saw them once their leases lapsed (within a minute of the exit), or at its next hand-over (4 min) when a lease still held then; the run is watched at least ${duration(worker.reruns_watched_after_exit_s, '–')} after the worker exited, then until everything is quiet.`,
				]
			: []),
		'',
		...table(
			[
				'',
				'Target (issue 36)',
				...runs.map(
					(run) =>
						`${modeLabel(run)}, N=${run.n}, ${run.scenario}${run.kill_after_s === undefined ? '' : ` after ${run.kill_after_s} s`}${run.kill?.target ? ` (${signalledTo(run)})` : ''}`,
				),
			],
			[...rows.header, ...kill, ...quietRows(runs), ...rows.delivery, ...rows.outcome],
		),
		'',
	];
}

const total = (counts: Record<string, number> | null) =>
	counts ? Object.values(counts).reduce((sum, count) => sum + count, 0) : null;

function catchUpSection(runs: RunFigures[], results: BurstResults): string[] {
	if (runs.length === 0) return [];
	const rows = sharedRows(runs, results, () => results.targets.catch_up_minutes);
	const missed = [
		[
			'Missed while n8n was down: hold alerts; board (customs holds on N boxes)',
			'1,000 in all',
			...runs.map(
				(run) =>
					`${number(run.missed.hold_alerts)}; ${number(run.missed.pickup_board)} (N=${run.n})`,
			),
		],
		['n8n serving after', '', ...runs.map((run) => `${run.n8n_ready_after_s} s`)],
		[
			'Missed notifications that start a workflow that ran: once; more than once (hold alerts; board)',
			'each once',
			...runs.map(
				(run) =>
					`${number(run.notifications_run.hold_alerts.ran)} of ${number(run.notifications_run.hold_alerts.missed_that_start_the_workflow)}, ${number(run.notifications_run.hold_alerts.ran_more_than_once)}; ${number(run.notifications_run.pickup_board.ran)} of ${number(run.notifications_run.pickup_board.missed_that_start_the_workflow)}, ${number(run.notifications_run.pickup_board.ran_more_than_once)}`,
			),
		],
	];
	// Times count from n8n's start here; every attempt the service made was while n8n was down
	// (the details list them), so the delivery rows are left out.
	const outcome = rows.outcome.map((row, index) =>
		index === 0
			? ['Last missed hold email', `≤ ${results.targets.catch_up_minutes} min`, ...row.slice(2)]
			: index === 2
				? [row[0], `≤ ${results.targets.catch_up_minutes} min`, ...row.slice(2)]
				: row,
	);
	return [
		'## Catch-up: 1,000 notifications the service could not deliver while n8n was down',
		'',
		"n8n stopped; customs holds played on enough boxes that the service failed to deliver 1,000 notifications to the two workflows (12 retries from 2 ms, so it gives up within seconds); the retry base put back to 5 s; n8n started. Times count from n8n's start.",
		'',
		...table(
			['', 'Target (issue 29)', ...runs.map((run) => modeLabel(run))],
			[...rows.header, ...missed, ...outcome],
		),
		'',
	];
}

function details(run: RunFigures, cpus: number): string[] {
	const title =
		run.scenario === 'catch_up'
			? 'Catch-up'
			: run.scenario in KILLS
				? `Burst, N=${run.n}, ${run.kill?.target ?? 'n8n'} sent ${KILLS[run.scenario]} after ${run.kill_after_s} s`
				: `Burst, N=${run.n}`;
	const lines = [`### ${title}, ${run.deployment}`, ''];
	lines.push(
		`Measured ${run.measured_at} at ${run.commit}; ${run.usage.seconds} s sampled. CPUs used on average: n8n ${run.usage.cpus.n8n}, sandbox ${run.usage.cpus.sandbox}, Postgres and Redis ${run.usage.cpus.services}, the bench ${run.usage.cpus.bench}, other work ${run.usage.cpus.others} (the machine ${run.usage.cpus.machine} of ${cpus}). n8n's peak memory ${mb(run.usage.n8nPeakBytes)} after ${run.usage.n8nPeakAtSeconds} s.`,
		'',
	);
	const spaced = (label: string) => label.replace(/_/g, ' ');
	for (const [label, deliveries] of Object.entries(
		run.deliveries as Record<string, RunFigures['deliveries']['hold_alerts'] | null>,
	)) {
		if (!deliveries) continue;
		lines.push(
			`- Deliveries, ${spaced(label)}: ${number(deliveries.notifications_attempted)} notifications attempted, ${number(deliveries.attempts)} attempts (${JSON.stringify(deliveries.answers)})${deliveries.first_attempt_2xx ? `, ${firstAttempt(deliveries)} answered 2xx at the first${deliveries.first_attempt_2xx.first_attempt_not_logged ? ` (${number(deliveries.first_attempt_2xx.first_attempt_not_logged)} first attempted before the log was cleared)` : ''}` : ''}; answer time p50 ${number(deliveries.answer_ms.p50)} ms, p95 ${number(deliveries.answer_ms.p95)} ms, max ${number(deliveries.answer_ms.max)} ms; notifications now ${JSON.stringify(deliveries.notifications)}.`,
		);
	}
	for (const [label, executions] of Object.entries(
		run.executions as Record<string, RunFigures['executions']['hold_alerts']>,
	)) {
		if (executions.error) {
			lines.push(`- Executions, ${spaced(label)}: not read (${executions.error}).`);
			continue;
		}
		lines.push(
			`- Executions, ${spaced(label)}: ${JSON.stringify(executions.by_status)} by mode ${JSON.stringify(executions.by_mode)}; waited to start p50 ${executions.waited_to_start_s.p50 ?? '–'} s, p95 ${executions.waited_to_start_s.p95 ?? '–'} s.`,
		);
		for (const [error, count] of Object.entries(
			executions.errors_of_failed as Record<string, number>,
		))
			lines.push(`  - ${count} of the ${executions.errors_read_of} failed ones read: ${error}`);
	}
	const routes = Object.entries(
		run.service_calls.n8n.by_route as Record<string, { calls: number; rate_limited: number }>,
	)
		.sort((a, b) => b[1].calls - a[1].calls)
		.map(
			([route, counts]) =>
				`${route} ${number(counts.calls)}${counts.rate_limited ? ` (${number(counts.rate_limited)} × 429)` : ''}`,
		);
	lines.push(`- n8n's calls by route: ${routes.join(', ') || 'none'}.`);
	if (run.board.example)
		lines.push(`- A board row that differed at the end: ${run.board.example}.`);
	if (run.when_quiet?.board?.example)
		lines.push(`- A board row that differed once quiet: ${run.when_quiet.board.example}.`);
	if (run.when_quiet?.alerts?.missing_keys?.length)
		lines.push(
			`- Hold alerts never emailed (container|hold|placed or released|minute), up to 20: ${run.when_quiet.alerts.missing_keys.join(', ')}.`,
		);
	if (run.control?.board?.example)
		lines.push(
			`- A row of the control's board that differed at the end: ${run.control.board.example}.`,
		);
	if (run.control?.alerts?.missingKeys?.length)
		lines.push(
			`- The control's hold alerts never emailed, up to 20: ${(run.control.alerts.missingKeys as string[]).join(', ')}.`,
		);
	for (const [label, figures] of Object.entries(
		(run.kill?.executions ?? {}) as Record<string, RunFigures>,
	)) {
		if (label === 'error') {
			lines.push(`- The kill's executions: not read (${String(figures)}).`);
			continue;
		}
		lines.push(
			`- The kill, ${label.replace('_', ' ')}: ${figures.crashed_status ? `executions ${run.kill.target} left unfinished (${statuses(figures.crashed_status) || 'none'}; failed as stalled jobs without a start in its log: ${number(figures.crashed_stalled_not_in_worker_log)})` : 'crashed executions'} ${figures.crashed_ids.join(', ') || 'none'}${figures.cut.executions_unread.length ? ` (no items kept: ${figures.cut.executions_unread.join(', ')})` : ''}; executions with rerun items ${figures.rerun.execution_ids.join(', ') || 'none'} (${number(figures.rerun.items)} items); cut and not run after the start ${figures.cut_not_rerun.ids.join(', ') || 'none'}; run again without a crashed execution ${number(figures.rerun_not_cut)}.`,
		);
	}
	if (run.board_check_errors?.count)
		lines.push(
			`- Board checks n8n did not answer: ${run.board_check_errors.count}, the last: ${run.board_check_errors.last}.`,
		);
	lines.push(
		`- n8n's log: ${number(run.n8n_log.lines)} lines; the most frequent warnings and errors (numbers and ids replaced):`,
	);
	for (const { line, count } of run.n8n_log.warnings_and_errors as Array<{
		line: string;
		count: number;
	}>)
		lines.push(`  - ${number(count)} × \`${line.replace(/`/g, "'")}\``);
	if (run.cpu_profile) lines.push('', ...profileMarkdown(run.cpu_profile as ProfileSummary));
	if (run.timeline?.length) {
		lines.push('', 'Every 30 s:', '');
		const keys = Object.keys(run.timeline[0]);
		lines.push(
			...table(
				keys,
				run.timeline.map((entry: Record<string, unknown>) => keys.map((key) => number(entry[key]))),
			),
		);
	}
	lines.push('');
	return lines;
}

export function writeBurstReport(results: BurstResults): string {
	const bursts = columns(results.runs.filter((run) => run.scenario === 'burst'));
	const kills = results.runs.filter((run) => run.scenario in KILLS);
	const catchUps = columns(results.runs.filter((run) => run.scenario === 'catch_up'));
	const { setup } = results;
	return `${[
		`# A busy account's burst in a real n8n ${setup.n8n}`,
		'',
		`Written by \`npm run bench:burst\` (bench/burst.ts), last on ${results.written_at.slice(0, 16).replace('T', ' ')} UTC: Node ${setup.node}, ${setup.cpus} CPUs (${setup.cpu_model}), ${setup.memory_gb} GB of memory. Each column says when it was measured, the commit the packed package was built from, and how much of the CPUs other work on the machine used meanwhile (figures taken under load are slower than the package is).`,
		'',
		"The examples run as shipped, read from examples/ when the bench runs: **Container holds → email** (SMTP to a local inbox) and the **Pickup board** (an n8n Data Table, created by running its setup workflow over REST). The sandbox runs in a process of its own; n8n calls it with its own API key (its calls and 429s below), the bench reads with another. A plain HTTP receiver subscribed to the same events answers every delivery at once: the machine's floor. A hold email is expected for every hold change the alert workflow's Switch emails (placed or activated, cleared), worked out by the trigger's own code from the notifications the receiver got; an email is told apart by container, hold, placed or released and the minute of its \"Changed at\" line. The board is compared with what Container → Get works out from the service's containers (test/support/pickupBoardRows.ts, the e2e test's rules).",
		'',
		...burstSection(bursts, results),
		...controlSection([...bursts, ...columns(kills), ...catchUps]),
		...killSection(kills, bursts, results),
		...catchUpSection(catchUps, results),
		'## Details',
		'',
		...[...bursts, ...columns(kills), ...catchUps].flatMap((run) => details(run, setup.cpus)),
	].join('\n')}\n`;
}

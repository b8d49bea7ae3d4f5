/**
 * `vtpreflight check`: resolve every flag first (usage errors exit 2 before any I/O), read the selected input,
 * run the checks (again and again under `--wait`), render each report and write it; resolves to the exit code.
 */
import { Command } from 'commander';
import { CHECKS } from '../../../checks/index.js';
import type { ReportPlan } from '../../config/reports.js';
import { get, type Settings } from '../../config/settings.js';
import { redactDeep } from '../../secrets.js';
import type { Check } from '../../engine/check.js';
import type { Readout } from '../../readout.js';
import { createProgress, type ProgressMode } from '../progress.js';
import type { Report } from '../../engine/report.js';
import { runModelChecks, type FailOn } from '../../engine/run.js';
import { WaitStopped, waitWithResult, type WaitResult } from '../../engine/wait.js';
import { oneLine } from '../../text.js';
import { UsageError } from '../../errors.js';
import { buildModel } from '../../model/build.js';
import { type ReportWriter, reportWriter } from '../../report/index.js';
import { exitLine } from '../../report/text.js';
import { VERSION } from '../../version.js';
import { addCheckOptions, addCommonOptions, type RunFlags, settingsOf } from '../flags.js';
import { addInputOptions, selectInput } from '../inputs/index.js';
import { type CliIo, processStopSignal, SIGNAL_EXIT } from '../io.js';
import { checkOptions, reportPlans } from '../options.js';
import { checkOutputPaths, writeFilesAtomically } from '../write.js';

/** Where progress goes: nowhere with `--quiet` or when a machine format goes to stdout off a terminal. */
export function progressMode(f: RunFlags, io: CliIo, machineOnStdout: boolean): ProgressMode {
  if (f.quiet) return 'silent';
  if (machineOnStdout && !io.stderrIsTTY) return 'silent';
  return io.stderrIsTTY ? 'tty' : 'plain';
}

/**
 * Writes the rendered reports: every file first, atomically and all-or-nothing (src/cli/write.ts), then stdout, so a
 * failed file leaves no report anywhere and the exit code says so (2).
 */
export async function writeReports(io: CliIo, rendered: readonly { output: string | null; text: ReportWriter }[]) {
  await writeFilesAtomically(
    rendered.flatMap((r) => (r.output === null ? [] : [{ path: r.output, text: r.text }])),
    '--output',
  );
  // Chunk by chunk (the JSON report streams, src/report/json-stream.ts), never one string of the whole report.
  for (const r of rendered) if (r.output === null) r.text((chunk) => io.stdout(chunk));
}

/** What `vtpreflight sweep` changes in a `check` run (src/cli/commands/sweep.ts); absent for `check`. */
export interface SweepRun {
  /** Resolves the settings (the sweep drops the selection) and validates them before any I/O. */
  readonly settings: (cmd: Command, io: CliIo) => Settings;
  readonly checks: readonly Check[];
  /** Refuses a readout that does not cover the whole cluster (a snapshot taken with --keyspace): CollectError. */
  readonly accept: (readout: Readout, snapshot: string | null) => void;
}

export async function runCheck(f: RunFlags, cmd: Command, io: CliIo, sweep?: SweepRun): Promise<number> {
  // Resolve and validate everything before any I/O.
  const s = sweep ? sweep.settings(cmd, io) : settingsOf(cmd, io);
  const plans: ReportPlan[] = reportPlans(s);
  const options = checkOptions(s);
  const failOn = get<FailOn>(s, 'failOn')!;
  const waitMs = get<number>(s, 'wait');
  const interval = s.values.get('interval')!;
  const { input, value } = selectInput(cmd, s);
  if (waitMs === undefined && interval.source.kind === 'flag') throw new UsageError('--interval needs --wait DURATION');
  if ((interval.value as number) < 1) throw new UsageError('--interval must be at least 1ms');
  // A report that cannot be written is known now, not after a whole read of the cluster.
  checkOutputPaths(plans.flatMap((p) => (p.output === null ? [] : [p.output])));
  const source = input.open(value, s);
  if (options.maxLagGiven !== undefined && !f.quiet)
    io.stderr(
      `vtpreflight: note: --max-lag ${options.maxLagGiven} is judged as ${options.maxLagSeconds}s: Vitess truncates --max-replication-lag-allowed to whole seconds, so a lag of ${options.maxLagSeconds + 1}s already blocks\n`,
    );

  const machine = plans.some((p) => p.output === null && p.format !== 'text');
  const progress = createProgress(progressMode(f, io, machine), io.stderr);
  let round = 0;
  const runOnce = async (): Promise<Report> => {
    round++;
    const started = new Date();
    const clock = io.now ?? Date.now;
    const deadlineMs = get<number>(s, 'deadline');
    const t0 = performance.now();
    const readout = await source.read({
      progress,
      round: waitMs === undefined ? null : round,
      warn: f.quiet ? () => {} : (line) => io.stderr(`vtpreflight: warning: ${line}\n`),
    });
    sweep?.accept(readout, source.snapshot);
    // --deadline bounds the checks as it bounds the reads (the collector's own deadline): they get the same budget
    // from the end of the read, so what was read before a read deadline is still judged, and a run ends within
    // twice --deadline whatever the cluster's size.
    const deadlineAt = deadlineMs === undefined ? undefined : clock() + deadlineMs;
    const model = buildModel(readout);
    return runModelChecks(model, sweep ? sweep.checks : CHECKS, sweep ? { ...options, sweep: true } : options, {
      ...(sweep ? { sweep: true } : {}),
      toolVersion: VERSION,
      snapshot: source.snapshot,
      startedAt: source.startsAtCapture ? readout.capturedAt : started.toISOString(),
      elapsedMs: performance.now() - t0,
      failOn,
      ...(deadlineAt !== undefined ? { deadlineAt, now: clock } : {}),
      ...(readout.lacks !== undefined ? { lacks: readout.lacks } : {}),
      lacksSource: source.lacksSource,
    });
  };

  let dispose = () => {};
  try {
    return await checkAndWrite();
  } finally {
    // Listening for SIGINT/SIGTERM ends only once the reports are written.
    dispose();
  }

  async function checkAndWrite(): Promise<number> {
    let report: Report;
    let ended: WaitResult | null = null;
    if (waitMs === undefined) {
      report = await runOnce();
    } else {
      // The wait loop's lines go to stderr unless --quiet, even when a machine report goes to stdout.
      const note = f.quiet ? () => {} : (line: string) => io.stderr(`vtpreflight: ${line}\n`);
      const stop = new Promise<'SIGINT' | 'SIGTERM'>((resolve) => {
        dispose = (io.onStopSignal ?? processStopSignal)(resolve);
      });
      try {
        ended = await waitWithResult(runOnce, {
          waitMs,
          intervalMs: interval.value as number,
          failOn,
          now: io.now ?? Date.now,
          sleep: io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
          note,
          stop,
        });
      } catch (e) {
        if (!(e instanceof WaitStopped)) throw e;
        io.stderr(`vtpreflight: ${e.message}\n`);
        return SIGNAL_EXIT[e.signal];
      }
      report = ended.report!;
    }
    // Every format renders this one report: secrets out of it once (src/secrets.ts), the way stderr is filtered.
    report = redactDeep(report);
    await writeReports(
      io,
      plans.map((plan) => {
        const terminal = plan.output === null && io.stdoutIsTTY;
        const color = plan.format === 'text' && terminal && !io.env.NO_COLOR;
        // The terminal's width on a terminal; the reporter's fixed width (100) in files and pipes.
        const width = terminal && io.stdoutColumns !== undefined ? io.stdoutColumns : undefined;
        return {
          output: plan.output,
          text: reportWriter(plan.format, report, {
            color,
            ...(width !== undefined ? { width } : {}),
            ...(f.verbose === true ? { verbose: true } : {}),
          }),
        };
      }),
    );
    // An interrupted --wait wrote the last complete run's report (marked so); its exit says why it ended.
    const cut = ended?.interrupted ?? null;
    if (cut !== null) {
      io.stderr(`vtpreflight: ${cut.message}\n`);
      if (cut.by !== 'unreadable') return SIGNAL_EXIT[cut.by];
      if (ended?.error instanceof Error) io.stderr(`vtpreflight: ${oneLine(ended.error)}\n`);
      return 2;
    }
    // Every report went to a file: say where, and the closing line, so that the run does not end in silence.
    if (!f.quiet && plans.every((p) => p.output !== null))
      io.stderr(
        `vtpreflight: wrote ${plans.map((p) => `${p.output} (${p.format})`).join(', ')}; ${exitLine(report)}\n`,
      );
    return report.summary.exitCode;
  }
}

/** Declares the flags of `check` on `cmd` (also used by `config print`, which resolves the same settings). */
export function addAllCheckOptions(cmd: Command): Command {
  return addCheckOptions(addInputOptions(addCommonOptions(cmd)));
}

/** The `check` command; `setExit` receives its exit code. */
export function checkCommand(io: CliIo, setExit: (code: number) => void): Command {
  return addAllCheckOptions(
    new Command('check').description('read the cluster (or a snapshot) and report what would make the cutover fail'),
  ).action(async (f: RunFlags, cmd: Command) => setExit(await runCheck(f, cmd, io)));
}

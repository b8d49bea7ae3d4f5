/**
 * `check --wait DURATION [--interval DURATION]`: re-collect and re-check until nothing at or above `--fail-on`
 * is open (no such finding, no errored check) or the time is up. The final report is the last run's.
 *
 * Between runs it tells (through `note`, i.e. the progress adapter on stderr) which findings are still open and
 * since when, grouped by check so 1,024 shards make a few lines. A finding's identity across runs is its check,
 * location (keyspace, shard, workflow, stream, tablet) and `details.reason`, not its message, which changes as
 * lag or row counts move. The clock and the sleep are injected, so the loop is tested without waiting.
 */
import { formatDuration } from '../duration.js';
import { CollectError } from '../errors.js';
import { oneLine } from '../text.js';
import type { Finding } from './check.js';
import type { Report, ReportInterrupted } from './report.js';
import { meetsFailOn, type FailOn } from './run.js';

export interface WaitOptions {
  /** Total time to wait, from the start of the first run, in milliseconds. */
  readonly waitMs: number;
  /** Pause between the end of one run and the start of the next, in milliseconds. */
  readonly intervalMs: number;
  readonly failOn: FailOn;
  /** Wall clock in ms since the epoch. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** One progress line (no trailing newline). */
  readonly note: (line: string) => void;
  /** Most groups listed per round (default 8). */
  readonly maxLines?: number;
  /**
   * Resolves when the wait is to stop now (SIGINT, SIGTERM): the loop abandons the run or pause in progress and
   * returns the last complete run's report, marked interrupted.
   */
  readonly stop?: Promise<'SIGINT' | 'SIGTERM'>;
}

/** What the loop ended with: the report to write, and why it is not a final one (null when it is). */
export interface WaitResult {
  readonly report: Report | null;
  readonly interrupted: ReportInterrupted | null;
  /** The CollectError that ended the wait (the cluster could no longer be read), when one did. */
  readonly error: unknown;
}

/** Thrown by {@link waitUntilClear} when stopped before any run completed (nothing to write). */
export class WaitStopped extends Error {
  override readonly name = 'WaitStopped';
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`stopped by ${signal} before the first run completed: no report to write`);
  }
}

/** The identity of a finding across runs. */
export function findingKey(f: Finding): string {
  const reason = f.reason ?? '';
  return [f.check, f.keyspace ?? '', f.shard ?? '', f.workflow ?? '', f.streamId ?? '', f.tablet ?? '', reason].join(
    '\u0000',
  );
}

/** What keeps a report from passing the gate: findings at or above `failOn`, and errored checks. */
export function openItems(report: Report, failOn: FailOn): { findings: Finding[]; erroredChecks: string[] } {
  if (failOn === 'never') return { findings: [], erroredChecks: [] };
  return {
    findings: report.findings.filter((f) => meetsFailOn(f.severity, failOn)),
    erroredChecks: report.checks.filter((c) => c.status === 'error').map((c) => c.id),
  };
}

const clock = (ms: number): string => `${new Date(ms).toISOString().slice(11, 19)}Z`;

/** The lines describing what is still open after a run. */
export function describeOpen(
  findings: readonly Finding[],
  erroredChecks: readonly string[],
  firstSeen: ReadonlyMap<string, number>,
  now: number,
  maxLines = 8,
): string[] {
  const groups = new Map<string, { check: string; workflow: string; places: string[]; since: number; count: number }>();
  for (const f of findings) {
    const g = `${f.check}\u0000${f.keyspace ?? ''}\u0000${f.workflow ?? ''}`;
    const since = firstSeen.get(findingKey(f)) ?? now;
    const place = [
      f.keyspace && f.shard ? `${f.keyspace}/${f.shard}` : f.keyspace,
      f.streamId !== undefined ? `stream ${f.streamId}` : undefined,
      f.tablet,
    ]
      .filter(Boolean)
      .join(' ');
    const e = groups.get(g);
    if (e) {
      e.count++;
      e.since = Math.min(e.since, since);
      if (e.places.length < 3 && place) e.places.push(place);
    } else {
      groups.set(g, {
        check: f.check,
        workflow: f.workflow ? `${f.keyspace ? `${f.keyspace}.` : ''}${f.workflow}` : '',
        places: place ? [place] : [],
        since,
        count: 1,
      });
    }
  }
  const lines = [...groups.values()]
    .sort((a, b) => a.since - b.since || b.count - a.count)
    .map((g) => {
      const where = g.places.join(', ') + (g.count > g.places.length ? `, … (${g.count} in all)` : '');
      return `  ${g.check}${g.workflow ? ` ${g.workflow}` : ''}: ${g.count} open${where ? ` on ${where}` : ''}, since ${clock(g.since)} (${formatDuration(now - g.since)})`;
    });
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown.push(`  … and ${lines.length - maxLines} more checks with open findings`);
  for (const id of erroredChecks) shown.push(`  ${id}: the check errored, so the result is incomplete`);
  return shown;
}

/**
 * Runs `runOnce` until the report passes the gate or `waitMs` is spent; returns the last report. A CollectError
 * of a later run (vtctld briefly unreachable) is noted and retried at the next interval; if time runs out
 * before another run succeeds, it is thrown. A CollectError of the first run is thrown at once.
 */
export async function waitUntilClear(runOnce: () => Promise<Report>, o: WaitOptions): Promise<Report> {
  const r = await waitWithResult(runOnce, o);
  if (r.error !== null) throw r.error;
  return r.report!;
}

const STOPPED = Symbol('stopped');

/**
 * {@link waitUntilClear} that never loses the last complete run: stopped (`o.stop`) or unable to read the cluster
 * again before the wait runs out, it returns that run's report, marked {@link ReportInterrupted}, with the error
 * that ended it. Stopped before any run completed, it throws {@link WaitStopped}; a first run's error is thrown.
 */
export async function waitWithResult(runOnce: () => Promise<Report>, o: WaitOptions): Promise<WaitResult> {
  const start = o.now();
  const deadline = start + o.waitMs;
  const firstSeen = new Map<string, number>();
  let last: Report | null = null;
  let lastRound = 0;
  let lastError: unknown = null;
  let signal: 'SIGINT' | 'SIGTERM' | null = null;
  const stopped: Promise<typeof STOPPED> | undefined = o.stop?.then((s) => {
    signal = s;
    return STOPPED;
  });
  /** `p`, or STOPPED as soon as the stop promise resolves. */
  const orStop = <T>(p: Promise<T>): Promise<T | typeof STOPPED> =>
    stopped ? Promise.race<T | typeof STOPPED>([p, stopped]) : p;
  const interrupted = (when: string): WaitResult => {
    if (last === null) throw new WaitStopped(signal!);
    o.note(`wait: stopped by ${signal} ${when}; writing the report of run ${lastRound}`);
    return {
      report: { ...last, interrupted: mark(signal!, lastRound, o.now()) },
      interrupted: mark(signal!, lastRound, o.now()),
      error: null,
    };
  };
  for (let round = 1; ; round++) {
    const runStart = o.now();
    try {
      const got = await orStop(runOnce());
      if (got === STOPPED) return interrupted(`during run ${round}`);
      last = got;
      lastRound = round;
      lastError = null;
    } catch (e) {
      if (signal !== null) return interrupted(`during run ${round}`);
      if (!(e instanceof CollectError) || last === null) throw e;
      lastError = e;
      o.note(`wait: run ${round} could not read the cluster (${oneLine(e)}); retrying`);
    }
    const now = o.now();
    if (lastError === null && last !== null) {
      const { findings, erroredChecks } = openItems(last, o.failOn);
      const present = new Set<string>();
      for (const f of findings) {
        const k = findingKey(f);
        present.add(k);
        if (!firstSeen.has(k)) firstSeen.set(k, runStart);
      }
      for (const k of [...firstSeen.keys()]) if (!present.has(k)) firstSeen.delete(k);
      if (findings.length === 0 && erroredChecks.length === 0) {
        o.note(
          `wait: clear after ${formatDuration(now - start)} (run ${round}): nothing at or above --fail-on ${o.failOn}`,
        );
        return { report: last, interrupted: null, error: null };
      }
      const remaining = deadline - now;
      const errored = erroredChecks.length;
      const what =
        `${findings.length} finding${findings.length === 1 ? '' : 's'}` +
        (errored > 0 ? ` and ${errored} errored check${errored === 1 ? '' : 's'}` : '');
      if (remaining < o.intervalMs) {
        o.note(`wait: gave up after ${formatDuration(now - start)} (run ${round}): ${what} still open`);
        for (const line of describeOpen(findings, erroredChecks, firstSeen, now, o.maxLines)) o.note(line);
        return { report: last, interrupted: null, error: null };
      }
      o.note(
        `wait: ${what} still open after run ${round} (${formatDuration(now - start)}); next run in ${formatDuration(o.intervalMs)}, giving up in ${formatDuration(remaining)}`,
      );
      for (const line of describeOpen(findings, erroredChecks, firstSeen, now, o.maxLines)) o.note(line);
    } else if (deadline - now < o.intervalMs) {
      // The cluster could not be read again before the wait ran out: the last complete run is what there is.
      const marked = mark('unreadable', lastRound, now, oneLine(lastError));
      return { report: { ...last!, interrupted: marked }, interrupted: marked, error: lastError };
    }
    if ((await orStop(o.sleep(o.intervalMs))) === STOPPED) return interrupted(`in the pause after run ${round}`);
  }
}

function mark(by: ReportInterrupted['by'], run: number, at: number, why = ''): ReportInterrupted {
  const what =
    by === 'unreadable'
      ? `the cluster could not be read again before --wait ran out${why === '' ? '' : ` (${why})`}`
      : `--wait was stopped by ${by}`;
  return {
    by,
    at: new Date(at).toISOString(),
    run,
    message: `interrupted: ${what}; this is the report of run ${run}, the last complete one`,
  };
}

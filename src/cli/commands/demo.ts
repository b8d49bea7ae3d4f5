/**
 * `vtpreflight demo`: the README's first command. It starts a simulated cluster in this process — a real gRPC vtctld
 * and one MySQL-protocol tablet per primary on loopback ports (`src/sim/`) — runs the real `check` against it
 * (the `check` command parsing `check --vtctld …`: the collector over real sockets, listr2 progress on a terminal, the
 * report),
 * prints which faults were injected, and stops everything. No database, no Docker, no network.
 *
 * Exit code: 0 whenever the check ran, findings or not; 2 when it could not run. A demo is not a gate: its cluster is
 * built with faults so that there is something to find, and exiting 1 for them would make `npm run demo` end in
 * npm's "Lifecycle script failed" error footer, which reads like the tool broke. The check's own verdict stays visible
 * in the report and in the closing line; `--exit-code` returns check's exit code instead (1 on findings), for
 * scripts that want the gate behaviour on simulated input.
 */
import { formatDuration, parseDuration } from '../../duration.js';
import { ACTIONS } from '../../engine/steps.js';
import { UsageError } from '../../errors.js';
import { FORMATS } from '../../report/index.js';
import { startSimCluster } from '../../sim/cluster.js';
import {
  DEFAULT_SCENARIO,
  MAX_SHARDS,
  MIN_SHARDS,
  SCENARIOS,
  findScenario,
  generateScenario,
} from '../../sim/scenario.js';
import type { SimCluster } from '../../sim/types.js';
import type { CliIo } from '../io.js';
import { adoptCommands, newProgram, runProgram } from '../run.js';
import { checkCommand } from './check.js';
import { plural } from '../../text.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Scenario name (default {@link DEFAULT_SCENARIO}). */
  readonly scenario?: string;
  /** Shard count of the main keyspace (default: the scenario's). */
  readonly shards?: number;
  /** Simulated round-trip time per call in ms, gRPC and MySQL alike (default 2). */
  readonly rtt?: number;
  /** Extra uniform random delay per call in ms, `[0, jitter)` (default 0). */
  readonly jitter?: number;
  /** Report format (default `text`, whatever stdout is). */
  readonly format?: string;
  /** Write the report to this file instead of stdout (as `check --output`). */
  readonly output?: string;
  /** Scenario seed (default 1). */
  readonly seed?: number;
  /** Return check's exit code (1 on findings) instead of 0. */
  readonly exitCode?: boolean;
  /** Pass `--verbose` to check (the fix of each check, every shard, the evidence). */
  readonly verbose?: boolean;
  /** Pass `--action` to check (default switch); create is not offered (it needs the workflow's parameters). */
  readonly action?: string;
  /**
   * Keep the simulated cluster running instead of checking it: its vtctld address goes to stdout (one line), and
   * the cluster stops when the returned promise resolves (default: on SIGINT or SIGTERM).
   */
  readonly serve?: boolean | { readonly until: () => Promise<void> };
  /** The clock the scenario is generated at, and regenerated at while serving (default `Date.now`). */
  readonly clock?: () => number;
  readonly io: CliIo;
}

/**
 * How often, at most, `demo --serve` regenerates its scenario at the current clock: a real cluster's streams
 * heartbeat, so their lag stays a few seconds however long the cluster runs; a simulated cluster frozen at its start
 * time would turn every healthy workflow `at-risk`, then `blocked` by replication lag, within a minute.
 */
export const DEMO_HEARTBEAT_MS = 1000;

/** The simulated network's default round-trip time: enough to look like a network, small enough to stay quick. */
export const DEFAULT_DEMO_RTT_MS = 2;

/** The scenario list `vtpreflight demo --list` prints. */
export function renderScenarioList(): string {
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  const lines = SCENARIOS.map(
    (s) => `  ${s.name.padEnd(width)}  ${s.description}${s.name === DEFAULT_SCENARIO ? ' (default)' : ''}`,
  );
  return `Scenarios (vtpreflight demo --scenario NAME [--shards N]):\n${lines.join('\n')}\n`;
}

function describeCluster(sim: SimCluster, rttMs: number, jitterMs: number): string {
  const { stats } = sim;
  return `vtpreflight demo: simulating "${sim.scenario}": ${plural(stats.keyspaces, 'keyspace')}, ${plural(stats.shards, 'shard')}, ${plural(stats.tablets, 'tablet')}, ${plural(stats.streams, 'stream')}, on loopback (a gRPC vtctld and one MySQL port per primary, ${rttMs} ms round trips${jitterMs > 0 ? ` + up to ${jitterMs} ms jitter` : ''})\n`;
}

function describeFaults(sim: SimCluster): string {
  if (sim.faults.length === 0) return 'vtpreflight demo: no fault was injected into this cluster.\n';
  const lines = sim.faults.map((f) => {
    const tablet = f.tablet ? `, tablet ${f.tablet}` : '';
    const where = `${f.keyspace}/${f.shard}${f.workflow ? ` (${f.workflow})` : ''}${tablet}`;
    return `  - ${f.description}: ${where}; reported by ${f.checks.join(' or ')}`;
  });
  return `vtpreflight demo: faults injected into the simulated cluster:\n${lines.join('\n')}\n`;
}

/** The inner check's environment: the user's vtpreflight settings (config file, credentials) stay out of the demo. */
function hermeticEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('VTPREFLIGHT_')));
}

/** Runs `check` with `argv` as the CLI would (same parsing, same exit codes). */
async function runCheckArgv(argv: readonly string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = adoptCommands(newProgram(io).addCommand(checkCommand(io, (c) => (code = c))));
  return runProgram(program, argv, io, () => code);
}

/**
 * Runs the demo: generate, serve, `check`, print, stop. Resolves to the exit code (see the module comment).
 * Throws UsageError for an unknown scenario, a shard count out of range, or an unknown format.
 */
export async function runDemo(opts: DemoOptions): Promise<number> {
  const name = opts.scenario ?? DEFAULT_SCENARIO;
  if (findScenario(name) === undefined) {
    throw new UsageError(`unknown scenario "${name}": run "vtpreflight demo --list" for the scenarios`);
  }
  if (
    opts.shards !== undefined &&
    (!Number.isInteger(opts.shards) || opts.shards < MIN_SHARDS || opts.shards > MAX_SHARDS)
  ) {
    throw new UsageError(`invalid --shards ${String(opts.shards)}: use an integer from ${MIN_SHARDS} to ${MAX_SHARDS}`);
  }
  // With --output and no --format, the file's extension names the format (as for check).
  const format = opts.format ?? (opts.output !== undefined ? undefined : 'text');
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`invalid --format "${format}": use one of ${FORMATS.join(', ')}`);
  const rttMs = opts.rtt ?? DEFAULT_DEMO_RTT_MS;
  const { io } = opts;

  const clock = opts.clock ?? Date.now;
  const generate = (): SimCluster =>
    generateScenario(name, {
      now: clock(),
      seed: opts.seed ?? 1,
      ...(opts.shards !== undefined ? { shards: opts.shards } : {}),
    });
  let sim: SimCluster;
  try {
    sim = generate();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  io.stderr(describeCluster(sim, rttMs, opts.jitter ?? 0));
  const t0 = performance.now();
  const running = await startSimCluster(sim, { rttMs, jitterMs: opts.jitter ?? 0 });
  if (opts.serve !== undefined && opts.serve !== false) {
    // Keep the heartbeats current: once now (the cluster took a moment to start), then every second, or ten times
    // as long as a generation takes (a 256-shard scenario takes about a second to generate on a slow machine).
    let timer: NodeJS.Timeout | undefined;
    const heartbeat = () => {
      const t0 = performance.now();
      running.refresh(generate());
      timer = setTimeout(heartbeat, Math.max(DEMO_HEARTBEAT_MS, 10 * (performance.now() - t0)));
      timer.unref();
    };
    heartbeat();
    try {
      io.stdout(`${running.vtctld}\n`);
      io.stderr(describeFaults(sim));
      io.stderr(
        `vtpreflight demo: serving until Ctrl-C. Try:\n` +
          `  vtpreflight check --vtctld ${running.vtctld} --mysql-user vtpreflight-demo\n` +
          `  vtpreflight check --vtctld ${running.vtctld} --mysql-user vtpreflight-demo --only stream-error --format json\n` +
          `  vtpreflight snapshot --vtctld ${running.vtctld} --mysql-user vtpreflight-demo --output demo-snapshot.json\n`,
      );
      await (opts.serve === true ? untilSignal() : opts.serve.until());
    } finally {
      clearTimeout(timer);
      await running.stop();
    }
    io.stderr('vtpreflight demo: stopped the simulated cluster\n');
    return 0;
  }
  let code: number;
  try {
    code = await runCheckArgv(
      [
        'check',
        '--vtctld',
        running.vtctld,
        ...(format !== undefined ? ['--format', format] : []),
        ...(opts.output !== undefined ? ['--output', opts.output] : []),
        ...(opts.verbose === true ? ['--verbose'] : []),
        ...(opts.action !== undefined ? ['--action', opts.action] : []),
        '--mysql-user',
        'vtpreflight-demo',
      ],
      { ...io, env: hermeticEnv(io.env) },
    );
  } finally {
    await running.stop();
  }
  io.stderr(describeFaults(sim));
  const verdict =
    code === 0
      ? 'check exited 0 (nothing blocks the cutover)'
      : code === 1
        ? 'check exited 1 (findings block the cutover)'
        : `check exited ${code} (it could not do its job)`;
  const exit = opts.exitCode === true || code === 2 ? code : 0;
  const because =
    exit === code ? '' : `; the demo exits ${exit}: it is a demo, not a gate (--exit-code returns check's)`;
  io.stderr(`vtpreflight demo: ${verdict} in ${formatDuration(performance.now() - t0)}${because}\n`);
  return exit;
}

/** Resolves on the first SIGINT or SIGTERM (the serving demo's way to stop cleanly). */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Flags of `vtpreflight demo`, as commander hands them over (strings, unvalidated). */
export interface DemoFlags {
  readonly scenario?: string;
  readonly shards?: string;
  readonly list?: boolean;
  readonly rtt?: string;
  readonly jitter?: string;
  readonly format?: string;
  readonly output?: string;
  readonly seed?: string;
  readonly exitCode?: boolean;
  readonly verbose?: boolean;
  readonly serve?: boolean;
  readonly action?: string;
}

/** The actions `demo --action` passes to check: every one but create, which needs the workflow's parameters. */
const DEMO_ACTIONS = ACTIONS.filter((a) => a !== 'create');

const integer = (text: string, flag: string): number => {
  if (!/^\d+$/.test(text)) throw new UsageError(`invalid ${flag} "${text}": use a whole number`);
  return Number(text);
};

/** The `demo` command: validates its flags (UsageError → exit 2) and runs {@link runDemo}, or lists the scenarios. */
export async function runDemoCommand(flags: DemoFlags, io: CliIo): Promise<number> {
  if (flags.list === true) {
    io.stdout(renderScenarioList());
    return 0;
  }
  if (flags.action !== undefined && !(DEMO_ACTIONS as readonly string[]).includes(flags.action))
    throw new UsageError(
      `invalid --action "${flags.action}": use ${DEMO_ACTIONS.slice(0, -1).join(', ')} or ${DEMO_ACTIONS.at(-1)} (create needs the parameters of a workflow the scenario does not have)`,
    );
  const duration = (text: string | undefined, flag: string): number | undefined => {
    if (text === undefined) return undefined;
    try {
      return parseDuration(text, flag);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  };
  const rtt = duration(flags.rtt, '--rtt');
  const jitter = duration(flags.jitter, '--jitter');
  return runDemo({
    io,
    ...(flags.scenario !== undefined ? { scenario: flags.scenario } : {}),
    ...(flags.shards !== undefined ? { shards: integer(flags.shards, '--shards') } : {}),
    ...(rtt !== undefined ? { rtt } : {}),
    ...(jitter !== undefined ? { jitter } : {}),
    ...(flags.format !== undefined ? { format: flags.format } : {}),
    ...(flags.output !== undefined ? { output: flags.output } : {}),
    ...(flags.seed !== undefined ? { seed: integer(flags.seed, '--seed') } : {}),
    ...(flags.exitCode === true ? { exitCode: true } : {}),
    ...(flags.verbose === true ? { verbose: true } : {}),
    ...(flags.action !== undefined ? { action: flags.action } : {}),
    ...(flags.serve === true ? { serve: true } : {}),
  });
}

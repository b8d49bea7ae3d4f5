/**
 * Scale benchmark: the real `vtpreflight check` against simulated clusters of 64, 256 and 1,024 shards (Reshard
 * N → 2N, with the Materialize and reference-table workflows that write into the keyspace) and a 256 × 256
 * Materialize (65,536 streams), over loopback sockets with a simulated round-trip time (default 2 ms) on every gRPC
 * call and MySQL round trip.
 *
 * Per configuration this process generates the scenario and serves it (`startSimCluster`); each measured run is a
 * child process, so its peak RSS (`process.resourceUsage().maxRSS`) is the tool's alone:
 * - `check`: `main(['check', …])` exactly as the CLI runs it (JSON report, `--quiet`), timed from the call to the
 *   exit code (module loading excluded);
 * - `lower bound`: `lower-bound.ts` replaying the round trips the first (warm-up) run recorded, at the same
 *   concurrency, decoding every answer (gRPC with the tool's deserializers, MySQL rows by mysql2) and checking
 *   nothing: the floor of any client that reads what `check` reads;
 * - `minimal`: the minimal client (`buildMinimalPlan`): the recorded gRPC calls, and per primary one login and one
 *   query (the read-only SET and the vreplication read).
 * Runs alternate check / lower bound / minimal; the medians of `runs` (default 3) are reported, with both ratios and
 * the round trips of check and of the minimal client. The warm-up
 * run also fills the simulator's answer caches, so every measured run sees the same server.
 *
 * `--max-lag 1h` is passed to `check`: the simulated streams were caught up when the scenario was generated, and the
 * largest configuration takes long enough that a 30 s lag limit would start reporting the benchmark's own clock.
 *
 * Run: `node dist/bench/scale.js [--json] [--runs N] [--rtt 2ms] [--jitter 0ms] [--concurrency N] [--only
 * reshard:1024,…] [--profile DIR]` (`--profile` writes one CPU profile per measured check and minimal-client child
 * into DIR), or through `runScaleBench` from the bench entry.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseDuration } from '../src/duration.js';
import { DEFAULT_CONCURRENCY } from '../src/engine/options.js';
import { startSimCluster } from '../src/sim/cluster.js';
import { generateScenario } from '../src/sim/scenario.js';
import { buildMinimalPlan, buildPlan, countRoundTrips, runLowerBound, type RoundTripPlan } from './lower-bound.js';

/** One benchmark configuration. */
export interface ScaleConfig {
  readonly scenario: 'reshard' | 'materialize';
  /** Reshard: source shards (targets are twice as many). Materialize: shards on each side. */
  readonly shards: number;
}

/**
 * The default configurations (the performance goals of docs/performance.md): Reshard 64, 256 and 1,024 → 2N, and
 * Materialize 256 × 256 (a few minutes on an idle 2-core machine).
 */
export const SCALE_CONFIGS: readonly ScaleConfig[] = [
  { scenario: 'reshard', shards: 64 },
  { scenario: 'reshard', shards: 256 },
  { scenario: 'reshard', shards: 1024 },
  { scenario: 'materialize', shards: 256 },
];

/** One line of `--json` output (medians). */
export interface ScaleResult {
  readonly scenario: string;
  readonly shards: number;
  readonly streams: number;
  readonly wallMs: number;
  readonly lowerBoundMs: number;
  readonly ratio: number;
  /** The minimal client: the same gRPC calls, one login and one query per primary. */
  readonly minimalMs: number;
  /** wall / minimal client. */
  readonly ratioMinimal: number;
  /** gRPC calls + MySQL logins + MySQL queries of `check`, and of the minimal client. */
  readonly roundTrips: { readonly check: number; readonly minimal: number };
  readonly peakRssMb: number;
  /** CPU time (user + system) of check and of the minimal client: steadier than wall time on a shared machine. */
  readonly cpuMs: number;
  readonly minimalCpuMs: number;
  /** check CPU / minimal client CPU. */
  readonly cpuRatioMinimal: number;
  /** CPU time of the replay lower bound, and check CPU / it. */
  readonly lowerBoundCpuMs: number;
  readonly cpuRatio: number;
  /** Peak RSS of the minimal client (the same process kind, decoding nothing). */
  readonly minimalPeakRssMb: number;
  /** The 1-minute load average when the configuration started and ended. */
  readonly load: readonly [number, number];
}

/** Options of {@link runScaleBench}. */
export interface ScaleBenchOptions {
  readonly json: boolean;
  readonly runs?: number;
  readonly rttMs?: number;
  /** Extra uniform random delay per call in `[0, jitterMs)` (default 0). */
  readonly jitterMs?: number;
  readonly concurrency?: number;
  readonly configs?: readonly ScaleConfig[];
  /** Directory for `--cpu-prof` output of the check children. */
  readonly profileDir?: string;
  /** Progress lines (human mode only); default stderr. */
  readonly log?: (line: string) => void;
}

interface ChildResult {
  readonly wallMs: number;
  /** CPU time of the child (user + system) over the same span: steadier than wall time on a shared machine. */
  readonly cpuMs: number;
  readonly peakRssMb: number;
  readonly exitCode?: number;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const round1 = (n: number) => Math.round(n * 10) / 10;

const SELF = fileURLToPath(import.meta.url);

/** Runs this file as a child in `mode`; resolves to the JSON it prints last. */
function child(
  mode: 'check' | 'lower-bound',
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...nodeArgs, SELF, '--child', mode, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(last) as ChildResult);
      } catch (e) {
        reject(
          new Error(
            `bench ${mode} child failed (${(e as Error).message}): ${err.trim().split('\n').slice(-3).join(' | ') || last}`,
          ),
        );
      }
    });
  });
}

/** Measures one configuration: a warm-up check that records the plan, then `runs` × (check, lower bound). */
interface Measured extends ScaleResult {
  readonly checkTrips: ReturnType<typeof countRoundTrips>;
  readonly exitCode: number;
}

async function measure(
  config: ScaleConfig,
  o: Required<Pick<ScaleBenchOptions, 'runs' | 'rttMs' | 'concurrency'>> & ScaleBenchOptions,
  log: (s: string) => void,
): Promise<Measured> {
  const load0 = loadavg()[0] ?? 0;
  const sim = generateScenario(config.scenario, { shards: config.shards, now: Date.now(), seed: 1 });
  const running = await startSimCluster(sim, { rttMs: o.rttMs, jitterMs: o.jitterMs ?? 0, record: true });
  const dir = mkdtempSync(join(tmpdir(), 'vtpreflight-bench-'));
  try {
    const checkArgs = [running.vtctld, String(o.concurrency)];
    const label = `${config.scenario} ${config.shards}`;
    // One profile per measured child, named by what it ran: `check-reshard-1024-1.cpuprofile`, `minimal-…`.
    const profile = (who: string, run: number): string[] =>
      o.profileDir === undefined
        ? []
        : [
            '--cpu-prof',
            '--cpu-prof-dir',
            o.profileDir,
            '--cpu-prof-name',
            `${who}-${config.scenario}-${config.shards}-${run}.cpuprofile`,
          ];
    log(
      `${label}: ${sim.stats.primaries} primaries, ${sim.stats.tablets} tablets, ${sim.stats.streams} streams; warm-up`,
    );
    const warm = await child('check', checkArgs);
    const plan: RoundTripPlan = buildPlan(running.recording(), running.vtctld, running.tablets.host, o.concurrency);
    const planFile = join(dir, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const portTargets = new Map<number, { sidecarDb: string; dbName: string }>();
    for (const [alias, port] of running.tablets.ports) {
      const sc = sim.sidecars[alias];
      if (sc !== undefined) portTargets.set(port, { sidecarDb: sc.sidecarDb, dbName: sc.dbName });
    }
    const minimal = buildMinimalPlan(plan, (port) => {
      const t = portTargets.get(port);
      if (t === undefined) throw new Error(`bench: no primary listens on port ${port}`);
      return t;
    });
    const minimalFile = join(dir, 'minimal.json');
    writeFileSync(minimalFile, JSON.stringify(minimal));
    const checks: ChildResult[] = [];
    const bounds: ChildResult[] = [];
    const minimals: ChildResult[] = [];
    for (let i = 0; i < o.runs; i++) {
      running.clearRecording();
      checks.push(await child('check', checkArgs, profile('check', i + 1)));
      running.clearRecording();
      bounds.push(await child('lower-bound', [planFile]));
      running.clearRecording();
      minimals.push(await child('lower-bound', [minimalFile], profile('minimal', i + 1)));
      log(
        `${label}: run ${i + 1}/${o.runs}: check ${Math.round(checks[i]!.wallMs)} ms (CPU ${Math.round(checks[i]!.cpuMs)}), lower bound ${Math.round(bounds[i]!.wallMs)} ms (CPU ${Math.round(bounds[i]!.cpuMs)}), minimal ${Math.round(minimals[i]!.wallMs)} ms (CPU ${Math.round(minimals[i]!.cpuMs)})`,
      );
    }
    const wallMs = median(checks.map((r) => r.wallMs));
    const lowerBoundMs = median(bounds.map((r) => r.wallMs));
    const minimalMs = median(minimals.map((r) => r.wallMs));
    const trips = countRoundTrips(plan);
    const minTrips = countRoundTrips(minimal);
    const total = (t: typeof trips) => t.grpc + t.connections + t.statements;
    const cpuMs = median(checks.map((r) => r.cpuMs));
    const minimalCpuMs = median(minimals.map((r) => r.cpuMs));
    return {
      scenario: config.scenario,
      shards: config.shards,
      streams: sim.stats.streams,
      wallMs: Math.round(wallMs),
      lowerBoundMs: Math.round(lowerBoundMs),
      ratio: Math.round((wallMs / lowerBoundMs) * 100) / 100,
      minimalMs: Math.round(minimalMs),
      ratioMinimal: Math.round((wallMs / minimalMs) * 100) / 100,
      roundTrips: { check: total(trips), minimal: total(minTrips) },
      peakRssMb: round1(median(checks.map((r) => r.peakRssMb))),
      cpuMs: Math.round(cpuMs),
      minimalCpuMs: Math.round(minimalCpuMs),
      cpuRatioMinimal: Math.round((cpuMs / minimalCpuMs) * 100) / 100,
      lowerBoundCpuMs: Math.round(median(bounds.map((r) => r.cpuMs))),
      cpuRatio: Math.round((cpuMs / median(bounds.map((r) => r.cpuMs))) * 100) / 100,
      minimalPeakRssMb: round1(median(minimals.map((r) => r.peakRssMb))),
      load: [round1(load0), round1(loadavg()[0] ?? 0)],
      checkTrips: trips,
      exitCode: warm.exitCode ?? -1,
    };
  } finally {
    running.clearRecording();
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs every configuration and prints a table (or one JSON object per line with `json`). */
export async function runScaleBench(opts: ScaleBenchOptions): Promise<ScaleResult[]> {
  const o = {
    ...opts,
    runs: opts.runs ?? 3,
    rttMs: opts.rttMs ?? 2,
    concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
  };
  const log = opts.json ? () => {} : (opts.log ?? ((s: string) => process.stderr.write(`${s}\n`)));
  const results: ScaleResult[] = [];
  const rows: Measured[] = [];
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  const loadBefore = load();
  for (const config of opts.configs ?? SCALE_CONFIGS) {
    const r = await measure(config, o, log);
    rows.push(r);
    const line: ScaleResult = {
      scenario: r.scenario,
      shards: r.shards,
      streams: r.streams,
      wallMs: r.wallMs,
      lowerBoundMs: r.lowerBoundMs,
      ratio: r.ratio,
      minimalMs: r.minimalMs,
      ratioMinimal: r.ratioMinimal,
      roundTrips: r.roundTrips,
      peakRssMb: r.peakRssMb,
      cpuMs: r.cpuMs,
      minimalCpuMs: r.minimalCpuMs,
      cpuRatioMinimal: r.cpuRatioMinimal,
      lowerBoundCpuMs: r.lowerBoundCpuMs,
      cpuRatio: r.cpuRatio,
      minimalPeakRssMb: r.minimalPeakRssMb,
      load: r.load,
    };
    results.push(line);
    if (opts.json) console.log(JSON.stringify(line));
  }
  if (!opts.json) {
    console.log(
      `Scale: real \`check\` vs the minimal client (same gRPC calls, one login and one query per primary) and the replay of check's own round trips (no checking); ${o.rttMs} ms simulated RTT, --concurrency ${o.concurrency}, median of ${o.runs}`,
    );
    console.log(
      `${cpus().length} CPUs, load average ${loadBefore} before, ${load()} after (other processes share the machine: compare CPU ms when it is busy)`,
    );
    const header = [
      'scenario',
      'streams',
      'round trips check/minimal',
      'wall ms',
      'minimal ms',
      'ratio minimal',
      'replay ms',
      'ratio replay',
      'CPU ms',
      'minimal CPU ms',
      'CPU ratio',
      'peak RSS MB',
      'minimal RSS MB',
      'load',
    ];
    const table = rows.map((r) => [
      r.scenario === 'reshard' ? `Reshard ${r.shards}→${2 * r.shards}` : `Materialize ${r.shards}×${r.shards}`,
      String(r.streams),
      `${r.roundTrips.check}/${r.roundTrips.minimal}`,
      String(r.wallMs),
      String(r.minimalMs),
      r.ratioMinimal.toFixed(2),
      String(r.lowerBoundMs),
      r.ratio.toFixed(2),
      String(r.cpuMs),
      String(r.minimalCpuMs),
      r.cpuRatioMinimal.toFixed(2),
      r.peakRssMb.toFixed(1),
      r.minimalPeakRssMb.toFixed(1),
      `${r.load[0].toFixed(1)}→${r.load[1].toFixed(1)}`,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
    const fmt = (cells: readonly string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log(fmt(header));
    for (const row of table) console.log(fmt(row));
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Child entry points.

function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

async function childCheck(vtctld: string, concurrency: string): Promise<ChildResult> {
  const { main } = await import('../src/cli.js');
  const io = { stdout: () => {}, stderr: () => {}, env: {}, stdoutIsTTY: false, stderrIsTTY: false };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const exitCode = await main(
    [
      'check',
      '--vtctld',
      vtctld,
      '--format',
      'json',
      '--quiet',
      '--concurrency',
      concurrency,
      '--max-lag',
      '1h',
      '--mysql-user',
      'vtpreflight',
    ],
    io,
  );
  const wallMs = performance.now() - t0;
  return { wallMs, cpuMs: cpuSince(cpu0), exitCode, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

async function childLowerBound(planFile: string): Promise<ChildResult> {
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as RoundTripPlan;
  const cpu0 = process.cpuUsage();
  const wallMs = await runLowerBound(plan);
  return { wallMs, cpuMs: cpuSince(cpu0), peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

function parseConfigs(text: string): ScaleConfig[] {
  return text.split(',').map((item) => {
    const [scenario, shards] = item.split(':');
    if ((scenario !== 'reshard' && scenario !== 'materialize') || !/^\d+$/.test(shards ?? ''))
      throw new Error(`bad --only item "${item}": use reshard:N or materialize:N`);
    return { scenario, shards: Number(shards) };
  });
}

/** Parses this file's command line (also used by the bench entry for pass-through flags). */
export function scaleOptionsFromArgv(argv: readonly string[]): ScaleBenchOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const runs = value('--runs');
  const rtt = value('--rtt');
  const jitter = value('--jitter');
  const concurrency = value('--concurrency');
  const only = value('--only');
  const profile = value('--profile');
  return {
    json: argv.includes('--json'),
    ...(runs !== undefined ? { runs: Number(runs) } : {}),
    ...(rtt !== undefined ? { rttMs: parseDuration(rtt, '--rtt') } : {}),
    ...(jitter !== undefined ? { jitterMs: parseDuration(jitter, '--jitter') } : {}),
    ...(concurrency !== undefined ? { concurrency: Number(concurrency) } : {}),
    ...(only !== undefined ? { configs: parseConfigs(only) } : {}),
    ...(profile !== undefined ? { profileDir: profile } : {}),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    const result = argv[1] === 'check' ? await childCheck(argv[2]!, argv[3]!) : await childLowerBound(argv[2]!);
    console.log(JSON.stringify(result));
  } else {
    await runScaleBench(scaleOptionsFromArgv(argv));
  }
}

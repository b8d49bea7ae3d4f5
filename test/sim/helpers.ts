/**
 * Shared by the simulator tests: run the real CLI in-process against a running simulated cluster, and read the
 * JSON report it printed.
 */
import assert from 'node:assert/strict';
import { main } from '../../src/cli.js';
import { startSimCluster, type RunningSimCluster, type SimClusterOptions } from '../../src/sim/cluster.js';
import type { InjectedFault, SimCluster } from '../../src/sim/types.js';
import type { Finding } from '../../src/engine/check.js';
import type { Report } from '../../src/engine/report.js';

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `vtpreflight …argv` in this process with captured output and an empty environment. */
export async function runCli(argv: readonly string[]): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
  });
  return { code, stdout, stderr };
}

/** The JSON report (docs/report-contract.md), as the engine types it. */
export type JsonReport = Report;
export type JsonFinding = Finding;

/** Serves `sim`, runs `check --format json` against it, stops; returns the report and the run. */
export async function checkSim(
  sim: SimCluster,
  extra: readonly string[] = [],
  opts: SimClusterOptions = {},
): Promise<{ report: JsonReport; run: RunResult; cluster: RunningSimCluster }> {
  const cluster = await startSimCluster(sim, opts);
  try {
    const run = await runCli([
      'check',
      '--vtctld',
      cluster.vtctld,
      '--format',
      'json',
      '--quiet',
      '--mysql-user',
      'vtpreflight',
      ...extra,
    ]);
    assert.ok(run.stdout.trim().startsWith('{'), `expected a JSON report (exit ${run.code}); stderr:\n${run.stderr}`);
    return { report: JSON.parse(run.stdout) as JsonReport, run, cluster };
  } finally {
    await cluster.stop();
  }
}

/** Does `f` report at the fault's place? Keyspace always; shard, workflow and tablet when both sides name one. */
export function locatedAt(f: JsonFinding, fault: InjectedFault): boolean {
  if (f.keyspace !== fault.keyspace) return false;
  if (f.shard !== undefined && f.shard !== fault.shard) return false;
  if (f.workflow !== undefined && fault.workflow !== undefined && f.workflow !== fault.workflow) return false;
  return true;
}

/** Checks that ran (a check that throws — e.g. one not implemented yet — has status `error`). */
export function ranChecks(report: JsonReport): Set<string> {
  return new Set(report.checks.filter((c) => c.status !== 'error').map((c) => c.id));
}

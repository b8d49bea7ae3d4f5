/**
 * The real-Vitess suite's hands on a cluster started by `scripts/vitess-cluster.sh`: vtctldclient, SQL on a
 * tablet, tablets added and stopped, and the built vtpreflight CLI. Every call is bounded in time.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RealOutcome } from './compare.js';

export interface ClusterEnv {
  readonly dir: string;
  readonly release: number;
  /** e.g. `24.0.4` */
  readonly version: string;
  readonly bin: string;
  readonly vtctld: string;
  readonly pfUser: string;
  readonly pfPassword: string;
}

export function readClusterEnv(dir: string): ClusterEnv {
  const env: Record<string, string> = {};
  for (const line of readFileSync(join(dir, 'cluster.env'), 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  const need = (k: string): string => {
    const v = env[k];
    if (v === undefined || v === '') throw new Error(`${dir}/cluster.env lacks ${k}`);
    return v;
  };
  return {
    dir,
    release: Number(need('VT_RELEASE')),
    version: need('VT_VERSION'),
    bin: need('VT_BIN'),
    vtctld: need('VTCTLD'),
    pfUser: need('PF_USER'),
    pfPassword: need('PF_PASSWORD'),
  };
}

export function run(cmd: string, args: readonly string[], timeoutMs: number, env?: NodeJS.ProcessEnv): RealOutcome {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: env ?? process.env,
    maxBuffer: 64 << 20,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code !== 'ETIMEDOUT') throw r.error;
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export const sleep = (ms: number) => new Promise<void>((res) => setTimeout(res, ms));

export const alias = (uid: number) => `zone1-${String(uid).padStart(10, '0')}`;

export class Cluster {
  constructor(
    readonly env: ClusterEnv,
    readonly repo: string,
  ) {}

  get release(): number {
    return this.env.release;
  }

  /** vtctldclient against the cluster's vtctld, bounded (2 minutes by default). */
  vtctl(args: readonly string[], timeoutMs = 120_000): RealOutcome {
    return run(join(this.env.bin, 'vtctldclient'), ['--server', this.env.vtctld, ...args], timeoutMs);
  }

  /** vtctldclient that must succeed (a state's setup or cleanup). */
  must(args: readonly string[], timeoutMs = 120_000): string {
    const out = this.vtctl(args, timeoutMs);
    if (out.code !== 0) {
      throw new Error(`vtctldclient ${args.join(' ')} failed (${out.code}): ${(out.stderr || out.stdout).trim()}`);
    }
    return out.stdout;
  }

  /** SQL on a tablet's MySQL as its DBA user (vtctldclient ExecuteFetchAsDBA). */
  sql(uid: number, sql: string): string {
    return this.must(['ExecuteFetchAsDBA', alias(uid), sql]);
  }

  /** The workflow's streams as GetWorkflows shows them ([] when the workflow does not exist). */
  streams(keyspace: string, workflow: string): { shard: string; id: number; state: string; message: string }[] {
    const out = this.vtctl(['GetWorkflows', keyspace, '--show-all']);
    if (out.code !== 0) return [];
    const parsed = JSON.parse(out.stdout || '{}') as {
      workflows?: {
        name: string;
        shard_streams?: Record<
          string,
          { streams?: { id: number | string; shard: string; state: string; message?: string }[] }
        >;
      }[];
    };
    const wf = parsed.workflows?.find((w) => w.name === workflow);
    const res: { shard: string; id: number; state: string; message: string }[] = [];
    for (const ss of Object.values(wf?.shard_streams ?? {})) {
      for (const s of ss.streams ?? []) {
        res.push({ shard: s.shard, id: Number(s.id), state: s.state, message: s.message ?? '' });
      }
    }
    return res;
  }

  /** Bounded wait until every stream of the workflow is in `state` (Running: copy done and replicating). */
  async waitStreams(keyspace: string, workflow: string, state: string, seconds = 90): Promise<void> {
    const deadline = Date.now() + seconds * 1000;
    let last = '';
    for (;;) {
      const ss = this.streams(keyspace, workflow);
      last = ss.map((s) => `${s.shard}#${s.id}:${s.state}${s.message ? ` (${s.message})` : ''}`).join(', ');
      if (ss.length > 0 && ss.every((s) => s.state === state)) return;
      if (Date.now() > deadline)
        throw new Error(`${keyspace}.${workflow}: streams not all ${state} in ${seconds} s: ${last}`);
      await sleep(1000);
    }
  }

  /** Bounded wait until the workflow has no streams left. */
  async waitGone(keyspace: string, workflow: string, seconds = 60): Promise<void> {
    const deadline = Date.now() + seconds * 1000;
    while (this.streams(keyspace, workflow).length > 0) {
      if (Date.now() > deadline) throw new Error(`${keyspace}.${workflow} still has streams after ${seconds} s`);
      await sleep(1000);
    }
  }

  private script(args: readonly string[], timeoutMs: number): void {
    const out = run(join(this.repo, 'scripts/vitess-cluster.sh'), [...args, '--dir', this.env.dir], timeoutMs);
    if (out.code !== 0) throw new Error(`vitess-cluster.sh ${args.join(' ')} failed: ${out.stderr.trim()}`);
  }

  /** One more primary-only shard tablet (MariaDB + vttablet + PlannedReparentShard). */
  startTablet(keyspace: string, shard: string, uid: number): void {
    this.script(['tablet', '--keyspace', keyspace, '--shard', shard, '--uid', String(uid)], 240_000);
  }

  /** Stops a tablet by pid; its tablet record stays until the shard is deleted. */
  stopTablet(uid: number): void {
    this.script(['stop-tablet', '--uid', String(uid)], 60_000);
  }

  /** vtpreflight's JSON report for one action, with the cluster's least-privilege MySQL user. */
  vtpreflight(args: readonly string[]): { report: PfReport; raw: RealOutcome } {
    const raw = run(
      process.execPath,
      [
        // VTPREFLIGHT_CLI: another build of vtpreflight to judge (e.g. a branch's dist/src/cli.js).
        process.env.VTPREFLIGHT_CLI ?? join(this.repo, 'dist/src/cli.js'),
        'check',
        '--vtctld',
        this.env.vtctld,
        '--mysql-user',
        this.env.pfUser,
        '--format',
        'json',
        '--quiet',
        ...args,
      ],
      180_000,
      { ...process.env, VTPREFLIGHT_MYSQL_PASSWORD: this.env.pfPassword },
    );
    let report: PfReport;
    try {
      report = JSON.parse(raw.stdout) as PfReport;
    } catch {
      throw new Error(`vtpreflight printed no JSON report (exit ${raw.code}): ${raw.stderr.trim().slice(0, 2000)}`);
    }
    return { report, raw };
  }
}

/** The parts of vtpreflight's JSON report (docs/report-contract.md, version 1) the suite reads. */
export interface PfReport {
  readonly workflows: readonly {
    readonly keyspace: string;
    readonly workflow: string;
    readonly verdict: 'blocked' | 'unverified' | 'at-risk' | 'ready';
    readonly blockedBy: readonly string[];
    readonly unverifiedBy: readonly { check: string; part?: string; why: string }[];
    readonly vitessWouldSay: string | null;
    readonly evidence?: readonly { check: string; reason: string; severity: string }[];
  }[];
  readonly findings: readonly { check: string; reason?: string; severity: string; message: string }[];
  readonly vitess?: { judgedAgainst: string; source: string };
}

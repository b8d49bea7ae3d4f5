/**
 * Serves a {@link SimCluster} over real loopback sockets: the fake vtctld (`vtctld-server.ts`, gRPC
 * `vtctlservice.Vtctld`) and one MySQL-protocol tablet per primary (`tablets.ts`), with the same simulated round-trip
 * time on both. The tablet records vtctld hands out carry the ports the tablets listen on, so vtpreflight finds
 * every primary the way it finds a real one: `mysql_hostname:mysql_port` from `GetTablets`.
 */
import type { TabletRecord } from '../readout.js';
import type { SimCluster, SimSidecar } from './types.js';
import { startSimTablets, type SimTablets, type TabletConnection } from './tablets.js';
import { answerSql, forgetSidecarIndex } from './sidecar-sql.js';
import { startFakeVtctld, type FakeFetchResult, type FakeVtctld, type FakeVtctldCall } from './vtctld-server.js';

/** Options of {@link startSimCluster}. */
export interface SimClusterOptions {
  /** Simulated round-trip time per call, gRPC and MySQL alike (default 0). */
  readonly rttMs?: number;
  /** Extra uniform random delay per call in `[0, jitterMs)` (default 0). */
  readonly jitterMs?: number;
  /** Record every gRPC call and MySQL statement (default false; the benchmark replays them as its lower bound). */
  readonly record?: boolean;
  /** MySQL credentials the tablets require (default: any). */
  readonly mysqlAuth?: { readonly user: string; readonly password: string };
}

/** Everything one run sent to the simulated cluster. */
export interface SimRecording {
  readonly grpc: readonly FakeVtctldCall[];
  readonly mysql: readonly TabletConnection[];
}

/** A running simulated cluster. */
export interface RunningSimCluster {
  /** `host:port` of the fake vtctld: what `--vtctld` takes. */
  readonly vtctld: string;
  /** The served cluster, with the tablet records' MySQL ports filled in. */
  readonly cluster: SimCluster;
  readonly tablets: SimTablets;
  readonly fake: FakeVtctld;
  /** What was sent since the start or the last {@link clearRecording} (with `record`). */
  recording(): SimRecording;
  clearRecording(): void;
  setLatency(rttMs: number, jitterMs?: number): void;
  /**
   * Serves the clock-dependent state of `next` from now on: the same scenario generated again at a later clock
   * (same name, seed and shards), so the streams' timestamps, heartbeats and lags are current again. What does not
   * depend on the clock (topology, ports, faults) stays as served.
   */
  refresh(next: SimCluster): void;
  stop(): Promise<void>;
}

/** The sidecar tables whose rows carry timestamps (a mutable view: {@link RunningSimCluster.refresh} swaps them). */
type SidecarTables = {
  -readonly [K in 'vreplication' | 'copyState' | 'vreplicationLog' | 'reshardingJournal']: SimSidecar[K];
};

/** Starts the simulated cluster; stop it with {@link RunningSimCluster.stop}. */
export async function startSimCluster(sim: SimCluster, opts: SimClusterOptions = {}): Promise<RunningSimCluster> {
  const rttMs = opts.rttMs ?? 0;
  const jitterMs = opts.jitterMs ?? 0;
  const record = opts.record ?? false;
  const tablets = await startSimTablets(sim.sidecars, sim.unreachable, {
    rttMs,
    jitterMs,
    record,
    ...(opts.mysqlAuth ? { auth: opts.mysqlAuth } : {}),
  });
  const unreachable = new Set(sim.unreachable);
  const portOf = (t: TabletRecord): number => {
    if (unreachable.has(t.alias)) return tablets.refusedPort;
    return tablets.ports.get(t.alias) ?? tablets.replicaPort;
  };
  const cluster: SimCluster = {
    ...sim,
    tablets: sim.tablets.map((t) => ({ ...t, mysqlHostname: tablets.host, mysqlPort: portOf(t) })),
  };
  // `--via vtctld`: vtctld runs the statement on the tablet's MySQL, here the sidecar the MySQL port answers from.
  const executeFetchAsDBA = (alias: string, query: string): FakeFetchResult => {
    const sidecar = sim.sidecars[alias];
    if (sidecar === undefined)
      throw Object.assign(new Error(`tablet ${alias} has no simulated MySQL`), { code: 'NOT_FOUND' });
    if (unreachable.has(alias))
      throw Object.assign(new Error(`vttablet: rpc error: code = Unavailable desc = connection refused`), {
        code: 'UNAVAILABLE',
      });
    const a = answerSql(sidecar, query, { readOnly: true });
    if (a.kind === 'error')
      throw Object.assign(new Error(a.message), { sqlMessage: a.message, errno: a.errno, sqlState: a.sqlState });
    if (a.kind === 'ok') return { fields: [], rows: [] };
    return {
      fields: a.columns.map((c) => c.name),
      rows: a.rows.map((r) => r.map((v) => (v === null ? null : String(v)))),
    };
  };
  let fake: FakeVtctld;
  try {
    fake = await startFakeVtctld(cluster, { latencyMs: rttMs, jitterMs, recordCalls: record, executeFetchAsDBA });
  } catch (err) {
    await tablets.stop();
    throw err;
  }
  return {
    vtctld: fake.address,
    cluster,
    tablets,
    fake,
    recording: () => ({ grpc: [...fake.calls], mysql: [...tablets.connections] }),
    clearRecording() {
      fake.calls.length = 0;
      tablets.connections.length = 0;
    },
    setLatency(ms, jitter = 0) {
      fake.setLatency(ms, jitter);
      tablets.setLatency(ms, jitter);
    },
    refresh(next) {
      // The tablets answer from these very sidecar objects: swapping their tables is enough.
      for (const [alias, fresh] of Object.entries(next.sidecars)) {
        const served = sim.sidecars[alias] as SidecarTables | undefined;
        if (served === undefined) continue;
        served.vreplication = fresh.vreplication;
        served.copyState = fresh.copyState;
        served.vreplicationLog = fresh.vreplicationLog;
        served.reshardingJournal = fresh.reshardingJournal;
        forgetSidecarIndex(served as SimSidecar);
      }
      tablets.forgetAnswers();
      fake.setCluster({ ...cluster, workflows: next.workflows, fullStatus: next.fullStatus });
    },
    async stop() {
      await Promise.all([fake.stop(), tablets.stop()]);
    },
  };
}

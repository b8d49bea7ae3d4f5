/**
 * Serves a {@link SimCluster} over real loopback sockets: the fake vtctld (`vtctld-server.ts`, gRPC
 * `vtctlservice.Vtctld`) and one MySQL-protocol tablet per primary (`tablets.ts`), with the same simulated round-trip
 * time on both. The tablet records vtctld hands out carry the ports the tablets listen on, so vtpreflight finds
 * every primary the way it finds a real one: `mysql_hostname:mysql_port` from `GetTablets`.
 */
import type { TabletRecord } from '../readout.js';
import type { SimCluster } from './types.js';
import { startSimTablets, type SimTablets, type TabletConnection } from './tablets.js';
import { startFakeVtctld, type FakeVtctld, type FakeVtctldCall } from './vtctld-server.js';

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
  stop(): Promise<void>;
}

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
  let fake: FakeVtctld;
  try {
    fake = await startFakeVtctld(cluster, { latencyMs: rttMs, jitterMs, recordCalls: record });
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
    async stop() {
      await Promise.all([fake.stop(), tablets.stop()]);
    },
  };
}

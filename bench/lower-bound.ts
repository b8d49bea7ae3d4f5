/**
 * The benchmark's two reference clients, replaying the gRPC calls a real `check` made: one decodes what it reads,
 * the other nothing.
 *
 * The replay lower bound: a client that sends the same round trips a real `check` sent — the same gRPC
 * calls with the same request bytes, the same MySQL connections with the same statements in the same order — at the
 * same concurrency, decodes every answer (gRPC answers with the tool's own deserializers; mysql2 parses every row of
 * every result set) and does nothing else: no model, no checks, no report.
 *
 * The plan is what the simulated cluster recorded during a real run, so "the same number of round trips" holds by
 * construction. Dependencies a minimal client cannot avoid are kept: the topology calls first (they say which
 * keyspaces and primaries exist), then the per-keyspace shard and vschema calls, then everything else at once.
 * Statements on one MySQL connection stay in order (the protocol has one command in flight per connection), and one
 * connection holds one concurrency slot for its whole life, as it does in the collector.
 *
 * The minimal client ({@link buildMinimalPlan}): the same gRPC calls, and per primary one login and one statement,
 * the read-only SET and the `vreplication` read in one query: what any client that reads each primary's streams must
 * send at least. `check` is measured against it for round trips and wall time.
 */
import { Client, credentials } from '@grpc/grpc-js';
import mysql from 'mysql2';
import type { SimRecording } from '../src/sim/cluster.js';
import { vtctldServiceDefinition } from '../src/sources/protos.js';
import { SET_READ_ONLY_SQL } from '../src/sources/mysql.js';
import { formatSql, listSidecarStatements } from '../src/sources/sidecar.js';
import { createLimiter } from '../src/sources/limit.js';

/** What the lower-bound client replays. Plain JSON, written to a file for the child process. */
export interface RoundTripPlan {
  readonly vtctld: string;
  readonly concurrency: number;
  /** `wave`: 0 topology, 1 per-keyspace, 2 the rest. `request`: the serialized request, base64. */
  readonly grpc: readonly {
    readonly rpc: string;
    readonly path: string;
    readonly wave: 0 | 1 | 2;
    readonly request: string;
  }[];
  readonly mysql: readonly { readonly host: string; readonly port: number; readonly statements: readonly string[] }[];
  /** Decode every gRPC answer with the tool's deserializers (the replay lower bound); the minimal client does not. */
  readonly decode: boolean;
}

const WAVE: Readonly<Record<string, 0 | 1>> = {
  GetKeyspaces: 0,
  GetTablets: 0,
  GetRoutingRules: 0,
  GetShardRoutingRules: 0,
  FindAllShardsInKeyspace: 1,
  GetVSchema: 1,
};

/** Turns a recording of one run into a plan. */
export function buildPlan(rec: SimRecording, vtctld: string, host: string, concurrency: number): RoundTripPlan {
  const service = vtctldServiceDefinition();
  return {
    vtctld,
    concurrency,
    grpc: rec.grpc.map((c) => {
      const method = service[c.rpc];
      if (method === undefined) throw new Error(`lower bound: unknown RPC ${c.rpc}`);
      return {
        rpc: c.rpc,
        path: method.path,
        wave: WAVE[c.rpc] ?? 2,
        request: (method.requestSerialize(c.request) as Buffer).toString('base64'),
      };
    }),
    mysql: rec.mysql.map((m) => ({ host, port: m.port, statements: [...m.statements] })),
    decode: true,
  };
}

/** What the minimal client needs to know of one primary's port: its sidecar database and its schema. */
export interface MinimalTarget {
  readonly sidecarDb: string;
  readonly dbName: string;
}

/**
 * The minimal client's plan for a recorded run: its gRPC calls unchanged, and each recorded MySQL session cut to one
 * query, `SET SESSION TRANSACTION READ ONLY; SELECT * FROM <sidecar>.vreplication WHERE db_name = …` (the simulator
 * answers nothing before the read-only SET, so the SET rides along in the same round trip).
 */
export function buildMinimalPlan(plan: RoundTripPlan, targetOf: (port: number) => MinimalTarget): RoundTripPlan {
  return {
    ...plan,
    decode: false,
    mysql: plan.mysql.map((m) => {
      const t = targetOf(m.port);
      const read = listSidecarStatements(t.sidecarDb).find((q) => q.includes(' SELECT * FROM '));
      if (read === undefined) throw new Error('minimal client: the reader publishes no SELECT * statement');
      return { ...m, statements: [`${SET_READ_ONLY_SQL}; ${formatSql(read, [t.dbName])}`] };
    }),
  };
}

/** Number of round trips in a plan: gRPC calls, MySQL logins (connect + handshake) and statements. */
export function countRoundTrips(plan: RoundTripPlan): { grpc: number; connections: number; statements: number } {
  return {
    grpc: plan.grpc.length,
    connections: plan.mysql.length,
    statements: plan.mysql.reduce((n, m) => n + m.statements.length, 0),
  };
}

/** Replays a plan; resolves to the wall time in ms. Throws on the first failed call (a plan replays a healthy run). */
export async function runLowerBound(plan: RoundTripPlan): Promise<number> {
  const limit = createLimiter(plan.concurrency);
  const client = new Client(plan.vtctld, credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  const raw = (b: Buffer) => b;
  // The replay decodes each answer as `check` does (the same deserializers, the same proto-loader options); the minimal
  // client decodes nothing. mysql2 parses every row of both.
  const service = plan.decode ? vtctldServiceDefinition() : null;
  const decoderOf = (rpc: string): ((b: Buffer) => unknown) =>
    (service?.[rpc]?.responseDeserialize as ((b: Buffer) => unknown) | undefined) ?? raw;
  const call = (c: RoundTripPlan['grpc'][number]) =>
    limit(
      () =>
        new Promise<void>((resolve, reject) => {
          client.makeUnaryRequest(c.path, raw, decoderOf(c.rpc), Buffer.from(c.request, 'base64'), (err) =>
            err ? reject(new Error(`${c.rpc}: ${err.message}`)) : resolve(),
          );
        }),
    );
  const session = (m: RoundTripPlan['mysql'][number]) =>
    limit(async () => {
      const conn = mysql.createConnection({
        host: m.host,
        port: m.port,
        user: 'vtpreflight',
        password: '',
        charset: 'utf8mb4',
        supportBigNumbers: true,
        bigNumberStrings: true,
        dateStrings: true,
        jsonStrings: true,
        rowsAsArray: true,
        multipleStatements: true,
        maxPreparedStatements: 1,
      });
      // A statement that fails (a refused login, say) is still one round trip; the error is the plan's business.
      conn.on('error', () => {});
      try {
        for (const sql of m.statements) {
          await new Promise<void>((resolve) => conn.query(sql, () => resolve()));
        }
      } finally {
        conn.destroy();
      }
    });
  try {
    const t0 = performance.now();
    for (const wave of [0, 1] as const) await Promise.all(plan.grpc.filter((c) => c.wave === wave).map(call));
    await Promise.all([...plan.mysql.map(session), ...plan.grpc.filter((c) => c.wave === 2).map(call)]);
    return performance.now() - t0;
  } finally {
    client.close();
  }
}

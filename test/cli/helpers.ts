/**
 * Helpers for CLI tests: run `main(argv, io)` in-process with captured output and a controlled environment, write
 * snapshots from the fluent cluster builder, and stand up a live cluster for the collector: the fake vtctld
 * (`src/sim/vtctld-server.ts`, a real gRPC server) serving the builder's topology, with each primary's sidecar
 * tables in a real MariaDB of the test pool, read either directly (`--via mysql`) or through the fake vtctld's
 * ExecuteFetchAsDBA, which forwards the statement to that MariaDB (`--via vtctld`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { main, type CliIo } from '../../src/cli.js';
import type { Readout, TabletRecord, VReplicationRow } from '../../src/readout.js';
import {
  startFakeVtctld,
  type FakeFetchResult,
  type FakeVtctld,
  type FakeVtctldCluster,
  type FakeVtctldOptions,
} from '../../src/sim/vtctld-server.js';
import { writeSnapshot } from '../../src/sources/snapshot.js';
import { targetSchemaTables } from '../../src/sim/schema.js';
import type { TestPool } from '../harness/env.js';
import type { MariaDbInstance } from '../harness/mariadb.js';
import { type ClusterBuilder, SIDECAR_COLUMNS } from '../helpers/cluster.js';

/** What one CLI run produced. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process. `env` replaces the process environment entirely (tests never see the real one). */
export async function runCli(
  argv: readonly string[],
  o: {
    env?: NodeJS.ProcessEnv;
    stdoutIsTTY?: boolean;
    stderrIsTTY?: boolean;
    sleep?: CliIo['sleep'];
    now?: CliIo['now'];
    onStopSignal?: CliIo['onStopSignal'];
  } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: o.env ?? {},
    stdoutIsTTY: o.stdoutIsTTY ?? false,
    stderrIsTTY: o.stderrIsTTY ?? false,
    ...(o.sleep ? { sleep: o.sleep } : {}),
    ...(o.now ? { now: o.now } : {}),
    ...(o.onStopSignal ? { onStopSignal: o.onStopSignal } : {}),
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'vtpreflight-cli-'): {
  dir: string;
  path: (name: string) => string;
  write: (name: string, text: string) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    path: (name) => join(dir, name),
    write: (name, text) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Writes the builder's readout as a snapshot file and returns its path. */
export async function snapshotFile(b: ClusterBuilder, path: string): Promise<string> {
  await writeSnapshot(path, b.readout());
  return path;
}

/** The fake vtctld cluster for a readout's topology (what vtctld would answer). */
export function fakeClusterOf(r: Readout): FakeVtctldCluster {
  const val = <T>(read: { ok: boolean; value?: T }, fallback: T): T => (read.ok ? (read.value as T) : fallback);
  const workflows: Record<string, NonNullable<FakeVtctldCluster['workflows']>[string]> = {};
  for (const [ks, w] of Object.entries(r.workflows)) if (w.ok) workflows[ks] = w.value;
  const fullStatus: Record<string, NonNullable<FakeVtctldCluster['fullStatus']>[string]> = {};
  for (const [alias, f] of Object.entries(r.fullStatus)) fullStatus[alias] = f.ok ? f.value : { error: f.error.reason };
  return {
    keyspaces: val(r.topology.keyspaces, []),
    shards: Object.values(r.topology.shards).flatMap((s) => val(s, [])),
    tablets: val(r.topology.tablets, []),
    vschemas: Object.fromEntries(Object.entries(r.topology.vschemas).flatMap(([k, v]) => (v.ok ? [[k, v.value]] : []))),
    routingRules: val(r.topology.routingRules, []),
    shardRoutingRules: val(r.topology.shardRoutingRules, []),
    fullStatus,
    workflows,
  };
}

/** The stream columns a v19 sidecar has (no `options`). */
const STREAM_COLUMNS = SIDECAR_COLUMNS.filter((c) => c !== 'options') as readonly (keyof VReplicationRow)[];

/** A live cluster: the fake vtctld plus MariaDB sidecars. */
export interface LiveCluster {
  readonly vtctld: FakeVtctld;
  /** The MariaDB holding each primary's sidecar, by tablet alias. */
  readonly primaries: ReadonlyMap<string, MariaDbInstance>;
  readonly sidecarDb: string;
  /** `VTPREFLIGHT_MYSQL_*` for the pool's read-only user. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs a statement on the sidecar of a primary (e.g. to finish a copy between runs of `--wait`). */
  exec(alias: string, sql: string, params?: readonly unknown[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a live cluster from a builder: every keyspace gets a unique sidecar database name, each primary's tablet
 * record points at a MariaDB of the pool (consecutive primaries on different servers, so two shards never share a
 * `vreplication` table), and the builder's streams and copy_state rows are inserted there with `time_updated` and
 * `transaction_timestamp` moved to now. `vtctldOpts` go to the fake vtctld (auth, TLS); ExecuteFetchAsDBA is wired
 * to the MariaDB of the alias. `clusterPatch` changes what the fake vtctld serves; with `unimplemented` RPCs (an
 * older vtctld) the sidecars get the v19 schema without the `options` column.
 */
export async function startLiveCluster(
  b: ClusterBuilder,
  pool: TestPool,
  vtctldOpts: FakeVtctldOptions = {},
  clusterPatch: Partial<FakeVtctldCluster> = {},
): Promise<LiveCluster> {
  const sidecarDb = pool.uniqueName('_vt');
  const readout = b.readout();
  const keyspaces = readout.topology.keyspaces.ok
    ? readout.topology.keyspaces.value.map((k) => ({ ...k, sidecarDbName: sidecarDb }))
    : [];
  const primaries = new Map<string, MariaDbInstance>();
  let i = 0;
  for (const s of readout.sidecars) primaries.set(s.alias, pool.instance(i++));
  // A primary whose schema holds tables (the builder's default: the moved tables on a source primary) gets a schema
  // of its own, as a tablet with a db name override: `vt_<keyspace>` is shared by every test on the server.
  // A MoveTables target primary holds the tables its streams apply to (src/sim/schema.ts targetSchemaTables).
  const ownDb = new Map<string, { from: string; name: string; tables: readonly string[] }>();
  for (const s of readout.sidecars) {
    const listed = s.tables?.ok && s.tables.value.length > 0 ? s.tables.value : null;
    const tables = listed ?? (s.tables?.ok && s.vreplication.ok ? targetSchemaTables(s.vreplication.value) : []);
    if (tables.length > 0) ownDb.set(s.alias, { from: s.dbName, name: pool.uniqueName(`vt_${s.keyspace}`), tables });
  }
  const tablets: TabletRecord[] = (readout.topology.tablets.ok ? readout.topology.tablets.value : []).map((t) => {
    const inst = primaries.get(t.alias) ?? pool.instance(0);
    const own = ownDb.get(t.alias);
    return { ...t, mysqlHostname: inst.host, mysqlPort: inst.port, ...(own ? { dbNameOverride: own.name } : {}) };
  });
  const used = new Set(primaries.values());
  // The current upstream sidecar (with the v20 `options` column), matching what the fake vtctld answers (every
  // optional RPC): one Vitess release, so version inference sees no mixed cluster.
  for (const inst of used) await inst.applySidecarDdl(sidecarDb, { withOptionsColumn: !clusterPatch.unimplemented });
  const now = Math.floor(Date.now() / 1000);
  for (const s of readout.sidecars) {
    const inst = primaries.get(s.alias)!;
    const own = ownDb.get(s.alias);
    if (own)
      await inst.exec(
        `CREATE DATABASE \`${own.name}\``,
        ...own.tables.map((t) => `CREATE TABLE \`${own.name}\`.\`${t}\` (id INT PRIMARY KEY)`),
      );
    for (const row of s.vreplication.ok ? s.vreplication.value : []) {
      const values: Record<string, string | number | null> = {};
      for (const c of STREAM_COLUMNS) if (row[c] !== undefined) values[c] = row[c] as string | number | null;
      if (own && values.db_name === own.from) values.db_name = own.name;
      values.time_updated = now - 1;
      values.transaction_timestamp = now - 1;
      values.time_heartbeat = now - 1;
      await inst.insertRow(sidecarDb, 'vreplication', values);
    }
    for (const c of s.copyState.ok ? s.copyState.value : [])
      await inst.insertCopyState(sidecarDb, { vrepl_id: c.vrepl_id, table_name: c.table_name });
  }

  const readers = new Map<MariaDbInstance, Promise<mysql.Connection>>();
  const reader = (inst: MariaDbInstance) => {
    let c = readers.get(inst);
    if (!c) {
      c = mysql.createConnection({
        host: inst.host,
        port: inst.port,
        user: inst.reader.user,
        password: inst.reader.password,
      });
      readers.set(inst, c);
    }
    return c;
  };
  const executeFetchAsDBA = async (alias: string, query: string): Promise<FakeFetchResult> => {
    const inst = primaries.get(alias);
    if (!inst) throw Object.assign(new Error(`tablet ${alias} has no MySQL in this test`), { code: 'NOT_FOUND' });
    const conn = await reader(inst);
    const [rows, fields] = await conn.query({ sql: query, rowsAsArray: true, typeCast: false });
    return {
      fields: (fields ?? []).map((f) => f.name),
      rows: (rows as unknown as (Buffer | null)[][]).map((r) =>
        r.map((v) => (v === null ? null : Buffer.isBuffer(v) ? v : String(v))),
      ),
    };
  };
  const cluster: FakeVtctldCluster = { ...fakeClusterOf(readout), keyspaces, tablets, ...clusterPatch };
  const vtctld = await startFakeVtctld(cluster, { executeFetchAsDBA, ...vtctldOpts });
  return {
    vtctld,
    primaries,
    sidecarDb,
    env: { VTPREFLIGHT_MYSQL_USER: pool.info.reader.user, VTPREFLIGHT_MYSQL_PASSWORD: pool.info.reader.password },
    async exec(alias, sql, params = []) {
      const inst = primaries.get(alias);
      if (!inst) throw new Error(`no MariaDB for ${alias}`);
      await inst.exec([sql.replaceAll('$SIDECAR', `\`${sidecarDb}\``), params]);
    },
    async stop() {
      await vtctld.stop();
      for (const c of readers.values()) await (await c).end().catch(() => {});
      for (const inst of used) await inst.dropDatabase(sidecarDb).catch(() => {});
      for (const [alias, own] of ownDb)
        await primaries
          .get(alias)
          ?.dropDatabase(own.name)
          .catch(() => {});
    },
  };
}

export { joinRegExp } from '../helpers/regexp.js';

/**
 * Materializes a `cluster()` builder readout (test/helpers/cluster.ts) into a live cluster: real MariaDB
 * servers holding the scenario's sidecar rows, and a real gRPC fake vtctld serving its topology, so that the
 * built CLI can read it exactly as it reads a production cluster. The end-to-end tests then check that the live
 * path (collect over gRPC + MySQL or ExecuteFetchAsDBA) and the offline path (`runChecks` on the builder's
 * readout) agree.
 *
 * ## Placement and isolation (test/harness/env.ts conventions)
 * One mysqld plays one primary at most per keyspace: `copy_state` and `vreplication_log` are keyed by stream id
 * only (not by `db_name`), so two primaries of one keyspace sharing a sidecar database would see each other's
 * rows, which never happens in Vitess (every tablet has its own mysqld). So:
 * - default (unique names): every keyspace gets its own sidecar database named by `pool.uniqueName('_vt')`
 *   (written into the keyspace record's `sidecar_db_name`), and the primaries of one keyspace go to distinct
 *   pool instances; primaries of different keyspaces may share an instance (different sidecar databases).
 * - `defaultNames: true`: the keyspace records keep their names (`_vt` unless the builder says otherwise) and
 *   rows keep `db_name = vt_<keyspace>`; every primary gets its own instance, whose `vtpreflight:_vt` lock is
 *   held (taken in instance order, so concurrent holders cannot deadlock) from before the sidecar is created
 *   until it has been dropped again in {@link LiveCluster.stop}.
 *
 * ## What is real and what is rewritten
 * Rows are inserted column by column as the builder wrote them, stream ids included. Tablet records keep their
 * aliases; a primary's `mysql_hostname`/`mysql_port` point at its instance (its replicas' too: they are never
 * dialed). A primary whose sidecar the builder marked unreadable (`unreadable()`), or listed in `down`, points at a
 * closed privileged loopback port, and the ExecuteFetchAsDBA hook answers UNAVAILABLE for it; `copyStateUnreadable()`
 * drops
 * the real `copy_state` table. Topology read failures become injected RPC failures (`failRpcs`) or, for a vschema,
 * a missing one (NOT_FOUND, as Vitess answers).
 *
 * ## Time
 * Lag is computed against the capture time, which is the real clock in a live run. Every non-zero unix-seconds
 * column (`time_updated`, `transaction_timestamp`, `time_heartbeat`, `time_throttled`) and every log DATETIME is
 * shifted at insert time by `timeShiftSeconds` = (now − the builder's `capturedAt`), so "1 s behind at capture" in
 * the builder becomes "1 s behind now + however long the test takes to run the check". {@link expectedReadout}
 * carries the same shifted values and takes the capture time as an argument, so the offline expectation is exact
 * for a given capture second (see test/e2e/compare.ts for how the live capture second is bracketed).
 */
import mysql from 'mysql2/promise';
import type { FakeFetchResult, FakeVtctld, FakeVtctldCluster, FakeVtctldOptions } from '../../src/sim/vtctld-server.js';
import { startFakeVtctld } from '../../src/sim/vtctld-server.js';
import type {
  FullStatusRecord,
  KeyspaceRecord,
  Read,
  ReadError,
  Readout,
  ShardRecord,
  TabletRecord,
  KeyspaceRoutingRuleRecord,
  MirrorRuleRecord,
  SrvKeyspaceRecord,
  SrvVSchemaRecord,
  TableKeyRow,
  TabletBuildRecord,
  TabletSidecarRead,
  VReplicationLogRow,
  VReplicationRow,
  VSchemaRecord,
  VtctldWorkflowRecord,
} from '../../src/readout.js';
import { parseBinlogSource } from '../../src/vitess/binlog-source.js';
import { connect } from 'node:net';
import { sidecarDdl, type MariaDbInstance } from '../harness/mariadb.js';
import { withServerLock, type TestPool } from '../harness/env.js';
import { byCodeUnit } from '../../src/text.js';
import { SIDECAR_COLUMNS } from '../helpers/cluster.js';
import { targetSchemaTables } from '../../src/sim/schema.js';
import { compareShardNames } from '../../src/vitess/keyrange.js';
import { UNIT_READ_IDS } from '../../src/reads/units/index.js';

/** Options of {@link startLiveCluster}. */
export interface LiveClusterOptions {
  /** Keep the builder's sidecar and schema names (`_vt`, `vt_<ks>`) under each used server's lock. */
  readonly defaultNames?: boolean;
  /** Primary aliases whose MySQL is down, in addition to the shards the builder marked `unreadable()`. */
  readonly down?: readonly string[];
  /** First pool instance to place primaries on (spreads concurrent scenarios over the pool). */
  readonly offset?: number;
  /** Latency of the fake vtctld (default 0). */
  readonly latencyMs?: number;
  /** Puts these primaries (by alias) on the given instances, e.g. a private server the test stops later. */
  readonly place?: Readonly<Record<string, MariaDbInstance>>;
  /**
   * Sidecar schema to create (test/harness/mariadb.ts): `current` (default, plus the `options` column) or `old` (an
   * old Vitess without `workflow_type` and the other newer columns, and without `vreplication_log`). Columns the
   * schema lacks are not inserted. A map gives each keyspace its own (absent keyspaces: `current`), as when the
   * tablets of one keyspace run an older Vitess than the others.
   */
  readonly schema?: 'current' | 'old' | Readonly<Record<string, 'current' | 'old'>>;
  /** TLS/mTLS and static auth of the fake vtctld (src/sim/vtctld-server.ts options). */
  readonly vtctld?: Pick<FakeVtctldOptions, 'tls' | 'auth'>;
  /**
   * Real transactions left open on primaries: for each, a root session uses the primary's schema, writes a row
   * of `table` inside a transaction and keeps it open until {@link LiveCluster.stop}; the cluster is handed over once
   * every such transaction is `ageSeconds` old. The builder's `activity()` of that primary is the expectation.
   */
  readonly openTransactions?: readonly {
    readonly alias: string;
    readonly table: string;
    readonly ageSeconds: number;
  }[];
  /** RPCs the fake vtctld answers UNIMPLEMENTED, as an older release does (e.g. ExecuteMultiFetchAsDBA before v20). */
  readonly unimplemented?: readonly string[];
}

/** Where one primary lives. */
export interface PrimaryPlacement {
  readonly alias: string;
  readonly keyspace: string;
  readonly shard: string;
  /** Null when the primary is down (its tablet record points at a closed port). */
  readonly instance: MariaDbInstance | null;
  readonly host: string;
  readonly port: number;
  readonly sidecarDb: string;
  readonly dbName: string;
}

/** One ExecuteFetchAsDBA the fake vtctld received. */
export interface FetchCall {
  readonly alias: string;
  readonly query: string;
  /** False when the hook refused it (anything but one tagged SELECT/SHOW). */
  readonly allowed: boolean;
}

/** A running live cluster. */
export interface LiveCluster {
  /** `host:port` of the fake vtctld. */
  readonly address: string;
  readonly vtctld: FakeVtctld;
  /** The builder's readout, as given. */
  readonly source: Readout;
  readonly primaries: readonly PrimaryPlacement[];
  /** Seconds added to every stored unix time (see the module comment). */
  readonly timeShiftSeconds: number;
  /** Every ExecuteFetchAsDBA received, in order. */
  readonly fetches: readonly FetchCall[];
  /** Aliases of tablets whose reads fail on purpose (MySQL down, GetFullStatus failing, copy_state dropped). */
  readonly faulted: ReadonlySet<string>;
  /** The MySQL user of the pool's root sessions (those holding `openTransactions`). */
  readonly rootUser: string;
  /**
   * Declares a primary's MySQL down from now on (the test stopped its server): the expectation and the
   * ExecuteFetchAsDBA hook treat it like a primary placed down from the start.
   */
  markDown(alias: string): void;
  /** `--keyspace`/`--workflow` flags reproducing the builder's selection. */
  selectionArgs(): string[];
  /** What an exact collector would read from this cluster at `capturedAt`, over `via`. */
  expectedReadout(o: { capturedAt: string; via: 'mysql' | 'vtctld' }): Readout;
  /** Stops the fake vtctld, drops what was created, releases locks. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Every RPC vtpreflight may call: the read-only vtctld RPCs, and ExecuteFetchAsDBA, whose statement the hook
 * checks against {@link READ_ONLY_FETCH}.
 */
export const READ_ONLY_RPCS: ReadonlySet<string> = new Set([
  'GetKeyspaces',
  'GetKeyspace',
  'FindAllShardsInKeyspace',
  'GetTablets',
  'GetVSchema',
  'GetRoutingRules',
  'GetShardRoutingRules',
  'GetWorkflows',
  'GetFullStatus',
  'GetSrvKeyspaces',
  'ExecuteFetchAsDBA',
  'ExecuteMultiFetchAsDBA',
  'GetVersion',
  'GetCellInfoNames',
  'GetSrvVSchema',
  'GetKeyspaceRoutingRules',
  'GetMirrorRules',
]);

/** A tagged, single SELECT or SHOW: all that the ExecuteFetchAsDBA hook lets through. */
export const READ_ONLY_FETCH = /^\/\* vtpreflight \*\/ (SELECT|SHOW) [^;]*$/s;

const TIME_COLUMNS = ['time_updated', 'transaction_timestamp', 'time_heartbeat', 'time_throttled'] as const;

const q = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/** `YYYY-MM-DD hh:mm:ss` shifted by `seconds`, as MariaDB prints a DATETIME (ISO input accepted). */
function shiftDatetime(text: string | null, seconds: number): string | null {
  if (text === null) return null;
  const iso = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/.exec(text);
  if (!iso) return text;
  const ms = Date.parse(`${iso[0].replace(' ', 'T')}Z`);
  return new Date(ms + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

function onlyColumns(row: VReplicationRow, columns: readonly string[]): VReplicationRow {
  const keep = new Set([...columns, 'posBase64']);
  return Object.fromEntries(Object.entries(row).filter(([k]) => keep.has(k))) as unknown as VReplicationRow;
}

function shiftRow(row: VReplicationRow, seconds: number): VReplicationRow {
  const out: Record<string, unknown> = { ...row };
  for (const c of TIME_COLUMNS) {
    const v = out[c];
    if (typeof v === 'number' && v > 0) out[c] = v + seconds;
  }
  return out as unknown as VReplicationRow;
}

/**
 * A loopback port that refuses connections: a privileged one nothing listens on. Not an ephemeral port released by
 * `freePort()`: servers started concurrently by other tests (MariaDB pools, fake vtctlds) draw from that range and
 * could take it between the check and the run, turning "connection refused" into someone else's server.
 */
export async function closedPort(): Promise<number> {
  for (const port of [9, 1, 3, 5, 11, 13, 17, 19, 27, 29]) {
    const refused = await new Promise<boolean>((resolve) => {
      const sock = connect({ host: '127.0.0.1', port });
      sock.once('connect', () => {
        sock.destroy();
        resolve(false);
      });
      sock.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('live cluster: no closed privileged loopback port found for a down primary');
}

/** Holds the `vtpreflight:_vt` lock of every instance (in index order) until the returned release is called. */
async function holdLocks(instances: readonly MariaDbInstance[]): Promise<() => Promise<void>> {
  const list = [...new Set(instances)].sort((a, b) => a.index - b.index);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let acquired!: () => void;
  const all = new Promise<void>((r) => (acquired = r));
  const nest = (i: number): Promise<void> => {
    if (i === list.length) {
      acquired();
      return released;
    }
    return withServerLock(list[i] as MariaDbInstance, () => nest(i + 1));
  };
  const done = nest(0);
  await Promise.race([all, done]);
  return async () => {
    release();
    await done;
  };
}

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const failed = <T>(error: ReadError): Read<T> => ({ ok: false, error });

/**
 * Creates the sidecar databases and rows of `readout` on pool instances, starts a fake vtctld serving its topology,
 * and returns the handle. Throws (after cleaning up) when the pool has too few instances for the placement rule.
 */
export async function startLiveCluster(
  readout: Readout,
  pool: TestPool,
  opts: LiveClusterOptions = {},
): Promise<LiveCluster> {
  const src = JSON.parse(JSON.stringify(readout)) as Readout;
  // A MoveTables target primary holds the tables its streams apply to (create deploys them first): listed, so that
  // the harness creates them and the live read sees them (an empty target schema over MySQL is a read failure).
  for (const sc of src.sidecars) {
    if (!sc.tables?.ok || sc.tables.value.length > 0 || !sc.vreplication.ok) continue;
    const own = targetSchemaTables(sc.vreplication.value);
    if (own.length > 0) Object.assign(sc, { tables: { ok: true, value: own } });
  }
  const topo = src.topology;
  const keyspaces: KeyspaceRecord[] = topo.keyspaces.ok ? [...topo.keyspaces.value] : [];
  const tablets: TabletRecord[] = topo.tablets.ok ? [...topo.tablets.value] : [];
  const tabletByAlias = new Map(tablets.map((t) => [t.alias, t] as const));
  const shardRecords: ShardRecord[] = Object.values(topo.shards).flatMap((r) => (r.ok ? r.value : []));
  const sidecarByShard = new Map(src.sidecars.map((s) => [`${s.keyspace}/${s.shard}`, s] as const));
  const timeShiftSeconds = Math.floor(Date.now() / 1000) - Math.floor(Date.parse(src.capturedAt) / 1000);
  const schema = schemaOf(opts.schema);

  // Sidecar database per keyspace.
  const sidecarDbOf = new Map<string, string>();
  for (const ks of keyspaces)
    sidecarDbOf.set(ks.name, opts.defaultNames ? ks.sidecarDbName || '_vt' : pool.uniqueName('_vt'));

  // Without defaultNames `vt_<keyspace>` belongs to whoever holds the server's lock (a defaultNames scenario running at
  // the same time creates and drops its tables there), so every primary whose schema is read gets a schema name of
  // its own, as a tablet run with a db name override: its tablet record's `db_name_override` and its rows' `db_name`.
  // The expected readout reads the same tablet records and rows. A primary listing no table gets one too: a schema
  // nobody creates, where information_schema lists nothing. (Reading `vt_<keyspace>` there once showed another
  // scenario's tables half-created: listed by TABLES, without their keys in STATISTICS.)
  if (!opts.defaultNames) {
    for (const sc of src.sidecars) {
      const t = tabletByAlias.get(sc.alias);
      if (!sc.tables?.ok || t === undefined || t.dbNameOverride !== '') continue;
      const name = pool.uniqueName(`vt_${t.keyspace}`);
      const own = (r: { db_name: string }) => (r.db_name === sc.dbName ? { ...r, db_name: name } : r);
      Object.assign(t, { dbNameOverride: name });
      Object.assign(sc, {
        dbName: name,
        ...(sc.vreplication.ok ? { vreplication: ok(sc.vreplication.value.map(own)) } : {}),
        ...(sc.reshardingJournal.ok ? { reshardingJournal: ok(sc.reshardingJournal.value.map(own)) } : {}),
      });
    }
  }

  // Which primaries exist, which are down, where the others go.
  const down = new Set(opts.down ?? []);
  for (const s of src.sidecars) {
    if (!s.vreplication.ok && !s.columns.ok && s.vreplication.error.what === 'connect') down.add(s.alias);
  }
  const primaryShards = shardRecords.filter((s) => s.primaryAlias !== null && tabletByAlias.has(s.primaryAlias));
  const n = pool.instances.length;
  const live = primaryShards.filter((s) => !down.has(s.primaryAlias as string));
  const placements: PrimaryPlacement[] = [];
  const used = new Map<string, Set<number>>(); // keyspace → instance indexes taken
  let cursor = opts.offset ?? 0;
  if (opts.defaultNames && live.length > n) {
    throw new Error(
      `live cluster: ${live.length} primaries with default sidecar names need as many MariaDB servers, the pool has ${n}`,
    );
  }
  for (const s of primaryShards) {
    const alias = s.primaryAlias as string;
    const sidecarDb = sidecarDbOf.get(s.keyspace) ?? '_vt';
    const dbName = tabletByAlias.get(alias)?.dbNameOverride || `vt_${s.keyspace}`;
    if (down.has(alias)) {
      placements.push({
        alias,
        keyspace: s.keyspace,
        shard: s.name,
        instance: null,
        host: '127.0.0.1',
        port: await closedPort(),
        sidecarDb,
        dbName,
      });
      continue;
    }
    let taken = used.get(opts.defaultNames ? '' : s.keyspace);
    if (!taken) used.set(opts.defaultNames ? '' : s.keyspace, (taken = new Set()));
    if (taken.size >= n) {
      throw new Error(
        `live cluster: keyspace ${s.keyspace} has more live primaries than the pool has MariaDB servers (${n}); run with a bigger pool`,
      );
    }
    const placed = opts.place?.[alias];
    if (placed) {
      placements.push({
        alias,
        keyspace: s.keyspace,
        shard: s.name,
        instance: placed,
        host: placed.host,
        port: placed.port,
        sidecarDb,
        dbName,
      });
      continue;
    }
    while (taken.has(cursor % n)) cursor += 1;
    const instance = pool.instance(cursor % n);
    taken.add(cursor % n);
    cursor += 1;
    placements.push({
      alias,
      keyspace: s.keyspace,
      shard: s.name,
      instance,
      host: instance.host,
      port: instance.port,
      sidecarDb,
      dbName,
    });
  }
  // Read through these maps, so that markDown() swaps a placement for its down twin everywhere at once.
  const placementByAlias = new Map(placements.map((p) => [p.alias, p] as const));
  const placementByShard = new Map(placements.map((p) => [`${p.keyspace}/${p.shard}`, p] as const));

  const releaseLocks = opts.defaultNames
    ? await holdLocks(placements.flatMap((p) => (p.instance ? [p.instance] : [])))
    : null;
  const created: { instance: MariaDbInstance; db: string }[] = [];
  const faulted = new Set<string>(down);
  const readers = new Map<MariaDbInstance, mysql.Pool>();
  let vtctld: FakeVtctld | null = null;
  let stopped = false;

  const holders: mysql.Connection[] = [];
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await vtctld?.stop();
    await Promise.all(holders.map((c) => c.end().catch(() => c.destroy())));
    await Promise.all([...readers.values()].map((p) => p.end().catch(() => undefined)));
    await Promise.all(created.map((c) => c.instance.dropDatabase(c.db).catch(() => undefined)));
    await releaseLocks?.();
  };

  try {
    // Sidecar databases and rows, one root connection per instance.
    const byInstance = new Map<MariaDbInstance, PrimaryPlacement[]>();
    for (const p of placements) {
      if (!p.instance) continue;
      const list = byInstance.get(p.instance) ?? [];
      list.push(p);
      byInstance.set(p.instance, list);
    }
    await Promise.all(
      [...byInstance].map(([instance, list]) =>
        instance.withRoot(async (c) => {
          for (const p of list) {
            if (opts.defaultNames) await c.query(`DROP DATABASE IF EXISTS ${q(p.sidecarDb)}`);
            for (const stmt of sidecarDdl(p.sidecarDb, {
              variant: schema(p.keyspace),
              withOptionsColumn: schema(p.keyspace) === 'current',
            }))
              await c.query(stmt);
            created.push({ instance, db: p.sidecarDb });
            const sc = sidecarByShard.get(`${p.keyspace}/${p.shard}`);
            if (sc?.tables?.ok && sc.tables.value.length > 0) {
              // The tablet's own schema with the builder's tables (LOCK TABLES of a MoveTables write switch): its own
              // name (above), or vt_<keyspace> under the defaultNames lock. Tables tableKeys() declares are created
              // below, with their keys.
              const keyed = new Set(sc.tableKeys?.ok ? sc.tableKeys.value.map((t) => t.table_name) : []);
              await c.query(`DROP DATABASE IF EXISTS ${q(p.dbName)}`);
              await c.query(`CREATE DATABASE ${q(p.dbName)}`);
              created.push({ instance, db: p.dbName });
              for (const t of sc.tables.value.filter((x) => !keyed.has(x)))
                await c.query(`CREATE TABLE ${q(p.dbName)}.${q(t)} (id INT PRIMARY KEY)`);
              // MoveTables create's emptiness probe: a row in each table the builder says is non-empty.
              for (const t of sc.tableProbes?.ok ? sc.tableProbes.value : [])
                if (t.non_empty) await c.query(`INSERT INTO ${q(p.dbName)}.${q(t.table_name)} VALUES (1)`);
            }
            if (sc) {
              await insertSidecar(c, p.sidecarDb, sc, timeShiftSeconds, schema(p.keyspace));
              if (sc.vreplication.ok && !sc.copyState.ok) {
                await c.query(`DROP TABLE ${q(p.sidecarDb)}.copy_state`);
                faulted.add(p.alias);
              }
            }
          }
        }),
      ),
    );

    // Application tables the builder declared (tableKeys), with the keys it says they have.
    for (const p of placements) {
      const sc = sidecarByShard.get(`${p.keyspace}/${p.shard}`);
      if (!p.instance || !sc?.tableKeys?.ok || sc.tableKeys.value.length === 0) continue;
      await p.instance.exec(
        `CREATE DATABASE IF NOT EXISTS ${q(p.dbName)}`,
        ...sc.tableKeys.value.map((t) => tableDdl(p.dbName, t)),
      );
      created.push({ instance: p.instance, db: p.dbName });
    }

    // Sequence and VDiff data the builder declared: sequence tables with their row id = 0, tables with
    // their highest auto_increment value (the tablet's own schema: defaultNames only), and VDiff runs in the sidecar.
    for (const p of placements) {
      const sc = sidecarByShard.get(`${p.keyspace}/${p.shard}`);
      if (!p.instance || sc === undefined) continue;
      const ddl = fieldReadDdl(p.dbName, p.sidecarDb, sc);
      if (ddl.app.length > 0) {
        // A tablet schema of its own (db_name_override) is this scenario's; vt_<keyspace> is shared: defaultNames only.
        if (!opts.defaultNames && p.dbName === `vt_${p.keyspace}`)
          throw new Error(
            'live cluster: sequenceValues()/autoIncrementMax()/foreignKeys() in vt_<keyspace> need live: { defaultNames: true } (or a db_name_override)',
          );
        await p.instance.exec(`CREATE DATABASE IF NOT EXISTS ${q(p.dbName)}`, ...ddl.app);
        created.push({ instance: p.instance, db: p.dbName });
      }
      if (ddl.sidecar.length > 0) await p.instance.exec(...ddl.sidecar);
    }

    // Open transactions, held by their own sessions until stop().
    let oldest = 0;
    for (const t of opts.openTransactions ?? []) {
      const p = placementByAlias.get(t.alias);
      if (!p?.instance) throw new Error(`live cluster: no live primary ${t.alias} to open a transaction on`);
      const instance = p.instance;
      await instance.exec(
        `CREATE DATABASE IF NOT EXISTS ${q(p.dbName)}`,
        `CREATE TABLE IF NOT EXISTS ${q(p.dbName)}.${q(t.table)} (\`id\` INT PRIMARY KEY)`,
      );
      created.push({ instance, db: p.dbName });
      const c = await instance.rootConnection();
      holders.push(c);
      await c.query(`USE ${q(p.dbName)}`);
      await c.query('BEGIN');
      await c.query(`REPLACE INTO ${q(t.table)} VALUES (1)`);
      oldest = Math.max(oldest, t.ageSeconds);
    }
    if (oldest > 0) await new Promise((r) => setTimeout(r, oldest * 1000 + 500));

    // Topology served by the fake vtctld.
    const servedKeyspaces = keyspaces.map((k) => ({
      ...k,
      sidecarDbName: opts.defaultNames ? k.sidecarDbName : (sidecarDbOf.get(k.name) as string),
    }));
    const servedTablets = tablets.map((t) => {
      const p = placementByShard.get(`${t.keyspace}/${t.shard}`);
      return p ? { ...t, mysqlHostname: p.host, mysqlPort: p.port } : t;
    });
    const vschemas: Record<string, VSchemaRecord> = {};
    for (const [ks, r] of Object.entries(topo.vschemas)) if (r.ok) vschemas[ks] = r.value;
    const fullStatus: Record<string, FullStatusRecord | { error: string }> = {};
    for (const [alias, r] of Object.entries(src.fullStatus)) {
      if (r.ok) {
        fullStatus[alias] = r.value;
      } else {
        fullStatus[alias] = {
          error: /^[A-Z_]+:/.test(r.error.reason) ? r.error.reason : `UNAVAILABLE: ${r.error.reason}`,
        };
        faulted.add(alias);
      }
    }
    const workflows: Record<string, readonly VtctldWorkflowRecord[]> = {};
    for (const [ks, r] of Object.entries(src.workflows)) if (r.ok) workflows[ks] = r.value;
    const failRpcs: Record<string, string> = {};
    const failText = (r: Read<unknown>): string =>
      r.ok ? '' : /^[A-Z_]+:/.test(r.error.reason) ? r.error.reason : `UNAVAILABLE: ${r.error.reason}`;
    if (!topo.tablets.ok) failRpcs.GetTablets = failText(topo.tablets);
    if (!topo.routingRules.ok) failRpcs.GetRoutingRules = failText(topo.routingRules);
    if (!topo.shardRoutingRules.ok) failRpcs.GetShardRoutingRules = failText(topo.shardRoutingRules);
    if (!topo.keyspaces.ok)
      throw new Error(
        'live cluster: a failed GetKeyspaces stops collection (exit 2); test it with a stopped vtctld instead',
      );
    for (const [ks, r] of Object.entries(topo.shards)) {
      if (!r.ok)
        throw new Error(
          `live cluster: FindAllShardsInKeyspace ${ks} cannot fail for one keyspace only on the fake vtctld`,
        );
    }

    const cluster: FakeVtctldCluster = {
      keyspaces: servedKeyspaces,
      shards: shardRecords,
      tablets: servedTablets,
      vschemas,
      routingRules: topo.routingRules.ok ? topo.routingRules.value : [],
      shardRoutingRules: topo.shardRoutingRules.ok ? topo.shardRoutingRules.value : [],
      fullStatus,
      workflows,
      failRpcs,
      // An `old` sidecar schema everywhere stands for an old Vitess: its vtctld lacks the optional RPCs of newer
      // releases (one old keyspace among current ones is old tablets under a current vtctld).
      ...(opts.schema === 'old' ? { unimplemented: OLD_VTCTLD_LACKS } : {}),
      ...servingOf(src),
      ...(src.keyspaceRoutingRules?.ok ? { keyspaceRoutingRules: src.keyspaceRoutingRules.value } : {}),
      ...(src.mirrorRules?.ok ? { mirrorRules: src.mirrorRules.value } : {}),
    };

    const fetches: FetchCall[] = [];
    const readerFor = (instance: MariaDbInstance): mysql.Pool => {
      let p = readers.get(instance);
      if (!p) {
        p = mysql.createPool({
          host: instance.host,
          port: instance.port,
          user: instance.reader.user,
          password: instance.reader.password,
          connectionLimit: 4,
        });
        readers.set(instance, p);
      }
      return p;
    };
    const executeFetchAsDBA = async (alias: string, query: string): Promise<FakeFetchResult> => {
      const allowed = READ_ONLY_FETCH.test(query);
      fetches.push({ alias, query, allowed });
      if (!allowed)
        throw Object.assign(
          new Error(`fake vtctld: refused a statement that is not a tagged SELECT/SHOW: ${query.slice(0, 80)}`),
          { code: 'PERMISSION_DENIED' },
        );
      const p = placementByAlias.get(alias);
      if (!p)
        throw Object.assign(new Error(`tablet ${alias} is not a primary of this cluster`), {
          code: 'FAILED_PRECONDITION',
        });
      if (!p.instance) {
        throw Object.assign(
          new Error(
            `mysqld is not reachable for tablet ${alias}: dial tcp ${p.host}:${p.port}: connect: connection refused`,
          ),
          { code: 'UNAVAILABLE' },
        );
      }
      try {
        const [rows, fields] = await readerFor(p.instance).query({
          sql: query,
          rowsAsArray: true,
          // vttablet hands back the raw bytes of every cell; so does the fake (NULL stays NULL).
          typeCast: (field: { buffer(): Buffer | null }) => field.buffer(),
        } as mysql.QueryOptions);
        return {
          fields: (fields ?? []).map((f) => f.name),
          rows: (rows as (Buffer | null)[][]).map((r) => r.map((v) => (v === null ? null : Buffer.from(v)))),
        };
      } catch (e) {
        const err = e as { sqlMessage?: string; errno?: number; sqlState?: string; message?: string };
        // vttablet's wording: "<message> (errno N) (sqlstate S) during query: <sql>".
        throw Object.assign(
          new Error(
            `${err.sqlMessage ?? err.message} (errno ${err.errno ?? 0}) (sqlstate ${err.sqlState ?? 'HY000'}) during query: ${query}`,
          ),
          { code: 'UNKNOWN' },
        );
      }
    };
    vtctld = await startFakeVtctld(opts.unimplemented ? { ...cluster, unimplemented: opts.unimplemented } : cluster, {
      executeFetchAsDBA,
      latencyMs: opts.latencyMs ?? 0,
      ...opts.vtctld,
    });
    const address = vtctld.address;

    return {
      address,
      vtctld,
      source: src,
      primaries: placements,
      timeShiftSeconds,
      fetches,
      faulted,
      rootUser: pool.info.root.user,
      markDown(alias) {
        const p = placementByAlias.get(alias);
        if (!p) throw new Error(`live cluster: ${alias} is not a primary`);
        const downTwin = { ...p, instance: null };
        placementByAlias.set(alias, downTwin);
        placementByShard.set(`${p.keyspace}/${p.shard}`, downTwin);
        faulted.add(alias);
      },
      selectionArgs: () => [
        ...src.target.keyspaces.flatMap((k) => ['--keyspace', k]),
        ...src.target.workflows.flatMap((w) => ['--workflow', w]),
      ],
      expectedReadout: (o) =>
        expectedReadout({
          src,
          address,
          servedKeyspaces,
          servedTablets,
          shardRecords,
          placementByShard,
          sidecarByShard,
          timeShiftSeconds,
          schema,
          vtctldOld: opts.schema === 'old',
          ...o,
        }),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** The sidecar schema of each keyspace from {@link LiveClusterOptions.schema}. */
function schemaOf(o: LiveClusterOptions['schema']): (keyspace: string) => 'current' | 'old' {
  return (keyspace) => (o === undefined ? 'current' : typeof o === 'string' ? o : (o[keyspace] ?? 'current'));
}

/** The GTID-set columns of the harness sidecar DDL, as `information_schema.COLUMNS` describes them. */
const HARNESS_POSITION_COLUMNS = [
  { table_name: 'resharding_journal', column_name: 'val', data_type: 'mediumblob', max_length: 16777215 },
  { table_name: 'vreplication', column_name: 'pos', data_type: 'varbinary', max_length: 10000 },
  { table_name: 'vreplication', column_name: 'stop_pos', data_type: 'varbinary', max_length: 10000 },
];

/** The tables a builder's sequence rows name (created in the tablet's schema), for the expected `tables` read. */
function fieldReadTables(sc: TabletSidecarRead | undefined): string[] {
  return [
    ...(sc?.sequenceValues?.ok ? sc.sequenceValues.value.filter((r) => r.present).map((r) => r.table_name) : []),
    ...(sc?.autoIncrementMax?.ok ? sc.autoIncrementMax.value.filter((r) => r.present).map((r) => r.table_name) : []),
    ...(sc?.foreignKeys?.ok ? sc.foreignKeys.value.flatMap((f) => [f.table_name, f.referenced_table_name]) : []),
  ];
}

/**
 * Sequence and VDiff data of a builder sidecar as statements: `app` in the tablet's schema (sequence tables as upstream
 * creates them, sequences.go `sqlCreateSequenceTable`; tables keyed on their auto_increment column), `sidecar` the
 * VDiff rows (a mismatched table as a `vdiff_table` row with `mismatch = 1`).
 */
function fieldReadDdl(dbName: string, sidecarDb: string, sc: TabletSidecarRead): { app: string[]; sidecar: string[] } {
  const lit = (v: string | number | null) =>
    v === null ? 'NULL' : typeof v === 'number' ? String(v) : mysql.escape(v);
  const app: string[] = [];
  for (const r of sc.sequenceValues?.ok ? sc.sequenceValues.value : []) {
    if (!r.present) continue;
    const t = `${q(dbName)}.${q(r.table_name)}`;
    app.push(
      `DROP TABLE IF EXISTS ${t}`,
      `CREATE TABLE ${t} (id int, next_id bigint, cache bigint, primary key(id)) comment 'vitess_sequence'`,
    );
    if (r.next_id !== null) app.push(`INSERT INTO ${t} VALUES (0, ${r.next_id}, ${r.cache ?? 1000})`);
  }
  for (const r of sc.autoIncrementMax?.ok ? sc.autoIncrementMax.value : []) {
    if (!r.present) continue;
    const t = `${q(dbName)}.${q(r.table_name)}`;
    app.push(`DROP TABLE IF EXISTS ${t}`, `CREATE TABLE ${t} (${q(r.column_name)} bigint NOT NULL PRIMARY KEY)`);
    if (r.max_value !== null) app.push(`INSERT INTO ${t} VALUES (${r.max_value})`);
  }
  // every table of the builder's foreign keys keyed on `id`, then each constraint on a column of its own.
  const fks = sc.foreignKeys?.ok ? sc.foreignKeys.value : [];
  for (const t of [...new Set(fks.flatMap((f) => [f.table_name, f.referenced_table_name]))].sort())
    app.push(`CREATE TABLE IF NOT EXISTS ${q(dbName)}.${q(t)} (\`id\` INT NOT NULL PRIMARY KEY) ENGINE = InnoDB`);
  for (const f of fks) {
    const col = q(`${f.constraint_name}_ref`);
    app.push(
      `ALTER TABLE ${q(dbName)}.${q(f.table_name)} ADD COLUMN ${col} INT NULL, ADD CONSTRAINT ${q(f.constraint_name)} FOREIGN KEY (${col}) REFERENCES ${q(dbName)}.${q(f.referenced_table_name)} (\`id\`) ON DELETE ${f.delete_rule} ON UPDATE ${f.update_rule}`,
    );
  }
  const sidecar: string[] = [];
  for (const v of sc.vdiffs?.ok ? sc.vdiffs.value : []) {
    const cols = [v.id, v.vdiff_uuid, v.workflow, v.keyspace, v.shard, dbName, v.state, v.created_at, v.completed_at];
    sidecar.push(
      `INSERT INTO ${q(sidecarDb)}.vdiff (id, vdiff_uuid, workflow, keyspace, shard, db_name, state, created_at, completed_at, last_error) VALUES (${[
        ...cols,
        v.last_error === '' ? null : v.last_error,
      ]
        .map(lit)
        .join(', ')})`,
    );
    for (const t of v.mismatched_tables)
      sidecar.push(
        `INSERT INTO ${q(sidecarDb)}.vdiff_table (vdiff_id, table_name, state, mismatch) VALUES (${lit(String(v.id))}, ${lit(t)}, 'completed', 1)`,
      );
  }
  return { app, sidecar };
}

/** A table with exactly the keys a builder's `tableKeys` row says (an `id` column always, keyed or not). */
function tableDdl(db: string, t: TableKeyRow): string {
  const cols = [`\`id\` INT ${t.has_primary_key ? 'NOT NULL PRIMARY KEY' : 'NULL'}`];
  if (t.unique_not_null !== null) cols.push('`u` INT NOT NULL', `UNIQUE KEY ${q(t.unique_not_null)} (\`u\`)`);
  t.unique_nullable.forEach((name, i) => {
    cols.push(`\`n${i}\` INT NULL`, `UNIQUE KEY ${q(name)} (\`n${i}\`)`);
  });
  return `CREATE TABLE IF NOT EXISTS ${q(db)}.${q(t.table_name)} (${cols.join(', ')})`;
}

/** Inserts a builder sidecar's rows exactly (stream ids, log ids, journal ids), times shifted. */
async function insertSidecar(
  c: mysql.Connection,
  db: string,
  sc: TabletSidecarRead,
  shift: number,
  schema: 'current' | 'old',
): Promise<void> {
  const columns = new Set(schema === 'old' ? OLD_VREPLICATION_COLUMNS : LIVE_VREPLICATION_COLUMNS);
  if (sc.vreplication.ok) {
    for (const raw of sc.vreplication.value) {
      const row = shiftRow(raw, shift);
      const cols: string[] = [];
      const vals: unknown[] = [];
      for (const [k, v] of Object.entries(row)) {
        if (k === 'posBase64' || v === undefined || !columns.has(k)) continue;
        cols.push(q(k));
        vals.push(k === 'pos' && row.posBase64 !== undefined ? Buffer.from(row.posBase64, 'base64') : v);
      }
      await c.query(
        `INSERT INTO ${q(db)}.vreplication (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        vals,
      );
    }
  }
  if (sc.copyState.ok) {
    for (const r of sc.copyState.value) {
      await c.query(`INSERT INTO ${q(db)}.copy_state (vrepl_id, table_name, lastpk) VALUES (?, ?, NULL)`, [
        r.vrepl_id,
        r.table_name,
      ]);
    }
  }
  if (sc.vreplicationLog.ok && schema === 'current') {
    for (const r of sc.vreplicationLog.value) {
      await c.query(
        `INSERT INTO ${q(db)}.vreplication_log (id, vrepl_id, type, state, message, created_at, updated_at, count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          r.id,
          r.vrepl_id,
          r.type,
          r.state,
          r.message,
          shiftDatetime(r.created_at, shift),
          shiftDatetime(r.updated_at, shift),
          r.count,
        ],
      );
    }
  }
  if (sc.twoPc?.ok && schema === 'current') {
    for (const [table, rows] of [
      ['dt_state', sc.twoPc.value.dtState],
      ['redo_state', sc.twoPc.value.redoState],
    ] as const)
      for (const r of rows ?? [])
        await c.query(`INSERT INTO ${q(db)}.${table} (dtid, state, time_created) VALUES (?, ?, CAST(? AS SIGNED))`, [
          r.dtid,
          r.state,
          r.time_created,
        ]);
  }
  if (sc.reshardingJournal.ok) {
    for (const r of sc.reshardingJournal.value) {
      await c.query(`INSERT INTO ${q(db)}.resharding_journal (id, db_name, val) VALUES (CAST(? AS SIGNED), ?, ?)`, [
        r.id,
        r.db_name,
        r.val,
      ]);
    }
  }
}

/** Column list of the sidecar DDL the materializer creates (current upstream schema plus `options`). */
export const LIVE_VREPLICATION_COLUMNS: readonly string[] = SIDECAR_COLUMNS;

/** Column list of the `old` sidecar schema (binlogplayer.CreateVReplicationTable plus the db_name ALTER). */
export const OLD_VREPLICATION_COLUMNS: readonly string[] = LIVE_VREPLICATION_COLUMNS.slice(0, 14);

/** The newest rows per stream the reader reads (src/sources/sidecar.ts DEFAULT_LOG_LIMIT_PER_STREAM). */
const LOG_ROWS_PER_STREAM = 20;

interface ExpectedInput {
  readonly src: Readout;
  readonly address: string;
  readonly servedKeyspaces: readonly KeyspaceRecord[];
  readonly servedTablets: readonly TabletRecord[];
  readonly shardRecords: readonly ShardRecord[];
  readonly placementByShard: ReadonlyMap<string, PrimaryPlacement>;
  readonly sidecarByShard: ReadonlyMap<string, TabletSidecarRead>;
  readonly timeShiftSeconds: number;
  readonly schema: (keyspace: string) => 'current' | 'old';
  /** The fake vtctld plays an old vtctld (the `old` schema everywhere). */
  readonly vtctldOld: boolean;
  readonly capturedAt: string;
  readonly via: 'mysql' | 'vtctld';
}

/**
 * The readout an exact collector (docs/design.md, src/sources/collect.ts's documented waves) would return
 * for the materialized cluster: the builder's topology as served; one sidecar read per shard of the target
 * keyspaces (all keyspaces without `--keyspace`), holding exactly the rows inserted there and filtered as the
 * reader filters them (`db_name`, newest log rows, newest copy_state row per table); no GetWorkflows (read only for
 * schemas without `workflow_type`, which the materialized schema has); GetFullStatus for every tablet of the
 * participating shards (the sidecar shards holding streams or not read, and the shards their streams read). Failures
 * keep the builder's reason where the live text cannot be predicted: the comparison
 * in compare.ts matches `unreachable` findings by location and `details.reason` only.
 */
function expectedReadout(x: ExpectedInput): Readout {
  const { src } = x;
  const topo = src.topology;
  const ksNames = x.servedKeyspaces.map((k) => k.name);
  const targetKs = src.target.keyspaces.length > 0 ? [...src.target.keyspaces] : ksNames;
  const tabletByAlias = new Map(x.servedTablets.map((t) => [t.alias, t] as const));
  const sidecarDbOf = new Map(x.servedKeyspaces.map((k) => [k.name, k.sidecarDbName || '_vt'] as const));

  const sidecars: TabletSidecarRead[] = [];
  const readOne = (ks: string, shard: ShardRecord): void => {
    const sidecarDb = sidecarDbOf.get(ks) ?? '_vt';
    {
      const alias = shard.primaryAlias;
      const tablet = alias ? tabletByAlias.get(alias) : undefined;
      const fail = (what: string, reason: string, endpoint: string, a: string, dbName: string): TabletSidecarRead => {
        const r = failed<never>({
          what,
          where: `${a || `${ks}/${shard.name}`}${endpoint ? ` (${endpoint})` : ''}`,
          reason,
        });
        return {
          alias: a,
          keyspace: ks,
          shard: shard.name,
          endpoint,
          sidecarDb,
          dbName,
          columns: r,
          vreplication: r,
          copyState: r,
          vreplicationLog: r,
          reshardingJournal: r,
          positionColumns: r,
          tables: r,
          transactions: r,
          metadataLocks: r,
          tableKeys: r,
          twoPc: r,
          filteredUserGrants: r,
          ...Object.fromEntries(UNIT_READ_IDS.map((id) => [id, r])),
        };
      };
      if (!alias) {
        sidecars.push(fail('find primary', `shard ${ks}/${shard.name} has no primary`, '', '', ''));
        return;
      }
      if (!tablet) {
        sidecars.push(
          fail(
            'find primary',
            topo.tablets.ok ? `primary ${alias} has no tablet record` : 'GetTablets failed',
            '',
            alias,
            '',
          ),
        );
        return;
      }
      const dbName = tablet.dbNameOverride || `vt_${tablet.keyspace}`;
      const p = x.placementByShard.get(`${ks}/${shard.name}`);
      const endpoint = x.via === 'vtctld' ? 'vtctld ExecuteFetchAsDBA' : `${tablet.mysqlHostname}:${tablet.mysqlPort}`;
      if (!p?.instance) {
        sidecars.push(
          x.via === 'vtctld'
            ? fail(`select ${sidecarDb}.vreplication columns`, 'mysqld is not reachable', endpoint, alias, dbName)
            : fail('connect', `cannot connect to ${endpoint}: ECONNREFUSED`, endpoint, alias, dbName),
        );
        return;
      }
      const where = `${alias} (${endpoint})`;
      const sc = x.sidecarByShard.get(`${ks}/${shard.name}`);
      const columns = x.schema(ks) === 'old' ? OLD_VREPLICATION_COLUMNS : LIVE_VREPLICATION_COLUMNS;
      const rows = (sc?.vreplication.ok ? sc.vreplication.value : [])
        .filter((r) => r.db_name === dbName)
        .map((r) => onlyColumns(shiftRow(r, x.timeShiftSeconds), columns))
        .sort((a, b) => a.id - b.id);
      const ids = new Set(rows.map((r) => r.id));
      const copyStateRead: TabletSidecarRead['copyState'] =
        sc && sc.vreplication.ok && !sc.copyState.ok
          ? failed({
              what: `select ${sidecarDb}.copy_state`,
              where,
              reason: `Table '${sidecarDb}.copy_state' doesn't exist`,
            })
          : ok(
              [
                ...new Map(
                  (sc?.copyState.ok ? sc.copyState.value : [])
                    .filter((c) => ids.has(c.vrepl_id))
                    .map((c) => [`${c.vrepl_id}\u0000${c.table_name}`, c] as const),
                ).values(),
              ].sort(
                (a, b) =>
                  a.vrepl_id - b.vrepl_id || (a.table_name < b.table_name ? -1 : a.table_name > b.table_name ? 1 : 0),
              ),
            );
      const logs: VReplicationLogRow[] = [];
      for (const id of [...ids].sort((a, b) => a - b)) {
        const mine = (sc?.vreplicationLog.ok ? sc.vreplicationLog.value : [])
          .filter((l) => l.vrepl_id === id)
          .sort((a, b) => a.id - b.id);
        logs.push(
          ...mine.slice(-LOG_ROWS_PER_STREAM).map((l) => ({
            ...l,
            created_at: shiftDatetime(l.created_at, x.timeShiftSeconds),
            updated_at: shiftDatetime(l.updated_at, x.timeShiftSeconds),
          })),
        );
      }
      const journals = (sc?.reshardingJournal.ok ? sc.reshardingJournal.value : [])
        .filter((j) => j.db_name === dbName)
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      sidecars.push({
        alias,
        keyspace: ks,
        shard: shard.name,
        endpoint,
        sidecarDb,
        dbName,
        columns: ok([...columns]),
        vreplication: ok(rows),
        copyState: copyStateRead,
        vreplicationLog:
          // The log is queried per IN list of streams: no stream, no query, no failure.
          x.schema(ks) === 'old' && ids.size > 0
            ? failed({
                what: `select ${sidecarDb}.vreplication_log`,
                where,
                reason: `Table '${sidecarDb}.vreplication_log' doesn't exist`,
              })
            : ok(logs),
        reshardingJournal: ok(journals),
        // The harness DDL (test/harness/mariadb.ts) for both schema variants, as MariaDB's information_schema shows it.
        positionColumns: ok(HARNESS_POSITION_COLUMNS),
        // The transactions a scenario opened (openTransactions) as its builder declares them; compare.ts matches their
        // findings loosely (ages, thread ids and the user come from the live server).
        transactions: ok(sc?.transactions?.ok ? [...sc.transactions.value] : []),
        // The harness runs MariaDB with performance_schema off (its default): metadata locks are not recorded.
        metadataLocks: ok({ instrumented: false, locks: [] }),
        // The application tables the builder declared (created live from them, see tableDdl), and every other table the
        // harness creates in the schema (schemaTables(), sequence and foreign-key tables: keyed on one column), as
        // read.
        tableKeys: ok(
          [
            ...(sc?.tableKeys?.ok ? sc.tableKeys.value : []),
            ...[...new Set([...(sc?.tables?.ok ? sc.tables.value : []), ...fieldReadTables(sc)])]
              .filter((t) => !(sc?.tableKeys?.ok && sc.tableKeys.value.some((k) => k.table_name === t)))
              .map((t) => ({ table_name: t, has_primary_key: true, unique_not_null: null, unique_nullable: [] })),
          ].sort((a, b) => byCodeUnit(a.table_name, b.table_name)),
        ),
        // The harness servers are installed without time-zone tables: named zones do not convert.
        timeZoneTables: ok(false),
        // The harness creates vt_filtered@localhost with SELECT, INSERT, UPDATE, DELETE ON *.*
        // (test/harness/mariadb.ts); a scenario that reads another user (`--filtered-user`) declares what the builder
        // expects of it.
        filteredUserGrants:
          sc?.filteredUserGrants ??
          ok({
            user: 'vt_filtered',
            global: [{ select: 'Y', insert: 'Y', update: 'Y', delete: 'Y' }],
            db: [],
            tables: [],
          }),
        // The harness DDL has the 2PC tables in the current schema only; rows as the builder declares them.
        twoPc: ok(
          x.schema(ks) === 'old'
            ? { dtState: null, redoState: null }
            : sc?.twoPc?.ok
              ? sc.twoPc.value
              : { dtState: [], redoState: [] },
        ),
        // The harness creates tables in a tablet's own schema when the builder lists them (schemaTables(), with
        // defaultNames, and the tables of tableKeys()); code-unit order, as information_schema's ORDER BY gives.
        tables: ok(
          [
            ...new Set([
              ...(sc?.tables?.ok ? sc.tables.value : []),
              ...(sc?.tableKeys?.ok ? sc.tableKeys.value.map((t) => t.table_name) : []),
              ...fieldReadTables(sc),
            ]),
          ].sort(byCodeUnit),
        ),
        // `--action create --tables …`: the probes the builder declares, as the live tables answer them (a non-empty
        // table is created with a row; schemaTables() lists it).
        ...(sc?.tableProbes !== undefined ? { tableProbes: sc.tableProbes } : {}),
        // what the builder declared (the live read also reads, as absent, what the vschema names and the
        // harness did not create: no finding either way). The VDiff runs inserted; none on an old schema.
        ...(sc?.sequenceValues !== undefined ? { sequenceValues: sc.sequenceValues } : {}),
        ...(sc?.autoIncrementMax !== undefined ? { autoIncrementMax: sc.autoIncrementMax } : {}),
        vdiffs: ok(x.schema(ks) === 'old' || !sc?.vdiffs?.ok ? [] : [...sc.vdiffs.value]),
        // the foreign keys created from the builder's rows (none otherwise), sorted as the reader sorts them. A direct
        // connection knows it talks to MariaDB and reads InnoDB's dictionary (the harness's reader has PROCESS), rules
        // included; through vtctld the flavor is unknown and information_schema is read, whose REFERENTIAL_CONSTRAINTS
        // MariaDB shows only to users with more than SELECT: the rules are unknown ('').
        foreignKeys: ok(
          (sc?.foreignKeys?.ok
            ? sc.foreignKeys.value.map((f) => (x.via === 'vtctld' ? { ...f, update_rule: '', delete_rule: '' } : f))
            : []
          ).sort((a, b) => byCodeUnit(a.table_name, b.table_name) || byCodeUnit(a.constraint_name, b.constraint_name)),
        ),
      });
    }
  };
  const readShards = new Set<string>();
  for (const ks of targetKs) {
    const sr = topo.shards[ks];
    if (!sr?.ok) continue;
    for (const shard of sr.value) {
      readShards.add(`${ks}/${shard.name}`);
      readOne(ks, shard);
    }
  }
  // The collector also reads, once each, the primaries of the source shards the streams read (their journals).
  for (const sc of [...sidecars]) {
    if (!sc.vreplication.ok) continue;
    for (const row of sc.vreplication.value) {
      let bls: { keyspace: string; shard: string };
      try {
        bls = parseBinlogSource(row.source);
      } catch {
        continue;
      }
      const key = `${bls.keyspace}/${bls.shard}`;
      if (!bls.keyspace || !bls.shard || readShards.has(key)) continue;
      readShards.add(key);
      const sr = topo.shards[bls.keyspace];
      const rec = sr?.ok ? sr.value.find((r) => r.name === bls.shard) : undefined;
      if (rec) readOne(bls.keyspace, rec);
    }
  }
  sidecars.sort((a, b) => byCodeUnit(a.keyspace, b.keyspace) || compareShardNames(a.shard, b.shard));

  const participating = new Set<string>();
  // A stream-less shard's primary is still asked (collect.ts: BuildTargets reaches every target primary).
  const primariesOnly = new Set<string>();
  for (const sc of sidecars) {
    // Its own shard only when it holds streams or could not be read (collect.ts: canSwitch refreshes only target
    // shards with the workflow's streams).
    if (!sc.vreplication.ok || sc.vreplication.value.length > 0) participating.add(`${sc.keyspace}/${sc.shard}`);
    else if (sc.alias !== '') primariesOnly.add(sc.alias);
    if (!sc.vreplication.ok) continue;
    for (const row of sc.vreplication.value) {
      try {
        const bls = parseBinlogSource(row.source);
        if (bls.keyspace && bls.shard) participating.add(`${bls.keyspace}/${bls.shard}`);
      } catch {
        // unparsable: nothing to fetch
      }
    }
  }
  const fullStatus: Record<string, Read<FullStatusRecord>> = {};
  for (const t of [...x.servedTablets].sort((a, b) => byCodeUnit(a.alias, b.alias))) {
    if (!participating.has(`${t.keyspace}/${t.shard}`) && !primariesOnly.has(t.alias)) continue;
    fullStatus[t.alias] =
      src.fullStatus[t.alias] ??
      failed({
        what: `GetFullStatus ${t.alias}`,
        where: `vtctld ${x.address}`,
        reason: `tablet ${t.alias} did not answer FullStatus`,
      });
  }

  // GetWorkflows is read only for the target keyspaces whose sidecar schema lacks `workflow_type` and holds streams
  // (collect.ts), for those shards: the builder's views (none: the fake vtctld answers an empty list), filtered so.
  const workflows: Record<string, Read<readonly VtctldWorkflowRecord[]>> = {};
  {
    const shardsOf = new Map<string, Set<string>>();
    for (const sc of sidecars) {
      if (x.schema(sc.keyspace) !== 'old' || !sc.vreplication.ok || sc.vreplication.value.length === 0) continue;
      const set = shardsOf.get(sc.keyspace) ?? new Set<string>();
      set.add(sc.shard);
      shardsOf.set(sc.keyspace, set);
    }
    for (const [ks, shards] of [...shardsOf].sort(([a], [b]) => byCodeUnit(a, b))) {
      const views = src.workflows[ks]?.ok ? src.workflows[ks].value : [];
      workflows[ks] = ok(
        views
          .map((w) => ({ ...w, streams: w.streams.filter((st) => shards.has(st.shard)) }))
          .filter((w) => w.streams.length > 0),
      );
    }
  }

  return {
    version: src.version,
    tool: src.tool,
    capturedAt: x.capturedAt,
    target: {
      vtctld: x.address,
      keyspaces: [...src.target.keyspaces],
      workflows: [...src.target.workflows],
      via: x.via,
    },
    topology: {
      keyspaces: ok([...x.servedKeyspaces]),
      shards: topo.shards,
      tablets: topo.tablets.ok ? ok([...x.servedTablets]) : topo.tablets,
      vschemas: topo.vschemas,
      routingRules: topo.routingRules,
      shardRoutingRules: topo.shardRoutingRules,
    },
    workflows,
    sidecars,
    fullStatus,
    ...expectedVersionEvidence(x.vtctldOld ? 'old' : 'current', sidecars, src),
    ...(src.cells !== undefined
      ? {
          cells: src.cells,
          ...(src.srvVSchemas !== undefined ? { srvVSchemas: src.srvVSchemas } : {}),
          ...(src.srvKeyspaces !== undefined ? { srvKeyspaces: src.srvKeyspaces } : {}),
        }
      : {}),
  };
}

/**
 * The builder's serving graph (`servingGraph()`), for the fake vtctld: its cells, the SrvVSchemas that exist (a cell
 * without one answers NOT_FOUND) and the SrvKeyspaces by cell. Absent when the builder has none (the fake derives
 * complete records, and the expectation leaves them out: only missing records make findings).
 */
function servingOf(src: Readout): Pick<FakeVtctldCluster, 'cells' | 'srvVSchemas' | 'srvKeyspaces'> {
  if (src.cells === undefined || !src.cells.ok) return {};
  const srvVSchemas: Record<string, SrvVSchemaRecord> = {};
  for (const [cell, r] of Object.entries(src.srvVSchemas ?? {})) if (r.ok) srvVSchemas[cell] = r.value;
  const srvKeyspaces: Record<string, Record<string, SrvKeyspaceRecord>> = {};
  for (const [ks, r] of Object.entries(src.srvKeyspaces ?? {})) {
    if (!r.ok) continue;
    for (const [cell, rec] of Object.entries(r.value)) (srvKeyspaces[cell] ??= {})[ks] = rec;
  }
  return { cells: [...src.cells.value], srvVSchemas, srvKeyspaces };
}

/** The optional RPCs an old vtctld (the `old` sidecar schema) answers UNIMPLEMENTED. */
export const OLD_VTCTLD_LACKS: readonly string[] = ['GetVersion', 'GetKeyspaceRoutingRules', 'GetMirrorRules'];

/**
 * What the collector records of the optional RPCs (src/sources/collect.ts): GetKeyspaceRoutingRules and GetMirrorRules
 * always, GetVersion for every primary whose sidecar columns were read; the fake vtctld answers a build without a time.
 */
function expectedVersionEvidence(
  schema: 'current' | 'old',
  sidecars: readonly TabletSidecarRead[],
  src: Readout,
): Pick<Readout, 'rpcs' | 'tabletBuilds' | 'keyspaceRoutingRules' | 'mirrorRules'> {
  const answered = schema !== 'old';
  const read = sidecars.filter((sc) => sc.columns.ok).map((sc) => sc.alias);
  const rpcs: Record<string, boolean> = { GetKeyspaceRoutingRules: answered, GetMirrorRules: answered };
  if (read.length > 0) rpcs.GetVersion = answered;
  const tabletBuilds: Record<string, Read<TabletBuildRecord>> = {};
  for (const alias of read)
    tabletBuilds[alias] = answered
      ? ok({ gitRev: 'sim', buildTimestamp: 0 })
      : {
          ok: false,
          error: {
            what: `GetVersion ${alias}`,
            where: 'vtctld',
            reason: 'not available on this vtctld (UNIMPLEMENTED)',
            unavailable: true,
          },
        };
  const keyspaceRoutingRules: Read<readonly KeyspaceRoutingRuleRecord[]> = answered
    ? ok(src.keyspaceRoutingRules?.ok ? [...src.keyspaceRoutingRules.value] : [])
    : {
        ok: false,
        error: {
          what: 'GetKeyspaceRoutingRules',
          where: 'vtctld',
          reason: 'not available on this vtctld (UNIMPLEMENTED)',
          unavailable: true,
        },
      };
  const mirrorRules: Read<readonly MirrorRuleRecord[]> = answered
    ? ok(src.mirrorRules?.ok ? [...src.mirrorRules.value] : [])
    : {
        ok: false,
        error: {
          what: 'GetMirrorRules',
          where: 'vtctld',
          reason: 'not available on this vtctld (UNIMPLEMENTED)',
          unavailable: true,
        },
      };
  return { rpcs, tabletBuilds, keyspaceRoutingRules, mirrorRules };
}

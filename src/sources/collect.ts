/**
 * Collection: all of vtpreflight's I/O, in one parallel wave per dependency level, bounded by `--concurrency`,
 * with a deadline on every call. Failures are recorded in the readout (what, where, why); only an unreachable
 * vtctld stops the run (CollectError → exit 2).
 *
 * Waves: (1) GetKeyspaces, GetTablets, routing rules → (2) per keyspace FindAllShardsInKeyspace, GetVSchema →
 * (3) per in-scope primary the sidecar reads (MySQL, or vtctld ExecuteFetchAsDBA with `--via vtctld`), and
 * GetWorkflows per target keyspace → (4) GetFullStatus of every tablet of every participating shard (the source
 * shards the streams read and the target shards), which is also how we learn which tablets answer at all.
 */
import { CollectError, oneLine } from '../errors.js';
import {
  READOUT_VERSION,
  type FullStatusRecord,
  type KeyspaceRecord,
  type Read,
  type ReadError,
  type Readout,
  type ShardRecord,
  type TabletRecord,
  type TabletSidecarRead,
  type VSchemaRecord,
  type VtctldWorkflowRecord,
} from '../readout.js';
import { VERSION } from '../version.js';
import { createLimiter } from './limit.js';
import { readSidecar, type MysqlConnectOptions } from './mysql.js';
import { formatSql, readSidecarWith, type SqlExecutor } from './sidecar.js';
import { createVtctldClient, unreachableMessage, VtctldError, type VtctldClient, type VtctldClientOptions } from './vtctld.js';
import { parseBinlogSource } from '../vitess/binlog-source.js';

export interface CollectOptions {
  readonly vtctld: VtctldClientOptions;
  readonly keyspaces: readonly string[];
  readonly workflows: readonly string[];
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly via: 'mysql' | 'vtctld';
  readonly mysql: Omit<MysqlConnectOptions, 'host' | 'port' | 'timeoutMs'>;
  /** Progress callback: a phase name and counts; the progress adapter renders it. */
  readonly onProgress?: (e: ProgressEvent) => void;
  /** Clock, injectable for tests. */
  readonly now?: () => Date;
}

export interface ProgressEvent {
  readonly phase: 'topology' | 'shards' | 'sidecars' | 'status';
  readonly done: number;
  readonly total: number;
}

const ok = <T>(value: T): Read<T> => ({ ok: true, value });

/** Collects a readout from a live cluster. Throws CollectError only when vtctld itself cannot be reached. */
export async function collect(opts: CollectOptions): Promise<Readout> {
  const capturedAt = (opts.now ?? (() => new Date()))().toISOString();
  const client = createVtctldClient({ ...opts.vtctld, timeoutMs: opts.timeoutMs });
  const limit = createLimiter(opts.concurrency);
  const where = `vtctld ${opts.vtctld.address}`;
  const progress = opts.onProgress ?? (() => {});
  try {
    const unreachable = new Set<string>();
    const asRead = async <T>(what: string, fn: () => Promise<T>): Promise<Read<T>> => {
      try {
        return ok(await limit(fn));
      } catch (e) {
        if (e instanceof VtctldError && e.kind === 'unreachable') unreachable.add(what);
        return { ok: false, error: toReadError(what, where, e) };
      }
    };

    // Wave 1.
    progress({ phase: 'topology', done: 0, total: 4 });
    const [keyspaces, tablets, routingRules, shardRoutingRules] = await Promise.all([
      asRead<readonly KeyspaceRecord[]>('GetKeyspaces', () => client.getKeyspaces()),
      asRead<readonly TabletRecord[]>('GetTablets', () => client.getTablets()),
      asRead('GetRoutingRules', () => client.getRoutingRules()),
      asRead('GetShardRoutingRules', () => client.getShardRoutingRules()),
    ]);
    if (!keyspaces.ok && unreachable.has('GetKeyspaces')) {
      throw new CollectError(unreachableMessage(opts.vtctld.address, opts.timeoutMs));
    }
    progress({ phase: 'topology', done: 4, total: 4 });
    const ksNames = keyspaces.ok ? keyspaces.value.map((k) => k.name) : [];
    for (const k of opts.keyspaces) {
      if (keyspaces.ok && !ksNames.includes(k)) {
        throw new CollectError(`keyspace ${k} not found in vtctld ${opts.vtctld.address} (keyspaces: ${ksNames.join(', ') || 'none'})`);
      }
    }

    // Wave 2.
    const shards: Record<string, Read<readonly ShardRecord[]>> = {};
    const vschemas: Record<string, Read<VSchemaRecord>> = {};
    let done2 = 0;
    await Promise.all(
      ksNames.flatMap((ks) => [
        asRead(`FindAllShardsInKeyspace ${ks}`, () => client.findAllShardsInKeyspace(ks)).then((r) => {
          shards[ks] = r;
          progress({ phase: 'shards', done: ++done2, total: ksNames.length * 2 });
        }),
        asRead(`GetVSchema ${ks}`, () => client.getVSchema(ks)).then((r) => {
          vschemas[ks] = r;
          progress({ phase: 'shards', done: ++done2, total: ksNames.length * 2 });
        }),
      ]),
    );

    // Wave 3: sidecars of the target keyspaces' primaries, and Vitess's own workflow view.
    const targetKeyspaces = opts.keyspaces.length > 0 ? [...opts.keyspaces] : ksNames;
    const tabletByAlias = new Map((tablets.ok ? tablets.value : []).map((t) => [t.alias, t] as const));
    const ksRecord = new Map((keyspaces.ok ? keyspaces.value : []).map((k) => [k.name, k] as const));
    const sidecarJobs: Promise<TabletSidecarRead>[] = [];
    for (const ks of targetKeyspaces) {
      const sr = shards[ks];
      if (!sr?.ok) continue;
      const sidecarDb = ksRecord.get(ks)?.sidecarDbName || '_vt';
      for (const shard of sr.value) {
        sidecarJobs.push(limit(() => readShardSidecar(opts, client, shard, sidecarDb, tabletByAlias, tablets.ok)));
      }
    }
    const workflows: Record<string, Read<readonly VtctldWorkflowRecord[]>> = {};
    const workflowJobs = targetKeyspaces.map((ks) =>
      asRead(`GetWorkflows ${ks}`, () => client.getWorkflows(ks, { activeOnly: false })).then((r) => {
        workflows[ks] = r;
      }),
    );
    let done3 = 0;
    const sidecars = await Promise.all(
      sidecarJobs.map((p) => p.then((r) => (progress({ phase: 'sidecars', done: ++done3, total: sidecarJobs.length }), r))),
    );
    await Promise.all(workflowJobs);

    // Wave 4: GetFullStatus of every tablet of the participating shards.
    const participating = new Set<string>();
    for (const sc of sidecars) {
      participating.add(`${sc.keyspace}/${sc.shard}`);
      if (!sc.vreplication.ok) continue;
      for (const row of sc.vreplication.value) {
        try {
          const bls = parseBinlogSource(row.source);
          if (bls.keyspace && bls.shard) participating.add(`${bls.keyspace}/${bls.shard}`);
        } catch {
          // An unparsable source is the model's finding to make; nothing to fetch for it.
        }
      }
    }
    const statusTablets = (tablets.ok ? tablets.value : []).filter((t) => participating.has(`${t.keyspace}/${t.shard}`));
    const fullStatus: Record<string, Read<FullStatusRecord>> = {};
    let done4 = 0;
    await Promise.all(
      statusTablets.map((t) =>
        asRead(`GetFullStatus ${t.alias}`, () => client.getFullStatus(t.alias)).then((r) => {
          fullStatus[t.alias] = r;
          progress({ phase: 'status', done: ++done4, total: statusTablets.length });
        }),
      ),
    );

    return {
      version: READOUT_VERSION,
      tool: { name: 'vtpreflight', version: VERSION },
      capturedAt,
      target: { vtctld: opts.vtctld.address, keyspaces: [...opts.keyspaces], workflows: [...opts.workflows], via: opts.via },
      topology: { keyspaces, shards, tablets, vschemas, routingRules, shardRoutingRules },
      workflows,
      sidecars: sidecars.sort((a, b) => a.keyspace.localeCompare(b.keyspace) || a.shard.localeCompare(b.shard)),
      fullStatus: sortKeys(fullStatus),
    };
  } finally {
    client.close();
  }
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

function toReadError(what: string, where: string, e: unknown): ReadError {
  if (e instanceof VtctldError) return { what, where, reason: oneLine(e), ...(e.timedOut ? { timedOut: true } : {}) };
  return { what, where, reason: oneLine(e) };
}

/** Reads one shard's primary sidecar; never throws. */
async function readShardSidecar(
  opts: CollectOptions,
  client: VtctldClient,
  shard: ShardRecord,
  sidecarDb: string,
  tabletByAlias: ReadonlyMap<string, TabletRecord>,
  tabletsRead: boolean,
): Promise<TabletSidecarRead> {
  const alias = shard.primaryAlias;
  const tablet = alias ? tabletByAlias.get(alias) : undefined;
  const failed = (what: string, reason: string, endpoint = ''): TabletSidecarRead => {
    const error: ReadError = { what, where: `${alias ?? `${shard.keyspace}/${shard.name}`}${endpoint ? ` (${endpoint})` : ''}`, reason };
    const r = { ok: false as const, error };
    return { alias: alias ?? '', keyspace: shard.keyspace, shard: shard.name, endpoint, sidecarDb, dbName: '', columns: r, vreplication: r, copyState: r, vreplicationLog: r, reshardingJournal: r };
  };
  if (!alias) return failed('find primary', `shard ${shard.keyspace}/${shard.name} has no primary`);
  if (!tablet) return failed('find primary', tabletsRead ? `primary ${alias} has no tablet record` : 'GetTablets failed');
  const dbName = tablet.dbNameOverride || `vt_${tablet.keyspace}`;
  if (opts.via === 'vtctld') {
    const exec = vtctldExecutor(client, alias);
    return readSidecarWith(exec, { alias, keyspace: shard.keyspace, shard: shard.name, endpoint: 'vtctld ExecuteFetchAsDBA', sidecarDb, dbName }, {});
  }
  if (!tablet.mysqlHostname || !tablet.mysqlPort) {
    return failed('connect', `tablet record has no mysql_hostname/mysql_port; use --via vtctld`);
  }
  return readSidecar(
    { alias, keyspace: shard.keyspace, shard: shard.name, endpoint: `${tablet.mysqlHostname}:${tablet.mysqlPort}`, sidecarDb, dbName },
    { ...opts.mysql, host: tablet.mysqlHostname, port: tablet.mysqlPort, timeoutMs: opts.timeoutMs },
    {},
  );
}

/** An SqlExecutor over vtctld's ExecuteFetchAsDBA (no placeholders there: parameters are inlined, escaped). */
function vtctldExecutor(client: VtctldClient, alias: string): SqlExecutor {
  return {
    async query(sql, params) {
      const res = await client.executeFetchAsDBA(alias, formatSql(sql, params), 10_000);
      return { columns: [...res.fields], rows: res.rawRows.map((r) => [...r]) };
    },
    async close() {},
  };
}

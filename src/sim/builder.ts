/**
 * The simulator's building blocks: a seeded source of randomness, BinlogSource text and DATETIMEs as Vitess and MySQL
 * write them, and the {@link Builder} that scenarios (`./scenario.ts`) and faults (`./faults.ts`) fill in and
 * {@link finish} freezes into a {@link SimCluster}, with vtctld's own `GetWorkflows` view computed from the same rows.
 */
import { prng } from './prng.js';
import type {
  CopyStateRow,
  FullStatusRecord,
  KeyspaceRecord,
  ReshardingJournalRow,
  RoutingRuleRecord,
  ShardRecord,
  TabletControlRecord,
  TabletRecord,
  VReplicationLogRow,
  VReplicationRow,
  VSchemaRecord,
  VSchemaTableRecord,
  VtctldStreamRecord,
  VtctldWorkflowRecord,
} from '../readout.js';
import { KNOWN_VREPLICATION_COLUMNS } from '../sources/sidecar.js';
import { type WorkflowType, workflowSubTypeNumber, workflowTypeName, workflowTypeNumber } from '../vitess/enums.js';
import { executedText, type GtidState, keyRangeOf, positionBehind, purgedText } from './shards.js';
import type { InjectedFault, SimCluster, SimSidecar } from './types.js';
import { binlogSourceText, healthyFullStatus } from './records.js';
import { sourceSchemaTables } from './schema.js';

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness.

export interface Random {
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  uuid(): string;
  /** k distinct indices of [0, n) (with repeats only when k > n), in draw order. */
  pick(n: number, k: number): number[];
}

function random(seed: number): Random {
  const next = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    int,
    uuid() {
      let hex = '';
      for (let i = 0; i < 4; i++)
        hex += Math.floor(next() * 0x100000000)
          .toString(16)
          .padStart(8, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    },
    pick(n, k) {
      const order = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = int(0, i);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      return Array.from({ length: k }, (_, i) => order[i % n]!);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Building blocks.

const MAX_INT64 = '9223372036854775807';

const datetimes = new Map<number, string>();

/** `YYYY-MM-DD hh:mm:ss` in UTC, as the server prints a DATETIME (memoized: log rows share a few instants). */
function datetime(seconds: number): string {
  let text = datetimes.get(seconds);
  if (text === undefined) {
    text = new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
    if (datetimes.size > 10_000) datetimes.clear();
    datetimes.set(seconds, text);
  }
  return text;
}

export interface ShardBuild {
  readonly keyspace: string;
  readonly name: string;
  readonly serving: boolean;
  readonly primary: string;
  readonly tablets: string[];
  readonly gtid: GtidState;
  tabletControls: TabletControlRecord[];
  rows: VReplicationRow[];
  copyState: CopyStateRow[];
  logs: VReplicationLogRow[];
  journals: ReshardingJournalRow[];
  nextId: number;
}

interface StreamSpec {
  readonly workflow: string;
  readonly type: WorkflowType;
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
  readonly rules: readonly { match: string; filter: string }[];
  readonly stopAfterCopy?: boolean;
  /** Seconds since the workflow was created (log timestamps). */
  readonly ageSeconds: number;
}

/** The mutable cluster under construction; {@link finish} freezes it into a SimCluster. */
export class Builder {
  readonly rnd: Random;
  readonly nowSeconds: number;
  readonly keyspaces: KeyspaceRecord[] = [];
  readonly vschemas: Record<string, VSchemaRecord> = {};
  readonly shards = new Map<string, ShardBuild>();
  readonly tablets: TabletRecord[] = [];
  readonly fullStatus: Record<string, FullStatusRecord | { readonly error: string }> = {};
  routingRules: RoutingRuleRecord[] = [];
  readonly unreachable: string[] = [];
  readonly faults: InjectedFault[] = [];
  private nextUid = 100;

  constructor(
    readonly name: string,
    readonly seed: number,
    readonly nowMs: number,
  ) {
    this.rnd = random(seed);
    this.nowSeconds = Math.floor(nowMs / 1000);
  }

  keyspace(
    name: string,
    tables: Record<string, VSchemaTableRecord>,
    sharded: boolean,
    vindexes?: VSchemaRecord['vindexes'],
  ): void {
    this.keyspaces.push({
      name,
      keyspaceType: 'NORMAL',
      baseKeyspace: '',
      durabilityPolicy: 'semi_sync',
      sidecarDbName: '_vt',
    });
    this.vschemas[name] = {
      sharded,
      vindexes: vindexes ?? (sharded ? { hash: { type: 'hash', params: {}, owner: '' } } : {}),
      tables,
      requireExplicitRouting: false,
    };
  }

  /** Adds shards with a primary and a replica each; returns them in key-range order. */
  addShards(keyspace: string, names: readonly string[], serving: boolean): ShardBuild[] {
    return names.map((name) => {
      const uid = this.nextUid;
      this.nextUid += 10;
      const primary = `zone1-${String(uid).padStart(10, '0')}`;
      const current = this.rnd.uuid();
      const sets = [{ uuid: current, count: this.rnd.int(2_000_000, 90_000_000) }];
      // A third of the shards were reparented once: the old primary's transactions stay in the set.
      if (this.rnd.int(0, 2) === 0) sets.push({ uuid: this.rnd.uuid(), count: this.rnd.int(10_000, 900_000) });
      sets.sort((a, b) => (a.uuid < b.uuid ? -1 : 1));
      const gtid: GtidState = { sets, current, retained: this.rnd.int(200_000, 900_000) };
      const shard: ShardBuild = {
        keyspace,
        name,
        serving,
        primary,
        tablets: [],
        gtid,
        tabletControls: [],
        rows: [],
        copyState: [],
        logs: [],
        journals: [],
        nextId: 1,
      };
      for (const [i, type] of (['PRIMARY', 'REPLICA'] as const).entries()) {
        const alias = `zone1-${String(uid + i).padStart(10, '0')}`;
        shard.tablets.push(alias);
        this.tablets.push({
          alias,
          cell: 'zone1',
          uid: uid + i,
          hostname: `${keyspace}-${name === '-' ? 'x' : name.replace(/^-/, '0-').replace(/-$/, '-ff')}-${type.toLowerCase()}.vt.local`,
          keyspace,
          shard: name,
          type,
          dbNameOverride: '',
          mysqlHostname: '127.0.0.1',
          mysqlPort: 0,
          portMap: { vt: 15000, grpc: 16000 },
        });
        const self = type === 'PRIMARY' ? current : this.rnd.uuid();
        const behind = type === 'PRIMARY' ? 0 : this.rnd.int(0, 3);
        this.fullStatus[alias] = healthyFullStatus({
          serverUuid: self,
          tabletType: type,
          position: `MySQL56/${type === 'PRIMARY' ? executedText(gtid) : positionBehind(gtid, behind)}`,
          gtidPurged: purgedText(gtid),
        });
      }
      this.shards.set(`${keyspace}/${name}`, shard);
      return shard;
    });
  }

  shard(keyspace: string, name: string): ShardBuild {
    const s = this.shards.get(`${keyspace}/${name}`);
    if (s === undefined) throw new Error(`simulator bug: no shard ${keyspace}/${name}`);
    return s;
  }

  /** Adds a healthy, caught-up stream on `target`'s primary; returns its row. */
  stream(target: ShardBuild, spec: StreamSpec): VReplicationRow {
    const source = this.shard(spec.sourceKeyspace, spec.sourceShard);
    const id = target.nextId++;
    const now = this.nowSeconds;
    const updated = now - this.rnd.int(0, 2);
    const row: VReplicationRow = {
      id,
      workflow: spec.workflow,
      source: binlogSourceText({
        keyspace: spec.sourceKeyspace,
        shard: spec.sourceShard,
        rules: spec.rules,
        stopAfterCopy: spec.stopAfterCopy ?? false,
      }),
      pos: `MySQL56/${positionBehind(source.gtid, this.rnd.int(0, 40))}`,
      stop_pos: null,
      max_tps: MAX_INT64,
      max_replication_lag: MAX_INT64,
      cell: '',
      tablet_types: '',
      time_updated: updated,
      transaction_timestamp: updated - this.rnd.int(0, 1),
      state: 'Running',
      message: '',
      db_name: `vt_${target.keyspace}`,
      rows_copied: this.rnd.int(10_000, 5_000_000),
      tags: '',
      time_heartbeat: updated,
      workflow_type: workflowTypeNumber(spec.type),
      time_throttled: 0,
      component_throttled: '',
      workflow_sub_type: workflowSubTypeNumber('None'),
      defer_secondary_keys: 0,
      options: '{}',
    };
    target.rows.push(row);
    const created = now - spec.ageSeconds;
    const copied = created + Math.floor(spec.ageSeconds / 3);
    const tables = spec.rules.map((r) => r.match).join(',');
    this.log(
      target,
      id,
      'Stream Created',
      'Init',
      `{"components":{"source":"${spec.sourceKeyspace}/${spec.sourceShard}"},"tables":"${tables}"}`,
      created,
    );
    this.log(target, id, 'Started Copy Phase', 'Copying', 'Started copy phase', created + 1);
    this.log(
      target,
      id,
      'Ended Copy Phase',
      'Running',
      `Copy phase completed at gtid ${positionBehind(source.gtid, 50_000)}`,
      copied,
    );
    this.log(target, id, 'State Changed', 'Running', '', copied);
    return row;
  }

  log(target: ShardBuild, vreplId: number, type: string, state: string, message: string, at: number): void {
    target.logs.push({
      id: target.logs.length + 1,
      vrepl_id: vreplId,
      type,
      state,
      message,
      created_at: datetime(at),
      updated_at: datetime(at),
      count: 1,
    });
  }

  /** Replaces a stream row (faults edit rows in place, keeping ids). */
  patch(target: ShardBuild, id: number, patch: Partial<VReplicationRow>): VReplicationRow {
    const i = target.rows.findIndex((r) => r.id === id);
    if (i < 0) throw new Error(`simulator bug: no stream ${id} on ${target.keyspace}/${target.name}`);
    const row = { ...target.rows[i]!, ...patch };
    target.rows[i] = row;
    return row;
  }
}

export const HOUR = 3600;
export const DAY = 24 * HOUR;

/**
 * Materialize rule into a sharded keyspace: the select with `in_keyrange` in front, as `generateBinlogSources` writes
 * it.
 */
export function inKeyrange(
  select: string,
  column: string,
  keyspace: string,
  vindex: string,
  shard: string,
  suffix = '',
): string {
  return `${select} where in_keyrange(${column}, '${keyspace}.${vindex}', '${shard}')${suffix}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Assembly.

/** The cluster as built, frozen into what the simulated servers serve. */
export function finish(b: Builder): SimCluster {
  const shards: ShardRecord[] = [];
  const sidecars: Record<string, SimSidecar> = {};
  let streams = 0;
  const unreachable = new Set(b.unreachable);
  // Source primaries hold the tables their workflows copy (an empty list reads as a schema not visible).
  const schemaTables = sourceSchemaTables([...b.shards.values()].flatMap((s) => s.rows));
  for (const s of b.shards.values()) {
    shards.push({
      keyspace: s.keyspace,
      name: s.name,
      keyRange: keyRangeOf(s.name),
      primaryAlias: s.primary,
      isPrimaryServing: s.serving,
      tabletControls: s.tabletControls,
    });
    const rows = [...s.rows].sort((x, y) => x.id - y.id);
    streams += rows.length;
    sidecars[s.primary] = {
      alias: s.primary,
      keyspace: s.keyspace,
      shard: s.name,
      sidecarDb: '_vt',
      dbName: `vt_${s.keyspace}`,
      columns: KNOWN_VREPLICATION_COLUMNS,
      vreplication: rows,
      copyState: s.copyState,
      vreplicationLog: s.logs,
      reshardingJournal: s.journals,
      ...(schemaTables.has(`${s.keyspace}/${s.name}`) ? { tables: schemaTables.get(`${s.keyspace}/${s.name}`) } : {}),
    };
  }
  const workflows: Record<string, VtctldWorkflowRecord[]> = {};
  for (const ks of b.keyspaces) workflows[ks.name] = vtctldView(b, ks.name, unreachable);
  return {
    scenario: b.name,
    seed: b.seed,
    now: new Date(b.nowMs).toISOString(),
    keyspaces: b.keyspaces,
    shards,
    tablets: [...b.tablets].sort((x, y) => (x.alias < y.alias ? -1 : x.alias > y.alias ? 1 : 0)),
    vschemas: b.vschemas,
    routingRules: b.routingRules,
    shardRoutingRules: [],
    fullStatus: b.fullStatus,
    workflows,
    sidecars,
    unreachable: [...unreachable].sort(),
    faults: b.faults,
    stats: {
      keyspaces: b.keyspaces.length,
      shards: shards.length,
      tablets: b.tablets.length,
      primaries: shards.length,
      streams,
    },
  };
}

/**
 * What vtctld's `GetWorkflows` shows for a target keyspace, from the same rows: displayed states (`getStreamState`),
 * positions without the flavor prefix, copy-state tables. Primaries that do not answer are left out.
 */
function vtctldView(b: Builder, keyspace: string, unreachable: ReadonlySet<string>): VtctldWorkflowRecord[] {
  const byName = new Map<
    string,
    {
      streams: VtctldStreamRecord[];
      type: number;
      sourceKeyspace: string;
      sourceShards: Set<string>;
      targetShards: Set<string>;
      maxLag: number;
    }
  >();
  for (const s of b.shards.values()) {
    if (s.keyspace !== keyspace || unreachable.has(s.primary)) continue;
    const copying = new Map<number, string[]>();
    for (const c of s.copyState) copying.set(c.vrepl_id, [...(copying.get(c.vrepl_id) ?? []), c.table_name]);
    for (const r of s.rows) {
      const m = /^keyspace:"([^"]*)" shard:"([^"]*)"/.exec(r.source);
      const sourceKeyspace = m?.[1] ?? '';
      const sourceShard = m?.[2] ?? '';
      const tables = copying.get(r.id) ?? [];
      const message = r.message ?? '';
      const state = message.toLowerCase().includes('error')
        ? 'Error'
        : r.state === 'Running' && tables.length > 0
          ? 'Copying'
          : r.state;
      const name = r.workflow ?? '';
      let w = byName.get(name);
      if (w === undefined)
        byName.set(
          name,
          (w = {
            streams: [],
            type: r.workflow_type ?? 0,
            sourceKeyspace,
            sourceShards: new Set(),
            targetShards: new Set(),
            maxLag: 0,
          }),
        );
      w.sourceShards.add(sourceShard);
      w.targetShards.add(s.name);
      w.maxLag = Math.max(w.maxLag, b.nowSeconds - r.time_updated);
      w.streams.push({
        id: r.id,
        shard: s.name,
        tablet: s.primary,
        sourceKeyspace,
        sourceShard,
        position: r.pos.replace(/^MySQL56\//, ''),
        stopPosition: r.stop_pos ?? '',
        state,
        message,
        timeUpdated: r.time_updated,
        transactionTimestamp: r.transaction_timestamp,
        copyStateTables: tables,
      });
    }
  }
  return [...byName.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([name, w]) => ({
      name,
      sourceKeyspace: w.sourceKeyspace,
      sourceShards: [...w.sourceShards],
      targetKeyspace: keyspace,
      targetShards: [...w.targetShards],
      workflowType: workflowTypeName(w.type) ?? 'Materialize',
      workflowSubType: 'None',
      maxVReplicationLag: w.maxLag,
      maxVReplicationTransactionLag: w.maxLag,
      streams: w.streams,
    }));
}

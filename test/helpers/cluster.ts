/**
 * A fluent builder of readouts for check tests. It produces a *readout*, which the real model
 * builder turns into a model: tests never hand-write model objects.
 *
 * Defaults describe a healthy cluster: every shard has a primary (`zone1-…`) and a replica, every tablet
 * answered GetFullStatus with GTID mode ON, ROW, FULL, and every primary's sidecar was read. Workflows added
 * with `moveTables` / `reshard` / `materialize` / `lookup` get the streams Vitess would create, Running, caught up.
 */
import type {
  FullStatusRecord,
  KeyspaceRecord,
  MetadataLocksRead,
  PositionColumnRow,
  TableKeyRow,
  TableProbeRow,
  SequenceValueRow,
  AutoIncrementMaxRow,
  VDiffRow,
  ForeignKeyRow,
  TransactionRow,
  FilteredUserGrants,
  Read,
  ReadErrorKind,
  Readout,
  RoutingRuleRecord,
  MirrorRuleRecord,
  ShardRecord,
  ShardRoutingRuleRecord,
  TabletRecord,
  TabletSidecarRead,
  VSchemaRecord,
  VSchemaTableRecord,
  VReplicationRow,
  CopyStateRow,
  VReplicationLogRow,
  ReshardingJournalRow,
  VtctldWorkflowRecord,
  TabletBuildRecord,
  SrvKeyspaceRecord,
  SrvVSchemaRecord,
} from '../../src/readout.js';
import { buildModel } from '../../src/model/build.js';
import { withReadErrorKinds } from '../../src/sources/read-kind.js';
import { KNOWN_VREPLICATION_COLUMNS } from '../../src/sources/sidecar.js';
import type { ClusterModel, WorkflowSubType, WorkflowType } from '../../src/model/types.js';
import { workflowSubTypeNumber, workflowTypeNumber } from '../../src/vitess/enums.js';
import { binlogSourceText, healthyFullStatus } from '../../src/sim/records.js';
import { sourceSchemaTables } from '../../src/sim/schema.js';
import type { ReadValue } from '../../src/reads/unit.js';
import { READ_UNITS, type UnitReadId } from '../../src/reads/units/index.js';

export const CAPTURED_AT = '2026-01-01T00:00:00.000Z';
export const NOW_SECONDS = Date.parse(CAPTURED_AT) / 1000;

/** A deterministic server uuid for a keyspace/shard's primary (the uuid inside its GTID sets). */
export function serverUuid(keyspace: string, shard: string): string {
  let h = 2166136261;
  for (const ch of `${keyspace}/${shard}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const hex = `${h.toString(16).padStart(8, '0')}a1b2c3d4e5f60718293a4b5c`.slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** `MySQL56/<uuid of ks/shard>:1-N`. */
export function gtidPos(keyspace: string, shard: string, n: number): string {
  return `MySQL56/${serverUuid(keyspace, shard)}:1-${n}`;
}

/** Go-prototext-style text for a simple BinlogSource (what Vitess writes into `source`); shared with the simulator. */
export const sourceText = binlogSourceText;

function hexBounds(shard: string): { start: string; end: string } | null {
  if (shard === '0' || shard === '-') return null;
  const [start = '', end = ''] = shard.split('-');
  return { start: start.toLowerCase(), end: end.toLowerCase() };
}

function intersects(a: string, b: string): boolean {
  const x = hexBounds(a);
  const y = hexBounds(b);
  if (!x || !y) return true;
  const pad = (v: string) => v.padEnd(32, '0');
  const xs = pad(x.start),
    xe = x.end === '' ? null : pad(x.end);
  const ys = pad(y.start),
    ye = y.end === '' ? null : pad(y.end);
  return (xe === null || ys < xe) && (ye === null || xs < ye);
}

export interface KeyspaceOptions {
  shards: readonly string[];
  /** Defaults to true when more than one shard or when the shard name is not `0`. */
  sharded?: boolean;
  sidecarDbName?: string;
  /** Tables with their primary vindex column (sharded) — default: none. */
  tables?: Record<string, Partial<VSchemaTableRecord>>;
  vindexes?: VSchemaRecord['vindexes'];
  /** Shard records marked not serving (Reshard targets before the switch). */
  notServing?: readonly string[];
  /** Shards without a primary. */
  noPrimary?: readonly string[];
  /** Replicas per shard (default 1). */
  replicas?: number;
  /** Whether to read this keyspace's primaries' sidecars (default true). */
  readSidecars?: boolean;
  /** The keyspace record's durability policy (default `semi_sync`). */
  durabilityPolicy?: string;
}

export interface StreamOptions extends Partial<VReplicationRow> {
  /** Convenience: copy_state tables for this stream. */
  copyTables?: readonly string[];
  sourceKeyspace?: string;
  sourceShard?: string;
  rules?: readonly { match: string; filter: string }[];
  stopAfterCopy?: boolean;
  type?: WorkflowType;
  subType?: WorkflowSubType;
}

/**
 * The GTID-set columns of the upstream sidecar schema (vreplication.sql, resharding_journal.sql), with `val`'s
 * size.
 */
export function upstreamPositionColumns(
  valType = 'mediumblob',
  valBytes = 16777215,
  posBytes = 10000,
): PositionColumnRow[] {
  return [
    { table_name: 'resharding_journal', column_name: 'val', data_type: valType, max_length: valBytes },
    { table_name: 'vreplication', column_name: 'pos', data_type: 'varbinary', max_length: posBytes },
    { table_name: 'vreplication', column_name: 'stop_pos', data_type: 'varbinary', max_length: posBytes },
  ];
}

/**
 * The `_vt.vreplication` columns of a v20+ sidecar (v19 lacks `options`: `src/model/versions.ts`): every column the
 * reader knows, in its order.
 */
export const SIDECAR_COLUMNS: readonly string[] = KNOWN_VREPLICATION_COLUMNS;

type ShardState = {
  record: ShardRecord;
  columns?: readonly string[];
  /** `information_schema.COLUMNS` of the GTID-set columns; absent = not in the readout (an older snapshot). */
  positionColumns?: readonly PositionColumnRow[] | { error: string };
  /**
   * The tables of the primary's schema; default: read, the tables the streams reading from it name. `'absent'`: a
   * readout from before the read existed.
   */
  tables?: readonly string[] | { error: string } | 'absent';
  /** Open transactions and metadata locks of the primary's schema; absent = not in the readout (older snapshot). */
  activity?: {
    transactions: readonly TransactionRow[] | { error: string };
    metadataLocks: MetadataLocksRead | { error: string };
  };
  /** Base tables of the primary's schema and their keys; absent = not in the readout (older snapshot). */
  tableKeys?: readonly TableKeyRow[] | { error: string };
  /** MoveTables create's emptiness probes on this primary; absent = not probed. */
  tableProbes?: readonly TableProbeRow[] | { error: string };
  /** Sequence and VDiff reads of the primary; each absent = not in the readout. */
  sequenceValues?: readonly SequenceValueRow[] | { error: string };
  autoIncrementMax?: readonly AutoIncrementMaxRow[] | { error: string };
  vdiffs?: readonly VDiffRow[] | { error: string };
  foreignKeys?: readonly ForeignKeyRow[] | { error: string };
  /** The reads declared as units (src/reads/units/): a value, or the error that failed it; absent = not read. */
  unitReads?: { [K in UnitReadId]?: { readonly value: ReadValue<K> } | { readonly error: string } };
  /** The filtered user's privilege rows; absent = not in the readout (older snapshot). */
  filteredUserGrants?: FilteredUserGrants | { error: string };
  streams: VReplicationRow[];
  copyState: CopyStateRow[];
  logs: VReplicationLogRow[];
  journals: ReshardingJournalRow[];
  sidecarFailure?: string;
  copyStateFailure?: string;
  read: boolean;
};

/** A table-moving workflow of the builder (MoveTables, Materialize): its keyspaces, tables and stream options. */
interface TableWorkflowOptions {
  from: string;
  to: string;
  tables: readonly string[];
  column?: string;
  vindex?: string;
  allSources?: boolean;
  filters?: Record<string, string>;
  subType?: WorkflowSubType;
}

/** The fluent builder. Every method returns `this`; `readout()` and `model()` finish. */
export class ClusterBuilder {
  private capturedAt = CAPTURED_AT;
  private readonly keyspaces: KeyspaceRecord[] = [];
  private readonly vschemas: Record<string, VSchemaRecord> = {};
  private readonly shards = new Map<string, ShardState>();
  private readonly tablets: TabletRecord[] = [];
  private readonly fullStatus: Record<string, Read<FullStatusRecord>> = {};
  private routingRules: RoutingRuleRecord[] = [];
  private shardRoutingRules: ShardRoutingRuleRecord[] = [];
  private readonly vtctldViews: Record<string, VtctldWorkflowRecord[]> = {};
  private readonly topoFailures: Partial<
    Record<'keyspaces' | 'tablets' | 'routingRules' | 'shardRoutingRules', string>
  > = {};
  private readonly shardsFailures = new Map<string, string>();
  private readonly vschemaFailures = new Map<string, string>();
  private selection = { keyspaces: [] as string[], workflows: [] as string[] };
  private nextUid = 100;
  private readonly rpcs: Record<string, boolean> = {};
  private serving: {
    cells: string[];
    srvVSchemas: Record<string, Read<SrvVSchemaRecord>>;
    srvKeyspaces: Record<string, Read<Record<string, SrvKeyspaceRecord>>>;
  } | null = null;

  /**
   * Records what vtgates serve: every cell of the tablets (plus `extraCells`) has a SrvVSchema and, for every
   * keyspace, a SrvKeyspace, unless `missing` names it (`{ srvVSchema: ['zone2'], srvKeyspace: { customer: ['zone2'] }
   * }`).
   */
  servingGraph(
    o: {
      extraCells?: string[];
      missing?: { srvVSchema?: string[]; srvKeyspace?: Record<string, string[]> };
      unreadable?: { srvVSchema?: string[]; srvKeyspace?: string[] };
    } = {},
  ): this {
    const cells = [...new Set([...this.tablets.map((t) => t.cell), ...(o.extraCells ?? [])])].sort();
    const srvVSchemas: Record<string, Read<SrvVSchemaRecord>> = {};
    for (const cell of cells) {
      srvVSchemas[cell] = o.missing?.srvVSchema?.includes(cell)
        ? {
            ok: false,
            error: {
              what: `GetSrvVSchema ${cell}`,
              where: 'vtctld 127.0.0.1:15999',
              // vtctld sends the topo's NoNode error as UNKNOWN (src/sources/read-kind.ts).
              reason: `UNKNOWN: node doesn't exist: ${cell}/SrvVSchema`,
            },
          }
        : o.unreadable?.srvVSchema?.includes(cell)
          ? {
              ok: false,
              error: {
                what: `GetSrvVSchema ${cell}`,
                where: 'vtctld 127.0.0.1:15999',
                reason: 'UNAVAILABLE: topo is down',
                timedOut: false,
              },
            }
          : {
              ok: true,
              value: {
                keyspaces: this.keyspaces.map((k) => k.name).sort(),
                routingRules: this.routingRules,
                keyspaceRoutingRules: [],
              },
            };
    }
    const srvKeyspaces: Record<string, Read<Record<string, SrvKeyspaceRecord>>> = {};
    for (const ks of this.keyspaces) {
      const byCell: Record<string, SrvKeyspaceRecord> = {};
      for (const cell of cells) {
        if (o.missing?.srvKeyspace?.[ks.name]?.includes(cell)) continue;
        byCell[cell] = { partitions: [{ servedType: 'PRIMARY', shards: [], shardTabletControls: [] }] };
      }
      srvKeyspaces[ks.name] = o.unreadable?.srvKeyspace?.includes(ks.name)
        ? {
            ok: false,
            error: {
              what: `GetSrvKeyspaces ${ks.name}`,
              where: 'vtctld 127.0.0.1:15999',
              reason: 'UNAVAILABLE: topo is down',
            },
          }
        : { ok: true, value: byCell };
    }
    this.serving = { cells, srvVSchemas, srvKeyspaces };
    return this;
  }
  /**
   * Replaces the SrvKeyspace of `keyspace` in `cells` (default: every cell of the serving graph): partitions as the
   * cell's vtgates serve them. Call after `servingGraph()`.
   */
  srvKeyspace(keyspace: string, record: SrvKeyspaceRecord, cells?: readonly string[]): this {
    if (!this.serving) throw new Error('test builder: call servingGraph() before srvKeyspace()');
    const cur = this.serving.srvKeyspaces[keyspace];
    const byCell: Record<string, SrvKeyspaceRecord> = cur?.ok ? { ...cur.value } : {};
    for (const cell of cells ?? this.serving.cells) byCell[cell] = record;
    this.serving.srvKeyspaces[keyspace] = { ok: true, value: byCell };
    return this;
  }

  /**
   * Makes GetSrvVSchema of `cell` fail with `reason` as vtctld's answer reads (`CODE: text`), without a recorded kind
   * (it is derived from the reason, as for a snapshot of an older vtpreflight). Call after `servingGraph()`.
   */
  srvVSchemaFailure(cell: string, reason: string): this {
    if (!this.serving) throw new Error('test builder: call servingGraph() before srvVSchemaFailure()');
    this.serving.srvVSchemas[cell] = {
      ok: false,
      error: { what: `GetSrvVSchema ${cell}`, where: 'vtctld 127.0.0.1:15999', reason },
    };
    return this;
  }

  /**
   * Replaces the routing rules of the SrvVSchema of `cells` (a cell not rebuilt since). Call after
   * `servingGraph()`.
   */
  srvRouting(rules: RoutingRuleRecord[], cells: readonly string[]): this {
    if (!this.serving) throw new Error('test builder: call servingGraph() before srvRouting()');
    for (const cell of cells) {
      const cur = this.serving.srvVSchemas[cell];
      if (cur?.ok) this.serving.srvVSchemas[cell] = { ok: true, value: { ...cur.value, routingRules: rules } };
    }
    return this;
  }

  private readonly builds: Record<string, Read<TabletBuildRecord>> = {};
  private keyspaceRules: { fromKeyspace: string; toKeyspace: string }[] | null = null;
  private transport: 'mysql' | 'vtctld' = 'mysql';

  private mirror: Read<MirrorRuleRecord[]> | null = null;

  /** `GetMirrorRules` (v21+): the rules, or `{ error }` for a failed read; absent from the readout unless set. */
  mirrorRules(rules: MirrorRuleRecord[] | { error: string; unavailable?: boolean }): this {
    this.mirror = Array.isArray(rules)
      ? { ok: true, value: rules.map((r) => ({ ...r })) }
      : {
          ok: false,
          error: {
            what: 'GetMirrorRules',
            where: 'vtctld 127.0.0.1:15999',
            reason: rules.error,
            ...(rules.unavailable ? { unavailable: true } : {}),
          },
        };
    return this;
  }

  /**
   * Sets `query_service_disabled` on `shard` of `keyspace` in the SrvKeyspace of every cell (or `cells`) for each of
   * `types` (a Reshard's read switch does it to its source shards). Calls {@link servingGraph} first when needed.
   */
  disableQueryService(keyspace: string, shard: string, types: readonly string[], cells?: readonly string[]): this {
    if (this.serving === null) this.servingGraph();
    const r = this.serving!.srvKeyspaces[keyspace];
    if (r === undefined || !r.ok) throw new Error(`test builder: no SrvKeyspace read for ${keyspace}`);
    const rec = this.shards.get(`${keyspace}/${shard}`)?.record;
    if (rec === undefined) throw new Error(`test builder: no shard ${keyspace}/${shard}`);
    for (const [cell, srv] of Object.entries(r.value)) {
      if (cells !== undefined && !cells.includes(cell)) continue;
      const partitions = [...srv.partitions];
      for (const type of types) {
        const i = partitions.findIndex((p) => p.servedType === type);
        const base = i >= 0 ? partitions[i]! : { servedType: type, shards: [], shardTabletControls: [] };
        const next = {
          ...base,
          shardTabletControls: [
            ...base.shardTabletControls,
            { name: shard, keyRange: rec.keyRange, queryServiceDisabled: true },
          ],
        };
        if (i >= 0) partitions[i] = next;
        else partitions.push(next);
      }
      r.value[cell] = { partitions };
    }
    return this;
  }

  /** `GetKeyspaceRoutingRules` (multi-tenant migrations); absent from the readout unless set. */
  keyspaceRouting(rules: { fromKeyspace: string; toKeyspace: string }[]): this {
    this.keyspaceRules = rules.map((r) => ({ ...r }));
    return this;
  }

  /** The transport the readout says the primaries were read with (`target.via`; default `mysql`). */
  via(transport: 'mysql' | 'vtctld'): this {
    this.transport = transport;
    return this;
  }

  /**
   * The GTID-set columns one primary reports in `information_schema.COLUMNS` (default: not in the readout), or the
   * error of that read. `upstreamPositionColumns()` gives the sizes of the upstream sidecar schema.
   */
  positionColumns(keyspace: string, shard: string, rows: readonly PositionColumnRow[] | { error: string }): this {
    this.state(keyspace, shard).positionColumns = 'error' in rows ? rows : [...rows];
    return this;
  }

  /**
   * The tables one primary's schema lists in `information_schema.TABLES` (default: read, the tables the streams
   * reading from it name), or the error of that read; `'absent'`: a readout from before the read existed.
   */
  schemaTables(keyspace: string, shard: string, tables: readonly string[] | { error: string } | 'absent'): this {
    this.state(keyspace, shard).tables = tables === 'absent' || 'error' in tables ? tables : [...tables];
    return this;
  }

  /**
   * MoveTables create's emptiness probes on one primary (default: not probed): each table probed, with whether it
   * holds a row (`{ nonEmpty: [...] }` lists the non-empty ones among `probed`), or the error of the probes.
   */
  tableProbes(
    keyspace: string,
    shard: string,
    p: { probed: readonly string[]; nonEmpty?: readonly string[] } | { error: string },
  ): this {
    this.state(keyspace, shard).tableProbes =
      'error' in p ? p : p.probed.map((t) => ({ table_name: t, non_empty: (p.nonEmpty ?? []).includes(t) }));
    return this;
  }

  /**
   * What holds locks on one primary's schema (default: not in the readout): its open transactions and metadata locks,
   * or the error of either read. `metadataLocks` defaults to an instrumented server without locks.
   */
  activity(
    keyspace: string,
    shard: string,
    a: {
      transactions?: readonly Partial<TransactionRow>[] | { error: string };
      metadataLocks?: MetadataLocksRead | { error: string };
    },
  ): this {
    const trx = a.transactions ?? [];
    this.state(keyspace, shard).activity = {
      transactions:
        'error' in trx
          ? trx
          : trx.map((t, i) => ({
              thread_id: 1000 + i,
              user: 'vt_app',
              command: 'Sleep',
              trx_seconds: 0,
              trx_state: 'RUNNING',
              state: null,
              digest: null,
              rows_modified: 1,
              tables_locked: 1,
              ...t,
            })),
      metadataLocks: a.metadataLocks ?? { instrumented: true, locks: [] },
    };
    return this;
  }

  /** the sequence tables' row `id = 0` read on one primary (default: not in the readout), or its error. */
  sequenceValues(
    keyspace: string,
    shard: string,
    rows: readonly (Partial<SequenceValueRow> & { table_name: string })[] | { error: string },
  ): this {
    this.state(keyspace, shard).sequenceValues =
      'error' in rows ? rows : rows.map((r) => ({ present: true, next_id: null, cache: null, ...r }));
    return this;
  }

  /** the auto_increment columns' MAX read on one primary (default: not in the readout), or that read's error. */
  autoIncrementMax(
    keyspace: string,
    shard: string,
    rows: readonly (Partial<AutoIncrementMaxRow> & { table_name: string; column_name: string })[] | { error: string },
  ): this {
    this.state(keyspace, shard).autoIncrementMax =
      'error' in rows ? rows : rows.map((r) => ({ present: true, max_value: null, ...r }));
    return this;
  }

  /** the foreign keys of one primary's schema (default: not in the readout), or that read's error. */
  foreignKeys(
    keyspace: string,
    shard: string,
    rows:
      | readonly (Partial<ForeignKeyRow> & { table_name: string; referenced_table_name: string })[]
      | { error: string },
  ): this {
    this.state(keyspace, shard).foreignKeys =
      'error' in rows
        ? rows
        : rows.map((r) => ({
            constraint_name: `fk_${r.table_name}_${r.referenced_table_name}`,
            referenced_schema: `vt_${keyspace}`,
            update_rule: 'RESTRICT',
            delete_rule: 'RESTRICT',
            ...r,
          }));
    return this;
  }

  /** the VDiff runs read on one primary, newest first (default: not in the readout), or that read's error. */
  vdiffs(
    keyspace: string,
    shard: string,
    rows: readonly (Partial<VDiffRow> & { id: number; workflow: string })[] | { error: string },
  ): this {
    this.state(keyspace, shard).vdiffs =
      'error' in rows
        ? rows
        : rows.map((r) => ({
            vdiff_uuid: `uuid-${r.id}`,
            keyspace,
            shard,
            state: 'completed',
            created_at: '2026-01-01 00:00:00',
            completed_at: r.state === undefined || r.state === 'completed' ? '2026-01-01 00:10:00' : null,
            last_error: '',
            mismatched_tables: [],
            ...r,
          }));
    return this;
  }

  /**
   * The base tables of one primary's schema and their keys (default: not in the readout), or that read's error.
   * A table given by name only has a primary key.
   */
  tableKeys(
    keyspace: string,
    shard: string,
    rows: readonly (string | Partial<TableKeyRow>)[] | { error: string },
  ): this {
    this.state(keyspace, shard).tableKeys =
      'error' in rows
        ? rows
        : rows.map((r) => ({
            table_name: typeof r === 'string' ? r : (r.table_name ?? 't'),
            has_primary_key: typeof r === 'string' ? true : (r.has_primary_key ?? false),
            unique_not_null: typeof r === 'string' ? null : (r.unique_not_null ?? null),
            unique_nullable: typeof r === 'string' ? [] : [...(r.unique_nullable ?? [])],
          }));
    return this;
  }

  /** The filtered user's rows in mysql.user/db/tables_priv on one primary; default: not in the readout. */
  filteredUserGrants(keyspace: string, shard: string, grants: FilteredUserGrants | { error: string }): this {
    this.state(keyspace, shard).filteredUserGrants = grants;
    return this;
  }

  /** What a read declared as a unit (src/reads/units/) read on one primary; default: not in the readout. */
  primaryRead<K extends UnitReadId>(keyspace: string, shard: string, id: K, value: ReadValue<K>): this {
    const st = this.state(keyspace, shard);
    st.unitReads = { ...st.unitReads, [id]: { value } };
    return this;
  }

  /** A read declared as a unit failed on one primary with `error` (the server's message). */
  primaryReadFails(keyspace: string, shard: string, id: UnitReadId, error: string): this {
    const st = this.state(keyspace, shard);
    st.unitReads = { ...st.unitReads, [id]: { error } };
    return this;
  }

  /** The `_vt.vreplication` columns of one primary's sidecar (default {@link SIDECAR_COLUMNS}). */
  sidecarColumns(keyspace: string, shard: string, columns: readonly string[]): this {
    this.state(keyspace, shard).columns = [...columns];
    return this;
  }

  /** Every read primary's sidecar without these columns (e.g. `['options']` for a v19 cluster). */
  withoutSidecarColumns(columns: readonly string[]): this {
    for (const s of this.shards.values())
      s.columns = (s.columns ?? SIDECAR_COLUMNS).filter((c) => !columns.includes(c));
    return this;
  }

  /** Records whether vtctld implements an optional RPC (`false` = it answered UNIMPLEMENTED). */
  rpc(name: string, available: boolean): this {
    this.rpcs[name] = available;
    return this;
  }

  /** Records a tablet's GetVersion answer. */
  tabletBuild(alias: string, build: TabletBuildRecord | { error: string }): this {
    this.builds[alias] =
      'error' in build
        ? { ok: false, error: { what: `GetVersion ${alias}`, where: 'vtctld 127.0.0.1:15999', reason: build.error } }
        : { ok: true, value: build };
    return this;
  }

  at(iso: string): this {
    this.capturedAt = iso;
    return this;
  }

  /** Adds a keyspace with its shards, a primary and replicas per shard, and a vschema. */
  keyspace(name: string, opts: KeyspaceOptions): this {
    const sharded = opts.sharded ?? !(opts.shards.length === 1 && (opts.shards[0] === '0' || opts.shards[0] === '-'));
    this.keyspaces.push({
      name,
      keyspaceType: 'NORMAL',
      baseKeyspace: '',
      durabilityPolicy: opts.durabilityPolicy ?? 'semi_sync',
      sidecarDbName: opts.sidecarDbName ?? '_vt',
    });
    const tables: Record<string, VSchemaTableRecord> = {};
    for (const [t, v] of Object.entries(opts.tables ?? {})) {
      tables[t] = {
        type: v.type ?? '',
        columnVindexes: v.columnVindexes ?? [],
        source: v.source ?? '',
        pinned: v.pinned ?? '',
        ...(v.autoIncrement ? { autoIncrement: v.autoIncrement } : {}),
      };
    }
    this.vschemas[name] = {
      sharded,
      vindexes: opts.vindexes ?? (sharded ? { hash: { type: 'hash', params: {}, owner: '' } } : {}),
      tables,
      requireExplicitRouting: false,
    };
    for (const shard of opts.shards) {
      const uid = this.nextUid;
      this.nextUid += 10;
      const primary = !(opts.noPrimary ?? []).includes(shard);
      const primaryAlias = `zone1-${String(uid).padStart(10, '0')}`;
      this.shards.set(`${name}/${shard}`, {
        record: {
          keyspace: name,
          name: shard,
          keyRange: hexBounds(shard),
          primaryAlias: primary ? primaryAlias : null,
          isPrimaryServing: !(opts.notServing ?? []).includes(shard),
          tabletControls: [],
        },
        streams: [],
        copyState: [],
        logs: [],
        journals: [],
        read: primary && opts.readSidecars !== false,
      });
      const types = [primary ? 'PRIMARY' : 'REPLICA', ...Array.from({ length: opts.replicas ?? 1 }, () => 'REPLICA')];
      types.forEach((type, i) => {
        const alias = `zone1-${String(uid + i).padStart(10, '0')}`;
        this.tablets.push({
          alias,
          cell: 'zone1',
          uid: uid + i,
          hostname: 'localhost',
          keyspace: name,
          shard,
          type,
          dbNameOverride: '',
          mysqlHostname: '127.0.0.1',
          mysqlPort: 17000 + uid + i,
          portMap: { vt: 15000 + uid + i, grpc: 16000 + uid + i },
        });
        this.fullStatus[alias] = {
          ok: true,
          value: healthyFullStatus({
            serverUuid: serverUuid(name, shard),
            tabletType: type,
            position: gtidPos(name, shard, 1000),
          }),
        };
      });
    }
    return this;
  }

  private state(keyspace: string, shard: string): ShardState {
    const s = this.shards.get(`${keyspace}/${shard}`);
    if (!s) throw new Error(`test builder: no shard ${keyspace}/${shard}; add it with keyspace() first`);
    return s;
  }

  private primaryOf(keyspace: string, shard: string): string {
    const s = this.state(keyspace, shard);
    return s.record.primaryAlias ?? this.tablets.find((t) => t.keyspace === keyspace && t.shard === shard)!.alias;
  }

  /** Adds (or replaces) stream `id` on the primary of `keyspace/shard`. Unspecified columns are healthy. */
  stream(keyspace: string, shard: string, id: number, o: StreamOptions = {}): this {
    const st = this.state(keyspace, shard);
    const srcKs = o.sourceKeyspace ?? keyspace;
    const srcShard = o.sourceShard ?? '0';
    const row: VReplicationRow = {
      id,
      workflow: o.workflow ?? 'wf',
      source:
        o.source ??
        sourceText({
          keyspace: srcKs,
          shard: srcShard,
          rules: o.rules ?? [{ match: '/.*', filter: shard }],
          stopAfterCopy: o.stopAfterCopy,
        }),
      pos: o.pos ?? gtidPos(srcKs, srcShard, 1000),
      stop_pos: o.stop_pos ?? null,
      max_tps: '9223372036854775807',
      max_replication_lag: '9223372036854775807',
      cell: o.cell ?? '',
      tablet_types: o.tablet_types ?? '',
      time_updated: o.time_updated ?? NOW_SECONDS - 1,
      transaction_timestamp: o.transaction_timestamp ?? NOW_SECONDS - 1,
      state: o.state ?? 'Running',
      message: o.message ?? '',
      db_name: o.db_name ?? `vt_${keyspace}`,
      rows_copied: o.rows_copied ?? 0,
      tags: '',
      time_heartbeat: o.time_heartbeat ?? NOW_SECONDS - 1,
      workflow_type: o.workflow_type ?? workflowTypeNumber(o.type ?? 'Reshard'),
      time_throttled: 0,
      component_throttled: '',
      workflow_sub_type: o.workflow_sub_type ?? workflowSubTypeNumber(o.subType ?? 'None'),
      defer_secondary_keys: 0,
      options: '{}',
      ...(o.posBase64 !== undefined ? { posBase64: o.posBase64 } : {}),
    };
    st.streams = st.streams.filter((r) => r.id !== id);
    st.streams.push(row);
    st.copyState = st.copyState.filter((c) => c.vrepl_id !== id);
    for (const t of o.copyTables ?? []) st.copyState.push({ id: st.copyState.length + 1, vrepl_id: id, table_name: t });
    return this;
  }

  /** Changes columns of an existing stream. */
  patchStream(keyspace: string, shard: string, id: number, patch: StreamOptions): this {
    const st = this.state(keyspace, shard);
    const row = st.streams.find((r) => r.id === id);
    if (!row) throw new Error(`test builder: no stream ${id} on ${keyspace}/${shard}`);
    const { copyTables, sourceKeyspace, sourceShard, rules, stopAfterCopy, type, subType, ...cols } = patch;
    const next: Record<string, unknown> = { ...row, ...cols };
    if (type) next.workflow_type = workflowTypeNumber(type);
    if (subType) next.workflow_sub_type = workflowSubTypeNumber(subType);
    if (sourceKeyspace || sourceShard || rules || stopAfterCopy !== undefined) {
      throw new Error(
        'test builder: patchStream cannot rewrite the source piecemeal; pass `source: sourceText({...})`',
      );
    }
    st.streams = st.streams.map((r) => (r.id === id ? (next as unknown as VReplicationRow) : r));
    if (copyTables) {
      st.copyState = st.copyState.filter((c) => c.vrepl_id !== id);
      for (const t of copyTables) st.copyState.push({ id: st.copyState.length + 1, vrepl_id: id, table_name: t });
    }
    return this;
  }

  removeStream(keyspace: string, shard: string, id: number): this {
    const st = this.state(keyspace, shard);
    st.streams = st.streams.filter((r) => r.id !== id);
    st.copyState = st.copyState.filter((c) => c.vrepl_id !== id);
    return this;
  }

  /** Next free stream id on a shard's primary. */
  nextId(keyspace: string, shard: string): number {
    return Math.max(0, ...this.state(keyspace, shard).streams.map((s) => s.id)) + 1;
  }

  /** A MoveTables from `from` into `to`, with the streams Vitess creates (intersecting source shards). */
  moveTables(workflow: string, o: Omit<TableWorkflowOptions, 'filters'>): this {
    return this.tableWorkflow(workflow, 'MoveTables', o);
  }

  /** A Materialize (every source shard feeds every target shard). */
  materialize(
    workflow: string,
    o: { from: string; to: string; tables: readonly string[]; filters?: Record<string, string> },
  ): this {
    return this.tableWorkflow(workflow, 'Materialize', { ...o, allSources: true });
  }

  /** A lookup vindex backfill (CreateLookupIndex): every source shard into every lookup-keyspace shard. */
  lookup(
    workflow: string,
    o: { from: string; to: string; table: string; ownerTable: string; owned: boolean; stopped?: boolean },
  ): this {
    const src = this.shardNames(o.from);
    for (const t of this.shardNames(o.to)) {
      for (const s of src) {
        const id = this.nextId(o.to, t);
        this.stream(o.to, t, id, {
          workflow,
          type: 'CreateLookupIndex',
          sourceKeyspace: o.from,
          sourceShard: s,
          rules: [
            {
              match: o.table,
              filter:
                `select id as id, keyspace_id() as keyspace_id from ${o.ownerTable}` +
                (o.owned ? ' group by id, keyspace_id' : ''),
            },
          ],
          stopAfterCopy: o.owned,
          ...(o.owned && o.stopped !== false ? { state: 'Stopped', message: 'Stopped after copy.' } : {}),
        });
      }
    }
    return this;
  }

  /** A Reshard of `keyspace` from `from` shards to `to` shards (both must exist; targets are usually not serving). */
  reshard(workflow: string, o: { keyspace: string; from: readonly string[]; to: readonly string[] }): this {
    for (const t of o.to) {
      for (const s of o.from) {
        if (!intersects(s, t)) continue;
        this.stream(o.keyspace, t, this.nextId(o.keyspace, t), {
          workflow,
          type: 'Reshard',
          sourceKeyspace: o.keyspace,
          sourceShard: s,
          rules: [{ match: '/.*', filter: t }],
        });
      }
    }
    return this;
  }

  private tableWorkflow(workflow: string, type: WorkflowType, o: TableWorkflowOptions): this {
    const targetSharded = this.vschemas[o.to]?.sharded ?? false;
    for (const t of this.shardNames(o.to)) {
      for (const s of this.shardNames(o.from)) {
        if (!o.allSources && !intersects(s, t)) continue;
        const rules = o.tables.map((table) => {
          const base = o.filters?.[table] ?? `select * from ${table}`;
          return {
            match: table,
            filter: targetSharded
              ? `${base} where in_keyrange(${o.column ?? 'id'}, '${o.to}.${o.vindex ?? 'hash'}', '${t}')`
              : base,
          };
        });
        this.stream(o.to, t, this.nextId(o.to, t), {
          workflow,
          type,
          subType: o.subType,
          sourceKeyspace: o.from,
          sourceShard: s,
          rules,
        });
      }
    }
    return this;
  }

  shardNames(keyspace: string): string[] {
    return [...this.shards.values()].filter((s) => s.record.keyspace === keyspace).map((s) => s.record.name);
  }

  /** Marks a shard's primary sidecar read as failed (e.g. unreachable). */
  unreadable(keyspace: string, shard: string, reason = 'connect ECONNREFUSED'): this {
    this.state(keyspace, shard).sidecarFailure = reason;
    return this;
  }

  /** Marks a shard's primary as out of scope (not read on purpose). */
  notRead(keyspace: string, shard: string): this {
    this.state(keyspace, shard).read = false;
    return this;
  }

  /** Makes copy_state unreadable on a shard. */
  copyStateUnreadable(keyspace: string, shard: string, reason = 'table does not exist'): this {
    this.state(keyspace, shard).copyStateFailure = reason;
    return this;
  }

  /** Patches a shard record (key range, serving, tablet controls, primary). */
  shardRecord(keyspace: string, shard: string, patch: Partial<ShardRecord>): this {
    const st = this.state(keyspace, shard);
    st.record = { ...st.record, ...patch };
    return this;
  }

  /** Adds a shard record with no tablets (an orphan shard). */
  orphanShard(keyspace: string, shard: string, patch: Partial<ShardRecord> = {}): this {
    this.shards.set(`${keyspace}/${shard}`, {
      record: {
        keyspace,
        name: shard,
        keyRange: hexBounds(shard),
        primaryAlias: null,
        isPrimaryServing: false,
        tabletControls: [],
        ...patch,
      },
      streams: [],
      copyState: [],
      logs: [],
      journals: [],
      read: false,
    });
    return this;
  }

  /**
   * Patches the GetFullStatus answer of a tablet, or makes it fail with `error` (and, optionally, a `cause` that is not
   * the tablet's: the run's deadline, or vtctld itself).
   */
  fullStatusOf(
    alias: string,
    patch:
      | Partial<FullStatusRecord>
      | { error: string; code?: string; cause?: 'deadline' | 'vtctld'; timedOut?: boolean; kind?: ReadErrorKind },
  ): this {
    if ('error' in patch && typeof patch.error === 'string') {
      const p = patch as {
        error: string;
        code?: string;
        cause?: 'deadline' | 'vtctld';
        timedOut?: boolean;
        kind?: ReadErrorKind;
      };
      this.fullStatus[alias] = {
        ok: false,
        error: {
          what: 'GetFullStatus',
          where: `vtctld (tablet ${alias})`,
          reason: p.error,
          ...(p.code !== undefined ? { code: p.code } : {}),
          ...(p.timedOut ? { timedOut: true } : {}),
          ...(p.cause ? { cause: p.cause } : {}),
          ...(p.kind ? { kind: p.kind } : {}),
        },
      };
    } else {
      const cur = this.fullStatus[alias];
      if (!cur?.ok) throw new Error(`test builder: no full status for ${alias}`);
      this.fullStatus[alias] = { ok: true, value: { ...cur.value, ...(patch as Partial<FullStatusRecord>) } };
    }
    return this;
  }

  /** Leaves a tablet out of the GetFullStatus reads (not asked, as opposed to failed). */
  fullStatusNotAsked(alias: string): this {
    delete this.fullStatus[alias];
    return this;
  }

  /** Alias of a shard's primary (or first tablet), for tests that address tablets. */
  primary(keyspace: string, shard: string): string {
    return this.primaryOf(keyspace, shard);
  }

  /** Alias of the n-th replica of a shard. */
  replica(keyspace: string, shard: string, n = 0): string {
    const list = this.tablets.filter((t) => t.keyspace === keyspace && t.shard === shard && t.type !== 'PRIMARY');
    const t = list[n];
    if (!t) throw new Error(`test builder: no replica ${n} on ${keyspace}/${shard}`);
    return t.alias;
  }

  /**
   * Adds a tablet `<cell>-<uid>` to a shard, with a healthy GetFullStatus answer (replication position of the
   * shard).
   */
  addTablet(keyspace: string, shard: string, o: { cell: string; uid: number; type: string }): this {
    this.state(keyspace, shard);
    const alias = `${o.cell}-${String(o.uid).padStart(10, '0')}`;
    this.tablets.push({
      alias,
      cell: o.cell,
      uid: o.uid,
      hostname: 'localhost',
      keyspace,
      shard,
      type: o.type,
      dbNameOverride: '',
      mysqlHostname: '127.0.0.1',
      mysqlPort: 17000 + o.uid,
      portMap: { vt: 15000 + o.uid, grpc: 16000 + o.uid },
    });
    this.fullStatus[alias] = {
      ok: true,
      value: healthyFullStatus({
        serverUuid: serverUuid(keyspace, shard),
        tabletType: o.type,
        position: gtidPos(keyspace, shard, 1000),
      }),
    };
    return this;
  }

  /** Patches a tablet record (type, cell …; the alias stays). */
  patchTablet(alias: string, patch: Partial<Omit<TabletRecord, 'alias' | 'uid'>>): this {
    const i = this.tablets.findIndex((t) => t.alias === alias);
    if (i < 0) throw new Error(`test builder: no tablet ${alias}`);
    this.tablets[i] = { ...this.tablets[i]!, ...patch };
    return this;
  }

  /** Removes a tablet record and its GetFullStatus answer. */
  removeTablet(alias: string): this {
    const i = this.tablets.findIndex((t) => t.alias === alias);
    if (i < 0) throw new Error(`test builder: no tablet ${alias}`);
    this.tablets.splice(i, 1);
    delete this.fullStatus[alias];
    return this;
  }

  routing(rules: RoutingRuleRecord[]): this {
    this.routingRules = rules;
    return this;
  }

  shardRouting(rules: ShardRoutingRuleRecord[]): this {
    this.shardRoutingRules = rules;
    return this;
  }

  journal(keyspace: string, shard: string, row: ReshardingJournalRow): this {
    this.state(keyspace, shard).journals.push(row);
    return this;
  }

  log(keyspace: string, shard: string, row: VReplicationLogRow): this {
    this.state(keyspace, shard).logs.push(row);
    return this;
  }

  vtctldWorkflows(keyspace: string, workflows: VtctldWorkflowRecord[]): this {
    this.vtctldViews[keyspace] = workflows;
    return this;
  }

  /** Makes a vtctld read fail. */
  topologyUnreadable(
    part: 'keyspaces' | 'tablets' | 'routingRules' | 'shardRoutingRules',
    reason = 'UNAVAILABLE',
  ): this {
    this.topoFailures[part] = reason;
    return this;
  }

  /** Makes GetVSchema of a keyspace fail. */
  vschemaUnreadable(keyspace: string, reason = 'UNAVAILABLE'): this {
    this.vschemaFailures.set(keyspace, reason);
    return this;
  }

  shardsUnreadable(keyspace: string, reason = 'UNAVAILABLE'): this {
    this.shardsFailures.set(keyspace, reason);
    return this;
  }

  select(o: { keyspaces?: string[]; workflows?: string[] }): this {
    this.selection = { keyspaces: o.keyspaces ?? [], workflows: o.workflows ?? [] };
    return this;
  }

  readout(): Readout {
    const vt = (what: string, reason: string): Read<never> => ({
      ok: false,
      error: { what, where: 'vtctld 127.0.0.1:15999', reason },
    });
    const tf = this.topoFailures;
    const shards: Record<string, Read<readonly ShardRecord[]>> = {};
    const vschemas: Record<string, Read<VSchemaRecord>> = {};
    for (const ks of this.keyspaces) {
      const fail = this.shardsFailures.get(ks.name);
      shards[ks.name] = fail
        ? vt(`FindAllShardsInKeyspace ${ks.name}`, fail)
        : {
            ok: true,
            value: [...this.shards.values()].filter((s) => s.record.keyspace === ks.name).map((s) => s.record),
          };
      const vfail = this.vschemaFailures.get(ks.name);
      vschemas[ks.name] = vfail ? vt(`GetVSchema ${ks.name}`, vfail) : { ok: true, value: this.vschemas[ks.name]! };
    }
    const sidecars: TabletSidecarRead[] = [];
    // A schema's default tables: those the streams reading from it name (a source keyspace has what it copies).
    const sourceTables = sourceSchemaTables([...this.shards.values()].flatMap((s) => s.streams));
    for (const s of this.shards.values()) {
      if (!s.read || !s.record.primaryAlias) continue;
      const alias = s.record.primaryAlias;
      const tablet = this.tablets.find((t) => t.alias === alias)!;
      const endpoint = `${tablet.mysqlHostname}:${tablet.mysqlPort}`;
      const ksRec = this.keyspaces.find((k) => k.name === s.record.keyspace)!;
      const bad = (what: string, reason: string): Read<never> => ({
        ok: false,
        error: { what, where: `${alias} (${endpoint})`, reason },
      });
      const f = s.sidecarFailure;
      sidecars.push({
        alias,
        keyspace: s.record.keyspace,
        shard: s.record.name,
        endpoint,
        sidecarDb: ksRec.sidecarDbName || '_vt',
        dbName: `vt_${s.record.keyspace}`,
        columns: f ? bad('connect', f) : { ok: true, value: [...(s.columns ?? SIDECAR_COLUMNS)] },
        vreplication: f ? bad('connect', f) : { ok: true, value: [...s.streams] },
        copyState: f
          ? bad('connect', f)
          : s.copyStateFailure
            ? bad('select copy_state', s.copyStateFailure)
            : { ok: true, value: [...s.copyState] },
        vreplicationLog: f ? bad('connect', f) : { ok: true, value: [...s.logs] },
        reshardingJournal: f ? bad('connect', f) : { ok: true, value: [...s.journals] },
        ...(s.positionColumns === undefined
          ? {}
          : {
              positionColumns: f
                ? bad('connect', f)
                : 'error' in s.positionColumns
                  ? bad(`select information_schema.COLUMNS of ${ksRec.sidecarDbName || '_vt'}`, s.positionColumns.error)
                  : { ok: true as const, value: [...s.positionColumns] },
            }),
        ...(s.sequenceValues === undefined
          ? {}
          : {
              sequenceValues: f
                ? bad('connect', f)
                : 'error' in s.sequenceValues
                  ? bad(`select vt_${s.record.keyspace} sequence`, s.sequenceValues.error)
                  : { ok: true as const, value: [...s.sequenceValues] },
            }),
        ...(s.autoIncrementMax === undefined
          ? {}
          : {
              autoIncrementMax: f
                ? bad('connect', f)
                : 'error' in s.autoIncrementMax
                  ? bad(`select max of vt_${s.record.keyspace}`, s.autoIncrementMax.error)
                  : { ok: true as const, value: [...s.autoIncrementMax] },
            }),
        ...(s.foreignKeys === undefined
          ? {}
          : {
              foreignKeys: f
                ? bad('connect', f)
                : 'error' in s.foreignKeys
                  ? bad(
                      `select information_schema.REFERENTIAL_CONSTRAINTS of vt_${s.record.keyspace}`,
                      s.foreignKeys.error,
                    )
                  : { ok: true as const, value: [...s.foreignKeys] },
            }),
        ...(s.vdiffs === undefined
          ? {}
          : {
              vdiffs: f
                ? bad('connect', f)
                : 'error' in s.vdiffs
                  ? bad(`select ${ksRec.sidecarDbName || '_vt'}.vdiff`, s.vdiffs.error)
                  : { ok: true as const, value: [...s.vdiffs] },
            }),
        ...(s.tableKeys === undefined
          ? {}
          : {
              tableKeys: f
                ? bad('connect', f)
                : 'error' in s.tableKeys
                  ? bad(`select information_schema.TABLES (base tables) of vt_${s.record.keyspace}`, s.tableKeys.error)
                  : { ok: true as const, value: [...s.tableKeys] },
            }),
        ...(s.activity === undefined
          ? {}
          : {
              transactions: f
                ? bad('connect', f)
                : 'error' in s.activity.transactions
                  ? bad(
                      `select information_schema.INNODB_TRX of vt_${s.record.keyspace}`,
                      s.activity.transactions.error,
                    )
                  : { ok: true as const, value: [...s.activity.transactions] },
              metadataLocks: f
                ? bad('connect', f)
                : 'error' in s.activity.metadataLocks
                  ? bad(
                      `select performance_schema.metadata_locks of vt_${s.record.keyspace}`,
                      s.activity.metadataLocks.error,
                    )
                  : { ok: true as const, value: s.activity.metadataLocks },
            }),
        ...(s.tableProbes === undefined
          ? {}
          : {
              tableProbes: f
                ? bad('connect', f)
                : 'error' in s.tableProbes
                  ? bad(`select 1 from vt_${s.record.keyspace}.<table> limit 1`, s.tableProbes.error)
                  : { ok: true as const, value: [...s.tableProbes] },
            }),
        ...(s.filteredUserGrants === undefined
          ? {}
          : {
              filteredUserGrants: f
                ? bad('connect', f)
                : 'error' in s.filteredUserGrants
                  ? bad('select mysql.user', s.filteredUserGrants.error)
                  : { ok: true as const, value: s.filteredUserGrants },
            }),
        ...Object.fromEntries(
          READ_UNITS.flatMap((u) => {
            const r = s.unitReads?.[u.declaration.id];
            if (r === undefined) return [];
            const sidecarName = ksRec.sidecarDbName || '_vt';
            const what = u.statements({ sidecar: `\`${sidecarName}\``, sidecarName, schema: '' })[0]?.what ?? '';
            return [
              [
                u.declaration.id,
                f ? bad('connect', f) : 'error' in r ? bad(what, r.error) : { ok: true as const, value: r.value },
              ],
            ];
          }),
        ),
        ...(s.tables === 'absent'
          ? {}
          : {
              tables: f
                ? bad('connect', f)
                : s.tables !== undefined && 'error' in s.tables
                  ? bad(`select information_schema.TABLES of vt_${s.record.keyspace}`, s.tables.error)
                  : {
                      ok: true as const,
                      value: [...(s.tables ?? sourceTables.get(`${s.record.keyspace}/${s.record.name}`) ?? [])],
                    },
            }),
      });
    }
    const workflows: Record<string, Read<readonly VtctldWorkflowRecord[]>> = {};
    for (const [k, v] of Object.entries(this.vtctldViews)) workflows[k] = { ok: true, value: v };
    return {
      version: 1,
      tool: { name: 'vtpreflight', version: '0.0.0-test' },
      capturedAt: this.capturedAt,
      target: {
        vtctld: '127.0.0.1:15999',
        keyspaces: this.selection.keyspaces,
        workflows: this.selection.workflows,
        via: this.transport,
      },
      topology: {
        keyspaces: tf.keyspaces ? vt('GetKeyspaces', tf.keyspaces) : { ok: true, value: [...this.keyspaces] },
        shards,
        tablets: tf.tablets ? vt('GetTablets', tf.tablets) : { ok: true, value: [...this.tablets] },
        vschemas,
        routingRules: tf.routingRules ? vt('GetRoutingRules', tf.routingRules) : { ok: true, value: this.routingRules },
        shardRoutingRules: tf.shardRoutingRules
          ? vt('GetShardRoutingRules', tf.shardRoutingRules)
          : { ok: true, value: this.shardRoutingRules },
      },
      workflows,
      sidecars,
      fullStatus: { ...this.fullStatus },
      ...(Object.keys(this.rpcs).length > 0 ? { rpcs: { ...this.rpcs } } : {}),
      ...(this.serving !== null
        ? {
            cells: { ok: true as const, value: [...this.serving.cells] },
            srvVSchemas: { ...this.serving.srvVSchemas },
            srvKeyspaces: { ...this.serving.srvKeyspaces },
          }
        : {}),
      ...(Object.keys(this.builds).length > 0 ? { tabletBuilds: { ...this.builds } } : {}),
      ...(this.keyspaceRules !== null
        ? { keyspaceRoutingRules: { ok: true as const, value: this.keyspaceRules.map((r) => ({ ...r })) } }
        : {}),
      ...(this.mirror !== null ? { mirrorRules: this.mirror } : {}),
    };
  }

  model(): ClusterModel {
    // Failures given without a kind get the one an older snapshot's would (src/sources/read-kind.ts).
    return buildModel(withReadErrorKinds(JSON.parse(JSON.stringify(this.readout())) as Readout));
  }
}

/** Starts a builder. */
export function cluster(): ClusterBuilder {
  return new ClusterBuilder();
}

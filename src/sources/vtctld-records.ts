/**
 * Conversions from vtctld proto objects (as decoded by `protos.ts`) to the readout records of `src/readout.ts`.
 *
 * The client uses them so that proto objects never leave `src/sources`. The other direction, which the simulated
 * vtctld serves a cluster with, is `src/sim/to-pb.ts`; the two are inverses on every field a record carries. Wire
 * facts: `vitessio/vitess:proto/vtctldata.proto` and `proto/topodata.proto`.
 */
import type {
  FullStatusRecord,
  KeyRangeRecord,
  KeyspaceRecord,
  KeyspaceRoutingRuleRecord,
  RoutingRuleRecord,
  ShardRecord,
  ShardRoutingRuleRecord,
  SrvKeyspaceRecord,
  SrvVSchemaRecord,
  TabletBuildRecord,
  TabletControlRecord,
  TabletRecord,
  VSchemaRecord,
  VSchemaTableRecord,
  VindexRecord,
  VtctldStreamRecord,
  VtctldWorkflowRecord,
} from '../readout.js';

// ---------------------------------------------------------------------------------------------------------
// Decoded proto shapes (proto field names, int64 as decimal strings, enums as names, bytes as Buffers,
// absent messages as null). Only what `protos/` declares. Internal to src/sources and src/sim.

/** `vttime.Time`. */
export interface PbTime {
  readonly seconds: string | number;
  readonly nanoseconds?: number;
}
/** `topodata.TabletAlias`. */
export interface PbTabletAlias {
  readonly cell: string;
  readonly uid: number;
}
/** `topodata.KeyRange`. */
export interface PbKeyRange {
  readonly start: Buffer;
  readonly end: Buffer;
}
/** `topodata.Keyspace`. */
export interface PbTopoKeyspace {
  readonly keyspace_type: string;
  readonly base_keyspace: string;
  readonly snapshot_time?: PbTime | null;
  readonly durability_policy: string;
  readonly sidecar_db_name: string;
}
/** `vtctldata.Keyspace`. */
export interface PbKeyspace {
  readonly name: string;
  readonly keyspace: PbTopoKeyspace | null;
}
/** `topodata.Shard.TabletControl`. */
export interface PbTabletControl {
  readonly tablet_type: string;
  readonly cells: readonly string[];
  readonly denied_tables: readonly string[];
  readonly frozen: boolean;
}
/** `topodata.Shard`. */
export interface PbTopoShard {
  readonly primary_alias: PbTabletAlias | null;
  readonly primary_term_start_time?: PbTime | null;
  readonly key_range: PbKeyRange | null;
  readonly tablet_controls: readonly PbTabletControl[];
  readonly is_primary_serving: boolean;
}
/** `vtctldata.Shard`. */
export interface PbShard {
  readonly keyspace: string;
  readonly name: string;
  readonly shard: PbTopoShard | null;
}
/** `topodata.Tablet`. */
export interface PbTablet {
  readonly alias: PbTabletAlias | null;
  readonly hostname: string;
  readonly port_map: Readonly<Record<string, number>>;
  readonly keyspace: string;
  readonly shard: string;
  readonly key_range: PbKeyRange | null;
  readonly type: string;
  readonly db_name_override: string;
  readonly mysql_hostname: string;
  readonly mysql_port: number;
  readonly primary_term_start_time?: PbTime | null;
}
/** `vschema.Vindex`. */
export interface PbVindex {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  readonly owner: string;
}
/** `vschema.ColumnVindex`. */
export interface PbColumnVindex {
  readonly column: string;
  readonly name: string;
  readonly columns: readonly string[];
}
/** `vschema.Table`. */
export interface PbVSchemaTable {
  readonly type: string;
  readonly column_vindexes: readonly PbColumnVindex[];
  readonly auto_increment?: { readonly column: string; readonly sequence: string } | null;
  readonly pinned: string;
  readonly source: string;
}
/** `vschema.Keyspace`. */
export interface PbVSchema {
  readonly sharded: boolean;
  readonly vindexes: Readonly<Record<string, PbVindex>>;
  readonly tables: Readonly<Record<string, PbVSchemaTable>>;
  readonly require_explicit_routing: boolean;
}
/** `vschema.RoutingRules`. */
export interface PbRoutingRules {
  readonly rules: readonly { readonly from_table: string; readonly to_tables: readonly string[] }[];
}
/** `vschema.ShardRoutingRules`. */
export interface PbShardRoutingRules {
  readonly rules: readonly { readonly from_keyspace: string; readonly to_keyspace: string; readonly shard: string }[];
}
/** `replicationdata.FullStatus` (the declared subset). */
export interface PbFullStatus {
  readonly server_id: number;
  readonly server_uuid: string;
  readonly replication_status: { readonly position: string } | null;
  readonly primary_status: {
    readonly position: string;
    readonly file_position?: string;
    readonly server_uuid?: string;
  } | null;
  readonly gtid_purged: string;
  readonly version: string;
  readonly version_comment?: string;
  readonly read_only: boolean;
  readonly gtid_mode: string;
  readonly binlog_format: string;
  readonly binlog_row_image: string;
  readonly log_bin_enabled: boolean;
  readonly log_replica_updates: boolean;
  readonly super_read_only: boolean;
  readonly tablet_type: string;
}
/** `binlogdata.BinlogSource` (only what the records use; decoded objects carry more). */
export interface PbBinlogSource {
  readonly keyspace: string;
  readonly shard: string;
}
/** `vtctldata.Workflow.Stream`. */
export interface PbStream {
  readonly id: string | number;
  readonly shard: string;
  readonly tablet: PbTabletAlias | null;
  readonly binlog_source: PbBinlogSource | null;
  readonly position: string;
  readonly stop_position: string;
  readonly state: string;
  readonly db_name: string;
  readonly transaction_timestamp: PbTime | null;
  readonly time_updated: PbTime | null;
  readonly message: string;
  readonly copy_states: readonly { readonly table: string }[];
}
/** `vtctldata.Workflow.ShardStream`. */
export interface PbShardStream {
  readonly streams: readonly PbStream[];
  readonly tablet_controls: readonly PbTabletControl[];
  readonly is_primary_serving: boolean;
}
/** `vtctldata.Workflow`. */
export interface PbWorkflow {
  readonly name: string;
  readonly source: { readonly keyspace: string; readonly shards: readonly string[] } | null;
  readonly target: { readonly keyspace: string; readonly shards: readonly string[] } | null;
  readonly max_v_replication_lag: string | number;
  readonly shard_streams: Readonly<Record<string, PbShardStream>>;
  readonly workflow_type: string;
  readonly workflow_sub_type: string;
  readonly max_v_replication_transaction_lag: string | number;
}
/** `query.Field` (the part vtpreflight sets or reads). */
export interface PbField {
  readonly name: string;
  readonly type: string;
}
/** `query.Row`: cell i is the next `lengths[i]` bytes of `values`; -1 is NULL. */
export interface PbRow {
  readonly lengths: readonly (string | number)[];
  readonly values: Buffer;
}
/** `query.QueryResult`. */
export interface PbQueryResult {
  readonly fields: readonly PbField[];
  readonly rows: readonly PbRow[];
}
/** `topodata.SrvKeyspace`. */
export interface PbSrvKeyspace {
  readonly partitions: readonly {
    readonly served_type: string;
    readonly shard_references: readonly { readonly name: string; readonly key_range: PbKeyRange | null }[];
    readonly shard_tablet_controls: readonly {
      readonly name: string;
      readonly key_range: PbKeyRange | null;
      readonly query_service_disabled: boolean;
    }[];
  }[];
}

// ---------------------------------------------------------------------------------------------------------
// Records that src/readout.ts does not define (results of RPCs outside the readout).

/** Result of `ExecuteFetchAsDBA`: column names, and every row both as UTF-8 text and as raw bytes. */
export interface FetchResult {
  /** Column names, in order. */
  readonly fields: readonly string[];
  /** `query.Type` names of the columns (`VARBINARY`, `INT32` …), in order. */
  readonly fieldTypes: readonly string[];
  /** Cells decoded as UTF-8; `null` is SQL NULL (distinct from ''). Binary cells may not survive: use `rawRows`. */
  readonly rows: readonly (readonly (string | null)[])[];
  /** The same cells as the exact bytes MySQL returned (e.g. a compressed `pos`); `null` is SQL NULL. */
  readonly rawRows: readonly (readonly (Buffer | null)[])[];
}

export type { SrvKeyspacePartitionRecord, SrvKeyspaceRecord } from '../readout.js';

// ---------------------------------------------------------------------------------------------------------
// Primitives.

/** A tablet alias as Vitess prints it: `<cell>-<uid zero-padded to 10 digits>` (`topoproto.TabletAliasString`). */
export function formatTabletAlias(alias: PbTabletAlias): string {
  return `${alias.cell}-${String(alias.uid).padStart(10, '0')}`;
}

/**
 * Parses `zone1-0000000100` (or `zone1-100`) into cell and uid; the cell is everything before the last `-`,
 * as in `topoproto.ParseTabletAlias`. Throws a one-line Error on malformed input.
 */
export function parseTabletAlias(text: string): PbTabletAlias {
  const m = /^(.+)-(\d+)$/.exec(text);
  const uid = m === null ? NaN : Number(m[2]);
  if (m === null || !Number.isSafeInteger(uid) || uid > 0xffffffff) {
    throw new Error(`invalid tablet alias "${text}": expected CELL-UID, e.g. zone1-0000000100`);
  }
  return { cell: m[1] as string, uid };
}

const isZeroAlias = (a: PbTabletAlias | null): boolean => a === null || (a.cell === '' && a.uid === 0);

/** `topodata.KeyRange` bytes → lower-case hex; an absent key range stays `null`. */
export function toKeyRangeRecord(kr: PbKeyRange | null): KeyRangeRecord | null {
  if (kr === null) return null;
  return { start: Buffer.from(kr.start).toString('hex'), end: Buffer.from(kr.end).toString('hex') };
}

/** Enum value as its name; an unknown number (a newer server) is kept as its decimal text. */
const enumName = (v: unknown): string => (typeof v === 'string' ? v : String(v));

const int64 = (v: string | number): number => Number(v);

const timeSeconds = (t: PbTime | null | undefined): number | null =>
  t === null || t === undefined ? null : Number(t.seconds);

// ---------------------------------------------------------------------------------------------------------
// Proto → record (client side).

/** `vtctldata.Keyspace` → {@link KeyspaceRecord}. */
export function toKeyspaceRecord(pb: PbKeyspace): KeyspaceRecord {
  const ks = pb.keyspace;
  return {
    name: pb.name,
    keyspaceType: ks === null ? 'NORMAL' : enumName(ks.keyspace_type),
    baseKeyspace: ks?.base_keyspace ?? '',
    durabilityPolicy: ks?.durability_policy ?? '',
    sidecarDbName: ks?.sidecar_db_name ?? '',
  };
}

function toTabletControlRecord(tc: PbTabletControl): TabletControlRecord {
  return {
    tabletType: enumName(tc.tablet_type),
    cells: [...tc.cells],
    deniedTables: [...tc.denied_tables],
    frozen: tc.frozen,
  };
}

/** `vtctldata.Shard` → {@link ShardRecord}; a zero or absent primary alias becomes `null`. */
export function toShardRecord(pb: PbShard): ShardRecord {
  const s = pb.shard;
  return {
    keyspace: pb.keyspace,
    name: pb.name,
    keyRange: toKeyRangeRecord(s?.key_range ?? null),
    primaryAlias:
      s === null || isZeroAlias(s.primary_alias) ? null : formatTabletAlias(s.primary_alias as PbTabletAlias),
    isPrimaryServing: s?.is_primary_serving ?? false,
    tabletControls: (s?.tablet_controls ?? []).map(toTabletControlRecord),
  };
}

/** `topodata.Tablet` → {@link TabletRecord}. */
export function toTabletRecord(pb: PbTablet): TabletRecord {
  const alias = pb.alias ?? { cell: '', uid: 0 };
  return {
    alias: formatTabletAlias(alias),
    cell: alias.cell,
    uid: alias.uid,
    hostname: pb.hostname,
    keyspace: pb.keyspace,
    shard: pb.shard,
    type: enumName(pb.type),
    dbNameOverride: pb.db_name_override,
    mysqlHostname: pb.mysql_hostname,
    mysqlPort: pb.mysql_port,
    portMap: { ...pb.port_map },
  };
}

function toVSchemaTableRecord(t: PbVSchemaTable): VSchemaTableRecord {
  return {
    type: t.type,
    columnVindexes: t.column_vindexes.map((cv) => ({
      name: cv.name,
      columns: cv.columns.length > 0 ? [...cv.columns] : cv.column !== '' ? [cv.column] : [],
    })),
    source: t.source,
    pinned: t.pinned,
    ...(t.auto_increment && (t.auto_increment.column !== '' || t.auto_increment.sequence !== '')
      ? { autoIncrement: { column: t.auto_increment.column, sequence: t.auto_increment.sequence } }
      : {}),
  };
}

/** `vschema.Keyspace` → {@link VSchemaRecord}; an absent vschema reads as an empty unsharded one. */
export function toVSchemaRecord(pb: PbVSchema | null): VSchemaRecord {
  if (pb === null) return { sharded: false, vindexes: {}, tables: {}, requireExplicitRouting: false };
  const vindexes: Record<string, VindexRecord> = {};
  for (const name of Object.keys(pb.vindexes).sort()) {
    const v = pb.vindexes[name] as PbVindex;
    vindexes[name] = { type: v.type, params: { ...v.params }, owner: v.owner };
  }
  const tables: Record<string, VSchemaTableRecord> = {};
  for (const name of Object.keys(pb.tables).sort())
    tables[name] = toVSchemaTableRecord(pb.tables[name] as PbVSchemaTable);
  return { sharded: pb.sharded, vindexes, tables, requireExplicitRouting: pb.require_explicit_routing };
}

/** `vschema.RoutingRules` → records; absent or empty reads as no rules. */
export function toRoutingRuleRecords(pb: PbRoutingRules | null): RoutingRuleRecord[] {
  return (pb?.rules ?? []).map((r) => ({ fromTable: r.from_table, toTables: [...r.to_tables] }));
}

export interface PbKeyspaceRoutingRules {
  readonly rules: readonly { readonly from_keyspace: string; readonly to_keyspace: string }[];
}

export interface PbMirrorRules {
  readonly rules: readonly { readonly from_table: string; readonly to_table: string; readonly percent: number }[];
}

export interface PbSrvVSchema {
  readonly keyspaces: Readonly<Record<string, unknown>>;
  readonly routing_rules: PbRoutingRules | null;
  readonly keyspace_routing_rules: PbKeyspaceRoutingRules | null;
}

/** `vschema.KeyspaceRoutingRules` → records; absent or empty reads as no rules. */
export function toKeyspaceRoutingRuleRecords(pb: PbKeyspaceRoutingRules | null): KeyspaceRoutingRuleRecord[] {
  return (pb?.rules ?? []).map((r) => ({ fromKeyspace: r.from_keyspace, toKeyspace: r.to_keyspace }));
}

/** `vschema.SrvVSchema` → {@link SrvVSchemaRecord}. Throws when vtctld returned no message at all. */
export function toSrvVSchemaRecord(pb: PbSrvVSchema | null): SrvVSchemaRecord {
  if (pb === null) throw new Error('GetSrvVSchema returned no SrvVSchema');
  return {
    keyspaces: Object.keys(pb.keyspaces).sort(),
    routingRules: toRoutingRuleRecords(pb.routing_rules),
    keyspaceRoutingRules: toKeyspaceRoutingRuleRecords(pb.keyspace_routing_rules),
  };
}

/**
 * vtctld `GetVersion`'s string → build facts. vtctld prints Go's `%v` of `{BuildHost BuildUser BuildTimestamp
 * BuildGitRev}` (`vitessio/vitess:go/vt/vtctl/grpcvtctldserver/server.go` `getVersionFromTabletDebugVars`), e.g.
 * `{build-host runner 1733011200 8e2c3f1}`; host and user are dropped (they name machines and people). A string of
 * another shape yields timestamp 0 and the whole text as the revision.
 */
export function parseTabletBuild(version: string): TabletBuildRecord {
  const m = /^\{(.*)\s(-?\d+)\s(\S*)\}$/.exec(version.trim());
  if (m === null) return { buildTimestamp: 0, gitRev: version.trim() };
  return { buildTimestamp: Math.max(0, Number(m[2])), gitRev: m[3]! };
}

/** `vschema.ShardRoutingRules` → records; absent or empty reads as no rules. */
export function toShardRoutingRuleRecords(pb: PbShardRoutingRules | null): ShardRoutingRuleRecord[] {
  return (pb?.rules ?? []).map((r) => ({ fromKeyspace: r.from_keyspace, toKeyspace: r.to_keyspace, shard: r.shard }));
}

/** `replicationdata.FullStatus` → {@link FullStatusRecord}. Throws when vtctld returned no status at all. */
export function toFullStatusRecord(pb: PbFullStatus | null): FullStatusRecord {
  if (pb === null) throw new Error('GetFullStatus returned no status');
  return {
    serverUuid: pb.server_uuid,
    primaryPosition: pb.primary_status?.position ?? '',
    replicationPosition: pb.replication_status?.position ?? '',
    gtidPurged: pb.gtid_purged,
    version: pb.version,
    readOnly: pb.read_only,
    superReadOnly: pb.super_read_only,
    gtidMode: pb.gtid_mode,
    binlogFormat: pb.binlog_format,
    binlogRowImage: pb.binlog_row_image,
    logBinEnabled: pb.log_bin_enabled,
    logReplicaUpdates: pb.log_replica_updates,
    tabletType: enumName(pb.tablet_type),
  };
}

function toStreamRecord(s: PbStream): VtctldStreamRecord {
  return {
    id: int64(s.id),
    shard: s.shard,
    tablet: s.tablet === null ? '' : formatTabletAlias(s.tablet),
    sourceKeyspace: s.binlog_source?.keyspace ?? '',
    sourceShard: s.binlog_source?.shard ?? '',
    position: s.position,
    stopPosition: s.stop_position,
    state: s.state,
    message: s.message,
    timeUpdated: timeSeconds(s.time_updated),
    transactionTimestamp: timeSeconds(s.transaction_timestamp),
    copyStateTables: s.copy_states.map((c) => c.table),
  };
}

const byStream = (a: VtctldStreamRecord, b: VtctldStreamRecord): number =>
  a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : a.tablet < b.tablet ? -1 : a.tablet > b.tablet ? 1 : a.id - b.id;

/**
 * `vtctldata.Workflow` → {@link VtctldWorkflowRecord}. Streams are flattened out of `shard_streams` and
 * sorted by (shard, tablet, id), because map order on the wire is random.
 *
 * Lags are numbers: proto3 cannot tell "not sent" (an old server) from 0, so they are never `null` here.
 */
export function toWorkflowRecord(pb: PbWorkflow): VtctldWorkflowRecord {
  const streams: VtctldStreamRecord[] = [];
  for (const ss of Object.values(pb.shard_streams)) for (const s of ss.streams) streams.push(toStreamRecord(s));
  streams.sort(byStream);
  return {
    name: pb.name,
    sourceKeyspace: pb.source?.keyspace ?? '',
    sourceShards: [...(pb.source?.shards ?? [])],
    targetKeyspace: pb.target?.keyspace ?? '',
    targetShards: [...(pb.target?.shards ?? [])],
    workflowType: pb.workflow_type,
    workflowSubType: pb.workflow_sub_type,
    maxVReplicationLag: int64(pb.max_v_replication_lag),
    maxVReplicationTransactionLag: int64(pb.max_v_replication_transaction_lag),
    streams,
  };
}

/**
 * `query.QueryResult` → {@link FetchResult}, decoding each `Row` (`lengths` / `values`, -1 = NULL).
 * Throws a one-line Error when a row does not match the fields or overruns its bytes.
 */
export function toFetchResult(pb: PbQueryResult | null): FetchResult {
  const fields = (pb?.fields ?? []).map((f) => f.name);
  const fieldTypes = (pb?.fields ?? []).map((f) => enumName(f.type));
  const rawRows: (Buffer | null)[][] = [];
  const rows: (string | null)[][] = [];
  for (const [r, row] of (pb?.rows ?? []).entries()) {
    if (row.lengths.length !== fields.length) {
      throw new Error(`row ${r} has ${row.lengths.length} cells but the result has ${fields.length} fields`);
    }
    const raw: (Buffer | null)[] = [];
    let offset = 0;
    for (const l of row.lengths) {
      const len = Number(l);
      if (len < 0) {
        raw.push(null);
        continue;
      }
      if (offset + len > row.values.length) throw new Error(`row ${r} is shorter than its cell lengths`);
      raw.push(row.values.subarray(offset, offset + len));
      offset += len;
    }
    rawRows.push(raw);
    rows.push(raw.map((b) => (b === null ? null : b.toString('utf8'))));
  }
  return { fields, fieldTypes, rows, rawRows };
}

/** `topodata.SrvKeyspace` → {@link SrvKeyspaceRecord}. */
export function toSrvKeyspaceRecord(pb: PbSrvKeyspace): SrvKeyspaceRecord {
  return {
    partitions: pb.partitions.map((p) => ({
      servedType: enumName(p.served_type),
      shards: p.shard_references.map((s) => ({ name: s.name, keyRange: toKeyRangeRecord(s.key_range) })),
      shardTabletControls: p.shard_tablet_controls.map((c) => ({
        name: c.name,
        keyRange: toKeyRangeRecord(c.key_range),
        queryServiceDisabled: c.query_service_disabled,
      })),
    })),
  };
}

/**
 * Readout records → vtctld proto objects: the simulated vtctld (`./vtctld-server.ts`) serves a cluster described as
 * records with these. Each is the inverse of a `to…Record` in `src/sources/vtctld-records.ts` on every field a record
 * carries. Wire facts: `vitessio/vitess:proto/vtctldata.proto` and `proto/topodata.proto`.
 */
import type {
  FullStatusRecord,
  KeyRangeRecord,
  KeyspaceRecord,
  RoutingRuleRecord,
  ShardRecord,
  ShardRoutingRuleRecord,
  TabletControlRecord,
  TabletRecord,
  VSchemaRecord,
  VtctldWorkflowRecord,
} from '../readout.js';
import {
  parseTabletAlias,
  type PbFullStatus,
  type PbKeyRange,
  type PbKeyspace,
  type PbQueryResult,
  type PbRoutingRules,
  type PbShard,
  type PbShardRoutingRules,
  type PbStream,
  type PbTablet,
  type PbTabletControl,
  type PbTime,
  type PbVindex,
  type PbVSchema,
  type PbVSchemaTable,
  type PbWorkflow,
} from '../sources/vtctld-records.js';

function hexBytes(hex: string): Buffer {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new Error(`invalid key range bound "${hex}": expected hex bytes`);
  return Buffer.from(hex, 'hex');
}

/** Inverse of `toKeyRangeRecord`. */
export function toPbKeyRange(kr: KeyRangeRecord | null): PbKeyRange | null {
  return kr === null ? null : { start: hexBytes(kr.start), end: hexBytes(kr.end) };
}

const toPbTime = (seconds: number | null): PbTime | null => (seconds === null ? null : { seconds, nanoseconds: 0 });

/** Inverse of `toKeyspaceRecord`. */
export function toPbKeyspace(rec: KeyspaceRecord): PbKeyspace {
  return {
    name: rec.name,
    keyspace: {
      keyspace_type: rec.keyspaceType,
      base_keyspace: rec.baseKeyspace,
      snapshot_time: null,
      durability_policy: rec.durabilityPolicy,
      sidecar_db_name: rec.sidecarDbName,
    },
  };
}

/** Inverse of the tablet-control part of `toShardRecord`. */
export function toPbTabletControl(tc: TabletControlRecord): PbTabletControl {
  return { tablet_type: tc.tabletType, cells: [...tc.cells], denied_tables: [...tc.deniedTables], frozen: tc.frozen };
}

/** Inverse of `toShardRecord`. */
export function toPbShard(rec: ShardRecord): PbShard {
  return {
    keyspace: rec.keyspace,
    name: rec.name,
    shard: {
      primary_alias: rec.primaryAlias === null ? null : parseTabletAlias(rec.primaryAlias),
      primary_term_start_time: null,
      key_range: toPbKeyRange(rec.keyRange),
      tablet_controls: rec.tabletControls.map(toPbTabletControl),
      is_primary_serving: rec.isPrimaryServing,
    },
  };
}

/** Inverse of `toTabletRecord`. The shard's key range is taken from its name's record when given. */
export function toPbTablet(rec: TabletRecord, keyRange: KeyRangeRecord | null = null): PbTablet {
  return {
    alias: { cell: rec.cell, uid: rec.uid },
    hostname: rec.hostname,
    port_map: { ...rec.portMap },
    keyspace: rec.keyspace,
    shard: rec.shard,
    key_range: toPbKeyRange(keyRange),
    type: rec.type,
    db_name_override: rec.dbNameOverride,
    mysql_hostname: rec.mysqlHostname,
    mysql_port: rec.mysqlPort,
    primary_term_start_time: null,
  };
}

/** Inverse of `toVSchemaRecord`: one column becomes the legacy `column`, several become `columns`. */
export function toPbVSchema(rec: VSchemaRecord): PbVSchema {
  const vindexes: Record<string, PbVindex> = {};
  for (const [name, v] of Object.entries(rec.vindexes))
    vindexes[name] = { type: v.type, params: { ...v.params }, owner: v.owner };
  const tables: Record<string, PbVSchemaTable> = {};
  for (const [name, t] of Object.entries(rec.tables)) {
    tables[name] = {
      type: t.type,
      column_vindexes: t.columnVindexes.map((cv) =>
        cv.columns.length === 1
          ? { column: cv.columns[0] as string, name: cv.name, columns: [] }
          : { column: '', name: cv.name, columns: [...cv.columns] },
      ),
      auto_increment: t.autoIncrement ? { column: t.autoIncrement.column, sequence: t.autoIncrement.sequence } : null,
      pinned: t.pinned,
      source: t.source,
    };
  }
  return { sharded: rec.sharded, vindexes, tables, require_explicit_routing: rec.requireExplicitRouting };
}

/** Inverse of `toRoutingRuleRecords`. */
export function toPbRoutingRules(recs: readonly RoutingRuleRecord[]): PbRoutingRules {
  return { rules: recs.map((r) => ({ from_table: r.fromTable, to_tables: [...r.toTables] })) };
}

/** Inverse of `toShardRoutingRuleRecords`. */
export function toPbShardRoutingRules(recs: readonly ShardRoutingRuleRecord[]): PbShardRoutingRules {
  return { rules: recs.map((r) => ({ from_keyspace: r.fromKeyspace, to_keyspace: r.toKeyspace, shard: r.shard })) };
}

/** Inverse of `toFullStatusRecord`: '' positions become absent sub-messages. */
export function toPbFullStatus(rec: FullStatusRecord): PbFullStatus {
  return {
    server_id: 0,
    server_uuid: rec.serverUuid,
    replication_status: rec.replicationPosition === '' ? null : { position: rec.replicationPosition },
    primary_status: rec.primaryPosition === '' ? null : { position: rec.primaryPosition, server_uuid: rec.serverUuid },
    gtid_purged: rec.gtidPurged,
    version: rec.version,
    read_only: rec.readOnly,
    gtid_mode: rec.gtidMode,
    binlog_format: rec.binlogFormat,
    binlog_row_image: rec.binlogRowImage,
    log_bin_enabled: rec.logBinEnabled,
    log_replica_updates: rec.logReplicaUpdates,
    super_read_only: rec.superReadOnly,
    tablet_type: rec.tabletType,
  };
}

/** What a target shard contributes to `Workflow.ShardStream` besides its streams. */
export interface TargetShardInfo {
  readonly tabletControls: readonly TabletControlRecord[];
  readonly isPrimaryServing: boolean;
  /** MySQL schema of the target primary (`vt_<keyspace>` or its override). */
  readonly dbName: string;
}

/**
 * Inverse of `toWorkflowRecord`: streams are grouped under `<shard>/<tablet alias>` keys. Records do not
 * carry filter rules, so each stream's `binlog_source` holds only the source keyspace and shard.
 */
export function toPbWorkflow(
  rec: VtctldWorkflowRecord,
  shardInfo: (shard: string) => TargetShardInfo | undefined,
): PbWorkflow {
  const shardStreams: Record<
    string,
    { streams: PbStream[]; tablet_controls: PbTabletControl[]; is_primary_serving: boolean }
  > = {};
  for (const s of rec.streams) {
    const key = `${s.shard}/${s.tablet}`;
    const info = shardInfo(s.shard);
    const group = (shardStreams[key] ??= {
      streams: [],
      tablet_controls: (info?.tabletControls ?? []).map(toPbTabletControl),
      is_primary_serving: info?.isPrimaryServing ?? true,
    });
    group.streams.push({
      id: s.id,
      shard: s.shard,
      tablet: s.tablet === '' ? null : parseTabletAlias(s.tablet),
      binlog_source: { keyspace: s.sourceKeyspace, shard: s.sourceShard },
      position: s.position,
      stop_position: s.stopPosition,
      state: s.state,
      db_name: info?.dbName ?? `vt_${rec.targetKeyspace}`,
      transaction_timestamp: toPbTime(s.transactionTimestamp),
      time_updated: toPbTime(s.timeUpdated),
      message: s.message,
      copy_states: s.copyStateTables.map((table) => ({ table })),
    });
  }
  return {
    name: rec.name,
    source: { keyspace: rec.sourceKeyspace, shards: [...rec.sourceShards] },
    target: { keyspace: rec.targetKeyspace, shards: [...rec.targetShards] },
    max_v_replication_lag: rec.maxVReplicationLag ?? 0,
    shard_streams: shardStreams,
    workflow_type: rec.workflowType,
    workflow_sub_type: rec.workflowSubType,
    max_v_replication_transaction_lag: rec.maxVReplicationTransactionLag ?? 0,
  };
}

/** A result column for the fake server: a name, or a name and a `query.Type` name (default `VARBINARY`). */
export type FetchFieldInput = string | { readonly name: string; readonly type?: string };

/** Builds a `query.QueryResult` from columns and rows (strings are UTF-8 encoded, `null` is SQL NULL). */
export function toPbQueryResult(
  fields: readonly FetchFieldInput[],
  rows: readonly (readonly (string | Buffer | null)[])[],
): PbQueryResult {
  return {
    fields: fields.map((f) =>
      typeof f === 'string' ? { name: f, type: 'VARBINARY' } : { name: f.name, type: f.type ?? 'VARBINARY' },
    ),
    rows: rows.map((row) => {
      const lengths: number[] = [];
      const parts: Buffer[] = [];
      for (const cell of row) {
        if (cell === null) {
          lengths.push(-1);
          continue;
        }
        const b = typeof cell === 'string' ? Buffer.from(cell, 'utf8') : cell;
        lengths.push(b.length);
        parts.push(b);
      }
      return { lengths, values: Buffer.concat(parts) };
    }),
  };
}

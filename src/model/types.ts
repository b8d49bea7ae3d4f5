/**
 * The cluster model: an immutable, interpreted view of a readout. Checks read only this.
 *
 * It uses Vitess's words (keyspace, shard, tablet alias, workflow, stream id) and keeps "could not read"
 * apart from "empty": every collection that came from an I/O step is a `Read<…>`.
 */
import type {
  TabletSidecarRead,
  AutoIncrementMaxRow,
  ForeignKeyRow,
  SequenceValueRow,
  VDiffRow,
  FullStatusRecord,
  KeyspaceRoutingRuleRecord,
  MirrorRuleRecord,
  Read,
  ReadError,
  ReadErrorKind,
  SrvKeyspaceRecord,
  SrvVSchemaRecord,
  TabletBuildRecord,
  VReplicationLogRow,
  FilteredUserGrants,
  VtctldWorkflowRecord,
  TableCopyProgressRecord,
} from '../readout.js';
/** Sequence and VDiff rows, kept as read (checks import them from here). */
export type { AutoIncrementMaxRow, ForeignKeyRow, SequenceValueRow, VDiffRow } from '../readout.js';
import type { BinlogSource } from '../vitess/binlog-source.js';
import type { WorkflowSubType, WorkflowType } from '../vitess/enums.js';
import type { KeyRange } from '../vitess/keyrange.js';
import type { PrimaryReadId } from '../reads/registry.js';
import type { UnitReadId } from '../reads/units/index.js';
import type { Position } from '../vitess/position.js';

export type { Read, ReadError, FullStatusRecord } from '../readout.js';
/** The serving-graph records checks judge as read (srv-keyspace-partitions). */
export type { KeyRangeRecord, SrvKeyspacePartitionRecord, SrvKeyspaceRecord } from '../readout.js';
/** 2PC records of a primary's sidecar, as read (two-phase-commit check). */
export type { TwoPcRead, TwoPcRow } from '../readout.js';
export type { FilteredUserGrants } from '../readout.js';
/** The workflow type names are Vitess's (`src/vitess/enums.ts`); the model re-exports them. */
export type { WorkflowSubType, WorkflowType } from '../vitess/enums.js';

/** Stored stream states (`_vt.vreplication.state`). */
export type StreamState = 'Init' | 'Stopped' | 'Copying' | 'Running' | 'Error' | string;

export interface Tablet {
  readonly alias: string;
  readonly cell: string;
  readonly keyspace: string;
  readonly shard: string;
  readonly type: string;
  readonly hostname: string;
  readonly mysqlHostname: string;
  readonly mysqlPort: number;
  /** `db_name_override` or `vt_<keyspace>`. */
  readonly dbName: string;
  /** GetFullStatus answer; `undefined` when it was not asked for this tablet. */
  readonly fullStatus: Read<FullStatusRecord> | undefined;
}

export interface TabletControl {
  readonly tabletType: string;
  readonly cells: readonly string[];
  readonly deniedTables: readonly string[];
  readonly frozen: boolean;
}

export interface Shard {
  readonly keyspace: string;
  readonly name: string;
  /** Parsed key range; null = the full range (unsharded `0` or `-`). */
  readonly keyRange: KeyRange | null;
  readonly primaryAlias: string | null;
  readonly isPrimaryServing: boolean;
  readonly tabletControls: readonly TabletControl[];
  /** Tablets of this shard (all cells, all types), sorted by alias. Empty if the tablet list was not read. */
  readonly tablets: readonly Tablet[];
  /**
   * The sidecar read of this shard's primary. `undefined` when the shard was out of scope (not read
   * on purpose); a failed Read when it was in scope but could not be read (no primary, unreachable …).
   */
  readonly sidecar: Read<ShardSidecar> | undefined;
}

/** The reads declared as units (src/reads/units/), as read (`undefined` when the readout predates a read). */
export type UnitReadFields = { readonly [K in UnitReadId]: TabletSidecarRead[K] };

/** What the shard's primary sidecar database holds. */
export interface ShardSidecar extends UnitReadFields {
  readonly tablet: string;
  readonly sidecarDb: string;
  readonly dbName: string;
  readonly columns: readonly string[];
  /** Every stream on this primary (all workflows, OnlineDDL excluded), sorted by id. */
  readonly streams: readonly Stream[];
  /**
   * Online DDL rows (workflow_type 5) on this primary, sorted by id: not workflows of the model, but read by the
   * stream migrator of a Reshard whose source shard this is (`stream_migrator.go` `readTabletStreams`).
   */
  readonly onlineDdlStreams: readonly Stream[];
  /** Journal rows found (ids as decimal strings); a failed read when the query failed. */
  readonly journals: Read<readonly { readonly id: string; readonly val: string }[]>;
  /**
   * The `vreplication_log` rows read on this primary (each names its stream in `vrepl_id`), in the order read: the
   * readout's rows themselves. Failed read when not available. No check reads them today; neither copied nor grouped
   * per stream (at a 256 × 256 Materialize, 262,144 copies were 33 MB of the model and the per-stream map 13 MB).
   */
  readonly logs: Read<readonly LogEntry[]>;
  /** copy_state read; failed when it could not be read (then Stream.copyTables is empty but unknown). */
  readonly copyStateRead: Read<true>;
  /**
   * Type and size of the columns holding GTID sets (`vreplication.pos`/`stop_pos`, `resharding_journal.val`);
   * `undefined` when the readout predates this read.
   */
  readonly positionColumns: Read<readonly PositionColumn[]> | undefined;
  /**
   * What holds or waits for locks in this primary's schema: open transactions and table
   * metadata locks of other sessions. `undefined` when the readout predates this read. Reusable by any check that
   * predicts a step taking table locks (SwitchTraffic's LOCK TABLES, a Complete's DROP/RENAME).
   */
  readonly activity: PrimaryActivity | undefined;
  /** The base tables of the primary's schema and their keys; `undefined` when the readout predates this read. */
  readonly tableKeys: Read<readonly TableKeys[]> | undefined;
  /**
   * Tables of the tablet's schema (`information_schema.TABLES`, code-unit order); `undefined` when the readout
   * predates this read. Empty: the schema lists no table (absent, or a harness without tablet data): not judged by
   * the LOCK TABLES check; `complete --rename-tables` looks for `_<name>_old` among them.
   */
  readonly tables: Read<readonly string[]> | undefined;
  /**
   * `check --action create --tables …` on the target primaries: per table to move, whether it holds a row (`select 1
   * from <table> limit 1`; a table that does not exist is empty). `undefined` when not probed.
   */
  readonly tableProbes: Read<readonly { readonly table: string; readonly nonEmpty: boolean }[]> | undefined;
  /**
   * The row `id = 0` of each sequence table the keyspace vschema declares, and the `MAX` of
   * each `auto_increment` column it names, as read on this primary (readout rows as they are). `undefined` when not
   * read (nothing declared, or an older readout).
   */
  readonly sequenceValues: Read<readonly SequenceValueRow[]> | undefined;
  readonly autoIncrementMax: Read<readonly AutoIncrementMaxRow[]> | undefined;
  /** The VDiff runs recorded on this primary, newest first; `undefined` in older readouts. */
  readonly vdiffs: Read<readonly VDiffRow[]> | undefined;
  /** The foreign keys of the primary's schema; `undefined` in older readouts. */
  readonly foreignKeys: Read<readonly ForeignKeyRow[]> | undefined;
  /** The filtered user's privilege rows (ValidateVReplicationPermissions); `undefined` when not read. */
  readonly filteredUserGrants: Read<FilteredUserGrants> | undefined;
}

/** How one table's rows are identified (`information_schema.STATISTICS`). */
export interface TableKeys {
  readonly table: string;
  readonly primaryKey: boolean;
  /** A unique index whose columns are all NOT NULL (Vitess's primary-key equivalent), or null. */
  readonly uniqueNotNull: string | null;
  /** Unique indexes with a nullable column. */
  readonly uniqueNullable: readonly string[];
}

/** Sessions and locks on one primary's schema, as read (each part may have failed on its own). */
export interface PrimaryActivity {
  /** Open InnoDB transactions of sessions using the schema, oldest first (needs PROCESS). */
  readonly transactions: Read<readonly OpenTransaction[]>;
  /** Table metadata locks of other sessions; `instrumented: false` when the server does not record them. */
  readonly metadataLocks: Read<{ readonly instrumented: boolean; readonly locks: readonly MetadataLock[] }>;
}

/** One open transaction on a primary. */
export interface OpenTransaction {
  readonly threadId: number;
  readonly user: string;
  /** `Sleep` when the session is idle inside its transaction. */
  readonly command: string;
  /** Age in seconds at read time. */
  readonly ageSeconds: number;
  readonly state: string | null;
  /** Digest of the running statement (literals as `?`); null when idle. */
  readonly digest: string | null;
  readonly rowsModified: number;
  /** InnoDB tables it holds row locks on; null when not read (an older readout). */
  readonly tablesLocked: number | null;
}

/** One table metadata lock on a primary. */
export interface MetadataLock {
  readonly threadId: number | null;
  readonly table: string;
  readonly lockType: string;
  readonly duration: string;
  /** `GRANTED` or `PENDING`. */
  readonly status: string;
  readonly digest: string | null;
}

/** One sidecar column that holds GTID sets, from `information_schema.COLUMNS`. */
export interface PositionColumn {
  readonly table: string;
  readonly column: string;
  /** Lower-case MySQL type: `varbinary`, `blob`, `longblob` … */
  readonly dataType: string;
  /** Bytes it holds; null when the server gives none. */
  readonly maxLength: number | null;
}

/** One `vreplication_log` row, as read (shared with the readout, not copied). */
export type LogEntry = VReplicationLogRow;

export interface Keyspace {
  readonly name: string;
  /** Resolved sidecar database name (`_vt` when the record leaves it empty). */
  readonly sidecarDbName: string;
  readonly keyspaceType: string;
  /** Shards by name, in key-range order (`compareShardNames` in src/vitess/keyrange.ts, as Vitess sorts shards). */
  readonly shards: Read<ReadonlyMap<string, Shard>>;
  readonly vschema: Read<VSchema>;
  /** The keyspace record's `durability_policy` (`semi_sync`, `cross_cell`, `none`, …; '' when unset). */
  readonly durabilityPolicy: string;
}

export interface Vindex {
  readonly name: string;
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  readonly owner: string;
}

export interface VSchemaTable {
  readonly name: string;
  readonly type: string;
  readonly columnVindexes: readonly { readonly name: string; readonly columns: readonly string[] }[];
  readonly source: string;
  /** `auto_increment`: the column and its sequence table as written (`seq` or `ks.seq`); null when none. */
  readonly autoIncrement: { readonly column: string; readonly sequence: string } | null;
}

export interface VSchema {
  readonly sharded: boolean;
  readonly vindexes: ReadonlyMap<string, Vindex>;
  readonly tables: ReadonlyMap<string, VSchemaTable>;
}

/** One `_vt.vreplication` row, interpreted. */
export interface Stream {
  /** Target keyspace / shard / primary alias: where the row lives. */
  readonly keyspace: string;
  readonly shard: string;
  readonly tablet: string;
  readonly id: number;
  /** '' when the row has no workflow name (see `rawWorkflow` to tell NULL from ''). */
  readonly workflow: string;
  /** The column as stored: null for SQL NULL (Vitess's `workflow != …` filters drop NULL rows). */
  readonly rawWorkflow: string | null;
  readonly workflowType: WorkflowType | null;
  readonly workflowSubType: WorkflowSubType | null;
  /** Raw `source` text. */
  readonly sourceText: string;
  /** Parsed source, or null when it does not parse (see `sourceError`). */
  readonly source: BinlogSource | null;
  readonly sourceError: string | null;
  /** Convenience: source keyspace/shard from the parsed source ('' when unparsable). */
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
  /** Sorted rule `match` values of the filter (the table list Vitess compares). */
  readonly tables: readonly string[];
  readonly posText: string;
  /** True when `pos` was stored compressed (`--vreplication_store_compressed_gtid`); `posText` is the inflated text. */
  readonly posCompressed: boolean;
  /** Parsed `pos`; the zero position when empty; null when unparsable (see `posError`). */
  readonly pos: Position | null;
  readonly posError: string | null;
  readonly stopPosText: string | null;
  readonly stopPos: Position | null;
  /** Raw stored state. */
  readonly state: StreamState;
  /**
   * Vitess's displayed state (`getStreamState`): Error if message contains "error", Copying if Running with copy rows.
   */
  readonly displayState: StreamState;
  /** '' when NULL. */
  readonly message: string;
  /** The column as stored: null for SQL NULL (Vitess's `message != 'FROZEN'` filters drop NULL rows). */
  readonly rawMessage: string | null;
  /** `WorkflowOptions` from the `options` JSON column (newer Vitess), null when absent or unparsable. */
  readonly options: StreamOptions | null;
  /** The `options` column as stored: null for SQL NULL, undefined when the sidecar has no such column (before v20). */
  readonly rawOptions: string | null | undefined;
  readonly cell: string;
  readonly tabletTypes: string;
  /** Unix seconds. */
  readonly timeUpdated: number;
  readonly transactionTimestamp: number;
  /** Unix seconds, null when the column does not exist. */
  readonly timeHeartbeat: number | null;
  readonly rowsCopied: number | null;
  /**
   * Distinct table names still in `copy_state` for this stream, sorted; a failed read when the primary's
   * `_vt.copy_state` could not be read (then whether the stream is still copying is unknown, never "no tables").
   */
  readonly copyTables: Read<readonly string[]>;
}

/** The parts of `vtctldata.WorkflowOptions` the checks use (stored as JSON in `_vt.vreplication.options`). */
export interface StreamOptions {
  readonly tenantId: string;
  /** Target shards a multi-tenant workflow was created for (empty = all). */
  readonly shards: readonly string[];
  readonly lookupVindexes: readonly string[];
  /** `global_keyspace`: where SwitchTraffic creates missing sequence tables (v22+); '' when none. */
  readonly globalKeyspace: string;
}

/** All streams of one workflow name in one target keyspace. */
export interface Workflow {
  readonly keyspace: string;
  readonly name: string;
  /** From the streams' workflow_type (first stream), else inferred (Reshard when source ks = target ks). */
  readonly type: WorkflowType;
  readonly subType: WorkflowSubType;
  /** Sorted by target shard (key range order), then stream id. */
  readonly streams: readonly Stream[];
  /** Distinct source keyspaces of the streams (sorted). */
  readonly sourceKeyspaces: readonly string[];
  /** Distinct source shards (sorted by key range). */
  readonly sourceShards: readonly string[];
  /** Target shards having streams (sorted by key range). */
  readonly targetShards: readonly string[];
  /** Any stream has message FROZEN. */
  readonly frozen: boolean;
  /** Vitess's own view from GetWorkflows, when it was read and had this workflow. */
  readonly vtctld: VtctldWorkflowRecord | undefined;
}

/**
 * Which read of the readout failed: vtctld's topology records (keyspaces, shards, tablets, vschemas, routing rules),
 * a tablet's GetFullStatus, a primary's stream rows (`_vt.vreplication`, and the connection to it), the other reads
 * of its sidecar and schema (copy_state, vreplication_log, the journal, information_schema, performance_schema), or
 * GetWorkflows.
 */
export type ReadPart = 'topology' | 'full-status' | 'streams' | 'sidecar' | 'workflows';

/** A failed read, located, with its kind (derived when the readout is older than `ReadError.kind`). */
export interface ReadFailure extends ReadError {
  readonly kind: ReadErrorKind;
  readonly part: ReadPart;
  readonly keyspace?: string;
  readonly shard?: string;
  readonly tablet?: string;
  /**
   * The primary reads (src/reads/registry.ts) this failure left unread. A failure of a `declared` read only leaves
   * unverified the verdicts whose action has an applicable reason that declares it (`Reason.reads`), and is no
   * `unreachable` warning: the report names it on one info line. Absent: not a primary read (topology, GetFullStatus,
   * GetWorkflows, the connection), which concerns every verdict it is located on.
   */
  readonly reads?: readonly PrimaryReadId[];
  /**
   * Set when no Vitess action needs what failed: a tablet's GetFullStatus that its tablet manager answered with an
   * error (MySQL facts of its own, e.g. MariaDB lacks `super_read_only`). The actions never call FullStatus: a
   * stream's tablet picker follows the tablets' health stream (`vitessio/vitess` `go/vt/discovery/tablet_picker.go:471
   * @v0.24.4`) and SwitchTraffic's refresh is RefreshState, which never touches MySQL. It leaves no verdict
   * unverified; `unreachable` says once, as information, what could not be read and why.
   */
  readonly notNeeded?: true;
}

/** `GetCellInfoNames`, `GetSrvVSchema` per cell and `GetSrvKeyspaces` per keyspace, as read. */
export interface ServingRecords {
  /** Not collected (older readout, `--workflows-json`): a failed Read saying so. */
  readonly cells: Read<readonly string[]>;
  /** By cell, for the cells of `cells`; a NOT_FOUND answer is a failed Read whose reason is vtctld's topo text. */
  readonly srvVSchemas: ReadonlyMap<string, Read<SrvVSchemaRecord>>;
  /** By keyspace, then cell; a cell without a SrvKeyspace is absent (or has no partitions). */
  readonly srvKeyspaces: ReadonlyMap<string, Read<Readonly<Record<string, SrvKeyspaceRecord>>>>;
}

/** What the cluster itself shows about the Vitess release it runs (read by `src/model/versions.ts`). */
export interface VersionEvidence {
  /** `_vt.vreplication` columns by primary alias, for the primaries whose columns were read. */
  readonly sidecarColumns: ReadonlyMap<string, readonly string[]>;
  /** The data type of `_vt.vdiff_log.id` by primary alias, for the primaries that report it. */
  readonly vdiffLogIdTypes?: ReadonlyMap<string, string>;
  /** Optional vtctld RPCs asked: `false` = answered UNIMPLEMENTED (not available on this vtctld). */
  readonly rpcs: ReadonlyMap<string, boolean>;
  /** `GetVersion` build facts by tablet alias, for the tablets that answered. */
  readonly builds: ReadonlyMap<string, TabletBuildRecord>;
  /** What an offline file shows of the release that printed it (readout `releaseHints`). */
  readonly hints?: readonly { readonly since: number; readonly evidence: string }[];
  /** The readout came from files, not from a cluster: nothing was read of the release but the {@link hints}. */
  readonly offline?: boolean;
}

/** The cluster model. Deep-frozen. */
export interface ClusterModel {
  /** Capture time in ms since the epoch: "now" for lag. */
  readonly readAt: number;
  readonly vtctld: string | null;
  /** Keyspaces by name (sorted). Empty map with `keyspacesRead.ok=false` when GetKeyspaces failed. */
  readonly keyspaces: ReadonlyMap<string, Keyspace>;
  readonly keyspacesRead: Read<true>;
  readonly tablets: ReadonlyMap<string, Tablet>;
  readonly tabletsRead: Read<true>;
  readonly routingRules: Read<ReadonlyMap<string, readonly string[]>>;
  readonly shardRoutingRules: Read<
    readonly { readonly fromKeyspace: string; readonly toKeyspace: string; readonly shard: string }[]
  >;
  /** The selection asked for (empty = everything). */
  readonly selection: { readonly keyspaces: readonly string[]; readonly workflows: readonly string[] };
  /** Workflows in the selection (target keyspace and workflow name filters applied), sorted. */
  readonly workflows: readonly Workflow[];
  /** Every workflow found in any read sidecar, regardless of selection (the stream migrator needs them). */
  readonly allWorkflows: readonly Workflow[];
  /** Every failed read, in readout order. */
  readonly failures: readonly ReadFailure[];
  /** What the cluster shows about its Vitess release; checks read `options.vitess` instead. */
  readonly versionEvidence: VersionEvidence;
  /** Copy progress per table by `<target keyspace>/<workflow>` (readout `copyProgress`; absent: none shown). */
  readonly copyProgress?: ReadonlyMap<string, readonly TableCopyProgressRecord[]>;
  /**
   * `GetKeyspaceRoutingRules` (multi-tenant MoveTables, v20+). A failed Read with `error.unavailable` when vtctld
   * does not have the RPC; `not collected` for readouts from before it was read.
   */
  readonly keyspaceRoutingRules: Read<readonly KeyspaceRoutingRuleRecord[]>;
  /**
   * `GetMirrorRules` (traffic mirroring, v21+). A failed Read with `error.unavailable` when vtctld does not have the
   * RPC; `not collected` for readouts from before it was kept. Not a read failure of the model when it fails: the
   * `leftover-mirror-rules` check says it could not judge.
   */
  readonly mirrorRules: Read<readonly MirrorRuleRecord[]>;
  /** What vtgates serve per cell: SwitchTraffic's getWorkflowState reads these in every cell. */
  readonly serving: ServingRecords;
  /**
   * Reads vtctld answered with UNIMPLEMENTED ("not available on this vtctld"): kept out of `failures` (they are not
   * a cluster that cannot be read); a check that needed one cannot judge and says so.
   */
  readonly unavailable: readonly ReadFailure[];
  /** Streams of the selected workflows. */
  streams(): readonly Stream[];
  keyspace(name: string): Keyspace | undefined;
  shard(keyspace: string, name: string): Shard | undefined;
  tablet(alias: string): Tablet | undefined;
}

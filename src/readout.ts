/**
 * The readout: everything collection read from a cluster, plus a record of everything it could not read.
 *
 * It is plain, serializable JSON (no Maps, no bigint, no Buffers) so that `vtpreflight snapshot` can write it
 * and `check --snapshot` can read it back through the same model builder as a live run. Field names of raw
 * rows follow Vitess's column names (snake_case); topology records use camelCase of the proto field names.
 * Nothing here is interpreted: parsing positions, sources and key ranges is the model builder's job.
 */

/** Current readout format version; bump on any incompatible change. */
export const READOUT_VERSION = 1 as const;

/** Why something could not be read: what was attempted, where, and the (secret-free) reason. */
export interface ReadError {
  /** The operation, e.g. `GetTablets`, `select _vt.vreplication`, `connect`. */
  readonly what: string;
  /** Where it was attempted, e.g. `vtctld 10.0.0.1:15999` or `zone1-0000000100 (10.0.0.5:3306)`. */
  readonly where: string;
  /** One line, never containing credentials. */
  readonly reason: string;
  /** True when the failure was a deadline rather than an error answer. */
  readonly timedOut?: boolean;
  /**
   * Additive: the gRPC status vtctld answered (`UNAVAILABLE`, `DEADLINE_EXCEEDED`, `UNKNOWN` …), when the read was a
   * vtctld call that got one. Absent for MySQL reads and in older readouts (whose `reason` starts with the code).
   */
  readonly code?: string;
  /**
   * Set when the part read is not the one to blame: `deadline` = the run's `--deadline` ended the call or left no time
   * to make it; `vtctld` = the path to vtctld failed (vtctld down or unreachable), so the tablet behind it was never
   * asked. Absent: the failure is the part's own (it refused, errored or did not answer in its `--timeout`).
   */
  readonly cause?: 'deadline' | 'vtctld';
  /**
   * True when vtctld answered UNIMPLEMENTED: the RPC is newer than this vtctld ("not available on this vtctld").
   * Not a read failure of the cluster (the model keeps it out of `failures`); a check that needed the answer cannot
   * judge and says so.
   */
  readonly unavailable?: boolean;
  /**
   * Additive: what kind of failure it was, from the driver's codes where the read failed (mysql2's `code`/`errno`,
   * the gRPC status, the MySQL errno vtctld relays), never from the text of `reason`. Absent in older readouts: the
   * model derives it then (`src/model/read-kind.ts`).
   */
  readonly kind?: ReadErrorKind;
  /**
   * Additive: with kind `not-found` from the topo, the node vtctld named as missing
   * (`/vitess/global/keyspaces/ks/VSchema`), as the topo's NoNode error words it: the path under the topo's root,
   * which vtctld tells no other way.
   */
  readonly node?: string;
}

/**
 * Kinds of read failure (`ReadError.kind`):
 * - `connect-refused`: nothing listens on the port (ECONNREFUSED);
 * - `host-unreachable`: the host cannot be reached or named (EHOSTUNREACH, ENETUNREACH, ENOTFOUND, EAI_AGAIN);
 * - `timeout`: no answer within the call's deadline (ETIMEDOUT, a statement timeout, gRPC DEADLINE_EXCEEDED);
 * - `connection-lost`: the connection dropped mid-read (PROTOCOL_CONNECTION_LOST, ECONNRESET, EPIPE);
 * - `protocol`: the server's answer broke the wire protocol (mysql2 `PROTOCOL_*`, a stalled handshake);
 * - `tls`: the TLS handshake or the certificate check failed;
 * - `auth`: the login was refused (ER_ACCESS_DENIED_ERROR 1045, gRPC UNAUTHENTICATED);
 * - `too-many-connections`: the server's connection limit (ER_CON_COUNT_ERROR 1040, ER_TOO_MANY_USER_CONNECTIONS 1203);
 * - `privilege`: a statement was denied (1044, 1142, 1143, 1227; gRPC PERMISSION_DENIED);
 * - `missing-table`: the table or schema does not exist (ER_NO_SUCH_TABLE 1146, ER_BAD_DB_ERROR 1049);
 * - `missing-column`: a column does not exist (ER_BAD_FIELD_ERROR 1054);
 * - `sql-error`: any other error answer from MySQL;
 * - `unavailable`: vtctld could not reach the tablet, or vtctld could not be reached (gRPC UNAVAILABLE);
 * - `not-found`: vtctld has no such record (gRPC NOT_FOUND);
 * - `unimplemented`: the RPC is newer than this vtctld (gRPC UNIMPLEMENTED);
 * - `rpc-error`: any other gRPC status;
 * - `bad-answer`: an answer vtpreflight cannot use (a malformed row, a schema lacking required columns);
 * - `refused`: vtpreflight refused to send the read (an invalid name or limit, a statement that is not read-only);
 * - `not-attempted`: the run deadline had passed before the read could start;
 * - `not-collected`: the readout does not carry this part (an older readout, another input);
 * - `other`: none of the above (an error without a code).
 */
export type ReadErrorKind = (typeof READ_ERROR_KINDS)[number];

/** Every {@link ReadErrorKind}, for validating readouts. */
export const READ_ERROR_KINDS = [
  'connect-refused',
  'host-unreachable',
  'timeout',
  'connection-lost',
  'protocol',
  'tls',
  'auth',
  'too-many-connections',
  'privilege',
  'missing-table',
  'missing-column',
  'sql-error',
  'unavailable',
  'not-found',
  'unimplemented',
  'rpc-error',
  'bad-answer',
  'refused',
  'not-attempted',
  'not-collected',
  'other',
] as const;

/** A value that was read, or the reason it was not. "Not read" is never represented as an empty value. */
export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ReadError };

export const readOk = <T>(value: T): Read<T> => ({ ok: true, value });
export const readFailed = <T>(error: ReadError): Read<T> => ({ ok: false, error });

/** `topodata.KeyRange` with bytes as lower-case hex; `null` when the record has no key range. */
export interface KeyRangeRecord {
  readonly start: string;
  readonly end: string;
}

/** `vtctldata.Keyspace` + `topodata.Keyspace`, the fields we use. */
export interface KeyspaceRecord {
  readonly name: string;
  readonly keyspaceType: string; // NORMAL | SNAPSHOT
  readonly baseKeyspace: string;
  readonly durabilityPolicy: string;
  /** As stored; '' means the default `_vt` (resolved by the model). */
  readonly sidecarDbName: string;
}

/** `topodata.Shard.TabletControl`. */
export interface TabletControlRecord {
  readonly tabletType: string;
  readonly cells: readonly string[];
  readonly deniedTables: readonly string[];
  readonly frozen: boolean;
}

/** `vtctldata.Shard` + `topodata.Shard`, the fields we use. */
export interface ShardRecord {
  readonly keyspace: string;
  readonly name: string;
  readonly keyRange: KeyRangeRecord | null;
  /** Tablet alias string `cell-0000000uid`, or null when the shard has no primary. */
  readonly primaryAlias: string | null;
  readonly isPrimaryServing: boolean;
  readonly tabletControls: readonly TabletControlRecord[];
}

/** `topodata.Tablet`, the fields we use. */
export interface TabletRecord {
  /** `cell-0000000uid` (uid zero-padded to 10 digits, as Vitess prints it). */
  readonly alias: string;
  readonly cell: string;
  readonly uid: number;
  readonly hostname: string;
  readonly keyspace: string;
  readonly shard: string;
  readonly type: string; // PRIMARY | REPLICA | RDONLY | SPARE | ...
  readonly dbNameOverride: string;
  readonly mysqlHostname: string;
  readonly mysqlPort: number;
  readonly portMap: Readonly<Record<string, number>>;
}

/** `vschema.Vindex`. */
export interface VindexRecord {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  readonly owner: string;
}

/** `vschema.ColumnVindex`, with `columns` already resolved (`columns` if non-empty, else `[column]`). */
export interface ColumnVindexRecord {
  readonly name: string;
  readonly columns: readonly string[];
}

/** `vschema.Table`. */
export interface VSchemaTableRecord {
  readonly type: string; // '' | 'reference' | 'sequence'
  readonly columnVindexes: readonly ColumnVindexRecord[];
  readonly source: string;
  readonly pinned: string;
  /** Additive: `auto_increment` (the column and its sequence table, `seq` or `ks.seq`); absent when none. */
  readonly autoIncrement?: { readonly column: string; readonly sequence: string };
}

/** `vschema.Keyspace`. */
export interface VSchemaRecord {
  readonly sharded: boolean;
  readonly vindexes: Readonly<Record<string, VindexRecord>>;
  readonly tables: Readonly<Record<string, VSchemaTableRecord>>;
  readonly requireExplicitRouting: boolean;
}

/** `vschema.RoutingRule`. */
export interface RoutingRuleRecord {
  readonly fromTable: string;
  readonly toTables: readonly string[];
}

/** `vschema.ShardRoutingRule`. */
export interface ShardRoutingRuleRecord {
  readonly fromKeyspace: string;
  readonly toKeyspace: string;
  readonly shard: string;
}

/** `vschema.MirrorRule` (v21+): a share of the queries on `fromTable` (`ks.t[@type]`) mirrored to `toTable`. */
export interface MirrorRuleRecord {
  readonly fromTable: string;
  readonly toTable: string;
  readonly percent: number;
}

/** `vschema.KeyspaceRoutingRule` (multi-tenant MoveTables routes whole keyspaces). */
export interface KeyspaceRoutingRuleRecord {
  readonly fromKeyspace: string;
  readonly toKeyspace: string;
}

/** One partition of `topodata.SrvKeyspace`: what vtgates serve for one tablet type. */
export interface SrvKeyspacePartitionRecord {
  readonly servedType: string;
  readonly shards: readonly { readonly name: string; readonly keyRange: KeyRangeRecord | null }[];
  readonly shardTabletControls: readonly {
    readonly name: string;
    readonly keyRange: KeyRangeRecord | null;
    readonly queryServiceDisabled: boolean;
  }[];
}

/** `topodata.SrvKeyspace` of one cell (what its vtgates serve for one keyspace). */
export interface SrvKeyspaceRecord {
  readonly partitions: readonly SrvKeyspacePartitionRecord[];
}

/** `vschema.SrvVSchema` of one cell (what its vtgates serve), the parts we use. */
export interface SrvVSchemaRecord {
  /** Keyspace names present in the cell's roll-up, sorted. */
  readonly keyspaces: readonly string[];
  readonly routingRules: readonly RoutingRuleRecord[];
  readonly keyspaceRoutingRules: readonly KeyspaceRoutingRuleRecord[];
}

/** `replicationdata.FullStatus` from `GetFullStatus`, the fields we use. */
export interface FullStatusRecord {
  readonly serverUuid: string;
  /** `primary_status.position` (flavor-prefixed, e.g. `MySQL56/…`), '' when absent. */
  readonly primaryPosition: string;
  /** `replication_status.position`, '' when absent (a primary). */
  readonly replicationPosition: string;
  /** As returned: may or may not carry a flavor prefix. */
  readonly gtidPurged: string;
  readonly version: string;
  readonly readOnly: boolean;
  readonly superReadOnly: boolean;
  readonly gtidMode: string;
  readonly binlogFormat: string;
  readonly binlogRowImage: string;
  readonly logBinEnabled: boolean;
  readonly logReplicaUpdates: boolean;
  readonly tabletType: string;
}

/** One stream of `vtctldata.Workflow` (Vitess's own view from `GetWorkflows`). */
export interface VtctldStreamRecord {
  readonly id: number;
  readonly shard: string;
  readonly tablet: string;
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
  /** `Position.String()`: the GTID set without flavor prefix. */
  readonly position: string;
  readonly stopPosition: string;
  /** Displayed state (Vitess's `getStreamState`). */
  readonly state: string;
  readonly message: string;
  readonly timeUpdated: number | null;
  readonly transactionTimestamp: number | null;
  readonly copyStateTables: readonly string[];
}

/** `vtctldata.Workflow`, the fields we use. */
export interface VtctldWorkflowRecord {
  readonly name: string;
  readonly sourceKeyspace: string;
  readonly sourceShards: readonly string[];
  readonly targetKeyspace: string;
  readonly targetShards: readonly string[];
  readonly workflowType: string;
  readonly workflowSubType: string;
  /** Seconds, as vtctld computed them; null when the server does not send the field. */
  readonly maxVReplicationLag: number | null;
  readonly maxVReplicationTransactionLag: number | null;
  readonly streams: readonly VtctldStreamRecord[];
}

/**
 * One `_vt.vreplication` row, raw. Columns that the server's schema lacks are absent (undefined), not zero.
 * Strings are decoded as UTF-8; numbers that may exceed 2^53 (max_tps …) are kept as decimal strings.
 */
export interface VReplicationRow {
  readonly id: number;
  readonly workflow: string | null;
  readonly source: string;
  /** The `pos` column as text; when it is not valid UTF-8 text (compressed), `posBase64` holds the bytes. */
  readonly pos: string;
  readonly posBase64?: string;
  readonly stop_pos: string | null;
  readonly max_tps?: string;
  readonly max_replication_lag?: string;
  readonly cell: string | null;
  readonly tablet_types: string | null;
  readonly time_updated: number;
  readonly transaction_timestamp: number;
  readonly state: string;
  readonly message: string | null;
  readonly db_name: string;
  readonly rows_copied?: number;
  readonly tags?: string;
  readonly time_heartbeat?: number;
  readonly workflow_type?: number;
  readonly time_throttled?: number;
  readonly component_throttled?: string;
  readonly workflow_sub_type?: number;
  readonly defer_secondary_keys?: number;
  readonly options?: string | null;
}

/** One `_vt.copy_state` row (lastpk is opaque and not kept). */
export interface CopyStateRow {
  readonly id: number;
  readonly vrepl_id: number;
  readonly table_name: string;
}

/** One `_vt.vreplication_log` row. */
export interface VReplicationLogRow {
  readonly id: number;
  readonly vrepl_id: number;
  readonly type: string;
  readonly state: string;
  readonly message: string;
  readonly created_at: string | null;
  readonly updated_at: string | null;
  readonly count: number;
}

/** One `_vt.resharding_journal` row (val kept as prototext). */
export interface ReshardingJournalRow {
  readonly id: string; // bigint as decimal string
  readonly db_name: string;
  readonly val: string;
}

/** What was read from one primary's sidecar database. */
export interface TabletSidecarRead {
  readonly alias: string;
  readonly keyspace: string;
  readonly shard: string;
  /** `host:port` actually dialed (or `vtctld` when read through ExecuteFetchAsDBA). */
  readonly endpoint: string;
  readonly sidecarDb: string;
  /** MySQL schema of the tablet (`vt_<keyspace>` or the override); rows are filtered by it. */
  readonly dbName: string;
  /** Columns present in `<sidecar>.vreplication` on this server. */
  readonly columns: Read<readonly string[]>;
  readonly vreplication: Read<readonly VReplicationRow[]>;
  readonly copyState: Read<readonly CopyStateRow[]>;
  readonly vreplicationLog: Read<readonly VReplicationLogRow[]>;
  readonly reshardingJournal: Read<readonly ReshardingJournalRow[]>;
  /**
   * Additive: type and size of the sidecar columns that hold GTID sets (`vreplication.pos`, `stop_pos`,
   * `resharding_journal.val`) from `information_schema.COLUMNS` (absent in older readouts).
   */
  readonly positionColumns?: Read<readonly PositionColumnRow[]>;
  /**
   * Additive: the open InnoDB transactions of sessions whose current database is `dbName`, oldest first
   * (`information_schema.INNODB_TRX` joined with `PROCESSLIST`; needs the PROCESS privilege). Absent in older readouts.
   */
  readonly transactions?: Read<readonly TransactionRow[]>;
  /**
   * Additive: table metadata locks in `dbName` held or awaited by other sessions (`performance_schema.metadata_locks`),
   * with whether the server instruments them at all. Absent in older readouts.
   */
  readonly metadataLocks?: Read<MetadataLocksRead>;
  /**
   * Additive: the base tables of `dbName` with their primary key and unique keys (`information_schema.TABLES` and
   * `STATISTICS`), for the moved-tables-without-a-key check. Absent in older readouts.
   */
  readonly tableKeys?: Read<readonly TableKeyRow[]>;
  /**
   * Additive: the names of the tables of the tablet's schema (`dbName`) from `information_schema.TABLES`, sorted
   * (absent in older readouts). SwitchTraffic's write switch runs `LOCK TABLES <t> READ, …` on every source primary
   * of a MoveTables (`traffic_switcher.go` `executeLockTablesOnSource`): a moved table missing there fails it; and
   * `complete --rename-tables` fails on an existing `_<name>_old` (`renameTableTemplate`).
   */
  readonly tables?: Read<readonly string[]>;
  /**
   * Additive, only under `check --action create --tables …` on the target keyspace's primaries: for each table to
   * move, whether `select 1 from <table> limit 1` found a row (MoveTables create's `validateEmptyTables`,
   * materializer.go). A table that does not exist reads as empty, as Vitess ignores its "doesn't exist" error. Absent
   * when not probed.
   */
  readonly tableProbes?: Read<readonly TableProbeRow[]>;
  /**
   * Additive: the atomic (2PC) transaction records of the sidecar (`dt_state`: this primary coordinates them;
   * `redo_state`: prepared here as a participant). Absent in older readouts.
   */
  readonly twoPc?: Read<TwoPcRead>;
  /**
   * Additive: whether the server converts named time zones (`CONVERT_TZ(…, 'UTC', 'UTC')` is not NULL), i.e. its
   * time-zone tables are loaded (`--source-time-zone`). Absent in older readouts.
   */
  readonly timeZoneTables?: Read<boolean>;
  /**
   * Additive: the privilege rows of the filtered user (`--filtered-user`, Vitess's `--db_filtered_user`) in
   * `mysql.user`, `mysql.db` and `mysql.tables_priv`, on every host, as ValidateVReplicationPermissions reads them
   * (rpc_vreplication.go `sqlValidateVReplicationPermissions`). Absent in older readouts.
   */
  readonly filteredUserGrants?: Read<FilteredUserGrants>;
  /**
   * Additive: `next_id` and `cache` of the sequence tables this primary's keyspace vschema
   * declares (`type: sequence`), `SELECT next_id, cache FROM <dbName>.<seq> WHERE id = 0`. Absent when the vschema
   * declares none, and in older readouts.
   */
  readonly sequenceValues?: Read<readonly SequenceValueRow[]>;
  /**
   * Additive: `MAX(<column>)` of each table this primary's keyspace vschema gives an `auto_increment`, the
   * value `--initialize-target-sequences` reads on every target primary (sequences.go `sqlGetMaxSequenceVal`). Absent
   * when the vschema has none, and in older readouts.
   */
  readonly autoIncrementMax?: Read<readonly AutoIncrementMaxRow[]>;
  /**
   * Additive: the VDiff runs recorded in `<sidecar>.vdiff` for `dbName`, newest first, with the tables each
   * found mismatched (`vdiff_table.mismatch`). Tables absent (a sidecar schema without VDiff v2) read as no runs.
   * Absent in older readouts.
   */
  readonly vdiffs?: Read<readonly VDiffRow[]>;
  /**
   * Additive: the foreign keys of `dbName` (`information_schema.KEY_COLUMN_USAGE`, with their rules from
   * `REFERENTIAL_CONSTRAINTS` where the server shows them), sorted by table then constraint. Absent in older readouts.
   */
  readonly foreignKeys?: Read<readonly ForeignKeyRow[]>;
}

/** One foreign key of a primary's schema. */
export interface ForeignKeyRow {
  readonly constraint_name: string;
  /** The child table (the one holding the constraint). */
  readonly table_name: string;
  readonly referenced_schema: string;
  readonly referenced_table_name: string;
  /** `RESTRICT`, `CASCADE`, `SET NULL`, `NO ACTION`, `SET DEFAULT`; '' when the server did not show the rules. */
  readonly update_rule: string;
  readonly delete_rule: string;
}

/** Whether one table of a primary's schema holds a row (`select 1 from <table> limit 1`). */
export interface TableProbeRow {
  readonly table_name: string;
  readonly non_empty: boolean;
}

/** `<sidecar>.dt_state` and `<sidecar>.redo_state` rows (go/vt/sidecardb/schema/twopc/*.sql); null = no such table. */
/** The filtered user's rows in `mysql.user`, `mysql.db` and `mysql.tables_priv` (every host), as read. */
export interface FilteredUserGrants {
  readonly user: string;
  /** `mysql.user`: `Select_priv`, `Insert_priv`, `Update_priv`, `Delete_priv` ('Y'/'N'). */
  readonly global: readonly {
    readonly select: string;
    readonly insert: string;
    readonly update: string;
    readonly delete: string;
  }[];
  /** `mysql.db`: the `Db` pattern and its privileges. */
  readonly db: readonly {
    readonly db: string;
    readonly select: string;
    readonly insert: string;
    readonly update: string;
    readonly delete: string;
  }[];
  /** `mysql.tables_priv`: the `Db` pattern, `Table_name` and the `Table_priv` set as read. */
  readonly tables: readonly { readonly db: string; readonly table: string; readonly privs: string }[];
}

export interface TwoPcRead {
  readonly dtState: readonly TwoPcRow[] | null;
  readonly redoState: readonly TwoPcRow[] | null;
}

/** One 2PC record: `dtid`, `state` (querypb.TransactionState / the redo state) and `time_created` (Unix ns). */
export interface TwoPcRow {
  readonly dtid: string;
  readonly state: number;
  /** Nanoseconds since the epoch, as a decimal string (a bigint column). */
  readonly time_created: string;
}

/** One sequence table's row `id = 0`; bigints as decimal strings. */
export interface SequenceValueRow {
  readonly table_name: string;
  /** False when the table does not exist in the schema. */
  readonly present: boolean;
  /** Null when the table has no row `id = 0` (never initialized). */
  readonly next_id: string | null;
  readonly cache: string | null;
}

/** The highest value of one `auto_increment` column on one primary. */
export interface AutoIncrementMaxRow {
  readonly table_name: string;
  readonly column_name: string;
  /** False when the table (or column) does not exist in the schema. */
  readonly present: boolean;
  /** Null when the table holds no row. Decimal string. */
  readonly max_value: string | null;
}

/** One `<sidecar>.vdiff` row, with its mismatched tables from `vdiff_table`. */
export interface VDiffRow {
  readonly id: number;
  readonly vdiff_uuid: string;
  readonly workflow: string;
  readonly keyspace: string;
  readonly shard: string;
  /** `pending`, `started`, `stopped`, `completed`, `error`. */
  readonly state: string;
  readonly created_at: string | null;
  readonly completed_at: string | null;
  readonly last_error: string;
  /** Tables whose `vdiff_table.mismatch` is set, sorted. */
  readonly mismatched_tables: readonly string[];
}

/** One base table of a primary's schema and how its rows are identified. */
export interface TableKeyRow {
  readonly table_name: string;
  readonly has_primary_key: boolean;
  /** A unique index whose columns are all NOT NULL (a primary-key equivalent), or null when there is none. */
  readonly unique_not_null: string | null;
  /** Unique indexes with a nullable column (not a primary-key equivalent). */
  readonly unique_nullable: readonly string[];
}

/** One open transaction (`INNODB_TRX` ⋈ `PROCESSLIST`). Statement text is kept only as a digest (literals as `?`). */
export interface TransactionRow {
  /** `PROCESSLIST.ID` (= `trx_mysql_thread_id`). */
  readonly thread_id: number;
  readonly user: string;
  /** `PROCESSLIST.COMMAND`: `Sleep` for a session idle inside its transaction. */
  readonly command: string;
  /** Seconds since `trx_started`, computed by the server. */
  readonly trx_seconds: number;
  readonly trx_state: string;
  /** `PROCESSLIST.STATE`, e.g. `Waiting for table metadata lock`; null when none. */
  readonly state: string | null;
  /** Digest of the running statement (`trx_query`, else `PROCESSLIST.INFO`); null when the session is idle. */
  readonly digest: string | null;
  readonly rows_modified: number;
  /**
   * `INNODB_TRX.trx_tables_locked`: InnoDB tables the transaction holds row locks on; 0 with `rows_modified` 0 is a
   * read-only (consistent-snapshot) transaction. Absent in readouts from before it was read.
   */
  readonly tables_locked?: number;
}

/** Metadata locks of one primary's database, and whether its server records them. */
export interface MetadataLocksRead {
  /**
   * False when `performance_schema` is off or its `wait/lock/metadata/sql/mdl` instrument is disabled (MariaDB's
   * defaults): then `locks` is empty and says nothing.
   */
  readonly instrumented: boolean;
  readonly locks: readonly MetadataLockRow[];
}

/** One `performance_schema.metadata_locks` row on a table of the primary's database. */
export interface MetadataLockRow {
  /** The owner's `PROCESSLIST_ID`; null for a background thread. */
  readonly thread_id: number | null;
  readonly table_name: string;
  /** `SHARED_WRITE`, `SHARED_READ`, `EXCLUSIVE` … */
  readonly lock_type: string;
  /** `TRANSACTION`, `STATEMENT`, `EXPLICIT`. */
  readonly lock_duration: string;
  /** `GRANTED` or `PENDING`. */
  readonly lock_status: string;
  /** `DIGEST_TEXT` of the owner's current or last statement, when the server records it. */
  readonly digest: string | null;
}

/** One `information_schema.COLUMNS` row of a sidecar column that holds GTID sets. */
export interface PositionColumnRow {
  readonly table_name: string;
  readonly column_name: string;
  /** Lower-case MySQL type name: `varbinary`, `blob`, `longblob` … */
  readonly data_type: string;
  /** `CHARACTER_MAXIMUM_LENGTH` in bytes (binary types); null when the server gives none. */
  readonly max_length: number | null;
}

/**
 * A part of the readout that a source may not carry: `topology` (keyspace, shard and routing records),
 * `tablets` (tablet records), `fullStatus` (GetFullStatus of tablets), `vschema` (GetVSchema), `streamDetails`
 * (each stream's binlog source filter and its timestamps: a `MoveTables status` file shows only state and position).
 */
export type ReadoutPart = 'topology' | 'tablets' | 'fullStatus' | 'vschema' | 'streamDetails';

/**
 * `GetVersion` of one tablet: vtctld reads the tablet's `/debug/vars` and prints the build facts
 * (`vitessio/vitess:go/vt/vtctl/grpcvtctldserver/server.go` `getVersionFromTabletDebugVars`: `{BuildHost BuildUser
 * BuildTimestamp BuildGitRev}` with Go's `%v`). There is no release number in it. Host and user are dropped here.
 */
export interface TabletBuildRecord {
  /** Unix seconds of the build (0 when the answer did not carry one). */
  readonly buildTimestamp: number;
  readonly gitRev: string;
}

/** The whole readout. */
export interface Readout {
  readonly version: typeof READOUT_VERSION;
  readonly tool: { readonly name: 'vtpreflight'; readonly version: string };
  /** ISO-8601 capture time: "now" for every lag rule, so a snapshot replays identically. */
  readonly capturedAt: string;
  readonly target: {
    readonly vtctld: string | null;
    /** Target keyspaces selected with --keyspace (empty = all). */
    readonly keyspaces: readonly string[];
    /** Workflows selected with --workflow (empty = all). */
    readonly workflows: readonly string[];
    readonly via: 'mysql' | 'vtctld';
  };
  readonly topology: {
    readonly keyspaces: Read<readonly KeyspaceRecord[]>;
    /** By keyspace name. */
    readonly shards: Readonly<Record<string, Read<readonly ShardRecord[]>>>;
    readonly tablets: Read<readonly TabletRecord[]>;
    /** By keyspace name. */
    readonly vschemas: Readonly<Record<string, Read<VSchemaRecord>>>;
    readonly routingRules: Read<readonly RoutingRuleRecord[]>;
    readonly shardRoutingRules: Read<readonly ShardRoutingRuleRecord[]>;
  };
  /** `GetWorkflows` per target keyspace: Vitess's own view, kept for comparison (optional). */
  readonly workflows: Readonly<Record<string, Read<readonly VtctldWorkflowRecord[]>>>;
  /** Sidecar reads, one per primary that was in scope. */
  readonly sidecars: readonly TabletSidecarRead[];
  /** `GetFullStatus` by tablet alias, for the tablets that were asked. */
  readonly fullStatus: Readonly<Record<string, Read<FullStatusRecord>>>;
  /**
   * Additive: where the readout came from (absent = `live` or a snapshot of it). A `workflows-json` readout is
   * converted from `vtctldclient GetWorkflows --json` output (`src/sources/workflows-json.ts`).
   */
  readonly origin?: 'live' | 'snapshot' | 'workflows-json';
  /**
   * Additive: the parts this readout does not carry at all (absent = it carries everything). Their records in
   * `topology`/`fullStatus` are synthesized or empty and are not read failures; checks that need them are skipped.
   */
  readonly lacks?: readonly ReadoutPart[];
  /**
   * Additive: optional vtctld RPCs (ones older supported Vitess releases lack) and whether vtctld implements them:
   * `false` = it answered UNIMPLEMENTED ("not available on this vtctld"), `true` = it answered. Absent RPCs were
   * not asked. Version inference reads it (`src/model/versions.ts`).
   */
  readonly rpcs?: Readonly<Record<string, boolean>>;
  /** Additive: `GetVersion` by tablet alias, for the primaries read (absent in older readouts). */
  readonly tabletBuilds?: Readonly<Record<string, Read<TabletBuildRecord>>>;
  /** Additive: `GetKeyspaceRoutingRules` (v20+; an older vtctld leaves a failed Read with `unavailable`). */
  readonly keyspaceRoutingRules?: Read<readonly KeyspaceRoutingRuleRecord[]>;
  /** Additive: `GetMirrorRules` (v21+; an older vtctld leaves a failed Read with `unavailable`). */
  readonly mirrorRules?: Read<readonly MirrorRuleRecord[]>;
  /** Additive: `GetCellInfoNames`. */
  readonly cells?: Read<readonly string[]>;
  /** Additive: `GetSrvVSchema` by cell, for every cell of {@link cells}. */
  readonly srvVSchemas?: Readonly<Record<string, Read<SrvVSchemaRecord>>>;
  /**
   * Additive: `GetSrvKeyspaces` by keyspace (target keyspaces and their streams' source keyspaces), each by cell. A
   * cell whose SrvKeyspace does not exist is absent from the map (or present without partitions).
   */
  readonly srvKeyspaces?: Readonly<Record<string, Read<Readonly<Record<string, SrvKeyspaceRecord>>>>>;
  /**
   * Additive: what an offline file shows of the Vitess release that printed it (a field that exists only from a
   * release on); version inference reads it. A file shows no sidecar columns, so it is the only release evidence of
   * a `workflows-json` readout.
   */
  readonly releaseHints?: readonly ReleaseHint[];
  /** Additive: converted from files that show no sidecar columns, tablets or builds (no primary was read). */
  readonly offline?: boolean;
  /**
   * Additive: copy progress per table, by `<target keyspace>/<workflow>`, as vtctld's WorkflowStatus reports it
   * (rows copied on the target against the source's row estimate), for workflows still in their copy phase.
   */
  readonly copyProgress?: Readonly<Record<string, readonly TableCopyProgressRecord[]>>;
}

/** A release lower bound an offline file shows: `evidence` names the field, `since` the major that added it. */
export interface ReleaseHint {
  readonly since: number;
  readonly evidence: string;
}

/**
 * One table of a workflow's copy (vtctldata `WorkflowStatusResponse.TableCopyState`): row counts are
 * `information_schema.tables` estimates summed over the target and the source primaries.
 */
export interface TableCopyProgressRecord {
  readonly table: string;
  readonly rowsCopied: number;
  readonly rowsTotal: number;
  /** As vtctld computed it (0 when the source estimate is 0). */
  readonly rowsPercentage: number;
  /** v24+: `NOT_STARTED`, `IN_PROGRESS` or `COMPLETE`; absent when the release does not say. */
  readonly phase?: 'NOT_STARTED' | 'IN_PROGRESS' | 'COMPLETE' | 'UNKNOWN';
}

/**
 * The tablet sidecar reader: reads `vreplication`, `copy_state`, `vreplication_log` and `resharding_journal`
 * from one primary's sidecar database into a {@link TabletSidecarRead}.
 *
 * It is transport-independent: it talks to a {@link SqlExecutor}, which is a direct mysql2 connection
 * (`src/sources/mysql.ts`) or vtctld's `ExecuteFetchAsDBA` (`--via vtctld`, which has no placeholders and
 * inlines values with {@link formatSql}). Every statement it sends is a `SELECT` or `SHOW` that starts with
 * the `/* vtpreflight *\/` tag, and it never throws: each failure is recorded in the matching
 * `Read` (what, where, why), so one bad table or one dead primary never hides the rest of the cluster.
 *
 * Schema facts: upstream `vitessio/vitess:go/vt/sidecardb/schema/vreplication/*.sql`.
 */
import { statementShape } from '../vitess/sql-shape.js';
import { sqlErrorKind } from './read-kind.js';
import {
  readFailed,
  readOk,
  type CopyStateRow,
  type MetadataLockRow,
  type MetadataLocksRead,
  type PositionColumnRow,
  type Read,
  type ReadError,
  type ReshardingJournalRow,
  type TableKeyRow,
  type TableProbeRow,
  type TabletSidecarRead,
  type TransactionRow,
  type FilteredUserGrants,
  type AutoIncrementMaxRow,
  type SequenceValueRow,
  type VDiffRow,
  type ForeignKeyRow,
  type VReplicationLogRow,
  type VReplicationRow,
} from '../readout.js';
import { byCodeUnit } from '../text.js';
import { extraGrantOf } from '../reads/registry.js';
import { READ_UNITS, UNIT_READ_IDS, type UnitReadId } from '../reads/units/index.js';
import {
  decodeRows,
  describeSqlError,
  must,
  mustIndex,
  rawText,
  type Row,
  SQL_TAG,
  strictUtf8Text,
  toDecimal,
  toInt,
  toText,
  toTextOrNull,
  type SqlParam,
  type SqlResult,
  type SqlValue,
} from '../reads/sql.js';

export { describeSqlError, SQL_TAG, type SqlParam, type SqlResult, type SqlValue, toText } from '../reads/sql.js';

/** A statement with `?` placeholders and their values. */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

/** What a batch answered: the results of the statements that ran, in order, and the error that stopped it, if any. */
export interface SqlBatchOutcome {
  readonly results: readonly SqlResult[];
  /**
   * Set when a statement failed and the batch stopped there (servers run nothing after a failed statement of a
   * multi-statement query). `at` is the failed statement's index when the executor knows it (then equal to
   * `results.length`); absent when it cannot say (vtctld's ExecuteMultiFetchAsDBA answers one error for the call).
   */
  readonly error?: { readonly at?: number; readonly cause: unknown };
}

/**
 * Runs one read-only statement. `sql` holds `?` placeholders for `params`; an executor without placeholder
 * support (vtctld's ExecuteFetchAsDBA) inlines them with {@link formatSql}. An executor applies its own
 * deadline and rejects with an error whose `timedOut` property is `true` (or whose `code` is a timeout code,
 * see {@link isTimeoutError}) when it expires.
 */
export interface SqlExecutor {
  query(sql: string, params: readonly SqlParam[]): Promise<SqlResult>;
  /**
   * Optional: runs several statements in one round trip (a multi-statement query, or ExecuteMultiFetchAsDBA), in
   * order, stopping at the first failure. Resolves with what ran; rejects only when the executor itself fails.
   */
  batch?(statements: readonly SqlStatement[]): Promise<SqlBatchOutcome>;
  close(): Promise<void>;
  /**
   * The server's flavor, when the executor knows it (a direct connection reads it from the handshake); absent:
   * unknown (vtctld's ExecuteFetchAsDBA), read as MySQL. Where a read costs much more on one flavor, the reader sends
   * that flavor a cheaper statement of the same facts.
   */
  readonly flavor?: 'mysql' | 'mariadb';
}

/** Which primary to read and how its sidecar is named. */
export interface SidecarTarget {
  /** Tablet alias, `cell-0000000uid`. */
  readonly alias: string;
  readonly keyspace: string;
  readonly shard: string;
  /** `host:port` dialed, or `vtctld` when read through ExecuteFetchAsDBA. */
  readonly endpoint: string;
  /** The keyspace's sidecar database (`_vt` unless the keyspace record says otherwise). */
  readonly sidecarDb: string;
  /** The tablet's MySQL schema (`vt_<keyspace>` or its db_name_override); rows are filtered by it. */
  readonly dbName: string;
}

/** Options of {@link readSidecarWith}. */
export interface ReadSidecarOptions {
  /**
   * Resharding journal ids (decimal strings of `HashStreams`) to look up. Absent: every journal
   * row of this `db_name` is read (bounded by {@link JOURNAL_ROW_LIMIT}). Empty: the table is not queried.
   */
  readonly journalIds?: readonly string[];
  /** Newest `vreplication_log` rows read per stream (default {@link DEFAULT_LOG_LIMIT_PER_STREAM}); 0 skips the log. */
  readonly logLimitPerStream?: number;
  /**
   * Tables of `dbName` to probe for a row (`check --action create --tables`, on the target primaries): one
   * {@link nonEmptyProbe} each, last in the batch. Absent or empty: none (no `tableProbes` in the read).
   */
  readonly probeTables?: readonly string[];
  /**
   * sequence tables (unescaped names) of this keyspace whose row `id = 0` is read in
   * `dbName`. Absent or empty: none read, and `sequenceValues` is absent from the read.
   */
  readonly sequenceTables?: readonly string[];
  /** `auto_increment` columns whose `MAX` is read in `dbName`. Absent or empty: `autoIncrementMax` absent. */
  readonly autoIncrementColumns?: readonly { readonly table: string; readonly column: string }[];
  /**
   * The tablets' filtered user (`--db_filtered_user`; the `--filtered-user` setting), whose privilege rows in
   * `mysql.user`, `mysql.db` and `mysql.tables_priv` are read (ValidateVReplicationPermissions). Default
   * {@link DEFAULT_FILTERED_USER}.
   */
  readonly filteredUser?: string;
  /** The grant rows are read elsewhere (`--grants-via-vtctld`): not sent, and `filteredUserGrants` absent. */
  readonly skipFilteredUserGrants?: boolean;
}

/** Vitess's default `--db_filtered_user` (go/vt/dbconfigs). */
export const DEFAULT_FILTERED_USER = 'vt_filtered';
/** Privilege rows read per table for the filtered user (one per host it is defined on). */
export const GRANT_ROW_LIMIT = 100;

/** Newest log rows per stream when the caller does not say. */
export const DEFAULT_LOG_LIMIT_PER_STREAM = 20;
/** The most newest log rows per stream a caller may ask for (the statement has one branch per row). */
export const MAX_LOG_LIMIT_PER_STREAM = 100;

/** Upper bound of journal rows read when no ids are given (a primary holds a handful at most). */
export const JOURNAL_ROW_LIMIT = 1000;

/** Oldest open transactions read per primary. */
export const TRANSACTION_ROW_LIMIT = 100;
/** Rows read of INNODB_TRX (server-wide, unsorted: the reader sorts them and keeps the oldest). */
export const TRX_SCAN_LIMIT = 10000;
/**
 * Base tables read per primary, and their unique-key columns; one more row is asked of each statement, and a list
 * longer than its limit fails the read (never a table silently left without its keys).
 */
export const TABLE_ROW_LIMIT = 20000;
export const UNIQUE_KEY_ROW_LIMIT = 100000;
/** Sessions of the tablet's schema read per primary (one more fails the read). */
export const SESSION_ROW_LIMIT = 10000;
/** Mismatched tables of the VDiff runs read per primary (one more fails the read). */
export const VDIFF_MISMATCH_ROW_LIMIT = 10000;
/** Metadata locks read per primary. */
export const METADATA_LOCK_ROW_LIMIT = 1000;
/** Foreign keys read per primary; more are not judged. */
export const FOREIGN_KEY_ROW_LIMIT = 5000;
/** VDiff runs read per primary (newest first). */
export const VDIFF_ROW_LIMIT = 200;
/** Sequence tables and auto_increment columns read per primary; more are not read. */
export const SEQUENCE_READ_LIMIT = 200;
/** Characters of a statement text read before it is digested. */
const STATEMENT_CHARS = 1024;

const NOT_READ = 'not read because ';

/** Stream ids per `IN (…)` list; longer lists are split into several statements. */
const IN_LIST_CHUNK = 500;

type ColumnKind = 'int' | 'decimal' | 'text' | 'textOrNull' | 'pos';

/**
 * The `vreplication` columns the reader knows, in upstream order, with how each is decoded. Columns missing
 * on a server are left out of the SELECT and absent from the rows; unknown newer columns are listed in
 * `columns` but not read. `options` is not in any stored upstream `.sql` version but newer
 * Vitess writes it, so it is read when present.
 */
const VREPLICATION_COLUMNS: readonly (readonly [
  name: keyof VReplicationRow & string,
  kind: ColumnKind,
  required: boolean,
])[] = [
  ['id', 'int', true],
  ['workflow', 'textOrNull', true],
  ['source', 'text', true],
  ['pos', 'pos', true],
  ['stop_pos', 'textOrNull', true],
  ['max_tps', 'decimal', false],
  ['max_replication_lag', 'decimal', false],
  ['cell', 'textOrNull', true],
  ['tablet_types', 'textOrNull', true],
  ['time_updated', 'int', true],
  ['transaction_timestamp', 'int', true],
  ['state', 'text', true],
  ['message', 'textOrNull', true],
  ['db_name', 'text', true],
  ['rows_copied', 'int', false],
  ['tags', 'text', false],
  ['time_heartbeat', 'int', false],
  ['workflow_type', 'int', false],
  ['time_throttled', 'int', false],
  ['component_throttled', 'text', false],
  ['workflow_sub_type', 'int', false],
  ['defer_secondary_keys', 'int', false],
  ['options', 'textOrNull', false],
];

/** Names of the `vreplication` columns the reader selects when the server has them. */
export const KNOWN_VREPLICATION_COLUMNS: readonly string[] = VREPLICATION_COLUMNS.map(([name]) => name);

/** Backtick-quotes an identifier; throws for names MySQL cannot hold or we refuse to quote (backtick, NUL). */
export function quoteIdentifier(name: string): string {
  const problem = identifierProblem(name);
  if (problem !== null) throw new Error(problem);
  return `\`${name}\``;
}

function identifierProblem(name: string): string | null {
  if (name.length === 0) return 'sidecar database name is empty';
  if (name.length > 64) return `sidecar database name ${JSON.stringify(name)} is longer than 64 characters`;
  if (name.includes('`') || name.includes('\0')) {
    return `sidecar database name ${JSON.stringify(name)} contains a backtick or NUL, which vtpreflight refuses to quote`;
  }
  return null;
}

/**
 * Backtick-quotes a table name as Vitess's `sqlescape.EscapeID` does: backticks inside are doubled. A name MySQL
 * cannot hold (empty, longer than 64 characters, or with NUL) is refused.
 */
export function quoteTableName(name: string): string {
  if (name.length === 0 || name.length > 64 || name.includes('\0'))
    throw new Error(`table name ${JSON.stringify(name)} is not a MySQL table name`);
  return `\`${name.replace(/`/g, '``')}\``;
}

/**
 * MoveTables create's emptiness probe of one table (materializer.go @011aa691:61 `getNonEmptyTableQuery`, `select 1
 * from %s limit 1`, run on every serving target primary), qualified with the tablet's schema since vtpreflight's
 * session selects no database. Tagged; the simulator and the general-log test know its shape
 * (`nonEmptyProbe('?', '?')` in {@link listSidecarStatements}).
 */
export function nonEmptyProbe(dbName: string, table: string): string {
  const q = (n: string) => (n === '?' ? '`?`' : quoteTableName(n));
  return `${SQL_TAG} SELECT 1 FROM ${q(dbName)}.${q(table)} LIMIT 1`;
}

/** Most table names kept per tablet schema (`information_schema.TABLES`); a longer list is not judged. */
export const TABLE_LIST_LIMIT = 20000;

const inList = (n: number, item = '?'): string => Array.from({ length: n }, () => item).join(', ');

/** The statements the reader sends, built for one sidecar database (placeholders still in place). */
const statements = (sidecarDb: string) => {
  const db = quoteIdentifier(sidecarDb);
  return {
    // Every column, mapped by name: the result's column names are the server's schema (columns were added over
    // releases), so no discovery query. A server sends the column definitions even for an empty result.
    vreplicationAll: `${SQL_TAG} SELECT * FROM ${db}.\`vreplication\` WHERE \`db_name\` = ? ORDER BY \`id\``,
    // Newest row per (vrepl_id, table_name), as GetWorkflows reads them; lastpk is opaque. The streams
    // of this db_name come from a subquery, so no id list from an earlier answer is needed and it can share the batch.
    copyStateByDb: `${SQL_TAG} SELECT MAX(\`id\`) AS \`id\`, \`vrepl_id\`, \`table_name\` FROM ${db}.\`copy_state\` WHERE \`vrepl_id\` IN (${streamsOf(db)}) GROUP BY \`vrepl_id\`, \`table_name\` ORDER BY \`vrepl_id\`, \`table_name\``,
    // The newest `limit` rows of each stream of this db_name, with a cost linear in the rows returned, whatever the
    // log's size: one branch per rank k (0 = newest) finds, for every stream, the id of its k-th newest row with a
    // backward scan of vrepl_id_idx ((vrepl_id, id) in InnoDB) that stops after k + 1 entries, and the rows are then
    // fetched by primary key. About limit² / 2 index entries and `limit` row lookups per stream: at 300,000 log rows
    // a statement that compared every log row with its stream's cutoff read every index entry of the streams (and,
    // without MariaDB's subquery cache, `limit` more per row). No window function (its cost is the whole partition)
    // and no ORDER BY (sorted by the reader; the log's TEXT message would put a sort's temporary table on disk).
    logByDb: (limit: number) =>
      `${SQL_TAG} SELECT l.\`id\`, l.\`vrepl_id\`, l.\`type\`, l.\`state\`, l.\`message\`, l.\`created_at\`, l.\`updated_at\`, l.\`count\` FROM (${Array.from(
        { length: limit },
        (_, k) =>
          `SELECT (SELECT c.\`id\` FROM ${db}.\`vreplication_log\` AS c WHERE c.\`vrepl_id\` = v.\`id\` ORDER BY ` +
          `c.\`id\` DESC LIMIT ${k}, 1) AS \`id\` FROM ${db}.\`vreplication\` AS v WHERE v.\`db_name\` = ?`,
      ).join(' UNION ALL ')}) AS n JOIN ${db}.\`vreplication_log\` AS l ON l.\`id\` = n.\`id\``,
    // CAST keeps 64-bit ids exact even where an executor inlines them as quoted strings.
    journalByIds: (n: number) =>
      `${SQL_TAG} SELECT \`id\`, \`db_name\`, \`val\` FROM ${db}.\`resharding_journal\` WHERE \`id\` IN (${inList(n, 'CAST(? AS SIGNED)')}) ORDER BY \`id\``,
    journalByDb: `${SQL_TAG} SELECT \`id\`, \`db_name\`, \`val\` FROM ${db}.\`resharding_journal\` WHERE \`db_name\` = ? ORDER BY \`id\` LIMIT ${JOURNAL_ROW_LIMIT}`,
    // The tables of the tablet's schema: the write switch of a MoveTables locks the moved tables on every source
    // primary (`LOCK TABLES t READ, …`, traffic_switcher.go `executeLockTablesOnSource`). One more row than the limit
    // tells a truncated list, which is then not judged.
    tablesOfDb: `${SQL_TAG} SELECT \`TABLE_NAME\` AS \`table_name\` FROM information_schema.\`TABLES\` WHERE \`TABLE_SCHEMA\` = ? LIMIT ${TABLE_LIST_LIMIT + 1}`,
    // MariaDB and MySQL fill information_schema.COLUMNS by opening only the named table when both TABLE_SCHEMA and
    // TABLE_NAME are equalities; an IN list on TABLE_NAME opens every table of the schema instead (a MariaDB 10.11
    // server of the test pool once crashed freeing that read's temporary table under concurrent DDL).
    // So one equality lookup per table, in the order the ORDER BY used to give (journal val, then pos, stop_pos: the
    // server lists one table's columns in their order).
    // Root cause of those crashes: MariaDB 10.11 materializes COLUMNS into an
    // on-disk Aria temporary table even for this lookup (2 per read, one per SELECT), and a mariadbd starting with
    // the same tmpdir deletes its `#sql*` files; the test pool now gives each server its own tmpdir, as Vitess does.
    // The type of `vdiff_log.id` tells v22+ sidecars (bigint) from older ones (int): vitessio/vitess
    // go/vt/sidecardb/schema/vdiff/vdiff_log.sql:19 @v0.21.5 and @v0.22.4 (src/model/versions.ts).
    positionColumns: `${SQL_TAG} ${columnsOf('resharding_journal', "= 'val'")} UNION ALL ${columnsOf('vreplication', "IN ('pos', 'stop_pos')")} UNION ALL ${columnsOf('vdiff_log', "= 'id'")}`,

    // Open transactions of the sessions using this tablet's schema, oldest first
    // (SwitchTraffic's LOCK TABLES waits for them). INNODB_TRX needs PROCESS: without it the server refuses the
    // statement (it never answers a partial list, unlike PROCESSLIST alone). Statement text is cut server-side and
    // digested by the reader.
    // Two statements joined and sorted by the reader (readTransactions), neither of which builds an on-disk temporary
    // table: MariaDB 10.11 materializes information_schema.PROCESSLIST (a LONGTEXT column) into an Aria temporary
    // table, and a server whose temporary files vanished (another mariadbd starting with the same tmpdir deletes
    // every `#sql*` file there) crashes freeing it (SIGSEGV in ha_maria::drop_table): three test-pool servers did so
    // on the former `INNODB_TRX JOIN PROCESSLIST … ORDER BY … LIMIT`. INNODB_TRX alone stays in memory; SHOW FULL
    // PROCESSLIST (the same rows, filtered by db in the reader) builds no table.
    // The sessions of this schema only, their statement cut server-side, at most SESSION_ROW_LIMIT (+ 1 to tell a
    // cut list, which fails the read): SHOW FULL PROCESSLIST answered every session of the server with its whole
    // statement text, however many thousands. information_schema.PROCESSLIST is the same list (own sessions only
    // without PROCESS); MariaDB builds its temporary table in memory or, with the LONGTEXT INFO cut by LEFT, on disk
    // in the server's tmpdir (the test pool gives each server its own).
    trxSessions: `${SQL_TAG} SELECT \`ID\` AS \`id\`, \`USER\` AS \`user\`, \`DB\` AS \`db\`, \`COMMAND\` AS \`command\`, \`STATE\` AS \`state\`, LEFT(\`INFO\`, ${STATEMENT_CHARS}) AS \`info\` FROM information_schema.\`PROCESSLIST\` WHERE \`DB\` = ? LIMIT ${SESSION_ROW_LIMIT + 1}`,
    transactions: `${SQL_TAG} SELECT \`trx_mysql_thread_id\` AS \`thread_id\`, TIMESTAMPDIFF(SECOND, \`trx_started\`, NOW()) AS \`trx_seconds\`, \`trx_state\` AS \`trx_state\`, LEFT(\`trx_query\`, ${STATEMENT_CHARS}) AS \`statement\`, \`trx_rows_modified\` AS \`rows_modified\`, \`trx_tables_locked\` AS \`tables_locked\` FROM information_schema.\`INNODB_TRX\` WHERE \`trx_mysql_thread_id\` <> CONNECTION_ID() LIMIT ${TRX_SCAN_LIMIT + 1}`,
    // The base tables of the tablet's schema, and their unique indexes with the nullability of each column (moved
    // tables without a key). Two single-table reads, each with a constant schema equality,
    // no ORDER BY (sorted by the reader, like the table list above: no information_schema read sorts server-side).
    baseTables: `${SQL_TAG} SELECT \`TABLE_NAME\` AS \`table_name\` FROM information_schema.\`TABLES\` WHERE \`TABLE_SCHEMA\` = ? AND \`TABLE_TYPE\` = 'BASE TABLE' LIMIT ${TABLE_ROW_LIMIT + 1}`,
    uniqueKeys: `${SQL_TAG} SELECT \`TABLE_NAME\` AS \`table_name\`, \`INDEX_NAME\` AS \`index_name\`, \`NULLABLE\` AS \`nullable\` FROM information_schema.\`STATISTICS\` WHERE \`TABLE_SCHEMA\` = ? AND \`NON_UNIQUE\` = 0 LIMIT ${UNIQUE_KEY_ROW_LIMIT + 1}`,
    // Whether metadata locks are recorded at all: performance_schema off (MariaDB's default) or the mdl instrument
    // disabled leaves metadata_locks empty, which must not read as "no locks".
    mdlProbe: `${SQL_TAG} SELECT @@global.performance_schema AS \`enabled\`, (SELECT COUNT(*) FROM performance_schema.\`setup_instruments\` WHERE \`NAME\` = 'wait/lock/metadata/sql/mdl' AND \`ENABLED\` = 'YES') AS \`mdl\``,
    // Table metadata locks in this tablet's schema held or awaited by other sessions, with the owner's digest.
    // `@@global.performance_schema = 1` first: with performance_schema off the optimizer sees an impossible WHERE and
    // runs nothing. No ORDER BY (sorted by the reader): MariaDB 10.11 has crashed (SIGSEGV in ha_maria::drop_table,
    // freeing the sort's temporary table) on this read with performance_schema off; a read-only tool must not risk
    // the server it reads.
    // Nor in the digest subquery: events_statements_current "stores one row per thread showing the current status of
    // the thread's most recent monitored statement event" (MySQL reference manual 5.5-9.x, "The
    // events_statements_current Table"; MariaDB's page says the same), so LIMIT 1 picks the row the former
    // `ORDER BY EVENT_ID DESC` picked.
    metadataLocks: `${SQL_TAG} SELECT th.\`PROCESSLIST_ID\` AS \`thread_id\`, m.\`OBJECT_NAME\` AS \`table_name\`, m.\`LOCK_TYPE\` AS \`lock_type\`, m.\`LOCK_DURATION\` AS \`lock_duration\`, m.\`LOCK_STATUS\` AS \`lock_status\`, (SELECT LEFT(e.\`DIGEST_TEXT\`, ${STATEMENT_CHARS}) FROM performance_schema.\`events_statements_current\` AS e WHERE e.\`THREAD_ID\` = m.\`OWNER_THREAD_ID\` LIMIT 1) AS \`digest\` FROM performance_schema.\`metadata_locks\` AS m LEFT JOIN performance_schema.\`threads\` AS th ON th.\`THREAD_ID\` = m.\`OWNER_THREAD_ID\` WHERE @@global.performance_schema = 1 AND m.\`OBJECT_TYPE\` = 'TABLE' AND m.\`OBJECT_SCHEMA\` = ? AND (th.\`PROCESSLIST_ID\` IS NULL OR th.\`PROCESSLIST_ID\` <> CONNECTION_ID()) LIMIT ${METADATA_LOCK_ROW_LIMIT}`,
    // VDiff runs of this schema and their mismatched tables (upstream
    // go/vt/sidecardb/schema/vdiff/vdiff.sql, vdiff_table.sql). Sidecar tables, not information_schema.
    vdiffs: `${SQL_TAG} SELECT \`id\`, \`vdiff_uuid\`, \`workflow\`, \`keyspace\`, \`shard\`, \`state\`, \`created_at\`, \`completed_at\`, \`last_error\` FROM ${db}.\`vdiff\` WHERE \`db_name\` = ? ORDER BY \`id\` DESC LIMIT ${VDIFF_ROW_LIMIT}`,
    // The foreign keys of the tablet's schema, each read with one constant schema equality and no ORDER BY
    // (sorted by the reader; MariaDB 10.11 has crashed freeing a sort's temporary table on an information_schema
    // read). KEY_COLUMN_USAGE names them (one row per column) to a user with SELECT; their ON UPDATE / ON DELETE
    // rules are only in REFERENTIAL_CONSTRAINTS, which MariaDB shows only to users with more than SELECT on the table
    // (MySQL shows it with SELECT): a rule not shown is read as unknown ('').
    foreignKeys: `${SQL_TAG} SELECT \`CONSTRAINT_NAME\` AS \`constraint_name\`, \`TABLE_NAME\` AS \`table_name\`, \`REFERENCED_TABLE_SCHEMA\` AS \`referenced_schema\`, \`REFERENCED_TABLE_NAME\` AS \`referenced_table_name\` FROM information_schema.\`KEY_COLUMN_USAGE\` WHERE \`TABLE_SCHEMA\` = ? AND \`REFERENCED_TABLE_NAME\` IS NOT NULL LIMIT ${FOREIGN_KEY_ROW_LIMIT + 1}`,
    // MariaDB answers KEY_COLUMN_USAGE and REFERENTIAL_CONSTRAINTS by opening every table of the schema (2.8 and 2.5 s
    // for 20,000 tables in `npm run bench -- --only big-primary`, 35 and 43 s on a loaded machine); InnoDB's own
    // dictionary of foreign keys holds the same facts, rules included, without opening a table (under 1 ms; it needs
    // PROCESS). `FOR_NAME` is `<db>/<table>` in the server's file-name encoding, which leaves letters, digits and `_`
    // as they are: the schema prefix is matched with `!` escaping LIKE's wildcards, so the statement means the same
    // under every sql_mode.
    foreignKeysInnodb: `${SQL_TAG} SELECT \`ID\` AS \`id\`, \`FOR_NAME\` AS \`for_name\`, \`REF_NAME\` AS \`ref_name\`, \`TYPE\` AS \`type\` FROM information_schema.\`INNODB_SYS_FOREIGN\` WHERE \`FOR_NAME\` LIKE ? ESCAPE '!' LIMIT ${FOREIGN_KEY_ROW_LIMIT + 1}`,
    foreignKeyRules: `${SQL_TAG} SELECT \`CONSTRAINT_NAME\` AS \`constraint_name\`, \`TABLE_NAME\` AS \`table_name\`, \`UPDATE_RULE\` AS \`update_rule\`, \`DELETE_RULE\` AS \`delete_rule\` FROM information_schema.\`REFERENTIAL_CONSTRAINTS\` WHERE \`CONSTRAINT_SCHEMA\` = ? LIMIT ${FOREIGN_KEY_ROW_LIMIT + 1}`,
    vdiffMismatches: `${SQL_TAG} SELECT \`vdiff_id\`, \`table_name\` FROM ${db}.\`vdiff_table\` WHERE \`mismatch\` = 1 AND \`vdiff_id\` IN (SELECT \`id\` FROM ${db}.\`vdiff\` WHERE \`db_name\` = ?) LIMIT ${VDIFF_MISMATCH_ROW_LIMIT + 1}`,
    // The filtered user's privilege rows (ValidateVReplicationPermissions, rpc_vreplication.go): one equality read per
    // table, no join; src/model/vreplication-permissions.ts joins and evaluates them as the upstream query does.
    grantsGlobal: `${SQL_TAG} SELECT \`Select_priv\` AS \`select_priv\`, \`Insert_priv\` AS \`insert_priv\`, \`Update_priv\` AS \`update_priv\`, \`Delete_priv\` AS \`delete_priv\` FROM mysql.\`user\` WHERE \`User\` = ? LIMIT ${GRANT_ROW_LIMIT}`,
    grantsDb: `${SQL_TAG} SELECT \`Db\` AS \`db\`, \`Select_priv\` AS \`select_priv\`, \`Insert_priv\` AS \`insert_priv\`, \`Update_priv\` AS \`update_priv\`, \`Delete_priv\` AS \`delete_priv\` FROM mysql.\`db\` WHERE \`User\` = ? LIMIT ${GRANT_ROW_LIMIT}`,
    grantsTables: `${SQL_TAG} SELECT \`Db\` AS \`db\`, \`Table_name\` AS \`table_name\`, \`Table_priv\` AS \`table_priv\` FROM mysql.\`tables_priv\` WHERE \`User\` = ? AND \`Table_name\` = 'vreplication' LIMIT ${GRANT_ROW_LIMIT}`,
  };
};

/** Backtick-quotes an application identifier (the sequence reads); null for a name that cannot be quoted safely. */
const appIdentifier = (name: string): string | null =>
  name === '' || name.length > 64 || name.includes('`') || name.includes('\0') ? null : `\`${name}\``;

/**
 * The row `id = 0` of one sequence table, as sequences.go `sqlGetCurrentSequenceVal` reads it (with `cache`);
 * CAST keeps bigints exact. Null when a name cannot be quoted.
 */
export function sequenceValueSql(dbName: string, table: string): string | null {
  const d = appIdentifier(dbName);
  const t = appIdentifier(table);
  if (d === null || t === null) return null;
  return `${SQL_TAG} SELECT CAST(\`next_id\` AS CHAR) AS \`next_id\`, CAST(\`cache\` AS CHAR) AS \`cache\` FROM ${d}.${t} WHERE \`id\` = 0`;
}

/**
 * The highest value of one `auto_increment` column, the statement sequences.go `sqlGetMaxSequenceVal` runs on
 * every target primary at the switch (`select max(%a) as maxval from %a.%a`). Null when a name cannot be quoted.
 */
export function autoIncrementMaxSql(dbName: string, table: string, column: string): string | null {
  const d = appIdentifier(dbName);
  const t = appIdentifier(table);
  const c = appIdentifier(column);
  if (d === null || t === null || c === null) return null;
  return `${SQL_TAG} SELECT CAST(MAX(${c}) AS CHAR) AS \`max_value\` FROM ${d}.${t}`;
}

/** The type and size of some columns of one sidecar table (`?` = the sidecar database), in column order. */
const columnsOf = (table: string, columns: string): string =>
  `SELECT \`TABLE_NAME\` AS \`table_name\`, \`COLUMN_NAME\` AS \`column_name\`, \`DATA_TYPE\` AS \`data_type\`, \`CHARACTER_MAXIMUM_LENGTH\` AS \`max_length\` FROM information_schema.\`COLUMNS\` WHERE \`TABLE_SCHEMA\` = ? AND \`TABLE_NAME\` = '${table}' AND \`COLUMN_NAME\` ${columns}`;

/** The stream ids of one db_name, as an IN subquery (no LIMIT in it: MySQL refuses LIMIT in IN subqueries). */
const streamsOf = (db: string): string => `SELECT \`id\` FROM ${db}.\`vreplication\` WHERE \`db_name\` = ?`;

/**
 * Every statement shape the reader can send for `sidecarDb`, with `?` placeholders, in batch order; the journal's `IN`
 * list is shown with one element. For docs, the simulator and tests.
 */
export function listSidecarStatements(
  sidecarDb = '_vt',
  fieldReads: {
    readonly dbName: string;
    readonly sequenceTables?: readonly string[];
    readonly autoIncrementColumns?: readonly { readonly table: string; readonly column: string }[];
  } = { dbName: '' },
  logLimit = DEFAULT_LOG_LIMIT_PER_STREAM,
): readonly string[] {
  const s = statements(sidecarDb);
  const unitNames = { sidecar: quoteIdentifier(sidecarDb), sidecarName: sidecarDb, schema: '?' };
  // The sequence statements name the tables the vschema declares: listed only for the names given.
  const named = [
    ...(fieldReads.sequenceTables ?? []).map((t) => sequenceValueSql(fieldReads.dbName, t)),
    ...(fieldReads.autoIncrementColumns ?? []).map((c) => autoIncrementMaxSql(fieldReads.dbName, c.table, c.column)),
  ].filter((x): x is string => x !== null);
  return [
    s.vreplicationAll,
    s.copyStateByDb,
    s.logByDb(logLimit),
    s.journalByIds(1),
    s.journalByDb,
    s.positionColumns,
    s.tablesOfDb,
    s.baseTables,
    s.uniqueKeys,
    s.vdiffs,
    s.vdiffMismatches,
    s.foreignKeys,
    s.foreignKeyRules,
    s.foreignKeysInnodb,
    ...READ_UNITS.flatMap((u) => u.statements(unitNames).map((x) => x.sql)),
    s.grantsGlobal,
    s.grantsDb,
    s.grantsTables,
    s.mdlProbe,
    s.metadataLocks,
    s.trxSessions,
    s.transactions,
    nonEmptyProbe('?', '?'),
    ...named,
  ];
}

/**
 * Inlines `?` placeholders for executors without placeholder support (vtctld's ExecuteFetchAsDBA).
 * Strings become `'…'` literals with quotes doubled, which means the same with or without the
 * `NO_BACKSLASH_ESCAPES` sql_mode; a string holding a backslash or a control character is sent as a hex
 * literal (`X'…'`) instead, for the same reason. Numbers must be finite. `?` inside quotes, backticks or
 * comments is left alone. Throws when the number of placeholders and params differ (a bug, not input).
 */
export function formatSql(sql: string, params: readonly SqlParam[]): string {
  const pieces = placeholderPieces(sql);
  const holes = pieces.length - 1;
  if (holes !== params.length) {
    throw new Error(
      holes > params.length
        ? `formatSql: more placeholders than the ${params.length} params`
        : `formatSql: ${params.length} params for ${holes} placeholders`,
    );
  }
  if (holes === 0) return pieces[0] as string;
  let out = pieces[0] as string;
  for (let i = 0; i < holes; i++) out += sqlLiteral(params[i] as SqlParam) + (pieces[i + 1] as string);
  return out;
}

/**
 * A statement's text cut at its placeholders (n placeholders, n + 1 pieces), kept per text: the reader sends the same
 * few dozen statements to every primary, and scanning each of them again was a tenth of the reader's CPU at 3,073
 * primaries. Statements that name a table inline (probes, sequence reads) vary; the cache is dropped past its bound.
 */
function placeholderPieces(sql: string): readonly string[] {
  const known = PIECES.get(sql);
  if (known !== undefined) return known;
  const pieces: string[] = [];
  let piece = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (ch === "'" || ch === '"' || ch === '`') {
      const end = skipQuoted(sql, i, ch);
      piece += sql.slice(i, end);
      i = end;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      const end = close < 0 ? sql.length : close + 2;
      piece += sql.slice(i, end);
      i = end;
    } else if (ch === '?') {
      pieces.push(piece);
      piece = '';
      i += 1;
    } else {
      // A run of ordinary characters at once.
      SPECIAL.lastIndex = i + 1;
      const end = SPECIAL.exec(sql)?.index ?? sql.length;
      piece += sql.slice(i, end);
      i = end;
    }
  }
  pieces.push(piece);
  if (PIECES.size >= PIECES_LIMIT) PIECES.clear();
  PIECES.set(sql, pieces);
  return pieces;
}

const PIECES = new Map<string, readonly string[]>();
const PIECES_LIMIT = 2048;

/** Where {@link placeholderPieces} may have something to do: a quote, a comment's start or a placeholder. */
const SPECIAL = /['"`/?]/g;

function skipQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === '\\' && quote !== '`') {
      i += 2;
    } else if (ch === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return sql.length;
}

function sqlLiteral(v: SqlParam): string {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`formatSql: cannot inline ${String(v)}`);
    return String(v);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(v)) return `X'${Buffer.from(v, 'utf8').toString('hex')}'`;
  return `'${v.replace(/'/g, "''")}'`;
}

/**
 * True when an executor error means a deadline expired rather than an error answer: the client's, or the server's
 * statement time limit (mysql.ts `statementTimeLimitSql`: MariaDB's 1969, MySQL's 3024).
 */
export function isTimeoutError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { timedOut?: unknown; code?: unknown; errno?: unknown };
  return (
    e.timedOut === true ||
    e.code === 'PROTOCOL_SEQUENCE_TIMEOUT' ||
    e.code === 'ETIMEDOUT' ||
    e.errno === SERVER_TIME_LIMIT_ERRNO.mariadb ||
    e.errno === SERVER_TIME_LIMIT_ERRNO.mysql
  );
}

/** The errors a server gives when it stops a statement at the session's time limit. */
const SERVER_TIME_LIMIT_ERRNO = { mariadb: 1969, mysql: 3024 } as const;

/** Where a failure happened, in the readout's words: `zone1-0000000100 (10.0.0.5:3306)`. */
export const sidecarWhere = (t: Pick<SidecarTarget, 'alias' | 'endpoint'>): string => `${t.alias} (${t.endpoint})`;

/** The reads declared as units, as the readout holds them. */
type UnitReads = { -readonly [K in UnitReadId]?: TabletSidecarRead[K] };

/** The same failure in every Read of a sidecar read (connection failures, refused names). */
export function failedSidecarRead(target: SidecarTarget, error: ReadError): TabletSidecarRead {
  return {
    alias: target.alias,
    keyspace: target.keyspace,
    shard: target.shard,
    endpoint: target.endpoint,
    sidecarDb: target.sidecarDb,
    dbName: target.dbName,
    columns: readFailed(error),
    vreplication: readFailed(error),
    copyState: readFailed(error),
    vreplicationLog: readFailed(error),
    reshardingJournal: readFailed(error),
    positionColumns: readFailed(error),
    tables: readFailed(error),
    transactions: readFailed(error),
    metadataLocks: readFailed(error),
    tableKeys: readFailed(error),
    vdiffs: readFailed(error),
    foreignKeys: readFailed(error),
    ...Object.fromEntries(UNIT_READ_IDS.map((id) => [id, readFailed(error)])),
    filteredUserGrants: readFailed(error),
  };
}

/**
 * Reads one primary's sidecar tables through `exec`. Never throws; never closes `exec` (its opener does).
 *
 * One round trip where the executor batches ({@link SqlExecutor.batch}): `SELECT *` of the vreplication rows of
 * `target.dbName` (the result's column names are the schema: no discovery query), copy_state and vreplication_log of
 * those streams selected through a subquery (no id list from an earlier answer), and resharding_journal. A server
 * stops a batch at its first failing statement (a table an old schema lacks, a denied SELECT): the statements after
 * it are then sent one by one, so each read still succeeds or fails on its own. Without `batch`, every statement is
 * sent one by one, in the same order.
 */
export async function readSidecarWith(
  exec: SqlExecutor,
  target: SidecarTarget,
  opts: ReadSidecarOptions = {},
): Promise<TabletSidecarRead> {
  const where = sidecarWhere(target);
  const problem = identifierProblem(target.sidecarDb);
  if (problem !== null) {
    return failedSidecarRead(target, {
      what: 'validate sidecar database name',
      where,
      reason: problem,
      kind: 'refused',
    });
  }
  const sql = statements(target.sidecarDb);
  const table = (t: string) => `${target.sidecarDb}.${t}`;
  const toError = (what: string, err: unknown): ReadError =>
    isTimeoutError(err)
      ? { what, where, reason: describeSqlError(err), timedOut: true, kind: sqlErrorKind(err) }
      : { what, where, reason: describeSqlError(err), kind: sqlErrorKind(err) };
  // Names the root cause once, however long the chain of dependent reads is.
  const notRead = <T>(what: string, because: ReadError): Read<T> =>
    readFailed({
      what,
      where,
      reason: because.reason.startsWith(NOT_READ)
        ? because.reason
        : `${NOT_READ}${because.what} failed: ${because.reason}`,
      ...(because.kind !== undefined ? { kind: because.kind } : {}),
    });

  try {
    const vrWhat = `select ${table('vreplication')}`;
    const csWhat = `select ${table('copy_state')}`;
    const logWhat = `select ${table('vreplication_log')}`;
    const jWhat = `select ${table('resharding_journal')}`;
    const pcWhat = `select information_schema.COLUMNS of ${target.sidecarDb}`;
    const trxWhat = `select information_schema.INNODB_TRX of ${target.dbName}`;
    const sessWhat = `select information_schema.PROCESSLIST of ${target.dbName}`;
    const probeWhat = 'select performance_schema.setup_instruments';
    const mdlWhat = `select performance_schema.metadata_locks of ${target.dbName}`;
    const tablesWhat = `select information_schema.TABLES (base tables) of ${target.dbName}`;
    const keysWhat = `select information_schema.STATISTICS of ${target.dbName}`;
    const limit = opts.logLimitPerStream ?? DEFAULT_LOG_LIMIT_PER_STREAM;
    const logProblem =
      !Number.isInteger(limit) || limit < 0 || limit > MAX_LOG_LIMIT_PER_STREAM
        ? `invalid log limit ${String(limit)}`
        : limit === 0
          ? 'not requested (log limit 0)'
          : null;
    const badJournalId = opts.journalIds?.find((id) => !/^[0-9]{1,19}$/.test(id));

    // The batch, in order. Journal ids (when given) go in IN lists of at most IN_LIST_CHUNK.
    const batch: PlannedStatement[] = [{ what: vrWhat, sql: sql.vreplicationAll, params: [target.dbName] }];
    batch.push({ what: csWhat, sql: sql.copyStateByDb, params: [target.dbName] });
    if (logProblem === null)
      batch.push({
        what: logWhat,
        sql: sql.logByDb(limit),
        params: Array.from({ length: limit }, () => target.dbName),
      });
    if (opts.journalIds === undefined) {
      batch.push({ what: jWhat, sql: sql.journalByDb, params: [target.dbName] });
    } else if (badJournalId === undefined) {
      for (let i = 0; i < opts.journalIds.length; i += IN_LIST_CHUNK) {
        const chunk = opts.journalIds.slice(i, i + IN_LIST_CHUNK);
        batch.push({ what: jWhat, sql: sql.journalByIds(chunk.length), params: chunk });
      }
    }
    const tWhat = `select information_schema.TABLES of ${target.dbName}`;
    batch.push({
      what: pcWhat,
      sql: sql.positionColumns,
      params: [target.sidecarDb, target.sidecarDb, target.sidecarDb],
    });
    batch.push({ what: tWhat, sql: sql.tablesOfDb, params: [target.dbName] });
    batch.push({ what: tablesWhat, sql: sql.baseTables, params: [target.dbName] });
    batch.push({ what: keysWhat, sql: sql.uniqueKeys, params: [target.dbName] });
    // VDiff runs: sidecar tables every current schema has, before the optional grants; absent on an old schema
    // (a failure there re-sends the optional reads one by one, and is read as no runs).
    const vdiffWhat = `select ${table('vdiff')}`;
    const vdiffTablesWhat = `select ${table('vdiff_table')}`;
    batch.push({ what: vdiffWhat, sql: sql.vdiffs, params: [target.dbName] });
    batch.push({ what: vdiffTablesWhat, sql: sql.vdiffMismatches, params: [target.dbName] });
    const fkWhat = `select information_schema.KEY_COLUMN_USAGE of ${target.dbName}`;
    const fkRulesWhat = `select information_schema.REFERENTIAL_CONSTRAINTS of ${target.dbName}`;
    const fkInnodbWhat = `select information_schema.INNODB_SYS_FOREIGN of ${target.dbName}`;
    // MariaDB: InnoDB's dictionary, with the optional grants below (it needs PROCESS).
    const fkInnodb = exec.flavor === 'mariadb';
    if (!fkInnodb) {
      batch.push({ what: fkWhat, sql: sql.foreignKeys, params: [target.dbName] });
      batch.push({ what: fkRulesWhat, sql: sql.foreignKeyRules, params: [target.dbName] });
    }
    // The reads declared as units (src/reads/units/), each statement under its own `what`.
    const names = { sidecar: quoteIdentifier(target.sidecarDb), sidecarName: target.sidecarDb, schema: target.dbName };
    const unitStatements = READ_UNITS.map((u) => u.statements(names));
    for (const statements of unitStatements) batch.push(...statements);
    // The filtered user's grants (ValidateVReplicationPermissions), just before the optional grants: SELECT on mysql.*
    // is one too (1142 without it), but a refusal of PROCESS must not cost these a round trip each (the common case:
    // a DBA user with SELECT ON *.* and no PROCESS); without SELECT on mysql.* the three optional reads go one by one.
    const filteredUser = opts.filteredUser ?? DEFAULT_FILTERED_USER;
    const gUserWhat = 'select mysql.user';
    const gDbWhat = 'select mysql.db';
    const gTablesWhat = 'select mysql.tables_priv';
    if (opts.skipFilteredUserGrants !== true) {
      batch.push({ what: gUserWhat, sql: sql.grantsGlobal, params: [filteredUser] });
      batch.push({ what: gDbWhat, sql: sql.grantsDb, params: [filteredUser] });
      batch.push({ what: gTablesWhat, sql: sql.grantsTables, params: [filteredUser] });
    }
    // Optional grants last: a refusal stops a server's batch, and nothing after it is then re-sent one by one.
    batch.push({ what: probeWhat, sql: sql.mdlProbe, params: [] });
    batch.push({ what: mdlWhat, sql: sql.metadataLocks, params: [target.dbName] });
    batch.push({ what: sessWhat, sql: sql.trxSessions, params: [target.dbName] });
    batch.push({ what: trxWhat, sql: sql.transactions, params: [] });
    // After INNODB_TRX: without PROCESS the batch stops there and this one statement is sent on its own.
    if (fkInnodb)
      batch.push({ what: fkInnodbWhat, sql: sql.foreignKeysInnodb, params: [`${likePrefix(target.dbName)}/%`] });
    // MoveTables create's emptiness probes, last: a table that does not exist stops a server's batch there.
    const probeWhat1 = (t: string) => `select 1 from ${target.dbName}.${t} limit 1`;
    const probeTables = [...new Set(opts.probeTables ?? [])];
    let probeProblem: string | null = null;
    for (const t of probeTables) {
      try {
        batch.push({ what: probeWhat1(t), sql: nonEmptyProbe(target.dbName, t), params: [] });
      } catch (e) {
        probeProblem ??= describeSqlError(e);
      }
    }
    // The sequence reads named by the vschema, after everything: a table not created (yet) fails its statement alone,
    // and is read as absent; after a refused optional read they are sent one by one.
    const seqPlanned = (opts.sequenceTables ?? []).slice(0, SEQUENCE_READ_LIMIT).flatMap((t) => {
      const q = sequenceValueSql(target.dbName, t);
      return q === null ? [] : [{ table: t, what: `select ${target.dbName}.${t} (sequence)`, sql: q }];
    });
    const maxPlanned = (opts.autoIncrementColumns ?? []).slice(0, SEQUENCE_READ_LIMIT).flatMap((c) => {
      const q = autoIncrementMaxSql(target.dbName, c.table, c.column);
      return q === null ? [] : [{ ...c, what: `select max(${c.column}) of ${target.dbName}.${c.table}`, sql: q }];
    });
    for (const p of [...seqPlanned, ...maxPlanned]) batch.push({ what: p.what, sql: p.sql, params: [] });
    const answers = await runPlanned(exec, batch, toError);
    // The answers by what they read, in batch order (one pass: a filter per read was quadratic in the batch).
    const byWhat = new Map<string, Read<SqlResult>[]>();
    for (let i = 0; i < answers.length; i++) {
      const what = batch[i]?.what;
      if (what === undefined) continue;
      const list = byWhat.get(what);
      if (list === undefined) byWhat.set(what, [answers[i] as Read<SqlResult>]);
      else list.push(answers[i] as Read<SqlResult>);
    }
    const answerOf = (what: string): readonly Read<SqlResult>[] => byWhat.get(what) ?? [];

    // 1. Streams of this tablet's schema, every column by name. OnlineDDL rows are kept: the model filters them.
    const vrAnswer = answerOf(vrWhat)[0] as Read<SqlResult>;
    let columns: Read<readonly string[]>;
    let vreplication: Read<readonly VReplicationRow[]>;
    if (!vrAnswer.ok) {
      // A schema without db_name cannot be filtered by it: the server's "Unknown column" says so, in its words.
      const noDbName = /unknown column '(?:[^']*\.)?db_name'/i.test(vrAnswer.error.reason);
      vreplication = noDbName
        ? readFailed({
            ...vrAnswer.error,
            reason: `unsupported schema: ${table('vreplication')} lacks column(s) db_name (${vrAnswer.error.reason})`,
          })
        : vrAnswer;
      columns = readFailed(vreplication.ok ? vrAnswer.error : vreplication.error);
    } else {
      columns = readOk(vrAnswer.value.columns);
      const present = new Set(vrAnswer.value.columns.map((c) => c.toLowerCase()));
      const missing = VREPLICATION_COLUMNS.filter(([n, , req]) => req && !present.has(n)).map(([n]) => n);
      if (missing.length > 0) {
        vreplication = readFailed({
          what: vrWhat,
          where,
          reason: `unsupported schema: ${table('vreplication')} lacks column(s) ${missing.join(', ')}`,
          kind: 'bad-answer',
        });
      } else {
        const cols = VREPLICATION_COLUMNS.filter(([n]) => present.has(n));
        vreplication = decodeRows(vrWhat, where, vrAnswer.value, vreplicationRowDecoder(cols));
      }
    }
    // The subqueries ran a moment after the vreplication read: rows of a stream created in between are dropped, so
    // copy_state and the log only ever describe streams that were read.
    // Without streams there is nothing of theirs to read: a failed answer (a table an old schema lacks) does not count.
    const ids = new Set(vreplication.ok ? vreplication.value.map((r) => r.id) : []);
    const ofReadStreams = <T extends { readonly vrepl_id: number }>(r: Read<readonly T[]>): Read<readonly T[]> =>
      ids.size === 0
        ? readOk([])
        : r.ok && r.value.some((row) => !ids.has(row.vrepl_id))
          ? readOk(r.value.filter((row) => ids.has(row.vrepl_id)))
          : r;

    // 2. copy_state of the streams found.
    const csAnswer = answerOf(csWhat)[0] as Read<SqlResult>;
    const copyState: Read<readonly CopyStateRow[]> = !vreplication.ok
      ? notRead(csWhat, vreplication.error)
      : ofReadStreams(csAnswer.ok ? decodeRows(csWhat, where, csAnswer.value, toCopyStateRow) : csAnswer);

    // 3. Recent vreplication_log rows per stream (oldest first in the result).
    let vreplicationLog: Read<readonly VReplicationLogRow[]>;
    if (!vreplication.ok) {
      vreplicationLog = notRead(logWhat, vreplication.error);
    } else if (logProblem !== null) {
      vreplicationLog = readFailed({
        what: logWhat,
        where,
        reason: logProblem,
        kind: limit === 0 ? 'not-collected' : 'refused',
      });
    } else {
      const logAnswer = answerOf(logWhat)[0] as Read<SqlResult>;
      // No ORDER BY in the statement: by stream, oldest first, here. A stream with fewer rows than the limit
      // answers NULL ids for the ranks it lacks, which match no row.
      const decoded = logAnswer.ok ? decodeRows(logWhat, where, logAnswer.value, logRowDecoder()) : logAnswer;
      vreplicationLog = ofReadStreams(
        decoded.ok ? readOk([...decoded.value].sort((a, b) => a.vrepl_id - b.vrepl_id || a.id - b.id)) : decoded,
      );
    }

    // 4. Resharding journal (written on source primaries at the point of no return).
    let reshardingJournal: Read<readonly ReshardingJournalRow[]>;
    if (badJournalId !== undefined) {
      reshardingJournal = readFailed({
        what: jWhat,
        where,
        reason: `invalid journal id ${JSON.stringify(badJournalId)}: expected a decimal integer`,
        kind: 'refused',
      });
    } else {
      const rows: ReshardingJournalRow[] = [];
      let failed: Read<readonly ReshardingJournalRow[]> | null = null;
      for (const res of answerOf(jWhat)) {
        const decoded = res.ok ? decodeRows(jWhat, where, res.value, toJournalRow) : res;
        if (decoded.ok) rows.push(...decoded.value);
        else failed ??= decoded;
      }
      reshardingJournal = failed ?? readOk(rows);
    }

    // 5. Type and size of the columns that hold GTID sets.
    const pcAnswer = answerOf(pcWhat)[0] as Read<SqlResult>;
    const positionColumns: Read<readonly PositionColumnRow[]> = pcAnswer.ok
      ? decodeRows(pcWhat, where, pcAnswer.value, toPositionColumnRow)
      : pcAnswer;

    // 6. The tables of the tablet's schema (a list longer than TABLE_LIST_LIMIT is not kept).
    const tAnswer = answerOf(tWhat)[0] as Read<SqlResult>;
    // No ORDER BY in the statement (see tablesOfDb): sorted here, in code-unit order.
    const tableRows = tAnswer.ok
      ? sortedRead(decodeRows(tWhat, where, tAnswer.value, (r) => toText(must(r, 'table_name'))))
      : tAnswer;
    const tables: Read<readonly string[]> =
      tableRows.ok && tableRows.value.length > TABLE_LIST_LIMIT
        ? readFailed({
            what: tWhat,
            where,
            reason: `more than ${TABLE_LIST_LIMIT} tables: not kept`,
            kind: 'not-collected',
          })
        : tableRows;

    // 7. Open transactions and metadata locks of this schema (optional grants: the reason names the one missing).
    const transactions = readTransactions(
      bounded(answerOf(sessWhat)[0] as Read<SqlResult>, SESSION_ROW_LIMIT, sessWhat, where, 'sessions'),
      bounded(answerOf(trxWhat)[0] as Read<SqlResult>, TRX_SCAN_LIMIT, trxWhat, where, 'open transactions'),
      sessWhat,
      trxWhat,
      target.dbName,
      where,
    );
    const metadataLocks = readMetadataLocks(
      answerOf(probeWhat)[0] as Read<SqlResult>,
      answerOf(mdlWhat)[0] as Read<SqlResult>,
      mdlWhat,
      where,
    );

    // 8. Base tables and their unique keys.
    const tableKeys = readTableKeys(
      bounded(answerOf(tablesWhat)[0] as Read<SqlResult>, TABLE_ROW_LIMIT, tablesWhat, where, 'base tables'),
      bounded(answerOf(keysWhat)[0] as Read<SqlResult>, UNIQUE_KEY_ROW_LIMIT, keysWhat, where, 'unique-key columns'),
      tablesWhat,
      keysWhat,
      where,
    );

    // 9. Emptiness probes (only when asked).
    const tableProbes: Read<readonly TableProbeRow[]> | undefined =
      probeTables.length === 0
        ? undefined
        : probeProblem !== null
          ? readFailed({ what: 'probe target tables', where, reason: probeProblem })
          : readTableProbes(
              probeTables.map((t) => ({ table: t, answer: answerOf(probeWhat1(t))[0] as Read<SqlResult> })),
            );
    // 9. VDiff runs and the sequence reads.
    const vdiffs = readVDiffs(
      answerOf(vdiffWhat)[0] as Read<SqlResult>,
      bounded(
        answerOf(vdiffTablesWhat)[0] as Read<SqlResult>,
        VDIFF_MISMATCH_ROW_LIMIT,
        vdiffTablesWhat,
        where,
        'mismatched tables',
      ),
      vdiffWhat,
      vdiffTablesWhat,
      where,
    );
    const sequenceValues = seqPlanned.length === 0 ? undefined : readSequenceValues(seqPlanned, answerOf, where);
    const autoIncrementMax = maxPlanned.length === 0 ? undefined : readAutoIncrementMax(maxPlanned, answerOf, where);

    // 10. The reads declared as units.
    const unitReads: UnitReads = {};
    READ_UNITS.forEach((u, i) => {
      const statements = unitStatements[i] ?? [];
      const answers = statements.map((st) => answerOf(st.what)[0] as Read<SqlResult>);
      (unitReads as Record<string, unknown>)[u.declaration.id] = u.decode(answers, statements, where);
    });

    // 11. The filtered user's privilege rows.
    const filteredUserGrants =
      opts.skipFilteredUserGrants === true
        ? undefined
        : readFilteredUserGrants(
            filteredUser,
            [gUserWhat, gDbWhat, gTablesWhat].map((w) => answerOf(w)[0] as Read<SqlResult>) as [
              Read<SqlResult>,
              Read<SqlResult>,
              Read<SqlResult>,
            ],
            [gUserWhat, gDbWhat, gTablesWhat],
            where,
          );

    return {
      alias: target.alias,
      keyspace: target.keyspace,
      shard: target.shard,
      endpoint: target.endpoint,
      sidecarDb: target.sidecarDb,
      dbName: target.dbName,
      ...(sequenceValues !== undefined ? { sequenceValues } : {}),
      ...(autoIncrementMax !== undefined ? { autoIncrementMax } : {}),
      vdiffs,
      foreignKeys: fkInnodb
        ? readInnodbForeignKeys(answerOf(fkInnodbWhat)[0] as Read<SqlResult>, fkInnodbWhat, where)
        : readForeignKeys(
            answerOf(fkWhat)[0] as Read<SqlResult>,
            answerOf(fkRulesWhat)[0] as Read<SqlResult>,
            fkWhat,
            fkRulesWhat,
            where,
          ),
      columns,
      vreplication,
      copyState,
      vreplicationLog,
      reshardingJournal,
      positionColumns,
      tables,
      transactions,
      metadataLocks,
      tableKeys,
      ...(tableProbes !== undefined ? { tableProbes } : {}),
      ...unitReads,
      ...(filteredUserGrants !== undefined ? { filteredUserGrants } : {}),
    };
  } catch (err) {
    // Only a bug gets here (decoders are total); still a recorded failure, never a throw past the collector.
    return failedSidecarRead(target, {
      what: 'read sidecar',
      where,
      reason: `internal error: ${describeSqlError(err)}`,
      kind: 'other',
    });
  }
}

/**
 * The filtered user's grant rows alone, through `exec` (vtctld's ExecuteFetchAsDBA for `--grants-via-vtctld`): the
 * same three statements and decoding as in {@link readSidecarWith}. Never throws.
 */
export async function readFilteredUserGrantsWith(
  exec: SqlExecutor,
  target: SidecarTarget,
  user: string = DEFAULT_FILTERED_USER,
): Promise<Read<FilteredUserGrants>> {
  const where = sidecarWhere(target);
  const sql = statements(target.sidecarDb);
  const whats = ['select mysql.user', 'select mysql.db', 'select mysql.tables_priv'] as const;
  const planned = [sql.grantsGlobal, sql.grantsDb, sql.grantsTables].map((text, i) => ({
    what: whats[i] as string,
    sql: text,
    params: [user],
  }));
  try {
    const toError = (what: string, err: unknown): ReadError =>
      isTimeoutError(err)
        ? { what, where, reason: describeSqlError(err), timedOut: true, kind: sqlErrorKind(err) }
        : { what, where, reason: describeSqlError(err), kind: sqlErrorKind(err) };
    const answers = await runPlanned(exec, planned, toError);
    return readFilteredUserGrants(user, answers as [Read<SqlResult>, Read<SqlResult>, Read<SqlResult>], whats, where);
  } catch (err) {
    return readFailed({ what: whats[0], where, reason: `internal error: ${describeSqlError(err)}`, kind: 'other' });
  }
}

/** One statement of a reader's batch: what it reads (for errors), its text with placeholders, its parameters. */
interface PlannedStatement extends SqlStatement {
  readonly what: string;
}

/**
 * Runs `planned` in one batch when the executor batches, else one by one; one Read per statement, in order. When a
 * batch stops at a failing statement, that statement gets the error and the rest are sent one by one; when the
 * executor cannot say which statement failed, every unanswered one is. A deadline is not retried: the statements
 * left all fail with it.
 */
async function runPlanned(
  exec: SqlExecutor,
  planned: readonly PlannedStatement[],
  toError: (what: string, err: unknown) => ReadError,
): Promise<Read<SqlResult>[]> {
  const out: Read<SqlResult>[] = [];
  const one = async (p: PlannedStatement): Promise<Read<SqlResult>> => {
    try {
      return readOk(await exec.query(p.sql, p.params));
    } catch (err) {
      return readFailed(toError(p.what, err));
    }
  };
  let next = 0;
  if (exec.batch !== undefined && planned.length > 1) {
    let outcome: SqlBatchOutcome;
    try {
      outcome = await exec.batch(planned);
    } catch (err) {
      // The executor itself failed (connection lost, deadline, session not read-only): every statement fails with it.
      return planned.map((p) => readFailed(toError(p.what, err)));
    }
    for (const r of outcome.results.slice(0, planned.length)) out.push(readOk(r));
    next = out.length;
    const failure = outcome.error;
    if (failure !== undefined && next < planned.length) {
      if (isTimeoutError(failure.cause)) {
        for (; next < planned.length; next++)
          out.push(readFailed(toError((planned[next] as PlannedStatement).what, failure.cause)));
      } else if (failure.at === next) {
        out.push(readFailed(toError((planned[next] as PlannedStatement).what, failure.cause)));
        next += 1;
      }
    } else if (failure === undefined && next < planned.length) {
      // A batch that answered fewer results than statements without an error is the executor's bug: say so.
      for (; next < planned.length; next++)
        out.push(
          readFailed(
            toError(
              (planned[next] as PlannedStatement).what,
              new Error('no result for this statement in the batch answer'),
            ),
          ),
        );
    }
  }
  for (; next < planned.length; next++) out.push(await one(planned[next] as PlannedStatement));
  return out;
}

/**
 * The answer of a statement asked for `limit + 1` rows: more than `limit` means the list was cut, which fails the read
 * (a read that silently lost rows would judge a table without its keys, a session without its transaction).
 */
function bounded(answer: Read<SqlResult>, limit: number, what: string, where: string, noun: string): Read<SqlResult> {
  if (!answer.ok || answer.value.rows.length <= limit) return answer;
  return readFailed({
    what,
    where,
    reason: `more than ${limit} ${noun}: the list is cut, not judged`,
    kind: 'not-collected',
  });
}

/**
 * `pos` as text when it is valid, printable UTF-8; otherwise (MySQL `COMPRESS()` output from
 * `--vreplication_store_compressed_gtid`: 4-byte LE length + zlib) the raw bytes in base64.
 */
export function decodePos(v: SqlValue): { pos: string; posBase64?: string } {
  if (!Buffer.isBuffer(v)) return { pos: toText(v) };
  const text = strictUtf8Text(v);
  if (text === null) return { pos: '', posBase64: v.toString('base64') };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return { pos: '', posBase64: v.toString('base64') };
  return { pos: text };
}

/**
 * Decodes the `vreplication` rows of one result. Keys in column order; an optional column's key only when its value
 * is not NULL; `pos`, then `posBase64` when the value is not text (`decodePos`). Each row is one compact object
 * cloned from a template per key set and filled in: built key by key, every row was first a dictionary-mode object
 * of about 1.7 KB (109 MB of garbage at 65,536 streams). Column positions are looked up once, on the first row.
 */
function vreplicationRowDecoder(cols: VReplicationColumns): (row: Row) => VReplicationRow {
  const n = cols.length;
  // One bit per column (set when the key is in the row), and bit n for `posBase64`: at most 24 bits.
  const templates = new Map<number, Record<string, unknown>>();
  const vals: unknown[] = new Array(n);
  let at: number[] | null = null;
  let posBase64 = '';
  return (row) => {
    if (at === null) at = cols.map(([name]) => mustIndex(row, name));
    let mask = 0;
    for (let i = 0; i < n; i++) {
      const [, kind, required] = cols[i]!;
      const v = row.values[at[i]!] ?? null;
      if (kind === 'textOrNull') vals[i] = toTextOrNull(v);
      else if (kind === 'pos') {
        const p = decodePos(v);
        vals[i] = p.pos;
        if (p.posBase64 !== undefined) {
          posBase64 = p.posBase64;
          mask |= 1 << n;
        }
      } else if (v !== null || required)
        vals[i] = kind === 'int' ? toInt(v) : kind === 'decimal' ? toDecimal(v) : toText(v);
      else continue;
      mask |= 1 << i;
    }
    let template = templates.get(mask);
    if (template === undefined) {
      const keys: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        if ((mask & (1 << i)) === 0) continue;
        const [name, kind] = cols[i]!;
        if (kind === 'pos') {
          keys.pos = null;
          if ((mask & (1 << n)) !== 0) keys.posBase64 = null;
        } else keys[name] = null;
      }
      template = { ...keys };
      templates.set(mask, template);
    }
    const out: Record<string, unknown> = { ...template };
    for (let i = 0; i < n; i++) {
      if ((mask & (1 << i)) === 0) continue;
      const [name, kind] = cols[i]!;
      if (kind === 'pos') {
        out.pos = vals[i];
        if ((mask & (1 << n)) !== 0) out.posBase64 = posBase64;
      } else out[name] = vals[i];
    }
    return out as unknown as VReplicationRow;
  };
}

type VReplicationColumns = readonly (readonly [string, ColumnKind, boolean])[];

function toCopyStateRow(row: Row): CopyStateRow {
  return {
    id: toInt(must(row, 'id')),
    vrepl_id: toInt(must(row, 'vrepl_id')),
    table_name: toText(must(row, 'table_name')),
  };
}

const LOG_COLUMNS = ['id', 'vrepl_id', 'type', 'state', 'message', 'created_at', 'updated_at', 'count'] as const;

/**
 * Decodes the `vreplication_log` rows of one result (262,144 rows at a 256 × 256 Materialize): column positions are
 * looked up once, on the first row, instead of by name for every cell.
 */
function logRowDecoder(): (row: Row) => VReplicationLogRow {
  let at: number[] | null = null;
  return (row) => {
    if (at === null) at = LOG_COLUMNS.map((name) => mustIndex(row, name));
    const v = row.values;
    return {
      id: toInt(v[at[0]!] ?? null),
      vrepl_id: toInt(v[at[1]!] ?? null),
      type: toText(v[at[2]!] ?? null),
      state: toText(v[at[3]!] ?? null),
      message: toText(v[at[4]!] ?? null),
      created_at: toDateText(v[at[5]!] ?? null),
      updated_at: toDateText(v[at[6]!] ?? null),
      count: toInt(v[at[7]!] ?? null),
    };
  };
}

/** DATETIME as the server prints it (`YYYY-MM-DD hh:mm:ss`); executors return it as text, never a Date. */
function toDateText(v: SqlValue): string | null {
  return v === null ? null : toText(v);
}

function toPositionColumnRow(row: Row): PositionColumnRow {
  const len = must(row, 'max_length');
  return {
    table_name: toText(must(row, 'table_name')),
    column_name: toText(must(row, 'column_name')),
    data_type: toText(must(row, 'data_type')).toLowerCase(),
    max_length: len === null ? null : toInt(len),
  };
}

/**
 * A statement's digest: literals as `?`, comments removed, whitespace collapsed, at most 200 characters
 * (`src/vitess/sql-shape.ts`). Only this leaves the reader, never the statement text (it may hold customer data or
 * secrets, in literals or in comments).
 */
export function statementDigest(text: string): string {
  return statementShape(text).digest;
}

/**
 * The open transactions of the schema's sessions: INNODB_TRX rows joined with the SHOW FULL PROCESSLIST rows of
 * `dbName` on the thread id, oldest first (`trx_started` ascending is `trx_seconds` descending: both whole seconds,
 * from one `NOW()`), then by thread id, at most {@link TRANSACTION_ROW_LIMIT}: what the former single-statement join
 * (`… WHERE p.DB = ? … ORDER BY t.trx_started, p.ID LIMIT …`) answered. A transaction whose session left between the
 * two reads is dropped, as the join would have dropped it.
 */
function readTransactions(
  sessions: Read<SqlResult>,
  trx: Read<SqlResult>,
  sessWhat: string,
  trxWhat: string,
  dbName: string,
  where: string,
): Read<readonly TransactionRow[]> {
  if (!trx.ok) return withGrantHint(trx);
  if (!sessions.ok) return sessions;
  const bySession = decodeRows(sessWhat, where, sessions.value, (row) => {
    const db = must(row, 'db');
    const state = must(row, 'state');
    const info = must(row, 'info');
    return {
      thread_id: toInt(must(row, 'id')),
      db: db === null ? null : toText(db),
      user: toText(must(row, 'user')),
      command: toText(must(row, 'command')),
      state: state === null || toText(state) === '' ? null : toText(state),
      // LEFT(INFO, STATEMENT_CHARS) as the join selected it (characters, not UTF-16 code units).
      info: info === null ? null : firstChars(toText(info), STATEMENT_CHARS),
    };
  });
  if (!bySession.ok) return bySession;
  const open = decodeRows(trxWhat, where, trx.value, (row) => {
    const statement = must(row, 'statement');
    return {
      thread_id: toInt(must(row, 'thread_id')),
      trx_seconds: toInt(must(row, 'trx_seconds')),
      trx_state: toText(must(row, 'trx_state')),
      statement: statement === null ? null : toText(statement),
      rows_modified: toInt(must(row, 'rows_modified')),
      tables_locked: toInt(must(row, 'tables_locked')),
    };
  });
  if (!open.ok) return open;
  const session = new Map(bySession.value.filter((s) => s.db === dbName).map((s) => [s.thread_id, s]));
  const rows: TransactionRow[] = [];
  for (const t of open.value) {
    const s = session.get(t.thread_id);
    if (s === undefined) continue;
    // COALESCE(trx_query, INFO), as the joined statement selected it.
    const statement = t.statement ?? s.info;
    rows.push({
      thread_id: t.thread_id,
      user: s.user,
      command: s.command,
      trx_seconds: t.trx_seconds,
      trx_state: t.trx_state,
      state: s.state,
      digest: statement === null || statement.trim() === '' ? null : statementDigest(statement),
      rows_modified: t.rows_modified,
      tables_locked: t.tables_locked,
    });
  }
  rows.sort((a, b) => b.trx_seconds - a.trx_seconds || a.thread_id - b.thread_id);
  return readOk(rows.slice(0, TRANSACTION_ROW_LIMIT));
}

/** The first `n` characters (code points) of `text`, as SQL's LEFT counts them. */
function firstChars(text: string, n: number): string {
  return text.length <= n ? text : Array.from(text).slice(0, n).join('');
}

function toMetadataLockRow(row: Row): MetadataLockRow {
  const thread = must(row, 'thread_id');
  const digest = must(row, 'digest');
  return {
    thread_id: thread === null ? null : toInt(thread),
    table_name: toText(must(row, 'table_name')),
    lock_type: toText(must(row, 'lock_type')),
    lock_duration: toText(must(row, 'lock_duration')),
    lock_status: toText(must(row, 'lock_status')),
    digest: digest === null || toText(digest).trim() === '' ? null : statementDigest(toText(digest)),
  };
}

/** A read's names in code-unit order (the statement has no ORDER BY). */
const sortedRead = (r: Read<readonly string[]>): Read<readonly string[]> =>
  r.ok ? readOk([...r.value].sort(byCodeUnit)) : r;

/** Each base table with its primary key and unique keys, from the two reads. */
function readTableKeys(
  tables: Read<SqlResult>,
  keys: Read<SqlResult>,
  tablesWhat: string,
  keysWhat: string,
  where: string,
): Read<readonly TableKeyRow[]> {
  if (!tables.ok) return tables;
  if (!keys.ok) return keys;
  // Neither statement sorts (no ORDER BY on information_schema): tables in code-unit order, keys by name below.
  const names = sortedRead(decodeRows(tablesWhat, where, tables.value, (r) => toText(must(r, 'table_name'))));
  if (!names.ok) return names;
  const cols = decodeRows(keysWhat, where, keys.value, (r) => ({
    table: toText(must(r, 'table_name')),
    index: toText(must(r, 'index_name')),
    nullable: toText(must(r, 'nullable')).trim().toUpperCase() === 'YES',
  }));
  if (!cols.ok) return cols;
  // Per table, per unique index: whether any of its columns is nullable.
  const byTable = new Map<string, Map<string, boolean>>();
  for (const c of cols.value) {
    const idx = byTable.get(c.table) ?? new Map<string, boolean>();
    idx.set(c.index, (idx.get(c.index) ?? false) || c.nullable);
    byTable.set(c.table, idx);
  }
  return readOk(
    names.value.map((table) => {
      const idx = byTable.get(table) ?? new Map<string, boolean>();
      const notNull = [...idx].filter(([name, nullable]) => name !== 'PRIMARY' && !nullable).map(([n]) => n);
      return {
        table_name: table,
        has_primary_key: idx.has('PRIMARY'),
        unique_not_null: notNull.sort()[0] ?? null,
        unique_nullable: [...idx]
          .filter(([, nullable]) => nullable)
          .map(([n]) => n)
          .sort(),
      };
    }),
  );
}

/** The grant that lets a refused optional read through, appended to the server's refusal. */
function withGrantHint<T>(r: Read<T>): Read<T> {
  if (r.ok) return r;
  const reason = r.error.reason;
  const hint = /PROCESS privilege|\b1227\b/i.test(reason)
    ? 'grant PROCESS to the MySQL user to read open transactions'
    : /performance_schema|\b1142\b/i.test(reason)
      ? 'grant SELECT ON performance_schema.* to the MySQL user to read metadata locks'
      : null;
  return hint === null ? r : readFailed({ ...r.error, reason: `${reason}; ${hint}` });
}

/**
 * The filtered user's rows of the three grant tables; a refused read names the grant that lets it through (the
 * kind stays the server's: `privilege` for 1142).
 */
function readFilteredUserGrants(
  user: string,
  answers: readonly [Read<SqlResult>, Read<SqlResult>, Read<SqlResult>],
  whats: readonly [string, string, string],
  where: string,
): Read<FilteredUserGrants> {
  const hint = (r: Read<SqlResult>): Read<never> | null =>
    r.ok
      ? null
      : r.error.kind !== 'privilege'
        ? (r as Read<never>)
        : readFailed({
            ...r.error,
            reason: `${r.error.reason}; grant ${extraGrantOf('filteredUserGrants')} to the MySQL user to read the privileges of the filtered user ${user}`,
          });
  for (const a of answers) {
    const failed = hint(a);
    if (failed !== null) return failed;
  }
  const [u, d, t] = answers.map((a) => (a as { readonly value: SqlResult }).value) as [SqlResult, SqlResult, SqlResult];
  const privs = (r: Row) => ({
    select: toText(must(r, 'select_priv')),
    insert: toText(must(r, 'insert_priv')),
    update: toText(must(r, 'update_priv')),
    delete: toText(must(r, 'delete_priv')),
  });
  const global = decodeRows(whats[0], where, u, privs);
  if (!global.ok) return global;
  const db = decodeRows(whats[1], where, d, (r) => ({ db: toText(must(r, 'db')), ...privs(r) }));
  if (!db.ok) return db;
  const tables = decodeRows(whats[2], where, t, (r) => ({
    db: toText(must(r, 'db')),
    table: toText(must(r, 'table_name')),
    privs: toText(must(r, 'table_priv')),
  }));
  if (!tables.ok) return tables;
  return readOk({ user, global: global.value, db: db.value, tables: tables.value });
}

/** The metadata-lock read: the probe says whether the server records them; without it, the locks are not judged. */
function readMetadataLocks(
  probe: Read<SqlResult>,
  locks: Read<SqlResult>,
  what: string,
  where: string,
): Read<MetadataLocksRead> {
  if (!probe.ok) return withGrantHint(probe);
  const row = probe.value.rows[0];
  const at = (name: string) => {
    const i = probe.value.columns.findIndex((c) => c.toLowerCase() === name);
    return i < 0 || row === undefined ? null : (row[i] ?? null);
  };
  const on = (v: SqlValue) => v !== null && /^(1|on|yes)$/i.test(toText(v).trim());
  const count = at('mdl');
  const instrumented = on(at('enabled')) && count !== null && toInt(count) > 0;
  if (!instrumented) return readOk({ instrumented: false, locks: [] });
  if (!locks.ok) return withGrantHint(locks);
  const rows = decodeRows(what, where, locks.value, toMetadataLockRow);
  if (!rows.ok) return rows;
  // The statement has no ORDER BY (see metadataLocks): table, then owner (background threads first), as it used to.
  const sorted = [...rows.value].sort(
    (a, b) =>
      (a.table_name < b.table_name ? -1 : a.table_name > b.table_name ? 1 : 0) ||
      (a.thread_id ?? -1) - (b.thread_id ?? -1),
  );
  return readOk({ instrumented: true, locks: sorted });
}

/**
 * MySQL's and MariaDB's "Table '…' doesn't exist" (ER_NO_SUCH_TABLE 1146 only, in the mysql2 or vtctld wording), which
 * Vitess ignores in the emptiness probe. Narrower than the `missing-table` kind, which also holds an unknown database
 * (1049): Vitess's `IsTableDidNotExistError` does not.
 */
const NO_SUCH_TABLE = /\b1146\b|ER_NO_SUCH_TABLE|Table '[^']*' doesn't exist/;

/**
 * The probes' answers: a row means non-empty; a table that does not exist is empty (validateEmptyTables ignores
 * `IsTableDidNotExistError`); any other failure fails the whole read, as it fails Vitess's validation.
 */
function readTableProbes(
  answers: readonly { readonly table: string; readonly answer: Read<SqlResult> }[],
): Read<readonly TableProbeRow[]> {
  const out: TableProbeRow[] = [];
  for (const { table, answer } of answers) {
    if (!answer.ok) {
      if (answer.error.timedOut !== true && NO_SUCH_TABLE.test(answer.error.reason)) {
        out.push({ table_name: table, non_empty: false });
        continue;
      }
      return answer;
    }
    out.push({ table_name: table, non_empty: answer.value.rows.length > 0 });
  }
  return readOk(out);
}

function toJournalRow(row: Row): ReshardingJournalRow {
  return { id: toDecimal(must(row, 'id')), db_name: toText(must(row, 'db_name')), val: toText(must(row, 'val')) };
}

// ---------------------------------------------------------------------------------------------------------------
// The sequence and VDiff reads.

/**
 * A server's "no such table / column" (the read's `kind`, from the errno where it failed): the sidecar table or the
 * application table read does not exist, which is an answer here (no 2PC records, no VDiff run, no sequence row).
 */
const isAbsent = (r: Read<unknown>): boolean =>
  !r.ok && (r.error.kind === 'missing-table' || r.error.kind === 'missing-column');

/** A decimal integer text (CAST … AS CHAR), or null. */
function toDecimalOrNull(v: SqlValue | undefined): string | null {
  if (v === undefined || v === null) return null;
  const text = rawText(v).trim();
  if (!/^-?[0-9]+$/.test(text)) throw new Error(`not an integer: ${JSON.stringify(text.slice(0, 40))}`);
  return text;
}

function readSequenceValues(
  planned: readonly { readonly table: string; readonly what: string }[],
  answerOf: (what: string) => readonly Read<SqlResult>[],
  where: string,
): Read<readonly SequenceValueRow[]> {
  const out: SequenceValueRow[] = [];
  for (const p of planned) {
    const a = answerOf(p.what)[0] as Read<SqlResult>;
    if (isAbsent(a)) {
      out.push({ table_name: p.table, present: false, next_id: null, cache: null });
      continue;
    }
    if (!a.ok) return a;
    const rows = decodeRows(p.what, where, a.value, (r) => ({
      next_id: toDecimalOrNull(must(r, 'next_id')),
      cache: toDecimalOrNull(must(r, 'cache')),
    }));
    if (!rows.ok) return rows;
    const row = rows.value[0];
    out.push({ table_name: p.table, present: true, next_id: row?.next_id ?? null, cache: row?.cache ?? null });
  }
  return readOk(out);
}

function readAutoIncrementMax(
  planned: readonly { readonly table: string; readonly column: string; readonly what: string }[],
  answerOf: (what: string) => readonly Read<SqlResult>[],
  where: string,
): Read<readonly AutoIncrementMaxRow[]> {
  const out: AutoIncrementMaxRow[] = [];
  for (const p of planned) {
    const a = answerOf(p.what)[0] as Read<SqlResult>;
    if (isAbsent(a)) {
      out.push({ table_name: p.table, column_name: p.column, present: false, max_value: null });
      continue;
    }
    if (!a.ok) return a;
    const rows = decodeRows(p.what, where, a.value, (r) => toDecimalOrNull(must(r, 'max_value')));
    if (!rows.ok) return rows;
    out.push({ table_name: p.table, column_name: p.column, present: true, max_value: rows.value[0] ?? null });
  }
  return readOk(out);
}

/** The VDiff runs with their mismatched tables; tables absent (no VDiff v2 schema) read as no runs. */
function readVDiffs(
  runs: Read<SqlResult>,
  mismatches: Read<SqlResult>,
  runsWhat: string,
  mismatchesWhat: string,
  where: string,
): Read<readonly VDiffRow[]> {
  if (isAbsent(runs)) return readOk([]);
  if (!runs.ok) return runs;
  const bad = new Map<string, string[]>();
  if (!isAbsent(mismatches)) {
    if (!mismatches.ok) return mismatches;
    const rows = decodeRows(mismatchesWhat, where, mismatches.value, (r) => ({
      id: toText(must(r, 'vdiff_id')).trim(),
      table: toText(must(r, 'table_name')),
    }));
    if (!rows.ok) return rows;
    for (const r of rows.value) bad.set(r.id, [...(bad.get(r.id) ?? []), r.table]);
  }
  return decodeRows(runsWhat, where, runs.value, (r) => {
    const id = toInt(must(r, 'id'));
    return {
      id,
      vdiff_uuid: toText(must(r, 'vdiff_uuid')),
      workflow: toText(must(r, 'workflow')),
      keyspace: toText(must(r, 'keyspace')),
      shard: toText(must(r, 'shard')),
      state: toText(must(r, 'state')),
      created_at: toDateText(must(r, 'created_at')),
      completed_at: toDateText(must(r, 'completed_at')),
      last_error: toText(must(r, 'last_error')),
      mismatched_tables: [...(bad.get(String(id)) ?? [])].sort(),
    };
  });
}

/**
 * The schema's foreign keys (one per table and constraint, whatever its column count), sorted by table then
 * constraint, with their rules where REFERENTIAL_CONSTRAINTS showed them ('' otherwise, or when that read failed).
 * A list longer than the limit is not kept.
 */
/** `name` as the start of a LIKE pattern with `!` as the escape character. */
const likePrefix = (name: string): string => name.replace(/[!%_]/g, (c) => `!${c}`);

/**
 * A `<db>/<table>` name of InnoDB's dictionary in the server's file-name encoding (`my-table` is `my@002dtable`):
 * `@` and four hex digits stand for that code point; any other `@` sequence is kept as it is.
 */
function fromFileName(name: string): string {
  return name.replace(/@([0-9a-f]{4})/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));
}

/**
 * The ON DELETE and ON UPDATE rules of an InnoDB foreign key from its `TYPE` bits (MariaDB
 * storage/innobase/include/dict0mem.h `DICT_FOREIGN_ON_DELETE_CASCADE` = 1, `_ON_DELETE_SET_NULL` = 2,
 * `_ON_UPDATE_CASCADE` = 4, `_ON_UPDATE_SET_NULL` = 8, `_ON_DELETE_NO_ACTION` = 16, `_ON_UPDATE_NO_ACTION` = 32; none
 * set: RESTRICT), as REFERENTIAL_CONSTRAINTS names them.
 */
export function innodbForeignKeyRules(type: number): { delete_rule: string; update_rule: string } {
  const rule = (cascade: number, setNull: number, noAction: number): string =>
    type & cascade ? 'CASCADE' : type & setNull ? 'SET NULL' : type & noAction ? 'NO ACTION' : 'RESTRICT';
  return { delete_rule: rule(1, 2, 16), update_rule: rule(4, 8, 32) };
}

/** The foreign keys of one schema from InnoDB's dictionary (MariaDB), as {@link readForeignKeys} returns them. */
function readInnodbForeignKeys(answer: Read<SqlResult>, what: string, where: string): Read<readonly ForeignKeyRow[]> {
  if (!answer.ok) return answer;
  const split = (v: string): [string, string] => {
    const i = v.indexOf('/');
    if (i < 0) throw new Error(`not a <db>/<name> dictionary name: ${v}`);
    return [v.slice(0, i), v.slice(i + 1)];
  };
  const rows = decodeRows(what, where, answer.value, (r) => {
    // The constraint's own name follows the schema unencoded; the table names are encoded.
    const [, constraint] = split(toText(must(r, 'id')));
    const [, table] = split(toText(must(r, 'for_name')));
    const [refSchema, refTable] = split(toText(must(r, 'ref_name')));
    return {
      constraint_name: constraint,
      table_name: fromFileName(table),
      referenced_schema: fromFileName(refSchema),
      referenced_table_name: fromFileName(refTable),
      ...innodbForeignKeyRules(Number(must(r, 'type'))),
    };
  });
  if (!rows.ok) return rows;
  if (rows.value.length > FOREIGN_KEY_ROW_LIMIT)
    return readFailed({ what, where, reason: `more than ${FOREIGN_KEY_ROW_LIMIT} foreign keys: not kept` });
  const key = (f: ForeignKeyRow) => `${f.table_name}\u0000${f.constraint_name}`;
  return readOk([...rows.value].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)));
}

function readForeignKeys(
  columns: Read<SqlResult>,
  rules: Read<SqlResult>,
  what: string,
  rulesWhat: string,
  where: string,
): Read<readonly ForeignKeyRow[]> {
  if (!columns.ok) return columns;
  const rows = decodeRows(what, where, columns.value, (r) => ({
    constraint_name: toText(must(r, 'constraint_name')),
    table_name: toText(must(r, 'table_name')),
    referenced_schema: toText(must(r, 'referenced_schema')),
    referenced_table_name: toText(must(r, 'referenced_table_name')),
  }));
  if (!rows.ok) return rows;
  if (rows.value.length > FOREIGN_KEY_ROW_LIMIT)
    return readFailed({ what, where, reason: `more than ${FOREIGN_KEY_ROW_LIMIT} foreign keys: not kept` });
  const key = (f: { table_name: string; constraint_name: string }) => `${f.table_name}\u0000${f.constraint_name}`;
  const ruleOf = new Map<string, { update_rule: string; delete_rule: string }>();
  const ruleRows = rules.ok
    ? decodeRows(rulesWhat, where, rules.value, (r) => ({
        constraint_name: toText(must(r, 'constraint_name')),
        table_name: toText(must(r, 'table_name')),
        update_rule: toText(must(r, 'update_rule')).toUpperCase(),
        delete_rule: toText(must(r, 'delete_rule')).toUpperCase(),
      }))
    : rules;
  if (ruleRows.ok) for (const r of ruleRows.value) ruleOf.set(key(r), r);
  const byKey = new Map<string, ForeignKeyRow>();
  for (const r of rows.value) {
    const rule = ruleOf.get(key(r));
    byKey.set(key(r), { ...r, update_rule: rule?.update_rule ?? '', delete_rule: rule?.delete_rule ?? '' });
  }
  return readOk([...byKey.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)));
}

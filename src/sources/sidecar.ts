/**
 * The tablet sidecar reader: reads `vreplication`, `copy_state`, `vreplication_log` and `resharding_journal`
 * from one primary's sidecar database into a {@link TabletSidecarRead}.
 *
 * It is transport-independent: it talks to a {@link SqlExecutor}, which is a direct mysql2 connection
 * (`src/sources/mysql.ts`) or vtctld's `ExecuteFetchAsDBA` (`--via vtctld`, which has no placeholders and
 * inlines values with {@link formatSql}). Every statement it sends is a `SELECT` or `SHOW` that starts with
 * the `/* vtpreflight *\/` tag (STYLE.md §7), and it never throws: each failure is recorded in the matching
 * `Read` (what, where, why), so one bad table or one dead primary never hides the rest of the cluster.
 *
 * Schema facts: VITESS.md §1 (upstream `vitessio/vitess:go/vt/sidecardb/schema/vreplication/*.sql`).
 */
import {
  readFailed,
  readOk,
  type CopyStateRow,
  type Read,
  type ReadError,
  type ReshardingJournalRow,
  type TabletSidecarRead,
  type VReplicationLogRow,
  type VReplicationRow,
} from '../readout.js';

/** One value of a result row as an executor returns it: binary columns as Buffers, the rest as text or numbers. */
export type SqlValue = Buffer | string | number | bigint | null;

/** A result set: column names (aliases) and rows in column order. */
export interface SqlResult {
  readonly columns: string[];
  readonly rows: SqlValue[][];
}

/** A parameter value; strings are escaped by the executor (or by {@link formatSql}), never concatenated raw. */
export type SqlParam = string | number;

/**
 * Runs one read-only statement. `sql` holds `?` placeholders for `params`; an executor without placeholder
 * support (vtctld's ExecuteFetchAsDBA) inlines them with {@link formatSql}. An executor applies its own
 * deadline and rejects with an error whose `timedOut` property is `true` (or whose `code` is a timeout code,
 * see {@link isTimeoutError}) when it expires.
 */
export interface SqlExecutor {
  query(sql: string, params: readonly SqlParam[]): Promise<SqlResult>;
  close(): Promise<void>;
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
   * Resharding journal ids (decimal strings of `HashStreams`, VITESS.md §1.5) to look up. Absent: every journal
   * row of this `db_name` is read (bounded by {@link JOURNAL_ROW_LIMIT}). Empty: the table is not queried.
   */
  readonly journalIds?: readonly string[];
  /** Newest `vreplication_log` rows read per stream (default {@link DEFAULT_LOG_LIMIT_PER_STREAM}); 0 skips the log. */
  readonly logLimitPerStream?: number;
}

/** The tag every statement starts with, so DBAs can spot vtpreflight in the processlist. */
export const SQL_TAG = '/* vtpreflight */';

/** Newest log rows per stream when the caller does not say. */
export const DEFAULT_LOG_LIMIT_PER_STREAM = 20;

/** Upper bound of journal rows read when no ids are given (a primary holds a handful at most). */
export const JOURNAL_ROW_LIMIT = 1000;

const NOT_READ = 'not read because ';

/** Stream ids per `IN (…)` list; longer lists are split into several statements. */
const IN_LIST_CHUNK = 500;

type ColumnKind = 'int' | 'decimal' | 'text' | 'textOrNull' | 'pos';

/**
 * The `vreplication` columns the reader knows, in upstream order, with how each is decoded. Columns missing
 * on a server are left out of the SELECT and absent from the rows; unknown newer columns are listed in
 * `columns` but not read. `options` is not in any stored upstream `.sql` version (VITESS.md §1.2) but newer
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

const inList = (n: number, item = '?'): string => Array.from({ length: n }, () => item).join(', ');

/** The statements the reader sends, built for one sidecar database (placeholders still in place). */
const statements = (sidecarDb: string) => {
  const db = quoteIdentifier(sidecarDb);
  return {
    columns: `${SQL_TAG} SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
    showColumns: `${SQL_TAG} SHOW COLUMNS FROM ${db}.\`vreplication\``,
    vreplication: (cols: readonly string[]) =>
      `${SQL_TAG} SELECT ${cols.map((c) => `\`${c}\``).join(', ')} FROM ${db}.\`vreplication\` WHERE \`db_name\` = ? ORDER BY \`id\``,
    // Newest row per (vrepl_id, table_name), as GetWorkflows reads them (VITESS.md §1.3); lastpk is opaque.
    copyState: (n: number) =>
      `${SQL_TAG} SELECT MAX(\`id\`) AS \`id\`, \`vrepl_id\`, \`table_name\` FROM ${db}.\`copy_state\` WHERE \`vrepl_id\` IN (${inList(n)}) GROUP BY \`vrepl_id\`, \`table_name\` ORDER BY \`vrepl_id\`, \`table_name\``,
    // Newest `limit` rows of each listed stream, oldest first, in one statement per IN list: LIMIT per group
    // without window functions (MySQL 5.7, MariaDB). The scalar subquery finds each stream's cutoff id, the
    // `limit`-th newest (offset param = limit - 1), with a backward scan of vrepl_id_idx ((vrepl_id, id) in InnoDB)
    // that stops after `limit` entries; a stream with fewer rows has no cutoff (NULL → 0: all its rows). Cost: at most
    // `limit` index entries per log row of the listed streams, never a count of all newer rows (no quadratic term).
    log: (n: number) =>
      `${SQL_TAG} SELECT l.\`id\`, l.\`vrepl_id\`, l.\`type\`, l.\`state\`, l.\`message\`, l.\`created_at\`, l.\`updated_at\`, l.\`count\` FROM ${db}.\`vreplication_log\` AS l WHERE l.\`vrepl_id\` IN (${inList(n)}) AND l.\`id\` >= COALESCE((SELECT c.\`id\` FROM ${db}.\`vreplication_log\` AS c WHERE c.\`vrepl_id\` = l.\`vrepl_id\` ORDER BY c.\`id\` DESC LIMIT ?, 1), 0) ORDER BY l.\`vrepl_id\`, l.\`id\``,
    // CAST keeps 64-bit ids exact even where an executor inlines them as quoted strings.
    journalByIds: (n: number) =>
      `${SQL_TAG} SELECT \`id\`, \`db_name\`, \`val\` FROM ${db}.\`resharding_journal\` WHERE \`id\` IN (${inList(n, 'CAST(? AS SIGNED)')}) ORDER BY \`id\``,
    journalByDb: `${SQL_TAG} SELECT \`id\`, \`db_name\`, \`val\` FROM ${db}.\`resharding_journal\` WHERE \`db_name\` = ? ORDER BY \`id\` LIMIT ${JOURNAL_ROW_LIMIT}`,
  };
};

/**
 * Every statement shape the reader can send for `sidecarDb`, with `?` placeholders; `IN` lists are shown with
 * one element and the vreplication SELECT with all known columns (a server may get a subset). For docs and tests.
 */
export function listSidecarStatements(sidecarDb = '_vt'): readonly string[] {
  const s = statements(sidecarDb);
  return [
    s.columns,
    s.showColumns,
    s.vreplication(KNOWN_VREPLICATION_COLUMNS),
    s.copyState(1),
    s.log(1),
    s.journalByIds(1),
    s.journalByDb,
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
  let out = '';
  let next = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (ch === "'" || ch === '"' || ch === '`') {
      const end = skipQuoted(sql, i, ch);
      out += sql.slice(i, end);
      i = end;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      const end = close < 0 ? sql.length : close + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (ch === '?') {
      if (next >= params.length) throw new Error(`formatSql: more placeholders than the ${params.length} params`);
      out += sqlLiteral(params[next] as SqlParam);
      next += 1;
      i += 1;
    } else {
      out += ch;
      i += 1;
    }
  }
  if (next !== params.length) throw new Error(`formatSql: ${params.length} params for ${next} placeholders`);
  return out;
}

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

/** True when an executor error means a deadline expired rather than an error answer. */
export function isTimeoutError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { timedOut?: unknown; code?: unknown };
  return e.timedOut === true || e.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || e.code === 'ETIMEDOUT';
}

/**
 * One line describing an executor error: the server's message and code when there is one. Executors are
 * responsible for keeping credentials out of their errors; this also cuts the text to one bounded line.
 */
export function describeSqlError(err: unknown): string {
  let text: string;
  if (typeof err === 'object' && err !== null) {
    const e = err as { sqlMessage?: unknown; message?: unknown; code?: unknown; errno?: unknown };
    const msg =
      typeof e.sqlMessage === 'string' && e.sqlMessage !== ''
        ? e.sqlMessage
        : typeof e.message === 'string'
          ? e.message
          : String(err);
    const code = typeof e.code === 'string' && e.code !== '' && !msg.includes(e.code) ? e.code : '';
    const errno = typeof e.errno === 'number' ? String(e.errno) : '';
    const suffix = code && errno ? ` (${code} ${errno})` : code ? ` (${code})` : '';
    text = msg + suffix;
  } else {
    text = String(err);
  }
  const line = text.replace(/\s+/g, ' ').trim() || 'unknown error';
  return line.length > 500 ? `${line.slice(0, 497)}...` : line;
}

/** Where a failure happened, in the readout's words: `zone1-0000000100 (10.0.0.5:3306)`. */
export const sidecarWhere = (t: Pick<SidecarTarget, 'alias' | 'endpoint'>): string => `${t.alias} (${t.endpoint})`;

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
  };
}

/**
 * Reads one primary's sidecar tables through `exec`. Never throws; never closes `exec` (its opener does).
 * Statements run one after another on the executor, in this order: column discovery, vreplication rows of
 * `target.dbName`, copy_state and vreplication_log of the streams found, resharding_journal.
 */
export async function readSidecarWith(
  exec: SqlExecutor,
  target: SidecarTarget,
  opts: ReadSidecarOptions = {},
): Promise<TabletSidecarRead> {
  const where = sidecarWhere(target);
  const problem = identifierProblem(target.sidecarDb);
  if (problem !== null) {
    return failedSidecarRead(target, { what: 'validate sidecar database name', where, reason: problem });
  }
  const sql = statements(target.sidecarDb);
  const table = (t: string) => `${target.sidecarDb}.${t}`;

  const run = async (what: string, text: string, params: readonly SqlParam[]): Promise<Read<SqlResult>> => {
    try {
      return readOk(await exec.query(text, params));
    } catch (err) {
      const error: ReadError = isTimeoutError(err)
        ? { what, where, reason: describeSqlError(err), timedOut: true }
        : { what, where, reason: describeSqlError(err) };
      return readFailed(error);
    }
  };
  // Names the root cause once, however long the chain of dependent reads is.
  const notRead = <T>(what: string, because: ReadError): Read<T> =>
    readFailed({
      what,
      where,
      reason: because.reason.startsWith(NOT_READ)
        ? because.reason
        : `${NOT_READ}${because.what} failed: ${because.reason}`,
    });

  try {
    // 1. Columns of vreplication, to select only what this server's schema has (VITESS.md §1.2 history).
    const columns = await readColumns(run, sql, target, table('vreplication'));

    // 2. Streams of this tablet's schema. OnlineDDL rows are kept: the model filters them.
    const vrWhat = `select ${table('vreplication')}`;
    let vreplication: Read<readonly VReplicationRow[]>;
    if (!columns.ok) {
      vreplication = notRead(vrWhat, columns.error);
    } else {
      const present = new Set(columns.value.map((c) => c.toLowerCase()));
      const missing = VREPLICATION_COLUMNS.filter(([n, , req]) => req && !present.has(n)).map(([n]) => n);
      if (missing.length > 0) {
        vreplication = readFailed({
          what: vrWhat,
          where,
          reason: `unsupported schema: ${table('vreplication')} lacks column(s) ${missing.join(', ')}`,
        });
      } else {
        const cols = VREPLICATION_COLUMNS.filter(([n]) => present.has(n));
        const res = await run(vrWhat, sql.vreplication(cols.map(([n]) => n)), [target.dbName]);
        vreplication = res.ok ? decodeRows(vrWhat, where, res.value, (r) => toVReplicationRow(r, cols)) : res;
      }
    }

    const ids = vreplication.ok ? vreplication.value.map((r) => r.id) : [];

    // 3. copy_state of the streams found.
    const csWhat = `select ${table('copy_state')}`;
    let copyState: Read<readonly CopyStateRow[]>;
    if (!vreplication.ok) {
      copyState = notRead(csWhat, vreplication.error);
    } else {
      const rows: CopyStateRow[] = [];
      let failed: Read<readonly CopyStateRow[]> | null = null;
      for (let i = 0; i < ids.length && failed === null; i += IN_LIST_CHUNK) {
        const chunk = ids.slice(i, i + IN_LIST_CHUNK);
        const res = await run(csWhat, sql.copyState(chunk.length), chunk);
        const decoded = res.ok ? decodeRows(csWhat, where, res.value, toCopyStateRow) : res;
        if (decoded.ok) rows.push(...decoded.value);
        else failed = decoded;
      }
      copyState = failed ?? readOk(rows);
    }

    // 4. Recent vreplication_log rows per stream (oldest first in the result).
    const logWhat = `select ${table('vreplication_log')}`;
    const limit = opts.logLimitPerStream ?? DEFAULT_LOG_LIMIT_PER_STREAM;
    let vreplicationLog: Read<readonly VReplicationLogRow[]>;
    if (!vreplication.ok) {
      vreplicationLog = notRead(logWhat, vreplication.error);
    } else if (!Number.isInteger(limit) || limit < 0) {
      vreplicationLog = readFailed({ what: logWhat, where, reason: `invalid log limit ${String(limit)}` });
    } else if (limit === 0) {
      vreplicationLog = readFailed({ what: logWhat, where, reason: 'not requested (log limit 0)' });
    } else {
      // One statement per IN list of streams (no streams, no statement); rows come ordered by (vrepl_id, id).
      const rows: VReplicationLogRow[] = [];
      let failed: Read<readonly VReplicationLogRow[]> | null = null;
      for (let i = 0; i < ids.length && failed === null; i += IN_LIST_CHUNK) {
        const chunk = ids.slice(i, i + IN_LIST_CHUNK);
        const res = await run(logWhat, sql.log(chunk.length), [...chunk, limit - 1]);
        const decoded = res.ok ? decodeRows(logWhat, where, res.value, toLogRow) : res;
        if (decoded.ok) rows.push(...decoded.value);
        else failed = decoded;
      }
      vreplicationLog = failed ?? readOk(rows);
    }

    // 5. Resharding journal (written on source primaries at the point of no return, VITESS.md §1.5).
    const jWhat = `select ${table('resharding_journal')}`;
    let reshardingJournal: Read<readonly ReshardingJournalRow[]>;
    if (opts.journalIds === undefined) {
      const res = await run(jWhat, sql.journalByDb, [target.dbName]);
      reshardingJournal = res.ok ? decodeRows(jWhat, where, res.value, toJournalRow) : res;
    } else {
      const bad = opts.journalIds.find((id) => !/^[0-9]{1,19}$/.test(id));
      if (bad !== undefined) {
        reshardingJournal = readFailed({
          what: jWhat,
          where,
          reason: `invalid journal id ${JSON.stringify(bad)}: expected a decimal integer`,
        });
      } else {
        const rows: ReshardingJournalRow[] = [];
        let failed: Read<readonly ReshardingJournalRow[]> | null = null;
        for (let i = 0; i < opts.journalIds.length && failed === null; i += IN_LIST_CHUNK) {
          const chunk = opts.journalIds.slice(i, i + IN_LIST_CHUNK);
          const res = await run(jWhat, sql.journalByIds(chunk.length), chunk);
          const decoded = res.ok ? decodeRows(jWhat, where, res.value, toJournalRow) : res;
          if (decoded.ok) rows.push(...decoded.value);
          else failed = decoded;
        }
        reshardingJournal = failed ?? readOk(rows);
      }
    }

    return {
      alias: target.alias,
      keyspace: target.keyspace,
      shard: target.shard,
      endpoint: target.endpoint,
      sidecarDb: target.sidecarDb,
      dbName: target.dbName,
      columns,
      vreplication,
      copyState,
      vreplicationLog,
      reshardingJournal,
    };
  } catch (err) {
    // Only a bug gets here (decoders are total); still a recorded failure, never a throw past the collector.
    return failedSidecarRead(target, {
      what: 'read sidecar',
      where,
      reason: `internal error: ${describeSqlError(err)}`,
    });
  }
}

type Runner = (what: string, text: string, params: readonly SqlParam[]) => Promise<Read<SqlResult>>;

async function readColumns(
  run: Runner,
  sql: ReturnType<typeof statements>,
  target: SidecarTarget,
  tableName: string,
): Promise<Read<readonly string[]>> {
  const what = `select ${tableName} columns`;
  const res = await run(what, sql.columns, [target.sidecarDb, 'vreplication']);
  if (!res.ok) return res;
  const names = res.value.rows.map((r) => toText(r[0] ?? null));
  if (names.length > 0) return readOk(names);
  // information_schema hides tables the user has no privilege on, and shows nothing for a missing table.
  // SHOW COLUMNS tells the two apart with the server's own error (1146 no such table, 1142 denied).
  const show = await run(what, sql.showColumns, []);
  if (!show.ok) return show;
  const fieldIdx = Math.max(
    0,
    show.value.columns.findIndex((c) => c.toLowerCase() === 'field'),
  );
  const shown = show.value.rows.map((r) => toText(r[fieldIdx] ?? null));
  if (shown.length > 0) return readOk(shown);
  return readFailed({ what, where: sidecarWhere(target), reason: `${tableName} has no visible columns` });
}

/** Applies a row decoder to a result; a malformed row (wrong shape) is a recorded failure, not a throw. */
function decodeRows<T>(what: string, where: string, res: SqlResult, decode: (row: Row) => T): Read<readonly T[]> {
  const index = new Map(res.columns.map((c, i) => [c.toLowerCase(), i] as const));
  try {
    return readOk(res.rows.map((values) => decode({ index, values })));
  } catch (err) {
    return readFailed({ what, where, reason: `unexpected result: ${describeSqlError(err)}` });
  }
}

interface Row {
  readonly index: ReadonlyMap<string, number>;
  readonly values: readonly SqlValue[];
}

function cell(row: Row, name: string): SqlValue | undefined {
  const i = row.index.get(name);
  return i === undefined ? undefined : (row.values[i] ?? null);
}

function must(row: Row, name: string): SqlValue {
  const v = cell(row, name);
  if (v === undefined) throw new Error(`column ${name} missing from the result`);
  return v;
}

const utf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Text of a value: binary columns are decoded as UTF-8 (invalid sequences become U+FFFD). */
export function toText(v: SqlValue): string {
  if (v === null) return '';
  if (Buffer.isBuffer(v)) return utf8.decode(v);
  return String(v);
}

function toTextOrNull(v: SqlValue): string | null {
  return v === null ? null : toText(v);
}

function toInt(v: SqlValue): number {
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const text = toText(v).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) throw new Error(`not a number: ${JSON.stringify(text.slice(0, 40))}`);
  return n;
}

/** Integer as a decimal string, exact beyond 2^53 (max_tps defaults to 9223372036854775807). */
function toDecimal(v: SqlValue): string {
  if (v === null) return '0';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`integer ${v} arrived as an imprecise number`);
    return String(v);
  }
  const text = toText(v).trim();
  if (!/^-?[0-9]+$/.test(text)) throw new Error(`not an integer: ${JSON.stringify(text.slice(0, 40))}`);
  return text;
}

/**
 * `pos` as text when it is valid, printable UTF-8; otherwise (MySQL `COMPRESS()` output from
 * `--vreplication_store_compressed_gtid`: 4-byte LE length + zlib, VITESS.md §15) the raw bytes in base64.
 */
export function decodePos(v: SqlValue): { pos: string; posBase64?: string } {
  if (!Buffer.isBuffer(v)) return { pos: toText(v) };
  let text: string;
  try {
    text = strictUtf8.decode(v);
  } catch {
    return { pos: '', posBase64: v.toString('base64') };
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return { pos: '', posBase64: v.toString('base64') };
  return { pos: text };
}

function toVReplicationRow(row: Row, cols: readonly (readonly [string, ColumnKind, boolean])[]): VReplicationRow {
  const out: Record<string, unknown> = {};
  for (const [name, kind, required] of cols) {
    const v = must(row, name);
    switch (kind) {
      case 'int':
        if (v !== null || required) out[name] = toInt(v);
        break;
      case 'decimal':
        if (v !== null || required) out[name] = toDecimal(v);
        break;
      case 'text':
        if (v !== null || required) out[name] = toText(v);
        break;
      case 'textOrNull':
        out[name] = toTextOrNull(v);
        break;
      case 'pos':
        Object.assign(out, decodePos(v));
        break;
    }
  }
  return out as unknown as VReplicationRow;
}

function toCopyStateRow(row: Row): CopyStateRow {
  return {
    id: toInt(must(row, 'id')),
    vrepl_id: toInt(must(row, 'vrepl_id')),
    table_name: toText(must(row, 'table_name')),
  };
}

function toLogRow(row: Row): VReplicationLogRow {
  return {
    id: toInt(must(row, 'id')),
    vrepl_id: toInt(must(row, 'vrepl_id')),
    type: toText(must(row, 'type')),
    state: toText(must(row, 'state')),
    message: toText(must(row, 'message')),
    created_at: toDateText(must(row, 'created_at')),
    updated_at: toDateText(must(row, 'updated_at')),
    count: toInt(must(row, 'count')),
  };
}

/** DATETIME as the server prints it (`YYYY-MM-DD hh:mm:ss`); executors return it as text, never a Date. */
function toDateText(v: SqlValue): string | null {
  return v === null ? null : toText(v);
}

function toJournalRow(row: Row): ReshardingJournalRow {
  return { id: toDecimal(must(row, 'id')), db_name: toText(must(row, 'db_name')), val: toText(must(row, 'val')) };
}

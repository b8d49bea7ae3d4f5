/**
 * What a simulated tablet answers: exactly the statements vtpreflight's sidecar reader sends, matched against the
 * shapes `listSidecarStatements()` publishes (so a change there is followed here, and a new statement is refused
 * until the simulator learns it), with the values mysql2 sends for them: the text protocol, parameters inlined by
 * `formatSql` as `'…'` literals (quotes doubled), `X'…'` hex literals and bare numbers (`src/sources/mysql.ts` never
 * prepares statements). Everything else is refused with the error a read-only MySQL session would give.
 *
 * Pure: no sockets here (`tablets.ts` serves it), so tests can ask it directly.
 */
import type { CopyStateRow, ReshardingJournalRow, VReplicationLogRow, VReplicationRow } from '../readout.js';
import { DEFAULT_LOG_LIMIT_PER_STREAM, SQL_TAG, listSidecarStatements, quoteIdentifier } from '../sources/sidecar.js';
import type { ReadUnit, SimAnswer } from '../reads/unit.js';
import { READ_UNITS } from '../reads/units/index.js';
import { SET_READ_ONLY_SQL } from '../sources/mysql.js';
import { splitSqlStatements } from '../sources/read-only-sql.js';
import { Charset, FieldType, type ColumnDef, type WireValue } from './mysql-protocol.js';
import type { SimSidecar } from './types.js';
import { targetSchemaTables } from './schema.js';
import { byCodeUnit } from '../text.js';

/** An answer: a result set, an OK (for the read-only SET), or a MySQL error. */
export type SqlAnswer =
  | { readonly kind: 'rows'; readonly columns: readonly ColumnDef[]; readonly rows: readonly (readonly WireValue[])[] }
  | { readonly kind: 'ok' }
  | { readonly kind: 'error'; readonly errno: number; readonly sqlState: string; readonly message: string };

/** MySQL's refusal of a write in a read-only transaction (ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION). */
export const READ_ONLY_ERRNO = 1792;
/** What the simulator answers for a read it does not know (ER_NOT_SUPPORTED_YET). */
export const UNSUPPORTED_ERRNO = 1235;

const error = (errno: number, sqlState: string, message: string): SqlAnswer => ({
  kind: 'error',
  errno,
  sqlState,
  message,
});

/** Statement kinds: the published shapes, and the id-list forms their subqueries resolve to. */
type Kind =
  | 'vreplicationAll'
  | 'copyState'
  | 'copyStateByDb'
  | 'log'
  | 'logByDb'
  | 'journalByIds'
  | 'journalByDb'
  | 'positionColumns'
  | 'tablesOfDb'
  | 'transactions'
  | 'trxSessions'
  | 'baseTables'
  | 'uniqueKeys'
  | 'mdlProbe'
  | 'metadataLocks'
  | 'nonEmpty'
  | 'vdiffs'
  | 'vdiffMismatches'
  | 'foreignKeys'
  | 'foreignKeyRules'
  | 'foreignKeysInnodb'
  | 'unit'
  | 'grantsGlobal'
  | 'grantsDb'
  | 'grantsTables';
type Capture = 'value' | 'list' | 'castList' | 'ident';

interface Shape {
  readonly kind: Kind;
  /** A read unit's statement (src/reads/units/): answered by the unit itself. */
  readonly unit?: { readonly unit: ReadUnit; readonly index: number };
  readonly re: RegExp;
  readonly captures: readonly Capture[];
}

const VALUE = String.raw`'(?:[^']|'')*'|X'[0-9A-Fa-f]*'|-?\d+(?:\.\d+)?`;
const PATTERNS: Record<Capture, string> = {
  value: `(${VALUE})`,
  list: `IN \\(((?:${VALUE})(?:, (?:${VALUE}))*)\\)`,
  castList: `IN \\(((?:CAST\\((?:${VALUE}) AS SIGNED\\))(?:, CAST\\((?:${VALUE}) AS SIGNED\\))*)\\)`,
  // A backtick-quoted identifier (backticks inside doubled), as `nonEmptyProbe` writes table names.
  ident: '`((?:[^`]|``)+)`',
};

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function kindOf(template: string): Kind {
  if (/ SELECT 1 FROM `\?`\.`\?` LIMIT 1$/.test(template)) return 'nonEmpty';
  const bySubquery = template.includes('IN (SELECT ');
  if (template.includes('information_schema.`KEY_COLUMN_USAGE`')) return 'foreignKeys';
  if (template.includes('information_schema.`REFERENTIAL_CONSTRAINTS`')) return 'foreignKeyRules';
  if (template.includes('information_schema.`INNODB_SYS_FOREIGN`')) return 'foreignKeysInnodb';
  if (template.includes('`vdiff_table`')) return 'vdiffMismatches';
  if (template.includes('`vdiff`')) return 'vdiffs';
  if (template.includes('FROM mysql.`user`')) return 'grantsGlobal';
  if (template.includes('FROM mysql.`db`')) return 'grantsDb';
  if (template.includes('FROM mysql.`tables_priv`')) return 'grantsTables';
  if (template.includes('information_schema.`COLUMNS`')) return 'positionColumns';
  if (template.includes('information_schema.`INNODB_TRX`')) return 'transactions';
  if (template.includes('information_schema.`PROCESSLIST`')) return 'trxSessions';
  if (template.includes("`TABLE_TYPE` = 'BASE TABLE'")) return 'baseTables';
  if (template.includes('information_schema.`STATISTICS`')) return 'uniqueKeys';
  if (template.includes('performance_schema.`setup_instruments`')) return 'mdlProbe';
  if (template.includes('performance_schema.`metadata_locks`')) return 'metadataLocks';
  if (template.includes('information_schema.`TABLES`')) return 'tablesOfDb';
  if (template.includes('`copy_state`')) return bySubquery ? 'copyStateByDb' : 'copyState';
  if (template.includes('`vreplication_log`')) return template.includes(') AS n JOIN ') ? 'logByDb' : 'log';
  if (template.includes('`resharding_journal`')) return template.includes('CAST(') ? 'journalByIds' : 'journalByDb';
  if (template.includes('SELECT * FROM') && template.includes('`vreplication`')) return 'vreplicationAll';
  throw new Error(`simulator: unknown sidecar statement shape: ${template}`);
}

/** Turns a published statement (with `?` placeholders and one-element IN lists) into a matcher. */
function toShape(template: string, unit?: Shape['unit']): Shape {
  const marked = template
    .replace('IN (CAST(? AS SIGNED))', '\u0001k')
    .replace('IN (?)', '\u0001l')
    .replaceAll('`?`', '\u0001i');
  let re = '';
  const captures: Capture[] = [];
  for (let i = 0; i < marked.length; i++) {
    const ch = marked[i] as string;
    if (ch === '\u0001') {
      const c: Capture = ({ k: 'castList', l: 'list', i: 'ident' } as const)[marked[++i] as 'k' | 'l' | 'i'];
      captures.push(c);
      re += PATTERNS[c];
    } else if (ch === '?') {
      captures.push('value');
      re += PATTERNS.value;
    } else {
      re += escapeRe(ch);
    }
  }
  const pattern = new RegExp(`^${re}$`, 's');
  return unit === undefined
    ? { kind: kindOf(template), re: pattern, captures }
    : { kind: 'unit', unit, re: pattern, captures };
}

const shapeCache = new Map<string, readonly Shape[]>();

function shapesFor(sidecarDb: string): readonly Shape[] {
  let shapes = shapeCache.get(sidecarDb);
  if (shapes === undefined) {
    // The log statement has one branch per row asked of each stream: every limit a reader may ask, up to the default.
    const logs = Array.from({ length: DEFAULT_LOG_LIMIT_PER_STREAM - 1 }, (_, i) =>
      listSidecarStatements(sidecarDb, undefined, i + 1).find((x) => x.includes('`vreplication_log`')),
    ).filter((x): x is string => x !== undefined);
    // The read units' statements, each answered by its unit; every other published statement by its kind.
    const names = { sidecar: quoteIdentifier(sidecarDb), sidecarName: sidecarDb, schema: '?' };
    const units = READ_UNITS.flatMap((unit) =>
      unit.statements(names).map((st, index) => toShape(st.sql, { unit, index })),
    );
    const unitSql = new Set(READ_UNITS.flatMap((u) => u.statements(names).map((x) => x.sql)));
    shapes = [
      ...units,
      ...[...listSidecarStatements(sidecarDb), ...logs].filter((x) => !unitSql.has(x)).map((x) => toShape(x)),
    ];
    shapeCache.set(sidecarDb, shapes);
  }
  return shapes;
}

/** A literal as formatSql writes it, back to its value. */
export function parseLiteral(text: string): string | number {
  if (text.startsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  if (text.startsWith("X'") || text.startsWith("x'")) return Buffer.from(text.slice(2, -1), 'hex').toString('utf8');
  return Number(text);
}

function parseList(text: string): (string | number)[] {
  return [...text.matchAll(new RegExp(VALUE, 'g'))].map((m) => parseLiteral(m[0]));
}

// ---------------------------------------------------------------------------------------------------------------
// Column metadata, as the real sidecar schema types them, so mysql2 decodes values the way it
// decodes a real server's: VARBINARY/BLOB as Buffers, BIGINT as decimal strings, INT as numbers, DATETIME as text.

const NOT_NULL = 1;
const PRI_KEY = 2;
const BLOB_FLAG = 16;
const UNSIGNED = 32;
const BINARY = 128;
const AUTO_INCREMENT = 512;

const bin = (name: string, table: string, length: number, nullable = false): ColumnDef => ({
  name,
  table,
  schema: '_vt',
  type: FieldType.VAR_STRING,
  charset: Charset.BINARY,
  length,
  flags: BINARY | (nullable ? 0 : NOT_NULL),
});
const blob = (name: string, table: string, charset: number = Charset.BINARY): ColumnDef => ({
  name,
  table,
  schema: '_vt',
  type: FieldType.BLOB,
  charset,
  length: 16777215,
  flags: BLOB_FLAG | NOT_NULL | (charset === Charset.BINARY ? BINARY : 0),
});
const int = (name: string, table: string, type: number, flags = NOT_NULL): ColumnDef => ({
  name,
  table,
  schema: '_vt',
  type,
  charset: Charset.BINARY,
  length: type === FieldType.LONGLONG ? 20 : type === FieldType.TINY ? 1 : 11,
  flags,
});

const VREPLICATION_DEFS: Readonly<
  Record<string, { def: ColumnDef; sqlType: string; nullable: boolean; key: string; extra: string }>
> = (() => {
  const t = 'vreplication';
  const list: [ColumnDef, string, boolean?, string?, string?][] = [
    [int('id', t, FieldType.LONG, NOT_NULL | PRI_KEY | AUTO_INCREMENT), 'int', false, 'PRI', 'auto_increment'],
    [bin('workflow', t, 1000, true), 'varbinary(1000)', true, 'MUL'],
    [blob('source', t), 'mediumblob'],
    [bin('pos', t, 10000), 'varbinary(10000)'],
    [bin('stop_pos', t, 10000, true), 'varbinary(10000)', true],
    [int('max_tps', t, FieldType.LONGLONG), 'bigint'],
    [int('max_replication_lag', t, FieldType.LONGLONG), 'bigint'],
    [bin('cell', t, 1000, true), 'varbinary(1000)', true],
    [bin('tablet_types', t, 100, true), 'varbinary(100)', true],
    [int('time_updated', t, FieldType.LONGLONG), 'bigint'],
    [int('transaction_timestamp', t, FieldType.LONGLONG), 'bigint'],
    [bin('state', t, 100), 'varbinary(100)'],
    [bin('message', t, 1000, true), 'varbinary(1000)', true],
    [bin('db_name', t, 255), 'varbinary(255)'],
    [int('rows_copied', t, FieldType.LONGLONG), 'bigint'],
    [bin('tags', t, 1024), 'varbinary(1024)'],
    [int('time_heartbeat', t, FieldType.LONGLONG), 'bigint'],
    [int('workflow_type', t, FieldType.LONG), 'int'],
    [int('time_throttled', t, FieldType.LONGLONG), 'bigint'],
    [
      {
        name: 'component_throttled',
        table: t,
        schema: '_vt',
        type: FieldType.VAR_STRING,
        charset: Charset.UTF8MB4,
        length: 1020,
        flags: NOT_NULL,
      },
      'varchar(255)',
    ],
    [int('workflow_sub_type', t, FieldType.LONG), 'int'],
    [int('defer_secondary_keys', t, FieldType.TINY), 'tinyint(1)'],
    [
      {
        name: 'options',
        table: t,
        schema: '_vt',
        type: FieldType.JSON,
        charset: Charset.BINARY,
        length: 4294967295,
        flags: BLOB_FLAG | BINARY | NOT_NULL,
      },
      'json',
    ],
  ];
  return Object.fromEntries(
    list.map(([def, sqlType, nullable = false, key = '', extra = '']) => [
      def.name,
      { def, sqlType, nullable, key, extra },
    ]),
  );
})();

const COPY_STATE_DEFS: readonly ColumnDef[] = [
  int('id', 'copy_state', FieldType.LONGLONG, UNSIGNED),
  int('vrepl_id', 'copy_state', FieldType.LONG),
  bin('table_name', 'copy_state', 128),
];

const LOG_DEFS: readonly ColumnDef[] = [
  int('id', 'vreplication_log', FieldType.LONGLONG, NOT_NULL | PRI_KEY | AUTO_INCREMENT),
  int('vrepl_id', 'vreplication_log', FieldType.LONG),
  bin('type', 'vreplication_log', 256),
  bin('state', 'vreplication_log', 100),
  blob('message', 'vreplication_log', Charset.UTF8MB4),
  {
    name: 'created_at',
    table: 'vreplication_log',
    schema: '_vt',
    type: FieldType.DATETIME,
    charset: Charset.BINARY,
    length: 19,
    flags: BINARY,
  },
  {
    name: 'updated_at',
    table: 'vreplication_log',
    schema: '_vt',
    type: FieldType.DATETIME,
    charset: Charset.BINARY,
    length: 19,
    flags: BINARY,
  },
  int('count', 'vreplication_log', FieldType.LONGLONG),
];

const JOURNAL_DEFS: readonly ColumnDef[] = [
  int('id', 'resharding_journal', FieldType.LONGLONG, NOT_NULL | PRI_KEY),
  bin('db_name', 'resharding_journal', 255, true),
  { ...blob('val', 'resharding_journal'), flags: BLOB_FLAG | BINARY },
];

/** `information_schema.TABLES.TABLE_NAME` as the table-list read selects it. */
const TABLE_NAME_DEF: ColumnDef = {
  name: 'table_name',
  table: 'TABLES',
  schema: 'information_schema',
  type: FieldType.VAR_STRING,
  charset: Charset.UTF8MB4,
  length: 256,
  flags: NOT_NULL,
};

/** `information_schema.COLUMNS` as the position-columns read selects it (utf8 text, a nullable bigint). */
const POSITION_COLUMN_DEFS: readonly ColumnDef[] = ['table_name', 'column_name', 'data_type']
  .map(
    (name): ColumnDef => ({
      name,
      table: 'COLUMNS',
      schema: 'information_schema',
      type: FieldType.VAR_STRING,
      charset: Charset.UTF8MB4,
      length: 256,
      flags: NOT_NULL,
    }),
  )
  .concat([{ ...int('max_length', 'COLUMNS', FieldType.LONGLONG, UNSIGNED), schema: 'information_schema' }]);

/**
 * The upstream sidecar types of the GTID-set columns (`go/vt/sidecardb/schema/vreplication/*.sql`, the stored
 * mediumblob of resharding_journal.sql).
 */
const POSITION_COLUMN_ROWS: readonly WireValue[][] = [
  ['resharding_journal', 'val', 'mediumblob', 16777215],
  ['vreplication', 'pos', 'varbinary', 10000],
  ['vreplication', 'stop_pos', 'varbinary', 10000],
];

/** A text column of an information_schema / performance_schema result. */
const infoText = (name: string, table: string, schema: string, nullable = true): ColumnDef => ({
  name,
  table,
  schema,
  type: FieldType.VAR_STRING,
  charset: Charset.UTF8MB4,
  length: 256,
  flags: nullable ? 0 : NOT_NULL,
});
const infoInt = (name: string, table: string, schema: string): ColumnDef => ({
  ...int(name, table, FieldType.LONGLONG, 0),
  schema,
});

/**
 * The open-transactions reads (INNODB_TRX, PROCESSLIST): the simulator's tablets have no sessions, so no
 * rows.
 */
const TRANSACTION_DEFS: readonly ColumnDef[] = [
  infoInt('thread_id', 'INNODB_TRX', 'information_schema'),
  infoInt('trx_seconds', '', ''),
  infoText('trx_state', 'INNODB_TRX', 'information_schema', false),
  infoText('statement', '', ''),
  infoInt('rows_modified', 'INNODB_TRX', 'information_schema'),
  infoInt('tables_locked', 'INNODB_TRX', 'information_schema'),
];
/** The sessions read's columns (information_schema.PROCESSLIST, aliased). */
const TRX_SESSION_DEFS: readonly ColumnDef[] = [
  infoInt('id', 'PROCESSLIST', 'information_schema'),
  infoText('user', 'PROCESSLIST', 'information_schema', false),
  infoText('db', 'PROCESSLIST', 'information_schema'),
  infoText('command', 'PROCESSLIST', 'information_schema', false),
  infoText('state', 'PROCESSLIST', 'information_schema'),
  infoText('info', '', ''),
];

/**
 * The base tables of a simulated primary's schema: the scenario's `tables` (a source's moved tables), and the tables
 * its own MoveTables streams apply to (create deploys them on every target first: src/sim/schema.ts), each with a
 * primary key. `information_schema.TABLES` by name (`tablesOfDb`) lists only the scenario's.
 */
function baseTablesOf(s: SimSidecar, ix: Indexed): string[] {
  return [...new Set([...(ix.tables ?? []), ...targetSchemaTables(s.vreplication)])].sort(byCodeUnit);
}

/** The table reads: see baseTablesOf. */
const BASE_TABLE_DEFS: readonly ColumnDef[] = [infoText('table_name', 'TABLES', 'information_schema', false)];
const UNIQUE_KEY_DEFS: readonly ColumnDef[] = [
  infoText('table_name', 'STATISTICS', 'information_schema', false),
  infoText('index_name', 'STATISTICS', 'information_schema', false),
  infoText('nullable', 'STATISTICS', 'information_schema', false),
];

/** The instrumentation probe as MySQL 8.0 answers it by default: performance_schema on, the mdl instrument enabled. */
const MDL_PROBE_DEFS: readonly ColumnDef[] = [infoInt('enabled', '', ''), infoInt('mdl', '', '')];

const METADATA_LOCK_DEFS: readonly ColumnDef[] = [
  infoInt('thread_id', 'threads', 'performance_schema'),
  infoText('table_name', 'metadata_locks', 'performance_schema'),
  infoText('lock_type', 'metadata_locks', 'performance_schema', false),
  infoText('lock_duration', 'metadata_locks', 'performance_schema'),
  infoText('lock_status', 'metadata_locks', 'performance_schema', false),
  infoText('digest', '', ''),
];

// ---------------------------------------------------------------------------------------------------------------
// Per-tablet indexes, built once per sidecar.

interface Indexed {
  readonly rowsByDb: ReadonlyMap<string, readonly VReplicationRow[]>;
  readonly copyByStream: ReadonlyMap<number, readonly CopyStateRow[]>;
  /** Newest first per stream. */
  readonly logsByStream: ReadonlyMap<number, readonly VReplicationLogRow[]>;
  readonly journalsByDb: ReadonlyMap<string, readonly ReshardingJournalRow[]>;
  readonly journalsById: ReadonlyMap<string, ReshardingJournalRow>;
  readonly dbName: string;
  readonly tables: readonly string[] | undefined;
}

const indexes = new WeakMap<SimSidecar, Indexed>();

/** Forgets the index of a sidecar whose tables were replaced (a served cluster refreshed to a later clock). */
export function forgetSidecarIndex(s: SimSidecar): void {
  indexes.delete(s);
}

function group<T, K>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list === undefined) m.set(k, [it]);
    else list.push(it);
  }
  return m;
}

function indexOf(s: SimSidecar): Indexed {
  let ix = indexes.get(s);
  if (ix === undefined) {
    const logs = group(s.vreplicationLog, (l) => l.vrepl_id);
    for (const list of logs.values()) list.sort((a, b) => b.id - a.id);
    ix = {
      rowsByDb: group(
        [...s.vreplication].sort((a, b) => a.id - b.id),
        (r) => r.db_name,
      ),
      copyByStream: group(s.copyState, (c) => c.vrepl_id),
      logsByStream: logs,
      journalsByDb: group(
        [...s.reshardingJournal].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)),
        (j) => j.db_name,
      ),
      journalsById: new Map(s.reshardingJournal.map((j) => [j.id, j])),
      dbName: s.dbName,
      tables: s.tables,
    };
    indexes.set(s, ix);
  }
  return ix;
}

// ---------------------------------------------------------------------------------------------------------------
// Answering.

/** Per-connection state the answers depend on. */
export interface SessionState {
  /** True once `SET SESSION TRANSACTION READ ONLY` ran: vtpreflight's reader sends it first, always. */
  readOnly: boolean;
}

/** `SET SESSION max_execution_time = <ms>` as the reader sends it to a MySQL (the simulator's flavor). */
const TIME_LIMIT_SET = /^\/\* vtpreflight \*\/ SET SESSION max_execution_time = \d+$/;

const WRITE_VERBS = new RegExp(
  String.raw`^\s*(?:\/\*.*?\*\/\s*)*(` +
    'insert|update|delete|replace|create|drop|alter|truncate|rename|grant|revoke|load|lock|unlock|call|handler|set|start|begin|commit|rollback|savepoint|kill|flush|reset|purge|change|install|uninstall|analyze|optimize|repair|do' +
    String.raw`)\b`,
  'is',
);

/**
 * The answer of `sidecar`'s tablet to `sql` in `session`. Refuses (never guesses): anything before the read-only
 * SET, any statement that is not one of the reader's shapes, a write (ERROR 1792 as MySQL gives inside a read-only
 * transaction), and a SELECT of a column this server's schema lacks.
 */
export function answerSql(sidecar: SimSidecar, sql: string, session: SessionState): SqlAnswer {
  if (sql === SET_READ_ONLY_SQL) {
    session.readOnly = true;
    return { kind: 'ok' };
  }
  // The session's statement time limit (mysql.ts statementTimeLimitSql), sent right after the read-only SET.
  if (session.readOnly && TIME_LIMIT_SET.test(sql)) return { kind: 'ok' };
  const write = WRITE_VERBS.exec(sql);
  if (write !== null) {
    return session.readOnly
      ? error(READ_ONLY_ERRNO, '25006', 'Cannot execute statement in a READ ONLY transaction.')
      : error(
          UNSUPPORTED_ERRNO,
          '42000',
          `This version of MySQL doesn't yet support '${write[1]!.toUpperCase()} on a simulated vtpreflight tablet'`,
        );
  }
  if (!session.readOnly) {
    return error(
      UNSUPPORTED_ERRNO,
      '42000',
      "This version of MySQL doesn't yet support 'statements before SET SESSION TRANSACTION READ ONLY on a simulated vtpreflight tablet'",
    );
  }
  if (!sql.startsWith(SQL_TAG)) {
    return error(
      UNSUPPORTED_ERRNO,
      '42000',
      "This version of MySQL doesn't yet support 'statements without the /* vtpreflight */ tag on a simulated vtpreflight tablet'",
    );
  }
  const fieldRead = answerFieldRead(sql);
  if (fieldRead !== null) return fieldRead;
  for (const shape of shapesFor(sidecar.sidecarDb)) {
    const m = shape.re.exec(sql);
    if (m === null) continue;
    const args = shape.captures.map((c, i) => {
      const text = m[i + 1] as string;
      return c === 'value' ? parseLiteral(text) : c === 'ident' ? text.replace(/``/g, '`') : parseList(text);
    });
    if (shape.unit !== undefined)
      return unitAnswer(shape.unit.unit.simulate(shape.unit.index, args as (string | number)[]));
    return answerShape(sidecar, shape.kind, args);
  }
  return error(
    UNSUPPORTED_ERRNO,
    '42000',
    `This version of MySQL doesn't yet support '${sql.slice(0, 120).replace(/\s+/g, ' ')}' on a simulated vtpreflight tablet`,
  );
}

/** MySQL's syntax error (ER_PARSE_ERROR), which a multi-statement text gets from a session without multi-statements. */
export const PARSE_ERRNO = 1064;

/**
 * The answers to one COM_QUERY, one per statement that ran. With `multiStatements` (the client set
 * CLIENT_MULTI_STATEMENTS at login) the text is split at its top-level `;` and the statements run in order until the
 * first error, which is the last answer: a server runs nothing after a failed statement of a batch. Without it, a text
 * of several statements is one syntax error and nothing runs, as MySQL and MariaDB answer it.
 */
export function answerQuery(
  sidecar: SimSidecar,
  sql: string,
  session: SessionState,
  multiStatements: boolean,
): SqlAnswer[] {
  const statements = splitSqlStatements(sql);
  if (statements.length <= 1) return [answerSql(sidecar, statements[0] ?? sql, session)];
  if (!multiStatements) {
    const second = sql.slice(sql.indexOf(statements[1] as string)).slice(0, 80);
    return [
      error(
        PARSE_ERRNO,
        '42000',
        `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${second}' at line 1`,
      ),
    ];
  }
  const answers: SqlAnswer[] = [];
  for (const statement of statements) {
    const a = answerSql(sidecar, statement, session);
    answers.push(a);
    if (a.kind === 'error') break;
  }
  return answers;
}

type Arg = string | number | readonly (string | number)[];

function answerShape(s: SimSidecar, kind: Kind, args: readonly Arg[]): SqlAnswer {
  const ix = indexOf(s);
  switch (kind) {
    case 'vreplicationAll': {
      const [dbName] = args as [string];
      const cols = s.columns;
      const defs = cols.map((c) => VREPLICATION_DEFS[c]?.def ?? unknownColumnDef(c));
      const rows = (ix.rowsByDb.get(String(dbName)) ?? []).map((r) => cols.map((c) => vreplicationValue(r, c)));
      return { kind: 'rows', columns: defs, rows };
    }
    case 'copyStateByDb':
      return answerShape(s, 'copyState', [streamIdsOf(ix, args[0] as string)]);
    case 'logByDb':
      // One branch (one db_name parameter) per rank: the limit is the number of parameters.
      return answerShape(s, 'log', [streamIdsOf(ix, args[0] as string), args.length - 1]);
    case 'copyState': {
      const ids = args[0] as (string | number)[];
      const rows: WireValue[][] = [];
      for (const id of [...new Set(ids.map(Number))].sort((a, b) => a - b)) {
        const newest = new Map<string, number>();
        for (const c of ix.copyByStream.get(id) ?? [])
          newest.set(c.table_name, Math.max(newest.get(c.table_name) ?? 0, c.id));
        for (const table of [...newest.keys()].sort()) rows.push([newest.get(table)!, id, table]);
      }
      return { kind: 'rows', columns: COPY_STATE_DEFS, rows };
    }
    case 'log': {
      // Newest `offset + 1` rows of each listed stream, ordered by (vrepl_id, id) as the statement's ORDER BY says.
      const [ids, offset] = args as [(string | number)[], number];
      const rows: WireValue[][] = [];
      for (const id of [...new Set(ids.map(Number))].sort((a, b) => a - b)) {
        const newest = (ix.logsByStream.get(id) ?? []).slice(0, Math.max(0, Number(offset) + 1));
        for (const l of [...newest].reverse())
          rows.push([l.id, l.vrepl_id, l.type, l.state, l.message, l.created_at, l.updated_at, l.count]);
      }
      return { kind: 'rows', columns: LOG_DEFS, rows };
    }
    case 'journalByIds': {
      const ids = [...new Set((args[0] as (string | number)[]).map(String))].sort((a, b) =>
        BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0,
      );
      const rows = ids.flatMap((id) => {
        const j = ix.journalsById.get(id);
        return j === undefined ? [] : [[j.id, j.db_name, j.val]];
      });
      return { kind: 'rows', columns: JOURNAL_DEFS, rows };
    }
    case 'journalByDb': {
      const [dbName] = args as [string];
      const rows = (ix.journalsByDb.get(String(dbName)) ?? []).slice(0, 1000).map((j) => [j.id, j.db_name, j.val]);
      return { kind: 'rows', columns: JOURNAL_DEFS, rows };
    }
    case 'positionColumns':
      return { kind: 'rows', columns: POSITION_COLUMN_DEFS, rows: POSITION_COLUMN_ROWS.map((r) => [...r]) };
    case 'tablesOfDb': {
      // The tablet's schema tables, when the scenario names them (none otherwise: an empty list is not judged).
      const [dbName] = args as [string];
      const rows = String(dbName) === ix.dbName ? (ix.tables ?? []).map((t) => [t]) : [];
      return { kind: 'rows', columns: [TABLE_NAME_DEF], rows };
    }
    case 'transactions':
      return { kind: 'rows', columns: TRANSACTION_DEFS, rows: [] };
    case 'trxSessions':
      return { kind: 'rows', columns: TRX_SESSION_DEFS, rows: [] };
    case 'baseTables': {
      // The scenario's schema tables and a MoveTables target's own tables, each keyed on its primary key.
      const [dbName] = args as [string];
      const rows = String(dbName) === ix.dbName ? baseTablesOf(s, ix).map((t) => [t]) : [];
      return { kind: 'rows', columns: BASE_TABLE_DEFS, rows };
    }
    case 'uniqueKeys': {
      const [dbName] = args as [string];
      const rows = String(dbName) === ix.dbName ? baseTablesOf(s, ix).map((t) => [t, 'PRIMARY', '']) : [];
      return { kind: 'rows', columns: UNIQUE_KEY_DEFS, rows };
    }
    case 'mdlProbe':
      return { kind: 'rows', columns: MDL_PROBE_DEFS, rows: [[1, 1]] };
    case 'metadataLocks':
      return { kind: 'rows', columns: METADATA_LOCK_DEFS, rows: [] };
    case 'nonEmpty': {
      // MoveTables create's `select 1 from <t> limit 1`: a table of the scenario's list, with a row when it says so.
      const [db, table] = args as [string, string];
      if (db !== ix.dbName || !(ix.tables ?? []).includes(table))
        return error(1146, '42S02', `Table '${db}.${table}' doesn't exist`);
      return { kind: 'rows', columns: [ONE_DEF], rows: (s.nonEmptyTables ?? []).includes(table) ? [[1]] : [] };
    }
    case 'vdiffs':
      return { kind: 'rows', columns: VDIFF_DEFS, rows: completedVDiffs(s, ix, String(args[0])) };
    case 'vdiffMismatches':
      return { kind: 'rows', columns: VDIFF_TABLE_DEFS, rows: [] };
    case 'foreignKeys':
      // The simulated tablets hold no application tables: no foreign keys.
      return { kind: 'rows', columns: FOREIGN_KEY_DEFS, rows: [] };
    case 'foreignKeyRules':
      return { kind: 'rows', columns: FOREIGN_KEY_RULE_DEFS, rows: [] };
    case 'foreignKeysInnodb':
      // Sent to MariaDB only (the simulator greets as MySQL); answered as a server without foreign keys would.
      return {
        kind: 'rows',
        columns: [
          ...['id', 'for_name', 'ref_name'].map((n) => infoText(n, 'INNODB_SYS_FOREIGN', 'information_schema', false)),
          infoInt('type', 'INNODB_SYS_FOREIGN', 'information_schema'),
        ],
        rows: [],
      };
    case 'unit':
      throw new Error('simulator: a read unit answers its own statements');
    case 'grantsGlobal':
      // Every user asked about exists with global privileges, as Vitess's init_db.sql grants vt_filtered ON *.*.
      return { kind: 'rows', columns: grantDefs('user', false), rows: [['Y', 'Y', 'Y', 'Y']] };
    case 'grantsDb':
      return { kind: 'rows', columns: grantDefs('db', true), rows: [] };
    case 'grantsTables':
      return {
        kind: 'rows',
        columns: ['db', 'table_name', 'table_priv'].map((n) => infoText(n, 'tables_priv', 'mysql', false)),
        rows: [],
      };
  }
}

/** A read unit's simulated answer on the wire: texts as VARCHAR, integers as BIGINT, each nullable. */
function unitAnswer(a: SimAnswer): SqlAnswer {
  return {
    kind: 'rows',
    columns: a.columns.map((c) => (c.type === 'text' ? infoText(c.name, '', '') : infoInt(c.name, '', ''))),
    rows: a.rows.map((r) => [...r]),
  };
}

/** The privilege columns of mysql.user / mysql.db (with `db` first for mysql.db). */
const grantDefs = (table: string, withDb: boolean): readonly ColumnDef[] =>
  [...(withDb ? ['db'] : []), 'select_priv', 'insert_priv', 'update_priv', 'delete_priv'].map((n) =>
    infoText(n, table, 'mysql', false),
  );

/** The `1` column of the emptiness probe (a BIGINT literal). */
const ONE_DEF: ColumnDef = {
  name: '1',
  table: '',
  schema: '',
  type: FieldType.LONGLONG,
  charset: Charset.BINARY,
  length: 1,
  flags: NOT_NULL | BINARY,
};

// ---------------------------------------------------------------------------------------------------------------
// The sequence and VDiff reads.

/** `_vt.vdiff` as the VDiff read selects it (go/vt/sidecardb/schema/vdiff/vdiff.sql). */
const VDIFF_DEFS: readonly ColumnDef[] = [
  int('id', 'vdiff', FieldType.LONGLONG, NOT_NULL | PRI_KEY | AUTO_INCREMENT),
  { ...bin('vdiff_uuid', 'vdiff', 64), charset: Charset.UTF8MB4, flags: NOT_NULL },
  bin('workflow', 'vdiff', 1024, true),
  bin('keyspace', 'vdiff', 256, true),
  { ...bin('shard', 'vdiff', 255), charset: Charset.UTF8MB4, flags: NOT_NULL },
  bin('state', 'vdiff', 64, true),
  {
    name: 'created_at',
    table: 'vdiff',
    schema: '_vt',
    type: FieldType.DATETIME,
    charset: Charset.BINARY,
    length: 19,
    flags: BINARY | NOT_NULL,
  },
  {
    name: 'completed_at',
    table: 'vdiff',
    schema: '_vt',
    type: FieldType.DATETIME,
    charset: Charset.BINARY,
    length: 19,
    flags: BINARY,
  },
  bin('last_error', 'vdiff', 512, true),
];
const FOREIGN_KEY_DEFS: readonly ColumnDef[] = [
  'constraint_name',
  'table_name',
  'referenced_schema',
  'referenced_table_name',
].map((name) => infoText(name, 'KEY_COLUMN_USAGE', 'information_schema', false));
const FOREIGN_KEY_RULE_DEFS: readonly ColumnDef[] = ['constraint_name', 'table_name', 'update_rule', 'delete_rule'].map(
  (name) => infoText(name, 'REFERENTIAL_CONSTRAINTS', 'information_schema', false),
);
const VDIFF_TABLE_DEFS: readonly ColumnDef[] = [
  { ...bin('vdiff_id', 'vdiff_table', 64), charset: Charset.UTF8MB4, flags: NOT_NULL },
  bin('table_name', 'vdiff_table', 128),
];

/**
 * The simulated cluster is healthy: every workflow of this schema has one completed VDiff without mismatches (id = its
 * first stream's id, so every shard agrees on the uuid).
 */
function completedVDiffs(s: SimSidecar, ix: Indexed, dbName: string): WireValue[][] {
  const byWorkflow = new Map<string, VReplicationRow>();
  for (const r of ix.rowsByDb.get(dbName) ?? []) {
    if (r.workflow !== null && r.workflow !== '' && !byWorkflow.has(r.workflow)) byWorkflow.set(r.workflow, r);
  }
  return [...byWorkflow.values()]
    .sort((a, b) => b.id - a.id)
    .map((r) => [
      r.id,
      `00000000-0000-4000-8000-${String(r.id).padStart(12, '0')}`,
      r.workflow,
      s.keyspace,
      s.shard,
      'completed',
      '2026-01-01 00:00:00',
      '2026-01-01 00:10:00',
      '',
    ]);
}

/** The sequence statements name application tables, which the simulated tablets do not hold: MySQL's 1146. */
const FIELD_READ = new RegExp(
  String.raw`^/\* vtpreflight \*/ SELECT CAST\((?:\x60next_id\x60|MAX\(\x60[^\x60]+\x60\)) AS CHAR\) .*` +
    String.raw`FROM \x60([^\x60]+)\x60\.\x60([^\x60]+)\x60(?: WHERE \x60id\x60 = 0)?$`,
  's',
);
function answerFieldRead(sql: string): SqlAnswer | null {
  const m = FIELD_READ.exec(sql);
  if (m === null) return null;
  return error(1146, '42S02', `Table '${m[1]}.${m[2]}' doesn't exist`);
}

/** The ids the `IN (SELECT id FROM vreplication WHERE db_name = ?)` subquery yields. */
function streamIdsOf(ix: Indexed, dbName: string): number[] {
  return (ix.rowsByDb.get(String(dbName)) ?? []).map((r) => r.id);
}

/** A column the simulator has no type for (a newer Vitess's): VARBINARY, as most sidecar text columns are. */
const unknownDefs = new Map<string, ColumnDef>();
function unknownColumnDef(name: string): ColumnDef {
  let d = unknownDefs.get(name);
  if (d === undefined) unknownDefs.set(name, (d = bin(name, 'vreplication', 255, true)));
  return d;
}

function vreplicationValue(r: VReplicationRow, col: string): WireValue {
  const v = (r as unknown as Record<string, unknown>)[col];
  if (v === undefined || v === null) return null;
  return typeof v === 'number' ? v : String(v);
}

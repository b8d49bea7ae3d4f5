/**
 * The direct MySQL transport for the sidecar reader: a mysql2 connection to a tablet's
 * `mysql_hostname:mysql_port`, made read-only by its first query, with a deadline on connect and on every query
 *. The reader's statements go in one multi-statement query per primary, led by
 * `SET SESSION TRANSACTION READ ONLY`: one login and one round trip per primary.
 */
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import mysql from 'mysql2';
import type { ReadErrorKind, TabletSidecarRead } from '../readout.js';
import { sqlErrorKind } from './read-kind.js';
import {
  SQL_TAG,
  describeSqlError,
  failedSidecarRead,
  formatSql,
  readSidecarWith,
  sidecarWhere,
  type ReadSidecarOptions,
  type SidecarTarget,
  type SqlBatchOutcome,
  type SqlExecutor,
  type SqlParam,
  type SqlResult,
  type SqlStatement,
  type SqlValue,
} from './sidecar.js';

/**
 * TLS for the MySQL connection; file contents, not paths (the CLI reads the files). Given at all, TLS is required:
 * a server without TLS is refused (never a silent plaintext fallback), the certificate chain is verified against
 * `ca` (or the system store), and so is the server's identity: the certificate must name `servername`, or the
 * host dialed (an IP address must be in its IP subjectAltNames).
 */
export interface MysqlTlsOptions {
  readonly ca?: string | Buffer;
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  /** The name the server certificate must carry when it differs from the host dialed (`--mysql-tls-server-name`). */
  readonly servername?: string;
}

/** How to reach one mysqld. The password never appears in errors, readouts or logs. */
export interface MysqlConnectOptions {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** Deadline for connecting and, separately, for each statement. */
  readonly timeoutMs: number;
  /**
   * Epoch milliseconds no call may outlast (the run's `--deadline`): each call's deadline is the earlier of
   * `timeoutMs` from its start and this; a call that would start after it fails at once, as timed out.
   */
  readonly deadlineAt?: number;
  readonly ssl?: MysqlTlsOptions;
}

/** The statement that makes the session read-only; sent once, right after connecting. */
export const SET_READ_ONLY_SQL = `${SQL_TAG} SET SESSION TRANSACTION READ ONLY`;

/**
 * The server-side time limit of every statement of the session, as the server's flavor spells it, or null when the
 * version string shows neither a MariaDB from 10.1 (`max_statement_time`, seconds, any statement) nor a MySQL from
 * 5.7.8 (`max_execution_time`, milliseconds, read-only SELECTs: every statement the reader sends is one). The limit
 * is a little under the client's own deadline, so the server stops a statement the client is about to give up on,
 * and the statements before it in the batch keep their answers. Sent with the read-only SET, in the same round trip.
 */
export function statementTimeLimitSql(serverVersion: string, timeoutMs: number): string | null {
  const ms = Math.max(100, Math.floor(timeoutMs * 0.9));
  const m = /^(?:5\.5\.5-)?(\d+)\.(\d+)\.(\d+)/.exec(serverVersion);
  if (m === null) return null;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (/mariadb/i.test(serverVersion))
    return major > 10 || (major === 10 && minor >= 1)
      ? `${SQL_TAG} SET SESSION max_statement_time = ${(ms / 1000).toFixed(3)}`
      : null;
  const atLeast578 = major > 5 || (major === 5 && (minor > 7 || (minor === 7 && patch >= 8)));
  return atLeast578 ? `${SQL_TAG} SET SESSION max_execution_time = ${ms}` : null;
}

/** `host:port` as dialed, with IPv6 literals bracketed. */
export const formatEndpoint = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** An error from opening the connection, carrying a one-line, secret-free message and whether it timed out. */
export class MysqlConnectError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    /** What kind of failure it was, from the driver's codes (`src/sources/read-kind.ts`). */
    readonly readErrorKind: ReadErrorKind = timedOut ? 'timeout' : 'other',
  ) {
    super(message);
    this.name = 'MysqlConnectError';
  }
}

/** A statement deadline expired; the connection was dropped (mysql2 cannot cancel a running statement). */
export class MysqlQueryTimeoutError extends Error {
  readonly timedOut = true;
  readonly code = 'PROTOCOL_SEQUENCE_TIMEOUT';
  constructor(timeoutMs: number) {
    super(`no answer within ${formatMs(timeoutMs)}; connection closed`);
    this.name = 'MysqlQueryTimeoutError';
  }
}

const formatMs = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** The reason recorded for a call the run's deadline left no time for. */
export const RUN_DEADLINE_PASSED = 'not attempted: the run deadline (--deadline) had passed';

/** Milliseconds a call starting now may take: `timeoutMs`, cut to what is left before `deadlineAt`. */
function budgetMs(opts: Pick<MysqlConnectOptions, 'timeoutMs' | 'deadlineAt'>): number {
  if (opts.deadlineAt === undefined) return opts.timeoutMs;
  return Math.min(opts.timeoutMs, Math.floor(opts.deadlineAt - Date.now()));
}

/**
 * True when a sidecar read failed because the server refused the connection for its connection limit
 * (`ER_CON_COUNT_ERROR` 1040, `ER_TOO_MANY_USER_CONNECTIONS` 1203): a transient refusal worth retrying with fewer
 * connections to that server.
 */
export function isConnectionLimitRefusal(read: TabletSidecarRead): boolean {
  return (
    !read.columns.ok && read.columns.error.what === 'connect' && read.columns.error.kind === 'too-many-connections'
  );
}

/**
 * mysql2 options for TLS. The chain is verified by Node (`rejectUnauthorized`); the name is checked by
 * {@link verifyIdentityOn}, not by mysql2's `verifyIdentity`: mysql2 checks only `host`, and for an IP address it
 * checks the name `localhost` (it sends no servername for IPs, and Node then falls back to `localhost`), so neither a
 * certificate for the IP nor `--mysql-tls-server-name` could ever work through it.
 */
function tlsConnectOptions(opts: MysqlConnectOptions): Record<string, unknown> {
  if (!opts.ssl) return {};
  const { ca, cert, key } = opts.ssl;
  // A fresh object per connection: mysql2 caches TLS sessions per ssl object, and a resumed session would carry no
  // peer certificate to check.
  return {
    ssl: {
      ...(ca !== undefined ? { ca } : {}),
      ...(cert !== undefined ? { cert } : {}),
      ...(key !== undefined ? { key } : {}),
      rejectUnauthorized: true,
      verifyIdentity: false,
    },
  };
}

/** What {@link verifyIdentityOn} needs of a mysql2 connection (its TLS upgrade step and the socket after it). */
interface TlsUpgradable {
  startTLS?: (onSecure: (err?: Error | null) => void) => void;
  stream?: { getPeerCertificate?: (detailed?: boolean) => PeerCertificate };
}

/**
 * Checks the server certificate's identity right after the TLS handshake, before the login is sent: the certificate
 * must name `name` (a DNS name, or an IP address in its IP subjectAltNames), as Node's `tls.checkServerIdentity`
 * decides. Wraps mysql2's TLS upgrade of this one connection. The result tells whether the check ran (so a mysql2
 * that no longer upgrades this way fails closed instead of skipping it) and the TLS failure's own code (mysql2
 * replaces it with `HANDSHAKE_SSL_ERROR`).
 */
function verifyIdentityOn(conn: unknown, name: string): { checked: () => boolean; failureCode: () => string } {
  const c = conn as TlsUpgradable;
  const original = c.startTLS;
  let checked = false;
  let failureCode = '';
  if (typeof original !== 'function') return { checked: () => false, failureCode: () => '' };
  c.startTLS = (onSecure) =>
    original.call(c, (err) => {
      if (err) {
        const code = (err as { code?: unknown }).code;
        failureCode = typeof code === 'string' ? code : '';
        return onSecure(err);
      }
      const cert = c.stream?.getPeerCertificate?.(true);
      const mismatch =
        cert === undefined || Object.keys(cert).length === 0
          ? Object.assign(new Error('the server presented no certificate'), { code: 'ERR_TLS_NO_PEER_CERTIFICATE' })
          : checkServerIdentity(name, cert);
      if (mismatch) {
        failureCode = (mismatch as { code?: string }).code ?? 'ERR_TLS_CERT_ALTNAME_INVALID';
        return onSecure(mismatch);
      }
      checked = true;
      onSecure();
    });
  return { checked: () => checked, failureCode: () => failureCode };
}

/** Node's and mysql2's TLS failure codes, in words; null when `code` is not a TLS failure. */
const TLS_FAILURES: Readonly<Record<string, string>> = {
  HANDSHAKE_NO_SSL_SUPPORT: 'the server does not offer TLS, which was asked for',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server certificate does not name',
  ERR_TLS_NO_PEER_CERTIFICATE: 'the server presented no certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate is not signed by the given CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the server certificate is not signed by the given CA',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server certificate is not signed by the given CA',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed and not trusted',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  CERT_NOT_YET_VALID: 'the server certificate is not yet valid',
};

function tlsFailure(err: unknown, code: string, name: string): string | null {
  const words = TLS_FAILURES[code];
  if (words === undefined) {
    const msg = (err as { message?: unknown })?.message;
    return typeof msg === 'string' && /\b(SSL|TLS)\b|certificate/i.test(msg) ? `TLS: ${describeSqlError(err)}` : null;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `TLS: ${words} ${name} (${code}): give the name it carries with --mysql-tls-server-name`;
  }
  if (code === 'HANDSHAKE_NO_SSL_SUPPORT')
    return `TLS: ${words} (${code}): enable TLS on the server or drop the --mysql-tls-* settings`;
  return `TLS: ${words} (${code}): check --mysql-tls-ca`;
}

/** Removes the password from text, in case a driver or server ever echoes it. */
function redact(text: string, password: string): string {
  return password.length >= 4 ? text.split(password).join('***') : text;
}

/**
 * Opens a mysql2 connection whose first query is led by `SET SESSION TRANSACTION READ ONLY` in the same round trip:
 * the server runs nothing after a failed statement of a multi-statement query, so no read runs in a session that is
 * not read-only, and a failed SET fails that query and every later one with a {@link MysqlConnectError} (`cannot make
 * the session read-only on host:port: …`). Rejects with a {@link MysqlConnectError} (one line: `cannot connect to
 * host:port: ECONNREFUSED`) when the server cannot be reached or refuses the login.
 *
 * Values come back as the reader expects: binary columns (VARBINARY, BLOB) as Buffers, BIGINT and DECIMAL
 * as decimal strings (no precision lost past 2^53), DATETIME and JSON as the server's text.
 */
export async function openMysqlExecutor(opts: MysqlConnectOptions): Promise<SqlExecutor> {
  const endpoint = formatEndpoint(opts.host, opts.port);
  const connectMs = budgetMs(opts);
  if (connectMs <= 0)
    throw new MysqlConnectError(`cannot connect to ${endpoint}: ${RUN_DEADLINE_PASSED}`, true, 'not-attempted');
  const tlsName = opts.ssl ? opts.ssl.servername || opts.host : '';
  let identity: ReturnType<typeof verifyIdentityOn> | null = null;
  const connectFailure = (err: unknown, timedOut: boolean): MysqlConnectError => {
    const raw = typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : '';
    const code = raw === 'HANDSHAKE_SSL_ERROR' && identity?.failureCode() ? identity.failureCode() : raw;
    const network = code !== '' && /^E[A-Z]+$/.test(code);
    const tls = opts.ssl ? tlsFailure(err, code, tlsName) : null;
    const detail = timedOut ? code || 'ETIMEDOUT' : (tls ?? (network ? code : describeSqlError(err)));
    const within = timedOut ? ` within ${formatMs(connectMs)}` : '';
    const kind = timedOut ? 'timeout' : tls !== null ? 'tls' : sqlErrorKind(err);
    return new MysqlConnectError(
      redact(`cannot connect to ${endpoint}${within}: ${detail}`, opts.password),
      timedOut,
      kind,
    );
  };

  let conn: mysql.Connection;
  try {
    conn = mysql.createConnection({
      host: opts.host,
      port: opts.port,
      user: opts.user,
      password: opts.password,
      connectTimeout: connectMs,
      charset: 'utf8mb4',
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
      jsonStrings: true,
      // The reader's statements go in one query per primary (read-only SET first); values are inlined by formatSql.
      multipleStatements: true,
      // vtpreflight never prepares a statement; mysql2's default per-connection statement cache (16,000 entries)
      // was over a quarter of the CPU at 1,024 shards, as garbage collection (bench/README.md).
      maxPreparedStatements: 1,
      // The text is sent as formatSql wrote it: mysql2's own formatter, given no values, still scanned every statement
      // for placeholders.
      queryFormat: (sql: string) => sql,
      ...tlsConnectOptions(opts),
    });
  } catch (err) {
    throw connectFailure(err, false);
  }
  if (opts.ssl) identity = verifyIdentityOn(conn, tlsName);
  // A connection without an 'error' listener would crash the process on a late network error.
  let fatal: unknown = null;
  conn.on('error', (err) => {
    fatal = err;
  });

  await new Promise<void>((resolve, reject) => {
    // mysql2's connectTimeout covers the TCP connect and the handshake; this guard covers anything else.
    const guard = setTimeout(() => {
      conn.destroy();
      reject(connectFailure({ code: 'ETIMEDOUT' }, true));
    }, connectMs + 1000);
    conn.connect((err) => {
      clearTimeout(guard);
      if (err) {
        conn.destroy();
        const code = (err as { code?: unknown }).code;
        reject(connectFailure(err, code === 'ETIMEDOUT'));
      } else if (identity !== null && !identity.checked()) {
        // TLS was asked for but the identity check never ran: never proceed unverified.
        conn.destroy();
        reject(
          new MysqlConnectError(
            `cannot connect to ${endpoint}: TLS: the server identity could not be verified`,
            false,
            'tls',
          ),
        );
      } else {
        resolve();
      }
    });
  });

  let closed = false;
  let broken: Error | null = null;
  // mysql2 keeps the handshake's server version on the connection (lib/base/connection.js `_handshakePacket`).
  const serverVersion = (conn as unknown as { _handshakePacket?: { serverVersion?: unknown } })._handshakePacket
    ?.serverVersion;
  let timeLimit = typeof serverVersion === 'string' ? statementTimeLimitSql(serverVersion, opts.timeoutMs) : null;

  /**
   * Sends one COM_QUERY of `count` statements. Resolves with the results of the statements that ran and, when one
   * failed, its error and index: the server stops a multi-statement query at its first error, and mysql2 keeps the
   * finished results of such a query (`_rows`/`_fields` up to `_resultIndex`, the failed statement's index). Should
   * that
   * ever not hold, the failure is reported without an index and the reader re-sends each statement on its own.
   */
  const runRaw = (sql: string, count: number, timeoutMs: number): Promise<SqlBatchOutcome> =>
    new Promise<SqlBatchOutcome>((resolve, reject) => {
      if (closed) return reject(Object.assign(new Error('connection already closed'), { readErrorKind: 'other' }));
      if (broken)
        return reject(
          Object.assign(new Error(`connection unusable after an earlier failure: ${broken.message}`), {
            readErrorKind: sqlErrorKind(broken),
          }),
        );
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(guard);
        fn();
      };
      const timedOut = () => {
        // mysql2 reports the timeout but keeps waiting for the answer, blocking later statements: drop the
        // connection so the reader's next statements fail fast instead of queueing behind a stuck one.
        const err = new MysqlQueryTimeoutError(timeoutMs);
        broken = err;
        conn.destroy();
        // The statements of a batch that finished before the deadline keep their answers (a stream read before a
        // lock on copy_state stays read); the rest fail with the deadline.
        finish(() => (count === 1 ? reject(err) : resolve(partialOutcome(q, err))));
      };
      const guard = setTimeout(timedOut, timeoutMs + 1000);
      let q: unknown;
      q = conn.query({ sql, timeout: timeoutMs, rowsAsArray: true }, (err, rows, fields) => {
        if (err) {
          if ((err as { code?: unknown }).code === 'PROTOCOL_SEQUENCE_TIMEOUT') return timedOut();
          if ((err as { fatal?: unknown }).fatal === true) broken = err;
          const safe = Object.assign(new Error(redact(describeSqlError(err), opts.password)), {
            code: (err as { code?: unknown }).code,
            ...(typeof (err as { errno?: unknown }).errno === 'number'
              ? { errno: (err as { errno: number }).errno }
              : {}),
          });
          if (count === 1) return finish(() => reject(safe));
          return finish(() => resolve(partialOutcome(q, safe)));
        }
        const results =
          count === 1 ? [toResult(rows, fields)] : asArray(rows).map((r, i) => toResult(r, asArray(fields)[i]));
        finish(() => resolve({ results }));
      });
    });

  // The session is made read-only by the first query itself: `SET SESSION TRANSACTION READ ONLY` leads it, in the
  // same round trip, and the server runs nothing after it when it fails.
  let readOnly = false;
  const readOnlyFailure = (err: unknown): MysqlConnectError =>
    new MysqlConnectError(
      redact(`cannot make the session read-only on ${endpoint}: ${describeSqlError(err)}`, opts.password),
      (err as { timedOut?: unknown }).timedOut === true,
      sqlErrorKind(err),
    );
  const send = async (texts: readonly string[]): Promise<SqlBatchOutcome> => {
    const lead = readOnly ? [] : [SET_READ_ONLY_SQL, ...(timeLimit === null ? [] : [timeLimit])];
    const all = [...lead, ...texts];
    const ms = budgetMs(opts);
    if (ms <= 0)
      throw Object.assign(new Error(RUN_DEADLINE_PASSED), { timedOut: true, readErrorKind: 'not-attempted' });
    const outcome = await runRaw(all.join('; '), all.length, ms);
    if (!readOnly) {
      // A deadline or a lost connection before the SET answered: that is the failure, not the SET.
      if (outcome.results.length === 0 && broken !== null) throw outcome.error?.cause ?? broken;
      if (outcome.results.length === 0) {
        // The SET failed (or mysql2 could not say which statement did): the session is not used for reading.
        broken = readOnlyFailure(outcome.error?.cause ?? new Error('no answer to the read-only SET'));
        throw broken;
      }
      readOnly = true;
      if (outcome.results.length < lead.length && timeLimit !== null) {
        // The session is read-only but refused the time limit (a server that lacks the variable): the client's
        // deadline alone bounds its statements; the batch is sent again without it.
        timeLimit = null;
        if (broken !== null) throw outcome.error?.cause ?? broken;
        return send(texts);
      }
    }
    const n = lead.length;
    return {
      results: outcome.results.slice(n),
      ...(outcome.error !== undefined
        ? {
            error: {
              cause: outcome.error.cause,
              ...(outcome.error.at !== undefined ? { at: outcome.error.at - n } : {}),
            },
          }
        : {}),
    };
  };

  return {
    ...(typeof serverVersion === 'string' ? { flavor: /mariadb/i.test(serverVersion) ? 'mariadb' : 'mysql' } : {}),
    // Values are inlined by formatSql rather than mysql2's escaper: its quoting (backslash escapes) changes
    // meaning under the NO_BACKSLASH_ESCAPES sql_mode; formatSql's does not, and matches --via vtctld exactly.
    query: async (sql: string, params: readonly SqlParam[]) => {
      const text = formatSql(sql, params);
      if (fatal && !broken) broken = fatal instanceof Error ? fatal : new Error(String(fatal));
      const outcome = await send([text]);
      if (outcome.error !== undefined) throw outcome.error.cause;
      return outcome.results[0] as SqlResult;
    },
    batch: async (batch: readonly SqlStatement[]) => {
      const texts = batch.map((st) => formatSql(st.sql, st.params));
      if (fatal && !broken) broken = fatal instanceof Error ? fatal : new Error(String(fatal));
      return send(texts);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        if (broken) {
          conn.destroy();
          return resolve();
        }
        // A polite COM_QUIT, but never wait on a dead server for longer than the deadline (nor past the run's).
        const guard = setTimeout(
          () => {
            conn.destroy();
            resolve();
          },
          Math.max(0, budgetMs(opts)),
        );
        conn.end(() => {
          clearTimeout(guard);
          resolve();
        });
      }),
  };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The finished results of a multi-statement query that stopped at an error (see `runRaw`). */
function partialOutcome(q: unknown, cause: Error): SqlBatchOutcome {
  const state = q as { _rows?: unknown; _fields?: unknown; _resultIndex?: unknown };
  const done = state._resultIndex;
  if (
    typeof done !== 'number' ||
    !Array.isArray(state._rows) ||
    !Array.isArray(state._fields) ||
    state._rows.length < done
  )
    return { results: [], error: { cause } };
  const results: SqlResult[] = [];
  for (let i = 0; i < done; i++) results.push(toResult(state._rows[i], state._fields[i]));
  return { results, error: { at: done, cause } };
}

function toResult(rows: unknown, fields: unknown): SqlResult {
  const columns = Array.isArray(fields) ? fields.map((f: { name?: unknown }) => String(f.name ?? '')) : [];
  const data: SqlValue[][] = [];
  if (Array.isArray(rows)) {
    for (const r of rows as unknown[]) {
      if (!Array.isArray(r)) continue;
      // The driver's row arrays are ours: converted in place (no copy of every row of a 65,536-stream read).
      for (let i = 0; i < r.length; i++) r[i] = toSqlValue(r[i]);
      data.push(r as SqlValue[]);
    }
  }
  return { columns, rows: data };
}

function toSqlValue(v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v) || typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') return v;
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v);
}

/**
 * Reads one primary's sidecar tables over a direct MySQL connection: opens, reads, closes. Never throws; a
 * connection failure fails every Read of the result with `what: 'connect'` and a one-line reason.
 */
export async function readSidecar(
  target: SidecarTarget,
  conn: MysqlConnectOptions,
  opts: ReadSidecarOptions = {},
): Promise<TabletSidecarRead> {
  let exec: SqlExecutor;
  try {
    exec = await openMysqlExecutor(conn);
  } catch (err) {
    const timedOut = (err as { timedOut?: unknown }).timedOut === true;
    const reason = err instanceof MysqlConnectError ? err.message : redact(describeSqlError(err), conn.password);
    return failedSidecarRead(target, {
      what: 'connect',
      where: sidecarWhere(target),
      reason,
      ...(timedOut ? { timedOut } : {}),
      kind: sqlErrorKind(err),
    });
  }
  try {
    return await readSidecarWith(exec, target, opts);
  } finally {
    await exec.close().catch(() => undefined);
  }
}

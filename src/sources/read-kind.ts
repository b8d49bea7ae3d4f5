/**
 * The kind of a read failure (`ReadError.kind`), from the codes the drivers give where the read fails: mysql2's
 * `code`/`errno`, the gRPC status vtctld answers, and the MySQL errno vtctld relays in Vitess's own error format.
 * Never from the wording of a message, which changes with server versions and languages.
 */
import { READ_ERROR_KINDS, type ReadError, type ReadErrorKind } from '../readout.js';

/** MySQL/MariaDB server error numbers (`include/mysqld_error.h`; MariaDB keeps these numbers). */
const BY_ERRNO: Readonly<Record<number, ReadErrorKind>> = {
  1040: 'too-many-connections', // ER_CON_COUNT_ERROR
  1203: 'too-many-connections', // ER_TOO_MANY_USER_CONNECTIONS
  1045: 'auth', // ER_ACCESS_DENIED_ERROR
  1251: 'auth', // ER_NOT_SUPPORTED_AUTH_MODE
  1044: 'privilege', // ER_DBACCESS_DENIED_ERROR
  1142: 'privilege', // ER_TABLEACCESS_DENIED_ERROR
  1143: 'privilege', // ER_COLUMNACCESS_DENIED_ERROR
  1227: 'privilege', // ER_SPECIFIC_ACCESS_DENIED_ERROR
  1146: 'missing-table', // ER_NO_SUCH_TABLE
  1049: 'missing-table', // ER_BAD_DB_ERROR
  1054: 'missing-column', // ER_BAD_FIELD_ERROR
  1317: 'timeout', // ER_QUERY_INTERRUPTED
  1969: 'timeout', // ER_STATEMENT_TIMEOUT (MariaDB max_statement_time)
  3024: 'timeout', // ER_QUERY_TIMEOUT (MySQL max_execution_time)
};

/** Kind of a MySQL server error number. */
export const errnoKind = (errno: number): ReadErrorKind => BY_ERRNO[errno] ?? 'sql-error';

/** mysql2's and Node's error codes that are not server errors. */
const BY_CODE: Readonly<Record<string, ReadErrorKind>> = {
  ECONNREFUSED: 'connect-refused',
  EHOSTUNREACH: 'host-unreachable',
  ENETUNREACH: 'host-unreachable',
  ENOTFOUND: 'host-unreachable',
  EAI_AGAIN: 'host-unreachable',
  ETIMEDOUT: 'timeout',
  PROTOCOL_SEQUENCE_TIMEOUT: 'timeout',
  PROTOCOL_CONNECTION_LOST: 'connection-lost',
  ECONNRESET: 'connection-lost',
  EPIPE: 'connection-lost',
};

/** True for the TLS failure codes of Node (`ERR_TLS_*`, OpenSSL's certificate codes) and mysql2 (`HANDSHAKE_*SSL*`). */
const isTlsCode = (code: string): boolean =>
  /^(ERR_TLS_|ERR_SSL_|HANDSHAKE_.*SSL|UNABLE_TO_|CERT_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code);

/**
 * Kind of an error thrown by an SQL executor (mysql2, ours over it, vtctld's): the `readErrorKind` it carries first,
 * then
 * its `errno` (a server answer), its `code` (mysql2's or Node's), a `timedOut` flag; `other` when it has none.
 */
export function sqlErrorKind(err: unknown): ReadErrorKind {
  if (typeof err !== 'object' || err === null) return 'other';
  const e = err as { readErrorKind?: unknown; errno?: unknown; code?: unknown; timedOut?: unknown };
  if (typeof e.readErrorKind === 'string' && isReadErrorKind(e.readErrorKind)) return e.readErrorKind;
  if (typeof e.code === 'string' && isTlsCode(e.code)) return 'tls';
  // Node's system errors carry a negative errno beside their code; server errors a positive one.
  if (typeof e.errno === 'number' && e.errno > 0 && !(typeof e.code === 'string' && e.code in BY_CODE))
    return errnoKind(e.errno);
  if (typeof e.code === 'string') {
    const known = BY_CODE[e.code];
    if (known !== undefined) return known;
    if (e.code.startsWith('PROTOCOL_') || e.code.startsWith('HANDSHAKE_')) return 'protocol';
  }
  if (e.timedOut === true) return 'timeout';
  return 'other';
}

/**
 * Vitess's text of a MySQL error crossing an RPC: `<message> (errno <n>) (sqlstate <s>)`, written by
 * `SQLError.Error()` "in a format that we can later parse" (`vitessio/vitess:go/mysql/sqlerror/sql_error.go:58-62`
 * @0147a052, read back there by `errExtract`): the errno, not the message, decides.
 */
const VITESS_ERRNO = /\(errno ([0-9]+)\) \(sqlstate [0-9a-zA-Z]{5}\)/;

/**
 * The topology server's NoNode text (`node doesn't exist: <path>`, go/vt/topo/errors.go:49 @v0.24.4). vtctld returns
 * topo errors as they are (e.g. `GetSrvVSchema`, go/vt/vtctl/grpcvtctldserver/server.go:2195-2197 @v0.24.4, the same
 * in v0.19.10 through v0.23.2); a topo.Error carries no gRPC status and vtctld installs no converting interceptor, so
 * grpc-go sends it as UNKNOWN with this text: a record that does not exist, not a failed read.
 */
const TOPO_NO_NODE = /^(?:UNKNOWN: )?node doesn't exist: /;

/**
 * The node a topo NoNode answer names (`UNKNOWN: node doesn't exist: /vitess/global/keyspaces/ks/VSchema`): the rest
 * of the text after {@link TOPO_NO_NODE}; null for any other answer.
 */
export function missingTopoNode(details: string): string | null {
  const prefix = TOPO_NO_NODE.exec(details)?.[0];
  return prefix === undefined ? null : details.slice(prefix.length) || null;
}

/**
 * Kind of a vtctld answer: its gRPC status name, and for UNKNOWN the topo's NoNode text ({@link TOPO_NO_NODE}) or
 * (how a tablet's MySQL error comes back through ExecuteFetchAsDBA) the MySQL errno Vitess relays in `details`.
 */
export function grpcErrorKind(code: string, details: string, timedOut = false): ReadErrorKind {
  switch (code) {
    case 'DEADLINE_EXCEEDED':
      return 'timeout';
    case 'UNAVAILABLE':
      return timedOut ? 'timeout' : 'unavailable';
    case 'UNAUTHENTICATED':
      return 'auth';
    case 'PERMISSION_DENIED':
      return 'privilege';
    case 'NOT_FOUND':
      return 'not-found';
    case 'UNIMPLEMENTED':
      return 'unimplemented';
    case 'INVALID_ARGUMENT':
      return 'refused';
  }
  if (code === 'UNKNOWN' && TOPO_NO_NODE.test(details)) return 'not-found';
  const errno = VITESS_ERRNO.exec(details)?.[1];
  if (errno !== undefined) return errnoKind(Number(errno));
  return timedOut ? 'timeout' : 'rpc-error';
}

const isReadErrorKind = (k: string): k is ReadErrorKind => (READ_ERROR_KINDS as readonly string[]).includes(k);

/**
 * The kind of a failure recorded by a vtpreflight older than `ReadError.kind` (its snapshots stay readable): from the
 * fields it had (`unavailable`, the typed gRPC `code`, `timedOut`) and, for lack of anything else, from the codes
 * its own writers put in `reason` in a fixed form: the `CODE: ` vtctld reasons began with, the `(CODE errno)` of
 * `describeSqlError`, the `: ECODE` of a refused connection, Vitess's `(errno n)`. New readouts never need this.
 */
export function legacyReadErrorKind(e: ReadError): ReadErrorKind {
  if (e.kind !== undefined) return e.kind;
  if (e.unavailable === true) return 'unimplemented';
  if (e.reason === 'not collected') return 'not-collected';
  if (/run deadline \(--deadline\) had passed/.test(e.reason)) return 'not-attempted';
  const grpc = e.code ?? /^([A-Z][A-Z_]+): /.exec(e.reason)?.[1];
  if (grpc !== undefined) return grpcErrorKind(grpc, e.reason, e.timedOut === true);
  if (/^cannot connect to \S+: TLS: /.test(e.reason)) return 'tls';
  const sql = / \(((?:ER|E|PROTOCOL|HANDSHAKE)_?[A-Z_]+)(?: ([0-9]+))?\)/.exec(e.reason);
  if (sql !== null) return sqlErrorKind({ code: sql[1], ...(sql[2] !== undefined ? { errno: Number(sql[2]) } : {}) });
  const net = /: (E[A-Z]+)$/.exec(e.reason)?.[1];
  if (net !== undefined && net in BY_CODE) return BY_CODE[net] as ReadErrorKind;
  return e.timedOut === true ? 'timeout' : 'other';
}

/** `readout` with every failed read's `kind` filled ({@link legacyReadErrorKind}); the same object if none lacks it. */
export function withReadErrorKinds<T>(readout: T): T {
  const fill = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = typeof x === 'object' && x !== null ? fill(x) : x;
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    if (o.ok === false && typeof o.error === 'object' && o.error !== null) {
      const error = o.error as ReadError;
      if (error.kind !== undefined) return v;
      // Older vtctld reasons began with the gRPC status (`UNAVAILABLE: …`) before `code` was recorded on its own.
      const code = error.code ?? (error.unavailable === true ? undefined : /^([A-Z][A-Z_]+): /.exec(error.reason)?.[1]);
      const kind = legacyReadErrorKind(error);
      const node = kind === 'not-found' && error.node === undefined ? missingTopoNode(error.reason) : null;
      return {
        ...o,
        error: { ...error, kind, ...(code !== undefined ? { code } : {}), ...(node !== null ? { node } : {}) },
      };
    }
    let out: Record<string, unknown> | null = null;
    for (const [k, x] of Object.entries(o)) {
      if (typeof x !== 'object' || x === null) continue;
      const y = fill(x);
      if (y !== x) (out ??= { ...o })[k] = y;
    }
    return out ?? v;
  };
  return fill(readout) as T;
}

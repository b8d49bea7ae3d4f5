/**
 * The MySQL error number in Vitess's text of a MySQL error that crossed an RPC: `<message> (errno <n>) (sqlstate
 * <s>)`, written by `SQLError.Error()` so that it can be parsed back (`vitessio/vitess`
 * `go/mysql/sqlerror/sql_error.go:69-77` @v0.24.4). The number, not the message, says what failed.
 */
const RELAYED_ERRNO = /\(errno ([0-9]+)\) \(sqlstate [0-9a-zA-Z]{5}\)/;

/** The errno Vitess relays in `text`, or null when the text carries none. */
export function relayedErrno(text: string): number | null {
  const m = RELAYED_ERRNO.exec(text);
  return m === null ? null : Number(m[1]);
}

/** ER_UNKNOWN_SYSTEM_VARIABLE (MySQL and MariaDB): what MariaDB answers to `SELECT @@global.super_read_only`. */
export const ER_UNKNOWN_SYSTEM_VARIABLE = 1193;

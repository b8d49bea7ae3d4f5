/**
 * What a SQL read answers and how its rows are decoded, shared by the primary reader (src/sources/sidecar.ts) and the
 * read units (src/reads/units/): result values as an executor returns them, the statement tag, and a total row
 * decoder that turns a malformed answer into a recorded failure. Pure: no I/O.
 */
import { type Read, readFailed, readOk } from '../readout.js';

/** The tag every statement starts with, so DBAs can spot vtpreflight in the processlist. */
export const SQL_TAG = '/* vtpreflight */';

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

/** Applies a row decoder to a result; a malformed row (wrong shape) is a recorded failure, not a throw. */
export function decodeRows<T>(
  what: string,
  where: string,
  res: SqlResult,
  decode: (row: Row) => T,
): Read<readonly T[]> {
  const index = new Map(res.columns.map((c, i) => [c.toLowerCase(), i] as const));
  // One cursor for every row of the result (decoders read it and keep nothing of it).
  const row: { index: ReadonlyMap<string, number>; values: readonly SqlValue[] } = { index, values: [] };
  try {
    return readOk(
      res.rows.map((values) => {
        row.values = values;
        return decode(row);
      }),
    );
  } catch (err) {
    return readFailed({ what, where, reason: `unexpected result: ${describeSqlError(err)}`, kind: 'bad-answer' });
  }
}

export interface Row {
  readonly index: ReadonlyMap<string, number>;
  readonly values: readonly SqlValue[];
}

export function cell(row: Row, name: string): SqlValue | undefined {
  const i = row.index.get(name);
  return i === undefined ? undefined : (row.values[i] ?? null);
}

export function must(row: Row, name: string): SqlValue {
  const v = cell(row, name);
  if (v === undefined) throw new Error(`column ${name} missing from the result`);
  return v;
}

/** The position of a column in the result's rows; throws as {@link must} does when it is not there. */
export function mustIndex(row: Row, name: string): number {
  const i = row.index.get(name);
  if (i === undefined) throw new Error(`column ${name} missing from the result`);
  return i;
}

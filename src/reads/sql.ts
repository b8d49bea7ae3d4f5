/**
 * What a SQL read answers and how its rows are decoded, shared by the primary reader (src/sources/sidecar.ts) and the
 * read units (src/reads/units/): result values as an executor returns them, the statement tag, and a total row
 * decoder that turns a malformed answer into a recorded failure. Pure: no I/O.
 */
import { isUtf8 } from 'node:buffer';
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

// Cell values as text and numbers.

const utf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether the bytes start with a UTF-8 byte order mark, which TextDecoder drops and Buffer's decoder keeps. */
const startsWithBom = (v: Buffer): boolean => v.length >= 3 && v[0] === 0xef && v[1] === 0xbb && v[2] === 0xbf;

/**
 * The text TextDecoder('utf-8') gives for `v` (invalid sequences become U+FFFD, a leading BOM is dropped), by
 * Buffer's decoder where it gives the same text (no leading BOM): several times cheaper per cell.
 */
function utf8Text(v: Buffer): string {
  return startsWithBom(v) ? utf8.decode(v) : v.toString('utf8');
}

/** The text a fatal TextDecoder('utf-8') gives for `v`, or null where it throws (not valid UTF-8). */
export function strictUtf8Text(v: Buffer): string | null {
  if (startsWithBom(v)) {
    try {
      return strictUtf8.decode(v);
    } catch {
      return null;
    }
  }
  return isUtf8(v) ? v.toString('utf8') : null;
}

/**
 * One copy of each short text the rows repeat (states, log types and messages, dates, workflow and database names,
 * `max_tps`): every cell arrives as its own string, and a 65,536-stream read held about 67 MB of duplicates. Bounded:
 * the table starts over when full, so a read of unique texts costs no more than before.
 */
const INTERN_MAX_LENGTH = 64;
const INTERN_MAX_ENTRIES = 8192;
let interned = new Map<string, string>();
export function intern(s: string): string {
  if (s.length > INTERN_MAX_LENGTH) return s;
  const seen = interned.get(s);
  if (seen !== undefined) return seen;
  if (interned.size >= INTERN_MAX_ENTRIES) interned = new Map();
  interned.set(s, s);
  return s;
}

/** Text of a value: binary columns are decoded as UTF-8 (invalid sequences become U+FFFD). */
export function toText(v: SqlValue): string {
  return intern(rawText(v));
}

/** {@link toText} without the intern table, for texts that are parsed and dropped (numbers). */
export function rawText(v: SqlValue): string {
  if (v === null) return '';
  if (Buffer.isBuffer(v)) return utf8Text(v);
  return String(v);
}

export function toTextOrNull(v: SqlValue): string | null {
  return v === null ? null : toText(v);
}

export function toInt(v: SqlValue): number {
  if (v === null) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const text = rawText(v).trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n)) throw new Error(`not a number: ${JSON.stringify(text.slice(0, 40))}`);
  return n;
}

/** Integer as a decimal string, exact beyond 2^53 (max_tps defaults to 9223372036854775807). */
export function toDecimal(v: SqlValue): string {
  if (v === null) return '0';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`integer ${v} arrived as an imprecise number`);
    return String(v);
  }
  const text = rawText(v).trim();
  if (!/^-?[0-9]+$/.test(text)) throw new Error(`not an integer: ${JSON.stringify(text.slice(0, 40))}`);
  return intern(text);
}

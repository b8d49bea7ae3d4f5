/**
 * Shared pieces of the GTID set implementations: the set interface, the parse error, sequence-number
 * arithmetic that stays exact up to 2^64 − 1, and faithful ports of the two Go standard-library
 * routines the upstream parsers lean on (`strconv.ParseUint`, `strings.TrimSpace`).
 *
 * Upstream: `vitessio/vitess:go/mysql/replication/gtid_set.go` (the `GTIDSet` interface).
 */
import { quoteText } from './quote.js';

/**
 * The GTID flavors Vitess encodes in a position (`Flavor/…`); mirrors `Mysql56FlavorID`, `MariadbFlavorID`,
 * `FilePosFlavorID`.
 */
export type GtidFlavor = 'MySQL56' | 'MariaDB' | 'FilePos';

/**
 * An immutable set of transactions of one flavor, mirroring Vitess's `replication.GTIDSet` interface
 * (`vitessio/vitess:go/mysql/replication/gtid_set.go`). Methods never mutate; operations between two
 * different flavors follow upstream's type-assertion rules (`contains`/`equals` are false, `union`
 * returns the receiver).
 */
export interface GtidSet {
  readonly flavor: GtidFlavor;
  /** Vitess's `String()` form: the set without the flavor prefix. */
  toString(): string;
  /** Upstream `Equal`: structural equality (for MySQL56, the same SIDs with identical interval lists). */
  equals(other: GtidSet): boolean;
  /** Upstream `Contains`: true when this set is a superset of `other` by the flavor's rules. */
  contains(other: GtidSet): boolean;
  /** Upstream `Union`. */
  union(other: GtidSet): GtidSet;
  /** The transactions of this set that `other` lacks (upstream `Difference`, MySQL56 only). */
  subtract(other: GtidSet): GtidSet;
  /** The transactions in both sets (no upstream equivalent; MySQL56 and MariaDB only). */
  intersect(other: GtidSet): GtidSet;
  /** The number of distinct transactions in the set. */
  count(): bigint;
  /** Upstream `Empty`. */
  isEmpty(): boolean;
}

/** A sequence number: a `number` while it is a safe integer, a `bigint` above 2^53 − 1 (never both for one value). */
export type Seq = number | bigint;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

/** Brings a bigint back to the canonical `Seq` form, so that `===` is value equality. */
export function canonSeq(value: bigint): Seq {
  return value <= MAX_SAFE_BIG ? Number(value) : value;
}

/** `value + 1`, exact. */
export function incSeq(value: Seq): Seq {
  return typeof value === 'number' && value < MAX_SAFE ? value + 1 : canonSeq(BigInt(value) + 1n);
}

/** `value − 1`, exact (never called with 0). */
export function decSeq(value: Seq): Seq {
  return typeof value === 'number' ? value - 1 : canonSeq(value - 1n);
}

/** `end − start + 1` as a bigint. */
export function spanLength(start: Seq, end: Seq): bigint {
  if (typeof start === 'number' && typeof end === 'number') return BigInt(end - start + 1);
  return BigInt(end) - BigInt(start) + 1n;
}

/**
 * The error every GTID and position parser throws: one line, naming the input (shortened when long),
 * the 1-based character where parsing failed, and what was expected there.
 */
export class GtidParseError extends Error {
  /** The whole text that failed to parse. */
  readonly input: string;
  /** 0-based index into `input` where the problem is, or null when it is about the text as a whole. */
  readonly index: number | null;
  /** What is wrong, without the location (e.g. `expected interval`). */
  readonly reason: string;

  constructor(what: string, input: string, index: number | null, reason: string) {
    const where = index === null ? '' : ` at character ${index + 1}`;
    super(`invalid ${what} ${quoteExcerpt(input, index ?? 0)}${where}: ${reason}`);
    this.name = 'GtidParseError';
    this.input = input;
    this.index = index;
    this.reason = reason;
  }
}

const EXCERPT_MAX = 80;
const EXCERPT_WINDOW = 60;

/**
 * Quotes `input` for an error message on one line (JSON escaping turns newlines into `\n`), keeping a
 * window around `index` when the input is too long to show whole.
 */
export function quoteExcerpt(input: string, index: number): string {
  if (input.length <= EXCERPT_MAX) return quoteText(input);
  const start = Math.max(0, Math.min(index - EXCERPT_WINDOW / 2, input.length - EXCERPT_WINDOW));
  const end = Math.min(input.length, start + EXCERPT_WINDOW);
  const head = start > 0 ? '…' : '';
  const tail = end < input.length ? '…' : '';
  const body = quoteText(input.slice(start, end)).slice(1, -1);
  return `"${head}${body}${tail}" (${input.length} characters)`;
}

/**
 * Go's `unicode.IsSpace`, which `strings.TrimSpace` uses (unlike JavaScript's `trim`, it includes U+0085 and excludes
 * U+FEFF).
 */
export function isGoSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Why a Go `strconv.ParseUint` call failed. */
export type UintError = 'syntax' | 'range';

/**
 * Go's `strconv.ParseUint(text[start:end], 10, bits)`: ASCII digits only (no sign, no underscores,
 * leading zeros allowed), at most `max`. Returns the canonical `Seq`, or why it failed.
 */
export function parseDecimalUint(text: string, start: number, end: number, max: bigint): Seq | UintError {
  if (start >= end) return 'syntax';
  let value = 0;
  let significant = start;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return 'syntax';
    if (value === 0) significant = i;
    value = value * 10 + digit;
  }
  const digits = value === 0 ? 0 : end - significant;
  if (digits <= 15) return value <= Number(max) ? value : 'range';
  // No 64-bit value has more than 20 digits; don't hand a huge run to BigInt.
  if (digits > 20) return 'range';
  const exact = BigInt(text.slice(significant, end));
  return exact > max ? 'range' : canonSeq(exact);
}

/** Largest MySQL56 sequence number: upstream parses intervals with `strconv.ParseUint(s, 10, 63)`. */
export const MAX_INT63 = (1n << 63n) - 1n;
/** Largest MariaDB sequence number (`strconv.ParseUint(s, 10, 64)` in upstream `parseMariadbGTID`). */
export const MAX_UINT64 = (1n << 64n) - 1n;
/** Largest MariaDB domain or server ID, and FilePos position (`ParseUint(…, 32)` upstream). */
export const MAX_UINT32 = (1n << 32n) - 1n;

const lower = (code: number): number => code | 0x20;

/**
 * Go's `strconv.ParseUint(s, 0, 32)`: base from the prefix (`0x` hex, `0o` or a bare leading `0`
 * octal, `0b` binary, else decimal) and underscores between digits. Upstream's FilePos parser uses it.
 */
export function parseGoUint32Base0(s: string): number | UintError {
  if (s === '') return 'syntax';
  let base = 10;
  let i = 0;
  if (s.charCodeAt(0) === 48) {
    const prefix = s.length >= 3 ? lower(s.charCodeAt(1)) : 0;
    if (prefix === 0x62) [base, i] = [2, 2];
    else if (prefix === 0x6f) [base, i] = [8, 2];
    else if (prefix === 0x78) [base, i] = [16, 2];
    else [base, i] = [8, 1];
  }
  const max = Number(MAX_UINT32);
  let value = 0;
  let underscores = false;
  for (; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code === 0x5f) {
      underscores = true;
      continue;
    }
    let digit: number;
    if (code >= 48 && code <= 57) digit = code - 48;
    else if (lower(code) >= 0x61 && lower(code) <= 0x7a) digit = lower(code) - 0x61 + 10;
    else return 'syntax';
    if (digit >= base) return 'syntax';
    value = value * base + digit;
    if (value > max) return 'range';
  }
  if (underscores && !goUnderscoreOK(s)) return 'syntax';
  return value;
}

/** Go's `strconv.underscoreOK`: underscores only between digits, or between a base prefix and a digit. */
function goUnderscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0') {
    const prefix = lower(s.charCodeAt(1));
    if (prefix === 0x62 || prefix === 0x6f || prefix === 0x78) {
      i = 2;
      saw = '0';
      hex = prefix === 0x78;
    }
  }
  for (; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (hex && lower(code) >= 0x61 && lower(code) <= 0x66)) {
      saw = '0';
      continue;
    }
    if (code === 0x5f) {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** Compares strings by Unicode code point, which is the byte order of their UTF-8 forms (Go's `<` on strings). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800–0xDFFF) encode code points above every BMP unit, so they sort last.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

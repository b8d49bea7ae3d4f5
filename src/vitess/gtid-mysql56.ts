/**
 * MySQL 5.6+ GTID sets (`uuid:1-5:7-9,uuid2:1-3`), mirroring `Mysql56GTIDSet` in
 * `vitessio/vitess:go/mysql/replication/mysql56_gtid_set.go` and `ParseSID` in `mysql56_gtid.go`.
 *
 * Like upstream, parsing sorts intervals by start but does NOT merge them: `1-5:6-10` stays two
 * intervals, duplicates stay duplicates, and `equals`/`contains` look at the intervals as stored.
 * `union` merges (for UUIDs present in both sets, as upstream does); `subtract`, `intersect` and `count`
 * work on true set contents.
 *
 * Representation, chosen for sets of 200 UUIDs × 1,000 intervals: the lower-case UUIDs in a sorted
 * array, and beside it one typed array of interval bounds per UUID, so that every set operation is a
 * linear merge and no per-transaction or per-interval object is ever allocated.
 */
import { quoteText } from './quote.js';
import { Buffer } from 'node:buffer';
import {
  GtidParseError,
  MAX_INT63,
  decSeq,
  incSeq,
  isGoSpace,
  parseDecimalUint,
  spanLength,
  type GtidSet,
  type Seq,
} from './gtid-common.js';

/**
 * Interval bounds of one server UUID, `[start0, end0, start1, end1, …]`, sorted by start. Canonical
 * form: a `Float64Array` when every bound is at most 2^53 − 1 (exact as doubles), else a `BigInt64Array`
 * (MySQL56 sequence numbers stop at 2^63 − 1, which it holds). Typed arrays keep 200,000-interval sets
 * out of the garbage collector's way.
 */
type Bounds = Float64Array | BigInt64Array;

const WHAT = 'MySQL56 GTID set';
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_SAFE_BIG = BigInt(MAX_SAFE);

/** Reads bound `i` (a number from a `Float64Array`, a bigint from a `BigInt64Array`). */
const at = (list: Bounds, i: number): Seq => list[i] as Seq;

/** A growable `Bounds`, switching to bigints the first time a bound above 2^53 − 1 arrives. */
class BoundsBuilder {
  #small: Float64Array | null;
  #big: BigInt64Array | null = null;
  #length = 0;

  constructor(capacity: number) {
    this.#small = new Float64Array(Math.max(capacity, 8));
  }

  push(start: Seq, end: Seq): void {
    const small = this.#small;
    if (small !== null && typeof start === 'number' && typeof end === 'number') {
      if (this.#length + 2 > small.length) this.#small = growSmall(small, this.#length);
      const target = this.#small as Float64Array;
      target[this.#length] = start;
      target[this.#length + 1] = end;
    } else {
      const big = this.#toBig();
      if (this.#length + 2 > big.length) this.#big = growBig(big, this.#length);
      const target = this.#big as BigInt64Array;
      target[this.#length] = BigInt(start);
      target[this.#length + 1] = BigInt(end);
    }
    this.#length += 2;
  }

  /** A copy of the bounds so far, sorted by start (stably, as upstream leaves short lists) and canonical. */
  finish(): Bounds {
    if (this.#small !== null) return sortByStart(this.#small.slice(0, this.#length));
    const big = (this.#big as BigInt64Array).slice(0, this.#length);
    for (let i = 0; i < big.length; i++) if ((big[i] as bigint) > MAX_SAFE_BIG) return sortByStart(big);
    return sortByStart(Float64Array.from(big, Number));
  }

  #toBig(): BigInt64Array {
    if (this.#big === null) {
      const small = this.#small as Float64Array;
      const big = new BigInt64Array(small.length);
      for (let i = 0; i < this.#length; i++) big[i] = BigInt(small[i] as number);
      this.#big = big;
      this.#small = null;
    }
    return this.#big;
  }
}

function growSmall(list: Float64Array, used: number): Float64Array {
  const next = new Float64Array(list.length * 2);
  next.set(list.subarray(0, used));
  return next;
}

function growBig(list: BigInt64Array, used: number): BigInt64Array {
  const next = new BigInt64Array(list.length * 2);
  next.set(list.subarray(0, used));
  return next;
}

/** The `String()` text of each set, printed once (sets are immutable). */
const TEXT = new WeakMap<Mysql56GtidSet, string>();

/**
 * An immutable MySQL56 GTID set, mirroring `Mysql56GTIDSet`
 * (`vitessio/vitess:go/mysql/replication/mysql56_gtid_set.go`). Build one with {@link parseMysql56GtidSet}.
 */
export class Mysql56GtidSet implements GtidSet {
  readonly flavor = 'MySQL56' as const;
  /** Server UUIDs, lower-case, sorted (upstream `SIDs()` order: byte order of the 16-byte SID), unique. */
  readonly #sids: readonly string[];
  /** `#lists[k]` holds the intervals of `#sids[k]`: never empty, sorted by start, canonical. */
  readonly #lists: readonly Bounds[];

  /** @internal Use {@link parseMysql56GtidSet}; the arguments must already satisfy the invariants above. */
  constructor(sids: readonly string[], lists: readonly Bounds[]) {
    this.#sids = sids;
    this.#lists = lists;
    Object.freeze(this);
  }

  /** The server UUIDs of the set, lower-case and sorted (upstream `SIDs()`). */
  uuids(): readonly string[] {
    return this.#sids;
  }

  /**
   * The intervals of one server UUID (any case) as `[start, end]` pairs, in stored order; empty when
   * the UUID is absent. Bounds are bigints so that values up to 2^63 − 1 are exact.
   */
  intervals(uuid: string): readonly (readonly [bigint, bigint])[] {
    const k = findSid(this.#sids, uuid.toLowerCase());
    if (k < 0) return [];
    const list = this.#lists[k] as Bounds;
    const out: (readonly [bigint, bigint])[] = [];
    for (let i = 0; i < list.length; i += 2) out.push([BigInt(at(list, i)), BigInt(at(list, i + 1))]);
    return out;
  }

  /** Upstream `String()`: UUIDs sorted, intervals as stored, `n` for one-transaction intervals; '' when empty. */
  toString(): string {
    let text = TEXT.get(this);
    if (text !== undefined) return text;
    const out = new TextWriter();
    for (let k = 0; k < this.#sids.length; k++) {
      if (k > 0) out.byte(0x2c);
      out.ascii(this.#sids[k] as string);
      out.intervals(this.#lists[k] as Bounds);
    }
    text = out.finish();
    TEXT.set(this, text);
    return text;
  }

  /** Upstream `Empty()`. */
  isEmpty(): boolean {
    return this.#sids.length === 0;
  }

  /**
   * Upstream `Equal`: same UUIDs with identical interval lists, so `1-5:6-10` is not equal to `1-10`
   * even though both hold the same transactions. False for another flavor.
   */
  equals(other: GtidSet): boolean {
    if (!(other instanceof Mysql56GtidSet)) return false;
    if (this.#sids.length !== other.#sids.length) return false;
    for (let k = 0; k < this.#sids.length; k++) {
      if (this.#sids[k] !== other.#sids[k]) return false;
      const mine = this.#lists[k] as Bounds;
      const theirs = other.#lists[k] as Bounds;
      // Canonical form: equal lists have the same array type.
      if (theirs.length !== mine.length || theirs.constructor !== mine.constructor) return false;
      for (let i = 0; i < mine.length; i++) if (mine[i] !== theirs[i]) return false;
    }
    return true;
  }

  /**
   * Upstream `Contains`: every interval of `other` lies inside ONE interval of this set (intervals are
   * not merged first, so `1-5:6-10` does not contain `3-7`). False for another flavor.
   */
  contains(other: GtidSet): boolean {
    if (!(other instanceof Mysql56GtidSet)) return false;
    let k = 0;
    for (let j = 0; j < other.#sids.length; j++) {
      const sid = other.#sids[j] as string;
      while (k < this.#sids.length && (this.#sids[k] as string) < sid) k++;
      if (this.#sids[k] !== sid) return false;
      const mine = this.#lists[k] as Bounds;
      const theirs = other.#lists[j] as Bounds;
      // Both lists are sorted by start, so the scan never needs to move back.
      let i = 0;
      for (let t = 0; t < theirs.length; t += 2) {
        const start = at(theirs, t);
        const end = at(theirs, t + 1);
        for (;;) {
          if (i >= mine.length) return false;
          if (at(mine, i) <= start && end <= at(mine, i + 1)) break;
          i += 2;
        }
      }
    }
    return true;
  }

  /**
   * Upstream `Union`: for UUIDs in both sets the intervals are merged (overlapping and adjacent ones
   * joined); UUIDs in only one set keep their intervals as they were. Another flavor: this set.
   */
  union(other: GtidSet): GtidSet {
    if (!(other instanceof Mysql56GtidSet)) return this;
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    return this.#zip(other, (mine, theirs) =>
      mine === null ? theirs : theirs === null ? mine : unionBounds(mine, theirs),
    );
  }

  /**
   * Upstream `Difference`: the transactions of this set that `other` lacks. Each interval of this set
   * is cut separately, so on upstream's normalized inputs the result is upstream's exactly (adjacent
   * intervals stay apart); on overlapping inputs, where upstream can keep subtracted transactions, this
   * returns the true difference. Another flavor: this set (the two name disjoint transactions).
   */
  subtract(other: GtidSet): GtidSet {
    if (!(other instanceof Mysql56GtidSet)) return this;
    if (other.isEmpty() || this.isEmpty()) return this;
    return this.#zip(other, (mine, theirs) =>
      mine === null ? null : theirs === null ? mine : subtractBounds(mine, normalizeBounds(theirs)),
    );
  }

  /**
   * The transactions in both sets, with merged intervals (no upstream equivalent). Another flavor:
   * the empty set.
   */
  intersect(other: GtidSet): GtidSet {
    if (!(other instanceof Mysql56GtidSet)) return EMPTY;
    return this.#zip(other, (mine, theirs) =>
      mine === null || theirs === null ? null : intersectBounds(normalizeBounds(mine), normalizeBounds(theirs)),
    );
  }

  /**
   * The number of distinct transactions. Upstream `Count()`/`GTIDCount` add up interval lengths as
   * stored; that is the same number unless intervals overlap, which only hand-written text produces.
   */
  count(): bigint {
    let total = 0n;
    let small = 0;
    for (const list of this.#lists) {
      const merged = normalizeBounds(list);
      if (merged instanceof BigInt64Array) {
        for (let i = 0; i < merged.length; i += 2) total += spanLength(at(merged, i), at(merged, i + 1));
        continue;
      }
      for (let i = 0; i < merged.length; i += 2) {
        const length = (merged[i + 1] as number) - (merged[i] as number) + 1;
        // Flush before the running double could pass 2^53 and round.
        if (small + length > MAX_SAFE) {
          total += BigInt(small);
          small = 0;
        }
        small += length;
      }
    }
    return total + BigInt(small);
  }

  /** Walks both sorted UUID lists at once; `combine` gets each UUID's lists (null where absent). */
  #zip(other: Mysql56GtidSet, combine: (mine: Bounds | null, theirs: Bounds | null) => Bounds | null): Mysql56GtidSet {
    const sids: string[] = [];
    const lists: Bounds[] = [];
    let i = 0;
    let j = 0;
    while (i < this.#sids.length || j < other.#sids.length) {
      const a = this.#sids[i];
      const b = other.#sids[j];
      let sid: string;
      let list: Bounds | null;
      if (b === undefined || (a !== undefined && a < b)) {
        [sid, list] = [a as string, combine(this.#lists[i++] as Bounds, null)];
      } else if (a === undefined || b < a) {
        [sid, list] = [b, combine(null, other.#lists[j++] as Bounds)];
      } else {
        [sid, list] = [a, combine(this.#lists[i++] as Bounds, other.#lists[j++] as Bounds)];
      }
      if (list !== null && list.length > 0) {
        sids.push(sid);
        lists.push(list);
      }
    }
    return sids.length === 0 ? EMPTY : new Mysql56GtidSet(sids, lists);
  }
}

const EMPTY = new Mysql56GtidSet([], []);

/** Index of `sid` in the sorted `sids`, or −1. */
function findSid(sids: readonly string[], sid: string): number {
  let low = 0;
  let high = sids.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const probe = sids[mid] as string;
    if (probe === sid) return mid;
    if (probe < sid) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** True when `start` leaves a gap after `end` (start > end + 1). */
function gapAfter(end: Seq, start: Seq): boolean {
  if (typeof end === 'number' && typeof start === 'number') return start > end + 1;
  return BigInt(start) > BigInt(end) + 1n;
}

/** Upstream's `popInterval` merge: both inputs sorted by start; output sorted, disjoint, non-adjacent. */
function unionBounds(x: Bounds, y: Bounds): Bounds {
  if (x instanceof Float64Array && y instanceof Float64Array) return unionSmall(x, y);
  const out = new BoundsBuilder(x.length + y.length);
  let i = 0;
  let j = 0;
  let curStart: Seq = 0;
  let curEnd: Seq = 0;
  let open = false;
  while (i < x.length || j < y.length) {
    let start: Seq;
    let end: Seq;
    if (j >= y.length || (i < x.length && at(x, i) <= at(y, j))) {
      start = at(x, i);
      end = at(x, i + 1);
      i += 2;
    } else {
      start = at(y, j);
      end = at(y, j + 1);
      j += 2;
    }
    if (!open) {
      [curStart, curEnd, open] = [start, end, true];
    } else if (end <= curEnd) {
      // Inside the interval being built.
    } else if (gapAfter(curEnd, start)) {
      out.push(curStart, curEnd);
      [curStart, curEnd] = [start, end];
    } else {
      curEnd = end;
    }
  }
  if (open) out.push(curStart, curEnd);
  return out.finish();
}

/** {@link unionBounds} for two lists of safe integers (the usual case), without the builder's checks. */
function unionSmall(x: Float64Array, y: Float64Array): Float64Array {
  const out = new Float64Array(x.length + y.length);
  let n = 0;
  let i = 0;
  let j = 0;
  let curStart = 0;
  let curEnd = 0;
  let open = false;
  while (i < x.length || j < y.length) {
    let start: number;
    let end: number;
    if (j >= y.length || (i < x.length && (x[i] as number) <= (y[j] as number))) {
      start = x[i] as number;
      end = x[i + 1] as number;
      i += 2;
    } else {
      start = y[j] as number;
      end = y[j + 1] as number;
      j += 2;
    }
    if (!open) {
      curStart = start;
      curEnd = end;
      open = true;
    } else if (end <= curEnd) {
      // Inside the interval being built.
    } else if (start > curEnd + 1) {
      // curEnd + 1 is exact: bounds here are at most 2^53 − 1.
      out[n++] = curStart;
      out[n++] = curEnd;
      curStart = start;
      curEnd = end;
    } else {
      curEnd = end;
    }
  }
  if (open) {
    out[n++] = curStart;
    out[n++] = curEnd;
  }
  return n === out.length ? out : out.slice(0, n);
}

/** The same transactions as sorted, disjoint, non-adjacent intervals; the input itself when it already is. */
function normalizeBounds(list: Bounds): Bounds {
  for (let i = 2; i < list.length; i += 2) {
    if (!gapAfter(at(list, i - 1), at(list, i))) return unionBounds(list, EMPTY_BOUNDS);
  }
  return list;
}

const EMPTY_BOUNDS = new Float64Array(0);

/**
 * Cuts the intervals of `merged` (normalized) out of each interval of `list` (sorted by start), in
 * order. Linear when `list` is disjoint, as every set MySQL or Vitess prints is.
 */
function subtractBounds(list: Bounds, merged: Bounds): Bounds {
  const out = new BoundsBuilder(list.length);
  let j = 0;
  for (let i = 0; i < list.length; i += 2) {
    const start = at(list, i);
    const end = at(list, i + 1);
    // Starts never decrease, so intervals of `merged` that end before this start are done for good.
    while (j < merged.length && at(merged, j + 1) < start) j += 2;
    let from: Seq | null = start;
    for (let k = j; k < merged.length && at(merged, k) <= end; k += 2) {
      const cutStart = at(merged, k);
      const cutEnd = at(merged, k + 1);
      if (cutStart > from) out.push(from, decSeq(cutStart));
      if (cutEnd >= end) {
        from = null;
        break;
      }
      from = incSeq(cutEnd);
    }
    if (from !== null) out.push(from, end);
  }
  return out.finish();
}

/** Both inputs normalized; so is the output. */
function intersectBounds(x: Bounds, y: Bounds): Bounds {
  const out = new BoundsBuilder(Math.min(x.length, y.length));
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const xStart = at(x, i);
    const yStart = at(y, j);
    const xEnd = at(x, i + 1);
    const yEnd = at(y, j + 1);
    const start = xStart >= yStart ? xStart : yStart;
    const end = xEnd <= yEnd ? xEnd : yEnd;
    if (start <= end) out.push(start, end);
    if (xEnd < yEnd) i += 2;
    else j += 2;
  }
  return out.finish();
}

/**
 * Stable sort of interval pairs by start (what upstream's `slices.SortFunc` does to short lists); a no-op when sorted.
 */
function sortByStart<T extends Bounds>(list: T): T {
  let sorted = true;
  for (let i = 2; i < list.length; i += 2) {
    if (at(list, i) < at(list, i - 2)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return list;
  const pairs = list.length / 2;
  const order = new Uint32Array(pairs);
  for (let k = 0; k < pairs; k++) order[k] = k;
  // Ties fall back to the original index, which makes the sort stable whatever the engine does.
  if (list instanceof Float64Array) {
    const starts = new Float64Array(pairs);
    for (let k = 0; k < pairs; k++) starts[k] = list[2 * k] as number;
    order.sort((x, y) => (starts[x] as number) - (starts[y] as number) || x - y);
  } else {
    order.sort((x, y) => {
      const a = list[2 * x] as bigint;
      const b = list[2 * y] as bigint;
      return a < b ? -1 : a > b ? 1 : x - y;
    });
  }
  const out = (list instanceof Float64Array ? new Float64Array(list.length) : new BigInt64Array(list.length)) as T;
  for (let k = 0; k < pairs; k++) {
    const from = 2 * (order[k] as number);
    out[2 * k] = list[from] as never;
    out[2 * k + 1] = list[from + 1] as never;
  }
  return out;
}

/** Builds ASCII text in a byte buffer: far cheaper than 400,000 string concatenations. */
class TextWriter {
  #buffer = Buffer.allocUnsafe(4096);
  #length = 0;

  byte(code: number): void {
    if (this.#length === this.#buffer.length) this.#grow(1);
    this.#buffer[this.#length++] = code;
  }

  ascii(text: string): void {
    if (this.#length + text.length > this.#buffer.length) this.#grow(text.length);
    this.#length += this.#buffer.write(text, this.#length, 'latin1');
  }

  /** Writes `:start` or `:start-end` for each interval of `list`. */
  intervals(list: Bounds): void {
    if (list instanceof BigInt64Array) {
      for (let i = 0; i < list.length; i += 2) {
        const start = list[i] as bigint;
        const end = list[i + 1] as bigint;
        this.ascii(start === end ? `:${start}` : `:${start}-${end}`);
      }
      return;
    }
    // Worst case per interval: 2 separators and 2 × 16 digits.
    if (this.#length + 34 * (list.length / 2) > this.#buffer.length) this.#grow(34 * (list.length / 2));
    const buffer = this.#buffer;
    let length = this.#length;
    for (let i = 0; i < list.length; i += 2) {
      const start = list[i] as number;
      const end = list[i + 1] as number;
      buffer[length++] = 0x3a;
      length = writeDigits(buffer, length, start);
      if (end !== start) {
        buffer[length++] = 0x2d;
        length = writeDigits(buffer, length, end);
      }
    }
    this.#length = length;
  }

  finish(): string {
    return this.#buffer.toString('latin1', 0, this.#length);
  }

  #grow(extra: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + extra));
    this.#buffer.copy(next, 0, 0, this.#length);
    this.#buffer = next;
  }
}

/** Writes the decimal digits of a safe non-negative integer at `at`; returns the index after them. */
function writeDigits(buffer: Buffer, at: number, value: number): number {
  if (value < 0x80000000) {
    // 32-bit integer arithmetic is much cheaper than double division.
    let digits = 1;
    for (let rest = value; rest >= 10; rest = (rest / 10) | 0) digits++;
    let rest = value | 0;
    for (let i = at + digits - 1; i >= at; i--) {
      const quotient = (rest / 10) | 0;
      buffer[i] = 48 + rest - quotient * 10;
      rest = quotient;
    }
    return at + digits;
  }
  return at + buffer.write(String(value), at, 'latin1');
}

const HEX_LOWER: Readonly<Record<number, true>> = Object.fromEntries(
  [...'0123456789abcdef'].map((c) => [c.charCodeAt(0), true] as const),
);

/**
 * Reads the 36-character server UUID at `text[at:at+36]` (upstream `ParseSID`: dashes at 8, 13, 18, 23,
 * hex digits of either case elsewhere) and returns it lower-case, or the offset of the first bad character.
 */
function readSid(text: string, start: number): string | number {
  let upper = false;
  for (let i = 0; i < 36; i++) {
    const code = text.charCodeAt(start + i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 0x2d) return start + i;
    } else if (HEX_LOWER[code] !== true) {
      if (code >= 0x41 && code <= 0x46) upper = true;
      else return start + i;
    }
  }
  const sid = text.slice(start, start + 36);
  // V8 makes a slice of a long string a view of it; flatten a copy so that a set does not keep its whole
  // input text alive.
  return upper ? sid.toLowerCase() : `${sid} `.slice(0, 36);
}

const TOO_BIG = 'sequence number is larger than 9223372036854775807';

/** Parsing is synchronous, so one buffer serves every call: each UUID's intervals land here first. */
let scratch: Float64Array = new Float64Array(4096);
const SCRATCH_KEEP = 1 << 22;

/** Where one occurrence of a UUID left its intervals: a slice of the parse buffer, or its own list. */
type Piece = { readonly offset: number; readonly length: number } | Bounds;

/** The pieces one after the other (as bigints if any needs them), read from the parse buffer `store`. */
function joinPieces(pieces: readonly Piece[], store: Float64Array): Bounds {
  let total = 0;
  let big = false;
  for (const piece of pieces) {
    total += piece.length;
    if (piece instanceof BigInt64Array) big = true;
  }
  const out = big ? new BigInt64Array(total) : new Float64Array(total);
  let next = 0;
  for (const piece of pieces) {
    if (isBounds(piece)) {
      for (let i = 0; i < piece.length; i++) out[next++] = (big ? BigInt(at(piece, i)) : at(piece, i)) as never;
    } else {
      for (let i = piece.offset; i < piece.offset + piece.length; i++) {
        out[next++] = (big ? BigInt(store[i] as number) : store[i]) as never;
      }
    }
  }
  return out;
}

/**
 * Parses a MySQL56 GTID set, mirroring `ParseMysql56GTIDSet`
 * (`vitessio/vitess:go/mysql/replication/mysql56_gtid_set.go`) rule for rule:
 * - `,`-separated UUID sets, each trimmed of white space (Go's `TrimSpace`, so the newlines MySQL puts
 *   after commas in `@@gtid_executed` are fine); empty ones are skipped, so `''` is the empty set;
 * - each UUID set is `uuid:interval[:interval]…`, the UUID in either case (printed lower-case);
 *   `uuid:` (no interval) and a trailing `:` are accepted, a UUID set without any `:` is not;
 * - an interval is `n` or `start-end`, decimal, 1 ≤ start ≤ 2^63 − 1; intervals whose end is below
 *   their start are dropped (MySQL does the same), and a UUID left without intervals is dropped;
 * - a UUID that repeats collects all its intervals; intervals are then sorted by start (stably) but
 *   never merged.
 *
 * @throws {GtidParseError} one line naming the character where parsing failed and why.
 */
export function parseMysql56GtidSet(text: string): Mysql56GtidSet {
  function fail(index: number, reason: string): never {
    throw new GtidParseError(WHAT, text, index, reason);
  }
  // One entry per `uuid:intervals` item that kept an interval, in input order.
  const itemSids: string[] = [];
  const itemPieces: Piece[] = [];
  // Safe-integer intervals of every UUID go to the shared `scratch` buffer, `used` entries so far.
  let used = 0;
  const n = text.length;
  let next = 0;
  while (next < n) {
    let comma = text.indexOf(',', next);
    if (comma < 0) comma = n;
    let a = next;
    let b = comma;
    next = comma + 1;
    while (a < b && isGoSpace(text.charCodeAt(a))) a++;
    while (b > a && isGoSpace(text.charCodeAt(b - 1))) b--;
    if (a === b) continue;

    const colon = text.indexOf(':', a);
    if (colon < 0 || colon >= b) fail(Math.min(a + 36, b), 'expected uuid:interval');
    if (colon - a !== 36) fail(a, 'expected a server UUID of 36 characters (8-4-4-4-12 hex digits)');
    const sid = readSid(text, a);
    if (typeof sid === 'number') fail(sid, 'invalid character in server UUID');
    // This occurrence's intervals start at `begin` in `scratch`, and move to `slow` at the first one
    // that is not a safe integer.
    const begin = used;
    let slow: BoundsBuilder | null = null;

    let p = colon + 1;
    while (p < b) {
      // Start: digits accumulate exactly in a double up to 15 of them; longer runs are redone exactly.
      let q = p;
      let start: Seq = 0;
      for (; q < b; q++) {
        const digit = text.charCodeAt(q) - 48;
        if (digit < 0 || digit > 9) break;
        start = start * 10 + digit;
      }
      if (q === p) fail(p, 'expected interval');
      if (q - p > 15) {
        const exact = parseDecimalUint(text, p, q, MAX_INT63);
        if (typeof exact === 'string') fail(p, TOO_BIG);
        start = exact;
      }
      if (start === 0) fail(p, 'interval start must be > 0');
      let end: Seq = start;
      let code = q < b ? text.charCodeAt(q) : 0x3a;
      if (code === 0x2d) {
        const r = ++q;
        let value = 0;
        for (; q < b; q++) {
          const digit = text.charCodeAt(q) - 48;
          if (digit < 0 || digit > 9) break;
          value = value * 10 + digit;
        }
        if (q === r) fail(r, 'expected interval end');
        end = value;
        if (q - r > 15) {
          const exact = parseDecimalUint(text, r, q, MAX_INT63);
          if (typeof exact === 'string') fail(r, TOO_BIG);
          end = exact;
        }
        code = q < b ? text.charCodeAt(q) : 0x3a;
      }
      if (code !== 0x3a) fail(q, `unexpected character ${quoteText(text[q] as string)} in interval`);
      p = q + 1;
      // MySQL discards an interval that ends before it starts.
      if (end < start) continue;
      if (slow === null && typeof start === 'number' && typeof end === 'number') {
        if (used + 2 > scratch.length) scratch = growSmall(scratch, used);
        scratch[used] = start;
        scratch[used + 1] = end;
        used += 2;
        continue;
      }
      if (slow === null) {
        slow = new BoundsBuilder(used - begin + 2);
        for (let k = begin; k < used; k += 2) slow.push(scratch[k] as number, scratch[k + 1] as number);
        used = begin;
      }
      slow.push(start, end);
    }
    let piece: Piece;
    if (slow !== null) piece = slow.finish();
    else if (used > begin) piece = { offset: begin, length: used - begin };
    else continue;
    itemSids.push(sid);
    itemPieces.push(piece);
  }
  const store = scratch.slice(0, used);
  // Keep the shared buffer for the next parse, unless one huge input grew it past 32 MB.
  if (scratch.length > SCRATCH_KEEP) scratch = new Float64Array(4096);
  return collect(itemSids, itemPieces, store);
}

/**
 * Groups the parsed items by UUID: sorts them by UUID (stably, so a repeated UUID's intervals keep their
 * input order before the sort by start), joins the pieces of a repeated UUID, and sorts each list by
 * start. `store` is the one copy of the parse buffer; a UUID seen once gets a view of its part of it.
 */
function collect(sids: readonly string[], pieces: readonly Piece[], store: Float64Array): Mysql56GtidSet {
  const n = sids.length;
  let order: Uint32Array | null = null;
  for (let k = 1; k < n; k++) {
    // MySQL prints UUIDs sorted and once each: then there is nothing to sort or group.
    if ((sids[k - 1] as string) >= (sids[k] as string)) {
      order = new Uint32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      order.sort((x, y) => {
        const a = sids[x] as string;
        const b = sids[y] as string;
        return a < b ? -1 : a > b ? 1 : x - y;
      });
      break;
    }
  }
  const outSids: string[] = [];
  const outLists: Bounds[] = [];
  for (let k = 0; k < n; ) {
    const first = order === null ? k : (order[k] as number);
    const sid = sids[first] as string;
    let last = k + 1;
    while (last < n && sids[order === null ? last : (order[last] as number)] === sid) last++;
    const piece = pieces[first] as Piece;
    if (last === k + 1 && !isBounds(piece)) {
      outLists.push(sortByStart(store.subarray(piece.offset, piece.offset + piece.length)));
    } else {
      const group: Piece[] = [];
      for (let i = k; i < last; i++) group.push(pieces[order === null ? i : (order[i] as number)] as Piece);
      outLists.push(sortByStart(joinPieces(group, store)));
    }
    outSids.push(sid);
    k = last;
  }
  return outSids.length === 0 ? EMPTY : new Mysql56GtidSet(outSids, outLists);
}

function isBounds(piece: Piece): piece is Bounds {
  return piece instanceof Float64Array || piece instanceof BigInt64Array;
}

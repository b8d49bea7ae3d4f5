/**
 * Key ranges and shard names, exactly as Vitess treats them.
 *
 * Upstream: `vitessio/vitess:go/vt/key/key.go` (newest: `Normalize`, `KeyRangeIntersect`,
 * `KeyRangeContainsKeyRange`, `KeyRangeEqual`, `KeyRangeString`, `ParseShardingSpec`,
 * `ParseKeyRangeParts`, `IsValidKeyRange`) and `vitessio/vitess:go/vt/topo/shard.go`
 * (`ValidateShardName`, which also runs `validateObjectName` since v16.0.2).
 *
 * Representation: a key range is `{ start, end }` holding the raw bytes of `topodata.KeyRange` as
 * lower-case hex, `''` meaning unbounded (start = minimum, end = maximum). `null` stands for a nil
 * `*topodata.KeyRange`, which Vitess treats as the full range everywhere. Bounds are kept as written
 * (`-8000` keeps `end: '8000'`, so {@link keyRangeString} prints what Vitess prints), but every
 * comparison first drops trailing zero bytes, as `key.Normalize` does: `-80` equals `-8000`, and a
 * start of `00` is the minimum.
 */
import { quoteText } from './quote.js';

/** A key range with bounds as lower-case hex; '' = unbounded. */
export interface KeyRange {
  readonly start: string;
  readonly end: string;
}

const HEX_PAIRS = /^(?:[0-9a-fA-F]{2})*$/;
const MAX_SHARD_NAME_LENGTH = 64;

function invalidShard(shardName: string, why: string): Error {
  return new Error(`invalid shard name ${quoteText(shardName)}: ${why}`);
}

/**
 * Decode a hex key-range bound the way Go's `hex.DecodeString` accepts it (even length, either case)
 * and return it lower-cased; `null` if it is not valid hex.
 */
function decodeHexBound(part: string): string | null {
  return HEX_PAIRS.test(part) ? part.toLowerCase() : null;
}

/**
 * Drop trailing zero bytes from a lower-case hex keyspace id.
 *
 * Mirrors `key.Normalize` (`vitessio/vitess:go/vt/key/key.go`): `80`, `8000` and `800000` are the
 * same bound, and `00` is the same as the empty (minimum or maximum) bound.
 */
export function normalizeKeyspaceId(hex: string): string {
  let end = hex.length;
  while (end >= 2 && hex.charCodeAt(end - 1) === 0x30 && hex.charCodeAt(end - 2) === 0x30) end -= 2;
  return end === hex.length ? hex : hex.slice(0, end);
}

/**
 * Compare two lower-case hex keyspace ids after normalization: -1, 0 or 1.
 *
 * Mirrors `key.Compare`. With two hex digits per byte and lower-case digits, comparing the hex
 * strings compares the bytes (a proper prefix sorts first, as in `bytes.Compare`).
 */
export function compareKeyspaceIds(a: string, b: string): -1 | 0 | 1 {
  const na = normalizeKeyspaceId(a);
  const nb = normalizeKeyspaceId(b);
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** True if the bound is empty after normalization (`key.Empty`). */
function isEmptyId(hex: string): boolean {
  return normalizeKeyspaceId(hex) === '';
}

/**
 * Build a {@link KeyRange} from raw bytes (for example `topodata.KeyRange.start`/`end` read from a
 * proto), as lower-case hex.
 */
export function keyRangeFromBytes(start: Uint8Array, end: Uint8Array): KeyRange {
  return { start: bytesToHex(start), end: bytesToHex(end) };
}

const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lower-case hex of a byte array, as Go's `hex.EncodeToString`. Linear, in chunks, for large inputs. */
export function bytesToHex(bytes: Uint8Array): string {
  const CHUNK = 4096;
  const chunks: string[] = [];
  const part: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const end = Math.min(bytes.length, i + CHUNK);
    part.length = 0;
    for (let j = i; j < end; j++) part.push(HEX_BYTE[bytes[j]!]!);
    chunks.push(part.join(''));
  }
  return chunks.join('');
}

/** Bytes of an even-length hex string (either case). Throws on anything else. */
export function hexToBytes(hex: string): Uint8Array {
  if (!HEX_PAIRS.test(hex)) throw new Error(`invalid hex ${quoteText(hex)}: expected an even number of hex digits`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Parse a start and an end bound given as hex (either case, even length, '' = unbounded).
 *
 * Mirrors `key.ParseKeyRangeParts`: no ordering check, no normalization.
 */
export function parseKeyRangeParts(start: string, end: string): KeyRange {
  const s = decodeHexBound(start);
  const e = decodeHexBound(end);
  if (s === null || e === null) {
    const bad = s === null ? start : end;
    throw new Error(`invalid key range bound ${quoteText(bad)}: expected an even number of hex digits`);
  }
  return { start: s, end: e };
}

/**
 * The key range a shard name stands for; `null` for a shard that is not range-based (`0`,
 * or any name without `-`), which Vitess treats as the full range.
 *
 * Mirrors `topo.ValidateShardName` (`vitessio/vitess:go/vt/topo/shard.go`): the name must be 1–64
 * characters of `[A-Za-z0-9_-]` (`validateObjectName`, v16.0.2+); a name containing `-` must have
 * exactly one, both sides must be hex with an even number of digits (either case; the result is
 * lower-case), and a non-empty end must be strictly greater than the start, compared as raw bytes
 * (not normalized, so `80-8000` is accepted although it is empty after normalization).
 * `-` gives `{ start: '', end: '' }`, a present-but-complete range as in Vitess (not `null`); every
 * function here treats it exactly like `null` (see {@link keyRangeIsComplete}).
 *
 * @throws Error with a one-line message naming the shard and the problem.
 */
export function parseKeyRange(shardName: string): KeyRange | null {
  if (typeof shardName !== 'string') throw new Error(`invalid shard name: expected a string, got ${typeof shardName}`);
  if (shardName === '') throw invalidShard(shardName, 'empty name');
  if (shardName.length > MAX_SHARD_NAME_LENGTH)
    throw invalidShard(shardName, `longer than ${MAX_SHARD_NAME_LENGTH} characters`);
  for (const ch of shardName) {
    if (!/^[A-Za-z0-9_-]$/.test(ch)) throw invalidShard(shardName, `invalid character ${quoteText(ch)}`);
  }
  if (!shardName.includes('-')) return null;
  const parts = shardName.split('-');
  if (parts.length !== 2) throw invalidShard(shardName, "can only contain one '-'");
  const [startPart = '', endPart = ''] = parts;
  const start = decodeHexBound(startPart);
  if (start === null)
    throw invalidShard(shardName, `start ${quoteText(startPart)} is not an even number of hex digits`);
  const end = decodeHexBound(endPart);
  if (end === null) throw invalidShard(shardName, `end ${quoteText(endPart)} is not an even number of hex digits`);
  // Raw byte order, as upstream: string(Start) >= string(End).
  if (end !== '' && start >= end)
    throw invalidShard(shardName, `out of order keys: ${start} is not strictly smaller than ${end}`);
  return { start, end };
}

/**
 * True if the text is a valid key-range spec: `0`, or `<hex>-<hex>` with whole bytes on each side.
 *
 * Mirrors `key.IsValidKeyRange` (pattern `^(0|([0-9a-fA-F]{2})*-([0-9a-fA-F]{2})*)$`). VReplication
 * uses it to tell a key-range rule filter (`-80`, used by Reshard) from a `select` statement.
 */
export function isKeyRangeName(text: string): boolean {
  return typeof text === 'string' && /^(?:0|(?:[0-9a-fA-F]{2})*-(?:[0-9a-fA-F]{2})*)$/.test(text);
}

/**
 * Parse a sharding spec `a-b-c-d` into the ranges `a-b`, `b-c`, `c-d`; the empty string may be the
 * first or the last bound. `0` means `-`.
 *
 * Mirrors `key.ParseShardingSpec`: bounds must be strictly increasing compared as *strings* (upstream
 * compares the hex text, so mixed case or different lengths order as text), and an empty bound may only
 * be first or last. Empty bounds give `''`.
 *
 * @throws Error with a one-line message naming the spec and the problem.
 */
export function parseShardingSpec(spec: string): KeyRange[] {
  let parts = spec.split('-');
  if (parts.length === 1) {
    if (spec !== '0') throw new Error(`malformed sharding spec ${quoteText(spec)}: doesn't define a range`);
    parts = ['', ''];
  }
  let old = parts[0] ?? '';
  const ranges: KeyRange[] = [];
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i] ?? '';
    if (p === '' && i !== parts.length - 1) {
      throw new Error(`malformed sharding spec ${quoteText(spec)}: MinKey/MaxKey cannot be in the middle of the spec`);
    }
    if (p !== '' && p <= old)
      throw new Error(`malformed sharding spec ${quoteText(spec)}: shard limits should be in order`);
    ranges.push(parseKeyRangeParts(old, p));
    old = p;
  }
  return ranges;
}

/**
 * True if the range covers the whole keyspace: `null`, or both bounds empty after normalization.
 *
 * Mirrors `key.KeyRangeIsComplete`.
 */
export function keyRangeIsComplete(kr: KeyRange | null): boolean {
  return kr === null || (isEmptyId(kr.start) && isEmptyId(kr.end));
}

/**
 * Compare the starts of two ranges (empty start = minimum): -1, 0 or 1.
 *
 * Mirrors `key.KeyRangeStartCompare`.
 */
export function keyRangeStartCompare(a: KeyRange | null, b: KeyRange | null): -1 | 0 | 1 {
  const aMin = a === null || isEmptyId(a.start);
  const bMin = b === null || isEmptyId(b.start);
  if (aMin && bMin) return 0;
  if (aMin) return -1;
  if (bMin) return 1;
  return compareKeyspaceIds(a!.start, b!.start);
}

/**
 * Compare the ends of two ranges (empty end = maximum): -1, 0 or 1.
 *
 * Mirrors `key.KeyRangeEndCompare`.
 */
export function keyRangeEndCompare(a: KeyRange | null, b: KeyRange | null): -1 | 0 | 1 {
  const aMax = a === null || isEmptyId(a.end);
  const bMax = b === null || isEmptyId(b.end);
  if (aMax && bMax) return 0;
  if (aMax) return 1;
  if (bMax) return -1;
  return compareKeyspaceIds(a!.end, b!.end);
}

/**
 * Order two ranges by start, then end: -1, 0 or 1.
 *
 * Mirrors `key.KeyRangeCompare`.
 */
export function keyRangeCompare(a: KeyRange | null, b: KeyRange | null): -1 | 0 | 1 {
  const s = keyRangeStartCompare(a, b);
  return s !== 0 ? s : keyRangeEndCompare(a, b);
}

/**
 * True if both ranges cover the same keyspace ids (`-80` equals `-8000`; `null` equals `-`).
 *
 * Mirrors `key.KeyRangeEqual`.
 */
export function keyRangeEqual(a: KeyRange | null, b: KeyRange | null): boolean {
  return keyRangeCompare(a, b) === 0;
}

/**
 * True if some keyspace id lies in both ranges. Adjacent ranges (`-80`, `80-`) do not intersect.
 *
 * Mirrors `key.KeyRangeIntersect`.
 */
export function keyRangesIntersect(a: KeyRange | null, b: KeyRange | null): boolean {
  if (keyRangeIsComplete(a) || keyRangeIsComplete(b)) return true;
  const x = a!;
  const y = b!;
  return (
    (isEmptyId(x.end) || compareKeyspaceIds(y.start, x.end) < 0) &&
    (isEmptyId(y.end) || compareKeyspaceIds(x.start, y.end) < 0)
  );
}

/**
 * True if range `a` fully contains range `b`.
 *
 * Mirrors `key.KeyRangeContainsKeyRange`.
 */
export function keyRangeContains(a: KeyRange | null, b: KeyRange | null): boolean {
  if (keyRangeIsComplete(a)) return true;
  if (keyRangeIsComplete(b)) return false;
  return keyRangeStartCompare(b, a) >= 0 && keyRangeEndCompare(b, a) <= 0;
}

/**
 * True if the keyspace id (lower-case hex) lies in the range.
 *
 * Mirrors `key.KeyRangeContains(keyRange, id)`.
 */
export function keyRangeContainsKeyspaceId(kr: KeyRange | null, id: string): boolean {
  if (keyRangeIsComplete(kr)) return true;
  const r = kr!;
  return (
    (isEmptyId(r.start) || compareKeyspaceIds(id, r.start) >= 0) &&
    (isEmptyId(r.end) || compareKeyspaceIds(id, r.end) < 0)
  );
}

/**
 * True if `a` ends exactly where `b` starts (neither is the full range).
 *
 * Mirrors `key.KeyRangeContiguous`.
 */
export function keyRangeContiguous(a: KeyRange | null, b: KeyRange | null): boolean {
  if (keyRangeIsComplete(a) || keyRangeIsComplete(b)) return false;
  return compareKeyspaceIds(a!.end, b!.start) === 0;
}

/**
 * Join two adjacent ranges (in either order) into one; `null` if they are not adjacent or either is
 * `null`.
 *
 * Mirrors `key.KeyRangeAdd` (which returns `(nil, false)` where this returns `null`).
 */
export function keyRangeAdd(a: KeyRange | null, b: KeyRange | null): KeyRange | null {
  if (a === null || b === null) return null;
  if (!isEmptyId(a.end) && compareKeyspaceIds(a.end, b.start) === 0) return { start: a.start, end: b.end };
  if (!isEmptyId(b.end) && compareKeyspaceIds(b.end, a.start) === 0) return { start: b.start, end: a.end };
  return null;
}

/**
 * The spec Vitess prints for a range: `-` for the full range, else `start-end` in lower-case hex as
 * stored (not normalized: `{ start: '', end: '8000' }` prints `-8000`).
 *
 * Mirrors `key.KeyRangeString`; this is the literal Vitess puts into filters (`in_keyrange(…, '-80')`).
 */
export function keyRangeString(kr: KeyRange | null): string {
  if (keyRangeIsComplete(kr)) return '-';
  return `${kr!.start}-${kr!.end}`;
}

const SHARD_RANGE = /^((?:[0-9a-fA-F]{2})*)-((?:[0-9a-fA-F]{2})*)$/;
const shardRanges = new Map<string, KeyRange | null>();

/**
 * The key range a shard name stands for, for ordering: like {@link parseKeyRange} but never throws; a name that is not
 * a key range (`0`, a custom name, or a malformed one) is `null`, the full range, as Vitess treats a nil `KeyRange`.
 */
function shardRangeForOrder(name: string): KeyRange | null {
  let kr = shardRanges.get(name);
  if (kr === undefined) {
    const m = SHARD_RANGE.exec(name);
    kr = m === null ? null : { start: m[1]!.toLowerCase(), end: m[2]!.toLowerCase() };
    if (shardRanges.size >= 100_000) shardRanges.clear();
    shardRanges.set(name, kr);
  }
  return kr;
}

/**
 * The one shard order of vtpreflight (model, folding, engine, checks): key-range order as Vitess sorts shards, then
 * the name in code-unit order for names that cover the same range (`-80` and `-8000`; `0` and `-`). So `-80`, `-`,
 * `80-c0`, `80-`: start ascending (unbounded first), then end ascending (unbounded last), bounds compared after
 * dropping trailing zero bytes.
 *
 * Mirrors `key.KeyRangeLess` (`vitessio/vitess:go/vt/key/key.go` `KeyRangeCompare`), which
 * `go/vt/topo/keyspace.go` `GetServingShards` ("Sort the shards by KeyRange for deterministic results") and
 * `go/vt/topo/topoproto/srvkeyspace.go` `ShardReferenceArray.Less` sort with.
 */
export function compareShardNames(a: string, b: string): number {
  if (a === b) return 0;
  return keyRangeCompare(shardRangeForOrder(a), shardRangeForOrder(b)) || (a < b ? -1 : 1);
}

/**
 * A stream's position against its upstream source shard: the source primary's executed GTID set, the
 * transactions the stream has not applied yet, and the ones it holds that the source never executed.
 *
 * Shared by `position-drift` (errant GTIDs, transactions behind) and `binlogs-purged` (gtid_purged).
 *
 * The readout is not one instant: a source's GetFullStatus and a target's `_vt.vreplication` row are read a
 * few milliseconds to seconds apart, in no guaranteed order. On a busy source a caught-up stream's `pos` may
 * therefore hold transactions newer than the executed set that was read. Those are told apart from errant
 * GTIDs by where they lie: for MySQL56, GTIDs of a server uuid the executed set knows, numbered above its
 * highest one, are "newer than the read"; anything else (an unknown uuid, a gap below the highest number) the
 * source never executed. For MariaDB, a domain the source does not have is errant; a higher sequence number in
 * a known domain is "newer than the read". This uses only the canonical string forms Vitess prints
 * (`vitessio/vitess:go/mysql/replication/mysql56_gtid_set.go` `String`, `mariadb_gtid.go` `String`).
 */
import type { FullStatusRecord } from '../readout.js';
import { parseGtidSet, parsePosition, type GtidSet, type Position } from '../vitess/position.js';
import type { ClusterModel, Stream, Tablet } from './types.js';

/** vttablet's documented default `--vreplication_tablet_type`, used when a stream's `tablet_types` is empty. */
export const DEFAULT_VREPLICATION_TABLET_TYPES = 'in_order:REPLICA,PRIMARY';

/**
 * A stream's `tablet_types` column parsed as the tablet picker does (`in_order:` hint, MASTER = PRIMARY, upper case).
 */
export function parseStreamTabletTypes(text: string): { types: string[]; inOrder: boolean } {
  const raw = text.trim() === '' ? DEFAULT_VREPLICATION_TABLET_TYPES : text.trim();
  const inOrder = /^in_order:/i.test(raw);
  const types = raw
    .replace(/^in_order:/i, '')
    .split(',')
    .map((x) => x.trim().toUpperCase())
    .filter((x) => x !== '')
    .map((x) => (x === 'MASTER' ? 'PRIMARY' : x));
  return { types, inOrder };
}

/**
 * The source tablets the tablet picker may choose for a stream (`vitessio/vitess:go/vt/discovery/tablet_picker.go`):
 * tablets of the upstream shard of the listed types, in the listed cells plus the target
 * tablet's own cell (cell aliases are not expanded: when no tablet is in the named cells, every cell counts); with
 * `in_order:` only the first type that has such tablets; with PRIMARY as the only type, the shard's primary
 * wherever it is. Health and serving state (which the picker also requires) are not in the model.
 */
export function pickerCandidates(
  model: ClusterModel,
  s: Stream,
): { tablets: Tablet[]; types: string[]; inOrder: boolean } {
  const local = model.tablet(s.tablet)?.cell;
  const external = !s.source || readsExternalSource(s);
  // The answer depends on the stream only through these; streams sharing them share it, computed once per model.
  const key = `${external ? '\u0001' : `${s.sourceKeyspace}\u0000${s.sourceShard}`}\u0000${s.tabletTypes}\u0000${s.cell}\u0000${local ?? '\u0001'}`;
  let answers = candidatesCache.get(model);
  if (answers === undefined) candidatesCache.set(model, (answers = new Map()));
  let answer = answers.get(key);
  if (answer === undefined) answers.set(key, (answer = computeCandidates(model, s, external, local)));
  // Callers get their own arrays (the cached ones stay as computed).
  return { tablets: [...answer.tablets], types: [...answer.types], inOrder: answer.inOrder };
}

const candidatesCache = new WeakMap<
  ClusterModel,
  Map<string, { tablets: Tablet[]; types: string[]; inOrder: boolean }>
>();

function computeCandidates(
  model: ClusterModel,
  s: Stream,
  external: boolean,
  local: string | undefined,
): { tablets: Tablet[]; types: string[]; inOrder: boolean } {
  const { types, inOrder } = parseStreamTabletTypes(s.tabletTypes);
  const shard = external ? undefined : model.shard(s.sourceKeyspace, s.sourceShard);
  if (!shard) return { tablets: [], types, inOrder };
  if (types.length === 1 && types[0] === 'PRIMARY') {
    const primary = shard.primaryAlias ? model.tablet(shard.primaryAlias) : undefined;
    return { tablets: primary ? [primary] : [], types, inOrder };
  }
  const cells = new Set(
    s.cell
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== ''),
  );
  if (local) cells.add(local);
  const inCells = shard.tablets.filter((t) => cells.has(t.cell));
  const pool = inCells.length > 0 ? inCells : shard.tablets;
  if (inOrder) {
    for (const type of types) {
      const ofType = pool.filter((t) => t.type === type);
      if (ofType.length > 0) return { tablets: ofType, types, inOrder };
    }
    return { tablets: [], types, inOrder };
  }
  return { tablets: pool.filter((t) => types.includes(t.type)), types, inOrder };
}

/** The longest GTID set text kept in finding details; longer ones are cut and marked. */
export const MAX_GTID_TEXT = 512;

/** Cuts a long GTID set text for details, saying so. */
export function truncateGtidText(text: string, max = MAX_GTID_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** A bigint count as a JSON-safe number (exact below 2^53, which any real transaction count is). */
export function countOf(set: GtidSet): number {
  return Number(set.count());
}

/** The `Flavor/set` text Vitess's `EncodePosition` prints. */
export function encodePosition(p: Position): string {
  return p.toString();
}

/** True when the stream reads from a source outside this cluster's topology (Migrate, external MySQL). */
export function readsExternalSource(s: Stream): boolean {
  return s.source !== null && (s.source.externalCluster !== '' || s.source.externalMysql !== '');
}

/** The upstream source shard's primary tablet, when the shard record names one that is in the tablet list. */
export function sourcePrimary(model: ClusterModel, s: Stream): Tablet | undefined {
  if (!s.source || readsExternalSource(s)) return undefined;
  const shard = model.shard(s.sourceKeyspace, s.sourceShard);
  return shard?.primaryAlias ? model.tablet(shard.primaryAlias) : undefined;
}

/** A tablet's GetFullStatus answer when it was asked for and answered. */
export function fullStatusOf(t: Tablet | undefined): FullStatusRecord | undefined {
  return t?.fullStatus?.ok ? t.fullStatus.value : undefined;
}

/** Parses a position that may or may not carry its flavor prefix; null when it is empty or does not parse. */
export function parseLoosePosition(text: string, flavorIfBare: 'MySQL56' | 'MariaDB'): Position | null {
  // Every stream of a source asks for the same primary position: each distinct text is parsed once.
  const key = `${flavorIfBare}\u0000${text}`;
  const hit = looseCache.get(key);
  if (hit !== undefined) return hit;
  const parsed = parseLoosePositionUncached(text, flavorIfBare);
  if (looseCache.size >= 100_000) looseCache.clear();
  looseCache.set(key, parsed);
  return parsed;
}

const looseCache = new Map<string, Position | null>();

function parseLoosePositionUncached(text: string, flavorIfBare: 'MySQL56' | 'MariaDB'): Position | null {
  const t = text.replace(/\s+/g, '');
  if (t === '') return null;
  try {
    return parsePosition(t.includes('/') ? t : `${flavorIfBare}/${t}`);
  } catch {
    return null;
  }
}

/**
 * Parses a GTID set that may carry a `Flavor/` prefix (GetFullStatus's gtid_purged varies); null when empty or
 * unparsable.
 */
export function parseLooseGtidSet(text: string, flavor: 'MySQL56' | 'MariaDB'): GtidSet | null {
  const key = `${flavor}\u0000${text}`;
  const hit = looseSetCache.get(key);
  if (hit !== undefined) return hit;
  const parsed = parseLooseGtidSetUncached(text, flavor);
  if (looseSetCache.size >= 100_000) looseSetCache.clear();
  looseSetCache.set(key, parsed);
  return parsed;
}

const looseSetCache = new Map<string, GtidSet | null>();

function parseLooseGtidSetUncached(text: string, flavor: 'MySQL56' | 'MariaDB'): GtidSet | null {
  const t = text.replace(/\s+/g, '');
  if (t === '') return null;
  try {
    if (t.includes('/')) {
      const p = parsePosition(t);
      return p.flavor === flavor ? p.gtidSet : null;
    }
    return parseGtidSet(t, flavor);
  } catch {
    return null;
  }
}

/** The executed GTID set of a stream's upstream source primary (`primary_status.position`), with the tablet. */
export function sourceExecuted(model: ClusterModel, s: Stream): { tablet: Tablet; executed: Position } | null {
  const tablet = sourcePrimary(model, s);
  const fs = fullStatusOf(tablet);
  if (!tablet || !fs || !s.pos || s.pos.isZero() || !s.pos.gtidSet) return null;
  const flavor = s.pos.flavor;
  if (flavor !== 'MySQL56' && flavor !== 'MariaDB') return null;
  const executed = parseLoosePosition(fs.primaryPosition, flavor);
  if (!executed || executed.flavor !== flavor || !executed.gtidSet) return null;
  return { tablet, executed };
}

interface Interval {
  readonly start: bigint;
  readonly end: bigint;
}

/** MySQL56 `String()` form → intervals per server uuid. */
function mysql56Intervals(set: GtidSet): Map<string, Interval[]> {
  const out = new Map<string, Interval[]>();
  const text = set.toString();
  if (text === '') return out;
  for (const part of text.split(',')) {
    const [sid = '', ...ranges] = part.split(':');
    const list: Interval[] = [];
    for (const r of ranges) {
      const [a = '0', b] = r.split('-');
      list.push({ start: BigInt(a), end: BigInt(b ?? a) });
    }
    out.set(sid.toLowerCase(), list);
  }
  return out;
}

/** MariaDB `String()` form → sequence per domain (and the text of each GTID). */
function mariadbDomains(set: GtidSet): Map<string, { seq: bigint; text: string }> {
  const out = new Map<string, { seq: bigint; text: string }>();
  const text = set.toString();
  if (text === '') return out;
  for (const gtid of text.split(',')) {
    const [domain = '', , seq = '0'] = gtid.split('-');
    out.set(domain, { seq: BigInt(seq), text: gtid });
  }
  return out;
}

/** What a stream's position holds that the source's executed set does not. */
export interface Unexecuted {
  /** GTIDs the source never executed (errant / foreign), as Vitess prints a set; '' when none. */
  readonly errant: string;
  readonly errantCount: number;
  /** GTIDs explained by the executed set having been read before the stream's row (not reported). */
  readonly newerThanRead: number;
}

/**
 * Splits `pos − executed` into errant GTIDs and GTIDs merely newer than the executed set that was read.
 * Returns null when the position is contained in the executed set.
 */
export function unexecuted(pos: Position, executed: Position): Unexecuted | null {
  return memoPair(unexecutedCache, pos, executed, unexecutedUncached);
}

/**
 * Results per (position, executed position) pair: positions are immutable and parsed once per distinct text, so the
 * thousands of streams sharing a position and a source compute each answer once.
 */
function memoPair<A extends object, B extends object, R>(
  cache: WeakMap<A, WeakMap<B, { r: R }>>,
  a: A,
  b: B,
  fn: (a: A, b: B) => R,
): R {
  let inner = cache.get(a);
  if (inner === undefined) cache.set(a, (inner = new WeakMap()));
  let hit = inner.get(b);
  if (hit === undefined) inner.set(b, (hit = { r: fn(a, b) }));
  return hit.r;
}

const unexecutedCache = new WeakMap<Position, WeakMap<Position, { r: Unexecuted | null }>>();
const behindCache = new WeakMap<Position, WeakMap<Position, { r: number | null }>>();

function unexecutedUncached(pos: Position, executed: Position): Unexecuted | null {
  if (!pos.gtidSet || !executed.gtidSet || executed.atLeast(pos)) return null;
  if (pos.flavor === 'MySQL56') {
    const diff = pos.gtidSet.subtract(executed.gtidSet);
    const known = mysql56Intervals(executed.gtidSet);
    const errantParts: string[] = [];
    let errantCount = 0n;
    let newer = 0n;
    for (const [sid, intervals] of mysql56Intervals(diff)) {
      const max = known.get(sid)?.reduce((m, i) => (i.end > m ? i.end : m), 0n);
      const bad: string[] = [];
      for (const i of intervals) {
        // With no GTID of this uuid executed, everything is errant; otherwise only what lies at or below the highest
        // one.
        const errantEnd = max === undefined ? i.end : i.end <= max ? i.end : max;
        if (max === undefined || i.start <= max) {
          bad.push(i.start === errantEnd ? `${i.start}` : `${i.start}-${errantEnd}`);
          errantCount += errantEnd - i.start + 1n;
        }
        const newerStart = max === undefined ? null : i.start > max ? i.start : max + 1n;
        if (newerStart !== null && newerStart <= i.end) newer += i.end - newerStart + 1n;
      }
      if (bad.length > 0) errantParts.push(`${sid}:${bad.join(':')}`);
    }
    return { errant: errantParts.join(','), errantCount: Number(errantCount), newerThanRead: Number(newer) };
  }
  if (pos.flavor === 'MariaDB') {
    const known = mariadbDomains(executed.gtidSet);
    const errant: string[] = [];
    let newer = 0n;
    for (const [domain, g] of mariadbDomains(pos.gtidSet)) {
      const k = known.get(domain);
      if (!k) errant.push(g.text);
      else if (g.seq > k.seq) newer += g.seq - k.seq;
    }
    // A missing domain's size is unknowable from one GTID: count one per domain.
    return { errant: errant.join(','), errantCount: errant.length, newerThanRead: Number(newer) };
  }
  return null;
}

/**
 * How many transactions the source executed that the stream has not applied (`count(executed − pos)`), or null
 * when it cannot be told (flavor without a difference, unparsed positions).
 */
export function transactionsBehind(pos: Position, executed: Position): number | null {
  return memoPair(behindCache, pos, executed, transactionsBehindUncached);
}

function transactionsBehindUncached(pos: Position, executed: Position): number | null {
  if (!pos.gtidSet || !executed.gtidSet || pos.flavor !== executed.flavor) return null;
  if (pos.flavor === 'MySQL56') return countOf(executed.gtidSet.subtract(pos.gtidSet));
  if (pos.flavor === 'MariaDB') {
    const mine = mariadbDomains(pos.gtidSet);
    let behind = 0n;
    for (const [domain, g] of mariadbDomains(executed.gtidSet)) {
      const m = mine.get(domain);
      behind += m ? (g.seq > m.seq ? g.seq - m.seq : 0n) : g.seq;
    }
    return Number(behind);
  }
  return null;
}

/**
 * GTID sets and replication positions, exact to Vitess (`vitessio/vitess:go/mysql/replication/`).
 *
 * A position is `<flavor>/<gtid set>` (`MySQL56/…`, `MariaDB/…`, `FilePos/…`), or '' for the zero
 * position (a stream that has not started). The per-flavor sets live in `gtid-mysql56.ts`,
 * `gtid-mariadb.ts` and `gtid-filepos.ts`; this module is the entry point the library exports.
 */
import { FilePosGtid, parseFilePosGtid } from './gtid-filepos.js';
import { MariadbGtidSet, parseMariadbGtidSet } from './gtid-mariadb.js';
import { Mysql56GtidSet, parseMysql56GtidSet } from './gtid-mysql56.js';
import { GtidParseError, type GtidFlavor, type GtidSet } from './gtid-common.js';

export { FilePosGtid, GtidParseError, MariadbGtidSet, Mysql56GtidSet };
export type { GtidFlavor, GtidSet };
export type { MariadbGtid } from './gtid-mariadb.js';

const FLAVORS: readonly GtidFlavor[] = ['MySQL56', 'MariaDB', 'FilePos'];

/**
 * Parses a GTID set of the given flavor (default `MySQL56`), without a flavor prefix. Mirrors the
 * parsers upstream registers in `gtidSetParsers`: `ParseMysql56GTIDSet` (`mysql56_gtid_set.go`),
 * `ParseMariadbGTIDSet` (`mariadb_gtid.go`), `ParseFilePosGTIDSet` (`filepos_gtid.go`), all in
 * `vitessio/vitess:go/mysql/replication/`.
 *
 * MySQL56 parsing sorts intervals but does not merge them, trims white space around each
 * `uuid:intervals` item (so MySQL's `@@gtid_executed`, with newlines after the commas, parses), accepts
 * upper-case UUIDs (printed lower-case), and reads '' as the empty set. MariaDB and FilePos text is taken
 * as is: '' is an error for both.
 *
 * @throws {GtidParseError} (an `Error`) with a one-line message naming the character at fault.
 */
export function parseGtidSet(text: string, flavor: GtidFlavor = 'MySQL56'): GtidSet {
  // Sets are immutable: each distinct text is parsed once (65,536 streams read a few thousand distinct positions).
  const cache = SET_CACHE[flavor as GtidFlavor] as Map<string, GtidSet> | undefined;
  const hit = cache?.get(text);
  if (hit !== undefined) return hit;
  const set = parseGtidSetUncached(text, flavor);
  if (cache !== undefined) remember(cache, text, set);
  return set;
}

/** Distinct texts kept per cache; past it the cache starts again (memory stays bounded on any input). */
const CACHE_LIMIT = 100_000;

const SET_CACHE: Readonly<Record<GtidFlavor, Map<string, GtidSet>>> = {
  MySQL56: new Map(),
  MariaDB: new Map(),
  FilePos: new Map(),
};
const POSITION_CACHE = new Map<string, Position>();

function remember<T>(cache: Map<string, T>, text: string, value: T): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, value);
}

function parseGtidSetUncached(text: string, flavor: GtidFlavor): GtidSet {
  if (typeof text !== 'string') {
    throw new GtidParseError('GTID set', String(text), null, `expected a string, got ${typeof text}`);
  }
  switch (flavor) {
    case 'MySQL56':
      return parseMysql56GtidSet(text);
    case 'MariaDB':
      return parseMariadbGtidSet(text);
    case 'FilePos':
      return parseFilePosGtid(text);
    default:
      throw new GtidParseError(
        'GTID set',
        text,
        null,
        `unknown GTID flavor ${JSON.stringify(String(flavor).slice(0, 40))}`,
      );
  }
}

/**
 * A replication position: a GTID set tagged with its flavor, or the zero position. Mirrors
 * `replication.Position` (`vitessio/vitess:go/mysql/replication/replication_position.go`).
 */
export interface Position {
  /** The set's flavor; '' for the zero position. */
  readonly flavor: GtidFlavor | '';
  /** null for the zero position. An empty set (`MySQL56/`) is NOT the zero position. */
  readonly gtidSet: GtidSet | null;
  /** Upstream `IsZero`. */
  isZero(): boolean;
  /** Upstream `EncodePosition`: `Flavor/set`, '' for the zero position. */
  toString(): string;
  /** Upstream `Equal`: both zero, or sets equal by {@link GtidSet.equals}. */
  equals(other: Position): boolean;
  /** Upstream `AtLeast`: `other` is zero (even when this is), or this set contains other's. */
  atLeast(other: Position): boolean;
}

class PositionValue implements Position {
  readonly flavor: GtidFlavor | '';
  constructor(readonly gtidSet: GtidSet | null) {
    this.flavor = gtidSet === null ? '' : gtidSet.flavor;
    Object.freeze(this);
  }

  isZero(): boolean {
    return this.gtidSet === null;
  }

  toString(): string {
    if (this.gtidSet === null) return '';
    let text = POSITION_TEXT.get(this);
    if (text === undefined) POSITION_TEXT.set(this, (text = `${this.gtidSet.flavor}/${this.gtidSet.toString()}`));
    return text;
  }

  equals(other: Position): boolean {
    const theirs = other?.gtidSet ?? null;
    if (this.gtidSet === null) return theirs === null;
    return theirs !== null && this.gtidSet.equals(theirs);
  }

  atLeast(other: Position): boolean {
    const theirs = other?.gtidSet ?? null;
    // Upstream: the zero position is contained in every position, even a zero one; a zero position
    // contains nothing else, not even an empty set.
    if (theirs === null) return true;
    if (this.gtidSet === null) return false;
    return this.gtidSet.contains(theirs);
  }
}

/** The zero position (upstream `Position{}`): what an empty `pos` column decodes to. */
export const ZERO_POSITION: Position = new PositionValue(null);

/** `EncodePosition` text of each position, printed once (positions are immutable). */
const POSITION_TEXT = new WeakMap<PositionValue, string>();

/** Wraps a GTID set as a position (upstream `Position{GTIDSet: set}`). */
export function positionOf(gtidSet: GtidSet): Position {
  return new PositionValue(gtidSet);
}

/**
 * Decodes `Flavor/set` text, mirroring `DecodePosition`
 * (`vitessio/vitess:go/mysql/replication/replication_position.go`): '' is the zero position; otherwise
 * the text is split at the FIRST `/` and the flavor must be exactly `MySQL56`, `MariaDB` or `FilePos`
 * (text without `/` is an error: upstream looks for a parser registered for the flavor '', and there is
 * none). Nothing is trimmed around the flavor.
 *
 * @throws {GtidParseError} (an `Error`) with a one-line message naming the character at fault.
 */
export function parsePosition(text: string): Position {
  if (typeof text !== 'string') {
    throw new GtidParseError('position', String(text), null, `expected a string, got ${typeof text}`);
  }
  if (text === '') return ZERO_POSITION;
  const hit = POSITION_CACHE.get(text);
  if (hit !== undefined) return hit;
  const slash = text.indexOf('/');
  if (slash < 0) {
    throw new GtidParseError('position', text, null, 'expected Flavor/set with flavor MySQL56, MariaDB or FilePos');
  }
  const position = decodeAs(text, text.slice(0, slash), slash + 1);
  remember(POSITION_CACHE, text, position);
  return position;
}

/**
 * Like {@link parsePosition}, but text without a `/` is a set of `defaultFlavor`. Mirrors
 * `DecodePositionDefaultFlavor` (`vitessio/vitess:go/mysql/replication/replication_position.go`);
 * useful for values such as `gtid_purged` that may come with or without the flavor prefix.
 *
 * @throws {GtidParseError} (an `Error`) with a one-line message naming the character at fault.
 */
export function parsePositionDefaultFlavor(text: string, defaultFlavor: GtidFlavor): Position {
  if (typeof text !== 'string') {
    throw new GtidParseError('position', String(text), null, `expected a string, got ${typeof text}`);
  }
  if (text === '') return ZERO_POSITION;
  const slash = text.indexOf('/');
  if (slash < 0) return decodeAs(text, defaultFlavor, 0);
  return decodeAs(text, text.slice(0, slash), slash + 1);
}

function decodeAs(text: string, flavor: string, setStart: number): Position {
  if (!(FLAVORS as readonly string[]).includes(flavor)) {
    throw new GtidParseError(
      'position',
      text,
      0,
      `unknown GTID flavor ${JSON.stringify(flavor.length > 40 ? `${flavor.slice(0, 40)}…` : flavor)} (expected MySQL56, MariaDB or FilePos)`,
    );
  }
  try {
    return new PositionValue(parseGtidSet(text.slice(setStart), flavor as GtidFlavor));
  } catch (error) {
    if (!(error instanceof GtidParseError)) throw error;
    const index = error.index === null ? null : error.index + setStart;
    throw new GtidParseError(`${flavor} position`, text, index, error.reason);
  }
}

/**
 * Upstream `Position.String()`: the set without the flavor prefix, `<nil>` for the zero position. This
 * is the form `GetWorkflows` reports stream positions in.
 */
export function positionString(position: Position): string {
  return position.gtidSet === null ? '<nil>' : position.gtidSet.toString();
}

/**
 * How many transactions of `executed` are missing from `applied` (null, the zero position, counts as
 * nothing applied). Null when the answer has no meaning: different flavors, or FilePos. For MySQL56 it
 * is the size of `executed − applied`; for MariaDB, the sum over domains of how far `applied` trails.
 * No upstream equivalent; built on `Difference` (`mysql56_gtid_set.go`).
 */
export function countBehind(executed: GtidSet, applied: GtidSet | null): bigint | null {
  if (executed.flavor === 'FilePos') return null;
  if (applied === null) return executed.count();
  if (applied.flavor !== executed.flavor) return null;
  return executed.count() - executed.intersect(applied).count();
}

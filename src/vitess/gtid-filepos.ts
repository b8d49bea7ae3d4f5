/**
 * FilePos "GTID sets" (`<binlog file>:<pos>`), mirroring `FilePosGTID` in
 * `vitessio/vitess:go/mysql/replication/filepos_gtid.go`. Used only for external sources without GTIDs.
 * A FilePos value is a point in the binlog, standing for everything up to it, not a set of transactions:
 * `subtract`, `intersect` (across flavors) and `count` have no meaning and throw.
 */
import { GtidParseError, compareCodePoints, parseGoUint32Base0, type GtidSet } from './gtid-common.js';

const WHAT = 'FilePos position';

/**
 * An immutable binlog file and position, mirroring `FilePosGTID`
 * (`vitessio/vitess:go/mysql/replication/filepos_gtid.go`). Build one with {@link parseFilePosGtid}.
 */
export class FilePosGtid implements GtidSet {
  readonly flavor = 'FilePos' as const;
  /** @internal */
  constructor(
    /** Binlog file name; any text without `:`, possibly empty. */
    readonly file: string,
    /** Byte offset in the file, below 2^32 (upstream stores a `uint32`). */
    readonly pos: number,
  ) {
    Object.freeze(this);
  }

  /** Upstream `String()`: `file:pos`, the position in decimal. */
  toString(): string {
    return `${this.file}:${this.pos}`;
  }

  /** True only for `:0` (no file, position 0), the value nothing precedes. Not taken from upstream. */
  isEmpty(): boolean {
    return this.file === '' && this.pos === 0;
  }

  /** Upstream `Equal`: same file and position. False for another flavor. */
  equals(other: GtidSet): boolean {
    return other instanceof FilePosGtid && other.file === this.file && other.pos === this.pos;
  }

  /**
   * Upstream `Contains`/`ContainsGTID`: `other` is at or before this position: an earlier file name
   * (compared as strings, as Go does) or the same file and a position not above this one. False for
   * another flavor.
   */
  contains(other: GtidSet): boolean {
    if (!(other instanceof FilePosGtid)) return false;
    const byFile = compareCodePoints(other.file, this.file);
    if (byFile !== 0) return byFile < 0;
    return other.pos <= this.pos;
  }

  /** Upstream `Union`: the later of the two; this one when it contains `other` or `other` is another flavor. */
  union(other: GtidSet): GtidSet {
    if (!(other instanceof FilePosGtid) || this.contains(other)) return this;
    return other;
  }

  /**
   * Another flavor: this position (upstream has no `Difference` here).
   *
   * @throws {Error} for two FilePos positions: the difference of two binlog points is not a position.
   */
  subtract(other: GtidSet): GtidSet {
    if (!(other instanceof FilePosGtid)) return this;
    throw new Error(
      `cannot subtract FilePos position "${other}" from "${this}": FilePos positions are points, not sets`,
    );
  }

  /**
   * The earlier of two FilePos positions.
   *
   * @throws {Error} for another flavor: a FilePos position has no empty value.
   */
  intersect(other: GtidSet): GtidSet {
    if (!(other instanceof FilePosGtid)) {
      throw new Error(`cannot intersect FilePos position "${this}" with a ${other?.flavor ?? String(other)} GTID set`);
    }
    return this.contains(other) ? other : this;
  }

  /** @throws {Error} always: a binlog offset does not say how many transactions precede it. */
  count(): bigint {
    throw new Error(`cannot count the transactions of FilePos position "${this}": it is a binlog offset`);
  }
}

/**
 * Parses `file:pos`, mirroring `ParseFilePosGTIDSet` / `parseFilePosGTID`
 * (`vitessio/vitess:go/mysql/replication/filepos_gtid.go`): exactly one `:`; the file is everything
 * before it (may be empty, nothing is trimmed); the position is read with Go's `strconv.ParseUint(s, 0,
 * 32)`, so `0x1f`, `0o17`, `0b11` and `1_000` are accepted and a leading `0` means octal (`010` is 8,
 * `08` is an error). `toString()` prints the position in decimal.
 *
 * @throws {GtidParseError} one line naming the character where parsing failed and why.
 */
export function parseFilePosGtid(text: string): FilePosGtid {
  const colon = text.indexOf(':');
  if (colon < 0) throw new GtidParseError(WHAT, text, text.length, 'expected file:pos');
  const second = text.indexOf(':', colon + 1);
  if (second >= 0) throw new GtidParseError(WHAT, text, second, 'expected file:pos (more than one ":")');
  const pos = parseGoUint32Base0(text.slice(colon + 1));
  if (typeof pos === 'string') {
    const reason =
      pos === 'range' ? 'pos is larger than 4294967295' : 'expected pos to be an unsigned integer (Go syntax)';
    throw new GtidParseError(WHAT, text, colon + 1, reason);
  }
  return new FilePosGtid(text.slice(0, colon), pos);
}

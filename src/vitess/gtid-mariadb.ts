/**
 * MariaDB GTID sets (`domain-server-sequence,…`), mirroring `MariadbGTID` and `MariadbGTIDSet` in
 * `vitessio/vitess:go/mysql/replication/mariadb_gtid.go`: at most one GTID per replication domain,
 * standing for every transaction of that domain up to its sequence number.
 */
import {
  GtidParseError,
  MAX_UINT32,
  MAX_UINT64,
  incSeq,
  parseDecimalUint,
  type GtidSet,
  type Seq,
} from './gtid-common.js';

const WHAT = 'MariaDB GTID set';

/** One MariaDB GTID, mirroring `MariadbGTID`: 32-bit domain and server IDs, 64-bit sequence number. */
export interface MariadbGtid {
  readonly domain: number;
  readonly server: number;
  /** A `number` up to 2^53 − 1, a `bigint` above. */
  readonly sequence: Seq;
}

/**
 * An immutable MariaDB GTID set, mirroring `MariadbGTIDSet` (`map[domain]MariadbGTID`,
 * `vitessio/vitess:go/mysql/replication/mariadb_gtid.go`). Build one with {@link parseMariadbGtidSet}.
 */
export class MariadbGtidSet implements GtidSet {
  readonly flavor = 'MariaDB' as const;
  readonly #gtids: ReadonlyMap<number, MariadbGtid>;

  /** @internal */
  constructor(gtids: ReadonlyMap<number, MariadbGtid>) {
    this.#gtids = gtids;
    Object.freeze(this);
  }

  /** The GTIDs, one per domain, sorted by domain. */
  gtids(): readonly MariadbGtid[] {
    return [...this.#gtids.values()].sort((a, b) => a.domain - b.domain);
  }

  /** Upstream `String()`: `domain-server-sequence` per domain, sorted by domain, joined by `,`. */
  toString(): string {
    return this.gtids()
      .map((g) => `${g.domain}-${g.server}-${g.sequence}`)
      .join(',');
  }

  /** Upstream `Empty()`: no domain at all (parsing never yields one; set operations can). */
  isEmpty(): boolean {
    return this.#gtids.size === 0;
  }

  /** Upstream `Equal`: the same domains with the same server ID and sequence number each. False for another flavor. */
  equals(other: GtidSet): boolean {
    if (!(other instanceof MariadbGtidSet)) return false;
    if (this.#gtids.size !== other.#gtids.size) return false;
    for (const [domain, mine] of this.#gtids) {
      const theirs = other.#gtids.get(domain);
      if (theirs === undefined || theirs.server !== mine.server || theirs.sequence !== mine.sequence) return false;
    }
    return true;
  }

  /**
   * Upstream `Contains`: for every domain of `other`, this set has the domain with a sequence number
   * at least as high; server IDs are ignored. False for another flavor.
   */
  contains(other: GtidSet): boolean {
    if (!(other instanceof MariadbGtidSet)) return false;
    for (const [domain, theirs] of other.#gtids) {
      const mine = this.#gtids.get(domain);
      if (mine === undefined || mine.sequence < theirs.sequence) return false;
    }
    return true;
  }

  /**
   * Upstream `Union`: per domain, the GTID with the higher sequence number (this set's on a tie).
   * Another flavor: this set.
   */
  union(other: GtidSet): GtidSet {
    if (!(other instanceof MariadbGtidSet)) return this;
    const out = new Map(this.#gtids);
    for (const [domain, theirs] of other.#gtids) {
      const mine = out.get(domain);
      if (mine === undefined || theirs.sequence > mine.sequence) out.set(domain, theirs);
    }
    return new MariadbGtidSet(out);
  }

  /**
   * The transactions of this set that `other` lacks, when a MariaDB set can express them: domains
   * `other` lacks stay, domains it covers go. Upstream has no `Difference` for this flavor.
   *
   * @throws {Error} when `other` holds part of a domain (e.g. `0-1-100` minus `0-1-50` leaves 51–100).
   */
  subtract(other: GtidSet): GtidSet {
    if (!(other instanceof MariadbGtidSet)) return this;
    const out = new Map<number, MariadbGtid>();
    for (const [domain, mine] of this.#gtids) {
      const theirs = other.#gtids.get(domain);
      if (theirs === undefined) out.set(domain, mine);
      else if (theirs.sequence < mine.sequence) {
        throw new Error(
          `cannot subtract MariaDB GTID set "${other}" from "${this}": what remains of domain ${domain} (sequence numbers ${incSeq(theirs.sequence)} to ${mine.sequence}) is not a MariaDB GTID set`,
        );
      }
    }
    return new MariadbGtidSet(out);
  }

  /**
   * Per domain present in both, the GTID with the lower sequence number (this set's on a tie). Another flavor: the
   * empty set.
   */
  intersect(other: GtidSet): GtidSet {
    const out = new Map<number, MariadbGtid>();
    if (other instanceof MariadbGtidSet) {
      for (const [domain, mine] of this.#gtids) {
        const theirs = other.#gtids.get(domain);
        if (theirs !== undefined) out.set(domain, theirs.sequence < mine.sequence ? theirs : mine);
      }
    }
    return new MariadbGtidSet(out);
  }

  /** The transactions the set stands for: the sum over domains of the sequence numbers (no upstream equivalent). */
  count(): bigint {
    let total = 0n;
    for (const gtid of this.#gtids.values()) total += BigInt(gtid.sequence);
    return total;
  }
}

/**
 * Parses a MariaDB GTID set, mirroring `ParseMariadbGTIDSet` / `parseMariadbGTID`
 * (`vitessio/vitess:go/mysql/replication/mariadb_gtid.go`): `,`-separated `domain-server-sequence`
 * GTIDs, decimal, domain and server below 2^32, sequence below 2^64. Nothing is trimmed and no part may
 * be empty, so `''`, a trailing `,` and spaces are errors, as upstream. When a domain repeats, the LAST
 * GTID for it wins, even with a lower sequence number (upstream assigns, it does not take the maximum).
 *
 * @throws {GtidParseError} one line naming the character where parsing failed and why.
 */
export function parseMariadbGtidSet(text: string): MariadbGtidSet {
  function fail(index: number, reason: string): never {
    throw new GtidParseError(WHAT, text, index, reason);
  }
  const gtids = new Map<number, MariadbGtid>();
  let a = 0;
  for (;;) {
    let b = text.indexOf(',', a);
    if (b < 0) b = text.length;
    const dash1 = text.indexOf('-', a);
    const dash2 = dash1 < 0 || dash1 >= b ? -1 : text.indexOf('-', dash1 + 1);
    if (dash2 < 0 || dash2 >= b) fail(a, 'expected domain-server-sequence');
    const dash3 = text.indexOf('-', dash2 + 1);
    if (dash3 >= 0 && dash3 < b) fail(dash3, 'expected domain-server-sequence (too many "-")');
    const domain = parseDecimalUint(text, a, dash1, MAX_UINT32);
    if (typeof domain === 'string') fail(a, 'domain ID is not a 32-bit unsigned decimal integer');
    const server = parseDecimalUint(text, dash1 + 1, dash2, MAX_UINT32);
    if (typeof server === 'string') fail(dash1 + 1, 'server ID is not a 32-bit unsigned decimal integer');
    const sequence = parseDecimalUint(text, dash2 + 1, b, MAX_UINT64);
    if (typeof sequence === 'string') fail(dash2 + 1, 'sequence number is not a 64-bit unsigned decimal integer');
    const gtid = { domain: domain as number, server: server as number, sequence: sequence as Seq };
    gtids.set(gtid.domain, Object.freeze(gtid));
    if (b === text.length) break;
    a = b + 1;
  }
  return new MariadbGtidSet(gtids);
}

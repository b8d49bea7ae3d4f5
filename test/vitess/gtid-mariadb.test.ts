import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type MariadbGtidSet, parseGtidSet, type GtidSet } from '../../src/vitess/position.js';

const maria = (text: string): MariadbGtidSet => parseGtidSet(text, 'MariaDB') as MariadbGtidSet;

/**
 * A set from upstream's literal `MariadbGTIDSet{d: MariadbGTID{Domain: d, Server: s, Sequence: q}, …}`, as `d-s-q`
 * triples.
 */
const set = (...gtids: [number, number, number | bigint][]): MariadbGtidSet =>
  maria(gtids.map(([d, s, q]) => `${d}-${s}-${q}`).join(','));

// Ported from vitessio/vitess:go/mysql/replication/mariadb_gtid_test.go TestParseMariaGTID,
// TestParseMariaGTIDSet and TestMariaGTIDSetString.
describe('parse and print MariaDB GTID sets (upstream TestParseMariaGTID, TestParseMariaGTIDSet, TestMariaGTIDSetString)', () => {
  it('one GTID', () => {
    assert.deepEqual(maria('12-345-6789').gtids(), [{ domain: 12, server: 345, sequence: 6789 }]);
  });
  it('several domains', () => {
    const got = maria('12-34-5678,11-22-3333');
    assert.equal(got.equals(set([12, 34, 5678], [11, 22, 3333])), true);
    assert.deepEqual(got.gtids(), [
      { domain: 11, server: 22, sequence: 3333 },
      { domain: 12, server: 34, sequence: 5678 },
    ]);
  });
  it('prints domains sorted', () => {
    assert.equal(
      set([5, 4727, 1737373], [3, 4321, 9876], [1, 1234, 5678]).toString(),
      '1-1234-5678,3-4321-9876,5-4727-1737373',
    );
    assert.equal(maria('5-4727-1737373').toString(), '5-4727-1737373');
  });
  it('flavor is MariaDB (upstream TestMariaGTIDFlavor)', () => assert.equal(maria('1-2-123').flavor, 'MariaDB'));
});

// Ported from mariadb_gtid_test.go TestParseInvalidMariaGTID, …InvalidDomain, …InvalidServer,
// …InvalidSequence and TestParseInvalidMariaGTIDSet.
describe('reject invalid MariaDB GTID sets (upstream TestParseInvalidMariaGTID…)', () => {
  const table: [string, RegExp][] = [
    ['12345', /expected domain-server-sequence/],
    ['1x-33-142', /domain ID/],
    ['1-2c3-142', /server ID/],
    ['1-33-a142', /sequence number/],
    ['12-34-5678,11-22-33e33', /sequence number/],
  ];
  for (const [input, want] of table) {
    it(input, () => assert.throws(() => maria(input), want));
  }
});

// Decisions checked against upstream's parseMariadbGTIDSet / parseMariadbGTID.
describe('MariaDB parsing rules mirror upstream', () => {
  it('a repeated domain keeps the LAST GTID, even a lower one (upstream assigns per domain)', () => {
    assert.equal(maria('0-1-100,0-2-5').toString(), '0-2-5');
    assert.equal(maria('0-2-5,0-1-100').toString(), '0-1-100');
  });
  it('nothing is trimmed and nothing may be empty', () => {
    for (const input of ['', ',', '0-1-2,', ',0-1-2', '0-1-2, 1-2-3', ' 0-1-2', '0-1-2\n', '0--2', '-1-2', '0-1-']) {
      assert.throws(() => maria(input), /invalid MariaDB GTID set/, JSON.stringify(input));
    }
  });
  it('too many dashes', () => assert.throws(() => maria('0-1-2-3'), /at character 6: expected domain-server-sequence/));
  it('32-bit domain and server IDs, 64-bit sequence numbers', () => {
    assert.equal(
      maria('4294967295-4294967295-18446744073709551615').toString(),
      '4294967295-4294967295-18446744073709551615',
    );
    assert.throws(() => maria('4294967296-1-1'), /domain ID/);
    assert.throws(() => maria('1-4294967296-1'), /server ID/);
    assert.throws(() => maria('1-1-18446744073709551616'), /sequence number/);
    assert.throws(() => maria('+1-1-1'), /domain ID/);
  });
  it('leading zeros are accepted and dropped', () => assert.equal(maria('00-01-0002').toString(), '0-1-2'));
});

// Ported from mariadb_gtid_test.go TestMariaGTIDSetContains… (the GTIDSet cases).
describe('contains (upstream TestMariaGTIDSetContains…)', () => {
  const table: [string, MariadbGtidSet, MariadbGtidSet, boolean][] = [
    ['Less', set([5, 4727, 300]), set([5, 4727, 700]), false],
    ['Greater', set([5, 4727, 9000]), set([5, 5555, 100]), true],
    ['Equal', set([1, 4321, 100], [5, 4727, 1234]), set([1, 4321, 100], [5, 4727, 1234]), true],
    ['MultipleContainsLess', set([4, 1, 123], [5, 5, 24601]), set([4, 1, 124]), false],
    ['MultipleContainsGreater', set([4, 1, 123], [5, 5, 24601]), set([4, 2, 122]), true],
    ['MultipleContainsMultipleGreater', set([4, 1, 123], [5, 5, 24601]), set([4, 1, 122], [5, 4, 1999]), true],
    ['MultipleContainsOneLess', set([4, 1, 123], [5, 5, 24601]), set([4, 1, 122], [5, 4, 24602]), false],
    ['SingleContainsMultiple', set([4, 1, 123]), set([4, 1, 122], [5, 4, 24602]), false],
    ['DifferentDomain', set([3, 4727, 1235]), set([5, 4727, 1234]), false],
    ['DifferentServer', set([3, 4727, 1235]), set([3, 5555, 1234]), true],
  ];
  for (const [name, a, b, want] of table) it(name, () => assert.equal(a.contains(b), want));
  it('ConcreteNil: an empty MariaDB set is contained', () => {
    assert.equal(set([1, 2, 123]).contains(set([1, 2, 123]).intersect(parseGtidSet('', 'MySQL56'))), true);
  });
  it('WrongType: another flavor is not contained', () => {
    assert.equal(set([5, 4727, 1234]).contains(parseGtidSet('', 'MySQL56')), false);
  });
});

// Ported from mariadb_gtid_test.go TestMariaGTIDSetEqual, …NotEqual, …NotEqualDifferentDomain,
// …NotEqualExtraDomain, …EqualWrongType.
describe('equals (upstream TestMariaGTIDSetEqual…)', () => {
  const table: [string, MariadbGtidSet, GtidSet, boolean][] = [
    ['Equal', set([1, 1234, 5678], [3, 5555, 1234]), set([1, 1234, 5678], [3, 5555, 1234]), true],
    ['NotEqual', set([3, 5555, 1234], [4, 4555, 1234]), set([3, 4555, 1234], [4, 4555, 1234]), false],
    ['NotEqualDifferentDomain', set([3, 5555, 1234], [4, 4555, 1234]), set([3, 5555, 1234], [5, 4555, 1234]), false],
    ['NotEqualExtraDomain', set([3, 5555, 1234]), set([3, 5555, 1234], [4, 4555, 1234]), false],
    ['EqualWrongType', set([3, 5555, 1234]), parseGtidSet('f:1', 'FilePos'), false],
  ];
  for (const [name, a, b, want] of table) it(name, () => assert.equal(a.equals(b), want));
});

// Ported from mariadb_gtid_test.go TestMariaGTIDSetUnion and TestMariaGTIDSetUnionNewDomain, plus the
// AddGTID cases (…AddGTIDEqual, …Greater, …Less, …DifferentServer, …DifferentDomain) as unions with one GTID.
describe('union (upstream TestMariaGTIDSetUnion, TestMariaGTIDSetAddGTID…)', () => {
  it('Union', () => {
    const got = set([3, 1, 1], [4, 1, 2], [5, 1, 3]).union(set([3, 1, 2], [4, 1, 1], [5, 1, 4]));
    assert.equal(got.equals(set([3, 1, 2], [4, 1, 2], [5, 1, 4])), true);
  });
  it('UnionNewDomain, sorted by domain', () => {
    const got = set([3, 1, 1], [4, 1, 2], [5, 1, 3]).union(set([3, 1, 2], [4, 1, 1], [5, 1, 4], [6, 1, 7]));
    assert.equal(got.equals(set([3, 1, 2], [4, 1, 2], [5, 1, 4], [6, 1, 7])), true);
    assert.equal(got.toString(), '3-1-2,4-1-2,5-1-4,6-1-7');
  });
  const add: [string, MariadbGtidSet, MariadbGtidSet, MariadbGtidSet][] = [
    ['AddGTIDEqual', set([3, 5555, 1234]), set([3, 5555, 1234]), set([3, 5555, 1234])],
    ['AddGTIDGreater', set([3, 5555, 5234]), set([3, 5555, 1234]), set([3, 5555, 5234])],
    ['AddGTIDLess', set([3, 5555, 1234]), set([3, 5555, 5234]), set([3, 5555, 5234])],
    ['AddGTIDDifferentServer', set([3, 5555, 1234]), set([3, 4444, 5234]), set([3, 4444, 5234])],
    ['AddGTIDDifferentDomain', set([3, 5555, 1234]), set([5, 5555, 5234]), set([3, 5555, 1234], [5, 5555, 5234])],
  ];
  for (const [name, a, b, want] of add) it(name, () => assert.equal(a.union(b).equals(want), true));
  it('ties keep the receiver’s server ID', () =>
    assert.equal(
      set([3, 1, 9])
        .union(set([3, 2, 9]))
        .toString(),
      '3-1-9',
    ));
  it('another flavor: the receiver', () => {
    const a = set([3, 1, 9]);
    assert.equal(a.union(parseGtidSet('', 'MySQL56')), a);
  });
});

describe('subtract, intersect and count (vtpreflight extensions)', () => {
  it('count is the sum of sequence numbers, exact beyond 2^53', () => {
    assert.equal(set([0, 1, 100], [1, 2, 5]).count(), 105n);
    assert.equal(maria('0-1-18446744073709551615,1-1-18446744073709551615').count(), 2n * 18446744073709551615n);
  });
  it('intersect takes the lower sequence per shared domain', () => {
    assert.equal(
      set([0, 1, 100], [1, 2, 5])
        .intersect(set([0, 3, 50], [2, 2, 5]))
        .toString(),
      '0-3-50',
    );
  });
  it('subtract drops covered domains and keeps the others', () => {
    assert.equal(
      set([0, 1, 100], [1, 2, 5])
        .subtract(set([0, 3, 100]))
        .toString(),
      '1-2-5',
    );
    assert.equal(
      set([0, 1, 100])
        .subtract(set([0, 3, 200]))
        .isEmpty(),
      true,
    );
  });
  it('subtract throws when the rest of a domain is not a MariaDB set', () => {
    assert.throws(
      () => set([0, 1, 100]).subtract(set([0, 1, 50])),
      /domain 0 \(sequence numbers 51 to 100\) is not a MariaDB GTID set/,
    );
  });
  it('sequence numbers above 2^53 compare exactly', () => {
    const a = maria('0-1-9007199254740993');
    const b = maria('0-1-9007199254740992');
    assert.equal(a.contains(b), true);
    assert.equal(b.contains(a), false);
    assert.equal(a.equals(b), false);
  });
});

// Properties over a small universe of 3 domains.
const gtidArb = fc.tuple(
  fc.integer({ min: 0, max: 2 }),
  fc.integer({ min: 0, max: 3 }),
  fc.oneof(fc.bigInt({ min: 0n, max: 30n }), fc.bigInt({ min: 18446744073709551600n, max: 18446744073709551615n })),
);
const setArb = fc
  .array(gtidArb, { minLength: 1, maxLength: 5 })
  .map((gtids) => maria(gtids.map(([d, s, q]) => `${d}-${s}-${q}`).join(',')));
const runs = { numRuns: 300 };

describe('properties', () => {
  it('parse(toString(x)) round-trips', () => {
    fc.assert(
      fc.property(setArb, (a) => maria(a.toString()).equals(a)),
      runs,
    );
  });
  it('a ∪ b contains a and b; contains is reflexive', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => a.union(b).contains(a) && a.union(b).contains(b) && a.contains(a)),
      runs,
    );
  });
  it('count(a ∪ b) = count(a) + count(b) − count(a ∩ b)', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => a.union(b).count() === a.count() + b.count() - a.intersect(b).count()),
      runs,
    );
  });
  it('contains is transitive', () => {
    fc.assert(
      fc.property(setArb, setArb, setArb, (a, b, c) => !(a.contains(b) && b.contains(c)) || a.contains(c)),
      runs,
    );
  });
  it('equals implies mutual containment', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => !a.equals(b) || (a.contains(b) && b.contains(a))),
      runs,
    );
  });
  it('a − b, when defined, is disjoint from b and inside a', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => {
        let rest: GtidSet;
        try {
          rest = a.subtract(b);
        } catch {
          return !b.contains(a);
        }
        return rest.intersect(b).isEmpty() && a.contains(rest);
      }),
      runs,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type FilePosGtid, parseGtidSet } from '../../src/vitess/position.js';

const filePos = (text: string): FilePosGtid => parseGtidSet(text, 'FilePos') as FilePosGtid;

// Ported from vitessio/vitess:go/mysql/replication/filepos_gtid_test.go Test_filePosGTID_String.
describe('String() (upstream Test_filePosGTID_String)', () => {
  it('formats gtid correctly', () => {
    const gtid = filePos('mysql-bin.166031:192394');
    assert.equal(gtid.toString(), 'mysql-bin.166031:192394');
    assert.equal(gtid.file, 'mysql-bin.166031');
    assert.equal(gtid.pos, 192394);
    assert.equal(gtid.flavor, 'FilePos');
  });
});

// Ported from filepos_gtid_test.go Test_filePosGTID_ContainsGTID.
describe('contains (upstream Test_filePosGTID_ContainsGTID)', () => {
  const table: [string, string, string, boolean][] = [
    ['returns true when the position is equal', 'testfile:1234', 'testfile:1234', true],
    ['returns true when the position is less than equal', 'testfile:1234', 'testfile:1233', true],
    ['returns false when the position is less than equal', 'testfile:1234', 'testfile:1235', false],
    [
      'it uses integer value for comparison (it is not lexicographical order)',
      'testfile:99761227',
      'testfile:103939867',
      false,
    ],
    ['an earlier file is contained whatever its position', 'mysql-bin.000002:4', 'mysql-bin.000001:99999', true],
    ['a later file is not contained', 'mysql-bin.000001:99999', 'mysql-bin.000002:4', false],
  ];
  for (const [name, gtid, other, want] of table)
    it(name, () => assert.equal(filePos(gtid).contains(filePos(other)), want));
  it('another flavor is not contained', () => assert.equal(filePos('f:1').contains(parseGtidSet('')), false));
  it('file names compare by code point, like Go strings', () => {
    // U+FF5E is below U+1F600 as a code point, though above its UTF-16 surrogates.
    assert.equal(filePos('\u{1F600}:1').contains(filePos('\uFF5E:9')), true);
    assert.equal(filePos('\uFF5E:9').contains(filePos('\u{1F600}:1')), false);
  });
});

// Decisions checked against upstream's parseFilePosGTID (strings.Split on ":" + strconv.ParseUint(pos, 0, 32)).
describe('parsing mirrors upstream parseFilePosGTID', () => {
  const accepted: [string, string][] = [
    ['mysql-bin.000001:4', 'mysql-bin.000001:4'],
    [':0', ':0'],
    ['f:0x1F', 'f:31'],
    ['f:0X1f', 'f:31'],
    ['f:0o17', 'f:15'],
    ['f:017', 'f:15'],
    ['f:0b101', 'f:5'],
    ['f:1_000', 'f:1000'],
    ['f:0x_1F', 'f:31'],
    ['f:0', 'f:0'],
    ['f:4294967295', 'f:4294967295'],
    [' f :7', ' f :7'],
    ['dir/file:7', 'dir/file:7'],
  ];
  for (const [input, want] of accepted)
    it(`accepts ${JSON.stringify(input)}`, () => assert.equal(filePos(input).toString(), want));
  const rejected = [
    '',
    'f',
    'f:',
    'f:1:2',
    'f:-1',
    'f:+1',
    'f: 1',
    'f:1 ',
    'f:08',
    'f:0x',
    'f:1__0',
    'f:_1',
    'f:1_',
    'f:0x1g',
    'f:1e3',
  ];
  for (const input of rejected)
    it(`rejects ${JSON.stringify(input)}`, () => assert.throws(() => filePos(input), /invalid FilePos position/));
  it('rejects positions of 2^32 and more (vitessio/vitess#17469: upstream stores a uint32)', () => {
    assert.throws(() => filePos('vt-1448040107-bin.003222:4663881395'), /larger than 4294967295/);
  });
});

describe('equals, union and the operations a point does not have', () => {
  it('equals compares file and position', () => {
    assert.equal(filePos('f:1').equals(filePos('f:0x1')), true);
    assert.equal(filePos('f:1').equals(filePos('g:1')), false);
    assert.equal(filePos('f:1').equals(parseGtidSet('')), false);
  });
  it('union is the later position (upstream Union)', () => {
    assert.equal(filePos('f:1').union(filePos('f:2')).toString(), 'f:2');
    assert.equal(filePos('g:1').union(filePos('f:2')).toString(), 'g:1');
    const a = filePos('f:1');
    assert.equal(a.union(parseGtidSet('')), a);
  });
  it('intersect is the earlier position; subtract and count throw', () => {
    assert.equal(filePos('f:1').intersect(filePos('f:2')).toString(), 'f:1');
    assert.throws(() => filePos('f:1').subtract(filePos('f:2')), /points, not sets/);
    assert.throws(() => filePos('f:1').intersect(parseGtidSet('')), /cannot intersect/);
    assert.throws(() => filePos('f:1').count(), /cannot count/);
    assert.equal(filePos('f:1').subtract(parseGtidSet('')).toString(), 'f:1');
  });
  it('isEmpty only for ":0"', () => {
    assert.equal(filePos(':0').isEmpty(), true);
    assert.equal(filePos('f:0').isEmpty(), false);
  });
});

describe('properties', () => {
  const arb = fc
    .tuple(
      fc.constantFrom('mysql-bin.000001', 'mysql-bin.000002', 'relay.000009', ''),
      fc.integer({ min: 0, max: 4294967295 }),
    )
    .map(([file, pos]) => filePos(`${file}:${pos}`));
  it('round-trips, and contains is a total order consistent with union', () => {
    fc.assert(
      fc.property(arb, arb, (a, b) => {
        const roundTrip = filePos(a.toString()).equals(a);
        const total = a.contains(b) || b.contains(a);
        const union = a.union(b);
        return roundTrip && total && union.contains(a) && union.contains(b) && (union.equals(a) || union.equals(b));
      }),
      { numRuns: 300 },
    );
  });
});

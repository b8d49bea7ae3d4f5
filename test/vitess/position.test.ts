import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  GtidParseError,
  ZERO_POSITION,
  countBehind,
  parseGtidSet,
  parsePosition,
  parsePositionDefaultFlavor,
  positionOf,
  positionString,
} from '../../src/vitess/position.js';

const maria = (text: string) => positionOf(parseGtidSet(text, 'MariaDB'));
const uuid = '16b1039f-22b6-11ed-b765-0a43f95f28a3';

// Ported from vitessio/vitess:go/mysql/replication/replication_position_test.go TestPositionEqual,
// TestPositionNotEqual, TestPositionEqualZero, TestPositionZeroEqualZero.
describe('equals (upstream TestPositionEqual…)', () => {
  const table: [string, ReturnType<typeof maria>, ReturnType<typeof maria>, boolean][] = [
    ['Equal', maria('3-5555-1234'), maria('3-5555-1234'), true],
    ['NotEqual', maria('3-5555-1234'), maria('3-5555-12345'), false],
    ['EqualZero', maria('3-5555-1234'), ZERO_POSITION, false],
    ['ZeroEqualZero', ZERO_POSITION, ZERO_POSITION, true],
  ];
  for (const [name, a, b, want] of table) it(name, () => assert.equal(a.equals(b), want));
  it('zero does not equal a non-zero position', () => assert.equal(ZERO_POSITION.equals(maria('3-5555-1234')), false));
  it('different flavors are never equal', () => {
    assert.equal(parsePosition('MySQL56/').equals(parsePosition('FilePos/:0')), false);
  });
});

// Ported from replication_position_test.go TestPositionAtLeast{Less,Equal,Greater,DifferentServer,
// DifferentDomain}, TestPositionZeroAtLeast, TestPositionAtLeastZero, TestPositionZeroAtLeastZero.
describe('atLeast (upstream TestPositionAtLeast…)', () => {
  const table: [string, ReturnType<typeof maria>, ReturnType<typeof maria>, boolean][] = [
    ['AtLeastLess', maria('3-5555-1233'), maria('3-5555-1234'), false],
    ['AtLeastEqual', maria('3-5555-1234'), maria('3-5555-1234'), true],
    ['AtLeastGreater', maria('3-5555-1235'), maria('3-5555-1234'), true],
    ['AtLeastDifferentServer', maria('3-5555-1235'), maria('3-4444-1234'), true],
    ['AtLeastDifferentDomain', maria('3-5555-1235'), maria('4-5555-1234'), false],
    ['ZeroAtLeast', ZERO_POSITION, maria('3-5555-1234'), false],
    ['AtLeastZero', maria('3-5555-1234'), ZERO_POSITION, true],
    ['ZeroAtLeastZero', ZERO_POSITION, ZERO_POSITION, true],
  ];
  for (const [name, a, b, want] of table) it(name, () => assert.equal(a.atLeast(b), want));
  it('the zero position is not at least an empty set (upstream checks nil, not emptiness)', () => {
    assert.equal(ZERO_POSITION.atLeast(parsePosition('MySQL56/')), false);
    assert.equal(parsePosition('MySQL56/').atLeast(ZERO_POSITION), true);
  });
  it('MySQL56 positions', () => {
    assert.equal(parsePosition(`MySQL56/${uuid}:1-615`).atLeast(parsePosition(`MySQL56/${uuid}:1-243`)), true);
    assert.equal(parsePosition(`MySQL56/${uuid}:1-243`).atLeast(parsePosition(`MySQL56/${uuid}:1-615`)), false);
  });
  it('across flavors: false', () => {
    assert.equal(parsePosition(`MySQL56/${uuid}:1-615`).atLeast(parsePosition('MariaDB/0-1-1')), false);
  });
});

// Ported from replication_position_test.go TestPositionString, TestPositionStringNil, TestPositionIsZero,
// TestPositionIsNotZero.
describe('String() and IsZero (upstream TestPositionString…, TestPositionIsZero…)', () => {
  it('String', () => assert.equal(positionString(maria('3-5555-1234')), '3-5555-1234'));
  it('StringNil', () => assert.equal(positionString(ZERO_POSITION), '<nil>'));
  it('IsZero', () => assert.equal(ZERO_POSITION.isZero(), true));
  it('IsNotZero', () => assert.equal(maria('3-5555-1234').isZero(), false));
  it('an empty MySQL56 set is not the zero position', () => {
    const empty = parsePosition('MySQL56/');
    assert.equal(empty.isZero(), false);
    assert.equal(empty.flavor, 'MySQL56');
    assert.equal(empty.toString(), 'MySQL56/');
    assert.equal(positionString(empty), '');
  });
  it('zero position fields', () => {
    assert.equal(ZERO_POSITION.flavor, '');
    assert.equal(ZERO_POSITION.gtidSet, null);
  });
});

// Ported from replication_position_test.go TestEncodePosition, TestEncodePositionZero, TestDecodePosition,
// TestDecodePositionZero, TestDecodePositionNoFlavor, TestMustParsePositionError, TestJsonMarshalPosition…
describe('encode and decode (upstream TestEncodePosition…, TestDecodePosition…)', () => {
  it('EncodePosition', () => {
    assert.equal(maria('3-5555-1234').toString(), 'MariaDB/3-5555-1234');
    assert.equal(parsePosition(`MySQL56/${uuid}:1-615`).toString(), `MySQL56/${uuid}:1-615`);
    assert.equal(parsePosition('FilePos/mysql-bin.000001:4').toString(), 'FilePos/mysql-bin.000001:4');
  });
  it('EncodePositionZero', () => assert.equal(ZERO_POSITION.toString(), ''));
  it('DecodePositionZero', () => {
    assert.equal(parsePosition('').isZero(), true);
    assert.equal(parsePosition('').equals(ZERO_POSITION), true);
  });
  it('DecodePositionNoFlavor: no parser for the flavor "", so an error', () => {
    assert.throws(() => parsePosition('12345'), /invalid position "12345": expected Flavor\/set/);
    assert.throws(() => parsePosition(`${uuid}:1-615`), GtidParseError);
  });
  it('MustParsePositionError: unknown flavor', () => {
    assert.throws(() => parsePosition('unknown flavor !@$!@/yowzah'), /unknown GTID flavor "unknown flavor !@\$!@"/);
    assert.throws(() => parsePosition('mysql56/x'), /unknown GTID flavor "mysql56"/);
    assert.throws(() => parsePosition(' MySQL56/'), /unknown GTID flavor " MySQL56"/);
  });
  it('splits at the first "/" only', () => {
    assert.equal(parsePosition('FilePos/dir/mysql-bin.000001:4').toString(), 'FilePos/dir/mysql-bin.000001:4');
    assert.throws(() => parsePosition(`MySQL56/${uuid}:1/2`), /at character 47: unexpected character "\/"/);
  });
  it('errors point into the whole position text', () => {
    assert.throws(
      () => parsePosition(`MySQL56/${uuid}:0-5`),
      (error: unknown) =>
        error instanceof GtidParseError &&
        error.message ===
          `invalid MySQL56 position "MySQL56/${uuid}:0-5" at character 46: interval start must be > 0` &&
        error.index === 45,
    );
  });
  it('round-trips through toString', () => {
    for (const text of ['', 'MySQL56/', `MySQL56/${uuid}:1-5:7`, 'MariaDB/0-1-2,3-4-5', 'FilePos/f:10']) {
      assert.equal(parsePosition(parsePosition(text).toString()).toString(), text);
    }
  });
});

// Ported from replication_position_test.go TestDecodePositionDefaultFlavor and mysql56_gtid_test.go
// TestDecodePositionMySQL56 (which decodes with MySQL56 as the default flavor).
describe('parsePositionDefaultFlavor (upstream TestDecodePositionDefaultFlavor, TestDecodePositionMySQL56)', () => {
  it('an explicit flavor wins', () => {
    const pos = parsePositionDefaultFlavor(`MySQL56/${uuid}:1-615`, 'MariaDB');
    assert.equal(positionString(pos), `${uuid}:1-615`);
  });
  it('no flavor: the default', () => {
    assert.equal(positionString(parsePositionDefaultFlavor(`${uuid}:1-615`, 'MySQL56')), `${uuid}:1-615`);
    assert.equal(parsePositionDefaultFlavor('', 'MySQL56').isZero(), true);
    assert.equal(
      parsePositionDefaultFlavor('MySQL56/00010203-0405-0607-0809-0A0B0C0D0E0F:1-615', 'MySQL56').toString(),
      'MySQL56/00010203-0405-0607-0809-0a0b0c0d0e0f:1-615',
    );
  });
  it('errors', () => {
    assert.throws(() => parsePositionDefaultFlavor('q-22b6-11ed-b765-0a43f95f28a3:1-615', 'MySQL56'), GtidParseError);
    assert.throws(() => parsePositionDefaultFlavor(uuid, 'MySQL56'), GtidParseError);
    assert.throws(() => parsePositionDefaultFlavor('mysql-bin.000001:234', 'MySQL56'), GtidParseError);
    // A FilePos position decoded as MySQL56 is not MySQL56.
    assert.equal(parsePositionDefaultFlavor('FilePos/mysql-bin.000001:234', 'MySQL56').flavor, 'FilePos');
  });
});

describe('countBehind', () => {
  const executed = parseGtidSet(`${uuid}:1-100,3e11fa47-71ca-11e1-9e33-c80aa9429562:1-10`);
  it('MySQL56: the size of executed − applied', () => {
    assert.equal(countBehind(executed, parseGtidSet(`${uuid}:1-90`)), 20n);
    assert.equal(countBehind(executed, executed), 0n);
    assert.equal(countBehind(executed, parseGtidSet(`${uuid}:1-200`)), 10n);
    assert.equal(countBehind(executed, null), 110n);
  });
  it('MariaDB: how far each domain trails', () => {
    const e = parseGtidSet('0-1-100,1-1-50', 'MariaDB');
    assert.equal(countBehind(e, parseGtidSet('0-2-90', 'MariaDB')), 60n);
    assert.equal(countBehind(e, parseGtidSet('0-2-190,1-1-60', 'MariaDB')), 0n);
  });
  it('null when it has no meaning', () => {
    assert.equal(countBehind(executed, parseGtidSet('0-1-1', 'MariaDB')), null);
    assert.equal(countBehind(parseGtidSet('f:1', 'FilePos'), null), null);
  });
});

describe('bad input to the entry points', () => {
  it('parseGtidSet rejects unknown flavors and non-strings with an Error', () => {
    assert.throws(() => parseGtidSet('x', 'Oracle' as never), /unknown GTID flavor "Oracle"/);
    assert.throws(() => parseGtidSet(undefined as never), GtidParseError);
    assert.throws(() => parsePosition(42 as never), GtidParseError);
  });
  it('messages stay on one line and show a window of long inputs', () => {
    const long = `MySQL56/${uuid}:1-5,\n${'x'.repeat(5000)}`;
    assert.throws(
      () => parsePosition(long),
      (error: unknown) =>
        error instanceof Error &&
        !error.message.includes('\n') &&
        error.message.length < 250 &&
        /\(5050 characters\)/.test(error.message),
    );
  });
});

describe('properties', () => {
  const setText = fc
    .array(
      fc.tuple(
        fc.constantFrom(uuid, '3e11fa47-71ca-11e1-9e33-c80aa9429562'),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 5 }),
      ),
      {
        maxLength: 4,
      },
    )
    .map((items) => items.map(([id, start, width]) => `${id}:${start}-${start + width}`).join(','));
  const position = fc.oneof(
    fc.constant(''),
    setText.map((t) => `MySQL56/${t}`),
    fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 100 })).map(([d, q]) => `MariaDB/${d}-1-${q}`),
  );
  it('atLeast is reflexive; equals is symmetric and implies atLeast both ways', () => {
    fc.assert(
      fc.property(position, position, (x, y) => {
        const [a, b] = [parsePosition(x), parsePosition(y)];
        return a.atLeast(a) && a.equals(b) === b.equals(a) && (!a.equals(b) || (a.atLeast(b) && b.atLeast(a)));
      }),
      { numRuns: 300 },
    );
  });
  it('everything is at least the zero position', () => {
    fc.assert(
      fc.property(position, (x) => parsePosition(x).atLeast(ZERO_POSITION)),
      { numRuns: 100 },
    );
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compareKeyspaceIds,
  isKeyRangeName,
  keyRangeAdd,
  keyRangeCompare,
  keyRangeContains,
  keyRangeContainsKeyspaceId,
  keyRangeContiguous,
  keyRangeEndCompare,
  keyRangeEqual,
  keyRangeFromBytes,
  keyRangeIsComplete,
  keyRangesIntersect,
  keyRangeStartCompare,
  keyRangeString,
  normalizeKeyspaceId,
  parseKeyRange,
  parseKeyRangeParts,
  parseShardingSpec,
  type KeyRange,
} from '../../src/vitess/keyrange.js';

/**
 * Upstream tests build ranges with `stringToKeyRange(spec)`: '' is nil, otherwise
 * `ParseKeyRangeParts` of the two sides (vitessio/vitess:go/vt/key/key_test.go).
 */
function kr(spec: string): KeyRange | null {
  if (spec === '') return null;
  const parts = spec.split('-');
  assert.equal(parts.length, 2, `test spec ${spec}`);
  return parseKeyRangeParts(parts[0]!, parts[1]!);
}

function hex(bytes: number[]): string {
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('key_test.go TestNormalize', () => {
  // vitessio/vitess:go/vt/key/key_test.go TestNormalize
  const cases: readonly [string, number[], number[]][] = [
    ['empty should empty', [], []],
    ['one zero should be empty', [0x00], []],
    ['any number of zeroes should be empty', [0x00, 0x00, 0x00], []],
    ['one non-zero byte should be left alone', [0x11], [0x11]],
    ['multiple non-zero bytes should be left alone', [0x11, 0x22, 0x33], [0x11, 0x22, 0x33]],
    [
      "zeroes that aren't trailing should be left alone",
      [0x11, 0x00, 0x22, 0x00, 0x33, 0x00],
      [0x11, 0x00, 0x22, 0x00, 0x33],
    ],
    ['excess zero bytes should be removed after a non-zero byte', [0x11, 0, 0, 0, 0, 0, 0, 0], [0x11]],
    ['excess zero bytes should be removed after multiple non-zero bytes', [0x11, 0x22, 0, 0, 0], [0x11, 0x22]],
    [
      'values longer than eight bytes should be supported',
      [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0x00],
      [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa],
    ],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => assert.equal(normalizeKeyspaceId(hex(input)), hex(want)));
  }
  it('a zero nibble is not a zero byte', () => assert.equal(normalizeKeyspaceId('1000'), '10'));
});

describe('key_test.go TestCompare / TestLess / TestEqual / TestEmpty', () => {
  // vitessio/vitess:go/vt/key/key_test.go TestCompare
  const cases: readonly [string, number[], number[], number][] = [
    ['empty ids are equal', [], [], 0],
    [
      'equal full id values are equal',
      [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88],
      [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88],
      0,
    ],
    ['equal partial id values are equal', [0x11, 0x22], [0x11, 0x22], 0],
    ['equal full and partial id values are equal', [0x11, 0x22, 0x33, 0x44], [0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0], 0],
    ['equal partial and full id values are equal', [0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0], [0x11, 0x22, 0x33, 0x44], 0],
    ['a less than b', [0x01], [0x02], -1],
    ['a greater than b', [0x02], [0x01], 1],
    ['equal partial a and b with different lengths', [0x30, 0x00], [0x20], 1],
  ];
  for (const [name, a, b, want] of cases) {
    it(name, () => assert.equal(compareKeyspaceIds(hex(a), hex(b)), want));
  }
  // TestLess / TestEqual: a few obvious cases; TestEmpty: a normalized-empty id compares equal to ''.
  it('less / equal / empty', () => {
    assert.equal(compareKeyspaceIds('01', '02') < 0, true);
    assert.equal(compareKeyspaceIds('01', '01') < 0, false);
    assert.equal(compareKeyspaceIds('02', '01') < 0, false);
    assert.equal(compareKeyspaceIds('01', '02') === 0, false);
    assert.equal(compareKeyspaceIds('01', '01') === 0, true);
    assert.equal(compareKeyspaceIds('', '') === 0, true);
    assert.equal(compareKeyspaceIds('112233', '') === 0, false);
  });
});

describe('key_test.go TestEvenShardsKeyRange (spec strings and ParseKeyRangeParts)', () => {
  // vitessio/vitess:go/vt/key/key_test.go TestEvenShardsKeyRange: wantSpec ↔ KeyRange, via ParseKeyRangeParts.
  const cases: readonly [string, KeyRange][] = [
    ['-', { start: '', end: '' }],
    ['-80', { start: '', end: '80' }],
    ['80-', { start: '80', end: '' }],
    ['40-80', { start: '40', end: '80' }],
    ['80-c0', { start: '80', end: 'c0' }],
    ['01-02', { start: '01', end: '02' }],
    ['8000-8080', { start: '8000', end: '8080' }],
    ['ff00-ff80', { start: 'ff00', end: 'ff80' }],
    ['ff80-', { start: 'ff80', end: '' }],
  ];
  for (const [spec, want] of cases) {
    it(spec, () => {
      assert.deepStrictEqual(kr(spec), want);
      assert.equal(keyRangeString(want), spec);
    });
  }
});

describe('key_test.go TestKeyRangeAdd', () => {
  // vitessio/vitess:go/vt/key/key_test.go TestKeyRangeAdd ('' = nil, out '' = not adjacent)
  const cases: readonly [string, string, string][] = [
    ['', '', ''],
    ['', '-80', ''],
    ['-80', '', ''],
    ['', '80-', ''],
    ['80-', '', ''],
    ['80-', '-40', ''],
    ['-40', '80-', ''],
    ['-80', '80-', '-'],
    ['80-', '-80', '-'],
    ['-40', '40-80', '-80'],
    ['40-80', '-40', '-80'],
    ['40-80', '80-c0', '40-c0'],
    ['80-c0', '40-80', '40-c0'],
  ];
  for (const [a, b, want] of cases) {
    it(`${a || 'nil'} + ${b || 'nil'} = ${want || 'not adjacent'}`, () => {
      const out = keyRangeAdd(kr(a), kr(b));
      assert.equal(out === null ? '' : keyRangeString(out), want);
    });
  }
});

describe('key_test.go TestKeyRangeEndEqual / TestKeyRangeStartEqual / TestKeyRangeEqual', () => {
  // vitessio/vitess:go/vt/key/key_test.go TestKeyRangeEndEqual
  const endEqual: readonly [string, string, boolean][] = [
    ['', '', true],
    ['', '-80', false],
    ['40-', '10-', true],
    ['-8000', '-80', true],
    ['-8000', '-8000000000000000', true],
    ['-80', '-8000', true],
  ];
  for (const [a, b, want] of endEqual) {
    it(`end of ${a || 'nil'} == end of ${b || 'nil'}: ${want}`, () =>
      assert.equal(keyRangeEndCompare(kr(a), kr(b)) === 0, want));
  }
  // TestKeyRangeStartEqual
  const startEqual: readonly [string, string, boolean][] = [
    ['', '', true],
    ['', '-80', true],
    ['40-', '20-', false],
    ['-8000', '-80', true],
    ['-8000', '-8000000000000000', true],
    ['-80', '-8000', true],
  ];
  for (const [a, b, want] of startEqual) {
    it(`start of ${a || 'nil'} == start of ${b || 'nil'}: ${want}`, () =>
      assert.equal(keyRangeStartCompare(kr(a), kr(b)) === 0, want));
  }
  // TestKeyRangeEqual
  const equal: readonly [string, string, boolean][] = [
    ['', '', true],
    ['', '-80', false],
    ['-8000', '-80', true],
    ['-8000', '-8000000000000000', true],
    ['-80', '-8000', true],
  ];
  for (const [a, b, want] of equal) {
    it(`${a || 'nil'} equals ${b || 'nil'}: ${want}`, () => assert.equal(keyRangeEqual(kr(a), kr(b)), want));
  }
});

describe('key_test.go TestKeyRangeContiguous', () => {
  const cases: readonly [string, string, boolean][] = [
    ['-40', '40-80', true],
    ['40-80', '-40', false],
    ['-', '-40', false],
    ['40-80', 'c0-', false],
    ['40-80', '80-c0', true],
    ['40-80', '8000000000000000-c000000000000000', true],
    ['4000000000000000-8000000000000000', '80-c0', true],
  ];
  for (const [a, b, want] of cases) {
    it(`${a} then ${b}: ${want}`, () => assert.equal(keyRangeContiguous(kr(a), kr(b)), want));
  }
});

describe('key_test.go TestParseShardingSpec', () => {
  const x40 = '4000000000000000';
  const x80 = '8000000000000000';
  const good: readonly [string, KeyRange[]][] = [
    ['-', [{ start: '', end: '' }]],
    ['0', [{ start: '', end: '' }]],
    [
      '-4000000000000000-8000000000000000-',
      [
        { start: '', end: x40 },
        { start: x40, end: x80 },
        { start: x80, end: '' },
      ],
    ],
  ];
  for (const [spec, want] of good) {
    it(`parses ${spec}`, () => assert.deepStrictEqual(parseShardingSpec(spec), want));
  }
  const bad = ['4000000000000000', '---', '4000000000000000--8000000000000000', '4000000000000000-3000000000000000'];
  for (const spec of bad) {
    it(`rejects ${spec}`, () =>
      assert.throws(
        () => parseShardingSpec(spec),
        (e: Error) => /malformed sharding spec/.test(e.message),
      ));
  }
  it('rejects a bound that is not hex', () =>
    assert.throws(() => parseShardingSpec('-zz'), /invalid key range bound "zz"/));
});

describe('key_test.go TestKeyRangeComparisons', () => {
  // vitessio/vitess:go/vt/key/key_test.go TestKeyRangeComparisons: [a, b, startCompare, endCompare, compare]
  const cases: readonly [string, string, string, number, number, number][] = [
    ['a and b are both full range', '-', '-', 0, 0, 0],
    ['a is equal to b', '10-30', '10-30', 0, 0, 0],
    ['a (2 digit, end only) but equal to b (2 digits, end only)', '-80', '-80', 0, 0, 0],
    ['a (2 digit, end only) but equal to b (4 digits, end only)', '-80', '-8000', 0, 0, 0],
    ['a (2 digit, end only) but equal to b (6 digits, end only)', '-80', '-800000', 0, 0, 0],
    ['a (2 digit, end only) but equal to b (8 digits, end only)', '-80', '-80000000', 0, 0, 0],
    ['a (2 digit, start only) but equal to b (2 digits, start only)', '80-', '80-', 0, 0, 0],
    ['a (2 digit, start only) but equal to b (4 digits, start only)', '80-', '8000-', 0, 0, 0],
    ['a (2 digit, start only) but equal to b (6 digits, start only)', '80-', '800000-', 0, 0, 0],
    ['a (2 digit, start only) but equal to b (8 digits, start only)', '80-', '80000000-', 0, 0, 0],
    ['a (4 digits) but equal to b (2 digits)', '1000-3000', '10-30', 0, 0, 0],
    ['a (8 digits) but equal to b (4 digits)', '10000000-30000000', '1000-3000', 0, 0, 0],
    ['b (4 digits) but equal to a (2 digits)', '10-30', '1000-3000', 0, 0, 0],
    ['b (8 digits) but equal to a (4 digits)', '10-30', '10000000-30000000', 0, 0, 0],
    ['a is full range, b is not', '-', '20-30', -1, 1, -1],
    ['b is full range, a is not', '10-30', '-', 1, -1, 1],
    ['a start is greater than b start', '10-30', '20-30', -1, 0, -1],
    ['b start is greater than a start', '20-30', '10-30', 1, 0, 1],
    ['a start is empty, b start is not', '-30', '10-30', -1, 0, -1],
    ['b start is empty, a start is not', '10-30', '-30', 1, 0, 1],
    ['a end is greater than b end', '10-30', '10-20', 0, 1, 1],
    ['b end is greater than a end', '10-20', '10-30', 0, -1, -1],
    ['a end is empty, b end is not', '10-', '10-30', 0, 1, 1],
    ['b end is empty, a end is not', '10-30', '10-', 0, -1, -1],
  ];
  for (const [name, a, b, start, end, cmp] of cases) {
    it(name, () => {
      const ka = kr(a);
      const kb = kr(b);
      assert.equal(keyRangeStartCompare(ka, kb), start);
      assert.equal(keyRangeEndCompare(ka, kb), end);
      assert.equal(keyRangeCompare(ka, kb), cmp);
      assert.equal(keyRangeEqual(ka, kb), cmp === 0);
    });
  }
});

describe('key_test.go TestKeyRangeContains (keyspace id)', () => {
  const cases: readonly [string, string, string, boolean][] = [
    ['3000000000000000', '3000000000000000', '', true],
    ['3000000000000000', '', '3000000000000000', false],
    ['4000000000000000', '3000000000000000', '', true],
    ['2000000000000000', '3000000000000000', '', false],
  ];
  for (const [id, start, end, want] of cases) {
    it(`${id} in ${start}-${end}: ${want}`, () => {
      assert.equal(keyRangeContainsKeyspaceId({ start, end }, id), want);
      assert.equal(keyRangeContainsKeyspaceId(null, id), true);
    });
  }
});

describe('key_test.go TestKeyRangeIntersect', () => {
  const cases: readonly [string, string, string, boolean][] = [
    ['typical half-range split, ascending order', '-80', '80-', false],
    ['typical half-range split, descending order', '80-', '-80', false],
    ['partial ranges, ascending order', '40-80', 'c0-d0', false],
    ['partial ranges, descending order', '40-80', '20-40', false],
    ['partial ranges, different key lengths', '4000-8000', '20-40', false],
    ['full range with full range', '-', '-', true],
    ['full range with maximum key partial range', '-', '80-', true],
    ['full range with partial range', '-', 'c0-d0', true],
    ['minimum key partial range with full range', '-80', '-', true],
    ['partial range with full range', 'a0-b0', '-', true],
    ['the same range, both from minimum key', '-80', '-80', true],
    ['the same range, both from minimum key, different key lengths', '-8000', '-80', true],
    ['the same range, both to maximum key', '40-', '40-', true],
    ['the same range, both to maximum key, different key lengths', '4000-', '40-', true],
    ['the same range, both with mid-range keys', '40-80', '40-80', true],
    ['the same range, both with mid-range keys, different key lengths', '40-80', '4000-8000', true],
    ['different-sized partial ranges, both from minimum key', '-80', '-40', true],
    ['different-sized partial ranges, both to maximum key', '80-', 'c0-', true],
    ['different-sized partial ranges, from minimum key with mid-range key', '-80', '40-80', true],
    [
      'different-sized partial ranges, from minimum key with mid-range key, different key lengths',
      '-80',
      '4000-8000',
      true,
    ],
    ['different-sized partial ranges, to maximum key with mid-range key', '80-', '80-c0', true],
    [
      'different-sized partial ranges, to maximum key with mid-range key, different key lengths',
      '80-',
      '8000-c000',
      true,
    ],
    ['partially overlapping ranges, in ascending order', '40-80', '60-a0', true],
    ['partially overlapping ranges, in descending order', '40-80', '10-50', true],
    ['partially overlapping ranges, one fully containing the other, in ascending order', '40-80', '50-60', true],
    ['partially overlapping ranges, one fully containing the other, in descending order', '40-80', '30-90', true],
  ];
  for (const [name, a, b, want] of cases) {
    it(name, () => assert.equal(keyRangesIntersect(kr(a), kr(b)), want));
  }
  it('null (nil) intersects everything', () => {
    assert.equal(keyRangesIntersect(null, kr('80-c0')), true);
    assert.equal(keyRangesIntersect(kr('80-c0'), null), true);
  });
});

describe('key_test.go TestKeyRangeContainsKeyRange', () => {
  const cases: readonly [string, string, string, boolean][] = [
    ['both full range', '-', '-', true],
    ['full range, partial range from minimum key', '-', '-c0', true],
    ['full range, partial range to maximum key', '-', '80-', true],
    ['full range, partial mid-key range', '-', '80-c0', true],
    ['equal partial ranges', '40-60', '40-60', true],
    ['equal partial ranges, different size keys', '40-60', '4000-6000', true],
    ['equal partial ranges, different size keys (reversed)', '4000-6000', '40-60', true],
    ['partial range, partial touching start', '40-80', '40-50', true],
    ['partial range, partial touching start, different size keys', '40-80', '4000-5000', true],
    ['partial range, partial touching start, different size keys (reversed)', '4000-8000', '40-50', true],
    ['partial range, partial touching end', '40-80', '70-80', true],
    ['partial range, partial touching end, different size keys', '40-80', '7000-8000', true],
    ['partial range, partial touching end, different size keys (reversed)', '4000-8000', '70-80', true],
    ['partial range, partial in the middle', '40-80', '50-70', true],
    ['partial range, partial in the middle, different size keys', '40-80', '5000-7000', true],
    ['partial range, partial in the middle, different size keys (reversed)', '4000-8000', '50-70', true],
    ['partial range from minimum key, full range', '-c0', '-', false],
    ['partial range to maximum key, full range', '80-', '-', false],
    ['partial mid-key range, full range', '80-c0', '-', false],
    ['partial range mid-key range, overlapping partial range to maximum key', '40-60', '50-', false],
    ['partial range mid-key range, overlapping partial range to maximum key (4 digits)', '40-60', '5000-', false],
    [
      'partial range mid-key range, overlapping partial range to maximum key, different size keys',
      '4000-6000',
      '50-',
      false,
    ],
    [
      'partial range mid-key range, overlapping partial range to maximum key, different size keys (2)',
      '40-60',
      '5000-',
      false,
    ],
    ['partial range mid-key range, overlapping partial range from minimum key', '40-60', '-50', false],
    ['partial range mid-key range, overlapping partial range from minimum key (4 digits)', '40-60', '-5000', false],
    [
      'partial range mid-key range, overlapping partial range from minimum key, different size keys',
      '4000-6000',
      '-50',
      false,
    ],
    [
      'partial range mid-key range, overlapping partial range from minimum key, different size keys (2)',
      '40-60',
      '-5000',
      false,
    ],
  ];
  for (const [name, a, b, want] of cases) {
    it(name, () => assert.equal(keyRangeContains(kr(a), kr(b)), want));
  }
});

describe('key_test.go TestIsValidKeyRange (isKeyRangeName)', () => {
  const cases: readonly [string, boolean][] = [
    ['-', true],
    ['00-', true],
    ['-80', true],
    ['40-80', true],
    ['80-', true],
    ['a0-', true],
    ['-A0', true],
    ['0', true],
    ['', false],
    ['11', false],
    ['-1', false],
    ['-111', false],
    ['1-2', false],
    ['x-80', false],
    ['-80x', false],
    ['select', false],
    ['+', false],
  ];
  for (const [arg, want] of cases) {
    it(`${JSON.stringify(arg)}: ${want}`, () => assert.equal(isKeyRangeName(arg), want));
  }
});

describe('key_test.go TestKeyRangeIsPartial (keyRangeIsComplete)', () => {
  const cases: readonly [string, KeyRange | null, boolean][] = [
    ['nil key range', null, false],
    ['empty start and end', { start: '', end: '' }, false],
    ['empty end', { start: '3132', end: '' }, true],
    ['empty start', { start: '', end: '3133' }, true],
    ['non-empty start and end', { start: '3132', end: '3133' }, true],
  ];
  for (const [name, range, partial] of cases) {
    it(name, () => assert.equal(!keyRangeIsComplete(range), partial));
  }
});

describe('shard_test.go TestValidateShardName (parseKeyRange)', () => {
  // vitessio/vitess:go/vt/topo/shard_test.go TestValidateShardName
  it('0 is valid and has no key range', () => assert.equal(parseKeyRange('0'), null));
  it('-80', () => assert.deepStrictEqual(parseKeyRange('-80'), { start: '', end: '80' }));
  it('40-80', () => assert.deepStrictEqual(parseKeyRange('40-80'), { start: '40', end: '80' }));
  it('foo-bar is invalid', () =>
    assert.throws(
      () => parseKeyRange('foo-bar'),
      /invalid shard name "foo-bar": start "foo" is not an even number of hex digits/,
    ));
  it('a/b is invalid', () =>
    assert.throws(() => parseKeyRange('a/b'), /invalid shard name "a\/b": invalid character "\/"/));

  // vitessio/vitess:go/vt/topo validateObjectName test table (shard and keyspace names, v16.0.2+)
  it('valid / validdigits1321 are valid non-range names', () => {
    assert.equal(parseKeyRange('valid'), null);
    assert.equal(parseKeyRange('validdigits1321'), null);
  });
  it('valid-with-dashes passes validateObjectName but has two dashes', () => {
    assert.throws(() => parseKeyRange('valid-with-dashes'), /can only contain one '-'/);
  });
  it('a name over 64 characters is too long', () => {
    assert.throws(
      () => parseKeyRange('very-long-keyspace-name-that-is-even-too-long-for-mysql-to-handle'),
      /longer than 64 characters/,
    );
  });
  it('with<invalid>chars', () => assert.throws(() => parseKeyRange('with<invalid>chars'), /invalid character "<"/));
  it('empty name', () => assert.throws(() => parseKeyRange(''), /invalid shard name "": empty name/));
});

describe('parseKeyRange: decisions read from upstream (ValidateShardName)', () => {
  it('"-" is a present but complete range, equal to null everywhere', () => {
    const full = parseKeyRange('-');
    assert.deepStrictEqual(full, { start: '', end: '' });
    assert.equal(keyRangeIsComplete(full), true);
    assert.equal(keyRangeEqual(full, null), true);
    assert.equal(keyRangeContains(full, kr('40-80')), true);
    assert.equal(keyRangeString(full), '-');
  });
  it('upper-case hex is accepted and lower-cased', () =>
    assert.deepStrictEqual(parseKeyRange('A0-C0'), { start: 'a0', end: 'c0' }));
  it('trailing zero bytes are kept as written but compare equal', () => {
    assert.deepStrictEqual(parseKeyRange('-8000'), { start: '', end: '8000' });
    assert.equal(keyRangeString(parseKeyRange('-8000')), '-8000');
    assert.equal(keyRangeEqual(parseKeyRange('-80'), parseKeyRange('-8000')), true);
    assert.equal(keyRangeEqual(parseKeyRange('-80'), parseKeyRange('00-80')), true);
  });
  it('start ≥ end is rejected, compared as raw bytes', () => {
    assert.throws(() => parseKeyRange('80-40'), /out of order keys: 80 is not strictly smaller than 40/);
    assert.throws(() => parseKeyRange('80-80'), /out of order keys/);
    assert.throws(() => parseKeyRange('8000-80'), /out of order keys/);
    assert.throws(() => parseKeyRange('00-00'), /out of order keys/);
  });
  it('80-8000 is accepted (raw bytes ordered) although it is empty after normalization', () => {
    const r = parseKeyRange('80-8000');
    assert.deepStrictEqual(r, { start: '80', end: '8000' });
    assert.equal(keyRangesIntersect(r, parseKeyRange('-')), true);
    assert.equal(keyRangesIntersect(r, parseKeyRange('40-c0')), true);
    assert.equal(keyRangesIntersect(r, parseKeyRange('80-c0')), false);
  });
  it('-00 is accepted and is the full range (an end of 00 normalizes to the maximum)', () => {
    assert.equal(keyRangeIsComplete(parseKeyRange('-00')), true);
    assert.equal(keyRangeString(parseKeyRange('-00')), '-');
  });
  it('odd-length and non-hex bounds are rejected', () => {
    assert.throws(() => parseKeyRange('8-'), /start "8" is not an even number of hex digits/);
    assert.throws(() => parseKeyRange('-800'), /end "800" is not an even number of hex digits/);
    assert.throws(() => parseKeyRange('-8g'), /end "8g"/);
  });
  it('keyRangeFromBytes gives lower-case hex', () => {
    assert.deepStrictEqual(keyRangeFromBytes(new Uint8Array([0xab, 0x00]), new Uint8Array([])), {
      start: 'ab00',
      end: '',
    });
  });
});

// ------------------------------------------------------------------------------------------------
// Properties

const BOUND_BYTES = [0x00, 0x01, 0x40, 0x7f, 0x80, 0xc0, 0xff];
/** Bounds of 0-2 bytes from a small alphabet, so that equal, adjacent and zero-padded bounds are common. */
const bound: fc.Arbitrary<string> = fc.array(fc.constantFrom(...BOUND_BYTES), { maxLength: 2 }).map(hex);
const anyRange: fc.Arbitrary<KeyRange | null> = fc.option(
  fc.record({ start: bound, end: bound }, { noNullPrototype: true }),
  { nil: null, freq: 5 },
);

/** A bound as a point of the 16-bit space (trailing zero bytes do not matter after padding). */
function point(b: string, isEnd: boolean): number {
  if (normalizeKeyspaceId(b) === '') return isEnd ? 0x10000 : 0;
  return parseInt(b.padEnd(4, '0'), 16);
}
function interval(r: KeyRange | null): [number, number] {
  return r === null ? [0, 0x10000] : [point(r.start, false), point(r.end, true)];
}
/** A range with start < end (or complete): the only kind Vitess creates for shards. */
const validRange: fc.Arbitrary<KeyRange | null> = anyRange.filter((r) => {
  const [s, e] = interval(r);
  return s < e;
});

describe('key range properties (fast-check)', () => {
  it('intersect is symmetric', () => {
    fc.assert(
      fc.property(anyRange, anyRange, (a, b) => keyRangesIntersect(a, b) === keyRangesIntersect(b, a)),
      { numRuns: 2000 },
    );
  });
  it('a range contains itself and equals itself', () => {
    fc.assert(
      fc.property(anyRange, (a) => keyRangeContains(a, a) && keyRangeEqual(a, a)),
      { numRuns: 1000 },
    );
  });
  it('equal ⇔ contains both ways', () => {
    fc.assert(
      fc.property(
        anyRange,
        anyRange,
        (a, b) => keyRangeEqual(a, b) === (keyRangeContains(a, b) && keyRangeContains(b, a)),
      ),
      { numRuns: 2000 },
    );
  });
  it('compare is antisymmetric', () => {
    fc.assert(
      fc.property(anyRange, anyRange, (a, b) => keyRangeCompare(a, b) === -keyRangeCompare(b, a)),
      { numRuns: 2000 },
    );
  });
  it('intersect and contain agree with the same question asked of integer intervals', () => {
    fc.assert(
      fc.property(validRange, validRange, (a, b) => {
        const [s1, e1] = interval(a);
        const [s2, e2] = interval(b);
        assert.equal(keyRangesIntersect(a, b), Math.max(s1, s2) < Math.min(e1, e2));
        assert.equal(keyRangeContains(a, b), s2 >= s1 && e2 <= e1);
        assert.equal(keyRangeEqual(a, b), s1 === s2 && e1 === e2);
      }),
      { numRuns: 3000 },
    );
  });
  it('a valid range contained in another intersects it', () => {
    fc.assert(
      fc.property(validRange, validRange, (a, b) => !keyRangeContains(a, b) || keyRangesIntersect(a, b)),
      { numRuns: 2000 },
    );
  });
  it('keyRangeString of a parsed shard name parses back to an equal range', () => {
    const name = fc.tuple(bound, bound).map(([s, e]) => `${s}-${e}`);
    fc.assert(
      fc.property(name, (n) => {
        let r: KeyRange | null;
        try {
          r = parseKeyRange(n);
        } catch {
          return true; // out of order: rejected, as upstream
        }
        const again = parseKeyRange(keyRangeString(r));
        assert.equal(keyRangeEqual(again, r), true);
        if (!keyRangeIsComplete(r)) assert.deepStrictEqual(again, r);
        assert.equal(isKeyRangeName(n), true);
      }),
      { numRuns: 2000 },
    );
  });
});

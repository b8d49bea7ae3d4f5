import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type Mysql56GtidSet, parseGtidSet, type GtidSet } from '../../src/vitess/position.js';

// SIDs as upstream's tests build them: SID{0, 1, …, 14, x}.
const sid1 = '00010203-0405-0607-0809-0a0b0c0d0e0f';
const sid2 = '00010203-0405-0607-0809-0a0b0c0d0e10';
const sid3 = '00010203-0405-0607-0809-0a0b0c0d0e11';
const sid4 = '00010203-0405-0607-0809-0a0b0c0d0e12';
const sid5 = '00010203-0405-0607-0809-0a0b0c0d0e13';
const sidFF = '00010203-0405-0607-0809-0a0b0c0d0eff';

type Shape = Record<string, readonly (readonly [number | bigint, number | bigint])[]>;

const mysql56 = (text: string): Mysql56GtidSet => parseGtidSet(text, 'MySQL56') as Mysql56GtidSet;

/** A set from upstream's literal form `Mysql56GTIDSet{sid: []interval{{a, b}}}`, via the text it would print. */
function set(shape: Shape): Mysql56GtidSet {
  const text = Object.entries(shape)
    .map(([sid, intervals]) => `${sid}${intervals.map(([a, b]) => `:${a}-${b}`).join('')}`)
    .join(',');
  return mysql56(text);
}

/** What a parsed set holds, in upstream's map-of-interval-lists terms. */
function shapeOf(gtids: Mysql56GtidSet): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const sid of gtids.uuids()) out[sid] = gtids.intervals(sid).map(([a, b]) => `${a}-${b}`);
  return out;
}

// Ported from vitessio/vitess:go/mysql/replication/mysql56_gtid_set_test.go TestParseMysql56GTIDSet.
describe('parse MySQL56 GTID sets (upstream TestParseMysql56GTIDSet)', () => {
  const table: [string, Record<string, string[]>][] = [
    ['', {}],
    [`${sid1}:1-5`, { [sid1]: ['1-5'] }],
    ['00010203-0405-0607-0809-0A0B0C0D0E0F:1-5', { [sid1]: ['1-5'] }],
    [`${sid1}:12`, { [sid1]: ['12-12'] }],
    [`${sid1}:1-5:10-20`, { [sid1]: ['1-5', '10-20'] }],
    [`${sid1}:10-20:1-5`, { [sid1]: ['1-5', '10-20'] }],
    [`${sid1}:8-7`, {}],
    [`${sid1}:1-5:8-7:10-20`, { [sid1]: ['1-5', '10-20'] }],
    [`${sid1}:1-5,${sid1}:10-20`, { [sid1]: ['1-5', '10-20'] }],
    [`${sid1}:10-20,${sid1}:1-5`, { [sid1]: ['1-5', '10-20'] }],
    [`${sid1}:1-5:10-20,${sidFF}:1-5:50`, { [sid1]: ['1-5', '10-20'], [sidFF]: ['1-5', '50-50'] }],
    [`${sid1}:1-5:10-20, ${sidFF}:1-5:50`, { [sid1]: ['1-5', '10-20'], [sidFF]: ['1-5', '50-50'] }],
  ];
  for (const [input, want] of table) {
    it(JSON.stringify(input), () => assert.deepEqual(shapeOf(mysql56(input)), want));
  }
});

// Ported from mysql56_gtid_set_test.go TestParseMysql56GTIDSetInvalid and mysql56_gtid_test.go TestParseSIDInvalid.
describe('reject invalid MySQL56 GTID sets (upstream TestParseMysql56GTIDSetInvalid, TestParseSIDInvalid)', () => {
  const table = [
    '00010203-0405-0607-0809-0a0b0c0d0e0f',
    '00010203-0405-060X-0809-0a0b0c0d0e0f:1-5',
    '00010203-0405-0607-0809-0a0b0c0d0e0f:0-5',
    '00010203-0405-0607-0809-0a0b0c0d0e0f:-5',
    '00010203-0405-0607-0809-0a0b0c0d0e0f:1-2-3',
    '00010203-0405-0607-0809-0a0b0c0d0e0f:1-',
    '123:1',
    'x:1',
    '00010203-0405-0607-0809-0A0B0C0D0E0x:1',
    '00010203-0405-0607-080900A0B0C0D0E0F:1',
  ];
  for (const input of table) {
    it(JSON.stringify(input), () => {
      assert.throws(
        () => mysql56(input),
        (error: unknown) => error instanceof Error && !(error instanceof TypeError) && !error.message.includes('\n'),
      );
    });
  }
});

// Ported from mysql56_gtid_set_test.go TestMysql56GTIDSetString (String() is lower-case).
describe('String() (upstream TestMysql56GTIDSetString)', () => {
  const table: [string, Shape][] = [
    [`${sid1}:1-5`, { [sid1]: [[1, 5]] }],
    [`${sid1}:12`, { [sid1]: [[12, 12]] }],
    [
      `${sid1}:1-5:10-20`,
      {
        [sid1]: [
          [1, 5],
          [10, 20],
        ],
      },
    ],
    [
      `${sid1}:1-5:10-20,${sidFF}:1-5:50`,
      {
        [sidFF]: [
          [1, 5],
          [50, 50],
        ],
        [sid1]: [
          [1, 5],
          [10, 20],
        ],
      },
    ],
  ];
  for (const [want, input] of table) it(want, () => assert.equal(set(input).toString(), want));
  it('prints upper-case input lower-case', () => {
    assert.equal(mysql56('00010203-0405-0607-0809-0A0B0C0D0E0F:1-5').toString(), `${sid1}:1-5`);
  });
  it('flavor is MySQL56 (upstream TestMysql56GTIDSetFlavor)', () => assert.equal(mysql56('').flavor, 'MySQL56'));
});

// Ported from mysql56_gtid_set_test.go TestMysql56GTIDSetContains.
describe('contains (upstream TestMysql56GTIDSetContains)', () => {
  const base = set({
    [sid1]: [
      [20, 30],
      [35, 40],
    ],
    [sid2]: [
      [1, 5],
      [50, 50],
      [60, 70],
    ],
  });
  const contained: Shape[] = [
    {
      [sid1]: [
        [20, 30],
        [35, 40],
      ],
      [sid2]: [
        [1, 5],
        [50, 50],
        [60, 70],
      ],
    },
    {},
    { [sid1]: [[25, 30]] },
    {
      [sid2]: [
        [1, 2],
        [4, 5],
        [60, 70],
      ],
    },
    {
      [sid1]: [
        [25, 30],
        [35, 37],
      ],
      [sid2]: [[1, 5]],
    },
  ];
  for (const other of contained) {
    it(`contains ${set(other) || '(empty)'}`, () => assert.equal(base.contains(set(other)), true));
  }
  const notContained: Shape[] = [
    { [sid1]: [[1, 5]] },
    { [sid1]: [[10, 19]] },
    { [sid1]: [[10, 20]] },
    { [sid1]: [[10, 25]] },
    { [sid1]: [[25, 31]] },
    { [sid1]: [[30, 31]] },
    {
      [sid1]: [
        [20, 30],
        [34, 34],
      ],
    },
    {
      [sid1]: [
        [20, 30],
        [36, 36],
      ],
      [sid2]: [
        [3, 5],
        [55, 60],
      ],
    },
    { [sid3]: [[1, 5]] },
  ];
  for (const other of notContained) {
    it(`does not contain ${set(other)}`, () => assert.equal(base.contains(set(other)), false));
  }
  it('does not contain another flavor', () => {
    assert.equal(base.contains(parseGtidSet('0-1-1', 'MariaDB')), false);
    assert.equal(base.contains(parseGtidSet('f:1', 'FilePos')), false);
  });
});

// Ported from mysql56_gtid_set_test.go TestMysql56GTIDSetContains2.
describe('contains (upstream TestMysql56GTIDSetContains2)', () => {
  const compare = mysql56('16b1039f-22b6-11ed-b765-0a43f95f28a3:1-615');
  const table: [string, boolean][] = [
    ['16b1039f-22b6-11ed-b765-0a43f95f28a3:1-243', true],
    ['16b1039f-22b6-11ed-b765-0a43f95f28a3:1-615', true],
    ['16b1039f-22b6-11ed-b765-0a43f95f28a3:1-632', false],
    ['16b1039f-22b6-11ed-b765-0a43f95f28a3:20-664', false],
    ['16b1039f-22b6-11ed-b765-0a43f95f28a3:20-243', true],
  ];
  for (const [other, want] of table) it(other, () => assert.equal(compare.contains(mysql56(other)), want));
});

// Ported from mysql56_gtid_set_test.go TestMysql56GTIDSetEqual.
describe('equals (upstream TestMysql56GTIDSetEqual)', () => {
  const base = set({
    [sid1]: [
      [20, 30],
      [35, 40],
    ],
    [sid2]: [
      [1, 5],
      [50, 50],
      [60, 70],
    ],
  });
  it('equal to itself and to the same data', () => {
    const same = set({
      [sid1]: [
        [20, 30],
        [35, 40],
      ],
      [sid2]: [
        [1, 5],
        [50, 50],
        [60, 70],
      ],
    });
    for (const other of [base, same]) {
      assert.equal(base.equals(other), true);
      assert.equal(other.equals(base), true);
    }
  });
  const notEqual: Shape[] = [
    {},
    {
      [sid1]: [
        [20, 31],
        [35, 40],
      ],
      [sid2]: [
        [1, 5],
        [50, 50],
        [60, 70],
      ],
    },
    {
      [sid1]: [
        [20, 30],
        [32, 33],
        [35, 40],
      ],
      [sid2]: [
        [1, 5],
        [50, 50],
        [60, 70],
      ],
    },
    {
      [sid1]: [
        [20, 30],
        [35, 40],
      ],
      [sid2]: [
        [1, 5],
        [60, 70],
      ],
    },
    {
      [sid1]: [
        [20, 30],
        [35, 40],
      ],
      [sid3]: [
        [1, 5],
        [50, 50],
        [60, 70],
      ],
    },
    {
      [sid1]: [
        [20, 30],
        [35, 40],
      ],
      [sid2]: [
        [1, 5],
        [50, 50],
        [60, 70],
      ],
      [sid3]: [[1, 5]],
    },
    {
      [sid1]: [
        [20, 30],
        [35, 40],
      ],
    },
  ];
  for (const other of notEqual) {
    it(`not equal to ${set(other) || '(empty)'}`, () => {
      assert.equal(base.equals(set(other)), false);
      assert.equal(set(other).equals(base), false);
    });
  }
  it('not equal to another flavor', () => assert.equal(base.equals(parseGtidSet('0-1-1', 'MariaDB')), false));
});

// Ported from mysql56_gtid_set_test.go TestMysql56GTIDSetUnion (and TestMysql56GTIDSetInPlaceUnion).
describe('union (upstream TestMysql56GTIDSetUnion)', () => {
  it('merges overlapping and adjacent intervals of shared SIDs and adds the rest', () => {
    const set1 = set({
      [sid1]: [
        [20, 30],
        [35, 40],
        [42, 45],
      ],
      [sid2]: [
        [1, 5],
        [20, 50],
        [60, 70],
      ],
    });
    const set2 = set({
      [sid1]: [
        [20, 31],
        [35, 37],
        [41, 46],
      ],
      [sid2]: [
        [3, 6],
        [22, 49],
        [67, 72],
      ],
      [sid3]: [[1, 45]],
    });
    const want = set({
      [sid1]: [
        [20, 31],
        [35, 46],
      ],
      [sid2]: [
        [1, 6],
        [20, 50],
        [60, 72],
      ],
      [sid3]: [[1, 45]],
    });
    const got = set1.union(set2);
    assert.equal(got.equals(want), true, `${got}`);
    // Immutability: the inputs are unchanged.
    assert.equal(set1.toString(), `${sid1}:20-30:35-40:42-45,${sid2}:1-5:20-50:60-70`);
  });
});

// Ported from mysql56_gtid_set_test.go TestMysql56GTIDSetDifference.
describe('subtract (upstream TestMysql56GTIDSetDifference)', () => {
  it('cuts intervals like upstream Difference', () => {
    const set1 = set({
      [sid1]: [
        [20, 30],
        [35, 39],
        [40, 53],
        [55, 75],
      ],
      [sid2]: [
        [1, 7],
        [20, 50],
        [60, 70],
      ],
      [sid4]: [[1, 30]],
      [sid5]: [
        [1, 7],
        [20, 30],
      ],
    });
    const set2 = set({
      [sid1]: [
        [20, 30],
        [35, 37],
        [50, 60],
      ],
      [sid2]: [
        [3, 5],
        [22, 25],
        [32, 37],
        [67, 70],
      ],
      [sid3]: [[1, 45]],
      [sid5]: [
        [2, 6],
        [15, 40],
      ],
    });
    const want = set({
      [sid1]: [
        [38, 39],
        [40, 49],
        [61, 75],
      ],
      [sid2]: [
        [1, 2],
        [6, 7],
        [20, 21],
        [26, 31],
        [38, 50],
        [60, 66],
      ],
      [sid4]: [[1, 30]],
      [sid5]: [
        [1, 1],
        [7, 7],
      ],
    });
    const got = set1.subtract(set2);
    assert.equal(got.equals(want), true, `${got}`);
  });
  it('a set minus itself is empty', () => {
    const got = set({ [sid1]: [[1, 30]] }).subtract(set({ [sid1]: [[1, 30]] }));
    assert.equal(got.equals(mysql56('')), true);
    assert.equal(got.isEmpty(), true);
  });
});

// Ported from mysql56_gtid_set_test.go TestErrantGTIDsOnReplica: replica.RemoveUUID(primary).Difference(primary).
describe('subtract (upstream TestErrantGTIDsOnReplica)', () => {
  const table: [string, string, string, string][] = [
    ['Empty replica position', '', '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8', '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9'],
    ['Empty primary position', '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8', '', '8bc65cca-3fe4-11ed-bbfb-091034d48b3e'],
    [
      'Primary seen as lagging for its own writes',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-33',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-29',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9',
    ],
    [
      'Empty primary position - with multiple errant gtids',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1',
      '',
      '8bc65cca-3fe4-11ed-bbfb-091034d49c4f',
    ],
    [
      'Single errant GTID',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1,8bc65cca-3fe4-11ed-bbfb-091034d48bd3:34',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-50,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1-30',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9',
    ],
    [
      'Multiple errant GTID',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1-32,8bc65cca-3fe4-11ed-bbfb-091034d48bd3:3-35',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-50,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1-30,8bc65cca-3fe4-11ed-bbfb-091034d48bd3:34',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9',
    ],
    [
      'Multiple errant GTID after discounting primary writes',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-10,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1-32,8bc65cca-3fe4-11ed-bbfb-091034d48bd3:3-35',
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1-30,8bc65cca-3fe4-11ed-bbfb-091034d48bd3:34',
      '8bc65cca-3fe4-11ed-bbfb-091034d48b3e',
    ],
  ];
  const wants = [
    '',
    '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8',
    '',
    '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1',
    '8bc65cca-3fe4-11ed-bbfb-091034d48bd3:34',
    '8bc65cca-3fe4-11ed-bbfb-091034d48b3e:31-32,8bc65cca-3fe4-11ed-bbfb-091034d48bd3:3-33:35',
    '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:9-10,8bc65cca-3fe4-11ed-bbfb-091034d48bd3:3-33:35',
  ];
  table.forEach(([name, replica, primary, primarySid], k) => {
    it(name, () => {
      // RemoveUUID(sid) is the difference with every transaction of that SID.
      const withoutPrimary = mysql56(replica).subtract(mysql56(`${primarySid}:1-9223372036854775807`));
      assert.equal(withoutPrimary.subtract(mysql56(primary)).toString(), wants[k]);
    });
  });
});

// Ported from mysql56_gtid_set_test.go TestMySQL56GTIDSetCount.
describe('count (upstream TestMySQL56GTIDSetCount)', () => {
  const table: [string, string, bigint][] = [
    ['Empty GTID String', '', 0n],
    ['Single GTID', `${sid1}:12`, 1n],
    ['Single GTID Interval', `${sid1}:1-5`, 5n],
    ['Single UUID', `${sid1}:1-5:11-20`, 15n],
    ['Multiple UUIDs', `${sid1}:1-5:10-20,${sidFF}:1-5:50`, 22n],
  ];
  for (const [name, text, want] of table) it(name, () => assert.equal(mysql56(text).count(), want));
});

// Ported from mysql56_gtid_set_test.go TestParseMysql56GTIDSetIntervalsCapHint and TestMysql56GTIDSet_RemoveUUID.
describe('interval lists are kept as written (upstream TestParseMysql56GTIDSetIntervalsCapHint)', () => {
  for (const n of [1, 10, 100, 1023, 1024, 1025, 2051, 5000]) {
    it(`${n} disjoint singletons`, () => {
      let text = sid1;
      for (let i = 0; i < n; i++) text += `:${2 * i + 1}-${2 * i + 1}`;
      assert.equal(mysql56(text).intervals(sid1).length, n);
    });
  }
  it('duplicate singletons are retained, not merged', () => {
    const dense = mysql56(sid1 + ':1'.repeat(100_000));
    assert.equal(dense.intervals(sid1).length, 100_000);
    assert.equal(dense.count(), 1n);
  });
  it('a run of colons is an error, found quickly', () => {
    assert.throws(() => mysql56(`${sid1}:${':'.repeat(1 << 20)}`), /at character 38: expected interval/);
  });
  it('keeps the interval list of every other UUID as written', () => {
    const text = '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9:1-8,8bc65cca-3fe4-11ed-bbfb-091034d48b3e:1:4-24';
    assert.equal(mysql56(text).toString(), text);
    assert.deepEqual(mysql56(text).uuids(), [
      '8bc65c84-3fe4-11ed-a912-257f0fcdd6c9',
      '8bc65cca-3fe4-11ed-bbfb-091034d48b3e',
    ]);
  });
});

// Normalization decisions, each checked against upstream's code (ParseMysql56GTIDSet, Contains, Equal, Union).
describe('normalization mirrors upstream', () => {
  it('parsing sorts but does not merge adjacent or overlapping intervals', () => {
    assert.equal(mysql56(`${sid1}:6-10:1-5`).toString(), `${sid1}:1-5:6-10`);
    assert.equal(mysql56(`${sid1}:1-10:3-4`).toString(), `${sid1}:1-10:3-4`);
    assert.equal(mysql56(`${sid1}:1-5,${sid1}:6-10`).toString(), `${sid1}:1-5:6-10`);
  });
  it('ties on start keep their written order (a stable sort)', () => {
    assert.equal(mysql56(`${sid1}:1-9:1-3`).toString(), `${sid1}:1-9:1-3`);
    assert.equal(mysql56(`${sid1}:1-3:1-9`).toString(), `${sid1}:1-3:1-9`);
  });
  it('equals is structural: 1-5:6-10 is not 1-10', () => {
    assert.equal(mysql56(`${sid1}:1-5:6-10`).equals(mysql56(`${sid1}:1-10`)), false);
  });
  it('contains needs one interval around each: 1-5:6-10 does not contain 3-7', () => {
    assert.equal(mysql56(`${sid1}:1-5:6-10`).contains(mysql56(`${sid1}:3-7`)), false);
    assert.equal(mysql56(`${sid1}:1-10`).contains(mysql56(`${sid1}:1-5:6-10`)), true);
  });
  it('union merges shared SIDs only', () => {
    const a = mysql56(`${sid1}:1-5:6-10,${sid2}:1-5:6-10`);
    assert.equal(a.union(mysql56(`${sid1}:20`)).toString(), `${sid1}:1-10:20,${sid2}:1-5:6-10`);
    assert.equal(a.union(a).toString(), `${sid1}:1-10,${sid2}:1-10`);
  });
  it('empty input, empty items, white space and a trailing colon', () => {
    assert.equal(mysql56('').toString(), '');
    assert.equal(mysql56(' , ,\n').isEmpty(), true);
    assert.equal(mysql56(`${sid1}:`).isEmpty(), true);
    assert.equal(mysql56(`${sid1}:1-5:`).toString(), `${sid1}:1-5`);
    assert.equal(mysql56(`\t${sid1}:1-5,\n${sidFF}:7\n`).toString(), `${sid1}:1-5,${sidFF}:7`);
    // Go's TrimSpace trims U+0085 and U+00A0 but not U+FEFF.
    assert.equal(mysql56(`\u0085${sid1}:1\u00a0`).toString(), `${sid1}:1`);
    assert.throws(() => mysql56(`\ufeff${sid1}:1`), /expected a server UUID/);
    assert.throws(() => mysql56(`${sid1} :1`), /expected a server UUID/);
    assert.throws(() => mysql56(`${sid1}:1 :2`), /unexpected character " " in interval/);
  });
  it('what MySQL prints for @@gtid_executed', () => {
    const executed = '3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:11-18,\n4E11FA47-71CA-11E1-9E33-C80AA9429562:1-3';
    assert.equal(
      mysql56(executed).toString(),
      '3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:11-18,4e11fa47-71ca-11e1-9e33-c80aa9429562:1-3',
    );
  });
  it('a UUID whose intervals are all discarded keeps what it had earlier', () => {
    assert.equal(mysql56(`${sid1}:1-2,${sid1}:5-4`).toString(), `${sid1}:1-2`);
  });
  it('leading zeros are accepted and dropped; the end may be 0', () => {
    assert.equal(mysql56(`${sid1}:007-0010`).toString(), `${sid1}:7-10`);
    assert.equal(mysql56(`${sid1}:3-0`).isEmpty(), true);
  });
});

describe('64-bit sequence numbers', () => {
  const max = 9223372036854775807n;
  it('parses and prints values up to 2^63 - 1 exactly', () => {
    const text = `${sid1}:9007199254740991-9007199254740993:9223372036854775806-9223372036854775807`;
    const gtids = mysql56(text);
    assert.equal(gtids.toString(), text);
    assert.deepEqual(gtids.intervals(sid1), [
      [9007199254740991n, 9007199254740993n],
      [max - 1n, max],
    ]);
    assert.equal(gtids.count(), 5n);
  });
  it('rejects 2^63 and beyond', () => {
    assert.throws(() => mysql56(`${sid1}:9223372036854775808`), /larger than 9223372036854775807/);
    assert.throws(() => mysql56(`${sid1}:1-9223372036854775808`), /larger than 9223372036854775807/);
    assert.throws(() => mysql56(`${sid1}:1-${'9'.repeat(1000)}`), /larger than 9223372036854775807/);
  });
  it('counts the whole range without losing precision', () => {
    assert.equal(mysql56(`${sid1}:1-${max}`).count(), max);
    assert.equal(mysql56(`${sid1}:1-${max},${sid2}:1-${max}`).count(), 2n * max);
  });
  it('set operations across the 2^53 boundary', () => {
    const a = mysql56(`${sid1}:9007199254740990-9007199254740995`);
    const b = mysql56(`${sid1}:9007199254740992`);
    assert.equal(
      a.subtract(b).toString(),
      `${sid1}:9007199254740990-9007199254740991:9007199254740993-9007199254740995`,
    );
    assert.equal(a.subtract(b).union(b).toString(), a.toString());
    assert.equal(a.subtract(b).union(b).equals(a), true);
    assert.equal(a.intersect(b).toString(), b.toString());
    assert.equal(
      mysql56(`${sid1}:9007199254740991`)
        .union(mysql56(`${sid1}:9007199254740992`))
        .toString(),
      `${sid1}:9007199254740991-9007199254740992`,
    );
  });
  it('unions merge adjacent intervals at 2^63 - 1', () => {
    const got = mysql56(`${sid1}:1-${max - 1n}`).union(mysql56(`${sid1}:${max}`));
    assert.equal(got.toString(), `${sid1}:1-${max}`);
    assert.equal(
      mysql56(`${sid1}:1-${max}`)
        .subtract(mysql56(`${sid1}:2-${max}`))
        .toString(),
      `${sid1}:1`,
    );
  });
});

describe('other flavors', () => {
  const a = mysql56(`${sid1}:1-5`);
  const maria = parseGtidSet('0-1-5', 'MariaDB');
  it('union and subtract return the receiver (upstream Union type assertion)', () => {
    assert.equal(a.union(maria), a);
    assert.equal(a.subtract(maria), a);
  });
  it('intersect is empty', () => assert.equal(a.intersect(maria).isEmpty(), true));
});

// ---------------------------------------------------------------------------------------------------
// Properties. A small universe (3 SIDs, sequence numbers near 1 or near 2^63 − 1) so that random sets
// overlap often; a brute-force model (a JS Set of `sid:n`) checks the set semantics.

const SIDS = [sid1, sid2, sidFF];
// The largest interval the generator writes ends exactly at 2^63 − 1.
const HIGH = 9223372036854775807n - 53n;

const intervalArb = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: -3, max: 12 }), fc.boolean());
const itemArb = fc.tuple(fc.constantFrom(...SIDS), fc.array(intervalArb, { minLength: 0, maxLength: 5 }), fc.boolean());
/** Text as a user might write it: repeated SIDs, unsorted, overlapping, reversed intervals, upper case. */
const textArb = fc.array(itemArb, { maxLength: 5 }).map((items) =>
  items
    .map(([sid, intervals, upper]) => {
      const parts = intervals.map(([offset, width, high]) => {
        const start = (high ? HIGH : 0n) + BigInt(offset) + 1n;
        const end = start + BigInt(width);
        return width === 0 ? `:${start}` : `:${start}-${end < 0n ? 0n : end}`;
      });
      // `uuid:` with no interval is valid and adds nothing.
      return (upper ? sid.toUpperCase() : sid) + (parts.length > 0 ? parts.join('') : ':');
    })
    .join(','),
);
const setArb = textArb.map(mysql56);
/** Sets as MySQL and Vitess print them: intervals merged (union with itself merges every SID). */
const normalArb = setArb.map((s) => s.union(s) as Mysql56GtidSet);

function model(gtids: GtidSet): Set<string> {
  const out = new Set<string>();
  const s = gtids as Mysql56GtidSet;
  for (const sid of s.uuids()) {
    for (const [start, end] of s.intervals(sid)) for (let n = start; n <= end; n++) out.add(`${sid}:${n}`);
  }
  return out;
}
const sameMembers = (x: Set<string>, y: Set<string>) => x.size === y.size && [...x].every((m) => y.has(m));
const runs = { numRuns: 300 };

describe('properties', () => {
  it('parse(toString(x)) round-trips', () => {
    fc.assert(
      fc.property(setArb, (a) => {
        const again = mysql56(a.toString());
        return again.equals(a) && again.toString() === a.toString();
      }),
      runs,
    );
  });
  it('union, subtract, intersect and count agree with a brute-force model', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => {
        const [ma, mb] = [model(a), model(b)];
        const union = new Set([...ma, ...mb]);
        const minus = new Set([...ma].filter((m) => !mb.has(m)));
        const both = new Set([...ma].filter((m) => mb.has(m)));
        return (
          sameMembers(model(a.union(b)), union) &&
          sameMembers(model(a.subtract(b)), minus) &&
          sameMembers(model(a.intersect(b)), both) &&
          a.count() === BigInt(ma.size)
        );
      }),
      runs,
    );
  });
  it('a ∪ b contains a and b', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => a.union(b).contains(a) && a.union(b).contains(b)),
      runs,
    );
  });
  it('a − b is disjoint from b and inside a', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => {
        const rest = a.subtract(b);
        return rest.intersect(b).isEmpty() && a.contains(rest);
      }),
      runs,
    );
  });
  it('count(a ∪ b) = count(a) + count(b) − count(a ∩ b)', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => a.union(b).count() === a.count() + b.count() - a.intersect(b).count()),
      runs,
    );
  });
  it('intersect is symmetric', () => {
    fc.assert(
      fc.property(setArb, setArb, (a, b) => a.intersect(b).equals(b.intersect(a))),
      runs,
    );
  });
  it('contains is reflexive and transitive', () => {
    fc.assert(
      fc.property(setArb, setArb, setArb, (a, x, y) => {
        const b = a.subtract(x);
        const c = b.subtract(y);
        return a.contains(a) && a.contains(b) && b.contains(c) && a.contains(c);
      }),
      runs,
    );
    fc.assert(
      fc.property(setArb, setArb, setArb, (a, b, c) => !(a.contains(b) && b.contains(c)) || a.contains(c)),
      runs,
    );
  });
  it('on merged sets, contains is the superset relation and equals is mutual containment', () => {
    fc.assert(
      fc.property(normalArb, normalArb, (a, b) => {
        const superset = [...model(b)].every((m) => model(a).has(m));
        return a.contains(b) === superset && a.equals(b) === (a.contains(b) && b.contains(a));
      }),
      runs,
    );
  });
});

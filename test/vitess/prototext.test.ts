/**
 * The generic prototext reader/writer on a schema using every scalar kind (BinlogSource only uses
 * string, bytes, bool, int64 and enums). Expectations follow protobuf-go
 * `internal/encoding/text/decode_token.go` (Token.Int32/Int64/Uint32/Uint64/Float64/Bool) and
 * `encode.go` (appendString, appendFloat).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeTextProto, PrototextError } from '../../src/vitess/prototext/read.js';
import type { MessageDescriptor } from '../../src/vitess/prototext/schema.js';
import { encodeTextProto, quoteTextBytes } from '../../src/vitess/prototext/write.js';

const COLOR = {
  enumName: 'test.Color',
  values: [
    ['RED', 0],
    ['GREEN', 1],
    ['VERDE', 1],
  ] as const,
};
const INNER: MessageDescriptor = { messageName: 'test.Inner', fields: [{ name: 'n', number: 1, type: 'int32' }] };
const ALL: MessageDescriptor = {
  messageName: 'test.All',
  fields: [
    { name: 'i32', number: 1, type: 'int32' },
    { name: 'i64', number: 2, type: 'int64' },
    { name: 'u32', number: 3, type: 'uint32' },
    { name: 'u64', number: 4, type: 'uint64' },
    { name: 'd', number: 5, type: 'double' },
    { name: 'f', number: 6, type: 'float' },
    { name: 'b', number: 7, type: 'bool' },
    { name: 's', number: 8, type: 'string' },
    { name: 'y', number: 9, type: 'bytes' },
    { name: 'c', number: 10, type: COLOR },
    { name: 'inner', number: 11, type: INNER },
    { name: 'many', number: 12, type: INNER, label: 'repeated' },
    { name: 'by_num', number: 13, type: 'string', label: 'map', mapKey: 'int32' },
    { name: 'flags', number: 14, type: INNER, label: 'map', mapKey: 'bool' },
  ],
};

const read = (text: string): Record<string, unknown> => decodeTextProto(text, ALL).message as Record<string, unknown>;

describe('decodeTextProto: scalar kinds', () => {
  const ok: readonly [string, string, unknown][] = [
    ['i32', '-2147483648', -2147483648],
    ['i32', '2147483647', 2147483647],
    ['i32', '0x7fffffff', 2147483647],
    ['i32', '-0x10', -16],
    ['i32', '017', 15],
    ['i64', '-9223372036854775808', -(1n << 63n)],
    ['i64', '0x7FFFFFFFFFFFFFFF', (1n << 63n) - 1n],
    ['u32', '4294967295', 4294967295],
    ['u64', '18446744073709551615', (1n << 64n) - 1n],
    ['d', '1.5', 1.5],
    ['d', '-.5', -0.5],
    ['d', '1e3', 1000],
    ['d', '2f', 2],
    ['d', '10', 10],
    ['d', '017', 17],
    ['d', 'inf', Infinity],
    ['d', '-Infinity', -Infinity],
    ['d', '1e999', Infinity],
    ['f', '0.1', Math.fround(0.1)],
    ['c', 'GREEN', 1],
    ['c', 'VERDE', 1],
    ['c', '7', 7],
    ['c', '-3', -3],
  ];
  for (const [field, text, want] of ok) {
    it(`${field}:${text}`, () => assert.deepStrictEqual(read(`${field}:${text}`)[field], want));
  }
  it('d:nan', () => assert.ok(Number.isNaN(read('d:nan')['d'])));

  const bad: readonly [string, RegExp][] = [
    ['i32:2147483648', /out of range for int32/],
    ['i32:1.0', /expected a int32 value/],
    ['u32:-1', /expected a uint32 value/],
    ['u64:-0', /expected a uint64 value/],
    ['u64:18446744073709551616', /out of range for uint64/],
    ['d:0x10', /expected a double value/],
    ['d:"1"', /expected a double value/],
    ['d:infinite', /expected a double value/],
    ['c:BLUE', /unknown test.Color value "BLUE"/],
    ['c:-RED', /expected a test.Color name or number/],
    ['inner:5', /field inner: expected a message/],
    ['i32:{n:1}', /found a message/],
  ];
  for (const [text, re] of bad) {
    it(`rejects ${text}`, () =>
      assert.throws(
        () => read(text),
        (e: unknown) => e instanceof PrototextError && re.test(e.message),
      ));
  }
});

describe('decodeTextProto: maps with non-string keys and message values', () => {
  it('reads int32 and bool keys, defaults for missing parts', () => {
    const m = read('by_num:{key:2 value:"b"} by_num:{value:"zero"} flags:{key:true value:{n:1}} flags:{key:false}');
    assert.deepStrictEqual(
      [...(m['by_num'] as Map<number, string>)],
      [
        [2, 'b'],
        [0, 'zero'],
      ],
    );
    assert.deepStrictEqual(
      [...(m['flags'] as Map<boolean, unknown>)],
      [
        [true, { n: 1 }],
        [false, { n: 0 }],
      ],
    );
  });
  it('records unknown map-entry fields instead of failing', () => {
    assert.deepStrictEqual(decodeTextProto('by_num:{key:1 value:"a" extra:{x:1}}', ALL).unknownFields, [
      'by_num.extra',
    ]);
  });
  it('repeated messages: repeated, listed, or both', () => {
    assert.deepStrictEqual(read('many:{n:1} many:[{n:2},<n:3>] many{}')['many'], [
      { n: 1 },
      { n: 2 },
      { n: 3 },
      { n: 0 },
    ]);
  });
});

describe('encodeTextProto', () => {
  it('writes every kind in field order, maps sorted by key, defaults omitted', () => {
    const text = encodeTextProto(
      {
        i32: -1,
        i64: 5n,
        u32: 0,
        u64: 18446744073709551615n,
        d: -Infinity,
        f: 0.5,
        b: true,
        s: 'é',
        y: new Uint8Array([0, 0xff]),
        c: 1,
        inner: { n: 0 },
        many: [{ n: 2 }],
        by_num: new Map([
          [10, 'x'],
          [-1, ''],
        ]),
        flags: new Map([
          [true, { n: 1 }],
          [false, { n: 0 }],
        ]),
      },
      ALL,
    );
    assert.equal(
      text,
      'i32:-1 i64:5 u64:18446744073709551615 d:-inf f:0.5 b:true s:"é" y:"\\x00\\xff" c:GREEN inner:{} many:{n:2} by_num:{key:-1 value:""} by_num:{key:10 value:"x"} flags:{key:false value:{}} flags:{key:true value:{n:1}}',
    );
    const back = decodeTextProto(text, ALL).message as Record<string, unknown>;
    assert.equal(back['u64'], 18446744073709551615n);
    assert.deepStrictEqual(
      [...(back['by_num'] as Map<number, string>)],
      [
        [-1, ''],
        [10, 'x'],
      ],
    );
  });
  it('sorts string keys by code point (UTF-8 order), not UTF-16 units', () => {
    const desc: MessageDescriptor = {
      messageName: 'm',
      fields: [{ name: 'm', number: 1, type: 'string', label: 'map', mapKey: 'string' }],
    };
    assert.equal(
      encodeTextProto(
        {
          m: new Map([
            ['😀', ''],
            ['\uffff', ''],
          ]),
        },
        desc,
      ),
      'm:{key:"\uffff" value:""} m:{key:"😀" value:""}',
    );
  });
  it('rejects values that do not fit', () => {
    assert.throws(() => encodeTextProto({ i32: 2 ** 31 }, ALL), /out of range for int32/);
    assert.throws(() => encodeTextProto({ s: 5 }, ALL), /cannot write s: expected a string value/);
  });
});

describe('quoteTextBytes (protobuf-go appendString)', () => {
  const cases: readonly [number[], string][] = [
    [[0x41, 0x22, 0x5c, 0x27], '"A\\"\\\\\'"'],
    [[0x0a, 0x0d, 0x09, 0x00, 0x07, 0x1b, 0x7f], '"\\n\\r\\t\\x00\\x07\\x1b\x7f"'],
    [[0xc3, 0xa9], '"é"'],
    [[0xc3], '"\\xc3"'],
    [[0xc0, 0x80], '"\\xc0\\x80"'], // overlong
    [[0xed, 0xa0, 0x80], '"\\xed\\xa0\\x80"'], // encoded surrogate
    [[0xf4, 0x90, 0x80, 0x80], '"\\xf4\\x90\\x80\\x80"'], // above U+10FFFF
    [[0xf0, 0x9f, 0x98, 0x80], '"😀"'],
  ];
  for (const [bytes, want] of cases) {
    it(bytes.map((b) => b.toString(16)).join(' '), () => assert.equal(quoteTextBytes(new Uint8Array(bytes)), want));
  }
});

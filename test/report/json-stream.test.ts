/**
 * The streaming JSON serialiser (src/report/json-stream.ts) writes the bytes of `JSON.stringify(value,
 * bigintAsString, 2)`: a differential test against JSON.stringify itself on the golden reports and on generated values
 * (unicode, control characters, lone surrogates, empty and nested containers, number edge cases, bigint, undefined).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHUNK, streamJson } from '../../src/report/json-stream.js';
import renderJson, { streamReportJson, toContractJson } from '../../src/report/json.js';
import { bigintAsString } from '../../src/text.js';
import { repoRoot } from '../helpers/paths.js';
import { finding, loadReport, makeReport } from './helpers.js';

type Replacer = (this: unknown, key: string, value: unknown) => unknown;

/** What the streaming serialiser writes, and its chunks (`replacer` null: none). */
function streamed(value: unknown, replacer: Replacer | null = bigintAsString, indent = 2, nativeDepth?: number) {
  const chunks: string[] = [];
  const wrote = streamJson(
    value,
    replacer ?? undefined,
    indent,
    (c) => chunks.push(c),
    nativeDepth === undefined ? {} : { nativeDepth },
  );
  return { text: wrote ? chunks.join('') : undefined, chunks };
}

/**
 * Asserts the stream writes what JSON.stringify does (or throws the same kind of error); `replacer` null: none. With
 * `nativeDepth`, the subtrees that deep are handed to JSON.stringify (for replacers that ignore key and holder).
 */
function same(value: unknown, replacer: Replacer | null = bigintAsString, indent = 2, nativeDepth?: number): void {
  let expected: string | undefined;
  try {
    expected = JSON.stringify(value, replacer ?? undefined, indent);
  } catch (e) {
    assert.throws(() => streamed(value, replacer, indent, nativeDepth), (e as Error).constructor as typeof Error);
    return;
  }
  assert.equal(streamed(value, replacer, indent, nativeDepth).text, expected);
}

/** A small deterministic generator (xorshift) so failures reproduce. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

const STRINGS = [
  '',
  'plain',
  'quote " backslash \\ slash /',
  '\b\f\n\r\t\v\0\u0001\u001f\u007f\u0080\u009f',
  'é ü 中文 \u2028 \u2029 \ufeff',
  '😀 \ud83d\ude00',
  'lone high \ud800 end',
  'lone low \udfff end',
  '\udc00\ud800',
  '<script>&amp;</script>',
];
const NUMBERS = [0, -0, 1, -1, 1.5, 0.1, 1e21, 1e-7, -1e21, 123456789012345680000, Number.MAX_SAFE_INTEGER, 5e-324];
const SPECIAL = [NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE];

function generate(next: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const r = next();
  if (depth <= 0 || r < 0.45) {
    return pick<unknown>([
      pick(STRINGS),
      pick(NUMBERS),
      pick(SPECIAL),
      true,
      false,
      null,
      undefined,
      BigInt(Math.floor(next() * 1e6)) * 10n ** 20n,
      -7n,
      () => 1,
      Symbol('s'),
      new Date(Math.floor(next() * 2e12)),
    ]);
  }
  const n = Math.floor(next() * 5);
  if (r < 0.7) return Array.from({ length: n }, () => generate(next, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[pick([...STRINGS, 'a', 'b', '1', '0', '__proto_', 'key'])] = generate(next, depth - 1);
  return o;
}

describe('streamJson: byte-identical to JSON.stringify', () => {
  it('the golden JSON reports, parsed again', () => {
    const dir = join(repoRoot, 'test', 'fixtures', 'reports');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 4);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      same(JSON.parse(text));
      if (f.endsWith('.golden.json')) assert.equal(`${streamed(JSON.parse(text)).text}\n`, text, f);
    }
  });

  it('the json reporter on fixture reports: JSON.stringify of the contract object and a newline', () => {
    const reports = [
      loadReport('sample'),
      loadReport('healthy'),
      makeReport([finding({ details: { reason: 'r', gtids: 12345678901234567890n, note: 'a\u0000b\ud800' } })]),
    ];
    for (const report of reports) {
      const expected = `${JSON.stringify(toContractJson(report), bigintAsString, 2)}\n`;
      assert.equal(renderJson(report, { color: false }), expected);
      const chunks: string[] = [];
      streamReportJson(report, { color: false }, (c) => chunks.push(c));
      assert.equal(chunks.join(''), expected);
    }
  });

  it('hand-picked edge cases', () => {
    const cases: unknown[] = [
      null,
      0,
      -0,
      1e21,
      NaN,
      'x',
      true,
      [],
      {},
      [[]],
      [{}],
      { a: [] },
      { a: {} },
      [[[], {}], { b: [{}] }],
      { a: undefined, b: () => 1, c: Symbol('c') },
      { a: undefined },
      [undefined, () => 1, Symbol('x')],
      { big: 2n ** 70n, neg: -1n, arr: [0n] },
      { date: new Date(0) },
      { toJSON: (k: string) => ({ key: k }) },
      { n: Object(3), s: Object('s'), b: Object(false) },
      { '2': 'b', '1': 'a', z: 1, y: 2 },
      new Map([['a', 1]]),
      Object.assign([1, 2], { extra: 3 }),
      // biome-ignore lint/suspicious/noSparseArray: a hole is written null
      [1, , 3],
      Object.fromEntries(STRINGS.map((s) => [s, s])),
      NUMBERS,
      SPECIAL,
    ];
    for (const c of cases) {
      same(c);
      same(c, null, 2);
      same(c, null, 0);
      same(c, bigintAsString, 4);
      for (const depth of [0, 1, 2]) {
        same(c, bigintAsString, 2, depth);
        same(c, null, 0, depth);
        same(c, bigintAsString, 4, depth);
      }
    }
    assert.equal(streamed(undefined).text, undefined);
    assert.equal(streamed(() => 1).text, undefined);
  });

  it('a bigint the replacer does not convert, and a cycle, throw TypeError as JSON.stringify does', () => {
    assert.throws(() => streamed({ a: 1n }, null), TypeError);
    const cyc: Record<string, unknown> = { a: 1 };
    cyc.self = { back: cyc };
    assert.throws(() => streamed(cyc), TypeError);
    for (const depth of [0, 1, 2]) assert.throws(() => streamed(cyc, bigintAsString, 2, depth), TypeError);
    // The same object twice, not nested in itself, is no cycle.
    const shared = { x: 1 };
    same({ a: shared, b: [shared, shared] });
  });

  it('a replacer that drops, renames and sees its holder as this', () => {
    const replacer: Replacer = function (this: unknown, key, value) {
      if (key === 'drop') return undefined;
      if (typeof value === 'number') return `${value}@${Array.isArray(this) ? 'array' : typeof this}`;
      return bigintAsString(key, value);
    };
    same({ drop: 1, keep: [1, 2, { n: 3, drop: 4 }], big: 5n }, replacer);
  });

  it('2000 generated values', () => {
    const next = rng(14);
    for (let i = 0; i < 2000; i++) same(generate(next, 5));
  });

  it('2000 generated values with the subtrees below depth 0, 1, 2 or 3 written by JSON.stringify', () => {
    const next = rng(27);
    for (let i = 0; i < 2000; i++) {
      const v = generate(next, 5);
      same(v, bigintAsString, 2, i % 4);
      same(v, null, i % 3, i % 4);
    }
  });

  it('long arrays below nativeDepth, in batches, with and without a bigint in a batch', () => {
    const big = Array.from({ length: 1000 }, (_, i) => ({ i, s: STRINGS[i % STRINGS.length], n: [i, -i], e: [] }));
    const withBig = big.map((x, i) => (i === 700 ? { ...x, g: 2n ** 65n } : x));
    for (const v of [big, withBig, { a: { b: big }, c: withBig }, [[withBig]]])
      for (const depth of [0, 1, 2, 3]) {
        same(v, bigintAsString, 2, depth);
        same(v, bigintAsString, 0, depth);
      }
  });

  it('writes in chunks of about CHUNK characters, never the whole of a large value at once', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => ({ i, s: STRINGS[i % STRINGS.length], n: [i, -i] }));
    const { text, chunks } = streamed(big);
    assert.equal(text, JSON.stringify(big, bigintAsString, 2));
    assert.ok(chunks.length > 10, `${chunks.length} chunks`);
    for (const c of chunks.slice(0, -1)) assert.ok(c.length >= CHUNK && c.length < CHUNK + 1000, `${c.length}`);
  });
});

/**
 * Fuzz: random and mutated texts never make parseGtidSet (every flavor), parsePosition or
 * parsePositionDefaultFlavor throw anything but a one-line GtidParseError, never take long, and every
 * accepted set survives a print/parse round trip and basic set operations. Runs VTPREFLIGHT_FUZZ_RUNS
 * inputs per generator (default 2000; `npm run fuzz` sets 100000). Also checks that parsing time grows
 * linearly with input size up to 1 MB.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import {
  GtidParseError,
  parseGtidSet,
  parsePosition,
  parsePositionDefaultFlavor,
  type GtidFlavor,
  type GtidSet,
} from '../../../src/vitess/position.js';

const RUNS = Number(process.env.VTPREFLIGHT_FUZZ_RUNS ?? 2000);
/** Per-input ceiling: fuzz inputs are at most a few KB, so anything near this means a hang. */
const MAX_MS_PER_INPUT = 1000;

function assertCleanError(error: unknown, input: string): void {
  const where = `input ${JSON.stringify(input.slice(0, 200))}`;
  assert.ok(
    error instanceof GtidParseError,
    `${error instanceof Error ? error.constructor.name : typeof error} thrown for ${where}: ${String(error)}`,
  );
  assert.doesNotMatch(error.message, /[\n\r\u2028\u2029]/, `multi-line message for ${where}`);
  assert.match(error.message, /^invalid (MySQL56 |MariaDB |FilePos )?(GTID set|position) "/, `message for ${where}`);
  assert.ok(error.message.length < 400, `overlong message for ${where}: ${error.message.length}`);
  assert.ok(
    error.index === null || (error.index >= 0 && error.index <= input.length),
    `index ${error.index} for ${where}`,
  );
}

/** Operations every accepted set must survive, with the laws that hold for every flavor. */
function exercise(set: GtidSet, flavor: GtidFlavor, input: string): void {
  const where = JSON.stringify(input.slice(0, 200));
  const again = parseGtidSet(set.toString(), flavor);
  assert.ok(again.equals(set) && again.toString() === set.toString(), `round trip of ${where}: ${set}`);
  assert.ok(set.contains(set), `contains itself: ${where}`);
  assert.ok(set.union(set).contains(set), `union contains: ${where}`);
  if (flavor !== 'FilePos') {
    assert.equal(set.union(set).count(), set.count(), `count of union with itself: ${where}`);
    assert.ok(set.intersect(set).equals(set.union(set)), `intersect with itself: ${where}`);
  }
  if (flavor === 'MySQL56') assert.ok(set.subtract(set).isEmpty(), `minus itself: ${where}`);
}

function timed(input: string, run: () => void): void {
  const started = performance.now();
  try {
    run();
  } finally {
    const ms = performance.now() - started;
    assert.ok(ms < MAX_MS_PER_INPUT, `took ${ms.toFixed(0)} ms on ${JSON.stringify(input.slice(0, 200))}`);
  }
}

function check(input: string): void {
  for (const flavor of ['MySQL56', 'MariaDB', 'FilePos'] as const) {
    timed(input, () => {
      let set: GtidSet;
      try {
        set = parseGtidSet(input, flavor);
      } catch (error) {
        assertCleanError(error, input);
        return;
      }
      exercise(set, flavor, input);
    });
  }
  for (const decode of [parsePosition, (text: string) => parsePositionDefaultFlavor(text, 'MySQL56')]) {
    timed(input, () => {
      try {
        const position = decode(input);
        assert.ok(
          parsePosition(position.toString()).equals(position),
          `position round trip of ${JSON.stringify(input)}`,
        );
        assert.ok(position.atLeast(position), `atLeast itself: ${JSON.stringify(input)}`);
      } catch (error) {
        assertCleanError(error, input);
      }
    });
  }
}

const UUID = '3e11fa47-71ca-11e1-9e33-c80aa9429562';
const SEEDS = [
  '',
  `${UUID}:1-5`,
  `${UUID}:1-5:11-18,\n4e11fa47-71ca-11e1-9e33-c80aa9429562:1-3`,
  '00010203-0405-0607-0809-0A0B0C0D0E0F:10-20:1-5:8-7,00010203-0405-0607-0809-0a0b0c0d0e0f:12',
  `${UUID}:9223372036854775806-9223372036854775807`,
  `MySQL56/${UUID}:1-615`,
  'MySQL56/',
  '12-34-5678,11-22-3333',
  'MariaDB/0-1-18446744073709551615,4294967295-4294967295-1',
  'mysql-bin.166031:192394',
  'FilePos/mysql-bin.000001:0x1F',
  'FilePos/f:0b1_0',
];

/** Pieces of the grammars, so random strings get deep into the parsers instead of failing on the first character. */
const TOKENS = [
  UUID,
  UUID.toUpperCase(),
  '3e11fa47',
  '-71ca',
  '-',
  ':',
  ',',
  ',\n',
  '/',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0085',
  '\u00a0',
  '\ufeff',
  '0',
  '1',
  '5',
  '9',
  '00',
  '12',
  '007',
  'a',
  'f',
  'F',
  'g',
  'x',
  'X',
  'o',
  'b',
  '_',
  '+',
  'e',
  '😀',
  '\ud800',
  '\0',
  '9007199254740991',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551615',
  '18446744073709551616',
  '4294967295',
  '4294967296',
  '0x',
  '0o',
  '0b',
  '0x_1',
  '1__0',
  'MySQL56',
  'MariaDB',
  'FilePos',
  'MySQL56/',
  'MariaDB/',
  'FilePos/',
  'mysql-bin.000001',
  ':1-5',
  ':1',
  '0-1-2',
];
const token = fc.constantFrom(...TOKENS);
const soup = fc.array(token, { maxLength: 40 }).map((t) => t.join(''));

/** Valid sets of every flavor, built from parts, as seeds for mutation. */
const generated = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.constantFrom(UUID, '00010203-0405-0607-0809-0a0b0c0d0eff'),
        fc.array(fc.tuple(fc.bigInt({ min: 1n, max: 99n }), fc.nat(9)), { maxLength: 4 }),
      ),
      { maxLength: 3 },
    )
    .map((items) =>
      items
        .map(([id, ivs]) => id + (ivs.length === 0 ? ':' : ivs.map(([s, w]) => `:${s}-${s + BigInt(w)}`).join('')))
        .join(','),
    ),
  fc
    .array(fc.tuple(fc.nat(9), fc.nat(9), fc.bigInt({ min: 0n, max: 18446744073709551615n })), {
      minLength: 1,
      maxLength: 3,
    })
    .map((g) => g.map((x) => x.join('-')).join(',')),
  fc
    .tuple(
      fc.string({ maxLength: 12 }).map((f) => f.replace(/:/g, '')),
      fc.nat(4294967295),
    )
    .map(([f, p]) => `${f}:${p}`),
);
const seed = fc.oneof(
  fc.constantFrom(...SEEDS),
  generated,
  generated.map((s) => `MySQL56/${s}`),
);

type Mutation =
  | { readonly op: 'insert'; readonly at: number; readonly text: string }
  | { readonly op: 'delete' | 'duplicate'; readonly at: number; readonly length: number }
  | { readonly op: 'replace'; readonly at: number; readonly code: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: token }),
  fc.record({
    op: fc.constantFrom('delete' as const, 'duplicate' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 16 }),
  }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), code: fc.integer({ min: 0, max: 0x7f }) }),
);
function mutate(text: string, mutations: readonly Mutation[]): string {
  let s = text;
  for (const m of mutations) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    switch (m.op) {
      case 'insert':
        s = s.slice(0, at) + m.text + s.slice(at);
        break;
      case 'replace':
        s = s.slice(0, at) + String.fromCharCode(m.code) + s.slice(at + 1);
        break;
      case 'delete':
        s = s.slice(0, at) + s.slice(at + m.length);
        break;
      case 'duplicate':
        s = s.slice(0, at + m.length) + s.slice(at, at + m.length) + s.slice(at + m.length);
        break;
    }
  }
  return s;
}
const mutated = fc.tuple(seed, fc.array(mutation, { minLength: 1, maxLength: 6 })).map(([s, m]) => mutate(s, m));

describe(`fuzz GTID set and position parsers (${RUNS} runs per generator)`, () => {
  it('mutated upstream and generated sets and positions', () => {
    fc.assert(fc.property(mutated, check), { numRuns: RUNS });
  });
  it('grammar-token soup', () => {
    fc.assert(fc.property(soup, check), { numRuns: RUNS });
  });
  it('arbitrary strings (any code point, lone surrogates included)', () => {
    const anything = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: 'binary-ascii', maxLength: 80 }),
      fc.string({ unit: fc.constantFrom('\ud800', '\udc00', '1', ':', '-', ',', '/'), maxLength: 80 }),
    );
    // Found by a run of this property: a line separator was quoted raw into the one-line error.
    const examples: [string][] = [['\u2028'], ['\u2029'], ['\u0085'], ['0-1-2\u2028'], ['\u009b31m']];
    fc.assert(fc.property(anything, check), { numRuns: RUNS, examples });
  });
});

/** CPU time of this process (all threads) in ms: unlike wall time, not stretched when other work preempts us. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Least CPU time of five runs of `parse(text)`, in ms, after one warm-up run; errors must be clean. The
 * minimum, not the median: on a busy machine interference only ever adds time.
 */
function timeParse(text: string, parse: (text: string) => unknown): number {
  const run = (): number => {
    const started = cpuMs();
    try {
      parse(text);
    } catch (error) {
      assertCleanError(error, text);
    }
    return cpuMs() - started;
  };
  run();
  return Math.min(run(), run(), run(), run(), run());
}

/** `unit` repeated to about `size` characters, between `prefix` and `suffix`. */
const sized = (prefix: string, unit: string, suffix: string, size: number): string =>
  prefix + unit.repeat(Math.max(1, Math.floor(size / unit.length))) + suffix;

function manyIntervals(size: number, reversed: boolean): string {
  const parts: string[] = [];
  let length = UUID.length;
  for (let i = 1; length < size; i++) {
    const part = `:${3 * i}-${3 * i + 1}`;
    parts.push(part);
    length += part.length;
  }
  if (reversed) parts.reverse();
  return UUID + parts.join('');
}

function manyUuids(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const part = `${i.toString(16).padStart(8, '0')}-71ca-11e1-9e33-c80aa9429562:1-${i + 1}:${i + 5}-${i + 9},\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
}

describe('parse time is linear in input size (100 KB vs 1 MB, CPU time)', () => {
  const KB100 = 100 * 1024;
  const MB1 = 1024 * 1024;
  const mysql = (text: string) => parseGtidSet(text, 'MySQL56');
  const shapes: readonly [string, (size: number) => string, (text: string) => unknown][] = [
    ['MySQL56: one UUID, many intervals', (n) => manyIntervals(n, false), mysql],
    ['MySQL56: one UUID, intervals in reverse order', (n) => manyIntervals(n, true), mysql],
    ['MySQL56: many UUIDs, as MySQL prints them', manyUuids, mysql],
    ['MySQL56: the same UUID repeated', (n) => sized('', `${UUID}:7,`, '', n), mysql],
    [
      'MySQL56: the same UUID repeated, descending',
      (n) => Array.from({ length: Math.floor(n / 45) }, (_, i) => `${UUID}:${1_000_000 - i}`).join(','),
      mysql,
    ],
    ['MySQL56: empty items and white space', (n) => sized('', ' ,\n\t,\u00a0', `${UUID}:1`, n), mysql],
    ['MySQL56: one huge number', (n) => sized(`${UUID}:`, '12345678', '', n), mysql],
    ['MySQL56: one huge run of zeros', (n) => sized(`${UUID}:`, '00000000', '1', n), mysql],
    ['MySQL56: valid text, then an error at the very end', (n) => `${manyIntervals(n, false)}:x`, mysql],
    ['MySQL56: item without a colon at the end', (n) => `${manyUuids(n)}x`, mysql],
    [
      'MariaDB: many domains',
      (n) => sized('', '4294967295-4294967295-18446744073709551615,', '0-0-0', n),
      (t) => parseGtidSet(t, 'MariaDB'),
    ],
    ['MariaDB: error at the very end', (n) => sized('', '1-2-3,', '1-2-', n), (t) => parseGtidSet(t, 'MariaDB')],
    ['FilePos: long file name', (n) => sized('', 'mysql-bin.', ':4', n), (t) => parseGtidSet(t, 'FilePos')],
    ['FilePos: long position with underscores', (n) => sized('f:0', '_0', '', n), (t) => parseGtidSet(t, 'FilePos')],
    ['position: long MySQL56 set', (n) => `MySQL56/${manyUuids(n)}`, parsePosition],
    ['position: long unknown flavor', (n) => sized('', 'MySQL', '/1', n), parsePosition],
  ];
  for (const [name, make, parse] of shapes) {
    it(name, () => {
      const small = make(KB100);
      const large = make(MB1);
      // Linear work gives a ratio near 10 (n log n sorting a little more); quadratic gives ~100. A busy
      // machine can still spoil one measurement, so a shape gets three tries; a quadratic one fails all.
      let report = '';
      for (let attempt = 0; attempt < 3; attempt++) {
        const tSmall = timeParse(small, parse);
        const tLarge = timeParse(large, parse);
        const ratio = tLarge / Math.max(tSmall, 0.5);
        report = `${name}: 100 KB ${tSmall.toFixed(1)} ms, 1 MB ${tLarge.toFixed(1)} ms of CPU, ratio ${ratio.toFixed(1)}`;
        if (ratio < 30 && tLarge < 3000) return;
      }
      assert.fail(report);
    });
  }
});

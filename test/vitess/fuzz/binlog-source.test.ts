/**
 * Fuzz: random and mutated `source` texts never make parseBinlogSource throw anything but a one-line
 * Error naming the BinlogSource, never take long, and anything it accepts survives a write/read round
 * trip. Runs VTPREFLIGHT_FUZZ_RUNS inputs per generator (default 2000; `npm run fuzz` sets 100000).
 * Also checks that parsing time grows linearly with input size up to 1 MB.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import {
  binlogSourceToText,
  parseBinlogSource,
  parseBinlogSourceBytes,
  type BinlogSource,
} from '../../../src/vitess/binlog-source.js';
import { PrototextError } from '../../../src/vitess/prototext/read.js';
import { anyBinlogSource, UPSTREAM_SOURCES } from '../../helpers/prototext-arbitraries.js';

const RUNS = Number(process.env.VTPREFLIGHT_FUZZ_RUNS ?? 2000);
/** Per-input ceiling: fuzz inputs are at most a few KB, so anything near this means a hang. */
const MAX_MS_PER_INPUT = 1000;

function assertCleanError(e: unknown, input: string): void {
  const where = `input ${JSON.stringify(input.slice(0, 200))}`;
  assert.ok(e instanceof Error, `non-Error thrown for ${where}: ${String(e)}`);
  assert.ok(
    e.constructor === Error || e instanceof PrototextError,
    `${e.constructor.name} thrown for ${where}: ${e.message}`,
  );
  assert.doesNotMatch(e.message, /[\n\r\u2028\u2029]/, `multi-line message for ${where}`);
  assert.match(e.message, /^invalid BinlogSource/, `message for ${where}`);
  assert.ok(e.message.length < 400, `overlong message for ${where}`);
}

const tally = { accepted: 0, rejected: 0 };

function check(input: string): void {
  const t0 = performance.now();
  let parsed: BinlogSource;
  try {
    parsed = parseBinlogSource(input);
    tally.accepted++;
  } catch (e) {
    assertCleanError(e, input);
    tally.rejected++;
    return;
  } finally {
    const ms = performance.now() - t0;
    assert.ok(ms < MAX_MS_PER_INPUT, `took ${ms.toFixed(0)} ms on ${JSON.stringify(input.slice(0, 200))}`);
  }
  // Anything accepted is a well-formed value: it writes back and reads back the same (unknown fields dropped).
  assert.deepStrictEqual(parseBinlogSource(binlogSourceToText(parsed)), { ...parsed, unknownFields: [] });
}

/** Pieces of the grammar, so random strings get deep into the parser instead of failing on the first byte. */
const TOKENS = [
  '{',
  '}',
  '<',
  '>',
  '[',
  ']',
  ':',
  ',',
  ';',
  '"',
  "'",
  '\\',
  '#',
  '\n',
  ' ',
  '\t',
  '\r',
  '-',
  '.',
  '/',
  '+',
  '0',
  '1',
  '7',
  '9',
  'x',
  'e',
  'f',
  'E',
  '_',
  'a',
  'z',
  'A',
  'é',
  '😀',
  '\0',
  '\ud800',
  'keyspace',
  'shard',
  'filter',
  'rules',
  'match',
  'key_range',
  'start',
  'end',
  'tables',
  'on_ddl',
  'tablet_type',
  'stop_after_copy',
  'workflow_type',
  'field_event_mode',
  'convert_enum_to_text',
  'convert_charset',
  'convert_int_to_enum',
  'key',
  'value',
  'from_charset',
  'unknown_field',
  '[a.b/c]',
  '\\x',
  '\\u',
  '\\U',
  '\\200',
  '\\x80',
  '\\ud83d\\ude00',
  'true',
  't',
  'False',
  'inf',
  '-nan',
  '0x1f',
  '017',
  '1e5',
  '2147483648',
  '9223372036854775808',
  'EXEC',
  'MASTER',
  'BATCH',
  '"s"',
  "'s'",
  ':"v"',
  ':{',
  ':<',
  ':[',
  '},',
  '>;',
];
const token = fc.constantFrom(...TOKENS);
const grammarSoup = fc.array(token, { maxLength: 60 }).map((t) => t.join(''));

const seed: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...UPSTREAM_SOURCES.map((s) => s.text)),
  anyBinlogSource.map(binlogSourceToText),
);

type Mutation =
  | { op: 'insert'; at: number; text: string }
  | { op: 'delete' | 'duplicate'; at: number; len: number }
  | { op: 'flip'; at: number; code: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: token }),
  fc.record({
    op: fc.constantFrom('delete' as const, 'duplicate' as const),
    at: fc.nat(),
    len: fc.integer({ min: 1, max: 16 }),
  }),
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), code: fc.integer({ min: 0, max: 0x7f }) }),
);
function mutate(text: string, muts: readonly Mutation[]): string {
  let s = text;
  for (const m of muts) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    if (m.op === 'insert') s = s.slice(0, at) + m.text + s.slice(at);
    else if (m.op === 'flip') s = s.slice(0, at) + String.fromCharCode(m.code) + s.slice(at + 1);
    else if (m.op === 'delete') s = s.slice(0, at) + s.slice(at + m.len);
    else s = s.slice(0, at + m.len) + s.slice(at, at + m.len) + s.slice(at + m.len);
  }
  return s;
}
const mutated = fc.tuple(seed, fc.array(mutation, { minLength: 1, maxLength: 6 })).map(([s, m]) => mutate(s, m));

/** Run `check` over `arb`, and report how many inputs were accepted (a fuzzer that only hits errors is weak). */
function fuzz(t: { diagnostic(msg: string): void }, arb: fc.Arbitrary<string>): void {
  tally.accepted = 0;
  tally.rejected = 0;
  const t0 = performance.now();
  fc.assert(
    fc.property(arb, (s) => check(s)),
    { numRuns: RUNS },
  );
  t.diagnostic(
    `${RUNS} inputs in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${tally.accepted} accepted, ${tally.rejected} rejected`,
  );
}

describe(`fuzz parseBinlogSource (${RUNS} runs per generator)`, () => {
  it('mutated upstream and generated sources', (t) => fuzz(t, mutated));
  it('grammar-token soup', (t) => fuzz(t, grammarSoup));
  it('arbitrary strings (any code point, lone surrogates included)', (t) => {
    const anything = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: 'binary-ascii', maxLength: 80 }),
      fc.string({ maxLength: 80, unit: fc.constantFrom('\ud800', '\udc00', 'a', '"', '{') }),
    );
    fuzz(t, anything);
  });
  it('arbitrary column bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (b) => {
        try {
          parseBinlogSourceBytes(b);
        } catch (e) {
          assertCleanError(e, Array.from(b, (x) => String.fromCharCode(x)).join(''));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * CPU time (user + system, ms) of `parseBinlogSource(text)`: the minimum of five runs after a warm-up.
 * CPU time and the minimum are the least disturbed by other processes on a busy machine.
 */
function timeParse(text: string): number {
  const run = (): number => {
    const c0 = process.cpuUsage();
    try {
      parseBinlogSource(text);
    } catch (e) {
      assertCleanError(e, text);
    }
    const d = process.cpuUsage(c0);
    return (d.user + d.system) / 1000;
  };
  run();
  let best = Infinity;
  for (let i = 0; i < 5; i++) best = Math.min(best, run());
  return best;
}

/** Repeat `unit` to about `bytes` characters and wrap it. */
function sized(prefix: string, unit: string, suffix: string, bytes: number): string {
  return prefix + unit.repeat(Math.max(1, Math.floor(bytes / unit.length))) + suffix;
}

describe('parse time is linear in input size (100 KB vs 1 MB)', () => {
  const KB100 = 100 * 1024;
  const MB1 = 1024 * 1024;
  const shapes: readonly [string, (n: number) => string][] = [
    [
      'many rules',
      (n) =>
        sized(
          'keyspace:"ks" shard:"-80" filter:{',
          `rules:{match:"t1" filter:"select * from t1 where in_keyrange(id, 'ks.hash', '-80')"} `,
          '}',
          n,
        ),
    ],
    [
      'old spelling, many rules',
      (n) => sized('keyspace:"ks" filter:<', 'rules:<match:"t1" filter:"exclude" > ', '>', n),
    ],
    [
      'one long string full of escapes',
      (n) => sized('key_range:{start:"', '\\x80\\200\\u00e9\\U0001F600\\"a', '"}', n),
    ],
    ['adjacent string pieces', (n) => sized('keyspace:', '"a" \'b\' ', '', n)],
    ['comments and whitespace', (n) => sized('', '# a comment line\n \t\r\n', 'keyspace:"ks"', n)],
    ['unknown nested fields', (n) => sized('', 'u:{v:<w:[1, -2, 0x3, {x:"y"}]> z:inf} [e.x]:{} ', '', n)],
    ['many repeated tables', (n) => sized('', 'tables:"t" ', '', n)],
    ['list form', (n) => sized('tables:[', '"t",', '"t"]', n)],
    ['deep nesting, repeated', (n) => sized('', `${'a{'.repeat(99)}${'}'.repeat(99)} `, '', n)],
    ['valid text then an error at the very end', (n) => sized('filter:{', 'rules:{match:"t"} ', '', n)],
    ['unterminated string', (n) => sized('keyspace:"', 'abcdefgh', '', n)],
    ['one huge identifier', (n) => sized('', 'abcdefgh', '', n)],
    ['one huge number', (n) => sized('x:', '12345678', '', n)],
  ];
  for (const [name, make] of shapes) {
    it(name, (t) => {
      const small = make(KB100);
      const large = make(MB1);
      // Linear work gives a ratio near 10 (a bit more once the result outgrows V8's young generation);
      // quadratic work gives ~100. Up to three attempts, so that a burst of load cannot fail the test.
      let report = '';
      for (let attempt = 0; attempt < 3; attempt++) {
        const tSmall = timeParse(small);
        const tLarge = timeParse(large);
        const ratio = tLarge / Math.max(tSmall, 0.5);
        report = `${name}: 100 KB ${tSmall.toFixed(1)} ms, 1 MB ${tLarge.toFixed(1)} ms CPU, ratio ${ratio.toFixed(1)}`;
        if (ratio < 30 && tLarge < 3000) {
          t.diagnostic(report);
          return;
        }
      }
      assert.fail(report);
    });
  }
});

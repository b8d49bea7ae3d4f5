/**
 * Fuzz: random and mutated shard names and sharding specs never make the key-range functions throw
 * anything but a one-line Error, and whatever parses obeys the key-range laws. Runs
 * VTPREFLIGHT_FUZZ_RUNS inputs per generator (default 2000; `npm run fuzz` sets 100000).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  isKeyRangeName,
  keyRangeContains,
  keyRangeEqual,
  keyRangeIsComplete,
  keyRangesIntersect,
  keyRangeString,
  parseKeyRange,
  parseShardingSpec,
  type KeyRange,
} from '../../../src/vitess/keyrange.js';

const RUNS = Number(process.env.VTPREFLIGHT_FUZZ_RUNS ?? 2000);

function assertCleanError(e: unknown, input: string): void {
  const where = JSON.stringify(input);
  assert.ok(e instanceof Error, `non-Error thrown for ${where}: ${String(e)}`);
  assert.equal(e.constructor, Error, `${e.constructor.name} thrown for ${where}: ${e.message}`);
  assert.doesNotMatch(e.message, /[\n\r\u2028\u2029]/, `multi-line message for ${where}`);
  assert.ok(e.message.length < 400, `overlong message for ${where}`);
}

const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/** Everything upstream says about a shard name, checked on one input. */
function checkShardName(name: string, tally: { ok: number; bad: number }): void {
  const valid = isKeyRangeName(name);
  assert.equal(typeof valid, 'boolean');
  let kr: KeyRange | null;
  try {
    kr = parseKeyRange(name);
  } catch (e) {
    assertCleanError(e, name);
    assert.match((e as Error).message, /^invalid shard name /);
    tally.bad++;
    return;
  }
  tally.ok++;
  if (kr === null) {
    assert.ok(!name.includes('-'), `${name}: null only for names without '-'`);
    return;
  }
  assert.ok(valid, `${name} parsed, so it is a key-range spec`);
  assert.match(kr.start, LOWER_HEX);
  assert.match(kr.end, LOWER_HEX);
  assert.ok(kr.end === '' || kr.start < kr.end, `${name}: ordered as raw bytes`);
  assert.ok(keyRangeContains(kr, kr) && keyRangeEqual(kr, kr));
  assert.equal(keyRangesIntersect(kr, null), true);
  const again = parseKeyRange(keyRangeString(kr));
  assert.ok(keyRangeEqual(again, kr), `${name}: keyRangeString round trip`);
  if (!keyRangeIsComplete(kr)) assert.deepStrictEqual(again, kr);
}

const nameChar = fc.constantFrom(
  '0',
  '1',
  '4',
  '8',
  'a',
  'c',
  'f',
  'A',
  'F',
  'g',
  'x',
  '-',
  '-',
  '_',
  '/',
  ' ',
  '.',
  'é',
  '\n',
  '\0',
);
const nameSoup = fc.string({ unit: nameChar, maxLength: 20 });
const hexish = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 10 }),
    fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 10 }),
  )
  .map(([a, b]) => `${a}-${b}`);
const anything = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 70 }),
  fc.string({ unit: 'binary-ascii', maxLength: 70 }),
);

describe(`fuzz key ranges (${RUNS} runs per generator)`, () => {
  for (const [label, arb] of [
    ['shard-name soup', nameSoup],
    ['hex-hex names', hexish],
    ['arbitrary strings', anything],
  ] as const) {
    it(`parseKeyRange / isKeyRangeName: ${label}`, (t) => {
      const tally = { ok: 0, bad: 0 };
      fc.assert(
        fc.property(arb, (s) => checkShardName(s, tally)),
        { numRuns: RUNS },
      );
      t.diagnostic(`${RUNS} inputs: ${tally.ok} accepted, ${tally.bad} rejected`);
    });
  }

  it('parseShardingSpec: ranges are contiguous, or a one-line Error', () => {
    const spec = fc.oneof(
      nameSoup,
      fc.array(hexish, { maxLength: 4 }).map((parts) => parts.join('-')),
      anything,
    );
    fc.assert(
      fc.property(spec, (s) => {
        let ranges: KeyRange[];
        try {
          ranges = parseShardingSpec(s);
        } catch (e) {
          assertCleanError(e, s);
          return;
        }
        assert.ok(ranges.length >= 1);
        for (let i = 1; i < ranges.length; i++) assert.equal(ranges[i]!.start, ranges[i - 1]!.end);
      }),
      { numRuns: RUNS },
    );
  });

  it('set operations never throw on parsed ranges, and intersect is symmetric', () => {
    const parsed = fc.oneof(hexish, nameSoup).map((s) => {
      try {
        return parseKeyRange(s);
      } catch {
        return null;
      }
    });
    fc.assert(
      fc.property(parsed, parsed, (a, b) => {
        assert.equal(keyRangesIntersect(a, b), keyRangesIntersect(b, a));
        assert.equal(keyRangeEqual(a, b), keyRangeContains(a, b) && keyRangeContains(b, a));
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * The fast reader of the `source` column (`parseBinlogSourceFast`) against the full prototext decoder
 * (`parseBinlogSourceFull`): whenever the fast reader answers, the full decoder accepts the same text and answers the
 * same value, to the key order (JSON text) and the shared empty records; when the full decoder refuses a text, the
 * fast reader leaves it alone. Inputs: the upstream fixtures in both spellings, every `source` the simulator writes,
 * generated sources written as Vitess writes them (with and without escapes, extra spaces, `<…>` brackets), and
 * mutations of all of these. Runs VTPREFLIGHT_FUZZ_RUNS inputs per generator (default 2000).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  binlogSourceToText,
  parseBinlogSource,
  parseBinlogSourceFast,
  parseBinlogSourceFull,
  type BinlogSource,
} from '../../src/vitess/binlog-source.js';
import { generateScenario } from '../../src/sim/scenario.js';
import { anyBinlogSource, UPSTREAM_SOURCES } from '../helpers/prototext-arbitraries.js';

const RUNS = Number(process.env.VTPREFLIGHT_FUZZ_RUNS ?? 2000);

const tally = { fast: 0, full: 0, refused: 0 };

/** The differential property; returns whether the fast reader answered. */
function same(text: string): boolean {
  const fast = parseBinlogSourceFast(text);
  let full: BinlogSource | Error;
  try {
    full = parseBinlogSourceFull(text);
  } catch (e) {
    full = e as Error;
  }
  const where = JSON.stringify(text.slice(0, 300));
  if (fast === null) {
    if (full instanceof Error) tally.refused++;
    else tally.full++;
    return false;
  }
  tally.fast++;
  assert.ok(!(full instanceof Error), `fast reader accepted what the full decoder refuses (${full}): ${where}`);
  assert.deepStrictEqual(fast, full, where);
  assert.equal(JSON.stringify(fast), JSON.stringify(full), `key order differs: ${where}`);
  const fullRules = (full as BinlogSource).filter?.rules ?? [];
  (fast.filter?.rules ?? []).forEach((r, i) => {
    const f = fullRules[i];
    assert.ok(f !== undefined && r.convertCharset === f.convertCharset && r.convertIntToEnum === f.convertIntToEnum);
  });
  assert.deepStrictEqual(parseBinlogSource(text), full);
  return true;
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
/** Texts Vitess writes without escapes (printable ASCII, a quote or backslash now and then). */
const plainText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...PRINTABLE.filter((c) => c !== '"' && c !== '\\')), maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(...PRINTABLE), maxLength: 6 }),
  fc.constantFrom('', 'commerce', '-80', '80-', '/.*', 'exclude', "select * from t1 where in_keyrange('-80')"),
);
const plainSource: fc.Arbitrary<BinlogSource> = anyBinlogSource.chain((b) =>
  fc
    .record({
      keyspace: plainText,
      shard: plainText,
      tables: fc.array(plainText, { maxLength: 3 }),
      match: plainText,
      filter: plainText,
      workflowName: plainText,
      withFilter: fc.boolean(),
      withMaps: fc.boolean(),
      tabletType: fc.constantFrom('UNKNOWN', 'PRIMARY', 'REPLICA', 'RDONLY', 'DRAINED', b.tabletType),
      keyRange: fc.option(
        fc.record({ start: fc.constantFrom('', '40', '80', 'c0', '4142'), end: fc.constantFrom('', '80', '7e20') }),
        { nil: null },
      ),
      externalMysql: plainText,
      sourceTimeZone: fc.constantFrom('', 'UTC', b.sourceTimeZone),
    })
    .map((p) => ({
      ...b,
      keyspace: p.keyspace,
      shard: p.shard,
      tables: p.tables,
      tabletType: p.tabletType,
      keyRange: p.keyRange,
      externalMysql: p.externalMysql,
      externalCluster: '',
      sourceTimeZone: p.sourceTimeZone,
      targetTimeZone: '',
      filter:
        !p.withFilter || b.filter === null
          ? b.filter
          : {
              ...b.filter,
              workflowName: p.workflowName,
              workflowType: p.withMaps ? b.filter.workflowType : '2',
              rules: b.filter.rules.map((r) =>
                p.withMaps
                  ? { ...r, match: p.match, filter: p.filter }
                  : {
                      ...r,
                      match: p.match,
                      filter: p.filter,
                      convertEnumToText: {},
                      convertCharset: {},
                      convertIntToEnum: {},
                      sourceUniqueKeyColumns: '',
                      targetUniqueKeyColumns: p.workflowName,
                      sourceUniqueKeyTargetColumns: '',
                      forceUniqueKey: '',
                    },
              ),
            },
    })),
);

/** Vitess variations of the writing: golang/protobuf v1 brackets and spaces, protobuf-go random double spaces. */
const respell = (text: string, how: number): string => {
  if (how === 1) return text.replace(/:\{/g, ':<').replace(/\}/g, ' >');
  if (how === 2) return text.replace(/ /g, '  ');
  if (how === 3) return ` ${text} `;
  return text;
};
const written = fc
  .tuple(fc.oneof(plainSource, anyBinlogSource), fc.integer({ min: 0, max: 3 }))
  .map(([b, how]) => respell(binlogSourceToText(b), how));

const simSources = (): string[] => {
  const out = new Set<string>();
  for (const [name, shards] of [
    ['materialize', 4],
    ['reshard', 4],
    ['movetables', 4],
    ['lookup', undefined],
    ['all-faults', undefined],
  ] as const) {
    const sim = generateScenario(name, { now: 1_700_000_000_000, seed: 1, ...(shards ? { shards } : {}) });
    for (const sc of Object.values(sim.sidecars)) for (const r of sc.vreplication) out.add(r.source);
  }
  return [...out];
};

const TOKENS = [
  ...['{', '}', '<', '>', ':', ' ', '"', '\\', '#', ',', ';', '\n'],
  ...['x', '0', '-', 'true', 'keyspace:', 'rules:{'],
];
const mutated = fc
  .tuple(
    fc.oneof(fc.constantFrom(...UPSTREAM_SOURCES.map((s) => s.text), ...simSources()), written),
    fc.array(fc.record({ at: fc.nat(), del: fc.integer({ min: 0, max: 4 }), text: fc.constantFrom(...TOKENS, '') }), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([s, muts]) => {
    let t = s;
    for (const m of muts) {
      const at = m.at % (t.length + 1);
      t = t.slice(0, at) + m.text + t.slice(at + m.del);
    }
    return t;
  });

describe('parseBinlogSourceFast equals the full decoder', () => {
  it('answers every source the simulator writes and the upstream fixtures in the common shape', () => {
    for (const text of simSources()) assert.ok(same(text), `not on the fast path: ${text}`);
    for (const { text } of UPSTREAM_SOURCES) same(text);
    // The upstream fixtures without escapes or maps are the common shape: the fast reader must take them.
    const common = UPSTREAM_SOURCES.filter((s) => !/\\|convert_|#|\n/.test(s.text));
    assert.ok(common.length > 0);
    for (const { text } of common) assert.ok(same(text), `not on the fast path: ${text}`);
  });

  for (const [name, arb] of [
    ['sources written as Vitess writes them', written],
    ['mutated fixtures, simulator and written sources', mutated],
  ] as const) {
    it(`${name} (${RUNS} runs)`, (t) => {
      tally.fast = tally.full = tally.refused = 0;
      fc.assert(
        fc.property(arb, (s) => {
          same(s);
        }),
        { numRuns: RUNS },
      );
      t.diagnostic(`fast ${tally.fast}, full decoder only ${tally.full}, refused by both ${tally.refused}`);
      assert.ok(tally.fast > RUNS / 50, `the fast reader answered only ${tally.fast} of ${RUNS}`);
    });
  }
});

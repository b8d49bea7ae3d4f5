/**
 * Malformed snapshots, as a property over mutations: a snapshot carrying every optional part (serving graph, builds,
 * keyspace routing rules, mirror rules, 2PC, time zones, logs, journals) has one value deleted or replaced by another
 * JSON type at a random path. Each mutant is either refused by the reader in one line naming the JSON path (exit 2),
 * or read, modelled and checked without any check failing on it: never an internal error, never a broken check.
 * Runs VTPREFLIGHT_FUZZ_RUNS mutants (default 1500; `npm run fuzz` sets more); a sample goes through the CLI.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { CollectError } from '../../src/errors.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { buildModel } from '../../src/model/build.js';
import { prng } from '../../src/sim/prng.js';
import { parseSnapshot, serializeReadout } from '../../src/sources/snapshot.js';
import { runCli, tempDir } from '../cli/helpers.js';
import { cluster } from '../helpers/cluster.js';

const RUNS = Math.min(Number(process.env.VTPREFLIGHT_FUZZ_RUNS ?? 1500), 20_000);
const CLI_SAMPLE = 40;

const rich = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {}, corder: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] })
    .routing([{ fromTable: 'customer', toTables: ['commerce.customer'] }])
    .servingGraph({})
    .mirrorRules([{ fromTable: 'commerce.customer', toTable: 'customer.customer', percent: 10 }])
    .keyspaceRouting([{ fromKeyspace: 'commerce', toKeyspace: 'customer' }])
    .primaryRead('customer', '-80', 'twoPc', { dtState: [], redoState: [] })
    .primaryRead('customer', '-80', 'timeZoneTables', true)
    .tabletBuild('zone1-0000000110', { buildTimestamp: 1_700_000_000, gitRev: 'abc' })
    .log('customer', '-80', {
      id: 1,
      vrepl_id: 1,
      type: 'Message',
      state: 'Error',
      message: 'x',
      created_at: '2026-01-01 00:00:00',
      updated_at: '2026-01-01 00:00:00',
      count: 1,
    })
    .journal('customer', '-80', { id: '1', db_name: 'vt_customer', val: 'id:1' });

const REPLACEMENTS: readonly unknown[] = [null, 0, -1, 1.5, '', 'x', true, [], {}, [1], { a: 1 }, 2 ** 63, '-80'];

type Json = Record<string, unknown> | unknown[];

/** Every path of a JSON value (arrays by index). */
function paths(v: unknown, p: readonly (string | number)[] = [], out: (string | number)[][] = []) {
  out.push([...p]);
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) paths(x, [...p, i], out);
  } else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...p, k], out);
  return out;
}

/** The nth mutant: one value at a random path deleted (30%) or replaced by another JSON value. */
function mutants(base: Json, count: number, seed: number): { text: string; what: string }[] {
  const all = paths(base).filter((p) => p.length > 0);
  const random = prng(seed);
  const out: { text: string; what: string }[] = [];
  for (let i = 0; i < count; i++) {
    const doc = structuredClone(base) as Json;
    const p = all[Math.floor(random() * all.length)]!;
    let parent: Json = doc;
    for (const k of p.slice(0, -1)) parent = (parent as Record<string | number, Json>)[k]!;
    const last = p[p.length - 1]!;
    let what: string;
    if (random() < 0.3) {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete (parent as Record<string, unknown>)[last];
      what = `${p.join('.')} deleted`;
    } else {
      const v = structuredClone(REPLACEMENTS[Math.floor(random() * REPLACEMENTS.length)]);
      (parent as Record<string | number, unknown>)[last] = v;
      what = `${p.join('.')} := ${JSON.stringify(v)}`;
    }
    out.push({ text: JSON.stringify(doc), what });
  }
  return out;
}

const REFUSED =
  /^snapshot m\.json is not a vtpreflight readout: (?:\S+: (?:expected .+|missing)|unsupported readout version .+)$/;

describe('malformed snapshots', () => {
  const base = JSON.parse(serializeReadout(rich().readout())) as Json;
  const meta = {
    toolVersion: '0',
    snapshot: 'm.json',
    startedAt: '2026-01-01T00:00:00Z',
    elapsedMs: 0,
    failOn: 'error' as const,
  };
  let dir: ReturnType<typeof tempDir>;
  before(() => {
    dir = tempDir('vtpreflight-mutants-');
  });
  after(() => dir.cleanup());

  test('the unmutated snapshot is read and checked cleanly', () => {
    const report = runModelChecks(
      buildModel(parseSnapshot(JSON.stringify(base), 'm.json')),
      CHECKS,
      withDefaults(),
      meta,
    );
    assert.deepEqual(
      report.checks.filter((c) => c.status === 'error').map((c) => c.id),
      [],
    );
  });

  test(`${RUNS} mutants: refused in one line naming the JSON path, or checked without a broken check`, () => {
    let refused = 0;
    for (const m of mutants(base, RUNS, 26)) {
      let readout: ReturnType<typeof parseSnapshot>;
      try {
        readout = parseSnapshot(m.text, 'm.json');
      } catch (e) {
        assert.ok(e instanceof CollectError, `${m.what}: ${String(e)}`);
        assert.match(e.message, REFUSED, m.what);
        refused++;
        continue;
      }
      const report = runModelChecks(buildModel(readout), CHECKS, withDefaults(), meta);
      const broken = report.checks.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.error}`);
      assert.deepEqual(broken, [], m.what);
    }
    assert.ok(refused > RUNS / 4, `only ${refused} of ${RUNS} mutants were refused`);
  });

  test(`${CLI_SAMPLE} mutants through the CLI: exit 2 in one line, or a report; no internal error`, async () => {
    for (const [i, m] of mutants(base, CLI_SAMPLE, 7).entries()) {
      const file = dir.write(`m${i}.json`, m.text);
      const run = await runCli(['check', '--snapshot', file, '--format', 'json']);
      assert.doesNotMatch(run.stderr, /internal error/, m.what);
      if (run.code === 2) {
        assert.equal(run.stderr.split('\n').length, 2, `${m.what}: ${run.stderr}`);
        assert.match(run.stderr, /^vtpreflight: snapshot .* is not a vtpreflight readout: /, m.what);
      } else {
        assert.ok(run.code === 0 || run.code === 1, `${m.what}: exit ${run.code}: ${run.stderr}`);
        const report = JSON.parse(run.stdout) as { checks: { status: string }[] };
        assert.ok(!report.checks.some((c) => c.status === 'error'), m.what);
      }
    }
  });
});

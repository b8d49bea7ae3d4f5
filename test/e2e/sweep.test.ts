/**
 * `vtpreflight sweep` end to end on the live harness (real MariaDB servers behind a real gRPC
 * vtctld):
 * a cluster holding a leftover of every kind is swept through the built CLI and each leftovers check reports its
 * kind; the healthy scenarios of test/e2e/scenarios.ts sweep clean (nothing at warning or above); the exit codes
 * follow docs/usage.md "Sweep for leftovers" (the findings rule with `--fail-on`; anything not read is exit 1; a
 * workflow selection or `--workflows-json` is a usage error, exit 2).
 */
import assert from 'node:assert/strict';
import { after, describe, it, test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { serializeReadout } from '../../src/sources/snapshot.js';
import { tempDir } from '../cli/helpers.js';
import { testPool } from '../harness/env.js';
import { cluster, NOW_SECONDS } from '../helpers/cluster.js';
import { parseReport, runCli, spawnCli } from './cli.js';
import { startLiveCluster, type LiveCluster } from './live-cluster.js';
import { HEALTHY } from './scenarios.js';

const pool = await testPool({ minInstances: 6 });
const env = { VTPREFLIGHT_MYSQL_USER: pool.info.reader.user, VTPREFLIGHT_MYSQL_PASSWORD: pool.info.reader.password };
const stops: LiveCluster[] = [];
after(async () => {
  for (const l of stops) await l.stop().catch(() => undefined);
});

const LEFTOVER_CHECKS = CHECKS.filter((c) => c.group === 'leftovers').map((c) => c.id);
const UUID = '2d1b4a5e_8f3c_11ef_9a1b_0a1b2c3d4e5f';

/**
 * What three earlier migrations left: a MoveTables old2customer switched three days ago and never completed (its
 * reverse workflow stopped), a cancelled MirrorTraffic and MoveTables (denied table, mirror and routing rules), a
 * Reshard of customer completed with --keep-data (shard 0 kept) and one of commerce cancelled after its reads
 * switched, a cancelled LookupVindex, a journal of a long-gone workflow, a finished Online DDL and the `_product_old`
 * table of a `complete --rename-tables`.
 */
function leftovers() {
  const frozen = { message: 'FROZEN', time_updated: NOW_SECONDS - 3 * 86400 };
  return (
    cluster()
      .keyspace('commerce', { shards: ['0'] })
      .keyspace('customer', {
        shards: ['0', '-80', '80-'],
        notServing: ['0'],
        vindexes: {
          hash: { type: 'hash', params: {}, owner: '' },
          corder_lookup: {
            type: 'consistent_lookup_unique',
            params: { table: 'customer.corder_lookup', from: 'id', to: 'keyspace_id', write_only: 'true' },
            owner: 'corder',
          },
        },
        tables: {
          corder: {
            columnVindexes: [
              { name: 'hash', columns: ['customer_id'] },
              { name: 'corder_lookup', columns: ['id'] },
            ],
          },
        },
      })
      .stream('customer', '-80', 1, {
        workflow: 'old2customer',
        type: 'MoveTables',
        sourceKeyspace: 'commerce',
        sourceShard: '0',
        rules: [{ match: 'old', filter: 'select * from old' }],
        ...frozen,
      })
      .stream('customer', '80-', 1, {
        workflow: 'old2customer',
        type: 'MoveTables',
        sourceKeyspace: 'commerce',
        sourceShard: '0',
        rules: [{ match: 'old', filter: 'select * from old' }],
        ...frozen,
      })
      .stream('commerce', '0', 1, {
        workflow: 'old2customer_reverse',
        type: 'MoveTables',
        sourceKeyspace: 'customer',
        sourceShard: '-80',
        rules: [{ match: 'old', filter: 'select * from old' }],
        state: 'Stopped',
      })
      .stream('customer', '-80', 2, {
        workflow: UUID,
        type: 'OnlineDDL',
        sourceKeyspace: 'customer',
        sourceShard: '-80',
        rules: [{ match: '_vt_vrp_2d1b4a5e8f3c11ef9a1b0a1b2c3d4e5f_20251201120000_', filter: 'select * from corder' }],
        state: 'Stopped',
        message: 'stopped for online DDL cutover',
      })
      .routing([
        { fromTable: 'old', toTables: ['customer.old'] },
        { fromTable: 'commerce.old', toTables: ['customer.old'] },
        { fromTable: 'commerce.zip', toTables: ['customer.zip'] },
      ])
      .mirrorRules([{ fromTable: 'commerce.corder_old', toTable: 'customer.corder_old', percent: 25 }])
      .shardRecord('commerce', '0', {
        tabletControls: [{ tabletType: 'PRIMARY', cells: [], deniedTables: ['corder_old'], frozen: false }],
      })
      .journal('commerce', '0', { id: '42', db_name: 'vt_commerce', val: 'id:42' })
      // An earlier complete --rename-tables of product kept its source table.
      .schemaTables('commerce', '0', ['_product_old', 'old'])
      // The old customer/0 kept by the Reshard's complete --keep-data holds its tables.
      .schemaTables('customer', '0', ['corder', 'old'])
      .servingGraph()
      .disableQueryService('commerce', '0', ['REPLICA', 'RDONLY'])
  );
}

async function live(b: ReturnType<typeof cluster>, offset: number): Promise<LiveCluster> {
  const l = await startLiveCluster(b.readout(), pool, { offset });
  stops.push(l);
  return l;
}

test('sweep through the built CLI: a leftover of every kind, each named by its check, both transports', async () => {
  const l = await live(leftovers(), 0);
  const run = await spawnCli(['sweep', '--vtctld', l.address, '--format', 'json'], { env });
  const report = parseReport(run);
  assert.equal(report.command, 'sweep');
  assert.deepEqual(report.workflows, [], 'a sweep judges no action: no per-workflow verdicts');
  assert.deepEqual(
    report.checks.map((c) => c.id),
    [...LEFTOVER_CHECKS, 'unreachable'].sort(),
    'the leftovers group and unreachable run',
  );
  for (const id of LEFTOVER_CHECKS)
    assert.ok(
      report.findings.some((f) => f.check === id),
      `${id} reports its leftover; findings:\n${report.findings.map((f) => `  ${f.check}: ${f.message}`).join('\n')}`,
    );
  assert.equal(report.findings.filter((f) => f.check === 'unreachable').length, 0);
  // orphan-denied-tables' routed denial is an error: exit 1 under the default --fail-on error.
  assert.equal(run.code, 1, run.stderr);
  assert.equal(report.summary.exitCode, 1);
  const vtctld = parseReport(
    await runCli(['sweep', '--vtctld', l.address, '--format', 'json', '--via', 'vtctld'], env),
  );
  assert.deepEqual(
    vtctld.findings.map((f) => `${f.check} ${f.message}`),
    report.findings.map((f) => `${f.check} ${f.message}`),
    '--via vtctld finds the same leftovers',
  );
  const text = await spawnCli(['sweep', '--vtctld', l.address], { env });
  assert.match(text.stdout, /sweep: \d+ leftovers of earlier workflows found/);
  assert.match(text.stdout, /exit 1: 1 error, \d+ warnings, \d+ info findings? fail the gate/);
});

test('sweep exit codes: --fail-on, a part not read (1), a selection or --workflows-json (2)', async () => {
  // Only warnings: exit 0 by default (--fail-on error), 1 with --fail-on warning.
  const warnings = leftovers().shardRecord('commerce', '0', { tabletControls: [] });
  const l = await live(warnings, 1);
  const base = ['sweep', '--vtctld', l.address, '--format', 'json'];
  const dflt = await runCli(base, env);
  assert.equal(dflt.code, 0, dflt.stderr);
  assert.ok(parseReport(dflt).summary.warning > 0);
  assert.equal((await runCli([...base, '--fail-on', 'warning'], env)).code, 1);
  assert.equal((await runCli([...base, '--fail-on', 'never'], env)).code, 0);
  // A primary that cannot be read: the sweep is incomplete, never a silent pass.
  const gap = await live(
    cluster()
      .keyspace('commerce', { shards: ['0'] })
      .unreadable('commerce', '0'),
    2,
  );
  const unread = await runCli(['sweep', '--vtctld', gap.address, '--format', 'json'], env);
  assert.equal(unread.code, 1, unread.stderr);
  assert.deepEqual(
    parseReport(unread).findings.map((f) => f.check),
    ['unreachable'],
  );
  for (const extra of [
    ['--workflow', 'wf'],
    ['--keyspace', 'commerce'],
    ['--workflows-json', '/dev/null'],
  ]) {
    const r = await spawnCli([...base, ...extra], { env });
    assert.equal(r.code, 2, `${extra.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^vtpreflight: sweep /);
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
    assert.equal(r.stdout, '');
  }
});

describe('sweep on the healthy scenarios reports nothing at warning or above', { concurrency: 2 }, () => {
  HEALTHY.forEach((s, i) => {
    it(s.name, async () => {
      const l = await live(s.build(), 3 + i);
      const run = await runCli(['sweep', '--vtctld', l.address, '--format', 'json'], env);
      const report = parseReport(run);
      const loud = report.findings.filter((f) => f.severity !== 'info');
      assert.deepEqual(
        loud.map((f) => `${f.check}: ${f.message}`),
        [],
      );
      assert.equal(run.code, 0, run.stderr);
      assert.ok(
        report.checks.every((c) => c.status === 'pass' || c.status === 'fail'),
        'every check ran',
      );
    });
  });
});

test('sweep --snapshot: a whole-cluster snapshot is swept; one taken with --keyspace is refused (exit 2)', async () => {
  const tmp = tempDir();
  try {
    const whole = tmp.write('whole.json', serializeReadout(leftovers().readout()));
    const run = await spawnCli(['sweep', '--snapshot', whole, '--format', 'json']);
    const report = parseReport(run);
    assert.equal(report.command, 'sweep');
    assert.equal(run.code, 1, run.stderr);
    assert.ok(LEFTOVER_CHECKS.every((id) => report.findings.some((f) => f.check === id)));
    const part = tmp.write(
      'part.json',
      serializeReadout(
        leftovers()
          .select({ keyspaces: ['commerce'] })
          .readout(),
      ),
    );
    const refused = await spawnCli(['sweep', '--snapshot', part]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /^vtpreflight: snapshot .*part\.json covers only keyspace\(s\) commerce: a sweep needs/,
    );
    assert.equal(refused.stdout, '');
  } finally {
    tmp.cleanup();
  }
});

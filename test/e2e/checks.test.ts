/**
 * Every check end to end, over both transports (`--via mysql` and `--via vtctld`): for every scenario of
 * test/e2e/scenarios.ts (one per check id, plus the healthy MoveTables, Reshard and lookup-vindex backfill),
 * materialize the builder's cluster on real MariaDB servers behind a real gRPC vtctld, run `check --format json` once
 * `--via mysql` and once `--via vtctld`, and assert that 1. the live report equals the offline report of the same
 * cluster (compare.ts), and 2. the scenario's own expectations hold (its check's exact findings; nothing at warning or
 * above when healthy); 3. `--via vtctld` read every sidecar through ExecuteFetchAsDBA, and the hook received only
 * tagged SELECT/SHOW;
 *    `--via mysql` sent none; every RPC either way is in the read-only allow-list.
 */
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { testPool } from '../harness/env.js';
import { parseReport, runCli } from './cli.js';
import { assertLiveMatchesOffline } from './compare.js';
import { READ_ONLY_RPCS, startLiveCluster } from './live-cluster.js';
import { EXTRA, HEALTHY, PER_CHECK, SCHEMAS, type Scenario } from './scenarios.js';

// The healthy Reshard places six customer primaries on distinct servers.
const pool = await testPool({ minInstances: 6 });
const env = { VTPREFLIGHT_MYSQL_USER: pool.info.reader.user, VTPREFLIGHT_MYSQL_PASSWORD: pool.info.reader.password };

test('every check id in checks/index.ts has an end-to-end scenario', () => {
  assert.deepEqual(
    PER_CHECK.map((s) => s.check),
    CHECKS.map((c) => c.id),
  );
});

async function runScenario(
  s: Scenario,
  offset: number,
  t: { test: (name: string, opts: { todo?: string }, fn: () => Promise<void>) => Promise<unknown> },
): Promise<void> {
  const live = await startLiveCluster(s.build().readout(), pool, { offset, ...s.live });
  try {
    for (const via of ['mysql', 'vtctld'] as const) {
      await t.test(`via ${via}`, s.todo ? { todo: s.todo } : {}, async () => {
        const before = live.fetches.length;
        const callsBefore = live.vtctld.calls.length;
        // A scenario with `options.sweep` runs `vtpreflight sweep` (no selection) and is compared with a sweep offline.
        const sweep = s.options?.sweep === true;
        const args = [
          sweep ? 'sweep' : 'check',
          '--vtctld',
          live.address,
          '--format',
          'json',
          '--via',
          via,
          ...(sweep ? [] : live.selectionArgs()),
          ...(s.args ?? []),
        ];
        const run = await runCli(args, env);
        const report = parseReport(run);
        assert.equal(run.code, report.summary.exitCode, 'exit code is the summary exit code');
        const fetches = live.fetches.slice(before);
        if (via === 'vtctld') {
          const read = new Set(fetches.map((f) => f.alias));
          // In scope: the target keyspaces' primaries and the primaries of the source shards their streams read.
          const inScope = new Set(
            live
              .expectedReadout({ capturedAt: new Date().toISOString(), via })
              .sidecars.map((sc) => `${sc.keyspace}/${sc.shard}`),
          );
          const expected = live.primaries.filter((p) => inScope.has(`${p.keyspace}/${p.shard}`));
          assert.deepEqual(
            [...read].sort(),
            expected.map((p) => p.alias).sort(),
            'every in-scope primary was read through ExecuteFetchAsDBA',
          );
          assert.deepEqual(
            fetches.filter((f) => !f.allowed).map((f) => f.query),
            [],
            'ExecuteFetchAsDBA received only tagged SELECT/SHOW',
          );
        } else {
          assert.equal(fetches.length, 0, '--via mysql sends no ExecuteFetchAsDBA');
        }
        const rpcs = live.vtctld.calls.slice(callsBefore).map((c) => c.rpc);
        assert.deepEqual(
          rpcs.filter((r) => !READ_ONLY_RPCS.has(r)),
          [],
          'only read-only RPCs',
        );
        assertLiveMatchesOffline(report, live, { via, label: s.name, ...(s.options ? { options: s.options } : {}) });
        s.expect(report, { via, cluster: live });
      });
    }
  } finally {
    await live.stop();
  }
}

describe('one scenario per check, live over --via mysql and --via vtctld', { concurrency: 3 }, () => {
  PER_CHECK.forEach((s, i) => {
    it(`${s.check}: ${s.name}`, s.todo ? { todo: s.todo } : {}, (t) => runScenario(s, i, t));
  });
});

describe('more failure modes, live over both transports', { concurrency: 2 }, () => {
  EXTRA.forEach((s, i) => {
    it(`${s.check}: ${s.name}`, s.todo ? { todo: s.todo } : {}, (t) => runScenario(s, i + 1, t));
  });
});

describe('older sidecar schemas, live over both transports', () => {
  SCHEMAS.forEach((s, i) => {
    it(s.name, s.todo ? { todo: s.todo } : {}, (t) => runScenario(s, i + 3, t));
  });
});

describe('healthy scenarios report nothing at warning or above', { concurrency: 3 }, () => {
  HEALTHY.forEach((s, i) => {
    it(s.name, s.todo ? { todo: s.todo } : {}, (t) => runScenario(s, i * 2, t));
  });
});

/**
 * `vtpreflight sweep` on the built-in demo cluster ("sweep on a healthy cluster — and on the demo cluster —
 * reports nothing at warning or above"): every scenario without an injected leftover, the default one included,
 * served by the simulator (gRPC vtctld and MySQL primaries on loopback), swept through the built CLI in a child
 * process: exit 0 and no finding at all. The `frozen-workflow` scenario is a leftover by construction (a MoveTables
 * switched and never completed): the sweep names it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Report } from '../../src/engine/report.js';
import { startSimCluster } from '../../src/sim/cluster.js';
import { DEFAULT_SCENARIO, generateScenario } from '../../src/sim/scenario.js';
import { spawnCli } from '../e2e/cli.js';

async function sweep(scenario: string): Promise<{ code: number; report: Report; stderr: string }> {
  const sim = await startSimCluster(generateScenario(scenario, { shards: 4 }));
  try {
    const r = await spawnCli(['sweep', '--vtctld', sim.vtctld, '--mysql-user', 'vtpreflight-demo', '--format', 'json']);
    return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
  } finally {
    await sim.stop();
  }
}

describe('sweep on the demo cluster', { concurrency: 2 }, () => {
  for (const name of [DEFAULT_SCENARIO, 'reshard', 'movetables', 'materialize', 'lookup']) {
    it(`${name}: no leftovers, exit 0`, async () => {
      const { code, report, stderr } = await sweep(name);
      assert.deepEqual(
        report.findings.map((f) => `${f.severity} ${f.check}: ${f.message}`),
        [],
      );
      assert.equal(code, 0, stderr);
      assert.ok(report.checks.some((c) => c.id === 'leftover-shards' && c.status === 'pass'));
    });
  }
  it('frozen-workflow: the switched, never completed MoveTables is named', async () => {
    const { report } = await sweep('frozen-workflow');
    assert.deepEqual(
      report.findings.map((f) => `${f.check} ${f.keyspace}.${f.workflow}`),
      ['leftover-frozen-workflows customer.commerce2customer'],
    );
  });
});

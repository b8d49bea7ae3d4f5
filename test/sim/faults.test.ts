/**
 * Every injected fault produces its intended finding through the real check path: the simulated cluster on loopback
 * sockets, `check --format json` in-process (collector over gRPC and MySQL, model, checks, JSON report). Healthy
 * scenarios produce nothing at warning or above. A fault whose checks are all still placeholders (status `error`) is
 * skipped, naming them, rather than passed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateScenario } from '../../src/sim/scenario.js';
import { FAULT_KINDS, type InjectedFault } from '../../src/sim/types.js';
import { checkSim, locatedAt, ranChecks, type JsonReport } from './helpers.js';

const SHARDS = 4;

/** The findings of the first listed check that ran, at the fault's place; null when none of its checks ran. */
function findingsFor(report: JsonReport, fault: InjectedFault): { check: string; found: number } | null {
  const ran = ranChecks(report);
  const check = fault.checks.find((c) => ran.has(c));
  if (check === undefined) return null;
  // replication-lag reports one finding per workflow, located at its worst stream; the other lagging streams are in
  // details.worst (another fault's stream can lag more, as Vitess's MaxVReplicationTransactionLag is a maximum).
  const inWorst = (f: JsonReport['findings'][number]) =>
    f.keyspace === fault.keyspace &&
    Array.isArray(f.details?.worst) &&
    (f.details.worst as { shard?: string }[]).some((w) => w.shard === fault.shard);
  return {
    check,
    found: report.findings.filter((f) => f.check === check && (locatedAt(f, fault) || inWorst(f))).length,
  };
}

describe('each fault is reported by its check, at its place', () => {
  for (const kind of FAULT_KINDS) {
    test(kind, async (t) => {
      const sim = generateScenario(kind, { now: Date.now(), shards: SHARDS });
      const { report, run } = await checkSim(sim);
      const [fault] = sim.faults;
      assert.ok(fault);
      const got = findingsFor(report, fault);
      if (got === null) {
        t.skip(`${fault.checks.join(', ')} not implemented yet`);
        return;
      }
      assert.ok(
        got.found > 0,
        `${got.check} reported nothing at ${fault.keyspace}/${fault.shard}; findings: ${JSON.stringify(
          report.findings.map((f) => [f.check, f.shard, f.message]),
          null,
          1,
        )}`,
      );
      assert.equal(run.code, 1);
    });
  }

  test('all faults in one cluster: each found, by its check, at its own place', async () => {
    const sim = generateScenario('all-faults', { now: Date.now(), shards: 16 });
    const { report } = await checkSim(sim);
    for (const fault of sim.faults) {
      const got = findingsFor(report, fault);
      if (got === null) continue;
      assert.ok(got.found > 0, `${fault.kind}: ${got.check} reported nothing at ${fault.keyspace}/${fault.shard}`);
    }
  });
});

describe('healthy scenarios', () => {
  for (const name of ['reshard', 'movetables', 'materialize']) {
    test(`${name}: no finding at warning or above`, async () => {
      const { report } = await checkSim(generateScenario(name, { now: Date.now(), shards: SHARDS }));
      const loud = report.findings.filter((f) => f.severity !== 'info');
      assert.deepEqual(
        loud.map((f) => `${f.check}: ${f.message}`),
        [],
      );
      assert.ok(report.workflows.length > 0);
      for (const w of report.workflows) assert.equal(w.verdict, 'ready', `${w.keyspace}.${w.workflow}`);
    });
  }

  test('lookup: an owned backfill stopped after copy is ready to externalize', async () => {
    const { report } = await checkSim(generateScenario('lookup', { now: Date.now(), shards: SHARDS }));
    assert.deepEqual(
      report.findings.filter((f) => f.severity !== 'info').map((f) => `${f.check}: ${f.message}`),
      [],
    );
  });
});

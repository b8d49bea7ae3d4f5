/**
 * `src/sources/redact.ts`: `snapshot --redact` removes host names, user names and secret-looking values, and the
 * redacted readout checks to the same findings (host names inside messages aside).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { buildModel } from '../../src/model/build.js';
import type { Readout } from '../../src/readout.js';
import { redactReadout } from '../../src/sources/redact.js';
import { parseBinlogSource } from '../../src/vitess/binlog-source.js';
import { cluster } from '../helpers/cluster.js';

/** A cluster with real-looking host names, an unreachable primary, an external MySQL user and secrets in messages. */
function sample(): Readout {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });
  let n = 0;
  for (const [ks, shard] of [
    ['commerce', '0'],
    ['customer', '-80'],
    ['customer', '80-'],
  ] as const) {
    n++;
    b.patchTablet(b.primary(ks, shard), { hostname: `vttablet-${n}.prod.example.com`, mysqlHostname: `10.1.2.${n}` });
  }
  // Every optional read present on the unreadable primary, so each one's error must be redacted too.
  b.primaryRead('customer', '80-', 'twoPc', { dtState: [], redoState: [] })
    .filteredUserGrants('customer', '80-', { user: 'vt_filtered', global: [], db: [], tables: [] })
    .primaryRead('customer', '80-', 'timeZoneTables', true)
    .unreadable('customer', '80-', 'connect ETIMEDOUT 10.1.2.3:3306');
  const alias = b.primary('customer', '-80');
  const readout = b
    .patchStream('customer', '-80', 1, {
      message:
        "vttablet: rpc error: Access denied for user 'vt_app'@'10.1.2.2' (using password: YES) password=hunter2 token: abc123",
    })
    .readout();
  const sidecars = readout.sidecars.map((s) => {
    if (s.alias !== alias || !s.vreplication.ok) return s;
    const rows = s.vreplication.value.map((r) => ({
      ...r,
      source: r.source.replace(/^keyspace:/, 'external_mysql:"etl_user" keyspace:'),
    }));
    return { ...s, vreplication: { ok: true as const, value: rows } };
  });
  return { ...readout, target: { ...readout.target, vtctld: 'vtctld.prod.example.com:15999' }, sidecars };
}

const report = (r: Readout) =>
  runModelChecks(buildModel(r), CHECKS, withDefaults({}), {
    toolVersion: 't',
    snapshot: null,
    startedAt: r.capturedAt,
    elapsedMs: 0,
    failOn: 'error',
  });

describe('redactReadout', () => {
  test('no host name, user name or secret is left anywhere in the file', () => {
    const before = sample();
    const text = JSON.stringify(redactReadout(before));
    for (const secret of ['prod.example.com', '10.1.2.', 'vt_app', 'etl_user', 'hunter2', 'abc123']) {
      assert.ok(JSON.stringify(before).includes(secret), `the sample has ${secret}`);
      assert.ok(!text.includes(secret), `${secret} is redacted`);
    }
    const after = redactReadout(before);
    assert.equal(after.target.vtctld, 'host-1:15999');
    assert.ok(after.topology.tablets.ok);
    const primaries = after.topology.tablets.value.filter((t) => t.type === 'PRIMARY');
    for (const t of primaries) {
      assert.match(t.hostname, /^host-\d+$/);
      assert.match(t.mysqlHostname, /^host-\d+$/);
      assert.equal(t.mysqlPort > 0, true);
    }
    // Stable placeholders: the same host is the same placeholder everywhere, ports kept.
    const failed = after.sidecars.find((s) => !s.vreplication.ok)!;
    assert.ok(!failed.vreplication.ok);
    const [host, port] = failed.endpoint.split(':');
    assert.match(host!, /^host-\d+$/);
    assert.equal(port, before.sidecars.find((s) => s.alias === failed.alias)!.endpoint.split(':')[1]);
    assert.equal(failed.vreplication.error.where, `${failed.alias} (${failed.endpoint})`);
    assert.equal(failed.vreplication.error.reason, `connect ETIMEDOUT ${host}:3306`);
    const ok = after.sidecars.find((s) => s.keyspace === 'customer' && s.shard === '-80')!;
    assert.ok(ok.vreplication.ok);
    const row = ok.vreplication.value[0]!;
    assert.equal(parseBinlogSource(row.source).externalMysql, 'user-1');
    assert.match(
      row.message ?? '',
      /'user-2'@'host-\d+' \(using password: <redacted>\) password=<redacted> token: <redacted>$/,
    );
    assert.deepEqual(redactReadout(before), after, 'deterministic');
  });

  test('the redacted readout checks to the same findings, host names in messages aside', () => {
    const before = report(sample());
    const after = report(redactReadout(sample()));
    const shape = (r: typeof before) =>
      r.findings.map((f) => [
        f.check,
        f.severity,
        f.keyspace,
        f.shard,
        f.workflow,
        f.streamId,
        f.tablet,
        (f.details as { reason?: string } | undefined)?.reason,
      ]);
    assert.ok(before.findings.length >= 2, 'the sample has findings');
    assert.deepEqual(shape(after), shape(before));
    assert.deepEqual(
      after.checks.map((c) => [c.id, c.status, c.findings]),
      before.checks.map((c) => [c.id, c.status, c.findings]),
    );
    assert.deepEqual(
      after.workflows.map((w) => [w.workflow, w.verdict, w.blockedBy]),
      before.workflows.map((w) => [w.workflow, w.verdict, w.blockedBy]),
    );
    assert.ok(!JSON.stringify(after).includes('10.1.2.'));
  });
});

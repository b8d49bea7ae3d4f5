/**
 * A server's connection limit: many primaries behind one MariaDB started with
 * `--max-connections=4`, read at `--concurrency 64`. The server refuses connections beyond its limit
 * (`ER_CON_COUNT_ERROR` 1040); the collector retries them with backoff and fewer connections to that server, within
 * the deadline, so every primary is read and nothing is reported unreachable.
 */
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { after, before, describe, test } from 'node:test';
import { privateServer, testPool, type PrivateServer } from '../harness/env.js';
import { parseReport, runCli } from '../e2e/cli.js';
import { startLiveCluster, type LiveCluster } from '../e2e/live-cluster.js';
import { cluster } from '../helpers/cluster.js';

const pool = await testPool();
const KEYSPACES = 16;

describe('Too many connections', { timeout: 90_000 }, () => {
  let server: PrivateServer;
  let live: LiveCluster;
  before(async () => {
    server = await privateServer(['--max-connections=4']);
    let b = cluster()
      .keyspace('commerce', { shards: ['0'] })
      .keyspace('customer', {
        shards: ['0'],
        tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
      })
      .moveTables('commerce2customer', {
        from: 'commerce',
        to: 'customer',
        tables: ['customer'],
        column: 'customer_id',
      });
    for (let i = 0; i < KEYSPACES; i += 1) b = b.keyspace(`spare${i}`, { shards: ['0'] });
    const readout = b.readout();
    const primaries = (readout.topology.tablets.ok ? readout.topology.tablets.value : []).filter(
      (t) => t.type === 'PRIMARY',
    );
    // Every primary on the one small server (one sidecar database per keyspace keeps their rows apart).
    live = await startLiveCluster(readout, pool, {
      place: Object.fromEntries(primaries.map((t) => [t.alias, server.instance])),
    });
  });
  after(async () => {
    await live?.stop().catch(() => undefined);
    await server?.stop();
  });

  test('refusals are retried with fewer connections: every primary read, exit 0', async () => {
    const [before] = await server.instance.rows("SHOW GLOBAL STATUS LIKE 'Connection_errors_max_connections'");
    const t0 = performance.now();
    const run = await runCli(['check', '--vtctld', live.address, '--format', 'json', '--concurrency', '64']);
    const ms = performance.now() - t0;
    const [afterRun] = await server.instance.rows("SHOW GLOBAL STATUS LIKE 'Connection_errors_max_connections'");
    const refused = Number(afterRun?.Value) - Number(before?.Value);
    assert.ok(refused > 0, 'the server refused connections: the case was exercised');
    const report = parseReport(run);
    assert.deepEqual(
      report.findings.filter((f) => f.check === 'unreachable').map((f) => f.message),
      [],
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      report.workflows.map((w) => [w.workflow, w.verdict]),
      [['commerce2customer', 'ready']],
    );
    assert.ok(ms < 20_000, `took ${Math.round(ms)} ms`);
  });

  const full =
    'a server already full: the host backs off as one, a handful of refused attempts, not a ladder per primary';
  test(full, async () => {
    // Every connection the server allows is held (root may take one more than max_connections), by the test.
    const held: Connection[] = [];
    try {
      for (let i = 0; i < 64; i += 1) {
        try {
          held.push(await server.instance.rootConnection());
        } catch {
          break;
        }
      }
      assert.ok(held.length >= 4 && held.length < 64, `held ${held.length} connections`);
      const [before] = await held[0]!
        .query("SHOW GLOBAL STATUS LIKE 'Connection_errors_max_connections'")
        .then(([rows]) => rows as { Value: string }[]);
      const run = await runCli(['check', '--vtctld', live.address, '--format', 'json', '--concurrency', '64']);
      const [afterRun] = await held[0]!
        .query("SHOW GLOBAL STATUS LIKE 'Connection_errors_max_connections'")
        .then(([rows]) => rows as { Value: string }[]);
      const refused = Number(afterRun?.Value) - Number(before?.Value);
      const report = parseReport(run);
      // Every primary on the server is reported, none read.
      const primaries = live.primaries.length;
      assert.equal(
        report.findings.filter((f) => f.check === 'unreachable' && /too many connections/i.test(f.message)).length,
        primaries,
        JSON.stringify(report.findings.map((f) => f.message)),
      );
      assert.equal(run.code, 1);
      // The first wave (one attempt per primary, sent before any answer) and then one attempt per backoff step of
      // the host, never a retry ladder per primary (which was about 8 attempts × 17 primaries).
      assert.ok(refused <= primaries + 10, `${refused} refused connection attempts for ${primaries} primaries`);
    } finally {
      for (const c of held) await c.end().catch(() => c.destroy());
    }
  });
});

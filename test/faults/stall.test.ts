/**
 * Stalled primaries: a primary frozen with SIGSTOP before the run, one that stops
 * answering in the middle of its read (a TCP proxy that holds its Nth statement), and the same under `--via vtctld`.
 * Each case asserts that the run ends in bounded time, its exit code, that the stalled part is reported as not read
 * (timed out) on the right shard, and that every other part was still read and nothing else was blamed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { privateServer, testPool, type PrivateServer } from '../harness/env.js';
import { MariaDbInstance } from '../harness/mariadb.js';
import { startStallingProxy, type StallingProxy } from '../harness/tcp-proxy.js';
import { parseReport, runCli, type ContractReport } from '../e2e/cli.js';
import { startLiveCluster, type LiveCluster } from '../e2e/live-cluster.js';
import { unshardedToSharded } from '../e2e/scenarios.js';
import { compareShardNames } from '../../src/vitess/keyrange.js';

const pool = await testPool({ minInstances: 3 });

/** Runs the CLI and measures its wall time. */
async function timed(argv: readonly string[]) {
  const t0 = performance.now();
  const run = await runCli(argv);
  return { ...run, ms: performance.now() - t0 };
}

/** The unreachable findings of a report, as (shard, reason, timedOut) triples, sorted. */
function unreachable(
  r: ContractReport,
): { shard: string | undefined; reason: unknown; timedOut: unknown; kind: unknown }[] {
  return r.findings
    .filter((f) => f.check === 'unreachable')
    .map((f) => ({ shard: f.shard, reason: f.reason, timedOut: f.details?.timedOut, kind: f.details?.kind }))
    .sort((a, b) => compareShardNames(String(a.shard), String(b.shard)));
}

/** The shards whose streams were read (the report's stream matrix). */
const streamShards = (r: ContractReport): string[] =>
  [...new Set(((r as { streams?: { shard: string }[] }).streams ?? []).map((s) => s.shard))].sort();

describe('a primary frozen with SIGSTOP', { timeout: 60_000 }, () => {
  let server: PrivateServer;
  let live: LiveCluster;
  let stalled = '';
  before(async () => {
    server = await privateServer();
    const b = unshardedToSharded();
    stalled = b.primary('customer', '80-');
    live = await startLiveCluster(b.readout(), pool, { place: { [stalled]: server.instance } });
    process.kill(server.pid, 'SIGSTOP');
  });
  after(async () => {
    if (server) process.kill(server.pid, 'SIGCONT');
    await live?.stop().catch(() => undefined);
    await server?.stop();
  });

  test('--timeout bounds it: exit 1 within the timeout, only that primary unread (timed out)', async () => {
    const run = await timed(['check', '--vtctld', live.address, '--format', 'json', '--timeout', '2s']);
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.ms < 2000 + 2500, `took ${Math.round(run.ms)} ms`);
    const report = parseReport(run);
    assert.deepEqual(unreachable(report), [
      { shard: '80-', reason: 'primaryUnreadable', timedOut: true, kind: 'timeout' },
    ]);
    assert.deepEqual(streamShards(report), ['-80']);
    for (const wf of report.workflows) assert.notEqual(wf.verdict, 'ready');
  });

  test('--deadline bounds the whole run below a long --timeout: what was read is reported', async () => {
    const run = await timed([
      'check',
      '--vtctld',
      live.address,
      '--format',
      'json',
      '--timeout',
      '30s',
      '--deadline',
      '2s',
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.ok(run.ms < 2000 + 2500, `took ${Math.round(run.ms)} ms`);
    const report = parseReport(run);
    // The primary is unread; its shard's tablets were never asked for their status (the deadline had passed), which
    // is said as such, not as tablets that did not answer.
    const found = unreachable(report);
    assert.deepEqual(
      found.filter((f) => f.reason === 'primaryUnreadable'),
      [{ shard: '80-', reason: 'primaryUnreadable', timedOut: true, kind: 'timeout' }],
    );
    // Whatever else the deadline cut (under load, a source primary's journal too) is said as not read in time or a
    // partial read, never as a tablet that did not answer.
    assert.deepEqual(
      found.filter((f) => f.reason === 'tabletUnreachable'),
      [],
    );
    assert.deepEqual(streamShards(report), ['-80']);
    for (const wf of report.workflows) assert.notEqual(wf.verdict, 'ready');
  });

  test('--deadline comes from the environment and the config file like the rest', async () => {
    const run = await runCli(['check', '--vtctld', live.address, '--format', 'json', '--timeout', '30s'], {
      VTPREFLIGHT_DEADLINE: '1500ms',
    }).then(async (r) => r);
    assert.equal(run.code, 1, run.stderr);
    const printed = await runCli(['config', 'print', '--vtctld', live.address], { VTPREFLIGHT_DEADLINE: '90s' });
    assert.match(printed.stdout, /deadline\W+1m30s|deadline\W+90s|deadline.*VTPREFLIGHT_DEADLINE/);
  });
});

describe('a primary frozen with SIGSTOP during the run', { timeout: 60_000 }, () => {
  let server: PrivateServer;
  let live: LiveCluster;
  let stalled = '';
  before(async () => {
    server = await privateServer();
    const b = unshardedToSharded();
    stalled = b.primary('customer', '80-');
    live = await startLiveCluster(b.readout(), pool, { place: { [stalled]: server.instance } });
  });
  after(async () => {
    if (server) process.kill(server.pid, 'SIGCONT');
    await live?.stop().catch(() => undefined);
    await server?.stop();
  });

  test('frozen while the reader waits inside it: exit 1 within the timeout, that primary alone reported', async () => {
    // Hold the reader inside the server (a write lock on copy_state), see it waiting there, then freeze the server.
    const p = live.primaries.find((x) => x.alias === stalled)!;
    const locker = await server.instance.rootConnection();
    await locker.query(`LOCK TABLES \`${p.sidecarDb}\`.\`copy_state\` WRITE`);
    const t0 = performance.now();
    const running = runCli(['check', '--vtctld', live.address, '--format', 'json', '--timeout', '3s']);
    const watcher = await server.instance.rootConnection();
    try {
      for (let i = 0; i < 200; i += 1) {
        const [rows] = await watcher.query(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '/* vtpreflight */%copy_state%'",
        );
        if (Number((rows as { n: unknown }[])[0]?.n) > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      watcher.destroy();
    }
    process.kill(server.pid, 'SIGSTOP');
    const run = await running;
    const ms = performance.now() - t0;
    process.kill(server.pid, 'SIGCONT');
    locker.destroy();
    assert.equal(run.code, 1, run.stderr);
    assert.ok(ms < 3000 + 2500, `took ${Math.round(ms)} ms`);
    const report = parseReport(run);
    const mine = report.findings.filter((f) => f.check === 'unreachable');
    assert.ok(mine.length > 0);
    for (const f of mine) assert.equal(f.shard, '80-', f.message);
    // The other shards were read whatever the frozen one did.
    assert.ok(streamShards(report).includes('-80'));
    for (const wf of report.workflows) assert.notEqual(wf.verdict, 'ready');
  });
});

describe('a primary that stops answering in the middle of its read', { timeout: 60_000 }, () => {
  let proxy: StallingProxy;
  let live: LiveCluster;
  let stalled = '';
  before(async () => {
    const real = pool.instance(2);
    proxy = await startStallingProxy({ targetHost: real.host, targetPort: real.port });
    // The same server seen through a TCP proxy: fixtures and the tablet record go through it.
    const viaProxy = new MariaDbInstance(
      { index: real.index, host: proxy.host, port: proxy.port, serverId: real.serverId, pid: 0 },
      pool.info,
    );
    const b = unshardedToSharded();
    stalled = b.primary('customer', '80-');
    live = await startLiveCluster(b.readout(), pool, { place: { [stalled]: viaProxy } });
  });
  after(async () => {
    // The proxy first: its held connections (the fake vtctld's reader among them) must fail for live.stop() to end.
    await proxy?.stop();
    await live?.stop().catch(() => undefined);
  });

  test('stalled after its vreplication rows: copy_state, the log and the journal unread is never exit 0', async () => {
    // A session holding a write lock on copy_state: the reader gets its streams, then waits on copy_state (however
    // the reads are batched), until its --timeout.
    const p = live.primaries.find((x) => x.alias === stalled)!;
    const locker = await pool.instance(2).rootConnection();
    try {
      await locker.query(`LOCK TABLES \`${p.sidecarDb}\`.\`copy_state\` WRITE`);
      const run = await timed(['check', '--vtctld', live.address, '--format', 'json', '--timeout', '2s']);
      assert.ok(run.ms < 2000 + 2500, `took ${Math.round(run.ms)} ms`);
      assert.equal(run.code, 1, run.stderr);
      const report = parseReport(run);
      const mine = report.findings.filter((f) => f.check === 'unreachable');
      assert.ok(mine.length > 0, 'the unread tables are reported');
      for (const f of mine) {
        assert.equal(f.shard, '80-', f.message);
        assert.equal(f.tablet, stalled, f.message);
        // An unread primary is an error; an unread copy_state/log/journal is a warning that leaves the workflow
        // unverified (the gate fails either way).
        assert.ok(f.severity === 'error' || f.severity === 'warning', f.message);
      }
      // Whether its vreplication rows made it back depends on how the reads are batched (one round trip loses them
      // with the rest); either way the shard's reads are reported, the other shards were read, and it is not a pass.
      assert.ok(streamShards(report).includes('-80'));
      for (const wf of report.workflows) assert.notEqual(wf.verdict, 'ready');
    } finally {
      await locker.end().catch(() => locker.destroy());
    }
  });

  test('--via vtctld: one deadline per primary, not one per statement', async () => {
    // The fake vtctld reads the primary through the proxy too; its first statement there hangs.
    proxy.setStallAfter(0);
    try {
      const run = await timed([
        'check',
        '--vtctld',
        live.address,
        '--format',
        'json',
        '--via',
        'vtctld',
        '--timeout',
        '3s',
      ]);
      assert.equal(run.code, 1, run.stderr);
      // One deadline per statement would be at least 6 s (the column list, then the journal).
      assert.ok(run.ms < 3000 + 2000, `took ${Math.round(run.ms)} ms`);
      const report = parseReport(run);
      const shards = new Set(report.findings.filter((f) => f.check === 'unreachable').map((f) => f.shard));
      assert.deepEqual([...shards], ['80-']);
      // Typed where the read failed: vtctld's call timed out (the statements after it were never sent).
      const kinds = new Set(unreachable(report).map((f) => f.kind));
      assert.ok(kinds.has('timeout'), [...kinds].join(', '));
      for (const k of kinds) assert.ok(k === 'timeout' || k === 'not-attempted', String(k));
      for (const wf of report.workflows) assert.notEqual(wf.verdict, 'ready');
    } finally {
      proxy.setStallAfter(Number.POSITIVE_INFINITY);
    }
  });
});

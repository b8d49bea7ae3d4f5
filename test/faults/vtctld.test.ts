/**
 * vtctld failing under a run: killed in the middle of the GetFullStatus calls, and a server
 * that accepts connections and never answers. Each case asserts bounded time, the exit code, and that the failure is
 * blamed on vtctld (one finding), never on the tablets behind it.
 */
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { testPool } from '../harness/env.js';
import { parseReport, runCli } from '../e2e/cli.js';
import { startLiveCluster, type LiveCluster } from '../e2e/live-cluster.js';
import { unshardedToSharded } from '../e2e/scenarios.js';

const pool = await testPool();

describe('vtctld killed during the GetFullStatus calls', { timeout: 60_000 }, () => {
  let live: LiveCluster;
  before(async () => {
    // Slow answers, so that GetFullStatus calls are in flight when vtctld goes away.
    live = await startLiveCluster(unshardedToSharded().readout(), pool, { latencyMs: 150 });
  });
  after(async () => {
    await live?.stop().catch(() => undefined);
  });

  test('one finding about vtctld; no tablet is blamed', async () => {
    const t0 = performance.now();
    const running = runCli(['check', '--vtctld', live.address, '--format', 'json', '--timeout', '3s']);
    for (let i = 0; i < 2000 && !live.vtctld.calls.some((c) => c.rpc === 'GetFullStatus'); i += 1)
      await new Promise((r) => setTimeout(r, 2));
    await live.vtctld.stop();
    const run = await running;
    const ms = performance.now() - t0;
    assert.ok(ms < 3000 + 2500, `took ${Math.round(ms)} ms`);
    const report = parseReport(run);
    assert.equal(run.code, 1, run.stderr);
    const unreachable = report.findings.filter((f) => f.check === 'unreachable');
    assert.equal(unreachable.length, 1, unreachable.map((f) => `${f.reason}: ${f.message}`).join('\n'));
    assert.match(
      unreachable[0]!.message,
      /^vtctld at 127\.0\.0\.1:\d+ stopped answering during the read: \d+ calls? failed \(GetFullStatus /,
    );
    assert.equal(unreachable[0]!.reason, 'vtctldReadFailed');
    assert.equal(unreachable[0]!.tablet, undefined);
    // No tablet blamed for vtctld's death.
    assert.deepEqual(
      report.findings.filter((f) => f.check === 'source-not-serving').map((f) => f.message),
      [],
    );
    for (const wf of report.workflows) assert.notEqual(wf.verdict, 'ready');
  });
});

describe('a vtctld that accepts connections and never answers', { timeout: 60_000 }, () => {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  let address = '';
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const a = server.address();
    address = `127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}`;
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('exit 2 in one line, bounded by --timeout', async () => {
    const t0 = performance.now();
    const run = await runCli(['check', '--vtctld', address, '--format', 'json', '--timeout', '2s']);
    const ms = performance.now() - t0;
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.split('\n').length, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`^vtpreflight: .*${address.replace(/\./g, '\\.')}`));
    assert.ok(ms < 2 * 2000 + 2500, `took ${Math.round(ms)} ms`);
  });
});

describe('a gRPC vtctld that accepts every call and never answers', { timeout: 60_000 }, () => {
  let live: LiveCluster;
  before(async () => {
    // A real gRPC server (HTTP/2 and the service are up) whose every answer takes an hour.
    live = await startLiveCluster(unshardedToSharded().readout(), pool, { latencyMs: 3_600_000 });
  });
  after(async () => {
    await live?.stop().catch(() => undefined);
  });

  test('exit 2 in one line naming vtctld, bounded by --timeout', async () => {
    const t0 = performance.now();
    const run = await runCli(['check', '--vtctld', live.address, '--format', 'json', '--timeout', '2s']);
    const ms = performance.now() - t0;
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.split('\n').length, 2, run.stderr);
    assert.match(run.stderr, /^vtpreflight: vtctld at .* accepted the connection but did not answer GetKeyspaces/);
    assert.ok(ms < 3 * 2000 + 2500, `took ${Math.round(ms)} ms`);
  });
});

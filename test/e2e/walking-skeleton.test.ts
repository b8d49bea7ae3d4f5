/**
 * The walking skeleton, against the test harness cluster (real MariaDB primaries + a real gRPC vtctld):
 * - a Reshard whose source shard 80- lacks a stream that -80 has → `stream-set-mismatch` naming both shards and
 *   the missing (workflow, keyspace, shard), exit 1 (the built binary, as a user runs it);
 * - a healthy cluster → exit 0 with no findings (the bin entry point, through a symlink as npm installs it);
 * - one primary's MySQL down (its server stopped) → an `unreachable` finding for that tablet, the other shards
 *   still checked, exit 1;
 * - vtctld down → one line `cannot reach vtctld at …`, exit 2, nothing on stdout;
 * - a snapshot round-trips to the same report (`snapshot --output f`, then `check --snapshot f`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { startFakeVtctld } from '../../src/sim/vtctld-server.js';
import { startMariaDbPool, stopPool, poolInstances } from '../harness/mariadb.js';
import { testPool } from '../harness/env.js';
import { repoRoot } from '../helpers/paths.js';
import { external, reshardScenario } from '../helpers/reshard-scenario.js';
import { parseReport, runCli, spawnCli } from './cli.js';
import { assertLiveMatchesOffline, comparable } from './compare.js';
import { assertFindings, assertHealthy } from './expect.js';
import { closedPort, startLiveCluster } from './live-cluster.js';
import { reshardFromZero, STREAM_SET_MISMATCH, unshardedToSharded } from './scenarios.js';
import { joinRegExp } from '../helpers/regexp.js';

const pool = await testPool({ minInstances: 6 });
const env = { VTPREFLIGHT_MYSQL_USER: pool.info.reader.user, VTPREFLIGHT_MYSQL_PASSWORD: pool.info.reader.password };
const scratch = mkdtempSync(join(tmpdir(), 'vtpreflight-e2e-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('a Reshard whose source shard 80- lacks a stream that -80 has: stream-set-mismatch, exit 1 (built binary)', async () => {
  const b = external(reshardScenario(), 'mat2', {
    from: 'commerce',
    fromShard: '0',
    to: 'customer',
    shards: ['-80'],
    type: 'Materialize',
  });
  const live = await startLiveCluster(b.readout(), pool);
  try {
    const run = await spawnCli(['check', '--vtctld', live.address, '--format', 'json'], { env });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, '', 'nothing on stderr when JSON goes to a pipe');
    const report = parseReport(run);
    assertFindings(report, 'stream-set-mismatch', [STREAM_SET_MISMATCH]);
    const [finding] = report.findings.filter((f) => f.check === 'stream-set-mismatch');
    // Both shards and the missing (workflow, keyspace, shard), in the words an operator reads.
    assert.match(finding?.message ?? '', /customer\/80-.*source shard -80: lacks 1 \(mat2 from commerce\/0\)/);
    assertLiveMatchesOffline(report, live, { via: 'mysql' });

    // The mismatch alone decides the exit code.
    const only = await runCli(
      ['check', '--vtctld', live.address, '--format', 'json', '--only', 'stream-set-mismatch'],
      env,
    );
    assert.equal(only.code, 1);
    assert.deepEqual(
      parseReport(only).findings.map((f) => f.check),
      ['stream-set-mismatch'],
    );
  } finally {
    await live.stop();
  }
});

test('a healthy cluster: exit 0 with no findings (bin entry point through a symlink, default _vt names)', async () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const binTarget = resolve(repoRoot, pkg.bin.vtpreflight as string);
  assert.match(
    readFileSync(binTarget, 'utf8').split('\n')[0] ?? '',
    /^#!\/usr\/bin\/env node$/,
    'the bin has a node shebang',
  );
  const bin = join(scratch, 'vtpreflight');
  symlinkSync(binTarget, bin); // what npm puts in node_modules/.bin

  // Healthy as an operator leaves it before SwitchTraffic: the copy done and a clean VDiff on every target shard.
  const vdiff = [{ id: 1, workflow: 'commerce2customer' }];
  const healthy = unshardedToSharded().vdiffs('customer', '-80', vdiff).vdiffs('customer', '80-', vdiff);
  const live = await startLiveCluster(healthy.readout(), pool, { defaultNames: true });
  try {
    const run = await spawnCli(['check', '--vtctld', live.address, '--format', 'json'], { env, script: bin });
    const report = parseReport(run);
    assertHealthy(report);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    assertLiveMatchesOffline(report, live, { via: 'mysql' });
  } finally {
    await live.stop();
  }
});

test("one primary's MySQL down (its server stopped): unreachable for that tablet, the other shards still checked, exit 1", async () => {
  const own = await startMariaDbPool(1); // a server this test may stop (env.ts: never stop a shared one)
  let ownStopped = false;
  try {
    const [instance] = poolInstances(own);
    const b = reshardFromZero().patchStream('customer', '-80', 1, { message: 'Duplicate entry: ERROR 1062' });
    const down = b.primary('customer', '80-');
    const live = await startLiveCluster(b.readout(), pool, { place: { [down]: instance! } });
    try {
      await stopPool(own);
      ownStopped = true;
      live.markDown(down);
      for (const via of ['mysql', 'vtctld'] as const) {
        const run = await runCli(['check', '--vtctld', live.address, '--format', 'json', '--via', via], env);
        assert.equal(run.code, 1, run.stderr);
        const report = parseReport(run);
        // The tool's read failed: a warning that leaves the workflow unverified (exit 1), not a refusal.
        assertFindings(report, 'unreachable', [
          {
            severity: 'warning',
            keyspace: 'customer',
            shard: '80-',
            tablet: down,
            message:
              via === 'mysql'
                ? new RegExp(
                    `^could not read the streams of customer/80- on ${down} \\(${instance!.host}:${instance!.port}\\): connect failed: cannot connect to .*ECONNREFUSED$`,
                  )
                : /^could not read the streams of customer\/80- on zone1-0000000120 \(vtctld ExecuteFetchAsDBA\)/,
            details: { reason: 'primaryUnreadable' },
          },
        ]);
        // The other shards were still read and checked: -80's stream error is found, 0 and -80 are in the matrix.
        assertFindings(report, 'stream-error', [
          { keyspace: 'customer', shard: '-80', streamId: 1, details: { reason: 'messageError' } },
        ]);
        const streamShards = (report.streams ?? []).map((s) => (s as { shard: string }).shard);
        assert.ok(streamShards.includes('-80'), `streams read: ${streamShards.join(', ')}`);
        assertLiveMatchesOffline(report, live, { via });
      }
    } finally {
      await live.stop();
    }
  } finally {
    if (!ownStopped) await stopPool(own);
  }
});

test('vtctld down: one line "cannot reach vtctld at …", exit 2, nothing on stdout', async () => {
  // Nothing listens on a closed port …
  const port = await closedPort();
  const run = await spawnCli(['check', '--vtctld', `127.0.0.1:${port}`, '--format', 'json', '--timeout', '2s'], {
    env,
  });
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  // Refused at once: the line says so, with the time it really took (not "within 2s").
  assert.match(
    run.stderr,
    new RegExp(
      `^vtpreflight: cannot reach vtctld at 127\\.0\\.0\\.1:${port}: connection refused after \\d+ms: nothing listens on 127\\.0\\.0\\.1 port ${port}: check --vtctld and network access\n$`,
    ),
  );

  // … and a vtctld that was serving and went away says the same, for check and for snapshot.
  const vtctld = await startFakeVtctld({
    keyspaces: [],
    shards: [],
    tablets: [],
    vschemas: {},
    routingRules: [],
    shardRoutingRules: [],
    fullStatus: {},
  });
  const address = vtctld.address;
  await vtctld.stop();
  for (const cmd of [
    ['check', '--format', 'json'],
    ['snapshot', '--output', join(scratch, 'never.json')],
  ]) {
    const r = await runCli([cmd[0]!, '--vtctld', address, ...cmd.slice(1), '--timeout', '2s'], env);
    assert.equal(r.code, 2, `${cmd[0]}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      joinRegExp(
        /^vtpreflight: cannot reach vtctld at 127\.0\.0\.1:\d+: connection refused after /,
        /\d+ms: nothing listens on 127\.0\.0\.1 port \d+: check --vtctld and network access\n$/,
      ),
    );
  }
});

test('a snapshot round-trips to the same report (snapshot --output f, then check --snapshot f)', async () => {
  // Findings of several kinds, including a read failure, and no clock-dependent values.
  const b = external(reshardScenario(), 'mat2', {
    from: 'commerce',
    fromShard: '0',
    to: 'customer',
    shards: ['-80'],
    type: 'Materialize',
  })
    .patchStream('customer', '-40', 1, { copyTables: ['customer'] })
    .unreadable('customer', 'c0-');
  const live = await startLiveCluster(b.readout(), pool);
  try {
    const file = join(scratch, 'round-trip.json');
    const snap = await runCli(['snapshot', '--vtctld', live.address, '--output', file], env);
    assert.equal(snap.code, 0, snap.stderr);
    assert.match(snap.stderr, /^vtpreflight: wrote .*round-trip\.json \(7 primaries, 1 failed reads\) in /m);
    const checked = await runCli(['check', '--snapshot', file, '--format', 'json'], {});
    const offline = parseReport(checked);
    const liveRun = await runCli(['check', '--vtctld', live.address, '--format', 'json'], env);
    const online = parseReport(liveRun);

    assert.equal(checked.code, liveRun.code);
    assert.equal(offline.target.snapshot, file);
    // The two captures are moments apart: the stream matrix's lag (seconds since capture) may differ by one; the
    // exact lag is checked below against the snapshot's own capture time.
    const strip = (r: typeof online) => ({
      ...comparable(r),
      target: { ...r.target, snapshot: null },
      findings: r.findings,
      streams: (r.streams ?? []).map((x) => ({ ...x, lagSeconds: undefined })),
    });
    assert.deepStrictEqual(
      strip(offline),
      strip(online),
      'check --snapshot reports exactly what the live check reported',
    );
    assert.ok(online.findings.some((f) => f.check === 'unreachable' && f.shard === 'c0-'));
    assert.ok(online.findings.some((f) => f.check === 'copy-incomplete' && f.shard === '-40'));

    // The snapshot's own capture time gives the exact offline expectation, with no tolerance at all.
    const capturedAt = (JSON.parse(readFileSync(file, 'utf8')) as { capturedAt: string }).capturedAt;
    assertLiveMatchesOffline(
      { ...offline, startedAt: capturedAt, target: { ...offline.target, snapshot: null } },
      live,
      { via: 'mysql' },
    );
  } finally {
    await live.stop();
  }
});

/**
 * `vtpreflight demo --serve`: the simulated cluster keeps running in its own process, its vtctld
 * address on stdout, so `check`, `--only`, the formats and `snapshot` can be tried against it; SIGTERM (or Ctrl-C)
 * stops it cleanly with exit 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Report } from '../../src/engine/report.js';
import { runDemo } from '../../src/cli/commands/demo.js';
import { startSimCluster } from '../../src/sim/cluster.js';
import { generateScenario } from '../../src/sim/scenario.js';
import { runCli, tempDir } from '../cli/helpers.js';
import { cliPath } from '../helpers/paths.js';

test('demo --serve: the address on stdout; check, --only, json and snapshot against it; SIGTERM stops it', async () => {
  const tmp = tempDir();
  const child = spawn(process.execPath, [cliPath, 'demo', '--serve', '--shards', '4'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let address = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    address = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no address within 30s; stderr:\n${stderr}`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n')[0]!;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(line);
        }
      });
    });
    assert.match(address, /^127\.0\.0\.1:\d+$/);
    const env = {};
    const text = await runCli(['check', '--vtctld', address, '--mysql-user', 'vtpreflight-demo', '--quiet'], { env });
    assert.equal(text.code, 1, text.stderr);
    assert.match(text.stdout, /^blocked +customer\.cust2cust \(Reshard\)/);
    const only = await runCli(
      ['check', '--vtctld', address, '--mysql-user', 'vtpreflight-demo', '--only', 'stream-error', '--format', 'json'],
      { env },
    );
    const report = JSON.parse(only.stdout) as Report;
    assert.deepEqual(
      report.checks.filter((c) => c.status !== 'skipped').map((c) => c.id),
      ['stream-error'],
    );
    const snap = tmp.path('snap.json');
    const s = await runCli(['snapshot', '--vtctld', address, '--mysql-user', 'vtpreflight-demo', '--output', snap], {
      env,
    });
    assert.equal(s.code, 0, s.stderr);
    assert.ok(JSON.parse(readFileSync(snap, 'utf8')).sidecars.length > 0);
  } finally {
    child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
    tmp.cleanup();
    assert.equal(code, 0, stderr);
  }
  assert.match(stderr, /stopped the simulated cluster/);
  assert.ok(stderr.includes(`vtpreflight check --vtctld ${address} --mysql-user vtpreflight-demo`), stderr);
});

test('demo --format html --output demo.html (as the README says) and demo --output demo.html write the HTML report', async () => {
  const tmp = tempDir();
  try {
    for (const argv of [
      ['--format', 'html', '--output', tmp.path('a.html')],
      ['--output', tmp.path('b.html')],
    ]) {
      const r = await runCli(['demo', '--shards', '4', ...argv]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(readFileSync(argv.at(-1)!, 'utf8'), /^<!doctype html>/i);
    }
  } finally {
    tmp.cleanup();
  }
});

test('demo --serve keeps heartbeats current (generated ten minutes ago, served as of now); --via vtctld', async () => {
  // The first reading of the clock (the generation) is ten minutes old, as if the demo had been serving that long;
  // every later reading is now. Frozen at its start, the healthy MoveTables would be blocked by replication lag.
  let readings = 0;
  const clock = () => (readings++ === 0 ? Date.now() - 10 * 60_000 : Date.now());
  let address = '';
  let release = () => {};
  const served = new Promise<void>((r) => (release = r));
  let addressed = () => {};
  const known = new Promise<void>((r) => (addressed = r));
  const demo = runDemo({
    scenario: 'movetables',
    shards: 2,
    clock,
    serve: { until: () => served },
    io: {
      stdout: (s) => {
        address += s.trim();
        addressed();
      },
      stderr: () => {},
      env: {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
    },
  });
  try {
    await known;
    const r = await runCli(['check', '--vtctld', address, '--mysql-user', 'vtpreflight-demo', '--quiet']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^ready +customer\.commerce2customer \(MoveTables\)/);
    assert.doesNotMatch(r.stdout, /replication-lag/);
    // `--via vtctld` reads the same sidecars through the simulated vtctld's ExecuteFetchAsDBA.
    const via = await runCli([
      'check',
      '--vtctld',
      address,
      '--mysql-user',
      'vtpreflight-demo',
      '--quiet',
      '--via',
      'vtctld',
    ]);
    assert.equal(via.code, 0, via.stdout + via.stderr);
    assert.match(via.stdout, /^ready +customer\.commerce2customer \(MoveTables\)/);
    assert.match(via.stdout, /on all 3 primaries read/);
  } finally {
    release();
    assert.equal(await demo, 0);
  }
});

test('a served cluster refreshed to a later clock answers from the new state, cached answers too', async () => {
  const stale = Date.now() - 10 * 60_000;
  const running = await startSimCluster(generateScenario('movetables', { now: stale, seed: 1, shards: 2 }));
  try {
    const argv = ['check', '--vtctld', running.vtctld, '--mysql-user', 'vtpreflight-demo', '--quiet'];
    const before = await runCli(argv);
    assert.equal(before.code, 1, before.stdout);
    assert.match(before.stdout, /blocked by: replication-lag/);
    running.refresh(generateScenario('movetables', { now: Date.now(), seed: 1, shards: 2 }));
    const after = await runCli(argv);
    assert.equal(after.code, 0, after.stdout);
    assert.match(after.stdout, /^ready +customer\.commerce2customer \(MoveTables\)/);
  } finally {
    await running.stop();
  }
});

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

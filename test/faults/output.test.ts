/**
 * Output errors, through the built binary in a child process, as a shell would run it: a full disk
 * on stdout (`> /dev/full`) is one line and exit 2, a reader that goes away (`| head`) ends quietly, `--output` paths
 * are checked before any collection starts, every output file is written atomically and several are all-or-nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliPath } from '../helpers/paths.js';
import { snapshotFile, tempDir } from '../cli/helpers.js';
import { unshardedToSharded } from '../e2e/scenarios.js';

/** Runs the binary with stdout going to `stdout` (a file descriptor, or 'pipe' closed at once); bounded. */
function run(
  argv: readonly string[],
  stdout: number | 'closed-pipe',
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...argv], {
      stdio: ['ignore', stdout === 'closed-pipe' ? 'pipe' : stdout, 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    });
    // The reader goes away before reading anything, as `| head -0` would.
    if (stdout === 'closed-pipe') child.stdout?.destroy();
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: performance.now() - t0 });
    });
  });
}

const hasDevFull = existsSync('/dev/full');

describe('output errors', () => {
  const tmp = tempDir('vtpreflight-faults-out-');
  let snap = '';
  before(async () => {
    snap = await snapshotFile(unshardedToSharded(), join(tmp.dir, 'snap.json'));
  });
  after(() => tmp.cleanup());

  test('stdout on a full disk: one line, exit 2, no stack trace', { skip: !hasDevFull && 'no /dev/full' }, async () => {
    const fd = openSync('/dev/full', 'w');
    try {
      const r = await run(['check', '--snapshot', snap, '--format', 'json'], fd);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, 'vtpreflight: cannot write the report to stdout: ENOSPC (no space left on device)\n');
    } finally {
      closeSync(fd);
    }
  });

  test('a reader that goes away (EPIPE) ends quietly', async () => {
    const r = await run(['check', '--snapshot', snap, '--format', 'json'], 'closed-pipe');
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
  });

  test('--output is checked before any collection starts', async () => {
    // Nothing listens at 127.0.0.1:1: reaching vtctld would fail later, and differently.
    const missing = join(tmp.dir, 'no-such-dir', 'report.json');
    const r = await run(['check', '--vtctld', '127.0.0.1:1', '--output', missing], openSync('/dev/null', 'w'));
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `vtpreflight: cannot write --output ${missing}: ENOENT (no such directory): ${join(tmp.dir, 'no-such-dir')}\n`,
    );
    const dir = await run(['snapshot', '--vtctld', '127.0.0.1:1', '--output', tmp.dir], openSync('/dev/null', 'w'));
    assert.equal(dir.code, 2);
    assert.equal(dir.stderr, `vtpreflight: cannot write --output ${tmp.dir}: EISDIR (is a directory)\n`);
  });

  test('--output on a full disk: one line, exit 2', { skip: !hasDevFull && 'no /dev/full' }, async () => {
    const r = await run(['check', '--snapshot', snap, '--output', '/dev/full'], openSync('/dev/null', 'w'));
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'vtpreflight: cannot write --output /dev/full: ENOSPC (no space left on device)\n');
  });

  test('several outputs are all-or-nothing; a file is replaced whole or not at all', {
    skip: !hasDevFull && 'no /dev/full',
  }, async () => {
    const json = join(tmp.dir, 'report.json');
    const md = join(tmp.dir, 'report.md');
    writeFileSync(json, 'the previous report\n');
    const r = await run(
      [
        'check',
        '--snapshot',
        snap,
        '--format',
        'json',
        '--output',
        json,
        '--format',
        'markdown',
        '--output',
        md,
        '--format',
        'text',
        '--output',
        '/dev/full',
      ],
      openSync('/dev/null', 'w'),
    );
    assert.equal(r.code, 2, r.stderr);
    assert.equal(readFileSync(json, 'utf8'), 'the previous report\n');
    assert.equal(existsSync(md), false);
    assert.deepEqual(
      readdirSync(tmp.dir).filter((n) => n.endsWith('.tmp')),
      [],
      'no temporary file left behind',
    );
    // The same without the failing output: both written.
    const ok = await run(
      ['check', '--snapshot', snap, '--format', 'json', '--output', json, '--format', 'markdown', '--output', md],
      openSync('/dev/null', 'w'),
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(readFileSync(json, 'utf8')).version, 1);
    assert.match(readFileSync(md, 'utf8'), /^#/);
  });
});

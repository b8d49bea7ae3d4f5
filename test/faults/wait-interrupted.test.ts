/**
 * What `--wait` keeps when it does not end on its own: stopped by SIGINT or SIGTERM, or unable to read the cluster
 * again, it writes the last complete run's report to every `--output`, marked interrupted, and exits 130, 143 or 2.
 * Stopped before any run completed, it writes nothing and says so. The signals are injected (`onStopSignal`) and the
 * clock is fake, so nothing here waits; one case sends a real SIGINT to the built CLI.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { testPool } from '../harness/env.js';
import { cluster } from '../helpers/cluster.js';
import { cliPath } from '../helpers/paths.js';
import { runCli, startLiveCluster, tempDir, type LiveCluster } from '../cli/helpers.js';

const pool = await testPool();

const scenario = () => {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });
  // Never clear: the copy of -80 does not finish, so --wait keeps re-checking.
  return b.patchStream('customer', '-80', 1, { state: 'Copying', copyTables: ['customer'] });
};

type Signal = 'SIGINT' | 'SIGTERM';

describe('--wait interrupted', { timeout: 120_000 }, () => {
  let live: LiveCluster;
  let dir: ReturnType<typeof tempDir>;
  before(async () => {
    live = await startLiveCluster(scenario(), pool);
    dir = tempDir('vtpreflight-wait-');
  });
  after(async () => {
    await live?.stop();
    dir?.cleanup();
  });

  const outputs = (tag: string) => ({
    json: dir.path(`${tag}.json`),
    text: dir.path(`${tag}.txt`),
    markdown: dir.path(`${tag}.md`),
    html: dir.path(`${tag}.html`),
    junit: dir.path(`${tag}.xml`),
  });
  const argv = (files: ReturnType<typeof outputs>) => [
    'check',
    '--vtctld',
    live.vtctld.address,
    '--keyspace',
    'customer',
    '--only',
    'copy-incomplete',
    '--wait',
    '10m',
    '--interval',
    '30s',
    ...Object.entries(files).flatMap(([format, file]) => ['--format', format, '--output', file]),
  ];

  /** A fake clock, and `onSleep(n)` run on the nth pause (the pause itself never ends unless it returns). */
  const fake = (onSleep: (n: number) => Promise<void>) => {
    let t = Date.parse('2026-03-01T12:00:00Z');
    let n = 0;
    return {
      now: () => t,
      sleep: async (ms: number) => {
        t += ms;
        await onSleep(++n);
      },
    };
  };

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${signal} in the pause after run 2: every --output gets run 2's report, marked; exit ${code}`, async () => {
      const files = outputs(signal);
      let stop: (s: Signal) => void = () => {};
      const clock = fake(async (n) => {
        if (n < 2) return;
        stop(signal);
        await new Promise(() => {}); // the pause is cut short by the signal, never by the timer
      });
      const r = await runCli(argv(files), {
        env: live.env,
        ...clock,
        onStopSignal: (h) => {
          stop = h;
          return () => {};
        },
      });
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, new RegExp(`interrupted: --wait was stopped by ${signal}; this is the report of run 2`));
      const report = JSON.parse(readFileSync(files.json, 'utf8')) as {
        interrupted?: { by: string; run: number; message: string };
        findings: { check: string }[];
      };
      assert.equal(report.interrupted?.by, signal);
      assert.equal(report.interrupted?.run, 2);
      assert.ok(report.findings.some((f) => f.check === 'copy-incomplete'));
      const mark = `interrupted: --wait was stopped by ${signal}`;
      assert.ok(readFileSync(files.text, 'utf8').startsWith(mark), readFileSync(files.text, 'utf8').slice(0, 300));
      for (const f of [files.markdown, files.html, files.junit]) assert.ok(readFileSync(f, 'utf8').includes(mark), f);
    });
  }

  test('stopped before the first run completes: no report is written, the line says so, exit 130', async () => {
    const files = outputs('early');
    const r = await runCli(argv(files), {
      env: live.env,
      ...fake(async () => {}),
      // The signal arrives as soon as the wait starts listening: run 1 is still reading.
      onStopSignal: (h) => {
        h('SIGINT');
        return () => {};
      },
    });
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /stopped by SIGINT before the first run completed: no report to write/);
    for (const f of Object.values(files)) assert.ok(!existsSync(f), f);
  });

  test('vtctld lost after run 1: the report of run 1, marked, in every --output; exit 2', async () => {
    const lost = await startLiveCluster(scenario(), pool);
    const files = outputs('lost');
    try {
      const r = await runCli(
        [...argv(files).map((a) => (a === live.vtctld.address ? lost.vtctld.address : a)), '--timeout', '2s'].map(
          (a) => (a === '10m' ? '1m' : a),
        ),
        {
          env: lost.env,
          ...fake(async (n) => {
            if (n === 1) await lost.vtctld.stop();
          }),
        },
      );
      assert.equal(r.code, 2, r.stderr);
      const report = JSON.parse(readFileSync(files.json, 'utf8')) as { interrupted?: { by: string; run: number } };
      assert.deepEqual([report.interrupted?.by, report.interrupted?.run], ['unreadable', 1]);
      assert.ok(readFileSync(files.text, 'utf8').startsWith('interrupted: the cluster could not be read again'));
      assert.match(r.stderr, /cannot reach vtctld/);
    } finally {
      await lost.stop().catch(() => undefined);
    }
  });

  test('a real SIGINT to the built CLI: the report is written, exit 130', async () => {
    const file = dir.path('real.json');
    const child = spawn(
      process.execPath,
      [
        cliPath,
        'check',
        '--vtctld',
        live.vtctld.address,
        '--keyspace',
        'customer',
        '--only',
        'copy-incomplete',
        '--wait',
        '10m',
        '--interval',
        '5m',
        '--format',
        'json',
        '--output',
        file,
      ],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...live.env } },
    );
    let stderr = '';
    let sent = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        // Run 1 is complete once the loop says what is still open.
        if (!sent && /still open after run 1/.test(stderr)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.on('exit', (c) => resolve(c));
    });
    assert.equal(code, 130, stderr);
    const report = JSON.parse(readFileSync(file, 'utf8')) as { interrupted?: { by: string; run: number } };
    assert.deepEqual([report.interrupted?.by, report.interrupted?.run], ['SIGINT', 1]);
  });
});

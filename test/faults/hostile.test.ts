/**
 * Hostile rows through every format: stream rows on a real MariaDB holding terminal escapes,
 * `<script>`, NUL bytes, NULLs, a 1 MB `source`, a 60 KB log message and int64 extremes, read live and rendered as
 * text, json, junit, markdown and html. Each run must end in bounded time with exit 1 (the rows are errors), and
 * no output may carry a raw escape sequence or an unescaped `<script>`; the JSON must round-trip the values exactly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testPool } from '../harness/env.js';
import { parseReport, runCli } from '../e2e/cli.js';
import { startLiveCluster, type LiveCluster } from '../e2e/live-cluster.js';
import { unshardedToSharded } from '../e2e/scenarios.js';
import { FORMATS } from '../../src/report/index.js';

const pool = await testPool();
const ESC = '\u001b';
const HOSTILE = `${ESC}]0;owned\u0007${ESC}[2J<script>alert(1)</script>\u0000 error & "quotes" 'single'`;
const INT64_MAX = '9223372036854775807';

describe('hostile rows through every format', { timeout: 120_000 }, () => {
  let live: LiveCluster;
  before(async () => {
    const b = unshardedToSharded()
      .patchStream('customer', '-80', 1, { message: HOSTILE.slice(0, 200), max_tps: INT64_MAX })
      .patchStream('customer', '80-', 1, {
        source: `${HOSTILE} ${'x'.repeat(1 << 20)}`,
        message: null,
        max_replication_lag: INT64_MAX,
      })
      .log('customer', '-80', {
        id: 1,
        vrepl_id: 1,
        type: 'Message',
        state: 'Error',
        message: `${HOSTILE}${'y'.repeat(60_000)}`,
        created_at: '2026-01-01 00:00:00',
        updated_at: '2026-01-01 00:00:00',
        count: 1,
      });
    live = await startLiveCluster(b.readout(), pool);
  });
  after(async () => {
    await live?.stop().catch(() => undefined);
  });

  for (const format of FORMATS) {
    test(`${format}: inert, bounded, exit 1`, async () => {
      const t0 = performance.now();
      const run = await runCli(['check', '--vtctld', live.address, '--format', format, '--timeout', '10s']);
      const ms = performance.now() - t0;
      assert.equal(run.code, 1, run.stderr);
      assert.ok(ms < 30_000, `took ${Math.round(ms)} ms`);
      assert.ok(!run.stdout.includes(ESC), 'a raw escape sequence reached the output');
      assert.ok(!run.stderr.includes(ESC), 'a raw escape sequence reached stderr');
      assert.ok(!run.stdout.includes('\u0007'), 'a raw BEL reached the output');
      if (format === 'html' || format === 'junit')
        assert.ok(!run.stdout.includes('<script>alert'), 'unescaped <script>');
      if (format === 'json') {
        const r = parseReport(run);
        const messages = r.findings.map((f) => f.message).join('\n');
        // The exact text survives in JSON (escaped by JSON itself), so nothing was lost or rewritten.
        assert.ok(messages.includes('<script>alert(1)</script>'), messages.slice(0, 500));
        const blocked = r.workflows.map((w) => w.verdict);
        assert.deepEqual(blocked, ['blocked']);
      }
    });
  }
});

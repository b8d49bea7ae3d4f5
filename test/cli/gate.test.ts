/**
 * The gate: `--fail-on`, exit codes (docs/report-contract.md), a check that errored, `--only`/`--skip`/`--severity`,
 * and bad input (one line, exit 2, no stack).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defineCheck } from '../../src/engine/check.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks, type FailOn } from '../../src/engine/run.js';
import { cluster, NOW_SECONDS } from '../helpers/cluster.js';
import { runCli, snapshotFile, tempDir, joinRegExp } from './helpers.js';

const tmp = tempDir('vtpreflight-gate-');
let lagging = '';
before(async () => {
  // One stream 120s behind: a replication-lag error by default.
  const b = cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', { shards: ['0'], tables: { customer: {} } })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });
  b.patchStream('customer', '0', 1, { time_updated: NOW_SECONDS - 120, transaction_timestamp: NOW_SECONDS - 120 });
  lagging = await snapshotFile(b, tmp.path('lagging.json'));
});
after(() => tmp.cleanup());

type Json = Record<string, any>;
const check = async (...argv: string[]) => {
  const r = await runCli(['check', '--snapshot', lagging, '--format', 'json', '--only', 'replication-lag', ...argv]);
  return { ...r, report: r.code === 2 ? null : (JSON.parse(r.stdout) as Json) };
};

describe('--fail-on and --severity', () => {
  test('an error fails the default gate; lowered to a warning it passes unless --fail-on warning', async () => {
    const base = await check();
    assert.equal(base.code, 1);
    assert.deepEqual(
      base.report!.findings.map((f: Json) => [f.check, f.severity]),
      [['replication-lag', 'error']],
    );
    assert.deepEqual(base.report!.options, {
      failOn: 'error',
      maxLagSeconds: 30,
      maxLag: '30s',
      only: ['replication-lag'],
      skip: [],
      severities: {},
      action: { action: 'switch', tabletTypes: null, keepData: false, renameTables: false },
    });
    const lowered = await check('--severity', 'replication-lag=warning');
    assert.equal(lowered.code, 0);
    assert.equal(lowered.report!.findings[0].severity, 'warning');
    assert.equal((await check('--severity', 'replication-lag=warning', '--fail-on', 'warning')).code, 1);
    assert.equal((await check('--severity', 'replication-lag=info', '--fail-on', 'warning')).code, 0);
    assert.equal((await check('--severity', 'replication-lag=info', '--fail-on', 'info')).code, 1);
    assert.equal((await check('--fail-on', 'never')).code, 0);
  });

  test('--max-lag above the lag passes', async () => {
    const r = await check('--max-lag', '5m');
    assert.equal(r.code, 0);
    assert.deepEqual(r.report!.findings, []);
  });

  test('--max-lag below a second is judged in whole seconds as Vitess does, and shown as given', async () => {
    // Vitess: canSwitch(…, int64(maxReplicationLagAllowed.Seconds())) then `lag > max`: 120.5s allows 120s (passes
    // at a lag of 120s), 119.9s allows 119s (blocks), 500ms allows 0s (any lag of a second blocks).
    assert.equal((await check('--max-lag', '120.5s')).code, 0);
    const under = await check('--max-lag', '119.9s');
    assert.equal(under.code, 1);
    assert.equal(under.report!.findings[0].details.vitessError, 'replication lag 120s is higher than allowed lag 119s');
    const r = await check('--max-lag', '500ms');
    assert.equal(r.code, 1);
    assert.equal(r.report!.options.maxLagSeconds, 0);
    assert.equal(r.report!.options.maxLag, '500ms');
    const f = r.report!.findings[0];
    assert.match(f.message, /above the allowed 0s \(--max-lag 500ms in whole seconds, as Vitess compares\)/);
    assert.equal(f.details.vitessError, 'replication lag 120s is higher than allowed lag 0s');
    assert.match(r.stderr, /--max-lag 500ms is judged as 0s: Vitess truncates --max-replication-lag-allowed/);
    const html = await runCli(['check', '--snapshot', lagging, '--format', 'html', '--max-lag', '500ms', '--quiet']);
    assert.match(html.stdout, /--max-lag 500ms \(judged as 0s: whole seconds, as Vitess compares\)/);
    assert.equal(html.stderr, '', '--quiet: no note');
  });

  test('--only and --skip: skipped checks are reported as skipped; --skip wins', async () => {
    const r = await runCli([
      'check',
      '--snapshot',
      lagging,
      '--format',
      'json',
      '--only',
      'replication-lag,stream-error',
      '--skip',
      'stream-error',
    ]);
    const statuses = Object.fromEntries((JSON.parse(r.stdout) as Json).checks.map((c: Json) => [c.id, c.status]));
    assert.equal(statuses['replication-lag'], 'fail');
    assert.equal(statuses['stream-error'], 'skipped');
    assert.equal(statuses['copy-incomplete'], 'skipped');
    const skipped = await runCli([
      'check',
      '--snapshot',
      lagging,
      '--format',
      'json',
      '--only',
      'replication-lag',
      '--skip',
      'replication-lag',
    ]);
    assert.equal(skipped.code, 0);
  });
});

describe('a check that errored fails the gate (a partial result never passes silently)', () => {
  const model = () =>
    cluster()
      .keyspace('customer', { shards: ['0'] })
      .model();
  const throwing = defineCheck({
    id: 'a-throws',
    title: 't',
    reasons: { bug: { severity: 'error', step: 'catch-up', heuristic: true, rationale: 'test' } },
    description: 'd',
    remediation: 'r.',
    run: () => {
      throw new Error('bug');
    },
  });
  const info = defineCheck({
    id: 'b-info',
    title: 't',
    reasons: { fyi: { severity: 'info', step: 'catch-up', heuristic: true, rationale: 'test' } },
    description: 'd',
    remediation: 'r.',
    run: () => [{ reason: 'fyi', message: 'fyi' }],
  });
  const meta = (failOn: FailOn) => ({
    toolVersion: '0',
    snapshot: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    elapsedMs: 0,
    failOn,
  });
  for (const [failOn, code] of [
    ['error', 1],
    ['warning', 1],
    ['info', 1],
    ['never', 0],
  ] as const) {
    test(`--fail-on ${failOn}: exit ${code}`, () => {
      assert.equal(runModelChecks(model(), [throwing], withDefaults(), meta(failOn)).summary.exitCode, code);
    });
  }
  test('without an errored check, info findings do not fail --fail-on error', () => {
    assert.equal(runModelChecks(model(), [info], withDefaults(), meta('error')).summary.exitCode, 0);
  });
});

describe('bad input: one line, exit 2, no stack', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'unknown check id in --only',
      ['--only', 'stream-eror'],
      joinRegExp(
        /^vtpreflight: unknown check id "stream-eror" in --only: did you /,
        /mean "stream-error"\? \(run "vtpreflight checks" for the list\)\n$/,
      ),
    ],
    ['unknown check id in --skip', ['--skip', 'nope'], /unknown check id "nope" in --skip/],
    [
      'bad --severity',
      ['--severity', 'replication-lag=fatal'],
      /invalid --severity "replication-lag=fatal": use ID=error\|warning\|info/,
    ],
    ['bad --fail-on', ['--fail-on', 'warnings'], /invalid --fail-on "warnings": use error, warning, info or never/],
    ['bad --max-lag', ['--max-lag', '30'], /invalid --max-lag "30": use a number with a unit/],
    ['bad --format', ['--format', 'pdf'], /invalid --format "pdf"/],
    ['bad --via', ['--via', 'ssh'], /invalid --via "ssh": use mysql or vtctld/],
    ['bad --wait', ['--vtctld', 'h:1', '--wait', 'forever'], /invalid --wait "forever"/],
  ];
  for (const [name, argv, re] of cases) {
    test(name, async () => {
      const r = await runCli(['check', '--snapshot', lagging, ...argv]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, re);
      assert.equal(r.stderr.split('\n').filter(Boolean).length, 1);
      assert.equal(r.stdout, '');
    });
  }
  test('no --vtctld and no --snapshot', async () => {
    const r = await runCli(['check']);
    assert.deepEqual(
      [r.code, r.stderr],
      [
        2,
        'vtpreflight: missing --vtctld HOST:PORT (or VTPREFLIGHT_VTCTLD, vtctld.address in --config, or check --snapshot FILE)\n',
      ],
    );
  });
  test('vtctld unreachable is exit 2 with what to do', async () => {
    const r = await runCli(['check', '--vtctld', '127.0.0.1:1', '--timeout', '500ms', '--format', 'json']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      joinRegExp(
        /^vtpreflight: cannot reach vtctld at 127\.0\.0\.1:1: connection refused after /,
        /\d+ms: nothing listens on 127\.0\.0\.1 port 1: check --vtctld and network access\n$/,
      ),
    );
  });
  test('an unreadable snapshot', async () => {
    const r = await runCli(['check', '--snapshot', tmp.write('bad.json', '{"version": 7}')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is not a vtpreflight readout: unsupported readout version 7/);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineCheck } from '../../src/engine/check.js';
import { withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { cluster } from '../helpers/cluster.js';
import { runMeta } from '../helpers/run-meta.js';

const meta = runMeta;
const model = () =>
  cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .reshard('r', { keyspace: 'customer', from: ['-80'], to: ['-80'] })
    .model();

const throwing = defineCheck({
  id: 'b-throws',
  title: 't',
  reasons: { boom: { severity: 'error', step: 'catch-up', heuristic: true, rationale: 'test' } },
  description: 'd',
  remediation: 'r.',
  run: () => {
    throw new Error('boom\nsecond line');
  },
});
const warns = defineCheck({
  id: 'a-warns',
  title: 't',
  reasons: {
    warns: {
      severity: 'warning',
      step: 'catch-up',
      vitess: { template: 'something', file: 'x.go', line: 1, versions: { from: 17 } },
    },
    fyi: { severity: 'info', step: 'catch-up', heuristic: true, rationale: 'test' },
  },
  description: 'd',
  remediation: 'r.',
  run: () => [
    { reason: 'warns', message: 'z', keyspace: 'customer', shard: '80-' },
    { reason: 'warns', message: 'y', keyspace: 'customer', shard: '-80', streamId: 2 },
    { reason: 'fyi', message: 'x', keyspace: 'customer', shard: '-80', streamId: 1 },
  ],
});
const fine = defineCheck({
  id: 'c-fine',
  title: 't',
  reasons: { never: { severity: 'error', step: 'catch-up', heuristic: true, rationale: 'test' } },
  description: 'd',
  remediation: 'r.',
  run: () => [],
});

test('a throwing check gets status error with a one-line message; the run goes on', () => {
  const r = runModelChecks(model(), [fine, throwing, warns], withDefaults(), meta());
  assert.deepEqual(
    r.checks.map((c) => [c.id, c.status, c.findings]),
    [
      ['a-warns', 'fail', 3],
      ['b-throws', 'error', 0],
      ['c-fine', 'pass', 0],
    ],
  );
  assert.equal(r.checks[1]!.error, 'boom');
});

test('findings are stamped and sorted by check, keyspace, shard, stream', () => {
  const r = runModelChecks(model(), [warns], withDefaults(), meta());
  assert.deepEqual(
    r.findings.map((f) => [f.shard, f.streamId, f.severity, f.check, f.predicts]),
    [
      ['-80', 1, 'info', 'a-warns', undefined],
      ['-80', 2, 'warning', 'a-warns', 'something'],
      ['80-', undefined, 'warning', 'a-warns', 'something'],
    ],
  );
  assert.deepEqual(Object.keys(r.findings[0]!), [
    'check',
    'severity',
    'message',
    'keyspace',
    'shard',
    'streamId',
    'reason',
    'step',
    'details',
  ]);
});

test('exit code follows --fail-on', () => {
  assert.equal(runModelChecks(model(), [warns], withDefaults(), meta('error')).summary.exitCode, 0);
  assert.equal(runModelChecks(model(), [warns], withDefaults(), meta('warning')).summary.exitCode, 1);
  assert.equal(runModelChecks(model(), [warns], withDefaults(), meta('info')).summary.exitCode, 1);
  assert.equal(
    runModelChecks(model(), [warns], withDefaults({ severities: { 'a-warns': 'error' } }), meta('never')).summary
      .exitCode,
    0,
  );
  const raised = runModelChecks(model(), [warns], withDefaults({ severities: { 'a-warns': 'error' } }), meta('error'));
  assert.equal(raised.summary.exitCode, 1);
  assert.deepEqual(raised.summary, { error: 3, warning: 0, info: 0, exitCode: 1 });
});

test('--only and --skip mark checks skipped', () => {
  const r = runModelChecks(model(), [fine, warns], withDefaults({ skip: ['a-warns'] }), meta());
  assert.deepEqual(
    r.checks.map((c) => c.status),
    ['skipped', 'pass'],
  );
  const o = runModelChecks(model(), [fine, warns], withDefaults({ only: ['a-warns'] }), meta());
  assert.deepEqual(
    o.checks.map((c) => c.status),
    ['fail', 'skipped'],
  );
});

test('workflow verdicts: blocked by errors, at-risk by warnings, ready otherwise', () => {
  const m = model();
  const errs = defineCheck({
    id: 'e',
    title: 't',
    reasons: {
      copying: {
        severity: 'error',
        step: 'can-switch-streams',
        vitess: { template: 'copy is still in progress', file: 'x.go', line: 1, versions: { from: 17 } },
      },
    },
    description: 'd',
    remediation: 'r.',
    run: () => [
      {
        reason: 'copying',
        message: 'm',
        keyspace: 'customer',
        workflow: 'r',
        vitessError: 'copy is still in progress',
      },
    ],
  });
  assert.equal(runModelChecks(m, [fine], withDefaults(), meta()).workflows[0]!.verdict, 'ready');
  assert.equal(runModelChecks(m, [warns], withDefaults(), meta()).workflows[0]!.verdict, 'at-risk');
  const b = runModelChecks(m, [errs], withDefaults(), meta()).workflows[0]!;
  assert.equal(b.verdict, 'blocked');
  assert.deepEqual(b.blockedBy, ['e']);
});

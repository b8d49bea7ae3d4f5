/**
 * The sweep gate (README "Sweep for leftovers"): `runChecks(readout, { sweep: true })` runs the leftovers group and
 * `unreachable` only, gives no per-workflow verdicts, and exits 1 on findings at or above `--fail-on` or when any part
 * of the cluster was not read (a failed read, GetMirrorRules included), never for a check that does not apply.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { runChecks } from '../../src/index.js';
import { cluster } from '../helpers/cluster.js';

const base = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('c2c', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'id' })
    .mirrorRules([]);

test('a sweep runs the leftovers group and unreachable, with no verdict rows', () => {
  const r = runChecks(base().readout(), { sweep: true });
  assert.equal(r.command, 'sweep');
  assert.deepEqual(r.workflows, []);
  assert.deepEqual(
    r.checks.map((c) => c.id),
    CHECKS.filter((c) => c.group === 'leftovers' || c.id === 'unreachable').map((c) => c.id),
  );
  assert.equal(r.summary.exitCode, 0);
});

test('warnings: exit 0 under --fail-on error, 1 under --fail-on warning', () => {
  const readout = base()
    .mirrorRules([{ fromTable: 'commerce.zip', toTable: 'customer.zip', percent: 5 }])
    .readout();
  assert.equal(runChecks(readout, { sweep: true }).summary.exitCode, 0);
  assert.equal(runChecks(readout, { sweep: true, failOn: 'warning' }).summary.exitCode, 1);
  assert.equal(runChecks(readout, { sweep: true, failOn: 'never' }).summary.exitCode, 0);
});

test('a part not read is exit 1: a primary, or the mirror rules (not when vtctld predates them)', () => {
  assert.equal(runChecks(base().unreadable('customer', '80-').readout(), { sweep: true }).summary.exitCode, 1);
  const mirror = runChecks(base().mirrorRules({ error: 'UNAVAILABLE: topo is down' }).readout(), { sweep: true });
  assert.equal(mirror.summary.exitCode, 1);
  assert.deepEqual(
    mirror.findings.map((f) => f.reason),
    ['mirrorRulesUnread'],
  );
  const old = base().mirrorRules({ error: 'not available on this vtctld (UNIMPLEMENTED)', unavailable: true });
  assert.equal(runChecks(old.readout(), { sweep: true }).summary.exitCode, 0);
  assert.equal(runChecks(old.readout(), { sweep: true, failOn: 'never' }).summary.exitCode, 0);
});

test('--action does not narrow a sweep: every leftover is its answer', () => {
  const readout = base()
    .mirrorRules([{ fromTable: 'commerce.zip', toTable: 'customer.zip', percent: 5 }])
    .readout();
  const r = runChecks(readout, { sweep: true, action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' } });
  assert.ok(r.findings.some((f) => f.check === 'leftover-mirror-rules'));
  assert.ok(r.checks.every((c) => c.status !== 'skipped'));
});

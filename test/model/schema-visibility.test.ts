/**
 * A MoveTables source schema that lists no table (src/model/schema-visibility.ts): over MySQL it is what a user
 * without SELECT on `vt_<keyspace>` reads, so the workflow is `unverified` (never `ready`), naming the schema and the
 * grant; through vtctld (the DBA user) it is the truth and the LOCK TABLES refusal is predicted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS } from '../../checks/index.js';
import { DEFAULT_ACTION_REQUEST, withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { moveTablesRules, type SwitchedType } from '../helpers/actions.js';
import { cluster } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';
import { reshardScenario } from '../helpers/reshard-scenario.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const meta = {
  toolVersion: '0',
  snapshot: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  elapsedMs: 0,
  failOn: 'error' as const,
};

const moveTables = () => moveTablesScenario();

const ALL: SwitchedType[] = ['primary', 'replica', 'rdonly'];
const renaming = { ...DEFAULT_ACTION_REQUEST, action: 'complete' as const, keepData: false, renameTables: true };

const verdicts = (r: ReturnType<typeof runModelChecks>) => r.workflows.map((w) => [w.workflow, w.verdict]);

test('healthy MoveTables: the source schema lists the moved tables (builder default), ready', () => {
  const m = moveTables().model();
  const sc = m.shard('commerce', '0')?.sidecar;
  assert.ok(sc?.ok);
  assert.deepEqual(sc.value.tables, { ok: true, value: ['corder', 'customer'] });
  assert.deepEqual(m.failures, []);
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'ready']]);
  assert.equal(r.summary.exitCode, 0);
});

test('a source schema listing no table over MySQL: unverified (the grant named), exit 1, no LOCK TABLES error', () => {
  const m = moveTables().schemaTables('commerce', '0', []).model();
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'unverified']]);
  const row = r.workflows[0]!;
  assert.deepEqual(
    row.unverifiedBy.map((u) => [u.check, u.part]),
    [['unreachable', 'information_schema.TABLES of vt_commerce of commerce/0 (zone1-0000000100)']],
  );
  assert.match(
    row.unverifiedBy[0]!.why,
    joinRegExp(
      /^lists no table, though MoveTables customer\.commerce2customer moves \[corder customer\] from it: /,
      /.*grant it SELECT on vt_commerce/,
    ),
  );
  assert.equal(r.summary.exitCode, 1);
  // No warning: the list is a declared read (src/reads/registry.ts), named on the one info line.
  assert.deepEqual(
    r.findings.filter((f) => f.severity !== 'info').map((f) => [f.check, f.reason, f.severity]),
    [],
  );
  assert.deepEqual(
    r.findings.filter((f) => f.check === 'unreachable').map((f) => [f.reason, f.severity]),
    [['notRead', 'info']],
  );
  // The checks see a read that failed, never an empty schema.
  const sc = m.shard('commerce', '0')?.sidecar;
  assert.ok(sc?.ok);
  assert.equal(sc.value.tables?.ok, false);
});

test('the source schema lists no table, read through vtctld (DBA user): blocked by the LOCK TABLES refusal', () => {
  const m = moveTables().via('vtctld').schemaTables('commerce', '0', []).model();
  assert.deepEqual(m.failures, []);
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'blocked']]);
  assert.deepEqual(
    r.findings.filter((f) => f.severity === 'error').map((f) => [f.check, f.reason]),
    [['table-list-mismatch', 'tableMissingOnSource']],
  );
});

test('complete --rename-tables with a source schema listing no table over MySQL: unverified, not ready', () => {
  const hash = { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] };
  const b = cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {}, corder: {} } })
    .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: hash, corder: hash } })
    .moveTables('commerce2customer', {
      from: 'commerce',
      to: 'customer',
      tables: ['customer', 'corder'],
      column: 'customer_id',
    })
    .routing(moveTablesRules('commerce', 'customer', ['customer', 'corder'], ALL));
  for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
  const ready = runModelChecks(b.servingGraph().model(), CHECKS, withDefaults({ action: renaming }), meta);
  assert.deepEqual(verdicts(ready), [['commerce2customer', 'ready']]);
  const m = b.schemaTables('commerce', '0', []).model();
  const r = runModelChecks(m, CHECKS, withDefaults({ action: renaming }), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'unverified']]);
});

test('a Reshard names no table explicitly: an empty schema list is not made a failure', () => {
  const b = reshardScenario();
  for (const shard of ['-80', '80-']) b.schemaTables('customer', shard, []);
  assert.deepEqual(b.model().failures, []);
});

// --- gaps: the target side, older readouts, Reshard ---

const targetInvisible =
  'a MoveTables target schema whose base-table read lists nothing over MySQL: ready, one info line naming the grant';
test(targetInvisible, () => {
  const keyed = moveTables()
    .tableKeys('customer', '-80', ['corder', 'customer'])
    .tableKeys('customer', '80-', ['corder', 'customer']);
  assert.deepEqual(verdicts(runModelChecks(keyed.model(), CHECKS, withDefaults(), meta)), [
    ['commerce2customer', 'ready'],
  ]);
  const m = moveTables().tableKeys('customer', '-80', ['corder', 'customer']).tableKeys('customer', '80-', []).model();
  // Only moved-tables-without-key judges the target's keys, and it can only warn: the verdict does not rest on them.
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'ready']]);
  assert.equal(r.summary.exitCode, 0);
  const lines = r.findings.filter((f) => f.check === 'unreachable');
  assert.deepEqual(
    lines.map((f) => [f.reason, f.severity]),
    [['notRead', 'info']],
  );
  assert.match(
    lines[0]!.message,
    joinRegExp(
      /^not read, so not judged: information_schema\.TABLES of the schema on 1 primary \(refused: /,
      /.*grant it SELECT on vt_customer/,
    ),
  );
  const sc = m.shard('customer', '80-')?.sidecar;
  assert.ok(sc?.ok);
  assert.equal(sc.value.tableKeys?.ok, false);
});

test('the same empty target key list read through vtctld (DBA user) is the truth: not a read failure', () => {
  const m = moveTables().via('vtctld').tableKeys('customer', '-80', []).tableKeys('customer', '80-', []).model();
  assert.deepEqual(m.failures, []);
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'ready']]);
});

test('an older readout without the source table list: unverified by table-list-mismatch, naming the list', () => {
  const m = moveTables().schemaTables('commerce', '0', 'absent').model();
  assert.deepEqual(m.failures, []);
  const r = runModelChecks(m, CHECKS, withDefaults(), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'unverified']]);
  assert.deepEqual(
    r.workflows[0]!.unverifiedBy.map((u) => [u.check, u.part]),
    [['table-list-mismatch', 'information_schema.TABLES of vt_commerce of commerce/0 (zone1-0000000100)']],
  );
  assert.match(r.workflows[0]!.unverifiedBy[0]!.why, /^not in this readout .*LOCK TABLES/);
  assert.equal(r.summary.exitCode, 1);
  const result = r.checks.find((c) => c.id === 'table-list-mismatch')!;
  assert.equal(result.status, 'pass');
  assert.deepEqual(
    result.notJudged?.map((g) => [g.workflow, g.reason]),
    [['commerce2customer', 'tableMissingOnSource']],
  );
  // Only where the LOCK TABLES step runs: `cancel` never locks the source tables.
  const cancel = { ...DEFAULT_ACTION_REQUEST, action: 'cancel' as const };
  const c = runModelChecks(m, CHECKS, withDefaults({ action: cancel }), meta);
  assert.ok(!c.workflows[0]!.unverifiedBy.some((u) => u.check === 'table-list-mismatch'));
});

test('a Reshard without any table list (older readout) is not unverified for it: Vitess locks no table by name', () => {
  const b = reshardScenario();
  for (const shard of ['-80', '80-']) b.schemaTables('customer', shard, 'absent');
  const r = runModelChecks(b.model(), CHECKS, withDefaults(), meta);
  const row = r.workflows.find((w) => w.workflow === 'cust2cust')!;
  assert.deepEqual(row.unverifiedBy, []);
  assert.ok(r.checks.every((c) => (c.notJudged ?? []).every((g) => g.workflow !== 'cust2cust')));
});

test('complete --rename-tables, older readout without the source table list: unverified by complete-workflow', () => {
  const hash = { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] };
  const b = cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {}, corder: {} } })
    .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: hash, corder: hash } })
    .moveTables('commerce2customer', {
      from: 'commerce',
      to: 'customer',
      tables: ['customer', 'corder'],
      column: 'customer_id',
    })
    .routing(moveTablesRules('commerce', 'customer', ['customer', 'corder'], ALL));
  for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { state: 'Stopped', message: 'FROZEN' });
  const m = b.servingGraph().schemaTables('commerce', '0', 'absent').model();
  const r = runModelChecks(m, CHECKS, withDefaults({ action: renaming }), meta);
  assert.deepEqual(verdicts(r), [['commerce2customer', 'unverified']]);
  assert.deepEqual(
    r.workflows[0]!.unverifiedBy.map((u) => [u.check, u.part]),
    [['complete-workflow', 'information_schema.TABLES of vt_commerce of commerce/0 (zone1-0000000100)']],
  );
  // What was not read is no finding (no warning beside the unverified verdict).
  assert.deepEqual(
    r.findings.filter((f) => f.check === 'complete-workflow'),
    [],
  );
  // Without --rename-tables nothing is renamed: the missing list is not needed.
  const plain = { ...renaming, renameTables: false };
  assert.deepEqual(verdicts(runModelChecks(m, CHECKS, withDefaults({ action: plain }), meta)), [
    ['commerce2customer', 'ready'],
  ]);
});

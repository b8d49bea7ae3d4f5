/**
 * `check --action create`: the verdict row of a workflow that does not exist yet, its refusal as Vitess aggregates
 * it (validateNewWorkflow, utils.go @00bd50b6), and the checks of other actions out of its way.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { DEFAULT_ACTION_REQUEST, withDefaults } from '../../src/engine/options.js';
import { runModelChecks } from '../../src/engine/run.js';
import { ACTION_STEPS } from '../../src/engine/steps.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';
import { runMeta } from '../helpers/run-meta.js';

const meta = runMeta();
const create = (b: ReturnType<typeof moveTablesScenario>, workflow: string, targetKeyspace = 'customer') =>
  runModelChecks(
    b.model(),
    CHECKS,
    withDefaults({
      action: { ...DEFAULT_ACTION_REQUEST, action: 'create', create: { workflow, targetKeyspace } },
    }),
    meta,
  );

describe('--action create', () => {
  test('create runs no getWorkflowState prelude: the workflow does not exist yet', () => {
    assert.deepEqual(ACTION_STEPS.create, [
      'create-request',
      'create-target-vschema',
      'create-source-tables',
      'create-validate',
      'create-vschema',
      'create-empty-tables',
      'reshard-srv-keyspace',
      'reshard-shards',
      'reshard-targets',
      'reshard-copy-schema',
      'create-streams',
    ]);
  });
  test('a new name on a healthy target keyspace: one row, ready, exit 0', () => {
    const r = create(moveTablesScenario(), 'commerce2customer_v2');
    assert.equal(r.workflows.length, 1);
    const w = r.workflows[0]!;
    assert.equal(w.workflow, 'commerce2customer_v2');
    assert.equal(w.keyspace, 'customer');
    assert.equal(w.action, 'create');
    assert.equal(w.verdict, 'ready', JSON.stringify(w));
    assert.equal(w.vitessWouldSay, null);
    assert.equal(r.summary.exitCode, 0);
    // The checks of the other actions do not apply (not unverified).
    assert.equal(r.checks.find((c) => c.id === 'no-streams')!.notApplicable, true);
  });
  test('the name is taken: blocked, every shard aggregated as vterrors.Aggregate does', () => {
    const r = create(moveTablesScenario(), 'commerce2customer');
    assert.equal(r.workflows.length, 1);
    const w = r.workflows[0]!;
    assert.equal(w.verdict, 'blocked');
    assert.deepEqual(w.blockedBy, ['create-workflow']);
    assert.equal(
      w.vitessWouldSay,
      'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000110\n' +
        'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000120',
    );
    assert.equal(r.summary.exitCode, 1);
  });
  test('a target keyspace that does not exist: blocked, at the target vschema read', () => {
    const r = create(moveTablesScenario(), 'c2c', 'customer2');
    const w = r.workflows[0]!;
    assert.equal(w.verdict, 'blocked', JSON.stringify(w));
    assert.deepEqual(w.blockedBy, ['create-workflow']);
    assert.deepEqual(
      r.findings.filter((f) => f.check === 'create-workflow').map((f) => [f.reason, f.step]),
      [['targetKeyspaceMissing', 'create-target-vschema']],
    );
  });
  test('GetKeyspaces failed: the target keyspace is unverified, never blocked', () => {
    const r = create(moveTablesScenario().topologyUnreadable('keyspaces'), 'c2c', 'customer2');
    const w = r.workflows[0]!;
    assert.equal(w.verdict, 'unverified', JSON.stringify(w));
    assert.deepEqual(w.blockedBy, []);
    assert.ok(
      w.unverifiedBy.some((u) => u.part !== undefined && /GetKeyspaces/.test(u.part)),
      JSON.stringify(w),
    );
    assert.deepEqual(
      r.findings.filter((f) => f.check === 'create-workflow'),
      [],
    );
  });
  test('a target primary not read: unverified, never ready', () => {
    const r = create(moveTablesScenario().unreadable('customer', '80-'), 'commerce2customer_v2');
    const w = r.workflows[0]!;
    assert.equal(w.verdict, 'unverified', JSON.stringify(w));
    assert.ok(w.unverifiedBy.some((u) => u.part?.includes('customer/80-')));
  });
  // An older readout without what create's validations read is unverified, not at-risk.
  const withTables = (b: ReturnType<typeof moveTablesScenario>, tables: readonly string[] | 'all') =>
    runModelChecks(
      b.model(),
      CHECKS,
      withDefaults({
        action: {
          ...DEFAULT_ACTION_REQUEST,
          action: 'create',
          create: { workflow: 'c2c_v2', targetKeyspace: 'customer', sourceKeyspace: 'commerce', tables },
        },
      }),
      meta,
    );
  const createGaps = (r: ReturnType<typeof withTables>) =>
    r.workflows[0]!.unverifiedBy.filter((u) => u.check === 'create-workflow').map((u) => u.part);
  test('an older readout without the target table lists: unverified by create-workflow (validateEmptyTables)', () => {
    assert.deepEqual(createGaps(withTables(moveTablesScenario(), ['customer'])), []);
    const b = moveTablesScenario();
    for (const shard of ['-80', '80-']) b.schemaTables('customer', shard, 'absent');
    const r = withTables(b, ['customer']);
    // (blocked besides: customer has no vschema entry in this scenario; unverifiedBy still says what was not judged)
    assert.deepEqual(createGaps(r), [
      'information_schema.TABLES of vt_customer of customer/-80 (zone1-0000000110)',
      'information_schema.TABLES of vt_customer of customer/80- (zone1-0000000120)',
    ]);
    assert.equal(r.summary.exitCode, 1);
  });
  test('--all-tables with an older readout without the source base tables: unverified, naming them', () => {
    const keyed = moveTablesScenario().tableKeys('commerce', '0', ['customer']);
    assert.deepEqual(createGaps(withTables(keyed, 'all')), []);
    const r = withTables(moveTablesScenario(), 'all');
    assert.equal(r.workflows[0]!.verdict, 'unverified');
    assert.deepEqual(createGaps(r), [
      'information_schema.TABLES (base tables) of vt_commerce of commerce/0 (zone1-0000000100)',
    ]);
  });
  test('a target table that exists but was not probed for rows (--all-tables): unverified, naming the probe', () => {
    const probedAll = moveTablesScenario()
      .tableKeys('commerce', '0', ['customer'])
      .tableProbes('customer', '-80', { probed: ['customer'] })
      .tableProbes('customer', '80-', { probed: ['customer'] })
      .schemaTables('customer', '80-', ['customer']);
    assert.deepEqual(createGaps(withTables(probedAll, 'all')), []);
    const b = moveTablesScenario()
      .tableKeys('commerce', '0', ['customer'])
      .schemaTables('customer', '80-', ['customer']);
    assert.deepEqual(createGaps(withTables(b, 'all')), [
      'select 1 from customer of vt_customer of customer/80- (zone1-0000000120)',
    ]);
  });
  test('a target shard record without primary: blocked in its own words', () => {
    const r = create(moveTablesScenario().orphanShard('customer', '80-c0'), 'commerce2customer_v2');
    assert.equal(r.workflows[0]!.vitessWouldSay, 'shard has no primary: 80-c0');
  });
});

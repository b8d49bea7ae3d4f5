/**
 * The switch state mirror (`src/model/switch-state.ts`): how far a workflow's traffic was switched, read as
 * `getWorkflowState` reads it (`vitessio/vitess:go/vt/vtctl/workflow/server.go`), whether `canSwitch` runs, and the
 * shards whose tablets it refreshes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canSwitchScope, refreshedShards, switchState } from '../../src/model/switch-state.js';
import type { ClusterModel, Workflow } from '../../src/model/types.js';
import { moveTablesRules } from '../helpers/actions.js';
import type { ClusterBuilder } from '../helpers/cluster.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario, reshardScenario } from '../helpers/reshard-scenario.js';

function stateOf(b: ClusterBuilder, name: string) {
  const model: ClusterModel = b.model();
  const wf: Workflow | undefined = model.allWorkflows.find((w) => w.name === name);
  assert.ok(wf, `workflow ${name} is in the model`);
  return { model, wf, state: switchState(model, wf) };
}

const TABLES = ['corder', 'customer'];

test('a MoveTables whose routing rules still point at the source: nothing switched', () => {
  const { state } = stateOf(
    moveTablesScenario().routing(moveTablesRules('commerce', 'customer', TABLES, [])),
    'commerce2customer',
  );
  assert.equal(state.migrationType, 'TABLES');
  assert.equal(state.partial, false);
  assert.equal(state.writesSwitched, false);
  assert.equal(state.replicaReadsSwitched, false);
  assert.equal(state.rdonlyReadsSwitched, false);
  assert.deepEqual(state.tables, TABLES);
  assert.equal(state.evidence, 'routing rule commerce.corder → commerce.corder');
});

test('reads switched for one tablet type only: that type is switched, writes are not', () => {
  const { state } = stateOf(
    moveTablesScenario().routing(moveTablesRules('commerce', 'customer', TABLES, ['replica'])),
    'commerce2customer',
  );
  assert.equal(state.writesSwitched, false);
  assert.equal(state.replicaReadsSwitched, true);
  assert.equal(state.rdonlyReadsSwitched, false);
});

test('writes switched: the rule keyed by the source table points elsewhere, and the evidence names it', () => {
  const { state } = stateOf(
    moveTablesScenario().routing(moveTablesRules('commerce', 'customer', TABLES, ['primary', 'replica', 'rdonly'])),
    'commerce2customer',
  );
  assert.equal(state.writesSwitched, true);
  assert.equal(state.replicaReadsSwitched, true);
  assert.equal(state.rdonlyReadsSwitched, true);
  assert.equal(state.evidence, 'routing rule commerce.corder → customer.corder');
});

test('routing rules not read: the state is unknown, never "not switched"', () => {
  const { state } = stateOf(moveTablesScenario().topologyUnreadable('routingRules'), 'commerce2customer');
  assert.equal(state.writesSwitched, null);
  assert.equal(state.replicaReadsSwitched, null);
  assert.equal(state.evidence, 'routing rules not read');
});

test('a reverse workflow reads the rules keyed by its own keyspace, the forward source', () => {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer_reverse', { from: 'customer', to: 'commerce', tables: TABLES })
    .routing(moveTablesRules('commerce', 'customer', TABLES, ['primary', 'replica', 'rdonly']));
  const { state } = stateOf(b, 'commerce2customer_reverse');
  assert.equal(state.writesSwitched, true);
  // The reads of a reverse workflow route into the forward target, not into the reverse's own keyspace.
  assert.equal(state.replicaReadsSwitched, false);
});

test('a multi-tenant MoveTables reads the keyspace routing rules', () => {
  const tenant = (b: ClusterBuilder) =>
    b
      .patchStream('customer', '-80', 1, { options: '{"tenant_id":"42"}' })
      .patchStream('customer', '80-', 1, { options: '{"tenant_id":"42"}' });
  const switched = stateOf(
    tenant(moveTablesScenario()).keyspaceRouting([
      { fromKeyspace: 'commerce', toKeyspace: 'customer' },
      { fromKeyspace: 'commerce@replica', toKeyspace: 'customer' },
      { fromKeyspace: 'commerce@rdonly', toKeyspace: 'commerce' },
    ]),
    'commerce2customer',
  ).state;
  assert.equal(switched.writesSwitched, true);
  assert.equal(switched.replicaReadsSwitched, true);
  assert.equal(switched.rdonlyReadsSwitched, false);
  assert.equal(switched.evidence, 'keyspace routing rule commerce → customer');
  const unread = stateOf(tenant(moveTablesScenario()), 'commerce2customer').state;
  assert.equal(unread.writesSwitched, null);
  assert.equal(unread.evidence, 'multi-tenant workflow: keyspace routing rules not read');
});

test('a partial MoveTables is switched shard by shard through shard routing rules, never "writes switched"', () => {
  const b = cluster()
    .keyspace('src', { shards: ['-80', '80-'] })
    .keyspace('dst', { shards: ['-80', '80-'] })
    .stream('dst', '-80', 1, {
      workflow: 'part',
      type: 'MoveTables',
      subType: 'Partial',
      sourceKeyspace: 'src',
      sourceShard: '-80',
      rules: [{ match: 't', filter: 'select * from t' }],
    });
  const before = stateOf(b, 'part').state;
  assert.equal(before.partial, true);
  assert.equal(before.writesSwitched, false);
  assert.deepEqual(before.shardsSwitched, []);
  const after = stateOf(b.shardRouting([{ fromKeyspace: 'src', toKeyspace: 'dst', shard: '-80' }]), 'part').state;
  assert.deepEqual(after.shardsSwitched, ['-80']);
  assert.equal(after.writesSwitched, false);
  assert.equal(after.evidence, 'shard routing rules send shards -80 to dst');
});

test('a Reshard: writes are switched when no source shard serves primary traffic, unknown when some still do', () => {
  const before = stateOf(reshardScenario(), 'cust2cust').state;
  assert.equal(before.migrationType, 'SHARDS');
  assert.equal(before.writesSwitched, false);
  assert.equal(before.replicaReadsSwitched, null);
  const after = stateOf(
    reshardScenario()
      .shardRecord('customer', '-80', { isPrimaryServing: false })
      .shardRecord('customer', '80-', { isPrimaryServing: false }),
    'cust2cust',
  ).state;
  assert.equal(after.writesSwitched, true);
  assert.equal(after.evidence, 'source shards -80, 80- no longer serve primary traffic');
  const half = stateOf(reshardScenario().shardRecord('customer', '-80', { isPrimaryServing: false }), 'cust2cust');
  assert.equal(half.state.writesSwitched, null);
});

test('canSwitch runs for a MoveTables or Reshard not yet switched, and is skipped otherwise', () => {
  const fresh = stateOf(moveTablesScenario(), 'commerce2customer');
  assert.deepEqual(canSwitchScope(fresh.model, fresh.wf), { runs: true, skipped: null, why: '' });
  const done = stateOf(
    moveTablesScenario().routing(moveTablesRules('commerce', 'customer', TABLES, ['primary'])),
    'commerce2customer',
  );
  const scope = canSwitchScope(done.model, done.wf);
  assert.equal(scope.runs, false);
  assert.equal(scope.skipped, 'writesSwitched');
  const mat = stateOf(
    cluster()
      .keyspace('commerce', { shards: ['0'] })
      .keyspace('customer', { shards: ['-80', '80-'] })
      .materialize('mat', { from: 'commerce', to: 'customer', tables: ['t'] }),
    'mat',
  );
  assert.equal(canSwitchScope(mat.model, mat.wf).skipped, 'notSwitchTraffic');
});

test('canSwitch refreshes every source shard the streams read and every target shard with streams', () => {
  const { wf } = stateOf(reshardScenario(), 'cust2cust');
  assert.deepEqual(refreshedShards(wf), [
    { keyspace: 'customer', shard: '-80', side: 'source' },
    { keyspace: 'customer', shard: '80-', side: 'source' },
    { keyspace: 'customer', shard: '-40', side: 'target' },
    { keyspace: 'customer', shard: '40-80', side: 'target' },
    { keyspace: 'customer', shard: '80-c0', side: 'target' },
    { keyspace: 'customer', shard: 'c0-', side: 'target' },
  ]);
});

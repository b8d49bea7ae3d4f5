/**
 * The traffic switcher mirror (`src/model/traffic-switch.ts`): what `buildTrafficSwitcher` derives from a workflow's
 * streams (`vitessio/vitess:go/vt/vtctl/workflow/server.go`), `isPartialMoveTables` (`traffic_switcher.go`) and the
 * read-completeness rule the checks that use it share.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allShardsRead,
  goStringSlice,
  isPartialMigration,
  migrationType,
  parsedStreams,
  referenceTableList,
  sameTableList,
  streamTableList,
} from '../../src/model/traffic-switch.js';
import type { ClusterModel, Workflow } from '../../src/model/types.js';
import type { ClusterBuilder } from '../helpers/cluster.js';
import { cluster, sourceText } from '../helpers/cluster.js';
import { moveTablesScenario, reshardScenario } from '../helpers/reshard-scenario.js';

function workflowOf(b: ClusterBuilder, name: string): { model: ClusterModel; wf: Workflow } {
  const model = b.model();
  const wf = model.allWorkflows.find((w) => w.name === name);
  assert.ok(wf, `workflow ${name} is in the model`);
  return { model, wf };
}

/** A MoveTables `part` from `src` into `dst` with one stream per given target shard, each reading the same shard. */
function partial(
  srcShards: readonly string[],
  dstShards: readonly string[],
  streams: readonly string[],
): ClusterBuilder {
  const b = cluster()
    .keyspace('src', { shards: [...srcShards] })
    .keyspace('dst', { shards: [...dstShards] });
  for (const shard of streams)
    b.stream('dst', shard, 1, {
      workflow: 'part',
      type: 'MoveTables',
      subType: 'Partial',
      sourceKeyspace: 'src',
      sourceShard: shard,
      rules: [{ match: 't', filter: 'select * from t' }],
    });
  return b;
}

test("goStringSlice prints Go's %v of a string slice", () => {
  assert.equal(goStringSlice([]), '[]');
  assert.equal(goStringSlice(['a']), '[a]');
  assert.equal(goStringSlice(['customer', 'corder']), '[customer corder]');
});

test('a MoveTables between two keyspaces is a TABLES migration, a Reshard a SHARDS one', () => {
  assert.equal(migrationType(workflowOf(moveTablesScenario(), 'commerce2customer').wf), 'TABLES');
  assert.equal(migrationType(workflowOf(reshardScenario(), 'cust2cust').wf), 'SHARDS');
});

test('a workflow within one keyspace whose source shard is also a target shard is TABLES, as Vitess decides', () => {
  const b = cluster()
    .keyspace('ks', { shards: ['-80', '80-'] })
    .stream('ks', '-80', 1, {
      workflow: 'same',
      type: 'MoveTables',
      sourceKeyspace: 'ks',
      sourceShard: '-80',
      rules: [{ match: 't2', filter: 'select * from t1' }],
    });
  assert.equal(migrationType(workflowOf(b, 'same').wf), 'TABLES');
});

test('only streams whose source parsed are read, and without any there is no migration type', () => {
  const b = moveTablesScenario()
    .patchStream('customer', '-80', 1, { source: 'keyspace:"commerce" shard:' })
    .patchStream('customer', '80-', 1, { source: 'keyspace:"commerce" shard:' });
  const { wf } = workflowOf(b, 'commerce2customer');
  assert.equal(wf.streams.length, 2);
  assert.deepEqual(parsedStreams(wf), []);
  assert.equal(migrationType(wf), null);
  assert.equal(isPartialMigration(wf), false);
});

test("a stream's table list is its filter's sorted rule matches; a stream without a filter lists none", () => {
  const { wf } = workflowOf(moveTablesScenario(['customer', 'corder']), 'commerce2customer');
  assert.deepEqual(streamTableList(wf.streams[0]!), ['corder', 'customer']);
  const bare = workflowOf(
    moveTablesScenario().patchStream('customer', '-80', 1, {
      source: sourceText({ keyspace: 'commerce', shard: '0' }),
    }),
    'commerce2customer',
  ).wf.streams.find((s) => s.shard === '-80')!;
  assert.deepEqual(streamTableList(bare), []);
});

test('the reference table list is the most common non-empty one, the first met on a tie, null when none', () => {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-40', '40-80', '80-'] })
    .moveTables('m', { from: 'commerce', to: 'customer', tables: ['a', 'b'] })
    .patchStream('customer', '-40', 1, {
      source: sourceText({ keyspace: 'commerce', shard: '0', rules: [{ match: 'a', filter: 'select * from a' }] }),
    });
  const { wf } = workflowOf(b, 'm');
  assert.deepEqual(referenceTableList(wf.streams), ['a', 'b']);
  const [first, second] = wf.streams;
  assert.deepEqual(referenceTableList([first!, second!]), streamTableList(first!));
  const none = workflowOf(
    moveTablesScenario().patchStream('customer', '-80', 1, {
      source: sourceText({ keyspace: 'commerce', shard: '0' }),
    }),
    'commerce2customer',
  );
  assert.equal(referenceTableList(none.wf.streams.filter((s) => s.shard === '-80')), null);
});

test('table lists are equal element by element, an empty list equal only to another', () => {
  assert.equal(sameTableList(['a', 'b'], ['a', 'b']), true);
  assert.equal(sameTableList(['a', 'b'], ['b', 'a']), false);
  assert.equal(sameTableList(['a'], ['a', 'b']), false);
  assert.equal(sameTableList([], []), true);
});

test('a partial MoveTables spans the same incomplete key range with as many shards on both sides', () => {
  assert.equal(isPartialMigration(workflowOf(partial(['-80', '80-'], ['-80', '80-'], ['-80']), 'part').wf), true);
});

test('a MoveTables over the whole key range, or with other shard counts, is not partial', () => {
  const whole = partial(['-80', '80-'], ['-80', '80-'], ['-80', '80-']);
  assert.equal(isPartialMigration(workflowOf(whole, 'part').wf), false);
  assert.equal(isPartialMigration(workflowOf(moveTablesScenario(), 'commerce2customer').wf), false);
  assert.equal(isPartialMigration(workflowOf(reshardScenario(), 'cust2cust').wf), false);
});

test('the same incomplete span with another number of shards on each side is not partial', () => {
  const b = cluster()
    .keyspace('src', { shards: ['-80', '80-'] })
    .keyspace('dst', { shards: ['-40', '40-80', '80-'] });
  for (const shard of ['-40', '40-80'])
    b.stream('dst', shard, 1, {
      workflow: 'part',
      type: 'MoveTables',
      sourceKeyspace: 'src',
      sourceShard: '-80',
      rules: [{ match: 't', filter: 'select * from t' }],
    });
  assert.equal(isPartialMigration(workflowOf(b, 'part').wf), false);
});

test('a shard name that is not a key-range spec leaves partial unknown (Vitess fails building the switcher)', () => {
  const b = cluster()
    .keyspace('src', { shards: ['-80', '80-'] })
    .keyspace('dst', { shards: ['-80', '80-'] })
    .stream('dst', '-80', 1, {
      workflow: 'part',
      type: 'MoveTables',
      sourceKeyspace: 'src',
      sourceShard: 'zz',
      rules: [{ match: 't', filter: 'select * from t' }],
    });
  assert.equal(isPartialMigration(workflowOf(b, 'part').wf), null);
});

test('every shard of a keyspace is read only when its shard list and every primary sidecar were', () => {
  const read = moveTablesScenario().model();
  assert.equal(allShardsRead(read, 'customer'), true);
  assert.equal(allShardsRead(moveTablesScenario().unreadable('customer', '80-').model(), 'customer'), false);
  assert.equal(allShardsRead(moveTablesScenario().shardsUnreadable('customer').model(), 'customer'), false);
  assert.equal(allShardsRead(read, 'nosuch'), false);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findWorkflowJournal, hashStreams, workflowJournalId } from '../../src/model/journal.js';
import { cluster } from '../helpers/cluster.js';

// Test vectors from vitessio/vitess:go/vt/wrangler/traffic_switcher_test.go, whose environments
// (traffic_switcher_env_test.go) create the streams listed here.
test('HashStreams: TestTableMigrate (ks2, -80 and 80- with streams 1 and 2 each)', () => {
  const streams = [
    { shard: '-80', id: 1 },
    { shard: '-80', id: 2 },
    { shard: '80-', id: 1 },
    { shard: '80-', id: 2 },
  ];
  assert.equal(hashStreams('ks2', streams), 7672494164556733923n);
});

test('HashStreams: TestShardMigrate (ks, -80 with streams 1 and 2, 80- with stream 1)', () => {
  assert.equal(
    hashStreams('ks', [
      { shard: '-80', id: 1 },
      { shard: '-80', id: 2 },
      { shard: '80-', id: 1 },
    ]),
    6432976123657117098n,
  );
});

test('HashStreams does not depend on the order of the streams', () => {
  const a = hashStreams('ks', [
    { shard: '80-', id: 1 },
    { shard: '-80', id: 2 },
    { shard: '-80', id: 1 },
  ]);
  assert.equal(a, 6432976123657117098n);
});

test('the id is a non-negative int64 (top bit cleared) and sorted as strings, not numbers', () => {
  for (const ks of ['a', 'customer', 'commerce', 'ks', 'lookup']) {
    const h = hashStreams(ks, [{ shard: '0', id: 1 }]);
    assert.ok(h >= 0n && h < 1n << 63n);
  }
  // "-80:10" sorts before "-80:2" (byte order), as Go's sort.Strings does.
  const x = hashStreams('ks', [
    { shard: '-80', id: 2 },
    { shard: '-80', id: 10 },
  ]);
  const y = hashStreams('ks', [
    { shard: '-80', id: 10 },
    { shard: '-80', id: 2 },
  ]);
  assert.equal(x, y);
  assert.notEqual(hashStreams('ks', [{ shard: '-80', id: 1 }]), hashStreams('ks2', [{ shard: '-80', id: 1 }]));
});

test('workflowJournalId and findWorkflowJournal use every stream of the workflow and its source primaries', () => {
  const b = cluster()
    .keyspace('ks1', { shards: ['-40', '40-'] })
    .keyspace('ks2', { shards: ['-80', '80-'] })
    .moveTables('test', { from: 'ks1', to: 'ks2', tables: ['t1', 't2'] });
  const wf = b.model().workflows[0]!;
  // -80 reads -40 and 40- (ids 1, 2); 80- reads 40- (id 1).
  assert.deepEqual(
    wf.streams.map((s) => `${s.shard}:${s.id}`),
    ['-80:1', '-80:2', '80-:1'],
  );
  const id = workflowJournalId(wf);
  assert.equal(
    id,
    hashStreams('ks2', [
      { shard: '-80', id: 1 },
      { shard: '-80', id: 2 },
      { shard: '80-', id: 1 },
    ]).toString(),
  );
  assert.deepEqual(findWorkflowJournal(b.model(), wf), { id, foundOn: [], unread: [] });
  const m = b
    .journal('ks1', '40-', { id, db_name: 'vt_ks1', val: 'id:1' })
    .journal('ks1', '-40', { id: '1', db_name: 'vt_ks1', val: '' })
    .model();
  assert.deepEqual(findWorkflowJournal(m, m.workflows[0]!).foundOn, [
    { keyspace: 'ks1', shard: '40-', tablet: 'zone1-0000000110' },
  ]);
  const u = b.unreadable('ks1', '-40').model();
  assert.deepEqual(findWorkflowJournal(u, u.workflows[0]!).unread, [{ keyspace: 'ks1', shard: '-40' }]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backfilledVindexes } from '../../src/model/lookup-vindex.js';
import { cluster } from '../helpers/cluster.js';

const vindex = (table: string, owner: string) => ({
  type: 'lookup_unique',
  params: { table, from: 'c1', to: 'c2', write_only: 'true' },
  owner,
});

test('a backfill finds its vindex by lookup table, else by name (legacy _vdx workflow names too)', () => {
  const base = (vindexes: Record<string, ReturnType<typeof vindex>>, wf = 'wf') =>
    cluster()
      .keyspace('src', { shards: ['0'], vindexes })
      .keyspace('lk', { shards: ['0'] })
      .lookup(wf, { from: 'src', to: 'lk', table: 't_lookup', ownerTable: 't', owned: true })
      .model();
  let m = base({ a: vindex('lk.t_lookup', 't'), wf: vindex('lk.other', '') });
  let r = backfilledVindexes(m, m.workflows[0]!);
  assert.deepEqual(
    r.vindexes.map((v) => [v.keyspace, v.vindex.name, v.matchedBy]),
    [['src', 'a', 'table']],
  );
  assert.deepEqual(r.tables, ['lk.t_lookup']);
  assert.deepEqual(r.searched, ['lk', 'src']);
  m = base({ t_lookup: vindex('lk.elsewhere', 't') }, 't_lookup_vdx');
  r = backfilledVindexes(m, m.workflows[0]!);
  assert.deepEqual(
    r.vindexes.map((v) => [v.vindex.name, v.matchedBy]),
    [['t_lookup', 'name']],
  );
  m = base({ hash: { type: 'hash', params: { table: 'lk.t_lookup' }, owner: '' } as never });
  assert.deepEqual(backfilledVindexes(m, m.workflows[0]!).vindexes, []);
});

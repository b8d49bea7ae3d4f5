import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTabletTypesColumn, pickerView } from '../../src/model/tablet-picker.js';
import { cluster } from '../helpers/cluster.js';

test('tablet_types: vttablet default when empty, in_order hint, aliases, invalid names', () => {
  assert.deepEqual(parseTabletTypesColumn(''), {
    text: 'in_order:REPLICA,PRIMARY',
    defaulted: true,
    inOrder: true,
    types: ['REPLICA', 'PRIMARY'],
    invalid: [],
  });
  assert.deepEqual(parseTabletTypesColumn('replica,master,batch').types, ['REPLICA', 'PRIMARY', 'RDONLY']);
  assert.equal(parseTabletTypesColumn('replica,primary').inOrder, false);
  assert.deepEqual(parseTabletTypesColumn('in_order:REPLICA,FOO').invalid, ['FOO']);
  assert.deepEqual(parseTabletTypesColumn('REPLICA,').invalid, ['']);
});

test('pickerView: cells, in_order preference, PRIMARY only', () => {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'], replicas: 1 })
    .keyspace('customer', { shards: ['-80'] })
    .moveTables('wf', { from: 'commerce', to: 'customer', tables: ['t'] })
    .addTablet('commerce', '0', { cell: 'zone2', uid: 500, type: 'RDONLY' });
  let m = b.model();
  let v = pickerView(m, m.workflows[0]!.streams[0]!)!;
  assert.deepEqual(v.cells, ['zone1']);
  assert.deepEqual(
    v.candidates.map((t) => t.alias),
    ['zone1-0000000101', 'zone1-0000000100'],
  );
  assert.deepEqual(
    v.preferred.map((t) => t.alias),
    ['zone1-0000000101'],
  );
  m = b.patchStream('customer', '-80', 1, { cell: 'zone2', tablet_types: 'rdonly,primary' }).model();
  v = pickerView(m, m.workflows[0]!.streams[0]!)!;
  assert.deepEqual(v.cells, ['zone1', 'zone2']);
  assert.deepEqual(
    v.preferred.map((t) => t.alias),
    ['zone2-0000000500', 'zone1-0000000100'],
  );
  m = b
    .patchStream('customer', '-80', 1, { cell: 'east', tablet_types: 'PRIMARY' })
    .patchTablet('zone1-0000000100', { cell: 'zone9' })
    .model();
  v = pickerView(m, m.workflows[0]!.streams[0]!)!;
  assert.equal(v.primaryOnly, true);
  assert.deepEqual(v.unresolvedCells, ['east']);
  assert.deepEqual(
    v.candidates.map((t) => t.alias),
    ['zone1-0000000100'],
  );
  assert.equal(pickerView(b.topologyUnreadable('tablets').model(), m.workflows[0]!.streams[0]!), null);
});

/**
 * The one shard order (`compareShardNames`, src/vitess/keyrange.ts): key-range order as Vitess sorts shards
 * (`vitessio/vitess:go/vt/key/key.go` `KeyRangeLess`, used by `go/vt/topo/keyspace.go` `GetServingShards`), and the
 * proof that the model, the engine and folding all use it. A Reshard has `80-` and `80-c0` side by side.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareFindings } from '../../src/engine/run.js';
import { compactShardList, foldFindings } from '../../src/report/fold.js';
import { byCodeUnit } from '../../src/text.js';
import { compareShardNames } from '../../src/vitess/keyrange.js';
import { cluster } from '../helpers/cluster.js';
import { finding } from '../report/helpers.js';

const sorted = (names: readonly string[]) => [...names].sort(compareShardNames);

describe('compareShardNames', () => {
  it('orders by start (unbounded first), then end (unbounded last): 80-c0 before 80-', () => {
    assert.deepEqual(sorted(['80-', '80-c0']), ['80-c0', '80-']);
    assert.deepEqual(sorted(['c0-', '80-', '-80', '80-c0', '40-80', '-40']), [
      '-40',
      '-80',
      '40-80',
      '80-c0',
      '80-',
      'c0-',
    ]);
  });

  it('compares bounds after dropping trailing zero bytes (key.Normalize): 8000-c0 starts where 80- does', () => {
    assert.deepEqual(sorted(['80-', '8000-c000', '80-c0']), ['80-c0', '8000-c000', '80-']);
    assert.ok(compareShardNames('80-c0', '8000-c000') < 0, 'same range: the name decides, in code-unit order');
    assert.ok(compareShardNames('-8000', '-80') > 0);
  });

  it('puts a name that is not a key range where Vitess puts a nil KeyRange: the full range', () => {
    // KeyRangeStartCompare: nil = minimum start; KeyRangeEndCompare: nil = maximum end.
    assert.deepEqual(sorted(['80-', '0', '-80', '-']), ['-80', '-', '0', '80-']);
    assert.deepEqual(sorted(['80-', 'custom', '-80']), ['-80', 'custom', '80-']);
  });

  it('is a total order: antisymmetric, 0 only for the same name, case only breaks ties', () => {
    const names = ['-80', '-8000', '80-', '80-C0', '80-c0', '0', '-', 'c0-', 'x'];
    for (const a of names)
      for (const b of names) {
        assert.equal(Math.sign(compareShardNames(a, b)) + Math.sign(compareShardNames(b, a)), 0, `${a} vs ${b}`);
        assert.equal(compareShardNames(a, b) === 0, a === b, `${a} vs ${b}`);
      }
    assert.deepEqual(sorted(['80-c0', '80-C0']), ['80-C0', '80-c0']);
  });
});

describe('the model, the engine and folding share it', () => {
  const reshard = ['c0-', '80-', '-80', '80-c0'];
  const expected = ['-80', '80-c0', '80-', 'c0-'];

  it('the model lists a keyspace’s shards in key-range order', () => {
    const model = cluster()
      .keyspace('customer', { shards: reshard, notServing: ['80-c0', 'c0-'] })
      .model();
    const shards = model.keyspace('customer')?.shards;
    assert.ok(shards?.ok);
    assert.deepEqual([...shards.value.keys()], expected);
  });

  it('the engine orders findings by it', () => {
    const findings = reshard.map((shard) => finding({ shard, message: `stream 1 of wf on customer/${shard} is bad` }));
    assert.deepEqual(
      [...findings].sort(compareFindings).map((f) => f.shard),
      expected,
    );
    const withoutShard = finding({ shard: undefined, message: 'the keyspace is bad' });
    assert.equal([...findings, withoutShard].sort(compareFindings)[0], withoutShard);
  });

  it('folding lists the shards of a group by it', () => {
    const findings = reshard.map((shard) => finding({ shard, message: `stream 1 of wf on customer/${shard} is bad` }));
    assert.deepEqual(foldFindings(findings)[0]?.shards, expected);
    assert.deepEqual(compactShardList(reshard, true), expected);
  });
});

describe('byCodeUnit', () => {
  it('is the order of Array.prototype.sort(), whatever the locale', () => {
    const words = ['b_c', 'b-c', 'B', 'a', 'é', 'e', 'Z', '10', '9'];
    assert.deepEqual([...words].sort(byCodeUnit), [...words].sort());
    assert.equal(byCodeUnit('x', 'x'), 0);
  });
});

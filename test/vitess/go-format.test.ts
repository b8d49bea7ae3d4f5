import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote, goSprintf, goVerbCount } from '../../src/vitess/go-format.js';

test('goSprintf prints strings, integers and slices as Go does', () => {
  assert.equal(
    goSprintf('no streams found in keyspace %s for %s', ['ks', 'wf']),
    'no streams found in keyspace ks for wf',
  );
  assert.equal(
    goSprintf('replication lag %ds is higher than allowed lag %ds', [12, 0]),
    'replication lag 12s is higher than allowed lag 0s',
  );
  assert.equal(goSprintf('lag %d', ['9007199254740993']), 'lag 9007199254740993');
  assert.equal(
    goSprintf('shards not in switch command: %v', [['-80', '80-']]),
    'shards not in switch command: [-80 80-]',
  );
  assert.equal(goSprintf('%v vs %v', [[], ['a']]), '[] vs [a]');
  assert.equal(goSprintf('invalid set (%q): 100%%', ['a"b\n']), 'invalid set ("a\\"b\\n"): 100%');
  assert.equal(goSprintf('workflow is frozen', []), 'workflow is frozen');
});

test('goSprintf refuses a count that does not match the verbs, and %d of a non-integer', () => {
  assert.equal(goVerbCount('%s: %d %% %v'), 3);
  assert.throws(() => goSprintf('shard %s is still serving', []), /takes 1 arguments, given 0/);
  assert.throws(() => goSprintf('copy is still in progress', ['x']), /takes 0 arguments, given 1/);
  assert.throws(() => goSprintf('lag %d', ['1.5']), /non-integer/);
});

test('goQuote escapes as strconv.Quote', () => {
  assert.equal(goQuote('MySQL56/abc'), '"MySQL56/abc"');
  assert.equal(goQuote('\u0000\t\u00e9'), '"\\x00\\té"');
});

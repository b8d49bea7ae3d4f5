/** The runner fills remediation placeholders with the names the findings know (src/engine/remediation.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../src/engine/check.js';
import { fillRemediation, shellWord } from '../../src/engine/remediation.js';
import { predictsText } from '../../src/engine/run.js';

const f = (o: Partial<Finding>, details: Record<string, unknown> = {}): Finding => ({
  check: 'x',
  severity: 'error',
  message: 'm',
  reason: 'r',
  step: 'catch-up',
  ...o,
  details: { reason: 'r', ...details },
});
const text =
  'Run `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>` on <shard> (<tablet alias>).';

test('fills the names every finding agrees on', () => {
  assert.equal(
    fillRemediation(text, [f({ keyspace: 'customer', workflow: 'w', shard: '-80', tablet: 'zone1-0000000100' })]),
    'Run `vtctldclient Workflow --keyspace customer show --workflow w` on -80 (zone1-0000000100).',
  );
});

test('keeps a placeholder when findings disagree or lack the value', () => {
  const out = fillRemediation(text, [
    f({ keyspace: 'customer', workflow: 'a', shard: '-80' }),
    f({ keyspace: 'customer', workflow: 'b', shard: '80-' }),
  ]);
  assert.equal(
    out,
    'Run `vtctldclient Workflow --keyspace customer show --workflow <workflow>` on <shard> (<tablet alias>).',
  );
  assert.equal(fillRemediation(text, []), text);
  // One finding knows the shard, another does not: the placeholder stays (a wrong name is worse).
  assert.match(fillRemediation(text, [f({ shard: '-80' }), f({})]), /on <shard>/);
});

test("fills the source side from the finding's evidence, never with the target's tablet", () => {
  const source =
    'Check `vtctldclient GetTablets --keyspace <source keyspace> --shard <source shard>` and `vtctldclient GetFullStatus <tablet alias>`.';
  const target = { keyspace: 'customer', shard: '-40', workflow: 'wf', tablet: 'zone1-0000000300' };
  assert.equal(
    fillRemediation(source, [f(target, { sourceKeyspace: 'commerce', sourceShard: '0', sourceTablet: 'zone1-101' })]),
    'Check `vtctldclient GetTablets --keyspace commerce --shard 0` and `vtctldclient GetFullStatus zone1-101`.',
  );
  // A source finding that does not know which source tablet: the target primary is not put in its place.
  assert.match(
    fillRemediation(source, [f(target, { sourceKeyspace: 'commerce', sourceShard: '0' })]),
    /GetFullStatus <tablet alias>/,
  );
});

test('fills the other workflow a Reshard finding names, and the stream workflow', () => {
  const other =
    'Start `vtctldclient Workflow --keyspace <keyspace> start --workflow <other workflow>` before `vtctldclient Reshard --target-keyspace <keyspace> --workflow <reshard> SwitchTraffic`.';
  assert.equal(
    fillRemediation(other, [f({ keyspace: 'customer', workflow: 'cust2cust' }, { streamWorkflow: 'mat1' })]),
    'Start `vtctldclient Workflow --keyspace customer start --workflow mat1` before `vtctldclient Reshard --target-keyspace customer --workflow cust2cust SwitchTraffic`.',
  );
  const lacks = { lacks: [{ workflow: 'customer_sales', sourceKeyspace: 'commerce', sourceShard: '0', count: 1 }] };
  assert.match(fillRemediation(other, [f({ workflow: 'cust2cust' }, lacks)]), /--workflow customer_sales`/);
  const two = { lacks: [{ workflow: 'a' }], extra: [{ workflow: 'b' }] };
  assert.match(fillRemediation(other, [f({ workflow: 'cust2cust' }, two)]), /<other workflow>/);
});

test('quotes a name a shell would split or expand', () => {
  assert.equal(shellWord('cust2cust'), 'cust2cust');
  assert.equal(shellWord('-80'), '-80');
  assert.equal(shellWord('zone1-0000000100'), 'zone1-0000000100');
  assert.equal(shellWord('my wf'), "'my wf'");
  assert.equal(shellWord("it's;rm -rf $HOME"), "'it'\\''s;rm -rf $HOME'");
  assert.equal(
    fillRemediation('`vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>`', [
      f({ keyspace: 'cust$ks', workflow: 'a`b' }),
    ]),
    "`vtctldclient Workflow --keyspace 'cust$ks' show --workflow 'a`b'`",
  );
});

test('predicts shows the template with its verbs as …, never a raw format string', () => {
  assert.equal(
    predictsText('%s: stream %d position: %s does not match %s'),
    '…: stream … position: … does not match …',
  );
  assert.equal(
    predictsText('replication lag %ds is higher than allowed lag %ds'),
    'replication lag …s is higher than allowed lag …s',
  );
  assert.equal(predictsText('100%% done: %v, %q, %-5s, %.2f'), '100% done: …, …, …, …');
});

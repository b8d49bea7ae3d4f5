import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../src/engine/check.js';
import { fillRemediation } from '../../src/report/fill.js';

const f = (o: Partial<Finding>): Finding => ({
  check: 'x',
  severity: 'error',
  message: 'm',
  reason: 'r',
  step: 'catch-up',
  details: { reason: 'r' },
  ...o,
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
});

/** `grantPlan` (src/engine/grants.ts): one grant per clause, whichever reads' privileges spell it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKS } from '../../checks/index.js';
import { grantPlan } from '../../src/engine/grants.js';

const names = { sidecars: ['_vt'], schemas: ['vt_customer'] };

test('MySQL: the foreign keys need SELECT on the schema, the same clause as the other schema reads: granted once', () => {
  const plan = grantPlan(CHECKS, 'switch', 'mysql', names);
  const clauses = plan.map((g) => g.clause);
  assert.deepEqual(clauses, [...new Set(clauses)], 'each clause once');
  const schema = plan.filter((g) => g.clause === 'SELECT ON `vt_customer`.*');
  assert.equal(schema.length, 1);
  assert.ok(schema[0]!.reads.includes('tables') && schema[0]!.reads.includes('foreignKeys'), schema[0]!.reads.join());
  // Required: SwitchTraffic's LOCK TABLES refusal needs the schema's table list.
  assert.equal(schema[0]!.required, true);
});

test('MariaDB: PROCESS reads the open transactions and the foreign keys: one optional grant naming both', () => {
  const plan = grantPlan(CHECKS, 'switch', 'mariadb', names);
  const process = plan.filter((g) => g.clause === 'PROCESS ON *.*');
  assert.equal(process.length, 1);
  const g = process[0]!;
  assert.deepEqual([...g.reads].sort(), ['foreignKeys', 'transactions']);
  assert.equal(g.required, false);
  assert.match(g.adds, /open transactions/);
  assert.match(g.adds, /foreign keys/);
  // The schema clause no longer carries the foreign keys on MariaDB.
  assert.ok(!plan.find((x) => x.clause === 'SELECT ON `vt_customer`.*')!.reads.includes('foreignKeys'));
});

/**
 * leftover-routing-rules. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/utils.go`
 * (Complete's validation, when `keepRoutingRules` is false): every routing rule's to-table equal to
 * `<source keyspace>.<table>` of a moved table is `routing still exists from keyspace %s table %s to %s`.
 */
import check from '../../checks/leftover-routing-rules.js';
import type { RoutingRuleRecord } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const sweep = { sweep: true };
const keyspaces = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] });
// What `MoveTables complete --keep-routing-rules` of commerce → customer (table customer) leaves.
const kept: RoutingRuleRecord[] = [
  { fromTable: 'customer', toTables: ['customer.customer'] },
  { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
  { fromTable: 'commerce.customer@replica', toTables: ['customer.customer'] },
  { fromTable: 'customer.customer', toTables: ['customer.customer'] },
];

checkTester(check, {
  valid: [
    { name: 'no routing rules', model: keyspaces(), options: sweep },
    {
      name: 'the rules of a workflow still switching (it moves the table between those keyspaces)',
      reasons: ['ruleBreaksLaterComplete'],
      model: keyspaces()
        .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'id' })
        .routing(kept),
      options: sweep,
    },
    {
      name: 'unqualified and same-keyspace rules are rewritten by the next create: not judged',
      reasons: ['ruleBreaksLaterComplete'],
      model: keyspaces().routing([kept[0]!, kept[3]!]),
      options: sweep,
    },
    {
      name: 'check (not sweep): keyspaces no selected workflow touches are not judged',
      reasons: ['ruleBreaksLaterComplete'],
      model: keyspaces()
        .keyspace('other', { shards: ['0'] })
        .moveTables('c2o', { from: 'commerce', to: 'other', tables: ['x'], column: 'id' })
        .select({ workflows: ['c2o'] })
        .routing([{ fromTable: 'customer.zip', toTables: ['archive.zip'] }]),
    },
    {
      name: 'another keyspace was not read: rules between read keyspaces are still judged in full',
      reasons: ['ruleUnexplained'],
      model: keyspaces()
        .keyspace('other', { shards: ['0'] })
        .unreadable('other', '0')
        .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'id' })
        .routing(kept),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'complete --keep-routing-rules left the rules: a later move of customer out of customer cannot complete',
      model: keyspaces().routing(kept),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          message:
            'routing rule commerce.customer → customer.customer is left by an earlier move of customer (no workflow read moves it between commerce and customer): a later MoveTables of customer out of customer will refuse to complete',
          details: {
            reason: 'ruleBreaksLaterComplete',
            vitessError: 'routing still exists from keyspace customer table customer to commerce.customer',
            fromTable: 'commerce.customer',
            toTable: 'customer.customer',
          },
        },
        {
          details: {
            reason: 'ruleBreaksLaterComplete',
            vitessError: 'routing still exists from keyspace customer table customer to commerce.customer@replica',
          },
        },
      ],
    },
    {
      name: 'the rules point into a keyspace whose primary was not read',
      model: keyspaces()
        .unreadable('customer', '80-')
        .routing([{ fromTable: 'commerce.customer', toTables: ['customer.customer'] }]),
      options: sweep,
      findings: [{ severity: 'info', details: { reason: 'ruleUnexplained', unreadKeyspaces: ['customer'] } }],
    },
  ],
});

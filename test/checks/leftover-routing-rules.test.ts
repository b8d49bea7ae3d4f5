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

/** commerce and customer, both -80 and 80-: a partial MoveTables partial80 of shard -80 while `withWorkflow`. */
const partialKeyspaces = () =>
  cluster()
    .keyspace('commerce', { shards: ['-80', '80-'] })
    .keyspace('customer', { shards: ['-80', '80-'] });
const partial80 = () =>
  partialKeyspaces().stream('customer', '-80', 1, {
    workflow: 'partial80',
    type: 'MoveTables',
    subType: 'Partial',
    sourceKeyspace: 'commerce',
    sourceShard: '-80',
    rules: [{ match: 'customer', filter: 'select * from customer' }],
  });
// What the create of partial80 writes (createDefaultShardRoutingRules: every serving source shard), and its switch.
const defaultRules = [
  { fromKeyspace: 'customer', toKeyspace: 'commerce', shard: '-80' },
  { fromKeyspace: 'customer', toKeyspace: 'commerce', shard: '80-' },
];
const switchedRule = { fromKeyspace: 'commerce', toKeyspace: 'customer', shard: '-80' };

checkTester(check, {
  valid: [
    {
      name: 'a partial MoveTables of -80 not switched: the default rules of every source shard are its own',
      reasons: ['shardRuleLeftover'],
      model: partial80().shardRouting(defaultRules),
      options: sweep,
    },
    {
      name: 'a partial MoveTables of -80 with its writes switched: the flipped rule is its own',
      reasons: ['shardRuleLeftover'],
      model: partial80().shardRouting([switchedRule, defaultRules[1]!]),
      options: sweep,
    },
    {
      name: 'a partial MoveTables between other keyspaces does not explain the rule, but it is outside the check scope',
      reasons: ['shardRuleLeftover'],
      model: partialKeyspaces()
        .keyspace('other', { shards: ['-80', '80-'] })
        .moveTables('c2o', { from: 'commerce', to: 'other', tables: ['x'], column: 'id' })
        .select({ workflows: ['c2o'] })
        .shardRouting([{ fromKeyspace: 'customer', toKeyspace: 'archive', shard: '-80' }]),
    },
    {
      name: 'another keyspace was not read: shard rules a partial MoveTables read explains stay explained',
      reasons: ['shardRuleUnexplained'],
      model: partial80()
        .keyspace('other', { shards: ['0'] })
        .unreadable('other', '0')
        .shardRouting(defaultRules),
      options: sweep,
    },
    {
      name: 'shard routing rules not read: nothing judged',
      reasons: ['shardRuleLeftover'],
      model: partialKeyspaces().shardRouting([switchedRule]).topologyUnreadable('shardRoutingRules'),
      options: sweep,
    },

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
      name: 'a partial MoveTables of -80 switched and cancelled (its _reverse cancelled, the forward deleted) kept its flipped rule',
      model: partialKeyspaces().shardRouting([switchedRule]),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '-80',
          message:
            'shard routing rule commerce.-80 → customer is left by an earlier partial MoveTables (none read between commerce and customer explains it): every query on shard -80 of commerce goes to customer, and a later partial MoveTables between them takes the rule for its own switch state',
          details: { reason: 'shardRuleLeftover', fromKeyspace: 'commerce', toKeyspace: 'customer' },
        },
      ],
    },
    {
      name: 'a partial MoveTables of 80- cancelled: its create wrote a default rule for -80 too, which cancel keeps',
      model: partialKeyspaces().shardRouting([defaultRules[0]!]),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '-80',
          details: { reason: 'shardRuleLeftover', fromKeyspace: 'customer', toKeyspace: 'commerce' },
        },
      ],
    },
    {
      name: 'a shard routing rule into a keyspace whose primary was not read',
      model: partialKeyspaces().unreadable('commerce', '80-').shardRouting([switchedRule]),
      options: sweep,
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          shard: '-80',
          message:
            'shard routing rule commerce.-80 → customer: no partial MoveTables read between commerce and customer explains it, but the workflows of commerce were not read',
          details: { reason: 'shardRuleUnexplained', unreadKeyspaces: ['commerce'] },
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

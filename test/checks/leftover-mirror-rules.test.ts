/**
 * leftover-mirror-rules. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/
 * traffic_switcher.go` `mirrorTableTraffic` counts the rules of its tables × tablet types and refuses a partial set
 * with `wrong number of pre-existing mirror rules` (its unit tests' `wantErr` in `server_test.go` /
 * `traffic_switcher_test.go`: one rule for `table1` already at 25% while mirroring `table1` for three tablet types).
 */
import check from '../../checks/leftover-mirror-rules.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

const sweep = { sweep: true };
// commerce/0 → customer: MoveTables commerce2customer of customer (primaries …100, …110, …120).
const moveTables = () => moveTablesScenario(['customer']);
const noWorkflow = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] });

checkTester(check, {
  valid: [
    { name: 'no mirror rules', model: noWorkflow().mirrorRules([]), options: sweep },
    {
      name: 'the mirror rules of a running MirrorTraffic (its workflow moves the table)',
      reasons: ['mirrorRuleWithoutWorkflow'],
      model: moveTables().mirrorRules([
        { fromTable: 'commerce.customer', toTable: 'customer.customer', percent: 10 },
        { fromTable: 'commerce.customer@replica', toTable: 'customer.customer', percent: 10 },
      ]),
      options: sweep,
    },
    {
      name: 'a vtctld before v21 has no GetMirrorRules: nothing to judge',
      reasons: ['mirrorRulesUnread'],
      model: noWorkflow().mirrorRules({ error: 'not available on this vtctld (UNIMPLEMENTED)', unavailable: true }),
      options: sweep,
    },
    {
      name: 'a readout from before mirror rules were kept: nothing to judge',
      reasons: ['mirrorRulesUnread'],
      model: noWorkflow(),
      options: sweep,
    },
    {
      name: 'check (not sweep): a rule between keyspaces no selected workflow touches is not judged',
      reasons: ['mirrorRuleWithoutWorkflow'],
      model: moveTables()
        .keyspace('a', { shards: ['0'] })
        .keyspace('b', { shards: ['0'] })
        .mirrorRules([{ fromTable: 'a.t', toTable: 'b.t', percent: 5 }]),
    },
    {
      name: 'another keyspace was not read, and the rule is explained by a workflow read',
      reasons: ['mirrorRuleUnexplained'],
      model: moveTables()
        .keyspace('other', { shards: ['0'] })
        .unreadable('other', '0')
        .mirrorRules([{ fromTable: 'commerce.customer', toTable: 'customer.customer', percent: 50 }]),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'a cancelled MirrorTraffic left its rules (Cancel never removes them)',
      model: noWorkflow().mirrorRules([
        { fromTable: 'commerce.customer', toTable: 'customer.customer', percent: 25 },
        { fromTable: 'commerce.customer@rdonly', toTable: 'customer.customer', percent: 25 },
      ]),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'commerce',
          message:
            'mirror rule commerce.customer → customer.customer (25%) is left by an earlier MirrorTraffic: no workflow moves customer between commerce and customer; vtgate keeps mirroring 25% of its queries, and a later workflow over this table refuses SwitchTraffic and MirrorTraffic with "wrong number of pre-existing mirror rules" unless it moves exactly the tables and tablet types the leftovers cover',
          details: {
            reason: 'mirrorRuleWithoutWorkflow',
            vitessError: 'wrong number of pre-existing mirror rules',
            fromTable: 'commerce.customer',
            toTable: 'customer.customer',
            percent: 25,
          },
        },
        { details: { reason: 'mirrorRuleWithoutWorkflow', fromTable: 'commerce.customer@rdonly' } },
      ],
    },
    {
      name: 'check: a leftover rule on the selected workflow’s source keyspace, for another table',
      model: moveTables().mirrorRules([{ fromTable: 'commerce.corder', toTable: 'customer.corder', percent: 1 }]),
      findings: [
        { keyspace: 'commerce', details: { reason: 'mirrorRuleWithoutWorkflow', toTable: 'customer.corder' } },
      ],
    },
    {
      name: 'the rules of a keyspace whose primary could not be read',
      model: noWorkflow()
        .unreadable('customer', '-80')
        .mirrorRules([{ fromTable: 'commerce.corder', toTable: 'customer.corder', percent: 50 }]),
      options: sweep,
      findings: [
        {
          severity: 'info',
          message: /no workflow read moves corder, but the workflows of customer were not read$/,
          details: { reason: 'mirrorRuleUnexplained', unreadKeyspaces: ['customer'] },
        },
      ],
    },
    {
      name: 'GetMirrorRules failed',
      model: noWorkflow().mirrorRules({ error: 'UNAVAILABLE: topo is down' }),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          message: 'mirror rules could not be read (UNAVAILABLE: topo is down), so leftover ones were not looked for',
          details: { reason: 'mirrorRulesUnread', what: 'GetMirrorRules' },
        },
      ],
    },
  ],
});

/**
 * stray-routing-rules (and a table claimed by two workflows). Field evidence:
 * vitessio/vitess #6850 and #13589 (a failed create leaves rules), #13170 (Cancel and --keep_routing_rules), #7477
 * (DropSources left rules), #16733 (two workflows overwrite each other's rules; PR #16731), #16817, #19115, and the
 * cutover
 * guide (a DROP TABLE re-routed to the source). Upstream: `go/vt/vtgate/vindexes/vschema.go` `buildRoutingRule`,
 * `FindRoutedTable`, `findTable`; `go/vt/vtctl/workflow/server.go` `getWorkflowState`.
 */
import check from '../../checks/stray-routing-rules.js';
import type { RoutingRuleRecord } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';

const hashOn = (column: string) => ({ columnVindexes: [{ name: 'hash', columns: [column] }] });

// commerce/0 (…100), customer -80 (…110), 80- (…120), archive/0 (…130).
const moveTables = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: hashOn('customer_id') } })
    .keyspace('archive', { shards: ['0'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' })
    .select({ keyspaces: ['customer'] });

/** The rules MoveTables commerce → customer writes at create (server.go `MoveTablesCreate`). */
const created = (t = 'customer'): RoutingRuleRecord[] =>
  ['', '@replica', '@rdonly'].flatMap((sfx) => [
    { fromTable: `${t}${sfx}`, toTables: [`commerce.${t}`] },
    { fromTable: `customer.${t}${sfx}`, toTables: [`commerce.${t}`] },
  ]);

checkTester(check, {
  valid: [
    { name: 'the rules MoveTables create writes', reasons: ['ruleBroken'], model: moveTables().routing(created()) },
    {
      name: 'the rules after the write switch',
      reasons: ['ruleBroken', 'ruleContradictsWorkflow'],
      model: moveTables().routing([
        { fromTable: 'customer', toTables: ['customer.customer'] },
        { fromTable: 'commerce.customer', toTables: ['customer.customer'] },
      ]),
    },
    {
      name: 'an unqualified rule pinning a name by hand, no workflow: left alone',
      reasons: ['ruleWithoutWorkflow'],
      model: moveTables().routing([{ fromTable: 'zipcodes', toTables: ['archive.zipcodes'] }]),
    },
    {
      name: 'a disabled table (empty rule) is deliberate',
      reasons: ['ruleBrokenNoWorkflow'],
      model: moveTables().routing([{ fromTable: 'commerce.legacy', toTables: [] }]),
    },
    {
      name: 'a redirect between keyspaces not read completely is not judged',
      reasons: ['ruleWithoutWorkflow', 'ruleBrokenNoWorkflow'],
      model: moveTables()
        .keyspace('other', { shards: ['0'], readSidecars: false })
        .routing([{ fromTable: 'commerce.legacy', toTables: ['other.legacy'] }]),
    },
    {
      name: 'a workflow and its _reverse move the same tables',
      reasons: ['tableInTwoWorkflows'],
      model: moveTables().stream('commerce', '0', 1, {
        workflow: 'commerce2customer_reverse',
        type: 'MoveTables',
        sourceKeyspace: 'customer',
        sourceShard: '-80',
        rules: [{ match: 'customer', filter: 'select * from customer' }],
      }),
    },
    { name: 'routing rules not read', model: moveTables().topologyUnreadable('routingRules') },
    {
      name: "a leftover shard routing rule is leftover-routing-rules' (one finding per rule, in check and sweep)",
      model: moveTables()
        .select({})
        .shardRouting([{ fromKeyspace: 'customer', toKeyspace: 'commerce', shard: '-80' }]),
    },
  ],
  invalid: [
    {
      name: "a rule for the workflow's table into a keyspace that does not exist (#19115): every query fails",
      model: moveTables().routing([
        ...created(),
        { fromTable: 'commerce.customer@replica', toTables: ['gone.customer'] },
      ]),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'routing rule commerce.customer@replica → gone.customer does not resolve, so every query on commerce.customer@replica fails with "Unknown database \'gone\' in vschema"',
          details: {
            reason: 'ruleBroken',
            vtgateError: "Unknown database 'gone' in vschema",
            workflows: ['customer.commerce2customer'],
          },
        },
      ],
    },
    {
      name: 'an unrelated rule into a sharded vschema that lacks the table: a warning',
      model: moveTables().routing([{ fromTable: 'corder', toTables: ['customer.corder'] }]),
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          details: { reason: 'ruleBrokenNoWorkflow', vtgateError: 'table corder not found', workflows: [] },
        },
      ],
    },
    {
      name: "a rule sends the workflow's table to a third keyspace (#16733)",
      model: moveTables().routing([...created().slice(1), { fromTable: 'customer', toTables: ['archive.customer'] }]),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message: joinRegExp(
            /^routing rule customer → archive\.customer sends table customer of /,
            /workflow commerce2customer \(commerce → customer\) to keyspace archive/,
          ),
          details: { reason: 'ruleContradictsWorkflow', rule: 'customer', table: 'customer' },
        },
      ],
    },
    {
      name: 'a leftover redirect between two read keyspaces no workflow explains (#13589, #7477)',
      model: moveTables()
        .select({})
        .routing([{ fromTable: 'commerce.legacy', toTables: ['archive.legacy'] }]),
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          message: joinRegExp(
            /^routing rule commerce\.legacy → archive\.legacy redirects commerce\.legacy /,
            /to archive, but no workflow between commerce and archive moves legacy: /,
            /a leftover of a cancelled, failed or completed workflow unless it was applied on purpose; /,
          ),
          details: { reason: 'ruleWithoutWorkflow', table: 'legacy' },
        },
      ],
    },
    {
      name: 'two live workflows move the same table from different source keyspaces (#16733, #16817)',
      model: moveTables().stream('customer', '80-', 5, {
        workflow: 'archive2customer',
        type: 'MoveTables',
        sourceKeyspace: 'archive',
        sourceShard: '0',
        rules: [{ match: 'customer', filter: 'select * from customer' }],
      }),
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'archive2customer',
          details: { reason: 'tableInTwoWorkflows', otherWorkflow: 'customer.commerce2customer', tables: ['customer'] },
        },
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message: /both move customer: their routing rules for these names overwrite each other/,
          details: { reason: 'tableInTwoWorkflows', otherWorkflow: 'customer.archive2customer' },
        },
      ],
    },
  ],
});

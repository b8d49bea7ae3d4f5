/**
 * source-tables-global-routing. Field evidence: vitessio/vitess RFC #17425 (downtime after
 * moving tables out of a single keyspace without a vschema), #16869 (unqualified queries fail once a second keyspace
 * exists), #19131 (views not moved). No Vitess error text is quoted: both reasons are heuristics.
 */
import check from '../../checks/source-tables-global-routing.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

// commerce/0 (primary zone1-0000000100) → customer -80, 80-: MoveTables commerce2customer moving customer and corder.
const moveTables = () => moveTablesScenario(['customer', 'corder']);

checkTester(check, {
  valid: [
    {
      name: 'the source schema holds only the moved tables',
      model: moveTables().schemaTables('commerce', '0', ['customer', 'corder']),
    },
    {
      name: 'a staying table the source vschema lists',
      model: cluster()
        .keyspace('commerce', { shards: ['0'], tables: { product: {} } })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .moveTables('commerce2customer', {
          from: 'commerce',
          to: 'customer',
          tables: ['customer', 'corder'],
          column: 'customer_id',
        })
        .schemaTables('commerce', '0', ['corder', 'customer', 'product', '_customer_old']),
      reasons: ['unlistedSourceTables'],
    },
    {
      name: 'the source tables not read (older readout): not judged',
      model: moveTables().schemaTables('commerce', '0', 'absent'),
      reasons: ['unlistedSourceTables'],
    },
    {
      name: 'the source vschema not read: not judged',
      model: moveTables()
        .schemaTables('commerce', '0', ['customer', 'corder', 'product'])
        .vschemaUnreadable('commerce'),
      reasons: ['unlistedSourceTables'],
    },
    {
      name: 'base tables not read: views are not told apart, every staying table is judged as a table',
      model: moveTables().schemaTables('commerce', '0', ['customer', 'corder']),
      reasons: ['sourceViews'],
    },
    {
      name: 'product stays in commerce, unlisted, on v22: schema tracking routes it globally (vschema.go:485 @v0.22.4)',
      model: moveTables().schemaTables('commerce', '0', ['corder', 'customer', 'product']),
      options: { vitess: givenVitessVersions('22', 'flag') },
      reasons: ['unlistedSourceTables'],
    },
  ],
  invalid: [
    {
      name: 'product stays in commerce, unlisted, on v21: not found once a second keyspace exists',
      model: moveTables().schemaTables('commerce', '0', ['corder', 'customer', 'product']),
      options: { vitess: givenVitessVersions('21', 'flag') },
      findings: [{ reason: 'unlistedSourceTables', severity: 'warning', details: { versionNote: undefined } }],
    },
    {
      name: 'product stays in commerce, whose vschema lists nothing (RFC #17425, #16869), release not known',
      model: moveTables().schemaTables('commerce', '0', ['corder', 'customer', 'product']),
      findings: [
        {
          reason: 'unlistedSourceTables',
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000100',
          message:
            'table product stays in commerce, whose vschema does not list it, while customer.commerce2customer moves tables to customer: with two keyspaces, unqualified queries no longer reach a table no vschema lists (RFC #17425, #16869)',
          details: { sourceKeyspace: 'commerce', tables: ['product'] },
        },
      ],
    },
    {
      name: 'a view over the moved tables stays behind (#19131)',
      model: moveTables()
        .schemaTables('commerce', '0', ['corder', 'customer', 'customer_orders'])
        .tableKeys('commerce', '0', ['corder', 'customer']),
      findings: [
        {
          reason: 'sourceViews',
          severity: 'info',
          message:
            'view customer_orders of commerce is not moved by customer.commerce2customer (MoveTables moves no views) and reads the source keyspace only (#19131)',
          details: { views: ['customer_orders'] },
        },
      ],
    },
  ],
});

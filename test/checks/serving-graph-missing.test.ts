import check from '../../checks/serving-graph-missing.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer (tablets in zone1). */
const moveTables = () => moveTablesScenario(['customer']);

/** customer 0 → -80, 80-: Reshard cust2cust. */
const reshard = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

checkTester(check, {
  valid: [
    {
      name: 'every cell has its records (MoveTables)',
      model: moveTables().servingGraph({ extraCells: ['zone2'] }),
      reasons: ['srvVSchemaMissing', 'srvVSchemaUnreadable'],
    },
    {
      name: 'every cell has its records (Reshard)',
      model: reshard().servingGraph({ extraCells: ['zone2'] }),
      reasons: ['srvKeyspaceMissing', 'srvKeyspaceUnreadable'],
    },
    {
      name: 'not collected (an older snapshot): nothing to judge',
      model: moveTables(),
      reasons: ['srvVSchemaMissing', 'srvVSchemaUnreadable'],
    },
    {
      name: 'a Reshard does not read SrvVSchema',
      model: reshard().servingGraph({ extraCells: ['zone2'], missing: { srvVSchema: ['zone2'] } }),
      reasons: ['srvVSchemaMissing'],
    },
    {
      name: 'a MoveTables does not read SrvKeyspace',
      model: moveTables().servingGraph({ extraCells: ['zone2'], missing: { srvKeyspace: { customer: ['zone2'] } } }),
      reasons: ['srvKeyspaceMissing'],
    },
  ],
  invalid: [
    {
      name: 'a cell without SrvVSchema fails a MoveTables with the topo text (getWorkflowState)',
      model: moveTables().servingGraph({ extraCells: ['zone2'], missing: { srvVSchema: ['zone2'] } }),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'cell zone2 has no SrvVSchema, which SwitchTraffic reads for customer.commerce2customer in every cell',
          details: { reason: 'srvVSchemaMissing', cell: 'zone2', vitessError: "node doesn't exist: zone2/SrvVSchema" },
        },
      ],
    },
    {
      name: "a topo failure other than NoNode under UNKNOWN (the topo timed out) is a warning, not vtctld's refusal",
      model: moveTables()
        .servingGraph({ extraCells: ['zone2'] })
        .srvVSchemaFailure('zone2', 'UNKNOWN: deadline exceeded: /vitess/zone2/SrvVSchema'),
      findings: [{ severity: 'warning', details: { reason: 'srvVSchemaUnreadable', cell: 'zone2' } }],
    },
    {
      name: 'a snapshot of an older vtpreflight (NOT_FOUND in its reason, no kind): the same refusal, quoted bare',
      model: moveTables()
        .servingGraph({ extraCells: ['zone2'] })
        .srvVSchemaFailure('zone2', "NOT_FOUND: node doesn't exist: zone2/SrvVSchema"),
      findings: [{ details: { reason: 'srvVSchemaMissing', vitessError: "node doesn't exist: zone2/SrvVSchema" } }],
    },
    {
      name: 'a cell whose SrvVSchema could not be read is a warning',
      model: moveTables().servingGraph({ extraCells: ['zone2'], unreadable: { srvVSchema: ['zone2'] } }),
      findings: [{ severity: 'warning', details: { reason: 'srvVSchemaUnreadable', cell: 'zone2' } }],
    },
    {
      name: 'a cell without the SrvKeyspace of the resharded keyspace',
      model: reshard().servingGraph({ extraCells: ['zone2'], missing: { srvKeyspace: { customer: ['zone2'] } } }),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'cust2cust',
          message:
            'cell zone2 has no SrvKeyspace for customer, which SwitchTraffic reads for Reshard cust2cust in every cell',
          details: { reason: 'srvKeyspaceMissing', cell: 'zone2' },
        },
      ],
    },
    {
      name: 'the SrvKeyspaces of the resharded keyspace could not be read is a warning',
      model: reshard().servingGraph({ unreadable: { srvKeyspace: ['customer'] } }),
      findings: [{ severity: 'warning', details: { reason: 'srvKeyspaceUnreadable' } }],
    },
  ],
});

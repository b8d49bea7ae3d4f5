/**
 * orphan-denied-tables. Field evidence: vitessio/vitess #13998 (Cancel left the tablet
 * controls; PR #14008, v18), #17620 (every cancel of a failed switch left denied tables, v19–v21; PR #17616), #17326
 * (a tablet roll during ReverseTraffic left the target denying routed tables), #15963 (a later Cancel refused), and the
 * migration troubleshooting guide's `disallowed due to rule: enforce denied tables` section. Upstream: the rule is
 * built in `go/vt/vttablet/tabletmanager/tm_state.go` (`enforce denied tables`, QRFailRetry) and enforced in
 * `go/vt/vttablet/tabletserver/query_executor.go` `checkPermissions` (`disallowed due to rule: %s`).
 */
import check from '../../checks/orphan-denied-tables.js';
import type { RoutingRuleRecord, TabletControlRecord } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';

const deny = (
  tables: string[],
  tabletType = 'PRIMARY',
  cells: string[] = [],
): { tabletControls: TabletControlRecord[] } => ({
  tabletControls: [{ tabletType, cells, deniedTables: tables, frozen: false }],
});

// commerce/0: primary zone1-0000000100; customer/-80: …110; customer/80-: …120.
const moveTables = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' });

const elsewhere = (table: string): RoutingRuleRecord[] => [
  { fromTable: table, toTables: [`archive.${table}`] },
  { fromTable: `commerce.${table}`, toTables: [`archive.${table}`] },
];

/** customer 0 → -80, 80- (targets not serving): Reshard cust2cust. */
const reshard = () =>
  cluster()
    .keyspace('customer', {
      shards: ['0', '-80', '80-'],
      notServing: ['-80', '80-'],
      tables: { customer: { columnVindexes: [{ name: 'hash', columns: ['customer_id'] }] } },
    })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

checkTester(check, {
  valid: [
    {
      name: 'a Reshard whose shards deny nothing (a denial on another keyspace does not touch its query service)',
      reasons: ['deniedTablesRefuseReshardSwitch'],
      model: reshard().keyspace('commerce', { shards: ['0'] }),
    },
    { name: 'no tablet controls anywhere', model: moveTables() },
    {
      name: 'target primaries deny the moved table before the switch (MoveTables create, v20+)',
      reasons: ['deniedTableNotRouted'],
      model: moveTables()
        .shardRecord('customer', '-80', deny(['customer']))
        .shardRecord('customer', '80-', deny(['customer'])),
    },
    {
      name: 'the source denies the table of a frozen workflow after the switch (writes switched, before Complete)',
      reasons: ['deniedTableNotRouted'],
      model: moveTables()
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'FROZEN' })
        .shardRecord('commerce', '0', deny(['customer'])),
    },
    {
      name: 'a denial explained by another workflow read on the same keyspace (its _reverse after a switch)',
      reasons: ['deniedTableRouted', 'deniedTableServing'],
      model: moveTables()
        .keyspace('archive', { shards: ['0'] })
        .stream('commerce', '0', 7, {
          workflow: 'commerce2archive_reverse',
          type: 'MoveTables',
          sourceKeyspace: 'archive',
          sourceShard: '0',
          rules: [{ match: 'old_orders', filter: 'select * from old_orders' }],
        })
        .shardRecord('commerce', '0', deny(['old_orders'])),
    },
    {
      name: 'shards of keyspaces no selected workflow touches are not judged',
      reasons: ['deniedTableUnexplained'],
      model: moveTables()
        .keyspace('other', { shards: ['0'] })
        .shardRecord('other', '0', deny(['stale'])),
    },
    {
      name: 'shard records not read: nothing to judge',
      reasons: ['deniedTableUnexplained'],
      model: moveTables()
        .shardRecord('commerce', '0', deny(['stale']))
        .shardsUnreadable('commerce'),
    },
  ],
  invalid: [
    {
      // srv_keyspace.go:460 @v0.22.x UpdateDisableQueryService, from switchShardReads' UpdateShardRecords.
      name: 'a Reshard whose source shard keeps a denial of an earlier MoveTables (complete --keep-data)',
      model: reshard().shardRecord('customer', '0', deny(['legacy'])),
      findings: [
        { keyspace: 'customer', shard: '0', details: { reason: 'deniedTableNotRouted', table: 'legacy' } },
        {
          keyspace: 'customer',
          shard: '0',
          workflow: 'cust2cust',
          message:
            'shard customer/0 denies legacy (PRIMARY), so the read switch of the Reshard cust2cust is refused with "cannot safely alter DisableQueryService as DeniedTables is set for shard" followed by that shard record',
          severity: 'error',
          details: { reason: 'deniedTablesRefuseReshardSwitch', deniedTables: ['legacy'] },
        },
      ],
    },
    {
      name: 'sweep: a keyspace without any workflow still denies a table (every keyspace is judged)',
      model: moveTables()
        .keyspace('other', { shards: ['0'] })
        .shardRecord('other', '0', deny(['stale'])),
      options: { sweep: true },
      findings: [
        {
          keyspace: 'other',
          shard: '0',
          message: /^shard other\/0 denies PRIMARY queries on stale although no workflow moves it/,
          details: { reason: 'deniedTableRouted', table: 'stale', workflowsRead: [] },
        },
      ],
    },
    {
      name: 'the source primary denies a table no workflow moves, and routing sends it there (#13998, #17620)',
      model: moveTables().shardRecord('commerce', '0', deny(['customer', 'corder_old'])),
      findings: [
        {
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000100',
          message:
            'shard commerce/0 denies PRIMARY queries on corder_old although no workflow moves it, a leftover of an earlier workflow; no routing rule sends commerce.corder_old elsewhere, so every such query fails with "disallowed due to rule: enforce denied tables" (the workflow action judged is not refused by it)',
          severity: 'warning',
          details: {
            reason: 'deniedTableServing',
            table: 'corder_old',
            tabletType: 'PRIMARY',
            deniedTables: ['customer', 'corder_old'],
            workflowsRead: ['customer.commerce2customer'],
            vttabletError: 'disallowed due to rule: enforce denied tables',
          },
        },
      ],
    },
    {
      name: 'a routing rule keeps the table on this keyspace: still an outage (#17326)',
      model: moveTables()
        .routing([{ fromTable: 'legacy', toTables: ['commerce.legacy'] }])
        .shardRecord('commerce', '0', deny(['legacy'], 'REPLICA', ['zone1'])),
      findings: [
        {
          keyspace: 'commerce',
          shard: '0',
          message: joinRegExp(
            /^shard commerce\/0 denies REPLICA queries on legacy in cells zone1 /,
            /.*routing rule legacy → commerce\.legacy, so every such query fails/,
          ),
          details: { reason: 'deniedTableServing', tabletType: 'REPLICA', cells: ['zone1'] },
        },
      ],
    },
    {
      name: 'routing rules send the table to another keyspace: a warning (harmless until routing changes)',
      model: moveTables()
        .routing(elsewhere('legacy'))
        .shardRecord('commerce', '0', deny(['legacy'])),
      findings: [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          message: /routing rule commerce\.legacy → archive\.legacy, so queries do not reach it until routing changes/,
          details: { reason: 'deniedTableNotRouted', routing: 'routing rule commerce.legacy → archive.legacy' },
        },
      ],
    },
    {
      name: 'a REPLICA denial follows the plain rule when there is no @replica rule (vschema.go FindRoutedTable)',
      model: moveTables()
        .routing(elsewhere('legacy'))
        .shardRecord('commerce', '0', deny(['legacy'], 'REPLICA')),
      findings: [
        {
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          details: {
            reason: 'deniedTableNotRouted',
            tabletType: 'REPLICA',
            routing: 'routing rule commerce.legacy → archive.legacy',
          },
        },
      ],
    },
    {
      name: 'a sharded target whose vschema lacks the table: not routed there',
      model: moveTables().shardRecord('customer', '80-', deny(['customer', 'dropped'])),
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '80-',
          tablet: 'zone1-0000000120',
          details: {
            reason: 'deniedTableNotRouted',
            table: 'dropped',
            routing: 'the sharded vschema of customer has no table dropped',
          },
        },
      ],
    },
    {
      name: 'routing rules not read: judged as routed (an unknown route is not a safe one)',
      model: moveTables()
        .topologyUnreadable('routingRules')
        .shardRecord('commerce', '0', deny(['legacy'])),
      findings: [{ details: { reason: 'deniedTableServing', routing: 'routing rules not read' } }],
    },
    {
      name: 'a keyspace whose workflows were not read could explain it: an info line naming it',
      model: moveTables()
        .keyspace('archive', { shards: ['0'], readSidecars: false })
        .shardRecord('commerce', '0', deny(['legacy'])),
      findings: [
        {
          severity: 'info',
          keyspace: 'commerce',
          message: /no workflow read moves it, but the workflows of archive were not read/,
          details: { reason: 'deniedTableUnexplained', unreadKeyspaces: ['archive'] },
        },
      ],
    },
  ],
});

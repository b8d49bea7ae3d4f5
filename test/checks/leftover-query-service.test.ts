/**
 * leftover-query-service. Upstream (read in the planetscale/vitess fork, the stored
 * vitessio copy predates it): `go/vt/topotools/rebuild_keyspace.go` `RebuildKeyspaceLocked` refuses any cell whose
 * SrvKeyspace has a shard tablet control with `QueryServiceDisabled`: `can't rebuild serving keyspace while a
 * migration is on going. TabletControls is set for partition %v`.
 */
import check from '../../checks/leftover-query-service.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const sweep = { sweep: true };
const customer = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .servingGraph();

checkTester(check, {
  valid: [
    { name: 'no tablet controls on the SrvKeyspaces', model: customer(), options: sweep },
    {
      name: 'a Reshard after its reads-only switch (the source serves no replica reads: expected)',
      reasons: ['queryServiceDisabled'],
      model: customer()
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .disableQueryService('customer', '0', ['REPLICA', 'RDONLY']),
      options: sweep,
    },
    {
      name: 'another keyspace was not read; this one was, in full',
      reasons: ['queryServiceDisabledUnexplained'],
      model: customer()
        .keyspace('other', { shards: ['0'] })
        .unreadable('other', '0')
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .disableQueryService('customer', '0', ['REPLICA']),
      options: sweep,
    },
  ],
  invalid: [
    {
      name: 'a Reshard cancelled after a reads-only switch left the source’s replica queries disabled (v22+)',
      model: customer().disableQueryService('customer', '0', ['REPLICA', 'RDONLY']),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '0',
          message:
            'the SrvKeyspace of customer in zone1 disables the query service of shard 0 for RDONLY, REPLICA although no Reshard of customer exists (left by a cancelled Reshard or a failed switch): those queries fail, and RebuildKeyspaceGraph refuses with "can\'t rebuild serving keyspace while a migration is on going"',
          details: {
            reason: 'queryServiceDisabled',
            tabletTypes: ['RDONLY', 'REPLICA'],
            cells: ['zone1'],
            vitessText:
              "can't rebuild serving keyspace while a migration is on going. TabletControls is set for partition …",
          },
        },
      ],
    },
    {
      name: 'a primary of the keyspace was not read: only information',
      model: customer().unreadable('customer', '-80').disableQueryService('customer', '0', ['PRIMARY']),
      options: sweep,
      findings: [{ severity: 'info', shard: '0', details: { reason: 'queryServiceDisabledUnexplained' } }],
    },
  ],
});

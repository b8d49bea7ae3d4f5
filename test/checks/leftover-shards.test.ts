/**
 * leftover-shards. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/utils.go`
 * `CompareShards` — every shard name of the keyspace in the topo (`GetShardNames`, serving or not) against the shards
 * the switch covers: `mismatched shards for keyspace %s: %s` with `topo shards not in switch command: %v` (Go's
 * `sets.List`, sorted).
 */
import check from '../../checks/leftover-shards.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const sweep = { sweep: true };
// customer: serving -80, 80-; the old 0 shard kept by `Reshard complete --keep-data`.
const keptData = () => cluster().keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['0'] });
// customer: serving 0 (its primary lists customer), -80 and 80- created for a Reshard not started (empty schemas).
const preCreated = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .schemaTables('customer', '0', ['customer'])
    .schemaTables('customer', '-80', [])
    .schemaTables('customer', '80-', []);

checkTester(check, {
  valid: [
    { name: 'every shard serves', model: cluster().keyspace('customer', { shards: ['-80', '80-'] }), options: sweep },
    {
      name: 'the not-serving targets of a Reshard in progress are used by it',
      reasons: ['nonServingShards'],
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
      options: sweep,
    },
    {
      name: 'empty target shards of a Reshard that has started are used by it',
      reasons: ['nonServingShardsEmpty'],
      model: preCreated().reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
      options: sweep,
    },
    {
      name: 'the sources of a switched Reshard (not serving any more) are used by it',
      reasons: ['nonServingShards'],
      model: keptData().reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
      options: sweep,
    },
    {
      name: 'check (not sweep): a keyspace no selected workflow touches is not judged',
      reasons: ['nonServingShardsUnexplained'],
      model: keptData()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('other', { shards: ['0'] })
        .moveTables('c2o', { from: 'commerce', to: 'other', tables: ['x'], column: 'id' }),
    },
  ],
  invalid: [
    {
      name: 'Reshard complete --keep-data kept the old shard: a later MoveTables into customer cannot switch',
      model: keptData(),
      options: sweep,
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          message:
            'customer has non-serving shard 0 that no workflow uses (left by Reshard complete --keep-data, a cancelled Reshard, or a Reshard never run): SwitchTraffic of any MoveTables into or out of customer will refuse',
          details: {
            reason: 'nonServingShards',
            vitessError: 'mismatched shards for keyspace customer: topo shards not in switch command: [0]',
            shards: ['0'],
          },
        },
      ],
    },
    {
      name: 'a cancelled Reshard (v22+) kept its target shards',
      model: cluster().keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] }),
      options: sweep,
      findings: [
        {
          details: {
            reason: 'nonServingShards',
            vitessError: 'mismatched shards for keyspace customer: topo shards not in switch command: [-80 80-]',
            shards: ['-80', '80-'],
          },
        },
      ],
    },
    {
      name: 'shards created for a Reshard not started yet (empty schemas, the serving primary lists tables): information',
      model: preCreated(),
      options: sweep,
      findings: [
        {
          severity: 'info',
          keyspace: 'customer',
          message:
            'customer has non-serving shards -80, 80- that no workflow uses and whose primaries hold no table: most likely created for a Reshard not started yet (or emptied by a cancelled one); until one runs, SwitchTraffic of any MoveTables into or out of customer refuses',
          details: {
            reason: 'nonServingShardsEmpty',
            shards: ['-80', '80-'],
            vitessText: 'mismatched shards for keyspace customer: topo shards not in switch command: [-80 80-]',
          },
        },
      ],
    },
    {
      name: 'check of a MoveTables into customer: its own switch refuses on the empty shards, so the warning stays',
      model: preCreated()
        .keyspace('commerce', { shards: ['0'] })
        .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'id' })
        .removeStream('customer', '-80', 1)
        .removeStream('customer', '80-', 1),
      findings: [{ severity: 'warning', details: { reason: 'nonServingShards', shards: ['-80', '80-'] } }],
    },
    {
      name: 'one of the shards holds a table (a cancelled Reshard copied it): a leftover, not a shard waiting for a Reshard',
      model: preCreated().schemaTables('customer', '80-', ['customer']),
      options: sweep,
      findings: [{ severity: 'warning', details: { reason: 'nonServingShards', shards: ['-80', '80-'] } }],
    },
    {
      name: 'the serving primary lists no table either (the read sees nothing): not taken for a Reshard to come',
      model: preCreated().schemaTables('customer', '0', []),
      options: sweep,
      findings: [{ severity: 'warning', details: { reason: 'nonServingShards' } }],
    },
    {
      name: 'a primary of the keyspace was not read: only information',
      model: keptData().unreadable('customer', '-80'),
      options: sweep,
      findings: [{ severity: 'info', details: { reason: 'nonServingShardsUnexplained', shards: ['0'] } }],
    },
  ],
});

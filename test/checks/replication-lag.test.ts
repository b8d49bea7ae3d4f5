import check from '../../checks/replication-lag.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, NOW_SECONDS } from '../helpers/cluster.js';

const base = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

checkTester(
  check,
  {
    valid: [
      { name: 'caught up', model: base() },
      {
        name: 'exactly at the limit is allowed (Vitess compares with >)',
        model: base().patchStream('customer', '-80', 1, {
          time_updated: NOW_SECONDS - 30,
          transaction_timestamp: NOW_SECONDS - 30,
        }),
      },
      {
        name: 'idle source: old transaction but recent heartbeat update',
        model: base().patchStream('customer', '-80', 1, {
          transaction_timestamp: NOW_SECONDS - 3600,
          time_updated: NOW_SECONDS - 2,
        }),
      },
      {
        name: 'stored Copying counts as copy-incomplete, not lag',
        model: base().patchStream('customer', '-80', 1, {
          state: 'Copying',
          time_updated: NOW_SECONDS - 600,
          transaction_timestamp: 0,
        }),
      },
      {
        name: 'a frozen workflow skips the lag check like Vitess',
        model: base().patchStream('customer', '-80', 1, {
          message: 'FROZEN',
          state: 'Stopped',
          time_updated: NOW_SECONDS - 600,
        }),
      },
      {
        name: 'a higher --max-lag accepts it',
        model: base().patchStream('customer', '80-', 1, {
          time_updated: NOW_SECONDS - 95,
          transaction_timestamp: NOW_SECONDS - 95,
        }),
        options: { maxLagSeconds: 120 },
      },
    ],
    invalid: [
      {
        name: 'one stream 95s behind',
        model: base().patchStream('customer', '80-', 1, {
          time_updated: NOW_SECONDS - 95,
          transaction_timestamp: NOW_SECONDS - 95,
        }),
        findings: [
          {
            keyspace: 'customer',
            shard: '80-',
            workflow: 'cust2cust',
            streamId: 1,
            message:
              /^workflow cust2cust in customer has transaction lag 95s, above the allowed 30s; worst: 80- stream 1 95s$/,
            details: {
              reason: 'transactionLag',
              lagSeconds: 95,
              maxLagSeconds: 30,
              vitessError: 'replication lag 95s is higher than allowed lag 30s',
            },
          },
        ],
      },
      {
        name: 'a stopped stream counts, with its state named',
        model: base().patchStream('customer', '-80', 1, {
          state: 'Stopped',
          time_updated: NOW_SECONDS - 300,
          transaction_timestamp: NOW_SECONDS - 400,
        }),
        findings: [
          {
            shard: '-80',
            message: /transaction lag 300s.*-80 stream 1 300s \(Stopped\)$/,
            details: { lagSeconds: 300 },
          },
        ],
      },
      {
        name: 'old rule only: row not updated although the last transaction is recent',
        model: base().patchStream('customer', '-80', 1, {
          time_updated: NOW_SECONDS - 50,
          transaction_timestamp: NOW_SECONDS - 10,
        }),
        findings: [
          {
            shard: '-80',
            details: {
              reason: 'timeUpdatedLag',
              lagSeconds: 50,
              transactionLagSeconds: 10,
              vitessError: 'replication lag 50s is higher than allowed lag 30s',
            },
          },
        ],
      },
      {
        name: 'worst shard first, several streams over the limit',
        model: base()
          .patchStream('customer', '-80', 1, {
            time_updated: NOW_SECONDS - 40,
            transaction_timestamp: NOW_SECONDS - 40,
          })
          .patchStream('customer', '80-', 1, {
            time_updated: NOW_SECONDS - 70,
            transaction_timestamp: NOW_SECONDS - 70,
          }),
        findings: [
          { shard: '80-', message: /worst: 80- stream 1 70s, -80 stream 1 40s$/, details: { streamsOverLimit: 2 } },
        ],
      },
    ],
  },
  { more: true },
);

const lookupBase = () =>
  cluster()
    .keyspace('customer', {
      shards: ['-80', '80-'],
      vindexes: {
        hash: { type: 'hash', params: {}, owner: '' },
        corder_lookup: {
          type: 'consistent_lookup_unique',
          params: { table: 'lookup.corder_lookup', from: 'id', to: 'keyspace_id' },
          owner: 'corder',
        },
      },
      tables: {
        corder: {
          columnVindexes: [
            { name: 'hash', columns: ['customer_id'] },
            { name: 'corder_lookup', columns: ['id'] },
          ],
        },
      },
    })
    .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } });

checkTester(check, {
  valid: [
    {
      name: 'a lookup backfill stopped after copy ten minutes ago is not lagging',
      model: lookupBase()
        .lookup('corder_lookup', {
          from: 'customer',
          to: 'lookup',
          table: 'corder_lookup',
          ownerTable: 'corder',
          owned: true,
        })
        .patchStream('lookup', '0', 1, { time_updated: NOW_SECONDS - 600, transaction_timestamp: NOW_SECONDS - 700 })
        .patchStream('lookup', '0', 2, { time_updated: NOW_SECONDS - 600, transaction_timestamp: NOW_SECONDS - 700 }),
    },
  ],
  invalid: [
    {
      name: 'a Materialize behind is a freshness warning, not a SwitchTraffic refusal',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .materialize('sales', { from: 'commerce', to: 'customer', tables: ['sales'] })
        .patchStream('customer', '-80', 1, {
          time_updated: NOW_SECONDS - 100,
          transaction_timestamp: NOW_SECONDS - 100,
        }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          workflow: 'sales',
          details: { reason: 'transactionLagNotSwitched', switchable: false, vitessError: undefined },
        },
      ],
    },
    {
      name: 'a Materialize whose row was not updated (v17–v20 rule) is a freshness warning',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .materialize('sales', { from: 'commerce', to: 'customer', tables: ['sales'] })
        .patchStream('customer', '-80', 1, {
          time_updated: NOW_SECONDS - 50,
          transaction_timestamp: NOW_SECONDS - 10,
        }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          workflow: 'sales',
          details: { reason: 'timeUpdatedLagNotSwitched', lagSeconds: 50, vitessError: undefined },
        },
      ],
    },
  ],
});

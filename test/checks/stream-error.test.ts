import check from '../../checks/stream-error.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const base = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

checkTester(
  check,
  {
    valid: [
      { name: 'healthy reshard', model: base() },
      {
        name: 'picked source tablet message is informational',
        reasons: ['messageError'],
        model: base().patchStream('customer', '-80', 1, { message: 'Picked source tablet: cell:"zone1" uid:100' }),
      },
      {
        name: 'FROZEN is not an error',
        reasons: ['messageError'],
        model: base().patchStream('customer', '-80', 1, { message: 'FROZEN' }),
      },
      {
        name: 'unread shard is not judged',
        reasons: ['stateError'],
        model: base().patchStream('customer', '80-', 1, { state: 'Error' }).unreadable('customer', '80-'),
      },
    ],
    invalid: [
      {
        name: 'VStreamer is not open in the message (any case of "error")',
        model: base().patchStream('customer', '80-', 1, {
          message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
        }),
        findings: [
          {
            shard: '80-',
            streamId: 1,
            workflow: 'cust2cust',
            tablet: 'zone1-0000000120',
            message: /^stream 1 of cust2cust on customer\/80- shows an error \(state Running\): vttablet: rpc error/,
            details: { reason: 'messageError', vitessError: 'workflow has errors' },
          },
        ],
      },
      {
        name: 'stored state Error with an empty message',
        model: base().patchStream('customer', '-80', 1, { state: 'Error', message: '' }),
        findings: [{ shard: '-80', streamId: 1, message: /is in state Error$/, details: { reason: 'stateError' } }],
      },
      {
        name: 'upper-case ERROR counts too',
        model: base().patchStream('customer', '-80', 1, { message: 'Duplicate entry: ERROR 1062' }),
        findings: [{ shard: '-80', details: { reason: 'messageError' } }],
      },
    ],
  },
  { more: true },
);

// `workflow has errors` is canSwitch's (server.go canSwitch): a lookup backfill's Externalize never raises it
// (lookup_vindex.go validateInternalizedState only tests the stored state).
checkTester(check, {
  valid: [
    {
      name: 'unowned lookup backfill Running with an informational message',
      reasons: ['errorNotRefused'],
      model: cluster()
        .keyspace('customer', { shards: ['-80', '80-'] })
        .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } })
        .lookup('corder_lookup', {
          from: 'customer',
          to: 'lookup',
          table: 'corder_lookup',
          ownerTable: 'corder',
          owned: false,
        })
        .patchStream('lookup', '0', 1, { message: 'Picked source tablet: cell:"zone1" uid:100' }),
    },
  ],
  invalid: [
    {
      name: 'unowned lookup backfill Running with a retried RPC error: a warning without canSwitch text',
      model: cluster()
        .keyspace('customer', { shards: ['-80', '80-'] })
        .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } })
        .lookup('corder_lookup', {
          from: 'customer',
          to: 'lookup',
          table: 'corder_lookup',
          ownerTable: 'corder',
          owned: false,
        })
        .patchStream('lookup', '0', 1, {
          message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
        }),
      findings: [
        {
          severity: 'warning',
          shard: '0',
          streamId: 1,
          reason: 'errorNotRefused',
          details: { canSwitchSkipped: 'notSwitchTraffic', vitessError: undefined },
        },
      ],
    },
  ],
});

import check from '../../checks/target-primary-missing.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer. */
function moveTables(): ClusterBuilder {
  return moveTablesScenario(['customer']);
}

checkTester(check, {
  valid: [
    { name: 'every target shard has a primary', model: moveTables(), reasons: ['noPrimary'] },
    {
      name: 'a source shard without primary is missing-source, not this check',
      model: cluster()
        .keyspace('commerce', { shards: ['0'], noPrimary: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] })
        .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] }),
      reasons: ['noPrimary'],
    },
    {
      name: 'the shard records of the target keyspace were not read: not judged',
      model: moveTables().orphanShard('customer', '80-c0').shardsUnreadable('customer'),
      reasons: ['noPrimary'],
    },
  ],
  invalid: [
    {
      name: 'a leftover shard record without primary in the target keyspace (abandoned Reshard)',
      model: moveTables().orphanShard('customer', '80-c0'),
      findings: [
        {
          reason: 'noPrimary',
          severity: 'error',
          keyspace: 'customer',
          shard: '80-c0',
          workflow: 'commerce2customer',
          message:
            'shard customer/80-c0 of the target keyspace of MoveTables customer.commerce2customer has no primary (it holds none of its streams), and SwitchTraffic reads every shard record of the target keyspace',
          details: { vitessError: "shard customer/80-c0 doesn't have a primary set", holdsStreams: false },
        },
      ],
    },
    {
      name: 'a target shard whose primary is gone: its streams cannot even be read',
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'], noPrimary: ['80-'] })
        .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] }),
      findings: [{ reason: 'noPrimary', shard: '80-', details: { holdsStreams: false } }],
    },
  ],
});

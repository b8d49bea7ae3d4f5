import check from '../../checks/create-workflow.js';
import { DEFAULT_ACTION_REQUEST } from '../../src/engine/options.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';

/** commerce/0 (…100) → customer -80 (…110), 80- (…120): MoveTables commerce2customer of customer. */
function moveTables(): ClusterBuilder {
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });
}

/** `--action create --workflow <workflow> --target-keyspace <targetKeyspace>`. */
const create = (workflow: string, targetKeyspace = 'customer') => ({
  action: { ...DEFAULT_ACTION_REQUEST, action: 'create' as const, create: { workflow, targetKeyspace } },
});

checkTester(check, {
  valid: [
    {
      name: 'a new name: no target primary has a stream of it',
      model: moveTables(),
      options: create('commerce2customer_v2'),
      reasons: ['workflowExists', 'shardNoPrimary', 'targetKeyspaceNotRead'],
    },
    {
      // validateNewWorkflow reads the target keyspace's shards only (utils.go:105-128 @00bd50b6).
      name: 'the name is taken in another keyspace only',
      model: moveTables(),
      options: create('commerce2customer', 'commerce'),
      reasons: ['workflowExists'],
    },
    {
      name: 'a source shard without primary: not a target shard record',
      model: cluster()
        .keyspace('commerce', { shards: ['0'], noPrimary: ['0'] })
        .keyspace('customer', { shards: ['-80', '80-'] }),
      options: create('commerce2customer'),
      reasons: ['shardNoPrimary'],
    },
    {
      name: 'another action judged: create says nothing',
      model: moveTables(),
      options: { action: { ...DEFAULT_ACTION_REQUEST, action: 'cancel' as const } },
      reasons: ['workflowExists'],
    },
    {
      name: 'the target sidecar was not read: unverified, not a finding',
      model: moveTables().unreadable('customer', '-80').unreadable('customer', '80-'),
      options: create('commerce2customer'),
      reasons: ['workflowExists'],
    },
  ],
  invalid: [
    {
      name: 'the target keyspace is not in the readout',
      model: moveTables(),
      options: create('commerce2customer', 'customer2'),
      findings: [{ keyspace: 'customer2', workflow: 'commerce2customer', reason: 'targetKeyspaceNotRead' }],
    },
    {
      // utils.go:128 @00bd50b6: a row with the workflow name on a target primary, one error per shard.
      name: 'the name is taken on every target primary',
      model: moveTables(),
      options: create('commerce2customer'),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          reason: 'workflowExists',
          tablet: 'zone1-0000000110',
          details: {
            vitessError: 'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000110',
          },
        },
        {
          shard: '80-',
          reason: 'workflowExists',
          details: {
            vitessError: 'workflow commerce2customer already exists in keyspace customer on tablet zone1-0000000120',
          },
        },
      ],
    },
    {
      name: 'a frozen leftover of a switched, never completed workflow on one shard',
      model: moveTables()
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' })
        .removeStream('customer', '80-', 1),
      options: create('commerce2customer'),
      findings: [{ shard: '-80', reason: 'workflowExists' }],
    },
    {
      // utils.go:105 @00bd50b6: every shard record of the target keyspace, serving or not (si.ShardName()).
      name: 'a leftover shard record without primary in the target keyspace',
      model: moveTables().orphanShard('customer', '80-c0'),
      options: create('commerce2customer_v2'),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-c0',
          reason: 'shardNoPrimary',
          details: { vitessError: 'shard has no primary: 80-c0' },
        },
      ],
    },
  ],
});

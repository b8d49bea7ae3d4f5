import check from '../../checks/shard-set-mismatch.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';
import { reshardScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

const hashOn = (column: string) => ({ columnVindexes: [{ name: 'hash', columns: [column] }] });

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer. */
function unshardedToSharded(): ClusterBuilder {
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: hashOn('customer_id') } })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' });
}

/** customer also has -40 and 40-80 (not serving: a Reshard being prepared); the MoveTables streams skip them. */
function targetWithLeftoverShards(): ClusterBuilder {
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', {
      shards: ['-80', '80-', '-40', '40-80'],
      notServing: ['-40', '40-80'],
      tables: { customer: hashOn('customer_id') },
    })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' })
    .removeStream('customer', '-40', 1)
    .removeStream('customer', '40-80', 1);
}

checkTester(
  check,
  {
    valid: [
      { name: 'healthy MoveTables from an unsharded keyspace', model: unshardedToSharded() },
      {
        name: 'healthy MoveTables between sharded keyspaces',
        model: cluster()
          .keyspace('src', { shards: ['-80', '80-'], tables: { t: hashOn('id') } })
          .keyspace('dst', { shards: ['-40', '40-80', '80-c0', 'c0-'], tables: { t: hashOn('id') } })
          .moveTables('src2dst', { from: 'src', to: 'dst', tables: ['t'] }),
      },
      {
        name: 'a partial MoveTables (same incomplete span, same shard count) skips CompareShards',
        model: cluster()
          .keyspace('src', { shards: ['-80', '80-'] })
          .keyspace('dst', { shards: ['-80', '80-'] })
          .stream('dst', '-80', 1, {
            workflow: 'part',
            type: 'MoveTables',
            subType: 'Partial',
            sourceKeyspace: 'src',
            sourceShard: '-80',
            rules: [{ match: 't', filter: 'select * from t' }],
          }),
      },
      {
        name: 'a Reshard is a SHARDS migration: not compared',
        model: reshardScenario().select({ workflows: ['cust2cust'] }),
      },
      {
        name: 'a Materialize is never switched: not compared',
        model: cluster()
          .keyspace('commerce', { shards: ['0'] })
          .keyspace('customer', { shards: ['-80', '80-'] })
          .materialize('mat', { from: 'commerce', to: 'customer', tables: ['t'] })
          .removeStream('customer', '80-', 1),
      },
      {
        name: 'a target shard whose primary could not be read: BuildTargets fails first, nothing is predicted',
        reasons: ['targetShardsWithoutStreams'],
        model: unshardedToSharded().removeStream('customer', '80-', 1).unreadable('customer', '80-'),
      },
      {
        name: 'a target shard without a primary: BuildTargets fails first ("doesn\'t have a primary set")',
        reasons: ['targetShardsWithoutStreams'],
        model: unshardedToSharded().orphanShard('customer', '80-c0'),
      },
      {
        name: 'source shard records not read: the source side is not compared',
        reasons: ['sourceShardsNotInStreams'],
        model: unshardedToSharded().orphanShard('commerce', '-80').shardsUnreadable('commerce'),
      },
      {
        name: 'a table name without the leading / is no wild card',
        reasons: ['wildcardTable'],
        model: cluster()
          .keyspace('commerce', { shards: ['0'] })
          .keyspace('archive', { shards: ['0'] })
          .stream('archive', '0', 1, {
            workflow: 'all',
            type: 'MoveTables',
            sourceKeyspace: 'commerce',
            sourceShard: '0',
            rules: [{ match: 'orders', filter: '' }],
          }),
      },
      {
        name: 'a stream naming a source shard without a record fails earlier (missing-source)',
        reasons: ['sourceShardsNotInStreams'],
        model: unshardedToSharded()
          .orphanShard('commerce', '-80')
          .stream('customer', '80-', 2, {
            workflow: 'commerce2customer',
            type: 'MoveTables',
            sourceKeyspace: 'commerce',
            sourceShard: '80-',
            rules: [{ match: 'customer', filter: 'select * from customer' }],
          }),
      },
    ],
    invalid: [
      {
        name: 'a leftover shard record in the source keyspace',
        model: unshardedToSharded().orphanShard('commerce', '-80'),
        findings: [
          {
            keyspace: 'customer',
            workflow: 'commerce2customer',
            message: joinRegExp(
              /^source keyspace commerce has shard -80 that no stream of MoveTables /,
              /customer\.commerce2customer reads, so SwitchTraffic refuses the shard sets as mismatched$/,
            ),
            details: {
              reason: 'sourceShardsNotInStreams',
              sourceKeyspace: 'commerce',
              extraShards: ['-80'],
              vitessError: 'mismatched shards for keyspace commerce: topo shards not in switch command: [-80]',
            },
          },
        ],
      },
      {
        name: 'target shards (serving or not) without streams, listed in Go sort order',
        model: targetWithLeftoverShards(),
        findings: [
          {
            keyspace: 'customer',
            workflow: 'commerce2customer',
            message: joinRegExp(
              /^target keyspace customer has shards -40, 40-80 with /,
              /no stream of MoveTables customer\.commerce2customer/,
            ),
            details: {
              reason: 'targetShardsWithoutStreams',
              extraShards: ['-40', '40-80'],
              vitessError: 'mismatched shards for keyspace customer: topo shards not in switch command: [-40 40-80]',
            },
          },
        ],
      },
      {
        name: 'both keyspaces mismatch: the source keyspace (compared first) comes first',
        model: targetWithLeftoverShards().orphanShard('commerce', '80-').orphanShard('commerce', '-80'),
        findings: [
          {
            message: /^source keyspace commerce has shards -80, 80- /,
            details: {
              vitessError: 'mismatched shards for keyspace commerce: topo shards not in switch command: [-80 80-]',
            },
          },
          { message: /^target keyspace customer /, details: { reason: 'targetShardsWithoutStreams' } },
        ],
      },
      {
        name: 'a partial sub type that spans the whole key range is still compared (Vitess decides from the shard names)',
        model: cluster()
          .keyspace('src', { shards: ['-80', '80-'] })
          .keyspace('dst', { shards: ['-80', '80-', 'c0-'], notServing: ['c0-'] })
          .stream('dst', '-80', 1, {
            workflow: 'part',
            type: 'MoveTables',
            subType: 'Partial',
            sourceKeyspace: 'src',
            sourceShard: '-80',
            rules: [{ match: 't', filter: 'select * from t' }],
          })
          .stream('dst', '80-', 1, {
            workflow: 'part',
            type: 'MoveTables',
            subType: 'Partial',
            sourceKeyspace: 'src',
            sourceShard: '80-',
            rules: [{ match: 't', filter: 'select * from t' }],
          }),
        findings: [
          {
            workflow: 'part',
            details: {
              reason: 'targetShardsWithoutStreams',
              vitessError: 'mismatched shards for keyspace dst: topo shards not in switch command: [c0-]',
            },
          },
        ],
      },
      {
        name: 'a MoveTables into a keyspace whose Reshard has created its target shards',
        model: reshardScenario().select({ workflows: ['commerce2customer'] }),
        findings: [
          {
            keyspace: 'customer',
            workflow: 'commerce2customer',
            details: {
              reason: 'targetShardsWithoutStreams',
              vitessError:
                'mismatched shards for keyspace customer: topo shards not in switch command: [-40 40-80 80-c0 c0-]',
            },
          },
        ],
      },
      {
        name: 'a wild card table name',
        model: cluster()
          .keyspace('commerce', { shards: ['0'] })
          .keyspace('archive', { shards: ['0'] })
          .stream('archive', '0', 1, {
            workflow: 'all',
            type: 'MoveTables',
            sourceKeyspace: 'commerce',
            sourceShard: '0',
            rules: [{ match: '/.*', filter: '' }],
          }),
        findings: [
          {
            keyspace: 'archive',
            workflow: 'all',
            message: joinRegExp(
              /^workflow MoveTables archive\.all replicates the wild /,
              /card table name \/\.\*, which SwitchTraffic refuses$/,
            ),
            details: {
              reason: 'wildcardTable',
              table: '/.*',
              vitessError: 'cannot migrate streams with wild card table names: /.*',
            },
          },
        ],
      },
    ],
  },
  { more: true },
);

// Multi-tenant MoveTables created with --shards -80: options
// {"tenant_id":"42","shards":["-80"]}.
const multiTenant = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'], tables: { customer: {} } })
    .keyspace('customer', { shards: ['-80', '80-'], tables: { customer: hashOn('customer_id') } })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' })
    .removeStream('customer', '80-', 1)
    .patchStream('customer', '-80', 1, { options: '{"tenant_id":"42","shards":["-80"]}' });

checkTester(check, {
  valid: [
    {
      // traffic_switcher.go validate skips CompareShards for a multi-tenant migration with options.shards;
      // materializer.go buildMaterializer creates streams only on WorkflowOptions.Shards.
      name: 'multi-tenant MoveTables created with --shards -80: 80- without streams is as designed',
      reasons: ['targetShardsWithoutStreams'],
      model: multiTenant(),
    },
  ],
  invalid: [],
});

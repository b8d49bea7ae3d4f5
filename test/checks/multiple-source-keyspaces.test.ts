import check from '../../checks/multiple-source-keyspaces.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';
import { reshardScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

function twoSources(): ClusterBuilder {
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('other', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] })
    .moveTables('c2c', { from: 'commerce', to: 'customer', tables: ['customer'] });
}

checkTester(check, {
  valid: [
    { name: 'healthy MoveTables', model: twoSources() },
    { name: 'healthy Reshard with other workflows into the keyspace', model: reshardScenario() },
    {
      name: 'a stream whose source does not parse has no source keyspace to compare',
      reasons: ['multipleSourceKeyspaces'],
      model: twoSources().patchStream('customer', '80-', 1, { source: 'keyspace:"other" shard:' }),
    },
    {
      // An external MySQL source has no keyspace by design (Migrate from outside Vitess).
      name: 'a stream reading an external MySQL has no keyspace to compare',
      reasons: ['multipleSourceKeyspaces'],
      model: twoSources().patchStream('customer', '80-', 1, {
        source: 'external_mysql:"erp" filter:{rules:{match:"customer" filter:"select * from customer"}}',
      }),
    },
    {
      name: 'two workflows reading different keyspaces are not one workflow',
      reasons: ['multipleSourceKeyspaces'],
      model: twoSources().stream('customer', '80-', 2, {
        workflow: 'o2c',
        type: 'MoveTables',
        sourceKeyspace: 'other',
        sourceShard: '0',
        rules: [{ match: 't', filter: 'select * from t' }],
      }),
    },
  ],
  invalid: [
    {
      // A hand-edited row without keyspace and shard: buildTrafficSwitcher compares "" with commerce
      // (server.go:2351-2352 @v0.24.4); measured on real v24.0.4, `Workflow show` fails with `multiple source
      // keyspaces for a single workflow`.
      name: 'one stream of the workflow has a source without a keyspace',
      model: twoSources().patchStream('customer', '80-', 1, {
        source: 'filter:{rules:{match:"customer" filter:"select * from customer"}}',
      }),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'c2c',
          message: /reads from 2 source keyspaces: commerce \(stream 1 on -80\), no keyspace \(stream 1 on 80-\)$/,
          details: {
            vitessError: 'source keyspaces are mismatched across streams: commerce vs ',
            getWorkflowsError:
              'workflow = c2c, ks1 = commerce, ks2 = : multiple source keyspaces for a single workflow',
          },
        },
      ],
    },
    {
      name: 'one stream of the workflow reads another keyspace',
      model: twoSources().stream('customer', '80-', 1, {
        workflow: 'c2c',
        type: 'MoveTables',
        sourceKeyspace: 'other',
        sourceShard: '0',
        rules: [{ match: 'customer', filter: 'select * from customer' }],
      }),
      findings: [
        {
          keyspace: 'customer',
          workflow: 'c2c',
          message: joinRegExp(
            /^MoveTables customer\.c2c reads from 2 source keyspaces: /,
            /commerce \(stream 1 on -80\), other \(stream 1 on 80-\)$/,
          ),
          details: {
            reason: 'multipleSourceKeyspaces',
            sourceKeyspaces: ['commerce', 'other'],
            streams: { commerce: [{ shard: '-80', streamId: 1 }], other: [{ shard: '80-', streamId: 1 }] },
            vitessError: 'source keyspaces are mismatched across streams: commerce vs other',
            getWorkflowsError:
              'workflow = c2c, ks1 = commerce, ks2 = other: multiple source keyspaces for a single workflow',
          },
        },
      ],
    },
  ],
});

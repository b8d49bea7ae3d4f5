import check from '../../checks/multiple-target-keyspaces.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, type ClusterBuilder } from '../helpers/cluster.js';
import { reshardScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

/** `move` from commerce into customer, and another `move` from customer into archive. */
function sameNameTwice(): ClusterBuilder {
  return cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['0'] })
    .keyspace('archive', { shards: ['0'] })
    .moveTables('move', { from: 'commerce', to: 'customer', tables: ['customer'] })
    .moveTables('move', { from: 'customer', to: 'archive', tables: ['old_orders'] });
}

checkTester(check, {
  valid: [
    { name: 'healthy Reshard with other workflows into the keyspace', model: reshardScenario() },
    {
      name: 'a forward workflow and its reverse have different names',
      reasons: ['sameNameInOtherKeyspaces'],
      model: cluster()
        .keyspace('commerce', { shards: ['0'] })
        .keyspace('customer', { shards: ['0'] })
        .moveTables('move', { from: 'commerce', to: 'customer', tables: ['customer'] })
        .moveTables('move_reverse', { from: 'customer', to: 'commerce', tables: ['customer'] }),
    },
    {
      name: 'a name shared by workflows that are not selected is not reported',
      reasons: ['sameNameInOtherKeyspaces'],
      model: sameNameTwice()
        .moveTables('other', { from: 'commerce', to: 'archive', tables: ['x'] })
        .select({ workflows: ['other'] }),
    },
    {
      name: 'unnamed rows are not a workflow name',
      reasons: ['sameNameInOtherKeyspaces'],
      model: cluster()
        .keyspace('a', { shards: ['0'] })
        .keyspace('b', { shards: ['0'] })
        .stream('a', '0', 1, {
          workflow: '',
          type: 'Materialize',
          sourceKeyspace: 'b',
          sourceShard: '0',
          rules: [{ match: 't', filter: 'select * from t' }],
        })
        .stream('b', '0', 1, {
          workflow: '',
          type: 'Materialize',
          sourceKeyspace: 'a',
          sourceShard: '0',
          rules: [{ match: 't', filter: 'select * from t' }],
        }),
    },
  ],
  invalid: [
    {
      name: 'the same name in two target keyspaces, both selected',
      model: sameNameTwice(),
      findings: [
        {
          keyspace: 'archive',
          workflow: 'move',
          message: joinRegExp(
            /^workflow name move of MoveTables archive\.move is also /,
            /used in keyspace customer \(MoveTables from commerce\)$/,
          ),
          details: { reason: 'sameNameInOtherKeyspaces', otherKeyspaces: ['customer'] },
        },
        {
          keyspace: 'customer',
          workflow: 'move',
          message: joinRegExp(
            /^workflow name move of MoveTables customer\.move is also /,
            /used in keyspace archive \(MoveTables from customer\)$/,
          ),
          details: { reason: 'sameNameInOtherKeyspaces', otherKeyspaces: ['archive'] },
        },
      ],
    },
    {
      name: 'only the selected keyspace is reported; the other one was read but not selected',
      model: sameNameTwice().select({ keyspaces: ['customer'], workflows: ['move'] }),
      findings: [{ keyspace: 'customer', workflow: 'move', details: { otherKeyspaces: ['archive'] } }],
    },
  ],
});

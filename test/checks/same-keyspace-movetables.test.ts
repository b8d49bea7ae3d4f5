/**
 * same-keyspace-movetables. Field evidence: vitessio/vitess #19011 and #20368 (create accepts
 * source == target; SwitchTraffic refuses via `validateMoveTablesSourceKeyspace`; cancel --keep-data=false drops the
 * source table).
 */
import check from '../../checks/same-keyspace-movetables.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

const base = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'] });

checkTester(check, {
  valid: [
    {
      name: 'a MoveTables between two keyspaces',
      model: base().moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] }),
    },
    {
      name: 'a Reshard reads its own keyspace by design',
      reasons: ['sourceIsTarget'],
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
    },
    {
      name: 'an intra-keyspace Materialize is legitimate',
      model: base().materialize('agg', { from: 'commerce', to: 'commerce', tables: ['sales'] }),
    },
  ],
  invalid: [
    {
      name: 'MoveTables --source-keyspace commerce --target-keyspace commerce (#20368)',
      model: base().moveTables('oops', { from: 'commerce', to: 'commerce', tables: ['customer'] }),
      findings: [
        {
          keyspace: 'commerce',
          workflow: 'oops',
          message:
            'MoveTables commerce.oops reads from its own keyspace commerce: SwitchTraffic refuses it, so it can never complete, and a cancel without --keep-data drops the tables it copies from',
          details: {
            reason: 'sourceIsTarget',
            sourceKeyspaces: ['commerce'],
            streams: [{ shard: '0', streamId: 1, sourceShard: '0' }],
          },
        },
      ],
    },
  ],
});

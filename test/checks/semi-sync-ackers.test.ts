/**
 * semi-sync-ackers: #3951 (InitShardMaster hangs without a replica), #2385, #7446, #17749; upstream
 * durability.go `IsReplicaSemiSync` (REPLICA; another cell for cross_cell; RDONLY only with `_with_rdonly_ack`).
 */
import check from '../../checks/semi-sync-ackers.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';

/** commerce/0 → customer -80, 80- (tablets in zone1): MoveTables commerce2customer. */
const moveTables = (durabilityPolicy: string, replicas = 1) =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80', '80-'], durabilityPolicy, replicas })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'] });

checkTester(check, {
  valid: [
    { name: 'semi_sync with a replica on every target shard', model: moveTables('semi_sync') },
    { name: 'durability none needs no ACK', model: moveTables('none', 0), reasons: ['noSemiSyncAcker'] },
    {
      name: 'cross_cell with a replica in another cell',
      model: moveTables('cross_cell')
        .addTablet('customer', '-80', { cell: 'zone2', uid: 900, type: 'REPLICA' })
        .addTablet('customer', '80-', { cell: 'zone2', uid: 901, type: 'REPLICA' }),
      reasons: ['noSemiSyncAcker'],
    },
    {
      name: 'an RDONLY acknowledges under semi_sync_with_rdonly_ack',
      model: moveTables('semi_sync_with_rdonly_ack', 0)
        .addTablet('customer', '-80', { cell: 'zone1', uid: 900, type: 'RDONLY' })
        .addTablet('customer', '80-', { cell: 'zone1', uid: 901, type: 'RDONLY' }),
      reasons: ['noSemiSyncAcker'],
    },
  ],
  invalid: [
    {
      name: 'semi_sync target shards built without replicas (#3951)',
      model: moveTables('semi_sync', 0),
      findings: [
        {
          reason: 'noSemiSyncAcker',
          severity: 'warning',
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          message:
            "target shard customer/-80 of commerce2customer has no tablet that can acknowledge its primary zone1-0000000110's writes under durability policy semi_sync (no other tablet): commits on it wait for an ACK that never comes",
        },
        { reason: 'noSemiSyncAcker', shard: '80-' },
      ],
    },
    {
      name: 'cross_cell with replicas in the primary cell only',
      model: moveTables('cross_cell'),
      findings: [
        { reason: 'noSemiSyncAcker', shard: '-80', details: { durabilityPolicy: 'cross_cell', primaryCell: 'zone1' } },
        { reason: 'noSemiSyncAcker', shard: '80-' },
      ],
    },
    {
      name: 'an RDONLY does not acknowledge under semi_sync',
      model: moveTables('semi_sync', 0).addTablet('customer', '-80', { cell: 'zone1', uid: 900, type: 'RDONLY' }),
      findings: [
        { reason: 'noSemiSyncAcker', shard: '-80' },
        { reason: 'noSemiSyncAcker', shard: '80-' },
      ],
    },
  ],
});

import check from '../../checks/reverse-tablets-missing.js';
import { checkTester } from '../helpers/check-tester.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** commerce/0 → customer -80, 80-: MoveTables commerce2customer with the given tablet_types on every stream. */
const moveTables = (tabletTypes: string, cell = '') => {
  const b = moveTablesScenario(['customer']);
  for (const shard of ['-80', '80-']) b.patchStream('customer', shard, 1, { tablet_types: tabletTypes, cell });
  return b;
};

checkTester(check, {
  valid: [
    {
      name: "the default types (replica,rdonly,primary): every target shard's primary qualifies",
      model: moveTables(''),
      reasons: ['noTabletForReverse'],
    },
    { name: 'REPLICA tablets in the primary cell', model: moveTables('REPLICA'), reasons: ['noTabletForReverse'] },
    {
      name: 'a listed cell that is no tablet cell (a cell alias?) is not judged',
      model: moveTables('RDONLY', 'zone_alias'),
      reasons: ['noTabletForReverse'],
    },
    {
      name: 'a frozen workflow (writes switched) is not switched again',
      model: moveTables('RDONLY').patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' }),
    },
  ],
  invalid: [
    {
      // server.go switchWrites → utils.go areTabletsAvailableToStreamFrom(…, ts.TargetKeyspaceName(),
      // ts.TargetShards()).
      name: 'tablet_types RDONLY and no RDONLY tablet on the target shards',
      model: moveTables('RDONLY'),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          message:
            'target shard customer/-80 of commerce2customer has no RDONLY tablet in zone1, so the reverse workflow would have nothing to stream from',
          details: {
            reason: 'noTabletForReverse',
            vitessError:
              'no tablets were available to stream from in the customer keyspace: no tablet found to source data in keyspace customer, shard -80',
          },
        },
        { shard: '80-', details: { reason: 'noTabletForReverse' } },
      ],
    },
  ],
});

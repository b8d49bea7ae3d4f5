/**
 * time-zone-tables: #10668, #17860, vitess-operator#697; materializer.go `unable to perform time_zone
 * conversions from %s to UTC` (create only); traffic_switcher.go `createReverseVReplication` swaps the zones.
 */
import check from '../../checks/time-zone-tables.js';
import { checkTester } from '../helpers/check-tester.js';
import { sourceText } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** A forward stream of commerce/0 converting from `zone` (empty: no conversion). */
const source = (zone: string) =>
  sourceText({ keyspace: 'commerce', shard: '0', rules: [{ match: 'customer', filter: 'select * from customer' }] }) +
  (zone ? ` source_time_zone:"${zone}" target_time_zone:"UTC"` : '');

/** commerce/0 → customer -80, 80-: MoveTables with --source-time-zone `zone`; `loaded` per primary (c0, -80, 80-). */
const moveTables = (zone: string, loaded: [boolean, boolean, boolean]) =>
  moveTablesScenario(['customer'])
    .patchStream('customer', '-80', 1, { source: source(zone) })
    .patchStream('customer', '80-', 1, { source: source(zone) })
    .primaryRead('commerce', '0', 'timeZoneTables', loaded[0])
    .primaryRead('customer', '-80', 'timeZoneTables', loaded[1])
    .primaryRead('customer', '80-', 'timeZoneTables', loaded[2]);

checkTester(check, {
  valid: [
    { name: 'every primary has its time-zone tables', model: moveTables('US/Pacific', [true, true, true]) },
    {
      name: 'no --source-time-zone: nothing converts',
      model: moveTables('', [false, false, false]),
      reasons: ['targetWithoutTimeZoneTables', 'sourceWithoutTimeZoneTables'],
    },
    {
      name: 'a primary whose probe failed is not judged',
      model: moveTables('US/Pacific', [true, true, true]).primaryReadFails(
        'customer',
        '-80',
        'timeZoneTables',
        'denied',
      ),
      reasons: ['targetWithoutTimeZoneTables'],
    },
  ],
  invalid: [
    {
      name: 'a target primary without time-zone tables (#10668)',
      model: moveTables('US/Pacific', [true, false, true]),
      findings: [
        {
          reason: 'targetWithoutTimeZoneTables',
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message:
            'the streams of customer.commerce2customer convert datetimes from US/Pacific on target primaries without time-zone tables (customer/-80): CONVERT_TZ answers NULL there, so the copied datetimes are wrong',
          details: { sourceTimeZone: ['US/Pacific'], shards: ['-80'] },
        },
      ],
    },
    {
      name: 'the source primary, where the reverse streams convert back, has none (vitess-operator#697)',
      model: moveTables('US/Pacific', [false, true, true]),
      findings: [{ reason: 'sourceWithoutTimeZoneTables', details: { shards: ['commerce/0'] } }],
    },
  ],
});

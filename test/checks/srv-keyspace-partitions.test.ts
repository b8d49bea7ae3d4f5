/**
 * srv-keyspace-partitions: corrupt serving partitions (vitessio/vitess#7481: `keyspace partition for MASTER in cell
 * xxxx does not start with min key`; `OrderAndCheckPartitions`, go/vt/topo/srv_keyspace.go:698–717 @v0.24.4, wrapped
 * `Before switching shard reads, found SrvKeyspace for %s is corrupt in cell %s` (traffic_switcher.go:628 @v0.24.4,
 * the joined SwitchTraffic `--cells`, empty without them) and `failed to switch read traffic for the shards`
 * (server.go:3113 @v0.24.4); `ValidateSrvKeyspace` expands `""` to every cell, srv_keyspace.go:726–741 @v0.24.4) and
 * writes switched before reads ( #20923/#20924, #10421).
 */
import check from '../../checks/srv-keyspace-partitions.js';
import { DEFAULT_ACTION_REQUEST, type TabletTypeName } from '../../src/engine/options.js';
import type { SrvKeyspaceRecord } from '../../src/readout.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

type Refs = readonly [string, { start: string; end: string } | null][];
const part = (servedType: string, shards: Refs) => ({
  servedType,
  shards: shards.map(([name, keyRange]) => ({ name, keyRange })),
  shardTabletControls: [],
});
const ZERO: Refs = [['0', null]];
const HALVES: Refs = [
  ['-80', { start: '', end: '80' }],
  ['80-', { start: '80', end: '' }],
];
const srv = (replica: Refs, rdonly: Refs = ZERO): SrvKeyspaceRecord => ({
  partitions: [part('PRIMARY', ZERO), part('REPLICA', replica), part('RDONLY', rdonly)],
});

/** customer 0 → -80, 80-: Reshard cust2cust, tablets in zone1 (a primary and a replica per shard, no RDONLY). */
const reshard = (replica: Refs = ZERO, rdonly: Refs = ZERO) =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
    .servingGraph()
    .srvKeyspace('customer', srv(replica, rdonly));

/** commerce/0 → customer -80, 80-: MoveTables (a TABLES migration validates no SrvKeyspace). */
const moveTables = () =>
  moveTablesScenario(['customer'])
    .servingGraph()
    .srvKeyspace('customer', srv([['-80', { start: '', end: '80' }]]));

const switchWith = (tabletTypes: TabletTypeName[]) => ({
  action: { ...DEFAULT_ACTION_REQUEST, tabletTypes },
});
const switchIn = (cells: string[]) => ({ action: { ...DEFAULT_ACTION_REQUEST, cells } });
const WRAP =
  'failed to switch read traffic for the shards: Before switching shard reads, found SrvKeyspace for customer';

/** zone1 whole; zone2 holds a REPLICA partition without its first shard; the streams were created --cells zone1. */
const corruptInZone2 = () =>
  reshard()
    .addTablet('customer', '0', { cell: 'zone2', uid: 900, type: 'REPLICA' })
    .servingGraph()
    .srvKeyspace('customer', srv(ZERO))
    .srvKeyspace('customer', srv([['80-', { start: '80', end: '' }]]), ['zone2'])
    .patchStream('customer', '-80', 1, { cell: 'zone1' })
    .patchStream('customer', '80-', 1, { cell: 'zone1' });

checkTester(check, {
  valid: [
    { name: 'every partition whole before the read switch', model: reshard() },
    { name: 'REPLICA reads already on the new shards: whole too', model: reshard(HALVES) },
    {
      name: 'a MoveTables does not validate the SrvKeyspace (a TABLES migration)',
      model: moveTables(),
      reasons: ['endNotMaxKey'],
    },
    {
      name: 'a corrupt partition in a cell outside SwitchTraffic --cells is not validated',
      model: corruptInZone2(),
      options: switchIn(['zone1']),
      reasons: ['startNotMinKey'],
    },
    {
      name: 'a gapless partition of ranges is contiguous',
      model: reshard([
        ['-40', { start: '', end: '40' }],
        ['40-80', { start: '40', end: '80' }],
        ['80-', { start: '80', end: '' }],
      ]),
      reasons: ['nonContiguous', 'inconsistentKeyRanges'],
    },
    {
      name: 'default --tablet-types switch reads with the writes',
      model: reshard(),
      reasons: ['writesBeforeReads'],
    },
    {
      name: '--tablet-types primary once every read type is switched',
      model: reshard(HALVES, HALVES),
      options: switchWith(['primary']),
      reasons: ['writesBeforeReads'],
    },
    {
      name: '--tablet-types primary on a frozen workflow: writes already switched, nothing is validated',
      model: reshard([['80-', { start: '80', end: '' }]], HALVES)
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'FROZEN' }),
      options: switchWith(['primary']),
      reasons: ['corruptAtWriteSwitch'],
    },
  ],
  invalid: [
    {
      name: 'a REPLICA partition missing its first shard does not start with min key (PR #7481)',
      model: reshard([['80-', { start: '80', end: '' }]]),
      findings: [
        {
          reason: 'startNotMinKey',
          severity: 'error',
          keyspace: 'customer',
          workflow: 'cust2cust',
          message:
            "the REPLICA partition of customer's SrvKeyspace in cell zone1 is corrupt (shards 80-): SwitchTraffic of cust2cust validates it before switching reads",
          details: {
            cell: 'zone1',
            vitessError: `${WRAP} is corrupt in cell : keyspace partition for REPLICA in cell zone1 does not start with min key`,
            cellsValidated: 'every cell (no --cells)',
          },
        },
      ],
    },
    {
      name: 'a partition missing its last shard does not end with max key',
      model: reshard([['-80', { start: '', end: '80' }]]),
      findings: [
        {
          reason: 'endNotMaxKey',
          details: {
            vitessError: `${WRAP} is corrupt in cell : keyspace partition for REPLICA in cell zone1 does not end with max key`,
          },
        },
      ],
    },
    {
      name: 'a gap between two shards is non-contiguous (hex ends and starts)',
      model: reshard([
        ['-40', { start: '', end: '40' }],
        ['80-', { start: '80', end: '' }],
      ]),
      findings: [
        {
          reason: 'nonContiguous',
          details: {
            vitessError: `${WRAP} is corrupt in cell : non-contiguous KeyRange values for REPLICA in cell zone1 at shard 0 to 1: 40 != 80`,
          },
        },
      ],
    },
    {
      name: 'the old unranged shard beside the new ranged ones: inconsistent KeyRanges',
      model: reshard([['0', null], ...HALVES]),
      findings: [
        {
          reason: 'inconsistentKeyRanges',
          details: {
            vitessError: `${WRAP} is corrupt in cell : shards with inconsistent KeyRanges for REPLICA in cell zone1. shards: name:"0", name:"-80" key_range:{end:"\\x80"}`,
          },
        },
      ],
    },
    {
      name: "without --cells every cell is validated, the workflow's own cells regardless",
      model: corruptInZone2(),
      findings: [
        {
          reason: 'startNotMinKey',
          details: {
            cell: 'zone2',
            vitessError: `${WRAP} is corrupt in cell : keyspace partition for REPLICA in cell zone2 does not start with min key`,
          },
        },
      ],
    },
    {
      name: 'with SwitchTraffic --cells only those cells are validated, and the wrap names them',
      model: corruptInZone2(),
      options: switchIn(['zone2', 'zone1']),
      findings: [
        {
          reason: 'startNotMinKey',
          details: {
            cell: 'zone2',
            cellsValidated: ['zone2', 'zone1'],
            vitessError: `${WRAP} is corrupt in cell zone2,zone1: keyspace partition for REPLICA in cell zone2 does not start with min key`,
          },
        },
      ],
    },
    {
      name: '--tablet-types primary: no read validation, changeShardRouting refuses after the point of no return',
      model: reshard([['80-', { start: '80', end: '' }]], HALVES),
      options: switchWith(['primary']),
      findings: [
        {
          reason: 'corruptAtWriteSwitch',
          severity: 'error',
          details: {
            cell: 'zone1',
            corruption: 'startNotMinKey',
            vitessText:
              'Before changing shard routes, found SrvKeyspace for customer is corrupt: keyspace partition for REPLICA in cell zone1 does not start with min key',
          },
        },
      ],
    },
    {
      name: '--tablet-types primary while REPLICA and RDONLY reads serve from the source (#10421)',
      model: reshard(),
      options: switchWith(['primary']),
      findings: [
        {
          reason: 'writesBeforeReads',
          severity: 'warning',
          details: { tabletType: 'REPLICA', cellsNotSwitched: ['zone1'], cellsWithoutTablets: [] },
        },
        {
          reason: 'writesBeforeReads',
          severity: 'warning',
          message:
            '--tablet-types primary switches the writes of customer.cust2cust while RDONLY reads are still served by the source in cell zone1 (no RDONLY tablets in zone1): Complete refuses until they are switched',
          details: { tabletType: 'RDONLY', cellsNotSwitched: ['zone1'], cellsWithoutTablets: ['zone1'] },
        },
      ],
    },
    {
      name: '--tablet-types replica,primary leaves RDONLY unswitched in a keyspace without RDONLY tablets (#20923)',
      model: reshard(),
      options: switchWith(['replica', 'primary']),
      findings: [{ reason: 'writesBeforeReads', details: { tabletType: 'RDONLY', cellsWithoutTablets: ['zone1'] } }],
    },
  ],
});

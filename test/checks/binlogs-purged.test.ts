import check from '../../checks/binlogs-purged.js';
import { parseGtidSet } from '../../src/vitess/position.js';
import { checkTester } from '../helpers/check-tester.js';
import { gtidPos, serverUuid, sourceText } from '../helpers/cluster.js';
import { moveTablesScenario, reshardScenario, shardedRule } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

const A = serverUuid('commerce', '0');
const PRIMARY = 'zone1-0000000100';
const REPLICA = 'zone1-0000000101';
const X = '11111111-1111-1111-1111-111111111111';
const enc = (set: string) => parseGtidSet(set).toString();

const moveTables = () => moveTablesScenario();

/** Sets `tablet_types` on both streams. */
const types = (b: ReturnType<typeof moveTables>, tabletTypes: string) =>
  b
    .patchStream('customer', '-80', 1, { tablet_types: tabletTypes })
    .patchStream('customer', '80-', 1, { tablet_types: tabletTypes });

/** Both commerce/0 tablets purged up to `n`. */
const purgedBoth = (n: number) =>
  moveTables()
    .fullStatusOf(PRIMARY, { gtidPurged: `${A}:1-${n}` })
    .fullStatusOf(REPLICA, { gtidPurged: `${A}:1-${n}` });

checkTester(check, {
  valid: [
    { name: 'healthy MoveTables (nothing purged)', model: moveTables() },
    { name: 'healthy Reshard with an external MoveTables', model: reshardScenario() },
    {
      name: 'purged transactions the streams already applied',
      reasons: ['purgedOnEverySource'],
      model: purgedBoth(900),
    },
    {
      name: 'a stream that has not started copying (zero position) takes a fresh snapshot',
      reasons: ['purgedOnEverySource'],
      model: purgedBoth(5000)
        .patchStream('customer', '-80', 1, { pos: '', copyTables: ['customer', 'corder'] })
        .patchStream('customer', '80-', 1, { pos: '', copyTables: ['customer'] }),
    },
    {
      name: 'a FROZEN stream never resumes',
      reasons: ['purgedOnEverySource'],
      model: purgedBoth(5000)
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'FROZEN' }),
    },
    {
      name: 'source tablets whose status was not read are not judged',
      reasons: ['purgedOnEverySource', 'purgedOnSomeSources'],
      model: moveTables()
        .fullStatusOf(PRIMARY, { error: 'rpc error: code = Unavailable' })
        .fullStatusOf(REPLICA, { error: 'rpc error: code = Unavailable' }),
    },
    {
      name: 'a purged replica the stream may not read (tablet_types PRIMARY) does not matter',
      reasons: ['purgedOnSomeSources'],
      model: moveTables()
        .fullStatusOf(REPLICA, { gtidPurged: `${A}:1-5000` })
        .patchStream('customer', '-80', 1, { tablet_types: 'PRIMARY' })
        .patchStream('customer', '80-', 1, { tablet_types: 'in_order:primary' }),
    },
    {
      name: 'in_order:REPLICA,PRIMARY with only the primary purged: the picker reads from the replica',
      reasons: ['purgedOnSomeSources'],
      model: types(moveTables().fullStatusOf(PRIMARY, { gtidPurged: `${A}:1-5000` }), 'in_order:REPLICA,PRIMARY'),
    },
    {
      name: 'MariaDB positions are not compared',
      model: moveTables()
        .fullStatusOf(PRIMARY, { gtidPurged: '0-1-5000' })
        .fullStatusOf(REPLICA, { gtidPurged: '0-1-5000' })
        .patchStream('customer', '-80', 1, { pos: 'MariaDB/0-1-1000' })
        .patchStream('customer', '80-', 1, { pos: 'MariaDB/0-1-1000' }),
    },
    {
      name: 'a stream from an external cluster is not compared with a local shard of the same name',
      reasons: ['purgedOnEverySource'],
      model: purgedBoth(5000)
        .patchStream('customer', '-80', 1, {
          source: sourceText({
            keyspace: 'commerce',
            shard: '0',
            externalCluster: 'legacy',
            rules: [shardedRule('customer', '-80')],
          }),
        })
        .patchStream('customer', '80-', 1, {
          source: sourceText({
            keyspace: 'commerce',
            shard: '0',
            externalCluster: 'legacy',
            rules: [shardedRule('customer', '80-')],
          }),
        }),
    },
  ],
  invalid: [
    {
      name: 'every tablet the streams may read from purged transactions they still need',
      model: types(purgedBoth(1500), 'REPLICA,PRIMARY'),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          workflow: 'commerce2customer',
          streamId: 1,
          tablet: 'zone1-0000000110',
          message: joinRegExp(
            /^stream 1 of commerce2customer on customer\/-80 needs up to 500 transactions that source commerce\/0 /,
            /has purged from the binary /,
            /logs of every tablet it may read from \(zone1-0000000100 \(PRIMARY\), zone1-0000000101 \(REPLICA\)\), /,
            /so it can never catch up$/,
          ),
          details: {
            reason: 'purgedOnEverySource',
            sourceKeyspace: 'commerce',
            sourceShard: '0',
            tabletTypes: 'REPLICA,PRIMARY',
            candidateTablets: [PRIMARY, REPLICA],
            unreadTablets: 0,
            purgedOn: [
              {
                tablet: PRIMARY,
                type: 'PRIMARY',
                gtidPurged: `${A}:1-1500`,
                missing: `${A}:1001-1500`,
                missingCount: 500,
              },
              {
                tablet: REPLICA,
                type: 'REPLICA',
                gtidPurged: `${A}:1-1500`,
                missing: `${A}:1001-1500`,
                missingCount: 500,
              },
            ],
          },
        },
        { shard: '80-', streamId: 1, details: { reason: 'purgedOnEverySource' } },
      ],
    },
    {
      name: 'default in_order:REPLICA,PRIMARY and the replica purged: the picker keeps choosing the replica',
      model: moveTables().fullStatusOf(REPLICA, { gtidPurged: `${A}:1-1200` }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          message: joinRegExp(
            /needs 200 transactions that source commerce\/0 has purged from the binary /,
            /logs of every tablet it may read from \(zone1-0000000101 \(REPLICA\)\)/,
          ),
          details: {
            reason: 'purgedOnEverySource',
            tabletTypes: 'in_order:REPLICA,PRIMARY',
            candidateTablets: [REPLICA],
          },
        },
        { shard: '80-', streamId: 1, details: { reason: 'purgedOnEverySource' } },
      ],
    },
    {
      name: 'only the replica purged them among REPLICA,PRIMARY: a warning, the stream fails whenever it picks the replica',
      model: types(moveTables().fullStatusOf(REPLICA, { gtidPurged: `${A}:1-1001` }), 'REPLICA,PRIMARY').patchStream(
        'customer',
        '80-',
        1,
        { pos: gtidPos('commerce', '0', 1001) },
      ),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          message: joinRegExp(
            /needs 1 transaction that source commerce\/0 has purged from the binary logs of 1 of the 2 tablets /,
            /it may read from \(zone1-0000000101 \(REPLICA\)\), so it fails whenever it picks one of them$/,
          ),
          details: {
            reason: 'purgedOnSomeSources',
            purgedOn: [
              { tablet: REPLICA, type: 'REPLICA', gtidPurged: `${A}:1-1001`, missing: `${A}:1001`, missingCount: 1 },
            ],
          },
        },
      ],
    },
    {
      name: 'gtid_purged with a flavor prefix and a newline after the comma, as MySQL prints it',
      model: moveTables().fullStatusOf(REPLICA, { gtidPurged: `MySQL56/${A}:1-1000,\n${X}:1-3` }),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          details: {
            reason: 'purgedOnEverySource',
            purgedOn: [
              {
                tablet: REPLICA,
                type: 'REPLICA',
                gtidPurged: enc(`${A}:1-1000,${X}:1-3`),
                missing: `${X}:1-3`,
                missingCount: 3,
              },
            ],
          },
        },
        { shard: '80-', streamId: 1, details: { reason: 'purgedOnEverySource' } },
      ],
    },
    {
      name: 'tablet_types PRIMARY only and the primary purged: an error',
      model: types(moveTables().fullStatusOf(PRIMARY, { gtidPurged: `${A}:1-2000` }), 'PRIMARY'),
      findings: [
        {
          shard: '-80',
          streamId: 1,
          details: { reason: 'purgedOnEverySource', candidateTablets: [PRIMARY], tabletTypes: 'PRIMARY' },
        },
        { shard: '80-', streamId: 1, details: { reason: 'purgedOnEverySource' } },
      ],
    },
    {
      name: 'the replica status was not read and the primary purged: a warning, not an error',
      model: types(
        moveTables()
          .fullStatusOf(PRIMARY, { gtidPurged: `${A}:1-2000` })
          .fullStatusOf(REPLICA, { error: 'timeout' }),
        'PRIMARY,REPLICA',
      ),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          details: { reason: 'purgedOnSomeSources', unreadTablets: 1 },
        },
        {
          severity: 'warning',
          shard: '80-',
          streamId: 1,
          details: { reason: 'purgedOnSomeSources', unreadTablets: 1 },
        },
      ],
    },
  ],
});

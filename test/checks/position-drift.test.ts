import check from '../../checks/position-drift.js';
import { parsePosition } from '../../src/vitess/position.js';
import { checkTester } from '../helpers/check-tester.js';
import { gtidPos, serverUuid, sourceText } from '../helpers/cluster.js';
import { moveTablesScenario, reshardScenario, shardedRule } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

const A = serverUuid('commerce', '0');
const X = '11111111-1111-1111-1111-111111111111';
const Y = '22222222-2222-2222-2222-222222222222';
const COMMERCE_PRIMARY = 'zone1-0000000100';
const COMMERCE_REPLICA = 'zone1-0000000101';
const enc = (text: string) => parsePosition(text).toString();

const moveTables = () => moveTablesScenario();

const incomparable = () =>
  reshardScenario()
    .fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: `MySQL56/${A}:1-1000,${X}:1-5,${Y}:1-3` })
    .patchStream('customer', '-80', 1, { pos: `MySQL56/${A}:1-1000,${X}:1-5` })
    .patchStream('customer', '80-', 1, { pos: `MySQL56/${A}:1-1000,${Y}:1-3` });

checkTester(check, {
  valid: [
    {
      name: 'the resharded keyspace vschema was not read: reference streams cannot be told apart, the migrator is not judged',
      reasons: ['positionsNotOrdered'],
      model: incomparable().vschemaUnreadable('customer'),
    },
    {
      name: 'healthy Reshard with an external MoveTables and a reference Materialize',
      reasons: ['positionUnparsable'],
      model: reshardScenario(),
    },
    { name: 'healthy MoveTables', model: moveTables() },
    {
      name: 'migrated streams at different but ordered positions can be synchronised',
      reasons: ['positionsNotOrdered', 'stopPositionNotExecuted', 'stopPositionNotOnPrimary'],
      model: reshardScenario().patchStream('customer', '-80', 1, { pos: gtidPos('commerce', '0', 900) }),
    },
    {
      name: 'a position ahead of the executed set read earlier (busy source) is not errant',
      reasons: ['notInSourceGtids'],
      model: moveTables().patchStream('customer', '-80', 1, { pos: gtidPos('commerce', '0', 1010) }),
    },
    {
      name: 'MariaDB: a higher sequence in a known domain is not errant',
      reasons: ['notInSourceGtids'],
      model: moveTables()
        .fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: 'MariaDB/0-1-1000' })
        .patchStream('customer', '-80', 1, { pos: 'MariaDB/0-1-1005' })
        .patchStream('customer', '80-', 1, { pos: 'MariaDB/0-1-1000' }),
    },
    {
      name: 'source primary status not read: errant GTIDs are not judged',
      reasons: ['stopPositionNotExecuted', 'stopPositionNotOnPrimary'],
      model: moveTables()
        .fullStatusOf(COMMERCE_PRIMARY, { error: 'rpc error: code = Unavailable' })
        .patchStream('customer', '-80', 1, { pos: `MySQL56/${A}:1-1000,${X}:1-5` }),
    },
    {
      name: 'a stream from an external cluster is not compared with a local shard of the same name',
      model: moveTables().patchStream('customer', '-80', 1, {
        source: sourceText({
          keyspace: 'commerce',
          shard: '0',
          externalCluster: 'legacy',
          rules: [shardedRule('customer', '-80')],
        }),
        pos: `MySQL56/${X}:1-5000`,
      }),
    },
    {
      name: 'a stream that has not started (zero position) is skipped',
      reasons: ['positionNotGtidSet', 'positionUnparsable'],
      model: moveTables().patchStream('customer', '-80', 1, { pos: '', copyTables: ['customer'] }),
    },
    {
      name: 'a FROZEN stream off its stop position is left to frozen-workflow',
      reasons: ['stoppedOffStopPosition'],
      model: moveTables().patchStream('customer', '-80', 1, {
        state: 'Stopped',
        message: 'FROZEN',
        stop_pos: gtidPos('commerce', '0', 1000),
        pos: gtidPos('commerce', '0', 990),
      }),
    },
    {
      name: 'a Stopped stream exactly on its stop position is the expected end state',
      reasons: ['stoppedOffStopPosition', 'interruptedCutover'],
      model: moveTables().patchStream('customer', '-80', 1, {
        state: 'Stopped',
        message: 'Reached stopping position, done playing logs',
        stop_pos: gtidPos('commerce', '0', 1000),
      }),
    },
    {
      name: 'just under the far-behind threshold',
      reasons: ['farBehind'],
      model: moveTables().fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: gtidPos('commerce', '0', 100_999) }),
    },
    {
      name: 'a Stopped stream far behind is not reported as far behind',
      reasons: ['farBehind'],
      model: moveTables()
        .fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: gtidPos('commerce', '0', 500_000) })
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'Stopped by user' })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'Stopped by user' }),
    },
  ],
  invalid: [
    {
      name: 'a pos that is not a GTID set: Vitess fails to decode it when it reads the workflow',
      model: moveTables().patchStream('customer', '-80', 1, { pos: 'MySQL56/not-a-gtid-at-all' }),
      findings: [
        {
          reason: 'positionNotGtidSet',
          severity: 'error',
          shard: '-80',
          streamId: 1,
          details: {
            column: 'pos',
            vitessError: 'invalid MySQL 5.6 GTID set ("not-a-gtid-at-all"): expected uuid:interval',
          },
        },
      ],
    },
    {
      name: 'a pos whose server UUID does not parse: a decode error of other wording',
      model: moveTables().patchStream('customer', '-80', 1, { pos: 'MySQL56/zzzz:1-5' }),
      findings: [
        { reason: 'positionUnparsable', severity: 'error', shard: '-80', streamId: 1, details: { column: 'pos' } },
      ],
    },
    {
      name: 'migrated streams of one upstream shard at incomparable positions',
      model: incomparable(),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-',
          workflow: 'cust2cust',
          streamId: 1,
          tablet: 'zone1-0000000120',
          message: joinRegExp(
            /^stream 1 of commerce2customer on customer\/80-, which Reshard cust2cust migrates, is at a position /,
            /neither containing nor contained in that of stream 1 on -80, the furthest stream reading commerce:0/,
          ),
          details: {
            reason: 'positionsNotOrdered',
            // stream_migrator.go syncSourceStreams restarts stream 1 toward the pick, so verifyStreamPositions prints
            // its position after the sync, pos ∪ stop , not the position read before it.
            vitessError: `commerce:0: stream 1 position: ${enc(`MySQL56/${A}:1-1000,${X}:1-5,${Y}:1-3`)} does not match ${enc(`MySQL56/${A}:1-1000,${X}:1-5`)}`,
            upstream: 'commerce:0',
            stopPositionStream: { shard: '-80', streamId: 1, workflow: 'commerce2customer' },
            realRunOnly: true,
          },
        },
      ],
    },
    {
      name: 'the stop position holds GTIDs the source never executed: the catch-up waits never finish',
      model: reshardScenario()
        .patchStream('customer', '-80', 1, { pos: `MySQL56/${A}:1-1000,${X}:1-2` })
        .patchStream('customer', '80-', 1, { pos: gtidPos('commerce', '0', 900) }),
      findings: [
        {
          severity: 'error',
          shard: '-80',
          workflow: 'cust2cust',
          streamId: 1,
          message: joinRegExp(
            /^the stop position Reshard cust2cust's stream migrator would pick for commerce:0 \(stream 1 of /,
            /commerce2customer on /,
            /customer\/-80\) holds 2 transactions the source primary never executed, /,
            /nor any other tablet of commerce:0, /,
            /so 1 stream restarted to reach /,
            /it would wait/,
          ),
          details: {
            reason: 'stopPositionNotExecuted',
            notExecuted: `${X}:1-2`,
            notExecutedCount: 2,
            sourceTablet: COMMERCE_PRIMARY,
            waitingStreams: [{ shard: '80-', streamId: 1, workflow: 'commerce2customer' }],
          },
        },
        {
          severity: 'warning',
          shard: '-80',
          workflow: 'commerce2customer',
          streamId: 1,
          message: joinRegExp(
            /^stream 1 of commerce2customer on customer\/-80 holds 2 transactions /,
            /that source primary commerce\/0 \(zone1-0000000100\) never executed/,
          ),
          details: { reason: 'notInSourceGtids', notExecutedCount: 2, transactionsBehind: 0 },
        },
      ],
    },
    {
      // engine.go:841 @v0.24.4 (WaitForPos): each restarted stream waits for its own position to be AtLeast the stop
      // position; the replica that executed X:1-2 feeds them to every stream that picks it.
      name: 'the stop position holds GTIDs the primary lacks but the replica executed: a warning, not a refusal',
      model: reshardScenario()
        .fullStatusOf(COMMERCE_REPLICA, { replicationPosition: `MySQL56/${A}:1-1000,${X}:1-2` })
        .patchStream('customer', '-80', 1, { pos: `MySQL56/${A}:1-1000,${X}:1-2` })
        .patchStream('customer', '80-', 1, { pos: gtidPos('commerce', '0', 900) }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          workflow: 'cust2cust',
          streamId: 1,
          message:
            "the stop position Reshard cust2cust's stream migrator would pick for commerce:0 (stream 1 of commerce2customer on customer/-80) holds 2 transactions the source primary never executed, which zone1-0000000101 of commerce:0 executed: the 1 stream restarted to reach it reach it only when streaming from such a tablet, and wait until the switch times out otherwise",
          details: {
            reason: 'stopPositionNotOnPrimary',
            notExecuted: `${X}:1-2`,
            executedOn: [COMMERCE_REPLICA],
            waitingStreams: [{ shard: '80-', streamId: 1, workflow: 'commerce2customer' }],
          },
        },
        { severity: 'warning', shard: '-80', details: { reason: 'notInSourceGtids', notExecutedCount: 2 } },
      ],
    },
    {
      name: 'the stop position holds GTIDs the primary lacks and the replica did not answer GetFullStatus: a warning',
      model: reshardScenario()
        .fullStatusOf(COMMERCE_REPLICA, { error: 'UNAVAILABLE', kind: 'unavailable' })
        .patchStream('customer', '-80', 1, { pos: `MySQL56/${A}:1-1000,${X}:1-2` })
        .patchStream('customer', '80-', 1, { pos: gtidPos('commerce', '0', 900) }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          message: /which zone1-0000000101 of commerce:0, whose status was not read, may hold: /,
          details: { reason: 'stopPositionNotOnPrimary', statusNotRead: [COMMERCE_REPLICA] },
        },
        { severity: 'warning', shard: '-80', details: { reason: 'notInSourceGtids', notExecutedCount: 2 } },
      ],
    },
    {
      name: 'a GTID in a gap of the source executed set is errant',
      model: moveTables().fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: `MySQL56/${A}:1-500:502-1000` }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          workflow: 'commerce2customer',
          details: { reason: 'notInSourceGtids', notExecuted: `${A}:501`, notExecutedCount: 1 },
        },
        {
          severity: 'warning',
          shard: '80-',
          streamId: 1,
          details: { reason: 'notInSourceGtids', notExecuted: `${A}:501` },
        },
      ],
    },
    {
      name: 'errant GTIDs of a server the source never had, beside newer ones of its own',
      model: moveTables().patchStream('customer', '80-', 1, { pos: `MySQL56/${A}:1-1003,${Y}:7` }),
      findings: [
        {
          severity: 'warning',
          shard: '80-',
          streamId: 1,
          details: { reason: 'notInSourceGtids', notExecuted: `${Y}:7`, notExecutedCount: 1 },
        },
      ],
    },
    {
      name: 'MariaDB: a domain the source does not have is errant',
      model: moveTables()
        .fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: 'MariaDB/0-1-1000' })
        .patchStream('customer', '-80', 1, { pos: 'MariaDB/0-1-1000,5-9-10' })
        .patchStream('customer', '80-', 1, { pos: 'MariaDB/0-1-1000' }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          details: { reason: 'notInSourceGtids', notExecuted: '5-9-10', notExecutedCount: 1 },
        },
      ],
    },
    {
      name: 'a stream left Stopped "for cutover" by an interrupted Reshard switch',
      model: reshardScenario()
        .select({ workflows: ['cust2cust'] })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'for cutover' }),
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          shard: '80-',
          workflow: 'cust2cust',
          streamId: 1,
          message: joinRegExp(
            /^stream 1 of commerce2customer on customer\/80- is Stopped with /,
            /message "for cutover", left behind by an interrupted cutover$/,
          ),
          details: {
            reason: 'interruptedCutover',
            streamWorkflow: 'commerce2customer',
            migratedBy: 'cust2cust',
            message: 'for cutover',
          },
        },
      ],
    },
    {
      name: 'a selected stream still "synchronizing for cutover"',
      model: moveTables().patchStream('customer', '-80', 1, {
        message: 'synchronizing for cutover',
        stop_pos: gtidPos('commerce', '0', 1200),
      }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          workflow: 'commerce2customer',
          streamId: 1,
          details: { reason: 'interruptedCutover', stopPosition: enc(gtidPos('commerce', '0', 1200)) },
        },
      ],
    },
    {
      name: 'a Stopped stream short of its stop position',
      model: moveTables().patchStream('customer', '-80', 1, {
        state: 'Stopped',
        message: 'Stopped by user',
        stop_pos: gtidPos('commerce', '0', 1000),
        pos: gtidPos('commerce', '0', 900),
      }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          message: joinRegExp(
            /^stream 1 of commerce2customer on customer\/-80 is Stopped /,
            /short of its stop position instead of exactly on it$/,
          ),
          details: {
            reason: 'stoppedOffStopPosition',
            relation: 'behind',
            transactionsBehind: 100,
            stopPosition: enc(gtidPos('commerce', '0', 1000)),
          },
        },
      ],
    },
    {
      name: 'Running streams 199 000 transactions behind their source (info)',
      model: moveTables().fullStatusOf(COMMERCE_PRIMARY, { primaryPosition: gtidPos('commerce', '0', 200_000) }),
      findings: [
        {
          severity: 'info',
          shard: '-80',
          streamId: 1,
          message: /is 199000 transactions behind source primary commerce\/0 \(zone1-0000000100\)$/,
          details: { reason: 'farBehind', transactionsBehind: 199_000 },
        },
        { severity: 'info', shard: '80-', streamId: 1, details: { reason: 'farBehind' } },
      ],
    },
  ],
});

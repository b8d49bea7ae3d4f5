import check from '../../checks/source-not-serving.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster } from '../helpers/cluster.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp } from '../helpers/regexp.js';

// commerce/0: primary zone1-0000000100, replica …101; customer/-80: …110/…111; customer/80-: …120/…121.
const P = 'zone1-0000000100';
const R = 'zone1-0000000101';
const moveTables = () => moveTablesScenario();

const materialize = () =>
  cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards: ['-80'] })
    .materialize('mat', { from: 'commerce', to: 'customer', tables: ['customer'] });

const lookup = (owned: boolean) =>
  cluster()
    .keyspace('customer', { shards: ['-80', '80-'] })
    .keyspace('lookup', { shards: ['0'] })
    .lookup('corder_lookup', { from: 'customer', to: 'lookup', table: 'corder_lookup', ownerTable: 'corder', owned });

/** What a MariaDB tablet answers to GetFullStatus (measured on Vitess v24.0.4 with MariaDB 10.11). */
const MARIADB =
  "rpc error: code = Unknown desc = Unknown system variable 'super_read_only' (errno 1193) (sqlstate HY000) during query: SELECT @@global.super_read_only";

/** What a stream whose picker finds no source tablet may show (shown as Error by Vitess). */
const PICKER_ERROR = 'Error picking tablet: context deadline exceeded';

const BOTH = [
  { shard: '-80', streamId: 1 },
  { shard: '80-', streamId: 1 },
];

checkTester(check, {
  valid: [
    {
      name: 'healthy MoveTables',
      reasons: [
        'vstreamerNotOpen',
        'binlogFormatNotRow',
        'binlogFormatNotRowOnSome',
        'binlogDisabled',
        'binlogDisabledOnSome',
      ],
      model: moveTables(),
    },
    {
      name: 'healthy Reshard',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] }),
    },
    { name: 'healthy owned lookup backfill stopped after copy', model: lookup(true) },
    { name: 'healthy unowned lookup backfill running', model: lookup(false) },
    {
      name: 'NOBLOB on the source of a MoveTables',
      reasons: ['noblobSource', 'minimalRowImage', 'minimalRowImageOnSome'],
      model: moveTables().fullStatusOf(R, { binlogRowImage: 'NOBLOB' }).fullStatusOf(P, { binlogRowImage: 'NOBLOB' }),
    },
    {
      name: 'NOBLOB on the target primary of a MoveTables',
      reasons: ['targetRowImage', 'noblobNotSupported'],
      model: moveTables().fullStatusOf('zone1-0000000110', { binlogRowImage: 'NOBLOB' }),
    },
    {
      name: 'NOBLOB on the target primary of a Materialize (workflow type 0 passes)',
      reasons: ['noblobNotSupported'],
      model: materialize().fullStatusOf('zone1-0000000110', { binlogRowImage: 'NOBLOB' }),
    },
    {
      name: 'a FROZEN workflow no longer streams',
      model: moveTables()
        .fullStatusOf(R, { binlogRowImage: 'MINIMAL' })
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'FROZEN' })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'FROZEN' }),
    },
    {
      name: 'an owned lookup backfill stopped after copy does not validate its target any more',
      model: lookup(true).fullStatusOf('zone1-0000000120', { binlogRowImage: 'NOBLOB' }),
    },
    {
      name: 'a server that does not report binlog settings is not judged',
      model: moveTables().fullStatusOf(R, {
        binlogFormat: '',
        binlogRowImage: '',
        gtidMode: '',
        logBinEnabled: false,
        logReplicaUpdates: false,
      }),
    },
    {
      name: 'MariaDB reports no gtid_mode',
      reasons: ['gtidModeOff', 'gtidModeOffOnSome'],
      model: moveTables().fullStatusOf(R, { gtidMode: '' }).fullStatusOf(P, { gtidMode: '' }),
    },
    {
      // MariaDB tablets: FullStatus reads @@global.super_read_only (rpc_replication.go:136 @v0.24.4) and fails on every
      // one of them, while the tablet picker, which follows StreamHealth (tablet_picker.go:471 @v0.24.4), uses them.
      name: 'GetFullStatus answered with an error on every candidate (MariaDB): no sign the picker cannot use them',
      reasons: ['allCandidatesUnreachable', 'allCandidatesUnreachableWhileStreaming', 'someCandidatesUnreachable'],
      model: moveTables()
        .fullStatusOf(R, { error: MARIADB, code: 'UNKNOWN', kind: 'sql-error' })
        .fullStatusOf(P, { error: MARIADB, code: 'UNKNOWN', kind: 'sql-error' }),
    },
    {
      name: 'GetFullStatus timed out on every candidate: a stalled MySQL is no sign either',
      reasons: ['allCandidatesUnreachable'],
      model: moveTables()
        .fullStatusOf(R, { error: 'DEADLINE_EXCEEDED', kind: 'timeout', timedOut: true })
        .fullStatusOf(P, { error: 'DEADLINE_EXCEEDED', kind: 'timeout', timedOut: true }),
    },
    {
      name: 'GetFullStatus not asked: nothing to judge',
      model: moveTables().fullStatusNotAsked(R).fullStatusNotAsked(P),
    },
    {
      name: 'tablet list not read: candidates unknown',
      model: moveTables().fullStatusOf(R, { error: 'UNAVAILABLE' }).topologyUnreadable('tablets'),
    },
    {
      name: 'a primary without log_replica_updates is fine',
      reasons: ['logReplicaUpdatesOff'],
      model: moveTables().fullStatusOf(P, { logReplicaUpdates: false }),
    },
    {
      // vtctld died during the GetFullStatus calls; the source tablets were never asked (unreachable's
      // one finding about vtctld says so), so they are not blamed here.
      name: 'GetFullStatus failed because vtctld died: the source tablets are not blamed',
      reasons: ['allCandidatesUnreachable', 'someCandidatesUnreachable'],
      model: moveTables()
        .fullStatusOf(R, { error: 'UNAVAILABLE: connection refused', cause: 'vtctld' })
        .fullStatusOf(P, { error: 'UNAVAILABLE: connection refused', cause: 'vtctld' }),
    },
    {
      name: 'GetFullStatus not sent before the run deadline: the source tablets are not blamed',
      model: moveTables()
        .fullStatusOf(R, { error: 'not sent: the run deadline (--deadline) had passed', cause: 'deadline' })
        .fullStatusOf(P, { error: 'not sent: the run deadline (--deadline) had passed', cause: 'deadline' }),
    },
  ],
  invalid: [
    {
      name: 'VStreamer is not open in a stream message',
      model: moveTables().patchStream('customer', '80-', 1, {
        message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
      }),
      findings: [
        {
          keyspace: 'customer',
          shard: '80-',
          streamId: 1,
          workflow: 'commerce2customer',
          tablet: 'zone1-0000000120',
          message: `stream 1 of commerce2customer on customer/80- reports "VStreamer is not open": the tablet server of source tablet ${R} (REPLICA) in commerce/0, the one its picker tries first, is not connected to its MySQL`,
          details: {
            reason: 'vstreamerNotOpen',
            sourceTablet: R,
            candidates: [
              { tablet: R, type: 'REPLICA', fullStatus: 'answered' },
              { tablet: P, type: 'PRIMARY', fullStatus: 'answered' },
            ],
          },
        },
      ],
    },
    {
      name: 'VStreamer is not open with two REPLICA candidates: the one whose GetFullStatus failed is named',
      model: moveTables()
        .addTablet('commerce', '0', { cell: 'zone1', uid: 102, type: 'REPLICA' })
        .fullStatusOf('zone1-0000000102', { error: 'UNAVAILABLE', kind: 'unavailable' })
        .patchStream('customer', '80-', 1, {
          message: 'vttablet: rpc error: code = Unknown desc = VStreamer is not open',
        }),
      findings: [
        { reason: 'someCandidatesUnreachable' },
        {
          reason: 'vstreamerNotOpen',
          shard: '80-',
          message: /source tablet zone1-0000000102 \(REPLICA\) in commerce\/0, the one its picker tries first/,
          details: { reason: 'vstreamerNotOpen', sourceTablet: 'zone1-0000000102' },
        },
      ],
    },
    {
      // The streams do not stream (a picker error in their message): no source tablet serves them.
      name: 'no candidate source tablet could be reached (GetFullStatus UNAVAILABLE), the streams not streaming',
      model: moveTables()
        .fullStatusOf(R, { error: 'UNAVAILABLE', kind: 'unavailable' })
        .fullStatusOf(P, { error: 'UNAVAILABLE', kind: 'unavailable' })
        .patchStream('customer', '-80', 1, { message: PICKER_ERROR })
        .patchStream('customer', '80-', 1, { message: PICKER_ERROR }),
      findings: [
        {
          severity: 'error',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          shard: undefined,
          tablet: undefined,
          message: `no tablet of commerce/0 that 2 streams of workflow commerce2customer in customer may stream from could be reached on its gRPC port (GetFullStatus UNAVAILABLE: ${R} (REPLICA), ${P} (PRIMARY)), and not all of them are Running without an error, so they cannot stream from a working source tablet`,
          details: { reason: 'allCandidatesUnreachable', tablets: [R, P], streams: BOTH },
        },
      ],
    },
    {
      name: 'no candidate source tablet could be reached, one of the two streams Stopped: an error',
      model: moveTables()
        .fullStatusOf(R, { error: 'UNAVAILABLE', kind: 'unavailable' })
        .fullStatusOf(P, { error: 'UNAVAILABLE', kind: 'unavailable' })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'Stopped by user' }),
      findings: [{ severity: 'error', details: { reason: 'allCandidatesUnreachable', streams: BOTH } }],
    },
    {
      // SwitchTraffic calls no FullStatus, and its catch-up waits on the running streams (traffic_switcher.go:1032-1057
      // @v0.24.4); the picker dialled a source tablet from the target tablet, which vtctld's failure does not refute.
      name: 'no candidate reached by vtctld (UNAVAILABLE), the streams Running without an error: a warning',
      model: moveTables()
        .fullStatusOf(R, { error: 'UNAVAILABLE', kind: 'unavailable' })
        .fullStatusOf(P, { error: 'UNAVAILABLE', kind: 'unavailable' }),
      findings: [
        {
          severity: 'warning',
          keyspace: 'customer',
          workflow: 'commerce2customer',
          message: `no tablet of commerce/0 that 2 streams of workflow commerce2customer in customer may stream from could be reached by vtctld on its gRPC port (GetFullStatus UNAVAILABLE: ${R} (REPLICA), ${P} (PRIMARY)), but they are Running without an error on a connection made from the target tablet, which the catch-up waits on; a reconnect needs a source tablet the target can reach`,
          details: { reason: 'allCandidatesUnreachableWhileStreaming', tablets: [R, P], streams: BOTH },
        },
      ],
    },
    {
      name: 'one of two candidates could not be reached: warning',
      model: moveTables().fullStatusOf(R, { error: 'UNAVAILABLE', kind: 'unavailable' }),
      findings: [
        {
          severity: 'warning',
          tablet: R,
          message: `1 of the 2 tablets of commerce/0 that 2 streams of workflow commerce2customer in customer may stream from could not be reached on their gRPC port (GetFullStatus UNAVAILABLE: ${R} (REPLICA)), so they fail whenever they pick one of them`,
          details: { reason: 'someCandidatesUnreachable' },
        },
      ],
    },
    {
      name: 'MINIMAL on the replica the picker prefers: error',
      model: moveTables().fullStatusOf(R, { binlogRowImage: 'MINIMAL' }),
      findings: [
        {
          severity: 'error',
          tablet: R,
          message: `source tablet ${R} (REPLICA) of commerce/0 has binlog_row_image=MINIMAL, which VReplication rejects, so 2 streams of workflow commerce2customer in customer cannot stream from commerce/0`,
          details: {
            reason: 'minimalRowImage',
            streamError: 'minimal binlog_row_image is not supported by Vitess VReplication',
            preferred: [R],
          },
        },
      ],
    },
    {
      name: 'MINIMAL only on the primary, which in_order:REPLICA,PRIMARY tries last: warning',
      model: moveTables()
        .fullStatusOf(P, { binlogRowImage: 'MINIMAL' })
        .patchStream('customer', '80-', 1, { tablet_types: 'in_order:PRIMARY,REPLICA' }),
      findings: [
        {
          severity: 'warning',
          streamId: 1,
          shard: '-80',
          message: joinRegExp(
            /^source tablet zone1-0000000100 \(PRIMARY\) of commerce\/0 has binlog_row_image=MINIMAL, which /,
            /VReplication rejects, so stream 1 of commerce2customer on customer\/-80 fails whenever it picks it$/,
          ),
          details: { reason: 'minimalRowImageOnSome' },
        },
        {
          severity: 'error',
          streamId: 1,
          shard: '80-',
          message: /so stream 1 of commerce2customer on customer\/80- cannot stream from commerce\/0$/,
          details: { reason: 'minimalRowImage', preferred: [P] },
        },
      ],
    },
    {
      name: 'ROW, GTID and binary log settings off only on the primary, which the picker tries last: warnings',
      model: moveTables().fullStatusOf(P, { binlogFormat: 'STATEMENT', gtidMode: 'OFF', logBinEnabled: false }),
      findings: [
        { severity: 'warning', tablet: P, details: { reason: 'binlogFormatNotRowOnSome' } },
        { severity: 'warning', tablet: P, details: { reason: 'gtidModeOffOnSome' } },
        { severity: 'warning', tablet: P, details: { reason: 'binlogDisabledOnSome' } },
      ],
    },
    {
      name: 'statement-based binary logs on every candidate',
      model: moveTables().fullStatusOf(R, { binlogFormat: 'STATEMENT' }).fullStatusOf(P, { binlogFormat: 'MIXED' }),
      findings: [
        {
          severity: 'error',
          tablet: undefined,
          message: joinRegExp(
            /^source tablets zone1-0000000101 \(REPLICA\), zone1-0000000100 \(PRIMARY\) of /,
            /commerce\/0 have binlog_format=MIXED\/STATEMENT instead of ROW, so 2 streams/,
          ),
          details: { reason: 'binlogFormatNotRow', values: ['MIXED', 'STATEMENT'] },
        },
      ],
    },
    {
      name: 'GTID mode not ON on the replica',
      model: moveTables().fullStatusOf(R, { gtidMode: 'OFF_PERMISSIVE' }),
      findings: [
        {
          severity: 'error',
          tablet: R,
          message: /has gtid_mode=OFF_PERMISSIVE instead of ON, so 2 streams/,
          details: { reason: 'gtidModeOff' },
        },
      ],
    },
    {
      name: 'binary logging off on the replica',
      model: moveTables().fullStatusOf(R, { logBinEnabled: false }),
      findings: [
        {
          tablet: R,
          message: /has binary logging disabled \(log_bin=OFF\), so 2 streams/,
          details: { reason: 'binlogDisabled' },
        },
      ],
    },
    {
      name: 'replica without log_replica_updates',
      model: moveTables().fullStatusOf(R, { logReplicaUpdates: false }),
      findings: [
        {
          severity: 'warning',
          tablet: R,
          message: `source tablet ${R} (REPLICA) of commerce/0 has log_replica_updates=OFF, so its binary log lacks the transactions it replicates: 2 streams of workflow commerce2customer in customer miss replicated transactions whenever they stream from it`,
          details: { reason: 'logReplicaUpdatesOff' },
        },
      ],
    },
    {
      name: 'NOBLOB on the source of a Materialize: warning',
      model: materialize().fullStatusOf(R, { binlogRowImage: 'NOBLOB' }),
      findings: [
        {
          severity: 'warning',
          shard: '-80',
          streamId: 1,
          tablet: R,
          message: joinRegExp(
            /has binlog_row_image=NOBLOB, which VReplication supports only for MoveTables /,
            /and Reshard, so stream 1 of mat on customer\/-80 fails whenever it picks it$/,
          ),
          details: { reason: 'noblobSource' },
        },
      ],
    },
    {
      name: 'MINIMAL on the target primary',
      model: moveTables().fullStatusOf('zone1-0000000110', { binlogRowImage: 'MINIMAL' }),
      findings: [
        {
          keyspace: 'customer',
          shard: '-80',
          streamId: 1,
          tablet: 'zone1-0000000110',
          workflow: 'commerce2customer',
          message:
            'target primary zone1-0000000110 of customer/-80 has binlog_row_image=MINIMAL, so stream 1 of commerce2customer on customer/-80 fails on every start with "minimal binlog_row_image is not supported by Vitess VReplication"',
          details: {
            reason: 'targetRowImage',
            streamError: 'minimal binlog_row_image is not supported by Vitess VReplication',
          },
        },
      ],
    },
    {
      name: 'NOBLOB on the target primary of a lookup backfill',
      model: lookup(false).fullStatusOf('zone1-0000000120', { binlogRowImage: 'NOBLOB' }),
      findings: [
        {
          keyspace: 'lookup',
          shard: '0',
          tablet: 'zone1-0000000120',
          workflow: 'corder_lookup',
          streamId: undefined,
          message:
            'target primary zone1-0000000120 of lookup/0 has binlog_row_image=NOBLOB, so the 2 streams of corder_lookup on it fail on every start with "noblob binlog_row_image is not supported for CreateLookupIndex"',
          details: {
            reason: 'noblobNotSupported',
            streamError: 'noblob binlog_row_image is not supported for CreateLookupIndex',
            streams: [1, 2],
          },
        },
      ],
    },
  ],
});

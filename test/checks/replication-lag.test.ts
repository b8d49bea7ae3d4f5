import check from '../../checks/replication-lag.js';
import { givenVitessVersions } from '../../src/vitess/versions.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, gtidPos, NOW_SECONDS, serverUuid } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';

const base = () =>
  cluster()
    .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['-80', '80-'] })
    .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] });

checkTester(
  check,
  {
    valid: [
      { name: 'caught up', reasons: ['streamStopped', 'stoppedBehindSource'], model: base() },
      {
        name: 'exactly at the limit is allowed (Vitess compares with >)',
        reasons: ['transactionLag'],
        model: base().patchStream('customer', '-80', 1, {
          time_updated: NOW_SECONDS - 30,
          transaction_timestamp: NOW_SECONDS - 30,
        }),
      },
      {
        // workflows.go getVReplicationTrxLag: the last update was a heartbeat (time_updated == time_heartbeat), newer
        // than the last transaction: the stream is caught up; binlog_player.go GenerateUpdateHeartbeat sets both.
        name: 'idle source: old transaction, last update a heartbeat',
        reasons: ['timeUpdatedLag'],
        model: base().patchStream('customer', '-80', 1, {
          transaction_timestamp: NOW_SECONDS - 3600,
          time_updated: NOW_SECONDS - 2,
          time_heartbeat: NOW_SECONDS - 2,
        }),
      },
      {
        name: 'stored Copying counts as copy-incomplete, not lag',
        reasons: ['transactionLagMaskedByCopy'],
        model: base().patchStream('customer', '-80', 1, {
          state: 'Copying',
          time_updated: NOW_SECONDS - 600,
          transaction_timestamp: 0,
        }),
      },
      {
        name: 'a higher --max-lag accepts it',
        reasons: ['transactionLag', 'timeUpdatedLag'],
        model: base().patchStream('customer', '80-', 1, {
          time_updated: NOW_SECONDS - 95,
          transaction_timestamp: NOW_SECONDS - 95,
        }),
        options: { maxLagSeconds: 120 },
      },
    ],
    invalid: [
      {
        name: 'one stream 95s behind',
        model: base().patchStream('customer', '80-', 1, {
          time_updated: NOW_SECONDS - 95,
          transaction_timestamp: NOW_SECONDS - 95,
        }),
        findings: [
          {
            keyspace: 'customer',
            shard: '80-',
            workflow: 'cust2cust',
            streamId: 1,
            message: joinRegExp(
              /^workflow cust2cust in customer has transaction lag /,
              /95s, above the allowed 30s; worst: 80- stream 1 95s$/,
            ),
            details: {
              reason: 'transactionLag',
              lagSeconds: 95,
              maxLagSeconds: 30,
              vitessError: 'replication lag 95s is higher than allowed lag 30s',
            },
          },
        ],
      },
      {
        // `Workflow stop` within the limit: canSwitch passes it (server.go:3443-3458 @v0.24.4); the source primary has
        // 200 transactions the stream lacks, so waitForCatchup's VReplicationWaitForPos answers with the engine's
        // refusal (engine.go:847 @v0.24.4) and switchWrites rolls back.
        name: 'a stream stopped by hand within the limit, short of its source: the write switch fails at catch-up',
        model: (() => {
          const b = base().patchStream('customer', '-80', 1, {
            state: 'Stopped',
            message: '',
            time_updated: NOW_SECONDS - 10,
            transaction_timestamp: NOW_SECONDS - 10,
          });
          return b.fullStatusOf(b.primary('customer', '0'), { primaryPosition: gtidPos('customer', '0', 1200) });
        })(),
        findings: [
          {
            severity: 'error',
            shard: '-80',
            streamId: 1,
            reason: 'stoppedBehindSource',
            message: /^stream 1 of cust2cust on customer\/-80 is Stopped .*fails and rolls back$/,
            details: {
              vitessError: `replication has stopped at ${serverUuid('customer', '0')}:1-1000 before reaching position ${serverUuid('customer', '0')}:1-1200, message: `,
            },
          },
          // The reads it switches go stale whatever the tablet types (the warning a reads-only switch shows).
          { severity: 'warning', shard: '-80', reason: 'streamStopped' },
        ],
      },
      {
        // Nothing new on the source since the stop: the catch-up wait returns at once; the reads it switches go stale.
        name: 'a stream stopped by hand within the limit, holding all its source has: a warning',
        model: base().patchStream('customer', '-80', 1, {
          state: 'Stopped',
          message: '',
          time_updated: NOW_SECONDS - 10,
          transaction_timestamp: NOW_SECONDS - 10,
        }),
        findings: [
          {
            severity: 'warning',
            shard: '-80',
            reason: 'streamStopped',
            details: { sourcePositionRead: true },
          },
        ],
      },
      {
        // MariaDB tablets: GetFullStatus fails, the source position is unknown: not blocked, said as a warning.
        name: "a stream stopped by hand within the limit, the source primary's position unread",
        model: (() => {
          const b = base().patchStream('customer', '-80', 1, {
            state: 'Stopped',
            message: '',
            time_updated: NOW_SECONDS - 10,
            transaction_timestamp: NOW_SECONDS - 10,
          });
          return b.fullStatusOf(b.primary('customer', '0'), {
            error: "UNKNOWN: Unknown system variable 'super_read_only' (errno 1193) (sqlstate HY000)",
            kind: 'sql-error',
          });
        })(),
        findings: [
          {
            severity: 'warning',
            reason: 'streamStopped',
            message: /the source primary's position was not read\)$/,
            details: { sourcePositionRead: false },
          },
        ],
      },
      {
        name: 'a stopped stream counts, with its state named',
        model: base().patchStream('customer', '-80', 1, {
          state: 'Stopped',
          time_updated: NOW_SECONDS - 300,
          transaction_timestamp: NOW_SECONDS - 400,
        }),
        findings: [
          {
            shard: '-80',
            // The stop updated time_updated without a heartbeat: the newest rule keeps the last transaction (400s).
            message: /transaction lag 400s.*-80 stream 1 400s \(Stopped\)$/,
            details: { lagSeconds: 400 },
          },
        ],
      },
      {
        name: 'old rule only: row not updated although the last transaction is recent',
        model: base().patchStream('customer', '-80', 1, {
          time_updated: NOW_SECONDS - 50,
          transaction_timestamp: NOW_SECONDS - 10,
        }),
        findings: [
          {
            shard: '-80',
            details: {
              reason: 'timeUpdatedLag',
              lagSeconds: 50,
              transactionLagSeconds: 10,
              vitessError: 'replication lag 50s is higher than allowed lag 30s',
            },
          },
        ],
      },
      {
        name: 'worst shard first, several streams over the limit',
        model: base()
          .patchStream('customer', '-80', 1, {
            time_updated: NOW_SECONDS - 40,
            transaction_timestamp: NOW_SECONDS - 40,
          })
          .patchStream('customer', '80-', 1, {
            time_updated: NOW_SECONDS - 70,
            transaction_timestamp: NOW_SECONDS - 70,
          }),
        findings: [
          { shard: '80-', message: /worst: 80- stream 1 70s, -80 stream 1 40s$/, details: { streamsOverLimit: 2 } },
        ],
      },
    ],
  },
  { more: true },
);

const lookupBase = () =>
  cluster()
    .keyspace('customer', {
      shards: ['-80', '80-'],
      vindexes: {
        hash: { type: 'hash', params: {}, owner: '' },
        corder_lookup: {
          type: 'consistent_lookup_unique',
          params: { table: 'lookup.corder_lookup', from: 'id', to: 'keyspace_id' },
          owner: 'corder',
        },
      },
      tables: {
        corder: {
          columnVindexes: [
            { name: 'hash', columns: ['customer_id'] },
            { name: 'corder_lookup', columns: ['id'] },
          ],
        },
      },
    })
    .keyspace('lookup', { shards: ['0'], tables: { corder_lookup: {} } });

checkTester(
  check,
  {
    valid: [
      {
        name: 'a lookup backfill stopped after copy ten minutes ago is not lagging',
        reasons: ['transactionLagNotSwitched', 'timeUpdatedLagNotSwitched'],
        model: lookupBase()
          .lookup('corder_lookup', {
            from: 'customer',
            to: 'lookup',
            table: 'corder_lookup',
            ownerTable: 'corder',
            owned: true,
          })
          .patchStream('lookup', '0', 1, { time_updated: NOW_SECONDS - 600, transaction_timestamp: NOW_SECONDS - 700 })
          .patchStream('lookup', '0', 2, { time_updated: NOW_SECONDS - 600, transaction_timestamp: NOW_SECONDS - 700 }),
      },
    ],
    invalid: [
      {
        name: 'a Materialize behind is a freshness warning, not a SwitchTraffic refusal',
        model: cluster()
          .keyspace('commerce', { shards: ['0'] })
          .keyspace('customer', { shards: ['-80', '80-'] })
          .materialize('sales', { from: 'commerce', to: 'customer', tables: ['sales'] })
          .patchStream('customer', '-80', 1, {
            time_updated: NOW_SECONDS - 100,
            transaction_timestamp: NOW_SECONDS - 100,
          }),
        findings: [
          {
            severity: 'warning',
            shard: '-80',
            workflow: 'sales',
            details: { reason: 'transactionLagNotSwitched', switchable: false, vitessError: undefined },
          },
        ],
      },
      {
        name: 'a Materialize whose row was not updated (v17–v20 rule) is a freshness warning',
        model: cluster()
          .keyspace('commerce', { shards: ['0'] })
          .keyspace('customer', { shards: ['-80', '80-'] })
          .materialize('sales', { from: 'commerce', to: 'customer', tables: ['sales'] })
          .patchStream('customer', '-80', 1, {
            time_updated: NOW_SECONDS - 50,
            transaction_timestamp: NOW_SECONDS - 10,
          }),
        findings: [
          {
            severity: 'warning',
            shard: '-80',
            workflow: 'sales',
            details: { reason: 'timeUpdatedLagNotSwitched', lagSeconds: 50, vitessError: undefined },
          },
        ],
      },
    ],
  },
  { more: true },
);

// the newest getVReplicationTrxLag, the canSwitch skip, the stored-Copying mask.
checkTester(check, {
  valid: [
    {
      // workflows.go getVReplicationTrxLag: transaction_timestamp 0 (no event after the copy) uses time_updated.
      name: 'no transaction since the copy: time_updated counts',
      model: base().patchStream('customer', '-80', 1, {
        transaction_timestamp: 0,
        time_updated: NOW_SECONDS - 5,
        time_heartbeat: NOW_SECONDS - 900,
      }),
      reasons: ['transactionLag'],
    },
    {
      // server.go canSwitch: "writes already switched no need to check lag"; getWorkflowState: a Reshard's writes
      // are switched when its source shard no longer serves primary traffic.
      name: 'writes already switched (Reshard source not serving): canSwitch is skipped',
      model: cluster()
        .keyspace('customer', { shards: ['0', '-80', '80-'], notServing: ['0'] })
        .reshard('cust2cust', { keyspace: 'customer', from: ['0'], to: ['-80', '80-'] })
        .patchStream('customer', '-80', 1, {
          state: 'Stopped',
          message: 'stopped for cutover',
          time_updated: NOW_SECONDS - 900,
          transaction_timestamp: NOW_SECONDS - 900,
        }),
      reasons: ['transactionLag'],
    },
  ],
  invalid: [
    {
      // server.go:4530 @v0.21.3 (the first 21 patch release with PR #17616's backport): the heartbeat equality is
      // there too, so a stream applying a backlog keeps its transaction lag (no release has the heartbeat-less form).
      name: 'backlog on v21.0.3: time_updated newer than the last transaction is not a heartbeat, so it is lag',
      model: base().patchStream('customer', '-80', 1, {
        transaction_timestamp: NOW_SECONDS - 120,
        time_updated: NOW_SECONDS - 1,
        time_heartbeat: NOW_SECONDS - 900,
      }),
      options: { vitess: givenVitessVersions('21.0.3', 'flag') },
      findings: [
        {
          reason: 'transactionLag',
          details: { rule: 'transaction', lagRule: 'heartbeat', transactionLagSeconds: 120 },
        },
      ],
    },
    {
      // workflows.go getVReplicationTrxLag replaces transaction_timestamp by time_updated only when time_updated ==
      // time_heartbeat; binlog_player.go GenerateUpdatePos bumps time_updated on every applied transaction without
      // touching time_heartbeat. A stream applying a 120 s backlog is 120 s behind.
      name: 'a stream applying a backlog: recent time_updated, old heartbeat, 120s transaction lag',
      model: base().patchStream('customer', '-80', 1, {
        transaction_timestamp: NOW_SECONDS - 120,
        time_updated: NOW_SECONDS - 1,
        time_heartbeat: NOW_SECONDS - 900,
      }),
      findings: [
        {
          shard: '-80',
          reason: 'transactionLag',
          details: { lagSeconds: 120, vitessError: 'replication lag 120s is higher than allowed lag 30s' },
        },
      ],
    },
    {
      // binlog_player.go GenerateUpdateTimeThrottled sets only time_updated: a throttled stream keeps its lag.
      name: 'a throttled stream: time_updated bumped by the throttler, not a heartbeat',
      model: base().patchStream('customer', '80-', 1, {
        transaction_timestamp: NOW_SECONDS - 200,
        time_updated: NOW_SECONDS,
        time_heartbeat: NOW_SECONDS - 200,
      }),
      findings: [{ shard: '80-', reason: 'transactionLag', details: { lagSeconds: 200 } }],
    },
    {
      // server.go canSwitch tests the lag before the per-stream FROZEN message; writes not switched (source serving),
      // so a FROZEN stream stopped ten minutes ago is refused for its lag first.
      name: 'FROZEN while writes are not switched: the lag is tested first',
      model: base().patchStream('customer', '-80', 1, {
        message: 'FROZEN',
        state: 'Stopped',
        time_updated: NOW_SECONDS - 600,
        transaction_timestamp: NOW_SECONDS - 600,
      }),
      findings: [{ shard: '-80', details: { vitessError: 'replication lag 600s is higher than allowed lag 30s' } }],
    },
    {
      // workflows.go getVReplicationTrxLag returns math.MaxInt64 for a stream stored Copying; on amd64 its float64
      // converts back to MinInt64, so canSwitch's lag test passes and it refuses on the copy.
      name: 'another stream stored Copying masks the lag refusal (amd64): lag reported, not quoted',
      model: base()
        .patchStream('customer', '-80', 1, { state: 'Copying', transaction_timestamp: 0 })
        .patchStream('customer', '80-', 1, {
          time_updated: NOW_SECONDS - 120,
          transaction_timestamp: NOW_SECONDS - 120,
        }),
      findings: [
        {
          shard: '80-',
          reason: 'transactionLagMaskedByCopy',
          details: { maskedByStoredCopying: true, vitessError: undefined },
        },
      ],
    },
  ],
});
